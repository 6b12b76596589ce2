"""Every rules variant of RULES.md checked from outside the engine.

(a) Worked examples of each scoring variant, written by hand from RULES.md, pinned against both the
    engine's `score_hands` and the independent referee (tests/referee.py).
(b) Hand-made records (jokers deck, two of clubs / lowest clubs, blind nil with an exchange, Duel with
    its draft) accepted by the referee and by `records.verify`, and rejected once broken.
(c) Every preset and a few extra combinations simulated with random players (>= 2,000 hands per
    preset), turned into records, and checked game by game by the referee and by `records.verify`;
    tampered records and records judged by the wrong rules are rejected by both.
(d) Presets on the command line, and combinations the rules object refuses.
(e) Engine behaviour a record cannot show (who bids first), and three engine bugs found by this suite
    (exchange hands in records, blind nil under a minimum side contract, blind_nil_trail = 0).
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import groupby

import numpy as np
import pytest
import referee
from referee import RefereeError

import spades_lab
from spades_lab import cli
from spades_lab.engine import score_hands
from spades_lab.engine.records import RecordError, hand_records, verify
from spades_lab.policies import Player
from spades_lab.policies.baseline import RandomBid, RandomDraft, RandomPlay
from spades_lab.rules import PRESETS, Rules, RulesError

SEED = 20240603
RANKS = "23456789TJQKA"


def ref(rules: Rules, **changes: object) -> dict:
    """The rules dict the referee judges by."""
    return {**rules.to_dict(), **changes}


def rejected_by_referee(record: dict, rules: dict, *words: str) -> str:
    with pytest.raises(RefereeError) as info:
        referee.check_record(record, rules)
    message = str(info.value)
    for word in words:
        assert word in message, message
    return message


def rejected_by_verify(records: list[dict], rules: Rules) -> str:
    with pytest.raises(RecordError) as info:
        verify(records, rules)
    return str(info.value)


# --------------------------------------------------------------------------- (a) worked scoring examples

BLIND = PRESETS["blind-nil"]
HOUSE = PRESETS["house"]
DUEL = PRESETS["duel"]
TO_PARTNER = Rules(nil_tricks_to_partner=True)

# (name, rules, bids, tricks, bags_before, blind, hand_score, bags_after), every number worked out by hand.
WORKED = [
    # Blind nil +-200 (seat 0 blind). Team 0: blind nil +200, seat 2 bid 5 took 6: 50 + 1. Team 1: bid 7 took 7.
    ("blind nil made", BLIND, [0, 4, 5, 3], [0, 4, 6, 3], [0, 0], [1, 0, 0, 0], [251, 70], [1, 0]),
    # Blind nil took 2: -200 + 2 bag points; seat 2 bid 5 took 4: set -50.
    ("blind nil failed", BLIND, [0, 4, 5, 3], [2, 4, 4, 3], [0, 0], [1, 0, 0, 0], [-248, 70], [2, 0]),
    # Both partners blind: +400; team 1 bid 7 took 13: 70 + 6.
    ("double blind made", BLIND, [0, 4, 0, 3], [0, 7, 0, 6], [0, 0], [1, 0, 1, 0], [400, 76], [0, 6]),
    # Both blind nils fail: -400 + 3 bag points; team 1 bid 7 took 10: 73.
    ("double blind failed", BLIND, [0, 4, 0, 3], [1, 6, 2, 4], [0, 0], [1, 0, 1, 0], [-397, 73], [3, 3]),
    # One blind nil made, one failed: 200 - 200 + 3 bags; team 1 bid 7 took 10.
    ("double blind split", BLIND, [0, 4, 0, 3], [0, 6, 3, 4], [0, 0], [1, 0, 1, 0], [3, 73], [3, 3]),
    # A blind nil (+200) beside an ordinary nil that fails (-100, 1 bag); team 1 bid 7 took 12: 75.
    ("blind nil beside a nil", BLIND, [0, 4, 0, 3], [0, 7, 1, 5], [0, 0], [1, 0, 0, 0], [101, 75], [1, 5]),
    # 10-for-200: team 0 bids 6 + 4 = 10, takes 11: 200 + 1. Team 1 bids 5, takes 2: -50.
    ("10-for-200 made", HOUSE, [6, 2, 4, 3], [5, 1, 6, 1], [0, 0], None, [201, -50], [1, 0]),
    # Set on 10: -200 flat. Team 1 bid 5 took 4: -50.
    ("10-for-200 set", HOUSE, [6, 2, 4, 3], [4, 3, 5, 1], [0, 0], None, [-200, -50], [0, 0]),
    # A contract of 9 is an ordinary one: 90 + 1.
    ("9 is not big", HOUSE, [5, 2, 4, 3], [5, 1, 5, 2], [0, 0], None, [91, -50], [1, 0]),
    # Nil worth 50: made +50 beside 4 bid and made; team 1 bid 8 took 9.
    ("nil 50 made", HOUSE, [0, 3, 4, 5], [0, 4, 4, 5], [0, 0], None, [90, 81], [0, 1]),
    # Nil worth 50 failed with 1 trick: -50 + 40 + 1 bag point.
    ("nil 50 failed", HOUSE, [0, 3, 4, 5], [1, 3, 4, 5], [0, 0], None, [-9, 80], [1, 0]),
    # Failed nil's 2 tricks go to the partner's 5: 3 + 2 = 5 made, no bags: -100 + 50.
    ("nil tricks to partner", TO_PARTNER, [0, 4, 5, 4], [2, 4, 3, 4], [0, 0], None, [-50, 80], [0, 0]),
    # Same hand, default rules: -100 + 2 bags, partner set on 5: -148.
    ("nil tricks as bags", Rules(), [0, 4, 5, 4], [2, 4, 3, 4], [0, 0], None, [-148, 80], [2, 0]),
    # To the partner with an overtrick: 3 + 3 = 6 on 5: -100 + 51, 1 bag. Team 1 bid 8 took 7: -80.
    ("nil tricks to partner, overtrick", TO_PARTNER, [0, 4, 5, 4], [3, 4, 3, 3], [0, 0], None, [-49, -80], [1, 0]),
    # Duel: player 0 bid 4 took 6: 42, 5 + 2 bags. Player 1 nil took 7: -100 + 7, 8 + 7 = 15 bags: -100, 5 left.
    ("duel", DUEL, [4, 0], [6, 7], [5, 8], None, [42, -193], [7, 5]),
    # Duel set and made: player 0 bid 5 took 4: -50. Player 1 bid 6 took 9: 63, 3 bags.
    ("duel set", DUEL, [5, 6], [4, 9], [0, 0], None, [-50, 63], [0, 3]),
    # Duel nil made +100; player 1 bid 3 took 13: 30 + 10, the tenth bag costs 100.
    ("duel nil made", DUEL, [0, 3], [0, 13], [0, 0], None, [100, -60], [0, 0]),
]


@pytest.mark.parametrize("case", WORKED, ids=[c[0] for c in WORKED])
def test_worked_examples_engine_and_referee(case: tuple) -> None:
    _, rules, bids, tricks, bags_before, blind, points, bags_after = case
    flags = None if blind is None else [bool(b) for b in blind]
    assert sum(tricks) == 13
    result = score_hands(
        rules, np.array([bids]), np.array([tricks]), np.array([bags_before]),
        None if flags is None else np.array([flags]),
    )  # fmt: skip
    assert result.points[0].tolist() == points, "engine hand_score"
    assert result.bags_after[0].tolist() == bags_after, "engine bags_after"
    assert referee.score_hand(ref(rules), bids, tricks, bags_before, flags) == (points, bags_after)


def test_blind_flag_changes_only_blind_nils() -> None:
    # A blind flag on a seat is worth blind_nil_value only for that nil: the other nil stays 100.
    base = referee.score_hand(ref(BLIND), [0, 4, 0, 3], [0, 7, 0, 6], [0, 0], [False] * 4)
    assert base == ([200, 76], [0, 6])
    assert referee.score_hand(
        ref(BLIND, blind_nil_value=300), [0, 4, 0, 3], [0, 7, 0, 6], [0, 0], [True, False, False, False]
    ) == ([400, 76], [0, 6])


# --------------------------------------------------------------------------- (b) hand-made records


def record(players: int, dealer: int, deal: list[list[str]], plays: list[list], bids: list[int], tricks: list[int],
           hand_score: list[int], bags_after: list[int], score_before=(0, 0), bags_before=(0, 0), **extra) -> dict:  # fmt: skip
    out = {
        "game": 0, "hand": 0, "rules": "custom", "players": players, "dealer": dealer,
        "deal": copy.deepcopy(deal), "blind": [False] * players, "exchange": [], "draft": [],
        "hands": copy.deepcopy(deal), "bids": bids, "plays": plays, "tricks": tricks,
        "score_before": list(score_before), "bags_before": list(bags_before), "hand_score": hand_score,
        "score_after": [score_before[0] + hand_score[0], score_before[1] + hand_score[1]],
        "bags_after": bags_after, "game_over": False, "winner": None,
    }  # fmt: skip
    out.update(extra)
    return out


def jokers_record() -> dict:
    """Jokers deck (BJ LJ 2C 2S AS..3S trumps; 2H 2D out). Dealer 3, seat 0 leads.

    Seat 0: 3C..AC + 3S. Seat 1: BJ LJ 2C 2S AS KS QS JS TS 9S 8S 7S + 4H.
    Seat 2: 3D..AD + 3H.  Seat 3: 6S 5S 4S + 5H..AH.
    t0  3C led; seat 1 has no club (2C is a trump) and ruffs with 2C; 3H, 5H -> seat 1.
    t1  spades are broken by the 2C alone, so seat 1 may lead 7S although it holds 4H;
        4D (no trump), 4S (must follow trumps), 3S -> seat 1.
    t2  BJ led; 3D, 5S, 4C -> seat 1.   t3  LJ; 5D, 6S, 5C -> seat 1.
    t4..t11 seat 1 leads 2S AS KS QS JS TS 9S 8S; 6D..KD; seat 3 out of trumps: 6H..KH; 6C..KC -> seat 1.
    t12 4H; AD; AH (follows); AC -> seat 3.
    Tricks 0, 12, 0, 1. Bids nil, 10, nil, 1: team 0 both nils made +200; team 1 bid 11 took 13: 112, 2 bags.
    """
    deal = [
        [r + "C" for r in RANKS[1:]] + ["3S"],
        ["BJ", "LJ", "2C", "2S", "AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "4H"],
        [r + "D" for r in RANKS[1:]] + ["3H"],
        ["6S", "5S", "4S"] + [r + "H" for r in RANKS[3:]],
    ]
    plays: list[list] = [[0, "3C"], [1, "2C"], [2, "3H"], [3, "5H"]]
    plays += [[1, "7S"], [2, "4D"], [3, "4S"], [0, "3S"]]
    plays += [[1, "BJ"], [2, "3D"], [3, "5S"], [0, "4C"]]
    plays += [[1, "LJ"], [2, "5D"], [3, "6S"], [0, "5C"]]
    for trump, rank in zip(["2S", "AS", "KS", "QS", "JS", "TS", "9S", "8S"], "6789TJQK"):
        plays += [[1, trump], [2, rank + "D"], [3, rank + "H"], [0, rank + "C"]]
    plays += [[1, "4H"], [2, "AD"], [3, "AH"], [0, "AC"]]
    return record(4, 3, deal, plays, [0, 10, 0, 1], [0, 12, 0, 1], [200, 112], [0, 2])


JOKERS = PRESETS["jokers"]


def test_jokers_record_by_hand() -> None:
    rec = jokers_record()
    referee.check_record(rec, ref(JOKERS))
    referee.check_record(rec, ref(JOKERS, first_lead="lowest_clubs"))  # 3C is seat 0's lowest club
    verify([rec], JOKERS)
    verify([rec], JOKERS.replace(first_lead="lowest_clubs"))
    # Not a deck of jokers: BJ is no card of the standard deck, 2C none of jokers-2d.
    rejected_by_referee(rec, ref(Rules()), "BJ")
    rejected_by_referee(rec, ref(Rules(deck="jokers-2d")), "2C")
    rejected_by_verify([rec], Rules())
    # Seat 0 opening 4C instead of its lowest club 3C: fine normally, not under lowest_clubs.
    bad = copy.deepcopy(rec)
    bad["plays"][0][1], bad["plays"][11][1] = "4C", "3C"
    referee.check_record(bad, ref(JOKERS))
    verify([bad], JOKERS)
    rejected_by_referee(bad, ref(JOKERS, first_lead="lowest_clubs"), "plays[0]", "lowest club")
    rejected_by_verify([bad], JOKERS.replace(first_lead="lowest_clubs"))


def test_jokers_record_claims_are_checked() -> None:
    # If 2C were a club it would follow suit and lose to 3C: the tricks would be 1, 11, 0, 1.
    rec = jokers_record()
    rec["tricks"] = [1, 11, 0, 1]
    rejected_by_referee(rec, ref(JOKERS), "tricks")
    rejected_by_verify([rec], JOKERS)
    # Seat 3 keeping its 4S on the trump lead of trick 1 (discarding 6H instead) does not follow suit.
    rec = jokers_record()
    rec["plays"][6][1], rec["plays"][18][1] = "6H", "4S"
    rejected_by_referee(rec, ref(JOKERS), "plays[6]", "follow suit S")
    rejected_by_verify([rec], JOKERS)


def test_jokers_trump_order_and_suits() -> None:
    jokers, j2d = referee.deck_named("jokers"), referee.deck_named("jokers-2d")
    assert len(jokers.cards) == len(j2d.cards) == 52
    assert {"BJ", "LJ"} <= jokers.cards and not {"2H", "2D"} & jokers.cards
    assert "2D" in j2d.cards and not {"2H", "2C"} & j2d.cards
    win = referee.trick_winner_index
    assert win(["AS", "LJ", "BJ", "2S"], jokers) == 2
    assert win(["AS", "2S", "KS", "3S"], jokers) == 1
    assert win(["2S", "2C", "3S", "AS"], jokers) == 1  # the promoted 2C outranks 2S
    assert win(["3C", "2C", "AC", "KC"], jokers) == 1  # 2C on a club lead is a trump, not a low club
    assert win(["3D", "2D", "AD", "KD"], j2d) == 1
    assert win(["KH", "AH", "2D", "QH"], j2d) == 2
    assert win(["KH", "AH", "3D", "QH"], referee.STANDARD) == 1
    legal = referee.legal_cards
    # Clubs led: a hand whose only "club" is the promoted 2C holds no club.
    assert legal({"2C", "5H"}, ["3C"], False, jokers)[0] == {"2C", "5H"}
    assert legal({"2C", "3C"}, ["9C"], False, jokers)[0] == {"3C"}
    # Trumps led: jokers and 2C follow.
    assert legal({"BJ", "2C", "5H"}, ["4S"], False, jokers)[0] == {"BJ", "2C"}
    # Leading before trumps are broken: no joker, no 2C while holding a plain suit.
    assert legal({"LJ", "2C", "5H"}, [], False, jokers)[0] == {"5H"}
    assert legal({"LJ", "2C", "5H"}, [], True, jokers)[0] == {"LJ", "2C", "5H"}
    assert legal({"LJ", "2C"}, [], False, jokers)[0] == {"LJ", "2C"}
    # Lowest clubs: 2C is no club in the jokers deck; a seat without clubs plays anything, a spade lead too.
    assert legal({"2C", "3C", "9C"}, [], False, jokers, "lowest_clubs")[0] == {"3C"}
    assert legal({"2C", "3C", "9C"}, [], False, referee.STANDARD, "lowest_clubs")[0] == {"2C"}
    assert legal({"AS", "5H"}, [], False, referee.STANDARD, "lowest_clubs")[0] == {"AS", "5H"}
    assert legal({"AS", "5H"}, ["2D"], False, referee.STANDARD, "lowest_clubs")[0] == {"AS", "5H"}
    # Cards outside the deck are refused by name.
    with pytest.raises(RefereeError, match="2H"):
        referee.normalise_card("2H", "x", jokers)
    with pytest.raises(RefereeError, match="BJ"):
        referee.normalise_card("BJ", "x", referee.STANDARD)
    assert referee.normalise_card("bj", "x", jokers) == "BJ"


def one_suit_record(dealer: int) -> dict:
    """Seat 0 spades, seat 1 hearts, seat 2 diamonds, seat 3 clubs; seat 3 leads 2C.

    t0 2C; seat 0 ruffs 2S; 2H; 2D -> seat 0. t1..t12 seat 0 leads 3S..AS, the others discard 3..A -> seat 0.
    Tricks 13, 0, 0, 0. Bids 13, nil, nil, 1: team 0 130 + 100; team 1 +100 - 10.
    """
    deal = [[r + s for r in RANKS] for s in "SHDC"]
    plays: list[list] = [[3, "2C"], [0, "2S"], [1, "2H"], [2, "2D"]]
    for r in RANKS[1:]:
        plays += [[0, r + "S"], [1, r + "H"], [2, r + "D"], [3, r + "C"]]
    return record(4, dealer, deal, plays, [13, 0, 0, 1], [13, 0, 0, 0], [230, 90], [0, 0])


TWO_OF_CLUBS = PRESETS["two-of-clubs"]


def test_two_of_clubs_and_lowest_clubs_by_hand() -> None:
    rec = one_suit_record(dealer=1)  # left of the dealer is seat 2, but seat 3 holds 2C
    referee.check_record(rec, ref(TWO_OF_CLUBS))
    verify([rec], TWO_OF_CLUBS)
    rejected_by_referee(rec, ref(Rules()), "plays[0]", "seat 2 is to play")
    rejected_by_verify([rec], Rules())
    # The 2C holder must lead the 2C itself.
    bad = copy.deepcopy(rec)
    bad["plays"][0][1], bad["plays"][7][1] = "3C", "2C"
    rejected_by_referee(bad, ref(TWO_OF_CLUBS), "plays[0]", "2 of clubs")
    rejected_by_verify([bad], TWO_OF_CLUBS)
    # Dealer 2: seat 3 leads anyway; 3C is fine normally, but under lowest_clubs it must be 2C.
    rec = one_suit_record(dealer=2)
    lowest = Rules(first_lead="lowest_clubs")
    referee.check_record(rec, ref(lowest))
    verify([rec], lowest)
    bad = copy.deepcopy(rec)
    bad["plays"][0][1], bad["plays"][7][1] = "3C", "2C"
    referee.check_record(bad, ref(Rules()))
    verify([bad], Rules())
    rejected_by_referee(bad, ref(lowest), "plays[0]", "lowest club")
    rejected_by_verify([bad], lowest)


def blind_record() -> dict:
    """Blind nil (preset blind-nil: trail 100, 1 card each way). Dealer 3; team 0 trails 0 to 150.

    Seat 2 bids blind nil; its partner seat 0 passes 2S, seat 2 passes AD back.
    Seat 0: 3S..AS + AD; seat 1 hearts; seat 2: 2D..KD + 2S; seat 3 clubs.
    t0 seat 0 must lead AD (spades unbroken, AD its only other card); 2H; 2D; 2C -> seat 0.
    t1 seat 0 holds only spades: 3S; 3H; seat 2 must follow with the 2S it was passed; 3C -> seat 0.
    t2..t12 seat 0 leads 4S..AS -> seat 0. Tricks 13, 0, 0, 0. Bids 10, 2, blind nil, 1:
    team 0: 100 + 3 bags + 200 = 303, 3 bags; team 1 set on 3: -30.
    """
    deal = [[r + s for r in RANKS] for s in "SHDC"]
    hands = [[r + "S" for r in RANKS[1:]] + ["AD"], deal[1], [r + "D" for r in RANKS[:-1]] + ["2S"], deal[3]]
    plays: list[list] = [[0, "AD"], [1, "2H"], [2, "2D"], [3, "2C"], [0, "3S"], [1, "3H"], [2, "2S"], [3, "3C"]]
    for r, d in zip(RANKS[2:], RANKS[1:]):
        plays += [[0, r + "S"], [1, r + "H"], [2, d + "D"], [3, r + "C"]]
    return record(
        4, 3, deal, plays, [10, 2, 0, 1], [13, 0, 0, 0], [303, -30], [3, 0], score_before=(0, 150),
        blind=[False, False, True, False], exchange=[[0, 2, "2S"], [2, 0, "AD"]], hands=hands,
    )  # fmt: skip


def test_blind_nil_with_exchange_by_hand() -> None:
    rec = blind_record()
    referee.check_record(rec, ref(BLIND))
    verify([rec], BLIND)
    # Not trailing by 100 (only by 50): no blind nil.
    bad = copy.deepcopy(rec)
    bad["score_before"], bad["score_after"] = [0, 50], [303, 20]
    rejected_by_referee(bad, ref(BLIND), "blind[2]", "trails by 50")
    rejected_by_verify([bad], BLIND)
    # Scored as an ordinary nil: 100 short.
    bad = copy.deepcopy(rec)
    bad["hand_score"], bad["score_after"] = [203, -30], [203, 120]
    rejected_by_referee(bad, ref(BLIND), "hand_score")
    rejected_by_verify([bad], BLIND)
    # No exchange recorded (hands = deal, which the plays do not fit either).
    bad = copy.deepcopy(rec)
    bad["exchange"], bad["hands"] = [], bad["deal"]
    rejected_by_referee(bad, ref(BLIND), "exchange", "1 card(s) each way")
    rejected_by_verify([bad], BLIND)
    # A blind nil where the rules have none.
    rejected_by_referee(rec, ref(Rules()), "blind[2]")
    rejected_by_verify([rec], Rules())
    # The referee also holds the exchange's form: the partner passes first, to the partner.
    bad = copy.deepcopy(rec)
    bad["exchange"].reverse()
    rejected_by_referee(bad, ref(BLIND), "exchange[0]", "out of turn")
    bad = copy.deepcopy(rec)
    bad["exchange"][0][1] = 1
    rejected_by_referee(bad, ref(BLIND), "exchange[0]", "partner")
    bad = copy.deepcopy(rec)
    bad["exchange"][1][2] = "KD"  # a card seat 2 holds, but the hands say AD went over
    rejected_by_referee(bad, ref(BLIND), "hands[0]")


def test_double_blind_has_no_exchange() -> None:
    # Seats 0 and 2 both blind: the same hand without passes would need no exchange at all.
    rec = one_suit_record(dealer=2)  # seat 3 leads 2C; bids 13, nil, nil, 1 -> give seats 1 and 3 the blinds
    rec["bids"] = [13, 0, 2, 0]
    rec["blind"] = [False, True, False, True]
    rec["score_before"] = [200, 0]
    # Team 0: bid 15 took 13: -150. Team 1: two blind nils made: +400.
    rec["hand_score"], rec["bags_after"] = [-150, 400], [0, 0]
    rec["score_after"] = [50, 400]
    rules = BLIND.replace(blind_nil_exchange=3)
    referee.check_record(rec, ref(rules))
    verify([rec], rules)
    bad = copy.deepcopy(rec)
    bad["exchange"] = [[1, 3, "2H"]]
    bad["hands"][1].remove("2H")
    bad["hands"][3].append("2H")
    rejected_by_referee(bad, ref(rules), "exchange[0]", "no exchange")


def duel_record(dealer: int = 1) -> dict:
    """Duel, dealer 1: seat 0 draws first. Stock pairs: seat 0's turns show (spade, diamond) and it keeps;
    seat 1's show (club, heart) and it discards the club to take the heart.

    Seat 0 holds all spades, seat 1 all hearts; seat 0 leads 2S..AS, seat 1 discards 2H..AH: 13 tricks to 0.
    Bids 11 and nil: player 0 110 + 2 = 112, 2 bags; player 1 +100.
    """
    draft = []
    for turn in range(26):
        k = turn // 2
        if turn % 2 == 0:
            draft.append([0, "keep", RANKS[k] + "S", RANKS[k] + "D"])
        else:
            draft.append([1, "discard", RANKS[k] + "C", RANKS[k] + "H"])
    deal = [[r + "S" for r in RANKS], [r + "H" for r in RANKS]]
    plays: list[list] = []
    for r in RANKS:
        plays += [[0, r + "S"], [1, r + "H"]]
    return record(2, dealer, deal, plays, [11, 0], [13, 0], [112, 100], [2, 0], draft=draft)


def test_duel_record_by_hand() -> None:
    rec = duel_record()
    referee.check_record(rec, ref(DUEL))
    verify([rec], DUEL)
    # A draft that does not build the hands: seat 0 discards its first spade and takes 2D.
    bad = copy.deepcopy(rec)
    bad["draft"][0][1] = "discard"
    rejected_by_referee(bad, ref(DUEL), "draft")
    assert "draft" in rejected_by_verify([bad], DUEL)
    # Dealer 0: seat 1 should have drawn first (and led).
    bad = copy.deepcopy(rec)
    bad["dealer"] = 0
    rejected_by_referee(bad, ref(DUEL), "draft[0]")
    rejected_by_verify([bad], DUEL)
    # A card drawn twice.
    bad = copy.deepcopy(rec)
    bad["draft"][2][3] = "2D"
    rejected_by_referee(bad, ref(DUEL), "draft[2]", "already drawn")
    # Duel has no blind nil, and a 4-player rules dict does not fit a 2-player record.
    bad = copy.deepcopy(rec)
    bad["blind"] = [False, True]
    rejected_by_referee(bad, ref(DUEL), "blind[1]", "Duel")
    rejected_by_referee(rec, ref(Rules()), "players")
    # Per-player scoring: claiming the 4-player reading of anything else is refused.
    bad = copy.deepcopy(rec)
    bad["hand_score"], bad["score_after"] = [112, -100], [112, -100]
    rejected_by_referee(bad, ref(DUEL), "hand_score")
    rejected_by_verify([bad], DUEL)


def test_team_contract_limits_by_hand() -> None:
    rec = one_suit_record(dealer=2)  # bids 13, nil, nil, 1: team 0 bids 13, team 1 bids 1
    rules = Rules(max_team_contract=13, min_team_contract=1)
    referee.check_record(rec, ref(rules))
    verify([rec], rules)
    rejected_by_referee(rec, ref(Rules(max_team_contract=12)), "bids", "max_team_contract 12")
    rejected_by_verify([rec], Rules(max_team_contract=12))
    rejected_by_referee(rec, ref(Rules(min_team_contract=2)), "bids", "side 1", "min_team_contract 2")
    rejected_by_verify([rec], Rules(min_team_contract=2))


# --------------------------------------------------------------------------- (c) simulated games


@dataclass(frozen=True)
class Setup:
    rules: Rules
    games: int
    min_hands: int
    expect: tuple[str, ...] = ()
    """Features (see `features`) that must occur at least once, so the sweep really exercises the variant."""


SETUPS: dict[str, Setup] = {
    "standard": Setup(PRESETS["standard"].replace(hand_cap=8), 260, 2000, ("unfinished", "failed_nil")),
    "short": Setup(PRESETS["short"].replace(hand_cap=8), 260, 2000, ("unfinished",)),
    "duel": Setup(DUEL.replace(hand_cap=8), 262, 2000, ("unfinished", "failed_nil")),
    "blind-nil": Setup(BLIND.replace(hand_cap=8), 260, 2000, ("blind", "exchange", "double_blind")),
    "jokers": Setup(JOKERS.replace(hand_cap=8), 260, 2000, ("trump_not_a_spade_wins",)),
    "jokers-2d": Setup(PRESETS["jokers-2d"].replace(hand_cap=8), 260, 2000, ("trump_not_a_spade_wins",)),
    "two-of-clubs": Setup(TWO_OF_CLUBS.replace(hand_cap=8), 260, 2000, ("two_of_clubs_not_left_of_dealer",)),
    "pagat": Setup(PRESETS["pagat"].replace(hand_cap=8), 1200, 2000, ("game_over", "blind", "exchange")),
    "house": Setup(HOUSE.replace(hand_cap=8), 260, 2000, ("big_contract", "at_max", "at_min", "failed_nil")),
    # Extra combinations (fewer hands each).
    "jokers + lowest_clubs": Setup(
        Rules(deck="jokers", first_lead="lowest_clubs", hand_cap=8),
        130,
        1000,
        ("trump_not_a_spade_wins", "clubless_first_trick"),
    ),
    "jokers-2d + lowest_clubs + dealer bids first + contracts 5..9": Setup(
        Rules(
            deck="jokers-2d",
            first_lead="lowest_clubs",
            first_bidder="dealer",
            min_team_contract=5,
            max_team_contract=9,
            hand_cap=8,
        ),
        130,
        1000,
        ("at_max", "at_min", "clubless_first_trick"),
    ),
    "nil tricks to partner + 8-for-150": Setup(
        Rules(nil_tricks_to_partner=True, big_contract=8, big_contract_value=150, hand_cap=8),
        130,
        1000,
        ("failed_nil", "big_contract"),
    ),
    "duel with mercy (games end)": Setup(
        DUEL.replace(mercy=True, mercy_threshold=-150, hand_cap=20), 500, 1000, ("game_over",)
    ),
    "blind nil, exchange 3, mercy": Setup(
        Rules(blind_nil=True, blind_nil_trail=50, blind_nil_exchange=3, mercy=True, hand_cap=8),
        650,
        1000,
        ("blind", "exchange", "game_over"),
    ),
    "jokers-2d, blind nil, 10-for-200, max 13": Setup(
        Rules(
            deck="jokers-2d",
            blind_nil=True,
            blind_nil_trail=100,
            blind_nil_exchange=2,
            big_contract=10,
            max_team_contract=13,
            hand_cap=8,
        ),
        130,
        1000,
        ("blind", "exchange", "big_contract", "at_max"),
    ),
}


@cache
def simulated(name: str) -> list[dict]:
    setup = SETUPS[name]
    rules = setup.rules
    logs = list(
        spades_lab.simulate_games(rules, spades_lab.make_players("random", seats=rules.players), setup.games, SEED)
    )
    return list(hand_records(spades_lab.HandLog.concat(logs).sorted(), rules))


def exchange_applied(rec: dict) -> list[list[str]]:
    """The hands after the recorded passes, applied in order (written here, not taken from the referee)."""
    hands = [list(h) for h in rec["deal"]]
    for giver, taker, card in rec["exchange"]:
        hands[giver].remove(card)
        hands[taker].append(card)
    return hands


def same_hands(a: list[list[str]], b: list[list[str]]) -> bool:
    return [sorted(h) for h in a] == [sorted(h) for h in b]


def features(records: list[dict], rules: Rules) -> Counter:
    """What happened in the records, for the sweep's coverage checks."""
    deck = referee.deck_named(rules.deck)
    p = rules.players
    seen: Counter = Counter()
    for rec in records:
        seen["game_over"] += rec["game_over"]
        seen["unfinished"] += bool(rec.get("unfinished"))
        seen["blind"] += any(rec["blind"])
        seen["exchange"] += bool(rec["exchange"])
        for side_seats in [[0, 2], [1, 3]] if p == 4 else [[0], [1]]:
            bids = [rec["bids"][s] for s in side_seats]
            tricks = [rec["tricks"][s] for s in side_seats]
            contract = sum(bids)
            seen["double_blind"] += all(rec["blind"][s] for s in side_seats) and p == 4
            seen["failed_nil"] += any(b == 0 and t > 0 for b, t in zip(bids, tricks))
            seen["big_contract"] += rules.big_contract is not None and contract >= rules.big_contract
            seen["at_max"] += contract == rules.max_team_contract
            seen["at_min"] += rules.min_team_contract > 0 and contract == rules.min_team_contract
        cards = [c for _, c in rec["plays"]]
        for t in range(13):
            trick = cards[p * t : p * t + p]
            best = trick[referee.trick_winner_index(trick, deck)]
            seen["trump_not_a_spade_wins"] += deck.suit(best) == "S" and best[1] != "S"
        first = rec["plays"][0][0]
        seen["two_of_clubs_not_left_of_dealer"] += rec["plays"][0][1] == "2C" and first != (rec["dealer"] + 1) % p
        seen["clubless_first_trick"] += any(not any(deck.suit(c) == "C" for c in rec["hands"][s]) for s in range(p))
    return seen


