"""Transposition table: proven bounds on side 0's tricks, shared by positions that play alike.

At a trick boundary the rest of the hand depends only on who holds which remaining cards of each
suit in order of strength (A-K-Q with the ace gone plays like K-Q-J), so positions are described
by relative ranks: a *shape* (each hand's suit lengths, the leader, the broken flag, the
objective) and, per suit, the owner of each remaining card from the top down (two bits a card).

A search also learns which cards' ranks mattered: only cards that won a trick by beating a card
of their own suit (and the cards above them) decide the result; below that, which hand holds
which small card is irrelevant as long as the suit lengths stay. So an entry stores, per suit,
how many top cards it depends on (`depth`), and matches every position of the same shape whose
top `depth` cards per suit have the same owners. One entry then answers for many layouts of the
small cards, the main lever that makes full deals searchable.

Layout: keys [slots, 3] uint64 = (shape, owners of suits 0-1, owners of suits 2-3, 32 bits a
suit from the top card down); vals [slots, 6] int8 = (depth per suit x4, lower, upper bound).
Buckets of `WAYS` slots; a full bucket gives up the entry with the fewest tricks left.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spades_lab.engine.bits import BIT, ONE, ZERO, below, highest, lowest, popcount

WAYS = 8
MIN_DEPTH = 9
"""Every entry depends on at least the top MIN_DEPTH cards of each suit (fewer if the suit is
shorter), so those owners can choose the bucket: positions of one shape spread over the table
instead of crowding one bucket. Measured on full deals: 2 crowds buckets (one deal 10x slower
than exact keys), 5 to 16 are alike within the machine's noise; 9 was the fastest."""
NO_LOWER, NO_UPPER = -1, 127
DEFAULT_BITS = 20
"""2**20 slots, about 30 MB: ample for a full deal, reused across a batch."""


def new_table(bits: int = DEFAULT_BITS) -> tuple[np.ndarray, np.ndarray]:
    """An empty table (shape word 0 = empty: real shapes carry the tricks-left count, never 0)."""
    slots = 1 << bits
    return np.zeros((slots, 3), dtype=np.uint64), np.zeros((slots, 6), dtype=np.int8)


@njit(cache=True)
def position_code(
    hands: np.ndarray, players: int, leader: int, broken: bool, nil_seat: int, suit_masks: np.ndarray
) -> tuple[np.uint64, np.uint64, np.uint64]:
    """(shape, owners of suits 0-1, owners of suits 2-3) of a trick-boundary position."""
    shape = ZERO
    four = np.uint64(4)
    for p in range(players):
        for s in range(3):
            shape = (shape << four) | np.uint64(popcount(hands[p] & suit_masks[s]))
    if players == 2:
        shape <<= np.uint64(24)
    shape |= np.uint64(popcount(hands[leader])) << np.uint64(48)
    shape |= np.uint64(leader) << np.uint64(52)
    if broken:
        shape |= ONE << np.uint64(54)
    if nil_seat >= 0:
        shape |= np.uint64(1 + 2 * nil_seat) << np.uint64(55)
    everyone = hands[0] | hands[1]
    if players == 4:
        everyone |= hands[2] | hands[3]
    w0 = ZERO
    w1 = ZERO
    for s in range(4):
        m = everyone & suit_masks[s]
        code = ZERO
        shift = np.uint64(0)
        while m != ZERO:
            c = highest(m)
            m ^= BIT[c]
            o = ZERO
            for p in range(1, players):
                if hands[p] & BIT[c] != ZERO:
                    o = np.uint64(p)
            code |= o << shift
            shift += np.uint64(2)
        if s == 0:
            w0 = code
        elif s == 1:
            w0 |= code << np.uint64(32)
        elif s == 2:
            w1 = code
        else:
            w1 |= code << np.uint64(32)
    return shape, w0, w1


@njit(cache=True, inline="always")
def _suit_code(w0: np.uint64, w1: np.uint64, s: int) -> np.uint64:
    w = w0 if s < 2 else w1
    return (w >> np.uint64(32 * (s & 1))) & np.uint64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def _low_bits(depth: int) -> np.uint64:
    return (ONE << np.uint64(2 * depth)) - ONE


