"""DD tricks lost: how far a player's card play is from perfect play, measured with the exact solver.

Four seats of one player play single hands. Every card a side plays while it is still short of its contract is
checked on the true deal: the side's double-dummy tricks after the best card minus after the card played. Summed
per side and hand, that is the player's DD tricks lost per side-hand, a play-quality figure with no luck of the
deal in it (a perfect card player scores 0; the sheet's `tips` loses about 2.3 a hand).

    lost = tricks_lost("counting+expert", hands=20, seed=6, workers=2)
    lost.estimate()              # per side-hand, with its normal interval over side-hands
    lost.by("t"), lost.by("pos") # the same split by trick (0-12) and by position in the trick (lead .. 4th)
    lost.points()                # which of the lost tricks change the hand's score, which only move bags

Every check is a full-deal solve (tenths of a second to seconds), spread over `workers` processes one hand at a
time, with a fresh solver table per hand so the figures do not depend on the workers. What it assumes: the DD
continuation (all four seats trick-maximising with full sight) is how the hand would end after either card.
"""

from __future__ import annotations

import json
import multiprocessing as mp
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from spades_lab import dd
from spades_lab.cards import deck_for
from spades_lab.engine import simulate_hands
from spades_lab.engine import trick as trick_rules
from spades_lab.players import make_players
from spades_lab.players.identity import player_identity
from spades_lab.policies.memory import shown_voids
from spades_lab.policies.pimc import score_by_tricks
from spades_lab.rules import Rules
from spades_lab.stats.estimates import Estimate, mean_estimate

PLAY_COLUMNS = ("hands", "trick", "leader", "broken", "card", "side_hand", "t", "pos", "bids", "won", "voids")
"""Per checked play: the four unplayed hands, the trick so far (-1 padded), its leader, spades broken, the card
played, its side-hand (2 * hand + side), trick number (0-12), position in the trick (0 lead .. 3 fourth), the
hand's four bids, each seat's tricks so far and the voids shown before the play (bit 4 * seat + suit)."""


def checked_plays(player: str, hands: int, seed: int, last: int = 13) -> dict[str, np.ndarray]:
    """Every play of the last `last` tricks made by a side whose contract is not yet made (`PLAY_COLUMNS`, plus
    `n_hands`): four `player` seats play `hands` single hands of the standard rules from `seed`."""
    rules = Rules()
    deck = deck_for(rules.deck)
    trumps = int(deck.suit_masks[3])
    suits = tuple(np.uint64(m) for m in deck.suit_masks)
    rows: dict[str, list[Any]] = {k: [] for k in PLAY_COLUMNS}
    n = 0
    for log in simulate_hands(rules, make_players(player), hands, seed):
        for r in range(len(log)):
            held = [int(h) for h in log.held[r]]
            bids = [int(b) for b in log.bids[r]]
            contract = [sum(max(bids[s], 0) for s in (side, side + 2)) for side in (0, 1)]
            won, broken = [0, 0, 0, 0], False
            plays, seats = log.plays[r], log.play_seats[r]
            for t in range(13):
                cards = [int(c) for c in plays[4 * t : 4 * t + 4]]
                who = [int(s) for s in seats[4 * t : 4 * t + 4]]
                for k in range(4):
                    side = who[k] % 2
                    made = sum(won[s] for s in (side, side + 2) if bids[s] > 0) >= contract[side]
                    if contract[side] > 0 and not made and t >= 13 - last:
                        voids = shown_voids(plays[: 4 * t + k], seats[: 4 * t + k], 4, suits)
                        for key, value in zip(
                            PLAY_COLUMNS,
                            (
                                held.copy(),
                                cards[:k] + [-1] * (4 - k),
                                who[0],
                                broken,
                                cards[k],
                                2 * n + side,
                                t,
                                k,
                                bids,
                                won.copy(),
                                voids,
                            ),
                        ):
                            rows[key].append(value)  # fmt: skip
                    held[who[k]] &= ~(1 << cards[k])
                best = int(trick_rules.holder(np.array(cards, dtype=np.int64), deck.suit_masks))
                won[who[cards.index(best)]] += 1
                broken = broken or any(trumps >> c & 1 for c in cards)
            n += 1
    types: dict[str, Any] = {"hands": np.uint64, "broken": np.bool_}
    out: dict[str, np.ndarray] = {k: np.array(v, dtype=types.get(k, np.int64)) for k, v in rows.items()}
    if not rows["card"]:
        out |= {"hands": np.zeros((0, 4), np.uint64), "trick": np.zeros((0, 4), np.int64),
                "bids": np.zeros((0, 4), np.int64), "won": np.zeros((0, 4), np.int64)}  # fmt: skip
    return out | {"n_hands": np.array(n)}


_SOLVER: dict[str, dd.Solver] = {}


def _solve_hand(args: tuple[np.ndarray, ...]) -> np.ndarray:
    """[plays, 52] DD value of every card at the checked plays of one hand (-1: not legal); a fresh table."""
    solver = _SOLVER.setdefault("solver", dd.Solver(Rules()))
    solver.clear()
    return dd.card_values(*args, solver=solver)


