"""bench/server_load.py --event (bench/server_load_events.py): its checks of a board's results, an
event's standings and the players' points, each shown to find what it is there to find, and the
bench itself at a tiny size (SQLite, then two nodes behind nginx on PostgreSQL)."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from bench_kit import load_bench, needs_nginx

pytestmark = pytest.mark.usefixtures("same_utc_day")  # the daily event: conftest.same_utc_day

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "server_load.py"


@pytest.fixture(scope="module")
def events() -> ModuleType:
    return load_bench("server_load_events")


def results(events: ModuleType, points: dict[int, int], count: int | None = None,
            average: float | None = None) -> Any:
    """A board's results as the server answers them, one line a user with these points."""
    lines = [{"user": user, "points": p, "you": False} for user, p in points.items()]
    field = {"count": len(points) if count is None else count,
             "average": round(sum(points.values()) / len(points), 2) if average is None else average}
    return events.Reply(200, {"field": field, "results": lines}, "direct")


def test_a_boards_results_pass_with_every_players_line_once_and_the_fields_average(events: ModuleType) -> None:
    points = {1: 110, 2: -30, 3: 41}
    assert events.check_field("node1", results(events, points), 1, points) == []


def test_a_boards_results_fail_with_a_line_missing_twice_or_other_points_or_a_wrong_field(
        events: ModuleType) -> None:
    points = {1: 110, 2: -30, 3: 41}
    assert events.check_field("node1", results(events, {1: 110, 2: -30}), 1, points)
    assert events.check_field("node1", results(events, {**points, 3: 40}), 1, points)
    doubled = results(events, points)
    doubled.body["results"].append(dict(doubled.body["results"][0]))
    assert events.check_field("node1", doubled, 1, points)
    assert events.check_field("node1", results(events, points, count=4), 1, points)
    assert events.check_field("node1", results(events, points, average=40.0), 1, points)
    refused = events.Reply(403, {"code": "board_unplayed", "detail": "Play it first"}, "direct")
    assert events.check_field("node1", refused, 1, points) == ["node1: board 1's results: 403 board_unplayed "
                                                               "Play it first"]


def standings_rows() -> list[dict[str, Any]]:
    """Two boards, three players, by hand: board 1 points 10 / 20 / 20, board 2 points 0 / 0 / -10.
    Matchpoints (ties half): board 1 user 1 0%, users 2 and 3 75%; board 2 users 1 and 2 75%, user 3
    0%. Field averages 16.67 and -3.33, so above them -6.67 + 3.33, 3.33 + 3.33, 3.33 - 6.67: shown
    to two decimals, as the server does."""
    return [
        {"place": 1, "user": 2, "boards": 2, "percent": 75.0, "above_average": 6.67},
        {"place": 2, "user": 1, "boards": 2, "percent": 37.5, "above_average": -3.33},
        {"place": 3, "user": 3, "boards": 2, "percent": 37.5, "above_average": -3.33},
    ]


FIELDS = {(1, 0): {1: 10, 2: 20, 3: 20}, (2, 0): {1: 0, 2: 0, 3: -10}}


def test_the_standings_pass_when_they_score_the_players_lines_as_by_hand(events: ModuleType) -> None:
    assert events.check_standings("node1", standings_rows(), FIELDS, {1, 2, 3}) == []


def test_the_standings_fail_with_a_player_missing_or_a_row_scored_otherwise(events: ModuleType) -> None:
    rows = standings_rows()
    assert events.check_standings("node1", rows[:2], FIELDS, {1, 2, 3})
    assert events.check_standings("node1", rows, FIELDS, {1, 2, 3, 4})
    for key, value in (("percent", 50.0), ("above_average", 6.0), ("boards", 1)):
        wrong = standings_rows()
        wrong[0][key] = value
        assert events.check_standings("node1", wrong, FIELDS, {1, 2, 3}), key


def test_a_players_line_must_hold_the_points_their_tables_actions_replay_to(events: ModuleType) -> None:
    player = events.Player(0, "cookie", 7)
    player.boards = [events.Board(1, events.Client("t1"), "direct", 0.0, line={"points": 42}),
                     events.Board(2, events.Client("t2"), "direct", 0.0, line={"points": -13})]
    assert events.check_points([player], {"t1": (42, 0, 1, 2), "t2": (-13, 5, 5, 5)}) == []
    assert events.check_points([player], {"t1": (42, 0, 1, 2), "t2": (13, 5, 5, 5)}) == [
        "t2: the results say -13 points, the replay 13"]


def run_event_bench(tmp_path: Path, *options: str) -> dict[str, Any]:
    report = tmp_path / "report.json"
    command = [sys.executable, str(BENCH), "--event", "--players", "4", "--boards", "2", "--bot-level", "easy",
               "--bot-delay", "0.05", "--think", "0.01,0.05", "--bot-workers", "0", "--stall-timeout", "20",
               "--report", str(report), *options]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stdout + result.stderr
    figures: dict[str, Any] = json.loads(report.read_text())
    return figures


def check_event_figures(figures: dict[str, Any]) -> None:
    assert figures["event_problems"] == [] and figures["problems"] == [] and figures["errors"] == []
    assert not figures["failed"]
    assert figures["bot_level"] == "easy"
    assert figures["boards_played"] == figures["results_read"] == 4 * 2
    assert figures["actions"] >= 8 * 40  # a board is one hand: some 60 actions
    assert figures["ack_latency_s"]["count"] + figures["acks_lost_but_stored"] > 0


def test_the_event_bench_at_tiny_size_loses_nothing_and_scores_the_field(tmp_path: Path) -> None:
    figures = run_event_bench(tmp_path)
    assert figures["database"] == "sqlite"
    check_event_figures(figures)


def test_the_event_bench_on_two_nodes_reads_every_board_on_both(tmp_path: Path, postgres_url: str) -> None:
    needs_nginx()
    figures = run_event_bench(tmp_path, "--nodes", "2", "--database-url", postgres_url)
    check_event_figures(figures)
    # Every node answered the standings and every board's results (check_nodes): each board was
    # played on one of them, so each was read on a node that did not play it.
    assert set(figures["connections_per_node"]) == {"node1", "node2"}


def test_the_examples_in_the_benchs_docstrings_hold(events: ModuleType) -> None:
    """bench/ is not among pytest's doctest paths: the examples of the load bench's two files run here
    (the most players at once, the bots' lateness, the percentiles)."""
    for module in (events, load_bench("server_load")):
        failed, tried = doctest.testmod(module)
        assert tried and not failed, module.__name__
