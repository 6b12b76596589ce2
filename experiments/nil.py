"""How often is the nil rule's nil made, and what is nil coverage worth?

Per play engine (tips, expert, pimc), one duplicate tournament: counting+ENGINE (the sheet's nil rule;
its play covers partner's nil) against counting+ENGINE(-nil_coverage) (the same bids, and the same play
except that the nil bidder's partner plays as if there were no nil to protect). Both sides still play their own nil
carefully (nil_play) and attack the opponents' nils (set_opposing_nil).
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import (
    ENGINE_NAMES,
    ENGINES,
    RULES,
    Claim,
    Engine,
    Estimate,
    Experiment,
    answer_per_engine,
    cli,
    entrant_figures,
    figures_frame,
    paired_figures,
    save_figure,
    sign,
    verdict_section,
    write_readme,
)

from spades_lab.stats.intervals import Z95

NAME = "nil"
GAMES = {"tips": 5_000, "expert": 5_000, "pimc": 100}
"""Games (or duplicate deals) per tournament at scale 1, per play engine: the machine is 2 shared cores, so
the budget of the whole `make experiments` is about half an hour; pimc is the expensive one."""


def proportion_difference(a: Estimate, b: Estimate) -> Estimate:
    """a - b for two proportions from separate samples, with the normal (Wald) interval."""
    se = math.sqrt(a.value * (1 - a.value) / a.n + b.value * (1 - b.value) / b.n)
    d = a.value - b.value
    return Estimate(d, d - Z95 * se, d + Z95 * se, a.n + b.n)


def measure(exp: Experiment, engine: Engine) -> dict:
    COVER, BARE = engine.player("counting"), engine.player("counting", "nil_coverage")
    games = exp.games(engine)
    result = exp.run(engine, [COVER, BARE], games=games, duplicate=True)
    figs = entrant_figures(result)
    paired = paired_figures(result, COVER)
    made, bare = figs[COVER]["nil_success"], figs[BARE]["nil_success"]
    gap = proportion_difference(made, bare) if made.n and bare.n else Estimate(float("nan"), float("nan"),
                                                                                  float("nan"), 0)  # fmt: skip
    frame = pd.concat([figures_frame(figs),
                       figures_frame({COVER: {**{f"paired_{k}": e for k, e in paired.items()},
                                              "nil_success_minus_uncovered": gap}})],
                      ignore_index=True).assign(engine=engine.name)  # fmt: skip
    return {
        "COVER": COVER,
        "BARE": BARE,
        "games": games,
        "figs": figs,
        "paired": paired,
        "made": made,
        "bare": bare,
        "gap": gap,
        "frame": frame,
    }


def engine_section(engine: Engine, r: dict) -> str:
    figs, paired, gap = r["figs"], r["paired"], r["gap"]

    def row(name: str, label: str) -> str:
        f = figs[name]
        return (f"| {label} | {f['nil_success'].fmt(1, percent=True)} | {f['nil_success'].n:,} | "
                f"{f['nil_bids_per_hand'].value:.4f} | {f['win_rate'].fmt(1, percent=True)} | "
                f"{f['points_per_hand'].value:.2f} | {f['set_rate'].value:.2%} |")  # fmt: skip

    value_made = RULES.nil_value * (2 * r["made"].value - 1)
    value_bare = RULES.nil_value * (2 * r["bare"].value - 1)
    return f"""### `{engine.play}`

| player | nil success | nil bids | nil bids per hand | win rate | points per hand | sets per hand |
|---|---|---|---|---|---|---|
{row(r["COVER"], f"`{r['COVER']}` (coverage on)")}
{row(r["BARE"], f"`{r['BARE']}`")}

- Nil success, coverage on minus off: {gap.fmt(1, percent=True, signed=True)}.
- Paired per deal (coverage on minus off, each averaged over its two seatings): win rate
  {paired["win_diff"].fmt(2, percent=True, signed=True)}, final margin {paired["margin"].fmt(1, signed=True)} points.
