"""Classic Whist (RULES.md section 2): partnerships, a turned-up trump, odd tricks to a target."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from whist.core.actions import Action, Phase
from whist.core.cards import ACE, JACK, KING, QUEEN, make_card
from whist.core.errors import IllegalActionError
from whist.core.game import HandGame
from whist.core.rules import ClassicRules
from whist.core.scoring import classic_honour_points, classic_trick_points
from whist.core.state import HandState

HONOUR_RANKS = (ACE, KING, QUEEN, JACK)


def side_of(seat: int) -> int:
    """Partners sit opposite: seats 0 and 2 are side 0, seats 1 and 3 side 1."""
    return seat % 2


class ClassicWhist(HandGame):
    name = "classic"
    title = "Classic Whist"
    rules: ClassicRules

    def __init__(self, rules: ClassicRules | None = None) -> None:
        super().__init__(rules or ClassicRules())

    def hand_size(self, hand_number: int) -> int:
        return 13

    def turned_position(self, dealt: int, pack: int) -> int:
        return dealt - 1  # the last card dealt, which is the dealer's own

    def opening(self, dealer: int, turned_card: int) -> dict[str, Any]:
        leader = (dealer + 1) % 4
        return {"phase": Phase.PLAY, "player": leader, "leader": leader, "trump": turned_card // 13}

    def check_deal(self, dealer: int, hands: tuple[int, ...], unseen: int, turned_card: int,
                   hand_size: int) -> None:
        super().check_deal(dealer, hands, unseen, turned_card, hand_size)
        if turned_card < 0 or not hands[dealer] >> turned_card & 1:
            raise IllegalActionError("The turned-up trump card must be one of the dealer's cards")

    def legal_other(self, state: HandState) -> Sequence[Action]:
        return []

    def side_tricks(self, state: HandState) -> tuple[int, int]:
        won = state.tricks_won
        return (won[0] + won[2], won[1] + won[3])

    def hand_scores(self, state: HandState) -> tuple[int, ...]:
        """Trick points of each seat's side; honours depend on the game score, see ``honour_points``."""
        points = classic_trick_points(self.side_tricks(state))
        return tuple(points[side_of(seat)] for seat in range(4))

    def honours_held(self, state: HandState) -> tuple[int, int]:
        """How many of A K Q J of trumps each side was dealt."""
        held = [0, 0]
        for rank in HONOUR_RANKS:
            card = make_card(state.trump, rank)
            for seat in range(4):
                if state.deal[seat] >> card & 1:
                    held[side_of(seat)] += 1
        return (held[0], held[1])

    def honour_points(self, state: HandState, game_points: Sequence[int]) -> tuple[int, int]:
        """Honour points of each side; a side one point short of the target may not count them,
        and none count when the tricks of this hand have already won the game (tricks score first)."""
        if not self.rules.honours:
            return (0, 0)
        tricks = classic_trick_points(self.side_tricks(state))
        if any(game_points[side] + tricks[side] >= self.rules.target for side in (0, 1)):
            return (0, 0)
        held = self.honours_held(state)
        return tuple(  # type: ignore[return-value]
            0 if game_points[side] >= self.rules.target - 1 else classic_honour_points(held[side])
            for side in (0, 1))
