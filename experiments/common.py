"""Shared helpers of the experiment scripts: output directories, tournaments, intervals, plots, READMEs.

Every experiment is a script `experiments/NAME.py` with a `main(out_dir=None, scale=1.0, workers=2)`
that plays its games, then writes `results/NAME/` (or `out_dir`): a CSV of the numbers, PNG plots and
a README.md whose every number is formatted from the computed values. Tournament working
directories (Parquet chunks, manifest) go to `OUT/run/...`, which git ignores; running a script
again resumes or reuses them, so a finished experiment re-renders its README in seconds.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shlex
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import spades_lab as sl  # noqa: E402
from spades_lab.compare import across  # noqa: E402
from spades_lab.engine import trick as trick_rules  # noqa: E402
from spades_lab.policies.memory import shown_voids  # noqa: E402
from spades_lab.policies.seats import SeatBidder, mixed_partnership  # noqa: E402, F401  (re-exported for scripts)
from spades_lab.stats.estimates import (  # noqa: E402, F401  (re-exported for scripts)
    Estimate,
    estimates_frame,
    mean_estimate,
    paired_by_deal,
    paired_estimate,
    ratio_estimate,
    wilson_estimate,
)
from spades_lab.tournament import CodeChangedWarning, ConfigMismatch, TournamentResult, tournament  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
"""The repository root: results go to ROOT/results/NAME by default."""

SEED = 6
"""One fixed seed for every experiment: deals depend only on (seed, game id, hand)."""

RULES = sl.Rules(hand_cap=200)
"""The standard rules (500 to win, bags 10 -> -100, nil 100) with games stopped after 200 hands; a
stopped game is reported as unfinished and never counts as a win."""


# ----------------------------------------------------------------------------------------------
# Running


def out_path(name: str, out_dir: str | Path | None) -> Path:
    path = Path(out_dir) if out_dir is not None else ROOT / "results" / name
    path.mkdir(parents=True, exist_ok=True)
    return path


def scaled(base: int, scale: float, minimum: int = 20) -> int:
    """A count of games or hands at this scale (never below `minimum`, so tiny test runs still work)."""
    return max(minimum, int(round(base * scale)))


def chunk_size(count: int, duplicate: bool, largest: int = 5000) -> int:
    """Game ids per chunk: about four chunks per pairing (two per seating), so two workers stay busy,
    and chunks bigger than the engine batch, so batches stay full while games end at different times."""
    per_seating = count if duplicate else math.ceil(count / 2)
    return max(1, min(largest, math.ceil(per_seating / 2)))


def run_tournament(entrants: Sequence[Any], run_dir: Path, *, workers: int, engine: str = "",
                   **kwargs: Any) -> TournamentResult:  # fmt: skip
    """Play (or resume, or reuse) a tournament in `run_dir`; a directory from another configuration
    (say a different scale), other players under the same names, or games played by other code (a
    policy module edited since: the tournament only warns) is cleared and played afresh, since an
    experiment's README reports its figures as those of the current players."""
    count = kwargs.get("games") or kwargs.get("hands")
    if not isinstance(count, int):
        raise TypeError(f"run_tournament needs games= or hands= (an int), not {count!r}")
    kwargs.setdefault("chunk_games", chunk_size(count, kwargs.get("duplicate", False)))
    kwargs.setdefault("batch_size", 1024)
    kwargs.setdefault("seed", SEED)
    workers = workers if count >= 200 else 1  # tiny runs: spawning workers costs more than it saves
    rules = kwargs.pop("rules", RULES)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", CodeChangedWarning)  # raised before any game is played
            result = tournament(list(entrants), rules, workers=workers, out=run_dir, **kwargs)
    except (ConfigMismatch, CodeChangedWarning) as why:
        print(f"{run_dir}: playing afresh ({str(why).split(';')[0]})", file=sys.stderr)
        result = tournament(list(entrants), rules, workers=workers, out=run_dir, fresh=True, **kwargs)
    timing = Path(run_dir) / "play_seconds.json"
    if result.chunks_run:
        previous = (
            json.loads(timing.read_text())["seconds"]
            if result.chunks_run < len(result.chunks) and timing.exists()
            else 0.0
        )
        timing.write_text(json.dumps({"seconds": previous + result.seconds, "hands": result.total_hands}))
    HANDS.append(result.total_hands)
    PLAY_SECONDS.append(json.loads(timing.read_text())["seconds"] if timing.exists() else float("nan"))
    GAMES_PLAYED.append(result.total_games)
    ENGINE_OF.append(engine)
    return result


