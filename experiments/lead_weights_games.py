"""Duplicate games for lead-model weights: `counting+expert(+lead_model)` with the weights of a JSON file (the
layout of spades_lab/policies/data/expert_leads.json, e.g. one written by `fit_expert_leads.py --weights-out`)
against the shipped expert, against the same player with other weights, and optionally against the tips.

600 deals by default, both seatings, games to 500 with the 200-hand cap (`common.RULES`), seed `--seed`
(default `common.SEED`); each player is built in this process with its weights, so the shipped weights file is
never touched. Prints each match's win rate, paired win difference and paired margin per game, and writes them
as JSON.

    cd experiments && ../.venv/bin/python lead_weights_games.py NEW.json --against OLD.json --tips --out /tmp/games
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np
from common import run_tournament
from strong_players import _row

import spades_lab as sl
from spades_lab.fit import play_with_weights

MODEL, EXPERT, TIPS = "counting+expert(+lead_model)", "counting+expert", "counting+tips"


def with_weights(path: Path) -> Any:
    """`MODEL` with the weights of `path`, labelled by the file's name (a fresh play object: make_players caches)."""
    weights = np.asarray(json.loads(path.read_text())["weights"], dtype=np.float64)
    play = play_with_weights(MODEL, weights)
    return dataclasses.replace(sl.make_players(MODEL)[0], player=play, label=f"{MODEL} [{path.stem}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("weights", type=Path)
    parser.add_argument("--against", type=Path, help="other weights (a different file name: it labels the player)")
    parser.add_argument("--tips", action="store_true", help="also against counting+tips")
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("/tmp/lead_weights_games"))
    args = parser.parse_args()
    new = with_weights(args.weights)
    opponents: list[Any] = (
        [EXPERT] + ([with_weights(args.against)] if args.against else []) + ([TIPS] if args.tips else [])
    )
    seed = {"seed": args.seed} if args.seed is not None else {}
    rows = []
    for other in opponents:
        name = other if isinstance(other, str) else other.label
        run = args.out / f"{new.label} vs {name}".replace(" ", "_").replace("/", "_")
        shutil.rmtree(run, ignore_errors=True)  # run folders are keyed by names, not weights: always fresh
        t = time.perf_counter()
        result = run_tournament([new, other], run, workers=args.workers, games=args.deals, duplicate=True,
                                store_hands=False, **seed)  # fmt: skip
        row = _row(f"{new.label} vs {name}", result, new.label, name, args.deals)
        row |= {"seconds": time.perf_counter() - t, "seed": args.seed}
        rows.append(row)
        print(f"{row['match']}: win {row['win_rate']:.3f} ({row['win_lo']:.3f} to {row['win_hi']:.3f}), paired win "
              f"diff {row['paired_win_diff']:+.3f} ({row['paired_win_lo']:+.3f} to {row['paired_win_hi']:+.3f}), "
              f"paired margin per game {row['paired_margin']:+.1f} ({row['paired_margin_lo']:+.1f} to "
              f"{row['paired_margin_hi']:+.1f}), points per hand {row['points_per_hand']:.2f} against "
              f"{row['opponent_points_per_hand']:.2f}", flush=True)  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "games.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
