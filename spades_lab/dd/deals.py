"""Full deals for the solver's checks and timings: seeded random deals, and a deal in PBN for DDS."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from spades_lab.cards import STANDARD_DECK


def random_deals(n: int, seed: int) -> np.ndarray:
    """[n, 4] uint64 full deals from a seeded shuffle."""
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 4), dtype=np.uint64)
    for t in range(n):
        perm = rng.permutation(52)
        for seat in range(4):
            out[t, seat] = sum(1 << int(c) for c in perm[13 * seat : 13 * seat + 13])
    return out


def pbn(masks: Sequence[int] | np.ndarray) -> str:
    """A standard-deck deal (one card mask per seat) in PBN, seat 0 as North and the seats clockwise, the form
    DDS (through endplay) reads: endplay's `Player(i)` is our seat i."""
    hands = []
    for m in masks:
        labels = STANDARD_DECK.labels(int(m))
        hands.append(".".join("".join(lab[0] for lab in labels if lab[1] == s) for s in "SHDC"))
    return "N:" + " ".join(hands)
