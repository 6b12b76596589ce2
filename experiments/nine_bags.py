"""At nine bags, is bidding the extra trick better than the borderline count?

Per play engine, duplicate deals: counting (bag-aware: a side at 9 bags, modulo 10, rounds a count whose
fractional part is at least .5 up) against counting(bag_aware=False) (always rounds down). Two looks: whole games,
paired deal by deal; and the first hand where the two tables' bids part, an exact counterfactual (same cards,
scores and bags; one table bid the extra trick, the other the floor; `spades_lab.stats.divergence`).
"""

from __future__ import annotations

from common import ENGINES, RULES, Experiment, cli

import spades_lab as sl

DEALS = {"tips": 10_000, "expert": 10_000, "pimc": 100}


def main(out_dir=None, scale: float = 1.0, workers: int = 2, engines=tuple(ENGINES)):
    """Bag-aware rounding at nine bags against always rounding down, per play engine."""
    exp = Experiment("nine_bags", out_dir, scale, workers, engines, DEALS)
    c = exp.compare("bag-aware vs floor", "counting", "counting(bag_aware=False)", [
        sl.Claim("bag-aware rounding wins games", figure="paired_win_diff", above="yes", below="no"),
        sl.Claim("the extra trick pays on the hand", figure="divergent_hand_margin", above="ahead", below="behind"),
        sl.Claim("the extra trick avoids the tenth bag", figure="divergent_bag_penalty", above="more penalties",
                 below="fewer penalties"),
        sl.Claim("the extra trick costs sets", figure="divergent_set", above="more sets", below="fewer sets")])  # fmt: skip
    spots = []
    for e in c.engines:
        frame, _ = c.divergence(e)
        extra = frame["contract_cand"] - frame["contract_base"]
        if not ((extra >= 1).all() and (frame["bags_before"] % RULES.bag_threshold == RULES.bag_threshold - 1).all()):
            raise AssertionError("a divergent hand is not a bag-aware round-up at nine bags")
        spots.append(f"`{ENGINES[e]}` {len(frame):,} of {c.deals[e]:,} deals ({int((extra >= 2).sum()):,} with an "
                     "extra trick of 2, both partners borderline)")  # fmt: skip
    return exp.readme(
        title="At nine bags, bid the extra trick?",
        question="At nine bags, is bidding the extra trick better than the borderline count?",
        sheet='"Vous êtes à neuf bags avec une main limite : annoncez le pli supplémentaire. Moins cinquante pour une '
        'chute vaut mieux que moins cent pour le dixième bag." (at nine bags with a borderline hand, bid the extra '
        "trick: -50 for a set beats -100 for the tenth bag.)",
        checks=c.claims,
        answer_claims=2,
        comparisons={"bag-aware vs floor": c},
        figures=["win_rate", "set_rate", "bag_penalty_points_per_game", "paired_win_diff", "paired_margin"],
        meaning="**The hands where it matters.** Deals whose tables part at a hand with one side at 9 bags and "
        "borderline (deals where both sides were at once are left out): " + "; ".join(spots) + ". The "
        "divergent figures are the bag-aware table minus the floor table on that hand (the game's end for "
        "the win).",  # fmt: skip
        setup=f"Standard rules (the tenth bag costs {RULES.bag_penalty} points), games stopped at {RULES.hand_cap} "
        "hands: `counting+ENGINE` against `counting(bag_aware=False)+ENGINE`.",
    )


if __name__ == "__main__":
    cli("nine_bags", main)
