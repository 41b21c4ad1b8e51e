"""bench/ladder.py: the places of a hand, the order the matches' hands are rated in, the rating of
each level from the hands, and the generated ratings module."""

from __future__ import annotations

import argparse
import ast
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from bench_kit import load_bench


@pytest.fixture(scope="module")
def ladder() -> ModuleType:
    return load_bench("ladder")


def test_places_rank_by_points_with_ties_tied(ladder: ModuleType) -> None:
    assert ladder.places([10, -20, 10, 5]) == [1, 4, 1, 3]
    assert ladder.places([0, 0]) == [1, 1]


def test_interleave_spreads_each_match_evenly(ladder: ModuleType) -> None:
    assert ladder.interleave([[1, 2, 3, 4], [10, 11], [20]]) == [1, 10, 2, 20, 3, 11, 4]


def test_the_level_that_wins_more_rates_higher_and_medium_is_anchored_at_25(ladder: ModuleType) -> None:
    hand = ladder.Hand
    hands = []
    for n in range(60):  # hard wins 2 hands in 3 against medium; medium always beats easy
        hard_wins = n % 3 != 0
        hands.append(hand("israeli", ("hard", "medium", "hard", "medium"),
                          (10, -10, 5, -5) if hard_wins else (-10, 10, -5, 5)))
        hands.append(hand("israeli", ("easy", "medium", "medium", "easy"), (-10, 20, 15, -20)))
    table = ladder.rate_games(hands)["israeli"]
    assert table["medium"][0] == 25.0
    assert table["easy"][0] < 25.0 < table["hard"][0]
    assert all(sigma < 25 / 3 for _, sigma in table.values())


def test_classic_whist_rates_each_side_as_a_team(ladder: ModuleType) -> None:
    hand = ladder.Hand
    # Seats 0 and 2 are partners; a hand of expert's side against medium's, won by expert.
    won = [hand("classic", ("expert", "medium", "expert", "medium"), (4, 0, 4, 0)) for _ in range(20)]
    table = ladder.rate_games(won)["classic"]
    assert table["expert"][0] > table["medium"][0] == 25.0
    tied = ladder.rate_games([hand("classic", ("expert", "medium", "expert", "medium"), (0, 0, 0, 0))])["classic"]
    assert tied["expert"][0] == pytest.approx(25.0)  # a tie moves neither


def test_a_small_round_robin_writes_rows_that_rate_again_alike(ladder: ModuleType, tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    args = argparse.Namespace(levels="easy,medium", games="whistiti", hands=6, seed=1, workers=1, rows=rows)
    played = list(ladder.play_round_robin(args))
    [(command, again)] = list(ladder.read_rows(rows))
    assert again == played[0] and len(again) == 6 and "bench/ladder.py" in command
    table = ladder.rate_games(ladder.interleave([again]))
    module = ladder.ratings_module(table, {"whistiti": ladder.source_text([command], len(again))})
    tree = ast.parse(module)
    namespace: dict[str, Any] = {}
    exec(compile(tree, "ladder_ratings.py", "exec"), namespace)
    assert namespace["LADDER_RATINGS"] == table
    assert "do not edit" in module and command in namespace["LADDER_SOURCES"]["whistiti"]


def test_writing_the_ratings_of_one_game_keeps_the_other_games(ladder: ModuleType, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    kept = {"classic": {"random": (19.0, 1.5), "easy": (23.0, 1.4), "medium": (25.0, 1.4)}}
    ratings_file = tmp_path / "ladder_ratings.py"
    ratings_file.write_text(ladder.ratings_module(kept, {"classic": "made by hand for this test"}))
    monkeypatch.setattr(ladder, "RATINGS_MODULE", ratings_file)
    rows = tmp_path / "rows.jsonl"
    hands = [[["medium", "easy", "medium", "easy"], [10, -10, 5, -5]]] * 8
    rows.write_text(json.dumps({"command": "python bench/ladder.py --round-robin (test)", "game": "whistiti",
                                "levels": ["medium", "easy"], "hands": hands}) + "\n")
    args = argparse.Namespace(from_rows=[rows], rows=None, json=None, write=True)
    ladder.run_round_robin(args)
    ratings, sources = ladder.current_ratings()
    assert ratings["classic"] == kept["classic"] and sources["classic"] == "made by hand for this test"
    assert ratings["whistiti"]["medium"][0] == 25.0
    assert ratings["whistiti"]["easy"][0] < 25.0
    assert "8 hands" in sources["whistiti"] and "(test)" in sources["whistiti"]


def test_pairs_must_name_a_lower_then_a_higher_level(ladder: ModuleType) -> None:
    assert ladder.parse_pairs("easy-medium,hard-expert") == [("easy", "medium"), ("hard", "expert")]
    for bad in ("medium-easy", "easy", "easy-genius"):
        with pytest.raises(SystemExit, match="--pairs"):
            ladder.parse_pairs(bad)
