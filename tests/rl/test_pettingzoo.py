"""The PettingZoo environments pass PettingZoo's own checkers, for every game, with default and
other rule options, and count the game's points."""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test
from pettingzoo.test.seed_test import parallel_seed_test

from israeli_whist.core.actions import PASS
from israeli_whist.core.errors import IllegalActionError, RulesError
from israeli_whist.core.games.israeli import IsraeliRules
from israeli_whist.rl.hands import points_bounds
from israeli_whist.rl.pettingzoo import TURN_ORDERS, WhistAECEnv, env, parallel_env

# Each game with its defaults, and with options that change the table: three players without
# the clubs and no no-trump; honours in Classic Whist; five players dealt 10 cards down to 1.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("israeli", {}),
    ("israeli", {"form": "three_no_clubs", "no_trump_allowed": False, "frisch_direction": "right"}),
    ("classic", {}),
    ("classic", {"preset": "long"}),
    ("whistiti", {}),
    ("whistiti", {"players": 5, "schedule": "down_up"}),
]
IDS = [f"{game}-{'-'.join(map(str, options.values())) or 'default'}" for game, options in CONFIGS]

# api_test suggests a Box or Discrete observation space; PettingZoo's own card games use this
# dict of an observation and an action mask too, and api_test exempts them by name only.
DICT_SPACE_WARNINGS = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


def unwrapped(table: Any) -> WhistAECEnv:
    inner = table.unwrapped
    assert isinstance(inner, WhistAECEnv)
    return inner


def play_random(table: Any, seed: int) -> dict[str, float]:
    """One episode with random legal actions; each agent's total reward."""
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, _ = table.last()
        totals[agent] += reward
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"])))
        table.step(action)
    return totals


@pytest.mark.filterwarnings(*DICT_SPACE_WARNINGS)
@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_api_test_passes(game: str, options: dict[str, Any]) -> None:
    api_test(env(game, **options), num_cycles=200)
    api_test(env(game, episode="game", **options), num_cycles=200)
    api_test(env(game, turns="round_robin", **options), num_cycles=200)


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_seed_test_passes(game: str, options: dict[str, Any]) -> None:
    seed_test(functools.partial(env, game, **options), 200)
    seed_test(functools.partial(env, game, turns="round_robin", **options), 200)


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_max_cycles_test_and_the_parallel_checkers_pass(game: str, options: dict[str, Any]) -> None:
    """These checkers sample actions without the mask, so the tables replace illegal ones."""
    module = types.SimpleNamespace(
        env=functools.partial(env, game, turns="round_robin", illegal_action="replace", **options),
        parallel_env=functools.partial(parallel_env, game, illegal_action="replace", **options))
    max_cycles_test(module)
    parallel_api_test(parallel_env(game, **options), num_cycles=200)
    parallel_seed_test(functools.partial(parallel_env, game, illegal_action="replace", **options), 200)


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_a_hand_pays_each_seat_its_points(game: str, options: dict[str, Any]) -> None:
    for seed in range(3):
        table = env(game, **options)
        totals = play_random(table, seed)
        match = unwrapped(table).match
        result = match.results[0]
        assert len(match.results) == 1
        assert [totals[a] for a in table.possible_agents] == list(result.points)
        if not result.cancelled:
            assert result.points == result.final.game.match_points(result.final, (0,) * len(totals))[0]


def test_a_game_episode_pays_the_game_totals() -> None:
    table = env("whistiti", episode="game", schedule="1,2,3")
    totals = play_random(table, 4)
    match = unwrapped(table).match
    assert match.over and len(match.results) == 3
    assert [totals[a] for a in table.possible_agents] == list(match.totals)


def test_a_hand_cancelled_after_the_last_frisch_ends_the_episode_with_no_points() -> None:
    table = env("israeli", frisch_rounds=0)
    table.reset(seed=1)
    for _ in range(4):
        table.step(PASS)
    assert all(table.terminations.values())
    assert all(reward == 0 for reward in table.rewards.values())
    assert unwrapped(table).match.results[-1].cancelled


def test_the_same_seed_deals_the_same_and_another_seed_does_not() -> None:
    table = env("israeli")
    table.reset(seed=7)
    first = table.observe(table.agent_selection)["observation"].copy()
    table.reset(seed=7)
    assert np.array_equal(first, table.observe(table.agent_selection)["observation"])
    table.reset(seed=8)
    assert not np.array_equal(first, table.observe(table.agent_selection)["observation"])


def test_max_cycles_truncates_after_that_many_turns() -> None:
    table = env("classic", max_cycles=6)
    table.reset(seed=0)
    turns = 0
    for _agent in table.agent_iter():
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            assert truncated and not terminated
            table.step(None)
            continue
        table.step(int(np.flatnonzero(observation["action_mask"])[0]))
        turns += 1
    assert turns == 6


