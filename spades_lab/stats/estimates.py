"""Estimates: a figure with its 95% interval, the sample size it rests on and the method that made it.

Four kinds of figure come out of a comparison, and each has its own honest interval:

- a proportion (win rate, nil success): the Wilson score interval, which stays inside [0, 1] and near
  its nominal coverage where the normal interval does not (`wilson_estimate`);
- a mean of independent values (points per game): the normal interval on the sample mean
  (`mean_estimate`);
- a rate per hand (sets, bags, points per hand): hands of one game share a score and a bag history, so
  they are not independent; the ratio of sums over games with a cluster-robust (delta method) interval
  treats each game as one observation (`ratio_estimate`);
- a duplicate difference: each deal is played twice with the partnerships swapped, so the luck of the
  cards cancels in the per-deal difference, whose mean over deals is the sharp figure
  (`paired_by_deal`, `paired_estimate`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from spades_lab.stats.intervals import Z95, mean_interval, wilson

METHODS = ("wilson", "mean", "cluster ratio", "paired mean", "bradley-terry", "difference of proportions")
"""The interval methods an `Estimate` may name."""


@dataclass(frozen=True)
class Estimate:
    """A figure, its 95% interval (lo, hi), the number of observations n and the interval's method."""

    value: float
    lo: float
    hi: float
    n: int = 0
    method: str = "mean"

    @property
    def interval(self) -> tuple[float, float]:
        return (self.lo, self.hi)

    @property
    def measurable(self) -> bool:
        """Whether the interval exists (NaN below two observations, or with no trials)."""
        return not (math.isnan(self.value) or math.isnan(self.lo) or math.isnan(self.hi))

    def sign(self) -> int:
        """+1 when the whole interval is above 0, -1 when below, 0 when it holds 0 (or cannot be measured)."""
        if not self.measurable:
            return 0
        return 1 if self.lo > 0 else (-1 if self.hi < 0 else 0)

    def contains(self, value: float) -> bool:
        return self.measurable and self.lo <= value <= self.hi

    def fmt(self, digits: int = 1, percent: bool = False, signed: bool = False) -> str:
        """`0.512 (95% CI 0.498 to 0.526)`; `percent` shows it in %, `signed` puts a + on positives."""
        if not self.measurable:
            return f"not measurable ({self.n} observations)"
        scale, unit = (100.0, "%") if percent else (1.0, "")
        if percent and not signed and (self.value < 0.01 or self.value > 0.99):
            digits = max(digits, 2)  # 0.0% (0.0% to 0.0%) says less than 0.02% (0.00% to 0.05%)
        mark = "+" if signed else ""
        v, lo, hi = (x * scale for x in (self.value, self.lo, self.hi))
        return f"{v:{mark}.{digits}f}{unit} (95% CI {lo:{mark}.{digits}f}{unit} to {hi:{mark}.{digits}f}{unit})"

    def row(self, prefix: str) -> dict[str, float]:
        """Flat columns `prefix`, `prefix_lo`, `prefix_hi`, `prefix_n` (for a CSV row)."""
        return {prefix: self.value, f"{prefix}_lo": self.lo, f"{prefix}_hi": self.hi, f"{prefix}_n": self.n}

    def __str__(self) -> str:
        return self.fmt(3)


def wilson_estimate(successes: float, trials: float) -> Estimate:
    """A proportion with its Wilson score interval; NaN with no trials."""
    lo, hi = wilson(successes, trials)
    p = successes / trials if trials else float("nan")
    return Estimate(float(p), float(lo), float(hi), int(trials), "wilson")


def mean_estimate(values: ArrayLike) -> Estimate:
    """A sample mean with its normal interval (mean ± 1.96 s/√n); NaN bounds below two values."""
    x = np.asarray(values, dtype=float)
    mean, lo, hi = mean_interval(len(x), x.sum(), (x * x).sum())
    return Estimate(float(mean), float(lo), float(hi), len(x), "mean")


