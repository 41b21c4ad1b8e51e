"""Duplicate tournaments: the seat arrangements, reproducible results, and the statistics."""

from __future__ import annotations

import math
import statistics
from collections import Counter

import pytest

from israeli_whist.bots.matches.stats import mean_interval, t_quantile
from israeli_whist.bots.matches.tournament import (
    HandRow,
    TournamentError,
    deal_means,
    run_tournament,
    seat_arrangements,
    spec_from,
)


@pytest.mark.parametrize(("players", "bots", "partnership", "count"), [
    (4, 2, True, 2), (4, 2, False, 6), (3, 2, False, 6), (4, 3, False, 36), (4, 4, False, 24), (5, 2, False, 20),
])
def test_every_bot_sits_in_every_seat_equally(players: int, bots: int, partnership: bool, count: int) -> None:
    arrangements = seat_arrangements(players, bots, partnership)
    assert len(arrangements) == count == len(set(arrangements))
    for seat in range(players):
        held = Counter(seating[seat] for seating in arrangements)
        assert set(held) == set(range(bots))
        assert len(set(held.values())) == 1


def test_partners_sit_opposite() -> None:
    assert seat_arrangements(4, 2, partnership=True) == ((0, 1, 0, 1), (1, 0, 1, 0))


def test_each_bot_holds_its_share_of_seats() -> None:
    for seating in seat_arrangements(4, 2):
        assert sorted(Counter(seating).values()) == [2, 2]
    for seating in seat_arrangements(5, 2):
        assert sorted(Counter(seating).values()) == [2, 3]


@pytest.mark.parametrize(("players", "bots", "partnership", "message"), [
    (4, 1, False, "at least two bots"), (4, 3, True, "exactly two bots"), (3, 4, False, "do not fit"),
    (7, 4, False, "use fewer bots"),
])
def test_impossible_arrangements_are_refused(players: int, bots: int, partnership: bool, message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        seat_arrangements(players, bots, partnership)


def test_t_quantiles_match_the_tables() -> None:
    for df, expected in ((1, 12.706), (2, 4.303), (5, 2.571), (10, 2.228), (30, 2.042), (120, 1.980)):
        assert t_quantile(0.975, df) == pytest.approx(expected, abs=5e-4)
    assert t_quantile(0.025, 5) == pytest.approx(-2.571, abs=5e-4)
    assert t_quantile(0.95, 4) == pytest.approx(2.132, abs=5e-4)


def test_mean_interval_of_a_known_sample() -> None:
    values = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]  # mean 5, sample sd 2.138
    interval = mean_interval(values)
    half = 2.3646 * statistics.stdev(values) / math.sqrt(8)  # t(0.975, 7) = 2.3646
    assert interval.mean == 5.0
    assert interval.count == 8
    assert interval.low == pytest.approx(5 - half, rel=1e-4)
    assert interval.high == pytest.approx(5 + half, rel=1e-4)
    assert math.isnan(mean_interval([3.0]).low)
    assert mean_interval([3.0]).mean == 3.0


def test_deal_means_average_each_bot_over_its_seats_and_arrangements() -> None:
    rows = [
        HandRow(0, 0, (0, 0, 1, 1), 0, 0, 0, "over", (1, 2, 3, 4), (1, 2, 0, 0), (10, 20, -30, -40)),
        HandRow(0, 1, (1, 1, 0, 0), 0, 0, 0, "under", (1, 2, 3, 4), (1, 2, 0, 0), (30, 30, 0, 0)),
        HandRow(1, 0, (0, 1, 0, 1), 1, 0, 0, "over", (0, 0, 0, 0), (0, 0, 0, 0), (25, 25, 25, 25)),
    ]
    assert deal_means(rows, 2) == {0: (7.5, -2.5), 1: (25.0, 25.0)}


def test_the_same_seed_gives_the_same_results_with_any_number_of_workers() -> None:
    spec = spec_from("whistiti", ["basic", "random"], 6, seed=11, options={"players": "3"})
    one = run_tournament(spec, workers=1)
    two = run_tournament(spec, workers=2)
    assert one == two
    summary_one, summary_two = one.summary(), two.summary()
    del summary_one["decision_time"], summary_two["decision_time"]
    assert summary_one == summary_two
    assert len(one.rows) == 6 * 6
    assert one != run_tournament(spec_from("whistiti", ["basic", "random"], 6, seed=12, options={"players": "3"}), 1)


def test_every_arrangement_replays_the_same_deal() -> None:
    spec = spec_from("classic", ["random", "random"], 3, seed=5)
    result = run_tournament(spec, workers=1)
    assert [(row.deal, row.arrangement) for row in result.rows] == [(d, a) for d in range(3) for a in range(2)]
    assert [bot.label for bot in result.bots] == ["random", "random#2"]
    for deal in range(3):
        trumps = {row.trump for row in result.rows if row.deal == deal}
        assert len(trumps) == 1  # the turned-up card is the same deal's


def test_basic_beats_random_at_israeli_whist_beyond_doubt() -> None:
    result = run_tournament(spec_from("israeli", ["basic", "random"], 40, seed=1), workers=2)
    (difference,) = result.differences
    assert (difference.first, difference.second) == ("basic", "random")
    assert difference.mean.count == 40
    assert difference.mean.low > 20  # the seed shows about +64 a hand, CI [60, 68]
    basic, random_bot = result.bots
    assert basic.seat_hands == random_bot.seat_hands == 40 * 6 * 2
    assert basic.contracts_made / basic.contracts > random_bot.contracts_made / random_bot.contracts
    assert basic.over[0] + basic.under[0] == basic.contracts
    timing = {t.label: t for t in result.decision_times}
    assert timing["basic"].decisions > 0
    assert timing["basic"].median_ms >= 0
