"""The engine's scoring (`score_hands`) and game end (`game_end`) against RULES.md.

Every worked example of RULES.md is pinned here through the engine itself, with the hand's
numbers written out in the comments. Partnership 0 is seats 0 and 2, partnership 1 seats 1 and 3.
A hypothesis property then holds the batch scorer to the independent referee's scalar one.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referee import DEFAULT_RULES
from referee import score_hand as referee_score

from spades_lab.engine import game_end, score_hands
from spades_lab.rules import Rules


def score(bids, tricks, bags=(0, 0), **changes):
    """Score one hand with the engine: (points per partnership, bags after, the HandScore)."""
    result = score_hands(Rules(**changes), np.array([bids]), np.array([tricks]), np.array([bags]))
    return result.points[0].tolist(), result.bags_after[0].tolist(), result


def team0(bids, tricks, bags=0, **changes) -> tuple[int, int]:
    """(hand score, bags after) of partnership 0."""
    points, bags_after, _ = score(bids, tricks, (bags, 0), **changes)
    return points[0], bags_after[0]


# --------------------------------------------------------------------------- RULES.md worked examples


def test_example_1_bid_5_won_7() -> None:
    # Team 0 bids 3 + 2 = 5 and wins 4 + 3 = 7: +52 and 2 bags. Team 1 bids 4 + 2 = 6, wins 6: +60.
    points, bags, result = score([3, 4, 2, 2], [4, 3, 3, 3], (0, 0))
    assert points == [52, 60]
    assert bags == [2, 0]
    assert result.new_bags[0].tolist() == [2, 0]
    assert result.contract[0].tolist() == [5, 6]
    assert result.made[0].tolist() == [True, True]
    assert result.penalties[0].tolist() == [0, 0]


def test_example_2_bid_7_won_9_and_won_6() -> None:
    assert team0([4, 1, 3, 1], [5, 2, 4, 2]) == (72, 2)
    points, bags, result = score([4, 3, 3, 3], [3, 4, 3, 3])
    assert (points[0], bags[0]) == (-70, 0)  # bid 7 won 6: set, no credit for tricks
    assert not result.made[0, 0]
    # The set is flat: five short costs the same as one short, and a set team gets no bags.
    assert team0([4, 3, 3, 3], [1, 6, 1, 5]) == (-70, 0)
    assert team0([4, 3, 3, 3], [0, 7, 2, 4]) == (-70, 0)


def test_example_3_made_nil_beside_made_contract() -> None:
    # Seat 0 nil takes nothing, seat 2 bids 4 and takes exactly 4: +100 + 40.
    points, bags, result = score([0, 5, 4, 3], [0, 5, 4, 4])
    assert (points[0], bags[0]) == (140, 0)
    assert result.nil_made[0].tolist() == [True, False, False, False]
    assert result.contract[0, 0] == 4


def test_example_3_nil_made_and_contract_set_in_the_same_hand() -> None:
    # "a team can make nil and be set in the same hand": seat 0 nil takes 0, seat 2 bids 5 takes 4.
    assert team0([0, 4, 5, 3], [0, 5, 4, 4]) == (100 - 50, 0)


def test_example_4_bag_penalty_at_ten_and_carry() -> None:
    # Team at 9 bags bids 4 and takes 7: +43 and 3 bags; the tenth bag costs 100, 2 bags remain.
    points, bags, result = score([2, 3, 2, 3], [4, 3, 3, 3], (9, 0))
    assert (points[0], bags[0]) == (43 - 100, 2)
    assert result.penalties[0].tolist() == [1, 0]
    assert result.new_bags[0, 0] == 3


def test_example_4_bags_over_three_hands() -> None:
    # Bags over three hands 3 + 3 + 5 = 11: -100 once, 1 bag carries. Team 0 bids 2 + 2 = 4 each hand.
    total, bags, penalties = 0, 0, 0
    for took in (7, 7, 9):
        points, bags_after, result = score([2, 1, 2, 1], [took - 4, 13 - took, 4, 0], (bags, 0))
        total += points[0]
        bags = bags_after[0]
        penalties += int(result.penalties[0, 0])
    assert bags == 1
    assert penalties == 1
    assert total == 43 + 43 + 45 - 100


def test_example_5_both_partners_nil() -> None:
    # Team 0: seats 0 and 2 both bid nil. Team 1 bids 6 + 7.
    # Both make: +200 (no tricks, so no bags either way).
    assert team0([0, 6, 0, 7], [0, 6, 0, 7]) == (200, 0)
    # The nil parts alone (nil tricks ignored): one makes, one fails -> 0; both fail -> -200.
    assert team0([0, 6, 0, 7], [0, 6, 2, 5], nil_tricks_as_bags=False) == (0, 0)
    assert team0([0, 6, 0, 7], [1, 6, 2, 4], nil_tricks_as_bags=False) == (-200, 0)
    # Default rules: "every trick the team wins is a bag" worth a point, on top of the nil results.
    assert team0([0, 6, 0, 7], [0, 6, 2, 5]) == (0 + 2, 2)
    assert team0([0, 6, 0, 7], [1, 6, 2, 4]) == (-200 + 3, 3)
    # The double-nil team has no contract: neither made nor set, and no overtrick comes from it.
    _, _, result = score([0, 6, 0, 7], [1, 6, 2, 4])
    assert result.contract[0, 0] == 0 and not result.made[0, 0] and not result.set[0, 0]


def test_example_6_failed_nil_tricks_are_bags() -> None:
    # Seat 0 nil takes 2, seat 2 bids 4 and takes 4: -100 + 40 + 2 = -58 and 2 bags.
    points, bags, result = score([0, 3, 4, 3], [2, 4, 4, 3])
    assert (points[0], bags[0]) == (-58, 2)
    assert result.nil_made[0, 0] == False  # noqa: E712 - numpy bool
    assert result.new_bags[0, 0] == 2


def test_failed_nil_tricks_never_make_the_partners_contract() -> None:
    # Seat 0 nil takes 2, partner bid 5 took 4: the nil's tricks do not complete the 5 -> set.
    assert team0([0, 3, 5, 3], [2, 4, 4, 3]) == (-100 - 50 + 2, 2)


def test_both_partnerships_are_scored_independently() -> None:
    # Team 0: bid 3 + 4 = 7 took 4 + 3 = 7 -> 70. Team 1: seat 1 nil fails (-100, +1 bag),
    # seat 3 bid 5 took 5 -> +50; 9 + 1 = 10 bags -> -100, 0 left.
    points, bags, result = score([3, 0, 4, 5], [4, 1, 3, 5], (0, 9))
    assert points == [70, -100 + 1 + 50 - 100]
    assert bags == [0, 0]
    assert result.penalties[0].tolist() == [0, 1]


# --------------------------------------------------------------------------- variants


def test_nil_value() -> None:
    assert team0([0, 5, 4, 3], [0, 5, 4, 4], nil_value=50) == (50 + 40, 0)
    assert team0([0, 3, 4, 3], [2, 4, 4, 3], nil_value=50) == (-50 + 40 + 2, 2)
    assert team0([0, 6, 0, 7], [0, 6, 0, 7], nil_value=50) == (100, 0)


def test_nil_tricks_as_bags_off_ignores_them() -> None:
    assert team0([0, 3, 4, 3], [2, 4, 4, 3], nil_tricks_as_bags=False) == (-100 + 40, 0)
    # Off, a nil's tricks do not push the team over the bag threshold either.
    assert team0([0, 3, 4, 3], [2, 4, 4, 3], bags=9, nil_tricks_as_bags=False) == (-60, 9)
    assert team0([0, 3, 4, 3], [2, 4, 4, 3], bags=9) == (-58 - 100, 1)


def test_bag_penalty_off_bags_still_accumulate() -> None:
    # Bid 4 took 10: +46, 9 + 6 = 15 bags and no penalty.
    points, bags, result = score([2, 3, 2, 3], [6, 3, 4, 0], (9, 0), bag_penalty_enabled=False)
    assert (points[0], bags[0]) == (46, 15)
    assert result.penalties[0, 0] == 0


def test_bag_threshold_and_amount() -> None:
    # Bid 4 took 7 from 3 bags: 6 bags. Threshold 5: one penalty, 1 bag left.
    assert team0([2, 3, 2, 3], [4, 3, 3, 3], bags=3, bag_threshold=5) == (43 - 100, 1)
    assert team0([2, 3, 2, 3], [4, 3, 3, 3], bags=3, bag_threshold=5, bag_penalty=50) == (43 - 50, 1)
    assert team0([2, 3, 2, 3], [4, 3, 3, 3], bags=3, bag_threshold=7) == (43, 6)
    # Threshold 1: every bag is a penalty.
    assert team0([2, 3, 2, 3], [4, 3, 3, 3], bag_threshold=1, bag_penalty=10) == (43 - 30, 0)


def test_two_penalties_in_one_hand() -> None:
    # 9 bags + 11 overtricks (bid 2, won 13) = 20: two penalties, nothing carries.
    points, bags, result = score([1, 1, 1, 1], [7, 0, 6, 0], (9, 0))
    assert (points[0], bags[0]) == (20 + 11 - 200, 0)
    assert result.penalties[0, 0] == 2


def test_trick_and_bag_values() -> None:
    assert team0([3, 4, 2, 2], [4, 3, 3, 3], trick_value=20) == (100 + 2, 2)
    assert team0([4, 3, 3, 3], [3, 4, 3, 3], trick_value=20) == (-140, 0)
    assert team0([3, 4, 2, 2], [4, 3, 3, 3], bag_value=2) == (50 + 4, 2)
    assert team0([3, 4, 2, 2], [4, 3, 3, 3], bag_value=0) == (50, 2)
    # A failed nil's tricks are bags worth bag_value each.
    assert team0([0, 3, 4, 3], [2, 4, 4, 3], bag_value=3) == (-100 + 40 + 6, 2)


def test_a_batch_scores_each_row_on_its_own() -> None:
    bids = [[3, 4, 2, 2], [4, 3, 3, 3], [0, 5, 4, 3], [2, 3, 2, 3], [0, 6, 0, 7], [0, 3, 4, 3]]
    tricks = [[4, 3, 3, 3], [3, 4, 3, 3], [0, 5, 4, 4], [4, 3, 3, 3], [1, 6, 2, 4], [2, 4, 4, 3]]
    bags = [[0, 0], [5, 8], [0, 0], [9, 0], [2, 7], [0, 9]]
    batch = score_hands(Rules(), np.array(bids), np.array(tricks), np.array(bags))
    assert batch.points[:, 0].tolist() == [52, -70, 140, -57, -197, -58]
    for i in range(len(bids)):
        points, bags_after, _ = score(bids[i], tricks[i], tuple(bags[i]))
        assert batch.points[i].tolist() == points
        assert batch.bags_after[i].tolist() == bags_after


# --------------------------------------------------------------------------- against the referee


RULE_VARIANTS = st.fixed_dictionaries(
    {
        "trick_value": st.sampled_from([10, 20, 5]),
        "bag_value": st.sampled_from([1, 0, 2]),
        "bag_penalty_enabled": st.booleans(),
        "bag_threshold": st.integers(1, 12),
        "bag_penalty": st.sampled_from([100, 50, 0]),
        "nil_value": st.sampled_from([100, 50, 0]),
        "nil_tricks_as_bags": st.booleans(),
    }
)


@st.composite
def hands(draw):
    bids = draw(st.lists(st.integers(0, 13), min_size=4, max_size=4))
    cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
    tricks = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]
    bags = draw(st.lists(st.integers(0, 9), min_size=2, max_size=2))
    return bids, tricks, bags


@settings(max_examples=200, deadline=None)
@given(RULE_VARIANTS, st.lists(hands(), min_size=1, max_size=8))
def test_score_hands_agrees_with_the_referee(changes: dict, rows: list) -> None:
    rules = Rules(**changes)
    bids, tricks, bags = (np.array([row[k] for row in rows]) for k in range(3))
    result = score_hands(rules, bids, tricks, bags)
    reference = {**DEFAULT_RULES, **changes}
    for i, (b, t, g) in enumerate(rows):
        points, bags_after = referee_score(reference, b, t, g)
        assert result.points[i].tolist() == points
        assert result.bags_after[i].tolist() == bags_after
        if rules.bag_penalty_enabled:
            assert (result.bags_after[i] < rules.bag_threshold).all()


# --------------------------------------------------------------------------- game end


def end(scores, hands_played=5, **changes):
    over, winner, unfinished = game_end(
        Rules(**changes), np.array(scores, dtype=np.int64), np.array(hands_played, dtype=np.int64)
    )
    return over.tolist(), winner.tolist(), unfinished.tolist()


def test_target_reached_ends_the_game() -> None:
    over, winner, unfinished = end([[500, 300], [300, 510], [499, 100], [100, 499], [0, 0]], [5] * 5)
    assert over == [True, True, False, False, False]
    assert winner[:2] == [0, 1]
    assert [w for w, o in zip(winner, over) if not o] == [-1, -1, -1]
    assert unfinished == [False] * 5


def test_both_over_target_higher_total_wins() -> None:
    over, winner, _ = end([[520, 510], [510, 530], [260, 250]], [5] * 3, target=250)
    assert over == [True, True, True]
    assert winner == [0, 1, 0]
    over, winner, _ = end([[520, 510], [510, 530]], [5, 5])
    assert winner == [0, 1]


def test_equal_totals_over_target_play_on() -> None:
    over, winner, unfinished = end([[510, 510], [500, 500]], [5, 5])
    assert over == [False, False]
    assert winner == [-1, -1]
    assert unfinished == [False, False]


def test_target_is_a_rules_field() -> None:
    assert end([[250, 0]], [5])[0] == [False]
    assert end([[250, 0]], [5], target=250)[0] == [True]


def test_mercy() -> None:
    scores = [[-200, 100], [100, -250], [-199, 100], [-250, -300], [-250, -250]]
    over, winner, _ = end(scores, [5] * 5, mercy=True)
    assert over == [True, True, False, True, False]  # the last: equal totals play on
    assert winner == [1, 0, -1, 0, -1]
    assert end(scores, [5] * 5, mercy=False)[0] == [False] * 5
    over, winner, _ = end([[-100, 50], [-99, 50]], [5, 5], mercy=True, mercy_threshold=-100)
    assert over == [True, False]
    assert winner == [1, -1]


def test_hand_cap_stops_unfinished_never_a_win() -> None:
    over, winner, unfinished = end([[100, 50], [100, 50]], [10, 9], hand_cap=10)
    assert over == [False, False]
    assert winner == [-1, -1]
    assert unfinished == [True, False]
    # A game won in the last allowed hand is a win, not unfinished.
    over, winner, unfinished = end([[510, 50]], [10], hand_cap=10)
    assert (over, winner, unfinished) == ([True], [0], [False])
    # A tie over the target at the cap cannot be decided: unfinished, no winner.
    over, winner, unfinished = end([[510, 510]], [10], hand_cap=10)
    assert (over, winner, unfinished) == ([False], [-1], [True])
    # Without a cap nothing is ever unfinished.
    assert end([[100, 50]], [1000])[2] == [False]


@pytest.mark.parametrize("cap", [1, 3, 25])
def test_hand_cap_counts_hands_played(cap: int) -> None:
    hands_played = np.arange(1, 30)
    _, _, unfinished = end([[0, 0]] * len(hands_played), hands_played, hand_cap=cap)
    assert [h for h, u in zip(hands_played.tolist(), unfinished) if u] == list(range(cap, 30))


def test_double_nil_with_nil_tricks_to_partner_scores_two_failed_nils() -> None:
    """Worked example: failed-nil tricks to partner, nil tricks not bags, both partners nil.

    Bids [4, 0, 1, 0], tricks [4, 4, 1, 4]. Side 1+3 bid two nils and both failed: -100 - 100 = -200.
    It has no contract, so its 8 tricks are not overtricks: no bag points, no bags (a contract of 0
    counted as made would give -192 and 8 bags). Side 0+2 bid 5 and took 5: +50, no bags.
    """
    rules = {"nil_tricks_to_partner": True, "nil_tricks_as_bags": False}
    points, bags, result = score([4, 0, 1, 0], [4, 4, 1, 4], **rules)
    assert points == [50, -200]
    assert bags == [0, 0]
    assert result.contract[0].tolist() == [5, 0]
    assert result.made[0].tolist() == [True, False] and result.set[0].tolist() == [False, False]
    assert referee_score(rules, [4, 0, 1, 0], [4, 4, 1, 4], [0, 0]) == ([50, -200], [0, 0])
    # With nil tricks as bags, a double-nil side's tricks are bags as in default rules ("every trick the
    # team wins is a bag"): there is no partner contract for them to go toward.
    points, bags, _ = score([4, 0, 1, 0], [4, 4, 1, 4], nil_tricks_to_partner=True)
    assert points == [50, -200 + 8] and bags == [0, 8]
    assert referee_score({"nil_tricks_to_partner": True}, [4, 0, 1, 0], [4, 4, 1, 4], [0, 0]) == ([50, -192], [0, 8])
