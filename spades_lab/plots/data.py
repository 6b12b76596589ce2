"""The tidy frames behind the plots, derived from a tournament's tables.

The hands table is wide (one row per hand, `bid0..bid3`, `score_after0/1`, ...) and names no
entrant: which entrant sat on a side follows from the hand's pairing and seating, as planned in
the manifest's chunk list. These functions turn it into long frames (one row per hand and seat,
or per hand and side) that carry the entrant's name, so every plot groups by entrant the same
way, and a notebook can group by anything else (bid size, bags carried in) with plain pandas.
Contracts and sets come from the engine's own scoring, as in the tournament's summary, so the
numbers here add up to the summary's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from spades_lab.engine.scoring import score_hands, side_seats
from spades_lab.rules import Rules
from spades_lab.stats.intervals import wilson
from spades_lab.tournament import TournamentError, TournamentResult

Source = TournamentResult | str | Path
"""A tournament result, or the output directory of a finished tournament."""


class HandsRequired(TournamentError):
    """A plot or table needs the per-hand table, and the tournament did not keep one."""


def load(source: Source) -> TournamentResult:
    """The result itself, or the finished tournament read from its directory."""
    if isinstance(source, TournamentResult):
        return source
    return TournamentResult.load(source)


def rules_of(result: TournamentResult) -> Rules:
    return Rules.from_dict(result.manifest["config"]["rules"])


def entrants(result: TournamentResult) -> list[str]:
    """Entrant names in the tournament's order (the order of its summary)."""
    return list(result.manifest["config"]["entrants"])


def require_hands(result: TournamentResult, what: str) -> pd.DataFrame:
    """The hands table, or an error saying that `what` needs a run with store_hands on."""
    if not result.manifest["config"].get("store_hands", False):
        raise HandsRequired(
            f"{what} needs the per-hand table, but the tournament in {result.out} ran with store_hands=False"
            " (--no-hands); run it again with store_hands=True (without --no-hands) to draw it"
        )
    return result.hands


def side_entrants(result: TournamentResult) -> pd.DataFrame:
    """Which entrant sat on each side of each (pairing, seating): pairing, seating, side, entrant, opponent.

    Derived from the manifest's chunk list (side0 holds seats 0+2, side1 seats 1+3; in Duel seat 0
    and seat 1), since the hands table itself names no entrant.
    """
    names = entrants(result)
    rows = {}
    for chunk in result.manifest["chunks"]:
        pairing, seating = int(chunk["pairing"]), int(chunk["seating"])
        first, second = names[int(chunk["side0"])], names[int(chunk["side1"])]
        rows[(pairing, seating, 0)] = (first, second)
        rows[(pairing, seating, 1)] = (second, first)
    keys = sorted(rows)
    return pd.DataFrame(
        {
            "pairing": [k[0] for k in keys],
            "seating": [k[1] for k in keys],
            "side": [k[2] for k in keys],
            "entrant": pd.Categorical([rows[k][0] for k in keys], categories=names),
            "opponent": pd.Categorical([rows[k][1] for k in keys], categories=names),
        }
    )


def _label_sides(frame: pd.DataFrame, result: TournamentResult) -> pd.DataFrame:
    """Add entrant and opponent columns to rows carrying pairing, seating and side."""
    lookup = side_entrants(result)
    return frame.merge(lookup, on=["pairing", "seating", "side"], how="left", sort=False, validate="many_to_one")


def seat_hands(result: TournamentResult) -> pd.DataFrame:
    """One row per hand and seat: pairing, seating, game, hand, seat, side, entrant, opponent, bid, tricks,
    blind, nil (a nil or blind nil bid) and error (bid minus tricks taken; meaningful for non-nil bids)."""
    hands = require_hands(result, "a per-seat table")
    players = rules_of(result).players
    n = len(hands)
    keys = {k: np.repeat(hands[k].to_numpy(), players) for k in ("pairing", "seating", "game", "hand")}
    seat = np.tile(np.arange(players), n)
    bids = hands[[f"bid{s}" for s in range(players)]].to_numpy(dtype=np.int64).reshape(-1)
    tricks = hands[[f"tricks{s}" for s in range(players)]].to_numpy(dtype=np.int64).reshape(-1)
    blind = hands[[f"blind{s}" for s in range(players)]].to_numpy(dtype=bool).reshape(-1)
    frame = pd.DataFrame(
        {
            **keys,
            "seat": seat,
            "side": seat % 2,
            "bid": bids,
            "tricks": tricks,
            "blind": blind,
            "nil": bids == 0,
            "error": bids - tricks,
        }  # fmt: skip
    )
    return _label_sides(frame, result)