@dataclass
class TricksLost:
    """Checked plays with every card's DD value: the statistic and its breakdowns."""

    key: str
    plays: dict[str, np.ndarray]
    values: np.ndarray
    """[plays, 52] int8: the side's DD tricks from this trick on after each card (-1: not legal)."""
    player: dict[str, Any] = field(default_factory=dict)
    """The player's resolved identity (every parameter), to tell later whether it is still the player measured."""

    @property
    def loss(self) -> np.ndarray:
        played = self.values[np.arange(len(self.values)), self.plays["card"]]
        loss: np.ndarray = self.values.max(axis=1).astype(np.int64) - played
        return loss

    @property
    def hands(self) -> int:
        return int(self.plays["n_hands"])

    def per_side_hand(self, kind: np.ndarray | None = None, pick: np.ndarray | None = None) -> np.ndarray:
        """The sum per side-hand of `kind` (default: the loss) over the plays `pick` (default: all)."""
        total = np.zeros(2 * self.hands)
        values = self.loss if kind is None else kind
        chosen = np.ones(len(values), dtype=bool) if pick is None else pick
        np.add.at(total, self.plays["side_hand"][chosen], values[chosen])
        return total

    def estimate(self) -> Estimate:
        """DD tricks lost per side-hand, normal interval over side-hands."""
        return mean_estimate(self.per_side_hand())

    def by(self, column: str) -> list[Estimate]:
        """The statistic split by `t` (trick 0-12) or `pos` (position 0-3): the cells add up to the total."""
        cells = {"t": 13, "pos": 4}[column]
        return [mean_estimate(self.per_side_hand(pick=self.plays[column] == c)) for c in range(cells)]

    def points(self) -> dict[str, Estimate]:
        """Per side-hand: the lost tricks that change the hand's score and those that only move bags.

        On the true deal, the side's tricks so far plus its DD tricks after the best card (k_best) and after the
        card played (k_played); the side's hand score minus the opponents' (single hands, no bags carried in) is
        read at each final count between. A lost trick that moves that score by more than 2 points crosses a
        line: our contract made to set (`ours`), their contract set to made (`theirs`), or else the bag penalty;
        one that moves it by 2 or less moves only bags (`bags`). `points`: the score lost. A live nil is taken
        as made (DD values are the partnership's tricks)."""
        p, n = self.plays, len(self.values)
        seat, rows = (p["leader"] + p["pos"]) % 4, np.arange(n)
        ours_now = p["won"][rows, seat] + p["won"][rows, (seat + 2) % 4]
        score = score_by_tricks(Rules(), p["bids"], p["won"], np.zeros((n, 2), dtype=np.int64), seat)
        values = self.values.astype(np.int64)
        best = np.clip(ours_now + values.max(axis=1), 0, 13)
        played = np.clip(ours_now + values[rows, p["card"]], 0, 13)
        step, k = np.diff(score, axis=1), np.arange(1, 14)[None, :]
        lost = (k > played[:, None]) & (k <= best[:, None])
        big = lost & (np.abs(step) > 2)
        contract = np.where(p["bids"] > 0, p["bids"], 0)
        own = contract[rows, seat] + contract[rows, (seat + 2) % 4]
        ours = big & (k == own[:, None])
        theirs = big & ~ours & (k == 14 - (contract.sum(axis=1) - own)[:, None])
        kinds = {"lost": lost.sum(axis=1), "score": big.sum(axis=1), "ours": ours.sum(axis=1),
                 "theirs": theirs.sum(axis=1), "penalty": (big & ~ours & ~theirs).sum(axis=1),
                 "bags": (lost & ~big).sum(axis=1), "points": score[rows, best] - score[rows, played]}  # fmt: skip
        return {name: mean_estimate(self.per_side_hand(per_play)) for name, per_play in kinds.items()}

    def save(self, path: str | Path) -> Path:
        """An npz of the checked plays, their values, loss and the player (`load` reads it back)."""
        path = Path(path)
        arrays: dict[str, Any] = {**self.plays, "values": self.values, "loss": self.loss, "done": np.array(self.hands),
                                  "key": np.array(self.key), "player": np.array(json.dumps(self.player))}  # fmt: skip
        np.savez(path, **arrays)
        return path

    @classmethod
    def load(cls, path: str | Path) -> TricksLost:
        z = np.load(path)
        plays = {k: z[k] for k in PLAY_COLUMNS if k in z.files} | {"n_hands": z["done"]}
        player = json.loads(str(z["player"])) if "player" in z.files else {}
        return cls(str(z["key"]), plays, z["values"], player)


def tricks_lost(player: str, hands: int, seed: int, workers: int = 1, last: int = 13, key: str = "") -> TricksLost:
    """Play `hands` single hands of four `player` seats from `seed` and value every checked play of the last
    `last` tricks double dummy, over `workers` spawned processes (in a script, call it under
    `if __name__ == "__main__":`, as for any spawned pool)."""
    plays = checked_plays(player, hands, seed, last)
    per_hand = [np.flatnonzero(plays["side_hand"] // 2 == h) for h in range(int(plays["n_hands"]))]
    per_hand = [rows for rows in per_hand if len(rows)]
    tasks = [tuple(plays[k][rows] for k in ("hands", "trick", "leader", "broken")) for rows in per_hand]
    values = np.full((len(plays["card"]), 52), -1, dtype=np.int8)
    for rows, part in zip(per_hand, _map(_solve_hand, tasks, workers)):
        values[rows] = part
    return TricksLost(key or player, plays, values, player_identity(player))


def _map(function: Any, tasks: Sequence[Any], workers: int) -> list[Any]:
    if workers <= 1 or len(tasks) < 2:
        return [function(t) for t in tasks]
    with mp.get_context("spawn").Pool(workers) as pool:
        return pool.map(function, tasks, chunksize=1)