@pytest.mark.parametrize("name", SETUPS)
def test_simulated_games_pass_the_referee_and_verify(name: str) -> None:
    setup = SETUPS[name]
    rules = setup.rules
    records = simulated(name)
    assert len(records) >= setup.min_hands
    assert {r["players"] for r in records} == {rules.players}
    assert all(len(r["plays"]) == 13 * rules.players for r in records)
    judged = ref(rules)
    all_games = [list(g) for _, g in groupby(records, key=lambda r: r["game"])]
    assert [g[0]["game"] for g in all_games] == list(range(setup.games))
    for game in all_games:
        referee.check_game(game, judged)
    verify(records, rules)
    seen = features(records, rules)
    missing = [f for f in setup.expect if not seen[f]]
    assert not missing, f"{name}: the random games never showed {missing}: {dict(seen)}"
    if rules.players == 2:
        assert all(len(r["draft"]) == 26 and r["deal"] == r["hands"] for r in records)
    if not rules.blind_nil:
        assert not seen["blind"]


# Records judged by rules with the variant turned off or changed: both checkers must refuse some record.
WRONG_RULES = [
    ("two-of-clubs", {"first_lead": "left_of_dealer"}),
    ("jokers", {"first_lead": "lowest_clubs"}),
    ("house", {"nil_value": 100}),
    ("house", {"big_contract": None}),
    ("house", {"max_team_contract": None, "min_team_contract": 0, "big_contract": None, "nil_value": 100,
               "first_lead": "lowest_clubs"}),
    ("blind-nil", {"blind_nil_trail": 250}),
    ("blind-nil", {"blind_nil_value": 100}),
    ("pagat", {"mercy": False}),
    ("nil tricks to partner + 8-for-150", {"nil_tricks_to_partner": False}),
    ("duel with mercy (games end)", {"mercy_threshold": -300}),
    ("jokers-2d + lowest_clubs + dealer bids first + contracts 5..9", {"first_lead": "left_of_dealer"}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "changes"), WRONG_RULES, ids=[f"{n}: {c}" for n, c in WRONG_RULES])
