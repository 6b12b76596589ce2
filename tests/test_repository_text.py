"""The repository speaks to its users about the project alone: no word of the work's own bookkeeping (the
sittings it was built in, the tracker's numbers) in docs, results, code, comments or tests.

A user cannot follow "issue 6" or "#14", so a reference like that must say what it means instead. CSS colours
(`#222`, `#1f77b4`) are not references, so a `#` followed by a three- or six-digit hex colour is allowed.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEXT_SUFFIXES = {".py", ".md", ".toml", ".yml", ".yaml", ".cfg", ".cff", ".txt", ".ipynb", ".json", ".csv", ""}

BOOKKEEPING = re.compile(
    r"\bsess(?:ion)"  # a word for the sittings the work was done in
    r"|\bissues?\s*(?:no\.?\s*)?\d"  # a tracker's number: "issue 6", "issues 13"
    r"|(?<![\w&])#\d+\b(?!;)",  # "#36", "(#6)"
    re.IGNORECASE,
)
COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})\b")


def tracked_text_files() -> list[Path]:
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    paths = [ROOT / name for name in listed.decode().split("\0") if name]
    return [p for p in paths if p.suffix in TEXT_SUFFIXES and p.is_file()]


def offending_lines(text: str) -> list[str]:
    """The lines that speak of sessions or name an issue by number (hex colours excepted)."""
    found = []
    for line in text.splitlines():
        for match in BOOKKEEPING.finditer(line):
            if match.group().startswith("#") and COLOUR.match(line, match.start()):
                continue
            found.append(line.strip()[:160])
            break
    return found


def test_the_pattern_catches_what_it_must() -> None:
    for bad in ("the default since the tenth session", "(issue 14)", "Issue 13's rule sets", "see #36",
                "fixed in (#6)", "issues 6 and 14"):  # fmt: skip
        assert offending_lines(bad), bad
    for fine in ('color: #222; border: 1px solid #999;', '"counting+tips": "#1f77b4",', "a tissue 3 cm wide",
                 "possession of the lead", "tip 11's last tricks", "[0, 52] masks"):  # fmt: skip
        assert not offending_lines(fine), fine


def test_no_session_words_or_issue_numbers_in_the_repository() -> None:
    files = tracked_text_files()
    assert any(p.name == "README.md" for p in files) and any(p.suffix == ".py" for p in files)
    found = {}
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if lines := offending_lines(text):
            found[str(path.relative_to(ROOT))] = lines
    assert not found, f"say what is meant instead: {found}"
