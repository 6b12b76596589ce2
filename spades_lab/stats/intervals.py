"""95% intervals for the two kinds of figures a tournament reports: win rates and paired differences.

A win rate near 0 or 1 over a few hundred games is common between unequal entrants, and there the
normal ("Wald") interval is too narrow and can leave [0, 1]; the Wilson score interval stays inside
and keeps close to its nominal coverage, so win rates use it. A duplicate tournament's paired
difference is a mean of many bounded, independent per-deal differences, where the normal interval
on the sample mean is the standard choice.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson(successes: ArrayLike, trials: ArrayLike, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) Wilson score bounds for successes out of trials; NaN where there are no trials.

    Works elementwise on arrays: center = (p + z²/2n) / (1 + z²/n),
    half-width = z / (1 + z²/n) * sqrt(p(1 - p)/n + z²/4n²).
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        z2n = z * z / n
        center = (p + z2n / 2) / (1 + z2n)
        half = z / (1 + z2n) * np.sqrt(p * (1 - p) / n + z2n / (4 * n))
        low = np.where(n > 0, np.clip(center - half, 0.0, 1.0), np.nan)
        high = np.where(n > 0, np.clip(center + half, 0.0, 1.0), np.nan)
    return low, high


def mean_interval(
    count: ArrayLike, total: ArrayLike, total_squares: ArrayLike, z: float = Z95
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mean, low, high) of a sample known only by its count, sum and sum of squares.

    The interval is mean ± z · s / sqrt(count) with the sample standard deviation s (n - 1 in the
    denominator); NaN bounds below two observations. Sums rather than the values themselves let a
    tournament add up its chunks without holding every game.
    """
    n = np.asarray(count, dtype=float)
    s = np.asarray(total, dtype=float)
    ss = np.asarray(total_squares, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, s / n, np.nan)
        variance = np.where(n > 1, np.maximum(ss - n * mean * mean, 0.0) / (n - 1), np.nan)
        half = z * np.sqrt(variance / n)
    return mean, mean - half, mean + half
