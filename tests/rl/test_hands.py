"""Which hand of the game a one-hand episode deals: drawn from the whole of Whistiti's schedule by
default, alike in the PettingZoo, Gymnasium and OpenSpiel interfaces, the same for the same
seed, and fixed by ``hand_number``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from israeli_whist.core.errors import RulesError
from israeli_whist.core.games import make_game
from israeli_whist.rl.gym import WhistEnv
from israeli_whist.rl.hands import check_hand_number, draw_hand_number, hand_places, points_bounds
from israeli_whist.rl.openspiel import load
from israeli_whist.rl.pettingzoo import WhistAECEnv, raw_env

SCHEDULE: dict[str, Any] = {"players": 5, "schedule": "up_down"}  # 1..10..1 cards: 19 places, 10 sizes


def pettingzoo_size(seed: int, **options: Any) -> int:
    table: WhistAECEnv = raw_env("whistiti", **options)
    table.reset(seed=seed)
    return int(table.match.hand.hand_size)


def gymnasium_size(seed: int, **options: Any) -> int:
    env = WhistEnv("whistiti", **options)
    env.reset(seed=seed)
    return int(env.match.hand.hand_size)


def openspiel_size(seed: int, **options: Any) -> int:
    """The hand OpenSpiel's chance deals, drawn as a sampler seeded with ``seed`` would draw it."""
    game = load("whistiti", **options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice([action for action, _ in state.chance_outcomes()]))
    assert state.hand is not None
    return int(state.hand.hand_size)


INTERFACES: dict[str, Callable[..., int]] = {
    "pettingzoo": pettingzoo_size, "gymnasium": gymnasium_size, "openspiel": openspiel_size}


@pytest.mark.parametrize("interface", INTERFACES)
def test_every_size_of_the_schedule_is_dealt_and_the_same_seed_deals_the_same(interface: str) -> None:
    size_of = INTERFACES[interface]
    sizes = [size_of(seed, **SCHEDULE) for seed in range(150)]
    schedule = make_game("whistiti", None, SCHEDULE).rules.hand_sizes()  # type: ignore[attr-defined]
    assert set(sizes) == set(schedule), "every size of the schedule is reachable"
    assert [size_of(seed, **SCHEDULE) for seed in range(10)] == sizes[:10], "the same seed, the same hand"


@pytest.mark.parametrize("interface", INTERFACES)
def test_hand_number_fixes_the_hand(interface: str) -> None:
    size_of = INTERFACES[interface]
    assert {size_of(seed, hand_number=6, **SCHEDULE) for seed in range(5)} == {7}
    assert {size_of(seed, hand_number=0) for seed in range(5)} == {1}


def test_the_default_whistiti_episode_is_not_always_one_card() -> None:
    """The review's finding: each interface, as it comes, dealt 1-card hands only."""
    for size_of in INTERFACES.values():
        assert max(size_of(seed) for seed in range(20)) > 1


def test_places_are_drawn_uniformly_and_only_where_hands_differ() -> None:
    game = make_game("whistiti", None, {"schedule": "2,4,6,8"})
    rng = random.Random(0)
    counts = [0] * 4
    for _ in range(4000):
        counts[draw_hand_number(game, None, rng)] += 1
    assert all(900 < count < 1100 for count in counts), counts
    assert hand_places(make_game("whistiti", None, {"schedule": "5,5"})) == range(1)
    assert hand_places(make_game("israeli")) == range(1) and hand_places(make_game("classic")) == range(1)
    # A game whose hands are alike draws nothing, so its deals for a seed are as they were.
    before = random.Random(3)
    draw_hand_number(make_game("israeli"), None, before)
    assert before.random() == random.Random(3).random()


def test_openspiel_draws_the_place_by_chance_before_the_deal() -> None:
    game = load("whistiti", **SCHEDULE)
    state = game.new_initial_state()
    places = state.chance_outcomes()
    assert [place for place, _ in places] == list(range(19))
    assert sum(p for _, p in places) == pytest.approx(1.0)
    assert state.action_to_string(state.current_player(), 9) == "Hand 10 of the game: 10 cards each"
    state.apply_action(9)
    assert len(state.chance_outcomes()) == 52, "then the cards"
    assert game.max_chance_nodes_in_history() == 1 + 5 * 10 + 1  # the place, the cards, the trump card
    bounds = [points_bounds(game.whist_game, place) for place in range(19)]
    assert game.min_utility() == min(low for low, _ in bounds)
    assert game.max_utility() == max(high for _, high in bounds)
    # A fixed hand, and games whose hands are alike, have no such chance node.
    for fixed in (load("whistiti", hand_number=3, **SCHEDULE), load("israeli"), load("whistiti", preset="oh_hell")):
        assert len(fixed.new_initial_state().chance_outcomes()) == len(fixed.whist_game.deck())


@pytest.mark.parametrize(("make", "message"), [
    (lambda: raw_env("whistiti", hand_number=19, **SCHEDULE), r"hand_number is the hand's place in the game, 0 to 18"),
    (lambda: WhistEnv("whistiti", hand_number="3"),  # type: ignore[arg-type]
     r"0 to 12, or None \(-1\) to draw it; not '3'"),
    (lambda: WhistEnv("whistiti", hand_number=True), "not True"),
    (lambda: load("whistiti", hand_number=-2), "not -2"),
    (lambda: raw_env("whistiti", episode="game", hand_number=2), "a game episode plays every hand from the first"),
])
def test_a_bad_hand_number_is_refused_in_words(make: Callable[[], object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        make()


# Any JSON value, numbers of any size, any text.
ANY_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=5)


@settings(max_examples=150, deadline=None)
@given(value=ANY_VALUE)
def test_any_hand_number_deals_that_hand_or_is_refused_in_words(value: Any) -> None:
    """In all three interfaces, whatever the value: the environment, or a RulesError that says
    what hand_number may be; a value the shared check takes, every interface takes."""
    try:
        check_hand_number(make_game("whistiti"), value)
        taken = True
    except RulesError:
        taken = False
    for make in (lambda: raw_env("whistiti", hand_number=value), lambda: WhistEnv("whistiti", hand_number=value),
                 lambda: load("whistiti", hand_number=value)):
        try:
            make()
        except RulesError as error:
            assert not taken and "hand_number is" in str(error)
