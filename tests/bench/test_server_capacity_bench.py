"""bench/server_load.py --capacity (bench/server_capacity.py): a trial's verdict, the search, and
the mode itself at a tiny size, on its own throwaway PostgreSQL and on one the suite gives: both
searches printed, the ratio, and a report whose verdicts follow the stated criteria and whose
capacities are passing trials' table counts. No speed is asserted: a loaded machine may fail a
trial, and the report must then say so consistently."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from bench_kit import load_bench, needs_nginx

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "server_load.py"


@pytest.fixture(scope="module")
def capacity() -> ModuleType:
    return load_bench("server_capacity")


def figures(ack_p99: float | None, late_p90: float | None, problems: int = 0) -> dict[str, Any]:
    return {"problems": ["lost"] * problems, "errors": [], "refusals": [],
            "ack_latency_s": None if ack_p99 is None else {"median": 0.01, "p99": ack_p99},
            "bot_delay_over_pacing_s": None if late_p90 is None else {"median": 0.01, "p90": late_p90}}


def test_a_trial_passes_only_on_time_and_with_nothing_lost(capacity: ModuleType) -> None:
    assert capacity.verdict(figures(0.099, 0.249)) == []
    assert [len(capacity.verdict(f)) for f in (figures(0.1, 0.1), figures(0.05, 0.25), figures(0.05, 0.1, 1),
                                               figures(None, 0.1), figures(0.05, None), figures(0.2, 0.3, 2))] \
        == [1, 1, 1, 1, 1, 3]
    assert "ack p99 100 ms" in capacity.verdict(figures(0.1, 0.1))[0]


def test_the_search_doubles_then_bisects_and_never_passes_the_maximum(capacity: ModuleType) -> None:
    asked: list[int] = []

    def passes_up_to(most: int, maximum: int, start: int = 8) -> int:
        asked.clear()

        def trial(tables: int) -> bool:
            asked.append(tables)
            return tables <= most

        found: int = capacity.search(trial, start, maximum, 2)
        assert all(1 <= n <= maximum for n in asked) and len(asked) == len(set(asked))
        return found

    assert passes_up_to(37, 256) == 36 and asked == [8, 16, 32, 64, 48, 40, 36]
    assert passes_up_to(0, 256) == 0 and asked == [8, 4, 2, 1]
    assert passes_up_to(300, 100) == 100 and asked == [8, 16, 32, 64, 100]
    assert passes_up_to(5, 5, start=9) == 5 and asked == [5]
    for most in range(0, 70):
        found = passes_up_to(most, 64, start=3)
        assert found <= most and (most - found <= max(2, found // 8) or found == 64)


def run_capacity(tmp_path: Path, *options: str) -> tuple[str, dict[str, Any]]:
    report = tmp_path / "capacity.json"
    command = [sys.executable, str(BENCH), "--capacity", "--bot-level", "basic", "--bot-delay", "0.05",
               "--think", "0.01,0.05", "--lease-seconds", "2", "--stall-timeout", "20", "--capacity-start", "1",
               "--report", str(report), *options]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=150)
    assert result.returncode == 0, result.stdout + result.stderr
    found: dict[str, Any] = json.loads(report.read_text())
    return result.stdout, found


def check_report(output: str, report: dict[str, Any], maximum: int, capacity: ModuleType) -> None:
    assert "1 node(s) behind nginx" in output and "2 node(s) behind nginx" in output
    one, two = report["searches"]["one_node"], report["searches"]["two_nodes"]
    for search, nodes in ((one, 1), (two, 2)):
        assert search["nodes"] == nodes and search["trials"]
        for trial in search["trials"]:
            on_time = (trial["ack_s"] is not None and trial["ack_s"]["p99"] < capacity.ACK_P99_LIMIT_S
                       and trial["late_s"] is not None and trial["late_s"]["p90"] < capacity.LATE_P90_LIMIT_S
                       and trial["lost"] == 0)
            assert trial["passed"] == on_time == (trial["reasons"] == []), trial
            assert trial["nodes"] == nodes and 1 <= trial["tables"] <= maximum
            assert trial["actions"] >= 60 * trial["tables"]  # a hand of Israeli Whist is some 60 actions
            assert output.count(f"{trial['tables']:4d} tables: ") >= 1
        passing = [t["tables"] for t in search["trials"] if t["passed"]]
        assert search["capacity"] == max(passing, default=0)
        # A size fails when every run of it fails (--capacity-retries, once by default): then above the capacity.
        assert all(t["tables"] > search["capacity"] for t in search["trials"] if t["tables"] not in passing)
        runs = [(t["tables"], t["attempt"]) for t in search["trials"]]
        assert all(attempt == 1 or (tables, attempt - 1) in runs for tables, attempt in runs)
        assert f"kept on time: {search['capacity']} tables" in output
    assert two["trials"][0]["tables"] == max(1, one["capacity"])  # the second search starts at the first's capacity
    if one["capacity"]:
        assert report["ratio"] == pytest.approx(two["capacity"] / one["capacity"])
        assert f"ratio {report['ratio']:.2f}" in output
    else:
        assert report["ratio"] is None and "ratio n/a" in output
    # Each node on a core of its own: one core for the one node, the other for the rest.
    pinned = one["trials"][0]["pinned"]
    assert pinned["node1 web"] != pinned["clients"] and len(pinned["node1 web"]) == 1
    assert pinned["nginx"] == pinned["clients"]
    pinned = two["trials"][0]["pinned"]
    assert {pinned["node1 web"], pinned["node2 web"]} == {one["trials"][0]["pinned"]["clients"],
                                                        one["trials"][0]["pinned"]["node1 web"]}


def test_the_capacity_mode_on_its_own_postgresql(tmp_path: Path, capacity: ModuleType) -> None:
    needs_nginx()
    if not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        if os.environ.get("CI"):
            pytest.fail("CI runs the capacity bench on its own PostgreSQL (scripts/test installs it)")
        pytest.skip("no PostgreSQL server installed (apt-get install -y postgresql)")
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("the capacity mode pins a node to each of two cores")
    output, report = run_capacity(tmp_path, "--capacity-max", "2", "--ramp", "0.2")
    check_report(output, report, 2, capacity)
    assert report["ramp_s"] == 0.2 and "the people coming over 0.2 s" in output
    one = report["searches"]["one_node"]["trials"][0]
    # Its PostgreSQL pinned to the clients' core, its CPU measured; the node's bot worker on the node's core.
    assert one["pinned"]["postgresql"] == one["pinned"]["clients"]
    assert one["pinned"]["node1 workers"] == one["pinned"]["node1 web"]
    assert "postgresql" in one["cpu_s"] and "nginx" in one["cpu_s"] and "PostgreSQL: this bench's own" in output


def test_the_capacity_mode_on_a_given_postgresql(tmp_path: Path, postgres_url: str, capacity: ModuleType) -> None:
    needs_nginx()
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("the capacity mode pins a node to each of two cores")
    output, report = run_capacity(tmp_path, "--capacity-max", "1", "--bot-workers", "0",
                                  "--database-url", postgres_url)
    check_report(output, report, 1, capacity)
    assert "neither pinned nor measured" in output and report["database"] == "given, not pinned"
    assert all("postgresql" not in t["cpu_s"] for s in report["searches"].values() for t in s["trials"])
