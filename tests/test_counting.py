"""The counting bid and nil rule against HEURISTICS.md sections 1 and 2.

Every expected value was worked out by hand from the rule text; the comment on each row
is that working. Each row is checked against both the scalar and the batch version, and
hypothesis checks that the two agree on random deals.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades_lab.cards import STANDARD_DECK
from spades_lab.policies.counting import (
    CountParams,
    NilParams,
    count_tricks,
    count_tricks_batch,
    counting_bid,
    nil_ok,
    nil_ok_batch,
)

# Side cards with no honours and no suit shorter than two: they add nothing.
PLAIN_SIDE = "5H 4H 3H 2H 6D 5D 4D 3D 4C 3C"

COUNT_CASES = [
    # rule, hand, expected count, working
    ("nothing", "5S 3S 2S " + PLAIN_SIDE, 0.0, "no honour, 3 spades, no short suit"),
    ("ace of spades", "AS 3S 2S " + PLAIN_SIDE, 1.0, "AS 1"),
    ("king of spades guarded", "KS 3S 2S " + PLAIN_SIDE, 1.0, "KS 1"),
    ("king of spades alone", "KS 5H 4H 3H 2H 7D 6D 5D 4D 3D 5C 4C 3C", 0.5, "only spade: 0.5"),
    (
        "king of spades alone, long sides",
        "KS 7H 6H 5H 4H 3H 2H 8D 7D 6D 5D 4D 3D",
        0.5,
        "0.5; void clubs with 1 spade 0",
    ),
    ("queen of spades two others", "QS 3S 2S " + PLAIN_SIDE, 1.0, "QS + two others: 1"),
    ("queen of spades one other", "QS 2S 5H 4H 3H 2H 7D 6D 5D 4D 3D 4C 3C", 0.0, "QS + one other: 0"),
    ("queen of spades with ace only", "AS QS 5H 4H 3H 2H 7D 6D 5D 4D 3D 4C 3C", 1.0, "AS 1, QS one other 0"),
    ("AKQ of spades", "AS KS QS " + PLAIN_SIDE, 3.0, "1 + 1 + QS with two others 1; 3 spades no length"),
    ("spade length", "9S 8S 7S 6S 5S 3S 5H 4H 3H 6D 5D 4C 3C", 3.0, "6 spades: 3 beyond the third"),
    ("length on top of honours", "AS KS QS JS 5H 4H 3H 6D 5D 4D 4C 3C 2C", 4.0, "1 + 1 + 1 + length 1"),
    ("side aces", "4S 3S 2S AH 4H 3H 2H AD 5D 4D 3D AC 3C", 3.0, "three side aces"),
    ("side king guarded", "4S 3S 2S KH 4H 3H 2H 6D 5D 4D 3D 4C 3C", 1.0, "KH with others 1"),
    (
        "side king singleton, 2 spades",
        "3S 2S KH 7D 6D 5D 4D 3D 2D 6C 5C 4C 3C",
        0.5,
        "bare KH 0.5; shortness needs 3 spades",
    ),
    ("side king singleton, 3 spades", "4S 3S 2S KH 6D 5D 4D 3D 2D 6C 5C 4C 3C", 1.0, "bare KH 0.5 + singleton 0.5"),
    ("side ace king", "4S 3S 2S AH KH 3H 2H 6D 5D 4D 3D 4C 3C", 2.0, "AH 1 + KH 1"),
    ("side queen alone", "4S 3S 2S QH JH 3H 2H 6D 5D 4D 3D 4C 3C", 0.0, "QH without A or K: 0"),
    ("side queen with king", "4S 3S 2S KH QH 3H 2H 6D 5D 4D 3D 4C 3C", 2.0, "KH 1 + QH 1"),
    ("side queen with ace", "4S 3S 2S AH QH 3H 2H 6D 5D 4D 3D 4C 3C", 2.0, "AH 1 + QH 1"),
    ("side AKQ", "4S 3S 2S AH KH QH 2H 6D 5D 4D 3D 4C 3C", 3.0, "1 + 1 + 1"),
    ("void, four spades", "5S 4S 3S 2S 6H 5H 4H 3H 2H 6D 5D 4D 3D", 2.0, "length 1 + club void 1"),
    ("two voids, five spades", "6S 5S 4S 3S 2S 9H 8H 7H 6H 5H 4H 3H 2H", 4.0, "length 2 + two voids 2"),
    ("void, three spades", "4S 3S 2S 6H 5H 4H 3H 2H 7D 6D 5D 4D 3D", 0.5, "the reading: void with 3 spades 0.5"),
    ("void, two spades", "3S 2S 7H 6H 5H 4H 3H 2H 7D 6D 5D 4D 3D", 0.0, "two spades: shortness 0"),
    ("singleton, three spades", "4S 3S 2S 2H 7D 6D 5D 4D 3D 6C 5C 4C 3C", 0.5, "singleton 0.5"),
    ("singleton, four spades", "5S 4S 3S 2S 2H 6D 5D 4D 3D 6C 5C 4C 3C", 1.5, "length 1 + singleton 0.5"),
    ("singleton, two spades", "3S 2S 2H 7D 6D 5D 4D 3D 2D 6C 5C 4C 3C", 0.0, "two spades: shortness 0"),
    ("short spades are not shortness", "2S 5H 4H 3H 2H 6D 5D 4D 3D 5C 4C 3C 2C", 0.0, "side suits only"),
    ("singleton side ace", "4S 3S 2S AH 7D 6D 5D 4D 3D 6C 5C 4C 3C", 1.5, "AH 1 + singleton 0.5"),
    (
        "void and singleton",
        "5S 4S 3S 2S 2H 9D 8D 7D 6D 5D 4D 3D 2D",
        2.5,
        "length 1 + club void 1 + heart singleton 0.5",
    ),
    ("mixed hand", "AS KS 4S AH KH 7H 3H QD JD 5D KC 9C 2C", 5.0, "AS 1 KS 1 AH 1 KH 1 QD 0 KC 1"),
    (
        "mixed hand with halves",
        "AS QS 9S 5S 2S KH AD QD 4D 3D QC 5C 4C",
        7.0,
        "AS 1 QS 1 length 2 bare KH 0.5 + singleton 0.5 AD 1 QD 1 QC 0",
    ),
]


def _mask(hand: str) -> np.ndarray:
    return np.array([STANDARD_DECK.mask(hand)], dtype=np.uint64)


@pytest.mark.parametrize(("rule", "hand", "expected", "working"), COUNT_CASES, ids=[c[0] for c in COUNT_CASES])
def test_count_rules(rule: str, hand: str, expected: float, working: str) -> None:
    assert len(hand.split()) == 13, "table hands are full 13-card hands"
    assert count_tricks(hand) == expected
    assert count_tricks(hand.split()) == expected
    assert count_tricks_batch(_mask(hand))[0] == expected


@pytest.mark.parametrize(
    ("hand", "overrides", "expected"),
    [
        ("4S 3S 2S 6H 5H 4H 3H 2H 7D 6D 5D 4D 3D", {"void_with_three_spades": 0.0}, 0.0),
        ("KS 5H 4H 3H 2H 7D 6D 5D 4D 3D 5C 4C 3C", {"singleton_king_spade": 1.0}, 1.0),
        ("QS 2S 5H 4H 3H 2H 7D 6D 5D 4D 3D 4C 3C", {"queen_spade_min_others": 1}, 1.0),
        ("9S 8S 7S 6S 5S 3S 5H 4H 3H 6D 5D 4C 3C", {"spade_length_from": 4}, 2.0),
        ("3S 2S 7H 6H 5H 4H 3H 2H 7D 6D 5D 4D 3D", {"singleton_min_spades": 2, "void_min_spades": 2}, 1.0),
    ],
)
def test_count_parameters(hand: str, overrides: dict[str, float], expected: float) -> None:
    assert count_tricks(hand, **overrides) == expected
    assert count_tricks_batch(_mask(hand), CountParams(**overrides))[0] == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("count", "bid"), [(0.0, 1), (0.5, 1), (1.0, 1), (1.5, 1), (2.5, 2), (5.0, 5), (13.0, 13), (14.5, 13)]
)
def test_counting_bid(count: float, bid: int) -> None:
    assert counting_bid(count) == bid


NIL_CASES = [
    # rule, hand, NilParams overrides, expected, working
    ("safe nil", "6S 4S 2S JH 9H 5H 3H QD 8D 4D 9C 7C 3C", {}, True, "3 spades to the 6, no A, count 0"),
    ("side ace", "6S 4S 2S JH 9H 5H 3H QD 8D 4D 9C 7C AC", {}, False, "count 1 but an ace"),
    ("ace of spades", "AS 4S 2S JH 9H 5H 3H QD 8D 4D 9C 7C 3C", {}, False, "ace (and spade above 6)"),
    ("singleton king", "6S 4S 2S KH 9D 8D 5D 3D 2D 9C 7C 4C 3C", {}, False, "count 1 but bare KH"),
    ("guarded king", "6S 4S 2S KH 5H 9D 8D 5D 3D 9C 7C 4C 3C", {}, True, "KH 1 < 2"),
    ("four spades", "6S 5S 4S 2S JH 9H 5H QD 8D 4D 9C 7C 3C", {}, False, "count 1 but 4 spades"),
    ("spade above the six", "7S 4S 2S JH 9H 5H 3H QD 8D 4D 9C 7C 3C", {}, False, "7S too high"),
    ("two spades to the queen", "QS 2S JH 9H 5H 3H QD 8D 4D 9C 7C 3C 2C", {}, False, "count 0 but QS"),
    ("count 3", "5S 3S KH QH 4H KD 5D 3D JC 9C 7C 4C 2C", {}, False, "KH 1 QH 1 KD 1 = 3"),
    ("count exactly 2", "5S 3S KH 4H 3H KD 5D 3D JC 9C 7C 4C 2C", {}, False, "KH 1 KD 1 = 2, not below 2"),
    ("count 1.5", "5S 3S 2S KH 4H 3D JC 9C 7C 6C 5C 4C 2C", {}, True, "KH 1 + singleton 0.5"),
    ("long weak suit, no credit", "5S 3S 2S KD 4D KC 3C 9H 8H 6H 4H 3H 2H", {}, False, "KD 1 KC 1 = 2"),
    (
        "long weak suit, credit",
        "5S 3S 2S KD 4D KC 3C 9H 8H 6H 4H 3H 2H",
        {"long_weak_suit_credit": 0.5},
        True,
        "2 - 0.5 for six hearts to the 9 = 1.5",
    ),
    (
        "long suit not weak",
        "5S 3S 2S KD 4D KC 3C TH 8H 6H 4H 3H 2H",
        {"long_weak_suit_credit": 0.5},
        False,
        "hearts headed by the ten are not weak: 2",
    ),
    ("max spades 2", "6S 4S 2S JH 9H 5H 3H QD 8D 4D 9C 7C 3C", {"max_spades": 2}, False, "3 spades > 2"),
    ("highest spade 7", "7S 4S 2S JH 9H 5H 3H QD 8D 4D 9C 7C 3C", {"highest_spade": "7"}, True, "7S allowed"),
    ("threshold 1", "6S 4S 2S KH 5H 9D 8D 5D 3D 9C 7C 4C 3C", {"count_threshold": 1.0}, False, "count 1, not below 1"),
]


@pytest.mark.parametrize(("rule", "hand", "overrides", "expected", "working"), NIL_CASES, ids=[c[0] for c in NIL_CASES])
def test_nil_rules(rule: str, hand: str, overrides: dict[str, object], expected: bool, working: str) -> None:
    assert len(hand.split()) == 13
    params = NilParams(**overrides)  # type: ignore[arg-type]
    assert nil_ok(hand, params=params) is expected
    mask = _mask(hand)
    assert bool(nil_ok_batch(mask, count_tricks_batch(mask), params)[0]) is expected


def test_nil_uses_given_count() -> None:
    safe = "6S 4S 2S JH 9H 5H 3H QD 8D 4D 9C 7C 3C"
    assert nil_ok(safe, count=2.0) is False
    assert nil_ok(safe, count=1.5) is True


def test_batch_keeps_shape() -> None:
    hands = [case[1] for case in COUNT_CASES[:6]]
    masks = np.array([STANDARD_DECK.mask(h) for h in hands], dtype=np.uint64).reshape(2, 3)
    counts = count_tricks_batch(masks)
    assert counts.shape == (2, 3) and counts.dtype == np.float64
    assert counts.ravel().tolist() == [case[2] for case in COUNT_CASES[:6]]
    assert nil_ok_batch(masks, counts, NilParams()).shape == (2, 3)


halves = st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0])
count_params = st.builds(
    CountParams,
    singleton_king_spade=halves,
    queen_spade_min_others=st.integers(0, 4),
    spade_length_from=st.integers(0, 6),
    side_singleton_king=halves,
    side_queen_alone=halves,
    void_value=halves,
    void_min_spades=st.integers(0, 6),
    void_with_three_spades=halves,
    singleton_value=halves,
    singleton_min_spades=st.integers(0, 6),
)
nil_params = st.builds(
    NilParams,
    max_spades=st.integers(0, 6),
    highest_spade=st.sampled_from("23456789TJQKA"),
    count_threshold=halves,
    long_weak_suit_credit=halves,
    long_suit_min_length=st.integers(3, 7),
    weak_suit_highest=st.sampled_from("789TJ"),
)


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(52)), count_params, nil_params)
def test_scalar_and_batch_agree(order: list[int], cparams: CountParams, nparams: NilParams) -> None:
    labels = [STANDARD_DECK.cards[i] for i in order[:13]]
    mask = _mask(" ".join(labels))
    count = count_tricks(labels)
    assert count_tricks_batch(mask)[0] == count
    assert count_tricks_batch(mask, cparams)[0] == count_tricks(labels, cparams)
    batch_nil = nil_ok_batch(mask, count_tricks_batch(mask), nparams)[0]
    assert bool(batch_nil) is nil_ok(labels, params=nparams)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"void_value": -99}, r"^count_tricks: void_value must be -13\.\.13, got -99$"),
        ({"void_min_spades": 14}, r"^count_tricks: void_min_spades must be 0\.\.13, got 14$"),
        ({"side_ace": "1"}, r"^count_tricks: side_ace must be -13\.\.13, got '1'$"),
        ({"side_ace": float("nan")}, r"^count_tricks: side_ace must be -13\.\.13, got nan$"),
        ({"deck_aware": "no"}, r"^count_tricks: deck_aware must be True or False, got 'no'$"),
        ({"void": 1}, r"^count_tricks: no parameter 'void'; its parameters: ace_spade, king_spade, .*deck_aware$"),
    ],
)  # fmt: skip
def test_count_overrides_are_checked(overrides, message) -> None:
    """A typo or an impossible number is refused by name, not counted silently with the default or as -99."""
    with pytest.raises(ValueError, match=message):
        count_tricks("AS KS QH 2C", **overrides)
    if "void" not in overrides:
        with pytest.raises(ValueError, match=message):
            count_tricks("AS KS QH 2C", CountParams(**overrides))


def test_count_overrides_in_range_count() -> None:
    # AS 1 + KS 1, and QH alone 0.5; two spades value no void (diamonds) nor singleton (QH, 2C): 2.5
    assert count_tricks("AS KS QH 2C", side_queen_alone=0.5) == 2.5
    # AS -13 + KS 1, and with void_min_spades 0 the diamond void is worth its 1: -11
    assert count_tricks("AS KS QH 2C", ace_spade=-13, void_min_spades=0) == -11.0


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (NilParams(highest_spade="Z"), r"highest_spade must be one of 2, 3, .*, A, got 'Z'$"),
        (NilParams(weak_suit_highest="10"), r"weak_suit_highest must be one of .*got '10'$"),
        (NilParams(max_spades=-1), r"max_spades must be 0\.\.13, got -1$"),
        (NilParams(count_threshold=27), r"count_threshold must be -26\.\.26, got 27$"),
    ],
)
def test_nil_params_are_checked_scalar_and_batch(params, message) -> None:
    """A bad number or rank is refused by name, not a silent 'no nil' (max_spades=-1) or a CardError mid-run."""
    with pytest.raises(ValueError, match="^nil_ok: " + message):
        nil_ok("2S 3H 4D", params=params)
    with pytest.raises(ValueError, match="^nil_ok_batch: " + message):
        nil_ok_batch(np.zeros(2, np.uint64), np.zeros(2), params)


def test_batch_count_params_are_checked() -> None:
    with pytest.raises(ValueError, match=r"^count_tricks_batch: void_value must be -13\.\.13, got -99$"):
        count_tricks_batch(np.zeros(2, np.uint64), CountParams(void_value=-99))
