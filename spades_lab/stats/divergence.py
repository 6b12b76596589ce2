"""The first hand where two bidders part: an exact counterfactual inside a duplicate deal.

Two bidders that differ only in a rare spot (say, rounding up at nine bags) bid alike on most hands, so both
tables of a duplicate deal play the same hands, with the same scores and bags, up to the first hand where the
bids differ. At that hand the two tables hold the same cards and the same game state: one side bid one way at
one table and the other way at the other. Comparing what that hand (and the rest of the game) brought the side
at each table measures the spot itself, free of the hands where nothing differs, which dilute a whole-game figure.

Partnership games only (sides are seats 0 and 2, 1 and 3). Deals whose first divergent hand has both sides'
bids differing are left out: there the opponents' bid changed too.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from spades_lab.stats.estimates import Estimate, mean_estimate, wilson_estimate

SEATS = ((0, 2), (1, 3))
OUTCOMES = ("contract", "set", "bag_penalty", "hand_points", "hand_margin", "won", "final_margin")
"""What the divergent hand brought the diverging side at each table (`won` and `final_margin`: the game's end)."""
DIVERGENCE_FIGURES = {
    "divergent_set": "the diverging side set on the divergent hand, candidate's table minus baseline's",
    "divergent_bag_penalty": "a bag penalty on the divergent hand, candidate's table minus baseline's",
    "divergent_hand_margin": "the side's hand score minus the opponents' on the divergent hand, difference",
    "divergent_won": "the side won the game, candidate's table minus baseline's",
    "divergent_final_margin": "the side's final score minus the opponents', difference",
    "divergent_contract": "the side's contract on the divergent hand, difference",
}


def first_divergences(hands: pd.DataFrame, games: pd.DataFrame, candidate: str) -> pd.DataFrame:
    """One row per deal whose tables part: the first hand whose bids differ between the two seatings.

    `hands` and `games` are a duplicate pairing's tables (a tournament's `hands` and `games`), `candidate` the
    entrant whose table is `cand`. Columns: game, hand, side (the diverging side), bags_before (its bags entering
    the hand) and, per outcome of `OUTCOMES`, `OUTCOME_cand` and `OUTCOME_base`.
    """
    where = games[games["entrant"].astype(str) == candidate][["seating", "game", "side"]]
    cand_side = where.groupby("seating")["side"].first()
    if len(cand_side) != 2 or cand_side.iloc[0] == cand_side.iloc[1]:
        raise ValueError(f"{candidate!r} must play both seatings of a duplicate pairing, on opposite sides")
    a = hands[hands["seating"] == 0].drop(columns="seating")
    b = hands[hands["seating"] == 1].drop(columns="seating")
    both = a.merge(b, on=["game", "hand"], suffixes=("_a", "_b")).sort_values(["game", "hand"])
    differ = [
        np.any([both[f"bid{s}_a"].to_numpy() != both[f"bid{s}_b"].to_numpy() for s in seats], axis=0) for seats in SEATS
    ]
    first = both.assign(diff0=differ[0], diff1=differ[1])
    first = first[first["diff0"] | first["diff1"]].groupby("game", sort=True).head(1)
    first = first[first["diff0"] ^ first["diff1"]]
    for column in ("score_before0", "score_before1", "bags_before0", "bags_before1"):
        if not (first[f"{column}_a"] == first[f"{column}_b"]).all():
            raise ValueError("the two seatings reached a divergent hand in different states: not a duplicate pairing")
    side = np.where(first["diff0"].to_numpy(), 0, 1)
    # the candidate's table for the diverging side is the seating where it sits on that side
    cand_table = np.where(side == cand_side.loc[0], "a", "b")
    out = pd.DataFrame({"game": first["game"].to_numpy(), "hand": first["hand"].to_numpy(), "side": side})
    out["bags_before"] = _pick(first, "bags_before", side, "a")
    final = games.set_index(["seating", "game", "side"])
    for name, table in (("cand", cand_table), ("base", np.where(cand_table == "a", "b", "a"))):
        outcome = {k: np.where(table == "a", v_a, v_b) for k, (v_a, v_b) in _outcomes(first, side).items()}
        rows = final.loc[list(zip((table == "b").astype(int), out["game"], side))]
        outcome["won"] = rows["won"].to_numpy(dtype=float)
        outcome["final_margin"] = (rows["score"] - rows["opp_score"]).to_numpy(dtype=float)
        for k in OUTCOMES:
            out[f"{k}_{name}"] = outcome[k]
    return out


def _pick(rows: pd.DataFrame, prefix: str, side: np.ndarray, table: str) -> np.ndarray:
    picked: np.ndarray = np.where(
        side == 0, rows[f"{prefix}0_{table}"].to_numpy(), rows[f"{prefix}1_{table}"].to_numpy()
    )
    return picked


def _outcomes(rows: pd.DataFrame, side: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per outcome of the hand itself, its value at table a and at table b for the diverging side."""
    at = {table: _hand_outcomes(rows, side, table) for table in ("a", "b")}
    return {k: (at["a"][k], at["b"][k]) for k in at["a"]}


def _hand_outcomes(rows: pd.DataFrame, side: np.ndarray, table: str) -> dict[str, np.ndarray]:
    seats, idx = np.array(SEATS)[side], np.arange(len(rows))[:, None]
    bids = np.stack([rows[f"bid{s}_{table}"].to_numpy() for s in range(4)], axis=1)[idx, seats]
    tricks = np.stack([rows[f"tricks{s}_{table}"].to_numpy() for s in range(4)], axis=1)[idx, seats]
    numeric = bids > 0
    contract = np.where(numeric, bids, 0).sum(axis=1)
    hand = _pick(rows, "hand_score", side, table)
    return {
        "contract": contract.astype(float),
        "set": ((contract > 0) & (np.where(numeric, tricks, 0).sum(axis=1) < contract)).astype(float),
        "bag_penalty": (_pick(rows, "bag_penalties", side, table) > 0).astype(float),
        "hand_points": hand.astype(float),
        "hand_margin": (hand - _pick(rows, "hand_score", 1 - side, table)).astype(float),
    }


def divergence_estimates(divergent: pd.DataFrame) -> dict[str, Estimate]:
    """`DIVERGENCE_FIGURES` from `first_divergences`: each the mean over deals of the candidate's table minus the
    baseline's (a paired difference, normal interval), plus `divergent_share_cand`/`_base` Wilson rates of sets."""
    out = {}
    for figure in DIVERGENCE_FIGURES:
        k = figure.removeprefix("divergent_")
        e = mean_estimate(divergent[f"{k}_cand"].to_numpy() - divergent[f"{k}_base"].to_numpy())
        out[figure] = Estimate(e.value, e.lo, e.hi, e.n, "paired mean")
    for k in ("set", "bag_penalty", "won"):
        for name in ("cand", "base"):
            out[f"{k}_rate_{name}"] = wilson_estimate(float(divergent[f"{k}_{name}"].sum()), len(divergent))
    return out
