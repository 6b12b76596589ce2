"""Every experiment script runs end to end at a tiny size and writes its CSV, PNG plots and README.md."""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

EXPERIMENTS = Path(__file__).resolve().parents[1] / "experiments"
NAMES = ["bid_totals", "optimist_sets", "cautious_bags", "nine_bags", "nil", "tip_ablation", "strong_players"]


@pytest.fixture(scope="module", autouse=True)
def experiments_on_path():
    sys.path.insert(0, str(EXPERIMENTS))
    yield
    sys.path.remove(str(EXPERIMENTS))


@pytest.mark.parametrize("name", NAMES)
def test_experiment_writes_csv_png_readme(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = importlib.import_module(name)
    kwargs = {"switches": ("duck_after_contract",)} if name == "tip_ablation" else {}
    if name == "strong_players":
        kwargs = {"switches": ("keep_setting",)}
        # its pimc games at the default search budget take minutes even at this size
        monkeypatch.setattr(module, "PIMC", "counting+pimc(worlds=4,max_tricks=4)")
    out = module.main(tmp_path / name, scale=0.001, workers=1, **kwargs)
    if name != "strong_players":  # every sheet question, under each play engine
        readme = (out / "README.md").read_text()
        verdicts = readme.split("## Verdict per play engine")[1].split("## Numbers")[0]
        for engine in ("`tips`", "`expert`", "`pimc(worlds="):
            assert engine in verdicts.splitlines()[2], engine
        assert "Machine: " in readme and "seed 6" in readme and "| pimc |" in readme
    assert Path(out) == tmp_path / name
    csvs, pngs = list(out.glob("*.csv")), list(out.glob("*.png"))
    assert csvs and all(p.stat().st_size > 0 for p in csvs)
    assert pngs and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)
    readme = (out / "README.md").read_text()
    assert "**Answer.**" in readme and f"experiments/{name}.py --scale 0.001" in readme
    for image in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme):
        assert (out / image).exists(), image
    assert "nan" not in readme.split("## Numbers")[0].lower(), "the answer line has a missing figure"
    # only the documented outputs sit next to the README; tournament working files stay under run/
    assert {p.suffix for p in out.iterdir() if p.is_file()} <= {".csv", ".png", ".md"}


def test_readme_section_replaces_itself(tmp_path: Path) -> None:
    readme_section = importlib.import_module("readme_section")
    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n## Experiments\n\nold text\n\n## Later\n\nkept\n")
    readme_section.write(readme)
    once = readme.read_text()
    readme_section.write(readme)
    assert readme.read_text() == once
    assert once.count("## Experiments") == 1 and "old text" not in once and once.endswith("## Later\n\nkept\n")
    for name in NAMES:
        assert f"experiments/{name}.py" in once
    assert "make experiments" in once


def test_engine_names_and_verdicts() -> None:
    common = importlib.import_module("common")
    pimc = common.ENGINES["pimc"]
    assert pimc.player("counting(bag_aware=False)", "nil_coverage") == (
        f"counting(bag_aware=False)+pimc(worlds={common.PIMC_WORLDS}, max_tricks={common.PIMC_MAX_TRICKS}, -nil_coverage)"
    )
    assert common.ENGINES["tips"].player("counting") == "counting+tips"
    up, down, wide = (common.Estimate(v, v - 0.1, v + 0.1) for v in (0.5, -0.5, 0.0))
    words = {k: common.sign(e, "helps", "hurts") for k, e in (("a", up), ("b", down), ("c", wide))}
    assert words == {"a": "helps", "b": "hurts", "c": "no measurable difference"}
    flip = common.Claim("x", "f", {"tips": (up, "helps"), "expert": (down, "hurts")})
    unclear = common.Claim("x", "f", {"tips": (up, "helps"), "pimc": (wide, "no measurable difference")})
    same = common.Claim("x", "f", {"tips": (up, "helps"), "expert": (up, "helps")})
    assert flip.flips and not flip.holds and unclear.flips is False and not unclear.holds and same.holds
    section = common.verdict_section([flip, unclear, same], [common.ENGINES[e] for e in ("tips", "expert", "pimc")])
    assert (
        "1 of 3 verdicts hold across the 3 engines, 1 flip (opposite measured verdicts), 1 change" in section
        and "not run" in section
    )


