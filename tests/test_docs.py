"""Every ```python block of docs/writing-policies.md runs, in order, in one namespace (as a reader would)."""

from __future__ import annotations

import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "writing-policies.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.S)


def test_the_tutorial_runs(capsys) -> None:
    space: dict = {}
    for block in blocks():
        exec(compile(block, str(PAGE), "exec"), space)
    out = capsys.readouterr().out
    assert "hands played" in out and "'play'" in out


def test_first_policies_are_short() -> None:
    first_bidder, first_play = blocks()[:2]
    assert len(first_bidder.strip().splitlines()) < 20
    assert len(first_play.strip().splitlines()) < 20
