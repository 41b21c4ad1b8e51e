"""Bots play whole games (--watch); ``whist check`` replays the saved records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from israeli_whist.cli.main import app

GAMES = [["--game", "israeli"], ["--game", "classic"], ["--game", "whistiti"], ["--game", "israeli", "--players", "3"]]


def watch(runner: CliRunner, args: list[str], save: Path | None = None) -> str:
    extra = ["--save", str(save)] if save else []
    result = runner.invoke(app, ["play", "--watch", "--seed", "1", *args, *extra])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


@pytest.mark.parametrize("args", GAMES, ids=lambda a: " ".join(a[1:]))
def test_watch_plays_a_whole_game(runner: CliRunner, args: list[str]) -> None:
    output = watch(runner, args)
    assert "Seed 1" in output
    assert "Score sheet" in output
    assert "Final scores" in output
    assert "Winner" in output or "Shared first place" in output or "The sides are level" in output


def test_three_player_watch_deals_without_clubs(runner: CliRunner) -> None:
    output = watch(runner, ["--players", "3", "--hands", "2"])
    assert "♣" not in output


@pytest.mark.parametrize("args", GAMES, ids=lambda a: " ".join(a[1:]))
def test_check_replays_a_saved_game(runner: CliRunner, tmp_path: Path, args: list[str]) -> None:
    path = tmp_path / "game.json"
    watch(runner, args, path)
    record = json.loads(path.read_text(encoding="utf-8"))
    result = runner.invoke(app, ["check", str(path), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["game"] == record["game"]
    assert summary["complete"] is True
    assert summary["totals"] == record["totals"]
    assert [h["number"] for h in summary["hands"]] == [h["number"] for h in record["hands"]]
    for seat, total in enumerate(summary["totals"]):
        assert total == sum(h["points"][seat] for h in summary["hands"])
    assert min(summary["places"]) == 1
    table = runner.invoke(app, ["check", str(path)], env={"COLUMNS": "200"})
    assert table.exit_code == 0
    assert "complete" in table.output
    assert "Total" in table.output
    for total in summary["totals"]:
        assert (f"+{total}" if total > 0 else str(total)) in table.output


def first_played_hand(record: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    for index, hand in enumerate(record["hands"], start=1):
        if not hand.get("cancelled"):
            return index, hand
    raise AssertionError("no hand was played")


def test_check_names_the_hand_and_action_of_an_illegal_card(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    watch(runner, ["--hands", "2"], path)
    record = json.loads(path.read_text(encoding="utf-8"))
    number, hand = first_played_hand(record)
    actions = hand["actions"]
    # The last card of the hand is replaced by the card played just before it, by another seat:
    # a card that the last player cannot hold.
    actions[-1][1] = actions[-2][1]
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 1
    assert f"Hand {number}, action {len(actions)}, seat {actions[-1][0]}" in result.stderr
    assert "You don't hold" in result.stderr
    assert "Traceback" not in result.output


def test_check_refuses_a_missing_or_broken_file(runner: CliRunner, tmp_path: Path) -> None:
    missing = runner.invoke(app, ["check", str(tmp_path / "none.json")])
    assert missing.exit_code == 1
    assert "Cannot read" in missing.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    result = runner.invoke(app, ["check", str(broken)])
    assert result.exit_code == 1
    assert "not valid JSON" in result.stderr
    assert result.stdout == ""


def test_check_json_says_its_errors_in_json(runner: CliRunner, tmp_path: Path) -> None:
    """With --json a refused record is a JSON object on stdout, for the program that reads it."""
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    for path in (broken, tmp_path / "none.json"):
        result = runner.invoke(app, ["check", str(path), "--json"])
        assert result.exit_code == 1 and result.stderr == ""
        error = json.loads(result.stdout)["error"]
        assert ("not valid JSON" if path == broken else "Cannot read") in error


# Untrusted records: every fault is exit status 1 and one line on stderr, never a traceback --------------------

GOLDEN = Path(__file__).parent.parent / "golden" / "israeli_standard.json"


def refused(runner: CliRunner, path: Path, message: str) -> str:
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.stdout == ""
    line = result.stderr
    assert line.startswith("whist check: ") and line.endswith("\n") and line.count("\n") == 1, line
    assert message in line, line
    return line


def test_check_refuses_a_file_that_is_not_a_record(runner: CliRunner, tmp_path: Path) -> None:
    refused(runner, tmp_path, "Cannot read")  # a directory
    refused(runner, tmp_path / "none.json", "Cannot read")
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"players": ["Zoë"]}'.encode("latin-1"))
    refused(runner, latin, "is not a text file: byte 17 is not UTF-8")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    refused(runner, deep, "nest too deeply")


@pytest.mark.parametrize(("change", "message"), [
    (("seed", 7 * 10**4999), "not <a number of 5000 digits>"),
    (("first_dealer", True), "'first_dealer' must be a seat from 0 to 3, not True"),
    (("finished", False), "'finished' is false, but the game is over after hand 12"),
])
def test_check_refuses_audit_examples(runner: CliRunner, tmp_path: Path, change: tuple[str, Any],
                                      message: str) -> None:
    record = json.loads(GOLDEN.read_text(encoding="utf-8"))
    field, value = change
    record[field] = "@@value@@"
    text = json.dumps(record).replace('"@@value@@"', "7" * 5000 if isinstance(value, int) and value > 10**100
                                      else json.dumps(value))
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    refused(runner, path, message)


@pytest.mark.parametrize("text", ["²", "٣", "３"])
def test_check_refuses_contracts_in_other_scripts(runner: CliRunner, tmp_path: Path, text: str) -> None:
    record = json.loads(GOLDEN.read_text(encoding="utf-8"))
    actions = record["hands"][0]["actions"]
    index = next(i for i, (_, call) in enumerate(actions) if call.isdigit())  # the first contract
    actions[index][1] = text
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    refused(runner, path, f"Hand 1, action {index + 1}, seat {actions[index][0]}, '{text}': A contract is a number")


def test_check_names_a_file_with_a_line_break_on_one_line(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "two\nlines.json"
    path.write_text(GOLDEN.read_text(encoding="utf-8"), encoding="utf-8")
    result = runner.invoke(app, ["check", str(path)], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    assert "two\\nlines.json': a valid record of Israeli Whist, complete." in result.stdout
