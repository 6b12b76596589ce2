"""The solver against DDS (Bo Haglund's bridge solver, through `endplay`).

With the standard deck and spades broken from the start, Spades card play is bridge card play
with spades as trumps, so every number must agree exactly: tricks for each leader, and the value
of every card in a position with a trick under way.

The suite checks a few hundred endings and positions. `SPADES_DD_ORACLE=N` (an environment
variable) checks N deals of each kind instead, and `SPADES_DD_TRICKS=K` sets the ending size
(default 4..7 tricks; 13 = full deals), e.g. `SPADES_DD_ORACLE=2000 pytest tests/test_dd_oracle.py`.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from spades_lab import dd
from spades_lab.cards import STANDARD_DECK
from spades_lab.dd.deals import pbn

endplay_types = pytest.importorskip("endplay.types")
endplay_dds = pytest.importorskip("endplay.dds")

COUNT = int(os.environ.get("SPADES_DD_ORACLE", "60"))
TRICKS = os.environ.get("SPADES_DD_TRICKS")


def _sizes(rng: np.random.Generator) -> int:
    return int(TRICKS) if TRICKS else int(rng.integers(4, 8))


def _deal(rng: np.random.Generator, size: int) -> list[int]:
    perm = rng.permutation(52)[: 4 * size]
    return [sum(1 << int(c) for c in perm[i * size : (i + 1) * size]) for i in range(4)]


def _label(card) -> str:
    rank = card.rank.name[1:]
    return rank + card.suit.name[0].upper()


def _dds_best(masks: list[int], leader: int) -> int:
    deal = endplay_types.Deal(pbn(masks), first=endplay_types.Player(leader), trump=endplay_types.Denom.spades)
    return max(tricks for _, tricks in endplay_dds.solve_board(deal))


def test_tricks_agree_with_dds_for_every_leader() -> None:
    rng = np.random.default_rng(2024)
    solver = dd.Solver()
    checked = 0
    for _ in range(COUNT):
        size = _sizes(rng)
        masks = _deal(rng, size)
        ours = dd.solve([masks] * 4, np.arange(4), broken=True, solver=solver)
        for leader in range(4):
            want = _dds_best(masks, leader)
            got = ours[leader, leader % 2]
            assert got == want, (pbn(masks), leader, ours[leader].tolist(), want)
            checked += 1
    assert checked == 4 * COUNT


def test_card_values_agree_with_dds_mid_trick() -> None:
    """A trick with 0-3 cards on it (random legal cards): the value of every legal card."""
    rng = np.random.default_rng(77)
    deck = STANDARD_DECK
    solver = dd.Solver()
    for _ in range(COUNT):
        size = _sizes(rng)
        masks = _deal(rng, size)
        leader = int(rng.integers(4))
        deal = endplay_types.Deal(pbn(masks), first=endplay_types.Player(leader), trump=endplay_types.Denom.spades)
        hands = list(masks)
        trick: list[int] = []
        for j in range(int(rng.integers(0, 4))):
            seat = (leader + j) % 4
            suit = deck.suit_masks[deck.suit_of[trick[0]]] if trick else ~np.uint64(0)
            options = hands[seat] & int(suit) or hands[seat]
            cards = [c for c in range(52) if options >> c & 1]
            c = cards[int(rng.integers(len(cards)))]
            hands[seat] &= ~(1 << c)
            trick.append(c)
            deal.play(endplay_types.Card(deck.cards[c][1] + deck.cards[c][0]))
        want = {_label(card): tricks for card, tricks in endplay_dds.solve_board(deal)}
        row = np.array([trick + [-1] * (4 - len(trick))], dtype=np.int64)
        values = dd.card_values(np.array([hands], dtype=np.uint64), row, leader, True, solver=solver)[0]
        got = {deck.cards[c]: int(values[c]) for c in range(52) if values[c] >= 0}
        # DDS lists one card of each run of equivalent cards; each must match ours
        assert set(want) <= set(got), (pbn(masks), trick)
        for label, tricks in want.items():
            assert got[label] == tricks, (pbn(masks), [deck.cards[c] for c in trick], label, got, want)


def test_full_deals_agree_with_dds() -> None:
    """A few full 52-card deals (the bench's problem: spades broken, every leader of the first two)."""
    rng = np.random.default_rng(52)
    solver = dd.Solver()
    for _ in range(3):
        masks = _deal(rng, 13)
        ours = dd.solve([masks] * 2, np.arange(2), broken=True, solver=solver)
        for leader in range(2):
            want = _dds_best(masks, leader)
            assert ours[leader, leader % 2] == want, (pbn(masks), leader, ours[leader].tolist(), want)
            assert ours[leader].sum() == 13
