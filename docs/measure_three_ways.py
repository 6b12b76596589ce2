"""Hands/s of the docs' duck-or-win play policy written three ways, measured in one run.

Run: `.venv/bin/python docs/measure_three_ways.py` (figures for docs/writing-policies.md).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import spades_lab as sl

PAGE = Path(__file__).with_name("writing-policies.md")


def main() -> None:
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.S)
    space: dict = {}
    for block in blocks[:3]:  # the first bidder, the first play policy, the three ways (at its tiny scale)
        exec(block, space)
    ways, hands = space["ways"], {"per-table Python": 1500, "numpy batch": 30000, "compiled scalar": 60000}
    out = {}
    for label, part in ways.items():
        player = sl.Player(sl.bid_policy("counting"), part, label="counting+" + part.name)
        list(sl.simulate_hands(sl.Rules(), [player] * 4, 50, seed=0))  # compile / warm up
        start = time.perf_counter()
        n = sum(len(log) for log in sl.simulate_hands(sl.Rules(), [player] * 4, hands[label], seed=1))
        out[label] = round(n / (time.perf_counter() - start))
    base = out["per-table Python"]
    print(json.dumps({k: {"hands_per_s": v, "relative": round(v / base, 1)} for k, v in out.items()}, indent=1))


if __name__ == "__main__":
    main()
