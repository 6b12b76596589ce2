"""`spades-lab compare`: `compare()` on the command line (tables in the terminal, --json, --plot)."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from spades_lab.compare import Claim, CompareError, compare
from spades_lab.players.seats import beside
from spades_lab.rules import PRESETS, load_rules

CLAIM_HELP = (
    "a claim to judge per engine: 'FIGURE[=ABOUT]: TEXT', e.g. 'bag_penalty_points_per_game=100: cautious pays"
    " about 100 points of bags' (without =ABOUT the claim is about the figure's sign); repeat for more"
)


def parse_claim(text: str) -> Claim:
    """A `--claim` argument: `FIGURE[=ABOUT]: TEXT` (TEXT optional)."""
    head, _, words = text.partition(":")
    figure, _, about = head.partition("=")
    value = None
    if about.strip():
        try:
            value = float(about)
        except ValueError:
            raise CompareError(f"--claim {text!r}: ABOUT must be a number, got {about.strip()!r}") from None
    return Claim(words.strip() or head.strip(), figure=figure.strip(), about=value)


def add_parser(sub: Any, positive: Any) -> None:
    """The `compare` subcommand's arguments."""
    cmp = sub.add_parser("compare", help="is CANDIDATE better than BASELINE, per play engine, on duplicate deals")
    cmp.add_argument("candidate", help="bid policy (with --play) or whole player BID+PLAY")
    cmp.add_argument("baseline", help="bid policy (with --play) or whole player BID+PLAY")
    cmp.add_argument("--play", help="card-play engines, comma-separated (e.g. tips,expert,pimc); needs bid policies")
    cmp.add_argument("--beside", metavar="PARTNER",
                     help="the candidate bids for one seat of each side, beside a partner bidding PARTNER")  # fmt: skip
    cmp.add_argument("--deals", type=positive, default=1000, help="duplicate deals per engine (the most, sequential)")
    cmp.add_argument("--seed", type=int, default=0, help="seed of every deal (the same deals for every engine)")
    cmp.add_argument("--rules", default="standard", help=f"preset ({', '.join(PRESETS)}) or a .toml/.json file")
    cmp.add_argument("--hand-cap", type=positive, help="stop games after this many hands as unfinished")
    cmp.add_argument("--sequential", action="store_true", help="stop as soon as the paired result is decided (GSPRT)")
    cmp.add_argument("--delta", type=float, default=0.05, help="sequential: smallest paired win difference to detect")
    cmp.add_argument("--alpha", type=float, default=0.05, help="sequential: false 'better' verdict rate, in (0, 0.5)")
    cmp.add_argument("--beta", type=float, default=0.05, help="sequential: rate of missing delta, in (0, 0.5)")
    cmp.add_argument("--round-deals", type=positive, default=100, help="sequential: deals per round")
    cmp.add_argument("--claim", action="append", default=[], help=CLAIM_HELP)
    cmp.add_argument("--workers", type=positive, default=1, help="local worker processes")
    cmp.add_argument("--out", help="directory to keep (and resume) the tournaments, one per engine")
    cmp.add_argument("--plot", metavar="FILE", help="draw the paired win difference per engine to FILE (PNG/SVG/PDF)")
    cmp.add_argument("--json", action="store_true", help="print everything as one JSON object")
    cmp.add_argument("--quiet", action="store_true", help="no progress bar")
    cmp.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    claims = [parse_claim(c) for c in args.claim]
    rules = load_rules(args.rules)
    if args.hand_cap is not None:
        rules = rules.replace(hand_cap=args.hand_cap)
    candidate: Any = beside(args.candidate, partner=args.beside) if args.beside else args.candidate
    result = compare(
        candidate, args.baseline, args.play, rules=rules, deals=args.deals, seed=args.seed,
        stop="sequential" if args.sequential else "fixed", delta=args.delta, alpha=args.alpha, beta=args.beta,
        round_deals=args.round_deals, claims=claims, workers=args.workers, out=args.out,
        progress=False if args.quiet or args.json else None,
    )  # fmt: skip
    if args.plot:
        fig = result.plot()
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)
    if args.json:
        print(json.dumps(result.to_dict(), default=str))
        return 0
    print(result)
    print()
    with with_pandas_width():
        print(result.table().to_string())
    if args.plot:
        print(f"plot in {os.path.abspath(args.plot)}")
    return 0


def with_pandas_width() -> Any:
    import pandas as pd

    return pd.option_context("display.width", 200, "display.max_columns", 20, "display.max_colwidth", 40)
