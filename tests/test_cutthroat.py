"""Cutthroat (`partnerships = False`): four players, each for themselves.

"Contracts, scores, bags, nil and the target per player." Checked from outside the engine:
(a) worked examples written by hand from that text, pinned against the engine's one outcome model
    (`score_hands`, `game_end`) and against the plain referee (tests/referee.py);
(b) views and observations give per-player fields, relative to the acting seat;
(c) simulated games turned into records pass the referee game by game and `records.verify`; a
    partnership reading of the same records is refused;
(d) players: no partner coverage, a partner's nil is an opponent's nil, the counting bidder bids
    its own hand (a second nil beside a nil is no longer refused for a partner);
(e) tournaments: an entrant holds seats 0+2 (or 1+3) and wins a game when one of its players
    finishes first;
(f) rules that need partners refuse with the field's name.
"""

from __future__ import annotations

import tempfile
import warnings
from functools import cache
from itertools import groupby

import numpy as np
import pytest
import referee

import spades_lab
from spades_lab.engine import HandLog, MaxHandsWarning, score_hands
from spades_lab.engine.records import RecordError, hand_records, verify
from spades_lab.engine.scoring import deficit, game_end
from spades_lab.engine.state import State
from spades_lab.engine.views import BidView, PlayView, ViewContext
from spades_lab.rules import PRESETS, Rules, RulesError

CUT = PRESETS["cutthroat"]
SEED = 20261201


def ref(rules: Rules) -> dict:
    return rules.to_dict()


# --------------------------------------------------------------------------- (a) worked examples

# (name, rules, bids, tricks, bags_before, blind, hand_score, bags_after), worked by hand per player.
WORKED = [
    # 3 bid, 5 won: +32, 2 bags. 4 of 4: +40. 2 bid, 1 won: -20. 4 bid, 3 won: -40.
    ("each contract alone", CUT, [3, 4, 2, 4], [5, 4, 1, 3], [0, 0, 0, 0], None, [32, 40, -20, -40], [2, 0, 0, 0]),
    # A made nil is the player's own +100; nobody's tricks help it or hurt it.
    ("made nil", CUT, [0, 5, 4, 3], [0, 6, 4, 3], [0, 0, 0, 0], None, [100, 51, 40, 30], [0, 1, 0, 0]),
    # A failed nil: -100 and its 2 tricks are the player's own bags (+2).
    ("failed nil", CUT, [0, 5, 4, 3], [2, 5, 3, 3], [0, 0, 0, 0], None, [-98, 50, -40, 30], [2, 0, 0, 0]),
    # Bags per player: 9 + 2 reach 10 (-100, 1 left); 8 + 1 stay 9.
    (
        "bag penalty per player",
        CUT,
        [3, 3, 3, 3],
        [5, 4, 2, 2],
        [9, 8, 0, 5],
        None,
        [-68, 31, -30, -30],
        [1, 9, 0, 5],
    ),  # fmt: skip
    # Blind nil is worth 200 to its player alone.
    (
        "blind nil",
        CUT.replace(blind_nil=True),
        [0, 5, 4, 3],
        [0, 6, 4, 3],
        [0, 0, 0, 0],
        [True, False, False, False],
        [200, 51, 40, 30],
        [0, 1, 0, 0],
    ),  # fmt: skip
    # A moon worth 200: the player taking all 13 scores 200 for the hand, no bags.
    (
        "moon 200",
        CUT.replace(moon=200),
        [5, 1, 1, 1],
        [13, 0, 0, 0],
        [4, 0, 0, 0],
        None,
        [200, -10, -10, -10],
        [4, 0, 0, 0],
    ),  # fmt: skip
    # 10-for-200 is about a contract: one player's 10 counts.
    (
        "big contract per player",
        CUT.replace(big_contract=10),
        [10, 1, 1, 1],
        [10, 1, 1, 1],
        [0, 0, 0, 0],
        None,
        [200, 10, 10, 10],
        [0, 0, 0, 0],
    ),  # fmt: skip
    # A blind number bid of 6 doubles that player's contract only: +120; the others score as usual.
    (
        "blind number bid",
        CUT.replace(blind_bids=6),
        [6, 2, 2, 2],
        [6, 3, 2, 2],
        [0, 0, 0, 0],
        [True, False, False, False],
        [120, 21, 20, 20],
        [0, 1, 0, 0],
    ),  # fmt: skip
]


