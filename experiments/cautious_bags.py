"""Does the cautious bidder (-1) cost its side about 100 points of bag penalties per game?

Per play engine, duplicate deals against counting: a cautious partnership (both partners bid their count minus
one, never below 1), and the sheet's literal case, one cautious player beside a partner who bids the count.
"""

from __future__ import annotations

from functools import partial

from common import ENGINES, RULES, Experiment, cli

import spades_lab as sl

DEALS = {"tips": 3_000, "expert": 3_000, "pimc": 50}


def main(out_dir=None, scale: float = 1.0, workers: int = 2, engines=tuple(ENGINES)):
    """Bag penalty points per game of cautious bidders against counting, per play engine."""
    exp = Experiment("cautious_bags", out_dir, scale, workers, engines, DEALS)
    bags = partial(sl.Claim, figure="paired_bag_penalty_points", about=100, within=10)
    games = partial(sl.Claim, figure="paired_win_diff", above="cautious wins more", below="cautious loses more")
    partnership = exp.compare("partnership", "cautious", "counting", [
        bags("a cautious partnership pays about 100 points of bags per game"),
        games("caution loses games (partnership)")])  # fmt: skip
    one = exp.compare("one cautious", sl.beside("cautious", partner="counting"), "counting", [
        bags("one cautious player pays about 100 points of bags per game"),
        games("caution loses games (one player)")])  # fmt: skip
    checks = [partnership.claims[0], partnership.claims[1], one.claims[0], one.claims[1]]
    return exp.readme(
        title="Does the cautious bidder cost 100 points of bags per game?",
        question="Does the cautious bidder (-1) cost its side about 100 points of bag penalties per game?",
        sheet="\"Un joueur qui en retire un par prudence coûte cent points de bags à son camp d'ici la fin de la "
        'partie" (a player who takes one off out of caution costs his side a hundred points of bags by the end '
        "of the game).",  # fmt: skip
        checks=checks,
        answer_claims=2,
        comparisons={"partnership": partnership, "one cautious": one},
        figures=[
            "paired_bag_penalty_points",
            "bag_penalty_points_per_game",
            "bags_per_hand",
            "set_rate",
            "paired_win_diff",
            "paired_margin",
        ],  # fmt: skip
        meaning="**What it means.** Bidding one trick under the count piles up bags, but it also avoids sets: the "
        'sheet\'s question is about bags, the win rate says whether the trade pays. "About 100" means within '
        "10 points of 100.",  # fmt: skip
        setup=f"Standard rules (10 bags cost {RULES.bag_penalty} points), games stopped at {RULES.hand_cap} hands: "
        "`cautious+ENGINE` against `counting+ENGINE`, and a partnership whose first seat bids `cautious` and "
        "whose second bids `counting` against `counting+ENGINE`.",  # fmt: skip
    )


if __name__ == "__main__":
    cli("cautious_bags", main)
