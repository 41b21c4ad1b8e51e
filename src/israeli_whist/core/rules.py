"""Rule options of the three games as frozen dataclasses, with named presets.

Every option in docs/rules.md is a field here. Its metadata carries the help text and
the allowed values, so ``whist rules`` and ``--option NAME=VALUE`` are driven by
the same definitions the engine reads.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from israeli_whist.core.cards import CLUBS, FIVE, FOUR, FULL_DECK, SUIT_MASKS, CardSet, card_set
from israeli_whist.core.digits import read_number
from israeli_whist.core.errors import RulesError, quoted
from israeli_whist.core.scoring import ZERO_SCORES
from israeli_whist.core.traits import GameTraits

R = TypeVar("R", bound="Rules")


def option(default: Any, help: str, *, choices: tuple[str, ...] = (), low: int | None = None,
           high: int | None = None, suggestions: tuple[str, ...] = (), common: bool = False) -> Any:
    """A rule option. ``choices`` are its only values; ``suggestions`` are usual values of a free-text
    option (forms offer them, and any other text the rules accept); ``common`` marks an option most
    tables set, which forms show first, before the others."""
    return field(default=default, metadata={"help": help, "choices": choices, "low": low, "high": high,
                                            "suggestions": suggestions, "common": common})


def _parse_bool(name: str, text: str) -> bool:
    key = text.strip().lower()
    if key in ("true", "on", "yes", "1"):
        return True
    if key in ("false", "off", "no", "0"):
        return False
    raise RulesError(f"Option {name} is true or false, not {quoted(text)}")


@dataclass(frozen=True)
class Rules:
    """Base of the per-game rules; subclasses add fields and ``PRESETS``."""

    GAME: ClassVar[str] = ""
    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {}

    # What kind of game these rules make, read from a seat's view by the table, the pages and the
    # bots (which see the rules, never the game); the game's own hooks are in ``israeli_whist.core.wholegame``.
    traits: ClassVar[GameTraits] = GameTraits()

    @property
    def players(self) -> int:
        """Seats at the table."""
        raise NotImplementedError

    @property
    def deck_mask(self) -> CardSet:
        """Every card of the pack these rules play with."""
        return FULL_DECK

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            meta = f.metadata
            # Values can come from JSON records, so a wrong type must fail here, not deep in a game.
            whole = isinstance(value, int) and not isinstance(value, bool)
            if meta.get("low") is not None and not whole and not (f.default is None and value is None):
                raise RulesError(f"Option {f.name} is a whole number, not {quoted(value)}")
            if isinstance(f.default, str) and not isinstance(value, str):
                raise RulesError(f"Option {f.name} is text, not {quoted(value)}")
            if meta.get("choices") and value not in meta["choices"]:
                raise RulesError(f"Option {f.name} must be one of {', '.join(meta['choices'])}, not {quoted(value)}")
            if isinstance(f.default, bool) and not isinstance(value, bool):
                raise RulesError(f"Option {f.name} is true or false, not {quoted(value)}")
            if isinstance(value, int) and not isinstance(value, bool):
                low, high = meta.get("low"), meta.get("high")
                if (low is not None and value < low) or (high is not None and value > high):
                    raise RulesError(f"Option {f.name} must be between {low} and {high}, not {quoted(value)}")
        self.check()

    def check(self) -> None:
        """Checks that concern several options together; raise RulesError."""

    @classmethod
    def option_names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]

    @classmethod
    def preset(cls: type[R], name: str) -> R:
        if name not in cls.PRESETS:
            raise RulesError(f"No preset {quoted(name)} for {cls.GAME}; presets: {', '.join(cls.PRESETS)}")
        return cls(**cls.PRESETS[name])

    def with_options(self: R, options: Mapping[str, Any]) -> R:
        """A copy with options changed; string values are parsed by the option's type."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        for name, value in options.items():
            if name not in fields:
                raise RulesError(f"Unknown option {quoted(name)} for {self.GAME}; options: {', '.join(fields)}")
            changes[name] = parse_option_value(fields[name], value) if isinstance(value, str) else value
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def changed_options(self) -> dict[str, Any]:
        """The options that differ from the defaults."""
        default = type(self)()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}


def parse_option_value(f: dataclasses.Field[Any], text: str) -> Any:
    default = f.default
    if isinstance(default, bool):
        return _parse_bool(f.name, text)
    if isinstance(default, int) or (default is None and f.metadata.get("low") is not None):
        key = text.strip().lower()
        if default is None and key in ("", "none", "off", "0"):
            return None
        number = read_number(key)  # ASCII digits only: "٣" is not 3 here either
        if number is None:
            raise RulesError(f"Option {f.name} is a whole number, not {quoted(text)}")
        return number
    return text.strip()


