"""Pool the per-seed results of ``bench/vs_openspiel_ismcts.py`` (one saved output per seed).

    python bench/vs_openspiel_ismcts.py --hands 1000 --seed 13 --factors 1 --match oh_hell > s13.txt
    ...
    python bench/pool_seeds.py s13.txt s14.txt ...

Each file's "paired by deal" line gives a seed's mean difference a hand and its 95% interval
over that seed's deals. Printed: the seeds' means; the pooled mean by deal (the mean of the seed
means, its standard error from the seeds' own, t on all the deals' degrees of freedom); a
chi-square test of whether the seeds differ more than their own intervals allow; and the
interval with each seed as one unit (t on the seed means alone), the one to trust when they do.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from whist.bots.stats import mean_interval, t_quantile

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
        results = [read_result(path.read_text(), str(path)) for path in args.outputs]
        for path, result in zip(args.outputs, results, strict=True):
            print(f"  {path.name}: {result.mean:+.2f} [{result.low:+.2f}, {result.high:+.2f}]")
        print("\n".join(pooled_lines(results)))
    except (OSError, ValueError) as error:
        sys.exit(f"pool_seeds: {error}")


if __name__ == "__main__":
    main()
