"""The score sheet for games played with real cards (docs/rules.md#score-sheet-for-real-cards).

The scorer enters each hand as it ends at the table; the sheet checks the entry against the
rules, scores it with the engine's own scoring (``israeli_whist.core.scoring``, the rules dataclasses,
the games' hand sizes and auction minimums) and keeps the running totals, the end of the game
and the history. Everything is an immutable value: ``Sheet.add`` returns a new sheet.

>>> from israeli_whist.core.cards import HEARTS, SPADES
>>> sheet = Sheet.start("israeli", ["Ann", "Ben", "Dan", "Eve"])
>>> entry = IsraeliEntry(declarer=1, level=5, strain=SPADES, contracts=(3, 5, 0, 4), tricks=(3, 6, 0, 4))
>>> sheet = sheet.add(entry)
>>> sheet.scores[0].points, sheet.scores[0].over_under
((19, -10, 50, 26), 'under')
>>> sheet.add(IsraeliEntry(declarer=2, level=5, strain=HEARTS, contracts=(3, 4, 5, 1), tricks=(3, 4, 5, 1)))
Traceback (most recent call last):
...
israeli_whist.core.scoresheet.SheetError: The contracts add up to 13, the number of tricks, so someone must fail: \
the last bidder, Ben, may not bid 4
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, cast

from israeli_whist.core.cards import NO_TRUMP, STRAIN_LETTERS
from israeli_whist.core.classic import ClassicWhist
from israeli_whist.core.errors import WhistError, quoted
from israeli_whist.core.games import game_for_rules, make_rules
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.israeli import bid_strains, minimum_level, unbiddable_strain
from israeli_whist.core.names import NameRefused, normal_name
from israeli_whist.core.rules import IsraeliRules, Rules
from israeli_whist.core.scoring import classic_trick_points, israeli_score, whistiti_score
from israeli_whist.core.wording import count_text

__all__ = [
    "CLASSIC_REVOKE_POINTS", "ISRAELI_REVOKE_PENALTY", "ClassicEntry", "Entry", "HandScore", "IsraeliEntry",
    "Sheet", "SheetError", "WhistitiEntry", "entry_from_dict",
]

ISRAELI_REVOKE_PENALTY = 100  # docs/rules.md#israeli-whist-play: a revoke caught at the table costs 100 points
CLASSIC_REVOKE_POINTS = 3  # docs/rules-notes.md: the other side adds three points for each revoke
HONOURS = 4  # A K Q J of trumps, all dealt in Classic Whist


class SheetError(WhistError):
    """An entry or a sheet that the rules do not allow; the message says why, for the scorer."""


# Reading JSON ----------------------------------------------------------------------------------


def _whole(data: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        raise SheetError(f"'{key}' must be a whole number, not {quoted(value)}")
    return value


def _numbers(data: Mapping[str, Any], key: str, length: int | None = None, *, required: bool = True) -> tuple[int, ...]:
    value = data.get(key)
    if value is None and not required:
        return ()
    if not isinstance(value, list | tuple) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise SheetError(f"'{key}' must be a list of whole numbers, not {quoted(value)}")
    if length is not None and len(value) != length:
        raise SheetError(f"'{key}' must have {length} numbers, not {len(value)}")
    return tuple(value)


def _no_unknown_keys(data: Mapping[str, Any], known: Sequence[str]) -> None:
    if not isinstance(data, Mapping):
        raise SheetError(f"A hand is a JSON object, not {quoted(data)}")
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise SheetError(f"Unknown field {quoted(unknown[0])} in a hand; the fields are {', '.join(known)}")


def _strain(value: Any) -> int:
    if isinstance(value, str) and value.upper() in STRAIN_LETTERS:
        return STRAIN_LETTERS.index(value.upper())
    raise SheetError(f"The trump strain is one of {', '.join(STRAIN_LETTERS)}, not {quoted(value)}")


# Hand entries ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class IsraeliEntry:
    """One hand of Israeli Whist as the scorer enters it.

    ``declarer`` is None when every player passed through the last Frisch and the hand is
    cancelled; otherwise the auction's result (``level`` in ``strain``, after ``frisch`` Frisch
    rounds), each player's contract, tricks taken, and revokes (each costs 100 points).

    >>> IsraeliEntry.from_dict({"declarer": 0, "level": 6, "strain": "NT", "frisch": 1,
    ...                         "contracts": [7, 2, 0, 1], "tricks": [7, 3, 1, 2]}).strain
    4
    >>> IsraeliEntry.all_passed().to_dict()
    {'declarer': None}
    """

    declarer: int | None
    level: int = 0
    strain: int = 0
    contracts: tuple[int, ...] = ()
    tricks: tuple[int, ...] = ()
    revokes: tuple[int, ...] = ()  # empty: nobody revoked
    frisch: int = 0  # Frisch rounds before the winning bid: each one raises the minimum level

    FIELDS: ClassVar[tuple[str, ...]] = ("declarer", "level", "strain", "frisch", "contracts", "tricks", "revokes")

    @classmethod
    def all_passed(cls) -> IsraeliEntry:
        return cls(declarer=None)

    @property
    def cancelled(self) -> bool:
        return self.declarer is None

    def to_dict(self) -> dict[str, Any]:
        if self.declarer is None:
            return {"declarer": None}
        data: dict[str, Any] = {"declarer": self.declarer, "level": self.level, "strain": STRAIN_LETTERS[self.strain],
                                "frisch": self.frisch, "contracts": list(self.contracts), "tricks": list(self.tricks)}
        if any(self.revokes):
            data["revokes"] = list(self.revokes)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> IsraeliEntry:
        _no_unknown_keys(data, cls.FIELDS)
        if "declarer" not in data:
            raise SheetError("'declarer' is missing: the declarer's seat, or null when everyone passed")
        if data["declarer"] is None:
            if set(data) - {"declarer", "frisch"}:
                raise SheetError("A hand in which everyone passed has no contracts, tricks or revokes")
            return cls.all_passed()
        return cls(declarer=_whole(data, "declarer"), level=_whole(data, "level"), strain=_strain(data.get("strain")),
                   frisch=_whole(data, "frisch", 0), contracts=_numbers(data, "contracts"),
                   tricks=_numbers(data, "tricks"), revokes=_numbers(data, "revokes", required=False))


@dataclass(frozen=True)
class ClassicEntry:
    """One hand of Classic Whist: tricks of each side (seats 0+2, 1+3), the honours each side
    held (only when the sheet counts honours), and revokes by each side.

    >>> ClassicEntry.from_dict({"tricks": [8, 5]}).to_dict()
    {'tricks': [8, 5]}
    """

    tricks: tuple[int, ...]
    honours: tuple[int, ...] | None = None
    revokes: tuple[int, ...] = ()

    FIELDS: ClassVar[tuple[str, ...]] = ("tricks", "honours", "revokes")

    cancelled: ClassVar[bool] = False

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"tricks": list(self.tricks)}
        if self.honours is not None:
            data["honours"] = list(self.honours)
        if any(self.revokes):
            data["revokes"] = list(self.revokes)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClassicEntry:
        _no_unknown_keys(data, cls.FIELDS)
        honours = _numbers(data, "honours", 2, required=False)
        return cls(tricks=_numbers(data, "tricks", 2), honours=honours or None,
                   revokes=_numbers(data, "revokes", 2, required=False))


@dataclass(frozen=True)
class WhistitiEntry:
    """One hand of Whistiti: each player's bid (contract) and tricks taken.

    >>> WhistitiEntry.from_dict({"contracts": [1, 0, 0, 1], "tricks": [1, 0, 0, 0]}).to_dict()
    {'contracts': [1, 0, 0, 1], 'tricks': [1, 0, 0, 0]}
    """

    contracts: tuple[int, ...]
    tricks: tuple[int, ...]

    FIELDS: ClassVar[tuple[str, ...]] = ("contracts", "tricks")

    cancelled: ClassVar[bool] = False

    def to_dict(self) -> dict[str, Any]:
        return {"contracts": list(self.contracts), "tricks": list(self.tricks)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> WhistitiEntry:
        _no_unknown_keys(data, cls.FIELDS)
        return cls(contracts=_numbers(data, "contracts"), tricks=_numbers(data, "tricks"))


Entry = IsraeliEntry | ClassicEntry | WhistitiEntry
# What the scorer enters for a hand of each game: a game without a line here has no score sheet yet.
ENTRY_TYPES: dict[str, type[IsraeliEntry] | type[ClassicEntry] | type[WhistitiEntry]] = {
    "israeli": IsraeliEntry, "classic": ClassicEntry, "whistiti": WhistitiEntry}


def entry_from_dict(game: str, data: Any) -> Entry:
    """The entry of a hand of ``game`` from its JSON form; SheetError if it is malformed."""
    if not isinstance(data, Mapping):
        raise SheetError(f"A hand is a JSON object, not {quoted(data)}")
    return ENTRY_TYPES[game].from_dict(data)


# Scored hands -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandScore:
    """A hand as the sheet keeps it: the entry and what the sheet computed from it."""

    number: int  # 1-based line of the sheet, cancelled hands included
    entry: Entry
    dealer: int
    hand_size: int  # tricks in the hand
    points: tuple[int, ...]  # each player's points for the hand, penalties included
    penalties: tuple[int, ...]  # the part of ``points`` that revokes cost (or earned, in Classic Whist)
    totals: tuple[int, ...]  # running totals after this hand
    over_under: str | None = None  # Israeli Whist and Whistiti: "over" or "under"
    honours: tuple[int, int] = (0, 0)  # Classic Whist: honour points of each side
    game_won: int | None = None  # Classic Whist: the side (0 or 1) that won a game with this hand

    @property
    def cancelled(self) -> bool:
        return self.entry.cancelled

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "entry": self.entry.to_dict(), "cancelled": self.cancelled,
                "dealer": self.dealer, "hand_size": self.hand_size, "points": list(self.points),
                "penalties": list(self.penalties), "totals": list(self.totals), "over_under": self.over_under,
                "honours": list(self.honours), "game_won": self.game_won}


# The sheet --------------------------------------------------------------------------------------


def _check_names(players: Sequence[str], game: HandGame) -> tuple[str, ...]:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise SheetError("The players are a list of names")
    count = game.players
    if len(players) != count:
        raise SheetError(f"{game.title} with these rules needs {count} players, not {len(players)}: "
                         f"{game.rules.traits.players_hint}")
    names = []
    for name in players:
        if not isinstance(name, str):
            raise SheetError(f"A player's name is a text, not {quoted(name)}")
        try:
            names.append(normal_name(name))
        except NameRefused as refused:
            raise SheetError(str(refused)) from None
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            raise SheetError(f"Two players are called {quoted(name)}: give each a different name")
        seen.add(name.casefold())
    return tuple(names)


def _check_range(values: Sequence[int], low: int, high: int, what: str, names: Sequence[str]) -> None:
    for name, value in zip(names, values, strict=True):
        if not low <= value <= high:
            raise SheetError(f"{what} of {name} must be from {low} to {high}, not {value}")


@dataclass(frozen=True)
class Sheet:
    """A game's score sheet: rules, players in seating order (the first deals first), hands."""

    rules: Rules
    players: tuple[str, ...]
    scores: tuple[HandScore, ...] = ()
    totals: tuple[int, ...] = ()
    game_points: tuple[int, int] = (0, 0)  # Classic Whist: points of each side in the game under way
    games_won: tuple[int, int] = (0, 0)  # Classic Whist: games won by each side
    dealer: int = 0  # the dealer of the next hand
    hands_played: int = 0  # hands scored, cancelled ones not counted
    over: bool = False

    @classmethod
    def start(cls, game: str, players: Sequence[str], preset: str | None = None,
              options: Mapping[str, Any] | None = None) -> Sheet:
        """A new sheet; RulesError for unknown games, presets or options, SheetError for bad names."""
        rules = make_rules(game, preset, options)
        hand_game = game_for_rules(rules)
        if game not in ENTRY_TYPES:
            raise SheetError(f"There is no score sheet for {hand_game.title} yet")
        return cls(rules, _check_names(players, hand_game), totals=(0,) * rules.players)

    @classmethod
    def replay(cls, game: str, options: Mapping[str, Any], players: Sequence[str],
               entries: Sequence[Entry | Mapping[str, Any]]) -> Sheet:
        """A sheet from its stored parts: every entry is checked and scored again."""
        sheet = cls.start(game, players, None, options)
        for entry in entries:
            sheet = sheet.add(entry if isinstance(entry, IsraeliEntry | ClassicEntry | WhistitiEntry)
                              else entry_from_dict(game, entry))
        return sheet

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Sheet:
        return cls.replay(data["game"], data.get("options", {}), data["players"], data.get("hands", []))

    def to_dict(self) -> dict[str, Any]:
        """What is stored: the rest is computed again from it."""
        return {"game": self.game, "options": self.rules.changed_options(), "players": list(self.players),
                "hands": [s.entry.to_dict() for s in self.scores]}

    # What the sheet shows -------------------------------------------------------------------

    @property
    def game(self) -> str:
        return self.rules.GAME

    @property
    def hand_game(self) -> HandGame:
        """The game these rules play, which answers what differs between the games."""
        return game_for_rules(self.rules)

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(s.entry for s in self.scores)

    @property
    def hand_size(self) -> int:
        """Tricks in the next hand (in Whistiti, from the deal schedule)."""
        return self.hand_game.hand_size(self.hands_played)

    @property
    def hands_total(self) -> int | None:
        """How many hands the game lasts, where that is known in advance."""
        return self.hand_game.hands_in_game()

    def places(self) -> tuple[int, ...]:
        """Place of each player (1 = first); equal results share a place. In Classic Whist
        partners share their side's place, by games won and then points."""
        return self.hand_game.places(self.totals, self.games_won)

    # Entering hands -------------------------------------------------------------------------

    def add(self, entry: Entry) -> Sheet:
        """The sheet with one more hand; SheetError, with the reason, if the rules refuse it."""
        if self.over:
            raise SheetError("The game is over: no more hands")
        if not isinstance(entry, ENTRY_TYPES[self.game]):
            raise SheetError(f"This is a sheet of {self.game}, not a hand of another game")
        # The entry's type is the sheet's game's, so it says which scoring applies.
        if isinstance(entry, IsraeliEntry):
            return self._add_israeli(entry)
        if isinstance(entry, ClassicEntry):
            return self._add_classic(entry)
        return self._add_whistiti(entry)

    def undo(self) -> Sheet:
        """The sheet without its last hand."""
        if not self.scores:
            raise SheetError("There is no hand to take back")
        return Sheet.replay(self.game, self.rules.changed_options(), self.players, self.entries[:-1])

    def _record(self, entry: Entry, points: Sequence[int], penalties: Sequence[int], *,
                over_under: str | None = None, honours: tuple[int, int] = (0, 0)) -> Sheet:
        """Append a scored hand and move the game on: dealer, totals, the end."""
        n = len(self.players)
        points = tuple(p + q for p, q in zip(points, penalties, strict=True))
        totals = tuple(t + p for t, p in zip(self.totals, points, strict=True))
        played = self.hands_played + (0 if entry.cancelled else 1)
        game = self.hand_game
        game_points: tuple[int, ...] = self.game_points
        if game.game_target is not None:
            # Sides 0 and 1 score as seats 0 and 1; the game ends one of the match's games as Match does.
            game_points = (game_points[0] + points[0], game_points[1] + points[1])
        game_points, games_won, game_won = game.close_game(game_points, self.games_won)
        over = game.is_over(played, totals, games_won)
        score = HandScore(len(self.scores) + 1, entry, self.dealer, self.hand_size, points, tuple(penalties), totals,
                          over_under, honours, game_won)
        dealer = self.dealer if entry.cancelled else (self.dealer + 1) % n
        return replace(self, scores=self.scores + (score,), totals=totals,
                       game_points=(game_points[0], game_points[1]), games_won=(games_won[0], games_won[1]),
                       dealer=dealer, hands_played=played, over=over)

    def _check_contracts(self, contracts: Sequence[int], size: int, last_bidder: int) -> str:
        """Checks common to Israeli Whist and Whistiti; returns 'over' or 'under'."""
        names = self.players
        if len(contracts) != len(names):
            raise SheetError(f"Enter a contract for each of the {len(names)} players")
        _check_range(contracts, 0, size, "The contract", names)
        if sum(contracts) == size:
            forbidden = contracts[last_bidder]
            raise SheetError(f"The contracts add up to {size}, the number of tricks, so someone must fail: "
                             f"the last bidder, {names[last_bidder]}, may not bid {forbidden}")
        return "over" if sum(contracts) > size else "under"

    def _check_tricks(self, tricks: Sequence[int], size: int, names: Sequence[str]) -> None:
        if len(tricks) != len(names):
            raise SheetError(f"Enter the tricks of each of the {len(names)} " +
                             ("sides" if len(names) == 2 else "players"))
        _check_range(tricks, 0, size, "The tricks", names)
        if sum(tricks) != size:
            raise SheetError(f"The tricks add up to {sum(tricks)}, but the hand has {count_text(size, 'trick')}: "
                             "every trick is won by someone")

    def _revokes(self, revokes: Sequence[int], size: int, names: Sequence[str]) -> tuple[int, ...]:
        if not revokes:
            return (0,) * len(names)
        if len(revokes) != len(names):
            raise SheetError(f"Enter the revokes of each of the {len(names)} " +
                             ("sides" if len(names) == 2 else "players"))
        _check_range(revokes, 0, size, "The number of revokes", names)
        return tuple(revokes)

    def _add_israeli(self, entry: IsraeliEntry) -> Sheet:
        rules = cast(IsraeliRules, self.rules)  # the entry is Israeli, and so is the sheet (see add)
        n, size, names = len(self.players), self.hand_size, self.players
        if entry.declarer is None:
            return self._record(entry, (0,) * n, (0,) * n)
        if not 0 <= entry.declarer < n:
            raise SheetError(f"The declarer is a seat from 0 to {n - 1}, not {entry.declarer}")
        if not 0 <= entry.strain <= NO_TRUMP:
            raise SheetError(f"The trump strain is 0 to {NO_TRUMP} (clubs to no trump), not {entry.strain}")
        if entry.strain not in bid_strains(rules):
            raise SheetError(unbiddable_strain(rules, entry.strain))
        if not 0 <= entry.frisch <= rules.frisch_rounds:
            raise SheetError(f"This table plays at most {rules.frisch_rounds} Frisch rounds, not {entry.frisch}")
        low = minimum_level(rules, entry.strain, entry.frisch)
        strain = STRAIN_LETTERS[entry.strain]
        if not low <= entry.level <= size:
            after = f" after {count_text(entry.frisch, 'Frisch round')}" if entry.frisch else ""
            raise SheetError(f"A bid in {strain}{after} is from {low} to {size}, not {entry.level}")
        declarer = names[entry.declarer]
        # The declarer bids first, then the others to the left: the last bidder sits on the declarer's right.
        over_under = self._check_contracts(entry.contracts, size, (entry.declarer - 1) % n)
        if entry.contracts[entry.declarer] < entry.level:
            raise SheetError(f"The declarer, {declarer}, must bid at least the auction level, {entry.level}, "
                             f"not {entry.contracts[entry.declarer]}")
        self._check_tricks(entry.tricks, size, names)
        revokes = self._revokes(entry.revokes, size, names)
        points = tuple(israeli_score(c, t, over=over_under == "over", zero_scoring=rules.zero_scoring,
                                     high_contract_first_undertrick=rules.high_contract_first_undertrick)
                       for c, t in zip(entry.contracts, entry.tricks, strict=True))
        penalties = tuple(-ISRAELI_REVOKE_PENALTY * r for r in revokes)
        return self._record(entry, points, penalties, over_under=over_under)

    def _add_classic(self, entry: ClassicEntry) -> Sheet:
        game = cast(ClassicWhist, self.hand_game)  # the entry is Classic, and so is the sheet (see add)
        sides = (f"{self.players[0]} & {self.players[2]}", f"{self.players[1]} & {self.players[3]}")
        size = self.hand_size
        self._check_tricks(entry.tricks, size, sides)
        revokes = self._revokes(entry.revokes, size, sides)
        trick_points = classic_trick_points(entry.tricks)
        honours = (0, 0)
        if game.counts_honours:
            if entry.honours is None:
                raise SheetError("This sheet counts honours: enter how many of A K Q J of trumps each side held")
            if len(entry.honours) != 2:
                raise SheetError("Enter the honours of each of the 2 sides")
            _check_range(entry.honours, 0, HONOURS, "The honours", sides)
            if sum(entry.honours) != HONOURS:
                raise SheetError(f"All four honours are dealt: the sides hold {HONOURS} between them, "
                                 f"not {sum(entry.honours)}")
            honours = game.side_honours(trick_points, entry.honours, self.game_points)
        elif entry.honours is not None:
            raise SheetError("This sheet does not count honours (the honours option is off)")
        side_points = (trick_points[0] + honours[0], trick_points[1] + honours[1])
        # Each revoke gives the other side three points.
        bonus = (CLASSIC_REVOKE_POINTS * revokes[1], CLASSIC_REVOKE_POINTS * revokes[0])
        points = tuple(side_points[seat % 2] for seat in range(4))
        return self._record(entry, points, tuple(bonus[seat % 2] for seat in range(4)), honours=honours)

    def _add_whistiti(self, entry: WhistitiEntry) -> Sheet:
        size, names = self.hand_size, self.players
        # Bidding starts left of the dealer, so the dealer bids last.
        over_under = self._check_contracts(entry.contracts, size, self.dealer)
        self._check_tricks(entry.tricks, size, names)
        points = tuple(whistiti_score(c, t) for c, t in zip(entry.contracts, entry.tricks, strict=True))
        return self._record(entry, points, (0,) * len(names), over_under=over_under)

