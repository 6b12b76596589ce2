"""The `dd` bid: the double-dummy tricks the hand is expected to bring, over sampled deals of the others.

The bidder knows its own 13 cards and nothing else (the bids already made are read only to split
the side's tricks, below). It deals the other 39 cards `worlds` times at random (its hand fixed,
`spades_lab.policies.worlds`), solves each full deal double dummy with the rules' first leader
(`spades_lab.dd.solve`) and averages its side's tricks. The seat's share of them:

- partner bid a number b: the side's expected tricks minus b (partner will take its own);
- partner bid nil: all of the side's expected tricks (partner tries to take none);
- partner has not bid yet: the side's expected tricks minus the partner's expected share. In each
  world the partner's share is its `counting` count (the cheat sheet's trick count) of the sampled
  hand, bounded by what is left for it: at most the side's tricks less this seat's own sure tricks
  (its trumps above every trump the others hold), and never below nothing. So a seat holding all
  thirteen spades keeps all thirteen tricks, however many aces partner's sampled hand holds (each
  of them would be ruffed or overtaken). (A double-dummy split of the side's tricks between two
  seats is not defined: DD says how many tricks a side takes, not who takes them.)

The bid is that share minus `margin`, rounded half up, then the nearest legal number (the lower
on a tie; a seat with no legal number bids nil). Double-dummy tricks are optimistic for real
play (nobody sees the cards), hence a margin: 0 bids the raw expectation, about 0.5-1.5 is
sensible, and the range allowed is 0-6.

Nil: with `nil` on, a seat whose number bid would be at most `nil_max_bid`, where nil is legal
and partner has not bid nil, solves the nil in each world (`spades_lab.dd.nil_tricks` with `cap=1`:
the opponents push tricks on it, partner shields it; made or broken is one search probe, where the
exact count of a broken nil's tricks cost about a hundred times more) and bids nil when it is made
double dummy in at least `nil_chance` of the worlds. A world's nil solve stops after `nil_nodes` search
nodes (4-11 s measured; a proof usually takes well under a tenth of that, a rare deal billions of nodes) and the
world then counts as broken: a nil not shown to be made. Never blind nil. In Duel (two players, cards
drafted, a hidden discard pile), and in cutthroat and three-player (the solver counts a
partnership's tricks), worlds are not sampled: the seat bids as `counting` does.

With `objective="score"` the bid is instead the legal number with the best expected hand score over the
worlds (`bid_points`: the rules' scoring of the side's DD tricks less the margin, partner's contract, the
bags carried in, each bag charged `bag_cost` beyond its point), and the nil, scored made or broken in each
world the same way, is bid when its mean is higher. A set costs the whole contract and an overtrick a
point, which the rounded share does not weigh. Not measured yet, so not the default.

Worlds come from the bid decision's one random draw (`view.uniform(0)`), so a bid depends only on
the seed and the game, never on the batch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from spades_lab import dd
from spades_lab.engine import BidView
from spades_lab.engine.scoring import bag_price, score_hands
from spades_lab.engine.views import BlindView
from spades_lab.policies.bidding import CountingBidder, CountingParams, nearest_legal
from spades_lab.policies.counting import count_tricks_batch
from spades_lab.policies.params import SEARCH_BATCH, CheckedParams, Ranges
from spades_lab.policies.worlds import sample_worlds, world_keys


@dataclass(frozen=True)
class DDBidParams(CheckedParams):
    worlds: int = 8  # deals of the other three hands sampled per bid (each one a full-deal DD solve)
    margin: float = 1.0  # tricks taken off the expected DD share before rounding (0-6; 0 = raw expectation)
    nil: bool = True  # bid nil when the DD nil is made in at least nil_chance of the worlds (False: never nil)
    nil_chance: float = 0.7  # share of the worlds in which the nil must be made DD for a nil bid
    nil_max_bid: int = 2  # the nil is solved only for hands whose number bid would be at most this
    objective: str = "tricks"  # "tricks": the expected share rounded; "score": the best expected hand score
    bag_cost: float = -1.0  # objective score: points per bag beyond its own; -1: the rules' bag_penalty / bag_threshold
    nil_nodes: int = 20_000_000  # search nodes a world's nil solve may take; past them the world counts as broken

    POLICY: ClassVar[str] = "dd bid"
    RANGES: ClassVar[Ranges] = (
        ("worlds", 1, 1024), ("margin", 0, 6), ("nil_chance", 0, 1), ("nil_max_bid", 0, 13), ("bag_cost", -1.0, 1000.0),
        ("nil_nodes", 1, 10**12),
    )  # fmt: skip
    CHOICES: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = (("objective", ("tricks", "score")),)


_SOLVERS: dict[Any, Any] = {}


def _solver(rules: Any) -> Any:
    if rules not in _SOLVERS:
        _SOLVERS[rules] = dd.Solver(rules)
    return _SOLVERS[rules]


def sure_trumps(hands: np.ndarray, seat: np.ndarray, deck: Any) -> np.ndarray:
    """Per table and world [n, W]: the seat's trumps above every trump the other seats hold, each a trick
    the seat takes whoever leads (the top of the trump block down to the first trump held elsewhere)."""
    n = hands.shape[0]
    mine = hands[np.arange(n), :, seat]  # [n, W]
    others = np.bitwise_or.reduce(hands, axis=2) & ~mine
    trumps = int(deck.suit_masks[3])
    sure = np.zeros(mine.shape, dtype=np.int64)
    alive = np.ones(mine.shape, dtype=bool)
    for card in sorted((c for c in range(64) if trumps >> c & 1), reverse=True):  # strongest trump first
        bit = np.uint64(1) << np.uint64(card)
        sure += alive & (mine & bit != 0)
        alive &= others & bit == 0
    return sure


class DDBidder:
    """Bid the side's expected double-dummy tricks over sampled worlds, less the partner's share and a margin."""

    batch_limit = SEARCH_BATCH
    """Tables a tournament process holds at once (`Player.batch_limit`): each decision searches."""

    def __init__(self, params: DDBidParams) -> None:
        self.params = params
        self.name = "dd"
        self.counting = CountingBidder(CountingParams())

    def blind(self, view: BlindView) -> np.ndarray:
        return np.zeros(len(view), dtype=bool)

    def expected_share(self, view: BidView) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per table: the seat's expected DD share, the worlds [n, W, 4] and their first leaders [n, W]."""
        share, hands, leader, _, _ = self.shares(view)
        return share, hands, leader

    def shares(self, view: BidView) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """`expected_share`'s three, then per world [n, W] the side's DD tricks and partner's contract: its
        bid (0 for a nil), or for a partner still to bid its count bounded as above, at least 1 (a partner
        who has not bid is taken to bid a number)."""
        rules, deck = view.rules, view.deck
        n, worlds = len(view), self.params.worlds
        seat = view.seat.astype(np.int64)
        rows = np.arange(n)
        hand = view.hand
        full = np.uint64(sum(int(x) for x in deck.suit_masks))
        known = np.zeros((n, 4), dtype=np.uint64)
        known[rows, seat] = hand
        room = np.full((n, 4), 13, dtype=np.int64)
        room[rows, seat] = 0
        unseen = np.ascontiguousarray(full & ~hand)
        keys = world_keys(view.uniform(0))
        hands = sample_worlds(keys, known, unseen, room, np.zeros((n, 4), dtype=np.uint64), worlds)
        leader = np.repeat(((view.dealer + 1) % 4).astype(np.int64)[:, None], worlds, axis=1)
        if rules.first_lead == "two_of_clubs":
            two = np.uint64(1) << np.uint64(deck.index["2C"])
            leader = np.argmax((hands & two) != 0, axis=2).astype(np.int64)
        solver = _solver(rules)
        tricks = np.empty((n, worlds, 2), dtype=np.int64)
        for t in range(n):
            solver.clear()  # answers independent of what the solver met before (batch independence)
            tricks[t] = dd.solve(hands[t], leader[t], solver=solver)
        side = tricks[rows, :, seat % 2].mean(axis=1)
        partner = (seat + 2) % 4
        partner_bid = view.bids[rows, partner]
        side_tricks = tricks[rows, :, seat % 2].astype(np.float64)
        room = side_tricks - sure_trumps(hands, seat, deck)
        partner_count = np.clip(count_tricks_batch(hands[rows, :, partner], deck=deck), 0.0, room)
        unbid = (side_tricks - partner_count).mean(axis=1)
        share = np.where(partner_bid > 0, side - partner_bid, np.where(partner_bid == 0, side, unbid))
        bid_part = np.where(partner_bid > 0, partner_bid, 0).astype(np.float64)[:, None]
        partner_part = np.where((partner_bid >= 0)[:, None], bid_part, np.maximum(partner_count, 1.0))
        return np.maximum(share, 0.0), hands, leader, side_tricks, partner_part

    def bid(self, view: BidView) -> np.ndarray:
        if view.players != 4 or not view.rules.partnerships:  # the solver counts tricks per partnership
            return np.asarray(self.counting.bid(view), dtype=np.int64)
        share, hands, leader, side_tricks, partner_part = self.shares(view)
        legal = view.legal_bids
        n = len(view)
        seat = view.seat.astype(np.int64)
        by_score = self.params.objective == "score"
        bag_cost = bag_price(view.rules, self.params.bag_cost)
        if by_score:
            points = bid_points(view.rules, side_tricks, partner_part, view.bags[np.arange(n), seat % 2],
                                self.params.margin, bag_cost)  # fmt: skip
            bids = best_number(points, legal)
        else:
            bids = nearest_legal(np.floor(share - self.params.margin + 0.5), legal)
        partner_nil = view.bids[np.arange(n), (seat + 2) % 4] == 0
        plain = view.rules.zero_bid == "plain"
        if self.params.nil and not plain:
            ask = np.flatnonzero(legal[:, 0] & ~partner_nil & (bids <= self.params.nil_max_bid))
            if len(ask):
                worlds = self.params.worlds
                solver = _solver(view.rules)
                held = np.empty((len(ask), worlds), dtype=np.int64)
                for i, t in enumerate(ask):
                    solver.clear()
                    held[i] = dd.nil_tricks(hands[t], np.full(worlds, seat[t]), leader[t], solver=solver, cap=1,
                                            node_limit=self.params.nil_nodes)  # fmt: skip
                broken = held != 0  # -1: the solve ran out of nodes, and a nil not shown to be made is not bid on
                if by_score:
                    nil = bid_points(
                        view.rules,
                        side_tricks[ask],
                        partner_part[ask],
                        view.bags[ask, seat[ask] % 2],
                        self.params.margin,
                        bag_cost,
                        broken,
                    )
                    better = nil[:, 0] > points[ask, bids[ask]]
                else:
                    better = (~broken).mean(axis=1) >= self.params.nil_chance
                bids[ask[better]] = 0
        return bids


