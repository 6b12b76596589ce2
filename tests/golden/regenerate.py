"""Write the golden playthroughs that tests/test_golden.py compares a fresh run against.

    .venv/bin/python tests/golden/regenerate.py

Run it only when a change of the random streams, the rules or a policy is intended, and say in the
commit why the games changed. Each file is small and readable: a few hands of every preset by the
random player and by the strongest shipped player, and the summary of a tiny tournament.
"""

from __future__ import annotations

import json
import sys
import tempfile
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from spades_lab.engine import HandLog, MaxHandsWarning, simulate_games  # noqa: E402
from spades_lab.engine.records import hand_records  # noqa: E402
from spades_lab.policies import make_players  # noqa: E402
from spades_lab.rules import PRESETS  # noqa: E402
from spades_lab.tournament import tournament  # noqa: E402

PLAYERS = ("random", "counting+tips", "counting+expert")
HANDS = 3
SEED = 2026
TOURNAMENT = {
    "entrants": ["counting+tips", "cautious+tips", "random"],
    "rules": "short",
    "games": 6,
    "seed": SEED,
    "chunk_games": 2,
}
SUMMARY_COLUMNS = ("entrant", "games", "wins", "unfinished", "hands", "points_per_hand", "set_rate",
                   "nil_bids_per_hand", "bags_per_hand", "table_bid_total")  # fmt: skip


def record_file(preset: str, player: str) -> str:
    return f"{preset}--{player.replace('+', '_')}.jsonl"


def playthrough(preset: str, player: str) -> list[str]:
    """The first HANDS hands of game 0 (seed SEED), one JSON record per line."""
    rules = PRESETS[preset]
    games = simulate_games(rules, make_players([player], seats=rules.players), 1, SEED, max_hands=HANDS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MaxHandsWarning)  # stopping after HANDS hands is the point here
        log = HandLog.concat(list(games)).sorted()
    return [json.dumps(r, sort_keys=True, separators=(",", ":")) for r in hand_records(log, rules)]


def summary_lines() -> list[str]:
    with tempfile.TemporaryDirectory() as out:
        result = tournament(TOURNAMENT["entrants"], TOURNAMENT["rules"], games=TOURNAMENT["games"],
                            seed=TOURNAMENT["seed"], chunk_games=TOURNAMENT["chunk_games"], out=out)  # fmt: skip
        table = result.summary[list(SUMMARY_COLUMNS)]
        return table.to_csv(index=False, float_format="%.6f").splitlines()


def expected_files() -> dict[str, list[str]]:
    """Every golden file's name and lines, computed afresh."""
    files = {record_file(p, who): playthrough(p, who) for p in PRESETS for who in PLAYERS}
    files["tournament_summary.csv"] = summary_lines()
    return files


def main() -> None:
    for name, lines in expected_files().items():
        (HERE / name).write_text("\n".join(lines) + "\n")
        print(f"wrote tests/golden/{name} ({len(lines)} lines)")


if __name__ == "__main__":
    main()
