"""The sequential test's false-verdict rate and its saving in deals, measured with `compare(stop="sequential")`.

Run: `.venv/bin/python docs/measure_sequential.py [--runs 200] [--power-runs 40]` (figures for docs/compare.md).

- False verdicts: `--runs` comparisons of a player against its twin, each with its own seed. A duplicate
  deal played by one deterministic player against itself gives the same game at both tables, so every
  paired difference is exactly 0 and nothing could go wrong; the twins instead differ in every game yet are
  equal by construction: both bid the counting bid plus one trick on a coin flip, the first on heads and the
  second on tails of the same per-decision draw (u < 0.5 against u >= 0.5). Reading every draw u as 1 - u
  turns each game of one into the matching game of the other, so the true paired difference is 0 and any
  "better" verdict is false.
- Saving: `--power-runs` sequential comparisons (own seeds) of cautious+tips and of calibrated+tips against
  counting+tips, their mean deals against the deals of the fixed-size two-sided test of the same error rates
  and delta, n = ((z(1 - alpha/2) + z(1 - beta)) sd / delta)^2, with sd the per-deal standard deviation the
  runs measured.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import spades_lab as sl
from spades_lab.compare import compare, pair_values
from spades_lab.players.registry import bid_policy
from spades_lab.stats.sequential import SequentialTest

RULES = sl.Rules(target=200, hand_cap=20)
"""Short games (to 200 points, stopped after 20 hands) keep several hundred comparisons within minutes."""


class CoinBidder:
    """The counting bid plus one trick when this seat's coin shows `heads` (u < 0.5) or tails (u >= 0.5)."""

    def __init__(self, heads: bool) -> None:
        self.base, self.heads = bid_policy("counting"), heads
        self.name = "coin_heads" if heads else "coin_tails"

    def bid(self, view) -> np.ndarray:
        bid = self.base.bid(view)
        u = view.uniform()
        flip = (u < 0.5) if self.heads else (u >= 0.5)
        legal = view.legal_bids
        up = np.minimum(bid + 1, legal.shape[1] - 1)
        ok = legal[np.arange(len(bid)), up] & (bid > 0)
        return np.where(flip & ok, up, bid)


def twins() -> tuple[sl.Player, sl.Player]:
    tips = sl.play_policy("tips")
    return (sl.Player(CoinBidder(True), tips, label="coin_heads+tips"),
            sl.Player(CoinBidder(False), tips, label="coin_tails+tips"))  # fmt: skip


def runs(candidate, baseline, n: int, first_seed: int, test: SequentialTest, most: int, step: int) -> dict:
    verdicts: dict[str, int] = {}
    deals, values = [], []
    for k in range(n):
        c = compare(candidate, baseline, rules=RULES, deals=most, seed=first_seed + k, stop="sequential",
                    round_deals=step, delta=test.delta, alpha=test.alpha, beta=test.beta, progress=False)  # fmt: skip
        verdict = c.verdict()
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
        deals.append(c.deals[c.engines[0]])
        result = c.results[c.engines[0]]
        values.append(pair_values(result.games[result.games["game"] < deals[-1]], c.names[c.engines[0]][0]))
    pooled = np.concatenate(values)
    sd = float(pooled.std(ddof=1))
    return {"runs": n, "verdicts": verdicts, "mean_deals": float(np.mean(deals)), "max_deals": int(max(deals)),
            "sd_per_deal": sd, "fixed_deals": test.fixed_deals(sd)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--power-runs", type=int, default=40)
    parser.add_argument("--most", type=int, default=2000, help="the most deals of one comparison")
    parser.add_argument("--round", type=int, default=50, help="deals per round")
    args = parser.parse_args()
    test = SequentialTest()
    out: dict = {"rules": "target 200, hand_cap 20", "test": test.describe(), "round_deals": args.round,
                 "most": args.most}  # fmt: skip
    start = time.perf_counter()
    if args.runs:
        null = runs(*twins(), args.runs, 1000, test, args.most, args.round)
        null["false_verdict_rate"] = (null["verdicts"].get("candidate better", 0)
                                      + null["verdicts"].get("baseline better", 0)) / args.runs  # fmt: skip
        out["twins"] = null
    for name in ("cautious+tips", "calibrated+tips") if args.power_runs else ():
        out[name] = runs(name, "counting+tips", args.power_runs, 5000, test, args.most, args.round)
    out["seconds"] = round(time.perf_counter() - start)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
