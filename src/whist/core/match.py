"""A game of several hands: the dealer rotates, scores add up, and the game ends by the
number of hands or a target (RULES.md 1.7, 2 and 3). Immutable like the hand state."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from whist.core.actions import Action, Phase
from whist.core.classic import ClassicWhist, side_of
from whist.core.game import HandGame
from whist.core.israeli import IsraeliWhist
from whist.core.state import HandState
from whist.core.whistiti import Whistiti


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
    game_points: tuple[int, ...] = ()  # Classic Whist: points in the game under way
    games_won: tuple[int, ...] = ()  # Classic Whist: games won by each seat's side
    seating: tuple[int, ...] = ()  # the player index that sits in each seat
    over: bool = field(default=False)

    @classmethod
    def start(cls, game: HandGame, seed: int | str, first_dealer: int = 0) -> Match:
        n = game.players
        seating = tuple(range(n))
        if isinstance(game, ClassicWhist) and game.rules.cut_for_partners:
            seating = cut_for_partners(seed)
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
        points = hand.scores()
        honours = (0, 0)
        if isinstance(game, ClassicWhist) and hand.phase == Phase.OVER:
            side_points = [self.game_points[0], self.game_points[1]]
            honours = game.honour_points(hand, side_points)
            points = tuple(points[s] + honours[side_of(s)] for s in range(n))
        result = HandResult(len(self.results) + 1, hand, points, honours)
        totals = tuple(t + p for t, p in zip(self.totals, points, strict=True))
        game_points = tuple(t + p for t, p in zip(self.game_points, points, strict=True))
        games_won = self.games_won
        over = False
        if isinstance(game, ClassicWhist):
            if max(game_points) >= game.rules.target:
                target = game.rules.target
                games_won = tuple(g + (game_points[s] >= target) for s, g in enumerate(games_won))
                game_points = (0,) * n
                over = not game.rules.rubber or max(games_won) >= 2
        else:
            played = self.hands_played + (0 if hand.phase == Phase.CANCELLED else 1)
            over = self.ends_after(played, totals)
        match = replace(self, hand=hand, results=self.results + (result,), totals=totals,
                        game_points=game_points, games_won=games_won, over=over)
        if over:
            return match
        dealer = hand.dealer if hand.phase == Phase.CANCELLED else (hand.dealer + 1) % n
        next_hand = game.new_hand(dealer, deal_seed(self.seed, len(match.results)), match.hands_played)
        return replace(match, hand=next_hand)

    def ends_after(self, played: int, totals: tuple[int, ...]) -> bool:
        game = self.game
        if isinstance(game, Whistiti):
            return played >= len(game.schedule)
        assert isinstance(game, IsraeliWhist)
        rules = game.rules
        if rules.target is not None and max(totals) >= rules.target:
            return True
        return rules.hands > 0 and played >= rules.hands

    @property
    def hands_total(self) -> int | None:
        """How many hands the game lasts, where that is known in advance."""
        if isinstance(self.game, Whistiti):
            return len(self.game.schedule)
        if isinstance(self.game, IsraeliWhist) and self.game.rules.hands > 0:
            return self.game.rules.hands
        return None

    def places(self) -> tuple[int, ...]:
        """Place of each seat (1 = first); equal results share a place. In Classic Whist both
        partners have their side's place: 1 and 2, or 1 and 1 when the sides are level."""
        if isinstance(self.game, ClassicWhist):
            keys = [(self.games_won[s], self.totals[s]) for s in range(4)]
            return tuple(1 + len({other for other in keys if other > key}) for key in keys)
        return tuple(1 + sum(1 for other in self.totals if other > total) for total in self.totals)


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
