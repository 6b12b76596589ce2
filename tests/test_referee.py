"""Tests of the reference referee itself (tests/referee.py).

The referee is the independent check of the spades_lab engine, so it gets its
own tests first: the RULES.md worked examples pinned through score_hand, hand
records built by hand card by card (accepted as written, rejected after one
deliberate error each), and randomly played games from a small generator in
this file (written separately from the referee's replay) that the referee must
accept and, once corrupted, reject.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referee import DEFAULT_RULES, RefereeError, check_game, check_record, score_hand

RANKS = "23456789TJQKA"


def rules_with(**changes: object) -> dict:
    """The default rules with some fields changed."""
    return {**DEFAULT_RULES, **changes}


def team0(bids: list[int], tricks: list[int], bags: int = 0, **changes: object) -> tuple[int, int]:
    """(hand score, bags after) of partnership 0 (seats 0 and 2)."""
    scores, bags_after = score_hand(rules_with(**changes), bids, tricks, [bags, 0])
    return scores[0], bags_after[0]


# --------------------------------------------------------------------------- RULES.md worked examples


def test_example_1_bid_5_won_7() -> None:
    # Partnership 0 bids 3 + 2 = 5 and wins 4 + 3 = 7: +52 and 2 bags.
    assert team0([3, 4, 2, 2], [4, 3, 3, 3]) == (52, 2)


def test_example_2_bid_7_won_9_and_won_6() -> None:
    assert team0([4, 1, 3, 1], [5, 2, 4, 2]) == (72, 2)
    assert team0([4, 3, 3, 3], [3, 4, 3, 3]) == (-70, 0)
    # Flat penalty: one short or five short cost the same, and no bags on a set.
    assert team0([4, 3, 3, 3], [1, 6, 1, 5]) == (-70, 0)


def test_example_3_made_nil_beside_made_contract() -> None:
    # Seat 0 nil takes nothing, seat 2 bids 4 and takes exactly 4: +100 + 40.
    assert team0([0, 5, 4, 3], [0, 5, 4, 4]) == (140, 0)


def test_example_4_bag_penalty_and_carry() -> None:
    # Team at 9 bags takes 3 more (bid 4, won 7): +43, then -100 for the tenth bag, 2 bags remain.
    assert team0([2, 3, 2, 3], [4, 3, 3, 3], bags=9) == (43 - 100, 2)
    # Bags over three hands 3 + 3 + 5 = 11: -100 once, 1 bag carries.
    total, bags = 0, 0
    for took in (7, 7, 9):  # bid 4 each hand: 3, 3 and 5 overtricks
        scores, bags_after = score_hand(DEFAULT_RULES, [2, 1, 2, 1], [took - 4, 13 - took, 4, 0], [bags, 0])
        total += scores[0]
        bags = bags_after[0]
    assert bags == 1
    assert total == 43 + 43 + 45 - 100


def test_example_5_both_partners_nil() -> None:
    # The nil parts alone (nil tricks not counted as bags): +200, 0, -200.
    assert team0([0, 6, 0, 7], [0, 6, 0, 7], nil_tricks_as_bags=False) == (200, 0)
    assert team0([0, 6, 0, 7], [0, 6, 2, 5], nil_tricks_as_bags=False) == (0, 0)
    assert team0([0, 6, 0, 7], [1, 6, 2, 4], nil_tricks_as_bags=False) == (-200, 0)
    # Default rules: every trick the double-nil team wins is also a bag worth a point.
    assert team0([0, 6, 0, 7], [0, 6, 0, 7]) == (200, 0)
    assert team0([0, 6, 0, 7], [0, 6, 2, 5]) == (0 + 2, 2)
    assert team0([0, 6, 0, 7], [1, 6, 2, 4]) == (-200 + 3, 3)


def test_example_6_failed_nil_tricks_are_bags() -> None:
    # Seat 0 nil takes 2, seat 2 bids 4 and takes 4: -100 + 40 + 2 = -58 and 2 bags.
    assert team0([0, 3, 4, 3], [2, 4, 4, 3]) == (-58, 2)
    # With nil tricks ignored: -100 + 40, no bags.
    assert team0([0, 3, 4, 3], [2, 4, 4, 3], nil_tricks_as_bags=False) == (-60, 0)
    # A failed nil's tricks never make the partner's contract: partner bid 5, took 4 -> set.
    assert team0([0, 3, 5, 3], [2, 4, 4, 3]) == (-100 - 50 + 2, 2)


# --------------------------------------------------------------------------- other scoring fields


def test_scoring_is_data_driven() -> None:
    changed = rules_with(trick_value=20, bag_value=2, bag_threshold=5, bag_penalty=50, nil_value=50)
    scores, bags = score_hand(changed, [0, 3, 4, 3], [1, 3, 6, 3], [4, 0])
    # Team 0: nil failed -50, contract 4 made 80 + 2 overtricks * 2, nil trick 1 * 2; bags 4 + 3 = 7 -> -50, 2 left.
    # Team 1: bid 6, took 6: +120.
    assert scores == [-50 + 80 + 4 + 2 - 50, 120]
    assert bags == [2, 0]


def test_bag_penalty_disabled_bags_still_accumulate() -> None:
    assert team0([2, 3, 2, 3], [6, 3, 4, 0], bags=9, bag_penalty_enabled=False) == (46, 15)


def test_bag_penalty_can_apply_twice_in_one_hand() -> None:
    # 9 bags + 11 overtricks (bid 2, won 13) = 20: two penalties, no carry.
    assert team0([1, 1, 1, 1], [7, 0, 6, 0], bags=9) == (20 + 11 - 200, 0)


def test_both_teams_scored_independently() -> None:
    scores, bags = score_hand(DEFAULT_RULES, [3, 0, 4, 5], [4, 1, 3, 5], [0, 9])
    # Team 0: bid 7 took 7 -> 70. Team 1: nil failed -100 + 1 bag; bid 5 took 5 -> 50; 9 + 1 = 10 bags -> -100.
    assert scores == [70, -100 + 1 + 50 - 100]
    assert bags == [0, 0]


# --------------------------------------------------------------------------- hand-made records


def make_record(
    deal: list[list[str]],
    dealer: int,
    plays: list[list],
    bids: list[int],
    tricks: list[int],
    hand_score: list[int],
    score_before: list[int],
    bags_before: list[int],
    bags_after: list[int],
    hand: int = 0,
    game_over: bool = False,
    winner: int | None = None,
) -> dict:
    """A record in RECORDS.md form, with every number written out by the test."""
    return {
        "game": 0,
        "hand": hand,
        "rules": "default",
        "players": 4,
        "dealer": dealer,
        "deal": copy.deepcopy(deal),
        "blind": [False] * 4,
        "exchange": [],
        "draft": [],
        "hands": copy.deepcopy(deal),
        "bids": bids,
        "plays": plays,
        "tricks": tricks,
        "score_before": score_before,
        "bags_before": bags_before,
        "hand_score": hand_score,
        "score_after": [score_before[0] + hand_score[0], score_before[1] + hand_score[1]],
        "bags_after": bags_after,
        "game_over": game_over,
        "winner": winner,
    }


def one_suit_record() -> dict:
    """Each seat holds one suit; seat 0 has all spades and leads them (only-spades exception).

    Dealer 3, so seat 0 leads; it wins all 13 tricks. Bids 10, 3, nil, 2:
    team 0 makes 10 with 3 overtricks (+103) and the nil (+100) = 203, 3 bags;
    team 1 is set on 5: -50.
    """
    order = RANKS[::-1]
    deal = [[r + suit for r in order] for suit in "SHDC"]
    plays = []
    for i in range(13):
        for seat in range(4):
            plays.append([seat, deal[seat][i]])
    return make_record(deal, 3, plays, [10, 3, 0, 2], [13, 0, 0, 0], [203, -50], [0, 0], [0, 0], [3, 0])


def ruff_record() -> dict:
    """A hand where spades are broken by a ruff and then led by a seat holding hearts too.

    Seat 0: AS..4S + 2C + 2H. Seat 1: 3S 2S + AH..4H. Seat 2: all diamonds.
    Seat 3: AC..3C + 3H. Dealer 3, so seat 0 leads.
    t0  seat 0 must lead a non-spade: 2C; seat 1 ruffs 2S; 2D; seat 3 follows AC -> seat 1.
    t1  spades broken: seat 1 leads 3S although it holds hearts; 3D, KC, seat 0 follows 4S -> seat 0.
    t2  seat 0 AS, AH, 4D, QC -> seat 0.  t3..t11 seat 0 leads KS..5S and wins each.
    t12 seat 0 leads 2H, seat 1 4H, AD, seat 3 3H -> seat 1 (4H is the top heart).
    Tricks 11, 2, 0, 0. Bids 9, 3, nil, 1.
    Team 0: bid 9 took 11 -> 92, nil made +100, bags 8 + 2 = 10 -> -100 and 0 bags: 92.
    Team 1: bid 4 took 2 -> set -40, bags stay 5.
    """
    deal = [
        [r + "S" for r in "AKQJT987654"] + ["2C", "2H"],
        ["3S", "2S"] + [r + "H" for r in "AKQJT98765" + "4"],
        [r + "D" for r in RANKS],
        [r + "C" for r in "AKQJT9876543"] + ["3H"],
    ]
    plays: list[list] = [[0, "2C"], [1, "2S"], [2, "2D"], [3, "AC"]]
    plays += [[1, "3S"], [2, "3D"], [3, "KC"], [0, "4S"]]
    plays += [[0, "AS"], [1, "AH"], [2, "4D"], [3, "QC"]]
    for spade, heart, diamond, club in zip("KQJT98765", "KQJT98765", "56789TJQK", "JT9876543"):
        plays += [[0, spade + "S"], [1, heart + "H"], [2, diamond + "D"], [3, club + "C"]]
    plays += [[0, "2H"], [1, "4H"], [2, "AD"], [3, "3H"]]
    return make_record(deal, 3, plays, [9, 3, 0, 1], [11, 2, 0, 0], [92, -40], [310, 120], [8, 5], [0, 5], hand=3)


def find_play(record: dict, seat: int, card: str) -> int:
    """Index in plays of the given seat's card."""
    return next(i for i, (s, c) in enumerate(record["plays"]) if s == seat and c == card)


