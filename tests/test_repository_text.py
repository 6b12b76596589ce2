"""The repository speaks to its users about the project alone: no word of the work's own bookkeeping (the
sittings it was built in, a tracker's numbers) in docs, results, code, comments or tests.

A user cannot follow a tracker's number, so a reference like that must say what it means instead. CSS colours
(`#222`, `#1f77b4`) are not references, so a three- or six-digit hex colour is allowed. The words themselves are
spelled in pieces below, so that this file passes its own test.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEXT_SUFFIXES = {".py", ".md", ".toml", ".yml", ".yaml", ".cfg", ".cff", ".txt", ".ipynb", ".json", ".csv", ""}
SITTING, TRACKED, HASH = "sess" + "ion", "iss" + "ue", "#"

BOOKKEEPING = re.compile(
    rf"\b{SITTING}"  # a word for the sittings the work was done in
    rf"|\b{TRACKED}s?\s*(?:no\.?\s*)?\d"  # a tracker's number in words
    rf"|(?<![\w&]){HASH}\d+\b(?!;)",  # a tracker's number after a hash sign
    re.IGNORECASE,
)
COLOUR = re.compile(HASH + r"(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})\b")


def tracked_text_files() -> list[Path]:
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    paths = [ROOT / name for name in listed.decode().split("\0") if name]
    return [p for p in paths if p.suffix in TEXT_SUFFIXES and p.is_file()]


def offending_lines(text: str) -> list[str]:
    """The lines that speak of the sittings or name a tracker's number (hex colours excepted)."""
    found = []
    for line in text.splitlines():
        for match in BOOKKEEPING.finditer(line):
            if match.group().startswith(HASH) and COLOUR.match(line, match.start()):
                continue
            found.append(line.strip()[:160])
            break
    return found


def test_the_pattern_catches_what_it_must() -> None:
    bad = [f"the default since the tenth {SITTING}", f"({TRACKED} 14)", f"{TRACKED.title()} 13's rule sets",
           f"see {HASH}36", f"fixed in ({HASH}6)", f"{TRACKED}s 6 and 14", f"{SITTING.upper()} notes"]  # fmt: skip
    for line in bad:
        assert offending_lines(line), line
    fine = ["color: #222; border: 1px solid #999;", '"counting+tips": "#1f77b4",', "a tissue 3 cm wide",
            "possession of the lead", "tip 11's last tricks", "[0, 52] masks", "the issues a user raises"]  # fmt: skip
    for line in fine:
        assert not offending_lines(line), line


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