def side_hands(result: TournamentResult) -> pd.DataFrame:
    """One row per hand and side, as the engine scored it.

    Columns: pairing, seating, game, hand, side, entrant, opponent; contract (the side's non-nil
    bids added up; 0 when every bidder of the side bid nil), contract_tricks (tricks counting toward
    it), has_contract, set (had a contract and missed it); nil_bids, nils_made; score_before,
    bags_before (carried into the hand), bags_won (taken in it), bag_penalties, hand_score,
    score_after.
    """
    hands = require_hands(result, "a per-side table")
    rules = rules_of(result)
    players = rules.players
    bids = hands[[f"bid{s}" for s in range(players)]].to_numpy(dtype=np.int64)
    tricks = hands[[f"tricks{s}" for s in range(players)]].to_numpy(dtype=np.int64)
    blind = hands[[f"blind{s}" for s in range(players)]].to_numpy(dtype=bool)
    bags_before = hands[["bags_before0", "bags_before1"]].to_numpy(dtype=np.int64)
    scored = score_hands(rules, bids, tricks, bags_before, blind)
    seats = side_seats(players)
    nil = bids[:, seats] == 0
    side_tricks = tricks[:, seats]
    per_side = {
        "contract": scored.contract,
        "contract_tricks": scored.contract_tricks,
        "has_contract": scored.has_contract,
        "set": scored.set,
        "nil_bids": nil.sum(axis=2),
        "nils_made": (nil & (side_tricks == 0)).sum(axis=2),
    }
    n = len(hands)
    frame = pd.DataFrame({k: np.repeat(hands[k].to_numpy(), 2) for k in ("pairing", "seating", "game", "hand")})
    frame["side"] = np.tile(np.arange(2), n)
    for name, values in per_side.items():
        frame[name] = np.asarray(values).reshape(-1)
    for name in ("score_before", "bags_before", "bags_won", "bag_penalties", "hand_score", "score_after"):
        frame[name] = hands[[f"{name}0", f"{name}1"]].to_numpy().reshape(-1)
    return _label_sides(frame, result)


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
    table = rate_table(side_hands(result), ["entrant", "contract"], "set", trials="has_contract")
    table = table.rename(columns={"trials": "contracts", "hits": "sets", "rate": "set_rate", "lo": "set_lo",
                                  "hi": "set_hi"})  # fmt: skip
    table["share"] = table["contracts"] / table.groupby("entrant", observed=True)["contracts"].transform("sum")
    return table


def bid_error_shares(result: TournamentResult) -> pd.DataFrame:
    """Per entrant and bid error (bid minus tricks taken, non-nil bids only): bids and share of the entrant's."""
    seats = seat_hands(result)
    counts = seats[~seats["nil"]].groupby(["entrant", "error"], observed=True).size().rename("bids").reset_index()
    counts["share"] = counts["bids"] / counts.groupby("entrant", observed=True)["bids"].transform("sum")
    return counts


NIL_OUTCOMES = ("made (0 tricks)", "broken by 1 trick", "broken by 2 tricks", "broken by 3+ tricks")


def nil_outcome_table(result: TournamentResult) -> pd.DataFrame:
    """Per entrant and outcome of its nil bids (blind nils included): bids and share of the entrant's nil bids.

    Every entrant and outcome appears, with 0 bids where there were none, so a plot shows an entrant
    that never bid nil rather than leaving it out.
    """
    seats = seat_hands(result)
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
