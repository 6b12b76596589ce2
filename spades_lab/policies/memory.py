"""What a seat remembers of the play: who has shown out of which suit, and which trumps are still out.

A seat that does not follow the led suit has shown everyone at the table that it holds no card of
that suit, for the rest of the hand. Every seat sees every card played, so these voids are part of
what the acting seat may know; nothing here looks at another seat's hand. The trumps still out are
the trumps neither in the acting seat's hand nor played (its `unseen` trumps).

The voids of one table are a 16-bit mask, bit `4 * seat + suit` set when `seat` has shown out of
the suit block `suit` (0-2 the side suits, 3 the trumps, as in `spades_lab.cards`). The compiled
scalar `shown_voids` derives them from a history; `voids_batch` is the same over a batch, for
analysis and tests. During play the engine keeps the same mask as the cards fall
(`PlayView.shown_voids`), which is what the expert's kernel reads.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spades_lab.cards import Deck
from spades_lab.engine import trick
from spades_lab.engine.bits import ZERO
from spades_lab.engine.trick import SuitMasks

suit_index = trick.suit
"""The suit block (0-3) of a card id: the engine's trick rule, under the name the expert kernel reads."""


@njit(cache=True)
def shown_voids(history: np.ndarray, seats: np.ndarray, players: int, suits: SuitMasks) -> int:
    """Bit `4 * seat + suit` for every seat that failed to follow a led suit in `history` (plays in order)."""
    voids = 0
    for i in range(history.shape[0]):
        if i % players == 0:
            continue
        led = suit_index(history[i - i % players], suits)
        if suit_index(history[i], suits) != led:
            voids |= 1 << (4 * seats[i] + led)
    return voids


@njit(cache=True, inline="always")
def seat_voids(voids: int, seat: int) -> int:
    """The 4-bit mask of suits `seat` has shown out of (bit = suit block); 0 for seat -1."""
    return (voids >> (4 * seat)) & 15 if seat >= 0 else 0


@njit(cache=True, inline="always")
def void_cards(seat_mask: int, suits: SuitMasks) -> np.uint64:
    """The cards of every suit in a 4-bit suit mask (the cards a seat with these voids cannot hold)."""
    cards = ZERO
    for s in range(4):
        if (seat_mask >> s) & 1 == 1:
            cards |= suits[s]
    return cards


@njit(cache=True)
def _voids_kernel(history: np.ndarray, seats: np.ndarray, players: int, suits: SuitMasks) -> np.ndarray:
    out = np.empty(history.shape[0], dtype=np.int64)
    for t in range(history.shape[0]):
        out[t] = shown_voids(history[t], seats[t], players, suits)
    return out


def voids_batch(plays: np.ndarray, play_seats: np.ndarray, players: int, deck: Deck) -> np.ndarray:
    """Per table, the 16-bit mask of shown voids, from a `PlayView`'s `plays` and `play_seats` ([n, k])."""
    suits = tuple(np.uint64(m) for m in deck.suit_masks)
    plays = np.ascontiguousarray(plays, dtype=np.int8)
    seats = np.ascontiguousarray(play_seats, dtype=np.int8)
    return _voids_kernel(plays, seats, players, suits)


def unseen_trumps(hand: np.ndarray, played: np.ndarray, deck: Deck) -> np.ndarray:
    """Per table, the mask of trumps still out: in no hand the seat sees and not played yet."""
    trumps = np.uint64(deck.suit_masks[3])
    return trumps & ~(np.asarray(hand, dtype=np.uint64) | np.asarray(played, dtype=np.uint64))
