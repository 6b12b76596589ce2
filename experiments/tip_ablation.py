"""What is each play tip worth?

For every switch of the `tips` play policy (the sheet's eleven tips and its three nil rules), a
duplicate tournament of the full player, counting+tips, against the same player with that one
switch off, counting+tips(-SWITCH). A tip is worth what the full player wins above 50%. For scale,
one more match pits the full player against counting+greedy (bid the same, play "win cheaply if you
can, else play low").
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import (
    RULES,
    Timer,
    cli,
    command,
    entrant_figures,
    markdown_table,
    out_path,
    paired_figures,
    run_tournament,
    save_figure,
    scaled,
    write_readme,
)

from spades_lab.policies.play import SWITCHES

NAME = "tip_ablation"
GAMES = 4_000
FULL = "counting+tips"
GREEDY = "counting+greedy"
LABELS = {name: (f"tip {i + 1}" if i < 11 else "nil rule") for i, name in enumerate(SWITCHES)}


def draw(tips: pd.DataFrame, games: int):
    """Bars and colours from one interval: the paired win difference over deals, with its 95% interval.

    (Drawing Wilson bars while colouring by the paired test showed green bars whose error bars
    crossed 50%: the figure now shows the figure its colours are decided by.)
    """
    tips = tips.sort_values("paired_win_diff")
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(tips) + 1.8))
    y = np.arange(len(tips))
    colours = ["tab:green" if lo > 0 else ("tab:red" if hi < 0 else "tab:gray")
               for lo, hi in zip(tips["paired_win_lo"], tips["paired_win_hi"])]  # fmt: skip
    diff = tips["paired_win_diff"].to_numpy() * 100
    err = np.vstack([diff - tips["paired_win_lo"] * 100, tips["paired_win_hi"] * 100 - diff])
    ax.barh(y, diff, xerr=err, color=colours, capsize=3)
    ax.axvline(0, color="k", lw=0.8)
    ax.set_yticks(y, [f"{g}: {s}" for g, s in zip(tips["group"], tips["switch"])])
    ax.set_xlabel("paired win difference per deal: full player minus player without the tip (% points)")
    ax.set_title(f"What each tip is worth: {games:,} duplicate deals per tip, 95% paired intervals over deals\n"
                 f"green: the interval is above 0 (helps), red: below 0 (hurts), grey: it contains 0",
                 fontsize=9)  # fmt: skip
    return fig


def main(out_dir=None, scale: float = 1.0, workers: int = 2, switches=SWITCHES):
    """Win rate of counting+tips against counting+tips with one tip switched off, for every tip."""
    timer = Timer()
    out = out_path(NAME, out_dir)
    games = scaled(GAMES, scale)
    rows = []
    matches = [(s, f"counting+tips(-{s})") for s in switches] + [("all tips vs greedy play", GREEDY)]
    for switch, other in matches:
        run_dir = out / "run" / (switch if other != GREEDY else "greedy")
        result = run_tournament([FULL, other], run_dir, workers=workers, games=games, duplicate=True)
        f = entrant_figures(result)[FULL]
        p = paired_figures(result, FULL)
        rows.append({
            "switch": switch, "group": LABELS.get(switch, "reference"), "opponent": other, "deals": games,
            "games": 2 * games, "finished": f["win_rate"].n, "win_rate": f["win_rate"].value,
            "win_lo": f["win_rate"].lo, "win_hi": f["win_rate"].hi,
            "paired_win_diff": p["win_diff"].value, "paired_win_lo": p["win_diff"].lo,
            "paired_win_hi": p["win_diff"].hi, "paired_margin": p["margin"].value, "paired_margin_lo": p["margin"].lo,
            "paired_margin_hi": p["margin"].hi, "points_per_hand": f["points_per_hand"].value,
            "opponent_points_per_hand": entrant_figures(result)[other]["points_per_hand"].value,
        })  # fmt: skip
    table = pd.DataFrame(rows)
    table.to_csv(out / "tip_ablation.csv", index=False)
    tips = table[table["group"] != "reference"].sort_values("win_rate")
    ref = table[table["group"] == "reference"].iloc[0]

    fig = draw(tips, games)
    plot = save_figure(fig, out / "tip_ablation.png")

    # duplicate: the paired interval over deals is the sharper test (the Wilson interval treats the two tables
    # of a deal, same cards and seats swapped, as independent games)
    helps = tips[tips["paired_win_lo"] > 0].sort_values("win_rate", ascending=False)
    hurts = tips[tips["paired_win_hi"] < 0].sort_values("win_rate")
    neutral = tips[(tips["paired_win_lo"] <= 0) & (tips["paired_win_hi"] >= 0)]

    ranked = list(tips.sort_values("win_rate", ascending=False)["group"])
    nil_ranks = ", ".join(str(i + 1) for i, g in enumerate(ranked) if g == "nil rule")
    def listed(frame: pd.DataFrame, most: int) -> str:
        parts = [f"{g} {s}: {w:.1%} ({lo:.1%} to {hi:.1%})" for g, s, w, lo, hi in
                 zip(frame["group"], frame["switch"], frame["win_rate"], frame["win_lo"], frame["win_hi"])][:most]
        return "; ".join(parts) if parts else "none"

    def tested(frame: pd.DataFrame) -> str:
        return ", ".join(f"{s} ({d:+.1%}, {lo:+.1%} to {hi:+.1%})" for s, d, lo, hi in
                         zip(frame["switch"], frame["paired_win_diff"], frame["paired_win_lo"],
                             frame["paired_win_hi"])) or "none"

    answer = (f"In the paired duplicate test {len(helps)} of {len(tips)} switches measurably help, {len(hurts)} measurably "
              f"hurt and {len(neutral)} make no measurable difference. Win rate of the full player against the player "
              f"without the tip (95% Wilson interval), most helpful: {listed(helps, 3)}; most harmful: "
              f"{listed(hurts, 2)}.")  # fmt: skip
    shown = table.assign(
        win_rate=[f"{w:.1%} ({lo:.1%} to {hi:.1%})" for w, lo, hi in zip(table["win_rate"], table["win_lo"], table["win_hi"])],
        paired_win_diff=[f"{w:+.1%} ({lo:+.1%} to {hi:+.1%})" for w, lo, hi in
                         zip(table["paired_win_diff"], table["paired_win_lo"], table["paired_win_hi"])],
        paired_margin=[f"{w:+.0f} ({lo:+.0f} to {hi:+.0f})" for w, lo, hi in
                       zip(table["paired_margin"], table["paired_margin_lo"], table["paired_margin_hi"])],
    )[["group", "switch", "win_rate", "paired_win_diff", "paired_margin", "finished"]]  # fmt: skip
    body = f"""Full player (`{FULL}`) against the same player with one switch off (`counting+tips(-SWITCH)`), duplicate
