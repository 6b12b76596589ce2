"""Three players (`players = 3`, the `three-player` preset), checked from outside the engine.

The variant's text: "three players, 17 cards each with the 2 of clubs removed, each for themselves; the
seat left of the dealer leads". Worked examples by hand, pinned against the engine's scoring and the
referee (tests/referee.py, extended from that text); simulated games through the referee and
`records.verify`; the deal, the views and what the rules refuse.
"""

from __future__ import annotations

import warnings
from functools import cache
from itertools import groupby

import numpy as np
import pytest
import referee

import spades_lab
from spades_lab.engine import HandLog, MaxHandsWarning, score_hands
from spades_lab.engine.records import hand_records, verify
from spades_lab.engine.scoring import game_end
from spades_lab.engine.state import State
from spades_lab.engine.views import BidView, PlayView, ViewContext
from spades_lab.rules import PRESETS, Rules, RulesError

THREE = PRESETS["three-player"]
SEED = 20261201

WORKED = [
    # 5 bid, 7 won: +52 and 2 bags; 4 of 4: +40; 6 of 6: +60 (17 tricks in all).
    ("contracts", THREE, [5, 4, 6], [7, 4, 6], [0, 0, 0], [52, 40, 60], [2, 0, 0]),
    # A made nil is the player's own +100; the others' overtricks are their own bags.
    ("made nil", THREE, [0, 8, 7], [0, 9, 8], [0, 0, 0], [100, 81, 71], [0, 1, 1]),
    # A failed nil: -100, its 3 tricks +3 and 3 bags; 9 bags + 1 reach the tenth bag: -100.
    ("failed nil and a penalty", THREE, [0, 7, 6], [3, 8, 6], [0, 9, 2], [-97, -29, 60], [3, 0, 2]),
    # A moon is all 17 tricks: worth 200 here; 13 tricks are no moon with three players.
    ("moon of 17", THREE.replace(moon=200), [10, 2, 3], [17, 0, 0], [0, 0, 0], [200, -20, -30], [0, 0, 0]),
    ("13 tricks are no moon", THREE.replace(moon=200), [13, 1, 1], [13, 2, 2], [0, 0, 0], [130, 11, 11], [0, 1, 1]),
]


@pytest.mark.parametrize("case", WORKED, ids=[c[0] for c in WORKED])
def test_worked_examples_engine_and_referee(case) -> None:
    _, rules, bids, tricks, bags, points, bags_after = case
    scored = score_hands(rules, np.array([bids]), np.array([tricks]), np.array([bags]))
    assert scored.points[0].tolist() == points
    assert scored.bags_after[0].tolist() == bags_after
    assert referee.score_hand(rules.to_dict(), bids, tricks, bags) == (points, bags_after)


@pytest.mark.parametrize(
    "scores, over, winner",
    [([510, 480, 520], True, 2), ([520, 520, 300], False, -1), ([499, 0, 0], False, -1), ([500, 499, 0], True, 0)],
)
def test_game_end_per_player(scores, over, winner) -> None:
    got = game_end(THREE, np.array([scores]), np.array([3]))
    assert (bool(got[0][0]), int(got[1][0])) == (over, winner)
    assert referee.game_result(THREE.to_dict(), scores, 3) == (over, None if winner < 0 else winner, False)


def test_the_deal_is_17_cards_each_without_the_two_of_clubs() -> None:
    players = spades_lab.make_players("random", seats=3)
    log = HandLog.concat(list(spades_lab.simulate_hands(THREE, players, 500, SEED)))
    deck = spades_lab.cards.deck_for("standard")
    counts = np.bitwise_count(log.deal)
    assert (counts == 17).all()
    union = np.bitwise_or.reduce(log.deal, axis=1)
    assert (union == np.uint64(((1 << 52) - 1) & ~(1 << deck.index["2C"]))).all()
    assert log.plays.shape == (500, 51)
    assert (log.play_seats[:, 0] == (log.dealer + 1) % 3).all()  # the seat left of the dealer leads
    assert (log.tricks.sum(axis=1) == 17).all()
    assert (log.bids <= 17).all() and (log.bids > 13).any()  # the bids go up to the 17 tricks there are


