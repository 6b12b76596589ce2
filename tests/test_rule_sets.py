"""The house rule sets (spades_break, suicide, whiz, mirror, moon, nil_exchange) checked from outside the engine.

(a) Worked examples written by hand from the variants' text, pinned against the engine and tests/referee.py.
(b) Legal bid masks of the bid rules, the players that must respect them, and the nil-exchange passes.
(c) Simulated games of every new preset and field, turned into records and checked game by game by the
    referee (extended from the rules text) and by `records.verify`; records judged by the rules without
    the variant are refused.
(d) Rules that cannot hold refuse with the field's name.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import groupby

import numpy as np
import pytest
import referee
from referee import RefereeError

import spades_lab
from spades_lab.cards import deck_for
from spades_lab.engine import score_hands
from spades_lab.engine.records import hand_records, verify
from spades_lab.engine.scoring import game_end
from spades_lab.engine.state import legal_bids
from spades_lab.rules import PRESETS, Rules, RulesError

SEED = 20261201


def ref(rules: Rules, **changes: object) -> dict:
    return {**rules.to_dict(), **changes}


# --------------------------------------------------------------------------- (a) worked examples

MOON_200 = Rules(moon=200)
MOON_WIN = Rules(moon="win")
PLAIN_ZERO = Rules(zero_bid="plain")

# (name, rules, bids, tricks, bags_before, hand_score, bags_after): worked by hand from the variants' text.
WORKED = [
    # Side 0 bid 4 + 5 and took all 13: normally 90 + 4 bags; a moon worth 200 replaces it, no bags.
    ("moon 200 replaces the hand", MOON_200, [4, 1, 5, 1], [6, 0, 7, 0], [3, 2], [200, -20], [3, 2]),
    # Moon off (default): the same hand scores as usual, 90 + 4 and 4 bags.
    ("moon off scores as usual", Rules(), [4, 1, 5, 1], [6, 0, 7, 0], [3, 2], [94, -20], [7, 2]),
    # A side with a nil that took all 13 between them (nil failed): still a moon, 200 for the hand.
    ("moon with a failed nil", MOON_200, [0, 2, 5, 2], [3, 0, 10, 0], [0, 9], [200, -40], [0, 9]),
    # Moon "win" does not change the hand's points: 90 + 4 and 4 bags, with the ninth bag + 4 = -100.
    ("moon win scores as usual", MOON_WIN, [4, 1, 5, 1], [6, 0, 7, 0], [8, 0], [-6, -20], [2, 0]),
    # Plain 0 (not nil): side 0 bids 0 + 4 = 4 and takes 2 + 5 = 7: 40 + 3, 3 bags; side 1 bids 5, takes 6: 51.
    ("plain zero beside a bid", PLAIN_ZERO, [0, 3, 4, 2], [2, 3, 5, 3], [0, 0], [43, 51], [3, 1]),
    # Both partners bid a plain 0 and take 3: the contract of 0 is made, 3 bags (as nils: -200 + 3).
    ("plain zero twice", PLAIN_ZERO, [0, 5, 0, 4], [1, 6, 2, 4], [0, 0], [3, 91], [3, 1]),
    ("the same bids as nils", Rules(), [0, 5, 0, 4], [1, 6, 2, 4], [0, 0], [-197, 91], [3, 1]),
    # A plain 0 that takes no trick earns nothing (a nil would be +100).
    ("plain zero made exactly", PLAIN_ZERO, [0, 6, 6, 1], [0, 6, 6, 1], [0, 0], [60, 70], [0, 0]),
    # Duel: one player taking all 13 is a moon too.
    ("duel moon", PRESETS["duel"].replace(moon=150), [3, 4], [13, 0], [0, 0], [150, -40], [0, 0]),
]


BLIND6 = Rules(blind_bids=6)

# (name, bids, tricks, blind flags, hand_score, bags_after) under blind_bids = 6: a blind number doubles its side.
WORKED_BLIND = [
    # Seat 0 bid 6 blind, partner 2: contract 8 made exactly, 2 x 80; side 1 bid 7, took 5: -70.
    ("blind 6 made", [6, 3, 2, 4], [5, 4, 3, 1], [1, 0, 0, 0], [160, -70], [0, 0]),
    # Contract 8, took 6: set, -2 x 80; side 1 made 7 exactly: 70.
    ("blind 6 set", [6, 3, 2, 4], [4, 5, 2, 2], [1, 0, 0, 0], [-160, 70], [0, 0]),
    # Contract 8, took 10: 160 + 2 bags (bags are not doubled); side 1 took 3 of 7: -70.
    ("blind 6 with bags", [6, 3, 2, 4], [6, 1, 4, 2], [1, 0, 0, 0], [162, -70], [2, 0]),
    # A blind number beside a nil: the nil is an ordinary nil (+100), the contract 7 doubled: 140 + 100.
    ("blind 7 beside a nil", [7, 3, 0, 4], [7, 4, 0, 2], [1, 0, 0, 0], [240, -70], [0, 0]),
]


@pytest.mark.parametrize("case", WORKED_BLIND, ids=[c[0] for c in WORKED_BLIND])
def test_blind_bid_worked_examples_engine_and_referee(case: tuple) -> None:
    _, bids, tricks, blind, points, bags_after = case
    flags = [bool(b) for b in blind]
    result = score_hands(BLIND6, np.array([bids]), np.array([tricks]), np.zeros((1, 2)), np.array([flags]))
    assert result.points[0].tolist() == points, "engine hand_score"
    assert result.bags_after[0].tolist() == bags_after, "engine bags_after"
    assert referee.score_hand(ref(BLIND6), bids, tricks, [0, 0], flags) == (points, bags_after)
    # the same bids seen (not blind) score single
    single = referee.score_hand(ref(BLIND6), bids, tricks, [0, 0], [False] * 4)[0]
    assert single[0] != points[0] and single[1] == points[1]


def test_blind_bid_point_offers_look_or_numbers_from_the_minimum() -> None:
    from spades_lab.engine.state import LOOK_ACTION, NIL_ACTION, Phase, State

    rules = Rules(blind_bids=6, blind_bid_trail=100)
    # dealer 3: seat 0 bids first; side 0 trails 0 to 150, side 1 does not trail
    state = State(rules, np.array([0]), np.array([0]), np.zeros(1, np.uint64), np.array([3]),
                  np.array([[0, 150]]), np.zeros((1, 2), np.int64))  # fmt: skip
    assert state.point[0] == Phase.BLIND_BID and int(state.to_act[0]) == 0
    legal = np.flatnonzero(state.legal_action_mask()[0]).tolist()
    assert legal == [LOOK_ACTION, *range(NIL_ACTION + 6, NIL_ACTION + 14)]
    state.step(np.array([NIL_ACTION + 7]))  # seat 0 bids 7 blind; its BID point is skipped
    # seat 0's bid and seat 1's blind decision (side 1 does not trail) are skipped: seat 1 bids seen
    assert state.point[0] == Phase.BID and int(state.to_act[0]) == 1
    assert state.bids[0].tolist() == [7, -1, -1, -1] and state.blind[0].tolist() == [True, False, False, False]


@pytest.mark.parametrize("case", WORKED, ids=[c[0] for c in WORKED])
def test_worked_examples_engine_and_referee(case: tuple) -> None:
    _, rules, bids, tricks, bags_before, points, bags_after = case
    result = score_hands(rules, np.array([bids]), np.array([tricks]), np.array([bags_before]))
    assert result.points[0].tolist() == points, "engine hand_score"
    assert result.bags_after[0].tolist() == bags_after, "engine bags_after"
    assert referee.score_hand(ref(rules), bids, tricks, bags_before) == (points, bags_after)


def test_moon_win_ends_the_game_for_the_shooter() -> None:
    # Side 1 trails 120 to 480 and takes all 13: it wins at once, though side 0 is still ahead.
    scores = np.array([[480, 120]])
    moon = np.array([[False, True]])
    over, winner, unfinished = game_end(MOON_WIN, scores, np.array([5]), moon)
    assert (over[0], winner[0], unfinished[0]) == (True, 1, False)
    assert referee.game_result(ref(MOON_WIN), [480, 120], 5, [0, 13]) == (True, 1, False)
    # Without the moon rule the same hand ends nothing.
    over, winner, _ = game_end(Rules(), scores, np.array([5]), moon)
    assert (over[0], winner[0]) == (False, -1)
    assert referee.game_result(ref(Rules()), [480, 120], 5, [0, 13]) == (False, None, False)


# --------------------------------------------------------------------------- (b) legal bids and passes


def test_suicide_bid_masks() -> None:
    rules = PRESETS["suicide"]
    # seat 1 acts: partner (seat 3) not yet bid / bid nil / bid 5
    bids = np.array([[-1, -1, -1, -1], [3, -1, 0, 0], [3, -1, 2, 5]])
    legal = legal_bids(rules, bids, np.array([1, 1, 1]))
    assert np.flatnonzero(legal[0]).tolist() == [0, *range(4, 14)]  # first of the side: nil or 4+
    assert np.flatnonzero(legal[1]).tolist() == list(range(4, 14))  # partner nil: at least 4
    assert np.flatnonzero(legal[2]).tolist() == [0]  # partner bid: nil


def test_whiz_and_mirror_bid_masks() -> None:
    bids = np.full((3, 4), -1)
    spades = np.array([0, 3, 13])
    whiz = legal_bids(PRESETS["whiz"], bids, np.zeros(3, dtype=np.int64), spades)
    assert [np.flatnonzero(r).tolist() for r in whiz] == [[0], [0, 3], [0, 13]]
    mirror = legal_bids(PRESETS["mirror"], bids, np.zeros(3, dtype=np.int64), spades)
    assert [np.flatnonzero(r).tolist() for r in mirror] == [[0], [3], [13]]


@pytest.mark.parametrize("name", ["suicide", "whiz", "mirror"])
@pytest.mark.parametrize("player", ["random", "counting+tips"])
def test_players_respect_forced_bids(name: str, player: str) -> None:
    """Every bid of a simulated game passes the referee's bid rule (the engine would refuse an illegal one too)."""
    rules = PRESETS[name].replace(hand_cap=3)
    logs = list(spades_lab.simulate_games(rules, spades_lab.make_players(player, seats=4), 40, SEED))
    records = list(hand_records(spades_lab.HandLog.concat(logs).sorted(), rules))
    deck = referee.deck_named(rules.deck)
    for rec in records:
        deal = [set(h) for h in rec["deal"]]
        referee._check_bid_rule(rec["bids"], ref(rules), 4, deal, deck)
    if name == "suicide":
        # the counting bidder leaves the nil to the weaker hand: both kinds of split occur
        firsts = Counter(rec["bids"][(rec["dealer"] + 1) % 4] == 0 for rec in records)
        assert firsts[True] and firsts[False], firsts


