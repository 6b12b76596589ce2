"""What a seat may see when it must act, for a whole batch of tables at once.

A view holds the engine's state privately and exposes only the acting seat's own cards and the
public facts of RULES.md "Information rules". Every array it hands out is a fresh copy made
read-only, so a policy can neither read another seat's cards through a public name nor change
the game by writing into what it was given.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from spades_lab.cards import Deck
from spades_lab.engine import rng
from spades_lab.engine.bits import BIT
from spades_lab.rules import Rules

TEAM_OF_SEAT = np.array([0, 1, 0, 1])


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.array(a, copy=True)
    a.setflags(write=False)
    return a


class _View:
    __slots__ = ("_state", "_rows", "_seat", "rules", "deck", "decision")

    def __init__(self, state, rows: np.ndarray | None, seat: np.ndarray, decision: int) -> None:
        self._state = state
        self._rows = rows
        self._seat = seat
        self.rules: Rules = state.rules
        self.deck: Deck = state.deck
        self.decision = decision
        """Index of this decision in the hand (bids 0..3, plays 4..55); the random stream's counter."""

    def _take(self, array: np.ndarray) -> np.ndarray:
        return _frozen(array if self._rows is None else array[self._rows])

    def __len__(self) -> int:
        return len(self._seat)

    @property
    def seat(self) -> np.ndarray:
        """The acting seat per table (0..3)."""
        return _frozen(self._seat)

    @property
    def partner(self) -> np.ndarray:
        return _frozen((self._seat + 2) % 4)

    @property
    def team(self) -> np.ndarray:
        """The acting seat's partnership (0: seats 0+2, 1: seats 1+3)."""
        return _frozen(TEAM_OF_SEAT[self._seat])

    @property
    def hand(self) -> np.ndarray:
        """The acting seat's own cards as a uint64 mask over card ids."""
        hands = self._state.hands if self._rows is None else self._state.hands[self._rows]
        return _frozen(hands[np.arange(len(self._seat)), self._seat])

    @property
    def dealer(self) -> np.ndarray:
        return self._take(self._state.dealer)

    @property
    def bids(self) -> np.ndarray:
        """Bids by seat [n, 4]: 0 is nil, -1 a seat that has not bid yet."""
        return self._take(self._state.bids)

    @property
    def scores(self) -> np.ndarray:
        """Scores by partnership [n, 2] before this hand."""
        return self._take(self._state.scores)

    @property
    def bags(self) -> np.ndarray:
        """Accumulated bags by partnership [n, 2] before this hand."""
        return self._take(self._state.bags)

    @property
    def hand_number(self) -> np.ndarray:
        return self._take(self._state.hand_number)

    @property
    def tables(self) -> np.ndarray:
        """Global game (or hand) id of each table: stable across batch sizes, for messages and logs."""
        return self._take(self._state.game_id)

    def uniform(self, draw: int = 0) -> np.ndarray:
        """Random floats in [0, 1) drawn from each table's own stream for this decision.

        Use this, not a generator of your own, so that results do not depend on batch size.
        `draw` numbers independent draws within one decision (0..255).
        """
        keys = self._take(self._state.policy_key)
        return rng.uniform(keys, self.decision * 256 + draw)


class BidView(_View):
    """A bidding decision: return one bid per table, 0 for nil."""

    __slots__ = ()

    @property
    def legal_bids(self) -> np.ndarray:
        """[n, 14] bool: legal_bids[t, b] for bid b (0 = nil)."""
        row = self._state.legal_bid_row
        return _frozen(np.broadcast_to(row, (len(self._seat), row.shape[0])))


