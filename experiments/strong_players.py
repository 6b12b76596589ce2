"""Strong players: does the `expert` play beat the cheat sheet's `tips` play, what is each addition worth, and how
much more does the `pimc` search player take?

Duplicate games of counting+expert against counting+tips, then of the expert against itself with one addition
switched (off, or on for the additions off by default). Then pimc: a timed duplicate match of single hands against
the expert, duplicate games against tips, and the DD tricks each player gives away in the last tricks
(`spades_lab.stats.lost`); the whole-hand figures are those `strong_pimc.py lost` saved (pimc_lost.json).
"""

from __future__ import annotations

import json

import pandas as pd
from common import RULES, Experiment, cli, fmt

import spades_lab as sl
from spades_lab.bench import run_bench
from spades_lab.players.identity import player_differences, player_identity
from spades_lab.policies.expert import EXPERT_SWITCHES, ExpertParams
from spades_lab.stats.estimates import paired_estimate, ratio_estimate
from spades_lab.stats.lost import tricks_lost

EXPERT, TIPS, PIMC = "counting+expert", "counting+tips", "counting+pimc"
DEALS = {"as given": 600}
PIMC_DEALS = {"as given": 200}
"""Duplicate single hands of the timed pimc match."""
LOST_HANDS, LOST_TRICKS = 100, 7
"""Hands per player for the DD tricks lost, checked over the last 7 tricks (whole hands: strong_pimc.py lost)."""
TARGETS = {TIPS: "2.35 (the reference measure of tips)", EXPERT: "<= 1.5", PIMC: "<= 0.8"}


def measured(name: str, entry: dict) -> str:
    """Why a saved whole-hand figure may not be the current player's ('' when it is)."""
    if "player" not in entry:
        return "saved before measurements recorded the player: may be an earlier version"
    changed = player_differences({name: entry["player"]}, {name: player_identity(name)})
    return f"measured with another version of the player ({changed[0].split(': ', 1)[1]})" if changed else ""


def whole_hand(exp: Experiment) -> str:
    path = exp.out / "pimc_lost.json"
    if not path.exists():
        return ""
    rows = [f"| `{key}` | {e['value']:.2f} ({e['lo']:.2f} to {e['hi']:.2f}) | {e['side_hands']} | "
            f"{TARGETS.get(key.split(' [')[0], '')} | {measured(key.split(' [')[0], e) or 'the current player'} |"
            for key, e in json.loads(path.read_text()).items()]  # fmt: skip
    return ("### DD tricks lost over whole hands\n\nEvery card of all 13 tricks valued on the true deal "
            "(`strong_pimc.py lost`, saved in pimc_lost.json; breakdowns in [pimc.md](pimc.md)):\n\n"
            "| player | DD tricks lost per side per hand (95%) | side-hands | target | player checked |\n"
            "|---|---|---|---|---|\n" + "\n".join(rows))  # fmt: skip


