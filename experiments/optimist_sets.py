"""Does the optimist (+1) set its side about one hand in three?

Per play engine, duplicate deals against counting: an optimist partnership (both partners bid their count plus
one), and the sheet's literal case, one optimist beside a partner who bids the count. The set rate is sets per
hand (a hand where the side's contract was not made).
"""

from __future__ import annotations

from functools import partial

from common import ENGINES, RULES, Experiment, cli

import spades_lab as sl

DEALS = {"tips": 2_000, "expert": 2_000, "pimc": 100}
THIRD = partial(sl.Claim, figure="set_rate", about=1 / 3, within=0.05, above="above one in three",
                below="below one in three", neither="about one in three")  # fmt: skip


def main(out_dir=None, scale: float = 1.0, workers: int = 2, engines=tuple(ENGINES)):
    """Set rate per hand of optimist bidders against counting, per play engine."""
    exp = Experiment("optimist_sets", out_dir, scale, workers, engines, DEALS)
    loses = partial(sl.Claim, figure="paired_win_diff", above="wins more", below="loses more")
    one = exp.compare("one optimist", sl.beside("optimist", partner="counting"), "counting", [
        THIRD("one optimist sets its side about one hand in three"),
        loses("the optimist loses"),
        THIRD("counting itself is set", side="baseline"),
        sl.Claim("the extra trick raises the set rate", figure="paired_sets_per_game", above="raises it",
                 below="lowers it")])  # fmt: skip
    partnership = exp.compare("partnership", "optimist", "counting", [
        loses("an optimist partnership loses")])  # fmt: skip
    return exp.readme(
        title="Does the optimist set its side one hand in three?",
        question="Does a player who adds a trick to his count set his side about one hand in three?",
        sheet='"Un joueur qui en rajoute un par optimisme fait chuter son camp une main sur trois" (a player who '
        "adds one out of optimism sets his side one hand in three).",  # fmt: skip
        checks=[*one.claims, *partnership.claims],
        answer_claims=2,
        comparisons={"one optimist": one, "partnership": partnership},
        figures=[
            "set_rate",
            "hands_per_game",
            "win_rate",
            "points_per_hand",
            "paired_sets_per_game",
            "paired_win_diff",
            "paired_margin",
        ],  # fmt: skip
        meaning='**What it means.** "About one in three" means within 5 points of 33.3%. Sets per hand are a ratio '
        "over games, with an interval clustered by game (hands of one game are not independent).",
        setup=f"Standard rules, games stopped at {RULES.hand_cap} hands: a partnership whose first seat bids "
        "`optimist` and whose second bids `counting`, and `optimist+ENGINE`, each against `counting+ENGINE`.",
    )


if __name__ == "__main__":
    cli("optimist_sets", main)
