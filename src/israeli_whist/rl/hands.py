"""Which hand of a game a one-hand episode deals, and what a seat can score in it: shared by
the PettingZoo, Gymnasium and OpenSpiel environments, so all three draw hands alike.

A hand's place in the game matters where the game's hands differ: Whistiti's schedule deals
1 card in its first hand and up to 13 (or more with fewer players) later. An episode of one
hand that always dealt the first would train on 1-card hands only, so by default the place is
drawn, every place of the schedule equally likely (the environments draw it from the episode's
seed; OpenSpiel from a chance node); ``hand_number=N`` fixes it.

>>> from israeli_whist.core.games import make_game
>>> hand_places(make_game("whistiti", None, {"schedule": "1,3,5"}))
range(0, 3)
>>> hand_places(make_game("israeli"))
range(0, 1)
"""

from __future__ import annotations

import functools
import random

from israeli_whist.core.actions import Phase
from israeli_whist.core.errors import RulesError, quoted
from israeli_whist.core.handgame import HandGame

DRAWN = -1  # hand_number's spelling of "drawn" where a number is needed (an OpenSpiel parameter)


def hand_places(game: HandGame) -> range:
    """The places in the game a drawn hand may take: every place of the game where its hands
    differ in size (Whistiti's schedule), else the first alone (every hand is alike)."""
    hands = game.hands_in_game() or 1
    if len({game.hand_size(place) for place in range(hands)}) > 1:
        return range(hands)
    return range(1)


def check_hand_number(game: HandGame, value: object) -> int | None:
    """``value`` as a fixed place of the game (0 the first), or None where it is None or -1 (drawn);
    a RulesError that says what it may be for anything else."""
    if value is None:
        return None
    hands = game.hands_in_game()
    if isinstance(value, int) and not isinstance(value, bool):
        if value == DRAWN:
            return None
        if value >= 0 and (hands is None or value < hands):
            return value
    span = f"0 to {hands - 1}" if hands else "0 or more"
    raise RulesError(f"hand_number is the hand's place in the game, {span}, or None (-1) to draw it; "
                     f"not {quoted(value)}")


def draw_hand_number(game: HandGame, fixed: int | None, rng: random.Random) -> int:
    """The place of the next episode's hand: ``fixed``, or one of ``hand_places`` drawn from ``rng``."""
    if fixed is not None:
        return fixed
    places = hand_places(game)
    return places[rng.randrange(len(places))] if len(places) > 1 else places[0]


@functools.lru_cache(maxsize=256)
def points_bounds(game: HandGame, hand_number: int) -> tuple[int, int]:
    """The lowest and highest points a seat can score in the hand: each seat's contract (where the
    game has them) and tricks tried against contracts of the others that make the hand under and
    over, scored by the game's own scoring."""
    size = game.hand_size(hand_number)
    n = game.players
    hand = game.new_hand(0, "bounds", hand_number)
    over = hand._replace(phase=Phase.OVER, player=-1, is_terminal=True)
    points = {0}
    own_contracts: list[int | None] = list(range(size + 1)) if hand.contracts else [None]
    for contract in own_contracts:
        for others in (0, size):
            contracts = hand.contracts if contract is None else (contract, *(others,) * (n - 1))
            for taken in range(size + 1):
                tricks = (taken, size - taken, *(0,) * (n - 2))
                points.update(over._replace(contracts=contracts, tricks_won=tricks).scores())
    return min(points), max(points)
