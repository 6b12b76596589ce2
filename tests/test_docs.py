"""The documentation site builds (mkdocs --strict) and stays complete: every rules field and preset, every
policy and parameter, every table column, plot and command is documented, and nothing links outside the repo."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

import spades_lab
from spades_lab.cli import build_parser
from spades_lab.players.catalogue import catalogue
from spades_lab.players.registry import range_text
from spades_lab.plots import DD_PLOTS, PLOTS
from spades_lab.rules import PRESETS, Rules

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def page(name: str) -> str:
    return (DOCS / name).read_text()


def code_names(text: str) -> set[str]:
    """Every `name` written in backticks (split on commas, dots and spaces inside them)."""
    names: set[str] = set()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for inner in re.findall(r"`([^`]+)`", text):
        names.add(inner)
        names.update(re.split(r"[\s,=()/.]+", inner))
    return names


def test_site_builds_strict(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    api = (tmp_path / "site" / "api" / "index.html").read_text()
    for name in ("tournament", "TournamentResult", "seat_hands", "show", "matchups", "Rules", "simulate_games"):
        assert name in api
    assert not re.search(r"\b(RULES|HEURISTICS|RECORDS)\.md\b", api), "the API page names a file the repo lacks"
    assert (tmp_path / "site" / "getting-started" / "index.html").exists()


def test_every_nav_page_exists_and_every_page_is_in_the_nav() -> None:
    nav = re.findall(r":\s*([\w-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), flags=re.M)
    assert nav and all((DOCS / name).exists() for name in nav)
    assert {p.name for p in DOCS.glob("*.md")} == set(nav)


def test_rules_page_has_every_field_and_preset() -> None:
    names = code_names(page("rules.md"))
    missing = [f.name for f in fields(Rules) if f.name not in names]
    assert not missing, f"rules fields not in docs/rules.md: {missing}"
    assert not [p for p in PRESETS if p not in names]
    text = page("rules.md")
    for figure in ("+52", "+72", "-70", "+140", "-100", "+200", "-58", "Duel"):
        assert figure in text


def test_strategies_page_has_every_policy_and_parameter_with_its_default() -> None:
    text = page("strategies.md")
    names = code_names(text)
    for role, items in catalogue().items():
        for entry in items:
            assert entry["name"] in names, f"{role} policy {entry['name']} not documented"
            for param in entry["params"]:
                assert param["name"] in names, f"{entry['name']}: {param['name']} not documented"
                # a name two policies share (`worlds`, `margin`) has a row in each one's table
                rows = re.findall(rf"^\| `{param['name']}` \| `([^`]+)` \|", text, flags=re.M)
                if rows and entry["name"] not in ("optimist", "cautious"):  # the table is counting's
                    shown = [r.strip('"').lower() for r in rows]
                    assert str(param["default"]).lower() in shown, f"{param['name']}: {shown} vs {param['default']}"
                # and its range as the errors write it (`0..13`), for a rank the word "rank", else every word; in a row
                # or, for a policy described in prose, as "`name` (default, range ..)"
                lines = re.findall(rf"^\| `{param['name']}` \|.*$|`{param['name']}` \([^)]*\)", text, flags=re.M)
                if param["range"] is not None:
                    allowed = range_text(*param["range"])
                    assert any(allowed in line for line in lines), f"{param['name']}: range {allowed} not in its row"
                if param["choices"] is not None:  # a rank, or every word allowed
                    listed = ("a rank" in line or all(f"`{c}`" in line for c in param["choices"]) for line in lines)
                    assert any(listed), f"{param['name']}: its choices not in its row"


def test_statistics_page_has_every_column(tmp_path: Path) -> None:
    import spades_lab as sl

    result = sl.tournament(["counting+tips", "random"], sl.preset("blind-nil").replace(hand_cap=5), games=2, seed=1,
                           duplicate=True, out=tmp_path, records=True)  # fmt: skip
    names = code_names(page("statistics.md"))
    tables = {"summary": result.summary, "matchups": result.matchups, "games": result.games,
              "bid_totals": result.bid_totals, "seat_hands": result.seat_hands(), "side_hands": result.side_hands(),
              "plays": result.plays()}  # fmt: skip
    for table, frame in tables.items():
        missing = [c for c in frame.columns if c not in names]
        assert not missing, f"{table} columns not in docs/statistics.md: {missing}"
    per_seat = {re.sub(r"\d$", "", c) for c in result.hands.columns}
    text = page("statistics.md")
    assert all(c in text for c in per_seat), per_seat - {c for c in per_seat if c in text}


def test_plots_and_commands_are_documented() -> None:
    names = code_names(page("plots.md"))
    assert not [p for p in PLOTS if p not in names]
    every = "".join(p.read_text() for p in DOCS.glob("*.md"))
    import argparse

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for command in sub.choices:
        assert f"spades-lab {command}" in every, command


def test_the_repository_stands_alone() -> None:
    texts = {p.name: p.read_text() for p in [*DOCS.glob("*.md"), ROOT / "README.md"]}
    for name, text in texts.items():
        assert "../shared" not in text and "shared/spec" not in text, name
        assert not re.search(r"\b(RULES|HEURISTICS|RECORDS)\.md\b", text), name
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    citation = (ROOT / "CITATION.cff").read_text()
    assert "cff-version" in citation and f"version: {spades_lab.__version__}" in citation
    readme = texts["README.md"]
    assert "make docs" in readme and "docs/" in readme


def _blocks(name: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page(name), flags=re.S)


def test_runnable_examples_run(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name, index in (("strategies.md", 0), ("records.md", 1)):
        namespace: dict = {}
        exec(compile(_blocks(name)[index], f"docs/{name}", "exec"), namespace)
    assert namespace["sl"].decide("counting+tips", namespace["position"]) == {"seat": 1, "bid": 6}


README = ROOT / "README.md"


def _section(text: str, heading: str) -> str:
    """The text under `heading` up to the next `## ` heading."""
    return text.split(f"\n{heading}\n", 1)[1].split("\n## ", 1)[0]


def test_readme_is_short_and_links_work() -> None:
    text = README.read_text()
    assert len(text.splitlines()) <= 250
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), f"README links {target}, which is not in the repository"
    assert re.search(r"!\[[^\]]*\]\(results/default/plots/\w+\.png\)", text), "the README shows a figure"


def test_readme_tasks_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The three everyday tasks, in order, in an empty folder: each command as typed (through the CLI's main) and
    each Python block saved as a script and run as one, so a script with workers must be safe as a file."""
    from spades_lab.cli import main

    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```(sh|python)\n(.*?)```", _section(README.read_text(), "## Three everyday tasks"), re.S)
    assert [kind for kind, _ in blocks] == ["sh", "python", "sh", "python"]
    outputs = []
    for number, (kind, code) in enumerate(blocks):
        if kind == "sh":
            for line in code.splitlines():
                argv = shlex.split(line.split("  #")[0])
                assert argv[0] == ".venv/bin/spades-lab", line  # the command a newcomer has after `make run`
                assert main(argv[1:]) == 0, line
            continue
        script = tmp_path / f"example_{number}.py"
        script.write_text(code)
        run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stderr[-3000:]
        outputs.append(run.stdout)
    assert (tmp_path / "results" / "compare" / "plots" / "bags.png").exists()
    assert (tmp_path / "bags.png").exists() and (tmp_path / "sets.png").exists()
    # the text under the comparison says cautious+tips comes out ahead: its paired interval is above zero
    row = next(line.split() for line in outputs[0].splitlines() if line.split()[:1] == ["cautious+tips"])
    assert float(row[-2]) > 0, outputs[0]


