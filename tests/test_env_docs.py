"""docs/environments.md: its python blocks run (at their small sizes) and its layout table is the code's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spades_lab.env.encode import describe_layout

PAGE = Path(__file__).resolve().parents[1] / "docs" / "environments.md"


def test_the_page_runs(capsys) -> None:
    pytest.importorskip("pettingzoo")
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.S)
    assert len(blocks) == 4
    for block in blocks:
        exec(compile(block, str(PAGE), "exec"), {})
    out = capsys.readouterr().out
    assert "hands," in out and "your hand" in out and "side score" in out and "learned bids" in out


def test_layout_table_matches_the_encoding() -> None:
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \| (.*) \|$", PAGE.read_text(), flags=re.M)
    assert [(n, int(a), int(w), t) for n, a, w, t in rows] == describe_layout()
