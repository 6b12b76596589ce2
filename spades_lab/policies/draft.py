"""Duel draft and nil-exchange heuristics: a card's trick value for the draft, rank orders for the passes."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import ClassVar

import numpy as np

from spades_lab.cards import Deck, natural_rank
from spades_lab.engine.views import DraftView, ExchangeView
from spades_lab.policies.params import CheckedParams, Ranges, WithoutParams

SIDE_VALUE = {12: 1.0, 11: 0.7, 10: 0.4, 9: 0.2}
"""Chance-like worth of a side-suit ace, king, queen, jack; lower cards 0.05."""


@cache
def trick_values(deck: Deck) -> np.ndarray:
    """A rough chance that each card id takes a trick: trumps 0.4 (lowest) to 1.0 (highest), side honours by rank."""
    values = np.empty(52)
    trump_ids = np.flatnonzero(deck.suit_of == 3)
    for card_id, label in enumerate(deck.cards):
        if deck.suit_of[card_id] == 3:
            values[card_id] = 0.4 + 0.6 * (card_id - trump_ids[0]) / (len(trump_ids) - 1)
        else:
            values[card_id] = SIDE_VALUE.get(natural_rank(label), 0.05)
    values.setflags(write=False)
    return values


@dataclass(frozen=True)
class ValueDraftParams(CheckedParams):
    threshold: float = 0.5
    """Keep the top card when its trick value is at least this; otherwise gamble on the next card."""

    POLICY: ClassVar[str] = "value draft"
    RANGES: ClassVar[Ranges] = (("threshold", 0, 1),)  # trick values run 0.05..1


class ValueDraft:
    """Keep a card by its trick value for the hand being built.

    The shown card is kept (and the unseen next card discarded) when its estimated chance of taking
    a trick (`trick_values`: trumps 0.4..1.0 by rank, side aces 1.0, kings 0.7, queens 0.4, jacks
    0.2, others 0.05) reaches `threshold`; otherwise it is discarded and the next card is taken,
    whose expected value over a full deck (about 0.35) beats a low card's.
    """

    name = "value"

    def __init__(self, params: ValueDraftParams = ValueDraftParams()) -> None:
        self.params = params

    def draft(self, view: DraftView) -> np.ndarray:
        return np.asarray(trick_values(view.deck)[view.top] >= self.params.threshold)


@cache
def pass_orders(deck: Deck) -> tuple[np.ndarray, np.ndarray]:
    """(low, danger) sort keys per card id for the two passes of a nil exchange (HEURISTICS.md section 4).

    low: the partner's pass, its lowest cards first (by rank, side cards before any trump: the partner
    keeps its trumps for coverage, and a spade passed would only be passed straight back). danger: the nil bidder's pass back, most
    dangerous first: its highest trumps, then side aces, kings and so on down.
    """
    low = np.empty(52)
    danger = np.empty(52)
    trump_ids = np.flatnonzero(deck.suit_of == 3)
    for card_id, label in enumerate(deck.cards):
        rank = natural_rank(label)
        trump = deck.suit_of[card_id] == 3
        strength = card_id - trump_ids[0] if trump else 0  # trump ids run weakest first
        low[card_id] = rank + (13.0 if trump else 0.0)
        danger[card_id] = -(100 + strength) if trump else -rank
    low.setflags(write=False)
    danger.setflags(write=False)
    return low, danger


class HighExchange(WithoutParams):
    """The nil exchange of HEURISTICS.md section 4, as corrected: each side of the pair passes what helps the nil.

    The partner (who will cover) passes its lowest cards: they are the nil bidder's escape cards.
    The nil bidder passes back its most dangerous cards: its highest spades first, then aces, then
    kings. (The name is kept from an earlier version that passed the highest cards both ways, which
    gave the nil bidder the partner's winners and often sent the same card straight back.)
    """

    name = "high"

    def exchange(self, view: ExchangeView) -> np.ndarray:
        low, danger = pass_orders(view.deck)
        return most(view.hand, low if view.passing_to_nil else danger, view.cards)


def most(hands: np.ndarray, key: np.ndarray, k: int) -> np.ndarray:
    """The mask of the `k` cards of each hand that come first by `key` (per card id, lowest first; ties by id)."""
    held = ((hands[:, None] >> np.arange(52, dtype=np.uint64)) & np.uint64(1)).astype(bool)
    ranked = np.argsort(np.where(held, key, np.inf), axis=1, kind="stable")[:, :k]
    return np.asarray(np.bitwise_or.reduce(np.left_shift(np.uint64(1), ranked.astype(np.uint64)), axis=1))
