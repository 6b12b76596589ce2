"""A player is a bid policy plus a play policy, named after both (`counting+tips`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from spades_lab.engine import BidView, PlayView


class BidPolicy(Protocol):
    name: str

    def bid(self, view: BidView) -> np.ndarray: ...


class PlayPolicy(Protocol):
    name: str

    def play(self, view: PlayView) -> np.ndarray: ...


@dataclass(frozen=True, eq=False)
class Player:
    """Satisfies the engine's Policy protocol by delegating each decision to its part."""

    bidder: BidPolicy
    player: PlayPolicy
    label: str | None = None

    @property
    def name(self) -> str:
        if self.label:
            return self.label
        if self.bidder.name == self.player.name:
            return self.bidder.name
        return f"{self.bidder.name}+{self.player.name}"

    def bid(self, view: BidView) -> np.ndarray:
        return self.bidder.bid(view)

    def play(self, view: PlayView) -> np.ndarray:
        return self.player.play(view)
