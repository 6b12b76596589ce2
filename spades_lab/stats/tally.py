"""Per-game sums of what happened in each hand, per side: the rows of a tournament's `games` table.

Every statistic a tournament reports is a ratio of two sums (sets per hand, nils made per nil bid,
bid error per non-nil bid, ...). Summing per game and per side keeps one row per game, which is
small enough to store for every game, and adding those rows up gives exactly the same totals
however the games were split into chunks, batches or workers: integer sums do not depend on order.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numba import njit

from spades_lab.engine import HandLog
from spades_lab.engine.scoring import score_hands, side_seats
from spades_lab.rules import Rules

SIDE_SUMS = (
    "sets", "contracts", "nil_bids", "nils_made", "blind_nils", "blind_nils_made", "bags_won", "bag_penalties",
    "seat_bids", "seat_bid_err", "seat_bid_abs", "seat_bid_exact",
    "team_bids", "team_bid_err", "team_bid_abs", "team_bid_exact", "table_bid_total",
)  # fmt: skip
"""Per hand and side, summed over a game's hands (see `side_measures` for each meaning)."""

DD_SUMS = (
    "dd_hands", "dd_tricks", "dd_tricks_lost", "dd_tricks_lost_sq", "dd_bids", "dd_bid_err", "dd_bid_err_sq",
    "dd_bid_abs",
)  # fmt: skip
"""Per hand and side against double-dummy truth, summed over a game's hands (see `dd_measures`); kept only by
runs that solved their deals (dd=True)."""


def entrant_columns(values: np.ndarray) -> np.ndarray:
    """[n, sides] per side -> [n, 2] per entrant (seats 0+2 and 1+3, where a pairing seats its entrants).

    In partnership games and Duel a side is an entrant's already. In cutthroat (four sides, one per
    seat) an entrant holds seats s and s + 2, so its figure is the sum of its two players' figures,
    as a partnership's is the sum of its two partners' contributions.
    """
    values = np.asarray(values)
    if values.shape[1] == 2:
        return values
    folded: np.ndarray = values[:, [0, 1]] + values[:, [2, 3]]
    return folded


def side_measures(log: HandLog, rules: Rules) -> dict[str, np.ndarray]:
    """Each SIDE_SUMS quantity for every hand of a log, as an [n, sides] int64 array (one column per side:
    2, or 4 players in cutthroat).

    - sets / contracts: the side had a contract (some non-nil bid) and was set / had one at all.
    - nil_bids, nils_made, blind_nils, blind_nils_made: nil bids of the side and those that took no trick.
    - seat_bid_*: over the side's non-nil bidders, bid minus own tricks (sum, sum of absolute values,
      exact count; seat_bids counts the bids).
    - team_bid_*: over sides with a contract, the contract minus the tricks that count toward it.
    - table_bid_total: the sum of every seat's bid at the table (the same for both sides).
    The contract and whether it was made come from the engine's own scoring, so a rules variant
    (nil tricks to the partner, big contracts) is measured as it was scored.
    """
    seats = side_seats(log.bids.shape[1], rules.partnerships)
    result = score_hands(rules, log.bids, log.tricks, log.bags_before, log.blind)
    bids = log.bids[:, seats].astype(np.int64)
    tricks = log.tricks[:, seats].astype(np.int64)
    nil = bids == 0
    blind = log.blind[:, seats] & nil  # blind nils (a blind number bid is flagged blind too)
    contract, contract_tricks, has_contract = result.contract, result.contract_tricks, result.has_contract
    bid_err = np.where(nil, 0, bids - tricks)
    team_err = np.where(has_contract, contract - contract_tricks, 0)
    table_total = log.bids.sum(axis=1).astype(np.int64)
    measures = {
        "sets": result.set,
        "contracts": has_contract,
        "nil_bids": nil.sum(axis=2),
        "nils_made": (nil & (tricks == 0)).sum(axis=2),
        "blind_nils": blind.sum(axis=2),
        "blind_nils_made": (blind & (tricks == 0)).sum(axis=2),
        "bags_won": log.bags_won,
        "bag_penalties": log.bag_penalties,
        "seat_bids": (~nil).sum(axis=2),
        "seat_bid_err": bid_err.sum(axis=2),
        "seat_bid_abs": np.abs(bid_err).sum(axis=2),
        "seat_bid_exact": (~nil & (bids == tricks)).sum(axis=2),
        "team_bids": has_contract,
        "team_bid_err": team_err,
        "team_bid_abs": np.abs(team_err),
        "team_bid_exact": has_contract & (team_err == 0),
        "table_bid_total": np.repeat(table_total[:, None], len(seats), axis=1),
    }
    # row-major once here: each tally a batch feeds reads them row by row (`GameTally.add`)
    return {k: np.ascontiguousarray(v, dtype=np.int64) for k, v in measures.items()}


