"""A human at the table: scripted games, wrong input, leaving early."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from israeli_whist.bots.players.base import Bot
from israeli_whist.cli.main import app
from israeli_whist.cli.options import build_game
from israeli_whist.cli.play import TerminalGame
from israeli_whist.cli.session import make_seats
from israeli_whist.core.actions import PASS, Action
from israeli_whist.core.match import Match
from israeli_whist.core.views import SeatView

Answer = Callable[[str], str]


class PassingBot(Bot):
    """Passes whenever it may, so that every auction ends in a Frisch."""

    def choose(self, view: SeatView) -> Action:
        return PASS if PASS in view.legal_actions else view.legal_actions[0]


def scripted_game(game: str, seed: int, answer: Answer, players: int | None = None,
                  hands: int | None = None, passing: bool = False,
                  options: Sequence[str] = ()) -> tuple[int, str, list[str]]:
    """Play in-process, answering every prompt with ``answer``."""
    match = Match.start(build_game(game, options=options, players=players, hands=hands), seed)
    seats = make_seats(match, "random", seed, "Ann")
    if passing:
        seats = replace(seats, bots={seat: PassingBot() for seat in range(match.game.players) if seat != seats.human})
    out = io.StringIO()
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        out.write(prompt + "\n")
        return answer(prompt)

    code = TerminalGame(match, seats, Console(file=out, width=100), read, None).run()
    return code, out.getvalue(), prompts


@pytest.mark.parametrize(("game", "players", "hands"), [
    ("israeli", None, 2), ("israeli", 3, 1), ("classic", None, None), ("whistiti", 5, 4)])
def test_a_human_plays_a_whole_game(answer: Answer, game: str, players: int | None, hands: int | None) -> None:
    code, output, prompts = scripted_game(game, 5, answer, players, hands)
    assert code == 0
    assert "Final scores" in output
    assert any(p.startswith("Your play (legal: ") for p in prompts)
    if game != "classic":
        assert any("(legal: " in p and ("contract" in p or "bid" in p) for p in prompts)


@pytest.mark.parametrize("direction", ["left", "rotating"])
def test_frisch_rounds_until_the_hand_is_cancelled(answer: Answer, direction: str) -> None:
    calls = 0

    def passing(prompt: str) -> str:
        nonlocal calls
        if prompt.startswith("Your call"):
            calls += 1
            # Pass through the three Frisch rounds of the first deal, then bid the lowest bid shown.
            return "pass" if calls <= 4 else prompt.split("or ")[1].split()[0]
        if prompt.startswith("Choose 3 cards"):
            return " ".join(prompt.split("legal: ")[1].split()[:3])  # all three on one line
        return answer(prompt)

    code, output, prompts = scripted_game("israeli", 8, passing, hands=1, passing=True,
                                          options=[f"frisch_direction={direction}"])
    assert code == 0
    assert sum(p.startswith("Choose 3 cards") for p in prompts) == 3
    assert not any(p.startswith("Choose 2 more") for p in prompts)
    for frisch in (1, 2, 3):
        assert f"Frisch {frisch}: you passed" in output
    assert "cancelled" in output
    assert "You win the auction" in output
    assert "Final scores" in output
    # Rotating: left, across, right; and after the last round no fourth direction is asked for.
    assert ("to pass across" in output) == (direction == "rotating")


def test_eof_leaves_cleanly_and_saves_an_unfinished_record(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    result = runner.invoke(app, ["play", "--seed", "3", "--save", str(path)], input="banana\n")
    assert result.exit_code == 1
    assert "End of input" in result.output
    assert "Traceback" not in result.output
    checked = runner.invoke(app, ["check", str(path), "--json"])
    assert checked.exit_code == 0
    assert json.loads(checked.stdout)["complete"] is False


def test_quit_leaves_with_code_zero(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "quit.json"
    result = runner.invoke(app, ["play", "--seed", "3", "--save", str(path)], input="help\nscore\nquit\n")
    assert result.exit_code == 0
    assert "You left the game" in result.output
    assert "last         show the last trick" in result.output
    assert path.exists()


def test_the_prompt_explains_each_mistake(runner: CliRunner) -> None:
    # Seed 3: Bot 2 bids 5C before the human (dealer) calls; "5C" no longer beats it.
    result = runner.invoke(app, ["play", "--seed", "3", "--bots", "random", "--hands", "1"],
                           input="banana\n14S\n4S\n5C\n")
    assert "A call is 'pass' or a level and strain" in result.output
    assert "There are only 13 tricks" in result.output
    assert "The minimum bid in spades is now 5" in result.output
    assert "Traceback" not in result.output


def test_bots_are_named_by_their_seat_as_on_the_web() -> None:
    """The web names a bot by its seat counted from 1 (Bot 2 to 4 beside a person in seat 1); the
    terminal does the same, a watched game included, and so does a cut that moves the players."""
    match = Match.start(build_game("israeli"), 1)
    assert make_seats(match, "random", 1, "Ann").names == ["Ann", "Bot 2", "Bot 3", "Bot 4"]
    assert make_seats(match, "random", 1, None).names == ["Bot 1", "Bot 2", "Bot 3", "Bot 4"]
    for seed in range(8):
        cut = Match.start(build_game("classic", options=["cut_for_partners=true"]), seed)
        seats = make_seats(cut, "random", seed, "Ann")
        assert [name for seat, name in enumerate(seats.names) if seat != seats.human] == [
            f"Bot {seat + 1}" for seat in range(4) if seat != seats.human]