@pytest.mark.parametrize("case", WORKED, ids=[c[0] for c in WORKED])
def test_worked_examples_engine_and_referee(case) -> None:
    _, rules, bids, tricks, bags, blind, points, bags_after = case
    flags = np.array([blind or [False] * 4])
    scored = score_hands(rules, np.array([bids]), np.array([tricks]), np.array([bags]), flags)
    assert scored.points[0].tolist() == points
    assert scored.bags_after[0].tolist() == bags_after
    assert referee.score_hand(ref(rules), bids, tricks, bags, blind) == (points, bags_after)


# (scores after the hand, moon, rules, over, winner)
GAME_ENDS = [
    ([510, 480, 520, 100], None, CUT, True, 2),  # two reach 500: the higher total wins
    ([505, 300, 300, 300], None, CUT, True, 0),
    ([520, 520, 300, 100], None, CUT, False, -1),  # a tie for the top plays on
    ([520, 520, 530, 100], None, CUT, True, 2),  # ... unless a third is above both
    ([499, 300, 300, 300], None, CUT, False, -1),  # nobody reached the target
    ([100, 100, 100, 100], None, CUT, False, -1),
    ([-210, 150, 40, 0], None, CUT.replace(mercy=True), True, 1),  # mercy: the highest total wins
    ([10, 20, 30, 40], [False, False, True, False], CUT.replace(moon="win"), True, 2),  # moon "win"
]


@pytest.mark.parametrize("scores, moon, rules, over, winner", GAME_ENDS)
def test_game_end_per_player(scores, moon, rules, over, winner) -> None:
    shot = None if moon is None else np.array([moon])
    got = game_end(rules, np.array([scores]), np.array([5]), shot)
    assert (bool(got[0][0]), int(got[1][0])) == (over, winner)
    per_side = None if moon is None else [13 if m else 0 for m in moon]
    expected = referee.game_result(ref(rules), scores, 5, per_side)
    assert expected == (over, None if winner < 0 else winner, False)


def test_trailing_is_measured_against_the_best_other_player() -> None:
    scores = np.array([[100, 250, 40, 180], [300, 100, 0, 0]])
    assert deficit(scores, np.array([0, 0])).tolist() == [150, -200]
    assert deficit(scores, np.array([2, 1])).tolist() == [210, 200]
    two = np.array([[10, 90]])  # with two sides: the other side's score minus one's own, as before
    assert deficit(two, np.array([0])).tolist() == [80]
    assert referee.trailing_by([100, 250, 40, 180], 2) == 210


# --------------------------------------------------------------------------- (b) views and observations


def _state(rules: Rules, scores: list[int], deal: np.ndarray | None = None) -> State:
    return State(rules, np.array([0]), np.array([0]), np.zeros(1, np.uint64), np.array([3]),
                 np.array([scores], dtype=np.int64), np.array([[1, 2, 3, 4][: len(scores)]], dtype=np.int64),
                 deal=deal)  # fmt: skip


def test_views_give_per_player_sides_relative_to_me() -> None:
    state = _state(CUT, [10, 20, 30, 40])
    view = BidView(state, None, np.array([1]), state.decision, ViewContext(CUT, state.deck))
    assert view.partner.tolist() == [-1] and view.team.tolist() == [1]
    assert view.scores.shape == (1, 4)
    obs = view.observe()
    assert obs.scores[0].tolist() == [20, 30, 40, 10]  # me (seat 1), left (2), across (3), right (0)
    assert obs.bags[0].tolist() == [2, 3, 4, 1]
    assert obs.contract.shape == (1, 4)
    table = spades_lab.engine.views.table_views(view)[0]
    assert table.scores == (20, 30, 40, 10)


def test_partnership_views_keep_us_and_them() -> None:
    rules = Rules()
    state = State(rules, np.array([0]), np.array([0]), np.zeros(1, np.uint64), np.array([3]),
                  np.array([[10, 20]]), np.array([[1, 2]]))  # fmt: skip
    view = BidView(state, None, np.array([1]), state.decision, ViewContext(rules, state.deck))
    assert view.partner.tolist() == [3] and view.team.tolist() == [1]
    assert view.observe().scores[0].tolist() == [20, 10]


# --------------------------------------------------------------------------- (c) simulated games

SETUPS = {
    "random": (CUT.replace(hand_cap=6), 80, "random"),
    "counting+tips": (CUT, 8, "counting+tips"),
    "counting+expert": (CUT, 6, "counting+expert"),
    "blind nil, trail 50": (CUT.replace(blind_nil=True, blind_nil_trail=50, hand_cap=8), 60, "random"),
    "blind bids 5, moon 150, no spades break": (
        CUT.replace(blind_bids=5, moon=150, spades_break=False, hand_cap=6),
        60,
        "random",
    ),
    "mercy, target 250, mixed players": (CUT.replace(mercy=True, target=250), 8, "counting+tips"),
}


