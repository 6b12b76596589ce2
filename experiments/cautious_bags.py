"""Does the cautious bidder (-1) cost its side about 100 points of bag penalties per game?

Per play engine (tips, expert, pimc), two duplicate tournaments against counting, every seat playing it:
- partnership: cautious, both partners bidding their count minus one (never below 1);
- one cautious player: the sheet's literal case, one player taking a trick off beside a partner
  who bids the count (a mixed partnership: cautious on the side's first seat, counting on its second).
Bag penalty points are 100 per penalty (10 bags). The paired difference compares, deal by deal,
the cautious side's penalty points (averaged over its two seatings) with the counting side's.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import (
    ENGINE_NAMES,
    ENGINES,
    RULES,
    Claim,
    Engine,
    Experiment,
    ShiftedRuns,
    answer_per_engine,
    cli,
    save_figure,
    shifted_bidder_runs,
    sign,
    verdict_section,
    write_readme,
)

NAME = "cautious_bags"
GAMES = {"tips": 3_000, "expert": 3_000, "pimc": 50}
"""Games (or duplicate deals) per tournament at scale 1, per play engine: the machine is 2 shared cores, so
the budget of the whole `make experiments` is about half an hour; pimc is the expensive one."""
SHEET = 100.0
CLOSE = 10.0
"""A measured cost within this many points of 100 counts as "about 100"."""


def verdict(e) -> str:
    """About 100 when the interval reaches 100 +- CLOSE; else more or less than 100."""
    if e.hi >= SHEET - CLOSE and e.lo <= SHEET + CLOSE:
        return f"about {SHEET:.0f}"
    return f"{'more' if e.lo > SHEET else 'less'} than {SHEET:.0f}"


def engine_section(engine: Engine, sh: ShiftedRuns) -> str:
    """The per-engine tables (the numbers behind one column of the verdict table)."""
    figs, paired, who, counting = sh.figs, sh.paired, sh.who, sh.counting

    def row(k, name, side):
        f = figs[k][name]
        return (f"| {k} | {side} | {f['bag_penalty_points_per_game'].fmt(1)} | {f['bags_per_hand'].value:.3f} | "
                f"{f['set_rate'].value:.1%} | {f['hands_per_game'].value:.1f} | {f['points_per_hand'].value:.1f} | "
                f"{f['win_rate'].fmt(1, percent=True)} |")  # fmt: skip

    def prow(k):
        q = paired[k]
        return (
            f"| {k} | {q['penalty_points_diff'].n:,} | {q['penalty_points_diff'].fmt(1, signed=True)} | "
            f"{q['win_diff'].fmt(1, percent=True, signed=True)} | {q['margin'].fmt(0, signed=True)} |"
        )

    return f"""### `{engine.play}`

Per side (mean over its games, with the interval over games):

| matchup | side | bag penalty points per game | bags per hand | sets per hand | hands per game | points per hand | win rate |
|---|---|---|---|---|---|---|---|
{row("partnership", who["partnership"], "cautious")}
{row("partnership", counting, "counting")}
{row("one cautious", who["one cautious"], "cautious + counting partner")}
{row("one cautious", counting, "counting")}

Paired over deals (cautious side minus counting side, each averaged over its two tables):

