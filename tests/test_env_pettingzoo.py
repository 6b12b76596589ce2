"""The PettingZoo AEC environment passes PettingZoo's own API and seed tests under every preset."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from spades_lab.env import pettingzoo as spz  # noqa: E402
from spades_lab.env.encode import LAYOUT  # noqa: E402
from spades_lab.rules import PRESETS, preset  # noqa: E402


# PettingZoo's checker advises a Box or Discrete observation; ours is a Dict of the vector and the action mask,
# the layout its own action-masking examples use, so those two advisories are expected here.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_api_test_every_preset(name: str) -> None:
    if PRESETS[name].sides > 2:  # cutthroat, three players: the environments refuse them, saying why
        with pytest.raises(ValueError, match="not supported by the RL environments"):
            spz.env(rules=name)
        return
    api_test(spz.env(rules=name), num_cycles=300)


def test_seed_test() -> None:
    seed_test(lambda: spz.env(rules="standard"), num_cycles=200)
    seed_test(lambda: spz.env(rules="duel"), num_cycles=200)


def _play(aec, generator: np.random.Generator) -> dict[str, float]:
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        aec.step(int(generator.choice(legal)))
    return totals


def test_a_whole_game_rewards_are_hand_scores() -> None:
    rules = preset("short").replace(mercy=True, mercy_threshold=-150)
    aec = spz.env(rules=rules)
    aec.reset(seed=3)
    totals = _play(aec, np.random.default_rng(0))
    final = aec.unwrapped.table.finished
    scores = final.scores[0] + final.score().points[0]  # scores before the last hand plus its points
    assert totals["seat_0"] == totals["seat_2"] == scores[0]
    assert totals["seat_1"] == totals["seat_3"] == scores[1]


def test_win_reward_and_duel_agents() -> None:
    rules = preset("duel").replace(mercy=True, mercy_threshold=-100)
    aec = spz.env(rules=rules, reward="win")
    aec.reset(seed=1)
    assert aec.possible_agents == ["seat_0", "seat_1"]
    totals = _play(aec, np.random.default_rng(1))
    assert sorted(totals.values()) == [-1.0, 1.0]


def test_blind_nil_and_exchange_are_actions() -> None:
    rules = preset("blind-nil").replace(blind_nil_trail=0)
    aec = spz.raw_env(rules=rules)
    aec.reset(seed=0)
    seen_blind = seen_exchange = False
    for _ in range(40):
        agent = aec.agent_selection
        obs = aec.observe(agent)
        phase = int(np.argmax(obs["observation"][LAYOUT["phase"]]))
        legal = np.flatnonzero(obs["action_mask"])
        if phase == 1:  # blind-nil decision: 52 declares, 53 looks
            assert legal.tolist() == [52, 53]
            aec.step(53 if seen_blind else 52)  # only the first bidder goes blind, so its side exchanges
            seen_blind = True
        elif phase == 3:
            assert (legal < 52).all() and len(legal) >= 13
            seen_exchange = True
            aec.step(int(legal[0]))
        else:
            aec.step(int(legal[-1]))
    assert seen_blind and seen_exchange


def test_illegal_action_raises_in_raw_env() -> None:
    aec = spz.raw_env()
    aec.reset(seed=0)
    with pytest.raises(ValueError, match="not legal"):
        aec.step(0)  # a card during the bidding
