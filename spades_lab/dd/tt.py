"""Transposition table: proven bounds on side 0's tricks, shared by positions that play alike.

At a trick boundary the rest of the hand depends only on who holds which remaining cards of each
suit in order of strength (A-K-Q with the ace gone plays like K-Q-J), so positions are described
by relative ranks: a *shape* (each hand's suit lengths, the leader, the broken flag, the
objective, the tricks left) and, per suit, the owner of each remaining card from the top down
(two bits a card).

A search also learns which cards' ranks mattered (the "winning ranks"): only cards that won a
trick by beating a card of their own suit (and the cards above them) decide the result; below
that, which hand holds which small card is irrelevant as long as the suit lengths stay. So an
entry stores, per suit, how many top cards it depends on (`depth`), and matches every position of
the same shape whose top `depth` cards per suit have the same owners. One entry then answers for
many layouts of the small cards, the main lever that makes full deals searchable.

Because an entry may depend on very few cards, the table is two-level: a hash of shapes (with,
for entries that depend on trumps, the top trump's owner: see `_trump_tag`), each heading a chain of entries (newest or last used first) that a probe scans for the first one whose
owners agree and whose bounds decide the target. Bucketing on the owners too would force every
entry to depend on the cards that choose the bucket, which is what destroys the generalisation.
Each entry keeps a lower and an upper bound, so one entry serves every target.

Arrays (see `new_table`; the fields of a `TransTable`):
- lookup uint64 [shapes + entries / 2, 2]: first the shape slots (shape word, 1 + first entry of its
  chain; shape 0 = empty slot), then one *sieve word* per entry, 8 bytes, which is all a chain scan
  reads of an entry that does not answer: 1 + the next entry of the chain (bits 0-23), lower bound + 1
  and upper bound (a byte each, bits 24-39), the owner of the top card of each suit the entry depends
  on (2 bits a suit, bits 40-47) and which suits those are (bits 48-55). An entry whose bounds cannot
  decide the target or whose top owners differ is passed over without touching its row;
- keys uint64 [entries, 4]: the entry's row, read only when its sieve word passes: (owners of suits
  0-1, owners of suits 2-3 (32 bits a suit from the top card down, cut to the entry's depths), unused,
  and a word packing the depth per suit (a byte each), lower bound + 1 and upper bound);
- meta int64 [META]: entries used, shapes used, then counters (see the META_* names).
When the entries or the shape slots run out the whole table is cleared (memory stays flat; the
table is only a cache of proofs, so clearing it never changes a result).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from spades_lab.engine.bits import BIT, ONE, ZERO, below, highest, lowest, popcount

NO_LOWER, NO_UPPER = -1, 127
DEFAULT_BITS = 20
"""2**20 entries and 2**18 shape slots, about 44 MB (12 MB of shape slots and sieve words, 32 MB of
entry rows): ample for a full deal, reused across a batch."""
MIN_BITS, MAX_BITS = 6, 23
"""The table sizes `Solver(tt_bits=...)` accepts: an entry's link to the next one in its chain has 24 bits."""
SHAPE_FILL = 0.7
"""Fraction of shape slots in use at which the table is cleared (keeps the open-addressing probes short)."""

META_KILLERS = 12
META = META_KILLERS + 4 * 14
META_ENTRIES, META_SHAPES, META_NODES, META_PROBES, META_HITS, META_CLEARS, META_SCANS = 0, 1, 2, 3, 4, 5, 6
META_CUTS, META_FIRST_CUTS, META_LATE_MOVES, META_NODE_LIMIT, META_NODE_BUDGET = 7, 8, 9, 10, 11
"""meta[]: entries used, shape slots used, search nodes, table probes, table hits, clears, chain entries scanned,
nodes decided by one card, by the first card tried, moves tried before the deciding one, the node count past
which the search gives up (0: never; see `search.probe`), the nodes a batch call allows each deal (0: no
limit; see `solver.solve_batch`); from
META_KILLERS on, the search's killer leads (1 + card id, 0 for none) per tricks left and leader seat
(slot META_KILLERS + 4 * tricks + seat, see `search.probe`).
The counters only accumulate; `Solver.stats` reads them and `Solver.clear` resets them (and the killers)."""


