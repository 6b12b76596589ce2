"""Turning per-game rows into the tournament tables: totals per matchup, rates and intervals.

Totals are kept as integer sums per (entrant, opponent) and added chunk by chunk, so a tournament
of any size is summarised in constant memory and the figures are identical however the games
were chunked. Rates are computed once, at the end, from the totals.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from spades_lab.stats.intervals import mean_interval, wilson
from spades_lab.stats.tally import DD_SUMS, SIDE_SUMS, GameTally

TOTALS = ("games", "finished", "wins", "unfinished", "hands", "points", *SIDE_SUMS, *DD_SUMS)
"""Integer totals kept per (entrant, opponent); every reported figure derives from them (the DD sums stay 0
for a run that did not solve its deals)."""


def game_totals(games: pd.DataFrame) -> pd.DataFrame:
    """Totals per (entrant, opponent) of some `games` rows (one row per game and side)."""
    frame = pd.DataFrame(
        {
            "entrant": games["entrant"].astype(str),
            "opponent": games["opponent"].astype(str),
            "games": 1,
            "finished": (games["won"] | games["lost"]).astype(np.int64),
            "wins": games["won"].astype(np.int64),
            "unfinished": games["unfinished"].astype(np.int64),
            "hands": games["hands"],
            "points": games["score"],
            **{k: games[k] for k in SIDE_SUMS},
            **{k: games[k] if k in games.columns else np.int64(0) for k in DD_SUMS},
        }
    )
    return frame.groupby(["entrant", "opponent"], sort=False)[list(TOTALS)].sum()


def tally_totals(tally: GameTally, names: tuple[str, str]) -> dict[tuple[str, str], np.ndarray]:
    """`game_totals` of `tally.frame(names, ...)`, straight from the tally's arrays: what a worker
    sends with a finished chunk so the summary needs no second read of its games file."""
    out = {}
    for side, (entrant, opponent) in enumerate((names, names[::-1])):
        row = [len(tally.hands), int(np.count_nonzero(tally.winner >= 0)), int(np.count_nonzero(tally.winner == side)),
               int(np.count_nonzero(tally.unfinished)), int(tally.hands.sum()), int(tally.score[:, side].sum()),
               *(int(tally.sums[k][:, side].sum()) for k in SIDE_SUMS),
               *(int(tally.sums[k][:, side].sum()) if k in tally.sums else 0 for k in DD_SUMS)]  # fmt: skip
        out[(entrant, opponent)] = np.array(row, dtype=np.int64)
    return out


class MatchupTotals:
    """Running integer totals per (entrant, opponent), and per matchup the table bid total histogram."""

    def __init__(self) -> None:
        self.totals: dict[tuple[str, str], np.ndarray] = {}
        self.bid_totals: dict[tuple[str, str], np.ndarray] = {}

    def add_games(self, games: pd.DataFrame) -> None:
        totals = game_totals(games)
        for key, row in zip(totals.index, totals.to_numpy(dtype=np.int64)):
            self.totals[key] = self.totals.get(key, np.zeros(len(TOTALS), dtype=np.int64)) + row

    def add_totals(self, totals: dict[tuple[str, str], np.ndarray]) -> None:
        """Totals already summed per (entrant, opponent) (`tally_totals`)."""
        for key, row in totals.items():
            self.totals[key] = self.totals.get(key, np.zeros(len(TOTALS), dtype=np.int64)) + row

    def add_bid_totals(self, entrants: tuple[str, str], histogram: np.ndarray) -> None:
        """A seating's histogram counts once for each side's entrant, against the other."""
        for key in (entrants, entrants[::-1]):
            old = self.bid_totals.get(key)
            if old is None:
                self.bid_totals[key] = histogram.astype(np.int64).copy()
            else:
                size = max(len(old), len(histogram))
                self.bid_totals[key] = np.pad(old, (0, size - len(old))) + np.pad(histogram, (0, size - len(histogram)))

    def frame(self, order: Sequence[str]) -> pd.DataFrame:
        """Totals per (entrant, opponent) in the entrants' order."""
        rank = {name: i for i, name in enumerate(order)}
        keys = sorted(self.totals, key=lambda k: (rank[k[0]], rank[k[1]]))
        data = np.array([self.totals[k] for k in keys], dtype=np.int64).reshape(len(keys), len(TOTALS))
        frame = pd.DataFrame(data, columns=list(TOTALS))
        frame.insert(0, "opponent", [k[1] for k in keys])
        frame.insert(0, "entrant", [k[0] for k in keys])
        return frame