class PlayView(_View):
    """A card-play decision: return one card id per table, from `legal`."""

    __slots__ = ()

    @property
    def legal(self) -> np.ndarray:
        """uint64 mask of the cards this seat may play now."""
        return self._take(self._state.legal)

    @property
    def trick(self) -> int:
        """Index of the current trick (0..12)."""
        return (self.decision - 4) // 4

    @property
    def position(self) -> int:
        """0 when leading, 3 when playing last to the trick."""
        return (self.decision - 4) % 4

    @property
    def leader(self) -> np.ndarray:
        return self._take(self._state.leader)

    @property
    def led_suit(self) -> np.ndarray:
        """Suit led to the current trick; -1 when this seat leads."""
        led = self._take(self._state.led_suit)
        return _frozen(led) if self.position else _frozen(np.full(len(self._seat), -1))

    @property
    def trick_cards(self) -> np.ndarray:
        """[n, 4] card id played to the current trick by each seat, -1 for not yet."""
        return self._take(self._state.trick_cards)

    @property
    def winning_card(self) -> np.ndarray:
        """The card holding the current trick (-1 when leading)."""
        return self._take(self._state.win_card) if self.position else _frozen(np.full(len(self._seat), -1))

    @property
    def winning_seat(self) -> np.ndarray:
        return self._take(self._state.win_seat) if self.position else _frozen(np.full(len(self._seat), -1))

    @property
    def played(self) -> np.ndarray:
        """uint64 mask of every card played so far this hand, the current trick included."""
        return self._take(self._state.played)

    @property
    def plays(self) -> np.ndarray:
        """[n, k] card ids in play order so far."""
        return self._take(self._state.plays[:, : self.decision - 4])

    @property
    def play_seats(self) -> np.ndarray:
        """[n, k] the seat that played each card of `plays`."""
        return self._take(self._state.play_seats[:, : self.decision - 4])

    @property
    def tricks_won(self) -> np.ndarray:
        """[n, 4] tricks won by each seat so far this hand."""
        return self._take(self._state.tricks_won)

    @property
    def spades_broken(self) -> np.ndarray:
        return self._take(self._state.broken)


@dataclass(frozen=True)
class TableView:
    """One table's view as plain Python values, for per-table policy functions."""

    seat: int
    hand: list[str]
    legal: list[str] | list[int]
    bids: list[int | None]
    scores: tuple[int, int]
    bags: tuple[int, int]
    dealer: int
    trick: list[tuple[int, str]]
    """Cards of the current trick so far as (seat, card), in play order."""
    plays: list[tuple[int, str]]
    tricks_won: list[int]
    spades_broken: bool
    random: float
    """A uniform draw from this table's stream for this decision."""


def table_views(view: _View) -> list[TableView]:
    """Split a batch view into per-table plain views (slow; for prototyping policies)."""
    deck = view.deck
    hands, bids, scores, bags, dealer, u = view.hand, view.bids, view.scores, view.bags, view.dealer, view.uniform()
    is_play = isinstance(view, PlayView)
    if is_play:
        legal, plays, seats, won, broken = view.legal, view.plays, view.play_seats, view.tricks_won, view.spades_broken
        in_trick = view.position
    else:
        legal_bids = view.legal_bids
    out = []
    for t in range(len(view)):
        history = [(int(s), deck.cards[c]) for s, c in zip(seats[t], plays[t])] if is_play else []
        out.append(
            TableView(
                seat=int(view._seat[t]),
                hand=deck.labels(int(hands[t])),
                legal=deck.labels(int(legal[t])) if is_play else [int(b) for b in np.flatnonzero(legal_bids[t])],
                bids=[None if b < 0 else int(b) for b in bids[t]],
                scores=(int(scores[t, 0]), int(scores[t, 1])),
                bags=(int(bags[t, 0]), int(bags[t, 1])),
                dealer=int(dealer[t]),
                trick=history[len(history) - in_trick :] if is_play and in_trick else [],
                plays=history,
                tricks_won=[int(x) for x in won[t]] if is_play else [0, 0, 0, 0],
                spades_broken=bool(broken[t]) if is_play else False,
                random=float(u[t]),
            )
        )
    return out


def card_mask(cards: np.ndarray) -> np.ndarray:
    return BIT[np.asarray(cards, dtype=np.int64)]
