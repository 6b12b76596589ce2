"""`make run`: the default tournament, its tables and plots under results/default.

A duplicate round robin of the expert players, games to 500 (capped at 200 hands), on every core.
It writes the tournament's summary.csv, matchups.csv, bid_totals.csv and manifest.json, and every
plot of `spades_lab.plots` plus a matchup grid under plots/; the per-game and per-hand Parquet
files are not committed (.gitignore). The directory is cleared first, so the
committed results always come from the code as it is, never from chunks of an older version.
"""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from spades_lab.plots import write_all  # noqa: E402
from spades_lab.rules import Rules  # noqa: E402
from spades_lab.tournament import DEFAULT_CHUNK_GAMES, TournamentResult, tournament  # noqa: E402

DEFAULT_ENTRANTS = ("counting+tips", "optimist+tips", "cautious+tips", "counting+greedy")
RULES = Rules(hand_cap=200)


def plot_matchups(result: TournamentResult, path: Path) -> None:
    """Row entrant's win rate against each column entrant, with the duplicate paired difference."""
    names = list(result.summary["entrant"])
    table = result.matchups.set_index(["entrant", "opponent"])
    rate = np.full((len(names), len(names)), np.nan)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if (a, b) in table.index:
                rate[i, j] = table.loc[(a, b), "win_rate"]
    fig, ax = plt.subplots(figsize=(7, 6))
    image = ax.imshow(rate, vmin=0, vmax=1, cmap="RdBu")
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if (a, b) in table.index:
                row = table.loc[(a, b)]
                text = f"{row['win_rate']:.3f}"
                if "paired_win_diff" in row:
                    text += f"\n{row['paired_win_diff']:+.3f}\n±{(row['paired_win_hi'] - row['paired_win_lo']) / 2:.3f}"
                ax.text(j, i, text, ha="center", va="center", fontsize=8)
    ax.set_xticks(range(len(names)), names, rotation=20)
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("opponent")
    ax.set_title("row's win rate vs column\n(duplicate: paired win difference ± 95%)", fontsize=10)
    fig.colorbar(image, ax=ax, shrink=0.8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


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
        workers=workers or os.cpu_count() or 1, out=out, chunk_games=chunk_games, progress=True, fresh=True,
    )  # fmt: skip
    write_all(result, Path(out) / "plots")
    plot_matchups(result, Path(out) / "plots" / "matchups.png")
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