def dd_measures(log: HandLog, rules: Rules) -> dict[str, np.ndarray]:
    """Each DD_SUMS quantity for every hand of a log solved double dummy (`log.dd_tricks` set), as [n, 2] int64.

    - dd_hands: 1 per hand and side; dd_tricks: the side's DD tricks (the most the partnership can
      take together against best defence, from the cards held at the first lead).
    - dd_tricks_lost (and its square): DD tricks minus the tricks the side took. The defence may err
      too, so a hand can give a negative value; over both sides of a hand the two values cancel.
    - dd_bids, dd_bid_err (and its square), dd_bid_abs: over sides with a contract (the engine's:
      the side's non-nil bids added up), the contract minus the side's DD tricks (> 0 overbid).
      A nil bidder's partner bids alone against the whole side's DD tricks, nil bidder included:
      a side with a nil bid shows how its bid compares with what the two hands could take.
    """
    if log.dd_tricks is None:
        raise ValueError("this hand log was not solved double dummy (run with dd=True, or spades_lab.dd.with_dd)")
    result = score_hands(rules, log.bids, log.tricks, log.bags_before, log.blind)
    seats = side_seats(log.bids.shape[1])
    taken = log.tricks[:, seats].astype(np.int64).sum(axis=2)
    dd = np.asarray(log.dd_tricks, dtype=np.int64)
    lost = dd - taken
    has = np.asarray(result.has_contract, dtype=bool)
    err = np.where(has, np.asarray(result.contract, dtype=np.int64) - dd, 0)
    measures = {
        "dd_hands": np.ones_like(dd),
        "dd_tricks": dd,
        "dd_tricks_lost": lost,
        "dd_tricks_lost_sq": lost * lost,
        "dd_bids": has,
        "dd_bid_err": err,
        "dd_bid_err_sq": err * err,
        "dd_bid_abs": np.abs(err),
    }
    return {k: np.ascontiguousarray(v, dtype=np.int64) for k, v in measures.items()}  # one layout for `_add_rows`


@njit(cache=True)
def _add_rows(sums: np.ndarray, row: np.ndarray, hands: np.ndarray, values: tuple[np.ndarray, ...]) -> None:
    """sums[k, row[i]] += values[k][hands[i]] for every measure k and hand i (rows may repeat): one
    pass in compiled code, where 17 `np.add.at` calls per hand batch cost a tenth of a tournament."""
    for k in range(len(values)):
        v = values[k]
        for i in range(row.shape[0]):
            h = hands[i]
            sums[k, row[i], 0] += v[h, 0]
            sums[k, row[i], 1] += v[h, 1]


