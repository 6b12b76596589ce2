"""What the experiment scripts share: the command line, the play engines and their budgets, where runs live, the
README. Every figure, interval, claim and verdict comes from the library (`spades_lab.compare`).

Each script `experiments/NAME.py` has a `main(out_dir=None, scale=1.0, workers=2, engines=...)` that declares its
comparisons and claims and writes `results/NAME/` (or `out_dir`): a CSV of every figure, a PNG and a README.md
whose numbers are formatted from the computed values. Tournament folders go to `OUT/run/ENGINE/MATCHUP` (ignored
by git); running a script again resumes them, or replays them when the players' code changed.
"""

from __future__ import annotations

import argparse
import json
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

import spades_lab as sl  # noqa: E402
from spades_lab.compare import Claim, ClaimCheck, Comparison, Sweep, across  # noqa: E402
from spades_lab.stats.estimates import Estimate  # noqa: E402
from spades_lab.tournament import CodeChangedWarning, ConfigMismatch  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SEED = 6
RULES = sl.Rules(hand_cap=200)
"""The standard rules with games stopped after 200 hands (a stopped game is unfinished, never a win)."""
ENGINES = {"tips": "tips", "expert": "expert", "pimc": "pimc(worlds=8, max_tricks=5)"}
"""The card-play engines every question is answered under; pimc at a budget two shared cores can afford (8
sampled worlds, the last 5 tricks searched; its defaults are 32 and 7)."""
FEWEST = {"pimc": 4}
"""The fewest deals an engine plays at a tiny scale (20 for the others)."""
PERCENT = ("win_rate", "set_rate", "nil_success", "paired_win_diff", "nil_success_diff", "divergent_set",
           "divergent_bag_penalty", "divergent_won", "share_10_to_12", "share_13_or_more")  # fmt: skip
"""Figures shown in percent."""


def play(engine: str, *off: str) -> str:
    """An engine's play with switches turned off: `play("pimc", "nil_coverage")` is
    `pimc(worlds=8, max_tricks=5, -nil_coverage)`."""
    spec, args = ENGINES[engine], ", ".join(f"-{s}" for s in off)
    if not off:
        return spec
    return f"{spec[:-1]}, {args})" if spec.endswith(")") else f"{spec}({args})"


def fmt(e: Estimate, figure: str) -> str:
    """`+13.3% (+11.0% to +15.6%)`: a figure with its interval, in percent where that reads better."""
    signed = figure.startswith(("paired_", "divergent_")) or figure.endswith("_diff")
    text = e.fmt(1, percent=figure in PERCENT, signed=signed)
    return text.replace("95% CI ", "")


def markdown(frame: pd.DataFrame) -> str:
    """A small DataFrame as a GitHub table."""
    cells = [[f"{v:.3f}" if isinstance(v, float) else str(v) for v in row] for row in frame.itertuples(index=False)]
    lines = ["| " + " | ".join(map(str, frame.columns)) + " |", "|" + "---|" * len(frame.columns)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in cells])


