"""One seat's turn to play at one table: what a compiled per-table play policy reads.

A per-table play policy is a compiled function `fn(turn, game, k) -> card id`: `turn` is a `Turn`
(the acting seat's cards and what it sees of the table, with seats relative to it), `game` the
batch's `Game` constants, `k` the policy's own record (its parameters, weights). The library
runs it on either path and builds the same `Turn` for both with `turn_of`:

- per decision, for the tables of a view (`play_turns`, one compiled call per decision);
- per hand, inside the fused loop (`spades_lab.engine.fused`), with no Python between cards.

So a policy written once plays the same card on both. Fields are scalars and tuples, never arrays:
passing arrays between compiled functions costs reference counting at every call.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from spades_lab.cards import Deck
from spades_lab.engine import generated
from spades_lab.rules import Rules

ME, PARTNER, LEFT, RIGHT = range(4)
"""Slots of `Turn.bids` and `Turn.won`: seats relative to the acting seat (left plays right after me)."""


class Turn(NamedTuple):
    """The acting seat's view of one table at one play decision.

    `bids` and `won` are by relative seat (`ME`, `PARTNER`, `LEFT`, `RIGHT`). With three players the
    seat two before me in a trick (left) fills the partner slot too, and the `LEFT` slot holds no seat
    (bid -1, no tricks); in Duel only `ME` and `RIGHT` hold seats. `partner`, `left` and `right` are
    absolute seats (partner -1 in Duel), for the shown voids.
    """

    hand: np.uint64
    legal: np.uint64
    unseen: np.uint64
    """Cards some other seat may hold: in no hand seen, not played, not out of the deck."""
    seat: int
    position: int
    """Cards already on this trick (0: leading)."""
    trick: int
    bids: tuple[int, int, int, int]
    won: tuple[int, int, int, int]
    first: int
    """The trick's cards in play order (the lead first), -1 where not played yet."""
    second: int
    third: int
    partner: int
    left: int
    right: int
    voids: int
    """Shown voids of every seat (bit 4 * seat + suit), as `PlayView.shown_voids`."""
    bags: int
    """The acting seat's side's bags before this hand (its own in cutthroat and with three players)."""
    u: float
    """This table's uniform draw for this decision, as `PlayView.uniform()`."""


class Game(NamedTuple):
    """What every table of a batch shares: the player count and the deck."""

    players: int
    partnered: bool
    """The second relative slot is a partner: partnership Spades and Duel; not cutthroat or three players."""
    suits: tuple[np.uint64, np.uint64, np.uint64, np.uint64]
    spade_ace: int
    spade_king: int
    absent: np.uint64
    """Cards out of the deck (three players: the two of clubs): never unseen."""


def game_of(rules: Rules, deck: Deck) -> np.ndarray:
    """The `Game` of a batch under these rules, as the int64 array compiled entry points take (`game_from`
    rebuilds the `Game` inside compiled code: a flat array crosses into numba far faster than a tuple)."""
    partnered = rules.players == 2 or (rules.players == 4 and rules.partnerships)
    return _game_array(rules.players, partnered, deck)


@lru_cache(maxsize=32)
def _game_array(players: int, partnered: bool, deck: Deck) -> np.ndarray:
    absent = 1 << deck.index["2C"] if players == 3 else 0
    masks = [int(m) for m in deck.suit_masks]
    values = [players, int(partnered), deck.index.get("AS", -1), deck.index.get("KS", -1), absent, *masks]
    out = np.array([v - (1 << 64) if v >= 1 << 63 else v for v in values], dtype=np.int64)
    out.setflags(write=False)
    return out


@njit(cache=True, inline="always")
def game_from(a: np.ndarray) -> Game:
    """The `Game` of a `game_of` array."""
    suits = (np.uint64(a[5]), np.uint64(a[6]), np.uint64(a[7]), np.uint64(a[8]))
    return Game(a[0], a[1] != 0, suits, a[2], a[3], np.uint64(a[4]))


@njit(cache=True, inline="always")
def side_of(g: Game, seat: int) -> int:
    """The column of a per-side array (scores, bags) that holds `seat`'s side."""
    return seat % 2 if g.partnered and g.players == 4 else seat


@njit(cache=True, inline="always")
def split_step(players: int, step: int) -> tuple[int, int]:
    """(position in the trick, trick number) of play `step`: a division by a constant per player count, which
    compiles to a multiply (a division by the run-time `players` is the slowest instruction of a card)."""
    if players == 4:
        return step % 4, step // 4
    if players == 3:
        return step % 3, step // 3
    return step % 2, step // 2