class TransTable(NamedTuple):
    """The table's three arrays (see the module's description): every probe and save reads or writes
    all of them, so they travel as one argument."""

    lookup: np.ndarray
    keys: np.ndarray
    meta: np.ndarray


class PositionKey(NamedTuple):
    """A trick-boundary position as the table reads it (`position_code`): its shape, the owners of
    its cards from the top down (suits 0-1 in `w0`, 2-3 in `w1`) and the cards left, which turn an
    entry's depths into the cards its proof rests on."""

    shape: np.uint64
    w0: np.uint64
    w1: np.uint64
    everyone: np.uint64


def new_table(bits: int = DEFAULT_BITS) -> TransTable:
    """An empty table."""
    entries = 1 << bits
    shapes = 1 << max(bits - 2, 4)
    return TransTable(
        np.zeros((shapes + (entries + 1) // 2, 2), dtype=np.uint64),
        np.zeros((entries, 4), dtype=np.uint64),
        np.zeros(META, dtype=np.int64),
    )


@njit(cache=True)
def clear_table(lookup: np.ndarray, meta: np.ndarray) -> None:
    """Forget every entry (the entry rows are overwritten as they are reused)."""
    lookup[:] = 0
    meta[META_ENTRIES] = 0
    meta[META_SHAPES] = 0
    meta[META_CLEARS] += 1


@njit(cache=True)
def position_code(
    hands: np.ndarray, players: int, leader: int, broken: bool, nil_seat: int, suit_masks: np.ndarray
) -> PositionKey:
    """The table's key of a trick-boundary position."""
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
            cu = np.uint64(c)
            o = (hands[1] >> cu) & ONE
            if players == 4:
                o |= ((hands[2] >> cu) & ONE) << ONE
                o |= ((hands[3] >> cu) & ONE) * np.uint64(3)
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
    return PositionKey(shape, w0, w1, everyone)


@njit(cache=True, inline="always")
def _suit_code(w0: np.uint64, w1: np.uint64, s: int) -> np.uint64:
    w = w0 if s < 2 else w1
    return (w >> np.uint64(32 * (s & 1))) & np.uint64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def _low_bits(depth: int) -> np.uint64:
    return (ONE << np.uint64(2 * depth)) - ONE


_DEPTHS = np.uint64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def _depth(packed: np.uint64, s: int) -> int:
    return int((packed >> np.uint64(8 * s)) & np.uint64(0xFF))


@njit(cache=True, inline="always")
def _lower(packed: np.uint64) -> int:
    return int((packed >> np.uint64(32)) & np.uint64(0xFF)) - 1


@njit(cache=True, inline="always")
def _upper(packed: np.uint64) -> int:
    return int((packed >> np.uint64(40)) & np.uint64(0xFF))


@njit(cache=True, inline="always")
def _pack(depths: np.uint64, lo: int, hi: int) -> np.uint64:
    """Depths (a byte per suit), lower bound + 1 (NO_LOWER = -1 becomes 0) and upper bound in one word."""
    return depths | (np.uint64(lo + 1) << np.uint64(32)) | (np.uint64(hi) << np.uint64(40))


@njit(cache=True, inline="always")
def _trump_tag(w1: np.uint64, everyone: np.uint64, suit_masks: np.ndarray) -> np.uint64:
    """Shape bits 58-60 naming the top trump's owner (1 + seat), 0 when no trump is left: entries
    that depend on trumps live in the chain of their top trump's owner, so a probe scans only the
    chains that can match (that one and the chain of entries that ignore trumps)."""
    if everyone & suit_masks[3] == ZERO:
        return ZERO
    return (((w1 >> np.uint64(32)) & np.uint64(3)) + ONE) << np.uint64(58)


@njit(cache=True, inline="always")
def _hash(shape: np.uint64, slots: int) -> int:
    # splitmix64's finaliser, so every bit of the shape moves the slot; all but the trump tag
    # (bits 58-60): a shape's chains start at one slot, so the probe's second lookup finds its key
    # a few slots on (linear probing), usually in the cache line the first one fetched
    h = (shape & ~(np.uint64(7) << np.uint64(58))) * np.uint64(0x9E3779B97F4A7C15)
    h ^= h >> np.uint64(30)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(27)
    h *= np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(31)
    return np.int64(h & np.uint64(slots - 1))  # type: ignore[return-value]  # numba int


@njit(cache=True, inline="always")
def _slots(keys: np.ndarray) -> int:
    """Shape slots at the head of `lookup` (see `new_table`): a quarter of the entries, at least 16."""
    return max(keys.shape[0] >> 2, 16)  # type: ignore[no-any-return]  # numba scalars


@njit(cache=True)
def _find_shape(lookup: np.ndarray, shape: np.uint64, slots: int) -> int:
    """Slot of `shape`, or -1 - (the empty slot where it would go)."""
    i = _hash(shape, slots)
    while True:
        k = lookup[i, 0]
        if k == shape:
            return i
        if k == ZERO:
            return -1 - i
        i = (i + 1) & (slots - 1)


_NEXT = np.uint64(0xFFFFFF)
_SIEVE_BOUNDS = ~(np.uint64(0xFFFF) << np.uint64(24))


@njit(cache=True, inline="always")
def _sieve(lookup: np.ndarray, slots: int, e: np.int64) -> np.uint64:
    return lookup[slots + (e >> 1), e & 1]  # type: ignore[no-any-return]  # numba scalars


@njit(cache=True, inline="always")
def _set_sieve(lookup: np.ndarray, slots: int, e: np.int64, word: np.uint64) -> None:
    lookup[slots + (e >> 1), e & 1] = word


@njit(cache=True, inline="always")
def _top_owners(w0: np.uint64, w1: np.uint64) -> np.uint64:
    """Owner of the top card of each suit, two bits a suit (the first two bits of each suit's code)."""
    out = ZERO
    for s in range(4):
        out |= (_suit_code(w0, w1, s) & np.uint64(3)) << np.uint64(2 * s)
    return out


@njit(cache=True)
def tt_probe(table: TransTable, position: PositionKey, target: int, suit_masks: np.ndarray) -> tuple[int, np.uint64]:
    """(+1 proven >= target, -1 proven < target, 0 unknown) and the cards the proof rests on.

    A chain is walked on the entries' sieve words (see `new_table`), 8 bytes an entry in a dense
    array: an entry whose bounds cannot decide the target or whose top owners differ is passed
    over without reading its 32-byte row."""
    lookup, keys, meta = table
    shape, w0, w1, everyone = position
    meta[META_PROBES] += 1
    slots = _slots(keys)
    tops = _top_owners(w0, w1)
    scans = 0
    for chain in range(2):
        # the entries that depend on the top trump's owner, then those that do not
        key = shape | _trump_tag(w1, everyone, suit_masks) if chain == 0 else shape
        if chain == 0 and key == shape:
            continue
        slot = _find_shape(lookup, key, slots)
        if slot < 0:
            continue
        e = np.int64(lookup[slot, 1]) - 1
        prev = np.int64(-1)
        while e >= 0:
            scans += 1
            word = _sieve(lookup, slots, e)
            lo = int((word >> np.uint64(24)) & np.uint64(0xFF)) - 1
            hi = int((word >> np.uint64(32)) & np.uint64(0xFF))
            if (lo >= target or hi < target) and (
                ((word >> np.uint64(40)) ^ tops) & (word >> np.uint64(48)) & np.uint64(0xFF)
            ) == ZERO:
                packed = keys[e, 3]
                m0 = _low_bits(_depth(packed, 0)) | (_low_bits(_depth(packed, 1)) << np.uint64(32))
                m1 = _low_bits(_depth(packed, 2)) | (_low_bits(_depth(packed, 3)) << np.uint64(32))
                if ((w0 ^ keys[e, 0]) & m0) | ((w1 ^ keys[e, 1]) & m1) == ZERO:
                    rel = ZERO
                    for s in range(4):
                        d = _depth(packed, s)
                        if d > 0:
                            m = everyone & suit_masks[s]
                            for _ in range(d - 1):
                                m ^= BIT[highest(m)]
                            rel |= BIT[highest(m)]
                    meta[META_SCANS] += scans
                    meta[META_HITS] += 1
                    if prev >= 0:
                        # move the entry that answered to the front: positions met again are near
                        pw = _sieve(lookup, slots, prev)
                        _set_sieve(lookup, slots, prev, (pw & ~_NEXT) | (word & _NEXT))
                        _set_sieve(lookup, slots, e, (word & ~_NEXT) | lookup[slot, 1])
                        lookup[slot, 1] = np.uint64(e + 1)
                    return (1 if lo >= target else -1), rel
            prev = e
            e = np.int64(word & _NEXT) - 1
    meta[META_SCANS] += scans
    return 0, ZERO


@njit(cache=True)
def tt_save(table: TransTable, position: PositionKey, rel: np.uint64, suit_masks: np.ndarray, lo: int, hi: int) -> None:
    """Record lo <= side 0's tricks <= hi for every position of this shape that agrees on the cards
    from each suit's lowest relevant card (`rel`) up."""
    lookup, keys, meta = table
    shape, w0, w1, everyone = position
    slots = _slots(keys)
    depths = ZERO
    p0 = ZERO
    p1 = ZERO
    sieve_mask = ZERO
    for s in range(4):
        r = rel & suit_masks[s]
        if r == ZERO:
            continue
        d = popcount(everyone & suit_masks[s] & ~below(lowest(r)))
        code = _suit_code(w0, w1, s) & _low_bits(d)
        depths |= np.uint64(d) << np.uint64(8 * s)
        sieve_mask |= np.uint64(3) << np.uint64(2 * s)
        if s == 0:
            p0 |= code
        elif s == 1:
            p0 |= code << np.uint64(32)
        elif s == 2:
            p1 |= code
        else:
            p1 |= code << np.uint64(32)
    # the owners of the top cards this entry depends on, and which suits those are
    sig = ((_top_owners(w0, w1) & sieve_mask) << np.uint64(40)) | (sieve_mask << np.uint64(48))
    if depths >> np.uint64(24) != ZERO:
        shape = shape | _trump_tag(w1, everyone, suit_masks)
    slot = _find_shape(lookup, shape, slots)
    if slot >= 0:
        e = np.int64(lookup[slot, 1]) - 1
        while e >= 0:
            word = _sieve(lookup, slots, e)
            if word >> np.uint64(40) == sig >> np.uint64(40):
                packed = keys[e, 3]
                if keys[e, 0] == p0 and keys[e, 1] == p1 and packed & _DEPTHS == depths:
                    lo = max(lo, int((word >> np.uint64(24)) & np.uint64(0xFF)) - 1)
                    hi = min(hi, int((word >> np.uint64(32)) & np.uint64(0xFF)))
                    keys[e, 3] = _pack(depths, lo, hi)
                    bounds = (np.uint64(lo + 1) << np.uint64(24)) | (np.uint64(hi) << np.uint64(32))
                    _set_sieve(lookup, slots, e, (word & _SIEVE_BOUNDS) | bounds)
                    return
            e = np.int64(word & _NEXT) - 1
    if meta[META_ENTRIES] >= keys.shape[0] or (slot < 0 and meta[META_SHAPES] + 1 > SHAPE_FILL * slots):
        clear_table(lookup, meta)
        slot = _find_shape(lookup, shape, slots)
    if slot < 0:
        slot = -1 - slot
        lookup[slot, 0] = shape
        lookup[slot, 1] = ZERO
        meta[META_SHAPES] += 1
    e = meta[META_ENTRIES]
    meta[META_ENTRIES] = e + 1
    keys[e, 0] = p0
    keys[e, 1] = p1
    keys[e, 2] = ZERO
    keys[e, 3] = _pack(depths, lo, hi)
    bounds = (np.uint64(lo + 1) << np.uint64(24)) | (np.uint64(hi) << np.uint64(32))
    _set_sieve(lookup, slots, e, sig | bounds | lookup[slot, 1])
    lookup[slot, 1] = np.uint64(e + 1)
