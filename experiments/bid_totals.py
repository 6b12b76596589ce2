"""Do the four bids of counting players total 10, 11 or 12, not 13?

Per play engine, four counting players (the sheet's count, nil rule and bag-aware rounding) play complete games;
every hand's table bid total (the four bids, a nil counting 0) is tallied. The tournament needs two entrant names,
so the second partnership is the same player under another label; games are split between the two seatings.
"""

from __future__ import annotations

import dataclasses

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import ENGINES, RULES, Experiment, Finding, FindingCheck, cli, markdown, play

import spades_lab as sl
from spades_lab.stats.estimates import ratio_estimate, wilson_estimate

DEALS = {"tips": 10_000, "expert": 10_000, "pimc": 200}
BIDS = [f"bid{s}" for s in range(4)]


def main(out_dir=None, scale: float = 1.0, workers: int = 2, engines=tuple(ENGINES)):
    """Distribution of the table bid total at a table of four counting players, per play engine."""
    exp = Experiment("bid_totals", out_dir, scale, workers, engines, DEALS)
    shares, most, least, mean, dist = {}, {}, {}, {}, {}
    for e in exp.engines:
        player = sl.make_player(f"counting+{play(e)}")
        mirror = dataclasses.replace(player, label=f"{player.name} (second partnership)")
        hands = exp.tournament("counting", [player, mirror], e).hands
        total = hands[BIDS].to_numpy().sum(axis=1)
        per_game = pd.DataFrame({"seating": hands["seating"], "game": hands["game"], "in": np.isin(total, (10, 11, 12)),
                                 "total": total, "one": 1}).groupby(["seating", "game"]).sum()  # fmt: skip
        most[e] = ratio_estimate(per_game["in"], per_game["one"])
        least[e] = wilson_estimate(float((total >= 13).sum()), len(total))
        mean[e] = ratio_estimate(per_game["total"], per_game["one"])
        dist[e] = pd.Series(total).value_counts(normalize=True).sort_index()
        shares[e] = len(total)
    checks = [
        FindingCheck(Finding("the table bids 10-12 on most hands", "share_10_to_12", 0.5),
                     {e: (x, "agrees" if x.lo > 0.5 else "does not agree") for e, x in most.items()}),
        FindingCheck(Finding("13 or more is rare", "share_13_or_more", 0.1),
                     {e: (x, "rare (< 10%)" if x.hi < 0.1 else "not rare") for e, x in least.items()}),
    ]  # fmt: skip
    table = pd.DataFrame(dist).fillna(0.0)
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.8 / len(table.columns)
    for i, e in enumerate(table.columns):
        ax.bar(table.index + (i - (len(table.columns) - 1) / 2) * width, table[e] * 100, width=width,
               label=f"{e}: {shares[e]:,} hands")  # fmt: skip
    ax.axvspan(9.5, 12.5, color="tab:green", alpha=0.1, label="the sheet's 10-12")
    ax.set(xlabel="table bid total (four bids, nil = 0)", ylabel="share of hands (%)")
    ax.legend(fontsize=8)
    fig.savefig(exp.out / "distribution.png", dpi=120)
    table.rename_axis("bid_total").reset_index().to_csv(exp.out / "bid_totals.csv", index=False)
    shown = table.map("{:.2%}".format).rename_axis("bid total").reset_index()
    return exp.readme(
        title="Do counting bids total 10, 11 or 12?",
        question="Do the four bids of counting players total 10, 11 or 12, not 13?",
        sheet='"Vérification de bon sens : à une table normale, les quatre annonces totalisent dix, onze ou douze, pas '
        'treize." (at a normal table the four bids total 10, 11 or 12, not 13.)',
        checks=checks,
        answer_claims=2,
        comparisons={},
        figures=[],
        plots=["distribution.png"],
        meaning="Mean table bid total (clustered by game): "
        + "; ".join(f"`{ENGINES[e]}` {m.fmt(2).replace('95% CI ', '')}" for e, m in mean.items())
        + ". Share of hands per total ([`bid_totals.csv`](bid_totals.csv)):\n\n"
        + markdown(shown)
        + "\n\n**What it means.** The bid is the count: the play engine changes the totals only through the "
        "game state (scores, bags: the bag-aware rule), so the verdict should not depend on the engine. The "
        "share of 10-12 is clustered by game (each game one observation).",  # fmt: skip
        setup=f"Standard rules, games stopped at {RULES.hand_cap} hands, four `counting+ENGINE` seats. Games per "
        "engine are the deal counts below, split between the two seatings.",
    )


if __name__ == "__main__":
    cli("bid_totals", main)
