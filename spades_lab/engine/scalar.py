"""Compiled policies without batch code: write one table's decision, the library loops over tables.

You write a scalar numba function over one table's observation record `o` and the deck record
`d`, returning a card id (play) or a bid (bid, 0 = nil); `compiled_policy` wraps it in a policy
whose compiled driver runs it for every table of a batch (like pgx's `vmap`, for numba):

    from numba import njit
    from spades_lab.engine import scalar

    @njit
    def duck_or_win(o, d):
        w = scalar.winners(o, d)
        if o.partner_winning or w == 0:
            return scalar.weakest(o.legal, d)
        return scalar.weakest(w, d)

    policy = scalar.compiled_policy(play=duck_or_win, name="duck-or-win")

The record's fields follow the `Observation` conventions (relative seats me, left, partner, right;
sides us, them) with cards as uint64 masks; see `RECORD` for the list. The helpers below are
compiled too (`weakest`, `strongest`, `winners`, `count`, `has`). The first call compiles the
driver for your function (a second or two); then it runs at kernel speed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from spades_lab.cards import TRUMP, Deck
from spades_lab.engine import masks
from spades_lab.engine.bits import BIT, ONE, ZERO, popcount
from spades_lab.engine.views import BidView, PlayView

RECORD = np.dtype(
    [
        ("seat", np.int64),  # my absolute seat
        ("players", np.int64),
        ("position", np.int64),  # 0 when I lead
        ("trick", np.int64),
        ("hand", np.uint64),
        ("legal", np.uint64),  # cards I may play (0 while bidding)
        ("legal_bids", np.uint8, 18),  # 1 where bid b is legal (0 nil; 1..13, 1..17 with 3 players; 0 in play)
        ("played", np.uint64),
        ("unseen", np.uint64),  # neither in my hand nor played
        ("led_suit", np.int64),  # -1 when I lead
        ("winning_card", np.int64),  # -1 when I lead
        ("winning_seat", np.int64),  # relative; -1 when I lead
        ("partner_winning", np.bool_),
        ("leader", np.int64),  # relative
        ("trick_cards", np.int64, 4),  # relative seat -> card id on the current trick, -1
        ("bids", np.int64, 4),  # relative; -1 not yet, 0 nil
        ("tricks_won", np.int64, 4),  # relative
        ("contract", np.int64, 4),  # us, them (cutthroat: me, left, across, right; unused slots 0)
        ("needed", np.int64, 4),  # as contract
        ("scores", np.int64, 4),  # as contract
        ("bags", np.int64, 4),  # as contract
        ("spades_broken", np.bool_),
        ("random", np.float64),  # this decision's uniform draw for this table
    ]
)
"""One table's observation for a compiled scalar policy (per-seat arrays have 4 slots; Duel uses 2; per-side
arrays have 4 slots: us, them in partnership games and Duel, me, left, across, right in cutthroat)."""

DECK = np.dtype([("suit_masks", np.uint64, 4), ("suit_of", np.int64, 52), ("order", np.int64, 52)])
"""The deck for compiled code: suit masks (3 = trumps), each card's suit, and card ids weakest first."""


def deck_record(deck: Deck) -> np.ndarray:
    d = np.zeros((), dtype=DECK)
    d["suit_masks"] = np.asarray(deck.suit_masks, dtype=np.uint64)
    d["suit_of"] = np.asarray(deck.suit_of, dtype=np.int64)
    d["order"] = masks.strength_order(deck)
    return d


@njit(cache=True)
def _fill(
    r: np.ndarray, seat: np.ndarray, hand: np.ndarray, legal: np.ndarray, played: np.ndarray, bids: np.ndarray,
    scores: np.ndarray, bags: np.ndarray, won: np.ndarray, trick_cards: np.ndarray, leader: np.ndarray,
    led: np.ndarray, win_card: np.ndarray, win_seat: np.ndarray, broken: np.ndarray, u: np.ndarray,
    legal_bids: np.ndarray, position: int, trick: int, p: int, sides: int,
) -> None:  # fmt: skip
    full = (ONE << np.uint64(52)) - ONE
    for t in range(r.shape[0]):
        me = seat[t]
        o = r[t]
        o.seat, o.players, o.position, o.trick = me, p, position, trick
        o.hand, o.legal, o.played = hand[t], legal[t], played[t]
        o.unseen = full & ~(hand[t] | played[t])
        us = me % sides
        contract = np.zeros(sides, dtype=np.int64)
        tricks = np.zeros(sides, dtype=np.int64)
        for k in range(4):
            o.bids[k] = -1
            o.trick_cards[k] = -1
        for k in range(p):
            s = (me + k) % p
            o.bids[k] = bids[t, s]
            o.tricks_won[k] = won[t, s]
            o.trick_cards[k] = trick_cards[t, s]
            side = k % sides
            contract[side] += max(bids[t, s], 0)
            tricks[side] += won[t, s]
        for side in range(sides):
            o.contract[side] = contract[side]
            o.needed[side] = max(contract[side] - tricks[side], 0)
            o.scores[side] = scores[t, (us + side) % sides]
            o.bags[side] = bags[t, (us + side) % sides]
        o.leader = (leader[t] - me) % p
        o.led_suit, o.winning_card = led[t], win_card[t]
        o.winning_seat = (win_seat[t] - me) % p if win_seat[t] >= 0 else -1
        o.partner_winning = p == 4 and sides == 2 and o.winning_seat == 2
        o.spades_broken = broken[t]
        o.random = u[t]
        for b in range(legal_bids.shape[1]):
            o.legal_bids[b] = legal_bids[t, b]


