"""The `## Experiments` section of the top-level README, built from the experiments' own READMEs.

    .venv/bin/python experiments/readme_section.py           # print the section
    .venv/bin/python experiments/readme_section.py --write   # replace (or append) it in README.md

Each entry links results/NAME/README.md and quotes its one-line answer, so the numbers in the top-level
README are always the ones the last run of each script computed.
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
    """One line: the question, linked to its README, the script and its play time, and the one-line answer."""
    text = (ROOT / "results" / name / "README.md").read_text()
    title = text.splitlines()[0].lstrip("# ").strip()
    answer = re.search(r"^\*\*Answer\.\*\* (.+)$", text, re.M)
    if answer is None:
        raise ValueError(f"results/{name}/README.md needs an '**Answer.**' line: rerun its experiment")
    return f"- **[{title}](results/{name}/README.md)** (`experiments/{name}.py`{play_time(name)}): {answer.group(1)}"


def play_time(name: str) -> str:
    """', N s of play' from the experiment's README, if it has been run."""
    path = ROOT / "results" / name / "README.md"
    found = re.search(r"Playing the games took (\d+) s", path.read_text()) if path.exists() else None
    return f", {found.group(1)} s of play" if found else ""


def section() -> str:
    entries = "\n".join(entry(name) for name in ORDER if (ROOT / "results" / name / "README.md").exists())
    return f"""{HEADING}

`experiments/` holds one script per question the cheat sheet raises. Each plays fixed-seed tournaments and writes
`results/NAME/`: a CSV of the numbers, plots, and a README with the question, the answer with 95% intervals, the
figure, the method and the command. Every question is answered under three card-play engines side by side: `tips`
(the sheet's play), `expert`, and `pimc` at a reduced budget (`pimc(worlds=8, max_tricks=5)`, on fewer games); a
finding that holds under `tips` only is a finding about that player. `make experiments` reruns them all and
rewrites this section (tens of minutes, most of it pimc; not part of `make test`); one script alone:
`.venv/bin/python experiments/NAME.py` (`--scale`, `--workers`, `--engines tips,expert,pimc`; tournaments are
kept under `results/NAME/run/` and reused while the players are the same).

{entries}
"""


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
    parser.add_argument("--write", nargs="?", const=str(ROOT / "README.md"), metavar="README",
                        help="replace or append the section in README.md (or the file given)")  # fmt: skip
    target = parser.parse_args().write
    if target:
        write(Path(target))
    else:
        print(section(), end="")
