"""Who wins, who gets set and how nils end: win rates, set rate by contract size, nil outcomes."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from spades_lab.plots.data import NIL_OUTCOMES, Source, entrants, load, nil_outcome_table, rules_of, set_rates
from spades_lab.plots.style import AxesArg, caption, colours, figure_axes, legend, new_figure


def win_rates(source: Source, ax: AxesArg = None) -> Figure:
    """Each entrant's win rate over its finished games, with the 95% Wilson interval as a bar.

    Unfinished games (stopped at the hand cap) are neither wins nor losses, so each bar is labelled
    with how many games it rests on; an entrant with no finished game gets no bar and says so.
    The even line at 0.5 is drawn only for two entrants: in a round robin an entrant's rate pools
    opponents of every strength, and 0.5 marks nothing in particular.
    """
    result = load(source)
    summary = result.summary
    names = list(summary["entrant"])
    colour = colours(result)
    fig, axes, made = figure_axes(ax, 1, max(6.0, 1.4 * len(names) + 2.5), 4.8)
    ax = axes[0]
    x = np.arange(len(names))
    rate = summary["win_rate"].to_numpy(dtype=float)
    low, high = summary["win_lo"].to_numpy(dtype=float), summary["win_hi"].to_numpy(dtype=float)
    ax.bar(x, rate, color=[colour[n] for n in names])
    ax.bar([], [], color="silver", label="win rate")  # a neutral legend entry for bars of every colour
    ax.vlines(x, low, high, color="black", lw=1.2, label="95% Wilson interval")
    ax.hlines(np.concatenate([low, high]), np.tile(x - 0.1, 2), np.tile(x + 0.1, 2), color="black", lw=1.2)
    if len(names) == 2:
        ax.axhline(0.5, color="gray", lw=0.8, ls="--", label="even (0.5)")
    for i, row in summary.iterrows():
        if row["finished"] == 0:
            text = "no finished games"
        else:
            text = f"{row['win_rate']:.3f}\n{row['finished']:,} finished"
        if row["unfinished"]:
            text += f"\n{row['unfinished']:,} unfinished"
        top = row["win_hi"] if row["finished"] else 0.0
        ax.annotate(text, (x[i], top), xytext=(0, 4), textcoords="offset points", ha="center", va="bottom", fontsize=8)
    ax.set_xticks(x, names, rotation=15 if len(names) > 3 else 0, ha="right" if len(names) > 3 else "center")
    ax.set_ylim(0, 1.2)
    ax.set_yticks(np.linspace(0, 1, 6))
    ax.set_xlabel("entrant")
    ax.set_ylabel("share of finished games won")
    ax.set_title("Win rate per entrant over its finished games" + (f"\n{caption(result)}" if made else ""), fontsize=10)
    legend(ax, loc="upper right", fontsize=8)
    return fig


def set_rate_by_contract(source: Source, min_contracts: int = 20, ax: AxesArg = None) -> Figure:
    """How often a side contract of each size is set, per entrant, and how often the entrant bids it.

    Top: share of contracts set with a 95% Wilson band, for sizes bid at least `min_contracts`
    times (rarer sizes would only add noise). Bottom: the entrant's contracts by size, which says
    how much each size weighs in the overall set rate. Needs the hands table (store_hands).
    Contract sizes are whole numbers, so each interval is drawn at its size and lines join only
    neighbouring sizes: a band filled across a gap would invent rates for sizes never shown.
    `ax`: one Axes (the set rates only) or two (rates, shares).
    """
    result = load(source)
    table = set_rates(result)
    colour = colours(result)
    team = rules_of(result).players == 4
    if ax is None:
        fig = new_figure(8.0, 7.0)
        ax_rate, ax_share = fig.subplots(2, 1, sharex=True, height_ratios=[3, 2])
        made = True
    else:
        fig, axes, made = figure_axes(ax, 2, 8.0, 7.0)
        ax_rate, ax_share = axes[0], (axes[1] if len(axes) > 1 else None)
    names = entrants(result)
    for name in names:
        mine = table[table["entrant"] == name]
        shown = mine[mine["contracts"] >= min_contracts].set_index("contract")
        if len(shown):
            sizes = np.arange(int(shown.index.min()), int(shown.index.max()) + 1)
            dense = shown.reindex(sizes)  # NaN where a size is not shown: the joining line breaks there
            ax_rate.plot(sizes, dense["set_rate"], "-", color=colour[name], lw=1.2, label="_nolegend_")
            ax_rate.vlines(shown.index, shown["set_lo"], shown["set_hi"], color=colour[name], lw=2.5, alpha=0.35)
            ax_rate.plot(shown.index, shown["set_rate"], "o", color=colour[name], label=name, ms=4)
        if ax_share is not None:
            ax_share.plot(mine["contract"], mine["share"], "o-", color=colour[name], label=name, ms=4)
    ax_rate.set_ylim(-0.02, 1.02)
    ax_rate.set_ylabel("share of contracts set")
    ax_rate.set_title(f"Sets by contract size (bars: 95% Wilson; sizes bid at least {min_contracts} times)"
                      + (f"\n{caption(result)}" if made else ""), fontsize=10)  # fmt: skip
    legend(ax_rate, title="entrant", fontsize=8, loc="lower right")
    who = "partnership's bids added up" if team else "player's bid"
    xlabel = f"side contract (tricks; the {who}, nil bids left out)"
    for panel in (ax_rate, ax_share):
        if panel is not None:
            panel.axvline(13, color="gray", lw=0.8, ls="--", label="13 tricks in a hand" if panel is ax_rate else None)
            panel.xaxis.set_major_locator(MaxNLocator(integer=True))
    if ax_share is not None:
        ax_share.set_ylabel("share of the entrant's contracts")
        ax_share.set_xlabel(xlabel)
    else:
        ax_rate.set_xlabel(xlabel)
    return fig


NIL_COLOURS = ("#2e7d32", "#f9a825", "#ef6c00", "#c62828")
"""Made, then broken by 1, 2, 3+ tricks: green to red."""


def nil_outcomes(source: Source, ax: AxesArg = None) -> Figure:
    """What became of each entrant's nil bids (made, or broken by how many tricks) and how often it bid nil.

    Left: the outcomes as shares of the entrant's nil bids (blind nils included), labelled with the
    count. Right: nil bids per 100 hands of the entrant's side. Needs the hands table (store_hands).
    `ax`: one Axes (the outcomes only) or two (outcomes, frequency).
    """
    result = load(source)
    table = nil_outcome_table(result)
    summary = result.summary.set_index("entrant")
    names = entrants(result)
    team = rules_of(result).players == 4
    fig, axes, made = figure_axes(ax, 2, 11.0, max(3.2, 0.7 * len(names) + 2.0), width_ratios=[3, 2], sharey=True)
    ax_out = axes[0]
    y = np.arange(len(names))
    left = np.zeros(len(names))
    for outcome, shade in zip(NIL_OUTCOMES, NIL_COLOURS):
        rows = table[table["outcome"] == outcome].set_index("entrant").reindex(names)
        share = rows["share"].fillna(0).to_numpy()
        ax_out.barh(y, share, left=left, color=shade, label=outcome)
        left += share
    for i, name in enumerate(names):
        mine = table[table["entrant"] == name]
        bids = int(mine["bids"].sum())
        made_share = float(mine.loc[mine["outcome"] == NIL_OUTCOMES[0], "share"].sum())
        text = f"{bids:,} nil bids,\n{made_share:.0%} made" if bids else "no nil bids"
        ax_out.annotate(text, (1.0, y[i]), xytext=(4, 0), textcoords="offset points", va="center", fontsize=8)
    ax_out.set_yticks(y, names)
    ax_out.invert_yaxis()
    ax_out.set_xlim(0, 1.22)
    ax_out.set_xticks(np.linspace(0, 1, 6))
    ax_out.set_xlabel("share of the entrant's nil bids")
    ax_out.set_ylabel("entrant")
    ax_out.set_title("Nil outcomes (tricks taken by the nil bidder)", fontsize=10)
    legend(ax_out, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=4, fontsize=8, title="outcome of the nil")
    if made:
        fig.suptitle(f"Nil bids\n{caption(result)}", fontsize=10)
    if len(axes) == 1:
        return fig
    ax_freq = axes[1]
    per_100 = 100 * summary.reindex(names)["nil_bids_per_hand"].to_numpy(dtype=float)
    ax_freq.barh(y, per_100, color=[colours(result)[n] for n in names])
    for i, value in enumerate(per_100):
        ax_freq.annotate(f"{value:.1f}", (value, y[i]), xytext=(3, 0), textcoords="offset points", va="center",
                         fontsize=8)  # fmt: skip
    ax_freq.set_xlabel(f"nil bids per 100 hands ({'both partners' if team else 'the player'})")
    ax_freq.set_xlim(0, max(1.0, float(np.nanmax(per_100)) * 1.2) if len(per_100) else 1.0)
    ax_freq.set_title("How often the entrant bids nil", fontsize=10)
    return fig
