"""Do the four bids of counting players total 10, 11 or 12, not 13?

Four counting+tips players (the sheet's count, nil rule and bag-aware rounding, the sheet's play)
play complete games; every hand's table bid total (the four bids, a nil counting 0) is tallied.
The tournament needs two entrant names, so the second partnership is the same player under
another label; games are split between the two seatings, not duplicated (they would be identical).
"""

from __future__ import annotations

import dataclasses

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import (
    RULES,
    Timer,
    cli,
    command,
    markdown_table,
    out_path,
    ratio_estimate,
    run_tournament,
    save_figure,
    scaled,
    wilson_estimate,
    write_readme,
)

from spades_lab.policies import make_player
from spades_lab.policies.counting import count_tricks_batch

NAME = "bid_totals"
GAMES = 20_000
PLAYER = "counting+tips"
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


def main(out_dir=None, scale: float = 1.0, workers: int = 2):
    """Distribution of the table bid total at a table of four counting+tips players."""
    timer = Timer()
    out = out_path(NAME, out_dir)
    games = scaled(GAMES, scale)
    mirror = dataclasses.replace(make_player(PLAYER), label=f"{PLAYER} (second partnership)")
    result = run_tournament([PLAYER, mirror], out / "run", workers=workers, games=games)
    hands = pd.read_parquet(result.out / "hands", columns=["seating", "game", *BIDS, *DEALS])
    bids = hands[BIDS].to_numpy()
    total = bids.sum(axis=1)
    n = len(total)
    parts = bid_parts(bids, hands[DEALS].to_numpy(dtype=np.uint64))

    counts = np.bincount(total, minlength=53)
    values = np.arange(counts.size)
    present = values[(values >= total.min()) & (values <= total.max())]
    rows = []
    for v in present:
        e = wilson_estimate(counts[v], n)
        rows.append({"bid_total": int(v), "hands": int(counts[v]), "share": e.value, "share_lo": e.lo, "share_hi": e.hi,
                     "cumulative": counts[: v + 1].sum() / n})  # fmt: skip
    dist = pd.DataFrame(rows)
    dist.to_csv(out / "bid_totals.csv", index=False)

    in_sheet = np.isin(total, SHEET)
    share = wilson_estimate(in_sheet.sum(), n)
    per_game = pd.DataFrame({"seating": hands["seating"], "game": hands["game"], "in": in_sheet,
                             "ge13": total >= 13, "ge14": total >= 14, "total": total, "one": 1})  # fmt: skip
    per_game = per_game.groupby(["seating", "game"]).sum()
    share_clustered = ratio_estimate(per_game["in"], per_game["one"])
    ge13 = wilson_estimate((total >= 13).sum(), n)
    ge14 = wilson_estimate((total >= 14).sum(), n)
    below = wilson_estimate((total < 10).sum(), n)
    mean = ratio_estimate(per_game["total"], per_game["one"])
    mode = int(values[counts.argmax()])
    exactly13 = wilson_estimate(counts[13], n)
    summary = pd.DataFrame([
        {"figure": "hands", "value": n, "lo": np.nan, "hi": np.nan},
        {"figure": "games", "value": len(per_game), "lo": np.nan, "hi": np.nan},
        {"figure": "share_10_to_12", "value": share.value, "lo": share.lo, "hi": share.hi},
        {"figure": "share_10_to_12_clustered_by_game", "value": share_clustered.value, "lo": share_clustered.lo,
         "hi": share_clustered.hi},
        {"figure": "share_below_10", "value": below.value, "lo": below.lo, "hi": below.hi},
        {"figure": "share_13", "value": exactly13.value, "lo": exactly13.lo, "hi": exactly13.hi},
        {"figure": "share_13_or_more", "value": ge13.value, "lo": ge13.lo, "hi": ge13.hi},
        {"figure": "share_14_or_more", "value": ge14.value, "lo": ge14.lo, "hi": ge14.hi},
        {"figure": "mean_table_bid_total", "value": mean.value, "lo": mean.lo, "hi": mean.hi},
        {"figure": "most_common_total", "value": mode, "lo": np.nan, "hi": np.nan},
        *({"figure": k, "value": v, "lo": np.nan, "hi": np.nan} for k, v in parts.items()),
    ])  # fmt: skip
    summary.to_csv(out / "summary.csv", index=False)

    fig, ax = plt.subplots(figsize=(8, 4.5))
    colours = ["tab:green" if v in SHEET else ("tab:red" if v >= 13 else "tab:gray") for v in dist["bid_total"]]
    err = np.vstack([dist["share"] - dist["share_lo"], dist["share_hi"] - dist["share"]]) * 100
    ax.bar(dist["bid_total"], dist["share"] * 100, color=colours, yerr=err, capsize=2)
    ax.set_xlabel("table bid total (four bids, nil = 0)")
    ax.set_ylabel("share of hands (%)")
    ax.set_title(f"Four {PLAYER} players, {n:,} hands of {len(per_game):,} games\n"
                 f"green: the sheet's 10-12 ({share.value:.1%}); red: 13 or more ({ge13.value:.1%})")  # fmt: skip
    ax.set_xticks(dist["bid_total"])
    plot = save_figure(fig, out / "bid_totals.png")

    agrees = share.value > 0.5 and ge13.value < share.value
    verdict = "agrees with" if agrees else "does not agree with"
    answer = (f"{share.value:.1%} of hands (95% CI {share.lo:.1%} to {share.hi:.1%}) have a table bid total of 10, 11 "
              f"or 12; {ge13.value:.1%} ({ge13.lo:.1%} to {ge13.hi:.1%}) total 13 or more; mean total {mean.value:.2f}, "
              f"most common {mode}. The simulation {verdict} the sheet's sanity check.")  # fmt: skip
    shown = dist.assign(share=dist["share"].map("{:.2%}".format), share_lo=dist["share_lo"].map("{:.2%}".format),
                        share_hi=dist["share_hi"].map("{:.2%}".format),
                        cumulative=dist["cumulative"].map("{:.2%}".format))  # fmt: skip
    body = f"""Over {n:,} hands ({len(per_game):,} complete games) at tables of four `{PLAYER}` players:

| figure | value | 95% interval |
|---|---|---|
| share of hands with total 10, 11 or 12 | {share.value:.2%} | {share.lo:.2%} to {share.hi:.2%} (Wilson); {share_clustered.lo:.2%} to {share_clustered.hi:.2%} (clustered by game) |
| share below 10 | {below.value:.2%} | {below.lo:.2%} to {below.hi:.2%} |
| share exactly 13 | {exactly13.value:.2%} | {exactly13.lo:.2%} to {exactly13.hi:.2%} |
| share 13 or more | {ge13.value:.2%} | {ge13.lo:.2%} to {ge13.hi:.2%} |
| share 14 or more | {ge14.value:.2%} | {ge14.lo:.2%} to {ge14.hi:.2%} |
| mean table bid total | {mean.value:.3f} | {mean.lo:.3f} to {mean.hi:.3f} (clustered by game) |
| most common total | {mode} | |

Distribution ([`bid_totals.csv`](bid_totals.csv)):

{markdown_table(shown)}

Where the total comes from (means per hand over the same hands; nil seats count 0): the four counts
(halves included) add up to {parts["exact_count_total"]:.2f}, rounded down {parts["floor_count_total"]:.2f}; the rule "a count
below 1 bids 1" adds {parts["minimum_bid_added"]:.2f} ({parts["bids_at_minimum"]:.1%} of numeric bids are raised to 1) and
bag-aware rounding at nine bags adds {parts["bag_aware_added"]:.3f}, for the mean total of {mean.value:.2f}. Without the
1-trick minimum and the bag-aware rule, the rounded-down counts alone would total 10 to 12 on
{parts["floor_total_in_10_12"]:.1%} of hands and 13 or more on {parts["floor_total_13_or_more"]:.1%}. Nil is bid
{parts["nil_bids_per_hand"]:.3f} times per hand.

**What it means.** The sheet says a normal table's four bids total 10, 11 or 12 and that a table bidding 13 or 14
"regularly" has an overbidder. Bidding exactly as the sheet counts, the table bids 10 to 12 on {share.value:.0%} of hands
and 13 or more on {ge13.value:.0%}: {"the sanity check holds for the sheet's own count" if agrees else "by the sheet's own test, its count overbids"}.
Compare the set rates in [optimist_sets](../optimist_sets/README.md): how often a side bidding this way is set."""
    cmd = command(NAME, scale, out_dir, workers)
    setup = (f"{games:,} complete games (standard rules: 500 to win, 10 bags cost 100, nil ±100; games stopped at "
             f"{RULES.hand_cap} hands count as unfinished), four `{PLAYER}` seats, seed from `common.SEED`; the "
             "Wilson interval treats hands as independent, the clustered one treats each game as one observation.")  # fmt: skip
    write_readme(out, title="Do counting bids total 10, 11 or 12?",
                 question="Do the four bids of counting players total 10, 11 or 12, not 13?",
                 claim="\"Vérification de bon sens : à une table normale, les quatre annonces totalisent dix, onze ou "
                       "douze, pas treize.\" (at a normal table the four bids total 10, 11 or 12, not 13.)",
                 answer=answer, body=body, cmd=cmd, setup=setup, seconds=timer.seconds, plots=[plot.name],
                 csvs=["bid_totals.csv", "summary.csv"])  # fmt: skip
    return out


if __name__ == "__main__":
    cli(NAME, main)
