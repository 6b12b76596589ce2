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
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spades_lab.engine.bits import ONE, ZERO, lowest
from spades_lab.engine.rng import draw

ATTEMPTS = 16


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
