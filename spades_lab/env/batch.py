"""A numpy vectorised environment: n tables stepped together, one action per table per step.

It is the engine's own lockstep `State` with game bookkeeping around it: every table of the batch
reaches the end of a hand at the same step (a hand is a fixed schedule of decisions), so scoring,
game ends and auto-reset happen for the whole batch at once, in numpy. A table whose game ends
starts the next game id at once (auto-reset), and every game's deal comes from its own id, so
game g of a seed is the same deal as game g of `simulate_games` with that seed.

Seats act in turn; at a step where a table has nothing to decide (another seat's blind-nil
decision, an exchange that table does not have) its `to_act` is -1 and its action is ignored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from spades_lab.engine import rng
from spades_lab.engine.scoring import game_end
from spades_lab.engine.simulate import MAX_HANDS, HandLog
from spades_lab.engine.state import N_ACTIONS, NIL_ACTION, Phase, State
from spades_lab.engine.views import TEAM_OF_SEAT
from spades_lab.env.encode import SIZE, encode
from spades_lab.rules import Rules, RulesLike, load_rules

REWARDS = ("hand", "win")


@njit(cache=True)
def _card_mask(legal: np.ndarray, acting: np.ndarray, out: np.ndarray) -> None:
    """Rows of the [n, 66] mask from each acting table's uint64 legal cards (the other rows stay False)."""
    for t in range(legal.shape[0]):
        if acting[t]:
            bits = legal[t]
            for c in range(52):
                out[t, c] = (bits >> np.uint64(c)) & np.uint64(1) == np.uint64(1)


@njit(cache=True)
def _pick_uniform(mask: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Per row, the floor(u * count)-th legal action (a uniform choice for uniform u); 0 if none."""
    n, m = mask.shape
    out = np.zeros(n, dtype=np.int64)
    legal = np.empty(m, dtype=np.int64)
    for t in range(n):
        count = 0
        for j in range(m):
            legal[count] = j
            count += mask[t, j]
        if count:
            out[t] = legal[int(u[t] * count)]
    return out


@njit(cache=True)
def _first_illegal(mask: np.ndarray, actions: np.ndarray, acting: np.ndarray) -> int:
    """The first acting table whose action is outside its mask, or -1."""
    for t in range(actions.shape[0]):
        if acting[t]:
            a = actions[t]
            if a < 0 or a >= mask.shape[1] or not mask[t, a]:
                return t
    return -1


def refuse_unsupported(rules: Rules) -> None:
    """The environments' observation vector and rewards are per partnership (own side, other side) over
    13 tricks: refuse, naming the field, rules with more sides (cutthroat, three players)."""
    if rules.sides > 2:
        what = "players = 3" if rules.players == 3 else "partnerships = False (cutthroat)"
        raise ValueError(
            f"rules field {what} is not supported by the RL environments: their observation vector and rewards"
            " are per partnership (own side, other side) over 13 tricks; spades_lab.simulate_games plays it"
        )


def action_number(action: object) -> int:
    """One action as an int, refused as `BatchEnv.step` refuses a batch: a whole number only (a Python or
    NumPy integer), never a float, a string, a bool or None, which `int()` would silently turn into one."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise ValueError(
            f"action must be a whole number 0..{N_ACTIONS - 1} (the game state's action numbering),"
            f" got {action!r} ({type(action).__name__})"
        )
    return int(action)


@dataclass
class HandEnd:
    """What the last step's hand end produced, per table (only set on the step that ended a hand)."""

    hand_score: np.ndarray
    """[n, 2] points of each side in the hand just finished."""
    score_after: np.ndarray
    game_over: np.ndarray
    winner: np.ndarray
    unfinished: np.ndarray


