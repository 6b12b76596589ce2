"""The docs' worked example: a numpy linear bid model learns to beat random bids, at a small size."""

from __future__ import annotations

import numpy as np

from spades_lab.env.learner import hand_features, run_learner


def test_linear_bidder_beats_random_bids() -> None:
    result = run_learner(tables=256, rounds=2, seed=1)
    assert len(result.learned) == 2
    # same evaluation deals for both: the learned bids score far more per hand than random bids
    assert result.evaluation > result.random + 50
    assert result.learned[1] > result.learned[0] + 50  # round 0 bid at random, round 1 with the first fit
    assert result.weights is not None and result.weights.shape == (18,)


def test_hand_features_read_the_own_cards() -> None:
    from spades_lab.env.encode import LAYOUT, SIZE

    obs = np.zeros((1, SIZE), dtype=np.float32)
    for card in (51, 50, 40, 12):  # AS, KS, 3S, AC
        obs[0, LAYOUT["hand"].start + card] = 1
    f = hand_features(obs)[0]
    assert f[:4].tolist() == [1, 0, 0, 3]  # suit lengths C, D, H, S
    assert f[4:7].tolist() == [1, 0, 0] and f[13:16].tolist() == [1, 1, 0]  # clubs A; spades A K
    assert f[16] == 0 and f[17] == 1