| matchup | deals | bag penalty points per game | win rate | final margin (points) |
|---|---|---|---|---|
{prow("partnership")}
{prow("one cautious")}"""


def main(out_dir=None, scale: float = 1.0, workers: int = 2, engines=ENGINE_NAMES):
    """Bag penalty points per game of cautious bidders against counting (duplicate games), per play engine."""
    exp = Experiment(NAME, out_dir, scale, workers, engines, GAMES)
    out = exp.out
    runs = {e.name: shifted_bidder_runs(exp, e, "cautious", "one cautious", exp.games(e)) for e in exp.engines}
    pd.concat([r.frame for r in runs.values()], ignore_index=True).to_csv(out / "cautious_bags.csv", index=False)

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    keys = ["partnership", "one cautious"]
    width = 0.8 / len(runs)
    colours = {"tips": "tab:gray", "expert": "tab:blue", "pimc": "tab:purple"}
    for i, (k, sh) in enumerate(runs.items()):
        for ax, figure in ((ax1, "penalty_points_diff"), (ax2, "win_diff")):
            es = [sh.paired[m][figure] for m in keys]
            scale_ = 100 if figure == "win_diff" else 1
            ax.bar(np.arange(len(keys)) + (i - (len(runs) - 1) / 2) * width, [e.value * scale_ for e in es],
                   width=width, color=colours.get(k), label=k, capsize=3,
                   yerr=np.array([(e.value - e.lo, e.hi - e.value) for e in es]).T * scale_)  # fmt: skip
    ax1.axhline(SHEET, color="k", ls="--", lw=1, label="the sheet: 100 points")
    ax1.set_ylabel("cautious minus counting, bag penalty points per game")
    ax1.set_title("Bag penalties: paired difference per deal", fontsize=10)
    ax2.axhline(0, color="k", lw=0.8)
    ax2.set_ylabel("cautious minus counting, win rate (% points)")
    ax2.set_title("Win rate: paired difference per deal", fontsize=10)
    for ax in (ax1, ax2):
        ax.set_xticks(np.arange(len(keys)), keys)
        ax.legend(fontsize=8)
    plot = save_figure(fig, out / "cautious_bags.png")

    claims = [
        Claim("a cautious partnership pays about 100 points of bags per game", "bag penalty points per game, cautious "
              "partnership minus counting (paired)", {k: (sh.paired["partnership"]["penalty_points_diff"],
              verdict(sh.paired["partnership"]["penalty_points_diff"])) for k, sh in runs.items()}, 0, signed=True),
        Claim("one cautious player pays about 100 points of bags per game", "the same, one cautious player beside a "
              "counting partner", {k: (sh.paired["one cautious"]["penalty_points_diff"],
              verdict(sh.paired["one cautious"]["penalty_points_diff"])) for k, sh in runs.items()}, 0, signed=True),
        Claim("caution loses games (partnership)", "win rate, cautious partnership minus counting (paired)",
              {k: (sh.paired["partnership"]["win_diff"], sign(sh.paired["partnership"]["win_diff"], "cautious wins more",
                   "cautious loses more")) for k, sh in runs.items()}, 1, percent=True, signed=True),
        Claim("caution loses games (one player)", "win rate, one cautious player's side minus counting (paired)",
              {k: (sh.paired["one cautious"]["win_diff"], sign(sh.paired["one cautious"]["win_diff"],
                   "cautious wins more", "cautious loses more")) for k, sh in runs.items()}, 1, percent=True,
              signed=True),
    ]  # fmt: skip
    answer = answer_per_engine(claims[:1] + claims[2:3])
    body = (
        "\n\n".join(engine_section(ENGINES[k], sh) for k, sh in runs.items())
        + f"""

**What it means.** Bidding one trick under the count piles up bags, but it also avoids sets: the sheet's
question is about bags, the win rate rows say whether the trade pays. A finding that holds under `tips` play only
is a finding about that player: `expert` and `pimc` take tricks that tips gives away, which moves both the sets a
counting bid suffers and the bags a cautious one collects. See [bid_totals](../bid_totals/README.md) for how high
the counting bids run. ("About 100" here means within {CLOSE:.0f} points of 100.)"""
    )
    setup = (f"Per play engine, two duplicate tournaments (every game id played twice with the partnerships swapped), "
             f"standard rules (10 bags cost {RULES.bag_penalty} points), games stopped at {RULES.hand_cap} hands: "
             "`cautious+ENGINE` against `counting+ENGINE`, and `cautious/counting+ENGINE`, a partnership whose first "
             "seat bids `cautious` and whose second bids `counting`, both playing the engine, against "
             f"`counting+ENGINE`. {exp.budgets('deals')}")  # fmt: skip
    write_readme(out, title="Does the cautious bidder cost 100 points of bags per game?",
                 question="Does the cautious bidder (-1) cost its side about 100 points of bag penalties per game?",
                 claim="\"Un joueur qui en retire un par prudence coûte cent points de bags à son camp d'ici la fin de "
                       "la partie\" (a player who takes one off out of caution costs his side a hundred points of bags "
                       "by the end of the game).",
                 answer=answer, body=body, cmd=exp.command, setup=setup, seconds=exp.timer.seconds,
                 plots=[plot.name], csvs=["cautious_bags.csv"], verdicts=verdict_section(claims, exp.engines))  # fmt: skip
    return out


if __name__ == "__main__":
    cli(NAME, main)
