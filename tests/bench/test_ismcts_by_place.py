"""``bench/vs_openspiel_ismcts.py --by-place``: where the points go, by place in the bidding
and by bid, read from the seat-hands a match recorded."""

from __future__ import annotations

import pytest
from bench_kit import load_bench

pytest.importorskip("pyspiel")
bench = load_bench("vs_openspiel_ismcts")


def test_places_are_paired_by_deal_and_bids_are_counted(capsys: pytest.CaptureFixture[str]) -> None:
    SeatHand = bench.SeatHand
    result = bench.Result()
    # Deal 0: in place 0 the expert scored 20 and 10 (mean 15), ISMCTS 5: +10. Deal 1: +2.
    result.seat_hands = [
        SeatHand(0, 0, True, 2, 20.0, 18.0), SeatHand(0, 0, True, 2, 10.0, 12.0), SeatHand(0, 0, False, 1, 5.0, None),
        SeatHand(1, 0, True, 0, 10.0, 9.0), SeatHand(1, 0, False, 0, 8.0, None),
    ] + [SeatHand(d, place, expert, 1, 15.0, None) for d in (0, 1) for place in (1, 2, 3) for expert in (True, False)]
    bench.report_by_place(result)
    lines = capsys.readouterr().out.splitlines()
    first = next(line for line in lines if line.strip().startswith("first"))
    assert first.split()[1] == "+6.00"  # the mean of +10 and +2 over the two deals
    assert "made 100.0% / 100.0%" in first
    zero = next(line for line in lines if line.strip().startswith("bid  0:"))
    assert "expert 1, 100%, +10.00 (valued +9.00 over 1)" in zero and "ISMCTS 1, 100%, +8.00" in zero
    two = next(line for line in lines if line.strip().startswith("bid  2:"))
    assert "expert 2, 100%, +15.00 (valued +15.00 over 2); ISMCTS none" in two
