"""Counter-based random numbers: every draw is a pure function of (key, counter).

A table's randomness must not depend on which other tables share its batch, how big the batch
is, which worker runs it, or where a run was resumed. A stateful generator shared by a batch
cannot promise that; SplitMix64 can: its n-th output is a hash of (key + n * golden), so each
table carries only its key and every decision names its counter. Keys for games, hands and
streams are derived from the run's seed by the same hash.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)

# Streams keep unrelated draws apart, so a new kind of decision never shifts the cards dealt.
STREAM_DEAL = 1
STREAM_DEALER = 2
STREAM_POLICY = 3


@njit(cache=True, inline="always")
def mix64(x: np.uint64) -> np.uint64:
    """SplitMix64's finaliser."""
    x = (x ^ (x >> np.uint64(30))) * _M1
    x = (x ^ (x >> np.uint64(27))) * _M2
    return x ^ (x >> np.uint64(31))


@njit(cache=True, inline="always")
def draw(key: np.uint64, counter: np.uint64) -> np.uint64:
    """The counter-th 64-bit output of the SplitMix64 sequence started at key."""
    return mix64(key + GOLDEN * (counter + np.uint64(1)))


@njit(cache=True, inline="always")
def unit(bits: np.uint64) -> float:
    """53 random bits as a float in [0, 1)."""
    return float(bits >> np.uint64(11)) * 1.1102230246251565e-16


@njit(cache=True)
def _derive(keys: np.ndarray, part: np.ndarray) -> np.ndarray:
    out = np.empty(keys.shape[0], dtype=np.uint64)
    for i in range(keys.shape[0]):
        out[i] = mix64(draw(keys[i], part[i]))
    return out


def derive(keys: np.ndarray | np.uint64 | int, part: np.ndarray | int) -> np.ndarray:
    """Child keys: the same (key, part) always gives the same key, other parts unrelated ones."""
    k, p = np.broadcast_arrays(np.asarray(keys, dtype=np.uint64), np.asarray(part, dtype=np.uint64))
    return _derive(np.array(k, copy=True).ravel(), np.array(p, copy=True).ravel()).reshape(k.shape)


def seed_key(seed: int) -> np.uint64:
    """The root key of a run; any Python int seed is folded into 64 bits."""
    return np.uint64(derive(np.uint64(int(seed) & 0xFFFFFFFFFFFFFFFF), 0x5EED)[()])


@njit(cache=True)
def _uniform(keys: np.ndarray, counter: np.uint64) -> np.ndarray:
    out = np.empty(keys.shape[0], dtype=np.float64)
    for i in range(keys.shape[0]):
        out[i] = unit(draw(keys[i], counter))
    return out


def uniform(keys: np.ndarray, counter: int) -> np.ndarray:
    """One float in [0, 1) per key for this counter."""
    return _uniform(np.ascontiguousarray(keys, dtype=np.uint64), np.uint64(counter))


def below(keys: np.ndarray, counter: int, n: np.ndarray | int) -> np.ndarray:
    """Integers uniform in [0, n) per key (bias under 2**-47 for n <= 64)."""
    return (uniform(keys, counter) * n).astype(np.int64)