@cache
def simulated(name: str) -> list[dict]:
    rules, games, player = SETUPS[name]
    players = spades_lab.make_players(player, seats=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MaxHandsWarning)
        logs = list(spades_lab.simulate_games(rules, players, games, SEED, max_hands=400))
    return list(hand_records(HandLog.concat(logs).sorted(), rules))


@pytest.mark.parametrize("name", SETUPS)
def test_simulated_games_pass_the_referee_and_verify(name: str) -> None:
    rules, games, _ = SETUPS[name]
    records = simulated(name)
    by_game = [list(g) for _, g in groupby(records, key=lambda r: r["game"])]
    assert len(by_game) == games
    for game in by_game:
        assert all(len(r["score_after"]) == 4 and len(r["bags_after"]) == 4 for r in game)
        referee.check_game(game, ref(rules))
    verify(records, rules)
    if rules.hand_cap is None:  # whole games: every one ends with a single winner, the top score
        for game in by_game:
            last = game[-1]
            assert last["game_over"] and last["score_after"].index(max(last["score_after"])) == last["winner"]


def test_blind_nil_happens_and_a_partnership_reading_is_refused() -> None:
    records = simulated("blind nil, trail 50")
    assert any(any(r["blind"]) for r in records)
    with pytest.raises(referee.RefereeError, match="score_before"):
        referee.check_record(records[0], ref(Rules(blind_nil=True, blind_nil_trail=50)))
    partnership = {**records[0], "score_before": [0, 0], "bags_before": [0, 0]}
    with pytest.raises(referee.RefereeError):  # the same cards scored per partnership disagree with the record
        referee.check_record(partnership, ref(Rules(blind_nil=True, blind_nil_trail=50)))
    with pytest.raises(RecordError, match="score_before"):
        verify([partnership], CUT.replace(blind_nil=True, blind_nil_trail=50))


def test_referee_catches_a_tampered_per_player_score() -> None:
    record = dict(simulated("random")[0])
    record["hand_score"] = [record["hand_score"][2], *record["hand_score"][1:2], record["hand_score"][0],
                            record["hand_score"][3]]  # fmt: skip
    if record["hand_score"] != simulated("random")[0]["hand_score"]:
        with pytest.raises(referee.RefereeError, match="hand_score"):
            referee.check_record(record, ref(SETUPS["random"][0]))
    exchanged = {**simulated("random")[0], "exchange": [[0, 2, "2C"]]}
    with pytest.raises(referee.RefereeError, match="no partner"):
        referee.check_record(exchanged, ref(SETUPS["random"][0]))


# --------------------------------------------------------------------------- (d) players