@njit(cache=True, inline="always")
def turn_of(g: Game, seat: int, step: int, cards: Any, t: int, rows: Any, seen: Any) -> Turn:
    """The `Turn` of `seat` at play `step` of table `t`.

    `cards` is (hand, legal cards, cards played); `rows` holds the batch's [n, seats] bids, tricks won and
    cards on the trick, read at row `t` by absolute seat; `seen` is (shown voids, the side's bags, the
    uniform draw).
    """
    hand, legal, played = cards
    bids, won, on_table = rows
    players = g.players
    position, trick = split_step(players, step)
    full = g.suits[0] | g.suits[1] | g.suits[2] | g.suits[3]
    unseen = full & ~(played | hand | g.absent)
    me = seat
    if players == 4:
        partner, left, right, leader = (me + 2) % 4, (me + 1) % 4, (me + 3) % 4, (me + 4 - position) % 4
        seat_bids = (bids[t, me], bids[t, partner], bids[t, left], bids[t, right])
        seat_won = (won[t, me], won[t, partner], won[t, left], won[t, right])
        first, second = on_table[t, leader], on_table[t, (leader + 1) % 4]
        third = on_table[t, (leader + 2) % 4]
    elif players == 3:
        left, right, leader = (me + 1) % 3, (me + 2) % 3, (me + 3 - position) % 3
        partner = left
        seat_bids = (bids[t, me], bids[t, left], -1, bids[t, right])
        seat_won = (won[t, me], won[t, left], 0, won[t, right])
        first, second, third = on_table[t, leader], on_table[t, (leader + 1) % 3], -1
    else:
        partner, left = -1, 1 - me
        right = left
        seat_bids = (bids[t, me], -1, -1, bids[t, right])
        seat_won = (won[t, me], 0, 0, won[t, right])
        first, second, third = on_table[t, (me + position) % 2], -1, -1
    voids, bags, u = seen
    return Turn(
        hand, legal, unseen, me, position, trick, seat_bids, seat_won, first, second, third, partner, left, right,
        voids, bags, u,
    )  # fmt: skip


class ViewRows(NamedTuple):
    """A play view's per-table arrays that `turn_of` reads: [n] per table, [n, seats] or [n, sides] beside."""

    hands: np.ndarray
    legal: np.ndarray
    played: np.ndarray
    seats: np.ndarray
    voids: np.ndarray
    u: np.ndarray
    bids: np.ndarray
    won: np.ndarray
    on_table: np.ndarray
    bags: np.ndarray


def play_turns(fn: Any, k: Any, view: Any) -> np.ndarray:
    """The card of per-table policy `fn` (with its record `k`) at every table of a play view."""
    out = np.empty(len(view), dtype=np.int64)
    rows = ViewRows(
        view.hand, view.legal, view.played, view.seat, view.shown_voids, view.uniform(), view.bids, view.tricks_won,
        view.trick_cards, view.bags,
    )  # fmt: skip
    _entry(fn)(k, game_of(view.rules, view.deck), rows, view.trick * view.players + view.position, out)
    return out


_ENTRY = """\
from spades_lab.engine.turn import play_turns_loop


@njit(cache=True)
def drive(k, game, rows, step, out):
    play_turns_loop(f0, k, game, rows, step, out)
"""


def _entry(fn: Any) -> Callable[..., None]:
    """`play_turns_loop` for `fn`, cached on disk for the package's functions (`spades_lab.engine.generated`)."""

    def uncached(k: Any, game: np.ndarray, rows: ViewRows, step: int, out: np.ndarray) -> None:
        play_turns_loop(fn, k, game, rows, step, out)

    return generated.entry(_ENTRY, (fn,), uncached)


@njit(inline="always")  # inlined into `_entry`'s generated entry point, where fn is a global
def play_turns_loop(fn: Any, k: Any, game: np.ndarray, rows: ViewRows, step: int, out: np.ndarray) -> None:
    """`play_turns`' loop over the tables of a view."""
    g = game_from(game)
    trick_rows = (rows.bids, rows.won, rows.on_table)
    for t in range(out.shape[0]):
        me = rows.seats[t]
        seen = (rows.voids[t], rows.bags[t, side_of(g, me)], rows.u[t])
        out[t] = fn(turn_of(g, me, step, (rows.hands[t], rows.legal[t], rows.played[t]), t, trick_rows, seen), g, k)
