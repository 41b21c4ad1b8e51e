"""The compiled trick play (fastplay.pyx) against the Python reference methods of HandState.

Both are driven from the same states over random hands of every configuration, and must give
equal legal actions, equal next states of the same class, and the same error for illegal plays.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from helpers import CONFIGS, config_id, game_of

from israeli_whist.core import state as state_module
from israeli_whist.core.actions import PASS, Phase
from israeli_whist.core.errors import IllegalActionError
from israeli_whist.core.state import PYTHON_PLAY, HandState

pytestmark = pytest.mark.skipif(not state_module.compiled_play_available(),
                                reason="the compiled trick play was not built (no C compiler at install)")

python_legal, python_apply = PYTHON_PLAY


def compiled() -> Any:
    from israeli_whist.core import fastplay
    return fastplay


def random_states(config: tuple[str, str | None, dict[str, Any]], seed: int, hands: int) -> Iterator[HandState]:
    game, rng = game_of(config), random.Random(seed)
    for number in range(hands):
        state = game.new_hand(number % game.players, rng)
        while not state.is_terminal:
            yield state
            state = state.apply(rng.choice(state.legal_actions()))
        yield state


def outcome(apply: Any, state: HandState, action: Any) -> tuple[str, Any]:
    try:
        result = apply(state, action)
    except IllegalActionError as error:
        return "illegal", str(error)
    return type(result).__name__, result


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_compiled_play_matches_the_python_methods(config: tuple[str, str | None, dict[str, Any]]) -> None:
    fast = compiled()
    rng = random.Random(7)
    plays = 0
    for state in random_states(config, seed=3, hands=4):
        legal = python_legal(state)
        assert tuple(fast.legal_actions(state)) == tuple(legal)
        # Every legal action, and a few that are not: a card held by someone else, a card of
        # another suit, a pass, something that is no action at all, and ints past a C long
        # (which must be refused as illegal, not overflow in the conversion).
        tries = [*legal, rng.randrange(52), rng.randrange(52), PASS, -1, 52, "QH", 3.0, 1e30,
                 2**63, -(2**63) - 1, 10**30]
        for action in tries:
            expected = outcome(python_apply, state, action)
            assert outcome(fast.apply, state, action) == expected, (state.phase, action)
        plays += state.phase == Phase.PLAY
    assert plays > 0


def test_the_states_made_by_compiled_play_are_ordinary_states() -> None:
    game = game_of(("israeli", None, {}))
    state = game.new_hand(0, 5)
    while state.phase != Phase.PLAY:
        state = state.apply(state.legal_actions()[-1])
    fast = compiled()
    after = fast.apply(state, fast.legal_actions(state)[0])
    assert type(after) is HandState
    assert after == python_apply(state, python_legal(state)[0])
    assert hash(after) == hash(python_apply(state, python_legal(state)[0]))
    assert after._replace(player=0).player == 0
    assert after.hands[state.player] != state.hands[state.player]


def test_either_implementation_can_serve_hand_state() -> None:
    assert state_module.use_compiled_play(False) is False
    try:
        assert HandState.apply is python_apply
        assert state_module.use_compiled_play(True) is True
        assert HandState.apply is compiled().apply
    finally:
        state_module.use_compiled_play(True)
