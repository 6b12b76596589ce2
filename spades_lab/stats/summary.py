"""A streaming summary of hand logs: constant memory however many hands are played."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from spades_lab.engine import HandLog
from spades_lab.rules import Rules
from spades_lab.stats.intervals import mean_interval
from spades_lab.stats.tally import DD_SUMS, dd_measures, side_measures


@dataclass
class HandStats:
    """Running totals per side (index 0: seats 0+2, 1: seats 1+3; in Duel and cutthroat, each player:
    the arrays take the log's number of sides at the first `add`)."""

    rules: Rules = field(default_factory=Rules)
    """The rules the hands were played under: sets and contracts are scored by them."""
    hands: int = 0
    players: int = 4
    games_over: int = 0
    games_unfinished: int = 0
    wins: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.int64))
    points: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.int64))
    sets: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.int64))
    contracts: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.int64))
    nil_bids: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.int64))
    nils_made: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.int64))
    bags: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.int64))
    bag_penalties: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.int64))
    bid_total: np.ndarray = field(default_factory=lambda: np.zeros(4 * 13 + 1, dtype=np.int64))
    """Histogram of the four bids' sum at a table."""
    dd: dict[str, np.ndarray] | None = None
    """Per side, the double-dummy sums (stats.tally.DD_SUMS) of logs solved with dd=True; None until one is added."""

    def add(self, log: HandLog) -> None:
        sides = log.hand_score.shape[1]
        if self.hands == 0 and len(self.points) != sides:
            for name in ("wins", "points", "sets", "contracts", "nil_bids", "nils_made", "bags", "bag_penalties"):
                setattr(self, name, np.zeros(sides, dtype=np.int64))
        n = len(log)
        self.hands += n
        over = log.game_over
        self.games_over += int(over.sum())
        self.games_unfinished += int(log.unfinished.sum())
        self.wins += np.bincount(log.winner[over], minlength=sides)[:sides]
        self.points += log.hand_score.sum(axis=0)
        self.players = log.bids.shape[1]
        # Sets, contracts and nils as the engine scored them (one outcome model, shared with tournaments).
        measures = side_measures(log, self.rules)
        self.contracts += measures["contracts"].sum(axis=0)
        self.sets += measures["sets"].sum(axis=0)
        self.nil_bids += measures["nil_bids"].sum(axis=0)
        self.nils_made += measures["nils_made"].sum(axis=0)
        self.bags += log.bags_won.sum(axis=0)
        self.bag_penalties += log.bag_penalties.sum(axis=0)
        self.bid_total += np.bincount(log.bids.sum(axis=1), minlength=len(self.bid_total))[: len(self.bid_total)]
        if log.dd_tricks is not None:
            if self.dd is None:
                self.dd = {k: np.zeros(2, dtype=np.int64) for k in DD_SUMS}
            for key, values in dd_measures(log, self.rules).items():
                self.dd[key] += values.sum(axis=0)

    def rows(self) -> list[dict[str, float]]:
        """One dict per partnership (per player in Duel and cutthroat), ready for a DataFrame or a printout."""
        out = []
        for team in range(len(self.points)):
            out.append(
                {
                    "partnership": team,
                    "seats": ("0+2" if team == 0 else "1+3")
                    if self.players == 4 and len(self.points) == 2
                    else str(team),
                    "hands": self.hands,
                    "games_won": int(self.wins[team]),
                    "win_rate": self.wins[team] / self.games_over if self.games_over else float("nan"),
                    "points_per_hand": self.points[team] / max(self.hands, 1),
                    "set_rate": self.sets[team] / max(self.hands, 1),
                    "set_rate_per_contract": self.sets[team] / self.contracts[team]
                    if self.contracts[team]
                    else float("nan"),
                    "nil_bids_per_hand": self.nil_bids[team] / max(self.hands, 1),
                    "nil_success": self.nils_made[team] / self.nil_bids[team] if self.nil_bids[team] else float("nan"),
                    "bags_per_hand": self.bags[team] / max(self.hands, 1),
                    "bag_penalties": int(self.bag_penalties[team]),
                    **self._dd_row(team),
                }
            )
        return out

    def _dd_row(self, team: int) -> dict[str, float]:
        """The double-dummy figures of a side (the summary's dd_* columns), when the hands were solved."""
        if self.dd is None:
            return {}
        d = {k: float(v[team]) for k, v in self.dd.items()}
        err, err_lo, err_hi = mean_interval(d["dd_bids"], d["dd_bid_err"], d["dd_bid_err_sq"])
        lost, lost_lo, lost_hi = mean_interval(d["dd_hands"], d["dd_tricks_lost"], d["dd_tricks_lost_sq"])
        return {
            "dd_tricks": d["dd_tricks"] / d["dd_hands"] if d["dd_hands"] else float("nan"),
            "dd_bid_error": float(err), "dd_bid_error_lo": float(err_lo), "dd_bid_error_hi": float(err_hi),
            "dd_tricks_lost": float(lost), "dd_tricks_lost_lo": float(lost_lo), "dd_tricks_lost_hi": float(lost_hi),
        }  # fmt: skip

    def mean_bid_total(self) -> float:
        return float((np.arange(len(self.bid_total)) * self.bid_total).sum() / max(self.hands, 1))
