"""Baselines every comparison needs: uniformly random legal bids and plays."""

from __future__ import annotations

import numpy as np

from spades_lab.engine import BidView, PlayView
from spades_lab.engine.kernels import pick_nth_legal, pick_nth_true


class RandomBid:
    """Bids uniformly among the legal bids (nil included), from each table's own random stream."""

    name = "random"

    def bid(self, view: BidView) -> np.ndarray:
        return pick_nth_true(view.legal_bids, view.uniform())


class RandomPlay:
    """Plays uniformly among the legal cards, from each table's own random stream."""

    name = "random"

    def play(self, view: PlayView) -> np.ndarray:
        return pick_nth_legal(view.legal, view.uniform())
