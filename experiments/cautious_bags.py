"""Does the cautious bidder (-1) cost its side about 100 points of bag penalties per game?

Two duplicate tournaments against counting+tips, all playing the sheet's tips:
- partnership: cautious+tips, both partners bidding their count minus one (never below 1);
- one cautious player: the sheet's literal case, one player taking a trick off beside a partner
  who bids the count (a mixed partnership: cautious on the side's first seat, counting on its second).
Bag penalty points are 100 per penalty (10 bags). The paired difference compares, deal by deal,
the cautious side's penalty points (averaged over its two seatings) with the counting side's.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from common import (
    RULES,
    Timer,
    cli,
    command,
    out_path,
    save_figure,
    scaled,
    shifted_bidder_runs,
    write_readme,
)

NAME = "cautious_bags"
GAMES = 6_000
COUNTING = "counting+tips"
CAUTIOUS = "cautious+tips"
ONE = "cautious/counting+tips"
SHEET = 100.0
CLOSE = 10.0
"""A measured cost within this many points of 100 counts as "about 100"."""


def main(out_dir=None, scale: float = 1.0, workers: int = 2):
    """Bag penalty points per game of cautious bidders against counting+tips (duplicate games)."""
    timer = Timer()
    out = out_path(NAME, out_dir)
    games = scaled(GAMES, scale)
    shifted = shifted_bidder_runs(CAUTIOUS, ONE, "one cautious", out, games, workers, COUNTING)
    runs, who, figs, paired, frame = shifted.runs, shifted.who, shifted.figs, shifted.paired, shifted.frame
    frame.to_csv(out / "cautious_bags.csv", index=False)

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5), gridspec_kw={"width_ratios": [2, 1]})
    labels, vals, errs, colours = [], [], [], []
    for k in runs:
        for name, colour in ((who[k], "tab:orange"), (COUNTING, "tab:blue")):
            e = figs[k][name]["bag_penalty_points_per_game"]
            labels.append(f"{'cautious' if name != COUNTING else 'counting'}\n({k})")
            vals.append(e.value)
            errs.append((e.value - e.lo, e.hi - e.value))
            colours.append(colour)
    x = np.arange(len(vals))
    ax1.bar(x, vals, yerr=np.array(errs).T, capsize=4, color=colours)
    for xi, v in zip(x, vals):
        ax1.text(xi, v + 2, f"{v:.0f}", ha="center")
    ax1.set_xticks(x, labels)
    ax1.set_ylabel("bag penalty points per game")
    ax1.set_title("Bag penalties per game, by side")
    d = [paired[k]["penalty_points_diff"] for k in runs]
    ax2.bar(np.arange(len(d)), [e.value for e in d], yerr=np.array([(e.value - e.lo, e.hi - e.value) for e in d]).T,
            capsize=4, color="tab:orange")  # fmt: skip
    ax2.axhline(SHEET, color="k", ls="--", lw=1, label="the sheet: 100 points")
    ax2.set_xticks(np.arange(len(d)), list(runs))
    ax2.set_ylabel("cautious minus counting, points per game")
    ax2.set_title("Paired difference per deal")
    ax2.set_ylim(0, max(SHEET, max(e.hi for e in d)) * 1.2)
    ax2.legend(loc="upper right")
    plot = save_figure(fig, out / "cautious_bags.png")

    def verdict(e) -> str:
        if abs(e.value - SHEET) <= CLOSE:
            return f"about the sheet's {SHEET:.0f}"
        return f"{'more' if e.value > SHEET else 'less'} than the sheet's {SHEET:.0f}"

    def outcome(e) -> str:
        if e.lo > 0:
            return "the cautious side wins more often than counting despite the bags"
        if e.hi < 0:
            return "the cautious side loses more often than counting"
        return "no clear difference in winning"

    outcomes = {k: outcome(paired[k]["win_diff"]) for k in runs}
    if len(set(outcomes.values())) == 1:
        both_outcomes = f"in both matchups {outcomes['partnership']}"
    else:
        both_outcomes = f"for the partnership {outcomes['partnership']}; for one player {outcomes['one cautious']}"
    dp, do = paired["partnership"]["penalty_points_diff"], paired["one cautious"]["penalty_points_diff"]
    answer = (f"A cautious partnership pays {dp.value:.0f} more points of bag penalties per game than counting+tips on "
              f"the same deals (95% CI {dp.lo:.0f} to {dp.hi:.0f}); one cautious player beside a counting partner "
              f"{do.value:.0f} more ({do.lo:.0f} to {do.hi:.0f}): {verdict(dp)} for the partnership, "
              f"{verdict(do)} for one player.")  # fmt: skip

    def row(k, name, side):
        f = figs[k][name]
        return (f"| {k} | {side} | {f['bag_penalty_points_per_game'].fmt(1)} | {f['bags_per_hand'].value:.3f} | "
                f"{f['set_rate'].value:.1%} | {f['hands_per_game'].value:.1f} | {f['points_per_hand'].value:.1f} | "
                f"{f['win_rate'].fmt(1, percent=True)} |")  # fmt: skip

    def prow(k):
        p = paired[k]
        return (f"| {k} | {p['penalty_points_diff'].n:,} | {p['penalty_points_diff'].fmt(1, signed=True)} | "
                f"{p['win_diff'].fmt(1, percent=True, signed=True)} | {p['margin'].fmt(0, signed=True)} |")

    pc, pp = figs["partnership"][CAUTIOUS], figs["partnership"][COUNTING]
    body = f"""Per side (mean over its games, with the interval over games):