def test_counting_bidder_in_suicide_takes_the_nil_with_a_weak_hand() -> None:
    from spades_lab.engine.state import State

    rules = PRESETS["suicide"]
    deck = deck_for("standard")
    # seat 1 bids first (dealer 0): weak hand (no honours), partner seat 3 strong
    weak = deck.mask(["2C", "3C", "4C", "5C", "2D", "3D", "4D", "5D", "2H", "3H", "4H", "5H", "6H"])
    strong = deck.mask(["AS", "KS", "QS", "JS", "TS", "AH", "KH", "AD", "KD", "AC", "KC", "QC", "9S"])
    rest = [c for c in deck.cards if not (deck.mask([c]) & (weak | strong))]
    deal = np.array([[deck.mask(rest[:13]), weak, deck.mask(rest[13:]), strong]], dtype=np.uint64)
    player = spades_lab.make_player("counting+tips")
    state = State(rules, np.array([0]), np.array([0]), np.zeros(1, np.uint64), np.array([0]),
                  np.zeros((1, 2), np.int64), np.zeros((1, 2), np.int64), deal=deal)  # fmt: skip
    from spades_lab.engine.views import BidView, ViewContext

    view = BidView(state, None, state.to_act.copy(), state.decision, ViewContext(rules, state.deck))
    assert int(state.to_act[0]) == 1
    assert player.bid(view).tolist() == [0]


