"""A PettingZoo AEC environment: one game of Spades, every seat an agent, under any preset.

Agents are `seat_0` .. `seat_3` (Duel: `seat_0`, `seat_1`); partnerships are seats 0+2 and 1+3.
An episode is one game (to the rules' target, mercy or hand cap; `max_hands` is a safety net
that truncates a game still going). Every decision of the rules is an action in the game
state's OpenSpiel numbering (66 actions, see `spades_lab.engine.state`):

- 0..51 a card (play; a blind-nil exchange passes one card per step; a Duel draft turn takes
  the top card to keep it, or the next card to discard the top), 52 nil, 53..65 bids 1..13;
- the blind-nil decision, asked before the seat sees its cards: 52 = declare blind nil, 53 = look.

Observations are `{"observation": float32[671], "action_mask": int8[66]}` (`spades_lab.env.encode`);
rewards are each side's hand score when a hand ends (`reward="win"`: +1 / -1 at the game's end).

Needs the `rl` extra (in the clone: `.venv/bin/pip install -e '.[rl]'`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from spades_lab.engine.simulate import MAX_HANDS
from spades_lab.engine.state import N_ACTIONS
from spades_lab.env.batch import BatchEnv, action_number, refuse_unsupported
from spades_lab.env.encode import SIZE, bounds, encode
from spades_lab.env.text import describe_table
from spades_lab.rules import Rules, RulesLike, load_rules


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual guards: an illegal action ends the game with -1 for
    the seat that made it, out-of-range actions are refused, and the call order is enforced."""
    aec: AECEnv = raw_env(**kwargs)
    aec = wrappers.TerminateIllegalWrapper(aec, illegal_reward=-1)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    aec = wrappers.OrderEnforcingWrapper(aec)
    return aec


RENDER_MODES = ("ansi", "human")


class raw_env(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """The AEC environment without wrappers (an illegal action raises ValueError)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "spades_lab_v0", "is_parallelizable": False}

    def __init__(
        self,
        rules: RulesLike = "standard",
        reward: str = "hand",
        max_hands: int | None = MAX_HANDS,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = rules if isinstance(rules, Rules) else load_rules(rules)
        refuse_unsupported(self.rules)
        self.reward_kind, self.max_hands, self.render_mode = reward, max_hands, render_mode
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode = {render_mode!r}; allowed: {', '.join(RENDER_MODES)}")
        self.possible_agents = [f"seat_{s}" for s in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        low, high = bounds()
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self._table: BatchEnv | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the game -------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game: game 0 of `seed` (a random seed when None)."""
        if seed is None:
            seed = int(np.random.default_rng().integers(2**62))
        self._table = BatchEnv(self.rules, 1, seed, reward=self.reward_kind, observe=False, max_hands=self.max_hands)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._seat_agent()

    def _seat_agent(self) -> str:
        assert self._table is not None
        return self.possible_agents[int(self._table.to_act[0])]

    @property
    def table(self) -> BatchEnv:
        """The one-table BatchEnv underneath: its `state` shows every hand (debugging, not for agents)."""
        assert self._table is not None
        return self._table

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self._table is not None
        seat = self.possible_agents.index(agent)
        over = self.terminations[agent] or self.truncations[agent]
        state = self._table.finished if over and self._table.finished is not None else self._table.state
        observation = encode(state, seat)[0]
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        if int(self._table.to_act[0]) == seat and not over:
            mask[:] = self._table.action_mask()[0]
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self._table is not None
        self._cumulative_rewards[agent] = 0.0
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for an agent whose game is over")
        number = action_number(action)
        _, rewards, terminated, truncated, info = self._table.step(np.array([number], dtype=np.int64))
        self.rewards = {a: float(rewards[0, s]) for s, a in enumerate(self.possible_agents)}
        if info["hand_over"][0]:
            end = info["hand_end"]
            for a in self.agents:
                self.infos[a] = {"hand_score": end.hand_score[0].tolist(), "scores": end.score_after[0].tolist()}
        if terminated[0] or truncated[0]:
            self.terminations = dict.fromkeys(self.agents, bool(terminated[0]))
            self.truncations = dict.fromkeys(self.agents, bool(truncated[0]))
        else:
            self.agent_selection = self._seat_agent()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        """The table as the seat to act sees it (text)."""
        if self.render_mode is None or self._table is None:
            return None
        seat = self.possible_agents.index(self.agent_selection)
        return describe_table(self._table.state, seat)

    def close(self) -> None:
        pass


__all__ = ["SIZE", "env", "raw_env"]
