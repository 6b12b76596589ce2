"""A worked example of learning with BatchEnv: a linear bid model in plain numpy.

The learner bids for one partnership (seats 0 and 2); every card, and the other side's bids, are
played by fixed bots (`counting+tips` by default). Each round plays a batch of hands in the
BatchEnv, records for every learner bid the hand's features (from the observation vector) and
the tricks that seat went on to take, and refits a least-squares model tricks ~ features. The
next round bids the model's prediction (rounded down: a set costs more than a bag). Round 0
bids at random, so the first fit learns from random bids and later rounds from its own.

`run_learner` returns the side's mean hand score per round next to a random-bid baseline on the
same deals, which is what the docs page shows and the test checks (at a small size).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from spades_lab.engine.state import NIL_ACTION, Phase
from spades_lab.env.batch import BatchEnv
from spades_lab.env.bots import bot_answers
from spades_lab.env.encode import LAYOUT, encode
from spades_lab.players import make_player

LEARNER_SEATS = (0, 2)


def hand_features(observation: np.ndarray) -> np.ndarray:
    """[m, 18] features of the own hand, read from the observation's `hand` block (standard deck).

    Per suit C, D, H, S: length, ace, king, queen; then spades beyond three; then a constant 1.
    """
    cards = observation[:, LAYOUT["hand"]].reshape(-1, 4, 13)
    length = cards.sum(axis=2)
    honours = cards[:, :, [12, 11, 10]].reshape(-1, 12)
    long_spades = np.maximum(length[:, 3:4] - 3, 0)
    return np.hstack([length, honours, long_spades, np.ones((len(cards), 1), dtype=np.float32)])


@dataclass
class LearnerResult:
    learned: list[float] = field(default_factory=list)
    """The learner side's mean hand score per round (round 0: random bids)."""
    random: float = 0.0
    """The same side's mean hand score with random bids, on the evaluation deals."""
    evaluation: float = 0.0
    """The trained model's mean hand score on the evaluation deals (the same deals as `random`)."""
    bot_bids: float = 0.0
    """The same side's mean hand score when the bot bids for it too (a reference, not a target)."""
    weights: np.ndarray | None = None


def play_hands(
    env: BatchEnv, seed: int, choose_bids: Callable[[np.ndarray, np.ndarray], np.ndarray] | None, bots: list[Any]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One hand at every table: (features of learner bids [m, 18], tricks those seats took [m], side-0 score [n])."""
    env.reset(seed)
    feats: list[np.ndarray] = []
    who: list[tuple[np.ndarray, np.ndarray]] = []
    while True:
        state = env.state
        bidding = state.point[0] == Phase.BID and choose_bids is not None
        answers = bot_answers(state, [None if bidding and s in LEARNER_SEATS else b for s, b in enumerate(bots)])
        actions = answers + NIL_ACTION if state.point[0] == Phase.BID else answers.astype(np.int64)
        if state.point[0] == Phase.BID:
            rows = np.flatnonzero(np.isin(state.to_act, LEARNER_SEATS))
            if len(rows):
                f = hand_features(encode(state)[rows])
                mask = env.action_mask()[rows]
                if choose_bids is not None:
                    actions[rows] = choose_bids(f, mask)
                feats.append(f)
                who.append((rows, state.to_act[rows].copy()))
        _, _, _, _, info = env.step(actions)
        if info["hand_over"][0]:
            break
    assert env.finished is not None
    tricks = env.finished.tricks_won
    taken = np.concatenate([tricks[rows, seats] for rows, seats in who])
    return np.vstack(feats), taken.astype(np.float64), info["hand_end"].hand_score[:, 0].astype(np.float64)


def run_learner(tables: int = 2048, rounds: int = 3, seed: int = 0, bot: str = "counting+tips") -> LearnerResult:
    """Train for `rounds` rounds of `tables` hands each, then evaluate against random bids on fresh deals."""
    env = BatchEnv("standard", tables, seed, episode="hand", observe=False)
    player = make_player(bot)
    bots: list[Any] = [player] * 4  # every card is the bot's; the learner seats' bids are the model's
    generator = np.random.default_rng(seed)

    def random_bids(f: np.ndarray, mask: np.ndarray) -> np.ndarray:
        u = generator.random(len(mask))
        legal = [np.flatnonzero(m) for m in mask]
        return np.array([row[int(x * len(row))] for row, x in zip(legal, u)])

    weights: np.ndarray | None = None

    def model_bids(f: np.ndarray, mask: np.ndarray) -> np.ndarray:
        assert weights is not None
        bids = np.clip(np.floor(f @ weights), 1, 13).astype(np.int64)
        return np.asarray(NIL_ACTION + bids)

    result = LearnerResult()
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    for r in range(rounds):
        f, taken, score = play_hands(env, seed * 1000 + 1 + r, random_bids if weights is None else model_bids, bots)
        result.learned.append(float(score.mean()))
        xs.append(f)
        ys.append(taken)
        weights = np.linalg.lstsq(np.vstack(xs), np.concatenate(ys), rcond=None)[0]
    result.weights = weights
    evaluation_seed = seed * 1000 + 999
    result.random = float(play_hands(env, evaluation_seed, random_bids, bots)[2].mean())
    result.evaluation = float(play_hands(env, evaluation_seed, model_bids, bots)[2].mean())
    result.bot_bids = float(play_hands(env, evaluation_seed, None, bots)[2].mean())
    return result
