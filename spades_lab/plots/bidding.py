"""How well entrants bid: each player's bid error, and what the whole table bids."""

from __future__ import annotations

from matplotlib import colormaps
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from spades_lab.plots.data import Source, bid_error_shares, bid_total_shares, entrants, load
from spades_lab.plots.style import AxesArg, caption, colours, figure_axes, legend

TRICKS_PER_HAND = 13
"""In partnership Spades and in Duel alike, 13 tricks are played in a hand."""


def bid_errors(source: Source, ax: AxesArg = None) -> Figure:
    """Distribution of bid minus tricks taken per non-nil bidder, one line per entrant.

    Right of zero the player overbid (the partner must cover it, or the side is set), left of
    zero it underbid (bags). The legend gives the mean error and the share bid exactly, which
    match the summary's seat_bid_error and seat_bid_exact. Needs the hands table (store_hands).
    """
    result = load(source)
    table = bid_error_shares(result)
    summary = result.summary.set_index("entrant")
    colour = colours(result)
    fig, axes, made = figure_axes(ax, 1, 8.5, 4.8)
    ax = axes[0]
    for name in entrants(result):
        mine = table[table["entrant"] == name]
        if mine.empty:
            continue
        label = (
            f"{name} (mean {summary.loc[name, 'seat_bid_error']:+.2f}, exact {summary.loc[name, 'seat_bid_exact']:.0%})"
        )
        ax.plot(mine["error"], mine["share"], "o-", color=colour[name], label=label, ms=4)
    ax.axvline(0, color="gray", lw=0.8, ls="--")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("bid minus tricks taken, per player (tricks; > 0 overbid, < 0 underbid)")
    ax.set_ylabel("share of the entrant's non-nil bids")
    ax.set_title("Bid error per player (nil bids left out)" + (f"\n{caption(result)}" if made else ""), fontsize=10)
    legend(ax, title="entrant (mean error, share exact)", fontsize=8)
    return fig


def bid_totals(source: Source, by: str = "entrant", ax: AxesArg = None) -> Figure:
    """Distribution of the table bid total (all bids at the table added up), per entrant or per pairing.

    A total above the tricks in a hand means someone must be set; far below, the tricks left over
    become bags. Both sides bid into each total, so an entrant's line (`by="entrant"`, over all
    its opponents) also reflects its opponents; `by="pairing"` draws one line per pair of entrants
    instead. Works without the hands table: it reads the tournament's bid_totals table.
    """
    if by not in ("entrant", "pairing"):
        raise ValueError(f"bid_totals draws by 'entrant' or 'pairing', got {by!r}")
    result = load(source)
    colour = colours(result)
    fig, axes, made = figure_axes(ax, 1, 8.5, 4.8)
    ax = axes[0]
    if by == "entrant":
        table = bid_total_shares(result)
        summary = result.summary.set_index("entrant")
        for name in entrants(result):
            mine = table[table["entrant"] == name]
            if not mine.empty:
                label = f"{name} (mean {summary.loc[name, 'table_bid_total']:.1f})"
                ax.plot(mine["bid_total"], mine["share"], "o-", color=colour[name], label=label, ms=4)
        whose, title = "the entrant's hands", "Table bid total in each entrant's games"
    else:
        table = result.bid_totals
        palette = colormaps["tab10"] if len(result.manifest["pairings"]) <= 10 else colormaps["tab20"]
        for index, pairing in enumerate(result.manifest["pairings"]):
            first, second = pairing["entrants"]
            mine = table[(table["entrant"] == first) & (table["opponent"] == second)]
            mean = (mine["bid_total"] * mine["hands"]).sum() / mine["hands"].sum()
            label = f"{first} vs {second} (mean {mean:.1f})"
            ax.plot(mine["bid_total"], mine["share"], "o-", color=palette(index % palette.N), label=label, ms=4)
        whose, title = "the pairing's hands", "Table bid total per pairing"
    ax.axvline(TRICKS_PER_HAND, color="gray", lw=0.8, ls="--", label=f"{TRICKS_PER_HAND} tricks in a hand")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("table bid total (tricks; every bid at the table added up, nil = 0)")
    ax.set_ylabel(f"share of {whose}")
    ax.set_title(title + (f"\n{caption(result)}" if made else ""), fontsize=10)
    legend(ax, title=f"{by} (mean total)", fontsize=8)
    return fig
