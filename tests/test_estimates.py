"""Estimates, ratings and the sequential test against textbook and library values (scipy, statsmodels)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from spades_lab.stats.estimates import (
    Estimate,
    mean_estimate,
    paired_by_deal,
    paired_estimate,
    paired_ratio_estimate,
    proportion_difference,
    ratio_estimate,
    wilson_estimate,
)
from spades_lab.stats.ratings import bradley_terry, elo_of_score
from spades_lab.stats.sequential import SequentialError, SequentialTest, _normal_quantile

scipy_stats = pytest.importorskip("scipy.stats")
sm = pytest.importorskip("statsmodels.api")
proportion = pytest.importorskip("statsmodels.stats.proportion")


@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 10), (57, 100), (999, 1000), (1, 1)])
def test_wilson_matches_statsmodels(k: int, n: int) -> None:
    e = wilson_estimate(k, n)
    lo, hi = proportion.proportion_confint(k, n, alpha=0.05, method="wilson")
    assert (e.value, e.n, e.method) == (k / n, n, "wilson")
    assert e.lo == pytest.approx(lo, abs=1e-12) and e.hi == pytest.approx(hi, abs=1e-12)


def test_difference_of_proportions_matches_statsmodels_wald() -> None:
    a, b = wilson_estimate(57, 80), wilson_estimate(31, 70)
    d = proportion_difference(a, b)
    lo, hi = proportion.confint_proportions_2indep(57, 80, 31, 70, method="wald", compare="diff")
    assert (d.value, d.lo, d.hi, d.n) == pytest.approx((57 / 80 - 31 / 70, lo, hi, 150))
    assert not proportion_difference(a, wilson_estimate(0, 0)).measurable


def test_wilson_without_trials_is_not_measurable() -> None:
    e = wilson_estimate(0, 0)
    assert not e.measurable and e.sign() == 0 and "not measurable" in e.fmt()


def test_mean_matches_the_normal_interval() -> None:
    x = np.random.default_rng(1).normal(3.0, 2.0, 400)
    e = mean_estimate(x)
    half = scipy_stats.norm.ppf(0.975) * scipy_stats.sem(x)
    assert e.value == pytest.approx(x.mean()) and e.n == 400
    assert (e.lo, e.hi) == pytest.approx((x.mean() - half, x.mean() + half), rel=1e-12)


def test_cluster_ratio_matches_statsmodels_cluster_robust_mean() -> None:
    """Per-hand events clustered by game: the ratio of sums is the mean over hands, and its delta-method
    interval is the cluster-robust interval of that mean (statsmodels OLS on a constant, clustered by game)."""
    rng = np.random.default_rng(2)
    hands = rng.integers(3, 20, 150)
    game_rate = rng.beta(2, 8, 150)
    events = [rng.random(h) < p for h, p in zip(hands, game_rate)]
    e = ratio_estimate([ev.sum() for ev in events], hands)
    y = np.concatenate(events).astype(float)
    groups = np.repeat(np.arange(150), hands)
    fit = sm.OLS(y, np.ones_like(y)).fit(cov_type="cluster", cov_kwds={"groups": groups})
    lo, hi = fit.conf_int(alpha=0.05)[0]
    assert e.value == pytest.approx(y.mean()) and e.method == "cluster ratio"
    assert (e.lo, e.hi) == pytest.approx((lo, hi), rel=1e-9)


def test_paired_by_deal_averages_each_deals_two_tables() -> None:
    games = pd.DataFrame(
        {
            "game": [0, 0, 0, 0, 1, 1, 1, 1],
            "entrant": ["A", "B", "B", "A", "A", "B", "B", "A"],
            "won": [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0],
        }  # fmt: skip
    )
    frame = paired_by_deal(games, "won", "A")
    assert frame["diff"].tolist() == [0.0, 1.0]  # deal 0: one table each; deal 1: A won both
    e = paired_estimate(games, "won", "A")
    assert (e.value, e.n, e.method) == (0.5, 2, "paired mean")


def test_paired_points_per_hand_is_a_ratio_over_deals() -> None:
    """Deal 0: A scores 300 + 100 in 10 + 6 hands against B's 200 + 120: +80 over 16 hands. Deal 1: A 50 in
    4 hands, B 90: -40 over 4. Over both, +40 points in 20 hands: +2 per hand. The interval is the cluster
    ratio's with one cluster per deal, checked against a clustered regression of the per-hand differences."""
    games = pd.DataFrame(
        {
            "game": [0, 0, 0, 0, 1, 1],
            "entrant": ["A", "B", "B", "A", "A", "B"],
            "score": [300, 200, 120, 100, 50, 90],
            "hands": [10, 10, 6, 6, 4, 4],
        }  # fmt: skip
    )
    e = paired_ratio_estimate(games, "score", "hands", "A")
    assert (e.value, e.n, e.method) == (2.0, 2, "paired ratio over deals")
    assert paired_ratio_estimate(games, "score", "hands", "B").value == -2.0
    rng = np.random.default_rng(5)
    deals = 120
    hands = rng.integers(8, 30, deals)
    diff = [rng.normal(1.5, 40.0, h) for h in hands]  # per hand: A's points minus B's
    frame = pd.DataFrame(
        {
            "game": np.repeat(np.arange(deals), 2),
            "entrant": ["A", "B"] * deals,
            "score": np.ravel([[d.sum(), 0.0] for d in diff]),
            "hands": np.repeat(hands, 2),
        }
    )
    e = paired_ratio_estimate(frame, "score", "hands", "A")
    y = np.concatenate(diff)
    fit = sm.OLS(y, np.ones_like(y)).fit(cov_type="cluster", cov_kwds={"groups": np.repeat(np.arange(deals), hands)})
    lo, hi = fit.conf_int(alpha=0.05)[0]
    assert e.value == pytest.approx(y.mean()) and (e.lo, e.hi) == pytest.approx((lo, hi), rel=1e-9)


