"""The frames behind the plots, derived from a tournament's tidy tables (`spades_lab.tournament.tidy`).

Every plot groups by entrant through the same long tables (`TournamentResult.seat_hands()` and
`.side_hands()`), so a notebook can regroup by anything else (bid size, bags carried in) with pandas.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from spades_lab.stats.intervals import wilson
from spades_lab.tournament import TournamentResult, tidy
from spades_lab.tournament.tidy import HandsRequired, entrants, require_hands, rules_of, side_entrants

__all__ = [
    "DDRequired", "HandsRequired", "Source", "bid_error_shares", "bid_total_shares", "dd_error_shares", "entrants",
    "load", "nil_outcome_table",
    "per_game_counts", "rate_table", "require_hands", "rules_of", "seat_hands", "set_rates", "side_entrants",
    "side_hands",
]  # fmt: skip

Source = TournamentResult | str | Path
"""A tournament result, or the output directory of a finished tournament."""


def load(source: Source) -> TournamentResult:
    """The result itself, or the finished tournament read from its directory."""
    if isinstance(source, TournamentResult):
        return source
    return TournamentResult.load(source)


def seat_hands(result: TournamentResult) -> pd.DataFrame:
    """One row per hand and seat (`TournamentResult.seat_hands`)."""
    return tidy.seat_hands(result)


def side_hands(result: TournamentResult) -> pd.DataFrame:
    """One row per hand and side (`TournamentResult.side_hands`)."""
    return tidy.side_hands(result)


def _cached(result: TournamentResult, key: str, build: Callable[[TournamentResult], pd.DataFrame]) -> pd.DataFrame:
    """A table the plots share, built once per result (several plots read the same millions of rows)."""
    if key not in result._cache:
        result._cache[key] = build(result)
    return result._cache[key]


def _seats(result: TournamentResult) -> pd.DataFrame:
    """The per-seat table without card labels, shared by the plots (do not modify it)."""
    return _cached(result, "plots: seats", lambda r: tidy.seat_table(r, _sides(r), cards=False))


def _sides(result: TournamentResult) -> pd.DataFrame:
    """The per-side table, shared by the plots (do not modify it)."""
    return _cached(result, "plots: sides", tidy.side_hands)


def rate_table(frame: pd.DataFrame, by: list[str], hits: str, trials: str | None = None) -> pd.DataFrame:
    """Per group: trials, hits, rate and its 95% Wilson bounds (lo, hi).

    `hits` is a 0/1 column; `trials` a 0/1 column selecting the rows that count (all rows when None).
    """
    rows = frame if trials is None else frame[frame[trials].astype(bool)]
    grouped = rows.groupby(by, observed=True, sort=True)[hits]
    table = pd.DataFrame({"trials": grouped.size(), "hits": grouped.sum().astype(np.int64)}).reset_index()
    table["rate"] = table["hits"] / table["trials"]
    table["lo"], table["hi"] = wilson(table["hits"], table["trials"])
    return table


def set_rates(result: TournamentResult) -> pd.DataFrame:
    """Per entrant and side contract: contracts bid, sets, set_rate with its Wilson bounds (set_lo, set_hi),
    and share (of the entrant's contracts that were of this size)."""
    table = rate_table(_sides(result), ["entrant", "contract"], "set", trials="has_contract")
    table = table.rename(columns={"trials": "contracts", "hits": "sets", "rate": "set_rate", "lo": "set_lo",
                                  "hi": "set_hi"})  # fmt: skip
    table["share"] = table["contracts"] / table.groupby("entrant", observed=True)["contracts"].transform("sum")
    return table


def bid_error_shares(result: TournamentResult) -> pd.DataFrame:
    """Per entrant and bid error (bid minus tricks taken, non-nil bids only): bids and share of the entrant's."""
    seats = _seats(result)
    bids = ~seats["nil"].to_numpy()
    entrant = seats["entrant"].cat.codes.to_numpy()[bids]
    error = seats["error"].to_numpy()[bids]
    low = int(error.min()) if len(error) else 0
    width = int(error.max()) - low + 1 if len(error) else 1
    names = seats["entrant"].cat.categories
    counts = np.bincount(entrant * width + (error - low), minlength=len(names) * width).reshape(len(names), width)
    who, value = np.nonzero(counts)  # entrant by entrant, errors ascending, as a groupby lists them
    table = pd.DataFrame({"entrant": pd.Categorical.from_codes(who, categories=names), "error": value + low,
                          "bids": counts[who, value]})  # fmt: skip
    table["share"] = table["bids"] / counts.sum(axis=1)[who]
    return table


class DDRequired(HandsRequired):
    """A plot needs the hands' double-dummy tricks, and the tournament did not solve them (dd=False)."""


def dd_error_shares(result: TournamentResult) -> pd.DataFrame:
    """Per measure (dd_bid_error, dd_tricks_lost), entrant and value: count of side-hands and share of the entrant's.

    dd_bid_error counts the hands where the side had a contract; dd_tricks_lost every hand.
    """
    sides = _sides(result)
    if "dd_tricks" not in sides.columns:
        raise DDRequired(
            f"this plot needs double-dummy tricks, but the tournament in {result.out} ran without dd=True;"
            " run it with dd=True (--dd) to draw it"
        )
    parts = []
    for measure in ("dd_bid_error", "dd_tricks_lost"):
        rows = sides[sides[measure].notna()]
        counts = rows.groupby(["entrant", measure], observed=True).size().rename("count").reset_index()
        counts = counts.rename(columns={measure: "value"})
        counts["value"] = counts["value"].astype(np.int64)
        counts["share"] = counts["count"] / counts.groupby("entrant", observed=True)["count"].transform("sum")
        counts.insert(0, "measure", measure)
        parts.append(counts)
    return pd.concat(parts, ignore_index=True)


NIL_OUTCOMES = ("made (0 tricks)", "broken by 1 trick", "broken by 2 tricks", "broken by 3+ tricks")


def nil_outcome_table(result: TournamentResult) -> pd.DataFrame:
    """Per entrant and outcome of its nil bids (blind nils included): bids and share of the entrant's nil bids.

    Every entrant and outcome appears, with 0 bids where there were none, so a plot shows an entrant
    that never bid nil rather than leaving it out.
    """
    seats = _seats(result)
    nils = seats[seats["nil"]]
    outcome = pd.Categorical.from_codes(np.minimum(nils["tricks"].to_numpy(), 3), categories=list(NIL_OUTCOMES))
    counts = pd.crosstab(nils["entrant"], outcome).reindex(index=entrants(result), columns=list(NIL_OUTCOMES),
                                                          fill_value=0)  # fmt: skip
    table = counts.stack().rename("bids").reset_index()
    table.columns = ["entrant", "outcome", "bids"]
    totals = table.groupby("entrant", sort=False)["bids"].transform("sum")
    table["share"] = table["bids"] / totals.where(totals > 0)
    return table


def bid_total_shares(result: TournamentResult) -> pd.DataFrame:
    """Per entrant (over all its opponents) and table bid total: hands and share of the entrant's hands."""
    totals = result.bid_totals.groupby(["entrant", "bid_total"], sort=False)["hands"].sum().reset_index()
    totals["share"] = totals["hands"] / totals.groupby("entrant")["hands"].transform("sum")
    order = {name: i for i, name in enumerate(entrants(result))}
    return totals.sort_values(["entrant", "bid_total"], key=lambda c: c.map(order) if c.name == "entrant" else c,
                              ignore_index=True)  # fmt: skip


def per_game_counts(result: TournamentResult, column: str) -> pd.DataFrame:
    """Per entrant and value of a games-table column (e.g. bag_penalties): games and share of the entrant's."""
    games = result.games
    counts = games.groupby(["entrant", column], observed=True).size().rename("games").reset_index()
    counts = counts[counts["games"] > 0]
    counts["share"] = counts["games"] / counts.groupby("entrant", observed=True)["games"].transform("sum")
    return counts.reset_index(drop=True)