def test_bids_follow_the_tricks_of_a_hand_in_the_action_numbering() -> None:
    """Bids 1..17 are actions 53..69: the mask has 53 + 17 = 70 columns, 66 in every 13-trick preset."""
    from spades_lab.engine.state import N_ACTIONS, n_actions

    for name, rules in PRESETS.items():
        assert n_actions(rules) == (70 if rules.players == 3 else 66), name
    assert N_ACTIONS == 66
    state = State(THREE, np.array([0, 1]), np.array([0, 0]), np.zeros(2, np.uint64), np.array([0, 0]),
                  np.zeros((2, 3), np.int64), np.zeros((2, 3), np.int64))  # fmt: skip
    mask = state.legal_action_mask()
    assert mask.shape == (2, 70) and state.n_actions == 70 and state.legal_bids.shape == (2, 18)
    assert mask[:, 52:].all() and not mask[:, :52].any()  # nil and every bid 1..17
    state.step(np.array([69, 52 + 14]))  # the first bidder: 17 at table 0, 14 at table 1
    assert state.bids[:, 1].tolist() == [17, 14]
    with pytest.raises(ValueError, match="action 70 is not legal"):
        state.step(np.array([70, 53]))
    # a table that caps bids at 13 (max_bid) keeps the wide mask with the top columns off
    capped = State(Rules(players=3), np.array([0]), np.array([0]), np.zeros(1, np.uint64), np.array([0]),
                   np.zeros((1, 3), np.int64), np.zeros((1, 3), np.int64))  # fmt: skip
    assert np.flatnonzero(capped.legal_action_mask()[0]).tolist() == list(range(52, 66))
    standard = State(Rules(), np.array([0]), np.array([0]), np.zeros(1, np.uint64), np.array([0]),
                     np.zeros((1, 2), np.int64), np.zeros((1, 2), np.int64))  # fmt: skip
    assert standard.legal_action_mask().shape == (1, 66) and standard.legal_bids.shape == (1, 14)


def test_max_bid_ranges_over_the_tricks_of_a_hand() -> None:
    assert THREE.max_bid == 17 and Rules(players=3).max_bid == 13
    with pytest.raises(RulesError, match=r"max_bid.*1\.\.17"):
        Rules(players=3, max_bid=18)
    with pytest.raises(RulesError, match=r"max_bid.*1\.\.13"):
        Rules(max_bid=14)
    assert THREE.replace(blind_bids=15).blind_bids == 15
    assert THREE.replace(bid_rule="whiz").max_bid == 17  # at most 13 trumps in a hand: 17 limits nothing


def test_referee_judges_bids_above_13_by_the_tricks_of_a_hand() -> None:
    record = next(r for r in simulated("random") if max(r["bids"]) > 13)
    referee.check_record(record, THREE.replace(hand_cap=6).to_dict())
    with pytest.raises(referee.RefereeError, match=r"nor in 1\.\.13"):
        referee.check_record(record, Rules(players=3, hand_cap=6).to_dict())
    too_many = {**record, "bids": [18, *record["bids"][1:]]}
    with pytest.raises(referee.RefereeError, match="more than the 17 tricks"):
        referee.check_record(too_many, {**THREE.to_dict(), "max_bid": 18})


def test_observation_holds_17_cards_and_never_shows_the_two_of_clubs_as_unseen() -> None:
    state = State(THREE, np.array([0]), np.array([0]), np.zeros(1, np.uint64), np.array([2]),
                  np.array([[10, 20, 30]]), np.array([[1, 2, 3]]))  # fmt: skip
    view = BidView(state, None, np.array([0]), state.decision, ViewContext(THREE, state.deck))
    obs = view.observe()
    assert obs.hand_ids.shape == (1, 17) and (obs.hand_ids >= 0).all()
    assert not obs.unseen[0, state.deck.index["2C"]]
    assert obs.unseen.sum() == 51 - 17
    assert obs.scores[0].tolist() == [10, 20, 30] and view.partner.tolist() == [-1]
    state.set_bids(np.array([[3, 4, 5]]))
    play = PlayView(state, None, state.to_act.copy(), state.decision, ViewContext(THREE, state.deck))
    assert play.seat.tolist() == [0] and play.observe().scores[0].tolist() == [10, 20, 30]


