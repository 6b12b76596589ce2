"""The `dd` bid: expected double-dummy share minus the margin, the legal bids respected, DD-checked nils,
reproducible worlds (the solver compiles on first use)."""

from __future__ import annotations

import numpy as np
import pytest

from spades_lab import Rules, make_player
from spades_lab.cards import STANDARD_DECK
from spades_lab.engine.position import position_view
from spades_lab.engine.protocol import ask_bids
from spades_lab.policies.ddbid import DDBidParams, best_number, bid_points

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
    assert _bid("dd(worlds=6,nil_nodes=1)", position) >= 1  # no world's nil solve ends: none is shown made
    assert _bid("dd(worlds=6,nil_nodes=1,objective=score)", position) >= 1


def test_parameters_are_checked() -> None:
    with pytest.raises(ValueError, match="margin"):
        DDBidParams(margin=-1)
    with pytest.raises(ValueError, match="worlds"):
        DDBidParams(worlds=0)


def test_bid_points_are_the_rules_hand_score_over_the_worlds() -> None:
    """Two worlds: the side takes 5 or 7 DD tricks, partner bid 2, no bags carried, margin 0, a bag at its
    point alone. Bid 3 (contract 5): made both times, 50 and 52 (two bags): 51. Bid 4 (contract 6): set, -60, or
    made with a bag, 61: 0.5. Bid 5 (contract 7): -70 or 70: 0. With a bag costing 10 more, bid 3 is 50 and 32: 41."""
    side, partner, bags = np.array([[5.0, 7.0]]), np.array([[2.0, 2.0]]), np.array([0])
    points = bid_points(Rules(), side, partner, bags, 0.0, 0.0)[0]
    assert (points[3], points[4], points[5]) == (51.0, 0.5, 0.0)
    assert bid_points(Rules(), side, partner, bags, 0.0, 10.0)[0, 3] == 41.0
    # margin 1 is one trick fewer in every world (4 or 6); margin 0.5 is the mean of margins 0 and 1
    assert bid_points(Rules(), side, partner, bags, 1.0, 0.0)[0, 3] == (-50 + 51) / 2
    half = bid_points(Rules(), side, partner, bags, 0.5, 0.0)[0]
    assert half[3] == pytest.approx((51.0 + 0.5) / 2)
    # bags carried in: 8 bags and two more this hand bring the penalty (-100) in the world of 7 tricks
    assert bid_points(Rules(), side, partner, np.array([8]), 0.0, 0.0)[0, 3] == (50 + 52 - 100) / 2
    # the nil: broken in one world (-100; its trick a bag, partner's 2 made with 4: 20 and two bags more),
    # made in the other (100; partner's 2 made with 7: 25)
    nil = bid_points(Rules(), side, partner, bags, 0.0, 0.0, np.array([[True, False]]))[0, 0]
    assert nil == ((-100 + 20 + 3) + (100 + 20 + 5)) / 2
    legal = np.ones((1, 14), dtype=bool)
    assert best_number(points[None, :], legal).tolist() == [3]
    legal[0, 3] = False  # then bid 2 (contract 4, always made: 41 or 43, 42) before bid 4 (0.5)
    assert points[2] == 42.0 and best_number(points[None, :], legal).tolist() == [2]


def test_the_score_objective_bids_for_the_expected_score() -> None:
    """Thirteen top spades, partner nil: thirteen tricks in every world, so the best expected score is the
    full contract less the margin, as the trick objective bids. A middling hand: the score objective bids
    no more than the trick objective (a set costs the contract, an overtrick one point), and reproduces."""
    assert _bid("dd(worlds=4,margin=0,objective=score)", _position(ALL_SPADES, 0)) == 13
    assert _bid("dd(worlds=4,margin=1,objective=score)", _position(ALL_SPADES, 0)) == 12
    position = _position(MIDDLING, 0)
    by_score = _bid("dd(worlds=6,margin=0,nil=False,objective=score)", position)
    assert 1 <= by_score <= _bid("dd(worlds=6,margin=0,nil=False)", position)
    assert _bid("dd(worlds=6,margin=0,nil=False,objective=score)", position) == by_score
    with pytest.raises(ValueError, match="objective"):
        DDBidParams(objective="points")
