"""Hands/s of the docs' duck-or-win play policy written three ways, measured in one run.

Run: `.venv/bin/python docs/measure_three_ways.py [--scale 1.0]` (figures for docs/writing-policies.md; the
suite runs it at a tiny scale).
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path

import spades_lab as sl

PAGE = Path(__file__).with_name("writing-policies.md")


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="a multiple of the hands each way plays")
    scale = parser.parse_args(argv).scale
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.S)
    space: dict = {}
    for block in blocks:  # the page's examples in order, up to the one that builds the three ways
        exec(block, space)
        if "ways" in space:
            break
    sizes = {"per-table Python": 1500, "numpy batch": 30000, "compiled scalar": 60000}
    ways, hands = space["ways"], {label: max(1, round(n * scale)) for label, n in sizes.items()}
    out = {}
    for label, part in ways.items():
        player = sl.Player(sl.bid_policy("counting"), part, label="counting+" + part.name)
        list(sl.simulate_hands(sl.Rules(), [player] * 4, 50, seed=0))  # compile / warm up
        start = time.perf_counter()
        n = sum(len(log) for log in sl.simulate_hands(sl.Rules(), [player] * 4, hands[label], seed=1))
        out[label] = round(n / (time.perf_counter() - start))
    base = out["per-table Python"]
    table = {k: {"hands_per_s": v, "relative": round(v / base, 1)} for k, v in out.items()}
    print(json.dumps(table, indent=1))
    return table


if __name__ == "__main__":
    main()
