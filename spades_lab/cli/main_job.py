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

from spades_lab.cli.columns import SUMMARY_COLUMNS
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
    table = result.summary[list(SUMMARY_COLUMNS)].to_string(index=False, float_format=lambda x: f"{x:.3f}")
    print(table)
    _write_readme(Path(out), result, table)
    played = (f"{result.hands_played} played in {result.seconds:.1f} s ({result.hands_per_s:,.0f} hands/s)"
              if result.hands_played else "all kept from the last run of this code")  # fmt: skip
    print(f"{result.total_games} games, {result.total_hands} hands ({played}); written to {out}/")
    return result.summary


def _interval(value: float, lo: float, hi: float) -> str:
    return f"{value:+.3f} ({lo:.3f} to {hi:.3f})"


def _answer(result: TournamentResult) -> str:
    """Who wins the most finished games, then every head-to-head by its paired win difference over the same deals."""
    best = result.summary.sort_values("win_rate", ascending=False).iloc[0]
    parts = [f"`{best['entrant']}` wins the most finished games ({best['win_rate']:.1%}, {best['win_lo']:.1%} to "
             f"{best['win_hi']:.1%})"]  # fmt: skip
    ahead = result.matchups[result.matchups["paired_win_diff"] > 0].sort_values("paired_win_diff", ascending=False)
    for _, row in ahead.iterrows():
        verdict = "beats" if row["paired_win_lo"] > 0 else "is not measurably better than"
        parts.append(f"`{row['entrant']}` {verdict} `{row['opponent']}` (paired win difference "
                     f"{_interval(row['paired_win_diff'], row['paired_win_lo'], row['paired_win_hi'])})")  # fmt: skip
    return "; ".join(parts) + "."


def _why_cautious_wins(result: TournamentResult) -> str:
    """The run's surprise, explained where it is shown: the sheet's count overbids (measured by two experiments)."""
    m = result.matchups
    row = m[(m["entrant"] == "cautious+tips") & (m["opponent"] == "counting+tips")]
    if row.empty or not row.iloc[0]["paired_win_lo"] > 0:
        return ""
    return (
        "\n\nWhy the cautious bidder (the count minus one) beats the full cheat sheet: the sheet's count overbids."
        " Four counting players bid 13 or more on most hands ([bid_totals](../bid_totals/README.md)), and a cautious"
        " side is set far less often; its extra bags cost less than those sets"
        " ([cautious_bags](../cautious_bags/README.md))."
    )


def _played_by_this_code(out: Path, entrants: tuple[str, ...]) -> bool:
    """Whether the run folder's chunks were played by the code as it is (then they are resumed, not replayed)."""
    try:
        stored = RunDir(out).read_manifest()
    except Exception:  # noqa: BLE001  (an unreadable manifest: start over)
        return False
    return stored is not None and stored.get("code") == code_fingerprints(list(entrants), list(entrants))


def _write_readme(out: Path, result: TournamentResult, table: str) -> None:
    """A reader's page for the default run: the question, the answer, the figures, the method and the command."""
    names = ", ".join(f"`{n}`" for n in result.summary["entrant"])
    plots = "\n".join(f"![{p.stem}](plots/{p.name})" for p in sorted((out / "plots").glob("*.png")))
    grid = "![matchups](plots/matchups.png)\n\n" if (out / "plots" / "matchups.png").exists() else ""
    out.joinpath("README.md").write_text(
        f"""# The default run (`make run`)

**Question.** Which of {names} wins, and by how much head to head over the same deals?

**Answer.** {_answer(result)}{_why_cautious_wins(result)}

{grid}**Method.** Duplicate round robin of {names}: every deal played in both seatings, so the luck of the
cards cancels in the paired differences; games to 500 capped at {RULES.hand_cap} hands (a capped game counts
as unfinished, never as a win). {result.total_games:,} games, {result.total_hands:,} hands. Win rates are over
finished games with 95% Wilson intervals, paired win differences per deal with 95% normal intervals;
`summary.csv`, `matchups.csv` and `bid_totals.csv` hold every figure (the per-game and per-hand Parquet tables
the run also writes here are not committed).

```
{table}
```

**Command.**

```sh
make run    # or: .venv/bin/spades-lab run --out results/default
```

## Every figure

{plots}
"""
    )