class GameTally:
    """Sums for the games lo..hi-1 of one seating, fed hand logs in any order and any batching.

    `single_hands` is for runs of independent hands (each game id is one hand from 0-0, which
    ends it whatever the score). Sums are per entrant (`entrant_columns`): in cutthroat an entrant's
    two seats are added up, its score is its two players' totals added, and it wins a game when one
    of its two players finishes first.
    """

    def __init__(self, rules: Rules, lo: int, hi: int, single_hands: bool = False, dd: bool = False) -> None:
        n = hi - lo
        self.rules, self.lo, self.hi, self.single_hands, self.dd = rules, lo, hi, single_hands, dd
        self.keys = SIDE_SUMS + (DD_SUMS if dd else ())
        self._sums = np.zeros((len(self.keys), n, 2), dtype=np.int64)
        self.sums = {k: self._sums[i] for i, k in enumerate(self.keys)}
        self.hands = np.zeros(n, dtype=np.int64)
        self.score = np.zeros((n, 2), dtype=np.int64)
        self.bags = np.zeros((n, 2), dtype=np.int64)
        self.winner = np.full(n, -1, dtype=np.int64)
        self.unfinished = np.zeros(n, dtype=bool)
        self.ended = np.zeros(n, dtype=bool)
        self.bid_totals = np.zeros(rules.tricks * rules.players + 1, dtype=np.int64)
        """Histogram of the table bid total over every hand of these games."""

    def add(self, log: HandLog, rows: np.ndarray | None = None, measures: dict[str, np.ndarray] | None = None) -> None:
        """Add the hands of `log` (only its `rows`, if given: a batch holding other games too).

        `measures` are `side_measures(log, rules)` when the caller has them already (one batch
        feeding several tallies computes them once)."""
        if measures is None:
            measures = side_measures(log, self.rules)

        def pick(array: np.ndarray) -> np.ndarray:
            return array if rows is None else array[rows]

        row = np.asarray(pick(log.game), dtype=np.int64) - self.lo
        if len(row) and (row.min() < 0 or row.max() >= len(self.hands)):
            raise ValueError(f"hand log holds games outside {self.lo}..{self.hi - 1}")
        if self.dd and "dd_hands" not in measures:
            measures = {**measures, **dd_measures(log, self.rules)}
        hands = np.arange(len(log), dtype=np.int64) if rows is None else np.asarray(rows, dtype=np.int64)
        per_entrant = tuple(
            np.ascontiguousarray(measures[k][:, :2] if k == "table_bid_total" else entrant_columns(measures[k]))
            for k in self.keys
        )
        _add_rows(self._sums, row, hands, per_entrant)
        np.add.at(self.hands, row, 1)
        totals = pick(log.bids).sum(axis=1)
        self.bid_totals += np.bincount(totals, minlength=len(self.bid_totals))[: len(self.bid_totals)]
        last = np.ones(len(row), dtype=bool) if self.single_hands else pick(log.game_over | log.unfinished)
        ended = row[last]
        self.score[ended] = entrant_columns(pick(log.score_after)[last])
        self.bags[ended] = entrant_columns(pick(log.bags_after)[last])
        winner = pick(log.winner)[last]
        self.winner[ended] = np.where(winner >= 0, winner % 2, -1)  # the entrant of the winning side
        self.unfinished[ended] = pick(log.unfinished)[last]
        self.ended[ended] = True

    def frame(self, names: tuple[str, str], categories: list[str]) -> pd.DataFrame:
        """The long `games` rows: one per game and side, in (game, side) order.

        `names` are the entrants on side 0 and side 1; `categories` every entrant of the
        tournament, so that every chunk's table has the same categorical columns.
        """
        if not self.ended.all():
            missing = np.flatnonzero(~self.ended)[:5] + self.lo
            raise ValueError(f"games {missing.tolist()} (and maybe more) have no final hand in the logs")
        n = len(self.hands)
        game = np.repeat(np.arange(self.lo, self.hi, dtype=np.int64), 2)
        side = np.tile(np.array([0, 1], dtype=np.int64), n)
        other = 1 - side
        winner = np.repeat(self.winner, 2)
        entrant = np.array(names, dtype=object)
        data = {
            "game": game,
            "side": side,
            "entrant": pd.Categorical(entrant[side], categories=categories),
            "opponent": pd.Categorical(entrant[other], categories=categories),
            "hands": np.repeat(self.hands, 2),
            "score": self.score.reshape(-1),
            "opp_score": self.score[:, ::-1].reshape(-1),
            "bags": self.bags.reshape(-1),
            "won": winner == side,
            "lost": winner == other,
            "unfinished": np.repeat(self.unfinished, 2),
        }
        data.update({k: v.reshape(-1) for k, v in self.sums.items()})
        return pd.DataFrame(data)
