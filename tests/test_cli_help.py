"""The command line explains itself: help with defaults, examples, --json where scripts need it, 100 columns."""

from __future__ import annotations

import argparse
import json

import pytest

from spades_lab.cli import WIDTH, build_parser, main
from spades_lab.players.catalogue import catalogue
from spades_lab.players.registry import entries


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_option_has_help_and_every_command_examples() -> None:
    for name, command in _commands().items():
        for action in command._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"{name} {action.option_strings or action.dest} has no help"
        text = command.format_help()
        assert "examples:" in text and text.rstrip().splitlines()[-1].strip().startswith("spades-lab"), name
    assert "examples:" in build_parser().format_help()


def test_help_shows_defaults() -> None:
    text = " ".join(_commands()["tournament"].format_help().split())
    assert "(default: 4000)" in text and "(default: standard)" in text and "(default: 8192)" in text
    assert "(default: None)" not in text and "(default: False)" not in text


def test_policies_json_lists_every_policy_and_explains_every_parameter(capsys) -> None:
    assert main(["policies", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed == json.loads(json.dumps(catalogue()))
    names = {(role, e["name"]) for role, items in listed.items() for e in items}
    assert names == {(e.role, e.name) for e in entries()}
    for role, items in listed.items():
        for entry in items:
            for param in entry["params"]:
                assert param["doc"], f"{role} {entry['name']}: {param['name']} unexplained"
    tips = next(e for e in listed["play"] if e["name"] == "tips")
    assert {"name": "big_bid", "type": "int", "default": 11, "range": [0, 26], "choices": None} == {
        k: v for k, v in tips["params"][17].items() if k != "doc"
    }


def test_simulate_json(capsys) -> None:
    assert main(["simulate", "--games", "6", "--seed", "3", "--player", "counting+tips", "--player", "random",
                 "--hand-cap", "20", "--json"]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert out["players"] == ["counting+tips", "random", "counting+tips", "random"]
    assert out["games_finished"] + out["games_unfinished"] == 6
    assert len(out["sides"]) == 2 and out["hands"] == sum(s["hands"] for s in out["sides"]) // 2


@pytest.mark.parametrize("duplicate", [False, True])
def test_tables_fit_100_columns(tmp_path, capsys, duplicate: bool) -> None:
    args = ["tournament", "--entrant", "counting+tips(-duck_after_contract)", "--entrant", "optimist+tips",
            "--entrant", "random", "--games", "4", "--seed", "1", "--hand-cap", "8", "--out", str(tmp_path),
            "--workers", "1", "--quiet"] + (["--duplicate"] if duplicate else [])  # fmt: skip
    assert main(args) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("results in ")]
    assert max(len(line) for line in lines) <= WIDTH, max(lines, key=len)
    assert main(["simulate", "--games", "4", "--seed", "1", "--hand-cap", "8", "--player", "counting+tips",
                 "--player", "random"]) == 0  # fmt: skip
    assert max(len(line) for line in capsys.readouterr().out.splitlines()) <= WIDTH
