"""Does the optimist (+1) set its side about one hand in three?

Per play engine (tips, expert, pimc), two duplicate tournaments against counting, every seat playing it:
- partnership: optimist, both partners bidding their count plus one;
- one optimist: the sheet's literal case, one player adding a trick beside a partner who bids the
  count (a mixed partnership: the optimist on the side's first seat, counting on its second).
The set rate is sets per hand (a hand where the side's contract was not made), for the optimist
side and for the counting side at the same tables.
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

NAME = "optimist_sets"
GAMES = {"tips": 2_000, "expert": 2_000, "pimc": 100}
"""Games (or duplicate deals) per tournament at scale 1, per play engine: the machine is 2 shared cores, so
the budget of the whole `make experiments` is about half an hour; pimc is the expensive one."""
SHEET = 1 / 3
CLOSE = 0.05
"""A set rate within 5 percentage points of 1/3 counts as "about one hand in three"."""


def verdict(e) -> str:
    """About one in three when the interval reaches SHEET +- CLOSE; else above or below it."""
    if e.hi >= SHEET - CLOSE and e.lo <= SHEET + CLOSE:
        return "about one in three"
    return "above one in three" if e.lo > SHEET else "below one in three"


def engine_section(engine: Engine, sh: ShiftedRuns) -> str:
    """The per-engine tables (the numbers behind one column of the verdict table)."""
    figs, paired, counting = sh.figs, sh.paired, sh.counting
    p_opt, p_cnt = figs["partnership"][sh.who["partnership"]], figs["partnership"][counting]
    o_opt, o_cnt = figs["one optimist"][sh.who["one optimist"]], figs["one optimist"][counting]

    def rows(label, e_opt, e_cnt):
        return "\n".join(f"| {label} | {side} | {e['set_rate'].value:.2%} | {e['set_rate'].lo:.2%} to {e['set_rate'].hi:.2%} | "
                         f"{e['set_rate_clustered'].lo:.2%} to {e['set_rate_clustered'].hi:.2%} | "
                         f"{e['set_rate_per_contract'].value:.2%} | {e['hands_per_game'].value:.1f} | "
                         f"{e['win_rate'].fmt(1, percent=True)} | {e['points_per_hand'].value:.1f} | {e['unfinished'].value:.1%} |"
                         for side, e in (("optimist side", e_opt), ("counting side", e_cnt)))  # fmt: skip

    def prow(k):
        q = paired[k]
        return (
            f"| {k} | {q['win_diff'].n:,} | {q['win_diff'].fmt(1, percent=True, signed=True)} | "
            f"{q['margin'].fmt(0, signed=True)} | {q['sets_per_game_diff'].fmt(2, signed=True)} |"
        )

    return f"""### `{engine.play}`

| matchup | side | sets per hand | 95% CI (Wilson, hands) | 95% CI (clustered by game) | sets per contract | hands per game | win rate | points per hand | unfinished |
|---|---|---|---|---|---|---|---|---|---|
{rows("optimist partnership vs counting", p_opt, p_cnt)}
{rows("one optimist + counting partner vs counting", o_opt, o_cnt)}

Paired over deals (each game id played in both seatings; optimist side minus counting side):

| matchup | deals | win rate difference | final margin (points) | sets per game difference |
|---|---|---|---|---|
{prow("partnership")}
{prow("one optimist")}

