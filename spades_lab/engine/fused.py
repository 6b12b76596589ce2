"""The fused play loop: every card of a hand at every table of a batch in one compiled call.

When every seat's play decider is compiled per table (it has `compiled_play(rules)`, returning a
per-table function and its record, see `spades_lab.engine.turn`), the engine plays the 13 tricks
(17 with three players) of each table, one table after the other, without returning to Python:
the table's state stays in cache and no batch-wide pass runs per card. Everything before the first
lead (deal, draft, bids, exchanges) and the scoring still run batch by batch.

The games are those of the lockstep path: each card comes from the same rule (`trick.legal_plays`,
`trick.takes`), the same `Turn` and the same random draw (`PlayView.uniform`'s counter), and a
table's cards never depend on another table's. Up to two distinct play deciders share a batch (two
players' play parts, as in a match); with more the engine keeps the lockstep path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from spades_lab.engine import generated, trick
from spades_lab.engine.bits import BIT, ONE, ZERO
from spades_lab.engine.rng import draw, unit
from spades_lab.engine.turn import game_from, side_of, split_step, turn_of

MAX_DECIDERS = 2
"""Distinct compiled play deciders one fused call takes."""


@njit(inline="always")  # inlined into each pair's entry point (`driver`), where fa and fb are globals
def play_tables(h: Any, table: Any, game: np.ndarray, rule: Any, fa: Any, ka: Any, fb: Any, kb: Any) -> None:
    """Play every remaining card at every table; seat s of table t asks decider `who[t, s]` (0: fa, 1: fb).

    `h` is the state's `CardPlay` arrays; `table` is (bids, bags, policy keys, who, fail); `rule` is
    (suit_of, spades open from the first lead, first-trick mode, two of clubs, first play decision, the
    step to start from).
    A card that is not legal stops the loop: `fail` gets (table, seat, step, card, legal mask bits).
    """
    hands, played, plays, play_seats, trick_cards, led_suit, win_card, win_seat, broken, tricks_won, leader, voids = h
    bids, bags, keys, who, fail = table
    suit_of, spades_open, first_mode, two_of_clubs, first_decision, start = rule
    g = game_from(game)
    p = g.players
    rows = (bids, tricks_won, trick_cards)
    for t in range(hands.shape[0]):
        for step in range(start, plays.shape[1]):
            position = split_step(p, step)[0]
            seat = leader[t] + position
            seat -= p if seat >= p else 0  # both below p: no division
            hand = hands[t, seat]
            legal = trick.legal_plays(
                hand, position == 0, led_suit[t], broken[t] or spades_open, g.suits,
                first_mode if step < p else 0, two_of_clubs,
            )  # fmt: skip
            u = unit(draw(keys[t], np.uint64((first_decision + step) * 256)))
            seen = (voids[t], bags[t, side_of(g, seat)], u)
            turn = turn_of(g, seat, step, (hand, legal, played[t]), t, rows, seen)
            card = fa(turn, g, ka) if who[t, seat] == 0 else fb(turn, g, kb)
            if card < 0 or card > 63 or (legal >> np.uint64(card)) & ONE == ZERO:
                fail[0], fail[1], fail[2], fail[3], fail[4] = t, seat, step, card, np.int64(legal)
                return
            # the card's effects, as `kernels.apply_play` writes them for a batch
            b = BIT[card]
            hands[t, seat] ^= b
            played[t] |= b
            plays[t, step] = card
            play_seats[t, step] = seat
            trick_cards[t, seat] = card
            suit = suit_of[card]
            if position == 0:
                led_suit[t] = suit
                win_card[t] = card
                win_seat[t] = seat
            else:
                if suit != led_suit[t]:
                    voids[t] |= 1 << (4 * seat + led_suit[t])
                if trick.takes(card, suit, win_card[t], suit_of[win_card[t]]):
                    win_card[t] = card
                    win_seat[t] = seat
            if position == p - 1:
                for s in range(p):
                    if suit_of[trick_cards[t, s]] == trick.TRUMP:
                        broken[t] = True
                    trick_cards[t, s] = -1
                tricks_won[t, win_seat[t]] += 1
                leader[t] = win_seat[t]


_ENTRY = """\
from spades_lab.engine.fused import play_tables


@njit(cache=True)
def drive(h, table, game, rule, ka, kb):
    play_tables(h, table, game, rule, f0, ka, f1, kb)
"""


def driver(fa: Any, fb: Any) -> Callable[..., None]:
    """The fused loop for per-table functions `fa` and `fb`: `driver(fa, fb)(h, table, game, rule, ka, kb)`,
    cached on disk for the package's functions (see `spades_lab.engine.generated`)."""

    def uncached(h: Any, table: Any, game: np.ndarray, rule: Any, ka: Any, kb: Any) -> None:
        play_tables(h, table, game, rule, fa, ka, fb, kb)

    return generated.entry(_ENTRY, (fa, fb), uncached)
