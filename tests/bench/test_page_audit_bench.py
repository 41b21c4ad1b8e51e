"""bench/page_audit.py: what it reads from a Lighthouse result (the scores, the audits that cost
points apart from the advice that counts for none), and the Lighthouse it installs: pinned
exactly, with a lock that agrees, so that ``npm ci`` installs what the figures were measured
with. (The pages and axe's check it shares are tested in tests/e2e/test_accessibility.py; the
bench itself needs Lighthouse from npm, which the tests do not install.)"""

from __future__ import annotations

import json
from typing import Any

from bench_kit import BENCH, load_bench

page_audit = load_bench("page_audit")


def lighthouse_result() -> dict[str, Any]:
    """A Lighthouse result cut down to what the bench reads: one audit failed that weighs, one
    piece of advice failed, one audit passed and one not applicable."""
    refs = {"performance": [{"id": "cumulative-layout-shift", "weight": 25},
                            {"id": "uses-long-cache-ttl", "weight": 0}],
            "accessibility": [{"id": "target-size", "weight": 7}],
            "best-practices": [{"id": "errors-in-console", "weight": 1}],
            "seo": [{"id": "meta-description", "weight": 1}]}
    scores = {"performance": 0.812, "accessibility": 1, "best-practices": 1, "seo": 0.9}
    audits = {
        "cumulative-layout-shift": {"score": 0.5, "displayValue": "0.398"},
        "uses-long-cache-ttl": {"score": 0.5, "displayValue": "6 resources found"},
        "target-size": {"score": None},
        "errors-in-console": {"score": 1},
        "meta-description": {"score": 0},
    }
    return {"categories": {name: {"score": scores[name], "auditRefs": refs[name]} for name in refs},
            "audits": audits}


def test_the_scores_are_out_of_100() -> None:
    assert page_audit.scores(lighthouse_result()) == {"performance": 81, "accessibility": 100, "best-practices": 100,
                                                      "seo": 90}


def test_what_costs_points_apart_from_the_advice() -> None:
    result = lighthouse_result()
    assert page_audit.findings(result, True) == ["cumulative-layout-shift 0.398", "meta-description"]
    assert page_audit.findings(result, False) == ["uses-long-cache-ttl 6 resources found"]


def test_lighthouse_is_pinned_and_locked_alike() -> None:
    folder = BENCH / "lighthouse"
    wanted = json.loads((folder / "package.json").read_text())["dependencies"]["lighthouse"]
    lock = json.loads((folder / "package-lock.json").read_text())
    assert wanted == "12.2.3"  # Lighthouse 13 needs Node 22; the machines have Node 20
    assert lock["packages"][""]["dependencies"]["lighthouse"] == wanted
    assert lock["packages"]["node_modules/lighthouse"]["version"] == wanted
