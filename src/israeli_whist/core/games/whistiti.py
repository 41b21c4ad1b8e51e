"""Whistiti (docs/rules.md#whistiti): 3-7 players, a growing deal, trump from the stock, bids: its
rules and presets, its hooks, its scoring and its score sheet's entry; ``israeli_whist.core.games``
registers it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from israeli_whist.core.actions import Action, Phase
from israeli_whist.core.cards import NO_TRUMP
from israeli_whist.core.digits import read_number
from israeli_whist.core.errors import RulesError, quoted
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.rules import Rules, option
from israeli_whist.core.sheetentry import (
    EntryScore,
    SheetEntry,
    SheetHand,
    check_contracts,
    check_tricks,
    no_unknown_keys,
    numbers,
)
from israeli_whist.core.state import HandState
from israeli_whist.core.traits import GameTraits

# Scoring --------------------------------------------------------------------------------------


def whistiti_score(contract: int, taken: int) -> int:
    """Exact: 10 + 5 a trick; missed: -5 for each trick of difference.

    >>> whistiti_score(3, 3)
    25
    """
    if taken == contract:
        return 10 + 5 * contract
    return -5 * abs(taken - contract)


# The score sheet's entry ---------------------------------------------------------------------


@dataclass(frozen=True)
class WhistitiEntry(SheetEntry):
    """One hand of Whistiti: each player's bid (contract) and tricks taken.

    >>> WhistitiEntry.from_dict({"contracts": [1, 0, 0, 1], "tricks": [1, 0, 0, 0]}).to_dict()
    {'contracts': [1, 0, 0, 1], 'tricks': [1, 0, 0, 0]}
    """

    contracts: tuple[int, ...]
    tricks: tuple[int, ...]

    FIELDS: ClassVar[tuple[str, ...]] = ("contracts", "tricks")

    def to_dict(self) -> dict[str, Any]:
        return {"contracts": list(self.contracts), "tricks": list(self.tricks)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> WhistitiEntry:
        no_unknown_keys(data, cls.FIELDS)
        return cls(contracts=numbers(data, "contracts"), tricks=numbers(data, "tricks"))

    def score(self, hand: SheetHand) -> EntryScore:
        size, names = hand.hand_size, hand.players
        # Bidding starts left of the dealer, so the dealer bids last.
        over_under = check_contracts(self.contracts, size, hand.dealer, names)
        check_tricks(self.tricks, size, names)
        points = tuple(whistiti_score(c, t) for c, t in zip(self.contracts, self.tricks, strict=True))
        return EntryScore(points, (0,) * len(names), over_under=over_under)


# Rules ----------------------------------------------------------------------------------------

SCHEDULES = ("up", "up_down", "down_up")
FIRST_LEADS = ("highest_bidder", "left_of_dealer")


@dataclass(frozen=True)
class WhistitiRules(Rules):
    GAME: ClassVar[str] = "whistiti"
    traits: ClassVar[GameTraits] = GameTraits(
        contract_word="bid", turned_card="stock", hand_size_varies=True, sheet_fields=WhistitiEntry.FIELDS,
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


# The game -------------------------------------------------------------------------------------


class Whistiti(HandGame):
    title = "Whistiti"
    rules_type = WhistitiRules
    sheet_entry = WhistitiEntry
    rules: WhistitiRules

    def __init__(self, rules: WhistitiRules | None = None) -> None:
        super().__init__(rules)
        self.schedule = self.rules.hand_sizes()

    def hand_size(self, hand_number: int) -> int:
        return self.schedule[hand_number % len(self.schedule)]

    def turned_position(self, dealt: int, pack: int) -> int:
        return dealt if dealt < pack else -1  # the top card of the stock, if any

    def opening(self, dealer: int, turned_card: int) -> dict[str, Any]:
        return {
            "phase": Phase.CONTRACT,
            "player": (dealer + 1) % self.players,
            "trump": turned_card // 13 if turned_card >= 0 else NO_TRUMP,
            "contracts": (-1,) * self.players,
        }

    def legal_other(self, state: HandState) -> Sequence[Action]:
        return []

    def first_leader(self, state: HandState, contracts: list[int]) -> int:
        """The highest bidder leads, among equal bids the first in bidding order; or, with
        ``first_lead=left_of_dealer``, the first bidder, as in OpenSpiel's oh_hell."""
        n = self.players
        best = first = (state.dealer + 1) % n
        if self.rules.first_lead == "left_of_dealer":
            return first
        for i in range(1, n):
            seat = (first + i) % n
            if contracts[seat] > contracts[best]:  # strictly higher: ties stay with the earlier bidder
                best = seat
        return best

    def hand_scores(self, state: HandState) -> tuple[int, ...]:
        return tuple(whistiti_score(c, t) for c, t in zip(state.contracts, state.tricks_won, strict=True))

    # The whole game: as many hands as the schedule ----------------------------------------------

    def hands_in_game(self) -> int | None:
        return len(self.schedule)

    def is_over(self, played: int, totals: Sequence[int], games_won: Sequence[int]) -> bool:
        return played >= len(self.schedule)

    def players_options(self, players: int, options: Mapping[str, str]) -> dict[str, str]:
        if "players" in options and read_number(options["players"]) != players:
            raise RulesError(f"--players {players} and --option players={options['players']} disagree")
        return {"players": str(players)}

    def hands_options(self, hands: int) -> dict[str, str]:
        """The first N hands of the schedule: a short game of the same shape."""
        sizes = self.schedule
        if hands > len(sizes):
            raise RulesError(f"This Whistiti schedule has {len(sizes)} hands for {self.players} players; "
                             f"--hands {hands} is too many")
        return {"schedule": ",".join(str(size) for size in sizes[:hands])}

    def board_options(self, number: int) -> dict[str, str]:
        """Board N deals the schedule's N-th hand size (round again past its end): an event of
        as many boards as the schedule has hands holds every size once."""
        return {"schedule": str(self.schedule[(number - 1) % len(self.schedule)])}
