"""Statistics (spades_lab.stats): intervals against hand-computed values, per-game sums against the logs.

The Wilson bounds are checked against published values and against the closed form written out
here in a different arrangement; the paired interval against a direct computation on the sample.
GameTally's per-game sums must add up to the existing streaming HandStats totals and must not
depend on how the hands were batched.
"""

from __future__ import annotations

import math
import statistics

import numpy as np
import pytest

from spades_lab.engine import simulate_games
from spades_lab.policies import make_players
from spades_lab.rules import Rules
from spades_lab.stats import GameTally, HandStats, mean_interval, wilson
from spades_lab.stats.tables import MatchupTotals, summary_table

Z = 1.959963984540054


def wilson_by_hand(k: int, n: int) -> tuple[float, float]:
    """(k + z²/2 ± z·sqrt(k(n-k)/n + z²/4)) / (n + z²): the same interval, arranged in counts."""
    root = Z * math.sqrt(k * (n - k) / n + Z * Z / 4)
    return (k + Z * Z / 2 - root) / (n + Z * Z), (k + Z * Z / 2 + root) / (n + Z * Z)


@pytest.mark.parametrize(
    ("k", "n", "published"),
    [(0, 10, (0.0, 0.2775)), (5, 10, (0.2366, 0.7634)), (8, 10, (0.4902, 0.9433)), (81, 263, (0.2553, 0.3662))],
)
def test_wilson_matches_published_and_hand_computed_bounds(k, n, published) -> None:
    low, high = wilson(k, n)
    assert (float(low), float(high)) == pytest.approx(wilson_by_hand(k, n), abs=1e-12)
    assert (float(low), float(high)) == pytest.approx(published, abs=5e-5)


def test_wilson_is_elementwise_symmetric_and_nan_without_trials() -> None:
    low, high = wilson(np.array([3, 7, 0]), np.array([10, 10, 0]))
    assert low[0] == pytest.approx(1 - high[1]) and high[0] == pytest.approx(1 - low[1])
    assert np.isnan(low[2]) and np.isnan(high[2])
    assert wilson(10, 10)[1] == pytest.approx(1.0) and wilson(10, 10)[0] == pytest.approx(wilson_by_hand(10, 10)[0])


def test_mean_interval_matches_the_sample() -> None:
    sample = [1.0, -1.0, 0.5, 0.5, 0.0, 1.0, -0.5]
    n, s, ss = len(sample), sum(sample), sum(x * x for x in sample)
    mean, low, high = mean_interval(n, s, ss)
    half = Z * statistics.stdev(sample) / math.sqrt(n)
    assert float(mean) == pytest.approx(statistics.mean(sample))
    assert (float(low), float(high)) == pytest.approx((statistics.mean(sample) - half, statistics.mean(sample) + half))
    one = mean_interval(1, 2.0, 4.0)
    assert float(one[0]) == 2.0 and np.isnan(one[1]) and np.isnan(one[2])


@pytest.mark.parametrize("batch_size", [7, 64])
def test_game_tally_adds_up_to_hand_stats(batch_size: int) -> None:
    rules = Rules(target=200, mercy=True, mercy_threshold=-200, hand_cap=10)
    players = make_players(["random", "random(blind_rate=0.0)+random"])
    stats, tally = HandStats(rules), GameTally(rules, 0, 80)
    for log in simulate_games(rules, players, 80, seed=11, batch_size=batch_size):
        stats.add(log)
        tally.add(log)
    games = tally.frame(("a", "b"), ["a", "b"])
    by_side = games.groupby("side")
    np.testing.assert_array_equal(by_side["sets"].sum(), stats.sets)
    np.testing.assert_array_equal(by_side["contracts"].sum(), stats.contracts)
    np.testing.assert_array_equal(by_side["nil_bids"].sum(), stats.nil_bids)
    np.testing.assert_array_equal(by_side["nils_made"].sum(), stats.nils_made)
    np.testing.assert_array_equal(by_side["bags_won"].sum(), stats.bags)
    np.testing.assert_array_equal(by_side["bag_penalties"].sum(), stats.bag_penalties)
    np.testing.assert_array_equal(by_side["score"].sum(), stats.points)
    np.testing.assert_array_equal(by_side["won"].sum(), stats.wins)
    assert games["hands"].sum() == 2 * stats.hands
    assert games["unfinished"].sum() == 2 * stats.games_unfinished
    np.testing.assert_array_equal(tally.bid_totals, stats.bid_total[: len(tally.bid_totals)])

    totals = MatchupTotals()
    totals.add_games(games)
    summary = summary_table(totals.frame(["a", "b"]), ["a", "b"]).set_index("entrant")
    assert summary.loc["a", "set_rate"] == pytest.approx(stats.sets[0] / stats.hands)
    # One meaning per name: simulate's rows and the tournament summary agree on set_rate.
    assert stats.rows()[0]["set_rate"] == pytest.approx(summary.loc["a", "set_rate"])
    assert stats.rows()[1]["set_rate_per_contract"] == pytest.approx(summary.loc["b", "set_rate_per_contract"])
    assert summary.loc["b", "bags_per_hand"] == pytest.approx(stats.bags[1] / stats.hands)
    assert summary.loc["a", "win_rate"] == pytest.approx(stats.wins[0] / stats.games_over)


def test_hand_stats_counts_sets_as_the_rules_score_them() -> None:
    """With failed-nil tricks going to the partner, a side is set only when all its tricks fall short.

    Counted here by hand from the bids and tricks, independently of the engine's scoring.
    """
    rules = Rules(nil_tricks_to_partner=True, nil_tricks_as_bags=False, hand_cap=20)
    players = make_players(["random"])
    stats = HandStats(rules)
    sets = np.zeros(2, dtype=np.int64)
    for log in simulate_games(rules, players, 40, seed=5):
        stats.add(log)
        for bids, tricks in zip(log.bids.tolist(), log.tricks.tolist()):
            for side, seats in enumerate(((0, 2), (1, 3))):
                contract = sum(bids[s] for s in seats)
                sets[side] += contract > 0 and sum(tricks[s] for s in seats) < contract
    np.testing.assert_array_equal(stats.sets, sets)
    # Ignoring the variant (a nil bidder's tricks never helping) would count more sets here.
    assert stats.nil_bids.sum() > 0
