"""`make run`: the default tournament, its tables and plots under results/default.

A duplicate round robin of the expert players, games to 500 (capped at 200 hands), on every core.
It writes the tournament's summary.csv, matchups.csv, bid_totals.csv and manifest.json, and every
plot of `spades_lab.plots` (the matchup grid among them) under plots/; the per-game and per-hand Parquet
files are not committed (.gitignore). The directory is cleared first, so the
committed results always come from the code as it is, never from chunks of an older version.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from spades_lab.plots import write_all
from spades_lab.rules import Rules
from spades_lab.tournament import DEFAULT_CHUNK_GAMES, TournamentResult, tournament

DEFAULT_ENTRANTS = ("counting+tips", "optimist+tips", "cautious+tips", "counting+greedy")
RULES = Rules(hand_cap=200)


def main_job(
    out: Path,
    games: int = 2000,
    seed: int = 1,
    entrants: tuple[str, ...] = DEFAULT_ENTRANTS,
    workers: int | None = None,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
) -> pd.DataFrame:
    """Duplicate round robin: `games` deals per pairing, each played in both seatings (2 x games tables)."""
    result = tournament(
        list(entrants), RULES, games=games, seed=seed, duplicate=True,
        workers=workers or os.cpu_count() or 1, out=out, chunk_games=chunk_games, progress=None, fresh=True,
    )  # fmt: skip
    write_all(result, Path(out) / "plots")
    shown = ["entrant", "games", "win_rate", "win_lo", "win_hi", "points_per_hand", "set_rate", "nil_bids_per_hand",
             "nil_success", "bags_per_hand", "bag_penalties_per_game", "team_bid_error", "hands_per_game", "unfinished"]  # fmt: skip
    table = result.summary[shown].to_string(index=False, float_format=lambda x: f"{x:.3f}")
    print(table)
    _write_readme(Path(out), result, table)
    print(f"{result.total_games} games, {result.total_hands} hands in {result.seconds:.1f} s"
          f" ({result.hands_per_s:,.0f} hands/s); written to {out}/")  # fmt: skip
    return result.summary


def _write_readme(out: Path, result: TournamentResult, table: str) -> None:
    """A reader's page for the default run: what was played, the summary, the plots, how to redo it."""
    names = ", ".join(f"`{n}`" for n in result.summary["entrant"])
    plots = "\n".join(f"![{p.stem}](plots/{p.name})" for p in sorted((out / "plots").glob("*.png")))
    out.joinpath("README.md").write_text(
        f"""# The default run (`make run`)

Duplicate round robin of {names}: every deal played in both seatings, games to 500 capped at
{RULES.hand_cap} hands (a capped game counts as unfinished, never as a win). {result.total_games:,} games,
{result.total_hands:,} hands. Regenerate with `make run` (or `spades-lab run --out results/default`); the
per-game and per-hand Parquet tables it also writes here are not committed.

Win rates are over finished games with 95% Wilson intervals; `summary.csv`, `matchups.csv` (with duplicate
paired differences) and `bid_totals.csv` hold every figure.

```
{table}
```

{plots}
"""
    )