def swap_plays(record: dict, i: int, j: int) -> None:
    """Exchange two plays (of the same seat), so the cards stay the seat's own."""
    record["plays"][i], record["plays"][j] = record["plays"][j], record["plays"][i]


def rejects(record: dict, rules: dict, *words: str) -> str:
    """Assert check_record rejects the record with a message naming each word."""
    with pytest.raises(RefereeError) as info:
        check_record(record, rules)
    message = str(info.value)
    for word in words:
        assert word in message, message
    return message


def test_hand_made_records_are_accepted() -> None:
    check_record(one_suit_record(), DEFAULT_RULES)
    check_record(ruff_record(), DEFAULT_RULES)


def test_record_readers_accept_10_and_lower_case_and_extra_fields() -> None:
    record = ruff_record()
    record["plays"] = [[s, c.lower().replace("t", "10")] for s, c in record["plays"]]
    record["deal"][3] = [c.lower() for c in record["deal"][3]]
    record["engine_notes"] = {"anything": 1}
    record["rules"] = {"target": 1}  # ignored: the rules argument decides
    check_record(record, DEFAULT_RULES)


def test_reject_leading_spade_before_broken() -> None:
    record = ruff_record()
    # Seat 0 leads 4S at trick 0 (holding 2C and 2H) and plays 2C in its place at trick 1.
    swap_plays(record, 0, find_play(record, 0, "4S"))
    rejects(record, DEFAULT_RULES, "plays[0]", "broken")


