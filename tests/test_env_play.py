"""`spades-lab play` through a pseudo-terminal: wrong entries, hints, quitting, the clock and the saved records."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from spades_lab.engine.records import read_records, verify  # noqa: E402

PROMPT = r"(your bid|your card|blind nil\? \(blind / look\)|card to pass|keep or discard the top card\?)> "
END = r"game over: .*|game stopped unfinished.*"


def _spawn(tmp_path: Path, *args: str, rules: dict | None = None) -> pexpect.spawn:
    rules_file = tmp_path / "rules.json"
    rules_file.write_text(json.dumps(rules or {"preset": "short", "hand_cap": 1}))
    command = ["-c", "import sys; from spades_lab.cli import main; sys.exit(main())", "play", "--rules", str(rules_file),
               "--save", str(tmp_path / "game.jsonl"), *args]  # fmt: skip
    return pexpect.spawn(sys.executable, command, encoding="utf-8", timeout=120, dimensions=(50, 160))


def _legal_options(child: pexpect.spawn) -> list[str]:
    child.sendline("zz")
    child.expect(r"(legal: (.*)|type (\w+) .*)\r\n")
    return (child.match.group(2) or child.match.group(3)).split()


def test_a_hand_typed_through_the_terminal_is_saved_as_records(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "--seed", "5", "--seat", "north")
    child.expect("you are North")
    decisions = 0
    while child.expect([PROMPT, END]) == 0:
        assert "your hand (You):" in child.before  # the table is shown before every decision
        options = _legal_options(child)
        child.expect(PROMPT)
        choice = options[-1]
        if re.fullmatch(r"[2-9TJQKA][CDHS]", choice) and choice[0] == "T":
            choice = "10" + choice[1].lower()  # exercise the other spellings of a card
        child.sendline(choice)
        decisions += 1
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert decisions == 14  # one bid and 13 cards
    records = list(read_records(tmp_path / "game.jsonl"))
    assert len(records) == 1 and records[0]["unfinished"]
    verify(records)


def test_hint_and_quit(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "--seed", "2", "--partner", "counting+tips", "--opponents", "random")
    child.expect("partner counting\\+tips, opponents random")
    child.expect("your bid> ")
    child.sendline("hint")
    child.expect(r"hint: \S+ would choose (nil|\d+)")
    child.expect("your bid> ")
    child.sendline("99")
    child.expect("'99' is not a legal bid; legal: nil")
    child.expect("your bid> ")
    child.sendline("quit")
    child.expect("you left the game")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_clock_plays_for_you(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "--seed", "9", "--clock", "0.2")
    for _ in range(14):
        child.expect(r"time is up: the table plays (\S+) for you")
    child.expect("game stopped unfinished")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert len(list(read_records(tmp_path / "game.jsonl"))) == 1


def test_duel_draft_in_the_terminal(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "--seed", "1", rules={"preset": "duel", "hand_cap": 1})
    drafts = 0
    while child.expect([PROMPT, END]) == 0:
        drafts += child.match.group(1).startswith("keep")
        options = _legal_options(child)
        child.expect(PROMPT)
        child.sendline(options[0])
    child.expect(pexpect.EOF)
    assert drafts == 13
    verify(list(read_records(tmp_path / "game.jsonl")))


def test_bad_seat_is_a_usage_error(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "--seat", "7")
    child.expect("spades-lab: error: seat '7' is not at this table")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