GAMES_PLAYED: list[int] = []
ENGINE_OF: list[str] = []
"""Per tournament of the current experiment, its games and the play engine it was played under ("" if none)."""
HANDS: list[int] = []
PLAY_SECONDS: list[float] = []
"""Seconds spent playing each tournament of the current experiment (a reused one reports the time it took
when it was played); `Timer()` clears it, the README reports the sum."""


@dataclass
class ShiftedRuns:
    """A shifted bidder against counting, as a whole partnership and as one seat beside a counting partner."""

    runs: dict[str, TournamentResult]
    who: dict[str, str]
    """Per run, the entrant name of the shifted side."""
    figs: dict[str, dict[str, dict[str, Estimate]]]
    paired: dict[str, dict[str, Estimate]]
    frame: pd.DataFrame
    counting: str
    """The entrant name of the counting side."""


def shifted_bidder_runs(exp: Experiment, engine: Engine, bid: str, one_key: str, games: int) -> ShiftedRuns:
    """Duplicate tournaments of `bid` (e.g. optimist) against counting, both playing `engine`: key
    "partnership" has both seats shifted; key `one_key` has only the first seat shifted (entrant
    `bid/counting+PLAY`)."""
    player, counting = engine.player(bid), engine.player("counting")
    one_label = f"{bid}/{counting}"
    one = mixed_partnership(player, counting, one_label)
    runs = {
        "partnership": exp.run(engine, [player, counting], "partnership", games=games, duplicate=True),
        one_key: exp.run(engine, [one, counting], "one", games=games, duplicate=True),
    }
    who = {"partnership": player, one_key: one_label}
    figs = {k: entrant_figures(r) for k, r in runs.items()}
    paired = {k: paired_figures(r, who[k]) for k, r in runs.items()}
    frame = pd.concat([figures_frame(f, matchup=k, engine=engine.name) for k, f in figs.items()]
                      + [figures_frame({who[k]: {f"paired_{n}": e for n, e in p.items()}}, matchup=k,
                                       engine=engine.name) for k, p in paired.items()], ignore_index=True)  # fmt: skip
    return ShiftedRuns(runs, who, figs, paired, frame, counting)


# ----------------------------------------------------------------------------------------------
# Intervals


def entrant_figures(result: TournamentResult, rules: sl.Rules = RULES) -> dict[str, dict[str, Estimate]]:
    """Per entrant of a two-entrant tournament, from its `games` table (one row per game and side):
    win rate (Wilson, over finished games), set rate per hand (Wilson over hands, and clustered by
    game), bag penalty points per game, bags per hand, points per hand, nil success (Wilson)."""
    games = result.games.assign(entrant=result.games["entrant"].astype(str))
    figures: dict[str, dict[str, Estimate]] = {}
    for name, g in games.groupby("entrant", sort=False):
        finished = int((g["won"] | g["lost"]).sum())
        penalty_points = g["bag_penalties"].to_numpy() * rules.bag_penalty
        figures[str(name)] = {
            "win_rate": wilson_estimate(int(g["won"].sum()), finished),
            "set_rate": wilson_estimate(int(g["sets"].sum()), int(g["hands"].sum())),
            "set_rate_clustered": ratio_estimate(g["sets"], g["hands"]),
            "set_rate_per_contract": wilson_estimate(int(g["sets"].sum()), int(g["contracts"].sum())),
            "bag_penalty_points_per_game": mean_estimate(penalty_points),
            "bag_penalty_points_per_hand": ratio_estimate(penalty_points, g["hands"]),
            "bags_per_hand": ratio_estimate(g["bags_won"], g["hands"]),
            "points_per_hand": ratio_estimate(g["score"], g["hands"]),
            "hands_per_game": mean_estimate(g["hands"]),
            "nil_success": wilson_estimate(int(g["nils_made"].sum()), int(g["nil_bids"].sum())),
            "nil_bids_per_hand": ratio_estimate(g["nil_bids"], g["hands"]),
            "unfinished": wilson_estimate(int(g["unfinished"].sum()), len(g)),
        }
    return figures


