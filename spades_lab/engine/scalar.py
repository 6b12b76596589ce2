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

from spades_lab.cards import Deck
from spades_lab.engine import masks, trick
from spades_lab.engine.bits import BIT, ONE, popcount
from spades_lab.engine.observation import RECORD, records
from spades_lab.engine.views import BidView, PlayView

DECK = np.dtype([("suit_masks", np.uint64, 4), ("suit_of", np.int64, 52), ("order", np.int64, 52)])
"""The deck for compiled code: suit masks (3 = trumps), each card's suit, and card ids weakest first."""


def deck_record(deck: Deck) -> np.ndarray:
    d = np.zeros((), dtype=DECK)
    d["suit_masks"] = np.asarray(deck.suit_masks, dtype=np.uint64)
    d["suit_of"] = np.asarray(deck.suit_of, dtype=np.int64)
    d["order"] = masks.strength_order(deck)
    return d


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
    return trick.winners(o.legal, o.winning_card, d.suit_masks)


def _driver(fn: Callable[..., int]) -> Callable[..., None]:
    """A compiled loop calling `fn(record, deck)` for every table (compiled once per function)."""

    @njit
    def drive(recs: np.ndarray, d: Any, out: np.ndarray) -> None:
        for t in range(recs.shape[0]):
            out[t] = fn(recs[t], d)

    return drive  # type: ignore[no-any-return]  # a numba dispatcher


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
