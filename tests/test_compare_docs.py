"""The examples of docs/compare.md run (at tiny sizes), and the three-engine comparison fits in ten lines."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

PAGE = Path(__file__).resolve().parents[1] / "docs" / "compare.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.S)


def tiny(code: str) -> str:
    """The page's code at test size: a handful of deals, games stopped after a few hands."""
    code = re.sub(r"deals=\d+", "deals=3", code)
    return code.replace("hand_cap=200", "hand_cap=3")


def test_the_three_engine_comparison_fits_in_ten_lines_and_runs(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    first = blocks()[0]
    assert len([line for line in first.splitlines() if line.strip()]) <= 10
    space: dict = {}
    exec(compile(tiny(first), str(PAGE), "exec"), space)
    c = space["c"]
    assert len(c.engines) == 3 and c.engines[2].startswith("pimc") and all(d == 3 for d in c.deals.values())
    check = c.check(space["sl"].Claim("x", figure="bag_penalty_points_per_game", about=100))
    assert set(check.per_engine) == set(c.engines)


def test_the_claims_and_sweep_examples_run(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    space: dict = {}
    exec("import spades_lab as sl", space)
    for block in blocks()[1:]:
        exec(compile(tiny(block), str(PAGE), "exec"), space)
    assert len(space["claims"]) == 3
    assert list(space["s"].curve["value"]) == [0, 0.5, 1, 1.5, 2]
