"""bench/pool_seeds.py: the per-seed results read from the bench's output, pooled by deal and with
seeds as units, and outputs without a result refused by name."""

from __future__ import annotations

import math
from types import ModuleType

import pytest
from bench_kit import load_bench


@pytest.fixture(scope="module")
def pool() -> ModuleType:
    return load_bench("pool_seeds")


def output(mean: str, low: str, high: str) -> str:
    return (f"  at 1x the expert's time: ISMCTS 350 simulations\n"
            f"    expert - ISMCTS a hand, paired by deal: {mean} [{low}, {high}] (95% CI, 167 deals, 1002 hands)\n")


def test_a_seeds_result_is_read_from_its_output(pool: ModuleType) -> None:
    result = pool.read_result(output("-0.15", "-1.16", "+0.86"), "s3.txt")
    assert (result.mean, result.low, result.high, result.deals) == (-0.15, -1.16, 0.86, 167)
    assert result.standard_error == pytest.approx(1.01 / 1.974, rel=1e-3)


def test_an_output_without_a_result_is_refused_by_name(pool: ModuleType) -> None:
    with pytest.raises(ValueError, match=r"notes\.md"):
        pool.read_result("calibration only\n", "notes.md")


def test_the_chi_square_tail_matches_known_values(pool: ModuleType) -> None:
    assert pool.chi_square_tail(3.841, 1) == pytest.approx(0.05, abs=1e-4)
    assert pool.chi_square_tail(16.919, 9) == pytest.approx(0.05, abs=1e-4)
    assert pool.chi_square_tail(2.0, 2) == pytest.approx(math.exp(-1.0))  # two df: exactly e^(-q/2)
    assert pool.chi_square_tail(0.0, 5) == 1.0


def test_seeds_that_agree_pool_by_deal_and_as_units_alike(pool: ModuleType) -> None:
    results = [pool.read_result(output(m, f"{float(m) - 1:+.2f}", f"{float(m) + 1:+.2f}"), "s")
               for m in ("+0.10", "+0.30", "+0.20")]
    by_deal, units = pool.pooled_lines(results)[1], pool.pooled_lines(results)[3]
    assert by_deal.startswith("by deal: +0.20 [") and units.startswith("seeds as units: +0.20 [")
    half = float(by_deal.split(", ")[1].rstrip("]")) - 0.20
    assert 0.55 < half < 0.6  # three seeds of ±1 each: ±1/√3 (0.577) and a little less by the t on 500 df


def test_seeds_far_apart_fail_the_chi_square_and_widen_the_unit_interval(pool: ModuleType) -> None:
    results = [pool.read_result(output(m, f"{float(m) - 1:+.2f}", f"{float(m) + 1:+.2f}"), "s")
               for m in ("-2.00", "+2.00", "-2.00", "+2.00")]
    lines = pool.pooled_lines(results)
    assert lines[2].endswith("p = 0.000")
    assert lines[3] == "seeds as units: +0.00 [-3.67, +3.67]"
    with pytest.raises(ValueError, match="two seeds"):
        pool.pooled_lines(results[:1])


def test_the_tables_by_bid_add_up_over_the_seeds(pool: ModuleType) -> None:
    first = pool.read_bids("      bid  0: expert 10, 50%, +2.00 (valued +8.00 over 10); ISMCTS none\n"
                           "      bid  3: expert 4, 100%, +25.00 (valued +20.00 over 4); ISMCTS 2, 50%, +10.00\n")
    second = pool.read_bids("      bid  0: expert 30, 70%, +6.00 (valued +4.00 over 30); ISMCTS 5, 100%, +10.00\n")
    assert pool.read_bids(output("+0.10", "-0.90", "+1.10")) == {}  # no --by-place report
    lines = pool.pooled_bids([first, second])
    assert lines[0] == "  bid  0: expert 40, 65%, +5.00 (valued +5.00); ISMCTS 5, 100%, +10.00"
    assert lines[1] == "  bid  3: expert 4, 100%, +25.00 (valued +20.00); ISMCTS 2, 50%, +10.00"