def test_round_robin_cycles_are_one_turn_each() -> None:
    table = env("whistiti", turns="round_robin", schedule="2")
    table.reset(seed=3)
    inner = unwrapped(table)
    actor = inner.match.current_player
    for seat, agent in enumerate(table.possible_agents):
        assert table.agent_selection == agent
        mask = table.observe(agent)["action_mask"]
        if seat == actor:
            assert mask[inner.wait_action] == 0 and mask.sum() > 0
            table.step(int(np.flatnonzero(mask)[0]))
        else:
            assert np.flatnonzero(mask).tolist() == [inner.wait_action]
            table.step(inner.wait_action)
    assert inner.match.hand.history and len(inner.match.hand.history) == 1


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
@pytest.mark.parametrize("turns", TURN_ORDERS)
def test_an_illegal_action_ends_the_episode_below_the_hands_lowest_points(
        game: str, options: dict[str, Any], turns: str) -> None:
    """As PettingZoo's classic games do: the agent that took it loses, the others score nothing,
    and every agent is done (its info says why)."""
    table = env(game, turns=turns, **options)
    table.reset(seed=3)
    inner = unwrapped(table)
    offender = table.agent_selection
    mask = table.observe(offender)["action_mask"]
    table.step(int(np.flatnonzero(mask == 0)[0]))
    lowest, _ = points_bounds(inner.game, inner._episode.place)
    assert table.rewards == {agent: lowest - 1 if agent == offender else 0 for agent in table.possible_agents}
    assert all(table.terminations.values()) and not any(table.truncations.values())
    assert isinstance(table.infos[offender]["illegal_action"], str)
    rewards = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():  # every agent is told, then leaves
        observation, reward, terminated, _, _ = table.last()
        assert terminated and not observation["action_mask"][:-1].any()
        rewards[agent] += reward
        table.step(None)
    assert rewards[offender] == lowest - 1 and not table.agents
    assert not inner.match.results, "no hand was scored"


def test_a_waiting_agents_illegal_action_ends_a_round_robin_episode_or_is_refused() -> None:
    table = env("whistiti", turns="round_robin", schedule="2")
    table.reset(seed=3)
    inner = unwrapped(table)
    waiting = next(agent for seat, agent in enumerate(table.possible_agents) if seat != inner.match.current_player)
    while table.agent_selection != waiting:
        table.step(int(np.flatnonzero(table.observe(table.agent_selection)["action_mask"])[0]))
    table.step(0)
    assert all(table.terminations.values()) and "must wait" in table.infos[waiting]["illegal_action"]
    assert table.rewards[waiting] == points_bounds(inner.game, 0)[0] - 1
    strict = env("whistiti", turns="round_robin", schedule="2", illegal_action="raise")
    strict.reset(seed=3)
    waiting = next(agent for seat, agent in enumerate(strict.possible_agents)
                   if seat != unwrapped(strict).match.current_player)
    while strict.agent_selection != waiting:
        strict.step(int(np.flatnonzero(strict.observe(strict.agent_selection)["action_mask"])[0]))
    with pytest.raises(IllegalActionError, match="must wait"):
        strict.step(0)


def test_illegal_actions_are_refused_or_replaced_where_asked() -> None:
    table = env("classic", illegal_action="raise")
    table.reset(seed=2)
    inner = unwrapped(table)
    hand = inner.match.hand
    not_held = next(card for card in range(52) if not hand.hands[hand.player] >> card & 1)
    with pytest.raises(IllegalActionError, match="You don't hold"):
        table.step(not_held)
    with pytest.raises(IllegalActionError, match="not an action"):
        table.step("QH")
    assert inner.match.hand == hand  # nothing changed
    lenient = env("classic", illegal_action="replace")
    lenient.reset(seed=2)
    agent = lenient.agent_selection
    lenient.step(not_held)
    assert unwrapped(lenient).match.hand.history[0] in hand.legal_actions()
    assert lenient.infos[agent]["illegal_action_replaced"] is True and "You don't hold" in lenient.infos[agent][
        "illegal_action"]


@pytest.mark.parametrize(("keywords", "message"), [
    ({"nt_minim": 8}, "Unknown option 'nt_minim' for israeli; rule options: form, .*; environment parameters"),
    ({"nt_minimum": 30}, "between 5 and 13"),
    ({"nt_minimum": "lots"}, "whole number"),
    ({"preset": "nope"}, "No preset 'nope'"),
    ({"episode": "trick"}, "episode must be one of hand, game"),
    ({"render_mode": "human"}, "render_mode must be 'ansi'"),
    ({"max_cycles": 0}, "max_cycles is a whole number"),
    ({"illegal_action": "ignore"}, "illegal_action must be one of end, raise, replace"),
])
def test_bad_keywords_get_clear_errors(keywords: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        env("israeli", **keywords)


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(RulesError, match="Unknown game 'bridge'; games: israeli, classic, whistiti"):
        env("bridge")


def test_text_options_are_read_like_the_command_line() -> None:
    table = env("israeli", nt_minimum="8", no_trump_allowed="false", preset="achim")
    rules = unwrapped(table).rules
    assert isinstance(rules, IsraeliRules)
    assert rules.nt_minimum == 8 and rules.no_trump_allowed is False and rules.zero_scoring == "achim"


def test_render_shows_the_table() -> None:
    table = env("whistiti", render_mode="ansi", players=3)
    table.reset(seed=0)
    text = table.render()
    assert isinstance(text, str)
    assert text.startswith("Whistiti, deal 1") and "seat 2:" in text and "turned up:" in text


def test_the_docs_example_runs(rl_doc_examples: Callable[[str], list[str]], capsys: pytest.CaptureFixture[str]
                               ) -> None:
    (example,) = rl_doc_examples("PettingZoo")
    exec(compile(example, "docs/rl.md", "exec"), {})
    out = capsys.readouterr().out
    assert out.count(" scored ") == 4 and "Israeli Whist, deal 1" in out
