"""How much margin should a bid leave below its double-dummy expectation? The win-rate curve, per play engine.

Each seat bids its hand's expected DD tricks minus a margin m, rounded half up, for m in MARGINS, against
`counting`, both sides playing the same engine, on the same duplicate deals at every margin. The DD expectation is
the `calibrated` bidder's (the count's parts valued at their fitted DD worth, results/count_calibration), so
`calibrated(dd_margin=m)` is the bidder at margin m; the exact `dd` bidder costs several full-deal solves a bid.
Then `calibrated` at its shipped margin against `counting` on fresh deals (the margin was chosen on the curve's).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
from common import ENGINES, RULES, SEED, Experiment, cli, markdown

import spades_lab as sl
from spades_lab.compare import ClaimCheck, Sweep
from spades_lab.policies.calibrated import CalibratedParams

MARGINS = (-1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0)
DEALS = {"tips": 500, "expert": 500, "pimc": 12}
SHIPPED_DEALS = {"tips": 1_000, "expert": 2_000, "pimc": 30}
SHIPPED = CalibratedParams().dd_margin


def main(out_dir=None, scale: float = 1.0, workers: int = 2, engines=tuple(ENGINES)):
    """Win rate against counting of bidding the DD expectation minus a margin, per margin and play engine."""
    exp = Experiment("bid_margin", out_dir, scale, workers, engines, DEALS)
    curves = exp.sweep("curve", "calibrated(dd_margin={})", MARGINS, "counting")
    shipped = exp.compare("shipped", "calibrated", "counting", [
        sl.Claim(f"calibrated (its default margin {SHIPPED:g}) beats counting", figure="paired_win_diff",
                 above="wins more", below="loses more")], deals=SHIPPED_DEALS, seed=SEED + 1)  # fmt: skip
    best = {e: s.best() for e, s in curves.items()}
    raw = sl.Claim("bidding the raw DD expectation (margin 0) beats counting", figure="paired_win_diff",
                   above="wins more", below="loses more")  # fmt: skip
    one = sl.Claim("a margin of one trick beats the raw expectation (margin 1 minus 0, paired by deal)",
                   figure="paired_win_diff", above="margin 1 wins more", below="margin 0 wins more")  # fmt: skip
    checks = [
        ClaimCheck(sl.Claim("the best margin", figure="paired_win_diff"),
                   {e: (est, f"best at {m:+g}") for e, (m, est) in best.items()}),
        *shipped.claims,
        ClaimCheck(raw, {e: s.comparisons[MARGINS.index(0.0)].check(raw).per_engine[ENGINES[e]]
                         for e, s in curves.items()}),
        ClaimCheck(one, {e: (d := s.difference(1.0, 0.0), one.judge(d)) for e, s in curves.items()}),
    ]  # fmt: skip
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for s in curves.values():
        s.plot(ax)
    ax.set_xlabel("margin: tricks bid below the DD expectation (calibrated count)")
    fig.savefig(exp.out / "curve.png", dpi=120)
    return exp.readme(
        title="Bid margin: how far below the DD expectation should a bid be?",
        question="How much margin should a bid leave below its double-dummy expectation (margins -1 to +2)?",
        sheet="Bid the count, round down (section 1); the optimist adds a trick, the cautious bidder takes one off "
        "(section 7). Here the bid is the expected DD tricks less a margin.",
        checks=checks,
        answer_claims=2,
        plots=["curve.png"],
        comparisons={"calibrated vs counting, fresh deals": shipped},
        figures=["win_rate", "paired_win_diff", "paired_margin", "set_rate", "bags_per_hand"],
        meaning="### The curve\n\nPaired win difference against `counting` per margin (95% interval), the same "
        "deals at every margin:\n\n"
        + "\n\n".join(f"`{ENGINES[e]}`:\n\n" + curve_table(s) for e, s in curves.items()),  # fmt: skip
        setup=f"Standard rules, games stopped at {RULES.hand_cap} hands: `calibrated(dd_margin=m)+ENGINE` against "
        f"`counting+ENGINE` for every margin (seed {SEED}), then `calibrated+ENGINE` against `counting+ENGINE` on "
        f"fresh deals (seed {SEED + 1}; deals: "
        + "; ".join(f"`{ENGINES[e]}` {exp.deals(e, SHIPPED_DEALS):,}" for e in exp.engines)
        + ").",
    )


def curve_table(s: Sweep) -> str:
    c = s.curve
    return markdown(c.assign(value=c["value"].map("{:+g}".format), paired_win_diff=[
        f"{v:+.1%} ({lo:+.1%} to {hi:+.1%})" for v, lo, hi in zip(c["paired_win_diff"], c["lo"], c["hi"])])[
        ["value", "paired_win_diff", "deals", "verdict"]])  # fmt: skip


if __name__ == "__main__":
    cli("bid_margin", main)
