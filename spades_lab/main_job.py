"""`make run`: the default tournament, its tables and plots under results/default.

A duplicate round robin of the expert players, games to 500 (capped at 200 hands), on every core.
It writes the tournament's summary.csv, matchups.csv, bid_totals.csv and manifest.json, plus
overview.png and matchups.png; per-hand tables are not kept (hands storage off), and the
per-game Parquet files are not committed (.gitignore). The directory is cleared first, so the
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

from spades_lab.rules import Rules  # noqa: E402
from spades_lab.tournament import TournamentResult, tournament  # noqa: E402

DEFAULT_ENTRANTS = ("counting+tips", "optimist+tips", "cautious+tips", "counting+greedy")
RULES = Rules(hand_cap=200)


def plot_overview(result: TournamentResult, path: Path) -> None:
    """Win rate with its Wilson interval per entrant, and each entrant's table bid total distribution."""
    summary = result.summary
    fig, (ax_win, ax_bid) = plt.subplots(1, 2, figsize=(12, 4.5))
    x = np.arange(len(summary))
    rate = summary["win_rate"].to_numpy()
    err = np.vstack([rate - summary["win_lo"].to_numpy(), summary["win_hi"].to_numpy() - rate])
    ax_win.bar(x, rate, yerr=err, capsize=6, color=plt.cm.tab10(x))
    ax_win.axhline(0.5, color="gray", lw=0.8, ls="--")
    ax_win.set_xticks(x, summary["entrant"], rotation=15)
    ax_win.set_ylim(0, 1)
    ax_win.set_ylabel("share of finished games won (95% Wilson)")
    ax_win.set_title(f"Round robin, {result.total_games:,} games, {result.total_hands:,} hands")
    totals = result.bid_totals.groupby(["entrant", "bid_total"])["hands"].sum().reset_index()
    for i, name in enumerate(summary["entrant"]):
        mine = totals[totals["entrant"] == name]
        ax_bid.plot(
            mine["bid_total"], mine["hands"] / mine["hands"].sum(), marker=".", color=plt.cm.tab10(i), label=name
        )
    ax_bid.axvline(13, color="gray", lw=0.8, ls="--")
    ax_bid.set_xlabel("sum of the four bids at the table (nil = 0)")
    ax_bid.set_ylabel("share of the entrant's hands")
    ax_bid.set_title("Table bid total")
    ax_bid.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


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
) -> pd.DataFrame:
    """Duplicate round robin: `games` deals per pairing, each played in both seatings (2 x games tables)."""
    result = tournament(
        list(entrants), RULES, games=games, seed=seed, duplicate=True,
        workers=workers or os.cpu_count() or 1, out=out, chunk_games=500, store_hands=False, progress=True, fresh=True,
    )  # fmt: skip
    plot_overview(result, Path(out) / "overview.png")
    plot_matchups(result, Path(out) / "matchups.png")
    shown = ["entrant", "games", "win_rate", "win_lo", "win_hi", "points_per_hand", "set_rate", "nil_bids_per_hand",
             "nil_success", "bags_per_hand", "bag_penalties_per_game", "team_bid_error", "hands_per_game", "unfinished"]  # fmt: skip
    print(result.summary[shown].to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    print(f"{result.total_games} games, {result.total_hands} hands in {result.seconds:.1f} s"
          f" ({result.hands_per_s:,.0f} hands/s); written to {out}/")  # fmt: skip
    return result.summary
