"""bench/event_scores.py at a tiny size: both ways give the same standings, every question is
timed both ways with its spread and ratio, and the report holds what was printed. No speed is
asserted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench_kit import load_bench

QUESTIONS = ("ranking, a board just ended", "ranking, within its 10 s", "an event's page, it moved",
             "an event's page", "a player's 50 events")


def test_the_bench_asks_each_question_both_ways(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench("event_scores")
    report = tmp_path / "scores.json"
    assert bench.main(["--days", "3", "--players", "12", "--repeats", "3", "--report", str(report)]) == 0
    printed = capsys.readouterr().out
    figures = json.loads(report.read_text())
    assert figures["plays"] == 3 * 12 * 4 and figures["same_answers"] == {"ranking": True, "event": True}
    assert "the same standings both ways: ranking True, an event True" in printed
    for question in QUESTIONS:
        timed = figures[question]
        for way in ("before", "kept"):
            assert 0 <= timed[way]["median"] <= timed[way]["p90"] <= timed[way]["max"]
        assert timed["ratio"] == pytest.approx(timed["before"]["median"] / timed["kept"]["median"])
        assert question in printed