def records(view: Any) -> np.ndarray:
    """The observation records of every table of a bid or play view (one compiled pass)."""
    n, p = len(view), view.players
    r = np.zeros(n, dtype=RECORD)
    zeros = np.zeros(n, dtype=np.uint64)
    none = np.full(n, -1, dtype=np.int64)
    if isinstance(view, PlayView):
        args = (
            view.legal, view.played, view.tricks_won, view.trick_cards, view.leader, view.led_suit,
            view.winning_card, view.winning_seat, view.spades_broken,
        )  # fmt: skip
        position, trick, legal_bids = view.position, view.trick, np.zeros((n, 0), dtype=np.bool_)
    else:
        won = np.zeros((n, p), dtype=np.int64)
        args = (zeros, zeros, won, np.full((n, p), -1, dtype=np.int64), none, none, none, none, np.zeros(n, np.bool_))
        position, trick = 0, 0
        legal_bids = view.legal_bids if isinstance(view, BidView) else np.zeros((n, 0), dtype=np.bool_)
    legal, played, won, cards, leader, led, win_card, win_seat, broken = args
    _fill(
        r, np.asarray(view.seat, dtype=np.int64), view.hand, legal, played, view.bids, view.scores, view.bags,
        won, cards, leader, led, win_card, win_seat, broken, view.uniform(), legal_bids, position, trick, p,
        view.rules.sides,
    )  # fmt: skip
    return r


# --- compiled helpers for scalar policies -----------------------------------------------------


@njit(cache=True)
def count(mask: np.uint64) -> int:
    """Number of cards in a mask."""
    return popcount(mask)


@njit(cache=True)
def has(mask: np.uint64, card: int) -> bool:
    return card >= 0 and (mask >> np.uint64(card)) & ONE == ONE


@njit(cache=True)
def weakest(mask: np.uint64, d: Any) -> int:
    """The weakest card of a mask (side suits by rank, then trumps); -1 for an empty mask."""
    for i in range(52):
        c = d.order[i]
        if (mask >> np.uint64(c)) & ONE == ONE:
            return c  # type: ignore[no-any-return]  # numba scalars
    return -1


@njit(cache=True)
def strongest(mask: np.uint64, d: Any) -> int:
    """The strongest card of a mask (the highest trump, else the highest-ranked side card); -1 if empty."""
    for i in range(51, -1, -1):
        c = d.order[i]
        if (mask >> np.uint64(c)) & ONE == ONE:
            return c  # type: ignore[no-any-return]  # numba scalars
    return -1


@njit(cache=True)
def winners(o: Any, d: Any) -> np.uint64:
    """The legal cards that would hold the trick if played now (every legal card when leading)."""
    w = o.winning_card
    if w < 0:
        return o.legal  # type: ignore[no-any-return]  # numba scalars
    above = ZERO if w >= 63 else ~((ONE << np.uint64(w + 1)) - ONE)
    trumps = d.suit_masks[TRUMP]
    if d.suit_of[w] == TRUMP:
        return o.legal & above & trumps  # type: ignore[no-any-return]  # numba scalars
    return o.legal & ((above & d.suit_masks[d.suit_of[w]]) | trumps)  # type: ignore[no-any-return]  # numba scalars


def _driver(fn: Callable[..., int]) -> Callable[..., None]:
    """A compiled loop calling `fn(record, deck)` for every table (compiled once per function)."""

    @njit
    def drive(recs: np.ndarray, d: Any, out: np.ndarray) -> None:
        for t in range(recs.shape[0]):
            out[t] = fn(recs[t], d)

    return drive


class CompiledPolicy:
    """A policy from scalar numba functions `play(o, d) -> card id` and/or `bid(o, d) -> bid`."""

    def __init__(
        self, play: Callable[..., int] | None = None, bid: Callable[..., int] | None = None, name: str = "compiled"
    ) -> None:
        self.name = name
        self._fns = {"play": play, "bid": bid}
        self._drivers: dict[str, Callable[..., None]] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"name": self.name, "_fns": self._fns, "_drivers": {}}  # drivers are rebuilt where unpickled

    def _run(self, method: str, view: Any) -> np.ndarray:
        fn = self._fns[method]
        if fn is None:
            raise NotImplementedError(f"policy {self.name!r} has no {method} function")
        if method not in self._drivers:
            self._drivers[method] = _driver(fn)
        out = np.empty(len(view), dtype=np.int64)
        self._drivers[method](records(view), deck_record(view.deck)[()], out)
        return out

    def play(self, view: PlayView) -> np.ndarray:
        return self._run("play", view)

    def bid(self, view: BidView) -> np.ndarray:
        return self._run("bid", view)


def compiled_policy(
    play: Callable[..., int] | None = None, bid: Callable[..., int] | None = None, name: str = "compiled"
) -> CompiledPolicy:
    """Wrap scalar numba functions (see the module docstring) as a batch policy."""
    return CompiledPolicy(play, bid, name)


__all__ = ["BIT", "DECK", "RECORD", "CompiledPolicy", "compiled_policy", "count", "deck_record", "has", "records",
           "strongest", "weakest", "winners"]  # fmt: skip