With `{engine.play}` play the optimist's extra trick raises the set rate by
{(o_opt["set_rate"].value - o_cnt["set_rate"].value) * 100:.1f} points with one optimist and by
{(p_opt["set_rate"].value - p_cnt["set_rate"].value) * 100:.1f} points with two (a +2 contract)."""


def main(out_dir=None, scale: float = 1.0, workers: int = 2, engines=ENGINE_NAMES):
    """Set rate per hand of optimist bidders against counting (duplicate games), per play engine."""
    exp = Experiment(NAME, out_dir, scale, workers, engines, GAMES)
    out = exp.out
    runs = {e.name: shifted_bidder_runs(exp, e, "optimist", "one optimist", exp.games(e)) for e in exp.engines}
    pd.concat([r.frame for r in runs.values()], ignore_index=True).to_csv(out / "optimist_sets.csv", index=False)

    fig, axes = plt.subplots(1, len(runs), figsize=(4.2 * len(runs), 4.5), sharey=True, squeeze=False)
    top = 0.0
    for ax, (k, sh) in zip(axes[0], runs.items()):
        f = sh.figs
        bars = [("optimist\npartnership", f["partnership"][sh.who["partnership"]]),
                ("counting\n(vs partnership)", f["partnership"][sh.counting]),
                ("one optimist\n+ counting", f["one optimist"][sh.who["one optimist"]]),
                ("counting\n(vs one)", f["one optimist"][sh.counting])]  # fmt: skip
        x = np.arange(len(bars))
        vals = np.array([b[1]["set_rate"].value for b in bars]) * 100
        err = np.array([[b[1]["set_rate_clustered"].value - b[1]["set_rate_clustered"].lo,
                         b[1]["set_rate_clustered"].hi - b[1]["set_rate_clustered"].value] for b in bars]).T * 100  # fmt: skip
        ax.bar(x, vals, yerr=err, capsize=4, color=["tab:red", "tab:blue", "tab:orange", "tab:blue"])
        for xi, v in zip(x, vals):
            ax.text(xi, v + 1.5, f"{v:.1f}%", ha="center", fontsize=8)
        ax.axhline(SHEET * 100, color="k", ls="--", lw=1, label="the sheet: one hand in three")
        ax.set_xticks(x, [b[0] for b in bars], fontsize=8)
        ax.set_title(f"{k} play", fontsize=10)
        top = max(top, float(vals.max()))
    axes[0][0].set_ylabel("sets per hand (%)")
    axes[0][0].set_ylim(0, top * 1.15)
    axes[0][0].legend(loc="upper right", fontsize=8)
    fig.suptitle("Set rate per hand, duplicate games against counting, per play engine", fontsize=10)
    plot = save_figure(fig, out / "optimist_sets.png")

    one = {k: sh.figs["one optimist"][sh.who["one optimist"]] for k, sh in runs.items()}
    base = {k: sh.figs["one optimist"][sh.counting] for k, sh in runs.items()}
    claims = [
        Claim("one optimist sets its side about one hand in three", "sets per hand, one optimist beside a counting partner",
              {k: (one[k]["set_rate_clustered"], verdict(one[k]["set_rate_clustered"])) for k in runs}, 1, percent=True),
        Claim("counting itself is set", "sets per hand of the counting side at the same tables",
              {k: (base[k]["set_rate_clustered"], verdict(base[k]["set_rate_clustered"])) for k in runs}, 1, percent=True),
        Claim("the extra trick raises the set rate", "sets per game, one optimist minus counting (paired)",
              {k: (sh.paired["one optimist"]["sets_per_game_diff"], sign(sh.paired["one optimist"]["sets_per_game_diff"],
                   "raises it", "lowers it")) for k, sh in runs.items()}, 2, signed=True),
        Claim("the optimist loses", "win rate, one optimist side minus counting (paired)",
              {k: (sh.paired["one optimist"]["win_diff"], sign(sh.paired["one optimist"]["win_diff"], "wins more",
                   "loses more")) for k, sh in runs.items()}, 1, percent=True, signed=True),
        Claim("an optimist partnership loses", "win rate, optimist partnership minus counting (paired)",
              {k: (sh.paired["partnership"]["win_diff"], sign(sh.paired["partnership"]["win_diff"], "wins more",
                   "loses more")) for k, sh in runs.items()}, 1, percent=True, signed=True),
    ]  # fmt: skip
    answer = answer_per_engine(claims[:1] + claims[3:4])
    body = (
        "\n\n".join(engine_section(ENGINES[k], sh) for k, sh in runs.items())
        + f"""

**What it means.** The sheet's "one hand in three" is about one player who adds a trick. The question is not
only whether that side is set one hand in three but whether the counting baseline is set much less: "about"
means within {CLOSE * 100:.0f} points of 33.3%. Sets per contract leave out the rare hands where a side had no
contract (both partners nil). Games with optimists last longer, and some reach the {RULES.hand_cap}-hand cap
(counted in the set rates, never as wins)."""
    )
    setup = (f"Per play engine, two duplicate tournaments (every game id played twice with the partnerships swapped), "
             f"standard rules, games stopped at {RULES.hand_cap} hands: `optimist+ENGINE` against `counting+ENGINE`, "
             "and `optimist/counting+ENGINE`, a partnership whose first seat bids `optimist` and whose second seat "
             "bids `counting`, both playing the engine, against `counting+ENGINE`. The Wilson interval treats hands as "
             f"independent; the clustered interval (used for the error bars and verdicts) treats each game as one "
             f"observation. {exp.budgets('deals')}")  # fmt: skip
    write_readme(out, title="Does the optimist set its side one hand in three?",
                 question="Does the optimist (+1) set its side about one hand in three?",
                 claim="\"Un joueur qui ajoute un pli par optimisme fait chuter son camp une donne sur trois\" (a player "
                       "who adds a trick out of optimism sets his side one hand in three).",
                 answer=answer, body=body, cmd=exp.command, setup=setup, seconds=exp.timer.seconds,
                 plots=[plot.name], csvs=["optimist_sets.csv"], verdicts=verdict_section(claims, exp.engines))  # fmt: skip
    return out


if __name__ == "__main__":
    cli(NAME, main)