def test_reject_spade_lead_at_first_trick_holding_other_suits() -> None:
    # Trick 0 of the ruff record with seat 1 leading its 2S: no spade has been played in an earlier trick.
    record = ruff_record()
    record["dealer"] = 0  # seat 1 leads the first trick now
    record["plays"][:4] = [[1, "2S"], [2, "2D"], [3, "AC"], [0, "2C"]]
    rejects(record, DEFAULT_RULES, "plays[0]", "broken")


def test_reject_not_following_suit() -> None:
    record = ruff_record()
    # Seat 3 discards 3H on the club lead of trick 0 while holding clubs.
    swap_plays(record, 3, find_play(record, 3, "3H"))
    rejects(record, DEFAULT_RULES, "plays[3]", "follow suit")


def test_reject_card_not_held() -> None:
    record = ruff_record()
    record["plays"][1] = [1, "AD"]
    rejects(record, DEFAULT_RULES, "plays[1]", "does not hold")


def test_reject_wrong_seat_and_wrong_first_leader() -> None:
    record = ruff_record()
    record["plays"][1], record["plays"][2] = record["plays"][2], record["plays"][1]
    rejects(record, DEFAULT_RULES, "plays[1]", "seat 1 is to play")
    record = ruff_record()
    record["dealer"] = 1  # seat 2 should lead
    rejects(record, DEFAULT_RULES, "plays[0]", "seat 2 is to play")


