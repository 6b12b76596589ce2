"""The count calibration (`spades_lab.fit.counts`): features, the clustered fit, solving that resumes, the command."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from spades_lab.fit import counts as cc
from spades_lab.fit.__main__ import main as fit_main
from spades_lab.policies.counting import count_tricks_batch

SEED = cc.CountRecipe.seed
QUICK_SEED = 5
"""A deal stream whose first deals solve fast (the suite's time budget): seed 14's deal 9 takes seconds."""


def test_the_features_are_the_counts_parts() -> None:
    """The sheet's values times the features give the sheet's count, hand by hand: the features are its parts."""
    hands = np.array([cc.deal(SEED, i)[0] for i in range(300)]).ravel()
    f = cc.hand_features(hands)
    sheet = cc.sheet_values()
    assert np.array_equal(sum(sheet[k] * f[k].to_numpy() for k in cc.FEATURES), count_tricks_batch(hands))
    assert np.array_equal(cc.deal(SEED, 7)[0], cc.deal(SEED, 7)[0])  # deal i from (seed, i) only
    assert int(np.bitwise_or.reduce(cc.deal(SEED, 7)[0])) == (1 << 52) - 1


def test_ols_matches_statsmodels_cluster_robust() -> None:
    sm = pytest.importorskip("statsmodels.api")
    rng = np.random.default_rng(0)
    x = pd.DataFrame({"a": rng.integers(0, 3, 4000).astype(float), "b": rng.normal(size=4000)})
    clusters = np.repeat(np.arange(2000), 2)
    y = 1.0 + 0.5 * x["a"].to_numpy() - 2.0 * x["b"].to_numpy() + rng.normal(size=2000).repeat(2)  # clustered noise
    fit = cc.ols_cluster(x, y, clusters)
    ref = sm.OLS(y, sm.add_constant(x)).fit(cov_type="cluster", cov_kwds={"groups": clusters})
    assert fit.names == ["intercept", "a", "b"] and fit.deals == 2000
    np.testing.assert_allclose(fit.coef, ref.params.to_numpy(), rtol=1e-10)
    np.testing.assert_allclose(fit.se, ref.bse.to_numpy(), rtol=1e-6)


def test_the_paired_correction_recovers_a_known_difference() -> None:
    """Synthetic deals: y_broken = 1 + 0.5 a - 2 b, y_spades = y_broken + 0.25 - 0.75 a + small noise, the
    spades value on the first 800 deals only. broken + d recovers the spades weights with intervals that cover,
    and narrower than the plain fit on the paired deals."""
    rng = np.random.default_rng(3)
    n, paired = 4000, 800
    x = pd.DataFrame({"a": rng.integers(0, 3, 2 * n).astype(float), "b": rng.normal(size=2 * n)})
    deals = np.repeat(np.arange(n), 2)
    y_broken = 1.0 + 0.5 * x["a"].to_numpy() - 2.0 * x["b"].to_numpy() + rng.normal(size=n).repeat(2)
    y_spades = y_broken + 0.25 - 0.75 * x["a"].to_numpy() + 0.1 * rng.normal(size=2 * n)
    keep = deals < paired
    broken = cc.ols_cluster(x, y_broken, deals)
    d = cc.ols_cluster(x[keep], y_spades[keep] - y_broken[keep], deals[keep])
    plain = cc.ols_cluster(x[keep], y_spades[keep], deals[keep])
    standard = cc.combine(broken, d)
    for true, c, se in zip((1.25, -0.25, -2.0), standard.coef, standard.se):
        assert abs(c - true) < 3 * se
    for true, c, se in zip((0.25, -0.75, 0.0), d.coef, d.se):
        assert abs(c - true) < 3 * se and se < 0.02
    assert (standard.se < plain.se).all() and standard.se_added is not None
    assert np.allclose(standard.coef, broken.coef + d.coef)
    with pytest.raises(ValueError, match="among the base"):
        cc.combine(d, broken)  # the correction's deals must be a subset of the base's


def test_solving_resumes_and_the_command_refits_bit_for_bit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """12 deals of each set solved in chunks; asking for 14 solves only the 2 missing ones of each; two runs of the
    command write the same bytes, and `--check` against the shipped (100,000-deal) file reports the difference."""
    recipe = cc.CountRecipe(seed=QUICK_SEED, deals=12, paired_deals=12)
    raw = tmp_path / "raw"
    cc.solve(raw, recipe, solver="ours")
    assert sorted(p.name for p in (raw / "broken").glob("*.parquet")) == ["deals_0000000_0000012.parquet"]
    cc.solve(raw, cc.CountRecipe(seed=QUICK_SEED, deals=14, paired_deals=14), solver="ours")
    assert (raw / "spades" / "deals_0000012_0000014.parquet").exists()
    broken, spades = (cc.solved_deals(raw / r, QUICK_SEED) for r in ("broken", "spades"))
    for solved in (broken, spades):
        assert list(solved["deal"]) == list(range(14)) and solved["side0"].between(0, 13).all()
        hands = np.stack([cc.deal(QUICK_SEED, i)[0] for i in (3, 13)])
        assert (solved.loc[[3, 13], ["hand0", "hand1", "hand2", "hand3"]].to_numpy(dtype=np.uint64) == hands).all()
    base, _, _, _ = cc.refit(raw, cc.CountRecipe(seed=QUICK_SEED, deals=14, paired_deals=14), least=12)
    assert np.allclose(base.standard.coef, base.plain.coef)  # every deal paired: broken + d is the plain fit
    args = ["counts", "--raw", str(raw), "--seed", str(QUICK_SEED), "--deals", "14", "--paired-deals", "14"]
    with pytest.raises(ValueError, match="too few to fit"):  # 14 deals are below the command's 30
        fit_main([*args, "--out", str(tmp_path / "w.json")])
    assert fit_main([*args, "--deals", "40", "--paired-deals", "30", "--out", str(tmp_path / "a.json")]) == 0
    assert fit_main([*args, "--deals", "40", "--paired-deals", "30", "--out", str(tmp_path / "b.json"),
                     "--check"]) == 1  # fmt: skip
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    data = json.loads((tmp_path / "a.json").read_text())
    assert data["deals"] == 40 and data["paired_deals"] == 30 and set(cc.FEATURES) <= set(data["weights"])
    assert "differs in:" in capsys.readouterr().out