def main(out_dir=None, scale: float = 1.0, workers: int = 2, engines=(), switches=EXPERT_SWITCHES, pimc: str = PIMC):
    """counting+expert against counting+tips, each expert addition against the expert without it, and pimc."""
    exp = Experiment("strong_players", out_dir, scale, workers, (), DEALS)
    exp.engines = ["as given"]
    head = exp.compare("expert vs tips", lambda e: EXPERT, lambda e: TIPS, [sl.Claim(
        "counting+expert wins 75% of its games against counting+tips", figure="win_rate", than=0.75,
        above="meets the target", below="misses the target", neither="reaches it, not with its whole interval")])  # fmt: skip
    comparisons, checks = {"expert vs tips": head}, list(head.claims)
    for switch in switches:
        on = getattr(ExpertParams(), switch)
        other = f"counting+expert({'-' if on else '+'}{switch})"
        with_it, without = (EXPERT, other) if on else (other, EXPERT)
        c = exp.compare(switch, lambda e, a=with_it: a, lambda e, b=without: b, [sl.Claim(
            f"`{switch}` helps the expert", figure="paired_win_diff", above="helps", below="hurts")])  # fmt: skip
        comparisons[switch] = c
        checks += c.claims
    verdicts = [c.per_engine["as given"][1] for c in checks[1:]]
    win = head.estimate("win_rate")
    answer = (f"counting+expert wins {fmt(win, 'win_rate')} of its games against counting+tips "
              f"({head.deals['as given']:,} duplicate deals): {checks[0].per_engine['as given'][1]} of 75%. Of its "
              f"{len(verdicts)} additions, {verdicts.count('helps')} measurably help, {verdicts.count('hurts')} "
              f"measurably hurt and {verdicts.count('no measurable difference')} make no measurable difference.")  # fmt: skip
    ratios = sorted(r["expert"]["hands_per_s"] / r["heuristic"]["hands_per_s"] for r in
                    (run_bench(["heuristic", "expert"], hands=max(2_000, round(300_000 * scale))) for _ in range(3)))  # fmt: skip
    text = (f"Speed (`spades-lab bench --workload heuristic --workload expert`, 3 runs): expert/tips hands-per-second "
            f"ratios {', '.join(f'{x:.2f}' for x in ratios)}; the target is at least 0.7.")  # fmt: skip
    if pimc:
        single = exp.run(lambda **k: sl.tournament([pimc, EXPERT], hands=k.pop("deals"), duplicate=True,
                                                   store_hands=False, **k), "as given", "pimc_vs_expert",
                         deals=PIMC_DEALS)  # fmt: skip
        games = single.games.assign(margin=lambda g: (g["score"] - g["opp_score"]).astype(float))
        pph = {e: ratio_estimate(games[games["entrant"] == e]["score"], games[games["entrant"] == e]["hands"])
               for e in (pimc, EXPERT)}  # fmt: skip
        margin = paired_estimate(games, "margin", pimc, 0.5)
        versus_tips = exp.compare("pimc vs tips", lambda e: pimc, lambda e: TIPS)
        comparisons["pimc vs tips"] = versus_tips
        hands = max(4, round(LOST_HANDS * scale))
        lost = {p: tricks_lost(p, hands, 6, workers, LOST_TRICKS).estimate() for p in (TIPS, EXPERT, pimc)}
        answer += (f" {pimc} scores {pph[pimc].value:.1f} points per hand against counting+expert's "
                   f"{pph[EXPERT].value:.1f} on the same {len(games) // 2:,} single hands (paired margin "
                   f"{fmt(margin, 'paired_margin')} per hand) and wins {fmt(versus_tips.estimate('win_rate'), 'win_rate')}"
                   f" of its games against counting+tips. In the last {LOST_TRICKS} tricks, before their contract is "
                   "made, DD tricks lost per side per hand: "
                   + ", ".join(f"{p.split('+')[1]} {e.value:.2f}" for p, e in lost.items()) + ".")  # fmt: skip
        text += (f"\n\n### pimc\n\nSingle-hand match against the expert ({single.seconds:.0f} s of play this run): "
                 f"points per hand {fmt(pph[pimc], 'points_per_hand')} against {fmt(pph[EXPERT], 'points_per_hand')}."
                 f" DD tricks lost per side per hand in the last {LOST_TRICKS} tricks ({hands} hands, all four seats "
                 "the same player; not comparable with the whole-hand figures): "
                 + "; ".join(f"`{p}` {fmt(e, 'points_per_hand')}" for p, e in lost.items()) + ".")  # fmt: skip
        pd.DataFrame([{"player": p, "figure": f"dd_tricks_lost_last_{LOST_TRICKS}", **e.row("value")}
                      for p, e in lost.items()]).to_csv(exp.out / "pimc.csv", index=False)  # fmt: skip
    return exp.readme(
        title="Strong players: expert against tips",
        question="Does the `expert` card play beat the cheat sheet's `tips` play, and by how much?",
        sheet="The tips (docs/strategies.md) read literally: spare only partner's led ace, always duck under partner, "
        "never ruff second, throw kings to make voids, duck every trick once the contract is made.",
        checks=checks,
        answer_claims=0,
        answer=answer,
        comparisons=comparisons,
        figures=["win_rate", "points_per_hand", "paired_win_diff"],
        meaning=f"**What it means.** A bidding idea measured with `tips` play is measured against weak defence: run "
        "bidding experiments with `counting+expert` opponents too. Each addition is measured in the company "
        f"of the others.\n\n{text}\n\n{whole_hand(exp)}",  # fmt: skip
        setup=f"Standard rules, games to {RULES.target} stopped at {RULES.hand_cap} hands; the switches off by "
        "default are switched on instead, each against the default expert.",
    )


if __name__ == "__main__":
    cli("strong_players", main, texts=["pimc"], switches="expert switches to measure, comma-separated (default: every "
        "one)", pimc=f"the search player (default {PIMC})")  # fmt: skip
