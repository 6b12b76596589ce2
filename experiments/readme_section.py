"""The `## Experiments` section of the top-level README, built from the experiments' own READMEs.

    .venv/bin/python experiments/readme_section.py           # print the section
    .venv/bin/python experiments/readme_section.py --write   # replace (or append) it in README.md

Each entry links results/NAME/README.md, shows its main plot and quotes its one-line answer, so the
numbers in the top-level README are always the ones the last run of each script computed.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ORDER = [
    "bid_totals",
    "optimist_sets",
    "cautious_bags",
    "nine_bags",
    "nil",
    "tip_ablation",
    "bid_margin",
    "count_calibration",
    "strong_players",
]
HEADING = "## Experiments"


def entry(name: str) -> str:
    text = (ROOT / "results" / name / "README.md").read_text()
    title = text.splitlines()[0].lstrip("# ").strip()
    answer = re.search(r"^\*\*Answer\.\*\* (.+)$", text, re.M)
    plot = re.search(r"!\[[^\]]*\]\(([^)]+)\)", text)
    if answer is None or plot is None:
        raise ValueError(f"results/{name}/README.md needs an '**Answer.**' line and a plot image: rerun its experiment")
    return (f"### [{title}](results/{name}/README.md)\n\n"
            f"![{name}](results/{name}/{plot.group(1)})\n\n"
            f"{answer.group(1)}\n")  # fmt: skip


def play_time(name: str) -> str:
    """'  # N s of play' from the experiment's README, if it has been run."""
    path = ROOT / "results" / name / "README.md"
    found = re.search(r"Playing the games took (\d+) s", path.read_text()) if path.exists() else None
    return f"  # {found.group(1)} s of play (last run)" if found else ""


def section() -> str:
    width = max(len(name) for name in ORDER) + len(".venv/bin/python experiments/.py")
    commands = "\n".join(
        f"{'.venv/bin/python experiments/' + name + '.py':<{width}}{play_time(name)}" for name in ORDER
    )
    entries = "\n".join(entry(name) for name in ORDER if (ROOT / "results" / name / "README.md").exists())
    return f"""{HEADING}

`experiments/` holds one script per question that the cheat sheet raises (issue 6). Each plays fixed-seed
tournaments and writes `results/NAME/`: a CSV of the numbers, PNG plots, and a README with the numbers, their
95% intervals, what they mean, the command, the seed, the run time and the machine. Every sheet question is
answered under three card-play engines (issue 14), `tips` (the sheet's play), `expert` and `pimc` (search on the
double-dummy solver, run at a reduced budget, `pimc(worlds=8, max_tricks=5)`, and on fewer games: each README
says how many); each README puts the verdicts per engine side by side with their intervals and says which hold
across engines and which flip. A finding that holds under `tips` only is a finding about that player.

`make experiments` regenerates every results folder and this section (`experiments/run_all.py`, one process so
the DD solver compiles once; it is not part of `make test`). The last full run took 35 minutes of wall time on the
shared, loaded 2-core machine, as two processes side by side (`run_all.py --engines tips,expert` and
`run_all.py --engines pimc`, then `run_all.py` to render, reusing every tournament); pimc is most of it. Run scripts from the
repository root after `make install`; every sheet script takes `--scale` (multiply the game counts), `--out DIR`,
`--workers K` and `--engines tips,expert,pimc`, and exposes `main(out_dir, scale, workers, engines)`
(`tests/test_experiments.py` runs each at a tiny scale). The tournaments' working directories go to
`results/NAME/run/` (ignored by git); running a script again reuses them while the players are the same: a
working directory records every resolved parameter of each entrant and a fingerprint of its code, and a script
plays it afresh when either has changed (a tournament outside the scripts refuses or warns, see Tournaments).

**Rerun with the players as they ship (2026-12-02, tenth session).** Every experiment that plays games was
rerun from fresh run folders after `lead_model` was switched on in the expert (docs/players.md): the seven
cheat-sheet experiments with `.venv/bin/python experiments/run_all.py cautious_bags nine_bags nil bid_totals
optimist_sets bid_margin tip_ablation` and `strong_players`, on a quiet machine (hence the short play times).
Their `tips` figures came out the same as before, as they should: the tips did not change. count_calibration
solves deals and plays no games, so it was not rerun.

```sh
make experiments                                          # all of them, then this section
{commands}
.venv/bin/python experiments/readme_section.py --write   # refresh this section from the results
```

{entries}"""


def write(readme: Path = ROOT / "README.md") -> None:
    text = readme.read_text()
    new = section()
    match = re.search(rf"^{re.escape(HEADING)}\n.*?(?=^## |\Z)", text, re.M | re.S)
    if match:
        text = text[: match.start()] + new + ("\n" if match.end() < len(text) else "") + text[match.end() :]
    else:
        text = text.rstrip("\n") + "\n\n" + new
    readme.write_text(text)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="replace or append the section in README.md")
    if parser.parse_args().write:
        write()
    else:
        print(section(), end="")