def test_reject_winner_not_leading_next_trick() -> None:
    record = one_suit_record()
    # Rotate the second trick so seat 1 leads it, although seat 0 won the first.
    record["plays"][4:8] = record["plays"][5:8] + record["plays"][4:5]
    rejects(record, DEFAULT_RULES, "plays[4]")


def test_reject_wrong_trick_count() -> None:
    record = ruff_record()
    record["tricks"] = [10, 3, 0, 0]
    rejects(record, DEFAULT_RULES, "tricks")


def test_reject_wrong_scores_and_bags() -> None:
    record = ruff_record()
    record["hand_score"] = [192, -40]  # forgot the bag penalty
    record["score_after"] = [502, 80]
    rejects(record, DEFAULT_RULES, "hand_score")
    record = ruff_record()
    record["score_after"] = [402, 81]
    rejects(record, DEFAULT_RULES, "score_after")
    record = ruff_record()
    record["bags_after"] = [10, 5]
    rejects(record, DEFAULT_RULES, "bags_after")


def test_reject_bad_deal_hands_and_bids() -> None:
    record = ruff_record()
    record["deal"][2][0] = "AS"  # duplicate of seat 0's ace
    rejects(record, DEFAULT_RULES, "deal", "twice")
    record = ruff_record()
    record["deal"][2] = record["deal"][2][:12]
    rejects(record, DEFAULT_RULES, "deal[2]", "13 cards")
    record = ruff_record()
    record["hands"][0], record["hands"][1] = record["hands"][1], record["hands"][0]
    rejects(record, DEFAULT_RULES, "hands[0]")
    record = ruff_record()
    record["deal"][0][0] = "XS"
    rejects(record, DEFAULT_RULES, "deal[0]")
    for bad in (14, -1, True, 2.5):
        record = ruff_record()
        record["bids"][3] = bad
        rejects(record, DEFAULT_RULES, "bids[3]")
    record = ruff_record()
    rejects(record, rules_with(min_bid=2), "bids[3]")


def test_reject_wrong_number_of_plays() -> None:
    record = ruff_record()
    record["plays"] = record["plays"][:51]
    rejects(record, DEFAULT_RULES, "plays", "52")


def test_hands_order_within_a_seat_does_not_matter() -> None:
    record = ruff_record()
    record["hands"] = [sorted(h) for h in record["hands"]]
    check_record(record, DEFAULT_RULES)


# --------------------------------------------------------------------------- game end in one record


def test_game_over_at_target() -> None:
    record = ruff_record()  # score_after [402, 80]
    rejects(record, rules_with(target=400), "game_over")
    record["game_over"], record["winner"] = True, 0
    check_record(record, rules_with(target=400))
    record["winner"] = 1
    rejects(record, rules_with(target=400), "winner")


def test_equal_totals_over_target_play_on() -> None:
    record = ruff_record()
    record["score_before"] = [310, 442]
    record["score_after"] = [402, 402]
    check_record(record, rules_with(target=400))  # game_over false: tie
    record["game_over"], record["winner"] = True, 0
    rejects(record, rules_with(target=400), "game_over")


def test_mercy_rule() -> None:
    record = ruff_record()  # team 1 ends at 80
    check_record(record, rules_with(mercy=True))  # threshold -200: not reached
    mercy = rules_with(mercy=True, mercy_threshold=80)
    rejects(record, mercy, "game_over")
    record["game_over"], record["winner"] = True, 0
    check_record(record, mercy)
    check_record(ruff_record(), rules_with(mercy=False, mercy_threshold=80))


def test_hand_cap_unfinished() -> None:
    record = ruff_record()  # hand 3: the fourth hand
    capped = rules_with(hand_cap=4)
    rejects(record, capped, "unfinished")
    record["unfinished"] = True
    check_record(record, capped)
    rejects(record, DEFAULT_RULES, "unfinished")
    record["winner"] = 0
    rejects(record, capped, "winner")
    # A win at the cap is a win, not unfinished.
    record = ruff_record()
    record["game_over"], record["winner"] = True, 0
    check_record(record, rules_with(hand_cap=4, target=400))