def test_records_judged_by_other_rules_are_rejected(name: str, changes: dict) -> None:
    rules = SETUPS[name].rules
    wrong = rules.replace(**changes)
    records = simulated(name)[:600]
    refused = 0
    for rec in records:
        try:
            referee.check_record(rec, ref(wrong))
        except RefereeError:
            refused += 1
    assert refused, f"the referee accepted every {name} record under {changes}"
    rejected_by_verify(records, wrong)


def first_record(name: str, test) -> dict:
    return copy.deepcopy(next(r for r in simulated(name) if test(r)))


def test_tampered_duel_records_are_rejected() -> None:
    rules = SETUPS["duel"].rules
    # One draft choice flipped: the draft no longer builds the hands.
    rec = first_record("duel", lambda r: True)
    rec["draft"][7][1] = "keep" if rec["draft"][7][1] == "discard" else "discard"
    rejected_by_referee(rec, ref(rules), "draft")
    assert "draft" in rejected_by_verify([rec], rules)
    # The dealer drawing first.
    rec = first_record("duel", lambda r: True)
    for entry in rec["draft"]:
        entry[0] = 1 - entry[0]
    rejected_by_referee(rec, ref(rules), "draft[0]")
    rejected_by_verify([rec], rules)
    # The two players' deal swapped with their hands: the draft says otherwise.
    rec = first_record("duel", lambda r: True)
    rec["deal"].reverse()
    rejected_by_referee(rec, ref(rules), "draft")
    rejected_by_verify([rec], rules)
    # In a game, the dealer role must alternate.
    game = [r for r in simulated("duel") if r["game"] == 0]
    assert len(game) >= 2
    referee.check_game(game, ref(rules))
    bad = copy.deepcopy(game)
    bad[1]["dealer"] = bad[0]["dealer"]
    with pytest.raises(RefereeError, match="dealer"):
        referee.check_game(bad, ref(rules))


