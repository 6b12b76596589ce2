"""Strong players: does the `expert` play beat the cheat sheet's `tips` play, what is each addition worth,
and how much more does the `pimc` search player take?

A duplicate tournament of counting+expert against counting+tips (same bids, different card play), then one
duplicate tournament per expert addition: counting+expert against counting+expert with that one switch off.
Games to 500 with a 200-hand cap, both seatings of every deal, fixed seed. Then `pimc`: a duplicate match of
single hands against counting+expert (timed), duplicate games against counting+tips, and the double-dummy
tricks each play gives away in the endings it can be checked on.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import (
    PLAY_SECONDS,
    RULES,
    Timer,
    checked_plays,
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

import spades_lab as sl
from spades_lab import dd
from spades_lab.bench import run_bench
from spades_lab.policies.expert import EXPERT_SWITCHES, ExpertParams
from spades_lab.policies.identity import player_differences, player_identity
from spades_lab.policies.registry import PolicyNameError

NAME = "strong_players"
DEALS = 600
ABLATION_DEALS = 600
EXPERT = "counting+expert"
TIPS = "counting+tips"
PIMC = "counting+pimc"
PIMC_DEALS = 200  # single hands, duplicate: the timed match
PIMC_GAME_DEALS = 600  # whole games against tips, as many deals as expert vs tips: about 30 minutes of play on 2 cores
LOST_HANDS = 100  # hands per player for the DD tricks lost
LOST_TRICKS = 7  # the endings checked: the last 7 tricks (full-deal solves take seconds each)


def dd_tricks_lost(player: str, hands: int, seed: int, last: int = LOST_TRICKS) -> tuple[float, float, float, int]:
    """DD tricks a side gives away per hand before its contract is made, over the last `last` tricks.

    Four `player` seats play `hands` single hands; every play of the last `last` tricks is checked against
    the solver on the true deal: the side's DD tricks after the best card minus after the card played,
    summed per side per hand over the plays made while the side's contract is not yet made. Returns the
    mean, its 95% interval (normal, over side-hands) and the number of side-hands.
    """
    rows = checked_plays(player, hands, seed)
    keep = rows["t"] >= 13 - last
    lost = np.zeros(2 * int(rows["n_hands"]))
    if keep.any():
        values = dd.card_values(rows["hands"][keep], rows["trick"][keep], rows["leader"][keep], rows["broken"][keep],
                                solver=dd.Solver(sl.Rules()))  # fmt: skip
        played = values[np.arange(len(values)), rows["card"][keep]]
        np.add.at(lost, rows["side_hand"][keep], values.max(axis=1).astype(float) - played)
    x = lost
    se = x.std(ddof=1) / np.sqrt(len(x)) if len(x) > 1 else float("nan")
    return float(x.mean()), float(x.mean() - 1.96 * se), float(x.mean() + 1.96 * se), len(x)


WHOLE_HAND_TARGETS = {TIPS: "2.35 (the reference measure of tips)", EXPERT: "<= 1.5", PIMC: "<= 0.8"}


def measured_player(name: str, entry: dict) -> str:
    """Empty when a saved measurement was made by the player `name` is now, else why it may not have been.

    `strong_pimc.py lost` saves each player's resolved identity (every parameter) beside its figure; a
    figure saved before that, or by a player whose defaults have changed since, is reported as such
    rather than as the current player's.
    """
    try:
        now = player_identity(name)
    except PolicyNameError:
        return "no longer a player name"
    if "player" not in entry:
        return "saved before measurements recorded the player: may be an earlier version"
    changed = player_differences({name: entry["player"]}, {name: now})
    return "measured with another version of the player (" + changed[0].split(": ", 1)[1] + ")" if changed else ""


def whole_hand_lost(out) -> tuple[str, str]:
    """The DD statistic over whole hands, as `strong_pimc.py lost` measured it (pimc_lost.json).

    Every card of all 13 tricks is a full-deal solve (seconds each), so this script does not replay them:
    it reports the saved measurements (`cd experiments && ../.venv/bin/python strong_pimc.py lost --hands N
    --players NAME [--tag TAG]`), the largest sample of each player first. Returns (sentence, markdown).
    """
    path = out / "pimc_lost.json"
    if not path.exists():
        return "", ""
    import json

    data = json.loads(path.read_text())
    rows: list[tuple[str, str, dict]] = []
    best: dict[str, dict] = {}
    for key, entry in data.items():
        name = key.split(" [")[0]
        rows.append((name, key, entry))
        if name in WHOLE_HAND_TARGETS and entry["side_hands"] > best.get(name, {}).get("side_hands", 0):
            best[name] = entry
    lines = [
        "| player | DD tricks lost per side per hand, whole hand (95%) | side-hands | target | player checked |",
        "|---|---|---|---|---|",
    ]
    for name, key, entry in sorted(rows, key=lambda r: (r[0] not in WHOLE_HAND_TARGETS, r[0], -r[2]["side_hands"])):
        lines.append(f"| `{key}` | {entry['value']:.2f} ({entry['lo']:.2f} to {entry['hi']:.2f}) | "
                     f"{entry['side_hands']} | {WHOLE_HAND_TARGETS.get(name, '')} | "
                     f"{measured_player(name, entry) or 'the current player'} |")  # fmt: skip
    parts = [f"{n.split('+')[1]} {e['value']:.2f} ({e['lo']:.2f} to {e['hi']:.2f}, {e['side_hands']} side-hands"
             + (f"; {why}" if (why := measured_player(n, e)) else "") + ")" for n, e in best.items()]  # fmt: skip
    sentence = ("Over whole hands (`strong_pimc.py lost`), before their contract is made: "
                + ", ".join(parts) + " DD tricks lost per side per hand.") if parts else ""  # fmt: skip
    return sentence, "\n".join(lines)


def _row(label: str, result, entrant: str, opponent: str, deals: int) -> dict:
    figs = entrant_figures(result)
    mine, theirs = figs[entrant], figs[opponent]
    paired = paired_figures(result, entrant)
    win = mine["win_rate"]
    return {
        "match": label, "entrant": entrant, "opponent": opponent, "deals": deals, "games": 2 * deals,
        "finished": win.n, "win_rate": win.value, "win_lo": win.lo, "win_hi": win.hi,
        "points_per_hand": mine["points_per_hand"].value, "points_per_hand_lo": mine["points_per_hand"].lo,
        "points_per_hand_hi": mine["points_per_hand"].hi,
        "opponent_points_per_hand": theirs["points_per_hand"].value,
        "set_rate": mine["set_rate"].value, "opponent_set_rate": theirs["set_rate"].value,
        "bags_per_hand": mine["bags_per_hand"].value, "opponent_bags_per_hand": theirs["bags_per_hand"].value,
        "paired_win_diff": paired["win_diff"].value, "paired_win_lo": paired["win_diff"].lo,
        "paired_win_hi": paired["win_diff"].hi, "paired_margin": paired["margin"].value,
        "paired_margin_lo": paired["margin"].lo, "paired_margin_hi": paired["margin"].hi,
    }  # fmt: skip


def _pimc_section(out, scale: float, workers: int) -> tuple[pd.DataFrame, str, str]:
    """pimc against expert (single hands, timed) and tips (games); DD tricks lost for tips, expert, pimc."""
    deals = scaled(PIMC_DEALS, scale, minimum=4)
    single = run_tournament([PIMC, EXPERT], out / "run" / "pimc_vs_expert", workers=workers, hands=deals,
                            duplicate=True, store_hands=False)  # fmt: skip
    single_seconds = PLAY_SECONDS[-1]
    game_deals = scaled(PIMC_GAME_DEALS, scale, minimum=2)
    games = run_tournament([PIMC, TIPS], out / "run" / "pimc_vs_tips", workers=workers, games=game_deals,
                           duplicate=True, store_hands=False)  # fmt: skip
    games_seconds = PLAY_SECONDS[-1]
    s_figs, g_figs = entrant_figures(single), entrant_figures(games)
    margin = paired_figures(single, PIMC)["margin"]
    ppp, epp = s_figs[PIMC]["points_per_hand"], s_figs[EXPERT]["points_per_hand"]
    win = g_figs[PIMC]["win_rate"]
    lost_hands = scaled(LOST_HANDS, scale, minimum=4)
    lost = {name: dd_tricks_lost(name, lost_hands, 6) for name in (TIPS, EXPERT, PIMC)}
    rows = [
        {"figure": "points per hand, pimc vs expert (single hands)", "value": ppp.value, "lo": ppp.lo, "hi": ppp.hi,
         "n": deals, "note": f"expert {epp.value:.1f} ({epp.lo:.1f} to {epp.hi:.1f})"},
        {"figure": "paired margin per hand, pimc minus expert", "value": margin.value, "lo": margin.lo, "hi": margin.hi,
         "n": deals, "note": f"{single_seconds:.0f} s of play for {deals} duplicate deals ({2 * deals} hands)"},
        {"figure": "win rate of pimc vs tips (games)", "value": win.value, "lo": win.lo, "hi": win.hi, "n": win.n,
         "note": f"{game_deals} duplicate deals, {games_seconds:.0f} s of play"},
    ] + [
        {"figure": f"DD tricks lost per side per hand before the contract, last {LOST_TRICKS} tricks: {name}",
         "value": v, "lo": lo, "hi": hi, "n": n, "note": f"{lost_hands} hands, all four seats {name}"}
        for name, (v, lo, hi, n) in lost.items()
    ]  # fmt: skip
    frame = pd.DataFrame(rows)
    tips_lost, expert_lost, pimc_lost = (lost[k][0] for k in (TIPS, EXPERT, PIMC))
    sentence = (f"counting+pimc scores {ppp.value:.1f} points per hand against counting+expert's {epp.value:.1f} on the "
                f"same {deals} single-hand deals (paired margin {margin.value:+.1f} per hand, {margin.lo:+.1f} to "
                f"{margin.hi:+.1f}; the match took {single_seconds:.0f} s of play on {workers} worker"
                f"{'s' if workers != 1 else ''}) and wins {win.value:.1%} ({win.lo:.1%} to {win.hi:.1%}) of "
                f"{win.n} finished games against counting+tips ({game_deals} duplicate deals). In the last {LOST_TRICKS} tricks, before their contract is made, tips gives away "
                f"{tips_lost:.2f} DD tricks per side per hand, expert {expert_lost:.2f}, pimc {pimc_lost:.2f}.")  # fmt: skip
    shown = frame.assign(value=[f"{v:.3f} ({lo:.3f} to {hi:.3f})" for v, lo, hi in
                                zip(frame["value"], frame["lo"], frame["hi"])])[["figure", "value", "n", "note"]]  # fmt: skip
    short = (
        f"\nNot measured here: pimc against tips over {DEALS} deals (this run played {game_deals}; each game of pimc "
        "is seconds of search)."
        if game_deals < DEALS
        else ""
    )
    body = f"""### pimc