def test_readme_first_result_quotes_the_results() -> None:
    """Every figure the README's explanation of the first result quotes is the one its source holds."""
    import pandas as pd

    text = _section(README.read_text(), "## The first result")
    matchups = pd.read_csv(ROOT / "results" / "default" / "matchups.csv")
    row = matchups[(matchups["entrant"] == "cautious+tips") & (matchups["opponent"] == "counting+tips")].iloc[0]
    assert (
        f"+{row['paired_win_diff']:.3f}, 95% interval {row['paired_win_lo']:.3f} to {row['paired_win_hi']:.3f}" in text
    )
    sources = {
        "bid_totals": ["60.9% (60.6% to 61.1%)"],
        "cautious_bags": ["+103.5 (+101.9 to +105.1)", "+13.3% (+11.0% to +15.6%)", "23.8%", "5.2%", "3,000"],
    }
    for name, figures in sources.items():
        result = (ROOT / "results" / name / "README.md").read_text()
        for figure in figures:
            assert figure in text and figure in result, (name, figure)


def test_readme_experiments_section_is_the_generators() -> None:
    """The script run as a user runs it (the tests import nothing from experiments/): its printed section."""
    script = ROOT / "experiments" / "readme_section.py"
    printed = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True).stdout
    text = README.read_text()
    assert printed.startswith("## Experiments") and "\n" + printed in text, (
        "run `.venv/bin/python experiments/readme_section.py --write`"
    )


def test_make_run_says_how_to_reach_the_command() -> None:
    makefile = (ROOT / "Makefile").read_text()
    run_recipe = makefile.split("\nrun:")[1].split("\n\n")[0]
    assert ".venv/bin/spades-lab" in run_recipe.replace("$(BIN)", ".venv/bin") and "activate" in run_recipe


def test_index_links_every_page() -> None:
    linked = set(re.findall(r"\]\(([\w-]+\.md)", page("index.md")))
    missing = {p.name for p in DOCS.glob("*.md")} - {"index.md"} - linked
    assert not missing, f"docs/index.md does not link {sorted(missing)}"


