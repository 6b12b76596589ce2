"""Duel draft and blind-nil exchange heuristics, both built on one estimate of a card's trick value."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from spades_lab.cards import Deck, natural_rank
from spades_lab.engine.views import DraftView, ExchangeView
from spades_lab.policies.registry import register

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
class ValueDraftParams:
    threshold: float = 0.5
    """Keep the top card when its trick value is at least this; otherwise gamble on the next card."""


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
        return trick_values(view.deck)[view.top] >= self.params.threshold


class HighExchange:
    """Pass the highest cards by trick value (HEURISTICS.md section 4: the partner passes its highest cards).

    The blind-nil bidder does the same: its highest cards are the ones that would win tricks.
    """

    name = "high"

    def exchange(self, view: ExchangeView) -> np.ndarray:
        values = trick_values(view.deck)
        hand = view.hand
        held = ((hand[:, None] >> np.arange(52, dtype=np.uint64)) & np.uint64(1)).astype(bool)
        ranked = np.argsort(np.where(held, -values, np.inf), axis=1, kind="stable")[:, : view.cards]
        return np.bitwise_or.reduce(np.left_shift(np.uint64(1), ranked.astype(np.uint64)), axis=1)


@register("draft", "value", ValueDraftParams)
def _value_draft(params: ValueDraftParams) -> ValueDraft:
    """Keep the top card when its trick value reaches the threshold, else take the next card."""
    return ValueDraft(params)


@register("exchange", "high")
def _high_exchange(params) -> HighExchange:
    """Pass the highest cards by trick value."""
    return HighExchange()