# --------------------------------------------------------------------------- random games


def legal_cards(hand: list[str], trick: list[str], broken: bool) -> list[str]:
    """Cards a seat may play, written here separately from the referee's replay."""
    if trick:
        follow = [c for c in hand if c[1] == trick[0][1]]
        return follow or list(hand)
    if broken:
        return list(hand)
    return [c for c in hand if c[1] != "S"] or list(hand)


def beats(card: str, best: str) -> bool:
    """Does card beat the trick's current best card (which is of the led suit or a spade)?"""
    if card[1] == best[1]:
        return RANKS.index(card[0]) > RANKS.index(best[0])
    return card[1] == "S"  # a spade on a non-spade best; anything else off-suit loses


def play_random_hand(rng: random.Random, hands: list[list[str]], dealer: int) -> tuple[list[list], list[int]]:
    """Play one hand with uniformly random legal cards: (plays, tricks per seat)."""
    held = [list(h) for h in hands]
    plays: list[list] = []
    tricks = [0, 0, 0, 0]
    leader = (dealer + 1) % 4
    broken = False
    for _ in range(13):
        trick: list[str] = []
        best_seat, best_card = leader, ""
        for k in range(4):
            seat = (leader + k) % 4
            card = rng.choice(legal_cards(held[seat], trick, broken))
            held[seat].remove(card)
            if not trick or beats(card, best_card):
                best_seat, best_card = seat, card
            trick.append(card)
            plays.append([seat, card])
        broken = broken or any(c[1] == "S" for c in trick)
        tricks[best_seat] += 1
        leader = best_seat
    return plays, tricks


def random_game(seed: int, rules: dict) -> list[dict]:
    """A whole game of random bids and random legal play, recorded in RECORDS.md form."""
    rng = random.Random(seed)
    deck = [r + s for s in "CDHS" for r in RANKS]
    dealer = rng.randrange(4)
    score, bags = [0, 0], [0, 0]
    records: list[dict] = []
    for hand_no in range(10_000):
        rng.shuffle(deck)
        hands = [deck[13 * s : 13 * s + 13] for s in range(4)]
        bids = [rng.choice([0] + list(range(rules["min_bid"], min(rules["max_bid"], 6) + 1))) for _ in range(4)]
        plays, tricks = play_random_hand(rng, hands, dealer)
        hand_score, bags_after = score_hand(rules, bids, tricks, bags)
        after = [score[0] + hand_score[0], score[1] + hand_score[1]]
        ended = max(after) >= rules["target"] or (rules["mercy"] and min(after) <= rules["mercy_threshold"])
        over = ended and after[0] != after[1]
        record = make_record(hands, dealer, plays, bids, tricks, hand_score, score, bags, bags_after, hand=hand_no)
        record["game"] = seed
        record["game_over"] = over
        record["winner"] = (0 if after[0] > after[1] else 1) if over else None
        records.append(record)
        if over:
            return records
        if rules["hand_cap"] is not None and hand_no + 1 >= rules["hand_cap"]:
            record["unfinished"] = True
            return records
        score, bags, dealer = after, bags_after, (dealer + 1) % 4
    raise AssertionError("game did not end")


SHORT_GAME = rules_with(target=150, mercy=True, mercy_threshold=-150, hand_cap=40)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_games_are_accepted(seed: int) -> None:
    check_game(random_game(seed, SHORT_GAME), SHORT_GAME)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_random_games_with_variant_rules_are_accepted(seed: int, bags_on: bool, nil_bags: bool) -> None:
    rules = rules_with(
        target=120, hand_cap=25, bag_penalty_enabled=bags_on, nil_tricks_as_bags=nil_bags, bag_threshold=4
    )
    check_game(random_game(seed, rules), rules)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 51), st.data())