def blind_side_trails(rec: dict, seat: int) -> int:
    side = seat % 2
    return rec["score_before"][1 - side] - rec["score_before"][side]


def test_tampered_blind_nil_records_are_rejected() -> None:
    rules = SETUPS["blind-nil"].rules
    # A blind nil whose side trailed by at least 100; move the scores so it trails by only 60.
    rec = first_record("blind-nil", lambda r: any(r["blind"]) and same_hands(r["hands"], exchange_applied(r)))
    seat = rec["blind"].index(True)
    assert blind_side_trails(rec, seat) >= 100
    shift = blind_side_trails(rec, seat) - 60
    side = seat % 2
    rec["score_before"][side] += shift
    rec["score_after"][side] += shift
    rejected_by_referee(rec, ref(rules), f"blind[{seat}]", "trails by 60")
    rejected_by_verify([rec], rules)
    # The exchange taken out (and the hands put back to the deal).
    rec = first_record("blind-nil", lambda r: bool(r["exchange"]) and same_hands(r["hands"], exchange_applied(r)))
    rec["exchange"], rec["hands"] = [], rec["deal"]
    rejected_by_referee(rec, ref(rules), "exchange")
    rejected_by_verify([rec], rules)
    # A blind flag on a seat that bid a number.
    rec = first_record(
        "blind-nil",
        lambda r: (
            not any(r["blind"])
            and r["score_before"][1] - r["score_before"][0] >= 100
            and (r["bids"][0] or r["bids"][2])
        ),
    )
    seat = next(s for s in (0, 2) if rec["bids"][s])
    rec["blind"][seat] = True
    rejected_by_referee(rec, ref(rules), f"blind[{seat}]", "no blind bids")  # a blind number needs blind_bids
    rejected_by_verify([rec], rules)


