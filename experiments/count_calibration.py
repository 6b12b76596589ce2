"""What each part of the cheat sheet's trick count is worth in double-dummy tricks (`spades_lab.fit.counts`).

Solves the missing deals of the recipe (resumes; `--minutes` bounds a run), refits, and writes
results/count_calibration/: weights.csv, weights_extended.csv, weights.png and README.md. The shipped weights of
the `calibrated` bidder are rewritten only by `python -m spades_lab.fit counts --write` (the same fit).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import ROOT, machine, markdown

from spades_lab.fit import counts


def shown(t: pd.DataFrame) -> str:
    cells = {c: [f"{v:.3f} ({lo:.3f} to {hi:.3f})" for v, lo, hi in zip(t[c], t[f"{c}_lo"], t[f"{c}_hi"])]
             for c in ("standard", "broken", "correction", "plain")}  # fmt: skip
    return markdown(pd.DataFrame({"feature": t["feature"], "standard rules (95% CI)": cells["standard"],
                                  "spades broken": cells["broken"], "d = spades - broken": cells["correction"],
                                  "paired deals only": cells["plain"], "sheet": t["sheet"]}))  # fmt: skip


def main(out_dir=None, deals: int = 100_000, workers: int = 1, minutes: float = 50.0, paired: int = 5_300):
    """Solve (resuming) and refit the count calibration, then write its results folder."""
    out = ROOT / "results" / "count_calibration" if out_dir is None else Path(out_dir)
    raw = out / "raw"
    recipe = counts.CountRecipe(deals=deals, paired_deals=paired)
    counts.solve(raw, recipe, workers, minutes)
    base, extended, broken, spades = counts.refit(raw, recipe, least=min(30, deals))
    tb, te = counts.weights_table(base), counts.weights_table(extended)
    tb.to_csv(out / "weights.csv", index=False)
    te.to_csv(out / "weights_extended.csv", index=False)
    t = tb[tb["feature"] != "intercept"]
    fig, ax = plt.subplots(figsize=(7, 0.38 * len(t) + 1))
    y = np.arange(len(t))[::-1]
    ax.errorbar(t["standard"], y, xerr=[t["standard"] - t["standard_lo"], t["standard_hi"] - t["standard"]], fmt="o",
                label="standard rules (95% CI)")  # fmt: skip
    ax.scatter(t["sheet"], y, marker="x", color="C3", label="cheat sheet")
    ax.set(yticks=y, yticklabels=t["feature"], xlabel="double-dummy tricks")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "weights.png", dpi=120)
    c = tb.set_index("feature")

    def w(name: str, label: str = "standard") -> str:
        r = c.loc[name]
        return f"{r[label]:.2f} (95% CI {r[f'{label}_lo']:.2f} to {r[f'{label}_hi']:.2f})"

    def ratio(name: str) -> str:
        v, lo, hi = base.standard.ratio(name, "side_ace")
        return f"{v:.2f} of it (95% CI {lo:.2f} to {hi:.2f})"

    short = "" if len(broken) >= deals else f" (**not the {deals:,} asked for**: the same command resumes)"
    text = f"""# Count calibration: what each part of the trick count is worth double dummy

**Question.** The cheat sheet counts one trick for each ace, each guarded king, each queen beside its ace or
king and each spade beyond the third: what is each of them worth in double-dummy tricks?

**Answer.** Under the standard rules, a side's DD tricks rise by {w("ace_spade")} per ace of spades, {w("side_ace")} per side ace, {w("side_king")} per guarded side king, {w("side_queen")} per side queen held with its suit's ace or king, and {w("spade_length_value")} per spade beyond the third. The sheet counts each of them 1. Against a side ace, a side queen beside its ace or king is worth {ratio("side_queen")} and a guarded side king {ratio("side_king")}. The first-trick rule (no spade lead to the first trick) is worth {w("on_lead", "correction")} tricks to the side on lead, against {w("on_lead", "broken")} for the lead itself when spades are broken. It rests on {len(broken):,} deals with spades broken{short} and {base.correction.deals:,} of them also solved under the standard rules.

## Method

Deal i is `numpy.random.default_rng([{recipe.seed}, i])`. Each deal is solved with spades broken from the first lead
(bridge play with spades as trumps: DDS when `endplay` imports, else our solver; the values are the same) and, for
the first {recipe.paired_deals:,}, under the standard rules (only our solver knows the first-trick rule). Each deal
gives one row per side: its DD tricks, the sum of its two hands' features, and `on_lead`. Least squares with an
intercept, 95% intervals from a cluster-robust sandwich by deal. The standard-rule weights are the broken fit plus
the paired correction d (spades minus broken tricks on the deals solved both ways), with the joint covariance of
the two; "paired deals only" fits the standard rules on those deals alone, for comparison. Broken fit R^2
{base.broken.r2:.3f}, residual RMS {base.broken.rmse:.2f} tricks. The features, per hand:

{chr(10).join(f"- `{k}`: {v}" for k, v in counts.FEATURES.items())}
- `on_lead`: the side's seat leads the first trick.

## The count's parts (the standard-rule column is what the `calibrated` bidder ships)

{shown(tb)}

The `calibrated` bidder gives each hand half the intercept (`base` = {c.loc["intercept", "standard"] / 2:.3f}) and
half of `on_lead` to each hand of the side on lead.

![weights](weights.png)

## Extended model (parts the sheet counts 0)

{chr(10).join(f"- `{k}`: {v}" for k, v in counts.EXTRA.items())}

{shown(te)}

## Reproduce

```sh
.venv/bin/python experiments/count_calibration.py --workers 2 --minutes 95   # solves what is missing, resumes
.venv/bin/python -m spades_lab.fit counts --raw results/count_calibration/raw --check   # the shipped weights
```

The solved deals are Parquet chunks under `raw/` (ignored by git). Solving time summed over the chunks:
{broken["seconds"].fillna(0).sum():.0f} s (broken), {spades["seconds"].fillna(0).sum():.0f} s (standard rules).
Machine: {machine()}.
"""
    (out / "README.md").write_text(text)
    return out / "README.md"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--paired-deals", type=int, default=5_300)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=50.0)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    print(main(args.out, args.deals, args.workers, args.minutes, args.paired_deals))
