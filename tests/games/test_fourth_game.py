"""A fourth game is its module and one registry entry (docs/architecture.md#adding-a-game): Plain
Tricks (``tests/games/plain.py``), registered by one ``register_game`` call and nothing else, is
played through the engine and its records, the terminal's plain view, ``whist rules`` and
``whist play``, the server's ``/api/rules`` and a table page in the browser, and the PettingZoo,
Gymnasium and OpenSpiel interfaces."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from e2e_kit import TIMEOUT_MS, browser_page
from fastapi.testclient import TestClient
from plain import PlainRules, PlainTricks
from playwright.sync_api import Browser, expect
from rich.console import Console

from israeli_whist.cli.play import TerminalGame
from israeli_whist.cli.session import make_seats
from israeli_whist.core.games import GAMES, RULES_BY_GAME, make_game, register_game
from israeli_whist.core.match import Match
from israeli_whist.core.records import replay, to_record
from israeli_whist.rl.gym import WhistEnv, register_environments
from israeli_whist.rl.openspiel import load
from israeli_whist.rl.pettingzoo import env
from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings

LAUNCHER = Path(__file__).resolve().parent / "with_plain.py"  # ``whist`` with the game registered first
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
LEGAL = re.compile(r"legal: ([^)]*)\): ")


@pytest.fixture
def registered() -> Iterator[None]:
    """Plain Tricks registered for one test, and taken back after it: the other tests see three games."""
    games, rules = dict(GAMES), dict(RULES_BY_GAME)
    register_game(PlainTricks)
    yield
    GAMES.clear()
    GAMES.update(games)
    RULES_BY_GAME.clear()
    RULES_BY_GAME.update(rules)


def whist(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(LAUNCHER), *args], capture_output=True, text=True, timeout=300)


def test_one_call_registers_it_and_a_name_taken_is_refused(registered: None) -> None:
    assert GAMES["plain"] is PlainTricks and RULES_BY_GAME["plain"] is PlainRules
    assert register_game(PlainTricks) is PlainTricks  # again: nothing changes
    with pytest.raises(ValueError, match="registered already"):
        register_game(type("Impostor", (PlainTricks,), {}))


def test_the_engine_plays_it_and_its_records_replay(registered: None) -> None:
    match = Match.start(make_game("plain", None, {"hands": 3}), seed=5)
    rng = random.Random(5)
    while not match.over:
        match = match.apply(rng.choice(list(match.hand.legal_actions())))
    assert [result.final.tricks_won for result in match.results] == [result.points for result in match.results]
    assert sum(match.totals) == 3 * 13
    record = to_record(match)
    assert record["game"] == "plain" and replay(record).match.totals == match.totals


def test_the_terminals_plain_view_plays_it(registered: None) -> None:
    """A person at the plain view (answering each prompt with its first legal card) against bots."""
    match = Match.start(make_game("plain", None, {"hands": 1}), seed=2)
    seats = make_seats(match, "basic", 2, "Ann")
    out = io.StringIO()
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        found = LEGAL.search(prompt)
        return found.group(1).replace(",", " ").split()[0] if found else ""

    code = TerminalGame(match, seats, Console(file=out, width=100, highlight=False), answer, None).run()
    shown = out.getvalue()
    assert code == 0 and len(prompts) >= 13
    assert "Plain Tricks · hand 1 of 1" in shown and "Hand 1 is over" in shown and "Final scores" in shown


def test_whist_rules_and_whist_play_list_and_play_it() -> None:
    rules = whist("rules", "plain")
    assert rules.returncode == 0, rules.stderr
    assert "Plain Tricks (plain)" in rules.stdout and "Hands in a game" in rules.stdout and "short" in rules.stdout
    played = whist("play", "--game", "plain", "--view", "plain", "--watch", "--seed", "3", "--hands", "1")
    assert played.returncode == 0, played.stderr
    assert "Score sheet" in played.stdout and "points (tricks)" in played.stdout


def test_the_server_lists_it_in_api_rules(registered: None, app_settings: ServerSettings) -> None:
    with TestClient(create_app(app_settings)) as client:
        games = {game["name"]: game for game in client.get("/api/rules").json()["games"]}
    plain = games["plain"]
    assert plain["title"] == "Plain Tricks" and plain["players"] == 4
    assert plain["traits"] == PlainRules.traits.to_json() and not plain["traits"]["contracts"]
    assert [option["name"] for option in plain["options"]] == ["hands"]
    assert [preset["name"] for preset in plain["presets"]] == ["standard", "short"]


def test_the_research_interfaces_play_it(registered: None) -> None:
    # PettingZoo: every seat's rewards add up to the tricks of the hand.
    table = env("plain")
    table.reset(seed=1)
    rewards: dict[str, float] = {}
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, _ = table.last()
        rewards[agent] = rewards.get(agent, 0.0) + reward
        table.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
    assert sum(rewards.values()) == 13
    # Gymnasium: by its id, made from the registry, and as WhistEnv.
    ids = register_environments()
    assert ids["plain"] == "whist/Plain-v0"
    by_id = gymnasium.make(ids["plain"], bots="random").unwrapped
    assert isinstance(by_id, WhistEnv)
    for made in (by_id, WhistEnv("plain", seat=2, bots="basic")):
        _, info = made.reset(seed=0)
        total, done = 0.0, False
        while not done:
            _, reward, done, _, info = made.step(int(np.flatnonzero(info["action_mask"])[0]))
            total += float(reward)
        assert total == made.match.results[-1].points[made.seat]
    # OpenSpiel: the deal by chance, one card at a time; the returns are the tricks.
    game = load("plain")
    assert game.get_type().short_name == "python_plain_tricks" and game.num_players() == 4
    state, rng = game.new_initial_state(), random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.chance_outcomes())[0] if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    assert sum(state.returns()) == 13


# The table page ------------------------------------------------------------------------------------


@pytest.fixture
def plain_server(make_server: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> Any:
    """``whist serve`` started by the launcher that registers Plain Tricks first."""
    server = make_server()
    monkeypatch.setattr(sys.modules[type(server).__module__], "WHIST", [sys.executable, str(LAUNCHER)])
    server.start()
    return server


def test_a_table_page_plays_it_in_the_browser(browser: Browser, plain_server: Any) -> None:
    expect.set_options(timeout=TIMEOUT_MS)
    try:
        with browser_page(browser, plain_server, width=1280, height=800) as (_, page):
            # The lobby offers it, from the registry, under its title.
            expect(page.locator("#game option[value=plain]")).to_have_text("Plain Tricks")
            response = page.request.post(plain_server.url + "/api/guest", data={"name": "Ann"})
            assert response.ok, response.text()
            seats = [{"kind": "human"}] + [{"kind": "bot", "level": "basic"}] * 3
            response = page.request.post(plain_server.url + "/api/tables", data={
                "game": "plain", "options": {"hands": 1}, "seats": seats, "take_seat": 0, "public": True})
            assert response.status == 201, response.text()
            page.goto(f"{plain_server.url}/table/{response.json()['id']}")
            expect(page.locator("#info-game")).to_have_text("Plain Tricks")
            expect(page.locator("#hand .card")).to_have_count(13)
            # No auction, no contracts: the declarer and over/under are not shown; a card is clicked at each turn.
            expect(page.locator("#declarer-item")).to_be_hidden()
            expect(page.locator("#over-under-item")).to_be_hidden()
            table = page.locator("#table")
            for held in range(13, 0, -1):
                expect(table).to_have_attribute("data-my-turn", "true")
                page.locator("#hand .card:not([disabled])").first.click()
                expect(page.locator("#hand .card")).to_have_count(held - 1)
            expect(table).to_have_attribute("data-over", "true")
            expect(page.get_by_test_id("standings")).to_be_visible()
            totals = [int(page.get_by_test_id(f"total-{seat}").inner_text()) for seat in range(4)]
            assert sum(totals) == 13
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / "laptop-en-plain-tricks-over.png"))
    finally:
        expect.set_options(timeout=None)
