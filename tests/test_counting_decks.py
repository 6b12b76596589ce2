"""The counting bid in the jokers decks: trumps counted by their place in the trump order.

In the jokers deck BJ, LJ and 2C play the part AS, KS and QS play in the standard deck, and with
16 trumps (4 a hand) the spade-count thresholds rise by one. Without that, four counting bidders
overbid by more than two tricks a hand and games never reach the target.
"""

from __future__ import annotations

import numpy as np
import pytest

from spades_lab.cards import DECKS, STANDARD_DECK
from spades_lab.engine import simulate_games, simulate_hands
from spades_lab.policies import make_players
from spades_lab.policies.counting import count_tricks, count_tricks_batch, top_trumps, trump_shift
from spades_lab.rules import Rules


def test_top_trumps_follow_the_trump_order() -> None:
    assert top_trumps(STANDARD_DECK) == ("AS", "KS", "QS")
    assert top_trumps(DECKS["jokers"]) == ("BJ", "LJ", "2C")
    assert top_trumps(DECKS["jokers-2d"]) == ("BJ", "LJ", "2D")
    assert trump_shift(STANDARD_DECK) == 0 and trump_shift(DECKS["jokers"]) == 1


def test_jokers_are_the_sure_tricks_and_ace_king_of_spades_are_length() -> None:
    jokers = DECKS["jokers"]
    # BJ LJ 2C + three small side cards in each side suit: honours 3 (2C guarded by two others), no length.
    top = "BJ LJ 2C 3C 4C 5C 3D 4D 5D 3H 4H 5H 6H"
    assert count_tricks(top, deck=jokers) == 3.0
    # The same shape with AS KS QS instead: no honour is a sure trick in this deck; 3 trumps, no length.
    assert count_tricks("AS KS QS 3C 4C 5C 3D 4D 5D 3H 4H 5H 6H", deck=jokers) == 0.0
    # The standard deck is unchanged: AS KS QS are 3.
    assert count_tricks("AS KS QS 3C 4C 5C 3D 4D 5D 3H 4H 5H 6H") == 3.0
    # Length starts after the fourth trump with 16 trumps: five small trumps are worth 1, not 2.
    assert count_tricks("3S 4S 5S 6S 7S 3C 4C 5C 3D 4D 5D 3H 4H", deck=jokers) == 1.0
    assert count_tricks("3S 4S 5S 6S 7S 3C 4C 5C 3D 4D 5D 3H 4H") == 2.0
    # The literal reading stays available as a switch.
    assert count_tricks(top, deck=jokers, deck_aware=False) == 0.0


@pytest.mark.parametrize("deck", ["jokers", "jokers-2d"])
def test_batch_count_agrees_with_the_scalar_count(deck: str) -> None:
    d = DECKS[deck]
    rng = np.random.default_rng(4)
    hands = []
    for _ in range(300):
        ids = rng.choice(52, 13, replace=False)
        hands.append(sum(1 << int(i) for i in ids))
    batch = count_tricks_batch(np.array(hands, dtype=np.uint64), deck=d)
    scalar = [count_tricks(d.labels(h), deck=d) for h in hands]
    assert batch.tolist() == scalar


def test_counting_bidders_in_the_jokers_deck_bid_like_the_standard_deck() -> None:
    players = make_players(["counting+tips"])
    means = {}
    for deck in ("standard", "jokers"):
        logs = list(simulate_hands(Rules(deck=deck), players, 4000, seed=7))
        means[deck] = float(np.concatenate([log.bids.sum(axis=1) for log in logs]).mean())
    assert abs(means["jokers"] - means["standard"]) < 0.5, means  # 15.3 against 12.9 when counted literally


def test_jokers_games_of_counting_players_reach_the_target() -> None:
    """`spades-lab simulate --games 10 --rules jokers --player counting+tips` used to run for ever."""
    players = make_players(["counting+tips"])
    logs = list(simulate_games(Rules(deck="jokers", hand_cap=200), players, 10, seed=1, max_hands=None))
    assert sum(int(log.game_over.sum()) for log in logs) == 10
    assert not any(log.unfinished.any() for log in logs)
