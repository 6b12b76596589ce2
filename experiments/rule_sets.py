"""Do expert games finish under every rule set, and what does the table bid?

Four `counting+tips` players play complete games under each preset and variant field; per rule
set it prints the games finished (the rest hit max_hands), the mean hands per game, the mean table
bid (all the bids added up, nil 0) and the most extreme score seen. Run:
`.venv/bin/python experiments/rule_sets.py --games 2000 --seed 7` (`--only cutthroat` for one row,
`--player counting+expert` for other players).
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np

import spades_lab
from spades_lab.rules import PRESETS, Rules

RULE_SETS: dict[str, Rules] = {
    "standard": PRESETS["standard"],
    "suicide": PRESETS["suicide"],
    "whiz": PRESETS["whiz"],
    "mirror": PRESETS["mirror"],
    "spades_break = false": Rules(spades_break=False),
    "zero_bid = plain": Rules(zero_bid="plain"),
    "moon = win": Rules(moon="win"),
    "moon = 200": Rules(moon=200),
    "nil_exchange = 2": Rules(nil_exchange=2),
    "cutthroat": PRESETS["cutthroat"],
    "three-player": PRESETS["three-player"],
}


def play_games(rules: Rules, player: str, games: int, seed: int) -> spades_lab.HandLog:
    """Every hand of `games` complete games of `player` at every seat; a game that hits max_hands is kept
    unfinished (its warning is silenced: the games finished are what these scripts measure)."""
    players = spades_lab.make_players(player, seats=rules.players)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", spades_lab.engine.simulate.MaxHandsWarning)
        return spades_lab.HandLog.concat(list(spades_lab.simulate_games(rules, players, games, seed)))


def measure(rules: Rules, games: int, seed: int, player: str) -> dict[str, float]:
    log = play_games(rules, player, games, seed)
    return {
        "finished": float(log.game_over.sum()) / games,
        "hands_per_game": len(log) / games,
        "table_bid": float(log.bids.sum(axis=1).mean()),
        "extreme_score": float(np.abs(log.score_after).max()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--player", default="counting+tips")
    parser.add_argument("--only", action="append", choices=list(RULE_SETS), help="measure only this rule set")
    args = parser.parse_args()
    print("| rule set | games finished | hands per game | mean table bid | most extreme score |")
    print("|---|---|---|---|---|")
    for name, rules in RULE_SETS.items():
        if args.only and name not in args.only:
            continue
        m = measure(rules, args.games, args.seed, args.player)
        print(f"| `{name}` | {m['finished']:.1%} | {m['hands_per_game']:.1f} | {m['table_bid']:.2f} |"
              f" {m['extreme_score']:,.0f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