def test_random_play_replaced_by_a_card_not_held_is_rejected(seed: int, index: int, data: st.DataObject) -> None:
    record = random_game(seed, SHORT_GAME)[0]
    seat = record["plays"][index][0]
    others = sorted(c for s in range(4) if s != seat for c in record["hands"][s])
    record["plays"][index][1] = data.draw(st.sampled_from(others))
    rejects(record, SHORT_GAME, f"plays[{index}]")


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(["tricks", "hand_score", "score_after", "bags_after"]),
    st.integers(0, 3),
    st.sampled_from([-1, 1]),
)
def test_random_number_changed_is_rejected(seed: int, field: str, index: int, delta: int) -> None:
    record = random_game(seed, SHORT_GAME)[0]
    index %= len(record[field])
    record[field][index] += delta
    if field == "bags_after" and record[field][index] < 0:
        record[field][index] += 2
    rejects(record, SHORT_GAME, field)


# --------------------------------------------------------------------------- whole games


def test_game_checks_hand_numbers_dealer_and_carry_over() -> None:
    records = random_game(7, SHORT_GAME)
    assert len(records) >= 2
    check_game(records, SHORT_GAME)

    bad = copy.deepcopy(records)
    bad[1]["hand"] = 2
    with pytest.raises(RefereeError, match="hand"):
        check_game(bad, SHORT_GAME)

    # Dealer passed counter-clockwise: a new (still legal) hand 1 dealt by the wrong seat,
    # judged with a target nobody reaches so that neither hand ends the game.
    bad = copy.deepcopy(records[:2])
    bad[1]["dealer"] = (records[0]["dealer"] + 3) % 4
    bad[1]["plays"], bad[1]["tricks"] = play_random_hand(random.Random(1), bad[1]["hands"], bad[1]["dealer"])
    bad[1]["hand_score"], bad[1]["bags_after"] = score_hand(
        SHORT_GAME, bad[1]["bids"], bad[1]["tricks"], bad[1]["bags_before"]
    )
    bad[1]["score_after"] = [bad[1]["score_before"][t] + bad[1]["hand_score"][t] for t in (0, 1)]
    bad[1]["game_over"], bad[1]["winner"] = False, None
    endless = rules_with(target=10**9)
    check_record(bad[1], endless)  # the hand itself is fine
    with pytest.raises(RefereeError, match="dealer"):
        check_game(bad, endless)

    bad = copy.deepcopy(records)
    bad[1]["score_before"] = [bad[1]["score_before"][0] + 10, bad[1]["score_before"][1]]
    bad[1]["score_after"] = [bad[1]["score_after"][0] + 10, bad[1]["score_after"][1]]
    with pytest.raises(RefereeError, match="score_before"):
        check_game(bad, SHORT_GAME)


def test_game_must_start_from_zero() -> None:
    records = random_game(11, SHORT_GAME)
    records[0]["bags_before"] = [1, 0]
    records[0]["bags_after"] = score_hand(
        SHORT_GAME, records[0]["bids"], records[0]["tricks"], records[0]["bags_before"]
    )[1]
    records[0]["hand_score"] = score_hand(
        SHORT_GAME, records[0]["bids"], records[0]["tricks"], records[0]["bags_before"]
    )[0]
    records[0]["score_after"] = list(records[0]["hand_score"])
    with pytest.raises(RefereeError, match="bags_before"):
        check_game(records, SHORT_GAME)


def test_game_must_end_at_its_last_record() -> None:
    records = random_game(3, SHORT_GAME)
    with pytest.raises(RefereeError, match="game_over"):
        check_game(records[:-1], SHORT_GAME)
    with pytest.raises(RefereeError, match="no records"):
        check_game([], SHORT_GAME)


def test_unfinished_game_at_hand_cap() -> None:
    capped = rules_with(hand_cap=3)
    records = random_game(5, capped)
    assert len(records) == 3 and records[-1]["unfinished"] and records[-1]["winner"] is None
    check_game(records, capped)
    # Judged with a larger cap the third hand must not be unfinished.
    with pytest.raises(RefereeError, match="unfinished"):
        check_game(records, rules_with(hand_cap=4))
    # A game may not stop unfinished before the hand cap.
    early = copy.deepcopy(records[:2])
    early[-1]["unfinished"] = True
    with pytest.raises(RefereeError, match="unfinished"):
        check_game(early, capped)


def test_records_of_two_games_are_rejected() -> None:
    records = random_game(9, SHORT_GAME)
    records[0]["game"] = 99
    with pytest.raises(RefereeError, match="several games"):
        check_game(records, SHORT_GAME)
