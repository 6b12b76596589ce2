"""Baselines every comparison needs: uniformly random legal bids and plays."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numba import njit

from spades_lab.engine import BidView, PlayView
from spades_lab.engine.bits import BIT
from spades_lab.engine.kernels import pick_nth_legal, pick_nth_true, uniform_card
from spades_lab.engine.turn import Game, Turn
from spades_lab.engine.views import BlindBidView, BlindView, DraftView, ExchangeView
from spades_lab.policies.params import CheckedParams, Ranges, WithoutParams
from spades_lab.rules import Rules


@dataclass(frozen=True)
class RandomBidParams(CheckedParams):
    blind_rate: float = 0.5
    """Chance of declaring blind nil where the rules allow it."""

    POLICY: ClassVar[str] = "random bid"
    RANGES: ClassVar[Ranges] = (("blind_rate", 0, 1),)


class RandomBid:
    """Bids uniformly among the legal bids (nil included), from each table's own random stream.

    Where blind nil is allowed it declares one with probability `blind_rate` (before seeing its cards).
    """

    name = "random"

    def __init__(self, blind_rate: float | RandomBidParams = 0.5) -> None:
        self.blind_rate = blind_rate.blind_rate if isinstance(blind_rate, RandomBidParams) else blind_rate

    def blind(self, view: BlindView) -> np.ndarray:
        return view.uniform() < self.blind_rate

    def bid(self, view: BidView) -> np.ndarray:
        return pick_nth_true(view.legal_bids, view.uniform())

    def blind_bid(self, view: BlindBidView) -> np.ndarray:
        """With probability `blind_rate` a uniform legal blind number (one draw: u < rate, then u / rate)."""
        u = view.uniform()
        number = pick_nth_true(view.legal_bids, np.minimum(u / self.blind_rate, 0.999999) if self.blind_rate else u)
        return np.where(u < self.blind_rate, number, 0).astype(np.int64)


@njit(cache=True)
def random_at(s: Turn, g: Game, k: Any) -> int:
    """A uniform legal card of one table, from its draw: `pick_nth_legal`'s choice."""
    return uniform_card(s.legal, s.u)


class RandomPlay(WithoutParams):
    """Plays uniformly among the legal cards, from each table's own random stream."""

    name = "random"

    def compiled_play(self, rules: Rules) -> tuple[Any, Any]:
        """The per-table play function (a uniform legal card from the turn's draw), for the fused loop."""
        return random_at, 0

    def play(self, view: PlayView) -> np.ndarray:
        return pick_nth_legal(view.legal, view.uniform())


class RandomDraft(WithoutParams):
    """Keeps or discards the top card with even odds."""

    name = "random"

    def draft(self, view: DraftView) -> np.ndarray:
        return view.uniform() < 0.5


class RandomExchange(WithoutParams):
    """Passes `view.cards` cards drawn uniformly from the hand."""

    name = "random"

    def exchange(self, view: ExchangeView) -> np.ndarray:
        hand = view.hand.copy()
        passed = np.zeros(len(view), dtype=np.uint64)
        for draw in range(view.cards):
            card = pick_nth_legal(hand, view.uniform(draw))
            bit = BIT[card]
            passed |= bit
            hand ^= bit
        return passed
