"""Transposition table: proven bounds on side 0's tricks, keyed on the layout of relative ranks.

At a trick boundary the rest of the hand depends only on who holds which of the remaining cards
in each suit, in order of strength, not on which cards have gone: A-K-Q of a suit with the
ace played plays like K-Q-J. So the key lists, per suit block, the owner of each remaining card
from the weakest up (two bits each, behind a sentinel bit that fixes the suit's length), plus the
leader and the broken flag. That key is the position itself, not a hash of it: an entry is valid
for any deal, leader or target, so one table serves a whole batch and every probe of a search.

Entries live in buckets of `WAYS` slots; a full bucket gives up the entry with the fewest tricks
left (the cheapest to search again).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spades_lab.engine.bits import ONE, ZERO

WAYS = 4
NO_LOWER, NO_UPPER = -1, 127
DEFAULT_BITS = 20
"""2**20 slots, about 21 MB: ample for a full deal, reused across a batch."""


def new_table(bits: int = DEFAULT_BITS) -> tuple[np.ndarray, np.ndarray]:
    """Empty table: keys [slots, 2] uint64 (0 = empty; real keys carry sentinel bits) and
    values [slots, 3] int8 (lower bound, upper bound, tricks left)."""
    slots = 1 << bits
    keys = np.zeros((slots, 2), dtype=np.uint64)
    vals = np.zeros((slots, 3), dtype=np.int8)
    return keys, vals


@njit(cache=True)
def position_key(
    hands: np.ndarray, players: int, leader: int, broken: bool, suit_masks: np.ndarray
) -> tuple[np.uint64, np.uint64]:
    """Two words: clubs and diamonds (27 bits each) with leader and broken; hearts and trumps."""
    everyone = hands[0] | hands[1]
    if players == 4:
        everyone |= hands[2] | hands[3]
    k1 = ZERO
    k2 = ZERO
    two = np.uint64(2)
    for s in range(4):
        m = everyone & suit_masks[s]
        code = ONE
        while m != ZERO:
            low = m & (~m + ONE)
            m ^= low
            if hands[0] & low != ZERO:
                o = np.uint64(0)
            elif players == 2 or hands[1] & low != ZERO:
                o = np.uint64(1)
            elif hands[2] & low != ZERO:
                o = np.uint64(2)
            else:
                o = np.uint64(3)
            code = (code << two) | o
        if s == 0:
            k1 = code
        elif s == 1:
            k1 |= code << np.uint64(27)
        elif s == 2:
            k2 = code
        else:
            k2 |= code << np.uint64(27)
    k1 |= np.uint64(leader) << np.uint64(54)
    if broken:
        k1 |= np.uint64(1) << np.uint64(56)
    return k1, k2


@njit(cache=True, inline="always")
def _bucket(k1: np.uint64, k2: np.uint64, slots: int) -> int:
    # splitmix64's finaliser over both words, so every key bit (the leader's too) moves the bucket
    h = k1 ^ (k2 * np.uint64(0x9E3779B97F4A7C15))
    h ^= h >> np.uint64(30)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(27)
    h *= np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(31)
    return int(h & np.uint64(slots - 1)) & ~(WAYS - 1)


@njit(cache=True)
def tt_lookup(keys: np.ndarray, vals: np.ndarray, k1: np.uint64, k2: np.uint64) -> tuple[bool, int, int]:
    """(found, lower bound, upper bound) of side 0's remaining tricks."""
    b = _bucket(k1, k2, keys.shape[0])
    for i in range(b, b + WAYS):
        if keys[i, 0] == k1 and keys[i, 1] == k2:
            return True, int(vals[i, 0]), int(vals[i, 1])
    return False, NO_LOWER, NO_UPPER


@njit(cache=True)
def tt_store(keys: np.ndarray, vals: np.ndarray, k1: np.uint64, k2: np.uint64, lo: int, hi: int, rem: int) -> None:
    """Tighten the entry's bounds with (lo, hi), creating it if needed."""
    b = _bucket(k1, k2, keys.shape[0])
    victim = b
    for i in range(b, b + WAYS):
        if keys[i, 0] == k1 and keys[i, 1] == k2:
            if lo > vals[i, 0]:
                vals[i, 0] = lo
            if hi < vals[i, 1]:
                vals[i, 1] = hi
            return
        if keys[i, 0] == ZERO:
            victim = i
            break
        if vals[i, 2] < vals[victim, 2]:
            victim = i
    keys[victim, 0] = k1
    keys[victim, 1] = k2
    vals[victim, 0] = lo
    vals[victim, 1] = hi
    vals[victim, 2] = rem
