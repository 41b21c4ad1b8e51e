"""bench/server_load.py: the bots' delay over their pacing, the exactly-once check of a table's
stored actions, and the bench itself at a tiny size (SQLite, then PostgreSQL), which must store
every action it saw taken, once."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from whist.core.games import make_game
from whist.core.match import Match

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "server_load.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("server_load_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["server_load_bench"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_a_bot_move_is_timed_from_the_state_before_it_less_the_pacing(bench: ModuleType) -> None:
    arrival = bench.Arrival
    arrivals = {0: arrival(10.0, 1), 1: arrival(11.5, 1), 2: arrival(11.6, 1), 3: arrival(13.0, 1)}
    delays, skipped = bench.bot_delays_over_pacing(arrivals, [0, 2], pacing=1.0)
    assert delays == pytest.approx([0.5, 0.4])  # 11.5 - 10.0 - 1.0 and 13.0 - 11.6 - 1.0
    assert skipped == 0


def test_moves_seen_across_a_reconnect_a_gap_or_the_kill_are_skipped(bench: ModuleType) -> None:
    arrival = bench.Arrival
    arrivals = {0: arrival(0.0, 1), 1: arrival(1.1, 1), 2: arrival(5.0, 2), 3: arrival(6.2, 2),
                5: arrival(9.0, 2), 6: arrival(12.0, 2)}
    # 1 -> 2 spans a reconnect, 3 -> 4 misses version 4, 5 -> 6 spans the kill at 10.0.
    delays, skipped = bench.bot_delays_over_pacing(arrivals, [0, 1, 2, 3, 5], pacing=1.0, cut_at=10.0)
    assert delays == pytest.approx([0.1, 0.2])
    assert skipped == 3


def test_spread_is_nearest_rank(bench: ModuleType) -> None:
    figures = bench.spread(float(n) for n in range(100, 0, -1))
    assert figures == {"count": 100, "median": 50.0, "p90": 90.0, "p99": 99.0, "max": 100.0}
    assert bench.spread([]) is None


def played_rows(seed: str) -> list[tuple[int, int, int, bool]]:
    """A whole one-hand Israeli game as stored rows (seq, seat, action, by_bot): random legal actions
    (always the first would pass every deal, and deal again for ever)."""
    rng = random.Random(seed)
    match = Match.start(make_game("israeli", None, {"hands": 1}), seed, 0)
    rows: list[tuple[int, int, int, bool]] = []
    while not match.over:
        seat, action = match.current_player, rng.choice(match.legal_actions())
        rows.append((len(rows), seat, action, seat != 0))
        match = match.apply(action)
    return rows


def client_that_saw(bench: ModuleType, rows: list[tuple[int, int, int, bool]]) -> Any:
    """A client who sent each of seat 0's stored actions and saw each acknowledged."""
    client = bench.Client("t1", finished=True)
    for seq, seat, action, by_bot in rows:
        if seat == 0 and not by_bot:
            client.sent[seq] = action
            client.acked_versions.append(seq + 1)
    return client


def test_the_table_check_passes_a_game_stored_as_the_client_saw_it(bench: ModuleType) -> None:
    rows = played_rows("s1")
    client = client_that_saw(bench, rows)
    game = make_game("israeli", None, {"hands": 1})
    assert bench.check_table(client, game, "s1", 0, rows) == []
    lost_ack = client.acked_versions.pop()  # its ack lost with the connection, seen in the next state
    client.inferred_versions.append(lost_ack)
    assert bench.check_table(client, game, "s1", 0, rows) == []


def test_the_table_check_finds_an_action_lost_stored_twice_or_not_the_one_sent(bench: ModuleType) -> None:
    rows = played_rows("s2")
    game = make_game("israeli", None, {"hands": 1})
    people = [seq for seq, seat, _, by_bot in rows if seat == 0 and not by_bot]
    assert len(people) >= 3

    acked_not_stored = client_that_saw(bench, rows)
    stored = [r if r[0] != people[0] else (r[0], r[1], r[2], True) for r in rows]  # stored as a bot's
    assert any("seen taken" in p for p in bench.check_table(acked_not_stored, game, "s2", 0, stored))

    twice = client_that_saw(bench, rows)
    twice.inferred_versions.append(people[1] + 1)  # acked and also counted as inferred
    assert any("twice" in p for p in bench.check_table(twice, game, "s2", 0, rows))

    other = client_that_saw(bench, rows)
    other.sent[people[2]] = -1
    assert any("did not send" in p for p in bench.check_table(other, game, "s2", 0, rows))

    unfinished = client_that_saw(bench, rows[:-1])
    problems = bench.check_table(unfinished, game, "s2", 0, rows[:-1])
    assert any("did not finish" in p for p in problems)


def run_bench(tmp_path: Path, *options: str) -> dict[str, Any]:
    report = tmp_path / "report.json"
    command = [sys.executable, str(BENCH), "--tables", "3", "--bot-delay", "0.05", "--think", "0.01,0.05",
               "--bot-workers", "0", "--stall-timeout", "20", "--report", str(report), *options]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    figures: dict[str, Any] = json.loads(report.read_text())
    return figures


def check_figures(figures: dict[str, Any], tables: int) -> None:
    assert figures["problems"] == [] and figures["errors"] == [] and not figures["failed"]
    assert figures["actions"] >= tables * 60  # a hand of Israeli Whist is some 60 actions
    acked = figures["ack_latency_s"]["count"]
    timed = figures["bot_delay_over_pacing_s"]
    # Every action is the person's (acknowledged) or a bot's (timed): none skipped on one connection.
    assert acked + timed["count"] == figures["actions"] and figures["bot_moves_skipped"] == 0
    assert -0.05 < timed["median"] < 1.0


def test_the_bench_at_tiny_size_loses_no_action(tmp_path: Path) -> None:
    figures = run_bench(tmp_path)
    assert figures["database"] == "sqlite"
    check_figures(figures, 3)


def test_the_bench_on_postgresql(tmp_path: Path, postgres_url: str) -> None:
    figures = run_bench(tmp_path, "--tables", "2", "--database-url", postgres_url)
    assert figures["database"] == "postgresql"
    check_figures(figures, 2)
