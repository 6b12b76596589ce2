"""BatchEnv and the observation encoding: same games as the engine, masks, rewards, auto-reset, no hidden cards."""

from __future__ import annotations

import numpy as np
import pytest

from spades_lab.engine import State, simulate_hands
from spades_lab.engine.state import Phase
from spades_lab.env import LAYOUT, SIZE, BatchEnv, encode
from spades_lab.env.bots import answers_to_actions, bot_answers
from spades_lab.policies import make_players
from spades_lab.rules import preset


def test_layout_tiles_the_vector() -> None:
    at = 0
    for block in LAYOUT.values():
        assert block.start == at
        at = block.stop
    assert at == SIZE == 671


@pytest.mark.parametrize("name", ["standard", "duel"])
def test_bots_driving_the_env_play_the_engines_hands(name: str) -> None:
    """Bots asked through the env play exactly the hands `simulate_hands` plays: same deals, same scores."""
    rules = preset(name)
    players = make_players("counting+tips", seats=rules.players)
    env = BatchEnv(rules, 12, seed=5, episode="hand", observe=False)
    while True:
        answers = bot_answers(env.state, players)
        actions = np.array([a[0] for a in answers_to_actions(env.state, answers)])
        _, rewards, terminated, truncated, info = env.step(np.where(env.to_act >= 0, actions, 0))
        if info["hand_over"].all():
            break
    engine = next(simulate_hands(rules, players, 12, seed=5))
    end = info["hand_end"]
    np.testing.assert_array_equal(end.hand_score, engine.hand_score)
    side = np.arange(rules.players) % 2
    np.testing.assert_array_equal(rewards, engine.hand_score[:, side])
    assert (terminated | truncated).all()  # every hand is an episode of its own


def test_random_play_masks_rewards_and_auto_reset() -> None:
    env = BatchEnv(preset("short").replace(hand_cap=6), 64, seed=3, observe=True)
    generator = np.random.default_rng(0)
    obs, info = env.reset()
    assert obs.shape == (64, SIZE) and obs.dtype == np.float32
    totals = np.zeros((64, 4))
    games_seen = set(env.game.tolist())
    hands = 0
    for _ in range(56 * 40):
        mask = info["action_mask"]
        np.testing.assert_array_equal(mask, env.state.legal_action_mask())
        assert (mask.any(axis=1) == (info["to_act"] >= 0)).all()
        obs, rewards, terminated, truncated, info = env.step(env.random_actions(generator))
        totals += rewards
        if info["hand_over"][0]:
            hands += 1
            end = info["hand_end"]
            np.testing.assert_array_equal(rewards[:, 0], end.hand_score[:, 0])
            np.testing.assert_array_equal(rewards[:, 1], end.hand_score[:, 1])
            np.testing.assert_array_equal(rewards[:, 0], rewards[:, 2])
            assert (terminated == end.game_over).all() and (truncated == end.unfinished).all()
            assert (env.scores[terminated | truncated] == 0).all()  # auto-reset: the next game starts at 0-0
            games_seen |= set(env.game.tolist())
        else:
            assert not rewards.any()
    assert hands == 40 and env.hands_played == 40 * 64
    assert len(games_seen) >= 64 * 6  # finished games were replaced by new game ids
    assert env.decisions == 40 * 64 * 56


def test_win_reward_is_plus_minus_one_at_game_end() -> None:
    env = BatchEnv(preset("short").replace(mercy=True, mercy_threshold=-200), 32, seed=1, reward="win", observe=False)
    generator = np.random.default_rng(1)
    ended = 0
    for _ in range(56 * 30):
        _, rewards, terminated, _, info = env.step(env.random_actions(generator))
        if terminated.any():
            winner = info["hand_end"].winner
            rows = np.flatnonzero(terminated)
            for t in rows:
                assert rewards[t].tolist() == [1.0 if s % 2 == winner[t] else -1.0 for s in range(4)]
            ended += len(rows)
        assert not rewards[~terminated].any()
    assert ended > 0


def test_illegal_action_is_refused() -> None:
    env = BatchEnv("standard", 4, seed=0, observe=False)
    mask = env.action_mask()
    bad = np.where(mask[:, 52:].any(axis=1), 0, 52)  # a card during the bidding
    with pytest.raises(ValueError, match="not legal"):
        env.step(bad)


def test_same_games_whatever_the_number_of_tables() -> None:
    small, large = BatchEnv("standard", 8, seed=9), BatchEnv("standard", 16, seed=9)
    np.testing.assert_array_equal(small.state.hands, large.state.hands[:8])
    np.testing.assert_array_equal(small.dealer, large.dealer[:8])