class Experiment:
    """One run of an experiment script: its arguments, its comparisons, and the README that reports them."""

    def __init__(self, name: str, out_dir: str | Path | None, scale: float, workers: int,
                 engines: Sequence[str], deals: dict[str, int]) -> None:  # fmt: skip
        unknown = [e for e in engines if e not in ENGINES]
        if unknown:
            raise ValueError(f"unknown play engines {unknown}: choose from {list(ENGINES)}")
        self.start = time.perf_counter()
        self.name, self.out_dir, self.scale, self.workers, self.engines = name, out_dir, scale, workers, list(engines)
        self.out = Path(out_dir) if out_dir is not None else ROOT / "results" / name
        self.out.mkdir(parents=True, exist_ok=True)
        self.budget = deals
        self.runs: list[tuple[str, sl.TournamentResult, float]] = []

    def deals(self, engine: str, budget: dict[str, int] | None = None) -> int:
        return max(FEWEST.get(engine, 20), round((budget or self.budget)[engine] * self.scale))

    def compare(self, matchup: str, candidate: Any, baseline: Any, claims: Sequence[Claim] = (),
                engines: Sequence[str] | None = None, **options: Any) -> Comparison:  # fmt: skip
        """`candidate` against `baseline` under every engine: bid policies (or `sl.beside`) play each engine's
        cards; a callable `engine -> player name` gives whole players per engine. `options`: `deals` (a budget
        per engine) and `seed`."""
        per = {}
        for engine in engines or self.engines:
            whole = callable(candidate)
            sides = (candidate(engine), baseline(engine)) if whole else (candidate, baseline)
            play = None if whole else [ENGINES[engine]]
            per[engine] = self.run(sl.compare, engine, matchup, *sides, play, **options)
        result = sl.combine(per)
        result.claims = [result.check(c) for c in claims]
        return result

    def tournament(self, matchup: str, entrants: Sequence[Any], engine: str) -> sl.TournamentResult:
        """A plain tournament (games split between the two seatings) for one engine."""

        def call(**kwargs: Any) -> sl.TournamentResult:
            return sl.tournament(list(entrants), games=kwargs.pop("deals"), **kwargs)

        return self.run(call, engine, matchup)

    def sweep(self, matchup: str, template: str, values: Sequence[Any], baseline: str) -> dict[str, Sweep]:
        """Per engine, `sl.sweep` of a bid policy template over `values` against `baseline`, on the same deals."""
        return {e: self.run(sl.sweep, e, matchup, template, values, baseline, [ENGINES[e]]) for e in self.engines}

    def run(self, call: Callable[..., Any], engine: str, matchup: str, *args: Any, deals: dict[str, int] | None = None,
            seed: int = SEED) -> Any:  # fmt: skip
        """`call` (compare or sweep) for one engine in OUT/run/ENGINE/MATCHUP (spaces as _): resumed, or replayed afresh when
        its players' code changed since."""
        out, n = self.out / "run" / engine.replace(" ", "_") / matchup.replace(" ", "_"), self.deals(engine, deals)
        kwargs = dict(rules=RULES, deals=n, seed=seed, workers=self.workers if n >= 200 else 1, out=out)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", CodeChangedWarning)
                result = call(*args, **kwargs)
        except (ConfigMismatch, CodeChangedWarning) as why:
            print(f"{out}: playing afresh ({str(why).split(';')[0]})", file=sys.stderr)
            result = call(*args, fresh=True, **kwargs)
        for c in getattr(result, "comparisons", [result]):
            played = c if isinstance(c, sl.TournamentResult) else next(iter(c.results.values()))
            timing = Path(played.out) / "play_seconds.json"
            if played.chunks_run:  # a resumed run adds its time to the time already spent on the same games
                before = json.loads(timing.read_text())["seconds"] if timing.exists() else 0.0
                resumed = played.chunks_run < len(played.chunks)
                timing.write_text(json.dumps({"seconds": played.seconds + (before if resumed else 0.0)}))
            seconds = json.loads(timing.read_text())["seconds"] if timing.exists() else float("nan")
            self.runs.append((engine, played, seconds))
        return result

    @property
    def command(self) -> str:
        parts = [".venv/bin/python", f"experiments/{self.name}.py"]
        if set(self.engines) <= set(ENGINES) and self.engines != list(ENGINES):
            parts += ["--engines", ",".join(self.engines)]
        if self.scale != 1.0:
            parts += ["--scale", f"{self.scale:g}"]
        if self.out_dir is not None and self.out.resolve() != (ROOT / "results" / self.name).resolve():
            parts += ["--out", str(self.out_dir)]
        return shlex.join(parts + (["--workers", str(self.workers)] if self.workers != 2 else []))

    def budgets(self) -> str:
        return (
            "Deals per comparison: " + "; ".join(f"`{ENGINES.get(e, e)}` {self.deals(e):,}" for e in self.engines) + "."
        )

    def save(self, comparisons: dict[str, Comparison], checks: Sequence[ClaimCheck | FindingCheck]) -> tuple[str, str]:
        """NAME.csv (every figure of every comparison) and NAME.png (each claim's figure per engine)."""
        frames = [c.figures.drop(columns="estimate").assign(matchup=m) for m, c in comparisons.items()]
        if frames:
            pd.concat(frames, ignore_index=True).to_csv(self.out / f"{self.name}.csv", index=False)
        fig, axes = plt.subplots(len(checks), 1, figsize=(7, 0.4 + 1.1 * len(checks)), squeeze=False)
        for ax, check in zip(axes[:, 0], checks):
            engines = list(check.per_engine)
            values = np.array([[e.value, e.lo, e.hi] for e, _ in check.per_engine.values()])
            y = np.arange(len(engines))[::-1]
            ax.errorbar(values[:, 0], y, xerr=[values[:, 0] - values[:, 1], values[:, 2] - values[:, 0]], fmt="o",
                        capsize=4)  # fmt: skip
            ax.axvline(check.claim.reference, color="grey", linestyle="--", linewidth=1)
            ax.set_yticks(y, [f"{e}: {v}" for e, (_, v) in check.per_engine.items()], fontsize=8)
            ax.set_title(f"{check.claim.text} ({check.claim.figure}; 95% CI)", fontsize=9)
        fig.tight_layout()
        fig.savefig(self.out / f"{self.name}.png", dpi=120)
        plt.close(fig)
        return f"{self.name}.csv", f"{self.name}.png"

    def readme(self, *, title: str, question: str, sheet: str, checks: Sequence[ClaimCheck | FindingCheck], answer_claims: int,
               comparisons: dict[str, Comparison], figures: Sequence[str], meaning: str, setup: str,
               answer: str = "", plots: Sequence[str] = ()) -> Path:  # fmt: skip
        """README.md: the question, the sheet's words, the answer (the first `answer_claims` claims), the verdict
        per engine, the figures of every comparison, the set-up and the command."""
        csv, png = self.save(comparisons, checks)
        verdicts = "\n".join(f"| {c.claim.text} | `{c.claim.figure}` | " + " | ".join(
            f"**{c.per_engine[e][1]}**: {fmt(c.per_engine[e][0], c.claim.figure)}" if e in c.per_engine else "not run"
            for e in self.engines) + f" | {c.across} |" for c in checks)  # fmt: skip
        answer = answer or " ".join(
            f"{c.claim.text[0].upper()}{c.claim.text[1:]}: "
            + "; ".join(f"{engine} {v} ({fmt(e, c.claim.figure)})" for engine, (e, v) in c.per_engine.items())
            + f"; across engines: {c.across}." for c in checks[:answer_claims])  # fmt: skip
        held = sum(c.across == "holds" for c in checks)
        numbers = (
            "Per comparison, candidate and baseline figures and the paired ones (candidate minus baseline, deal by deal "
            "over both seatings), 95% intervals:\n\n" + numbers_table(comparisons, figures, self.engines)
            if comparisons
            else ""
        )
        per = pd.DataFrame([(e, r.total_games, r.total_hands, s) for e, r, s in self.runs],
                           columns=["engine", "games", "hands", "seconds"]).groupby("engine", sort=False)  # fmt: skip
        runs = "\n".join(f"| {e} | {len(g)} | {g.games.sum():,} | {g.hands.sum():,} | {g.seconds.sum():.0f} |"
                          for e, g in per)  # fmt: skip
        text = f"""# {title}

**Question.** {question}

**The cheat sheet.** {sheet}

**Answer.** {answer}

{"".join(f"![{Path(p).stem}]({p})" + chr(10) for p in [*plots, png])}
## Verdict per play engine

| claim | figure | {" | ".join(f"`{ENGINES.get(e, e)}`" for e in self.engines)} | across engines |
|---|---|{"---|" * len(self.engines)}---|
{verdicts}

{held} of {len(checks)} verdicts hold across the engines. "holds": one verdict under every engine; "flips":
opposite verdicts; "changes": an effect under one engine is absent under another whose interval excludes it;
"undecided": the definite verdicts agree where the intervals can tell.

## Numbers

{numbers}

{meaning}

## Set-up

{setup} {self.budgets()} Duplicate deals: every deal is played twice with the partnerships swapped.

Data: [`{csv}`]({csv}). Every number above is computed by the script from the games it played.

## Reproduce

```sh
{self.command}
```

Playing the games took {sum(s for _, _, s in self.runs):.0f} s; the last run of the script took
{time.perf_counter() - self.start:.0f} s in all (spades-lab {sl.__version__}, seed {SEED}). Tournament folders are
kept under `run/` (ignored by git) and reused while the players are the same. `make experiments` reruns every
experiment.

| engine | tournaments | games | hands | seconds of play |
|---|---|---|---|---|
{runs}

Machine: {machine()}.
"""
        path = self.out / "README.md"
        if path.exists():
            changed = verdict_changes(path.read_text(), text)
            text = text.replace("\n## Numbers\n", "\n## Verdicts changed since the previous run\n\n" + (
                "\n".join(changed) if changed else "None: every verdict is the one the previous run of this script gave.")
                + "\n\n## Numbers\n", 1)  # fmt: skip
        path.write_text(text)
        return path


