"""bench/review_games.py and the benches on it: the levels rotated over the same deals, the hands
spread over a game, the bootstrap's intervals (a real step found above zero, no step found where
there is none) and the consistency's comparison of two reviews decision by decision."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from bench_kit import load_bench

games = load_bench("review_games")
consistency = load_bench("review_consistency")
LEVELS = games.LEVELS


def test_every_level_sits_in_every_seat_once_in_four_rotations() -> None:
    seats = [games.seat_levels(rotation) for rotation in range(4)]
    assert all(sorted(levels) == sorted(LEVELS) for levels in seats)  # each rotation: one level a seat
    assert all(sorted(column) == sorted(LEVELS) for column in zip(*seats, strict=True))  # each seat: every level


@pytest.mark.parametrize(("count", "available", "numbers"), [
    (3, 13, [1, 7, 13]), (1, 5, [1]), (20, 13, list(range(1, 14))), (2, 2, [1, 2]), (4, 12, [1, 5, 8, 12])])
def test_hands_are_spread_over_the_game(count: int, available: int, numbers: list[int]) -> None:
    assert games.spread(count, available) == numbers


def test_a_set_of_games_holds_the_same_deals_with_the_levels_rotated() -> None:
    records, tasks = games.game_tasks("classic", 8, "t")
    assert len(tasks) >= 8 and len(records) % 4 == 0
    first_set = records[:4]
    assert len({str(r["hands"][0]["deal"]) for r in first_set}) == 1  # the same cards in each game of a set
    for rotation, record in enumerate(first_set):
        by_seat = [record["players"][player] for player in record["seating"]]
        assert by_seat == games.seat_levels(rotation)
    numbers = {(t.game_index, t.number) for t in tasks}
    assert len(numbers) == len(tasks)
    assert {n for i, n in numbers if i == 0} == {n for i, n in numbers if i == 3}  # the same hands of each game


def tallies_of(costs: np.ndarray) -> Any:
    """Hands with one decision a level: ``costs`` by level (rows), hand (columns)."""
    cost = costs.T  # (hands, levels)
    return games.HandTallies(np.ones_like(cost), cost, 100 * np.exp(-cost / 8))


def test_the_bootstrap_finds_real_steps_and_no_false_one() -> None:
    noise = np.random.default_rng(1).normal(0, 1, size=(4, 300))
    means = np.array([12.0, 6.0, 3.0, 1.0])
    ordered = tallies_of(means[:, None] + noise)
    levels, steps = games.bootstrap(ordered, "cost")
    for estimate, mean in zip(levels, means, strict=True):  # 300 hands: a standard error of about 0.06
        assert estimate.value == pytest.approx(mean, abs=0.25) and estimate.low < estimate.value < estimate.high
    assert all(step.low > 0 for step in steps)
    _, accuracy_steps = games.bootstrap(ordered, "accuracy")
    assert all(step.low > 0 for step in accuracy_steps)  # the stronger level's accuracy less the weaker's
    _, flat = games.bootstrap(tallies_of(3 + noise), "cost")
    assert all(step.low < 0 < step.high for step in flat)


def made_reviews(verdicts: list[str | None], costs: list[float]) -> list[dict[str, Any]]:
    """One game, one hand: a decision of each seat, the levels in ``LEVELS``' order."""
    decisions = [{"step": 10 + seat, "seat": seat, "verdict": v, "cost": c}
                 for seat, (v, c) in enumerate(zip(verdicts, costs, strict=True))]
    return [{"players": list(LEVELS), "hands": [{"decisions": decisions}]}]


def test_consistency_counts_the_verdicts_that_change_and_the_expert_s_cost() -> None:
    first = made_reviews(["blunder", "mistake", None, None], [20.0, 9.0, 0.5, 0.2])
    second = made_reviews(["blunder", None, "inaccuracy", None], [19.0, 3.0, 4.5, 0.4])
    found = consistency.compare(first, second)
    assert found.decisions == 4
    assert found.changed.value == pytest.approx(2 / 4)  # easy's mistake became none; medium's none an inaccuracy
    assert found.changed_of_judged.value == pytest.approx(2 / 3)  # of the three judged in either review
    assert found.jumped.value == pytest.approx(1 / 4)  # easy's: from a mistake to none, two classes
    assert found.expert_cost.value == pytest.approx(0.3) and found.expert_judged.value == 0
