"""Golden records: whole games by seeded random bots, checked in under tests/golden.

Each replays, with every action checked, to exactly the hands, points and totals stored in it.
``tests/golden/make_golden.py`` wrote them; a change that alters them changes how games play.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from israeli_whist.core.records import load_record, replay, to_record

GOLDEN_DIR = Path(__file__).parent.parent / "golden"
NAMES = [
    "israeli_standard", "israeli_achim", "israeli_pagat", "israeli_three_random_card",
    "israeli_three_short_deck_40", "israeli_frisch", "classic_standard", "classic_honours_rubber",
    "whistiti_4", "whistiti_7_up_down",
]


def test_the_golden_set_is_complete() -> None:
    assert sorted(p.stem for p in GOLDEN_DIR.glob("*.json")) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_replays_to_its_totals(name: str) -> None:
    record = load_record(GOLDEN_DIR / f"{name}.json")
    checked = replay(record)
    assert checked.complete and checked.match.over
    assert list(checked.match.totals) == record["totals"]
    assert [list(r.points) for r in checked.match.results] == [h["points"] for h in record["hands"]]
    assert to_record(checked.match, record["players"]) == record


def test_golden_records_are_the_current_format() -> None:
    for name in NAMES:
        text = (GOLDEN_DIR / f"{name}.json").read_text(encoding="utf-8")
        assert json.loads(text)["format"] == "whist-record"


def test_the_frisch_golden_has_frisch_rounds_and_a_cancelled_hand() -> None:
    match = replay(load_record(GOLDEN_DIR / "israeli_frisch.json")).match
    assert any(r.final.frisch_round > 0 and not r.cancelled for r in match.results)
    assert any(r.cancelled and r.final.frisch_round == 3 for r in match.results)


def test_the_classic_goldens() -> None:
    rubber = replay(load_record(GOLDEN_DIR / "classic_honours_rubber.json")).match
    assert rubber.game.rules.to_dict()["rubber"] and max(rubber.games_won) == 2
    assert any(r.honours != (0, 0) for r in rubber.results)
    standard = replay(load_record(GOLDEN_DIR / "classic_standard.json")).match
    assert max(standard.games_won) == 1


def test_the_whistiti_goldens_follow_their_schedules() -> None:
    for name, sizes in (("whistiti_4", list(range(1, 14))), ("whistiti_7_up_down", [1, 2, 3, 4, 5, 6, 7, 6, 5, 4,
                                                                                    3, 2, 1])):
        match = replay(load_record(GOLDEN_DIR / f"{name}.json")).match
        assert [r.final.hand_size for r in match.results] == sizes
