"""Which partner takes the forced nil in suicide, and do the games then finish?

Four players of one kind play complete `suicide` games under each variant of the counting bidder's
suicide nil rule (its `suicide_...` parameters); per variant it prints the games finished (the rest
hit max_hands), hands per game, the mean points a side gains per hand, the share of nils made and the
mean table bid. Run: `.venv/bin/python experiments/suicide_bidding.py --games 2000 --seed 7`
(`--play expert` for the expert's card play).
"""

from __future__ import annotations

import argparse

import numpy as np
from rule_sets import play_games

from spades_lab.rules import PRESETS

VARIANTS: dict[str, str] = {
    "count below 4 takes the nil (before)": "counting(suicide_spade_length=0, suicide_sure_trick=False)",
    "count below 3 takes the nil": "counting(suicide_nil_below=3, suicide_spade_length=0, suicide_sure_trick=False)",
    "no nil with the ace of spades": "counting(suicide_spade_length=0)",
    "no ace of spades, count + spades beyond three below 4 (default)": "counting",
}


def measure(bidder: str, play: str, games: int, seed: int) -> dict[str, float]:
    log = play_games(PRESETS["suicide"], f"{bidder}+{play}", games, seed)
    nil = log.bids == 0
    return {
        "finished": int(log.game_over.sum()),
        "hands_per_game": len(log) / games,
        "points": float(log.hand_score.mean()),
        "nils_made": float((nil & (log.tricks == 0)).sum()) / float(nil.sum()),
        "table_bid": float(log.bids.sum(axis=1).mean()),
        "extreme_score": float(np.abs(log.score_after).max()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--play", default="tips", help="play policy of all four players")
    args = parser.parse_args()
    print("| suicide bidding | games finished | hands per game | points per side per hand | nils made | table bid |"
          " most extreme score |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for name, bidder in VARIANTS.items():
        m = measure(bidder, args.play, args.games, args.seed)
        print(f"| {name} | {m['finished']:.0f} of {args.games} | {m['hands_per_game']:.1f} | {m['points']:+.1f} |"
              f" {m['nils_made']:.1%} | {m['table_bid']:.2f} | {m['extreme_score']:,.0f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
