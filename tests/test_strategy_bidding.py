"""The bidding policies against HEURISTICS.md sections 1-4 and 7, asked through `decide`.

Every expected bid was worked out by hand from the rule text (the working is beside each row):
the count of section 1, rounded down, never below 1; nil by section 2; one more trick for a
borderline count just before a bag penalty (section 3); the blind-nil comeback (section 4);
optimist +1 and cautious -1 (section 7). Seat 0 bids first (dealer 3) unless a row says otherwise.
"""

from __future__ import annotations

import numpy as np
import pytest

from spades_lab import Rules, make_player, make_players, simulate_hands
from spades_lab.engine import rng
from spades_lab.engine.simulate import play_hand
from spades_lab.players.decide import decide
from spades_lab.policies.bidding import CountingParams, nearest_legal
from spades_lab.policies.counting import CountParams, NilParams

# Count 5: AS 1, KS 1 (not alone), AH 1, KH 1 (guarded), QD 0 (no A/K of diamonds), KC 1 (guarded).
FIVE = "AS KS 4S AH KH 7H 3H QD JD 5D KC 9C 2C"
# Count 7: AS 1, QS 1 (four other spades), length 2 (five spades), bare KH 0.5 + singleton 0.5, AD 1, QD 1, QC 0.
SEVEN = "AS QS 9S 5S 2S KH AD QD 4D 3D QC 5C 4C"
# Count 3.5: AS 1, KS 1, bare KH 0.5 (two spades: no shortness value), AD 1. An ace: never nil.
THREE_AND_A_HALF = "AS KS KH AD 5D 4D 3D 2D 6C 5C 4C 3C 2C"
# Count 0 and not a nil: "two spades headed by the queen is not" safe.
QUEEN_DOUBLETON = "QS 2S JH 9H 5H 3H QD 8D 4D 9C 7C 3C 2C"
# Count 2: four spades (length 1) and a club void with four or more spades (1). Four spades: never nil.
VOID_CLUBS = "5S 4S 3S 2S 6H 5H 4H 3H 2H 6D 5D 4D 3D"
# The sheet's safe nil: three spades headed by the six, no ace, no bare king, count 0.
SAFE_NIL = "6S 4S 2S JH 9H 5H 3H QD 8D 4D 9C 7C 3C"
# Count 1 (bare KH 0.5 + singleton with three spades 0.5) but a bare king: not a nil.
BARE_KING = "6S 4S 2S KH 9D 8D 5D 3D 2D 9C 7C 4C 3C"


def bid_position(
    hand: str, bids: list[int | None] | None = None, seat: int = 0, bags: tuple[int, int] = (0, 0)
) -> dict:
    """Seat `seat` to bid with `hand`; dealer 3, so seats bid 0, 1, 2, 3 in turn."""
    hands: list[str | list[str]] = [[], [], [], []]
    hands[seat] = hand
    return {
        "dealer": 3,
        "hands": hands,
        "bids": bids if bids is not None else [None, None, None, None],
        "plays": [],
        "score_before": [0, 0],
        "bags_before": list(bags),
        "to_act": seat,
    }


