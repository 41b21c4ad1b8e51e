"""A game of several hands: the dealer rotates, scores add up, and the game ends by the
number of hands or a target (docs/rules.md#the-end-of-a-game). Immutable like the hand state."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from israeli_whist.core.actions import Action, Phase
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.state import HandState


def deal_seed(seed: int | str, deal_index: int) -> str:
    """The seed of the n-th deal of a game; records keep the game seed, each deal derives from it."""
    return f"{seed}/{deal_index}"


@dataclass(frozen=True)
class HandResult:
    """A finished (or cancelled) hand as the match keeps it."""

    number: int  # 1-based count of deals in the game, cancelled ones included
    final: HandState
    points: tuple[int, ...]  # what each seat scored, honours included
    honours: tuple[int, int] = (0, 0)  # Classic Whist: honour points of each side

    @property
    def cancelled(self) -> bool:
        return self.final.phase == Phase.CANCELLED


@dataclass(frozen=True)
class Match:
    game: HandGame
    seed: int | str
    hand: HandState
    results: tuple[HandResult, ...] = ()
    totals: tuple[int, ...] = ()
    game_points: tuple[int, ...] = ()  # points in the game under way (Classic Whist's games to a target)
    games_won: tuple[int, ...] = ()  # games won by each seat's side, where the match is made of games
    seating: tuple[int, ...] = ()  # the player index that sits in each seat
    over: bool = field(default=False)

    @classmethod
    def start(cls, game: HandGame, seed: int | str, first_dealer: int = 0) -> Match:
        n = game.players
        seating = game.seating(seed)
        hand = game.new_hand(first_dealer, deal_seed(seed, 0), 0)
        zeros = (0,) * n
        return cls(game, seed, hand, (), zeros, zeros, zeros, seating)

    # The action cycle passes through to the hand under way. ---------------------------------

    @property
    def current_player(self) -> int:
        return -1 if self.over else self.hand.player

    def legal_actions(self) -> Sequence[Action]:
        return [] if self.over else self.hand.legal_actions()

    def apply(self, action: Action) -> Match:
        hand = self.hand.apply(action)
        if not hand.is_terminal:
            return replace(self, hand=hand)
        return self.finish_hand(hand)

    # Between hands -------------------------------------------------------------------------

    @property
    def hands_played(self) -> int:
        return sum(1 for r in self.results if not r.cancelled)

    def finish_hand(self, hand: HandState) -> Match:
        game, n = self.game, self.game.players
        points, honours = game.match_points(hand, self.game_points)
        result = HandResult(len(self.results) + 1, hand, points, honours)
        totals = tuple(t + p for t, p in zip(self.totals, points, strict=True))
        game_points = tuple(t + p for t, p in zip(self.game_points, points, strict=True))
        game_points, games_won, _ = game.close_game(game_points, self.games_won)
        played = self.hands_played + (0 if hand.phase == Phase.CANCELLED else 1)
        over = game.is_over(played, totals, games_won)
        match = replace(self, hand=hand, results=self.results + (result,), totals=totals,
                        game_points=game_points, games_won=games_won, over=over)
        if over:
            return match
        dealer = hand.dealer if hand.phase == Phase.CANCELLED else (hand.dealer + 1) % n
        next_hand = game.new_hand(dealer, deal_seed(self.seed, len(match.results)), match.hands_played)
        return replace(match, hand=next_hand)

    @property
    def hands_total(self) -> int | None:
        """How many hands the game lasts, where that is known in advance."""
        return self.game.hands_in_game()

    def places(self) -> tuple[int, ...]:
        """Place of each seat (1 = first); equal results share a place. In Classic Whist both
        partners have their side's place: 1 and 2, or 1 and 1 when the sides are level."""
        # games_won is by seat; the game reads it by side, and seats 0 and 1 sit on sides 0 and 1.
        return self.game.places(self.totals, self.games_won)
