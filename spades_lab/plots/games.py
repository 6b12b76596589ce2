"""Whole games: how bags pile up into penalties, and how the score runs in a few sample games."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from spades_lab.plots.data import Source, entrants, load, per_game_counts, require_hands, rules_of, side_entrants
from spades_lab.plots.style import AxesArg, caption, colours, figure_axes, legend, new_figure, side_label

MAX_BINS = 40
"""Bags per game spread over a wide range in long games; wider bins keep each line readable."""


def bags(source: Source, ax: AxesArg = None) -> Figure:
    """Bags taken per game and the bag penalties they cost, per entrant.

    Left: distribution of the bags (overtricks) a side took over a whole game. Right: how many
    games cost the entrant 0, 1, 2, ... bag penalties. Both come from the games table, so this
    works for runs without the hands table too; the legend means match the summary's
    bags_per_hand and bag_penalties_per_game. `ax`: one Axes (bags only) or two (bags, penalties).
    """
    result = load(source)
    games = result.games
    summary = result.summary.set_index("entrant")
    rules = rules_of(result)
    colour = colours(result)
    names = [n for n in entrants(result) if (games["entrant"] == n).any()]
    fig, axes, made = figure_axes(ax, 2, 13.0, 4.8)
    ax_bags = axes[0]
    most = int(games["bags_won"].max()) if len(games) else 0
    width = max(1, math.ceil((most + 1) / MAX_BINS))
    edges = np.arange(0, most + width + 1, width)
    for name in names:
        taken = games.loc[games["entrant"] == name, "bags_won"].to_numpy()
        counts, _ = np.histogram(taken, bins=edges)
        label = f"{name} ({taken.mean():.1f} per game, {summary.loc[name, 'bags_per_hand']:.2f} per hand)"
        ax_bags.stairs(counts / len(taken), edges, color=colour[name], label=label, lw=1.5)
    ax_bags.set_xlabel("bags taken in a game (overtricks, before penalties remove them)")
    unit = "game" if width == 1 else f"bin of {width} bags"
    ax_bags.set_ylabel(f"share of the entrant's games per {unit}")
    ax_bags.set_title("Bags taken per game", fontsize=10)
    legend(ax_bags, title="entrant (mean bags)", fontsize=8)
    if made:
        fig.suptitle(f"Bags and bag penalties\n{caption(result)}", fontsize=10)
    if len(axes) == 1:
        return fig
    ax_pen = axes[1]
    penalties = per_game_counts(result, "bag_penalties")
    step = 0.8 / max(1, len(names))
    for i, name in enumerate(names):
        mine = penalties[penalties["entrant"] == name]
        label = f"{name} ({summary.loc[name, 'bag_penalties_per_game']:.2f} per game)"
        x = mine["bag_penalties"].to_numpy() - 0.4 + step * (i + 0.5)
        ax_pen.bar(x, mine["share"], width=step, color=colour[name], label=label)
    ax_pen.set_xticks(range(int(penalties["bag_penalties"].max()) + 1 if len(penalties) else 1))
    cost = f"each {-rules.bag_penalty:+d} points at {rules.bag_threshold} bags" if rules.bag_penalty_enabled else "off"
    ax_pen.set_xlabel(f"bag penalties in a game ({cost})")
    ax_pen.set_ylabel("share of the entrant's games")
    ax_pen.set_title("Bag penalties per game", fontsize=10)
    legend(ax_pen, title="entrant (mean penalties)", fontsize=8)
    return fig


def sample_games(result: Any, n_games: int) -> list[tuple[int, int, int]]:
    """(pairing, seating, game) of the first game of each pairing and seating, in the tournament's order.

    In a duplicate run the two seatings of a pairing start at the same game id, so consecutive
    panels show the same deals with the partnerships swapped.
    """
    picks: list[tuple[int, int, int]] = []
    seen = set()
    for chunk in result.manifest["chunks"]:
        key = (int(chunk["pairing"]), int(chunk["seating"]))
        if key not in seen:
            seen.add(key)
            picks.append((*key, int(chunk["games"][0])))
    return picks[:n_games]


def _outcome(rows: pd.DataFrame, names: tuple[str, str]) -> str:
    last = rows.iloc[-1]
    if last["game_over"]:
        return f"won by {names[int(last['winner'])]} after {len(rows)} hands"
    if last["unfinished"]:
        return f"unfinished at the hand cap ({len(rows)} hands)"
    return f"{len(rows)} hands"


def score_trajectories(
    source: Source, n_games: int = 4, games: Sequence[tuple[int, int, int]] | None = None, ax: AxesArg = None
) -> Figure:
    """Both sides' scores hand by hand in a few games, with the target and each bag penalty marked.

    `games` picks (pairing, seating, game) triples; by default the first game of each pairing and
    seating, up to `n_games`. Each panel is titled with its pairing, seating and game, the ids
    `spades-lab show DIR --pairing P --seating S --game G --hand H` takes to replay any of its hands.
    `ax`: one Axes (the first game only) or one per game. Needs the hands table (store_hands).
    """
    result = load(source)
    hands = require_hands(result, "score_trajectories")
    rules = rules_of(result)
    colour = colours(result)
    picks = list(games) if games is not None else sample_games(result, n_games)
    lookup = side_entrants(result).set_index(["pairing", "seating", "side"])["entrant"]
    if ax is None:
        columns = 2 if len(picks) > 1 else 1
        rows_n = max(1, math.ceil(len(picks) / columns))
        fig = new_figure(6.0 * columns, 3.6 * rows_n + 0.6)
        axes = list(np.atleast_1d(fig.subplots(rows_n, columns, squeeze=False)).reshape(-1))
        made = True
    else:
        fig, axes, made = figure_axes(ax, len(picks), 6.0, 4.0)
    for panel, (pairing, seating, game) in zip(axes, picks):
        rows = hands[(hands["pairing"] == pairing) & (hands["seating"] == seating) & (hands["game"] == game)]
        rows = rows.sort_values("hand")
        if rows.empty:
            raise ValueError(f"no hands stored for pairing {pairing}, seating {seating}, game {game}")
        names = (str(lookup[(pairing, seating, 0)]), str(lookup[(pairing, seating, 1)]))
        played = np.arange(len(rows) + 1)
        penalised = False
        for side, name in enumerate(names):
            score = np.concatenate([[rows[f"score_before{side}"].iloc[0]], rows[f"score_after{side}"].to_numpy()])
            panel.plot(played, score, color=colour[name], label=f"{name} ({side_label(side, rules.players)})", lw=1.5)
            hit = np.flatnonzero(rows[f"bag_penalties{side}"].to_numpy() > 0) + 1
            panel.plot(played[hit], score[hit], "v", color=colour[name], ms=7, mec="black", mew=0.5)
            penalised = penalised or len(hit) > 0
        if penalised:
            panel.plot([], [], "v", color="lightgray", ms=7, mec="black", mew=0.5, label="bag penalty")
        panel.axhline(rules.target, color="gray", lw=0.8, ls="--", label=f"target {rules.target}")
        if rules.mercy:
            panel.axhline(rules.mercy_threshold, color="gray", lw=0.8, ls=":", label=f"mercy {rules.mercy_threshold}")
        panel.axhline(0, color="black", lw=0.5)
        panel.set_xlabel("hands played")
        panel.set_ylabel("score (points)")
        panel.set_title(f"pairing {pairing} ({names[0]} on {side_label(0, rules.players)}), seating {seating}, "
                        f"game {game}:\n{_outcome(rows, names)}", fontsize=9)  # fmt: skip
        legend(panel, fontsize=7)
    for panel in axes[len(picks) :]:
        panel.set_visible(False)
    if not made:
        return fig
    note = "; the same game id in both seatings is the same deals with partnerships swapped" if (
        result.manifest["config"]["duplicate"]) else ""  # fmt: skip
    fig.suptitle(f"Score trajectories of sample games{note}\n{caption(result)}", fontsize=10)
    return fig
