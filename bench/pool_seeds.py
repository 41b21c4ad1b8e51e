"""Pool the per-seed results of ``bench/vs_openspiel_ismcts.py`` (one saved output per seed).

    python bench/vs_openspiel_ismcts.py --hands 1000 --seed 13 --factors 1 --match oh_hell > s13.txt
    ...
    python bench/pool_seeds.py s13.txt s14.txt ...

Each file's "paired by deal" line gives a seed's mean difference a hand and its 95% interval
over that seed's deals. Printed: the seeds' means; the pooled mean by deal (the mean of the seed
means, its standard error from the seeds' own, t on all the deals' degrees of freedom); a
chi-square test of whether the seeds differ more than their own intervals allow; and the
interval with each seed as one unit (t on the seed means alone), the one to trust when they do.
Where the outputs have the bench's ``--by-place`` report, its table by bid is pooled too: each
side's seat-hands, bids made and mean points at each bid, and the expert's own mean value of it.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from israeli_whist.bots.matches.stats import mean_interval, t_quantile

RESULT = re.compile(r"paired by deal: ([+-]?\d+(?:\.\d+)?) \[([+-]?\d+(?:\.\d+)?), ([+-]?\d+(?:\.\d+)?)\] "
                    r"\(95% CI, (\d+) deals")


@dataclass(frozen=True)
class SeedResult:
    mean: float
    low: float
    high: float
    deals: int

    @property
    def standard_error(self) -> float:
        return (self.high - self.low) / 2 / t_quantile(0.975, self.deals - 1)


def read_result(text: str, name: str) -> SeedResult:
    """The last "paired by deal" result in one output (ValueError naming the file if none)."""
    found = RESULT.findall(text)
    if not found:
        raise ValueError(f"{name}: no 'paired by deal' result line (is it an output of vs_openspiel_ismcts.py?)")
    mean, low, high, deals = found[-1]
    return SeedResult(float(mean), float(low), float(high), int(deals))


# "bid  3: expert 497, 68%, +15.38 (valued +12.28 over 497); ISMCTS 587, 61%, +12.88" (either side may be "none")
BID_LINE = re.compile(r"^\s*bid\s+(\d+): (.*)$", re.MULTILINE)
NUMBER = r"[+-]?\d+(?:\.\d+)?"
SIDE = re.compile(rf"(expert|ISMCTS) (\d+), (\d+)%, ({NUMBER})(?: \(valued ({NUMBER}) over (\d+)\))?")


@dataclass
class BidTally:
    """One side's seat-hands at one bid, summed over seeds: their count, bids made (as the
    rounded percentages allow), points, and the expert's own values where it searched."""

    hands: int = 0
    made: float = 0.0
    points: float = 0.0
    valued: float = 0.0
    valued_hands: int = 0


def read_bids(text: str) -> dict[tuple[int, str], BidTally]:
    """The ``--by-place`` table by bid in one output, by (bid, side); empty if it has none."""
    tallies: dict[tuple[int, str], BidTally] = {}
    for bid, rest in BID_LINE.findall(text):
        for side, hands, made, points, valued, over in SIDE.findall(rest):
            n = int(hands)
            tally = BidTally(n, n * int(made) / 100, n * float(points))
            if valued:
                tally.valued, tally.valued_hands = int(over) * float(valued), int(over)
            tallies[(int(bid), side)] = tally
    return tallies


def pooled_bids(tables: list[dict[tuple[int, str], BidTally]]) -> list[str]:
    """The tables by bid added up over the seeds, one line a bid."""
    total: dict[tuple[int, str], BidTally] = {}
    for table in tables:
        for key, tally in table.items():
            into = total.setdefault(key, BidTally())
            into.hands += tally.hands
            into.made += tally.made
            into.points += tally.points
            into.valued += tally.valued
            into.valued_hands += tally.valued_hands
    lines = []
    for bid in sorted({bid for bid, _ in total}):
        parts = []
        for side in ("expert", "ISMCTS"):
            summed = total.get((bid, side), BidTally())
            if not summed.hands:
                parts.append(f"{side} none")
                continue
            part = (f"{side} {summed.hands}, {100 * summed.made / summed.hands:.0f}%, "
                    f"{summed.points / summed.hands:+.2f}")
            if summed.valued_hands:
                part += f" (valued {summed.valued / summed.valued_hands:+.2f})"
            parts.append(part)
        lines.append(f"  bid {bid:2}: " + "; ".join(parts))
    return lines


def chi_square_tail(q: float, df: int) -> float:
    """P(X >= q) for a chi-square of ``df`` degrees of freedom: 1 - P(df/2, q/2), the lower
    regularized gamma by its series (which converges for every q; a few hundred terms here)."""
    a, x = df / 2, q / 2
    if x <= 0:
        return 1.0
    term = total = 1 / a
    n = 0
    while term > 1e-15 * total:
        n += 1
        term *= x / (a + n)
        total += term
    return max(0.0, 1 - total * math.exp(-x + a * math.log(x) - math.lgamma(a)))


def pooled_lines(results: list[SeedResult]) -> list[str]:
    if len(results) < 2:
        raise ValueError("pooling needs at least two seeds")
    k = len(results)
    mean = sum(r.mean for r in results) / k
    error = math.sqrt(sum(r.standard_error ** 2 for r in results)) / k
    half = t_quantile(0.975, sum(r.deals for r in results) - 1) * error
    q = sum(((r.mean - mean) / r.standard_error) ** 2 for r in results)
    units = mean_interval([r.mean for r in results])
    return [f"{k} seeds, {sum(r.deals for r in results)} deals",
            f"by deal: {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]",
            f"seeds differing beyond their intervals: chi-square {q:.1f} on {k - 1} df, "
            f"p = {chi_square_tail(q, k - 1):.3f}",
            f"seeds as units: {units.mean:+.2f} [{units.low:+.2f}, {units.high:+.2f}]"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outputs", nargs="+", type=Path, help="saved outputs of vs_openspiel_ismcts.py, one a seed")
    args = parser.parse_args()
    try:
        texts = [path.read_text() for path in args.outputs]
        results = [read_result(text, str(path)) for path, text in zip(args.outputs, texts, strict=True)]
        for path, result in zip(args.outputs, results, strict=True):
            print(f"  {path.name}: {result.mean:+.2f} [{result.low:+.2f}, {result.high:+.2f}]")
        print("\n".join(pooled_lines(results)))
        bids = [read_bids(text) for text in texts]
        if any(bids):
            print("by bid, all seeds (seat-hands, made, mean points; the expert's own mean value of the bid):")
            print("\n".join(pooled_bids(bids)))
    except (OSError, ValueError) as error:
        sys.exit(f"pool_seeds: {error}")


if __name__ == "__main__":
    main()
