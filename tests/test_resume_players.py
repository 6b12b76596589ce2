"""A run folder resumes only with the same players: names, and what each name resolves to.

The failure this guards against: a default parameter flips (the expert's `short_suit_first` did),
and a resumed or re-run tournament silently reuses the games the old player played.
"""

from __future__ import annotations

import importlib
import json
import sys
import textwrap
import warnings
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest

from spades_lab.cli import main
from spades_lab.players.identity import code_fingerprint, player_identity
from spades_lab.players.registry import PolicyReplacedWarning, entries
from spades_lab.policies import Player, register
from spades_lab.policies.baseline import RandomBid, RandomPlay
from spades_lab.tournament import CodeChangedWarning, ConfigMismatch, tournament

ENTRANTS = ["random", "counting+tips"]
SMALL = {"games": 6, "seed": 5, "chunk_games": 2, "progress": False}


@pytest.fixture
def restore_registry():
    """Re-register whatever a test replaces, so no other test sees the replacement."""
    saved = {(e.role, e.name): e for e in entries()}
    yield
    for (role, name), entry in saved.items():
        register(role, name, entry.params, entry.doc)(entry.build)


@dataclass(frozen=True)
class RandomBidLater:
    blind_rate: float = 0.25  # the same field, its default changed


def test_a_changed_default_parameter_refuses_the_resume_naming_entrant_and_field(tmp_path, restore_registry) -> None:
    tournament(ENTRANTS, out=tmp_path, **SMALL)
    random_bid = next(e for e in entries("bid") if e.name == "random")
    register("bid", "random", RandomBidLater, random_bid.doc)(random_bid.build)  # a new default, same name
    with pytest.raises(ConfigMismatch) as caught:
        tournament(ENTRANTS, out=tmp_path, **SMALL)
    message = str(caught.value)
    assert "entrant 'random'" in message and "bid.blind_rate: 0.5 -> 0.25" in message
    assert "entrant 'counting+tips'" not in message  # the unchanged entrant is not listed
    assert "fresh=True (--fresh)" in message and "another output directory" in message
    again = tournament(ENTRANTS, out=tmp_path, fresh=True, **SMALL)  # the advice works
    assert again.chunks_run == len(again.chunks)
    assert again.manifest["config"]["players"]["random"]["bid"]["params"] == {"blind_rate": 0.25}


def test_another_factory_under_the_same_name_refuses(tmp_path, restore_registry) -> None:
    tournament(ENTRANTS, out=tmp_path, **SMALL)
    greedy = next(e for e in entries("play") if e.name == "greedy")

    def my_random_play(params):  # a user's own player registered under a name already in use
        return RandomPlay()

    with pytest.warns(PolicyReplacedWarning, match="'random' ships with spades_lab"):
        register("play", "random", greedy.params, "mine")(my_random_play)
    with pytest.raises(ConfigMismatch, match=r"entrant 'random': play\.factory: .*RandomPlay.* -> .*my_random_play"):
        tournament(ENTRANTS, out=tmp_path, **SMALL)


def test_resume_with_the_same_players_works_and_gives_identical_tables(tmp_path) -> None:
    whole = tournament(ENTRANTS, out=tmp_path / "whole", **SMALL)
    part = tmp_path / "part"
    tournament(ENTRANTS, out=part, **SMALL)
    first = sorted((part / "games").iterdir())[0]
    first.unlink()  # an interrupted run: one chunk missing
    resumed = tournament(ENTRANTS, out=part, **SMALL)
    assert resumed.chunks_run == 1
    for name in ("summary", "matchups", "bid_totals"):
        pd.testing.assert_frame_equal(getattr(resumed, name), getattr(whole, name))
    assert resumed.manifest["config"]["players"] == whole.manifest["config"]["players"]


def test_player_objects_are_checked_by_class_and_params(tmp_path) -> None:
    one = Player(RandomBid(0.5), RandomPlay(), label="mine")
    tournament([one, "counting+tips"], out=tmp_path, **SMALL)
    identity = player_identity(one)
    assert identity["class"] == "spades_lab.players.player.Player"
    assert identity["parts"]["bid"]["class"] == "spades_lab.policies.baseline.RandomBid"
    other = Player(RandomBid(0.1), RandomPlay(), label="mine")
    with pytest.raises(ConfigMismatch, match=r"entrant 'mine': bid\.attributes\.blind_rate: 0\.5 -> 0\.1"):
        tournament([other, "counting+tips"], out=tmp_path, **SMALL)


