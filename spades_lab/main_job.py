"""`make run`: the default match, its summary and plots under results/."""

from __future__ import annotations

import json
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from spades_lab import __version__  # noqa: E402
from spades_lab.engine import simulate_games  # noqa: E402
from spades_lab.policies import make_players  # noqa: E402
from spades_lab.rules import Rules  # noqa: E402
from spades_lab.stats import HandStats  # noqa: E402

DEFAULT_ENTRANTS = ("counting+tips", "counting+greedy")


def main_job(out: Path, games: int = 2000, seed: int = 1, entrants: tuple[str, str] = DEFAULT_ENTRANTS) -> pd.DataFrame:
    """Play `games` games to 500 of entrants[0] (seats 0+2) against entrants[1] (seats 1+3)."""
    out.mkdir(parents=True, exist_ok=True)
    rules = Rules(hand_cap=200)
    players = make_players(list(entrants))
    stats = HandStats()
    start = time.perf_counter()
    for log in simulate_games(rules, players, games, seed):
        stats.add(log)
    elapsed = time.perf_counter() - start
    summary = pd.DataFrame(stats.rows())
    summary.insert(0, "entrant", list(entrants))
    summary.to_csv(out / "summary.csv", index=False)
    (out / "manifest.json").write_text(
        json.dumps(
            {"entrants": list(entrants), "games": games, "seed": seed, "rules": rules.to_dict(),
             "version": __version__, "hands": stats.hands, "seconds": round(elapsed, 2)},
            indent=2,
        )  # fmt: skip
    )
    fig, (ax_win, ax_bid) = plt.subplots(1, 2, figsize=(11, 4))
    ax_win.bar(summary["entrant"], summary["win_rate"], color=["tab:blue", "tab:orange"])
    ax_win.set_ylim(0, 1)
    ax_win.set_ylabel("share of finished games won")
    ax_win.set_title(f"Win rate over {stats.games_over} finished games")
    totals = stats.bid_total
    ax_bid.bar(range(len(totals)), totals / max(stats.hands, 1), color="tab:gray")
    ax_bid.set_xlim(0, 26)
    ax_bid.set_xlabel("sum of the four bids at the table (nil = 0)")
    ax_bid.set_ylabel("share of hands")
    ax_bid.set_title("Table bid total")
    fig.tight_layout()
    fig.savefig(out / "overview.png", dpi=110)
    plt.close(fig)
    print(summary.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    print(f"{stats.hands} hands, {stats.games_over} games finished, {stats.games_unfinished} unfinished,"
          f" {elapsed:.1f} s; written to {out}/")  # fmt: skip
    return summary
