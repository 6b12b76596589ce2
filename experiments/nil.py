"""How often is the nil rule's nil made, and what is nil coverage worth?

Per play engine, duplicate deals: counting+ENGINE (the sheet's nil rule; its play covers partner's nil) against
counting+ENGINE(-nil_coverage), the same bids and play except that the nil bidder's partner plays as if there
were no nil to protect. Both sides still play their own nil carefully and attack the opponents' nils.
"""

from __future__ import annotations

from functools import partial

from common import ENGINES, RULES, Experiment, cli, play

import spades_lab as sl

DEALS = {"tips": 5_000, "expert": 5_000, "pimc": 100}


def main(out_dir=None, scale: float = 1.0, workers: int = 2, engines=tuple(ENGINES)):
    """Nil success of counting with and without nil coverage, and what coverage is worth in games."""
    exp = Experiment("nil", out_dir, scale, workers, engines, DEALS)
    helps = partial(sl.Claim, above="helps", below="hurts")
    c = exp.compare("coverage", lambda e: f"counting+{play(e)}", lambda e: f"counting+{play(e, 'nil_coverage')}", [
        sl.Claim("the nil rule's nils are made (with coverage)", figure="nil_success", than=0.5,
                 above="mostly made", below="mostly failed", neither="cannot tell"),
        helps("coverage makes nils succeed", figure="nil_success_diff"),
        helps("coverage wins games", figure="paired_win_diff")])  # fmt: skip
    return exp.readme(
        title="Nil: how often is it made, and what is coverage worth?",
        question="How often is the nil rule's nil made, and what is nil coverage worth?",
        sheet='Bid nil with no ace, no singleton king, few and low spades ("trois piques dont le plus haut est le '
        'six, c\'est sûr"); partner covers: "prendre la main, la garder, et monter au-dessus de vous sur tout '
        'pli auquel vous ne pouvez pas échapper".',  # fmt: skip
        checks=c.claims,
        answer_claims=3,
        comparisons={"coverage on against off": c},
        figures=[
            "nil_success",
            "nil_bids_per_hand",
            "nil_success_diff",
            "win_rate",
            "paired_win_diff",
            "paired_margin",
        ],  # fmt: skip
        meaning="**What it means.** The nil rule (no ace, no singleton king, at most three spades none above the 6, "
        "count below 2) picks the nils; the opponents attack them with each engine's own play. "
        "`-nil_coverage` turns partner's cover off: under `expert` (and `pimc`, which plays the expert's card "
        "while a nil is live) that also turns off the expert's `safe_coverage` leads, which act only while "
        "covering. Nil success counts the nil bids of one game as independent.",  # fmt: skip
        setup=f"Standard rules (nil ±{RULES.nil_value}, tricks of a failed nil count as bags), games stopped at "
        f"{RULES.hand_cap} hands: `counting+ENGINE` against `counting+ENGINE(-nil_coverage)`.",
    )


if __name__ == "__main__":
    cli("nil", main)
