"""Does the optimist (+1) set its side about one hand in three?

Two duplicate tournaments against counting+tips, both with the sheet's play (tips):
- partnership: optimist+tips, both partners bidding their count plus one;
- one optimist: the sheet's literal case, one player adding a trick beside a partner who bids the
  count (a mixed partnership: the optimist on the side's first seat, counting on its second).
The set rate is sets per hand (a hand where the side's contract was not made), for the optimist
side and for the counting side at the same tables.
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

NAME = "optimist_sets"
GAMES = 4_000
COUNTING = "counting+tips"
OPTIMIST = "optimist+tips"
ONE = "optimist/counting+tips"
SHEET = 1 / 3
CLOSE = 0.05
"""A set rate within 5 percentage points of 1/3 counts as "about one hand in three"."""


def main(out_dir=None, scale: float = 1.0, workers: int = 2):
    """Set rate per hand of optimist bidders against counting+tips (duplicate games)."""
    timer = Timer()
    out = out_path(NAME, out_dir)
    games = scaled(GAMES, scale)
    shifted = shifted_bidder_runs(OPTIMIST, ONE, "one optimist", out, games, workers, COUNTING)
    figs, paired, frame = shifted.figs, shifted.paired, shifted.frame
    frame.to_csv(out / "optimist_sets.csv", index=False)

    p_opt = figs["partnership"][OPTIMIST]
    p_cnt = figs["partnership"][COUNTING]
    o_opt = figs["one optimist"][ONE]
    o_cnt = figs["one optimist"][COUNTING]

    fig, ax = plt.subplots(figsize=(8, 4.5))
    bars = [("optimist\npartnership", p_opt), ("counting\n(vs partnership)", p_cnt),
            ("one optimist +\ncounting partner", o_opt), ("counting\n(vs one optimist)", o_cnt)]  # fmt: skip
    x = np.arange(len(bars))
    vals = np.array([b[1]["set_rate"].value for b in bars]) * 100
    err = np.array([[b[1]["set_rate_clustered"].value - b[1]["set_rate_clustered"].lo,
                     b[1]["set_rate_clustered"].hi - b[1]["set_rate_clustered"].value] for b in bars]).T * 100  # fmt: skip
    ax.bar(x, vals, yerr=err, capsize=4, color=["tab:red", "tab:blue", "tab:orange", "tab:blue"])
    for xi, v in zip(x, vals):
        ax.text(xi, v + 1.5, f"{v:.1f}%", ha="center")
    ax.axhline(SHEET * 100, color="k", ls="--", lw=1, label="the sheet: one hand in three")
    ax.set_xticks(x, [b[0] for b in bars])
    ax.set_ylabel("sets per hand (%)")
    ax.set_ylim(0, max(vals) * 1.15)
    ax.set_title("Set rate per hand, duplicate games against counting+tips (all play tips)")
    ax.legend(loc="upper right")
    plot = save_figure(fig, out / "optimist_sets.png")

    def verdict(e) -> str:
        if abs(e.value - SHEET) <= CLOSE:
            return "about one in three"
        return "well above one in three" if e.value > SHEET else "well below one in three"

    answer = (f"An optimist partnership is set on {p_opt['set_rate'].value:.1%} of hands "
              f"(95% CI {p_opt['set_rate_clustered'].lo:.1%} to {p_opt['set_rate_clustered'].hi:.1%}) against "
              f"{p_cnt['set_rate'].value:.1%} for counting+tips at the same tables; one optimist beside a counting "
              f"partner is set on {o_opt['set_rate'].value:.1%} ({o_opt['set_rate_clustered'].lo:.1%} to "
              f"{o_opt['set_rate_clustered'].hi:.1%}), {verdict(o_opt['set_rate'])}, while counting+tips itself is set on "
              f"{o_cnt['set_rate'].value:.1%} of hands ({verdict(o_cnt['set_rate'])}).")  # fmt: skip

    def rows(label, e_opt, e_cnt, pair):
        return f"""| {label} | optimist side | {e_opt['set_rate'].value:.2%} | {e_opt['set_rate'].lo:.2%} to {e_opt['set_rate'].hi:.2%} | {e_opt['set_rate_clustered'].lo:.2%} to {e_opt['set_rate_clustered'].hi:.2%} | {e_opt['set_rate_per_contract'].value:.2%} | {e_opt['hands_per_game'].value:.1f} | {e_opt['win_rate'].fmt(1, percent=True)} | {e_opt['points_per_hand'].value:.1f} |