def _brute_force(state: State, t: int, seat: int) -> np.ndarray:
    """The encoding of one table, written out card by card in plain Python."""
    p = state.players
    v = np.zeros(SIZE, dtype=np.float32)
    for c in range(52):
        v[LAYOUT["hand"].start + c] = int(state.hands[t, seat]) >> c & 1
    for s in range(p):
        rel = (s - seat) % p
        if state.bids[t, s] >= 0:
            v[LAYOUT["bids"].start + 15 * rel + state.bids[t, s]] = 1
        if state.trick_cards[t, s] >= 0:
            v[LAYOUT["trick"].start + 52 * rel + state.trick_cards[t, s]] = 1
        v[LAYOUT["tricks"].start + rel] = state.tricks_won[t, s] / 13
    plays = [(int(s), int(c)) for s, c in zip(state.play_seats[t], state.plays[t]) if c >= 0]
    for i, (s, c) in enumerate(plays):
        rel = (s - seat) % p
        v[LAYOUT["played"].start + 52 * rel + c] = 1
        led = int(state.deck.suit_of[plays[i - i % p][1]])
        if state.deck.suit_of[c] != led:
            v[LAYOUT["voids"].start + 4 * rel + led] = 1
    if len(plays) % p:
        v[LAYOUT["leader"].start + (plays[len(plays) - len(plays) % p][0] - seat) % p] = 1
    side = seat % 2
    v[LAYOUT["scores"]] = [state.scores[t, side] / state.rules.target, state.scores[t, 1 - side] / state.rules.target,
                           state.bags[t, side] / 10, state.bags[t, 1 - side] / 10]  # fmt: skip
    v[LAYOUT["phase"].start + int(state.phase[t])] = 1
    v[LAYOUT["dealer"].start + (state.dealer[t] - seat) % p] = 1
    v[LAYOUT["broken"].start] = state.broken[t]
    return v


def test_encoding_matches_a_card_by_card_reading() -> None:
    env = BatchEnv("standard", 16, seed=4)
    generator = np.random.default_rng(2)
    checked = 0
    for step in range(56 * 2):
        obs = encode(env.state)
        if env.state.point[0] == Phase.PLAY and step % 7 == 0:
            for t in range(16):
                np.testing.assert_allclose(obs[t], _brute_force(env.state, t, int(env.to_act[t])), atol=1e-6)
                checked += 1
        env.step(env.random_actions(generator))
    assert checked > 100


def test_encoding_shows_no_hidden_cards() -> None:
    """Swapping the two opponents' hands (hidden from seat 0) leaves seat 0's observation unchanged."""
    rules = preset("standard")
    one = BatchEnv(rules, 8, seed=2)
    deal = one.state.hands.copy()
    swapped = deal.copy()
    swapped[:, [1, 3]] = deal[:, [3, 1]]
    zeros = np.zeros((8, 2), dtype=np.int64)
    ids = np.arange(8)
    keys = np.arange(8, dtype=np.uint64)
    a = State(rules, ids, ids * 0, keys, ids % 4, zeros, zeros, deal=deal)
    b = State(rules, ids, ids * 0, keys, ids % 4, zeros, zeros, deal=swapped)
    np.testing.assert_array_equal(encode(a, 0), encode(b, 0))
    assert not np.array_equal(encode(a, 1), encode(b, 1))


@pytest.mark.parametrize("name", sorted(__import__("spades_lab.rules", fromlist=["PRESETS"]).PRESETS))
def test_every_preset_plays_with_masks_from_the_state(name: str) -> None:
    rules = preset(name)
    if rules.sides > 2:  # cutthroat, three players: refused with the field named
        with pytest.raises(ValueError, match="not supported by the RL environments"):
            BatchEnv(rules, 32, seed=6)
        return
    if rules.blind_nil:
        rules = rules.replace(blind_nil_trail=0)  # blind nil open from 0-0, so its decision and exchange occur
    env = BatchEnv(rules, 32, seed=6)
    generator = np.random.default_rng(3)
    phases: set[int] = set()
    hands = 0
    while hands < 2:
        np.testing.assert_array_equal(env.action_mask(), env.state.legal_action_mask())
        phases |= set(env.state.phase[env.to_act >= 0].tolist())
        obs, rewards, _, _, info = env.step(env.random_actions(generator))
        assert obs.shape == (32, SIZE)
        hands += int(info["hand_over"][0])
    assert Phase.PLAY in phases and Phase.BID in phases
    assert (Phase.DRAFT in phases) == (rules.players == 2)
    assert (Phase.EXCHANGE in phases) == bool(rules.blind_nil and rules.blind_nil_exchange)


def test_hand_logs_replay_as_records() -> None:
    """The env's hand logs are complete RECORDS.md stories: they replay through the engine's verifier."""
    from spades_lab.engine.records import hand_records, verify

    rules = preset("short").replace(hand_cap=2)
    env = BatchEnv(rules, 6, seed=8, observe=False)
    generator = np.random.default_rng(4)
    records = []
    while len(records) < 12:
        _, _, _, _, info = env.step(env.random_actions(generator))
        if info["hand_over"][0]:
            records += list(hand_records(env.last_hand_log(), rules))
    verify(records, rules)
    assert sorted((r["game"], r["hand"]) for r in records) == [(g, h) for g in range(6) for h in range(2)]


def test_bench_workload_reports_decisions_and_openspiel_when_installed() -> None:
    import importlib.util

    from spades_lab.bench.env import BENCH_TABLES, batch_env_workload

    hands, extra = batch_env_workload(100, seed=0)
    assert hands == BENCH_TABLES  # one whole batch of 4096 tables
    assert extra["tables"] == 4096 and extra["decisions_per_s"] > extra["hands_per_s"] > 0
    has_openspiel = importlib.util.find_spec("pyspiel") is not None
    assert ("openspiel_hands_per_s" in extra) == has_openspiel
    if has_openspiel:
        assert extra["openspiel_decisions_per_s"] > extra["openspiel_hands_per_s"] > 0
