"""The engine's `shown_voids` (kept as cards are played) is the history's voids at every play decision.

The expert reads `PlayView.shown_voids` instead of deriving the voids from `plays` at each decision,
so the two must agree bit for bit, at every decision of every rule set (partnerships, cutthroat,
three players, Duel, jokers), or the expert's games would change.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np
import pytest

from spades_lab import Rules, make_player, preset, simulate_games
from spades_lab.engine import PlayView
from spades_lab.policies.memory import voids_batch


@dataclass
class CheckingPlay:
    """Plays as `inner` does, and checks the view's shown voids against the history at every decision."""

    inner: object
    name: str = "checking"
    decisions: int = 0
    shown: list[int] = field(default_factory=list)

    def play(self, view: PlayView) -> np.ndarray:
        expected = voids_batch(view.plays, view.play_seats, view.players, view.deck)
        assert np.array_equal(view.shown_voids, expected), (view.decision, view.shown_voids, expected)
        self.decisions += len(view)
        self.shown.append(int(np.count_nonzero(expected)))
        return self.inner.play(view)  # type: ignore[attr-defined]


@pytest.mark.parametrize("rules_name", ["standard", "cutthroat", "three-player", "duel", "jokers"])
def test_shown_voids_match_the_history(rules_name: str) -> None:
    rules = dataclasses.replace(preset(rules_name), hand_cap=3)
    base = make_player("counting+random" if rules.players == 2 else "counting+expert")
    check = CheckingPlay(base.player)
    players = [dataclasses.replace(base, player=check)]
    for _ in simulate_games(rules, players * rules.players, 12, seed=4):
        pass
    assert check.decisions > 0
    assert sum(check.shown) > 0  # some seat showed out somewhere: the check compared non-zero masks


def test_shown_voids_start_empty_each_hand() -> None:
    """A new hand starts with no voids shown (the first lead of every hand sees 0)."""
    seen: list[np.ndarray] = []

    @dataclass
    class FirstLead:
        inner: object
        name: str = "first-lead"

        def play(self, view: PlayView) -> np.ndarray:
            if view.trick == 0 and view.position == 0:
                seen.append(np.array(view.shown_voids))
            return self.inner.play(view)  # type: ignore[attr-defined]

    base = make_player("counting+expert")
    player = dataclasses.replace(base, player=FirstLead(base.player))
    for _ in simulate_games(Rules(hand_cap=4), [player] * 4, 8, seed=2):
        pass
    assert seen and all(not a.any() for a in seen)