def verdict_changes(before: str, after: str) -> list[str]:
    """One line per verdict of `after`'s table that differs from `before`'s (claims and engines in both)."""
    old = verdict_cells(before)
    return [f"- {claim}, `{engine}`: {old[claim, engine]} -> {cell}" for (claim, engine), cell in verdict_cells(after).items()
            if (claim, engine) in old and verdict_word(old[claim, engine]) != verdict_word(cell)]  # fmt: skip


def verdict_cells(text: str) -> dict[tuple[str, str], str]:
    """(claim, engine or "across engines") -> its cell in a README's verdict table."""
    section = text.split("## Verdict per play engine", 1)[-1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("| ")]
    if not lines:
        return {}
    header = [cell.strip().strip("`") for cell in lines[0].strip().strip("|").split("|")]
    cells = {}
    for line in lines[1:]:
        row = [cell.strip() for cell in line.strip().strip("|").split("|")]
        cells.update({(row[0], name): cell for name, cell in zip(header[2:], row[2:])})
    return cells


def verdict_word(cell: str) -> str:
    """The verdict of a cell (its bold words, or the whole cell: "holds", "not run")."""
    return cell.split("**")[1] if cell.count("**") >= 2 else cell


@dataclass(frozen=True)
class Finding:
    """A claim on a figure the comparisons do not compute (read from a tournament's tables)."""

    text: str
    figure: str
    reference: float = 0.0


