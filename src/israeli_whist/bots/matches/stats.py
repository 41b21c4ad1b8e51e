"""Small statistics for bot tournaments: the mean of a sample with a Student t confidence
interval, and the t quantile it needs (standard library only; no SciPy).

>>> round(t_quantile(0.975, 9), 3)
2.262
>>> interval = mean_interval([1.0, 2.0, 3.0, 4.0, 5.0])
>>> interval.mean, round(interval.low, 3), round(interval.high, 3)
(3.0, 1.037, 4.963)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class MeanInterval:
    """The mean of ``count`` values with a two-sided confidence interval ``[low, high]``
    (NaN bounds when there are fewer than two values)."""

    mean: float
    low: float
    high: float
    count: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def above_zero(self) -> bool:
        return self.low > 0


def mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean and its standard error (0 with fewer than two values), in floats: fast enough
    to call for every option of every decision a review weighs."""
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1) / n)


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> MeanInterval:
    """Mean with the t interval: mean ± t(1 - (1 - confidence)/2, n - 1) · s / √n."""
    n = len(values)
    if n == 0:
        return MeanInterval(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return MeanInterval(mean, math.nan, math.nan, n)
    half = t_quantile(1 - (1 - confidence) / 2, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return MeanInterval(mean, mean - half, mean + half, n)


def t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * regularized_beta(df / (df + t * t), df / 2, 0.5)
    return 1 - tail if t >= 0 else tail


def t_quantile(p: float, df: int) -> float:
    """The t with P(T <= t) = p, by bisection on ``t_cdf`` (exact to about 1e-10)."""
    if not 0 < p < 1 or df < 1:
        raise ValueError(f"t_quantile needs 0 < p < 1 and df >= 1, not p={p}, df={df}")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2


def regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b), by the continued fraction of Numerical Recipes (``betai``)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(log_front)
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(x, a, b) / a
    return 1 - front * _beta_fraction(1 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 500):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return result
