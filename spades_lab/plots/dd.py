"""Bids and play against double-dummy truth: how far each entrant's contracts and tricks fall from DD."""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from spades_lab.plots.data import Source, dd_error_shares, entrants, load
from spades_lab.plots.style import AxesArg, caption, colours, figure_axes, legend


def dd_bid_error(source: Source, tricks_lost: bool = True, ax: AxesArg = None) -> Figure:
    """Distribution of DD bid error (side contract minus the side's DD tricks) per entrant, and of DD tricks lost.

    Left: over the hands where the entrant's side had a contract, the share at each error; right of
    zero the side bid more than perfect play could take, left of zero less. Right panel
    (`tricks_lost`): the side's DD tricks minus the tricks it took, over every hand; above zero
    its play (or its nil) gave tricks away, below zero the defence gave it some. The legend means
    match the summary's dd_bid_error and dd_tricks_lost. Needs a run with dd=True and the hands
    table. `ax`: one Axes (the bid error only) or two (bid error, tricks lost).
    """
    result = load(source)
    table = dd_error_shares(result)
    summary = result.summary.set_index("entrant")
    colour = colours(result)
    panels = 2 if tricks_lost else 1
    fig, axes, made = figure_axes(ax, panels, 6.0 * panels + 1.0, 4.8)
    specs = [("dd_bid_error", "contract minus DD tricks, per side (tricks; > 0 overbid)",
              "share of the entrant's contracts", "DD bid error")]  # fmt: skip
    if tricks_lost and len(axes) > 1:
        specs.append(("dd_tricks_lost", "DD tricks minus tricks taken, per side (tricks; > 0 given away)",
                      "share of the entrant's hands", "DD tricks lost"))  # fmt: skip
    for panel, (measure, xlabel, ylabel, title) in zip(axes, specs):
        mine_all = table[table["measure"] == measure]
        for name in entrants(result):
            mine = mine_all[mine_all["entrant"] == name]
            if mine.empty:
                continue
            mean = summary.loc[name, measure]
            panel.plot(mine["value"], mine["share"], "o-", color=colour[name], ms=4,
                       label=f"{name} (mean {mean:+.2f}, n {int(mine['count'].sum()):,})")  # fmt: skip
        panel.axvline(0, color="gray", lw=0.8, ls="--")
        panel.xaxis.set_major_locator(MaxNLocator(integer=True))
        panel.set_xlabel(xlabel)
        panel.set_ylabel(ylabel)
        panel.set_title(title, fontsize=10)
        legend(panel, title="entrant (mean, sides)", fontsize=8)
    if made:
        fig.suptitle(f"Bids and play against double-dummy truth\n{caption(result)}", fontsize=10)
    return fig