def _first_suicide_bid(first_hand: list[str], spec: str = "counting+tips") -> int:
    """The bid of seat 1, first to bid with dealer 0, holding `first_hand` (its partner seat 3 bids later)."""
    from spades_lab.engine.state import State
    from spades_lab.engine.views import BidView, ViewContext

    rules = PRESETS["suicide"]
    deck = deck_for("standard")
    mine = deck.mask(first_hand)
    rest = [c for c in deck.cards if not deck.mask([c]) & mine]
    deal = np.array([[deck.mask(rest[:13]), mine, deck.mask(rest[13:26]), deck.mask(rest[26:])]], dtype=np.uint64)
    state = State(rules, np.array([0]), np.array([0]), np.zeros(1, np.uint64), np.array([0]),
                  np.zeros((1, 2), np.int64), np.zeros((1, 2), np.int64), deal=deal)  # fmt: skip
    view = BidView(state, None, state.to_act.copy(), state.decision, ViewContext(rules, state.deck))
    assert int(state.to_act[0]) == 1 and bool(view.legal_bids[0, 0])
    return int(spades_lab.make_player(spec).bid(view)[0])


def test_suicide_first_bidder_leaves_the_nil_when_its_hand_is_the_worse_nil() -> None:
    weak = ["2C", "3C", "4C", "5C", "2D", "3D", "4D", "5D", "2H", "3H", "4H", "5H"]
    assert _first_suicide_bid([*weak, "6H"]) == 0  # count 0: the nil
    # the ace of spades is a sure trick: count 1, but the nil would fail for certain
    assert _first_suicide_bid([*weak, "AS"]) == 4
    assert _first_suicide_bid([*weak, "AS"], "counting(suicide_sure_trick=False)+tips") == 0
    # four low spades: count 1 (the fourth spade), nil danger 2: still the nil
    low4 = ["2C", "3C", "4C", "2D", "3D", "4D", "5D", "2H", "3H", "2S", "3S", "4S", "5S"]
    assert _first_suicide_bid(low4) == 0
    # five low spades and a king: count 3 (KH guarded, two long spades), danger 5: the number
    low5 = ["2C", "3C", "4C", "2D", "3D", "4D", "KH", "3H", "2S", "3S", "4S", "5S", "6S"]
    assert _first_suicide_bid(low5) == 4
    assert _first_suicide_bid(low5, "counting(suicide_spade_length=0)+tips") == 0
    assert _first_suicide_bid(low5, "counting(suicide_nil_below=6)+tips") == 0