def figures_frame(figures: dict[str, dict[str, Estimate]], **keys: Any) -> pd.DataFrame:
    """Long CSV rows: one per (entrant, figure) with value, lo, hi, n and any extra key columns."""
    rows = [{**keys, "entrant": entrant, "figure": figure, "estimate": e}
            for entrant, named in figures.items() for figure, e in named.items()]  # fmt: skip
    return estimates_frame(rows).drop(columns=["method", "estimate"], errors="ignore")


def paired_figures(result: TournamentResult, entrant: str, rules: sl.Rules = RULES) -> dict[str, Estimate]:
    """Duplicate tournament: per deal (game id, played in both seatings), `entrant` minus its opponent,
    each averaged over its two tables; mean and normal interval over deals."""
    games = result.games.copy()
    games["win"] = games["won"].astype(float)
    games["margin"] = (games["score"] - games["opp_score"]).astype(float)
    games["penalty_points"] = games["bag_penalties"] * rules.bag_penalty
    return {
        "win_diff": paired_estimate(games, "win", entrant),
        "margin": paired_estimate(games, "margin", entrant, 0.5),
        "penalty_points_diff": paired_estimate(games, "penalty_points", entrant),
        "sets_per_game_diff": paired_estimate(games, "sets", entrant),
    }


# ----------------------------------------------------------------------------------------------
# Output


def save_figure(fig: Figure, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def command(name: str, scale: float, out_dir: str | Path | None, workers: int,
            engines: Sequence[str] | None = None) -> str:  # fmt: skip
    """The command line that reproduces an experiment run with these arguments."""
    parts = [".venv/bin/python", f"experiments/{name}.py"]
    if engines is not None and tuple(engines) != ENGINE_NAMES:
        parts += ["--engines", ",".join(engines)]
    if scale != 1.0:
        parts += ["--scale", f"{scale:g}"]
    if out_dir is not None and Path(out_dir).resolve() != (ROOT / "results" / name).resolve():
        parts += ["--out", str(out_dir)]
    if workers != 2:
        parts += ["--workers", str(workers)]
    return shlex.join(parts)


def markdown_table(frame: pd.DataFrame, floatfmt: str = "{:.3f}") -> str:
    """A small DataFrame as a GitHub markdown table (no tabulate dependency)."""

    def cell(v: Any) -> str:
        if isinstance(v, (float, np.floating)):
            return "" if np.isnan(v) else floatfmt.format(v)
        return str(v)

    head = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    rows = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *rows])


def write_readme(
    out: Path, *, title: str, question: str, claim: str, answer: str, body: str, cmd: str, setup: str,
    seconds: float, plots: Sequence[str], csvs: Sequence[str], verdicts: str = "",
) -> Path:  # fmt: skip
    """README.md of one experiment. `answer` is a one-line verdict (also used by the top-level README);
    `verdicts` (from `verdict_section`) puts the verdicts per play engine side by side before the numbers."""
    hands_played = sum(HANDS)
    verdicts = f"## Verdict per play engine\n\n{verdicts}\n\n" if verdicts else ""
    images = "\n".join(f"![{Path(p).stem}]({p})" for p in plots)
    files = ", ".join(f"[`{c}`]({c})" for c in csvs)
    text = f"""# {title}

**Question.** {question}

**The cheat sheet.** {claim}

**Answer.** {answer}

{images}

{verdicts}## Numbers

{body}

## Set-up

{setup}

Data: {files}. Every number above is computed by the script from the games it played; intervals are 95%.

## Reproduce

```sh
{cmd}
```

Playing the games took {sum(PLAY_SECONDS):.0f} s ({len(PLAY_SECONDS)} tournament{"s" if len(PLAY_SECONDS) != 1 else ""}, {hands_played:,} hands, 2 worker
processes unless the command says otherwise); the last run of the script took {seconds:.0f} s in all (spades-lab {sl.__version__}, seed {SEED}). The tournament working
directories are under `run/` (ignored by git); running the command again reuses them and only rewrites this
README, the CSV and the plots. `make experiments` reruns every experiment (`experiments/run_all.py`).
{engine_runs()}
Machine: {machine()}.
"""
    path = out / "README.md"
    path.write_text(text)
    return path


