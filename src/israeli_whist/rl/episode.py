"""One episode of an environment: a hand, or a whole game, of a ``Match``, and the checks on an
agent's action. The PettingZoo and Gymnasium environments share it, so both count points,
draw hands, end episodes and treat illegal actions the same way."""

from __future__ import annotations

import dataclasses
import operator
import random
from collections.abc import Sequence
from typing import Any

from israeli_whist.core.actions import Action
from israeli_whist.core.errors import IllegalActionError, RulesError, quoted
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.match import Match, deal_seed
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView, seat_view
from israeli_whist.rl.encoding import Mask, Vector, action_mask, encode_observation
from israeli_whist.rl.hands import check_hand_number, draw_hand_number, points_bounds

EPISODES = ("hand", "game")  # an episode is one deal, or a whole game of the rules
# What an illegal action does: end the episode with a penalty for the agent (as PettingZoo's
# classic games do, so that checkers sampling actions without the mask run), raise
# IllegalActionError and change nothing, or play a random legal action instead.
ILLEGAL_ACTIONS = ("end", "raise", "replace")


def choice_of(name: str, value: object, allowed: Sequence[str]) -> str:
    """``value`` if it is one of ``allowed``; else a RulesError naming them."""
    if value not in allowed:
        raise RulesError(f"{name} must be one of {', '.join(allowed)}, not {quoted(value)}")
    return str(value)


def as_action(action: Any) -> Action:
    """A plain int from an int-like action (numpy's included); a clear error for anything else."""
    if isinstance(action, bool):
        raise IllegalActionError(f"{quoted(action)} is not an action: actions are whole numbers")
    try:
        return int(operator.index(action))
    except TypeError:
        raise IllegalActionError(f"{quoted(action)} is not an action: actions are whole numbers") from None


class Episode:
    """A match played one action at a time, ending after one hand or at the end of the game.

    A hand ends with the points the match counts for it (honours included); an Israeli Whist
    hand cancelled after the last Frisch scores nothing, and in a one-hand episode it ends the
    episode (the next episode deals again). A one-hand episode deals the hand at place
    ``hand_number`` of the game, or where it is None at a place drawn with the deal
    (``israeli_whist.rl.hands``); a whole game starts at its first hand.
    """

    def __init__(self, game: HandGame, episode: str, hand_number: object = None) -> None:
        self.game = game
        self.whole_game = choice_of("episode", episode, EPISODES) == "game"
        self.hand_number = check_hand_number(game, hand_number)
        if self.whole_game and self.hand_number is not None:
            raise RulesError("hand_number chooses the hand of a one-hand episode; a game episode plays "
                             "every hand from the first")
        self.match = Match.start(game, 0)
        self._place = 0  # the one hand's place in the game
        self.over = False
        self.forfeited = False  # the episode ended on an illegal action
        self.turns = 0

    def start(self, rng: random.Random) -> None:
        """A new match: its deals, its first dealer and (one hand) the hand's place drawn from ``rng``."""
        seed = rng.getrandbits(64)
        dealer = rng.randrange(self.game.players)
        match = Match.start(self.game, seed, first_dealer=dealer)
        self._place = 0 if self.whole_game else draw_hand_number(self.game, self.hand_number, rng)
        if self._place:  # the match deals its first hand; this episode's is at another place of the game
            match = dataclasses.replace(match, hand=self.game.new_hand(dealer, deal_seed(seed, 0), self._place))
        self.match = match
        self.over = self.forfeited = False
        self.turns = 0

    @property
    def hand(self) -> HandState:
        """The hand the agents see: the one under way, or the last one once the episode is over."""
        if self.over and not self.forfeited and self.match.results and not self.match.over:
            return self.match.results[-1].final  # the match has dealt the next hand already
        return self.match.hand

    @property
    def place(self) -> int:
        """The place in the game of the hand under way (0 the first): it sets Whistiti's deal size."""
        return self.match.hands_played if self.whole_game else self._place

    @property
    def deal_number(self) -> int:
        """1 for the first deal of the match, cancelled deals counted."""
        return len(self.match.results) + (0 if self.over and not self.forfeited else 1)

    @property
    def totals(self) -> Sequence[int] | None:
        """The game's points so far, where the episode is a whole game."""
        return self.match.totals if self.whole_game else None

    @property
    def player(self) -> int:
        """The seat to act; -1 once the episode is over."""
        return -1 if self.over else self.match.current_player

    def legal_actions(self) -> Sequence[Action]:
        return () if self.over else self.match.legal_actions()

    def view(self, seat: int) -> SeatView:
        return seat_view(self.hand, seat)

    def observation(self, seat: int) -> Vector:
        return encode_observation(self.view(seat), self.totals)

    def mask(self, seat: int) -> Mask:
        mask = action_mask(self.view(seat))
        if self.forfeited:  # the hand stopped where the illegal action was taken: nothing is legal now
            mask[:] = 0
        return mask

    def checked(self, action: Any, policy: str, rng: random.Random) -> tuple[Action | None, str | None]:
        """The action to apply (None where ``policy="end"`` ends the episode on it), and why the
        action given was illegal (None where it was legal). ``policy="raise"`` raises instead."""
        if self.over:
            raise IllegalActionError("The episode is over: reset the environment for a new one")
        legal = self.legal_actions()
        try:
            chosen = as_action(action)
        except IllegalActionError as error:
            why = str(error)
        else:
            if chosen in legal:
                return chosen, None
            why = self.game.why_illegal(self.match.hand, chosen)
        if policy == "raise":
            raise IllegalActionError(why)
        return (rng.choice(legal) if policy == "replace" else None), why

    def forfeit(self, seat: int) -> tuple[int, ...]:
        """End the episode on ``seat``'s illegal action; the points each seat is paid for it: that
        seat one point below the lowest its seat can score in the hand under way, so that an
        illegal action is worse than any legal play of the hand; the others nothing."""
        self.over = self.forfeited = True
        lowest, _ = points_bounds(self.game, self.place)
        return tuple(lowest - 1 if s == seat else 0 for s in range(self.game.players))

    def act(self, action: Action) -> tuple[int, ...] | None:
        """Apply a legal action; the points of each seat if it ended a hand (None if not)."""
        if self.over:
            raise IllegalActionError("The episode is over: reset the environment for a new one")
        hands_before = len(self.match.results)
        self.match = self.match.apply(action)
        self.turns += 1
        if len(self.match.results) == hands_before:
            return None
        self.over = self.match.over or not self.whole_game
        return self.match.results[-1].points