def test_tampered_house_records_are_rejected() -> None:
    rules = SETUPS["house"].rules
    # A side above the 13-trick cap.
    rec = first_record("house", lambda r: r["bids"][0] and r["bids"][2])
    rec["bids"][0] = 14 - rec["bids"][2] if rec["bids"][2] <= 1 else 13
    rejected_by_referee(rec, ref(rules), "bids")
    rejected_by_verify([rec], rules)
    # A side below the minimum of 4: nil beside 3.
    rec = first_record("house", lambda r: True)
    rec["bids"][1], rec["bids"][3] = 0, 3
    rejected_by_referee(rec, ref(rules), "bids", "min_team_contract")
    rejected_by_verify([rec], rules)
    # A made big contract scored the ordinary way.
    rec = first_record("house", lambda r: r["bids"][0] + r["bids"][2] >= 10 and r["tricks"][0] + r["tricks"][2] >= 10
                       and r["bids"][0] and r["bids"][2])  # fmt: skip
    contract = rec["bids"][0] + rec["bids"][2]
    assert 10 <= contract <= 13
    rec["hand_score"][0] += 10 * contract - 200
    rec["score_after"][0] += 10 * contract - 200
    rejected_by_referee(rec, ref(rules), "hand_score")
    rejected_by_verify([rec], rules)