class BatchEnv:
    """n tables of Spades under one set of rules, driven by arrays.

    - `reset(seed)` -> (observation [n, SIZE] float32 or None, info)
    - `step(actions [n])` -> (observation, rewards [n, seats], terminated [n], truncated [n], info)

    `info` holds `to_act` [n] (seat to act, -1 none), `action_mask` [n, 66] (OpenSpiel numbering, see
    `spades_lab.engine.state`), `hand_over` [n] and, on the step that ended a hand, `hand_end`.
    Rewards: `reward="hand"` gives every seat its side's hand score on the step that ends a hand;
    `reward="win"` gives +1 / -1 to the winning / losing seats on the step that ends a game.
    `episode="game"` (default) plays whole games, `"hand"` makes every hand a game of its own
    from 0-0. `terminated` marks a game that ended by the rules, `truncated` one stopped unfinished
    (the rules' hand cap, or `max_hands`). The observation returned with a terminated table is
    already that of the next game (auto-reset). `observe=False` skips the encoding (masks only).
    """

    def __init__(
        self,
        rules: RulesLike = "standard",
        n: int = 1024,
        seed: int = 0,
        *,
        reward: str = "hand",
        episode: str = "game",
        observe: bool = True,
        max_hands: int | None = MAX_HANDS,
    ) -> None:
        self.rules: Rules = load_rules(rules) if not isinstance(rules, Rules) else rules
        refuse_unsupported(self.rules)
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
            raise ValueError(f"n = {n!r} tables is impossible; allowed: at least 1")
        if reward not in REWARDS:
            raise ValueError(f"reward = {reward!r}; allowed: {', '.join(REWARDS)}")
        if episode not in ("game", "hand"):
            raise ValueError(f"episode = {episode!r}; allowed: game, hand")
        if max_hands is not None and (isinstance(max_hands, bool) or not isinstance(max_hands, int) or max_hands < 1):
            raise ValueError(f"max_hands = {max_hands!r} is impossible; allowed: None or at least 1 hand")
        self.n, self.reward, self.episode, self.observe = int(n), reward, episode, observe
        self.max_hands = max_hands
        self.players = self.rules.players
        self.observation_size = SIZE
        self.n_actions = N_ACTIONS
        self.seed = seed
        self.finished: State | None = None
        """The state of the hand that ended last (phase DONE), kept for final observations."""
        self.decisions = 0
        """Decisions taken so far (acting tables summed over steps)."""
        self.hands_played = 0
        self.games_finished = 0
        self.reset(seed)

    # --- games ----------------------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> tuple[np.ndarray | None, dict[str, Any]]:
        """Start game ids 0..n-1 of `seed` (default: the seed given before) at every table."""
        if seed is not None:
            self.seed = int(seed)
        self._root = rng.seed_key(self.seed)
        self.game = np.arange(self.n, dtype=np.int64)
        self._next_game = self.n
        self.hand = np.zeros(self.n, dtype=np.int64)
        self._game_keys = rng.derive(self._root, self.game)
        self.dealer = rng.below(self._game_keys, rng.STREAM_DEALER, self.players)
        self.scores = np.zeros((self.n, 2), dtype=np.int64)
        self.bags = np.zeros((self.n, 2), dtype=np.int64)
        self._deal()
        return self._observation(), self._info(None)

    def _deal(self) -> None:
        self._mask: np.ndarray | None = None
        self.state = State(
            self.rules,
            self.game,
            self.hand,
            rng.derive(self._game_keys, self.hand),
            self.dealer,
            self.scores,
            self.bags,
        )

    def _fresh(self, rows: np.ndarray) -> None:
        """Give the tables `rows` the next game ids, from 0-0 with their own dealer."""
        ids = np.arange(self._next_game, self._next_game + len(rows), dtype=np.int64)
        self.game = self.game.copy()  # the finished hand's state keeps its own game ids
        self._next_game += len(rows)
        keys = rng.derive(self._root, ids)
        self.game[rows], self._game_keys[rows], self.hand[rows] = ids, keys, 0
        self.dealer[rows] = rng.below(keys, rng.STREAM_DEALER, self.players)
        self.scores[rows] = 0
        self.bags[rows] = 0

    # --- stepping -------------------------------------------------------------------------------

    @property
    def to_act(self) -> np.ndarray:
        return self.state.to_act

    def action_mask(self) -> np.ndarray:
        """[n, 66] bool legal actions now (all False where nobody acts); the same as `State.legal_action_mask`.

        Card plays (52 of a hand's 56 decisions) are computed in one compiled pass from the engine's
        legal-card masks; the array is computed once per step and shared with `info`.
        """
        if self._mask is None:
            state = self.state
            phase = state.point[0]
            if phase == Phase.PLAY:
                mask = np.zeros((self.n, N_ACTIONS), dtype=bool)
                _card_mask(state.legal, state.acting, mask)
            else:
                mask = state.legal_action_mask()
            self._mask = mask
        return self._mask

    def step(self, actions: np.ndarray) -> tuple[np.ndarray | None, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Apply one action per table (ignored where `to_act` is -1); an illegal one raises ValueError."""
        actions = np.asarray(actions)
        if actions.shape != (self.n,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(
                f"step needs one integer action per table, shape ({self.n},); got {actions.shape} {actions.dtype}"
            )
        actions = actions.astype(np.int64, copy=False)
        state = self.state
        acting = state.acting
        phase = state.point[0]
        if phase in (Phase.PLAY, Phase.BID):
            bad = _first_illegal(self.action_mask(), actions, acting)
            if bad >= 0:
                legal = np.flatnonzero(self.action_mask()[bad]).tolist()
                raise ValueError(
                    f"table {bad}: action {int(actions[bad])} is not legal in phase {phase.name}; legal: {legal}"
                )
            self.decisions += int(acting.sum())
            self._mask = None
            state.apply(actions if phase == Phase.PLAY else np.maximum(actions - NIL_ACTION, 0))
        else:
            state.step(actions)
            self.decisions += int(acting.sum())
            self._mask = None
        rewards = np.zeros((self.n, self.players), dtype=np.float32)
        terminated = np.zeros(self.n, dtype=bool)
        truncated = np.zeros(self.n, dtype=bool)
        end = None
        if self.state.done:
            end = self._end_hand(rewards, terminated, truncated)
        return self._observation(), rewards, terminated, truncated, self._info(end)

    def _end_hand(self, rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray) -> HandEnd:
        result = self.state.score()
        after = self.scores + result.points
        over, winner, unfinished = game_end(self.rules, after, self.hand + 1)
        if self.episode == "hand":
            unfinished = ~over
        elif self.max_hands is not None:
            unfinished = unfinished | (~over & (self.hand + 1 >= self.max_hands))
        side = TEAM_OF_SEAT[: self.players]
        if self.reward == "hand":
            rewards[:] = result.points[:, side]
        else:
            won = (winner[:, None] == side[None, :]).astype(np.float32)
            rewards[:] = np.where(over[:, None], 2.0 * won - 1.0, 0.0)
        terminated[:] = over
        truncated[:] = unfinished
        end = HandEnd(result.points, after, over, winner, unfinished)
        self._last_result = (result, end)
        self.hands_played += self.n
        self.games_finished += int((over | unfinished).sum())
        self.scores, self.bags = after.copy(), result.bags_after.copy()
        self.hand = self.hand + 1
        self.dealer = (self.dealer + 1) % self.players
        self.finished = self.state
        done = np.flatnonzero(over | unfinished)
        if len(done):
            self._fresh(done)
        self._deal()
        return end

    def last_hand_log(self) -> HandLog:
        """The hand that ended last as the engine's HandLog (for hand-record lines: `hand_records`)."""
        state = self.finished
        if state is None:
            raise ValueError("no hand has ended yet")
        result, end = self._last_result
        n, p = state.n, self.players
        return HandLog(
            game=state.game_id, hand=state.hand_number, dealer=state.dealer, deal=state.dealt, held=state.held,
            bids=state.bids, plays=state.plays, play_seats=state.play_seats, tricks=state.tricks_won,
            score_before=state.scores, bags_before=state.bags, hand_score=result.points, score_after=end.score_after,
            bags_after=result.bags_after, bags_won=result.new_bags, bag_penalties=result.penalties,
            game_over=end.game_over, winner=end.winner, unfinished=end.unfinished, blind=state.blind,
            passed=state.passed,
            draft_keep=state.draft_keep if state.drafted else np.zeros((n, 26 if p == 2 else 0), dtype=bool),
            stock=state.stock if state.drafted else np.zeros((n, 52 if p == 2 else 0), dtype=np.int64),
        )  # fmt: skip

    # --- what the agent sees --------------------------------------------------------------------

    def _observation(self) -> np.ndarray | None:
        if not self.observe:
            return None
        return encode(self.state)

    def observation(self, seat: np.ndarray | int) -> np.ndarray:
        """[n, SIZE] the encoding for any seat (not only the one to act), e.g. for a critic."""
        return encode(self.state, seat)

    def _info(self, end: HandEnd | None) -> dict[str, Any]:
        info: dict[str, Any] = {"to_act": self.state.to_act.copy(), "action_mask": self.action_mask(),
                      "hand_over": np.full(self.n, end is not None)}  # fmt: skip
        if end is not None:
            info["hand_end"] = end
        return info

    def random_actions(self, generator: np.random.Generator, mask: np.ndarray | None = None) -> np.ndarray:
        """A uniformly random legal action per table (0 where nobody acts): the bench's player."""
        mask = self.action_mask() if mask is None else mask
        return _pick_uniform(mask, generator.random(self.n))