SETUPS = {
    "random": (THREE.replace(hand_cap=6), 60, "random"),
    "counting+tips": (THREE, 10, "counting+tips"),
    "counting+expert": (THREE, 8, "counting+expert"),
    "blind nil, whiz": (THREE.replace(blind_nil=True, bid_rule="whiz", hand_cap=6), 40, "random"),
    "mirror, lowest clubs, moon win": (
        THREE.replace(bid_rule="mirror", first_lead="lowest_clubs", moon="win", hand_cap=6),
        40,
        "random",
    ),  # fmt: skip
}


@cache
def simulated(name: str) -> list[dict]:
    rules, games, player = SETUPS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MaxHandsWarning)
        logs = list(spades_lab.simulate_games(rules, spades_lab.make_players(player, seats=3), games, SEED,
                                              max_hands=400))  # fmt: skip
    return list(hand_records(HandLog.concat(logs).sorted(), rules))


@pytest.mark.parametrize("name", SETUPS)
def test_simulated_games_pass_the_referee_and_verify(name: str) -> None:
    rules, games, _ = SETUPS[name]
    records = simulated(name)
    by_game = [list(g) for _, g in groupby(records, key=lambda r: r["game"])]
    assert len(by_game) == games
    for game in by_game:
        referee.check_game(game, rules.to_dict())
    verify(records, rules)
    if rules.hand_cap is None:
        assert all(game[-1]["game_over"] for game in by_game)


def test_referee_refuses_a_record_with_the_two_of_clubs() -> None:
    record = dict(simulated("random")[0])
    deal = [list(h) for h in record["deal"]]
    deal[0][0] = "2C"
    with pytest.raises(referee.RefereeError, match="2C"):
        referee.check_record({**record, "deal": deal, "hands": deal}, THREE.to_dict())


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"deck": "jokers"}, "deck"),
        ({"first_lead": "two_of_clubs"}, "first_lead"),
        ({"partnerships": False}, "partnerships"),
        ({"nil_exchange": 2}, "nil_exchange"),
        ({"max_team_contract": 13}, "max_team_contract"),
        ({"bid_rule": "suicide"}, "bid_rule"),
        ({"players": 5}, "players"),
    ],
)
def test_refused_rules_name_the_field(changes: dict, field: str) -> None:
    with pytest.raises(RulesError, match=field):
        THREE.replace(**changes)


def test_preset_round_trips() -> None:
    assert Rules.from_toml(THREE.to_toml()) == THREE and THREE.preset_name() == "three-player"
    assert THREE.sides == 3 and THREE.tricks == 17 and Rules().tricks == 13


def test_tournaments_environments_and_dd_refuse_three_players() -> None:
    from spades_lab.dd.solver import Solver
    from spades_lab.env import BatchEnv
    from spades_lab.tournament import TournamentError

    with pytest.raises(TournamentError, match="players = 3"):
        spades_lab.tournament(["random", "counting+tips"], THREE, games=2, seed=1)
    with pytest.raises(ValueError, match="players = 3"):
        BatchEnv(THREE, n=2)
    with pytest.raises(ValueError, match="players = 3"):
        Solver(THREE)


def test_bench_three_player_counts_51_cards_a_hand() -> None:
    from spades_lab import bench

    out = bench.WORKLOADS["three-player"][0](300, 1)
    assert isinstance(out, dict) and out["hands"] == 300 and out["cards"] == 300 * 51


def test_blind_nil_trail_with_three_players_is_measured_against_the_best_other_player() -> None:
    """docs/rules.md: as in cutthroat, the trail compares a player's score with the best of the two others."""
    from spades_lab.engine.state import Phase

    rules = THREE.replace(blind_nil=True, blind_nil_trail=100)

    def first_point(scores: list[int]) -> Phase:
        state = State(rules, np.array([0]), np.array([0]), np.zeros(1, np.uint64), np.array([2]),
                      np.array([scores]), np.zeros((1, 3), np.int64))  # fmt: skip
        return state.point[0]  # seat 0 bids first (left of dealer 2): asked blind nil, or straight to its bid

    assert first_point([0, 150, 50]) == Phase.BLIND  # trails seat 1 by 150, though seat 2 by only 50
    assert first_point([0, 50, 80]) == Phase.BID  # trails the best other by 80 < 100
    assert first_point([0, 99, 0]) == Phase.BID
