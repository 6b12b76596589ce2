"""Turn plain per-table Python functions into a batch policy, for prototyping.

The functions see one table at a time as a `TableView`: one row of the batch `Observation`, in
plain Python values (card labels weakest first, per-seat lists as [me, left, partner, right],
per-side pairs as (us, them), the current trick with who holds it and whether that card is a
master, voids shown, a uniform random draw from the table's own stream), and return a bid (0 =
nil) or a card label. The adapter loops in Python, so it is slow, but a function that makes the
same choices as a batch policy produces exactly the same games.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from spades_lab.cards import parse_card
from spades_lab.engine import BidView, PlayView, TableView, table_views


class FunctionPolicy:
    """A policy whose decisions are per-table Python functions."""

    def __init__(
        self,
        bid: Callable[[TableView], int] | None = None,
        play: Callable[[TableView], str] | None = None,
        name: str = "python",
    ) -> None:
        self._bid, self._play, self.name = bid, play, name

    def bid(self, view: BidView) -> np.ndarray:
        if self._bid is None:
            raise NotImplementedError(f"policy {self.name!r} has no bid function")
        return np.array([int(self._bid(table)) for table in table_views(view)], dtype=np.int64)

    def play(self, view: PlayView) -> np.ndarray:
        if self._play is None:
            raise NotImplementedError(f"policy {self.name!r} has no play function")
        deck = view.deck
        return np.array([deck.card_id(parse_card(self._play(t))) for t in table_views(view)], dtype=np.int64)


def from_functions(
    bid: Callable[[TableView], int] | None = None, play: Callable[[TableView], str] | None = None, name: str = "python"
) -> FunctionPolicy:
    """Adapt per-table functions `bid(table) -> int` and `play(table) -> card label` into a policy."""
    return FunctionPolicy(bid, play, name)
