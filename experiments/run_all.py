"""Regenerate every results folder: each experiment script at full scale, then the README's section.

    .venv/bin/python experiments/run_all.py                    # everything (what `make experiments` runs)
    .venv/bin/python experiments/run_all.py nil nine_bags      # some of them
    .venv/bin/python experiments/run_all.py --engines tips     # one play engine only

count_calibration runs first (it resumes its solving for at most `--calibration-minutes`); its results folder
reports the fit, while the `calibrated` bidder's shipped weights change only by `python -m spades_lab.fit counts
--write`. Tournament folders under `results/NAME/run/` are resumed, and replayed when the players' code changed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHEET = ["bid_totals", "optimist_sets", "cautious_bags", "nine_bags", "nil", "tip_ablation", "bid_margin"]
"""The experiments that answer a cheat-sheet question, each under every play engine."""
OTHERS = ["strong_players"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "names", nargs="*", help=f"experiments to run (default: count_calibration {' '.join(SHEET + OTHERS)})"
    )
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--engines", default="tips,expert,pimc")
    parser.add_argument("--calibration-minutes", type=float, default=50.0, help="most minutes of DD solving per run")
    args = parser.parse_args(argv)
    for name in args.names or ["count_calibration", *SHEET, *OTHERS]:
        start = time.perf_counter()
        command = [sys.executable, str(HERE / f"{name}.py"), "--workers", str(args.workers)]
        if name == "count_calibration":
            command += [
                "--minutes",
                f"{args.calibration_minutes:g}",
                "--deals",
                str(max(100, round(100_000 * args.scale))),
            ]
        else:
            command += ["--scale", f"{args.scale:g}"] + (["--engines", args.engines] if name in SHEET else [])
        subprocess.run(command, check=True)
        print(f"{name}: done in {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    subprocess.run([sys.executable, str(HERE / "readme_section.py"), "--write"], check=True)


if __name__ == "__main__":
    main()
