"""The matchup grid: every entrant against every opponent, coloured by a figure that counts every game.

A win rate over finished games leaves out the games stopped at the hand cap, and between two weak
bidders that can be nearly all of them: a cell reading 0.903 can rest on 4% of its games. The grid
is therefore coloured by the net win share, (wins - opponent's wins) / games, over all games, where
an unfinished game counts for neither side. In a duplicate run that is exactly the paired win
difference, with its interval over deals; otherwise its interval is the normal one for a difference
of two shares of the same games. Each cell also prints the games, the unfinished share and the win
rate over finished games, and is hatched when most of its games did not finish.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from spades_lab.plots.data import Source, entrants, load
from spades_lab.plots.style import AxesArg, caption, figure_axes

Z95 = 1.959963984540054


def net_table(source: Source) -> pd.DataFrame:
    """Per (entrant, opponent): games, unfinished share, win rate over finished games, and the net win share
    over all games (net, net_lo, net_hi: the paired interval in duplicate runs, a normal interval otherwise)."""
    result = load(source)
    m = result.matchups.set_index(["entrant", "opponent"])
    rows = []
    duplicate = bool(result.manifest["config"]["duplicate"])
    for (a, b), row in m.iterrows():
        games = int(row["games"])
        wins, losses = int(row["wins"]), int(m.loc[(b, a), "wins"])
        if duplicate and "paired_win_diff" in row and not pd.isna(row["paired_win_diff"]):
            net, lo, hi = float(row["paired_win_diff"]), float(row["paired_win_lo"]), float(row["paired_win_hi"])
        elif games:
            pw, pl = wins / games, losses / games
            net = pw - pl
            half = Z95 * math.sqrt(max(pw + pl - net * net, 0.0) / games)
            lo, hi = max(net - half, -1.0), min(net + half, 1.0)
        else:
            net = lo = hi = float("nan")
        rows.append({
            "entrant": a, "opponent": b, "games": games, "finished": int(row["finished"]), "wins": wins,
            "losses": losses, "unfinished_share": int(row["unfinished"]) / games if games else float("nan"),
            "win_rate": float(row["win_rate"]), "net": net, "net_lo": lo, "net_hi": hi,
        })  # fmt: skip
    return pd.DataFrame(rows)


def matchups(source: Source, ax: AxesArg = None) -> Figure:
    """Row entrant against column opponent: colour = net win share over all games, text = the cell's evidence."""
    result = load(source)
    table = net_table(result).set_index(["entrant", "opponent"])
    names = entrants(result)
    n = len(names)
    fig, axes, made = figure_axes(ax, 1, max(6.0, 1.9 * n + 2.5), max(5.0, 1.5 * n + 2.0))
    ax0 = axes[0]
    net = np.full((n, n), np.nan)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if (a, b) in table.index:
                net[i, j] = table.loc[(a, b), "net"]
    finite = np.abs(net[np.isfinite(net)])
    top = max(0.1, math.ceil(float(finite.max()) * 10) / 10) if finite.size else 1.0
    image = ax0.imshow(net, vmin=-top, vmax=top, cmap="RdBu")
    duplicate = bool(result.manifest["config"]["duplicate"])
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if (a, b) not in table.index:
                continue
            row = table.loc[(a, b)]
            half = (row["net_hi"] - row["net_lo"]) / 2
            finished = f"win {row['win_rate']:.3f} of finished" if row["finished"] else "no finished game"
            text = (f"net {row['net']:+.3f} \u00b1{half:.3f}\n{finished}\n"
                    f"{int(row['games']):,} games, {row['unfinished_share']:.0%} unfinished")  # fmt: skip
            dark = abs(row["net"]) > 0.6 * top
            ax0.text(j, i, text, ha="center", va="center", fontsize=7, color="white" if dark else "black")
            if row["unfinished_share"] > 0.5:
                ax0.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", ec="gray", lw=0))
    ax0.set_xticks(range(n), names, rotation=20, ha="right")
    ax0.set_yticks(range(n), names)
    ax0.set_xlabel("opponent")
    ax0.set_ylabel("entrant")
    interval = "paired over deals" if duplicate else "normal"
    ax0.set_title(
        "Matchups: net win share = (wins - losses) / all games, \u00b1 95% (" + interval + ")\n"
        "unfinished games count for neither side; hatched: most games unfinished"
        + (f"\n{caption(result)}" if made else ""),
        fontsize=9,
    )
    fig.colorbar(image, ax=ax0, shrink=0.8, label="net win share of the row entrant")
    return fig
