"""`make run`: the default tournament, its tables and plots under results/default.

A duplicate round robin of the expert players, games to 500 (capped at 200 hands), on every core.
It writes the tournament's summary.csv, matchups.csv, bid_totals.csv and manifest.json, and every
plot of `spades_lab.plots` (the matchup grid among them) under plots/; the per-game and per-hand Parquet
files are not committed (.gitignore). The directory is cleared first unless its chunks were played by the
code as it is (same configuration, same code fingerprints): so the committed results never come from
chunks of an older version, and a run stopped by Ctrl-C resumes where it stopped.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from spades_lab.plots import write_all
from spades_lab.rules import Rules
from spades_lab.tournament import DEFAULT_CHUNK_GAMES, ConfigMismatch, TournamentResult, tournament
from spades_lab.tournament.runner import code_fingerprints
from spades_lab.tournament.storage import RunDir

DEFAULT_ENTRANTS = ("counting+tips", "optimist+tips", "cautious+tips", "counting+greedy")
RULES = Rules(hand_cap=200)


def main_job(
    out: Path,
    games: int = 2000,
    seed: int = 1,
    entrants: tuple[str, ...] = DEFAULT_ENTRANTS,
    workers: int | None = None,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
) -> pd.DataFrame:
    """Duplicate round robin: `games` deals per pairing, each played in both seatings (2 x games tables)."""

    def play(fresh: bool) -> TournamentResult:
        return tournament(
            list(entrants), RULES, games=games, seed=seed, duplicate=True,
            workers=workers or os.cpu_count() or 1, out=out, chunk_games=chunk_games, progress=None, fresh=fresh,
        )  # fmt: skip

    try:
        result = play(fresh=not _played_by_this_code(Path(out), entrants))
    except ConfigMismatch:  # another configuration (games, seed, ...) in the folder: start over
        result = play(fresh=True)
    write_all(result, Path(out) / "plots")
    shown = ["entrant", "games", "win_rate", "win_lo", "win_hi", "points_per_hand", "set_rate", "nil_bids_per_hand",
             "nil_success", "bags_per_hand", "bag_penalties_per_game", "team_bid_error", "hands_per_game", "unfinished"]  # fmt: skip
    table = result.summary[shown].to_string(index=False, float_format=lambda x: f"{x:.3f}")
    print(table)
    _write_readme(Path(out), result, table)
    played = (f"{result.hands_played} played in {result.seconds:.1f} s ({result.hands_per_s:,.0f} hands/s)"
              if result.hands_played else "all kept from the last run of this code")  # fmt: skip
    print(f"{result.total_games} games, {result.total_hands} hands ({played}); written to {out}/")
    return result.summary


def _played_by_this_code(out: Path, entrants: tuple[str, ...]) -> bool:
    """Whether the run folder's chunks were played by the code as it is (then they are resumed, not replayed)."""
    try:
        stored = RunDir(out).read_manifest()
    except Exception:  # noqa: BLE001  (an unreadable manifest: start over)
        return False
    return stored is not None and stored.get("code") == code_fingerprints(list(entrants), list(entrants))


def _write_readme(out: Path, result: TournamentResult, table: str) -> None:
    """A reader's page for the default run: what was played, the summary, the plots, how to redo it."""
    names = ", ".join(f"`{n}`" for n in result.summary["entrant"])
    plots = "\n".join(f"![{p.stem}](plots/{p.name})" for p in sorted((out / "plots").glob("*.png")))
    out.joinpath("README.md").write_text(
        f"""# The default run (`make run`)

Duplicate round robin of {names}: every deal played in both seatings, games to 500 capped at
{RULES.hand_cap} hands (a capped game counts as unfinished, never as a win). {result.total_games:,} games,
{result.total_hands:,} hands. Regenerate with `make run` (or `spades-lab run --out results/default`); the
per-game and per-hand Parquet tables it also writes here are not committed.

Win rates are over finished games with 95% Wilson intervals; `summary.csv`, `matchups.csv` (with duplicate
paired differences) and `bid_totals.csv` hold every figure.

```
{table}
```

{plots}
"""
    )