# --------------------------------------------------------------------------- (d) presets and refused rules


def test_cli_lists_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", "--list"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert [line.split()[0] for line in lines] == list(PRESETS)
    duel = next(line for line in lines if line.startswith("duel"))
    assert "players=2" in duel and "target=300" in duel


@pytest.mark.parametrize("name", list(PRESETS))
def test_cli_prints_presets_as_toml_that_loads_back(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", name]) == 0
    text = capsys.readouterr().out
    assert Rules.from_toml(text) == PRESETS[name]
    if name == "duel":
        assert "players = 2" in text and "target = 300" in text


def test_presets_hold_what_their_names_say() -> None:
    assert PRESETS["duel"].players == 2 and PRESETS["duel"].target == 300
    assert PRESETS["short"].target == 250
    assert PRESETS["blind-nil"].blind_nil and PRESETS["blind-nil"].blind_nil_trail == 100
    assert PRESETS["jokers"].deck == "jokers" and PRESETS["jokers-2d"].deck == "jokers-2d"
    assert PRESETS["two-of-clubs"].first_lead == "two_of_clubs"
    house = PRESETS["house"]
    assert (house.big_contract, house.big_contract_value, house.max_team_contract, house.nil_value) == (10, 200, 13, 50)


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: Rules(players=2, blind_nil=True), "blind_nil"),
        (lambda: PRESETS["duel"].replace(blind_nil=True), "blind_nil"),
        (lambda: Rules(first_lead="two_of_clubs", deck="jokers"), "first_lead"),
        (lambda: Rules(first_lead="two_of_clubs", deck="jokers-2d"), "deck"),
        (lambda: Rules(blind_nil_exchange=4), "blind_nil_exchange"),
        (lambda: Rules(players=5), "players"),
        (lambda: Rules.from_toml("players = 2\nnil_tricks_to_partner = true\n"), "nil_tricks_to_partner"),
        (lambda: Rules(players=2, first_lead="lowest_clubs"), "first_lead"),
        (lambda: Rules(deck="pinochle"), "deck"),
    ],
    ids=["duel blind nil", "duel preset blind nil", "2C with jokers", "2C with jokers-2d", "exchange 4",
         "5 players (3 is three-player)", "duel nil to partner", "duel lowest clubs", "unknown deck"],
)  # fmt: skip
def test_refused_combinations_name_the_field(make, field: str) -> None:
    with pytest.raises(RulesError, match=field):
        make()


