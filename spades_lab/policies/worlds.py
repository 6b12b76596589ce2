"""Sampling the hidden hands: deals of the unseen cards consistent with everything a seat has seen.

A search player (`pimc`) reasons about complete deals ("worlds"). From the acting seat's view, a
world must give every other seat exactly as many cards as it still holds, and no card of a suit
it has shown out of (`spades_lab.policies.memory`); the seat's own hand and the cards played are
fixed. The worlds are drawn from each table's own random key (derived from the engine's policy
stream for the decision), so they depend only on the seed and the game, never on the batch.

The draw deals the most constrained cards first (those only one seat can hold, then two) and
sends each card to a seat that may hold it with probability proportional to the room left in its
hand. That is not exactly uniform over the consistent deals, but it is consistent by
construction; if a draw paints itself into a corner (a card no seat with room may hold) it is
drawn again, and after `ATTEMPTS` failures the voids are dropped for that world (never seen in
the tests: the corner needs several seats with several voids and little room).

The uniform draw ignores the bids, yet a seat that bid nil rarely holds the ace of spades. With
`bid_weight` > 0 (`weigh_by_bids`) the seat draws `oversample` times as many candidate worlds,
scores each other seat's whole hand (its cards in the world plus those it has played) with the
counting bidder's trick count, and keeps `worlds` of the candidates, resampled by the weight
exp(-bid_weight * sum over the other seats of (count - target)^2), the target being the middle of
the counts the counting bid rounds down to the seat's bid (see `bid_targets`). The resampling is
systematic (one uniform per table, from the table's own key), so it too depends on the game only.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spades_lab.cards import Deck
from spades_lab.engine.bits import ONE, ZERO, lowest
from spades_lab.engine.rng import draw, unit
from spades_lab.policies.counting import count_tricks_batch

ATTEMPTS = 16
RESAMPLE_COUNTER = np.uint64(1 << 62)  # the resampling's draw: far above every counter `_deal_world` uses


@njit(cache=True)
def _deal_world(
    key: np.uint64, world: int, unseen: np.uint64, room: np.ndarray, forbidden: np.ndarray, players: int,
    out: np.ndarray,
) -> None:  # fmt: skip
    """Deal `unseen` to the seats into `out` (masks added to what it holds): room[s] cards each, none forbidden."""
    cards = np.empty(64, dtype=np.int64)
    order = np.empty(64, dtype=np.int64)
    n = 0
    x = unseen
    while x != ZERO:
        cards[n] = lowest(x)
        x &= x - ONE
        n += 1
    left = np.empty(players, dtype=np.int64)
    dealt = np.empty(players, dtype=np.uint64)
    for attempt in range(ATTEMPTS + 1):
        strict = attempt < ATTEMPTS
        base = np.uint64(world) * np.uint64(1 << 20) + np.uint64(attempt) * np.uint64(1 << 12)
        # sort key: how many seats may hold the card (fewest first), then a random number
        for i in range(n):
            bit = ONE << np.uint64(cards[i])
            allowed = 0
            for s in range(players):
                if room[s] > 0 and (not strict or forbidden[s] & bit == ZERO):
                    allowed += 1
            order[i] = allowed * (1 << 40) + np.int64(draw(key, base + np.uint64(i)) >> np.uint64(24))
        idx = np.argsort(order[:n])
        for s in range(players):
            left[s] = room[s]
            dealt[s] = ZERO
        ok = True
        for j in range(n):
            card = cards[idx[j]]
            bit = ONE << np.uint64(card)
            total = 0
            for s in range(players):
                if left[s] > 0 and (not strict or forbidden[s] & bit == ZERO):
                    total += left[s]
            if total == 0:
                ok = False
                break
            r = np.int64(draw(key, base + np.uint64(64 + j)) % np.uint64(total))
            for s in range(players):
                if left[s] > 0 and (not strict or forbidden[s] & bit == ZERO):
                    if r < left[s]:
                        dealt[s] |= bit
                        left[s] -= 1
                        break
                    r -= left[s]
        if ok:
            for s in range(players):
                out[s] |= dealt[s]
            return


@njit(cache=True)
def sample_worlds(
    keys: np.ndarray, known: np.ndarray, unseen: np.ndarray, room: np.ndarray, forbidden: np.ndarray, worlds: int
) -> np.ndarray:
    """[n, worlds, seats] hands: `known` ([n, seats], the acting seat's hand) plus a deal of `unseen` ([n]).

    `room[t, s]` is how many unseen cards seat s still holds (0 for the acting seat), `forbidden[t, s]` the
    cards it cannot hold (the suits it has shown out of).
    """
    n, players = known.shape
    out = np.empty((n, worlds, players), dtype=np.uint64)
    for t in range(n):
        for w in range(worlds):
            for s in range(players):
                out[t, w, s] = known[t, s]
            _deal_world(keys[t], w, unseen[t], room[t], forbidden[t], players, out[t, w])
    return out


def world_keys(uniform: np.ndarray) -> np.ndarray:
    """64-bit keys from a view's `uniform()` draws (53 random bits each), one per table."""
    return (np.asarray(uniform, dtype=np.float64) * float(1 << 53)).astype(np.uint64)


def bid_targets(bids: np.ndarray) -> np.ndarray:
    """The trick count a counting bidder most likely held for each bid: the middle of the counts it rounds down to.

    The counting bid is the count rounded down, at least 1: a bid b >= 2 comes from a count in [b, b + 1)
    (target b + 0.5), a bid of 1 from [0, 2) (target 1). A nil is a hand with few high cards (count
    below 2 and no ace, no bare king): target 0, so the weight pushes honours away from it.
    """
    bids = np.asarray(bids)
    return np.where(bids <= 0, 0.0, np.where(bids == 1, 1.0, bids + 0.5))


@njit(cache=True)
def _systematic(keys: np.ndarray, log_weight: np.ndarray, worlds: int) -> np.ndarray:
    """[n, worlds] candidate indices, `worlds` per table drawn systematically by weight exp(log_weight)."""
    n, many = log_weight.shape
    out = np.empty((n, worlds), dtype=np.int64)
    weight = np.empty(many, dtype=np.float64)
    for t in range(n):
        top = log_weight[t].max()
        total = 0.0
        for i in range(many):
            weight[i] = np.exp(log_weight[t, i] - top)
            total += weight[i]
        u = unit(draw(keys[t], RESAMPLE_COUNTER))
        i = 0
        cumulative = weight[0] / total
        for k in range(worlds):
            point = (u + k) / worlds
            while point >= cumulative and i < many - 1:
                i += 1
                cumulative += weight[i] / total
            out[t, k] = i
    return out


def void_masks(voids: np.ndarray, deck: Deck, players: int = 4) -> np.ndarray:
    """[n, players] uint64: the cards each seat cannot hold, from the shown voids (`PlayView.shown_voids`
    bits: bit 4 * seat + suit), as `sample_worlds` takes them (`forbidden`)."""
    voids = np.asarray(voids, dtype=np.int64)
    masks = np.asarray(deck.suit_masks, dtype=np.uint64)
    forbidden = np.zeros((len(voids), players), dtype=np.uint64)
    for s in range(players):
        for suit in range(4):
            shown = (voids >> (4 * s + suit)) & 1 == 1
            forbidden[shown, s] |= masks[suit]
    return forbidden


def bid_log_weights(
    whole: np.ndarray, bids: np.ndarray, seat: np.ndarray, bid_weight: float, deck: Deck
) -> np.ndarray:  # fmt: skip
    """[n, many]: -bid_weight * sum of (count - `bid_targets`)^2 over the seats other than `seat` that have bid,
    for candidate worlds `whole` [n, many, seats] (each seat's whole hand: its cards in the world and those
    it has played), counted with the counting bidder's count."""
    players = whole.shape[2]
    counts = count_tricks_batch(whole, deck=deck)  # [n, many, seats]
    others = (np.arange(players)[None, :] != np.asarray(seat)[:, None]) & (np.asarray(bids) >= 0)
    miss = np.where(others[:, None, :], counts - bid_targets(bids)[:, None, :], 0.0)
    return np.asarray(-float(bid_weight) * (miss**2).sum(axis=2))


def resample(keys: np.ndarray, candidates: np.ndarray, log_weight: np.ndarray, worlds: int) -> np.ndarray:
    """[n, worlds, seats]: `worlds` of the `candidates` [n, many, seats] drawn systematically by
    exp(`log_weight`) [n, many], from each table's own key (so the draw depends on the game only)."""
    picks = _systematic(keys, np.ascontiguousarray(log_weight), worlds)
    return np.asarray(candidates[np.arange(len(candidates))[:, None], picks])


def weigh_by_bids(
    keys: np.ndarray, known: np.ndarray, unseen: np.ndarray, room: np.ndarray, forbidden: np.ndarray, worlds: int,
    played_by: np.ndarray, bids: np.ndarray, *, seat: np.ndarray, bid_weight: float, oversample: int, deck: Deck,
) -> np.ndarray:  # fmt: skip
    """`sample_worlds`, weighted by how well each other seat's whole hand fits its bid.

    Draws `oversample * worlds` candidates (the first `worlds` are the uniform ones), counts each other
    seat's whole hand (`played_by` [n, seats]: the cards it has played this hand) with the counting
    bidder's count, and resamples `worlds` of the candidates by exp(-bid_weight * sum of (count -
    `bid_targets`)^2) over the seats other than `seat` that have bid (`bid_log_weights`, `resample`).
    bid_weight 0 keeps them all equal.
    """
    many = worlds * max(1, int(oversample))
    candidates = sample_worlds(keys, known, unseen, room, forbidden, many)  # [n, many, seats]
    whole = candidates | np.asarray(played_by, dtype=np.uint64)[:, None, :]
    return resample(keys, candidates, bid_log_weights(whole, bids, seat, bid_weight, deck), worlds)
