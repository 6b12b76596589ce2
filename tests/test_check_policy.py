"""`check_policy` passes every registered policy under every preset and catches each kind of fault."""

from __future__ import annotations

import numpy as np
import pytest

import spades_lab as sl
from spades_lab.players.registry import entries

BIDS = [e.name for e in entries("bid")]
PLAYS = [e.name for e in entries("play")]
SEARCH_BUDGET = {"pimc": "pimc(worlds=4,max_tricks=4,early_worlds=2)"}
"""Search players run the preset matrix on a tiny budget, with pimc's optional early rollouts on (its defaults
search every decision of the last eight tricks over 32 worlds: minutes a preset); their defaults are checked
apart, on two tables."""
PLAYERS = sorted(
    {f"{b}+tips" for b in BIDS if b != "dd"} | {f"counting+{SEARCH_BUDGET.get(p, p)}" for p in PLAYS} | {"random"}
)
"""The `dd` bidder solves full deals for every bid, so it is checked apart, under the standard rules only (below)."""


@pytest.mark.parametrize("preset", list(sl.PRESETS))
@pytest.mark.parametrize("player", PLAYERS)
def test_every_registered_policy_conforms_under_every_preset(player: str, preset: str) -> None:
    asked = sl.check_policy(player, preset, tables=24)
    assert asked["bid"] > 0 and asked["play"] > 0
    rules = sl.preset(preset)
    if rules.players == 2:
        assert asked["draft"] > 0
    if rules.blind_nil and rules.blind_nil_exchange:
        assert asked["exchange"] > 0 and asked["blind"] > 0


class Base:
    name = "faulty"

    def __init__(self) -> None:
        self.inner = sl.make_player("random")

    def bid(self, view):
        return self.inner.bid(view)

    def play(self, view):
        return self.inner.play(view)


class Scribbles(Base):
    def play(self, view):
        hand = view.hand
        hand.setflags(write=True)
        hand[:] = 0
        return self.inner.play(view)


class UsesNumpyRandom(Base):
    def play(self, view):
        legal = sl.masks.card_ids(view.legal, deck=view.deck)
        k = np.random.default_rng().integers(0, sl.masks.count(view.legal))
        return np.take_along_axis(legal, k[:, None], axis=1)[:, 0]


class DependsOnBatch(Base):
    def bid(self, view):
        legal = view.legal_bids
        wanted = np.full(len(view), 1 + len(view) % 5)
        return np.where(legal[np.arange(len(view)), wanted], wanted, 0)


class PlaysIllegally(Base):
    def play(self, view):
        return np.full(len(view), 51)


class ReturnsFloats(Base):
    def bid(self, view):
        return self.inner.bid(view).astype(float)


@pytest.mark.parametrize(
    "policy, message",
    [
        (Scribbles(), "wrote into view.hand during play"),
        (UsesNumpyRandom(), "the same seed gave different games"),
        (DependsOnBatch(), "splitting the tables into two batches"),
        (PlaysIllegally(), "is not a legal play"),
        (ReturnsFloats(), "dtype float64"),
    ],
)
def test_each_fault_is_named(policy, message: str) -> None:
    with pytest.raises(sl.PolicyCheckError, match=message):
        sl.check_policy(policy, tables=24)


def test_missing_decisions_are_named() -> None:
    with pytest.raises(sl.PolicyCheckError, match="lacks draft"):
        sl.check_policy(Base(), "duel")


@pytest.mark.parametrize("play", sorted(SEARCH_BUDGET))
def test_a_search_player_with_its_defaults_conforms_under_the_standard_rules(play: str) -> None:
    asked = sl.check_policy(f"counting+{play}", tables=2)
    assert asked["bid"] > 0 and asked["play"] > 0


def test_the_dd_bidder_conforms_under_the_standard_rules() -> None:
    # One world and no nil search: each bid is then one full-deal solve (a nil solve takes seconds),
    # which keeps the check within the suite's budget; the nil path is tested in test_ddbid.py.
    asked = sl.check_policy(sl.make_player("dd(worlds=1,nil=false)+tips"), tables=2)
    assert asked["bid"] > 0 and asked["play"] > 0