| matchup | side | bag penalty points per game | bags per hand | sets per hand | hands per game | points per hand | win rate |
|---|---|---|---|---|---|---|---|
{row("partnership", CAUTIOUS, "cautious")}
{row("partnership", COUNTING, "counting")}
{row("one cautious", ONE, "cautious + counting partner")}
{row("one cautious", COUNTING, "counting")}

Paired over deals (each game id played in both seatings; cautious side minus counting side, each averaged over its
two tables):

| matchup | deals | bag penalty points per game | win rate | final margin (points) |
|---|---|---|---|---|
{prow("partnership")}
{prow("one cautious")}

**What it means.** Bidding one trick under the count does pile up bags: the cautious partnership takes
{pc['bags_per_hand'].value:.2f} bags per hand against {pp['bags_per_hand'].value:.2f} for counting at the same tables and
pays {dp.value:.0f} more penalty points per game ({verdict(dp)}); one cautious player pays {do.value:.0f} more
({verdict(do)}). Bags are not the whole story, though: bidding under the count also avoids sets (the cautious
partnership is set on {pc['set_rate'].value:.1%} of hands, counting on {pp['set_rate'].value:.1%} at the same tables), and
over whole games the cautious partnership's paired win rate difference is {paired['partnership']['win_diff'].fmt(1, percent=True, signed=True)}
and one cautious player's {paired['one cautious']['win_diff'].fmt(1, percent=True, signed=True)}: {both_outcomes}.
See [bid_totals](../bid_totals/README.md) for how high the counting bids run. ("About 100" here means within
{CLOSE:.0f} points of 100.)"""
    cmd = command(NAME, scale, out_dir, workers)
    setup = (f"Two duplicate tournaments of {games:,} deals each (every game id played twice with the partnerships "
             f"swapped, so {2 * games:,} games per tournament), standard rules (10 bags cost {RULES.bag_penalty} "
             f"points), games stopped at {RULES.hand_cap} hands. `{ONE}` is a partnership whose first seat bids "
             "`cautious` and whose second seat bids `counting`, both playing `tips`.")  # fmt: skip
    write_readme(out, title="Does the cautious bidder cost 100 points of bags per game?",
                 question="Does the cautious bidder (-1) cost its side about 100 points of bag penalties per game?",
                 claim="\"Un joueur qui en retire un par prudence coûte cent points de bags à son camp d'ici la fin de "
                       "la partie\" (a player who takes one off out of caution costs his side a hundred points of bags "
                       "by the end of the game).",
                 answer=answer, body=body, cmd=cmd, setup=setup, seconds=timer.seconds, plots=[plot.name],
                 csvs=["cautious_bags.csv"])  # fmt: skip
    return out


if __name__ == "__main__":
    cli(NAME, main)