@dataclass
class FindingCheck:
    """A `Finding` judged per engine, in the place of a `ClaimCheck` in the README."""

    claim: Finding
    per_engine: dict[str, tuple[Estimate, str]]
    neutral: tuple[str, ...] = ()

    @property
    def across(self) -> str:
        return across(self.per_engine, self.neutral)


def numbers_table(comparisons: dict[str, Comparison], figures: Sequence[str], engines: Sequence[str]) -> str:
    """One row per comparison, figure and side; one column per engine."""
    rows = pd.concat([c.figures.assign(matchup=m) for m, c in comparisons.items()], ignore_index=True)
    rows = rows[rows["figure"].isin(figures)]
    table = rows.assign(text=[fmt(e, f) for e, f in zip(rows["estimate"], rows["figure"])]).pivot_table(
        index=["matchup", "figure", "side"], columns="engine", values="text", aggfunc="first", sort=False
    )
    return markdown(table.reindex(columns=list(engines)).fillna("not run").reset_index())


def machine() -> str:
    """The machine of a run: CPU model, cores, OS, Python."""
    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    for line in cpuinfo.read_text().splitlines() if cpuinfo.exists() else []:
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    return (
        f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}"
    )


def cli(name: str, main: Callable[..., Any], argv: Sequence[str] | None = None, texts: Sequence[str] = (),
        **lists: str) -> None:  # fmt: skip
    """The command line of an experiment script: --scale, --out, --workers, --engines and, per keyword of `lists`,
    an option passed to `main` under that name (its value the option's help): comma-separated values, or one text
    for the names in `texts`."""
    parser = argparse.ArgumentParser(prog=f"experiments/{name}.py", description=main.__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every deal count (default 1)")
    parser.add_argument("--out", default=None, help=f"output directory (default results/{name})")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--engines", default=",".join(ENGINES), help="play engines, comma-separated")
    for option, text in lists.items():
        parser.add_argument(f"--{option}", help=text)
    args = parser.parse_args(argv)
    chosen = {k: getattr(args, k) if k in texts else tuple(getattr(args, k).split(",")) for k in lists
              if getattr(args, k)}  # fmt: skip
    out = main(args.out, args.scale, args.workers, engines=tuple(args.engines.split(",")), **chosen)
    print(f"{name}: wrote {out}", file=sys.stderr)
