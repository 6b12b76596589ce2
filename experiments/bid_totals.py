"""Do the four bids of counting players total 10, 11 or 12, not 13?

Per play engine (tips, expert, pimc), four counting players (the sheet's count, nil rule and bag-aware
rounding) play complete games; every hand's table bid total (the four bids, a nil counting 0) is tallied.
The tournament needs two entrant names, so the second partnership is the same player under
another label; games are split between the two seatings, not duplicated (they would be identical).
"""

from __future__ import annotations

import dataclasses

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import (
    ENGINE_NAMES,
    RULES,
    Claim,
    Engine,
    Experiment,
    answer_per_engine,
    cli,
    figures_frame,
    markdown_table,
    ratio_estimate,
    save_figure,
    verdict_section,
    wilson_estimate,
    write_readme,
)

from spades_lab.policies import make_player
from spades_lab.policies.counting import count_tricks_batch

NAME = "bid_totals"
GAMES = {"tips": 10_000, "expert": 10_000, "pimc": 200}
"""Games (or duplicate deals) per tournament at scale 1, per play engine: the machine is 2 shared cores, so
the budget of the whole `make experiments` is about half an hour; pimc is the expensive one."""
SHEET = (10, 11, 12)
BIDS = [f"bid{s}" for s in range(4)]
DEALS = [f"deal{s}" for s in range(4)]


def bid_parts(bids: np.ndarray, deals: np.ndarray) -> dict[str, float]:
    """Where the table total comes from, per hand on average: the four counts rounded down (nil seats 0),
    the tricks added by the 1-trick minimum (a count below 1 bids 1) and by bag-aware rounding up."""
    count = count_tricks_batch(deals)
    floor = np.floor(count)
    numeric = bids > 0
    minimum = numeric & (floor < 1)
    raised = np.where(numeric, bids - np.maximum(floor, 1), 0)
    floor_total = np.where(numeric, floor, 0).sum(axis=1)
    return {
        "exact_count_total": float(np.where(numeric, count, 0).sum(axis=1).mean()),
        "floor_count_total": float(floor_total.mean()),
        "minimum_bid_added": float(np.where(minimum, 1 - floor, 0).sum(axis=1).mean()),
        "bag_aware_added": float(raised.sum(axis=1).mean()),
        "bids_at_minimum": float(minimum.sum() / numeric.sum()),
        "nil_bids_per_hand": float((~numeric).sum() / len(bids)),
        "floor_total_in_10_12": float(np.isin(floor_total, SHEET).mean()),
        "floor_total_13_or_more": float((floor_total >= 13).mean()),
    }


def measure(exp: Experiment, engine: Engine) -> dict:
    """Table bid totals at a table of four counting players of this engine."""
    player = engine.player("counting")
    games = exp.games(engine)
    mirror = dataclasses.replace(make_player(player), label=f"{player} (second partnership)")
    result = exp.run(engine, [player, mirror], games=games)
    hands = pd.read_parquet(result.out / "hands", columns=["seating", "game", *BIDS, *DEALS])
    bids = hands[BIDS].to_numpy()
    total = bids.sum(axis=1)
    n = len(total)
    parts = bid_parts(bids, hands[DEALS].to_numpy(dtype=np.uint64))
    counts = np.bincount(total, minlength=53)
    values = np.arange(counts.size)
    rows = []
    for v in values[(values >= total.min()) & (values <= total.max())]:
        e = wilson_estimate(counts[v], n)
        rows.append({"engine": engine.name, "bid_total": int(v), "hands": int(counts[v]), "share": e.value,
                     "share_lo": e.lo, "share_hi": e.hi, "cumulative": counts[: v + 1].sum() / n})  # fmt: skip
    in_sheet = np.isin(total, SHEET)
    per_game = pd.DataFrame({"seating": hands["seating"], "game": hands["game"], "in": in_sheet,
                             "total": total, "one": 1}).groupby(["seating", "game"]).sum()  # fmt: skip
    figs = {
        "share_10_to_12": wilson_estimate(in_sheet.sum(), n),
        "share_10_to_12_clustered_by_game": ratio_estimate(per_game["in"], per_game["one"]),
        "share_below_10": wilson_estimate((total < 10).sum(), n),
        "share_13": wilson_estimate(counts[13], n),
        "share_13_or_more": wilson_estimate((total >= 13).sum(), n),
        "share_14_or_more": wilson_estimate((total >= 14).sum(), n),
        "mean_table_bid_total": ratio_estimate(per_game["total"], per_game["one"]),
    }
    return {
        "player": player,
        "games": len(per_game),
        "hands": n,
        "figs": figs,
        "parts": parts,
        "mode": int(values[counts.argmax()]),
        "dist": pd.DataFrame(rows),
    }


