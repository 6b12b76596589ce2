"""The public State: driving hands by OpenSpiel-numbered actions gives the engine's own games."""

from __future__ import annotations

import numpy as np
import pytest

import spades_lab as sl
from spades_lab.engine import N_ACTIONS, Phase, State, play_hand, rng
from spades_lab.engine.kernels import pick_nth_legal, pick_nth_true
from spades_lab.engine.state import LOOK_ACTION, NIL_ACTION


def random_actions(state: State) -> np.ndarray:
    """What the `random` player answers, written as action ids from the state alone."""
    phase, decision, index = state.point
    draw = state.cards_chosen if phase == Phase.EXCHANGE else 0
    u = rng.uniform(state.policy_key, decision * 256 + draw)
    mask = state.legal_action_mask()
    if phase == Phase.BID:
        return NIL_ACTION + pick_nth_true(mask[:, NIL_ACTION:], u)
    if phase == Phase.BLIND:
        return np.where(u < 0.5, NIL_ACTION, LOOK_ACTION)
    if phase == Phase.DRAFT:
        return np.where(u < 0.5, state.stock[:, 2 * index], state.stock[:, 2 * index + 1])
    cards = np.zeros(state.n, dtype=np.uint64)
    for c in range(52):
        cards |= mask[:, c].astype(np.uint64) << np.uint64(c)
    return np.where(state.acting, pick_nth_legal(cards, u), 0)


@pytest.mark.parametrize("preset", list(sl.PRESETS))
def test_stepping_by_action_ids_replays_the_engine(preset: str) -> None:
    rules = sl.preset(preset)
    n, seed = 40, 12
    ids = np.arange(n, dtype=np.int64)
    hand_keys = rng.derive(rng.seed_key(seed), ids)
    dealer = ids % rules.players
    more = [75] * (rules.sides - 2)  # cutthroat, three players: one column per player
    scores = np.where((ids % 2 == 0)[:, None], [[0, 150, *more]], [[150, 0, *more]]).astype(np.int64)  # one trails
    bags = np.zeros((n, rules.sides), dtype=np.int64)
    players = sl.make_players(["random"], rules.players)
    engine = play_hand(rules, players, ids, np.zeros(n, np.int64), hand_keys, dealer, scores, bags)
    state = State(rules, ids, np.zeros(n, np.int64), hand_keys, dealer, scores, bags)
    phases_seen = set()
    while not state.done:
        mask = state.legal_action_mask()
        # OpenSpiel's 66 actions; with three players the bids run to 17: 53 + 17 = 70 columns
        assert mask.shape == (n, 70 if rules.players == 3 else N_ACTIONS) and mask.dtype == bool
        assert (mask.any(axis=1) == state.acting).all()
        assert set(np.unique(state.phase[state.acting]).tolist()) == {int(state.point[0])}
        phases_seen.add(state.point[0])
        state.step(random_actions(state))
    assert (state.phase == Phase.DONE).all()
    assert Phase.PLAY in phases_seen and Phase.BID in phases_seen
    if rules.players == 2:
        assert Phase.DRAFT in phases_seen
    if rules.blind_nil:
        assert Phase.BLIND in phases_seen
    assert np.array_equal(state.plays, engine.plays)
    assert np.array_equal(state.bids, engine.bids)
    assert np.array_equal(state.blind, engine.blind) and np.array_equal(state.passed, engine.passed)
    if rules.blind_nil and rules.blind_nil_exchange:
        assert Phase.EXCHANGE in phases_seen
    assert np.array_equal(state.score().points, engine.hand_score)


def test_an_illegal_action_is_refused_with_the_table() -> None:
    rules = sl.Rules()
    state = State(rules, np.arange(2), np.zeros(2, np.int64), np.array([1, 2], np.uint64), np.zeros(2, np.int64),
                  np.zeros((2, 2), np.int64), np.zeros((2, 2), np.int64))  # fmt: skip
    assert state.point[0] == Phase.BID
    with pytest.raises(ValueError, match="table 0: action 3 is not legal in phase BID"):
        state.step(np.array([3, 53]))
    with pytest.raises(ValueError, match="the hand is not over"):
        state.score()