def bid_points(
    rules: Any, side_tricks: np.ndarray, partner_part: np.ndarray, bags: np.ndarray, margin: float,
    bag_cost: float, nil_broken: np.ndarray | None = None,
) -> np.ndarray:  # fmt: skip
    """[n, 14]: the side's expected hand score (the rules' scoring, `score_hands`) if the seat bids b = 0..13,
    over the worlds of `side_tricks` [n, W] (the side's DD tricks, `margin` fewer: real play takes fewer
    than double dummy; a fractional margin is the mix of its two neighbouring whole numbers), with partner's
    contract `partner_part` [n, W] rounded (0: partner bid nil) and the side's `bags` [n]
    carried in. Each bag of a made contract costs `bag_cost` more than its point.

    Without `nil_broken` columns 1-13 are the number bids (column 0 means nothing). With `nil_broken` [n, W]
    column 0 is the seat bidding nil, broken (one trick, the rest to partner) or made in each world (read
    only that column then)."""
    n, worlds = side_tricks.shape
    low = int(np.floor(margin))
    mix = float(margin) - low
    total = np.zeros((n, 14))
    partner = np.rint(partner_part).astype(np.int64)
    shape = (n, worlds, 14)
    for shift, weight in ((low, 1.0 - mix), (low + 1, mix)):
        if weight <= 0:
            continue
        side = np.clip(side_tricks - shift, 0, 13).astype(np.int64)  # [n, W]
        bids = np.zeros((*shape, 4), dtype=np.int64)
        tricks = np.zeros((*shape, 4), dtype=np.int64)
        seat_tricks = np.broadcast_to(side[:, :, None], shape)
        if nil_broken is None:
            bids[..., 0] = np.arange(14)
            mine = seat_tricks - np.minimum(partner, side)[:, :, None]
        else:
            bids[..., 0] = 0
            mine = np.broadcast_to(np.minimum(nil_broken.astype(np.int64), side)[:, :, None], shape)
        bids[..., 2] = partner[:, :, None]
        tricks[..., 0] = mine
        tricks[..., 2] = seat_tricks - mine
        bids[..., 1] = bids[..., 3] = 1
        tricks[..., 1] = 13 - seat_tricks
        scored = score_hands(rules, bids.reshape(-1, 4), tricks.reshape(-1, 4),
                             np.repeat(np.stack([bags, np.zeros_like(bags)], axis=1), worlds * 14, axis=0))  # fmt: skip
        points = scored.points[:, 0] - bag_cost * scored.new_bags[:, 0]
        total += weight * points.reshape(shape).mean(axis=1)
    return total


def best_number(points: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Per table, the legal number bid (1-13) with the most expected points (the lower on a tie); nil where
    no number is legal."""
    value = np.where(legal[:, 1:], points[:, 1:], -np.inf)
    return np.where(legal[:, 1:].any(axis=1), 1 + value.argmax(axis=1), 0).astype(np.int64)
