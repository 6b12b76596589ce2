"""`gymnasium.make("spades_lab/Spades-v0")`: one seat of a Spades game against fixed bots.

The learner holds `seat` (default 0); its partner and the opponents are registered players
(default `counting+expert` when that player exists, else `counting+tips`), asked through the
engine's views exactly as in a simulation. Between two of the learner's decisions the bots play on,
so every step the learner sees is its own decision. An episode is one game.

Observation: `{"observation": float32[671], "action_mask": int8[66]}` (`spades_lab.env.encode`);
actions in the game state's OpenSpiel numbering. Reward: the learner's side's hand score when a
hand ends (`reward="win"`: +1 / -1 when the game ends). An illegal action ends the episode with
`illegal_reward` (default -1) and `info["illegal"] = True`, or raises with `illegal="raise"`.

Needs the `rl` extra (in the clone: `.venv/bin/pip install -e '.[rl]'`).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from spades_lab.engine.simulate import MAX_HANDS
from spades_lab.engine.state import N_ACTIONS
from spades_lab.env.batch import BatchEnv, action_number, refuse_unsupported
from spades_lab.env.bots import answers_to_actions, bot_answers, default_bot_name
from spades_lab.env.encode import bounds, encode
from spades_lab.env.text import describe_table
from spades_lab.players import make_player
from spades_lab.rules import Rules, RulesLike, load_rules

ENV_ID = "spades_lab/Spades-v0"


class SpadesEnv(gymnasium.Env):
    """One learner seat, the other seats fixed bots; see the module docstring."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        rules: RulesLike = "standard",
        seat: int = 0,
        partner: str | None = None,
        opponents: str | None = None,
        *,
        reward: str = "hand",
        illegal: str = "terminate",
        illegal_reward: float = -1.0,
        max_hands: int | None = MAX_HANDS,
        render_mode: str | None = None,
    ) -> None:
        self.rules = rules if isinstance(rules, Rules) else load_rules(rules)
        refuse_unsupported(self.rules)
        p = self.rules.players
        if not 0 <= seat < p:
            raise ValueError(f"seat = {seat!r}; allowed: 0..{p - 1}")
        if illegal not in ("terminate", "raise"):
            raise ValueError(f"illegal = {illegal!r}; allowed: terminate, raise")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode = {render_mode!r}; allowed: ansi")
        self.seat, self.reward_kind, self.illegal, self.illegal_reward = seat, reward, illegal, float(illegal_reward)
        self.max_hands, self.render_mode = max_hands, render_mode
        default = default_bot_name()
        self.partner_name = partner or default
        self.opponents_name = opponents or default
        partner_bot, opponent_bot = make_player(self.partner_name), make_player(self.opponents_name)
        self.bots: list[Any] = [
            None if s == seat else partner_bot if (s - seat) % 2 == 0 else opponent_bot for s in range(p)
        ]
        low, high = bounds()
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(N_ACTIONS)
        self._table: BatchEnv | None = None
        self._over = False

    @property
    def table(self) -> BatchEnv:
        """The one-table BatchEnv underneath (its `state` shows every hand: for debugging)."""
        assert self._table is not None
        return self._table

    def _observe(self) -> dict[str, np.ndarray]:
        table = self.table
        state = table.finished if self._over and table.finished is not None else table.state
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        if not self._over:
            mask[:] = table.action_mask()[0]
        return {"observation": encode(state, self.seat)[0], "action_mask": mask}

    def _step_table(self, action: int) -> tuple[float, bool, bool]:
        _, rewards, terminated, truncated, _ = self.table.step(np.array([action], dtype=np.int64))
        return float(rewards[0, self.seat]), bool(terminated[0]), bool(truncated[0])

    def _bots_play(self) -> tuple[float, bool, bool]:
        """Let the bots act until it is the learner's turn or the game is over."""
        total, terminated, truncated = 0.0, False, False
        table = self.table
        while int(table.to_act[0]) != self.seat:
            actions = answers_to_actions(table.state, bot_answers(table.state, self.bots))[0]
            for action in actions:
                reward, terminated, truncated = self._step_table(action)
                total += reward
            if terminated or truncated:
                break
        return total, terminated, truncated

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))
        self._table = BatchEnv(
            self.rules, 1, game_seed, reward=self.reward_kind, observe=False, max_hands=self.max_hands
        )
        self._over = False
        _, terminated, truncated = self._bots_play()
        self._over = terminated or truncated
        return self._observe(), {}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("the game is over: call reset()")
        action = action_number(action)
        info: dict[str, Any] = {}
        if not (0 <= action < N_ACTIONS and self.table.action_mask()[0, action]):
            if self.illegal == "raise":
                legal = np.flatnonzero(self.table.action_mask()[0]).tolist()
                raise ValueError(f"action {action} is not legal; legal: {legal}")
            self._over = True
            return self._observe(), self.illegal_reward, True, False, {"illegal": True}
        reward, terminated, truncated = self._step_table(action)
        if not (terminated or truncated):
            more, terminated, truncated = self._bots_play()
            reward += more
        self._over = terminated or truncated
        return self._observe(), reward, terminated, truncated, info

    def render(self) -> str | None:
        if self.render_mode is None or self._table is None:
            return None
        state = self.table.finished if self._over and self.table.finished is not None else self.table.state
        return describe_table(state, self.seat)
