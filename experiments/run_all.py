"""Regenerate every results folder: each experiment script at full scale, then the README's section.

    .venv/bin/python experiments/run_all.py                    # everything (what `make experiments` runs)
    .venv/bin/python experiments/run_all.py nil nine_bags      # some of them
    .venv/bin/python experiments/run_all.py --engines tips     # one play engine only

count_calibration runs first: it writes the weights the `calibrated` bidder (and so bid_margin) reads.

The scripts run one after the other in this one process. Tournaments whose working directories are already
under `results/NAME/run/` are reused, not replayed: delete those folders after changing a player.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import readme_section  # noqa: E402
from common import ENGINE_NAMES  # noqa: E402

SHEET = ["bid_totals", "optimist_sets", "cautious_bags", "nine_bags", "nil", "tip_ablation", "bid_margin"]
"""The experiments that answer a cheat-sheet question, each run under every play engine."""
CALIBRATION = "count_calibration"
"""Solves DD deals rather than playing games: --scale sets its deals (100,000 at 1), each run adds at most
`--calibration-minutes` of solving to the raw chunks already there (it resumes), then refits and rewrites the
calibrated bidder's weights."""
OTHERS = ["strong_players", CALIBRATION]
"""Experiments about the players themselves (no --engines option)."""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"experiments to run (default: {' '.join(SHEET + OTHERS)})")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--engines", default=",".join(ENGINE_NAMES))
    parser.add_argument("--calibration-minutes", type=float, default=50.0, help="most minutes of DD solving per run")
    args = parser.parse_args(argv)
    names = args.names or [CALIBRATION, *SHEET, *OTHERS[:-1]]
    for name in names:
        start = time.perf_counter()
        module = importlib.import_module(name)
        if name == CALIBRATION:
            deals = max(100, round(100_000 * args.scale))
            out = module.main(None, deals, args.workers, args.calibration_minutes, weights=True)
        elif name in SHEET:
            out = module.main(None, args.scale, args.workers, engines=tuple(args.engines.split(",")))
        else:
            out = module.main(None, args.scale, args.workers)
        print(f"{name}: wrote {out} in {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    readme_section.write()


if __name__ == "__main__":
    main()