def option_rows(rules_cls: type[Rules]) -> list[tuple[str, str, str, str]]:
    """(name, default, allowed values, help) for every option of a game."""
    rows = []
    for f in dataclasses.fields(rules_cls):
        meta = f.metadata
        kind = option_kind(f)
        if kind == "choice":
            allowed = " | ".join(meta["choices"])
        elif kind == "bool":
            allowed = "true | false"
        elif kind == "number":
            allowed = f"{meta['low']}..{meta['high']}" + (" or none" if f.default is None else "")
        else:
            allowed = "text"
        default = str(f.default).lower() if isinstance(f.default, bool) or f.default is None else str(f.default)
        rows.append((f.name, default, allowed, meta.get("help", "")))
    return rows


def option_kind(f: dataclasses.Field[Any]) -> str:
    """What a form asks for: "choice" (one of ``choices``), "bool", "number" (``low``..``high``,
    or none where the default is None) or "text"."""
    if f.metadata.get("choices"):
        return "choice"
    if isinstance(f.default, bool):
        return "bool"
    if f.metadata.get("low") is not None:
        return "number"
    return "text"


def option_specs(rules_cls: type[Rules]) -> list[dict[str, Any]]:
    """Every option of a game as plain data, for forms made from the rules (the web pages)."""
    specs = []
    for f in dataclasses.fields(rules_cls):
        meta = f.metadata
        kind = option_kind(f)
        spec: dict[str, Any] = {"name": f.name, "kind": kind, "default": f.default, "help": meta.get("help", ""),
                                "common": bool(meta.get("common"))}
        if kind == "choice":
            spec["choices"] = list(meta["choices"])
        elif kind == "number":
            spec.update(low=meta["low"], high=meta["high"], optional=f.default is None)
        elif kind == "text":
            spec["suggestions"] = list(meta.get("suggestions", ()))
        specs.append(spec)
    return specs


# Israeli Whist --------------------------------------------------------------------------------

FORM_PLAYERS = {
    "four_players": 4,
    "three_no_clubs": 3,
    "three_short_deck": 3,
    "three_short_deck_40": 3,
    "three_random_card": 3,
}

# Cards left out of the pack in each form, and cards dealt to each player.
FORM_DECKS: dict[str, tuple[list[int], int]] = {
    "four_players": (list(range(52)), 13),
    "three_no_clubs": ([c for c in range(52) if not SUIT_MASKS[CLUBS] >> c & 1], 13),
    "three_short_deck": ([c for c in range(52) if c % 13 > FIVE], 12),
    "three_short_deck_40": ([c for c in range(52) if c % 13 > FOUR], 12),
    "three_random_card": (list(range(52)), 17),
}
_FORM_DECK_MASKS: dict[str, CardSet] = {form: card_set(cards) for form, (cards, _) in FORM_DECKS.items()}


@dataclass(frozen=True)
class IsraeliRules(Rules):
    GAME: ClassVar[str] = "israeli"
    traits: ClassVar[GameTraits] = GameTraits(
        trump_auction=True, frisch=True,
        rewards_zero_bids=True,  # a made zero scores 50 (25 over), more than most contracts
        sheet_fields=("declarer", "level", "strain", "frisch", "contracts", "tricks", "revokes"),
        players_hint="three players play one of the three-player forms (option form)")

    form: str = option("four_players", "Players and deck: four players, or one of the three-player forms",
                       choices=tuple(FORM_PLAYERS), common=True)
    auction_starts: str = option("left_of_dealer", "Who makes the first trump call",
                                 choices=("left_of_dealer", "dealer"))
    nt_minimum: int = option(7, "Lowest level of a no-trump bid", low=5, high=13)
    auction_end: str = option("three_passes", "three_passes: a bid and three passes end it; four_passes: "
                              "the high bidder may raise after three passes, all four must pass",
                              choices=("three_passes", "four_passes"))
    no_trump_allowed: bool = option(True, "Whether no-trump bids are allowed")
    frisch_rounds: int = option(3, "Frisch rounds before a redeal when all pass (0: redeal at once)", low=0, high=3)
    frisch_raises_minimum: bool = option(True, "Each Frisch raises the minimum bid by one (6, 7, 8)")
    frisch_direction: str = option("left", "Where Frisch cards go; rotating: left, across, right (4 players)",
                                   choices=("left", "rotating", "right"))
    high_contract_first_undertrick: bool = option(
        False, "A failed contract of 7+ that falls short loses 15 for the first trick, not 10")
    zero_scoring: str = option("standard", "Zero-bid scores: standard (made +50 under, +25 over; failed -50, "
                               "then +10 a trick), or achim (in an over hand made +30, failed a flat -30)",
                               choices=tuple(ZERO_SCORES))
    hands: int = option(12, "Hands in a game (0: no limit, play to target)", low=0, high=1000, common=True)
    target: int | None = option(None, "End the game when a player's total reaches this score", low=1, high=100000,
                                common=True)

    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "standard": {},
        "achim": {"zero_scoring": "achim"},
        "pagat": {"auction_end": "four_passes"},
        "nt5": {"nt_minimum": 5},
        "no_nt": {"no_trump_allowed": False},
        "three_no_clubs": {"form": "three_no_clubs"},
        "three_short_deck": {"form": "three_short_deck"},
        "three_short_deck_40": {"form": "three_short_deck_40"},
        "three_random_card": {"form": "three_random_card"},
    }

    @property
    def players(self) -> int:
        return FORM_PLAYERS[self.form]

    @property
    def deck_mask(self) -> CardSet:
        return _FORM_DECK_MASKS[self.form]

    def check(self) -> None:
        if self.players == 3 and self.frisch_direction == "rotating":
            raise RulesError("frisch_direction=rotating needs four players: three players pass left or right")
        if self.hands == 0 and self.target is None:
            raise RulesError("A game needs an end: set hands above 0 or a target")


