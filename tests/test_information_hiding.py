"""No attribute path from a policy's view to hidden cards or to state the engine reads.

Everything reachable from a view, following attributes, slots (private ones included), containers
and array bases, is either the view's own copy (its hand, its copy of the rules) or a read-only
alias of a public engine array that cannot be made writable; nothing reachable shares memory with
a hidden array (hands, stock, discards, passes, random keys). A policy that forces its arrays
writable and scribbles on them, or rewrites its copy of the rules, plays exactly the same games as
one that does not. Interpreter-level tricks (gc, frames, ctypes) are out of scope, as the docs say.
"""

from __future__ import annotations

import dataclasses
import types

import numpy as np
import pytest

import spades_lab as sl
from spades_lab.engine import HandLog
from spades_lab.engine.state import Phase, State
from spades_lab.engine.views import BidView, BlindView, DraftView, ExchangeView, PlayView, ViewContext


def reachable(root: object) -> list[object]:
    """Every object reachable from `root` through instance data (not classes, functions or modules)."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (type, types.ModuleType, types.FunctionType, types.MethodType)):
            continue
        if isinstance(obj, (int, float, str, bytes, bool, type(None), np.generic)):
            continue
        seen[id(obj)] = obj
        if isinstance(obj, np.ndarray):
            if obj.base is not None:
                todo.append(obj.base)
            continue
        if isinstance(obj, memoryview):
            todo.append(obj.obj)
            continue
        if isinstance(obj, dict):
            todo += list(obj.keys()) + list(obj.values())
            continue
        if isinstance(obj, (list, tuple, set, frozenset)):
            todo += list(obj)
            continue
        for klass in type(obj).__mro__:
            for slot in getattr(klass, "__slots__", ()):
                try:
                    todo.append(object.__getattribute__(obj, slot))
                except AttributeError:
                    pass
        if hasattr(obj, "__dict__"):
            todo.append(vars(obj))
    return list(seen.values())


HIDDEN = ("hands", "stock", "discards", "received", "passed", "dealt", "held", "policy_key", "_pending")


def state_arrays(state: State) -> dict[str, np.ndarray]:
    return {k: v for k, v in vars(state).items() if isinstance(v, np.ndarray)}


def views_of_a_hand(rules: sl.Rules, seed: int = 4, every: int = 1) -> list[tuple[State, object]]:
    """Drive one batch of hands with random answers, building every view the engine would build (of every
    `every`-th acting table only: the views a policy holding some of the tables gets)."""
    n = 6
    ids = np.arange(n, dtype=np.int64)
    keys = np.arange(1, n + 1, dtype=np.uint64) * np.uint64(seed)
    scores = np.tile(np.array([[0, 150]], dtype=np.int64), (n, 1))  # side 0 trails: blind nil allowed
    state = State(rules, ids, np.zeros(n, np.int64), keys, ids % rules.players, scores, np.zeros((n, 2), np.int64))
    context = ViewContext(rules, state.deck)
    kinds = {
        Phase.DRAFT: DraftView,
        Phase.BLIND: BlindView,
        Phase.BID: BidView,
        Phase.EXCHANGE: ExchangeView,
        Phase.PLAY: PlayView,
    }
    out = []
    rng = np.random.default_rng(seed)
    while not state.done:
        rows = np.flatnonzero(state.acting)[::every]
        view = kinds[state.point[0]](state, rows, state.to_act[rows], state.decision, context)
        out.append((state, view))
        mask = state.legal_action_mask()
        state.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask]))
    return out


@pytest.mark.parametrize("preset", ["standard", "duel", "pagat", "jokers"])
def test_nothing_reachable_from_a_view_is_engine_state(preset: str) -> None:
    rules = sl.preset(preset)
    checked = 0
    for state, view in views_of_a_hand(rules):
        engine = state_arrays(state)
        kind = type(view).__name__
        for obj in reachable(view):
            assert not isinstance(obj, State), f"{kind} reaches the engine's State"
            assert obj is not state.rules, f"{kind} holds the engine's own Rules object"
            if isinstance(obj, np.ndarray):
                for name, array in engine.items():
                    if np.shares_memory(obj, array):
                        assert name not in HIDDEN, f"{kind} reaches the hidden array {name}"
                        with pytest.raises(ValueError):  # a public array: it must stay read-only
                            obj.setflags(write=True)
            checked += 1
    assert checked > 1000


def test_deck_arrays_cannot_be_made_writable() -> None:
    for array in (sl.STANDARD_DECK.suit_of, sl.STANDARD_DECK.suit_masks):
        with pytest.raises(ValueError):
            array.setflags(write=True)


class Scribbler:
    """Plays at random, but first forces every array of its view writable and overwrites it, and
    rewrites its copy of the rules: none of it may reach the game."""

    name = "scribbler"

    def __init__(self) -> None:
        self.inner = sl.make_player("random")
        self.forced = 0

    def _vandalise(self, view: object) -> None:
        for obj in reachable(view):
            if isinstance(obj, np.ndarray) and obj.size:
                try:
                    obj.setflags(write=True)
                except ValueError:
                    continue
                obj[...] = 0 if obj.dtype != bool else True
                self.forced += 1
        object.__setattr__(view.rules, "trick_value", 1000)  # type: ignore[attr-defined]
        object.__setattr__(view.rules, "target", 1)  # type: ignore[attr-defined]

    def bid(self, view: BidView) -> np.ndarray:
        answer = self.inner.bid(view)  # decide first: the vandalism must not change its own answer
        self._vandalise(view)
        return answer

    def play(self, view: PlayView) -> np.ndarray:
        answer = self.inner.play(view)
        self._vandalise(view)
        return answer


def test_a_policy_writing_into_its_view_cannot_change_the_game() -> None:
    rules = sl.Rules(hand_cap=6)
    plain = HandLog.concat(list(sl.simulate_games(rules, sl.make_players(["random"]), 20, seed=8, batch_size=7)))
    scribbler = Scribbler()
    forced = HandLog.concat(list(sl.simulate_games(rules, [scribbler] * 4, 20, seed=8, batch_size=7)))
    assert scribbler.forced > 1000
    for f in dataclasses.fields(HandLog):
        assert np.array_equal(getattr(plain.sorted(), f.name), getattr(forced.sorted(), f.name)), f.name
    assert rules.trick_value == 10 and rules.target == 500


@pytest.mark.parametrize("preset", ["standard", "mirror", "duel"])
def test_a_view_of_some_tables_reaches_nothing_of_the_others(preset: str) -> None:
    """A view built for every other acting table (as when seats of a batch hold different policies)
    holds copies of its own rows only: no attribute path leads to the engine's arrays, so not to another
    table's legal cards or legal bids (under `mirror` they give a seat's spade count away)."""
    rules = sl.preset(preset)
    checked = 0
    for state, view in views_of_a_hand(rules, every=2):
        engine = state_arrays(state)
        for obj in reachable(view):
            if isinstance(obj, np.ndarray):
                for name, array in engine.items():
                    assert not np.shares_memory(obj, array), f"{type(view).__name__} reaches the engine's {name}"
                checked += 1
    assert checked > 1000


class DeckForcer:
    """Forces its way into its view's deck (writing the index, replacing arrays with `object.__setattr__`)
    after deciding: neither the engine nor another policy may notice."""

    name = "deck-forcer"

    def __init__(self) -> None:
        self.inner = sl.make_player("random")
        self.refused = 0

    def _force(self, view: object) -> None:
        deck = view.deck  # type: ignore[attr-defined]
        try:
            deck.index["AS"] = 0
        except TypeError:
            self.refused += 1
        object.__setattr__(deck, "suit_of", np.zeros(52, dtype=np.int8))
        object.__setattr__(deck, "suit_masks", np.array([(1 << 52) - 1, 0, 0, 0], dtype=np.uint64))
        object.__setattr__(deck, "index", {})

    def bid(self, view: BidView) -> np.ndarray:
        answer = self.inner.bid(view)
        self._force(view)
        return answer

    def play(self, view: PlayView) -> np.ndarray:
        answer = self.inner.play(view)
        self._force(view)
        return answer


class DeckReader:
    """Plays at random, reading its deck by label at every decision."""

    name = "deck-reader"

    def __init__(self) -> None:
        self.inner = sl.make_player("random")

    def bid(self, view: BidView) -> np.ndarray:
        assert view.deck.card_id("AS") == 51 and view.deck.suit("2C") == 0
        return self.inner.bid(view)

    def play(self, view: PlayView) -> np.ndarray:
        assert view.deck.card_id("AS") == 51 and int(view.deck.suit_masks[3]) >> 51 & 1
        return self.inner.play(view)


def test_a_policy_forcing_its_deck_changes_neither_the_engine_nor_another_policy() -> None:
    rules = sl.Rules(hand_cap=4)
    plain = HandLog.concat(list(sl.simulate_games(rules, [DeckReader(), DeckReader()] * 2, 12, seed=8, batch_size=5)))
    forcer = DeckForcer()
    forced = HandLog.concat(list(sl.simulate_games(rules, [forcer, DeckReader()] * 2, 12, seed=8, batch_size=5)))
    assert forcer.refused > 100
    for f in dataclasses.fields(HandLog):
        assert np.array_equal(getattr(plain.sorted(), f.name), getattr(forced.sorted(), f.name)), f.name
    assert sl.STANDARD_DECK.card_id("AS") == 51 and int(sl.STANDARD_DECK.suit_of[0]) == 0