def test_bid_margin_runs_at_a_tiny_scale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three margins (the raw expectation, the shipped one, one trick) under expert play, and the dd check on two
    duplicate hands: the full curve (7 margins x 3 engines) is an experiment, not a test."""
    module = importlib.import_module("bid_margin")
    monkeypatch.setattr(module, "MARGINS", tuple(sorted({0.0, module.SHIPPED, 1.0})))
    monkeypatch.setattr(module, "DD_MARGINS", (1.0,))
    monkeypatch.setattr(module, "DD_HANDS", 2)
    common = importlib.import_module("common")  # four duplicate deals per margin, not twenty
    monkeypatch.setitem(common.ENGINES, "expert", dataclasses.replace(common.ENGINES["expert"], minimum=4))
    out = module.main(tmp_path / "bid_margin", scale=0.001, workers=1, engines=("expert",))
    readme = (out / "README.md").read_text()
    assert "**Answer.**" in readme and "experiments/bid_margin.py --engines expert --scale 0.001" in readme
    assert "| `dd(worlds=4, -nil, margin=1)+expert` | +1 |" in readme and "calibrated vs counting" in readme
    curve = pd.read_csv(out / "bid_margin.csv")
    assert set(curve["margin"]) == {0.0, module.SHIPPED, 1.0}
    wins = curve[(curve["figure"] == "win_rate") & curve["entrant"].str.startswith("calibrated")]
    assert len(wins) == len(module.MARGINS) + 1 and wins["value"].between(0, 1).all()  # the curve, the comparison
    assert len(pd.read_csv(out / "dd_check.csv")) == 2


def test_count_calibration_features_are_the_counts_parts() -> None:
    """The sheet's values times the features give the sheet's count, hand by hand: the features are its parts."""
    cc = importlib.import_module("count_calibration")
    from spades_lab.policies.counting import count_tricks_batch

    hands = np.array([cc.deal(cc.SEED, i)[0] for i in range(300)]).ravel()
    f = cc.hand_features(hands)
    sheet = cc.sheet_values()
    assert np.array_equal(sum(sheet[k] * f[k].to_numpy() for k in cc.FEATURES), count_tricks_batch(hands))
    assert np.array_equal(cc.deal(cc.SEED, 7)[0], cc.deal(cc.SEED, 7)[0])  # deal i from (seed, i) only
    assert int(np.bitwise_or.reduce(cc.deal(cc.SEED, 7)[0])) == (1 << 52) - 1


def test_count_calibration_ols_recovers_known_weights() -> None:
    cc = importlib.import_module("count_calibration")
    rng = np.random.default_rng(0)
    x = pd.DataFrame({"a": rng.integers(0, 3, 4000), "b": rng.normal(size=4000)})
    clusters = np.repeat(np.arange(2000), 2)
    y = 1.0 + 0.5 * x["a"].to_numpy() - 2.0 * x["b"].to_numpy() + rng.normal(size=2000).repeat(2)  # clustered noise
    fit = cc.ols_cluster(x, y, clusters)
    assert fit.names == ["intercept", "a", "b"] and fit.deals == 2000
    z = 1.96
    for true, c, se in zip((1.0, 0.5, -2.0), fit.coef, fit.se):
        assert c - 3 * z * se < true < c + 3 * z * se and se < 0.1


QUICK_SEED = 5
"""A deal stream whose first deals solve fast (the suite's time budget): seed 14's deal 9 takes seconds."""


def test_count_calibration_solves_resumes_and_fits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tiny run of both datasets: 12 deals solved in chunks, a second run to 14 solves only the 2 missing ones
    of each; chunks of the old single-dataset layout (raw/deals_*) become the spades set and are not re-solved;
    the README and the weights are written from what is there. The shipped weights file is left alone."""
    cc = importlib.import_module("count_calibration")
    monkeypatch.setattr(cc, "CHUNK", 6)
    monkeypatch.setattr(cc, "MIN_DEALS", 12)
    monkeypatch.setattr(cc, "WEIGHTS_FILE", tmp_path / "weights.json")
    out = tmp_path / "count_calibration"
    cc.solve_missing(out / "raw", QUICK_SEED, 6, 1, 5, "spades", "ours")  # the old layout: raw/deals_*.parquet
    legacy = pd.read_parquet(out / "raw" / "deals_0000000_0000006.parquet")
    cc.main(out, deals=12, workers=1, minutes=5, seed=QUICK_SEED)
    assert not list((out / "raw").glob("*.parquet"))
    for rules in cc.RULES:
        assert sorted(p.name for p in (out / "raw" / rules).glob("*.parquet")) == [
            "deals_0000000_0000006.parquet", "deals_0000006_0000012.parquet"]  # fmt: skip
    moved = pd.read_parquet(out / "raw" / "spades" / "deals_0000000_0000006.parquet")
    assert moved["seconds"].equals(legacy["seconds"])  # moved, not solved again
    cc.main(out, deals=14, workers=1, minutes=5, seed=QUICK_SEED, weights=True)
    broken, spades = (cc.solved_deals(out / "raw" / r, QUICK_SEED) for r in cc.RULES)
    for raw in (broken, spades):
        assert list(raw["deal"]) == list(range(14)) and raw["side0"].between(0, 13).all()
        hands = np.stack([cc.deal(QUICK_SEED, i)[0] for i in (3, 13)])
        assert (raw.loc[[3, 13], ["hand0", "hand1", "hand2", "hand3"]].to_numpy(dtype=np.uint64) == hands).all()
    assert set(broken["solver"]) == {cc.pick_solver("broken", "auto")} and set(spades["solver"]) == {"ours"}
    assert (out / "raw" / "broken" / "deals_0000012_0000014.parquet").exists()
    readme = (out / "README.md").read_text()
    assert "It rests on 14 deals with spades broken, not the 100,000" in readme and "| ace_spade |" in readme
    weights = json.loads((tmp_path / "weights.json").read_text())
    assert weights["deals"] == 14 and weights["paired_deals"] == 14 and set(cc.FEATURES) <= set(weights["weights"])
    # every broken deal is paired here, so broken + d is exactly the plain standard-rule fit (OLS is linear in y)
    base, _ = cc.fits(broken, spades)
    assert np.allclose(base.standard.coef, base.plain.coef)


def test_count_calibration_dds_and_ours_solve_the_same_chunk(tmp_path: Path) -> None:
    """The broken set does not depend on its solver: DDS and ours write the same deals and tricks."""
    pytest.importorskip("endplay.dds")
    cc = importlib.import_module("count_calibration")
    frames = {}
    for solver in ("dds", "ours"):
        (tmp_path / solver).mkdir()
        frames[solver] = pd.read_parquet(cc.solve_chunk((QUICK_SEED, 40, 46, str(tmp_path / solver), "broken", solver)))
    same = ["deal", "leader", "side0", "hand0", "hand1", "hand2", "hand3"]
    assert frames["dds"][same].equals(frames["ours"][same])
    assert list(frames["dds"]["solver"]) == ["dds"] * 6 and list(frames["ours"]["solver"]) == ["ours"] * 6
    with pytest.raises(ValueError, match="first-trick"):
        cc.pick_solver("spades", "dds")


def test_count_calibration_paired_correction_recovers_a_known_difference() -> None:
    """Synthetic deals: y_broken = 1 + 0.5 a - 2 b, y_spades = y_broken + 0.25 - 0.75 a + small noise, the
    spades value on the first 800 deals only. broken + d recovers the spades weights with intervals that cover,
    and narrower than the plain fit on the paired deals."""
    cc = importlib.import_module("count_calibration")
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


def test_run_tournament_plays_afresh_when_players_or_code_changed(tmp_path: Path, capsys) -> None:
    """An experiment's figures are the current players': a stale run folder is replayed, not reused."""
    import warnings

    from spades_lab.tournament import CodeChangedWarning

    common = importlib.import_module("common")
    entrants, run_dir = ["random", "counting+tips"], tmp_path / "run"
    first = common.run_tournament(entrants, run_dir, workers=1, games=4)
    assert first.chunks_run == len(first.chunks)
    assert common.run_tournament(entrants, run_dir, workers=1, games=4).chunks_run == 0  # reused as it stands
    manifest = json.loads((run_dir / "manifest.json").read_text())
    manifest["code"]["counting+tips"]["spades_lab.policies.play"] = "0" * 16  # as if play.py had been edited
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    with warnings.catch_warnings():
        warnings.simplefilter("error", CodeChangedWarning)
        again = common.run_tournament(entrants, run_dir, workers=1, games=4)
    assert again.chunks_run == len(again.chunks)
    assert "playing afresh" in capsys.readouterr().err
    del manifest["config"]["players"]  # a folder from before players were recorded
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    assert common.run_tournament(entrants, run_dir, workers=1, games=4).chunks_run == len(again.chunks)


def test_saved_whole_hand_figures_say_whether_the_player_is_still_the_one_measured(tmp_path: Path) -> None:
    from spades_lab.policies.identity import player_identity

    module = importlib.import_module("strong_players")
    figure = {"value": 1.5, "lo": 1.4, "hi": 1.6, "side_hands": 40}
    now = player_identity(module.EXPERT)
    older = json.loads(json.dumps(now))
    older["play"]["params"]["short_suit_first"] = not now["play"]["params"]["short_suit_first"]
    data = {module.EXPERT: {**figure, "player": now}, f"{module.EXPERT} [old]": {**figure, "player": older},
            module.TIPS: figure}  # fmt: skip
    (tmp_path / "pimc_lost.json").write_text(json.dumps(data))
    _, table = module.whole_hand_lost(tmp_path)
    rows = {line.split("|")[1].strip(): line.split("|")[5].strip() for line in table.splitlines()[2:]}
    assert rows[f"`{module.EXPERT}`"] == "the current player"
    assert "another version of the player (play.short_suit_first:" in rows[f"`{module.EXPERT} [old]`"]
    assert "saved before measurements recorded the player" in rows[f"`{module.TIPS}`"]
