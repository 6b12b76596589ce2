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
from spades_lab.rules import Rules

TEAM_OF_SEAT = np.array([0, 1, 0, 1])
"""Side of each seat: partnerships in 4-player games; in Duel seat s is side s."""


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
    def players(self) -> int:
        return self._state.players

    @property
    def partner(self) -> np.ndarray:
        """The partner's seat; -1 in Duel."""
        if self._state.players == 2:
            return _frozen(np.full(len(self._seat), -1))
        return _frozen((self._seat + 2) % 4)

    @property
    def team(self) -> np.ndarray:
        """The acting seat's side (0: seats 0+2, 1: seats 1+3; in Duel the seat itself)."""
        return _frozen(TEAM_OF_SEAT[self._seat])

    def _own(self, per_seat: np.ndarray) -> np.ndarray:
        rows = per_seat if self._rows is None else per_seat[self._rows]
        return _frozen(rows[np.arange(len(self._seat)), self._seat])

    @property
    def blind(self) -> np.ndarray:
        """[n, seats] True for a seat that bid blind nil."""
        return self._take(self._state.blind)

    @property
    def dealer(self) -> np.ndarray:
        return self._take(self._state.dealer)

    @property
    def bids(self) -> np.ndarray:
        """Bids by seat [n, seats]: 0 is nil, -1 a seat that has not bid yet."""
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


class BlindView(_View):
    """Whether to bid blind nil: decided before the seat has seen its cards, so there is no `hand`.

    Return a bool per table (True: declare blind nil). Only tables where the rules allow it are asked.
    """

    __slots__ = ()


class _SeenView(_View):
    __slots__ = ()

    @property
    def hand(self) -> np.ndarray:
        """The acting seat's own cards as a uint64 mask over card ids."""
        return self._own(self._state.hands)


class BidView(_SeenView):
    """A bidding decision: return one bid per table, 0 for nil."""

    __slots__ = ()

    @property
    def legal_bids(self) -> np.ndarray:
        """[n, 14] bool: legal_bids[t, b] for bid b (0 = nil)."""
        return self._take(self._state.legal_bids)


class ExchangeView(_SeenView):
    """A blind-nil exchange: return a uint64 mask of exactly `cards` cards of `hand` to pass to the partner.

    The partner of the blind-nil bidder passes first; the bidder then passes back, having seen what it got.
    """

    __slots__ = ()

    @property
    def cards(self) -> int:
        return self._state.rules.blind_nil_exchange

    @property
    def passing_to_blind(self) -> bool:
        """True for the partner's pass to the blind-nil bidder, False for the bidder's pass back."""
        return self.decision == _EXCHANGE_FIRST

    @property
    def received(self) -> np.ndarray:
        """Cards this seat was passed (0 when passing first)."""
        return self._own(self._state.received)


_EXCHANGE_FIRST = 110


class DraftView(_SeenView):
    """A Duel draft turn: return True to keep `top` (and discard the next card), False to discard it.

    Discarding the top card means taking the next one, whatever it is.
    """

    __slots__ = ()

    @property
    def turn(self) -> int:
        """This player's turn number (0..12)."""
        return (self.decision - 200) // 2

    @property
    def top(self) -> np.ndarray:
        """Id of the card shown."""
        return self._take(self._state.stock[:, 2 * (self.decision - 200)])

    @property
    def discards(self) -> np.ndarray:
        """uint64 mask of this player's own discards so far."""
        return self._own(self._state.discards)

    @property
    def opponent_kept(self) -> np.ndarray:
        """[n, k] the opponent's choices so far, oldest first (True: kept the top card)."""
        turns = self.decision - 200
        mine_first = turns % 2
        opp_turns = np.arange(1 - mine_first, turns, 2)
        return self._take(self._state.draft_keep[:, opp_turns])


class PlayView(_SeenView):
    """A card-play decision: return one card id per table, from `legal`."""

    __slots__ = ()

    @property
    def legal(self) -> np.ndarray:
        """uint64 mask of the cards this seat may play now."""
        return self._take(self._state.legal)

    @property
    def trick(self) -> int:
        """Index of the current trick (0..12)."""
        return (self.decision - 4) // self._state.players

    @property
    def position(self) -> int:
        """0 when leading, players - 1 when playing last to the trick."""
        return (self.decision - 4) % self._state.players

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
        """[n, seats] card id played to the current trick by each seat, -1 for not yet."""
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
        """[n, seats] tricks won by each seat so far this hand."""
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
