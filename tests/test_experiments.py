"""Every experiment script runs as a user runs it, at a tiny size, and writes its CSV, PNG plots and README.md."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
SHEET = ["bid_totals", "optimist_sets", "cautious_bags", "nine_bags", "nil", "tip_ablation", "bid_margin"]
EXTRA = {"tip_ablation": ["--switches", "duck_after_contract,nil_coverage"]}
"""Two switches stand for the fourteen: the full ablation is an experiment, not a test."""


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "experiments" / script), *args], capture_output=True,
                          text=True, check=False, cwd=ROOT)  # fmt: skip


@pytest.mark.parametrize("name", SHEET)
def test_a_sheet_question_is_answered_under_every_engine(name: str, tmp_path: Path) -> None:
    out = tmp_path / name
    done = run(f"{name}.py", "--scale", "0.001", "--workers", "1", "--out", str(out), *EXTRA.get(name, []))
    assert done.returncode == 0, done.stderr
    readme = (out / "README.md").read_text()
    verdicts = readme.split("## Verdict per play engine")[1].split("## Numbers")[0]
    assert "| `tips` | `expert` | `pimc(worlds=8, max_tricks=5)` | across engines |" in verdicts
    rows = [line for line in verdicts.splitlines() if line.startswith("| ") and "**" in line]
    assert rows and all(line.rstrip(" |").rsplit("| ", 1)[1] in ("holds", "flips", "changes", "undecided")
                        for line in rows)  # fmt: skip
    assert re.search(r"^\*\*Answer\.\*\* \S", readme, re.M) and "nan" not in readme.split("## Numbers")[0].lower()
    assert f"experiments/{name}.py --scale 0.001 --out {out} --workers 1" in readme and "seed 6" in readme
    for image in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme):
        assert (out / image).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", image
    for csv in out.glob("*.csv"):
        assert len(pd.read_csv(csv)) > 0
    # only the documented outputs sit next to the README; tournament folders stay under run/
    assert {p.suffix for p in out.iterdir() if p.is_file()} <= {".csv", ".png", ".md"}


def test_a_second_run_reuses_the_games_and_a_code_change_replays_them(tmp_path: Path) -> None:
    """An experiment's figures are the current players': a run folder played by other code is replayed."""
    import json

    args = ["--scale", "0.001", "--workers", "1", "--out", str(tmp_path), "--engines", "tips"]
    assert run("cautious_bags.py", *args).returncode == 0
    again = run("cautious_bags.py", *args)
    assert again.returncode == 0 and "playing afresh" not in again.stderr
    manifest = tmp_path / "run" / "tips" / "partnership" / "tips" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["code"]["cautious+tips"]["spades_lab.policies.play"] = "0" * 16  # as if play.py had been edited
    manifest.write_text(json.dumps(data))
    third = run("cautious_bags.py", *args)
    assert third.returncode == 0 and "playing afresh" in third.stderr


def test_strong_players_and_the_count_calibration_run_at_a_tiny_size(tmp_path: Path) -> None:
    players = run("strong_players.py", "--scale", "0.001", "--workers", "1", "--out", str(tmp_path / "players"),
                  "--switches", "keep_setting", "--pimc", "counting+pimc(worlds=4, max_tricks=4)")  # fmt: skip
    assert players.returncode == 0, players.stderr
    readme = (tmp_path / "players" / "README.md").read_text()
    assert "| `keep_setting` helps the expert | `paired_win_diff` |" in readme and "DD tricks lost" in readme
    calibration = run("count_calibration.py", "--deals", "40", "--paired-deals", "30", "--out", str(tmp_path / "cc"))
    assert calibration.returncode == 0, calibration.stderr
    readme = (tmp_path / "cc" / "README.md").read_text()
    assert "It rests on 40 deals with spades broken (**not the 40" not in readme and "| ace_spade |" in readme
    assert (
        len(pd.read_csv(tmp_path / "cc" / "weights.csv"))
        == len(pd.read_csv(tmp_path / "cc" / "weights_extended.csv")) - 4
    )


def test_the_readme_section_lists_every_experiment(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n## Experiments\n\nold text\n\n## Later\n\nkept\n")
    for _ in range(2):  # the second write replaces the first
        assert run("readme_section.py", "--write", str(readme)).returncode == 0
    text = readme.read_text()
    assert text.count("## Experiments") == 1 and "old text" not in text and text.endswith("## Later\n\nkept\n")
    assert all(f"experiments/{name}.py" in text for name in SHEET) and "make experiments" in text


def test_a_rerun_lists_the_verdicts_that_changed() -> None:
    """A README rewritten over an earlier one lists each claim and engine whose verdict word changed."""
    sys.path.insert(0, str(ROOT / "experiments"))
    from common import verdict_changes

    table = """## Verdict per play engine

| claim | figure | `tips` | `pimc(worlds=8)` | across engines |
|---|---|---|---|---|
| nil pays | `paired_win_diff` | **yes**: +2% | **{pimc}**: {value} | {across} |

## Numbers
"""
    before = table.format(pimc="yes", value="+3%", across="holds")
    assert verdict_changes(before, table.format(pimc="yes", value="+1%", across="holds")) == []
    after = table.format(pimc="no measurable difference", value="+1%", across="undecided")
    assert verdict_changes(before, after) == [
        "- nil pays, `pimc(worlds=8)`: **yes**: +3% -> **no measurable difference**: +1%",
        "- nil pays, `across engines`: holds -> undecided",
    ]
