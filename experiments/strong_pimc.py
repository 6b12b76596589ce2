"""The `pimc` search player, part by part: the timed match against the expert, and the DD tricks lost.

    cd experiments
    ../.venv/bin/python strong_pimc.py match --deals 200 --workers 2          # pimc against the expert, timed
    ../.venv/bin/python strong_pimc.py lost --hands 240 --players counting+pimc --workers 2 --out /tmp/lost
    ../.venv/bin/python strong_pimc.py lost-tables                            # pimc_lost.json as markdown
    ../.venv/bin/python strong_pimc.py lost-points --runs /tmp/lost           # tricks that change the score

`match` plays duplicate single hands of `--pimc` against counting+expert and writes pimc_NAME.json (`--name`).
`lost` measures `spades_lab.stats.lost.tricks_lost` for each of `--players` (seed 6), keys it `NAME [TAG]` with
`--tag`, adds it to pimc_lost.json and saves the run as `--out/lost_N.npz`. results/strong_players/pimc.md reports
what these wrote.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from common import RULES, SEED

import spades_lab as sl
from spades_lab.stats.estimates import Estimate, paired_estimate, ratio_estimate
from spades_lab.stats.lost import TricksLost, tricks_lost

OUT = Path(__file__).resolve().parents[1] / "results" / "strong_players"
EXPERT = "counting+expert"


def triple(e: Estimate) -> list[float]:
    return [e.value, e.lo, e.hi]


def match(pimc: str, deals: int, workers: int, name: str) -> dict:
    """Duplicate single hands of `pimc` against the expert: points per hand, the paired margin, the time."""
    start = time.perf_counter()
    result = sl.tournament([pimc, EXPERT], RULES, hands=deals, duplicate=True, workers=workers, seed=SEED,
                           store_hands=False, progress=False)  # fmt: skip
    games = result.games.assign(margin=lambda g: (g["score"] - g["opp_score"]).astype(float))
    per = {e: games[games["entrant"] == e] for e in (pimc, EXPERT)}
    data = {"player": pimc, "deals": deals, "workers": workers, "wall_s": time.perf_counter() - start,
            "play_s": result.seconds, "pimc_pph": triple(ratio_estimate(per[pimc]["score"], per[pimc]["hands"])),
            "expert_pph": triple(ratio_estimate(per[EXPERT]["score"], per[EXPERT]["hands"])),
            "margin": triple(paired_estimate(games, "margin", pimc, 0.5))}  # fmt: skip
    (OUT / f"pimc_{name}.json").write_text(json.dumps(data, indent=1))
    return data


def lost(players: list[str], hands: int, workers: int, tag: str, out: Path) -> None:
    path = OUT / "pimc_lost.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    for player in players:
        start = time.perf_counter()
        key = f"{player} [{tag}]" if tag else player
        run = tricks_lost(player, hands, SEED, workers, key=key)
        e = run.estimate()
        data[key] = {"value": e.value, "lo": e.lo, "hi": e.hi, "side_hands": e.n, "hands": run.hands,
                     "checked_plays": len(run.loss), "plays_losing": int((run.loss > 0).sum()),
                     "by_trick": [triple(x) for x in run.by("t")], "by_position": [triple(x) for x in run.by("pos")],
                     "seconds": time.perf_counter() - start, "workers": workers, "player": run.player}  # fmt: skip
        path.write_text(json.dumps(data, indent=1))
        run.save(out / f"lost_{list(data).index(key)}.npz")
        print(f"{key}: {e.fmt(2)} DD tricks lost per side-hand", flush=True)


def cell(v: list[float]) -> str:
    return f"{v[0]:.2f} ({v[1]:.2f} to {v[2]:.2f})"


def lost_tables() -> str:
    data = json.loads((OUT / "pimc_lost.json").read_text())
    names = [n for n in data if "by_trick" in data[n]]
    lines = ["| player | DD tricks lost per side per hand (95%) | side-hands | checked plays | plays losing |",
             "|---|---|---|---|---|"]  # fmt: skip
    lines += [f"| `{n}` | {cell([data[n]['value'], data[n]['lo'], data[n]['hi']])} | {data[n]['side_hands']} | "
              f"{data[n]['checked_plays']} | {data[n]['plays_losing']} |" for n in names]  # fmt: skip
    for label, column, cells in (("position", "by_position", ("lead", "2nd", "3rd", "4th")),
                                 ("trick", "by_trick", [str(t + 1) for t in range(13)])):  # fmt: skip
        lines += ["", f"| {label} | " + " | ".join(f"`{n}`" for n in names) + " |", "|---|" + "---|" * len(names)]
        lines += [f"| {c} | " + " | ".join(cell(data[n][column][k]) for n in names) + " |" for k, c in enumerate(cells)]
    return "\n".join(lines)


def lost_points(runs: list[Path]) -> str:
    lines = ["| run | side-hands | DD tricks lost | changing the score | our contract | their contract | "
             "the bag penalty | bags only | points lost |", "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for npz in sorted(p for run in runs for p in (run.glob("lost_*.npz") if run.is_dir() else [run])):
        run = TricksLost.load(npz)
        points = run.points()
        lines.append(
            f"| `{run.key}` | {2 * run.hands} | " + " | ".join(cell(triple(e)) for e in points.values()) + " |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("part", choices=["match", "lost", "lost-tables", "lost-points"])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--players", default="counting+tips;counting+expert;counting+pimc", help="separated by ;")
    parser.add_argument("--pimc", default="counting+pimc")
    parser.add_argument("--name", default="match", help="match: written as pimc_NAME.json")
    parser.add_argument("--tag", default="", help="lost: keyed as 'NAME [TAG]'")
    parser.add_argument("--out", type=Path, default=Path("lost_runs"), help="lost: where the npz runs go")
    parser.add_argument("--runs", default="", help="lost-points: npz files or folders, separated by ;")
    args = parser.parse_args()
    if args.part == "match":
        print(json.dumps(match(args.pimc, args.deals, args.workers, args.name)))
    elif args.part == "lost":
        args.out.mkdir(parents=True, exist_ok=True)
        lost(args.players.split(";"), args.hands, args.workers, args.tag, args.out)
    elif args.part == "lost-tables":
        print(lost_tables())
    else:
        print(lost_points([Path(p) for p in args.runs.split(";")]))


if __name__ == "__main__":
    main()
