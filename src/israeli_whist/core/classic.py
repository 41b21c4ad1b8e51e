"""Classic Whist (docs/rules.md#classic-whist): partnerships, a turned-up trump, odd tricks to a target."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from israeli_whist.core.actions import Action, Phase
from israeli_whist.core.cards import ACE, JACK, KING, QUEEN, make_card
from israeli_whist.core.errors import IllegalActionError, RulesError
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.rules import ClassicRules
from israeli_whist.core.scoring import classic_honour_points, classic_trick_points
from israeli_whist.core.state import HandState

HONOUR_RANKS = (ACE, KING, QUEEN, JACK)


def side_of(seat: int) -> int:
    """Partners sit opposite: seats 0 and 2 are side 0, seats 1 and 3 side 1."""
    return seat % 2


def cut_for_partners(seed: int | str) -> tuple[int, ...]:
    """Each of the four players cuts a card; the two highest play together (seats 0 and 2).

    Ranks decide and suits break ties (clubs lowest), so a cut is never tied.
    The highest cut takes seat 0, its partner seat 2; the higher of the others seat 1.
    """
    cards = random.Random(f"{seed}/cut").sample(range(52), 4)
    order = sorted(range(4), key=lambda p: (cards[p] % 13, cards[p] // 13), reverse=True)
    seating = [0] * 4
    for seat, player in zip((0, 2, 1, 3), order, strict=True):
        seating[seat] = player
    return tuple(seating)


class ClassicWhist(HandGame):
    title = "Classic Whist"
    rules_type = ClassicRules
    rules: ClassicRules

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
        """Honour points of each side in a finished hand (see ``side_honours``)."""
        if not self.rules.honours:
            return (0, 0)
        tricks = classic_trick_points(self.side_tricks(state))
        return self.side_honours(tricks, self.honours_held(state), game_points)

    def side_honours(self, trick_points: Sequence[int], held: Sequence[int],
                     game_points: Sequence[int]) -> tuple[int, int]:
        """Honour points of each side from the honours it held; a side one point short of the
        target may not count them, and none count when the tricks of this hand have already won
        the game (tricks score first). The score sheet counts them from the same rule."""
        target = self.rules.target
        if any(game_points[side] + trick_points[side] >= target for side in (0, 1)):
            return (0, 0)
        a, b = (0 if game_points[side] >= target - 1 else classic_honour_points(held[side]) for side in (0, 1))
        return (a, b)

    # The whole game: partnerships, games to a target, a rubber ------------------------------------

    def side_of(self, seat: int) -> int:
        return side_of(seat)

    def seating(self, seed: int | str) -> tuple[int, ...]:
        return cut_for_partners(seed) if self.rules.cut_for_partners else super().seating(seed)

    @property
    def game_target(self) -> int | None:
        return self.rules.target

    @property
    def games_to_win(self) -> int:
        return 2 if self.rules.rubber else 1

    @property
    def counts_honours(self) -> bool:
        return self.rules.honours

    def match_points(self, hand: HandState, game_points: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, int]]:
        points = hand.scores()
        if hand.phase != Phase.OVER:
            return points, (0, 0)
        honours = self.honour_points(hand, game_points)
        return tuple(points[s] + honours[side_of(s)] for s in range(4)), honours

    def close_game(self, game_points: tuple[int, ...], games_won: tuple[int, ...]
                   ) -> tuple[tuple[int, ...], tuple[int, ...], int | None]:
        target = self.rules.target
        if max(game_points) < target:
            return game_points, games_won, None
        won = tuple(g + (p >= target) for g, p in zip(games_won, game_points, strict=True))
        return (0,) * len(game_points), won, 0 if game_points[0] >= target else 1

    def is_over(self, played: int, totals: Sequence[int], games_won: Sequence[int]) -> bool:
        # Games won only grow when a game ends, so this is true exactly after the deciding game.
        return max(games_won) >= self.games_to_win

    def places(self, totals: Sequence[int], games_won: Sequence[int]) -> tuple[int, ...]:
        """Partners share their side's place, by games won and then points: 1 and 2, or 1 and 1
        when the sides are level."""
        keys = [(games_won[side_of(s)], totals[s]) for s in range(4)]
        return tuple(1 + len({other for other in keys if other > key}) for key in keys)

    def hands_options(self, hands: int) -> dict[str, str]:
        raise RulesError("Classic Whist is played to a target score, not a number of hands: "
                         "use --option target=N or --preset long")
