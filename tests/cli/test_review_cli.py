"""``whist analyze --review``: a saved game's review as tables or JSON, its budget from the command
line, progress on stderr, and bad files and options refused as ``whist analyze`` refuses them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from israeli_whist.cli import progress as progress_module
from israeli_whist.cli.main import app
from israeli_whist.cli.review import (
    DEALS_RANGE,
    PAR_PLAYOUTS_RANGE,
    costliest_table,
    costs_table,
    hand_report,
    players_table,
    review_settings,
)

CHEAP = ["--review", "--deals", "4", "--par-playouts", "2"]  # the tests' budget: a few deals a decision


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2-hand Israeli Whist game of random bots (they make mistakes to find), saved as a record."""
    path = tmp_path_factory.mktemp("records") / "israeli.json"
    result = CliRunner().invoke(app, ["play", "--watch", "--seed", "5", "--game", "israeli", "--hands", "2",
                                      "--bots", "random", "--save", str(path)])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def reviewed(saved: Path) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["analyze", str(saved), *CHEAP, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_json_is_the_review_with_the_budget_asked_for(reviewed: dict[str, Any]) -> None:
    assert reviewed["kind"] == "review" and reviewed["game"] == "israeli"
    assert reviewed["budget"]["deals"] == 4 and reviewed["budget"]["par_playouts"] == 2
    assert [h["number"] for h in reviewed["hands"]] == [1, 2]
    assert reviewed["players"] == ["Bot 1", "Bot 2", "Bot 3", "Bot 4"]
    assert any(d["verdict"] for h in reviewed["hands"] for d in h["decisions"]), "random bots erred nowhere"


def test_tables_say_what_the_json_says(runner: CliRunner, saved: Path, reviewed: dict[str, Any]) -> None:
    result = runner.invoke(app, ["analyze", str(saved), *CHEAP], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    output = result.output
    words = " ".join(output.split())  # the heading wraps where the path's length puts it
    assert "Israeli Whist, 2 hands reviewed" in words and "4 deals drawn a decision (seed 0)" in words
    for title in ("Players", "Accuracy", "Auction", "Contract", "Play", "Blunders", "Costliest decisions",
                  "Where the points went", "Score = par - decisions' cost + the rest"):
        assert title in output
    for hand in reviewed["hands"]:
        judged = sum(1 for d in hand["decisions"] if d["verdict"])
        assert f"{len(hand['decisions'])} decisions reviewed, {judged} with a verdict." in output
    for seat in reviewed["seats"]:  # each player's row: name, decisions, accuracy, mean cost
        assert cells(output, seat["name"])[:4] == [seat["name"], str(seat["decisions"]), f"{seat['accuracy']:.1f}",
                                                  f"{seat['mean_cost']:.2f}"]


def test_classic_whist_is_valued_by_the_side_s_net_points(runner: CliRunner) -> None:
    record = Path(__file__).resolve().parents[1] / "golden" / "classic_standard.json"
    result = runner.invoke(app, ["analyze", str(record), "--review", "--deals", "4", "--par-playouts", "0", "--hand",
                                 "1"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    words = " ".join(result.output.split())
    assert "the points its side could expect from the hand (its points less the other side's)" in words
    assert "0.25 (inaccuracy), 0.5 (mistake), 1 (blunder)" in words
    assert "Auction" not in words and "Contract" not in words  # no bidding in Classic Whist


def test_one_hand_and_a_missing_hand(runner: CliRunner, saved: Path) -> None:
    one = runner.invoke(app, ["analyze", str(saved), *CHEAP, "--hand", "2", "--json"])
    assert one.exit_code == 0, one.output
    assert [h["number"] for h in json.loads(one.stdout)["hands"]] == [2]
    missing = runner.invoke(app, ["analyze", str(saved), *CHEAP, "--hand", "9"])
    assert missing.exit_code == 1 and "whist analyze:" in missing.stderr and "has no hand 9" in missing.stderr
    missing_json = runner.invoke(app, ["analyze", str(saved), *CHEAP, "--hand", "9", "--json"])
    assert missing_json.exit_code == 1 and "has no hand 9" in json.loads(missing_json.stdout)["error"]


def test_the_seed_is_the_review_s(runner: CliRunner, saved: Path, reviewed: dict[str, Any]) -> None:
    again = runner.invoke(app, ["analyze", str(saved), *CHEAP, "--hand", "1", "--json"])
    assert json.loads(again.stdout)["hands"][0] == reviewed["hands"][0]  # the default seed: the same review
    other = json.loads(runner.invoke(app, ["analyze", str(saved), *CHEAP, "--hand", "1", "--seed", "8", "--json"]
                                     ).stdout)
    assert other["budget"]["seed"] == "8"
    values = [o["value"] for d in other["hands"][0]["decisions"] for o in d["options"]]
    assert values != [o["value"] for d in reviewed["hands"][0]["decisions"] for o in d["options"]]


@pytest.mark.parametrize(("content", "message"), [
    (None, "Cannot read"),
    ("{not json", "not valid JSON"),
    ("[1, 2]", "a record is a JSON object"),
    ('{"format": "whist-record", "version": 1, "game": "israeli", "rules": {}, "seed": 1, '
     '"hands": [{"actions": [[1, "AS"]]}]}', "Hand 1, action 1"),
])
@pytest.mark.parametrize("as_json", [False, True])
def test_bad_records_are_refused(runner: CliRunner, tmp_path: Path, content: str | None, message: str,
                                 as_json: bool) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["analyze", str(path), *CHEAP, *(["--json"] * as_json)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    if as_json:
        assert message in json.loads(result.stdout)["error"]
    else:
        assert message in result.stderr and "whist analyze:" in result.stderr


@pytest.mark.parametrize(("args", "says"), [
    (["--deals", "4"], "--deals is for --review"),
    (["--seed", "1"], "--seed is for --review"),
    (["--par-playouts", "0"], "--par-playouts is for --review"),
    (["--review", "--bot", "basic"], "--bot is for the analysis, not --review"),
    (["--review", "--max-tricks", "3"], "--max-tricks is for the analysis, not --review"),
    (["--review", "--deals", "0"], "--deals"),
    (["--review", "--deals", "99999999999999999999"], "--deals"),
    (["--review", "--par-playouts", "-1"], "--par-playouts"),
    (["--review", "--par-playouts", "1"], "2 to 1000 playouts"),
    (["--review", "--seed", "-1"], "--seed"),
    (["--review", "--seed", "\udcff"], "--seed"),  # a byte that is not UTF-8 on the command line: no traceback
])
def test_bad_options_are_refused(runner: CliRunner, saved: Path, args: list[str], says: str) -> None:
    result = runner.invoke(app, ["analyze", str(saved), *args])
    assert result.exit_code == 2, result.output
    assert says in result.stderr and "(see: whist analyze --help)" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_command_line_s_bounds_are_the_budget_s() -> None:
    for low, high, field in ((*DEALS_RANGE, "deals"), (*PAR_PLAYOUTS_RANGE, "par_playouts")):
        assert getattr(review_settings(**{field: low}), field) == low
        assert getattr(review_settings(**{field: high}), field) == high
        for outside in (low - 1, high + 1):
            with pytest.raises(ValueError):
                review_settings(**{field: outside})


def test_progress_on_stderr_keeps_the_json_clean(monkeypatch: pytest.MonkeyPatch, saved: Path) -> None:
    monkeypatch.setattr(progress_module, "PLAIN_EVERY", 0.0)
    result = CliRunner().invoke(app, ["analyze", str(saved), *CHEAP, "--hand", "1", "--json"])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines and all(line.startswith("Reviewing: ") and " actions (" in line for line in lines)
    json.loads(result.stdout)


# The tables from a hand-made review: what each kind of decision shows. ----------------------


def decision(step: int, seat: int, phase: str, chosen: int, options: list[tuple[int, float]], verdict: str | None,
             proven: bool = False, trick: int | None = None) -> dict[str, Any]:
    best = options[0][1]
    value = dict(options)[chosen]
    return {"step": step, "seat": seat, "phase": phase, "trick": trick, "chosen": chosen, "chosen_name": "",
            "options": [{"action": a, "name": "", "value": v, "error": 0.5} for a, v in options],
            "value": value, "best": best, "cost": best - value, "cost_error": 0.7, "verdict": verdict,
            "proven": proven, "accuracy": 50.0}


def made_review(phases: tuple[str, ...]) -> dict[str, Any]:
    """Classic Whist (play only) or a bidding game: seat 1 blunders in trick 4 (A♠ for 2♠), proven."""
    blunder = decision(20, 1, "play", 51, [(39, 6.0), (40, 5.0), (41, 4.0), (42, 3.0), (51, -10.0)], "blunder",
                       proven=True, trick=4)
    quiet = decision(21, 2, "play", 40, [(40, 3.0), (41, 2.5)], None, trick=4)
    seat_hand = {"decisions": 1, "cost": 0.0, "cost_by_phase": dict.fromkeys(phases, 0.0), "accuracy": 100.0,
                 "score": 3, "par": 2.5, "par_error": 1.2, "decisions_cost": 0.0, "rest": 0.5}
    seat = {"name": "", "decisions": 1, "mean_cost": 0.0, "accuracy": 100.0, "cost_by_phase": dict.fromkeys(phases, 0),
            "verdicts": {"inaccuracy": 0, "mistake": 0, "blunder": 0}, "costliest": [], "score": 3, "par": 2.5,
            "par_error": 1.2}
    seats = [{**seat, "name": name} for name in ("Ann", "Ben", "Cy", "Di")]
    seats[1] = {**seats[1], "mean_cost": 16.0, "verdicts": {"inaccuracy": 0, "mistake": 0, "blunder": 1},
                "costliest": [{"hand": 1, "step": 20, "phase": "play", "cost": 16.0, "verdict": "blunder",
                               "chosen_name": "AS", "best_name": "2S"}]}
    par = {"mean": [2.5] * 4, "error": [1.2] * 4, "playouts": 6}
    return {"players": ["Ann", "Ben", "Cy", "Di"], "seats": seats,
            "thresholds": {"inaccuracy": 4, "mistake": 8, "blunder": 16},
            "hands": [{"number": 1, "dealer": 3, "cancelled": False, "decisions": [blunder, quiet], "par": par,
                       "seats": [seat_hand] * 4}]}


def cells(table: str, name: str) -> list[str]:
    """The cells of the table row that begins with ``name``."""
    line = next(line for line in table.splitlines() if line.strip().startswith(name + " "))
    return [cell.strip() for cell in line.split("│")]


def rendered(*parts: Any) -> str:
    console = Console(width=200, record=True)
    for part in parts:
        console.print(part)
    return console.export_text()


def test_a_verdict_s_row_shows_the_best_options_the_chosen_one_and_the_cost() -> None:
    review = made_review(("play",))
    lines = rendered(hand_report(review["hands"][0], review)).splitlines()
    at = next(i for i, line in enumerate(lines) if "trick 4" in line)
    row = lines[at]
    assert "Ben" in row and "A♠" in row and "2♠ 6.0" in row and "-16.0 ± 0.7" in row and "proven blunder" in row
    options = [line.split("│")[3].strip() for line in lines[at:at + 4]]
    assert options == ["2♠ 6.0", "3♠ 5.0", "4♠ 4.0", "… A♠ -10.0"]  # the best three, then the one chosen
    text = "\n".join(lines)
    assert "Hand 1 (dealer Di)" in text and "2 decisions reviewed, 1 with a verdict." in text
    assert "+0.5" in text and "2.5 ± 1.2" in text  # where the points went: the rest, the par and its error
    costly = rendered(costliest_table(review))
    assert cells(costly, "Ben") == ["Ben", "1", "trick 4", "A♠", "2♠", "-16.0", "proven blunder"]


def test_without_a_par_the_points_are_the_score_and_the_cost() -> None:
    review = made_review(("play",))
    hand = {**review["hands"][0], "par": None,
            "seats": [{**seat, "par": None, "par_error": None, "rest": None} for seat in review["hands"][0]["seats"]]}
    text = rendered(hand_report(hand, review))
    header = next(line for line in text.splitlines() if "Score" in line)
    assert [c.strip() for c in header.split("┃")] == ["Player", "Score", "Decisions' cost"]
    assert "No par was asked for (--par-playouts 0)" in " ".join(text.split())


def test_the_kinds_of_decision_held_are_columns() -> None:
    review = made_review(("auction", "frisch", "contract", "play"))
    plays = rendered(costs_table(review))
    assert "Play" in plays and "Auction" not in plays and "Frisch" not in plays
    review["hands"][0]["decisions"][1]["phase"] = "frisch"
    both = rendered(costs_table(review), players_table(review))
    assert "Play" in both and "Frisch" in both and "Contract" not in both
    # Ben: 1 decision, accuracy 100.0 (as the hand-made seat says), mean cost 16.00, verdicts 0, 0, 1
    assert cells(rendered(players_table(review)), "Ben") == ["Ben", "1", "100.0", "16.00", "0", "0", "1"]
