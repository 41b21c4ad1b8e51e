"""``whist tournament``: the summary, the files in --out, the same results from the same seed,
and bad input refused with a message and no traceback."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from typer.testing import CliRunner

from israeli_whist.bots.matches.tournament import csv_header, csv_rows, run_tournament, spec_from
from israeli_whist.cli.main import app
from israeli_whist.cli.tournamentchart import chart_figure, write_chart
from israeli_whist.core.cards import strain_name


def run_to(runner: CliRunner, folder: Path, *args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["tournament", "--out", str(folder), *args])
    assert result.exit_code == 0, result.output
    summary: dict[str, Any] = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    return summary


def test_writes_the_summary_the_hands_and_the_chart(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["tournament", "--bots", "basic,random", "--deals", "4", "--seed", "3",
                                 "--workers", "1", "--out", str(tmp_path / "out")], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert "basic - random" in result.output
    assert "4 deals x 6 seat arrangements" in result.output
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert summary["bots"] == ["basic", "random"]
    assert summary["arrangements"] == ["AABB", "ABAB", "ABBA", "BAAB", "BABA", "BBAA"]
    assert summary["hands_played"] == 24
    assert [bot["seat_hands"] for bot in summary["results"]] == [48, 48]
    with (tmp_path / "out" / "results.csv").open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 24
    assert {rows[0]["bot0"], rows[0]["bot1"]} == {"basic"}
    assert sum(int(row[f"points{seat}"]) for row in rows for seat in range(4)) == pytest.approx(
        sum(bot["mean_per_hand"] * bot["seat_hands"] for bot in summary["results"]))
    assert (tmp_path / "out" / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_same_seed_gives_the_same_files_with_any_number_of_workers(runner: CliRunner, tmp_path: Path) -> None:
    args = ("--game", "classic", "--bots", "random,basic", "--deals", "5", "--seed", "9", "--option", "honours=true")
    first = run_to(runner, tmp_path / "one", *args, "--workers", "1")
    second = run_to(runner, tmp_path / "two", *args, "--workers", "2")
    del first["decision_time"], second["decision_time"]
    assert first == second
    assert first["options"] == {"honours": "true"}
    assert (tmp_path / "one" / "results.csv").read_bytes() == (tmp_path / "two" / "results.csv").read_bytes()


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "basic,clever"], "Unknown bot level 'clever'"),
    (["--bots", "basic"], "at least two bots"),
    (["--bots", ""], "at least two bots"),
    (["--option", "colour=blue"], "Unknown option 'colour'"),
    (["--option", "hands"], "NAME=VALUE"),
    (["--preset", "nope"], "No preset 'nope'"),
    (["--game", "poker"], "poker"),
    (["--game", "classic", "--bots", "basic,random,random"], "exactly two bots"),
    (["--deals", "0"], "--deals"),
])
def test_bad_input_is_refused_with_a_message(runner: CliRunner, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["tournament", "--deals", "2", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_out_must_be_a_folder(runner: CliRunner, tmp_path: Path) -> None:
    file = tmp_path / "taken"
    file.write_text("x", encoding="utf-8")
    result = runner.invoke(app, ["tournament", "--deals", "1", "--out", str(file)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_the_chart_says_the_game_the_hands_and_the_paired_difference(tmp_path: Path) -> None:
    result = run_tournament(spec_from("israeli", ["basic", "random"], 3, seed=2), workers=1)
    figure = chart_figure(result)
    texts = [text.get_text() for text in figure.findobj(Text)]
    title = figure.get_suptitle()
    assert title.startswith("Israeli Whist: basic vs random") and "israeli" not in title
    assert "18 hands played" in title and "3 deals" in title
    difference = result.differences[0].mean
    assert f"{difference.mean:+.2f}  [{difference.low:+.2f}, {difference.high:+.2f}]" in texts
    assert "Paired difference: the main result" in texts
    for bot in result.bots:
        assert f"{bot.mean.mean:+.2f} ± {bot.mean.half_width:.2f}" in texts
    bars = [patch for patch in figure.axes[0].patches if isinstance(patch, Rectangle)]
    assert len({tuple(bar.get_facecolor()) for bar in bars}) == 2  # a colour per bot
    write_chart(result, tmp_path / "chart.png")
    assert (tmp_path / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_results_csv_names_the_trump(tmp_path: Path) -> None:
    result = run_tournament(spec_from("israeli", ["basic", "random"], 2, seed=4), workers=1)
    rows = [dict(zip(csv_header(4), row, strict=True)) for row in csv_rows(result)]
    assert {row["trump"] for row in rows} <= {"C", "D", "H", "S", "NT"}
    assert [row["trump"] for row in rows] == [strain_name(row.trump) for row in result.rows]
