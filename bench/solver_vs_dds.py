"""Time whist.bots.dd against DDS (endplay) on the same full 13-card deals, one strain and leader each.

    python bench/solver_vs_dds.py [--deals 20] [--seed 1]

Prints the median time of each, the ratio (ours / DDS) and the slowest deal for us. DDS is asked
the same question through ``solve_board`` (one strain, one leader), timed the same way.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from whist.bots.dd import solve
from whist.bots.dd.dds import dds_solve, to_deal


def random_deal(rng: random.Random) -> tuple[list[int], int, int]:
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << card for card in deck[13 * seat : 13 * (seat + 1)]) for seat in range(4)]
    return hands, rng.randrange(5), rng.randrange(4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    ours: list[float] = []
    theirs: list[float] = []
    slowest = (0.0, "")
    for _ in range(args.deals):
        hands, trump, leader = random_deal(rng)
        start = time.perf_counter()
        tricks = solve(hands, trump, leader)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        expected = dds_solve(hands, trump, leader)
        theirs.append(time.perf_counter() - start)
        print(f"deal {len(ours)}: ours {ours[-1] * 1000:.1f} ms, DDS {theirs[-1] * 1000:.1f} ms", flush=True)
        if tricks != expected:
            print(f"DISAGREE: ours {tricks}, DDS {expected}: {to_deal(hands, trump, leader).to_pbn()}")
        if ours[-1] > slowest[0]:
            slowest = (ours[-1], f"{to_deal(hands, trump, leader).to_pbn()} strain {trump} leader {leader}")
    ours_median, theirs_median = statistics.median(ours), statistics.median(theirs)
    print(f"deals: {args.deals}")
    print(f"whist.bots.dd median: {ours_median * 1000:.2f} ms")
    print(f"DDS (endplay) median: {theirs_median * 1000:.2f} ms")
    print(f"ratio (ours / DDS):   {ours_median / theirs_median:.1f}")
    print(f"slowest deal for us:  {slowest[0] * 1000:.1f} ms  {slowest[1]}")


if __name__ == "__main__":
    main()