def test_identity_is_json_ready_and_fills_in_every_default() -> None:
    identity = player_identity("counting(margin=2)+tips(-duck_after_contract)")
    assert json.loads(json.dumps(identity)) == identity
    assert identity["bid"]["params"]["margin"] == 2 and identity["play"]["params"]["duck_after_contract"] is False
    assert identity["bid"]["params"]["bag_aware"] is True  # a default, recorded although the name omits it
    assert identity["draft"]["policy"] == "value" and identity["exchange"]["policy"] == "high"


def test_a_folder_written_before_players_were_recorded_is_refused(tmp_path) -> None:
    tournament(ENTRANTS, out=tmp_path, **SMALL)
    path = tmp_path / "manifest.json"
    manifest = json.loads(path.read_text())
    del manifest["config"]["players"]
    path.write_text(json.dumps(manifest))
    with pytest.raises(ConfigMismatch, match="written before run folders recorded what each player is.*--fresh"):
        tournament(ENTRANTS, out=tmp_path, **SMALL)


def test_the_cli_says_which_field_changed_and_exits_2(tmp_path, capsys, restore_registry) -> None:
    args = [
        "tournament",
        "--entrant",
        ENTRANTS[0],
        "--entrant",
        ENTRANTS[1],
        "--games",
        "4",
        "--seed",
        "2",
        "--out",
        str(tmp_path),
        "--quiet",
        "--workers",
        "1",
    ]
    assert main(args) == 0
    random_bid = next(e for e in entries("bid") if e.name == "random")
    register("bid", "random", RandomBidLater, random_bid.doc)(random_bid.build)
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "bid.blind_rate: 0.5 -> 0.25" in err and "--fresh" in err
    assert main([*args, "--fresh"]) == 0


def test_changed_code_warns_on_resume_and_keeps_warning(tmp_path) -> None:
    tournament(ENTRANTS, out=tmp_path, **SMALL)
    path = tmp_path / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["code"]["counting+tips"]["spades_lab.policies.play"] = "0" * 16  # as if play.py had been edited
    path.write_text(json.dumps(manifest))
    for _ in range(2):  # the record of the old code stays, so the warning repeats until a fresh run
        with pytest.warns(CodeChangedWarning, match=r"'counting\+tips': spades_lab\.policies\.play.*--fresh"):
            tournament(ENTRANTS, out=tmp_path, **SMALL)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CodeChangedWarning)
        tournament(ENTRANTS, out=tmp_path, fresh=True, **SMALL)
        tournament(ENTRANTS, out=tmp_path, **SMALL)  # same code: silent


def test_the_fingerprint_ignores_docstrings_and_comments_but_not_code(tmp_path, monkeypatch) -> None:
    source = '''
        import numpy as np

        class MyPlay:
            """First words."""
            def play(self, view):
                return view.legal.argmax(axis=1)  # the lowest legal card
    '''
    module = tmp_path / "r8_user_policy.py"
    module.write_text(textwrap.dedent(source))
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("r8_user_policy")
    try:
        before = code_fingerprint(mod.MyPlay())
        assert "r8_user_policy.MyPlay" in before and "spades_lab.players.player" not in before

        def fingerprint_of(text: str) -> dict[str, str]:
            module.write_text(textwrap.dedent(text))
            return code_fingerprint(importlib.reload(mod).MyPlay())

        reworded = source.replace("First words.", "Other words,\n            on two lines.").replace(
            "# the lowest legal card", "# comment changed"
        )
        assert fingerprint_of(reworded) == before
        assert fingerprint_of(source.replace("argmax", "argmin")) != before
    finally:
        sys.modules.pop("r8_user_policy", None)


def test_package_fingerprint_names_the_modules_a_player_reaches() -> None:
    tips = code_fingerprint("counting+tips")
    expert = code_fingerprint("counting+expert")
    assert "spades_lab.policies.play" in tips and "spades_lab.policies.bidding" in tips
    assert "spades_lab.policies.expert" not in tips and "spades_lab.policies.pimc" not in tips
    assert "spades_lab.policies.expert" in expert and "spades_lab/policies/data/expert_leads.json" in expert
    assert all(len(h) == 16 for h in tips.values()) and Path(__file__).exists()


def test_the_viewer_names_the_changed_field_instead_of_replaying_another_game(tmp_path, restore_registry) -> None:
    from spades_lab.viewer.source import tournament_hand

    tournament(ENTRANTS, out=tmp_path, **SMALL)
    assert tournament_hand(tmp_path, 0, 0, 0, 0)["game"] == 0  # same players: replays
    random_bid = next(e for e in entries("bid") if e.name == "random")
    register("bid", "random", RandomBidLater, random_bid.doc)(random_bid.build)
    with pytest.raises(ValueError, match=r"players have changed since the run \(entrant 'random': bid\.blind_rate"):
        tournament_hand(tmp_path, 0, 0, 0, 0)
