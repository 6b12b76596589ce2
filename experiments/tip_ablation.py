"""What is each play tip worth?

Per play engine and for every switch of the `tips` play (the sheet's eleven tips and its three nil rules), duplicate
deals of the full player, counting+ENGINE, against the same player with that one switch off: the expert and pimc
keep every tips switch (they play the tips' card where their own additions are silent). For scale, one more match
per engine pits the full player against counting+greedy ("win cheaply if you can, else play low").
"""

from __future__ import annotations

from common import ENGINES, RULES, Experiment, cli, play

import spades_lab as sl
from spades_lab.policies.play import SWITCHES

DEALS = {"tips": 2_000, "expert": 2_000, "pimc": 20}
PIMC_SWITCHES = ("nil_play", "nil_coverage", "set_opposing_nil")
"""The switches ablated under pimc (its budget allows few matches): the nil rules act in full there, since pimc plays
the expert's (and so the tips') card while a nil is live."""
LABELS = {name: (f"tip {i + 1}" if i < 11 else "nil rule") for i, name in enumerate(SWITCHES)}


def main(out_dir=None, scale: float = 1.0, workers: int = 2, engines=tuple(ENGINES), switches=SWITCHES):
    """counting+ENGINE against counting+ENGINE with one tip switched off, for every tip and engine."""
    exp = Experiment("tip_ablation", out_dir, scale, workers, engines, DEALS)
    full = lambda e: f"counting+{play(e)}"  # noqa: E731
    comparisons = {}
    for switch in switches:
        under = [e for e in exp.engines if e != "pimc" or switch in PIMC_SWITCHES]
        claim = sl.Claim(f"{LABELS[switch]}: `{switch}`", figure="paired_win_diff", above="helps", below="hurts")
        comparisons[switch] = exp.compare(switch, full, lambda e, s=switch: f"counting+{play(e, s)}", [claim], under)
    greedy = sl.Claim("reference: the engine against greedy play", figure="paired_win_diff", above="helps",
                      below="hurts")  # fmt: skip
    comparisons["greedy"] = exp.compare("greedy", full, lambda e: "counting+greedy", [greedy])
    checks = [c.claims[0] for c in comparisons.values()]
    tips = checks[:-1]
    count = {e: {v: sum(c.per_engine.get(e, (None, ""))[1] == v for c in tips) for v in ("helps", "hurts")}
             for e in exp.engines}  # fmt: skip
    tested = {e: sum(e in c.per_engine for c in tips) for e in exp.engines}

    def named(verdict: str) -> str:
        return ", ".join(c.claim.text.split(": ")[1] for c in tips if c.across == verdict) or "none"

    answer = ("Switches that measurably help / hurt: "
              + "; ".join(f"{e} {v['helps']} / {v['hurts']} of {tested[e]}" for e, v in count.items())
              + f". Across engines: holds {named('holds')}; flips {named('flips')}; changes {named('changes')};"
              " the rest differ only where an interval is too wide to tell.")  # fmt: skip
    return exp.readme(
        title="What is each play tip worth?",
        question="What is each play tip worth?",
        sheet='Eleven card-play tips ("Votre partenaire entame un as et vous êtes chicane : ne coupez pas", ...) '
        "and three nil rules (play of the nil, coverage by partner, setting the opponents' nil).",
        checks=checks,
        answer_claims=0,
        answer=answer,
        comparisons=comparisons,
        figures=["paired_win_diff", "paired_margin"],
        meaning="**What it means.** `counting+expert(-SWITCH)` and `counting+pimc(..., -SWITCH)` turn off the same "
        "tip inside the stronger player: a tip the expert's additions override can only be worth less there, "
        "and under pimc a tip acts only in the early tricks or around a nil, so only the nil rules are ablated "
        'under pimc ("not run" elsewhere). The expert\'s own additions are ablated in '
        "[strong_players](../strong_players/README.md). Each row measures a tip in the company of all the "
        "others: a tip that only matters when another one is off shows up as worth little.",  # fmt: skip
        setup=f"Standard rules, games stopped at {RULES.hand_cap} hands; tips numbered as in docs/strategies.md "
        "(the nil rules after them).",
    )


if __name__ == "__main__":
    cli("tip_ablation", main, switches="switches to ablate, comma-separated (default: every one)")
