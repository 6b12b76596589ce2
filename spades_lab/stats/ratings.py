"""Bradley-Terry ratings on the Elo scale, with intervals, from head-to-head scores (as BayesElo and Ordo do).

Each observation is one encounter of two entrants with the first one's score in [0, 1]: a game (1 won,
0 lost, 0.5 unfinished) or, better, a duplicate deal pair (the mean of its two tables, so that the luck
of the cards cancels). The model says P(i beats j) = 1 / (1 + 10^((R_j - R_i) / 400)); the ratings are
its maximum-likelihood estimate, centred on a mean of 0. The intervals use the sandwich (robust)
covariance of the estimate, which stays honest when the scores are not coin flips (pair scores of
0.5 are common and carry less spread than a binomial game).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from spades_lab.stats.intervals import Z95

ELO = 400.0 / math.log(10.0)
"""Elo points per unit of the logistic scale."""


def _fit(first: np.ndarray, second: np.ndarray, score: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The maximum-likelihood strengths (natural scale, mean 0) and their sandwich covariance."""
    x = np.zeros((len(score), k))
    rows = np.arange(len(score))
    x[rows, first] += 1.0
    x[rows, second] -= 1.0
    centre = np.eye(k) - 1.0 / k  # projects onto the mean-zero ratings the model can identify
    theta = np.zeros(k)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(x @ theta)))
        gradient = x.T @ (score - p)
        hessian = (x * (p * (1 - p))[:, None]).T @ x
        step = np.linalg.pinv(hessian) @ gradient
        theta = centre @ (theta + step)
        if float(np.abs(step).max()) < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(-(x @ theta)))
    bread = np.linalg.pinv((x * (p * (1 - p))[:, None]).T @ x)
    g = x * (score - p)[:, None]
    n = len(score)
    meat = g.T @ g * (n / (n - 1) if n > 1 else 1.0)
    return theta, bread @ meat @ bread


def bradley_terry(first: Sequence[str], second: Sequence[str], score: ArrayLike,
                  names: Sequence[str] | None = None) -> pd.DataFrame:  # fmt: skip
    """Elo-scale ratings of every entrant from encounters (first[k] against second[k], first's score[k]).

    Returns one row per entrant, best first: entrant, elo, elo_lo, elo_hi (95%), encounters, score
    (its mean score). An entrant that won or lost every encounter has no finite rating: its elo is
    +inf or -inf with NaN bounds.
    """
    s = np.asarray(score, dtype=float)
    order = list(names) if names is not None else list(dict.fromkeys([*first, *second]))
    index = {name: i for i, name in enumerate(order)}
    a = np.array([index[str(f)] for f in first], dtype=np.int64)
    b = np.array([index[str(o)] for o in second], dtype=np.int64)
    k = len(order)
    scored = np.zeros(k)
    seen = np.zeros(k)
    np.add.at(scored, a, s)
    np.add.at(scored, b, 1 - s)
    np.add.at(seen, a, 1)
    np.add.at(seen, b, 1)
    mean = np.divide(scored, seen, out=np.full(k, np.nan), where=seen > 0)
    perfect = (mean == 1) | (mean == 0)
    keep = ~np.isin(a, np.flatnonzero(perfect)) & ~np.isin(b, np.flatnonzero(perfect))
    elo = np.where(mean == 1, np.inf, np.where(mean == 0, -np.inf, np.nan))
    se = np.full(k, np.nan)
    rest = np.flatnonzero(~perfect)
    if len(rest) >= 2 and keep.sum() >= 2:
        remap = {int(i): j for j, i in enumerate(rest)}
        theta, cov = _fit(np.array([remap[int(i)] for i in a[keep]]), np.array([remap[int(i)] for i in b[keep]]),
                          s[keep], len(rest))  # fmt: skip
        elo[rest] = theta * ELO
        se[rest] = np.sqrt(np.maximum(np.diag(cov), 0.0)) * ELO
    frame = pd.DataFrame(
        {
            "entrant": order,
            "elo": elo,
            "elo_lo": elo - Z95 * se,
            "elo_hi": elo + Z95 * se,
            "encounters": seen.astype(int),
            "score": mean,
        }  # fmt: skip
    )
    return frame.sort_values("elo", ascending=False, kind="stable").reset_index(drop=True)


def elo_of_score(score: float) -> float:
    """The Elo difference that a mean score against one opponent stands for: 400 log10(s / (1 - s))."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return ELO * math.log(score / (1.0 - score))
