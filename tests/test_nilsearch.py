"""The joint valuation of a live nil: the side's tricks and the nil's fate from one double-dummy game,
checked on a worked ending, against a plain minimax on random short endings, and in a pimc decision."""

from __future__ import annotations

import functools
import random

import numpy as np

from spades_lab import Rules, make_player
from spades_lab.cards import STANDARD_DECK
from spades_lab.dd import Solver, card_values
from spades_lab.engine.position import position_view
from spades_lab.engine.protocol import ask_plays
from spades_lab.policies.nilsearch import nil_broken_values, nil_joint_values
from spades_lab.policies.pimc import choose_cards, joint_by_card, joint_outcomes

DECK = STANDARD_DECK
SUIT = [int(DECK.suit_of[c]) for c in range(52)]
SOLVER = Solver(Rules())


def _answers(
    hands: list[list[str]], trick: list[str], leader: int, broken: bool, nil_seat: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per card id of the seat to act: DD tricks, nil broken (separate game), joint tricks."""
    masks = np.array([[DECK.mask(h) for h in hands]], dtype=np.uint64)
    on_table = np.full((1, 4), -1)
    on_table[0, : len(trick)] = [DECK.card_id(c) for c in trick]
    world = (masks, on_table, np.array([leader]), np.array([broken]))
    values = card_values(*world, solver=SOLVER)
    hit = nil_broken_values(*world, np.array([nil_seat]), SOLVER)
    return values[0], hit[0], nil_joint_values(*world, nil_seat, values, hit, SOLVER)[0]


def test_overtaking_an_opposing_nil_gains_a_trick_only_by_letting_the_nil_go() -> None:
    """Seat 2 bid nil and its KH holds the trick (2H, JH, KH); seat 3, last, is out of hearts. Ruffing with
    the QS takes all three tricks double dummy, and after it the nil can still be broken: seat 3 leads the
    TD, seat 1 throws a club and the nil's AD must win. But that gives the trick away, so ruffing reaches
    three tricks or a broken nil with two, never both. Ducking breaks the nil at once, with two tricks."""
    values, hit, joint = _answers([["2D", "3C"], ["6S", "9C"], ["8H", "AD"], ["QS", "TD", "5C"]],
                                  ["2H", "JH", "KH"], 0, True, 2)  # fmt: skip
    qs, td, c5 = DECK.card_id("QS"), DECK.card_id("TD"), DECK.card_id("5C")
    assert (values[qs], hit[qs], joint[qs]) == (3, 1, 2)
    assert (values[c5], hit[c5], joint[c5]) == (values[td], hit[td], joint[td]) == (2, 1, 2)


def _legal(hand: list[int], trick: tuple[int, ...], broken: bool) -> list[int]:
    if trick:
        follow = [c for c in hand if SUIT[c] == SUIT[trick[0]]]
        return follow or hand
    side_cards = [c for c in hand if SUIT[c] != 3]
    return hand if broken or not side_cards else side_cards


def _winner(trick: tuple[int, ...], leader: int) -> int:
    best = 0
    for j in range(1, 4):
        c, w = trick[j], trick[best]
        if (SUIT[c] == SUIT[w] and c > w) or (SUIT[c] == 3 and SUIT[w] != 3):
            best = j
    return (leader + best) % 4


def _minimax_joint(
    hands: tuple[frozenset[int], ...], leader: int, trick: tuple[int, ...], broken: bool, nil_seat: int
) -> dict[int, int]:
    """Per legal card of the seat to act: the most tricks its side surely takes from here with the nil's fate
    it wants (broken for an opponent's nil, made for its own), -1 if none; every line of play, no bounds."""
    seat = (leader + len(trick)) % 4
    side = seat % 2
    want_broken = nil_seat % 2 != side

    @functools.cache
    def reach(
        hands: tuple[frozenset[int], ...],
        leader: int,
        trick: tuple[int, ...],
        broken: bool,
        got: int,
        hit: bool,
        t: int,
    ) -> bool:
        if not any(hands):
            return got >= t and hit == want_broken
        s = (leader + len(trick)) % 4
        answers = []
        for c in _legal(sorted(hands[s]), trick, broken):
            rest = tuple(h - {c} if i == s else h for i, h in enumerate(hands))
            cards = (*trick, c)
            if len(cards) == 4:
                w = _winner(cards, leader)
                nb = broken or any(SUIT[x] == 3 for x in cards)
                answers.append(reach(rest, w, (), nb, got + (w % 2 == side), hit or w == nil_seat, t))
            else:
                answers.append(reach(rest, leader, cards, broken, got, hit, t))
        return any(answers) if s % 2 == side else all(answers)

    best = {}
    for c in _legal(sorted(hands[seat]), trick, broken):
        tricks = -1
        while tricks < 13:
            rest = tuple(h - {c} if i == seat else h for i, h in enumerate(hands))
            cards = (*trick, c)
            if len(cards) == 4:
                w = _winner(cards, leader)
                nb = broken or any(SUIT[x] == 3 for x in cards)
                ok = reach(rest, w, (), nb, int(w % 2 == side), w == nil_seat, tricks + 1)
            else:
                ok = reach(rest, leader, cards, broken, 0, False, tricks + 1)
            if not ok:
                break
            tricks += 1
        best[c] = tricks
    return best


def test_joint_tricks_match_a_plain_minimax_on_random_endings() -> None:
    """Random endings of two or three cards a seat, a trick under way or not, spades broken or not, a nil at
    any seat: the kernel's joint tricks are the minimax's for every legal card, and below the DD tricks in
    some of them (the two optima do not fit one line)."""
    rng = random.Random(7)
    checked = lower = 0
    for _ in range(120):
        n = rng.choice([2, 3])
        cards = rng.sample(range(52), 4 * n)
        hands = [frozenset(cards[i * n : (i + 1) * n]) for i in range(4)]
        leader, broken = rng.randrange(4), rng.random() < 0.5
        trick: list[int] = []
        for j in range(rng.randrange(4)):
            s = (leader + j) % 4
            c = rng.choice(_legal(sorted(hands[s]), tuple(trick), broken))
            trick.append(c)
            hands[s] = hands[s] - {c}
        nil_seat = rng.randrange(4)
        labels = [DECK.labels(sum(1 << c for c in h)) for h in hands]
        values, _, joint = _answers(labels, [DECK.cards[c] for c in trick], leader, broken, nil_seat)
        for c, tricks in _minimax_joint(tuple(hands), leader, tuple(trick), broken, nil_seat).items():
            assert joint[c] == tricks, (labels, trick, leader, broken, nil_seat, DECK.cards[c])
            checked += 1
            lower += 0 <= tricks < values[c]
    assert checked > 200 and lower > 5


def test_the_better_of_the_two_outcomes_is_scored() -> None:
    """One world, two cards. The wanted fate (outcome 2: seat 1's nil broken) is worth 100 more. Card a: the
    joint game gives 3 tricks with it where the DD tricks are 4 (the nil broken costs a trick): 3 + broken
    (130) beats 4 + made (40). Card b: 1 trick with it (100) loses to 4 + made (40) only if the table says so;
    here a trick is worth 10, so 1 + broken = 110 wins; card c is not asked (-1) and keeps its DD value."""
    score = np.zeros((1, 16, 14))
    score[0, 0] = 10.0 * np.arange(14)
    score[0, 2] = 10.0 * np.arange(14) + 100
    values = np.full((1, 1, 52), -1)
    outcome = np.zeros((1, 1, 52), dtype=np.int64)
    joint = np.full((1, 1, 52), -1)
    values[0, 0, :3] = 4
    outcome[0, 0, :3] = 2
    joint[0, 0, :2] = (3, 1)
    chosen, fate = joint_outcomes(values, outcome, joint, outcome ^ 2, score, np.array([0]))
    assert chosen[0, 0, :3].tolist() == [3, 1, 4] and fate[0, 0, :3].tolist() == [2, 2, 2]
    score[0, 2] = 10.0 * np.arange(14) + 20  # the nil worth little: 4 + made (40) beats 1 + broken (30)
    chosen, fate = joint_outcomes(values, outcome, joint, outcome ^ 2, score, np.array([0]))
    assert chosen[0, 0, :3].tolist() == [3, 4, 4] and fate[0, 0, :3].tolist() == [2, 0, 2]


POSITION = {
    "dealer": 0,
    "hands": [
        ["3C", "4C", "KC", "2D", "5D", "8D", "KD", "2H", "7H", "AH", "3S", "8S", "TS"],
        ["2C", "9C", "QC", "QD", "4H", "5H", "JH", "4S", "5S", "6S", "7S", "JS", "AS"],
        ["7C", "8C", "TC", "AC", "3D", "4D", "7D", "AD", "3H", "8H", "9H", "TH", "KH"],
        ["5C", "6C", "JC", "6D", "9D", "TD", "JD", "6H", "QH", "2S", "9S", "QS", "KS"],
    ],
    "bids": [2, 5, 0, 4],
    "plays": [
        [int(seat), card]
        for seat, card in (
            play.split(":")
            for play in (
                "1:2C 2:8C 3:JC 0:4C "
                "3:6C 0:KC 1:QC 2:7C "
                "0:8D 1:QD 2:4D 3:6D "
                "1:5H 2:3H 3:6H 0:7H "
                "0:AH 1:4H 2:9H 3:QH "
                "0:KD 1:4S 2:3D 3:JD "
                "1:5S 2:AC 3:9S 0:3S "
                "3:KS 0:8S 1:JS 2:TC "
                "3:9D 0:5D 1:AS 2:7D "
                "1:7S 2:TH 3:2S 0:TS "
                "0:2H 1:JH 2:KH"
            ).split()
        )
    ],
    "score_before": [0, 0],
    "bags_before": [0, 0],
}


def test_pimc_ducks_under_an_opposing_nil_that_holds_the_trick() -> None:
    """The worked ending above in a whole hand: seat 3's side bid 9 and has 6, seat 2's nil holds the trick.
    Ruffing makes the contract or breaks the nil, not both: 90 against the nil's 100 scores -32 for the side;
    ducking sets the contract but breaks the nil, -13. The separate valuation adds both to the ruff and takes
    it even over 256 worlds; the joint one ducks (with the cheapest card). Bags valued at their point alone,
    as when the fault was found, so that only the nil's valuation differs."""
    ruff, duck = DECK.card_id("QS"), DECK.card_id("5C")
    for worlds in (32, 256):
        joint = make_player(f"counting+pimc(bag_cost=0, worlds={worlds})")
        separate = make_player(f"counting+pimc(bag_cost=0, worlds={worlds}, -joint_nil)")
        assert int(ask_plays(joint, position_view(POSITION))[0]) == duck
        assert int(ask_plays(separate, position_view(POSITION))[0]) == ruff


def test_asking_card_by_card_chooses_as_asking_every_card() -> None:
    """pimc asks the joint question card by card, best bound first, and stops once no card left can beat the
    best joint mean found. On random endings with a live nil and two score tables (one rising with every
    trick, one where tricks past the contract cost), it picks the card that asking every card picks, and in some
    of them it leaves cards unasked (the shortcut is taken, not only allowed)."""
    rng = random.Random(11)
    tricks = np.arange(14)
    rising = np.tile(10.0 * tricks, (16, 1))
    capped = np.tile(np.minimum(10.0 * tricks, 60 - 9.0 * np.maximum(tricks - 6, 0)), (16, 1))
    unasked = 0
    for _ in range(60):
        n = 3
        cards = rng.sample(range(52), 4 * n)
        hands = [DECK.labels(sum(1 << c for c in cards[i * n : (i + 1) * n])) for i in range(4)]
        leader, nil_seat = rng.randrange(4), rng.randrange(4)
        masks = np.array([[DECK.mask(h) for h in hands]] * 4, dtype=np.uint64)  # one world, four times
        world = (masks, np.full((4, 4), -1), np.full(4, leader), np.full(4, True))
        values = card_values(*world, solver=SOLVER)
        hit = nil_broken_values(*world, np.full(4, nil_seat), SOLVER)
        bit = 1 << nil_seat
        outcome = (hit == 1).astype(np.int64) * bit
        wants_broken = nil_seat % 2 != leader % 2
        legal = np.array([DECK.mask(hands[leader])], dtype=np.uint64)  # the leader acts, spades broken
        for base in (rising, capped):
            score = base.copy()
            score[bit] += 100.0 if wants_broken else -100.0
            every = nil_joint_values(*world, nil_seat, values, hit, SOLVER)
            some = joint_by_card(world, nil_seat, (values, hit, outcome), score, 0, wants_broken, SOLVER)
            picks = []
            for joint in (every, some):
                v, o = joint_outcomes(values[None], outcome[None], joint[None], (outcome ^ bit)[None], score[None],
                                      np.array([0]))  # fmt: skip
                picks.append(choose_cards(v, score[None], np.array([0]), legal, DECK, o)[0])
            assert picks[0] == picks[1]
            unasked += int(((some < 0) & (every >= 0)).any())
    assert unasked > 0