| {label} | counting side | {e_cnt['set_rate'].value:.2%} | {e_cnt['set_rate'].lo:.2%} to {e_cnt['set_rate'].hi:.2%} | {e_cnt['set_rate_clustered'].lo:.2%} to {e_cnt['set_rate_clustered'].hi:.2%} | {e_cnt['set_rate_per_contract'].value:.2%} | {e_cnt['hands_per_game'].value:.1f} | {e_cnt['win_rate'].fmt(1, percent=True)} | {e_cnt['points_per_hand'].value:.1f} |"""

    body = f"""| matchup | side | sets per hand | 95% CI (Wilson, hands) | 95% CI (clustered by game) | sets per contract | hands per game | win rate | points per hand |
|---|---|---|---|---|---|---|---|---|
{rows("optimist partnership vs counting", p_opt, p_cnt, paired["partnership"])}
{rows("one optimist + counting partner vs counting", o_opt, o_cnt, paired["one optimist"])}

Paired over deals (each game id played in both seatings; optimist side minus counting side):

| matchup | deals | win rate difference | final margin (points) | sets per game difference |
|---|---|---|---|---|
| optimist partnership | {paired["partnership"]["win_diff"].n:,} | {paired["partnership"]["win_diff"].fmt(1, percent=True, signed=True)} | {paired["partnership"]["margin"].fmt(0, signed=True)} | {paired["partnership"]["sets_per_game_diff"].fmt(2, signed=True)} |
| one optimist | {paired["one optimist"]["win_diff"].n:,} | {paired["one optimist"]["win_diff"].fmt(1, percent=True, signed=True)} | {paired["one optimist"]["margin"].fmt(0, signed=True)} | {paired["one optimist"]["sets_per_game_diff"].fmt(2, signed=True)} |

**What it means.** The sheet's "one hand in three" is about one player who adds a trick. In simulation that player's
side is set on {o_opt['set_rate'].value:.1%} of hands. But the sheet's own counting bidder is set on {o_cnt['set_rate'].value:.1%}
of hands in the same games ({p_cnt['set_rate'].value:.1%} against the optimist partnership), so the counting baseline is set
{verdict(o_cnt['set_rate'])} ("about" meaning within {CLOSE * 100:.0f} points of 33.3%): the optimist's extra trick raises it by
{(o_opt['set_rate'].value - o_cnt['set_rate'].value) * 100:.1f} points with one optimist and by {(p_opt['set_rate'].value - p_cnt['set_rate'].value) * 100:.1f}
points with two (a +2 contract), and it loses: the optimist side wins {o_opt['win_rate'].value:.1%} and
{p_opt['win_rate'].value:.1%} of finished games. Sets per contract leave out the rare hands where a side had no
contract (both partners nil). Games with optimists last longer ({p_opt['hands_per_game'].value:.1f} and {o_opt['hands_per_game'].value:.1f} hands on
average), and some reach the {RULES.hand_cap}-hand cap: {p_opt['unfinished'].value:.1%} and {o_opt['unfinished'].value:.1%}
of the games are unfinished (counted in the set rates, never as wins)."""
    cmd = command(NAME, scale, out_dir, workers)
    setup = (f"Two duplicate tournaments of {games:,} deals each (every game id played twice with the partnerships "
             f"swapped, so {2 * games:,} games per tournament), standard rules, games stopped at {RULES.hand_cap} hands. "
             f"`{ONE}` is a partnership whose first seat bids `optimist` and whose second seat bids `counting`, both "
             "playing `tips`. The Wilson interval treats hands as independent; the clustered interval (used for the "
             "error bars) treats each game as one observation.")  # fmt: skip
    write_readme(out, title="Does the optimist set its side one hand in three?",
                 question="Does the optimist (+1) set its side about one hand in three?",
                 claim="\"Un joueur qui ajoute un pli par optimisme fait chuter son camp une donne sur trois\" (a player "
                       "who adds a trick out of optimism sets his side one hand in three).",
                 answer=answer, body=body, cmd=cmd, setup=setup, seconds=timer.seconds, plots=[plot.name],
                 csvs=["optimist_sets.csv"])  # fmt: skip
    return out


if __name__ == "__main__":
    cli(NAME, main)
