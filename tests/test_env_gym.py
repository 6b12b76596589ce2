"""`gymnasium.make("spades_lab/Spades-v0")`: registered on import, passes Gymnasium's env checker."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import spades_lab.env  # noqa: E402,F401  (registers the environment)
from spades_lab.env.bots import default_bot_name  # noqa: E402
from spades_lab.env.gym import SpadesEnv  # noqa: E402
from spades_lab.rules import preset  # noqa: E402


def test_check_env_standard_and_duel() -> None:
    check_env(gymnasium.make("spades_lab/Spades-v0").unwrapped)
    check_env(gymnasium.make("spades_lab/Spades-v0", rules="duel", seat=1).unwrapped)


def test_default_bots() -> None:
    env = gymnasium.make("spades_lab/Spades-v0").unwrapped
    assert env.partner_name == env.opponents_name == default_bot_name()
    assert default_bot_name() in ("counting+expert", "counting+tips")


def _play_game(env: SpadesEnv, seed: int, choose) -> tuple[float, int]:
    obs, _ = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        obs, reward, terminated, truncated, info = env.step(choose(obs))
        total += reward
        steps += 1
        assert not info.get("illegal")
        if terminated or truncated:
            return total, steps


def test_every_step_is_the_learners_and_rewards_add_up_to_the_score() -> None:
    rules = preset("short").replace(hand_cap=3)
    env = SpadesEnv(rules=rules, seat=1, partner="counting+tips", opponents="random")
    generator = np.random.default_rng(0)
    seen_bid = False

    def choose(obs: dict) -> int:
        nonlocal seen_bid
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0  # the learner is always the one to act
        seen_bid |= bool((legal >= 52).any())
        return int(generator.choice(legal))

    total, steps = _play_game(env, 4, choose)
    assert steps == 3 * 14  # 3 hands: one bid and 13 cards each
    final = env.table.finished
    assert total == final.scores[0, 1] + final.score().points[0, 1]
    assert seen_bid


def test_same_seed_same_game() -> None:
    env = SpadesEnv(rules=preset("short").replace(hand_cap=2))
    first = _play_game(env, 11, lambda obs: int(np.flatnonzero(obs["action_mask"])[0]))
    again = _play_game(env, 11, lambda obs: int(np.flatnonzero(obs["action_mask"])[0]))
    assert first == again


def test_illegal_action() -> None:
    env = SpadesEnv()
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal"]
    strict = SpadesEnv(illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(illegal)
