"""A real ``whist serve`` under floods (bench/server_flood.py, at a small size): while clients send
16 MiB bodies (declared and chunked) and 16 MiB WebSocket messages in tight loops, and a burst of
analysis requests passes the ``analyses`` limit, ``/health`` answers in under 100 ms at the 99th
percentile, a table of bots keeps most of its pace (flooded windows against quiet ones in
turn), no bot decision misses its deadline, and nothing is logged as an error. Bounded: about
30 seconds a run, and a second run only where the first one's timing missed."""

from __future__ import annotations

import argparse
from types import ModuleType
from typing import Any

import pytest
from bench_kit import load_bench

from israeli_whist.server.workers import WORKER_NICENESS


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("server_flood")


# The timing figures are measured on a machine the test shares (CI's other jobs, other tests' leftovers):
# a load that comes from elsewhere raises /health's p99 in the quiet windows as much as in the flooded
# ones. So they must hold in one of two runs; every other figure must hold in each run.
TIMING_RUNS = 2


def test_the_server_stays_responsive_under_floods(bench: ModuleType) -> None:
    args = argparse.Namespace(window=2.0, rounds=4, flooders=1, bot_level="basic", bot_delay=0.05, analyses=10,
                              analyses_limit=3, flood_niceness=WORKER_NICENESS)
    missed: list[str] = []
    for _ in range(TIMING_RUNS):
        report = bench.run(args)
        check_refusals(report, args)
        flooded, quiet = report["health"]["flood"], report["health"]["quiet"]
        if flooded["p99"] < 0.100 and report["pace_ratio"] >= 0.6:
            return
        missed.append(f"/health p99 {flooded['p99'] * 1000:.1f} ms flooded, {quiet['p99'] * 1000:.1f} ms quiet; "
                      f"the bot table's pace {report['pace_ratio']:.2f} of its own; the run's figures: {report}")
    pytest.fail("under the floods, /health's p99 passed 100 ms or the table's pace fell under 0.6 in every run:\n"
                + "\n".join(missed))


def check_refusals(report: dict[str, Any], args: argparse.Namespace) -> None:
    """What must hold in every run: the floods ran and were refused as they should be, the analyses
    past the limit got 429, no bot decision missed its deadline and nothing was logged as an error."""
    figures = f"the run's figures: {report}"
    floods = report["floods"]
    assert floods["declared"]["requests"] > 50 and floods["declared"]["413_seen"] > 0, figures
    assert floods["chunked"]["requests"] > 50 and floods["chunked"]["413_seen"] > 0, figures
    sockets = floods["socket"]["requests"]
    assert sockets > 2 and floods["socket"] == {"requests": sockets, "closed_1009": sockets}, figures
    assert report["health_failures"] == 0 and report["health"]["flood"]["count"] > 50, figures
    # Three analyses let through (each a search, or a job that finds no such hand), the rest refused.
    assert report["analyses"].get("429") == args.analyses - args.analyses_limit, figures
    assert report["analyses_retry_after"] and all(0 < int(r) <= 60 for r in report["analyses_retry_after"]), figures
    assert report["missed_deadlines"] == 0, f"bot decisions past their deadline; {figures}"
    assert report["errors_logged"] == [], figures
