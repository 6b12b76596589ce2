"""Batch helpers between uint64 card masks, boolean [n, 52] masks and card-id arrays.

Card ids follow the deck (`deck.cards[id]` is the label): suit blocks clubs, diamonds, hearts,
then the trump block, each weakest first. So the lowest *id* of a hand is its weakest club, not
its weakest card. For "weakest card first" use `weakest_first`: every side-suit card ranks below
every trump; side cards by rank (2 < 3 < ... < A), equal ranks by suit (C < D < H); trumps by
their place in the trump order. These functions are numpy only (no per-card Python loop) and
work on arrays of any leading shape.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from spades_lab.cards import TRUMP, Deck, natural_rank

_SHIFTS = np.arange(52, dtype=np.uint64)
ONE = np.uint64(1)


@njit(cache=True)
def _to_bool(flat: np.ndarray) -> np.ndarray:
    out = np.zeros((flat.shape[0], 52), dtype=np.bool_)
    for t in range(flat.shape[0]):
        m = flat[t]
        for c in range(52):
            out[t, c] = (m >> np.uint64(c)) & np.uint64(1) == np.uint64(1)
    return out


def to_bool(masks: np.ndarray | int) -> np.ndarray:
    """[..., 52] bool: column c is True where card id c is in the mask."""
    masks = np.asarray(masks, dtype=np.uint64)
    return _to_bool(np.ascontiguousarray(masks.reshape(-1))).reshape(masks.shape + (52,))


def from_bool(cards: np.ndarray) -> np.ndarray:
    """uint64 masks from [..., 52] bool arrays (the inverse of `to_bool`)."""
    cards = np.asarray(cards, dtype=bool)
    return np.bitwise_or.reduce(cards.astype(np.uint64) << _SHIFTS, axis=-1)


def from_ids(ids: np.ndarray) -> np.ndarray:
    """uint64 masks from [..., k] card-id arrays; -1 entries are ignored."""
    ids = np.asarray(ids, dtype=np.int64)
    bits = np.where(ids >= 0, ONE << np.clip(ids, 0, 63).astype(np.uint64), np.uint64(0))
    return np.bitwise_or.reduce(bits, axis=-1) if ids.shape[-1] else np.zeros(ids.shape[:-1], dtype=np.uint64)


def count(masks: np.ndarray | int) -> np.ndarray:
    """Number of cards in each mask."""
    return np.bitwise_count(np.asarray(masks, dtype=np.uint64)).astype(np.int64)


def has(masks: np.ndarray | int, ids: np.ndarray | int) -> np.ndarray:
    """True where card id `ids` is in the mask (elementwise; -1 is never in a mask)."""
    ids = np.asarray(ids, dtype=np.int64)
    bit = ONE << np.clip(ids, 0, 63).astype(np.uint64)
    return (ids >= 0) & ((np.asarray(masks, dtype=np.uint64) & bit) != 0)


@lru_cache(maxsize=8)
def strength_order(deck: Deck) -> np.ndarray:
    """[52] card ids, weakest first (see the module docstring)."""
    suit = np.asarray(deck.suit_of, dtype=np.int64)
    place = np.zeros(52, dtype=np.int64)
    for s in range(4):
        block = np.flatnonzero(suit == s)
        place[block] = np.arange(len(block))
    side_rank = np.array([natural_rank(label) for label in deck.cards])
    key = np.where(suit == TRUMP, 1000 + place, side_rank * 4 + suit)
    order = np.argsort(key, kind="stable")
    order.setflags(write=False)
    return order


def card_ids(masks: np.ndarray | int, width: int = 13, weakest: bool = True, deck: Deck | None = None) -> np.ndarray:
    """[..., width] card ids of each mask, padded with -1 at the end.

    `weakest=True` (default) lists cards weakest first (trumps last, see the module docstring);
    `weakest=False` lists them by id (suit blocks clubs, diamonds, hearts, trumps). Cards beyond
    `width` are dropped, so pass 52 for masks that may hold more than 13 cards.
    """
    from spades_lab.cards import STANDARD_DECK

    order = strength_order(deck or STANDARD_DECK) if weakest else np.arange(52)
    masks = np.asarray(masks, dtype=np.uint64)
    flat = _card_ids(np.ascontiguousarray(masks.reshape(-1)), np.ascontiguousarray(order, dtype=np.int64), width)
    return flat.reshape(masks.shape + (width,))


@njit(cache=True)
def _card_ids(flat: np.ndarray, order: np.ndarray, width: int) -> np.ndarray:
    out = np.full((flat.shape[0], width), -1, dtype=np.int64)
    for t in range(flat.shape[0]):
        m = flat[t]
        k = 0
        for i in range(52):
            c = order[i]
            if k < width and (m >> np.uint64(c)) & np.uint64(1) == np.uint64(1):
                out[t, k] = c
                k += 1
    return out


def suit_of(ids: np.ndarray | int, deck: Deck) -> np.ndarray:
    """The engine's suit of each card id (0 clubs, 1 diamonds, 2 hearts, 3 trumps); -1 for -1."""
    ids = np.asarray(ids, dtype=np.int64)
    return np.where(ids >= 0, np.asarray(deck.suit_of, dtype=np.int64)[np.clip(ids, 0, 51)], -1)


@lru_cache(maxsize=8)
def _ranks(deck: Deck) -> np.ndarray:
    ranks = np.array([natural_rank(label) for label in deck.cards], dtype=np.int64)
    ranks.setflags(write=False)
    return ranks


def rank_of(ids: np.ndarray | int, deck: Deck) -> np.ndarray:
    """The printed rank of each card id: 0 for a deuce .. 12 for an ace, 13 little and 14 big joker; -1 for -1.

    In the jokers decks the promoted deuce keeps rank 0 although it is a high trump: compare
    strength with ids (within a suit) or `strength_order`, not with ranks.
    """
    ids = np.asarray(ids, dtype=np.int64)
    return np.where(ids >= 0, _ranks(deck)[np.clip(ids, 0, 51)], -1)


def suit_mask(suits: np.ndarray | int, deck: Deck) -> np.ndarray:
    """uint64 mask of every card of each engine suit (0..3); 0 for -1."""
    suits = np.asarray(suits, dtype=np.int64)
    masks = np.asarray(deck.suit_masks, dtype=np.uint64)
    return np.where(suits >= 0, masks[np.clip(suits, 0, 3)], np.uint64(0))


def above(ids: np.ndarray | int) -> np.ndarray:
    """uint64 mask of every id strictly above each card id (every id for -1)."""
    ids = np.asarray(ids, dtype=np.int64)
    low = (ONE << (np.clip(ids, -1, 62) + 1).astype(np.uint64)) - ONE
    return np.where(ids >= 63, np.uint64(0), ~low)