def main(out_dir=None, scale: float = 1.0, workers: int = 2, engines=ENGINE_NAMES):
    """Distribution of the table bid total at a table of four counting players, per play engine."""
    exp = Experiment(NAME, out_dir, scale, workers, engines, GAMES)
    out = exp.out
    m = {e.name: measure(exp, e) for e in exp.engines}
    pd.concat([r["dist"] for r in m.values()], ignore_index=True).to_csv(out / "bid_totals.csv", index=False)
    summary = pd.concat([figures_frame({r["player"]: r["figs"]}, engine=k) for k, r in m.items()]
                        + [pd.DataFrame([{"engine": k, "entrant": r["player"], "figure": f, "value": v}
                                         for f, v in [*r["parts"].items(), ("hands", r["hands"]), ("games", r["games"]),
                                                      ("most_common_total", r["mode"])]])
                           for k, r in m.items()], ignore_index=True)  # fmt: skip
    summary.to_csv(out / "summary.csv", index=False)

    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.8 / len(m)
    colours = {"tips": "tab:gray", "expert": "tab:blue", "pimc": "tab:purple"}
    for i, (k, r) in enumerate(m.items()):
        d = r["dist"]
        err = np.vstack([d["share"] - d["share_lo"], d["share_hi"] - d["share"]]) * 100
        share = r["figs"]["share_10_to_12"].value
        ax.bar(d["bid_total"] + (i - (len(m) - 1) / 2) * width, d["share"] * 100, width=width, yerr=err, capsize=1,
               color=colours.get(k), label=f"{k}: 10-12 on {share:.1%} ({r['hands']:,} hands)")  # fmt: skip
    ax.axvspan(9.5, 12.5, color="tab:green", alpha=0.1, label="the sheet's 10-12")
    ax.set_xlabel("table bid total (four bids, nil = 0)")
    ax.set_ylabel("share of hands (%)")
    ax.set_title("Four counting players per table, by play engine")
    ax.legend(fontsize=8)
    plot = save_figure(fig, out / "bid_totals.png")

    def agrees(r: dict) -> str:
        share, ge13 = r["figs"]["share_10_to_12"], r["figs"]["share_13_or_more"]
        return "agrees" if share.value > 0.5 and ge13.value < share.value else "does not agree"

    claims = [
        Claim("the table bids 10-12 on most hands", "share of hands with total 10, 11 or 12",
              {k: (r["figs"]["share_10_to_12_clustered_by_game"], agrees(r)) for k, r in m.items()}, 1, percent=True),
        Claim("13 or more is rare", "share of hands with total 13 or more",
              {k: (r["figs"]["share_13_or_more"], "rare (< 10%)" if r["figs"]["share_13_or_more"].hi < 0.1
                   else "not rare") for k, r in m.items()}, 1, percent=True),
    ]  # fmt: skip
    answer = answer_per_engine(claims)

    def row(label: str, key: str, digits: int = 2, pct: bool = True) -> str:
        cells = [m[k]["figs"][key].fmt(digits, percent=pct) for k in m]
        return f"| {label} | " + " | ".join(cells) + " |"

    shown = pd.concat([r["dist"] for r in m.values()]).pivot_table(index="bid_total", columns="engine", values="share")
    shown = shown.reset_index()[["bid_total", *[k for k in m if k in shown.columns]]].fillna(0.0)
    parts_rows = "\n".join(
        f"| {label} | " + " | ".join(fmt.format(m[k]["parts"][key]) for k in m) + " |"
        for label, key, fmt in [("the four counts (halves included)", "exact_count_total", "{:.2f}"),
                                ("the counts rounded down", "floor_count_total", "{:.2f}"),
                                ("added by the 1-trick minimum", "minimum_bid_added", "{:.2f}"),
                                ("added by bag-aware rounding at 9 bags", "bag_aware_added", "{:.3f}"),
                                ("numeric bids raised to 1", "bids_at_minimum", "{:.1%}"),
                                ("nil bids per hand", "nil_bids_per_hand", "{:.3f}")])  # fmt: skip
    body = f"""Tables of four counting players (`counting+ENGINE`: the sheet's count, nil rule and bag-aware rounding)
playing complete games; intervals 95%, Wilson over hands unless marked clustered (each game one observation):

| figure | {" | ".join(f"`{m[k]['player']}`" for k in m)} |
|---|{"---|" * len(m)}
| hands (games) | {" | ".join(f"{m[k]['hands']:,} ({m[k]['games']:,})" for k in m)} |
{row("share with total 10, 11 or 12", "share_10_to_12")}
{row("the same, clustered by game", "share_10_to_12_clustered_by_game")}
{row("share below 10", "share_below_10")}
{row("share exactly 13", "share_13")}
{row("share 13 or more", "share_13_or_more")}
{row("share 14 or more", "share_14_or_more")}
{row("mean table bid total (clustered)", "mean_table_bid_total", 3, False)}
| most common total | {" | ".join(str(m[k]["mode"]) for k in m)} |

Share of hands per total ([`bid_totals.csv`](bid_totals.csv) has the intervals):

{markdown_table(shown, "{:.2%}")}

Where the total comes from (means per hand; nil seats count 0):

| part | {" | ".join(m)} |
|---|{"---|" * len(m)}
{parts_rows}

**What it means.** The bid is the count: the play engine changes the totals only through the game state (scores,
bags: the bag-aware rule) and through which games last longer, so the verdict should not depend on the engine,
and the table above checks it. The sheet says a normal table's four bids total 10, 11 or 12 and that a table
bidding 13 or 14 "regularly" has an overbidder. Compare the set rates in
[optimist_sets](../optimist_sets/README.md): how often a side bidding this way is set."""
    setup = (f"Per engine, one tournament of complete games (standard rules: 500 to win, 10 bags cost 100, nil ±100; "
             f"games stopped at {RULES.hand_cap} hands count as unfinished), four `counting+ENGINE` seats (the second "
             "partnership is the same player under another label; games split between the two seatings), seed from "
             f"`common.SEED`. {exp.budgets('games')}")  # fmt: skip
    write_readme(out, title="Do counting bids total 10, 11 or 12?",
                 question="Do the four bids of counting players total 10, 11 or 12, not 13?",
                 claim="\"Vérification de bon sens : à une table normale, les quatre annonces totalisent dix, onze ou "
                       "douze, pas treize.\" (at a normal table the four bids total 10, 11 or 12, not 13.)",
                 answer=answer, body=body, cmd=exp.command, setup=setup, seconds=exp.timer.seconds,
                 plots=[plot.name], csvs=["bid_totals.csv", "summary.csv"],
                 verdicts=verdict_section(claims, exp.engines))  # fmt: skip
    return out


if __name__ == "__main__":
    cli(NAME, main)
