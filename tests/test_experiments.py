"""Every experiment script runs end to end at a tiny size and writes its CSV, PNG plots and README.md."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

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
