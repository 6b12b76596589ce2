"""A player is a bid policy plus a play policy (plus draft and exchange policies where the rules need them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from spades_lab.engine import BidView, PlayView
from spades_lab.engine.views import BlindBidView, BlindView, DraftView, ExchangeView


class BidPolicy(Protocol):
    @property
    def name(self) -> str: ...

    def bid(self, view: BidView) -> np.ndarray: ...


class PlayPolicy(Protocol):
    @property
    def name(self) -> str: ...

    def play(self, view: PlayView) -> np.ndarray: ...


class DraftPolicy(Protocol):
    def draft(self, view: DraftView) -> np.ndarray: ...


class ExchangePolicy(Protocol):
    def exchange(self, view: ExchangeView) -> np.ndarray: ...


@dataclass(frozen=True, eq=False)
class Player:
    """Satisfies the engine's Policy protocol by delegating each decision to its part.

    The blind-nil decision belongs to the bid policy: one without a `blind` method never bids blind.
    """

    bidder: BidPolicy
    player: PlayPolicy
    label: str | None = None
    drafter: DraftPolicy | None = None
    exchanger: ExchangePolicy | None = None

    @property
    def name(self) -> str:
        if self.label:
            return self.label
        if self.bidder.name == self.player.name:
            return self.bidder.name
        return f"{self.bidder.name}+{self.player.name}"

    @property
    def batch_limit(self) -> int | None:
        """The fewest tables any of its parts wants advanced together (a searching policy's `batch_limit`:
        it takes seconds a decision, so small batches spread a tournament's games over its worker
        processes), or None when no part asks for a limit. Games never depend on it."""
        parts = (self.bidder, self.player, self.drafter, self.exchanger)
        limits = [int(limit) for limit in (getattr(part, "batch_limit", None) for part in parts) if limit]
        return min(limits) if limits else None

    def decider(self, method: str) -> object:
        """The part that makes decision `method`: the engine asks seats sharing a part together."""
        if method == "bid" or (method in ("blind", "blind_bid") and hasattr(self.bidder, method)):
            return self.bidder
        if method == "play":
            return self.player
        if method == "draft" and self.drafter is not None:
            return self.drafter
        if method == "exchange" and self.exchanger is not None:
            return self.exchanger
        return self

    def bid(self, view: BidView) -> np.ndarray:
        return self.bidder.bid(view)

    def play(self, view: PlayView) -> np.ndarray:
        return self.player.play(view)

    def blind(self, view: BlindView) -> np.ndarray:
        if hasattr(self.bidder, "blind"):
            return np.asarray(self.bidder.blind(view))
        return np.zeros(len(view), dtype=bool)

    def blind_bid(self, view: BlindBidView) -> np.ndarray:
        """A blind number bid belongs to the bid policy; one without `blind_bid` always looks first (0)."""
        if hasattr(self.bidder, "blind_bid"):
            return np.asarray(self.bidder.blind_bid(view))
        return np.zeros(len(view), dtype=np.int64)

    def draft(self, view: DraftView) -> np.ndarray:
        if self.drafter is None:
            raise NotImplementedError(f"player {self.name!r} has no draft policy")
        return self.drafter.draft(view)

    def exchange(self, view: ExchangeView) -> np.ndarray:
        if self.exchanger is None:
            raise NotImplementedError(f"player {self.name!r} has no exchange policy")
        return self.exchanger.exchange(view)
