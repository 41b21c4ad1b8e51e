"""Whistiti (docs/rules.md#whistiti): 3-7 players, a growing deal, trump from the stock, bids."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from israeli_whist.core.actions import Action, Phase
from israeli_whist.core.cards import NO_TRUMP
from israeli_whist.core.digits import read_number
from israeli_whist.core.errors import RulesError
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.rules import WhistitiRules
from israeli_whist.core.scoring import whistiti_score
from israeli_whist.core.state import HandState


class Whistiti(HandGame):
    title = "Whistiti"
    rules_type = WhistitiRules
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