# --------------------------------------------------------------------------- (e) engine behaviour and known disagreements


class FirstBidSpy(RandomBid):
    """Random bids; notes (seat, dealer) of every bid made while no seat had bid yet."""

    def __init__(self) -> None:
        super().__init__(blind_rate=0.0)
        self.first: list[tuple[int, int]] = []

    def bid(self, view) -> np.ndarray:
        nobody = (np.asarray(view.bids) < 0).all(axis=1)
        self.first += list(zip(np.asarray(view.seat)[nobody].tolist(), np.asarray(view.dealer)[nobody].tolist()))
        return super().bid(view)


@pytest.mark.parametrize(
    ("rules", "offset"),
    [(Rules(hand_cap=2), 1), (Rules(first_bidder="dealer", hand_cap=2), 0), (DUEL.replace(hand_cap=2), 1)],
    ids=["left of dealer", "dealer", "duel: non-dealer"],
)
def test_who_bids_first(rules: Rules, offset: int) -> None:
    spy = FirstBidSpy()
    players = [Player(spy, RandomPlay(), drafter=RandomDraft())] * rules.players
    logs = list(spades_lab.simulate_games(rules, players, 40, SEED))
    assert len(spy.first) == sum(len(log) for log in logs) == 80
    assert all(seat == (dealer + offset) % rules.players for seat, dealer in spy.first)