def test_across_nil_is_hunted_not_covered() -> None:
    """Seat 0 leads (dealer 3), seat 2 bid nil. Its partner covers: the strongest card; in cutthroat the
    same seat hunts that nil like any other (tip 9: the lowest card of its longest suit)."""
    deck = spades_lab.cards.deck_for("standard")
    hands = [
        ["AS", "KS", "QS", "AH", "KH", "QH", "JH", "TH", "9H", "2D", "3D", "4D", "5C"],
        ["JS", "TS", "9S", "8H", "7H", "6H", "5H", "4H", "KD", "QD", "JD", "TD", "AC"],
        ["2S", "3S", "4S", "3H", "2H", "9D", "8D", "7D", "6D", "5D", "2C", "3C", "4C"],
        ["5S", "6S", "7S", "8S", "AD", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"],
    ]
    deal = np.array([[deck.mask(h) for h in hands]], dtype=np.uint64)
    player = spades_lab.make_player("counting+tips")
    cards = {}
    for rules in (Rules(), CUT):
        state = _state(rules, [0, 0] if rules.partnerships else [0, 0, 0, 0], deal)
        state.set_bids(np.array([[3, 4, 0, 4]]))
        assert state.to_act.tolist() == [0]
        view = PlayView(state, None, np.array([0]), state.decision, ViewContext(rules, state.deck))
        cards[rules.partnerships] = deck.cards[int(player.play(view)[0])]
    assert cards[True] == "AH"  # covering partner's nil: take the lead with the best card
    assert cards[False] == "9H"  # hunting the nil across: lowest card of the longest suit, not an ace


def test_counting_bidder_bids_its_own_hand_and_a_nil_beside_a_nil() -> None:
    """The same deals (same seed) bid in partnership Spades and in cutthroat: every bid is the same hand's
    count, except that a player whose "partner" already bid nil may bid nil too in cutthroat."""
    players = spades_lab.make_players("counting+tips")
    standard = HandLog.concat(list(spades_lab.simulate_hands(Rules(), players, 3000, SEED)))
    cut = HandLog.concat(list(spades_lab.simulate_hands(CUT, players, 3000, SEED)))
    assert (standard.deal == cut.deal).all() and (standard.dealer == cut.dealer).all()
    differ = standard.bids != cut.bids
    assert differ.any()
    rows, seats = np.nonzero(differ)
    assert (cut.bids[rows, seats] == 0).all()  # only nils differ
    assert (standard.bids[rows, (seats + 2) % 4] == 0).all()  # where the partner had bid nil
    assert (standard.bids[rows, seats] > 0).all()


# --------------------------------------------------------------------------- (e) tournaments


def test_tournament_counts_a_win_for_the_entrant_of_the_winning_seat() -> None:
    with tempfile.TemporaryDirectory() as out, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = spades_lab.tournament(["counting+tips", "random"], CUT.replace(target=200), games=6, seed=3,
                                       chunk_games=3, out=out)  # fmt: skip
        hands = result.hands
        last = hands[hands["game_over"] | hands["unfinished"]].set_index(["pairing", "seating", "game"])
        games = result.games
        assert result.summary["wins"].sum() == int(last["game_over"].sum())
        for _, g in games.iterrows():
            row = last.loc[(g["pairing"], g["seating"], g["game"])]
            seats = (g["side"], g["side"] + 2)  # an entrant holds seats s and s + 2
            assert g["score"] == sum(row[f"score_after{s}"] for s in seats)  # its two players' totals added
            assert g["won"] == (bool(row["game_over"]) and row["winner"] in seats)
        side_rows = result.side_hands()
        assert set(side_rows["side"]) == {0, 1, 2, 3}


# --------------------------------------------------------------------------- (f) refused rules


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"nil_exchange": 2}, "nil_exchange"),
        ({"blind_nil": True, "blind_nil_exchange": 1}, "blind_nil_exchange"),
        ({"max_team_contract": 13}, "max_team_contract"),
        ({"min_team_contract": 4}, "min_team_contract"),
        ({"nil_tricks_to_partner": True}, "nil_tricks_to_partner"),
        ({"bid_rule": "suicide"}, "bid_rule"),
        ({"players": 2, "target": 300}, "partnerships"),
        ({"partnerships": "no"}, "partnerships"),
    ],
)
def test_rules_that_need_partners_name_the_field(changes: dict, field: str) -> None:
    with pytest.raises(RulesError, match=field):
        CUT.replace(**changes)


def test_cutthroat_preset_round_trips_and_has_four_sides() -> None:
    assert Rules.from_toml(CUT.to_toml()) == CUT
    assert Rules.from_json(CUT.to_json()) == CUT
    assert CUT.sides == 4 and Rules().sides == 2 and PRESETS["duel"].sides == 2
    assert CUT.preset_name() == "cutthroat"


def test_environments_and_dd_refuse_cutthroat_clearly() -> None:
    from spades_lab.env import BatchEnv

    with pytest.raises(ValueError, match="partnerships = False"):
        BatchEnv(CUT, n=2)
    from spades_lab.dd.solver import Solver

    with pytest.raises(ValueError, match="partnerships = False"):
        Solver(CUT)


def test_bench_cutthroat_counts_cards() -> None:
    from spades_lab import bench

    out = bench.WORKLOADS["cutthroat"][0](300, 1)
    assert isinstance(out, dict) and out["hands"] == 300 and out["cards"] == 300 * 52


def test_positions_carry_one_score_per_player() -> None:
    from spades_lab.engine.position import position_view

    record = dict(simulated("counting+tips")[5])
    record["plays"] = record["plays"][:6]
    record["to_act"] = (record["plays"][-1][0] + 1) % 4
    for key in ("tricks", "hand_score", "score_after", "bags_after", "game_over", "winner"):
        record.pop(key)
    view = position_view(record, CUT)
    assert isinstance(view, PlayView) and view.scores[0].tolist() == record["score_before"]
    with pytest.raises(RecordError, match="4 integers"):
        position_view({**record, "score_before": [0, 0]}, CUT)
