"""The first hand where two bidders part: a worked example, and the property on played duplicate deals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import spades_lab as sl
from spades_lab.stats.divergence import divergence_estimates, first_divergences


def hand(seating: int, game: int, n: int, bids: list[int], tricks: list[int], scores: list[int], **kw: int) -> dict:
    row = {"seating": seating, "game": game, "hand": n, "score_before0": 0, "score_before1": 0, "bags_before0": 9,
           "bags_before1": 0, "hand_score0": scores[0], "hand_score1": scores[1], "bag_penalties0": 0,
           "bag_penalties1": 0}  # fmt: skip
    row |= {f"bid{s}": b for s, b in enumerate(bids)} | {f"tricks{s}": t for s, t in enumerate(tricks)}
    return row | kw


def test_a_worked_deal() -> None:
    """Deal 0 parts at hand 1, side 0 at nine bags: it bids 4 + 3 where the aware bidder sits (seating 0) and 3 + 3
    at the other table. At seating 0 it takes 6 and is set (-70 against the opponents' +60); at seating 1 it takes 7,
    makes its 6 and the bag is its tenth. Deal 1 never parts; deal 2 parts on both sides at once and is left out."""
    same = dict(bids=[3, 3, 3, 4], tricks=[3, 3, 3, 4], scores=[60, 70])
    hands = pd.DataFrame([
        hand(0, 0, 0, **same), hand(1, 0, 0, **same),
        hand(0, 0, 1, [4, 3, 3, 3], [3, 4, 3, 3], [-70, 60]),
        hand(1, 0, 1, [3, 3, 3, 3], [4, 3, 3, 3], [-39, 70], bag_penalties0=1),
        hand(0, 1, 0, **same), hand(1, 1, 0, **same),
        hand(0, 2, 0, [4, 4, 3, 3], [4, 4, 3, 2], [70, 80]), hand(1, 2, 0, **same),
    ])  # fmt: skip
    games = pd.DataFrame([
        {"seating": s, "game": g, "side": side, "entrant": "aware" if side == s else "floor", "won": won,
         "score": score, "opp_score": opp}
        for g in (0, 1, 2) for s in (0, 1) for side, won, score, opp in ((0, s == 1, 300 + 100 * s, 400),
                                                                         (1, s == 0, 400, 300 + 100 * s))
    ])  # fmt: skip
    d = first_divergences(hands, games, "aware")
    assert d[["game", "hand", "side", "bags_before"]].values.tolist() == [[0, 1, 0, 9]]
    row = d.iloc[0]
    assert (row["contract_cand"], row["contract_base"]) == (7, 6)
    assert (row["set_cand"], row["set_base"], row["bag_penalty_cand"], row["bag_penalty_base"]) == (1, 0, 0, 1)
    assert (row["hand_margin_cand"], row["hand_margin_base"]) == (-130, -109)
    assert (row["won_cand"], row["won_base"], row["final_margin_cand"], row["final_margin_base"]) == (0, 1, -100, 0)
    e = divergence_estimates(d)
    assert e["divergent_hand_margin"].value == -21 and e["divergent_set"].value == 1 and e["divergent_set"].n == 1
    with pytest.raises(ValueError, match="both seatings"):
        first_divergences(hands, games[games["seating"] == 0], "aware")


def test_played_deals_part_at_the_first_hand_whose_bids_differ() -> None:
    """Bag-aware rounding acts at a side's last bag before a penalty: with a penalty every 3 bags, often."""
    c = sl.compare("counting", "counting(bag_aware=False)", play="tips", rules=sl.Rules(target=150, hand_cap=8,
                   bag_threshold=3), deals=24, seed=2, progress=False)  # fmt: skip
    frame, figures = c.divergence()
    hands = c.results["tips"].hands.set_index(["seating", "game", "hand"]).sort_index()
    bids = [f"bid{s}" for s in range(4)]
    assert 0 < len(frame) <= 24
    for row in frame.itertuples():
        a, b = hands.loc[(0, row.game)], hands.loc[(1, row.game)]
        n = min(len(a), len(b))  # after they part, one table's game may end sooner
        differ = (a[bids].to_numpy()[:n] != b[bids].to_numpy()[:n]).any(axis=1)
        assert np.flatnonzero(differ)[0] == row.hand
    assert (frame["contract_cand"] > frame["contract_base"]).all()  # the aware side rounds up where they part
    assert (frame["bags_before"] % 3 == 2).all()
    assert c.estimate("divergent_contract") == figures["divergent_contract"]
