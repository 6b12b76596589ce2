"""The `calibrated` bid: the count's parts valued by the shipped DD fit, less `dd_margin`, rounded half up;
the counting bidder's nil and bag rules around it."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import spades_lab as sl
from spades_lab.engine.position import position_view
from spades_lab.engine.protocol import ask_bids
from spades_lab.policies.calibrated import CalibratedBidder, CalibratedParams, calibrated_weights
from spades_lab.policies.counting import DEFAULT_COUNT, count_tricks

WEIGHTS = Path(sl.__file__).parent / "policies" / "data" / "calibrated_weights.json"


def _view(hand: str, dealer: int = 3):
    """Seat 0 holds `hand` and is to bid: first with dealer 3 (its side leads the first trick), after seat 3's
    bid of 3 with dealer 2 (seat 3 leads)."""
    mine = hand.split()
    rest = [c for c in sl.STANDARD_DECK.cards if c not in mine]
    bids = [None] * 4 if dealer == 3 else [None, None, None, 3]
    return position_view({"dealer": dealer, "hands": [mine, rest[0:13], rest[13:26], rest[26:39]],
                          "bids": bids})  # fmt: skip


# Each hand with the count's parts it holds, worked out by hand from the sheet's definitions.
HANDS = [
    ("AS KS 4S 3S AH KH 5H AD 2D 3C 4C 5C 6C",
     {"ace_spade": 1, "king_spade": 1, "spade_length_value": 1, "side_ace": 2, "side_king": 1}),
    ("QS 5S 4S 3S KH QH 2H 3H 4H 5H 6H 7D 8D",  # clubs void with four spades
     {"queen_spade": 1, "spade_length_value": 1, "side_king": 1, "side_queen": 1, "void_value": 1}),
    ("KS 2H 3H 4H 5H 6H 7H KD 2C 3C 4C 5C 6C",  # bare kings; the singleton needs three spades to count
     {"singleton_king_spade": 1, "side_singleton_king": 1}),
    ("QC 2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D", {"side_queen_alone": 1}),
    ("AS 2S 3S 4H 5H 6H 7H 8H 9H TD JD QD AC",  # the bare club ace is an ace and a singleton beside 3 spades
     {"ace_spade": 1, "side_ace": 1, "side_queen_alone": 1, "singleton_value": 1}),
    ("QS 3S 2S 4H 5H 6H 7H 8H 9H TH 2D 3D 4D",  # queen of spades with two others; a club void with three
     {"queen_spade": 1, "void_with_three_spades": 1}),
]  # fmt: skip


@pytest.mark.parametrize(("hand", "parts"), HANDS)
def test_expected_tricks_are_base_plus_the_weights_of_the_parts_held(hand: str, parts: dict[str, int]) -> None:
    w = calibrated_weights()
    bidder = CalibratedBidder(CalibratedParams())
    on_lead = bidder.expected_tricks(_view(hand, dealer=3))[0]  # seat 0 is left of dealer 3: its side leads
    other = bidder.expected_tricks(_view(hand, dealer=2))[0]
    by_hand = w["base"] + sum(w[name] * k for name, k in parts.items())
    assert on_lead == pytest.approx(by_hand + w["on_lead"] / 2)
    assert other == pytest.approx(by_hand)
    # the same parts valued at the sheet's numbers give the sheet's count: the hand-worked parts are right
    assert sum(getattr(DEFAULT_COUNT, name) * k for name, k in parts.items()) == count_tricks(hand)


@pytest.mark.parametrize("margin", [-1.0, 0.0, 0.5, 1.5])
def test_the_bid_rounds_the_expectation_less_the_margin_half_up(margin: float) -> None:
    hand = "AS KS 4S 3S AH KH 5H AD 2D 3C 4C 5C 6C"
    weights = {"base": 0.25, "on_lead": 0.5, "ace_spade": 1.5, "king_spade": 1.25, "spade_length_value": 1.0,
               "side_ace": 1.25, "side_king": 0.75}  # fmt: skip
    bidder = CalibratedBidder(CalibratedParams(dd_margin=margin), weights)
    expected = 0.25 + 0.25 + 1.5 + 1.25 + 1.0 + 2 * 1.25 + 0.75  # 7.5 on lead
    assert bidder.expected_tricks(_view(hand))[0] == pytest.approx(expected)
    assert ask_bids(bidder, _view(hand))[0] == max(1, math.floor(expected - margin + 0.5))


def test_with_the_sheets_values_and_half_a_trick_it_bids_as_counting() -> None:
    """floor(count - 0.5 + 0.5) = floor(count): same bids as `counting`, nil included, over random hands."""
    sheet = {name: float(getattr(DEFAULT_COUNT, name)) for name in calibrated_weights() if hasattr(DEFAULT_COUNT, name)}
    bidder = CalibratedBidder(CalibratedParams(dd_margin=0.5), {**sheet, "base": 0.0, "on_lead": 0.0})
    counting = sl.make_player("counting+tips").bidder
    rng = np.random.default_rng(3)
    bids = []
    for _ in range(40):
        hand = " ".join(rng.permutation(sl.STANDARD_DECK.cards)[:13])
        view = _view(hand)
        bids.append(int(ask_bids(bidder, view)[0]))
        assert bids[-1] == int(ask_bids(counting, view)[0])
    assert len(set(bids)) > 3  # the hands reach several bids, nil among them or not


def test_the_shipped_weights_come_from_the_fitting_script() -> None:
    data = json.loads(WEIGHTS.read_text())
    assert data["deals"] > 0 and "python -m spades_lab.fit counts" in data["about"]
    assert set(data["weights"]) >= {"base", "on_lead", "ace_spade", "side_ace", "side_queen", "void_value"}


def test_registered_with_its_parameters() -> None:
    player = sl.make_player("calibrated(dd_margin=1, -nil)+expert")
    assert player.bidder.params.dd_margin == 1 and not player.bidder.params.nil
    assert sl.check_policy("calibrated+expert", tables=8)["bid"] > 0
