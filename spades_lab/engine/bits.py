"""Bit tricks on uint64 hand masks, compiled for use inside batch kernels.

Every function here is a scalar `njit` helper: kernels loop over the tables of a batch and call
them per table, so there is one definition of "the k-th card of a mask" for the engine and every
policy (numpy code uses `np.bitwise_count` directly).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

ONE = np.uint64(1)
ZERO = np.uint64(0)
BIT = np.left_shift(ONE, np.arange(64, dtype=np.uint64))
"""BIT[i] is the mask of card id i."""


@njit(cache=True, inline="always")
def popcount(x: np.uint64) -> int:
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))  # type: ignore[return-value]  # numba int


@njit(cache=True, inline="always")
def lowest(x: np.uint64) -> int:
    """Id of the weakest card of a mask; -1 for an empty mask."""
    if x == ZERO:
        return -1
    return np.int64(trailing_zeros(x))  # type: ignore[call-arg,return-value]  # a numba intrinsic


@njit(cache=True, inline="always")
def highest(x: np.uint64) -> int:
    """Id of the strongest card of a mask; -1 for an empty mask."""
    if x == ZERO:
        return -1
    return 63 - np.int64(leading_zeros(x))  # type: ignore[call-arg,return-value]  # a numba intrinsic


@njit(cache=True, inline="always")
def nth(x: np.uint64, k: int) -> int:
    """Id of the k-th card of a mask counting from the weakest (k = 0 is `lowest`)."""
    for _ in range(k):
        x &= x - ONE
    return lowest(x)


@njit(cache=True, inline="always")
def above(card: int) -> np.uint64:
    """Mask of every id strictly above `card` (every id when card is -1)."""
    if card >= 63:
        return ZERO
    return ~((ONE << np.uint64(card + 1)) - ONE)


@njit(cache=True, inline="always")
def below(card: int) -> np.uint64:
    """Mask of every id strictly below `card`."""
    return (ONE << np.uint64(card)) - ONE
