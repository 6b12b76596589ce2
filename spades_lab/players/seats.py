"""One player beside a partner: a partnership whose two seats bid differently.

A claim about one player ("a cautious bidder beside a normal partner") needs a partnership in which only
the first seat of each side (seats 0 and 1) bids one way and its partner (seats 2 and 3) bids another.
Both seats play their cards (and draft, exchange) like the partner, so the comparison isolates bidding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from spades_lab.players.player import Player


class SeatBidder:
    """A bid policy that asks `first` for seats 0 and 1 (the first seat of either side), `second` for seats 2
    and 3. Made of picklable parts at module level, so tournament workers can run it."""

    def __init__(self, first: Any, second: Any, name: str) -> None:
        self.first, self.second, self.name = first, second, name

    def bid(self, view: Any) -> np.ndarray:
        return np.asarray(np.where(view.seat < 2, self.first.bid(view), self.second.bid(view)))

    def blind(self, view: Any) -> np.ndarray:
        no = np.zeros(len(view), dtype=bool)
        first = self.first.blind(view) if hasattr(self.first, "blind") else no
        second = self.second.blind(view) if hasattr(self.second, "blind") else no
        return np.where(view.seat < 2, first, second)


@dataclass(frozen=True)
class Beside:
    """The description `beside(bid, partner=...)` returns: one seat bidding `bid` next to `partner`.

    `player(play)` builds the partnership for a card-play engine (`partner` is then a bid policy),
    or as given when `partner` is a whole player (`counting+tips`) and `play` is None.
    """

    bid: str
    partner: str

    def name(self, play: str | None = None) -> str:
        return f"{self.bid}/{self.partner}" + (f"+{play}" if play else "")

    def player(self, play: str | None = None) -> Player:
        from spades_lab.players.registry import bid_policy, make_player

        partner = make_player(f"{self.partner}+{play}" if play else self.partner)
        label = self.name(play)
        return Player(SeatBidder(bid_policy(self.bid), partner.bidder, label), partner.player, label=label,
                      drafter=partner.drafter, exchanger=partner.exchanger)  # fmt: skip


def beside(bid: str, partner: str) -> Beside:
    """One seat of each partnership bids `bid`, its partner bids (and both play) like `partner`:
    `compare(beside("cautious", partner="counting"), "counting", play=["tips"])` asks whether one cautious
    player helps a normal partnership."""
    return Beside(bid.strip(), partner.strip())


def mixed_partnership(first: str, second: str, label: str) -> Player:
    """A partnership whose first seat bids like player `first` and whose partner bids like player `second`;
    both play (and draft, exchange) like `second`."""
    from spades_lab.players.registry import make_player

    a, b = make_player(first), make_player(second)
    return Player(SeatBidder(a.bidder, b.bidder, label), b.player, label=label, drafter=b.drafter,
                  exchanger=b.exchanger)  # fmt: skip
