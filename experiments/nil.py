"""How often is the nil rule's nil made, and what is nil coverage worth?

One duplicate tournament: counting+tips (the sheet's nil rule; its play covers partner's nil)
against counting+tips(-nil_coverage) (the same bids, and the same play except that the nil
bidder's partner plays as if there were no nil to protect). Both sides still play their own nil
carefully (nil_play) and attack the opponents' nils (set_opposing_nil).
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import (
    RULES,
    Estimate,
    Timer,
    cli,
    command,
    entrant_figures,
    figures_frame,
    out_path,
    paired_figures,
    run_tournament,
    save_figure,
    scaled,
    write_readme,
)

from spades_lab.stats.intervals import Z95

NAME = "nil"
GAMES = 10_000
COVER = "counting+tips"
BARE = "counting+tips(-nil_coverage)"


def proportion_difference(a: Estimate, b: Estimate) -> Estimate:
    """a - b for two proportions from separate samples, with the normal (Wald) interval."""
    se = math.sqrt(a.value * (1 - a.value) / a.n + b.value * (1 - b.value) / b.n)
    d = a.value - b.value
    return Estimate(d, d - Z95 * se, d + Z95 * se, a.n + b.n)


def main(out_dir=None, scale: float = 1.0, workers: int = 2):
    """Nil success of counting+tips with and without nil coverage, and what coverage is worth in games."""
    timer = Timer()
    out = out_path(NAME, out_dir)
    games = scaled(GAMES, scale)
    result = run_tournament([COVER, BARE], out / "run", workers=workers, games=games, duplicate=True)
    figs = entrant_figures(result)
    paired = paired_figures(result, COVER)
    made, bare = figs[COVER]["nil_success"], figs[BARE]["nil_success"]
    gap = proportion_difference(made, bare)
    frame = pd.concat([figures_frame(figs),
                       figures_frame({COVER: {**{f"paired_{k}": e for k, e in paired.items()},
                                              "nil_success_minus_uncovered": gap}})], ignore_index=True)  # fmt: skip
    frame.to_csv(out / "nil.csv", index=False)

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.5))
    es = [made, bare]
    labels = ["with coverage\n(counting+tips)", "without coverage\n(-nil_coverage)"]
    ax1.bar([0, 1], [e.value * 100 for e in es], yerr=np.array([(e.value - e.lo, e.hi - e.value) for e in es]).T * 100,
            capsize=4, color=["tab:green", "tab:gray"])  # fmt: skip
    for xi, e in enumerate(es):
        ax1.text(xi, e.value * 100 + 2, f"{e.value:.1%}\n({e.n:,} nils)", ha="center", fontsize=9)
    ax1.set_xticks([0, 1], labels)
    ax1.set_ylim(0, 110)
    ax1.set_ylabel("nil bids made (%)")
    ax1.set_title("Nil success")
    ws = [figs[COVER]["win_rate"], figs[BARE]["win_rate"]]
    ax2.bar([0, 1], [e.value * 100 for e in ws], yerr=np.array([(e.value - e.lo, e.hi - e.value) for e in ws]).T * 100,
            capsize=4, color=["tab:green", "tab:gray"])  # fmt: skip
    ax2.axhline(50, color="k", lw=0.8, ls="--")
    ax2.set_xticks([0, 1], labels)
    ax2.set_ylim(0, 100)
    ax2.set_ylabel("win rate (%)")
    ax2.set_title(f"Duplicate games against each other ({games:,} deals)", fontsize=10)
    plot = save_figure(fig, out / "nil.png")

    answer = (f"With coverage, counting+tips makes {made.value:.1%} of the nils its nil rule bids (95% CI {made.lo:.1%} to {made.hi:.1%}, {made.n:,} nil "
              f"bids); with coverage switched off {bare.value:.1%} ({bare.lo:.1%} to {bare.hi:.1%}). Coverage wins "
              f"{figs[COVER]['win_rate'].value:.1%} of games against the same player without it "
              f"({figs[COVER]['win_rate'].lo:.1%} to {figs[COVER]['win_rate'].hi:.1%}; paired win difference "
              f"{paired['win_diff'].fmt(1, percent=True, signed=True)}).")  # fmt: skip

    def row(name: str, label: str) -> str:
        f = figs[name]
        return (f"| {label} | {f['nil_success'].fmt(1, percent=True)} | {f['nil_success'].n:,} | "
                f"{f['nil_bids_per_hand'].value:.4f} | {f['win_rate'].fmt(1, percent=True)} | "
                f"{f['points_per_hand'].value:.2f} | {f['set_rate'].value:.2%} |")  # fmt: skip

    value_made = RULES.nil_value * (2 * made.value - 1)
    value_bare = RULES.nil_value * (2 * bare.value - 1)
    body = f"""| player | nil success | nil bids | nil bids per hand | win rate | points per hand | sets per hand |
|---|---|---|---|---|---|---|
{row(COVER, f"`{COVER}` (coverage on)")}
{row(BARE, f"`{BARE}`")}

- Nil success, coverage on minus off: {gap.fmt(1, percent=True, signed=True)}.
- Paired per deal (coverage on minus off, each averaged over its two seatings): win rate
  {paired["win_diff"].fmt(2, percent=True, signed=True)}, final margin {paired["margin"].fmt(1, signed=True)} points.
- At ±{RULES.nil_value} a nil, a nil bid is worth {value_made:+.0f} points on average with coverage and {value_bare:+.0f}
  without (the partner's contract is scored separately).

**What it means.** The nil rule (no ace, no singleton king, at most three spades none above the 6, count below 2)
picks nils that succeed {made.value:.0%} of the time when partner covers them (against opponents who attack nils
with the sheet's lead-low play). Take the cover away and the same nils succeed {bare.value:.0%} of the time:
nil coverage is worth {gap.value * 100:.0f} points of nil success, and since nil is bid on {figs[COVER]['nil_bids_per_hand'].value:.1%}
of a side's hands it moves the win rate by {paired["win_diff"].value * 100:.1f} points in games between otherwise
identical players."""
    cmd = command(NAME, scale, out_dir, workers)
    setup = (f"One duplicate tournament of {games:,} deals ({2 * games:,} games), standard rules (nil ±{RULES.nil_value}, "
             f"tricks of a failed nil count as bags), games stopped at {RULES.hand_cap} hands. Nil success is nils made "
             "per nil bid, with a Wilson interval (nil bids of one game are treated as independent).")  # fmt: skip
    write_readme(out, title="Nil: how often is it made, and what is coverage worth?",
                 question="How often is the nil rule's nil made, and what is nil coverage worth?",
                 claim="Bid nil with no ace, no singleton king, few and low spades (\"trois piques dont le plus haut "
                       "est le six, c'est sûr\"); partner covers: \"prendre la main, la garder, et monter au-dessus de "
                       "vous sur tout pli auquel vous ne pouvez pas échapper\".",
                 answer=answer, body=body, cmd=cmd, setup=setup, seconds=timer.seconds, plots=[plot.name],
                 csvs=["nil.csv"])  # fmt: skip
    return out


if __name__ == "__main__":
    cli(NAME, main)