def cli(name: str, main: Callable[..., Any], argv: Sequence[str] | None = None, engines: bool = True) -> None:
    """The command line of an experiment script: --scale, --out, --workers and (`engines`) --engines."""
    parser = argparse.ArgumentParser(prog=f"experiments/{name}.py", description=main.__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every game/hand count (default 1)")
    parser.add_argument("--out", default=None, help=f"output directory (default results/{name})")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    if engines:
        parser.add_argument(
            "--engines",
            default=",".join(ENGINE_NAMES),
            help=f"play engines to run, comma-separated (default {','.join(ENGINE_NAMES)})",
        )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    extra = {"engines": tuple(args.engines.split(","))} if engines else {}
    out = main(args.out, args.scale, args.workers, **extra)
    print(f"{name}: wrote {out} in {time.perf_counter() - start:.0f} s", file=sys.stderr)


class Timer:
    """Wall time of one experiment run; also clears the per-tournament play times of the last one."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        for records in (PLAY_SECONDS, HANDS, GAMES_PLAYED, ENGINE_OF):
            records.clear()

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.start


# ----------------------------------------------------------------------------------------------
# Play engines: every experiment answers its question under three card players


@dataclass(frozen=True)
class Engine:
    """One card-play engine an experiment is run under, with the budget it runs at.

    Players are named `<bid>+<play>` (docs/players.md); `params` are the engine's own parameters, put
    first in the play's parentheses, before any switch an experiment turns off."""

    name: str
    params: tuple[str, ...] = ()
    minimum: int = 20
    """The fewest games (or deals) a tiny-scale run plays (tests run every script at scale 0.001)."""

    @property
    def play(self) -> str:
        """The play spec as it appears in player names: `tips`, `pimc(worlds=8, max_tricks=5)`."""
        return f"{self.name}({', '.join(self.params)})" if self.params else self.name

    def player(self, bid: str, *off: str) -> str:
        """`bid` playing this engine with the switches `off` turned off: `counting+expert(-nil_coverage)`."""
        args = [*self.params, *(f"-{s}" for s in off)]
        return f"{bid}+{self.name}" + (f"({', '.join(args)})" if args else "")


PIMC_WORLDS = 8
PIMC_MAX_TRICKS = 5
"""The experiments' pimc budget: 8 sampled worlds per decision, searching only the last 5 tricks (the
player's defaults are 32 and 7). Measured in one process on the shared 2-core machine, both sides pimc,
10 duplicate deals (20 games, ~300 hands): 3.6 s of play at (8, 5), 6.0 s at (16, 5), 24.6 s at (8, 7)
and 2.9 s for the expert (probe of 2026-12-01; the first pimc call adds the solver's compile)."""

ENGINES: dict[str, Engine] = {
    "tips": Engine("tips"),
    "expert": Engine("expert"),
    "pimc": Engine("pimc", (f"worlds={PIMC_WORLDS}", f"max_tricks={PIMC_MAX_TRICKS}"), minimum=4),
}
ENGINE_NAMES: tuple[str, ...] = tuple(ENGINES)


class Experiment:
    """The preamble every experiment script shares: timer, output folder, scale, workers and engines.

    `games` is the game (or deal) count at scale 1 per engine; `run` plays one tournament of an engine
    in `OUT/run/ENGINE/SUB`."""

    def __init__(self, name: str, out_dir: str | Path | None, scale: float, workers: int,
                 engines: Sequence[str] = ENGINE_NAMES, games: dict[str, int] | None = None) -> None:  # fmt: skip
        self.timer = Timer()
        self.name, self.out_dir, self.scale, self.workers = name, out_dir, scale, workers
        self.out = out_path(name, out_dir)
        unknown = [e for e in engines if e not in ENGINES]
        if unknown:
            raise ValueError(f"unknown play engines {unknown}: choose from {list(ENGINES)}")
        self.engines = [ENGINES[e] for e in engines]
        self.base_games = games or {}

    def games(self, engine: Engine) -> int:
        return scaled(self.base_games[engine.name], self.scale, engine.minimum)

    def run(self, engine: Engine, entrants: Sequence[Any], sub: str = "", **kwargs: Any) -> TournamentResult:
        run_dir = self.out / "run" / engine.name / sub if sub else self.out / "run" / engine.name
        return run_tournament(entrants, run_dir, workers=self.workers, engine=engine.name, **kwargs)

    @property
    def command(self) -> str:
        return command(self.name, self.scale, self.out_dir, self.workers, [e.name for e in self.engines])

    def budgets(self, unit: str = "deals") -> str:
        """One sentence: what each engine played, at scale 1 times `--scale`."""
        parts = [f"`{e.play}` {self.games(e):,} {unit}" for e in self.engines]
        return (
            "Play engines and budgets (per tournament): " + "; ".join(parts) + "."
        )


def engine_runs() -> str:
    """A table of the current experiment's tournaments per engine: games, hands, seconds of play."""
    if not any(ENGINE_OF):
        return ""
    rows: dict[str, list[float]] = {}
    for engine, games, hands, seconds in zip(ENGINE_OF, GAMES_PLAYED, HANDS, PLAY_SECONDS):
        row = rows.setdefault(engine or "-", [0, 0, 0, 0.0])
        row[0] += 1
        row[1] += games
        row[2] += hands
        row[3] += seconds
    lines = [f"| {e} | {r[0]} | {r[1]:,} | {r[2]:,} | {r[3]:.0f} |" for e, r in rows.items()]
    return (
        "\nPer play engine:\n\n| engine | tournaments | games | hands | seconds of play |\n|---|---|---|---|---|\n"
        + "\n".join(lines)
        + "\n"
    )


def machine() -> str:
    """The machine a run was made on, for the README: CPU model, cores, OS, Python."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{model}, {os.cpu_count()} cores (shared with other jobs), {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


@dataclass
class Claim:
    """One verdict of an experiment, per play engine: the figure it rests on and the verdict's words."""

    claim: str
    figure: str
    per_engine: dict[str, tuple[Estimate, str]]
    """engine name -> (the figure with its 95% interval, the verdict)."""
    digits: int = 1
    percent: bool = False
    signed: bool = False

    def cell(self, engine: str) -> str:
        if engine not in self.per_engine:
            return "not run"
        e, verdict = self.per_engine[engine]
        return f"**{verdict}**: {self.figure_text(e)}"

    def figure_text(self, e: Estimate) -> str:
        if math.isnan(e.value) or math.isnan(e.lo):
            return f"not measurable ({e.n} samples)"
        return e.fmt(self.digits, percent=self.percent, signed=self.signed)

    inconclusive: str = "no measurable difference"
    """The verdict that says the interval cannot tell: it neither confirms nor contradicts the others."""

    def definite(self) -> dict[str, str]:
        return {e: v for e, (_, v) in self.per_engine.items() if v != self.inconclusive}

    @property
    def verdict_across(self) -> str:
        """holds, flips, changes or undecided (`spades_lab.compare.across`)."""
        return across(self.per_engine, (self.inconclusive,))

    @property
    def holds(self) -> bool:
        return self.verdict_across == "holds"

    @property
    def flips(self) -> bool:
        return self.verdict_across == "flips"

    @property
    def changes(self) -> bool:
        return self.verdict_across == "changes"

    def across(self) -> str:
        verdicts = {e: v for e, (_, v) in self.per_engine.items()}
        if self.holds:
            return f"holds across {', '.join(verdicts)} ({next(iter(verdicts.values()))})"
        if self.flips:
            return "flips: " + ", ".join(f"{e} {v}" for e, v in verdicts.items())
        if self.changes:
            return (
                "changes: "
                + ", ".join(f"{e} {v}" for e, v in verdicts.items())
                + " (the no-difference interval excludes the effect the other engine measures)"
            )
        unclear = [e for e, v in verdicts.items() if v == self.inconclusive]
        definite = self.definite()
        if definite:
            return (
                f"{', '.join(definite)} agree ({next(iter(definite.values()))}); {', '.join(unclear)} cannot tell "
                "(its interval allows both the verdict and none): no flip"
            )
        return f"{self.inconclusive} under every engine"

    def status(self) -> str:
        if self.holds:
            return "holds across engines"
        if self.flips:
            return "the verdict flips"
        return "the effect changes with the engine" if self.changes else "no engine contradicts it"


def sign(e: Estimate, above: str, below: str, neither: str = "no measurable difference") -> str:
    """The verdict of a difference: `above` if its interval is above 0, `below` if below, else `neither`."""
    return {1: above, -1: below, 0: neither}[e.sign()]


def verdict_section(claims: Sequence[Claim], engines: Sequence[Engine]) -> str:
    """The side-by-side verdict table, then which verdicts hold across engines and which flip."""
    names = [e.name for e in engines]
    head = "| claim | figure | " + " | ".join(f"`{e.play}`" for e in engines) + " |"
    rule = "|---|---|" + "---|" * len(names)
    rows = [f"| {c.claim} | {c.figure} | " + " | ".join(c.cell(n) for n in names) + " |" for c in claims]
    held = [c for c in claims if c.holds]
    flipped = [c for c in claims if c.flips]
    changed = [c for c in claims if c.changes]
    unclear = len(claims) - len(held) - len(flipped) - len(changed)
    lines = [f"- {c.claim}: {c.across()}." for c in claims]
    summary = (
        f"{len(held)} of {len(claims)} verdicts hold across the {len(names)} engines, {len(flipped)} flip "
        f"(opposite measured verdicts), {len(changed)} change (an effect measured under one engine is absent "
        "under another, whose interval excludes it)"
        + (f", {unclear} agree where the intervals can tell" if unclear else "")
        + ":"
    )
    return "\n".join([head, rule, *rows, "", summary, "", *lines])


def answer_per_engine(claims: Sequence[Claim]) -> str:
    """The one-line answer: each claim's verdict per engine, and whether it holds."""
    parts = []
    for c in claims:
        per = "; ".join(
            f"{e} {v} ({c.figure_text(est).replace('95% CI ', '')})" for e, (est, v) in c.per_engine.items()
        )
        parts.append(f"{c.claim[0].upper()}{c.claim[1:]}: {per}; {c.status()}.")
    return " ".join(parts)


def checked_plays(player: str, hands: int, seed: int) -> dict[str, np.ndarray]:
    """Every play made by a side whose contract is not yet made, over all 13 tricks, as solver inputs.

    Four `player` seats play `hands` single hands (replayed from their logs, as the solver's inputs for
    `strong_pimc.py lost` and `strong_players.dd_tricks_lost`). Per play: the four unplayed hands, the trick so far,
    its leader, spades broken, the card played, its side-hand (2 * hand + side), trick number (0-12)
    and position in the trick (0 lead .. 3 fourth), the hand's four bids, each seat's tricks won so far and the
    voids shown before the play (`memory.shown_voids` bits, as the engine's `PlayView.shown_voids`).
    """
    rules = sl.Rules()
    deck = sl.cards.deck_for(rules.deck)
    trumps = int(deck.suit_masks[3])
    suits = tuple(np.uint64(m) for m in deck.suit_masks)
    names = ("hands", "trick", "leader", "broken", "card", "side_hand", "t", "pos", "bids", "won", "voids")
    rows: dict[str, list] = {k: [] for k in names}
    hand_index = 0
    for log in sl.simulate_hands(rules, sl.make_players(player), hands, seed):
        for r in range(len(log)):
            held = [int(h) for h in log.held[r]]
            bids = [int(b) for b in log.bids[r]]
            contract = [sum(max(bids[s], 0) for s in (side, side + 2)) for side in (0, 1)]
            won = [0, 0, 0, 0]
            broken = False
            plays, seats = log.plays[r], log.play_seats[r]
            for t in range(13):
                cards = [int(c) for c in plays[4 * t : 4 * t + 4]]
                who = [int(s) for s in seats[4 * t : 4 * t + 4]]
                for k in range(4):
                    side = who[k] % 2
                    made = sum(won[s] for s in (side, side + 2) if bids[s] > 0) >= contract[side]
                    if contract[side] > 0 and not made:
                        for key, value in (
                            ("hands", held.copy()),
                            ("trick", cards[:k] + [-1] * (4 - k)),
                            ("leader", who[0]),
                            ("broken", broken),
                            ("card", cards[k]),
                            ("side_hand", 2 * hand_index + side),
                            ("t", t),
                            ("pos", k),
                            ("bids", bids),
                            ("won", won.copy()),
                            ("voids", shown_voids(plays[: 4 * t + k], seats[: 4 * t + k], 4, suits)),
                        ):
                            rows[key].append(value)  # fmt: skip
                    held[who[k]] &= ~(1 << cards[k])
                best = int(trick_rules.holder(np.array(cards, dtype=np.int64), deck.suit_masks))
                won[who[cards.index(best)]] += 1
                broken = broken or any(trumps >> c & 1 for c in cards)
            hand_index += 1
    dtypes = {"hands": np.uint64, "broken": np.bool_}
    return {k: np.array(v, dtype=dtypes.get(k, np.int64)) for k, v in rows.items()} | {"n_hands": np.array(hand_index)}
