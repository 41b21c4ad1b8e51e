"""One episode of an environment: a hand, or a whole game, of a ``Match``, and the checks on an
agent's action. The PettingZoo and Gymnasium environments share it, so both count points,
end episodes and refuse actions the same way."""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from typing import Any

from israeli_whist.core.actions import Action
from israeli_whist.core.errors import IllegalActionError, RulesError, quoted
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.match import Match
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView, seat_view
from israeli_whist.rl.encoding import Mask, Vector, action_mask, encode_observation

EPISODES = ("hand", "game")  # an episode is one deal, or a whole game of the rules
ILLEGAL_ACTIONS = ("raise", "replace")  # refuse an illegal action, or play a random legal one instead


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
    episode (the next episode deals again).
    """

    def __init__(self, game: HandGame, episode: str) -> None:
        self.game = game
        self.whole_game = choice_of("episode", episode, EPISODES) == "game"
        self.match = Match.start(game, 0)
        self.over = False
        self.turns = 0

    def start(self, rng: random.Random) -> None:
        """A new match: its deals and its first dealer drawn from ``rng``."""
        seed = rng.getrandbits(64)
        self.match = Match.start(self.game, seed, first_dealer=rng.randrange(self.game.players))
        self.over = False
        self.turns = 0

    @property
    def hand(self) -> HandState:
        """The hand the agents see: the one under way, or the last one once the episode is over."""
        if self.over and self.match.results and not self.match.over:
            return self.match.results[-1].final  # the match has dealt the next hand already
        return self.match.hand

    @property
    def deal_number(self) -> int:
        """1 for the first deal of the match, cancelled deals counted."""
        return len(self.match.results) + (0 if self.over else 1)

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
        return action_mask(self.view(seat))

    def checked(self, action: Any, policy: str, rng: random.Random) -> tuple[Action, bool]:
        """The action to apply, and whether it replaced an illegal one (``policy="replace"``)."""
        if self.over:
            raise IllegalActionError("The episode is over: reset the environment for a new one")
        legal = self.legal_actions()
        try:
            chosen = as_action(action)
        except IllegalActionError:
            if policy == "raise":
                raise
            return rng.choice(legal), True
        if chosen in legal:
            return chosen, False
        if policy == "raise":
            raise IllegalActionError(self.game.why_illegal(self.match.hand, chosen))
        return rng.choice(legal), True

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