games of {games:,} deals ({2 * games:,} games) each. Win rate over finished games with its Wilson interval; paired
figures per deal (full minus ablated, averaged over the two seatings) with a normal interval:

{markdown_table(shown)}

Which tips matter is decided by the paired test: the Wilson interval treats the {2 * games:,} games as independent,
but in duplicate the two tables of a deal are played on the same cards with the seats swapped, so the paired
difference over the {games:,} deals (full minus ablated win rate, mean and normal interval) is the sharper test.

- Help (paired difference above 0): {tested(helps)}.
- Hurt (paired difference below 0): {tested(hurts)}.
- No measurable difference: {tested(neutral)}.
- For scale: all tips against greedy play, `{GREEDY}`: the full player wins {ref["win_rate"]:.1%}
  ({ref["win_lo"]:.1%} to {ref["win_hi"]:.1%}), paired margin {ref["paired_margin"]:+.0f} points.

**What it means.** Each row measures a tip in the company of all the others: a tip that only matters when
another one is off (two tips doing the same job) shows up here as worth little. Ranked by the full player's win
rate, the nil rules come {nil_ranks} of {len(tips)}, although they act only on the hands with a nil bid. The
reference match shows how far the whole set of tips is from simple greedy play."""
    cmd = command(NAME, scale, out_dir, workers)
    setup = (f"{len(matches)} duplicate tournaments of {games:,} deals each, standard rules, games stopped at "
             f"{RULES.hand_cap} hands; tips numbered as in docs/strategies.md (the nil rules after them).")  # fmt: skip
    write_readme(out, title="What is each play tip worth?",
                 question="What is each play tip worth?",
                 claim="Eleven card-play tips (\"Votre partenaire entame un as et vous êtes chicane : ne coupez pas\", "
                       "...) and three nil rules (play of the nil, coverage by partner, setting the opponents' nil).",
                 answer=answer, body=body, cmd=cmd, setup=setup, seconds=timer.seconds, plots=[plot.name],
                 csvs=["tip_ablation.csv"])  # fmt: skip
    return out


if __name__ == "__main__":
    cli(NAME, main)