`{PIMC}` searches (worlds=32) while at most `max_tricks` (default 8) tricks remain, live nils included, and
plays the expert's card before that (see docs/players.md); `experiments/strong_pimc.py` measures it part by part
(whole-hand DD tricks lost among them), see pimc.md. Points per hand over the single-hand match (interval clustered by hand);
the paired margin per deal (pimc minus expert, halved over the two seatings) with a normal interval; win rate
over finished games with its Wilson interval; DD tricks lost: per side and hand, the solver's tricks after the
best card minus after the card played, on the true deal, summed over the side's plays in the last
{LOST_TRICKS} tricks made before its contract is made (normal interval over side-hands).

{markdown_table(shown)}

These are the last {LOST_TRICKS} tricks only, so they are not comparable with the reference 2.35 for tips, which is
over all 13 tricks: the whole-hand figures (every card of all 13 tricks valued on the true deal) are measured
by `experiments/strong_pimc.py lost`, with their breakdown by trick and position, in [pimc.md](pimc.md).{short}"""
    return frame, sentence, body


def main(out_dir=None, scale: float = 1.0, workers: int = 2, switches=EXPERT_SWITCHES, pimc: bool = True):
    """counting+expert against counting+tips, and each expert addition against the expert without it."""
    timer = Timer()
    out = out_path(NAME, out_dir)
    deals = scaled(DEALS, scale)
    ablation_deals = scaled(ABLATION_DEALS, scale)
    head = run_tournament([EXPERT, TIPS], out / "run" / "expert_vs_tips", workers=workers, games=deals,
                          duplicate=True, store_hands=False)  # fmt: skip
    rows = [_row("expert vs tips", head, EXPERT, TIPS, deals)]
    for switch in switches:
        # each row: the expert with the addition against the expert without it; a switch off by default
        # is the entrant switched on, against the default expert
        on = getattr(ExpertParams(), switch)
        other = f"counting+expert({'-' if on else '+'}{switch})"
        result = run_tournament([EXPERT, other], out / "run" / switch, workers=workers, games=ablation_deals,
                                duplicate=True, store_hands=False)  # fmt: skip
        with_it, without = (EXPERT, other) if on else (other, EXPERT)
        rows.append(_row(switch, result, with_it, without, ablation_deals))
    table = pd.DataFrame(rows)
    table.to_csv(out / "strong_players.csv", index=False)
    bench_hands = scaled(300_000, scale, minimum=2_000)
    runs = [run_bench(["heuristic", "expert"], hands=bench_hands) for _ in range(3)]
    ratios = sorted(r["expert"]["hands_per_s"] / r["heuristic"]["hands_per_s"] for r in runs)
    tips_speeds = ", ".join(f"{r['heuristic']['hands_per_s']:,}" for r in runs)
    speed_text = (f"Speed, `spades-lab bench --json --workload heuristic --workload expert --hands {bench_hands}` run "
                  f"3 times in this run: expert/tips hands-per-second ratios {', '.join(f'{x:.2f}' for x in ratios)} "
                  f"(median {ratios[1]:.2f}; tips at {tips_speeds} "
                  f"hands/s). The target is at least 0.7. The machine is shared by several processes, so "
                  f"single runs vary widely; see docs/players.md.")  # fmt: skip
    pimc_sentence = pimc_body = ""
    csvs = ["strong_players.csv"]
    if pimc:
        pimc_frame, pimc_sentence, pimc_body = _pimc_section(out, scale, workers)
        pimc_speed = run_bench(["pimc"], hands=scaled(200, scale, minimum=4))["pimc"]
        pimc_body += (
            f"\n\nSpeed of the search, `spades-lab bench --json --workload pimc --hands "
            f"{scaled(200, scale, minimum=4)}` in this run: {pimc_speed['decisions_per_s']:.1f} searched "
            f"decisions/s ({pimc_speed['decisions']} decisions in {pimc_speed['seconds']:.0f} s)."
        )
        pimc_frame.to_csv(out / "pimc.csv", index=False)
        csvs.append("pimc.csv")
    whole_sentence, whole_table = whole_hand_lost(out)
    if whole_table:
        pimc_body += (
            "\n\n### DD tricks lost over whole hands\n\nThe statistic: every card of all 13 tricks valued "
            "by the solver on the true deal (best card's tricks minus the played card's), summed per side and hand "
            "over the plays made before the side's contract is made; normal interval over side-hands. Measured by "
            "`cd experiments && ../.venv/bin/python strong_pimc.py lost --hands N --players NAME [--tag TAG]` "
            "(full-deal solves take seconds each, so this script reads its saved results, pimc_lost.json; "
            "breakdowns by trick, position and situation in [pimc.md](pimc.md)).\n\n" + whole_table
        )
    main_row = table.iloc[0]
    ablation = table.iloc[1:].sort_values("win_rate")

    fig, ax = plt.subplots(figsize=(9, 0.45 * len(table) + 1.8))
    y = np.arange(len(table))
    shown = pd.concat([ablation, table.iloc[:1]])
    colours = ["tab:blue" if m == "expert vs tips" else
               ("tab:green" if lo > 0 else ("tab:red" if hi < 0 else "tab:gray"))
               for m, lo, hi in zip(shown["match"], shown["paired_win_lo"], shown["paired_win_hi"])]  # fmt: skip
    ax.barh(y, (shown["win_rate"] - 0.5) * 100, left=50,
            xerr=np.vstack([shown["win_rate"] - shown["win_lo"], shown["win_hi"] - shown["win_rate"]]) * 100,
            color=colours, capsize=3)  # fmt: skip
    ax.axvline(50, color="k", lw=0.8)
    ax.axvline(75, color="tab:blue", lw=0.8, ls="--")
    ax.set_yticks(y, [f"expert vs without {m}" if m != "expert vs tips" else "expert vs tips" for m in shown["match"]])
    ax.set_xlabel("win rate of counting+expert (%), 95% Wilson interval; dashed: the 75% target")
    ax.set_title(f"counting+expert against counting+tips ({deals:,} deals) and against itself without one addition\n"
                 f"({ablation_deals:,} deals each); duplicate, both seatings; green/red: the paired test helps/hurts",
                 fontsize=9)  # fmt: skip
    plot = save_figure(fig, out / "strong_players.png")

    helps = ablation[ablation["paired_win_lo"] > 0].sort_values("win_rate", ascending=False)
    hurts = ablation[ablation["paired_win_hi"] < 0]
    neutral = ablation[(ablation["paired_win_lo"] <= 0) & (ablation["paired_win_hi"] >= 0)]

    def listed(frame: pd.DataFrame) -> str:
        return (
            ", ".join(
                f"{s} ({w:.1%}, {lo:.1%} to {hi:.1%})"
                for s, w, lo, hi in zip(frame["match"], frame["win_rate"], frame["win_lo"], frame["win_hi"])
            )
            or "none"
        )

    verdict = "meets" if main_row["win_lo"] >= 0.75 else ("reaches" if main_row["win_rate"] >= 0.75 else "misses")
    answer = (f"counting+expert wins {main_row['win_rate']:.1%} of its games against counting+tips (95% Wilson "
              f"interval {main_row['win_lo']:.1%} to {main_row['win_hi']:.1%}, {int(main_row['finished']):,} finished "
              f"games, {deals:,} duplicate deals) and scores {main_row['points_per_hand']:.1f} points per hand "
              f"({main_row['points_per_hand_lo']:.1f} to {main_row['points_per_hand_hi']:.1f}) against "
              f"{main_row['opponent_points_per_hand']:.1f}: it {verdict} the 75% target"
              f"{' with its whole interval' if verdict == 'meets' else ''}. Of its {len(ablation)} additions, "
              f"{len(helps)} measurably help, {len(hurts)} measurably hurt and {len(neutral)} make no measurable "
              f"difference. {pimc_sentence} {whole_sentence}".rstrip())  # fmt: skip
    display = table.assign(
        win_rate=[f"{w:.1%} ({lo:.1%} to {hi:.1%})" for w, lo, hi in zip(table["win_rate"], table["win_lo"], table["win_hi"])],
        points_per_hand=[f"{p:.1f} ({lo:.1f} to {hi:.1f}) vs {o:.1f}" for p, lo, hi, o in
                         zip(table["points_per_hand"], table["points_per_hand_lo"], table["points_per_hand_hi"],
                             table["opponent_points_per_hand"])],
        paired_win_diff=[f"{w:+.1%} ({lo:+.1%} to {hi:+.1%})" for w, lo, hi in
                         zip(table["paired_win_diff"], table["paired_win_lo"], table["paired_win_hi"])],
        set_rate=[f"{a:.1%} vs {b:.1%}" for a, b in zip(table["set_rate"], table["opponent_set_rate"])],
    )[["match", "opponent", "deals", "finished", "win_rate", "paired_win_diff", "points_per_hand", "set_rate"]]  # fmt: skip
    default_off = [name for name in switches if not getattr(ExpertParams(), name)]
    off_note = (f"; the switches off by default, {', '.join(f'`{n}`' for n in default_off)}, are instead switched on, "
                "each row the expert with it against the default expert") if default_off else ""  # fmt: skip
    body = f"""Win rate of counting+expert over finished games with its Wilson interval; paired figures per deal (expert
minus opponent, averaged over the two seatings) with a normal interval; points per hand over all hands of the
games (interval clustered by game); set rate per hand, expert vs opponent.

