"""``whist analyze``: a saved game's card errors and bids as tables or JSON; bad input refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from israeli_whist.bots.search.individual import compiled_search_available
from israeli_whist.cli.main import app

FAST = ["--bot", "basic", "--max-tricks", "3"]  # the tests' budget: short endings, the quick bot


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Games the bots played (random bots in Classic Whist: they make errors), saved as records."""
    folder = tmp_path_factory.mktemp("records")
    runner = CliRunner()
    games = {"israeli": ["--game", "israeli", "--hands", "1"], "classic": ["--game", "classic", "--bots", "random",
                                                                        "--option", "target=1"]}
    paths = {}
    for name, args in games.items():
        paths[name] = folder / f"{name}.json"
        result = runner.invoke(app, ["play", "--watch", "--seed", "3", *args, "--save", str(paths[name])])
        assert result.exit_code == 0, result.output
    return paths


def test_a_report_hand_by_hand_with_totals(runner: CliRunner, saved: dict[str, Path]) -> None:
    result = runner.invoke(app, ["analyze", str(saved["classic"]), *FAST], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    output = result.output
    assert "Classic Whist" in output and "with at most 3 tricks left" in output
    assert "Hand 1 (dealer" in output and "12 of 52 cards analysed" in output
    assert "Totals" in output and "Tricks lost" in output
    data = json.loads(runner.invoke(app, ["analyze", str(saved["classic"]), *FAST, "--json"]).stdout)
    errors = [c for h in data["hands"] for c in h["cards"] if c["error"]]
    assert errors, "random bots made no error in this ending: choose another seed"
    assert "-1 trick" in output or "-2 tricks" in output
    assert sum(data["errors"]) == len(errors) and sum(data["cost"]) == sum(c["cost"] for c in errors)


def test_bids_beside_the_bot(runner: CliRunner, saved: dict[str, Path]) -> None:
    result = runner.invoke(app, ["analyze", str(saved["israeli"]), "--bot", "random", "--max-tricks", "1"],
                           env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "Bids unlike random" in result.output and "Random" in result.output  # the random bot differs somewhere
    same = runner.invoke(app, ["analyze", str(saved["israeli"]), "--bot", "basic", "--max-tricks", "1", "--json"])
    data = json.loads(same.stdout)
    assert data["bids_differing"] == [0, 0, 0, 0]  # the basic bots played it: the basic bot agrees with itself
    assert data["bot"] == "basic" and data["max_tricks"] == 1


def test_one_hand_as_json(runner: CliRunner, saved: dict[str, Path]) -> None:
    result = runner.invoke(app, ["analyze", str(saved["israeli"]), *FAST, "--hand", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [h["number"] for h in data["hands"]] == [1]
    assert sum(c["analysed"] for c in data["hands"][0]["cards"]) == 12


@pytest.mark.parametrize(("content", "message"), [
    (None, "Cannot read"),
    ("{not json", "not valid JSON"),
    ('{"format": "whist-record", "version": 1, "game": "israeli", "rules": {}, "seed": 1, '
     '"hands": [{"actions": [[1, "AS"]]}]}', "Hand 1, action 1"),
])
def test_bad_records_are_refused(runner: CliRunner, tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["analyze", str(path), *FAST])
    assert result.exit_code == 1
    assert message in result.stderr and "whist analyze:" in result.stderr
    assert "Traceback" not in result.output


def test_bad_options_are_refused(runner: CliRunner, saved: dict[str, Path]) -> None:
    missing_hand = runner.invoke(app, ["analyze", str(saved["israeli"]), *FAST, "--hand", "9"])
    assert missing_hand.exit_code == 1 and "has no hand 9" in missing_hand.stderr
    bot = runner.invoke(app, ["analyze", str(saved["israeli"]), "--bot", "nobody"])
    assert bot.exit_code == 2 and "Unknown bot level 'nobody'" in bot.stderr


@pytest.mark.skipif(not compiled_search_available(), reason="individual_solver is not built")
def test_cards_not_proven_are_said_so(runner: CliRunner, saved: dict[str, Path], monkeypatch: pytest.MonkeyPatch
                                      ) -> None:
    from israeli_whist.bots.matches import analysis

    monkeypatch.setattr(analysis, "PARANOID_NODE_BUDGET", 5)  # a budget the searches soon run out of
    result = runner.invoke(app, ["analyze", str(saved["israeli"]), *FAST], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "not proven (the search ran out of its budget" in result.output
    assert "not proven, " in result.output  # in the hand's summary too


def test_an_error_whose_best_cards_were_not_all_asked_says_so() -> None:
    """A verdict proven except for some of the other cards: its list of best cards ends in "…",
    and the table's caption says what that means; a complete list has neither."""
    from rich.console import Console

    from israeli_whist.bots.matches.analysis import CardVerdict, GameAnalysis, HandAnalysis
    from israeli_whist.cli.analyze import hand_report

    def rendered(complete: bool) -> str:
        verdict = CardVerdict(5, 2, 1, 12, -10, 10, (11,), all_best_cards=complete)
        hand = HandAnalysis(1, 0, False, (verdict,), ())
        analysis = GameAnalysis("israeli", "Israeli Whist", ("A", "B", "C", "D"), "points", "basic", 13, (hand,))
        console = Console(width=200, record=True)
        console.print(hand_report(hand, analysis))
        return console.export_text()

    partial, complete = rendered(False), rendered(True)
    assert "│ K♣ … │" in partial and "more cards may reach the best" in partial
    assert "│ K♣   │" in complete and "…" not in complete and "more cards may reach" not in complete
