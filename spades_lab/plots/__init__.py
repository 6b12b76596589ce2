"""Plots of a tournament: each takes a TournamentResult or its directory and returns a matplotlib Figure.

Figures are drawn by Agg without pyplot (see `style`), so they never leak into pyplot's state.
Plots reading per-hand data (set_rate_by_contract, bid_errors, score_trajectories, nil_outcomes,
dd_bid_error) raise `HandsRequired` for a run made with store_hands=False (dd_bid_error raises its
subclass `DDRequired` for a run without dd=True); the rest read the per-game tables.
`write_all` writes them all as PNG, SVG or PDF (`spades-lab plot DIR --format svg`). Every plot takes
`ax=` (one Axes for its main panel, or one per panel) to draw into a figure of your own, and every
entrant keeps one colour in every figure (`style.entrant_colour`). The frames behind them (`set_rates`,
...) are in `spades_lab.plots.data`; the tidy per-seat and per-side tables are `TournamentResult.seat_hands()`
and `.side_hands()`.
"""

from spades_lab.plots.bidding import bid_errors, bid_totals
from spades_lab.plots.data import DDRequired, HandsRequired, load, seat_hands, side_hands
from spades_lab.plots.dd import dd_bid_error
from spades_lab.plots.export import DD_PLOTS, PLOTS, write_all
from spades_lab.plots.games import bags, score_trajectories
from spades_lab.plots.matchups import matchups
from spades_lab.plots.outcomes import nil_outcomes, set_rate_by_contract, win_rates

__all__ = [
    "DD_PLOTS", "PLOTS", "DDRequired", "HandsRequired", "bags", "bid_errors", "bid_totals", "dd_bid_error", "load", "matchups", "nil_outcomes", "score_trajectories",
    "seat_hands", "set_rate_by_contract", "side_hands", "win_rates", "write_all",
]  # fmt: skip