def _ratio(num: pd.Series, den: pd.Series) -> pd.Series:
    return (num / den.where(den > 0)).astype(float)


def rates(totals: pd.DataFrame) -> pd.DataFrame:
    """The reported figures from totals: one output row per input row, keys kept in front."""
    keys = [c for c in totals.columns if c not in TOTALS]
    t = totals
    low, high = wilson(t["wins"], t["finished"])
    out = t[keys].copy()
    out["games"] = t["games"]
    out["finished"] = t["finished"]
    out["wins"] = t["wins"]
    out["win_rate"] = _ratio(t["wins"], t["finished"])
    out["win_lo"] = low
    out["win_hi"] = high
    out["unfinished"] = t["unfinished"]
    out["hands"] = t["hands"]
    out["hands_per_game"] = _ratio(t["hands"], t["games"])
    out["points_per_hand"] = _ratio(t["points"], t["hands"])
    out["sets"] = t["sets"]
    out["set_rate"] = _ratio(t["sets"], t["hands"])
    out["set_rate_per_contract"] = _ratio(t["sets"], t["contracts"])
    out["nil_bids"] = t["nil_bids"]
    out["nil_bids_per_hand"] = _ratio(t["nil_bids"], t["hands"])
    out["nil_success"] = _ratio(t["nils_made"], t["nil_bids"])
    out["blind_nils"] = t["blind_nils"]
    out["blind_nil_success"] = _ratio(t["blind_nils_made"], t["blind_nils"])
    out["bags_per_hand"] = _ratio(t["bags_won"], t["hands"])
    out["bag_penalties_per_game"] = _ratio(t["bag_penalties"], t["games"])
    out["seat_bid_error"] = _ratio(t["seat_bid_err"], t["seat_bids"])
    out["seat_bid_abs_error"] = _ratio(t["seat_bid_abs"], t["seat_bids"])
    out["seat_bid_exact"] = _ratio(t["seat_bid_exact"], t["seat_bids"])
    out["team_bid_error"] = _ratio(t["team_bid_err"], t["team_bids"])
    out["team_bid_abs_error"] = _ratio(t["team_bid_abs"], t["team_bids"])
    out["team_bid_exact"] = _ratio(t["team_bid_exact"], t["team_bids"])
    out["table_bid_total"] = _ratio(t["table_bid_total"], t["hands"])
    if "dd_hands" in t.columns and (t["dd_hands"] > 0).any():
        dd_rates(t, out)
    return out.reset_index(drop=True)


def dd_rates(t: pd.DataFrame, out: pd.DataFrame) -> None:
    """The double-dummy columns (runs with dd=True), per hand and side, with 95% normal intervals on the mean.

    Hands of one game are treated as independent draws; in runs of single hands they are.
    """
    out["dd_hands"] = t["dd_hands"]
    out["dd_tricks"] = _ratio(t["dd_tricks"], t["dd_hands"])
    mean, low, high = mean_interval(t["dd_bids"], t["dd_bid_err"], t["dd_bid_err_sq"])
    out["dd_bid_error"], out["dd_bid_error_lo"], out["dd_bid_error_hi"] = mean, low, high
    out["dd_bid_abs_error"] = _ratio(t["dd_bid_abs"], t["dd_bids"])
    mean, low, high = mean_interval(t["dd_hands"], t["dd_tricks_lost"], t["dd_tricks_lost_sq"])
    out["dd_tricks_lost"], out["dd_tricks_lost_lo"], out["dd_tricks_lost_hi"] = mean, low, high


