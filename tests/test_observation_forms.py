"""Every form of what a seat sees (the numpy `Observation`, the per-table `TableView` and the compiled
record) agrees, field by field, with the others and with a slow recomputation from the view, at random
decisions of every preset; `needed` is the scorer's contract minus the tricks that count toward it."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spades_lab as sl
from spades_lab.engine import masks, scalar
from spades_lab.engine.observation import observe
from spades_lab.engine.scoring import score_hands
from spades_lab.engine.views import PlayView, table_views
from spades_lab.rules import PRESETS


class FormChecker:
    """Bids nil often (so nils break beside number bidders), plays at random, and checks each view it gets."""

    name = "form-checker"

    def __init__(self, nil_share: float) -> None:
        self.inner = sl.make_player("random")
        self.nil_share = nil_share
        self.checked = 0

    def blind(self, view):
        return self.inner.blind(view)

    def blind_bid(self, view):
        return self.inner.blind_bid(view)

    def draft(self, view):
        return self.inner.draft(view)

    def exchange(self, view):
        return self.inner.exchange(view)

    def bid(self, view):
        check_forms(view)
        self.checked += len(view)
        u = view.uniform()
        bids = self.inner.bid(view)
        nil = (u < self.nil_share) & view.legal_bids[:, 0]
        return np.where(nil, 0, bids)

    def play(self, view):
        check_forms(view)
        self.checked += len(view)
        return self.inner.play(view)


def _cards(mask: int) -> set[int]:
    return {c for c in range(52) if int(mask) >> c & 1}


def _beats(card: int, best: int, suit_of: np.ndarray) -> bool:
    """The trick rule restated plainly: a higher card of the holder's suit, or any trump over a side card."""
    held, played = int(suit_of[best]), int(suit_of[card])
    return (played == held and card > best) or (played == 3 and held != 3)


def check_forms(view) -> None:
    rules, deck, p, sides = view.rules, view.deck, view.players, view.rules.sides
    obs = observe(view)
    rec = scalar.records(view)
    tables = table_views(view)
    is_play = isinstance(view, PlayView)
    suit_of = np.asarray(deck.suit_of)
    dealt = set(range(52)) - ({deck.index["2C"]} if p == 3 else set())
    if is_play:
        score = score_hands(rules, view.bids, view.tricks_won, np.zeros((len(view), sides), dtype=np.int64))
        scored_need = np.maximum(score.contract - score.contract_tricks, 0)
    for t in range(len(view)):
        seat = int(view.seat[t])
        rel = [(seat + k) % p for k in range(p)]
        us = [(seat % sides + k) % sides for k in range(sides)]
        hand = _cards(view.hand[t])
        played = _cards(view.played[t]) if is_play else set()
        unseen = dealt - hand - played
        # the three forms against each other
        assert rec["hand"][t] == masks.from_bool(obs.hand[t : t + 1])[0]
        for field in ("bids", "tricks_won", "trick_cards"):
            assert list(rec[field][t, :p]) == list(getattr(obs, field)[t]), field
        for field in ("contract", "tricks", "needed", "scores", "bags"):
            assert list(rec[field][t, :sides]) == list(getattr(obs, field)[t]), field
            assert list(getattr(tables[t], field)) == list(getattr(obs, field)[t]), field
        for field in ("leader", "led_suit", "winning_card", "winning_seat", "partner_winning", "master"):
            assert rec[field][t] == getattr(obs, field)[t], field
        assert list(rec["blind"][t, :p].astype(bool)) == list(obs.blind[t]) == tables[t].blind
        assert rec["winners"][t] == masks.from_bool(obs.winners[t : t + 1])[0]
        assert rec["unseen"][t] == masks.from_bool(obs.unseen[t : t + 1])[0]
        assert {deck.cards[c] for c in unseen} == set(tables[t].unseen)
        assert tables[t].voids == [list(row) for row in obs.voids[t]]
        # each against the view, recomputed slowly
        assert _cards(rec["unseen"][t]) == unseen
        assert list(obs.bids[t]) == [int(view.bids[t, s]) for s in rel]
        assert list(obs.scores[t]) == [int(view.scores[t, s]) for s in us]
        if not is_play:
            continue
        assert list(obs.needed[t]) == [int(scored_need[t, s]) for s in us]
        assert list(obs.tricks_won[t]) == [int(view.tricks_won[t, s]) for s in rel]
        for k, s in enumerate(rel):
            for suit in range(4):
                assert obs.voids[t, k, suit] == bool(int(view.shown_voids[t]) >> (4 * s + suit) & 1)
        best = int(view.winning_card[t])
        legal = _cards(view.legal[t])
        if best < 0:
            assert _cards(rec["winners"][t]) == legal and not obs.master[t]
            continue
        assert _cards(rec["winners"][t]) == {c for c in legal if _beats(c, best, suit_of)}
        assert obs.master[t] == (not any(_beats(c, best, suit_of) for c in unseen))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seed=st.integers(0, 2**31 - 1),
    nil_share=st.sampled_from([0.0, 0.3, 0.6]),
    to_partner=st.booleans(),
    as_bags=st.booleans(),
)
def test_every_form_agrees_and_needed_follows_the_scorer(
    preset: str, seed: int, nil_share: float, to_partner: bool, as_bags: bool
) -> None:
    base = PRESETS[preset]
    partners = base.sides < base.players  # the nil-trick fields exist between partners only
    rules = dataclasses.replace(
        base, hand_cap=1, nil_tricks_to_partner=to_partner and partners, nil_tricks_as_bags=as_bags
    )
    checker = FormChecker(nil_share)
    list(sl.simulate_games(rules, [checker] * rules.players, 3, seed=seed, batch_size=3))
    assert checker.checked > 0
