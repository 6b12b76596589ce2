"""Sequential stopping for duplicate comparisons: a generalised SPRT on deal pairs, as chess engines are tested.

Stockfish's fishtest plays games in pairs (the same opening, colours swapped) and stops a test as soon
as a generalised sequential probability ratio test (GSPRT) on the pair scores crosses a bound. A
duplicate deal is exactly such a pair: the same cards twice, partnerships swapped. Its value here is
the paired win difference of the candidate over the deal's two tables, in [-1, 1] (+1: won both
tables, 0: as well as the baseline, -1: lost both).

Two one-sided tests run side by side (Sobel and Wald's three-decision procedure):

- "better": H0 mean = 0 against H1 mean = +delta, at error rates alpha/2 and beta;
- "worse":  H0 mean = 0 against H1 mean = -delta, at the same rates.

Each test's log-likelihood ratio is the GSPRT's normal approximation with the variance estimated from
the pairs so far, LLR = n (mu1 - mu0) (2 m - mu0 - mu1) / (2 s^2), compared with Wald's bounds
log(beta / (1 - alpha/2)) and log((1 - beta) / (alpha/2)). The comparison stops when a test accepts its
alternative ("candidate better" or "baseline better"), or when both accept H0 ("no difference of
delta"), or at the maximum number of deals ("undecided").

The guarantee (Wald's, asymptotic in the normal approximation): when the candidate and the baseline
are equally strong, a "better" verdict either way comes with probability at most about alpha; when one
is better by delta or more, the test misses it with probability at most about beta. Stopping at a
maximum only turns verdicts into "undecided", so it lowers both error rates. Looks are taken after each
round of deals rather than after every deal, which also keeps the errors at or below the nominal rates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

VERDICTS = ("candidate better", "baseline better", "no difference", "undecided")


class SequentialError(ValueError):
    """A sequential test asked for impossible error rates or an impossible difference."""


def _normal_quantile(p: float) -> float:
    """The standard normal quantile (Acklam's rational approximation refined by one Newton step)."""
    if not 0.0 < p < 1.0:
        raise SequentialError(f"a probability must lie in (0, 1), got {p}")
    # Acklam's coefficients
    a = (-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.3577518672690, -30.66479806614716,
         2.506628277459239)  # fmt: skip
    b = (-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572)
    c = (-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
         2.938163982698783)  # fmt: skip
    d = (0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416)
    low = 0.02425
    if p < low:
        q = math.sqrt(-2 * math.log(p))
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / (
            (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1
        )
    elif p <= 1 - low:
        q = p - 0.5
        r = q * q
        x = ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (
            ((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1
        )
    else:
        q = math.sqrt(-2 * math.log(1 - p))
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / (
            (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1
        )
    e = 0.5 * math.erfc(-x / math.sqrt(2)) - p
    return x - e * math.sqrt(2 * math.pi) * math.exp(x * x / 2)


def check_error_rate(name: str, value: float) -> float:
    """An error rate, checked to lie strictly between 0 and 0.5."""
    if not isinstance(value, int | float) or not 0.0 < float(value) < 0.5:
        raise SequentialError(f"{name} = {value!r} is impossible; allowed: a rate strictly between 0 and 0.5")
    return float(value)


@dataclass(frozen=True)
class Decision:
    """Where a sequential test stands after `n` deal pairs."""

    verdict: str
    """One of VERDICTS; "undecided" while running or when stopped at the maximum."""
    n: int
    llr_better: float
    llr_worse: float
    decided: bool
    zero_better: bool = False
    """The "better" test has accepted H0 (no gain of delta): it stays closed at later looks."""
    zero_worse: bool = False


@dataclass(frozen=True)
class SequentialTest:
    """The GSPRT on per-deal paired differences (see the module docstring for the guarantee).

    `delta` is the smallest paired win difference worth detecting (0.05: the candidate scores 52.5% of
    the deal pairs, about 17 Elo); `alpha` the chance of a "better" verdict either way between equals;
    `beta` the chance of missing a difference of `delta`.
    """

    delta: float = 0.05
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        check_error_rate("alpha", self.alpha)
        check_error_rate("beta", self.beta)
        if not 0.0 < self.delta <= 1.0:
            raise SequentialError(f"delta = {self.delta!r} is impossible; allowed: a paired difference in (0, 1]")

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's (lower, upper) bounds of each one-sided test, at alpha/2 and beta."""
        a = self.alpha / 2
        return math.log(self.beta / (1 - a)), math.log((1 - self.beta) / a)

    def llr(self, values: ArrayLike, mu1: float) -> float:
        """The GSPRT log-likelihood ratio of mean `mu1` against 0 for these per-deal values."""
        x = np.asarray(values, dtype=float)
        n = len(x)
        if n < 2:
            return 0.0
        mean = float(x.mean())
        var = float(x.var())
        if var <= 0.0:
            var = 1.0 / (n * n)  # every pair alike so far: the least variance n pairs could still show
        return n * mu1 * (2 * mean - mu1) / (2 * var)

    def decide(self, values: ArrayLike, *, final: bool = False, state: Decision | None = None) -> Decision:
        """The verdict after these deal pairs (all of them so far, in order of play).

        `state` is the previous look's decision: a one-sided test that already accepted H0 stays so.
        `final` marks the last look (the maximum is reached): an open test then gives "undecided".
        """
        x = np.asarray(values, dtype=float)
        lower, upper = self.bounds
        better, worse = self.llr(x, self.delta), self.llr(x, -self.delta)
        zero_better = (state is not None and state.zero_better) or better <= lower
        zero_worse = (state is not None and state.zero_worse) or worse <= lower
        n = len(x)
        if better >= upper and not zero_better:
            return Decision("candidate better", n, better, worse, True, zero_better, zero_worse)
        if worse >= upper and not zero_worse:
            return Decision("baseline better", n, better, worse, True, zero_better, zero_worse)
        if zero_better and zero_worse:
            return Decision("no difference", n, better, worse, True, zero_better, zero_worse)
        return Decision("undecided", n, better, worse, final, zero_better, zero_worse)

    def fixed_deals(self, sd: float) -> int:
        """Deals a fixed-size two-sided test of the same error rates needs, for per-deal standard deviation `sd`:
        n = ((z_{1-alpha/2} + z_{1-beta}) sd / delta)^2."""
        z = _normal_quantile(1 - self.alpha / 2) + _normal_quantile(1 - self.beta)
        return math.ceil((z * sd / self.delta) ** 2)

    def describe(self) -> str:
        return (
            f"GSPRT on deal pairs: delta {self.delta:g} (paired win difference), alpha {self.alpha:g}"
            f" (a false 'better' verdict), beta {self.beta:g} (missing a difference of delta)"
        )