def test_every_figure_is_shown_and_every_image_is_there() -> None:
    """The plots page shows every figure of the default run, the getting-started page some, and every image a page
    shows is a file of the repository (the same relative link works on GitHub and, through docs/hooks.py, in
    the built site)."""
    figures = sorted((ROOT / "results" / "default" / "plots").glob("*.png"))
    assert figures
    for figure in figures:
        assert f"](../results/default/plots/{figure.name})" in page("plots.md"), figure.name
    assert "](../results/default/plots/matchups.png)" in page("getting-started.md")
    shown = re.findall(r"^### `(\w+)`$", page("plots.md"), flags=re.M)
    assert {*PLOTS, *DD_PLOTS} <= set(shown), {*PLOTS, *DD_PLOTS} - set(shown)  # every plot has its section
    for md in DOCS.glob("*.md"):
        for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", md.read_text()):
            assert (DOCS / target).resolve().is_file(), f"docs/{md.name} shows {target}, which is not there"


def _states_question_answer_figure_method_command(text: str) -> None:
    for part in ("**Question.**", "**Answer.**", "**Method.**", "```sh"):
        assert part in text, part
    assert re.search(r"!\[[^\]]*\]\([^)]+\.png\)", text), "no figure"


def test_every_results_readme_states_question_answer_figure_method_command() -> None:
    for readme in sorted((ROOT / "results").glob("*/README.md")):
        text = readme.read_text()
        assert "**Question.**" in text and "**Answer.**" in text, readme
        assert re.search(r"!\[[^\]]*\]\([^)]+\.png\)", text) and "```sh" in text, readme
    _states_question_answer_figure_method_command((ROOT / "results" / "default" / "README.md").read_text())


def test_default_run_readme_answers_from_its_own_tables(tmp_path: Path) -> None:
    from spades_lab.main_job import main_job

    main_job(tmp_path, games=4, entrants=("counting+tips", "cautious+tips"), workers=1, chunk_games=4)
    text = (tmp_path / "README.md").read_text()
    _states_question_answer_figure_method_command(text)
    matchups = pd_read_csv(tmp_path / "matchups.csv")
    ahead = matchups[matchups["paired_win_diff"] > 0]
    for _, row in ahead.iterrows():
        assert f"`{row['entrant']}`" in text and f"{row['paired_win_diff']:+.3f} ({row['paired_win_lo']:.3f}" in text


def pd_read_csv(path: Path):
    import pandas as pd

    return pd.read_csv(path)


def test_getting_started_summary_is_the_default_runs() -> None:
    """The summary the getting-started page prints is results/default/summary.csv, to the digit shown."""
    import pandas as pd

    summary = pd.read_csv(ROOT / "results" / "default" / "summary.csv").set_index("entrant")
    block = page("getting-started.md").split("The summary, one row per entrant")[1].split("```")[1]
    header, *rows = [line.split() for line in block.strip().splitlines()]
    assert len(rows) == len(summary)
    for row in rows:
        for column, shown in zip(header[1:], row[1:], strict=True):
            value = summary.loc[row[0], column]
            assert shown == (f"{value:.3f}" if "." in shown else str(int(value))), (row[0], column, shown, value)


def test_getting_started_and_tournament_scripts_run(tmp_path: Path) -> None:
    """The getting-started page's Python block as written, and the tournaments page's worker example (at 100
    games instead of 10,000) saved as a script: with workers=2 it must be safe to run as a file."""
    examples = {"getting_started.py": _blocks("getting-started.md")[0],
                "tournament.py": _blocks("tournaments.md")[0].replace("games=10_000", "games=100")}  # fmt: skip
    assert 'if __name__ == "__main__":' in examples["tournament.py"] and "workers=2" in examples["tournament.py"]
    for name, code in examples.items():
        (tmp_path / name).write_text(code)
        run = subprocess.run([sys.executable, name], cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, (name, run.stderr[-3000:])
    assert (tmp_path / "results" / "a" / "summary.csv").exists()


@pytest.mark.parametrize(
    ("script", "args", "keys"),
    [
        ("measure_three_ways.py", ["--scale", "0.01"], {"per-table Python", "numpy batch", "compiled scalar"}),
        (
            "measure_sequential.py",
            ["--runs", "1", "--power-runs", "1", "--most", "100"],
            {"twins", "cautious+tips", "calibrated+tips"},
        ),
    ],
)
def test_the_docs_measurement_scripts_run(script: str, args: list[str], keys: set[str]) -> None:
    """The commands the docs give for their measured figures run, at a tiny scale, and print their JSON table
    (last, after whatever the page's examples print)."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "docs" / script), *args], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-2000:]
    start = 0 if run.stdout.startswith("{") else run.stdout.rindex("\n{") + 1
    table = json.loads(run.stdout[start:])
    assert keys <= set(table)
