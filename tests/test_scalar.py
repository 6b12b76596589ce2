"""Compiled scalar policies: the library's driver gives the same answers as the same rule in numpy."""

from __future__ import annotations

import cloudpickle
import numpy as np
from numba import njit

import spades_lab as sl
from spades_lab.engine import HandLog, scalar


@njit
def lowest_number(o, d):
    for b in range(1, 14):
        if o.legal_bids[b]:
            return b
    return 0


@njit
def strongest_card(o, d):
    return scalar.strongest(o.legal, d)


class Numpy:
    name = "numpy"

    def bid(self, view):
        legal = view.legal_bids.copy()
        legal[:, 0] = False
        return np.where(legal.any(axis=1), np.argmax(legal, axis=1), 0)

    def play(self, view):
        ids = view.observe().legal_ids
        count = (ids >= 0).sum(axis=1)
        return ids[np.arange(len(view)), count - 1]


def test_compiled_scalar_bid_and_play_equal_numpy() -> None:
    compiled = scalar.compiled_policy(play=strongest_card, bid=lowest_number, name="compiled")
    rules = sl.Rules(hand_cap=5, min_team_contract=4)
    a = HandLog.concat(list(sl.simulate_games(rules, [compiled] * 4, 12, seed=2, batch_size=5)))
    b = HandLog.concat(list(sl.simulate_games(rules, [Numpy()] * 4, 12, seed=2, batch_size=7)))
    assert np.array_equal(a.sorted().plays, b.sorted().plays)
    assert np.array_equal(a.sorted().bids, b.sorted().bids)
    assert (a.bids > 0).all()


def test_a_compiled_policy_passes_the_check_and_travels() -> None:
    compiled = scalar.compiled_policy(play=strongest_card, bid=lowest_number, name="compiled")
    assert sl.check_policy(compiled, "short", tables=16)["play"] > 0
    copy = cloudpickle.loads(cloudpickle.dumps(compiled))
    assert sl.check_policy(copy, "short", tables=16)["bid"] > 0