def test_exchange_records_hold_the_hands_after_the_exchange() -> None:
    # A blind bidder may pass back a card it has just received: `hands` must apply the passes in order.
    wrong = [r for r in simulated("blind-nil") if r["exchange"] and not same_hands(r["hands"], exchange_applied(r))]
    assert not wrong, (
        f"{len(wrong)} records, e.g. exchange {wrong[0]['exchange']}, hand sizes {[len(h) for h in wrong[0]['hands']]}"
    )


def test_blind_nil_respects_the_minimum_team_contract() -> None:
    # RULES.md: the second partner to bid must bring the side to the minimum, nil counting 0, blind or not.
    rules = Rules(blind_nil=True, min_team_contract=4, hand_cap=3)
    logs = list(spades_lab.simulate_games(rules, spades_lab.make_players("random"), 60, SEED))
    records = list(hand_records(spades_lab.HandLog.concat(logs).sorted(), rules))
    assert any(any(r["blind"]) for r in records)
    for rec in records:
        referee.check_record(rec, ref(rules))


def test_blind_nil_without_trail_condition_is_open_to_a_leading_side() -> None:
    # RULES.md makes "only when the team trails by at least 100" optional; blind_nil_trail = 0 is no condition.
    rules = Rules(blind_nil=True, hand_cap=6)
    logs = list(spades_lab.simulate_games(rules, spades_lab.make_players("random"), 200, SEED))
    records = list(hand_records(spades_lab.HandLog.concat(logs).sorted(), rules))
    leading = [(r, s) for r in records for s in range(4) if r["score_before"][s % 2] > r["score_before"][1 - s % 2]]
    assert len(leading) > 500
    assert any(r["blind"][s] for r, s in leading)