BID_CASES = [
    # (rule, player, position, expected bid, working)
    ("count: whole tricks", "counting+tips", bid_position(FIVE), 5, "count 5"),
    ("count: halves add up", "counting+tips", bid_position(SEVEN), 7, "0.5 + 0.5 from the bare king = 1"),
    ("count: round down", "counting+tips", bid_position(THREE_AND_A_HALF), 3, "3.5 rounds down"),
    ("count below 1 bids 1", "counting+tips", bid_position(QUEEN_DOUBLETON), 1, "count 0, QS too high for nil"),
    ("nil: the safe nil", "counting+tips", bid_position(SAFE_NIL), 0, "3 spades to the 6, count 0 < 2"),
    ("nil: switched off", "counting(-nil)+tips", bid_position(SAFE_NIL), 1, "count 0 bids 1"),
    ("nil: bare king refused", "counting+tips", bid_position(BARE_KING), 1, "count 1, bare KH: no nil"),
    (
        "nil: not beside partner's nil",
        "counting+tips",
        bid_position(SAFE_NIL, [0, 3, None, None], seat=2),
        1,
        "partner (seat 0) bid nil; count 0 bids 1",
    ),
    (
        "nil: beside partner's nil when allowed",
        "counting(+nil_beside_nil)+tips",
        bid_position(SAFE_NIL, [0, 3, None, None], seat=2),
        0,
        "nil_beside_nil on",
    ),
    ("nil: parameter", "counting(nil_max_spades=2)+tips", bid_position(SAFE_NIL), 1, "3 spades > 2: count 0 bids 1"),
    ("bags: 9 bags round up", "counting+tips", bid_position(THREE_AND_A_HALF, bags=(9, 0)), 4, "3.5 at 9 bags: 4"),
    ("bags: 8 bags round down", "counting+tips", bid_position(THREE_AND_A_HALF, bags=(8, 0)), 3, "2 bags short: 3"),
    ("bags: margin 2", "counting(margin=2)+tips", bid_position(THREE_AND_A_HALF, bags=(8, 0)), 4, "within 2: 4"),
    ("bags: switched off", "counting(-bag_aware)+tips", bid_position(THREE_AND_A_HALF, bags=(9, 0)), 3, "3"),
    ("bags: opponents' bags", "counting+tips", bid_position(THREE_AND_A_HALF, bags=(0, 9)), 3, "not our bags: 3"),
    ("bags: whole count", "counting+tips", bid_position(FIVE, bags=(9, 0)), 5, "5.0 is not borderline"),
    ("bags: after a penalty", "counting+tips", bid_position(THREE_AND_A_HALF, bags=(19, 0)), 4, "19 mod 10 = 9"),
    ("optimist", "optimist+tips", bid_position(THREE_AND_A_HALF), 4, "3 + 1"),
    ("cautious", "cautious+tips", bid_position(THREE_AND_A_HALF), 2, "3 - 1"),
    ("cautious at least 1", "cautious+tips", bid_position(QUEEN_DOUBLETON), 1, "1 - 1 = 0, at least 1"),
    ("optimist keeps nil", "optimist+tips", bid_position(SAFE_NIL), 0, "the shift moves numbers only"),
    ("count: a void", "counting+tips", bid_position(VOID_CLUBS), 2, "length 1 + void 1"),
    ("count parameter", "counting(void_value=2)+tips", bid_position(VOID_CLUBS), 3, "length 1 + void 2"),
]


@pytest.mark.parametrize(
    ("rule", "player", "position", "expected", "working"), BID_CASES, ids=[c[0] for c in BID_CASES]
)
def test_bid(rule: str, player: str, position: dict, expected: int, working: str) -> None:
    assert decide(player, position) == {"seat": position["to_act"], "bid": expected}


def test_side_contract_limit_is_respected() -> None:
    # SEVEN counts 7; partner (seat 0) bid 8 and the side may bid at most 13: the nearest legal bid is 5.
    position = bid_position(SEVEN, [8, 3, None, None], seat=2)
    assert decide("counting+tips", position, rules=Rules(max_team_contract=13)) == {"seat": 2, "bid": 5}


# The safe nil but for the ace of spades (count 1): a nil only once the ace goes back to partner.
ACE_OF_SPADES_NIL = "AS 4S 2S JH 9H 5H 3H QD 8D 4D 9C 7C 3C"
# Ace and king of spades (count 2): the pass back sends the highest spades first (then aces, then kings).
TWO_HONOURS_NIL = "AS KS 2S JH 9H 5H 3H QD 8D 4D 9C 7C 3C"

PASS_CASES = [
    # (rule, player, hand, nil_exchange, expected bid)
    ("no passing: the ace bids 1", "counting+tips", ACE_OF_SPADES_NIL, 0, 1),
    ("one card passed back: the ace goes, nil", "counting+tips", ACE_OF_SPADES_NIL, 1, 0),
    ("switched off: the ace bids 1", "counting(-pass_aware_nil)+tips", ACE_OF_SPADES_NIL, 1, 1),
    ("one card passed, AS KS: the king stays, bids 2", "counting+tips", TWO_HONOURS_NIL, 1, 2),
    ("two cards passed, AS KS: both go, nil", "counting+tips", TWO_HONOURS_NIL, 2, 0),
    ("the calibrated bidder too", "calibrated+tips", ACE_OF_SPADES_NIL, 1, 0),
    ("a nil stays a nil", "counting+tips", SAFE_NIL, 2, 0),
]


