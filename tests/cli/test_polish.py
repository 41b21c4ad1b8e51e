"""The command line's small courtesies: one style for refused command lines, flags shown as flags,
help at the terminal's width, counts that agree with their number, and a taken port said plainly."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from typing import Any

import pytest
from typer.testing import CliRunner

from israeli_whist.cli.inputs import parse_choice
from israeli_whist.cli.main import app
from israeli_whist.core.actions import Phase
from israeli_whist.core.errors import WhistError
from israeli_whist.core.games import make_game
from israeli_whist.core.views import SeatView, seat_view

WHIST = [sys.executable, "-m", "israeli_whist.cli"]  # the whist command, from this checkout


@pytest.mark.parametrize(("args", "message"), [
    (["play", "--game", "poker"], "'poker' is not one of 'israeli', 'classic', 'whistiti'"),
    (["play", "--watch=yes"], "Option '--watch' does not take a value"),
    (["check", "--json=1", "x.json"], "Option '--json' does not take a value"),
    (["play", "--hands", "0"], "--hands"),
    (["play", "--option", "hands", "--watch"], "--option takes NAME=VALUE"),
    (["tournament", "--bots", "genius,random"], "Unknown bot level 'genius'"),
    (["serve", "--limit", "tables=x"], "tables"),
])
def test_a_refused_command_line_is_one_line(runner: CliRunner, args: list[str], message: str) -> None:
    result = runner.invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("Error: ") and message in lines[0]
    assert lines[0].endswith(f"(see: whist {args[0]} --help)")
    for internals in ("Value error", "╭", "Traceback"):
        assert internals not in result.output


@pytest.mark.parametrize(("command", "flags"), [
    ("play", ["--watch", "--help"]), ("check", ["--json", "--help"]), ("analyze", ["--json"])])
def test_flags_are_shown_as_flags(runner: CliRunner, command: str, flags: list[str]) -> None:
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    assert "<bool>" not in result.output
    for flag in flags:
        line = next(line for line in result.output.splitlines() if line.strip().startswith(flag))
        assert line.split()[1] not in ("<bool>", "BOOLEAN"), line


def help_text(command: str, columns: int) -> str:
    """Help as a terminal of that width gets it (not through CliRunner, which fixes the width at 80)."""
    done = subprocess.run([*WHIST, command, "--help"], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": str(columns)}, check=True)
    return done.stdout


def test_help_uses_the_terminal_width() -> None:
    assert max(len(line) for line in help_text("play", 160).splitlines()) > 100
    assert max(len(line) for line in help_text("play", 80).splitlines()) <= 80


def test_tournament_help_has_no_stray_line_break() -> None:
    text = help_text("tournament", 200)
    assert "95% confidence interval, and the paired (per deal) difference between bots." in text


def test_rules_wrap_under_their_option_not_to_column_0(runner: CliRunner) -> None:
    result = runner.invoke(app, ["rules"], env={"COLUMNS": "60"})
    assert result.exit_code == 0
    options = False
    for line in result.output.splitlines():
        if line.startswith("Options ("):
            options = True
        elif line.startswith(("Presets", "┏", "╭")) or not line.strip():
            options = False
        elif options:
            assert line.startswith("  "), line


def one_card_hand_view(phase: Phase) -> SeatView:
    game = make_game("whistiti", options={"players": "4"})
    state = game.new_hand(0, "polish", 0)  # the first hand of the schedule "up": one card each
    while state.phase != phase:
        state = state.apply(state.legal_actions()[0])
    return seat_view(state, state.player)


def test_one_trick_is_one_trick() -> None:
    view = one_card_hand_view(Phase.CONTRACT)
    assert view.hand_size == 1
    with pytest.raises(WhistError, match=r"^There is only 1 trick: you cannot bid 2$"):
        parse_choice("2", view, [])


def test_a_taken_port_is_one_clear_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([*WHIST, "serve", "--port", str(port)],
                              capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert done.stdout == ""  # no "serving on" line before the failure
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"Port {port} on 127.0.0.1 is already in use" in lines[0] and "--port" in lines[0]


def test_a_second_server_on_one_sqlite_file_is_one_clear_line(server: Any) -> None:
    """Two processes on one SQLite file would each play its tables from their own memory: the second
    is refused while the first runs, and may start once the first is gone (killed, not stopped)."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    second = [*WHIST, "serve", "--port", str(port)]
    env = {**os.environ, "WHIST_DATA_DIR": str(server.data_dir)}
    done = subprocess.run(second, capture_output=True, text=True, timeout=60, check=False, env=env)
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Another whist serve already uses the database" in lines[0], done.stderr
    assert "PostgreSQL" in lines[0]
    server.kill()  # SIGKILL: the system lets go of the lock with the process
    server.start()
