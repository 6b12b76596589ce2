"""The fused play loop plays the games of the lockstep engine, under every preset and mix of players."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from spades_lab.engine import PolicyError, simulate
from spades_lab.engine.bits import lowest
from spades_lab.engine.simulate import HandLog, simulate_games, simulate_hands
from spades_lab.engine.state import State
from spades_lab.players import make_players
from spades_lab.rules import PRESETS, Rules, preset

FIELDS = ("plays", "play_seats", "tricks", "bids", "hand_score", "score_after", "bags_after", "winner")


def _played(monkeypatch: pytest.MonkeyPatch, fused: bool, run: object) -> tuple[HandLog, int]:
    """The sorted log of `run()` on one path, and how many batches went through the fused loop."""
    monkeypatch.setattr(simulate, "FUSED_PLAY", fused)
    calls = []
    real = State.play_out

    def counted(self: State, *args: object) -> object:
        calls.append(self.n)
        return real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(State, "play_out", counted)
    logs = list(run())  # type: ignore[operator]
    return HandLog.concat(logs).sorted(), len(calls)


def _same(a: HandLog, b: HandLog) -> None:
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("lineup", [("random",), ("counting+tips", "counting+expert"), ("counting+greedy", "random")])
def test_every_preset_and_mix_plays_the_lockstep_games(monkeypatch, name: str, lineup: tuple[str, ...]) -> None:
    rules = preset(name)
    players = make_players(list(lineup) if len(lineup) > 1 else lineup[0], seats=rules.players)
    if "random" in lineup:  # random games can last for ever: single hands, batch sizes that split them unevenly

        def fused_run() -> object:
            return simulate_hands(rules, players, 60, seed=3, batch_size=7)

        def lockstep_run() -> object:
            return simulate_hands(rules, players, 60, seed=3, batch_size=64)
    else:

        def fused_run() -> object:
            return simulate_games(rules, players, 6, seed=3, batch_size=4)

        def lockstep_run() -> object:
            return simulate_games(rules, players, 6, seed=3)

    fused, batches = _played(monkeypatch, True, fused_run)
    lockstep, none = _played(monkeypatch, False, lockstep_run)
    assert batches > 0 and none == 0
    _same(fused, lockstep)


def test_three_play_deciders_keep_the_lockstep_path(monkeypatch) -> None:
    players = make_players(["counting+tips", "counting+expert", "counting+greedy", "counting+tips"])
    log, batches = _played(monkeypatch, True, lambda: simulate_hands(Rules(), players, 20, seed=1))
    assert batches == 0
    assert (log.plays >= 0).all()


@njit
def _lowest_card(s, g, k):  # type: ignore[no-untyped-def]
    return lowest(s.hand)  # ignores the suit led: illegal whenever it cannot follow with its lowest card


class LowestCard:
    """A per-table play policy that breaks the follow-suit rule."""

    name = "lowest-card"

    def compiled_play(self, rules: Rules) -> tuple[object, object]:
        return _lowest_card, 0

    def bid(self, view: object) -> np.ndarray:
        return np.full(len(view), 3, dtype=np.int64)  # type: ignore[arg-type]

    def play(self, view: object) -> np.ndarray:
        from spades_lab.engine.turn import play_turns

        return play_turns(_lowest_card, 0, view)


@pytest.mark.parametrize("fused", [True, False])
def test_an_illegal_card_names_the_policy_seat_table_and_legal_cards(monkeypatch, fused: bool) -> None:
    monkeypatch.setattr(simulate, "FUSED_PLAY", fused)
    players = [LowestCard(), *make_players("counting+tips")[1:]]
    with pytest.raises(PolicyError) as caught:
        list(simulate_hands(Rules(), players, 50, seed=2))
    message = str(caught.value)
    assert message.startswith("policy 'lowest-card' at seat 0, table ")
    assert "is not a legal play; legal: " in message
    assert caught.value.policy == "lowest-card" and caught.value.seat == 0


def test_the_package_functions_get_a_disk_cached_entry_and_others_one_per_process() -> None:
    from spades_lab.compiled import cached
    from spades_lab.engine import fused
    from spades_lab.policies.play import tips_at

    shipped = fused.driver(tips_at, tips_at)
    assert getattr(shipped, "_cache", None) is not None  # a numba dispatcher with a disk cache
    list(simulate_hands(Rules(), make_players("counting+tips"), 4, seed=1))
    assert cached(shipped)
    own = fused.driver(_lowest_card, tips_at)
    assert getattr(own, "_cache", None) is None  # the loop called from Python, compiled in this process
