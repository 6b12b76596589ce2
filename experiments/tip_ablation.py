"""What is each play tip worth?

Per play engine (tips, expert, pimc) and for every switch of the `tips` play policy (the sheet's eleven
tips and its three nil rules), a duplicate tournament of the full player, counting+ENGINE, against the
same player with that one switch off, counting+ENGINE(-SWITCH): the expert and pimc keep every tips
switch (they play the tips' card where their own additions are silent). For scale, one more match per
engine pits the full player against counting+greedy (bid the same, play "win cheaply if you can, else
play low").
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import (
    ENGINE_NAMES,
    ENGINES,
    PIMC_MAX_TRICKS,
    RULES,
    Claim,
    Engine,
    Estimate,
    Experiment,
    cli,
    entrant_figures,
    markdown_table,
    paired_figures,
    save_figure,
    sign,
    verdict_section,
    write_readme,
)

from spades_lab.policies.play import SWITCHES

NAME = "tip_ablation"
GAMES = {"tips": 2_000, "expert": 2_000, "pimc": 20}
"""Games (or duplicate deals) per tournament at scale 1, per play engine: the machine is 2 shared cores, so
the budget of the whole `make experiments` is about half an hour; pimc is the expensive one."""
GREEDY = "counting+greedy"
PIMC_SWITCHES = ("nil_play", "nil_coverage", "set_opposing_nil")
"""The switches ablated under pimc (its budget allows only a few tournaments): the three nil rules, which act in
full under pimc because it plays the expert's (and so the tips') card whenever a nil is live."""
LABELS = {name: (f"tip {i + 1}" if i < 11 else "nil rule") for i, name in enumerate(SWITCHES)}


def draw(tables: dict[str, pd.DataFrame], games: dict[str, int]):
    """Bars and colours from one interval: the paired win difference over deals, with its 95% interval, one panel
    per play engine (the tips' order of the first panel in all of them)."""
    first = next(iter(tables.values()))
    order = list(first.sort_values("paired_win_diff")["switch"])
    fig, axes = plt.subplots(1, len(tables), figsize=(4.5 * len(tables) + 2.5, 0.45 * len(order) + 2), sharey=True,
                             squeeze=False)  # fmt: skip
    for ax, (engine, tips) in zip(axes[0], tables.items()):
        tips = tips.set_index("switch").reindex(order).reset_index()
        tips["group"] = tips["group"].fillna("not run")
        y = np.arange(len(tips))
        colours = ["tab:green" if lo > 0 else ("tab:red" if hi < 0 else "tab:gray")
                   for lo, hi in zip(tips["paired_win_lo"], tips["paired_win_hi"])]  # fmt: skip
        diff = tips["paired_win_diff"].to_numpy() * 100
        err = np.vstack([diff - tips["paired_win_lo"] * 100, tips["paired_win_hi"] * 100 - diff])
        ax.barh(y, diff, xerr=err, color=colours, capsize=3)
        ax.axvline(0, color="k", lw=0.8)
        ax.set_yticks(y, [f"{g}: {s}" for g, s in zip(tips["group"], tips["switch"])])
        ax.set_title(f"{engine}: {games[engine]:,} deals per switch", fontsize=9)
        ax.set_xlabel("full minus without the tip (% points)", fontsize=8)
    fig.suptitle("What each tip is worth, per play engine: paired win difference per deal, 95% intervals\n"
                 "green: above 0 (helps), red: below 0 (hurts), grey: contains 0", fontsize=9)  # fmt: skip
    return fig


def measure(exp: Experiment, engine: Engine, switches: Sequence[str]) -> pd.DataFrame:
    """One engine: the full player against the player with each switch off, and against greedy play."""
    full = engine.player("counting")
    games = exp.games(engine)
    rows = []
    matches = [(s, engine.player("counting", s)) for s in switches] + [("all tips vs greedy play", GREEDY)]
    for switch, other in matches:
        result = exp.run(engine, [full, other], switch if other != GREEDY else "greedy", games=games, duplicate=True)
        figs = entrant_figures(result)
        f = figs[full]
        p = paired_figures(result, full)
        rows.append({
            "engine": engine.name, "switch": switch, "group": LABELS.get(switch, "reference"), "player": full,
            "opponent": other, "deals": games, "games": 2 * games, "finished": f["win_rate"].n,
            "win_rate": f["win_rate"].value, "win_lo": f["win_rate"].lo, "win_hi": f["win_rate"].hi,
            "paired_win_diff": p["win_diff"].value, "paired_win_lo": p["win_diff"].lo,
            "paired_win_hi": p["win_diff"].hi, "paired_win_n": p["win_diff"].n, "paired_margin": p["margin"].value,
            "paired_margin_lo": p["margin"].lo, "paired_margin_hi": p["margin"].hi,
            "points_per_hand": f["points_per_hand"].value,
            "opponent_points_per_hand": figs[other]["points_per_hand"].value,
        })  # fmt: skip
    return pd.DataFrame(rows)


def engine_section(engine: Engine, table: pd.DataFrame) -> str:
    shown = table.assign(
        win_rate=[f"{w:.1%} ({lo:.1%} to {hi:.1%})" for w, lo, hi in zip(table["win_rate"], table["win_lo"], table["win_hi"])],
        paired_win_diff=[f"{w:+.1%} ({lo:+.1%} to {hi:+.1%})" for w, lo, hi in
                         zip(table["paired_win_diff"], table["paired_win_lo"], table["paired_win_hi"])],
        paired_margin=[f"{w:+.0f} ({lo:+.0f} to {hi:+.0f})" for w, lo, hi in
                       zip(table["paired_margin"], table["paired_margin_lo"], table["paired_margin_hi"])],
    )[["group", "switch", "opponent", "win_rate", "paired_win_diff", "paired_margin", "finished"]]  # fmt: skip
    return f"""### `{engine.play}`

`{engine.player("counting")}` against the same player with one switch off; the last row plays `{GREEDY}`. Win rate
over finished games with its Wilson interval; paired figures per deal (full minus ablated, averaged over the two
seatings) with a normal interval:

{markdown_table(shown)}"""


def main(out_dir=None, scale: float = 1.0, workers: int = 2, engines=ENGINE_NAMES, switches=SWITCHES):
    """Win rate of counting+ENGINE against counting+ENGINE with one tip switched off, for every tip and engine."""
    exp = Experiment(NAME, out_dir, scale, workers, engines, GAMES)
    out = exp.out
    tables = {e.name: measure(exp, e, [s for s in switches if e.name != "pimc" or s in PIMC_SWITCHES])
              for e in exp.engines}  # fmt: skip
    table = pd.concat(tables.values(), ignore_index=True)
    table.to_csv(out / "tip_ablation.csv", index=False)
    tips = {k: t[t["group"] != "reference"] for k, t in tables.items()}
    plot = save_figure(draw(tips, {e.name: exp.games(e) for e in exp.engines}), out / "tip_ablation.png")

    def estimate(row: pd.Series) -> Estimate:
        return Estimate(row["paired_win_diff"], row["paired_win_lo"], row["paired_win_hi"], int(row["paired_win_n"]))

    claims = []
    for switch in [*switches, "all tips vs greedy play"]:
        per = {}
        for k, t in tables.items():
            if (t["switch"] == switch).any():
                row = t[t["switch"] == switch].iloc[0]
                per[k] = (estimate(row), sign(estimate(row), "helps", "hurts"))
        name = f"{LABELS[switch]}: `{switch}`" if switch in LABELS else "reference: the engine against greedy play"
        claims.append(Claim(name, "paired win difference, full minus without", per, 1, percent=True, signed=True))
    counts = {k: {v: sum(1 for c in claims[:-1] if c.per_engine.get(k, (None, ""))[1] == v) for v in ("helps", "hurts")}
              for k in tables}  # fmt: skip
    tested = {k: len(t) - 1 for k, t in tables.items()}
    held = [c for c in claims[:-1] if c.holds]
    flipped = [c for c in claims[:-1] if c.flips]
    changed = [c for c in claims[:-1] if c.changes]
    answer = ("Switches that measurably help / hurt: "
              + "; ".join(f"{k} {v['helps']} / {v['hurts']} of {tested[k]}" for k, v in counts.items())
              + f". {len(held)} verdicts hold across the engines ("
              + (", ".join(f"{c.claim.split(': ')[1]} {c.per_engine[next(iter(tables))][1]}" for c in held) or "none")
              + f"), {len(flipped)} flip (" + (", ".join(c.claim.split(": ")[1] for c in flipped) or "none")
              + f"), {len(changed)} change (an effect under one engine, none under another: "
              + (", ".join(c.claim.split(": ")[1] for c in changed) or "none")
              + "); the rest differ only where an interval is too wide to tell.")  # fmt: skip
    body = (
        "\n\n".join(engine_section(ENGINES[k], t) for k, t in tables.items())
        + f"""

Which tips matter is decided by the paired test: the Wilson interval treats the games as independent, but in
duplicate the two tables of a deal are played on the same cards with the seats swapped, so the paired difference
over deals (full minus ablated win rate, mean and normal interval) is the sharper test.

**What the per-engine version means.** The tips are switches of the `tips` play, and the `expert` and `pimc`
players keep every one of them: the expert plays the tips' card wherever its own additions are silent, and pimc
plays the expert's card before the last {PIMC_MAX_TRICKS} tricks (at this budget) and while a nil is live. So
`counting+expert(-SWITCH)` and `counting+pimc(..., -SWITCH)` turn off the same tip inside the stronger player: a tip
the expert's additions override (tip 2 under `third_hand_high`, tip 7 under `keep_setting`, tip 10 under
`keep_stoppers`, ...) can only be worth less there, and under pimc a tip only acts in the early tricks or around a
nil. Under pimc only the three nil rules are ablated (`PIMC_SWITCHES`: they act in full there, since pimc plays
the expert's card while a nil is live), at {exp.games(ENGINES["pimc"]) if "pimc" in tables else 0} deals each: the other rows say
"not run". The expert's own additions are ablated in [strong_players](../strong_players/README.md). Each row measures a
tip in the company of all the others: a tip that only matters when another one is off shows up as worth little."""
    )
    setup = (f"Per play engine, {len(switches) + 1} duplicate tournaments, standard rules, games stopped at "
             f"{RULES.hand_cap} hands; tips numbered as in docs/strategies.md (the nil rules after them). "
             f"{exp.budgets('deals')}")  # fmt: skip
    write_readme(out, title="What is each play tip worth?",
                 question="What is each play tip worth?",
                 claim="Eleven card-play tips (\"Votre partenaire entame un as et vous êtes chicane : ne coupez pas\", "
                       "...) and three nil rules (play of the nil, coverage by partner, setting the opponents' nil).",
                 answer=answer, body=body, cmd=exp.command, setup=setup, seconds=exp.timer.seconds,
                 plots=[plot.name], csvs=["tip_ablation.csv"], verdicts=verdict_section(claims, exp.engines))  # fmt: skip
    return out


if __name__ == "__main__":
    cli(NAME, main)