# Classic Whist --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClassicRules(Rules):
    GAME: ClassVar[str] = "classic"
    traits: ClassVar[GameTraits] = GameTraits(
        partnerships=True, contracts=False, over_under=False, turned_card="dealer",
        last_trick_open=False,  # docs/rules.md#classic-whist-play: seen only until the next trick
        honours=True, games_to_target=True, sheet_fields=("tricks", "honours", "revokes"),
        players_hint="two sides of two")

    target: int = option(5, "Points a side needs to win a game", low=1, high=100, common=True)
    honours: bool = option(False, "Score honours: all four of A K Q J of trumps 4, three of them 2")
    rubber: bool = option(False, "Play a rubber: best of three games")
    cut_for_partners: bool = option(False, "Draw partnerships by cutting cards: the two highest play together")

    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "standard": {},
        "honours": {"honours": True},
        "rubber": {"rubber": True},
        "long": {"target": 10, "honours": True},
    }

    @property
    def players(self) -> int:
        return 4


# Whistiti -------------------------------------------------------------------------------------

SCHEDULES = ("up", "up_down", "down_up")
FIRST_LEADS = ("highest_bidder", "left_of_dealer")


@dataclass(frozen=True)
class WhistitiRules(Rules):
    GAME: ClassVar[str] = "whistiti"
    traits: ClassVar[GameTraits] = GameTraits(
        contract_word="bid", turned_card="stock", hand_size_varies=True, sheet_fields=("contracts", "tricks"),
        players_hint="the option players sets how many, 3 to 7")

    players: int = option(4, "Number of players", low=3, high=7, common=True)
    schedule: str = option("up", "Cards per hand: up (1..max), up_down, down_up, or a list like 1,3,5",
                           suggestions=SCHEDULES, common=True)
    first_lead: str = option("highest_bidder", "Who leads the first trick: highest_bidder (equal bids: the first "
                             "in bidding order), or left_of_dealer (as OpenSpiel's oh_hell)", choices=FIRST_LEADS)

    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "standard": {},
        "up_down": {"schedule": "up_down"},
        "down_up": {"schedule": "down_up"},
        # OpenSpiel's oh_hell(players=4, num_tricks_fixed=12, off_bid_penalty=true, points_per_trick=5):
        # one hand of 12 cards, the player left of the dealer leads. Its bidding, trump card and
        # scoring are Whistiti's already (docs/rules-notes.md).
        "oh_hell": {"schedule": "12", "first_lead": "left_of_dealer"},
    }

    @property
    def max_cards(self) -> int:
        return 52 // self.players

    def hand_sizes(self) -> tuple[int, ...]:
        top = self.max_cards
        if self.schedule == "up":
            return tuple(range(1, top + 1))
        if self.schedule == "up_down":
            return tuple(range(1, top + 1)) + tuple(range(top - 1, 0, -1))
        if self.schedule == "down_up":
            return tuple(range(top, 0, -1)) + tuple(range(2, top + 1))
        sizes = []
        for token in self.schedule.replace(" ", "").split(","):
            size = read_number(token)
            if size is None or not 1 <= size <= top:
                raise RulesError(f"schedule: each hand deals 1 to {top} cards to {self.players} players, "
                                 f"not {quoted(token)}; use up, up_down, down_up or a list like 1,3,5")
            sizes.append(size)
        return tuple(sizes)

    def check(self) -> None:
        self.hand_sizes()