def summary_table(totals: pd.DataFrame, order: Sequence[str]) -> pd.DataFrame:
    """One row per entrant, over all its matchups, in the given entrant order."""
    per_entrant = totals.drop(columns="opponent").groupby("entrant", sort=False).sum()
    per_entrant = per_entrant.reindex([n for n in order if n in per_entrant.index]).reset_index()
    return rates(per_entrant)


PAIRED = ("pairs", "win_diff2", "win_diff2_sq", "margin2", "margin2_sq")
"""Duplicate sums per matchup, in units of two tables: a deal's win difference (A's wins minus
B's over its two tables, -2..2) and score margin (A minus B, added over both tables)."""


class PairedTotals:
    """Duplicate deals compared: the same game id played with the partnerships swapped."""

    def __init__(self) -> None:
        self.sums: dict[tuple[str, str], np.ndarray] = {}

    def add(self, first: str, seating0: pd.DataFrame, seating1: pd.DataFrame) -> None:
        """Games rows of the same game ids, `first` on side 0 in seating0 and on side 1 in seating1."""
        a0 = seating0[seating0["entrant"].astype(str) == first].set_index("game")
        a1 = seating1[seating1["entrant"].astype(str) == first].set_index("game")
        if not a0.index.equals(a1.index):
            raise ValueError("duplicate seatings hold different game ids")
        win = (a0["won"].astype(np.int64) - a0["lost"].astype(np.int64)) + (
            a1["won"].astype(np.int64) - a1["lost"].astype(np.int64)
        )
        margin = (a0["score"] - a0["opp_score"]) + (a1["score"] - a1["opp_score"])
        second = str(a0["opponent"].iloc[0]) if len(a0) else ""
        row = np.array([len(win), win.sum(), (win * win).sum(), margin.sum(), (margin * margin).sum()], dtype=np.int64)
        key = (first, second)
        self.sums[key] = self.sums.get(key, np.zeros(len(PAIRED), dtype=np.int64)) + row

    def frame(self) -> pd.DataFrame:
        """Paired figures per (entrant, opponent), both directions (the second is the first negated).

        paired_win_diff: per deal, the entrant's win rate minus the opponent's over its two tables
        (an unfinished game counts for neither); paired_margin: per deal, the entrant's final score
        minus the opponent's, averaged over the two tables.
        """
        rows = []
        for (first, second), (n, w, ww, m, mm) in self.sums.items():
            for entrant, opponent, sign in ((first, second, 1), (second, first, -1)):
                win = mean_interval(n, sign * w / 2, ww / 4)
                margin = mean_interval(n, sign * m / 2, mm / 4)
                rows.append(
                    {
                        "entrant": entrant, "opponent": opponent, "paired_deals": int(n),
                        # a win-rate difference lies in [-1, 1]; the normal interval is clipped to it
                        "paired_win_diff": float(win[0]), "paired_win_lo": max(float(win[1]), -1.0),
                        "paired_win_hi": min(float(win[2]), 1.0),
                        "paired_margin": float(margin[0]), "paired_margin_lo": float(margin[1]),
                        "paired_margin_hi": float(margin[2]),
                    }
                )  # fmt: skip
        return pd.DataFrame(rows)


def matchup_table(totals: pd.DataFrame, paired: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per (entrant, opponent) with the entrant's figures; duplicate columns when paired."""
    table = rates(totals)
    if paired is not None and len(paired):
        table = table.merge(paired, on=["entrant", "opponent"], how="left")
    return table


def bid_total_table(matchups: MatchupTotals, order: Sequence[str]) -> pd.DataFrame:
    """Long table of the table bid total distribution: per (entrant, opponent), hands at each total."""
    rank = {name: i for i, name in enumerate(order)}
    rows = []
    for key in sorted(matchups.bid_totals, key=lambda k: (rank[k[0]], rank[k[1]])):
        hist = matchups.bid_totals[key]
        total = hist.sum()
        for value in np.flatnonzero(hist):
            rows.append({"entrant": key[0], "opponent": key[1], "bid_total": int(value), "hands": int(hist[value]),
                         "share": hist[value] / total})  # fmt: skip
    return pd.DataFrame(rows, columns=["entrant", "opponent", "bid_total", "hands", "share"])
