"""The command itself: help, version, and options that are refused before a game starts."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

import israeli_whist
from israeli_whist.cli.main import app


def test_version(runner: CliRunner) -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"whist {israeli_whist.__version__}"


def test_no_command_prints_help(runner: CliRunner) -> None:
    result = runner.invoke(app, [])
    assert result.exit_code == 0
    for command in ("play", "rules", "check"):
        assert command in result.output


def test_play_help_says_what_hands_means_for_each_game(runner: CliRunner) -> None:
    result = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "first N hands of the schedule" in text
    assert "Classic Whist is played to a target" in text


@pytest.mark.parametrize(("args", "message"), [
    (["--preset", "nope"], "No preset 'nope'"),
    (["--option", "hands"], "NAME=VALUE"),
    (["--option", "colour=blue"], "Unknown option 'colour'"),
    (["--option", "nt_minimum=4"], "nt_minimum must be between 5 and 13"),
    (["--bots", "genius"], "Unknown bot level 'genius'"),
    (["--game", "classic", "--hands", "3"], "target"),
    (["--game", "classic", "--players", "3"], "Classic Whist is for 4 players"),
    (["--players", "5"], "Israeli Whist is for 4 players"),
    (["--preset", "three_no_clubs", "--players", "4"], "does not fit form three_no_clubs"),
    (["--game", "whistiti", "--hands", "14"], "too many"),
    (["--name", "\u202eEve"], "A name may not hold an invisible formatting character (U+202E"),
    (["--name", "E\x1bve"], "A name may not hold a control character (U+001B)"),
    (["--name", "   "], "this one is empty"),
    (["--name", "x" * 41], "A name is 1 to 40 characters, not 41"),
])
def test_bad_options_are_usage_errors(runner: CliRunner, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", "--watch", *args], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output


@pytest.mark.parametrize("level", ["expert@5ms", "hard:deals=2:exact=3", "expert@5ms:deals=2:infer=2:bidslope=15"])
def test_play_takes_every_form_the_registry_takes(runner: CliRunner, level: str) -> None:
    """One gate for levels (``bots.players.registry.check_level``): a budget and settings too."""
    result = runner.invoke(app, ["play", "--watch", "--seed", "1", "--hands", "1", "--bots", level])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output


def test_save_to_a_missing_folder_is_refused_before_playing(runner: CliRunner) -> None:
    result = runner.invoke(app, ["play", "--watch", "--save", "/no/such/folder/game.json"])
    assert result.exit_code == 2
    assert "no folder" in result.output


def test_module_runs_as_the_whist_command() -> None:
    done = subprocess.run([sys.executable, "-m", "israeli_whist.cli", "--version"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0
    assert done.stdout.strip() == f"whist {israeli_whist.__version__}"
