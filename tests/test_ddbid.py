"""The `dd` bid: expected double-dummy share minus the margin, the legal bids respected, DD-checked nils,
reproducible worlds (the solver compiles on first use)."""

from __future__ import annotations

import numpy as np
import pytest

from spades_lab import Rules, make_player
from spades_lab.cards import STANDARD_DECK
from spades_lab.engine.position import position_view
from spades_lab.engine.protocol import ask_bids
from spades_lab.policies.ddbid import DDBidParams

DECK = STANDARD_DECK
ALL_SPADES = " ".join(r + "S" for r in "23456789TJQKA")
OTHERS = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
]


def _position(seat_hand: str, partner_bid: int | None) -> dict:
    """Dealer 2: seat 3 bids first, then seat 0, then seat 1 (holding `seat_hand`), whose partner is seat 3."""
    rest = [c for h in OTHERS + [ALL_SPADES] for c in h.split() if c not in seat_hand.split()]
    hands = [rest[0:13], seat_hand.split(), rest[13:26], rest[26:39]]
    if partner_bid is None:
        # seat 1 bids first of its side: dealer 0 makes seat 1 the first bidder
        return {"dealer": 0, "hands": hands, "bids": [None] * 4}
    return {"dealer": 2, "hands": hands, "bids": [3, None, None, partner_bid]}


def _bid(player: str, position: dict) -> int:
    view = position_view(position)
    return int(ask_bids(make_player(player + "+expert"), view)[0])


@pytest.mark.parametrize(
    ("player", "partner_bid", "expected"),
    [
        ("dd(worlds=4,margin=0)", 0, 13),  # every trick is the seat's, partner bid nil
        ("dd(worlds=4,margin=1)", 0, 12),  # the margin comes off
        ("dd(worlds=4,margin=2.5)", 0, 11),  # 10.5 rounds half up
        ("dd(worlds=4,margin=0)", 1, 12),  # partner's number is partner's
        ("dd(worlds=4,margin=1)", 4, 8),
    ],
)
def test_thirteen_top_spades(player: str, partner_bid: int, expected: int) -> None:
    assert _bid(player, _position(ALL_SPADES, partner_bid)) == expected


@pytest.mark.parametrize(("margin", "expected"), [(0, 13), (1, 12)])
def test_thirteen_spades_bid_first_of_the_side_keep_every_trick(margin: int, expected: int) -> None:
    """Partner has not bid: its sampled hands hold aces the counting count credits, but every one of them
    is ruffed or overtaken by the thirteen spades, so none comes off this seat's tricks."""
    assert _bid(f"dd(worlds=4,margin={margin})", _position(ALL_SPADES, None)) == expected


def test_sure_trumps_stop_at_the_first_trump_held_elsewhere() -> None:
    from spades_lab.engine.masks import from_ids
    from spades_lab.policies.ddbid import sure_trumps

    def hand(cards: str) -> int:
        return int(from_ids(np.array([DECK.index[c] for c in cards.split()])))

    hands = np.array([[[hand("AS KS JS 2C"), hand("QS 3C"), hand("TS"), hand("9S")]]], dtype=np.uint64)
    assert sure_trumps(hands, np.array([0]), DECK).tolist() == [[2]]  # A K; the Q is out, so the J is not sure
    assert sure_trumps(hands, np.array([1]), DECK).tolist() == [[0]]


def test_legal_bids_are_respected() -> None:
    """max_bid 10: the 13 spades bid the nearest legal number, 10."""
    rules = Rules(max_bid=10)
    view = position_view(_position(ALL_SPADES, 0), rules)
    bid = int(ask_bids(make_player("dd(worlds=4,margin=0)+expert"), view)[0])
    assert bid == 10 and view.legal_bids[0, bid]


MIDDLING = "AC KC 7C 3C QD 8D 4D TH 9H 2H KS 6S 3S"


def test_margin_shifts_the_bid_and_worlds_reproduce() -> None:
    position = _position(MIDDLING, 0)
    bids = [_bid(f"dd(worlds=6,margin={m},nil=False)", position) for m in (0, 1, 2)]
    assert bids[0] >= 3, bids  # the side's DD tricks with AC KC QD KS and partner's help
    assert bids[0] - bids[1] == 1 and bids[1] - bids[2] == 1
    assert _bid("dd(worlds=6,margin=0,nil=False)", position) == bids[0]  # the same seed, the same worlds
    view = position_view(position)
    bidder = make_player("dd(worlds=6)+expert").bidder
    share, hands, _ = bidder.expected_share(view)
    again, hands_again, _ = bidder.expected_share(position_view(position))
    assert share[0] == again[0] and np.array_equal(hands, hands_again)
    assert (hands[0, :, 1] == np.uint64(DECK.mask(MIDDLING.split()))).all()  # the seat's own hand fixed


LOW = "2C 3C 4C 2D 3D 4D 5D 2H 3H 4H 5H 2S 3S"


def test_nil_when_dd_says_it_is_made() -> None:
    """The thirteen lowest-ish cards: a nil double dummy in most worlds; without `nil` a number."""
    position = _position(LOW, None)
    assert _bid("dd(worlds=6)", position) == 0
    assert _bid("dd(worlds=6,nil=False)", position) >= 1
    assert _bid("dd(worlds=6,nil_chance=1.0,nil_max_bid=0)", position) >= 1  # the nil is not even asked


def test_parameters_are_checked() -> None:
    with pytest.raises(ValueError, match="margin"):
        DDBidParams(margin=-1)
    with pytest.raises(ValueError, match="worlds"):
        DDBidParams(worlds=0)