@pytest.mark.parametrize(("rule", "player", "hand", "passed", "expected"), PASS_CASES, ids=[c[0] for c in PASS_CASES])
def test_pass_aware_nil(rule: str, player: str, hand: str, passed: int, expected: int) -> None:
    """Where the rules pass cards to a nil bidder, the nil rule reads the hand left after its worst cards go back."""
    rules = Rules(nil_exchange=passed)
    assert decide(player, bid_position(hand), rules=rules) == {"seat": 0, "bid": expected}


def test_blind_nil_is_a_comeback() -> None:
    """Section 4: the first seat of a side trailing by 200 or more declares blind nil; its partner does not."""
    rules = Rules(blind_nil=True)
    players = make_players("counting+tips")
    scores = np.array([[0, 250], [0, 150], [250, 0], [0, 200]])
    n = len(scores)
    games = np.arange(n)
    log = play_hand(
        rules, players, games, np.zeros(n, dtype=np.int64), rng.derive(rng.seed_key(1), games),
        np.full(n, 3), scores, np.zeros((n, 2), dtype=np.int64),
    )  # fmt: skip
    # dealer 3: seat 0 speaks first for side 0 and seat 1 for side 1
    assert log.blind.tolist() == [
        [True, False, False, False],  # side 0 trails by 250: seat 0 blind, seat 2 not beside it
        [False, False, False, False],  # trails by 150 only
        [False, True, False, False],  # side 1 trails by 250
        [True, False, False, False],  # exactly 200
    ]
    off = make_players("counting(-blind_nil)+tips")
    log = play_hand(
        rules, off, games, np.zeros(n, dtype=np.int64), rng.derive(rng.seed_key(1), games),
        np.full(n, 3), scores, np.zeros((n, 2), dtype=np.int64),
    )  # fmt: skip
    assert not log.blind.any()


def test_parameters_mirror_the_count_and_the_nil_rule() -> None:
    """Every CountParams and NilParams number is a bidding parameter with the same default."""
    params = CountingParams()
    for name, value in vars(CountParams()).items():
        assert getattr(params, name) == value
    for name, value in vars(NilParams()).items():
        assert getattr(params, "nil_" + name) == value
    bidder = make_player("counting(void_value=0.5, nil_highest_spade=7)+tips").bidder
    assert bidder.count_params.void_value == 0.5 and bidder.nil_params.highest_spade == "7"


def test_table_bid_totals() -> None:
    """The sheet: four bids total 10, 11 or 12 at a normal table. Measured: 9..13 on about 68% of hands.

    Measured over 100,000 hands with counting+tips at every seat (nil counted as 0): 10: 2.8%,
    11: 12.8%, 12: 24.8%, 13: 27.4%, 14: 19.4%, 15: 8.9%, 16+: 3.9%; mean 12.9. The section 1
    count as specified overbids against the sheet's own sanity figure (only 40% in 10..12).
    """
    totals = np.concatenate(
        [log.bids.sum(axis=1) for log in simulate_hands(Rules(), make_players("counting+tips"), 20_000, seed=3)]
    )
    in_range = np.mean((totals >= 9) & (totals <= 13))
    assert 0.6 < in_range < 0.75  # 20,000 hands: the standard error is 0.3 points
    assert 12.5 < totals.mean() < 13.3


def test_nearest_legal_bid_is_the_closest_legal_number_lower_on_a_tie() -> None:
    """Against a plain search of every number, on random legal-bid masks (some with no legal number) and wanted
    numbers whole or half, inside and outside 1..13."""
    rng_ = np.random.default_rng(4)
    for _ in range(200):
        n = 64
        legal = rng_.random((n, 14)) < rng_.uniform(0.05, 1.0)
        legal[rng_.random(n) < 0.1, 1:] = False
        wanted = rng_.integers(-2, 17, n) + np.where(rng_.random(n) < 0.3, 0.5, 0.0)
        got = nearest_legal(wanted, legal)
        for row in range(n):
            numbers = [b for b in range(1, 14) if legal[row, b]]
            want = min(numbers, key=lambda b: (abs(b - wanted[row]), b)) if numbers else 0
            assert got[row] == want, (wanted[row], numbers)
        assert got.dtype == np.int64
