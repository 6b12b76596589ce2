"""One hand record worked out for display: suits per seat, bidding order, tricks with leaders and winners.

A hand record lists the plays but not who won each trick; the winner is recomputed here from
the deck by the engine's own trick rule (`spades_lab.engine.trick`), so the viewer never trusts a derived field it can check. `Hand.check()` compares the
recomputed tricks with the record's own `tricks` field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from spades_lab.cards import JOKERS, Deck, deck_for, natural_suit
from spades_lab.engine import trick
from spades_lab.rules import Rules, load_rules

SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")
"""Club, diamond, heart, spade: the block a card belongs to in this deck (a promoted deuce is a spade)."""
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")


@dataclass(frozen=True)
class Trick:
    number: int
    """1..13."""
    leader: int
    cards: tuple[str | None, ...]
    """The card each seat played, in seat order."""
    order: tuple[int, ...]
    """Seats in the order they played."""
    winner: int
    running: tuple[int, ...]
    """Tricks won per seat after this trick."""


@dataclass(frozen=True)
class Hand:
    record: dict[str, Any]
    rules: Rules
    deck: Deck

    @classmethod
    def of(cls, record: dict[str, Any]) -> Hand:
        rules = load_rules(record.get("rules"))
        return cls(record, rules, deck_for(rules.deck))

    @property
    def players(self) -> int:
        return int(self.record.get("players", self.rules.players))

    def seat_name(self, seat: int) -> str:
        """`seat 2 (counting+tips)` when the record names the entrants of its sides (tournament records)."""
        names = self.record.get("entrants")
        return f"seat {seat} ({names[seat % 2]})" if names else f"seat {seat}"

    def side_name(self, side: int) -> str:
        each_alone = self.rules.sides == self.players  # Duel, cutthroat, three players: a side is one seat
        seats = f"seat {side}" if each_alone else ("seats 0+2" if side == 0 else "seats 1+3")
        names = self.record.get("entrants")
        return f"{seats} ({names[side % 2]})" if names else seats

    def suits(self, cards: list[str]) -> list[list[str]]:
        """Cards by deck block, trump block first, strongest first: [spades, hearts, diamonds, clubs]."""
        blocks: list[list[str]] = [[], [], [], []]
        for card in sorted(cards, key=self.deck.card_id, reverse=True):
            blocks[self.deck.suit(card)].append(card)
        return blocks[::-1]

    @staticmethod
    def short(card: str, block: int) -> str:
        """The rank alone where the printed suit is the block's (`A` in spades), the full label otherwise (`2C`, `BJ`).

        A ten is `T`, as in the card labels of the trick table, records and positions: one notation throughout."""
        if card in JOKERS or natural_suit(card) != block:
            return card
        return card[0]

    def bidding_order(self) -> list[int]:
        dealer = int(self.record["dealer"])
        first = dealer if self.rules.first_bidder == "dealer" and self.players == 4 else (dealer + 1) % self.players
        return [(first + k) % self.players for k in range(self.players)]

    def bid_text(self, seat: int) -> str:
        bid = int(self.record["bids"][seat])
        if bid == 0:
            return "blind nil" if (self.record.get("blind") or [False] * self.players)[seat] else "nil"
        return str(bid)

    def tricks(self) -> list[Trick]:
        plays = self.record["plays"]
        p = self.players
        running = [0] * p
        out = []
        for k in range(len(plays) // p):
            chunk = plays[k * p : (k + 1) * p]
            seats = [int(s) for s, _ in chunk]
            ids = [self.deck.card_id(c) for _, c in chunk]
            winner = seats[ids.index(int(trick.holder(np.array(ids, dtype=np.int64), self.deck.suit_masks)))]
            running[winner] += 1
            cards: list[str | None] = [None] * p
            for seat, cid in zip(seats, ids):
                cards[seat] = self.deck.cards[cid]
            out.append(Trick(k + 1, seats[0], tuple(cards), tuple(seats), winner, tuple(running)))
        return out

    def check(self) -> None:
        """Raise ValueError if the tricks won recomputed from the plays disagree with the record's."""
        tricks = self.tricks()
        won = list(tricks[-1].running) if tricks else [0] * self.players
        if won != [int(t) for t in self.record["tricks"]]:
            raise ValueError(f"the plays give tricks {won} per seat, the record says {self.record['tricks']}")

    def contract(self, side: int) -> int:
        seats = range(side, self.players, 2)
        return sum(int(self.record["bids"][s]) for s in seats)
