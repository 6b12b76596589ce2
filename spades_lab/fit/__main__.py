"""`python -m spades_lab.fit [continuation|dd|counts] [--check] [--write] [--out FILE]`: refit a shipped data
file from its recipe (`continuation` when no file is named)."""

from __future__ import annotations

import argparse
import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from spades_lab.fit import counts
from spades_lab.fit.leads import ContinuationRecipe, DdRecipe, continuation_data, dd_data, differences

FILES = {"continuation": "expert_leads_continuation.json", "dd": "expert_leads.json",
         "counts": "calibrated_weights.json"}  # fmt: skip


def refitted(args: argparse.Namespace) -> dict[str, Any]:
    if args.file == "continuation":
        return continuation_data(ContinuationRecipe(train_hands=args.train_hands or ContinuationRecipe.train_hands,
                                                    test_hands=args.test_hands or ContinuationRecipe.test_hands,
                                                    train_seed=args.seed or ContinuationRecipe.train_seed))  # fmt: skip
    if args.file == "dd":
        return dd_data(DdRecipe(train_hands=args.train_hands or DdRecipe.train_hands,
                                test_hands=args.test_hands or DdRecipe.test_hands,
                                train_seed=args.seed or DdRecipe.train_seed))  # fmt: skip
    recipe = counts.CountRecipe(seed=args.seed or counts.CountRecipe.seed, deals=args.deals or counts.CountRecipe.deals,
                                paired_deals=args.paired_deals or counts.CountRecipe.paired_deals)  # fmt: skip
    raw = Path(args.raw)
    counts.solve(raw, recipe, args.workers, args.minutes)
    base, _, _, _ = counts.refit(raw, recipe)
    return counts.weights_data(base, recipe.seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m spades_lab.fit", description=__doc__)
    parser.add_argument("file", nargs="?", choices=list(FILES), default="continuation", help="the file to refit")
    parser.add_argument("--check", action="store_true", help="compare with the shipped file (exit 1 if different)")
    parser.add_argument("--write", action="store_true", help="ship the refitted file")
    parser.add_argument("--out", help="write the refitted file here")
    parser.add_argument("--seed", type=int, help="the recipe's (training) seed")
    parser.add_argument("--train-hands", type=int, help="continuation, dd: hands to fit on")
    parser.add_argument("--test-hands", type=int, help="continuation, dd: held-out hands")
    parser.add_argument("--deals", type=int, help="counts: deals solved with spades broken")
    parser.add_argument("--paired-deals", type=int, help="counts: deals also solved under the standard rules")
    parser.add_argument("--raw", default="count_calibration_raw", help="counts: folder of the solved deals (resumed)")
    parser.add_argument("--workers", type=int, default=1, help="counts: processes solving deals")
    parser.add_argument("--minutes", type=float, default=float("inf"), help="counts: stop solving after this")
    args = parser.parse_args(argv)
    data = refitted(args)
    text = json.dumps(data, indent=1) + "\n"
    shipped = Path(str(resources.files("spades_lab.policies").joinpath("data", FILES[args.file])))
    for target in [args.out] * bool(args.out) + [str(shipped)] * args.write:
        Path(target).write_text(text)
        print(f"wrote {target}")
    if args.check:
        differ = differences(data, json.loads(shipped.read_text()))
        print("the shipped file is reproduced" if not differ else "differs in: " + ", ".join(differ))
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
