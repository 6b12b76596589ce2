"""The `batch_env` bench workload: BatchEnv with random legal actions, and OpenSpiel's spades beside it.

OpenSpiel is driven the way a Python RL loop drives it: `legal_actions()`, a uniform choice, then
`apply_action()`, for the deal's chance nodes too. Both run in the same process and the same
run, so their ratio is meaningful on a shared, noisy machine even when the absolute figures move.
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np

from spades_lab.env.batch import BatchEnv

BENCH_TABLES = 4096
"""Tables stepped together in the bench (n = 4096)."""


def batch_env_rate(hands: int, seed: int, n: int = BENCH_TABLES) -> dict[str, Any]:
    """Play at least `hands` hands at n tables (whole batches) with random legal actions; figures per second."""
    env = BatchEnv("standard", n, seed, observe=False)
    generator = np.random.default_rng(seed)
    env.reset(seed)
    start = time.perf_counter()
    while env.hands_played < hands:
        env.step(env.random_actions(generator))
    elapsed = time.perf_counter() - start
    return {"hands": env.hands_played, "decisions": env.decisions, "seconds": elapsed}


def openspiel_rate(hands: int, seed: int) -> dict[str, Any] | None:
    """OpenSpiel's `spades` played `hands` times from Python with random legal actions; None if not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    chooser = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            if not state.is_chance_node():
                decisions += 1
            state.apply_action(legal[int(chooser.random() * len(legal))])
    elapsed = time.perf_counter() - start
    return {"hands": hands, "decisions": decisions, "seconds": elapsed}


def batch_env_workload(hands: int, seed: int) -> tuple[int, dict[str, Any]]:
    """(hands played, extra figures): the bench's `batch_env` workload.

    `seconds` and `hands_per_s` are the batch env's own (OpenSpiel's time is not in them).
    OpenSpiel plays a twentieth of the hands (at least 500): it is some 10x slower, and its rate
    per hand does not depend on how many hands it plays.
    """
    ours = batch_env_rate(hands, seed)
    extra: dict[str, Any] = {
        "tables": BENCH_TABLES,
        "seconds": round(ours["seconds"], 3),
        "hands_per_s": round(ours["hands"] / ours["seconds"]),
        "decisions_per_s": round(ours["decisions"] / ours["seconds"]),
    }
    theirs = openspiel_rate(max(500, hands // 20), seed)
    if theirs is not None:
        extra["openspiel_hands_per_s"] = round(theirs["hands"] / theirs["seconds"])
        extra["openspiel_decisions_per_s"] = round(theirs["decisions"] / theirs["seconds"])
        extra["speedup_vs_openspiel"] = round(
            (ours["hands"] / ours["seconds"]) / (theirs["hands"] / theirs["seconds"]), 1
        )
    return ours["hands"], extra
