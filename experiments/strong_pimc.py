"""The `pimc` search player's figures, one part at a time (each part bounded, each result saved as JSON).

The parts of issue 10's pimc targets, measured after the solver speed-up (branch ddspeed):
- `match`: the 200-deal duplicate single-hand match counting+pimc vs counting+expert (points per hand,
  paired margin, wall time of play on the given workers);
- `tips`: duplicate games (to 500, 200-hand cap) counting+pimc vs counting+tips, `--deals` deals;
- `lost`: DD tricks lost per side per hand before the contract is made, over the WHOLE hand (all 13
  tricks) for tips, expert and pimc, `--hands` hands each (every checked play is a full-information
  `dd.card_values` solve of the true deal; `strong_players.dd_tricks_lost` with last=13);
- `bench`: `spades-lab bench --json --workload pimc --hands N` (searched decisions/s).
Each part writes results/strong_players/pimc_PART.json; `report` renders results/strong_players/pimc.md
from whichever parts exist.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from common import RULES, SEED, entrant_figures, paired_figures
from strong_players import dd_tricks_lost

from spades_lab.bench import run_bench
from spades_lab.tournament import tournament

OUT = Path(__file__).resolve().parents[1] / "results" / "strong_players"
EXPERT, TIPS, PIMC = "counting+expert", "counting+tips", "counting+pimc"


def _save(part: str, data: dict) -> None:
    (OUT / f"pimc_{part}.json").write_text(json.dumps(data, indent=1))
    print(part, json.dumps(data), flush=True)


def _est(e) -> list[float]:
    return [float(e.value), float(e.lo), float(e.hi)]


def match(deals: int, workers: int, out: Path, pimc: str = PIMC, part: str = "match") -> None:
    t = time.perf_counter()
    result = tournament([pimc, EXPERT], RULES, hands=deals, duplicate=True, workers=workers, out=out / part,
                        fresh=True, store_hands=False, seed=SEED, batch_size=1024,
                        chunk_games=max(1, deals // 4))  # fmt: skip
    wall = time.perf_counter() - t
    figs = entrant_figures(result)
    _save(part, {"player": pimc, "deals": deals, "workers": workers, "wall_s": wall, "play_s": result.seconds,
                 "pimc_pph": _est(figs[pimc]["points_per_hand"]), "expert_pph": _est(figs[EXPERT]["points_per_hand"]),
                 "margin": _est(paired_figures(result, pimc)["margin"])})  # fmt: skip


def tips(deals: int, workers: int, out: Path) -> None:
    t = time.perf_counter()
    result = tournament([PIMC, TIPS], RULES, games=deals, duplicate=True, workers=workers, out=out / "pimc_vs_tips",
                        fresh=True, store_hands=False, seed=SEED, batch_size=1024,
                        chunk_games=max(1, deals // 4))  # fmt: skip
    figs = entrant_figures(result)
    win = figs[PIMC]["win_rate"]
    _save("tips", {"deals": deals, "games": 2 * deals, "finished": int(win.n), "win_rate": _est(win),
                   "pimc_pph": _est(figs[PIMC]["points_per_hand"]), "tips_pph": _est(figs[TIPS]["points_per_hand"]),
                   "wall_s": time.perf_counter() - t})  # fmt: skip


def tally(out: Path) -> None:
    """The pimc-vs-tips games finished so far (chunk files of a run stopped at its time bound)."""
    import pandas as pd

    from spades_lab.stats.intervals import wilson

    files = sorted((out / "pimc_vs_tips" / "games").glob("*.parquet"))
    games = pd.concat([pd.read_parquet(f) for f in files])
    mine = games[(games["entrant"] == PIMC) & ~games["unfinished"]]
    won = int(mine["won"].sum())
    interval = wilson(won, len(mine))
    _save("tips_partial", {"chunks": len(files), "finished": len(mine), "won": won, "win_rate": won / len(mine),
                           "wilson": [float(x) for x in interval], "pimc_points_per_hand":
                           float(mine["score"].sum() / mine["hands"].sum())})  # fmt: skip


def lost(hands: int, players: list[str]) -> None:
    path = OUT / "pimc_lost.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    for name in players:
        t = time.perf_counter()
        value, lo, hi, n = dd_tricks_lost(name, hands, SEED, last=13)
        data[name] = {
            "value": value,
            "lo": lo,
            "hi": hi,
            "side_hands": n,
            "hands": hands,
            "seconds": time.perf_counter() - t,
        }
        _save("lost", data)


def bench(hands: int) -> None:
    _save("bench", {"hands": hands, **run_bench(["pimc"], hands=hands)["pimc"]})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("part", choices=["match", "tips", "tally", "lost", "bench"])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--players", default=f"{TIPS},{EXPERT},{PIMC}")
    parser.add_argument("--out", default="/tmp/strong_pimc_runs")
    parser.add_argument("--pimc", default=PIMC, help="the pimc player of the match, e.g. counting+pimc(max_tricks=8)")
    parser.add_argument("--name", default="match", help="the part's name in results (pimc_NAME.json)")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.part == "match":
        match(args.deals, args.workers, out, args.pimc, args.name)
    elif args.part == "tips":
        tips(args.deals, args.workers, out)
    elif args.part == "tally":
        tally(out)
    elif args.part == "lost":
        lost(args.hands, args.players.split(","))
    else:
        bench(args.hands)


if __name__ == "__main__":
    main()