def test_estimate_sign_and_text() -> None:
    assert Estimate(0.2, 0.1, 0.3).sign() == 1 and Estimate(-0.2, -0.3, -0.1).sign() == -1
    assert Estimate(0.0, -0.1, 0.1).sign() == 0
    assert Estimate(0.512, 0.498, 0.526).fmt(1, percent=True) == "51.2% (95% CI 49.8% to 52.6%)"


def test_elo_of_a_three_to_one_score_is_the_textbook_191() -> None:
    assert elo_of_score(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_of_score(0.5) == 0.0 and elo_of_score(1.0) == math.inf


def test_bradley_terry_matches_a_binomial_glm() -> None:
    """The ratings are the logistic model's maximum likelihood: a binomial GLM on +1/-1 entrant columns
    (the first entrant as reference) gives the same differences, and for two entrants the same sandwich
    interval (HC0 times the n/(n-1) small-sample factor)."""
    rng = np.random.default_rng(3)
    strength = {"A": 0.6, "B": 0.0, "C": -0.4}
    pairs = [("A", "B"), ("A", "C"), ("B", "C")]
    first, second, score = [], [], []
    for a, b in pairs:
        p = 1 / (1 + math.exp(strength[b] - strength[a]))
        for _ in range(300):
            first.append(a)
            second.append(b)
            score.append((rng.random() < p) + (rng.random() < p))
    s = np.array(score) / 2.0  # pair scores in {0, 0.5, 1}
    ratings = bradley_terry(first, second, s).set_index("entrant")
    x = np.array([[(f == n) - (o == n) for n in ("B", "C")] for f, o in zip(first, second)], dtype=float)
    glm = sm.GLM(s, x, family=sm.families.Binomial()).fit()
    elo = 400 / math.log(10)
    assert ratings.loc["B", "elo"] - ratings.loc["A", "elo"] == pytest.approx(glm.params[0] * elo, rel=1e-6)
    assert ratings.loc["C", "elo"] - ratings.loc["A", "elo"] == pytest.approx(glm.params[1] * elo, rel=1e-6)
    assert ratings["elo"].sum() == pytest.approx(0.0, abs=1e-6)
    two = [i for i, f in enumerate(first) if (f, second[i]) == ("A", "B")]
    duel = bradley_terry([first[i] for i in two], [second[i] for i in two], s[two]).set_index("entrant")
    fit = sm.GLM(s[two], np.ones((len(two), 1)), family=sm.families.Binomial()).fit(cov_type="HC0")
    n = len(two)
    half = 1.959963984540054 * math.sqrt(fit.cov_params()[0, 0] * n / (n - 1)) / 2 * elo
    assert duel.loc["A", "elo"] == pytest.approx(fit.params[0] / 2 * elo, rel=1e-6)
    assert duel.loc["A", "elo_hi"] - duel.loc["A", "elo"] == pytest.approx(half, rel=1e-6)


def test_bradley_terry_gives_a_perfect_record_an_infinite_rating() -> None:
    r = bradley_terry(["A", "A", "B"], ["B", "C", "C"], [1.0, 1.0, 0.5]).set_index("entrant")
    assert r.loc["A", "elo"] == math.inf and math.isnan(r.loc["A", "elo_lo"])


def test_normal_quantile_matches_scipy() -> None:
    for p in (1e-6, 0.01, 0.025, 0.3, 0.5, 0.9, 0.975, 0.999999):
        assert _normal_quantile(p) == pytest.approx(scipy_stats.norm.ppf(p), abs=1e-9)


def test_llr_is_the_normal_likelihood_ratio() -> None:
    x = np.random.default_rng(4).choice([-1.0, -0.5, 0.0, 0.5, 1.0], 300, p=[0.1, 0.2, 0.35, 0.2, 0.15])
    test = SequentialTest()
    sd = x.std()
    direct = scipy_stats.norm.logpdf(x, 0.05, sd).sum() - scipy_stats.norm.logpdf(x, 0.0, sd).sum()
    assert test.llr(x, 0.05) == pytest.approx(direct, rel=1e-9)


def test_fixed_size_is_the_textbook_sample_size() -> None:
    test = SequentialTest(delta=0.05, alpha=0.05, beta=0.05)
    z = scipy_stats.norm.ppf(0.975) + scipy_stats.norm.ppf(0.95)
    assert test.fixed_deals(0.4) == math.ceil((z * 0.4 / 0.05) ** 2)


def test_decisions_each_way() -> None:
    rng = np.random.default_rng(5)
    test = SequentialTest()
    assert test.decide(rng.choice([0.0, 1.0], 400, p=[0.6, 0.4])).verdict == "candidate better"
    assert test.decide(-rng.choice([0.0, 1.0], 400, p=[0.6, 0.4])).verdict == "baseline better"
    assert test.decide(rng.choice([-0.5, 0.5], 4000)).verdict == "no difference"
    assert test.decide(rng.choice([-0.5, 0.5], 20)).verdict == "undecided"
    assert test.decide(rng.choice([-0.5, 0.5], 20), final=True).decided


@pytest.mark.parametrize("rate", [0.0, 0.5, -0.1, 1.2])
def test_error_rates_outside_the_open_half_interval_are_refused(rate: float) -> None:
    with pytest.raises(SequentialError, match=r"strictly between 0 and 0.5"):
        SequentialTest(alpha=rate)
    with pytest.raises(SequentialError, match="beta"):
        SequentialTest(beta=rate)


def test_false_verdicts_stay_at_the_nominal_rate_between_equals() -> None:
    """Simulated deal pairs of two equal players (a symmetric pair score), looked at in rounds of 25 as
    compare() does: the share of 'better' verdicts is at most alpha (with 3 standard errors of slack)."""
    rng = np.random.default_rng(6)
    test = SequentialTest(delta=0.1, alpha=0.05, beta=0.05)
    runs, false = 1000, 0
    for _ in range(runs):
        x = rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0], 2000, p=[0.1, 0.15, 0.5, 0.15, 0.1])
        state = None
        for n in range(25, 2001, 25):
            state = test.decide(x[:n], final=n == 2000, state=state)
            if state.decided:
                break
        assert state is not None
        false += state.verdict in ("candidate better", "baseline better")
    assert false / runs <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / runs)