{markdown_table(display)}

- The head-to-head: `{EXPERT}` against `{TIPS}`, {deals:,} deals played in both seatings ({2 * deals:,} games).
  The target is at least 75% of games.
- The other rows switch one expert addition off (`counting+expert(-SWITCH)`, the switches of
  `spades_lab.policies.expert`{off_note}): help (paired difference above 0): {listed(helps)}; hurt: {listed(hurts)};
  no measurable difference: {listed(neutral)}.

**What it means.** The cheat sheet's play leaves tricks on the table that a stronger card player takes, so a
bidding idea measured with `tips` play is measured against weak defence: run bidding experiments with
`counting+expert` opponents too. Each addition is measured in the company of the others: one that only matters
when another is off (two doing the same job) shows up here as worth little.

{speed_text}

{pimc_body}"""
    cmd = command(NAME, scale, out_dir, workers)
    setup = (f"{1 + len(switches) + 2 * pimc} duplicate tournaments, standard rules, games to {RULES.target} stopped at "
             f"{RULES.hand_cap} hands (a stopped game counts as unfinished, never as a win).")  # fmt: skip
    write_readme(out, title="Strong players: expert against tips",
                 question="Does the `expert` card play beat the cheat sheet's `tips` play, and by how much?",
                 claim="The tips (docs/strategies.md) read literally: spare only partner's led ace, always duck "
                       "under partner, never ruff second, throw kings to make voids, duck every trick once the "
                       "contract is made.",
                 answer=answer, body=body, cmd=cmd, setup=setup, seconds=timer.seconds, plots=[plot.name],
                 csvs=csvs)  # fmt: skip
    return out


if __name__ == "__main__":
    cli(NAME, main, engines=False)
