"""Contract tests shared by every game, preset and a few option combinations.

Hypothesis draws the deal's seed and every choice of random playouts; every state on the way
is checked: cards are conserved, legal actions exist until the end, tricks add up, contracts
never sum to the tricks, no view shows a hidden card, illegal actions change nothing, and
every record replays to the same game.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from helpers import CONFIGS, check_state, choose, config_id, game_of, play_hand, play_match
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from israeli_whist.core.games.classic import ClassicWhist
from israeli_whist.core.games.israeli import IsraeliWhist
from israeli_whist.core.match import Match
from israeli_whist.core.records import replay, to_record

Config = tuple[str, str | None, dict[str, Any]]
PARAMS = [pytest.param(config, id=config_id(config)) for config in CONFIGS]
QUICK = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("config", PARAMS)
@QUICK
@given(seed=st.integers(0, 2**32), rng=st.randoms(use_true_random=False), pass_bias=st.sampled_from([0.0, 0.5, 0.9]))
def test_random_hands_keep_every_invariant(config: Config, seed: int, rng: random.Random, pass_bias: float) -> None:
    game = game_of(config)
    dealer = seed % game.players
    final = play_hand(game.new_hand(dealer, seed, hand_number=seed % 7), rng, pass_bias)
    assert final.is_terminal
    assert final.dealer == dealer


def check_end(match: Match) -> None:
    game = match.game
    if isinstance(game, IsraeliWhist):
        rules = game.rules
        reached = rules.target is not None and max(match.totals) >= rules.target
        assert reached or match.hands_played == rules.hands
        assert match.hands_played <= rules.hands or rules.hands == 0
    elif isinstance(game, ClassicWhist):
        assert max(match.games_won) == (2 if game.rules.rubber else 1)
    else:
        assert len(match.results) == match.hands_total


def check_record(match: Match, players: list[str]) -> None:
    record = to_record(match, players)
    text = json.dumps(record)
    checked = replay(json.loads(text))
    assert checked.complete == match.over
    assert checked.players == players
    assert checked.match.totals == match.totals
    assert [r.points for r in checked.match.results] == [r.points for r in match.results]
    assert checked.match.hand == match.hand
    assert to_record(checked.match, players) == record


@pytest.mark.parametrize("config", PARAMS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32) | st.text(max_size=5), first_dealer=st.integers(0, 6),
       choices=st.integers(0, 2**32), pass_bias=st.sampled_from([0.0, 0.6]))
def test_whole_games_end_and_replay_from_their_records(config: Config, seed: int | str, first_dealer: int,
                                                     choices: int, pass_bias: float) -> None:
    """Whole games are long: Hypothesis draws the seed of the choices rather than each choice."""
    game = game_of(config)
    match = play_match(Match.start(game, seed, first_dealer % game.players), random.Random(choices), pass_bias)
    assert match.over
    check_end(match)
    for result in match.results:
        check_state(result.final)
    assert match.totals == tuple(sum(r.points[s] for r in match.results) for s in range(game.players))
    check_record(match, [f"P{i}" for i in range(game.players)])


@pytest.mark.parametrize("config", PARAMS)
@QUICK
@given(seed=st.integers(0, 2**32), rng=st.randoms(use_true_random=False), stop=st.integers(0, 400))
def test_unfinished_games_replay_to_the_same_position(config: Config, seed: int, rng: random.Random,
                                                     stop: int) -> None:
    game = game_of(config)
    match = Match.start(game, seed, seed % game.players)
    for _ in range(stop):
        if match.over:
            break
        match = match.apply(choose(match, rng, 0.3))
    check_record(match, [f"Seat {i}" for i in range(game.players)])