def ratio_estimate(numerators: ArrayLike, denominators: ArrayLike) -> Estimate:
    """sum(num) / sum(den) over clusters (games), with a cluster-robust (delta method) normal interval.

    Hands of one game share a score and bag history; treating each game as one observation of
    (events, hands) keeps the interval honest about that dependence. The variance is the usual
    linearisation of a ratio estimator with the small-sample factor n / (n - 1).
    """
    y = np.asarray(numerators, dtype=float)
    x = np.asarray(denominators, dtype=float)
    n = len(x)
    total = float(x.sum())
    ratio = float(y.sum()) / total if total else float("nan")
    if n < 2 or not total:
        return Estimate(ratio, float("nan"), float("nan"), n, "cluster ratio")
    resid = y - ratio * x
    se = math.sqrt(n / (n - 1) * float((resid * resid).sum())) / total
    return Estimate(ratio, ratio - Z95 * se, ratio + Z95 * se, n, "cluster ratio")


def proportion_difference(a: Estimate, b: Estimate) -> Estimate:
    """`a - b` for two proportions from separate samples (nil success with and without a rule), with the
    normal (Wald) interval of the difference; NaN when either sample is empty."""
    if not (a.n and b.n):
        return Estimate(float("nan"), float("nan"), float("nan"), a.n + b.n, "difference of proportions")
    se = math.sqrt(a.value * (1 - a.value) / a.n + b.value * (1 - b.value) / b.n)
    d = a.value - b.value
    return Estimate(d, d - Z95 * se, d + Z95 * se, a.n + b.n, "difference of proportions")


def paired_by_deal(games: pd.DataFrame, value: str, entrant: str) -> pd.DataFrame:
    """Per deal (game id) of a duplicate pairing: `entrant`'s `value` and its opponent's, each averaged
    over the deal's tables (its two seatings), and their difference `diff`.

    `games` is one row per game and side with columns game, entrant and `value` (a tournament's
    games table of one pairing).
    """
    named = games["entrant"].astype(str)
    mine = games[named == entrant].groupby("game")[value].mean()
    theirs = games[named != entrant].groupby("game")[value].mean()
    frame = pd.DataFrame({"entrant": mine, "opponent": theirs}).dropna()
    frame["diff"] = frame["entrant"] - frame["opponent"]
    return frame


def paired_estimate(games: pd.DataFrame, value: str, entrant: str, scale: float = 1.0) -> Estimate:
    """The mean over deals of `entrant`'s paired difference in `value` (times `scale`), normal interval."""
    diff = paired_by_deal(games, value, entrant)["diff"].to_numpy() * scale
    e = mean_estimate(diff)
    return Estimate(e.value, e.lo, e.hi, e.n, "paired mean")


def paired_ratio_estimate(games: pd.DataFrame, value: str, per: str, entrant: str) -> Estimate:
    """`entrant`'s `value` minus its opponent's per unit of `per` (points per hand), paired by deal.

    Each deal (game id) is one cluster: the difference of the two sides' `value` summed over its tables,
    over its `per` summed the same way (both sides of a game play the same hands); the ratio of the sums
    over deals, with `ratio_estimate`'s interval. Luck of the cards is common to both sides of a deal and
    cancels, so the interval is far narrower than the two sides' separate rates would suggest.
    """
    named = games["entrant"].astype(str)
    mine = games[named == entrant].groupby("game")[[value, per]].sum()
    theirs = games[named != entrant].groupby("game")[value].sum()
    frame = mine.join(theirs.rename("opponent"), how="inner")
    e = ratio_estimate(frame[value] - frame["opponent"], frame[per])
    return Estimate(e.value, e.lo, e.hi, e.n, "paired ratio over deals")


def estimates_frame(rows: Sequence[dict[str, object]]) -> pd.DataFrame:
    """A tidy frame from rows holding an `estimate` key: value, lo, hi, n and method become columns."""
    out = []
    for row in rows:
        e = row["estimate"]
        assert isinstance(e, Estimate)
        keys = {k: v for k, v in row.items() if k != "estimate"}
        out.append({**keys, "value": e.value, "lo": e.lo, "hi": e.hi, "n": e.n, "method": e.method, "estimate": e})
    return pd.DataFrame(out)
