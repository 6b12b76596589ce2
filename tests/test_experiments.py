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
def test_experiment_writes_csv_png_readme(name: str, tmp_path: Path) -> None:
    module = importlib.import_module(name)
    kwargs = {"switches": ("duck_after_contract",)} if name == "tip_ablation" else {}
    if name == "strong_players":
        kwargs = {"switches": ("keep_setting",)}
    out = module.main(tmp_path / name, scale=0.001, workers=1, **kwargs)
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