def test_exchange_passes_follow_heuristics_section_4() -> None:
    """Partner passes its lowest cards; the nil bidder passes back its highest spades, then aces, then kings."""
    rules = Rules(nil_exchange=2)
    deck = deck_for("standard")
    exchanger = spades_lab.players.registry.build_part("high", "exchange")
    partner = deck.mask(["AS", "KS", "2S", "3D", "AH", "KH", "QH", "7C", "8C", "9C", "TC", "JC", "4D"])
    bidder = deck.mask(["5S", "AC", "KD", "QD", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH"])

    from spades_lab.engine.state import NIL_EXCHANGE_DECISION
    from spades_lab.engine.views import ExchangeView, ViewContext

    def view(decision: int, hand: int) -> ExchangeView:
        from spades_lab.engine.state import State

        st = State(rules, np.array([0]), np.array([0]), np.zeros(1, np.uint64), np.array([0]),
                   np.zeros((1, 2), np.int64), np.zeros((1, 2), np.int64),
                   deal=np.array([[hand, 0, 0, 0]], dtype=np.uint64))  # fmt: skip
        return ExchangeView(st, None, np.array([0]), decision, ViewContext(rules, st.deck))

    to_nil = exchanger.exchange(view(NIL_EXCHANGE_DECISION, partner))
    assert sorted(deck.labels(int(to_nil[0]))) == sorted(["3D", "4D"])  # lowest side cards; trumps kept
    only_spades_low = deck.mask(["2S", "3S", "AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S"])
    assert sorted(deck.labels(int(exchanger.exchange(view(NIL_EXCHANGE_DECISION, only_spades_low))[0]))) == ["2S", "3S"]
    back = exchanger.exchange(view(NIL_EXCHANGE_DECISION + 1, bidder | deck.mask(["2S", "3D"])))
    assert sorted(deck.labels(int(back[0]))) == sorted(["5S", "2S"])  # spades first, highest first
    no_spades = deck.mask(["AC", "KD", "QD", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "3D"])
    back = exchanger.exchange(view(NIL_EXCHANGE_DECISION + 1, no_spades))
    assert sorted(deck.labels(int(back[0]))) == sorted(["AC", "KD"])  # then aces, then kings


# --------------------------------------------------------------------------- (c) simulated games


@dataclass(frozen=True)
class Setup:
    rules: Rules
    games: int
    player: str = "random"
    expect: tuple[str, ...] = ()


SETUPS: dict[str, Setup] = {
    "no spades break": Setup(Rules(spades_break=False, hand_cap=6), 120, expect=("spade_led_unbroken",)),
    "suicide": Setup(PRESETS["suicide"].replace(hand_cap=6), 120, expect=("failed_nil",)),
    "whiz": Setup(PRESETS["whiz"].replace(hand_cap=6), 120, expect=("failed_nil",)),
    "mirror": Setup(PRESETS["mirror"].replace(hand_cap=6), 120),
    "plain zero": Setup(Rules(zero_bid="plain", hand_cap=6), 120, expect=("zero_took_tricks",)),
    "suicide + blind nil": Setup(
        PRESETS["suicide"].replace(blind_nil=True, blind_nil_exchange=1, hand_cap=6), 120, expect=("blind", "exchange")
    ),
    "moon 250 (random)": Setup(Rules(moon=250, hand_cap=6), 120),
    "moon win (random)": Setup(Rules(moon="win", hand_cap=6), 120),
    "nil exchange 2": Setup(Rules(nil_exchange=2, hand_cap=6), 120, expect=("exchange", "failed_nil")),
    "nil exchange 3 + blind nil exchange 1": Setup(
        Rules(nil_exchange=3, blind_nil=True, blind_nil_exchange=1, hand_cap=6), 120, expect=("blind", "exchange")
    ),
    "blind bids 6, trail 50": Setup(
        Rules(blind_bids=6, blind_bid_trail=50, hand_cap=6), 120, expect=("blind_number", "blind_number_made")
    ),
    "blind bids 5 + blind nil + nil exchange": Setup(
        Rules(blind_bids=5, blind_nil=True, blind_nil_exchange=1, nil_exchange=2, hand_cap=6),
        120,
        expect=("blind_number", "blind", "exchange"),
    ),
    "nil exchange 2, counting+tips": Setup(Rules(nil_exchange=2, hand_cap=6), 120, "counting+tips", ("exchange",)),
    "jokers whiz, no spades break": Setup(
        Rules(deck="jokers", bid_rule="whiz", spades_break=False, hand_cap=6), 60, expect=("spade_led_unbroken",)
    ),
}


@cache
def simulated(name: str) -> list[dict]:
    setup = SETUPS[name]
    rules = setup.rules
    players = spades_lab.make_players(setup.player, seats=rules.players)
    logs = list(spades_lab.simulate_games(rules, players, setup.games, SEED))
    return list(hand_records(spades_lab.HandLog.concat(logs).sorted(), rules))


def features(records: list[dict], rules: Rules) -> Counter:
    deck = referee.deck_named(rules.deck)
    seen: Counter = Counter()
    for rec in records:
        seen["game_over"] += rec["game_over"]
        seen["blind"] += any(rec["blind"])
        seen["exchange"] += bool(rec["exchange"])
        for seats in ([0, 2], [1, 3]):
            seen["failed_nil"] += any(rec["bids"][s] == 0 and rec["tricks"][s] > 0 for s in seats)
            number = [s for s in seats if rec["blind"][s] and rec["bids"][s] > 0]
            seen["blind_number"] += bool(number)
            bid = sum(rec["bids"][s] for s in seats)
            seen["blind_number_made"] += bool(number) and sum(rec["tricks"][s] for s in seats) >= bid
            seen["zero_took_tricks"] += any(rec["bids"][s] == 0 and rec["tricks"][s] > 0 for s in seats)
            seen["moon"] += sum(rec["tricks"][s] for s in seats) == 13
        broken = False
        cards = rec["plays"]
        for t in range(13):
            trick = [c for _, c in cards[4 * t : 4 * t + 4]]
            leader = cards[4 * t][0]
            held = {c for c in rec["hands"][leader]} - {c for _, c in cards[: 4 * t]}
            if deck.suit(trick[0]) == "S" and not broken and any(deck.suit(c) != "S" for c in held):
                seen["spade_led_unbroken"] += 1
            broken = broken or any(deck.suit(c) == "S" for c in trick)
    return seen


@pytest.mark.parametrize("name", SETUPS)
def test_simulated_games_pass_the_referee_and_verify(name: str) -> None:
    setup = SETUPS[name]
    records = simulated(name)
    assert len(records) >= 3 * setup.games
    games = [list(g) for _, g in groupby(records, key=lambda r: r["game"])]
    assert len(games) == setup.games
    for game in games:
        referee.check_game(game, ref(setup.rules))
    verify(records, setup.rules)
    seen = features(records, setup.rules)
    missing = [f for f in setup.expect if not seen[f]]
    assert not missing, f"{name}: the games never showed {missing}: {dict(seen)}"


RANKS = "23456789TJQKA"


def moon_record(score_before: list[int], hand_score: list[int], bags_after: list[int], over: bool) -> dict:
    """Seat 0 holds every spade and leads (dealer 3): holding nothing else it must lead them, and takes all 13."""
    deal = [[r + s for r in RANKS] for s in "SHDC"]
    plays = []
    for r in reversed(RANKS):
        plays += [[0, r + "S"], [1, r + "H"], [2, r + "D"], [3, r + "C"]]
    after = [score_before[0] + hand_score[0], score_before[1] + hand_score[1]]
    return {
        "game": 0, "hand": 0, "rules": "custom", "players": 4, "dealer": 3, "deal": deal, "blind": [False] * 4,
        "exchange": [], "draft": [], "hands": deal, "bids": [9, 1, 2, 1], "plays": plays, "tricks": [13, 0, 0, 0],
        "score_before": score_before, "bags_before": [0, 0], "hand_score": hand_score, "score_after": after,
        "bags_after": bags_after, "game_over": over, "winner": 0 if over else None,
    }  # fmt: skip


def test_moon_records_by_hand() -> None:
    # Side 0 bid 11, took 13: 110 + 2 bags normally; side 1 bid 2, took 0: -20.
    plain = moon_record([0, 0], [112, -20], [2, 0], False)
    referee.check_record(plain, ref(Rules()))
    verify([plain], Rules())
    worth = moon_record([0, 0], [250, -20], [0, 0], False)
    referee.check_record(worth, ref(Rules(moon=250)))
    verify([worth], Rules(moon=250))
    with pytest.raises(RefereeError, match="hand_score"):
        referee.check_record(plain, ref(Rules(moon=250)))
    # Moon "win": side 0 trails 0 to 300 and still wins at once.
    win = moon_record([0, 300], [112, -20], [2, 0], True)
    referee.check_record(win, ref(MOON_WIN))
    verify([win], MOON_WIN)
    with pytest.raises(RefereeError, match="game_over"):
        referee.check_record(win, ref(Rules()))
    log = spades_lab.engine.records.replay([win], MOON_WIN)
    assert log.game_over.tolist() == [True] and log.winner.tolist() == [0]


WRONG_RULES = [
    ("no spades break", {"spades_break": True}),
    ("no spades break", {"bid_rule": "suicide"}),
    ("no spades break", {"bid_rule": "whiz"}),
    ("suicide", {"bid_rule": "whiz"}),
    ("whiz", {"bid_rule": "mirror"}),
    ("mirror", {"bid_rule": "suicide"}),
    ("nil exchange 2", {"nil_exchange": 0}),
    ("plain zero", {"zero_bid": "nil"}),
    ("blind bids 6, trail 50", {"blind_bids": None}),
    ("blind bids 6, trail 50", {"blind_bids": 7}),
    ("blind bids 6, trail 50", {"blind_bid_trail": 400}),
    ("nil exchange 2", {"zero_bid": "plain", "nil_exchange": 0}),
    ("nil exchange 2", {"nil_exchange": 1}),
]


@pytest.mark.parametrize(("name", "changes"), WRONG_RULES, ids=[f"{n}: {c}" for n, c in WRONG_RULES])
def test_records_judged_without_the_variant_are_refused(name: str, changes: dict) -> None:
    refused = 0
    for rec in simulated(name)[:400]:
        try:
            referee.check_record(rec, ref(SETUPS[name].rules, **changes))
        except RefereeError:
            refused += 1
    assert refused, f"the referee accepted every {name} record under {changes}"


def test_spades_lead_refused_when_spades_break_is_on() -> None:
    held = {"AS", "2C"}
    assert referee.legal_cards(held, [], broken=False)[0] == {"2C"}
    rules = Rules(spades_break=False)
    # the engine's first legal lead for that hand under spades_break off includes the spade
    from spades_lab.engine.state import State

    deck = deck_for("standard")
    rest = [c for c in deck.cards if c not in held]
    deal = np.array([[deck.mask(rest[11:24]), deck.mask([*held, *rest[:11]]), deck.mask(rest[24:37]),
                      deck.mask(rest[37:50])]], dtype=np.uint64)  # fmt: skip
    state = State(rules, np.array([0]), np.array([0]), np.zeros(1, np.uint64), np.array([0]),
                  np.zeros((1, 2), np.int64), np.zeros((1, 2), np.int64), deal=deal)  # fmt: skip
    state.set_bids(np.array([[1, 1, 1, 1]]))
    assert int(state.to_act[0]) == 1
    assert deck.index["AS"] in np.flatnonzero(state.legal_action_mask()[0]).tolist()
    on = State(Rules(), np.array([0]), np.array([0]), np.zeros(1, np.uint64), np.array([0]),
               np.zeros((1, 2), np.int64), np.zeros((1, 2), np.int64), deal=deal)  # fmt: skip
    on.set_bids(np.array([[1, 1, 1, 1]]))
    assert deck.index["AS"] not in np.flatnonzero(on.legal_action_mask()[0]).tolist()


# --------------------------------------------------------------------------- (d) refused rules


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: Rules(bid_rule="lucky"), "bid_rule"),
        (lambda: Rules(bid_rule="suicide", players=2, target=300), "bid_rule"),
        (lambda: Rules(bid_rule="mirror", blind_nil=True), "blind_nil"),
        (lambda: Rules(bid_rule="whiz", min_bid=2), "min_bid"),
        (lambda: Rules(bid_rule="suicide", max_team_contract=13), "max_team_contract"),
        (lambda: Rules(moon="lose"), "moon"),
        (lambda: Rules(moon=-5), "moon"),
        (lambda: Rules(moon=True), "moon"),
        (lambda: Rules(nil_exchange=4), "nil_exchange"),
        (lambda: Rules(players=2, target=300, nil_exchange=2), "nil_exchange"),
        (lambda: Rules(spades_break="no"), "spades_break"),
        (lambda: Rules(zero_bid="none"), "zero_bid"),
        (lambda: Rules(blind_bids=1), "blind_bids"),
        (lambda: Rules(blind_bids=14), "blind_bids"),
        (lambda: Rules(blind_bids=6, bid_rule="whiz"), "blind_bids"),
        (lambda: Rules(blind_bids=6, max_bid=5), "blind_bids"),
        (lambda: Rules(players=2, target=300, blind_bids=6), "blind_bids"),
        (lambda: Rules(blind_bid_trail=-1), "blind_bid_trail"),
        (lambda: Rules(zero_bid="plain", blind_nil=True), "blind_nil"),
        (lambda: Rules(zero_bid="plain", nil_exchange=2), "nil_exchange"),
        (lambda: Rules(zero_bid="plain", bid_rule="whiz"), "bid_rule"),
    ],
)
def test_refused_rules_name_the_field(make, field: str) -> None:
    with pytest.raises(RulesError, match=field):
        make()


@pytest.mark.parametrize("name", ["suicide", "whiz", "mirror"])
def test_new_presets_round_trip(name: str) -> None:
    rules = PRESETS[name]
    assert Rules.from_toml(rules.to_toml()) == rules
    assert Rules.from_json(rules.to_json()) == rules
    assert rules.bid_rule == name
    assert Rules(moon=300).replace(moon="win").moon == "win"