@njit(cache=True, inline="always")
def _bucket(shape: np.uint64, w0: np.uint64, w1: np.uint64, slots: int) -> int:
    m = _low_bits(MIN_DEPTH)
    sig = (w0 & m) | (((w0 >> np.uint64(32)) & m) << np.uint64(8))
    sig |= ((w1 & m) << np.uint64(16)) | (((w1 >> np.uint64(32)) & m) << np.uint64(24))
    # splitmix64's finaliser, so every bit of the shape and the top owners moves the bucket
    h = shape ^ (sig * np.uint64(0x9E3779B97F4A7C15))
    h ^= h >> np.uint64(30)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(27)
    h *= np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(31)
    return int(h & np.uint64(slots - 1)) & ~(WAYS - 1)


@njit(cache=True)
def tt_probe(
    keys: np.ndarray, vals: np.ndarray, shape: np.uint64, w0: np.uint64, w1: np.uint64, target: int,
    everyone: np.uint64, suit_masks: np.ndarray,
) -> tuple[int, np.uint64]:  # fmt: skip
    """(+1 proven >= target, -1 proven < target, 0 unknown) and the cards the proof rests on."""
    b = _bucket(shape, w0, w1, keys.shape[0])
    for i in range(b, b + WAYS):
        if keys[i, 0] != shape:
            continue
        lo = vals[i, 4]
        hi = vals[i, 5]
        if lo < target and hi >= target:
            continue
        ok = True
        for s in range(4):
            d = int(vals[i, s])
            if d > 0:
                mine = _suit_code(w0, w1, s)
                theirs = _suit_code(keys[i, 1], keys[i, 2], s)
                if (mine ^ theirs) & _low_bits(d) != ZERO:
                    ok = False
                    break
        if not ok:
            continue
        rel = ZERO
        for s in range(4):
            d = int(vals[i, s])
            if d > 0:
                m = everyone & suit_masks[s]
                for _ in range(d - 1):
                    m ^= BIT[highest(m)]
                rel |= BIT[highest(m)]
        return (1 if lo >= target else -1), rel
    return 0, ZERO


@njit(cache=True)
def tt_save(
    keys: np.ndarray, vals: np.ndarray, shape: np.uint64, w0: np.uint64, w1: np.uint64, rel: np.uint64,
    everyone: np.uint64, suit_masks: np.ndarray, lo: int, hi: int,
) -> None:  # fmt: skip
    """Record lo <= side 0's tricks <= hi for every position of this shape that agrees on the cards
    from each suit's lowest relevant card (`rel`) up."""
    depths = np.zeros(4, dtype=np.int64)
    p0 = ZERO
    p1 = ZERO
    for s in range(4):
        r = rel & suit_masks[s]
        d = min(MIN_DEPTH, popcount(everyone & suit_masks[s]))
        if r != ZERO:
            d = max(d, popcount(everyone & suit_masks[s] & ~below(lowest(r))))
        if d > 0:
            depths[s] = d
            code = _suit_code(w0, w1, s) & _low_bits(d)
            if s < 2:
                p0 |= code << np.uint64(32 * s)
            else:
                p1 |= code << np.uint64(32 * (s - 2))
    b = _bucket(shape, w0, w1, keys.shape[0])
    victim = -1
    for i in range(b, b + WAYS):
        if keys[i, 0] == shape and keys[i, 1] == p0 and keys[i, 2] == p1:
            same = True
            for s in range(4):
                if vals[i, s] != depths[s]:
                    same = False
            if same:
                if lo > vals[i, 4]:
                    vals[i, 4] = lo
                if hi < vals[i, 5]:
                    vals[i, 5] = hi
                return
        if victim < 0 and keys[i, 0] == ZERO:
            victim = i
    if victim < 0:
        victim = b
        for i in range(b, b + WAYS):
            if (keys[i, 0] >> np.uint64(48)) & np.uint64(15) < (keys[victim, 0] >> np.uint64(48)) & np.uint64(15):
                victim = i
    keys[victim, 0] = shape
    keys[victim, 1] = p0
    keys[victim, 2] = p1
    for s in range(4):
        vals[victim, s] = depths[s]
    vals[victim, 4] = lo
    vals[victim, 5] = hi