- At ±{RULES.nil_value} a nil, a nil bid is worth {value_made:+.0f} points on average with coverage and {value_bare:+.0f}
  without (the partner's contract is scored separately)."""


def main(out_dir=None, scale: float = 1.0, workers: int = 2, engines=ENGINE_NAMES):
    """Nil success of counting with and without nil coverage, and what coverage is worth in games, per play engine."""
    exp = Experiment(NAME, out_dir, scale, workers, engines, GAMES)
    out = exp.out
    m = {e.name: measure(exp, e) for e in exp.engines}
    pd.concat([r["frame"] for r in m.values()], ignore_index=True).to_csv(out / "nil.csv", index=False)

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5))
    width = 0.38
    x = np.arange(len(m))
    for off, key, colour, label in ((-width / 2, "made", "tab:green", "with coverage"),
                                    (width / 2, "bare", "tab:gray", "without coverage (-nil_coverage)")):  # fmt: skip
        es = [r[key] for r in m.values()]
        ax1.bar(x + off, [e.value * 100 for e in es], width=width, color=colour, label=label, capsize=3,
                yerr=np.array([(e.value - e.lo, e.hi - e.value) for e in es]).T * 100)  # fmt: skip
        for xi, e in zip(x, es):
            ax1.text(xi + off, 3, f"{e.n:,}\nnils", ha="center", fontsize=7)
    ax1.set_xticks(x, list(m))
    ax1.set_ylim(0, 110)
    ax1.set_ylabel("nil bids made (%)")
    ax1.set_title("Nil success, per play engine", fontsize=10)
    ax1.legend(fontsize=8, loc="upper right")
    ws = [r["paired"]["win_diff"] for r in m.values()]
    ax2.bar(x, [e.value * 100 for e in ws], yerr=np.array([(e.value - e.lo, e.hi - e.value) for e in ws]).T * 100,
            capsize=4, color="tab:green")  # fmt: skip
    ax2.axhline(0, color="k", lw=0.8)
    ax2.set_xticks(x, list(m))
    ax2.set_ylabel("coverage on minus off, win rate (% points)")
    ax2.set_title("Duplicate games against each other, paired per deal", fontsize=10)
    plot = save_figure(fig, out / "nil.png")

    claims = [
        Claim("the nil rule's nils are made (with coverage)", "nil success with coverage",
              {k: (r["made"], "mostly made" if r["made"].lo > 0.5 else ("mostly failed" if r["made"].hi < 0.5
                   else "cannot tell")) for k, r in m.items()}, 1, percent=True, inconclusive="cannot tell"),
        Claim("coverage makes nils succeed", "nil success, coverage on minus off",
              {k: (r["gap"], sign(r["gap"], "helps", "hurts")) for k, r in m.items()}, 1, percent=True, signed=True),
        Claim("coverage wins games", "win rate, coverage on minus off (paired per deal)",
              {k: (r["paired"]["win_diff"], sign(r["paired"]["win_diff"], "helps", "hurts")) for k, r in m.items()},
              2, percent=True, signed=True),
    ]  # fmt: skip
    answer = answer_per_engine(claims)
    body = (
        "\n\n".join(engine_section(ENGINES[k], r) for k, r in m.items())
        + """

**What it means.** The nil rule (no ace, no singleton king, at most three spades none above the 6, count below 2)
picks the nils; the opponents attack them with each engine's own play (tips' lead-low play, and for the expert
and pimc also the expert's hunt by voids). `-nil_coverage` turns partner's cover off: under `expert` (and `pimc`,
which plays the expert's card while a nil is live) that also turns off the expert's `safe_coverage` leads, which
act only while covering, so each engine's row compares its full coverage with none."""
    )
    setup = (f"Per play engine, one duplicate tournament, standard rules (nil ±{RULES.nil_value}, tricks of a failed "
             f"nil count as bags), games stopped at {RULES.hand_cap} hands: `counting+ENGINE` against "
             "`counting+ENGINE(-nil_coverage)`. Nil success is nils made per nil bid, with a Wilson interval (nil "
             f"bids of one game are treated as independent). {exp.budgets('deals')}")  # fmt: skip
    write_readme(out, title="Nil: how often is it made, and what is coverage worth?",
                 question="How often is the nil rule's nil made, and what is nil coverage worth?",
                 claim="Bid nil with no ace, no singleton king, few and low spades (\"trois piques dont le plus haut "
                       "est le six, c'est sûr\"); partner covers: \"prendre la main, la garder, et monter au-dessus de "
                       "vous sur tout pli auquel vous ne pouvez pas échapper\".",
                 answer=answer, body=body, cmd=exp.command, setup=setup, seconds=exp.timer.seconds,
                 plots=[plot.name], csvs=["nil.csv"], verdicts=verdict_section(claims, exp.engines))  # fmt: skip
    return out


if __name__ == "__main__":
    cli(NAME, main)
