"""What a seat may see when it must act, for a whole batch of tables at once.

A view is a snapshot: when the engine asks a policy, it copies the acting seat's own cards and
the public facts of the rules' information section into the view, and the view keeps no
reference to the engine's state. So there is no attribute path from a view to another seat's
cards, to the stock, or to anything the engine reads later; writing into a view (its arrays are
read-only, and a policy that forces them writable writes only its own copy) cannot change the
game. The rules and deck a view carries are copies too.

Out of scope: interpreter-level tricks (walking the garbage collector or the call stack with
`gc` / `sys._getframe`, or writing raw memory with `ctypes`) reach anything in a Python process;
a policy that does that is not playing Spades. The view's random draws are precomputed numbers,
not the table's key, so no key can be inverted to recover the deal.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np

from spades_lab.cards import Deck
from spades_lab.engine import rng
from spades_lab.engine.state import (
    DRAFT_DECISION,
    EXCHANGE_DECISION,
    FIRST_PLAY_DECISION,
    NIL_EXCHANGE_DECISION,
    State,
    exchange_cards,
)
from spades_lab.rules import Rules

TEAM_OF_SEAT = np.array([0, 1, 0, 1])
"""Side of each seat: partnerships in 4-player games; in Duel seat s is side s."""


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.array(a, copy=True)
    a.setflags(write=False)
    return a


def _ro(a: np.ndarray) -> np.ndarray:
    """Mark a fresh copy read-only (it is the view's own: nothing else holds it)."""
    a.setflags(write=False)
    return a


class ViewContext:
    """What every view of one hand is built with besides the state: the rules and the deck.

    Each view gets its own copy of the rules, so a policy that forces its way into `view.rules`
    changes only that copy: never the engine's rules, nor what another policy sees. The deck's
    arrays are immutable buffers, so the deck object itself is shared.
    """

    __slots__ = ("rules", "deck")

    def __init__(self, rules: Rules, deck: Deck) -> None:
        self.rules = rules
        self.deck = deck


class _View:
    __slots__ = (
        "rules", "deck", "decision", "players", "_seat", "_tables", "_hand_number", "_dealer",
        "_scores", "_bags", "_bids", "_blind", "_draws",
    )  # fmt: skip

    def __init__(
        self, state: State, rows: np.ndarray | None, seat: np.ndarray, decision: int, context: ViewContext, draws: int = 1
    ) -> None:
        def take(a: np.ndarray) -> np.ndarray:
            return _ro(a.copy() if rows is None else a[rows])

        self.rules: Rules = copy.copy(context.rules)
        self.deck: Deck = context.deck
        self.decision: int = decision
        """Index of this decision in the hand (bids 0..3, plays 4..55); the random stream's counter."""
        self.players: int = state.players
        self._seat = _frozen(seat)
        self._tables = take(state.game_id)
        self._hand_number = take(state.hand_number)
        self._dealer = take(state.dealer)
        self._scores = take(state.scores)
        self._bags = take(state.bags)
        self._bids = take(state.bids)
        self._blind = take(state.blind)
        keys = take(state.policy_key)
        self._draws = tuple(_ro(rng.uniform(keys, decision * 256 + d)) for d in range(draws))

    @property
    def seat(self) -> np.ndarray:
        """The acting seat per table (0..3)."""
        return self._seat

    @property
    def tables(self) -> np.ndarray:
        """Global game (or hand) id of each table: stable across batch sizes, for messages and logs."""
        return self._tables

    @property
    def hand_number(self) -> np.ndarray:
        return self._hand_number

    @property
    def dealer(self) -> np.ndarray:
        return self._dealer

    @property
    def scores(self) -> np.ndarray:
        """Scores by partnership [n, 2] before this hand: column 0 is seats 0+2, column 1 seats 1+3."""
        return self._scores

    @property
    def bags(self) -> np.ndarray:
        """Accumulated bags by partnership [n, 2] before this hand (columns as `scores`)."""
        return self._bags

    @property
    def bids(self) -> np.ndarray:
        """Bids by seat [n, seats]: 0 is nil, -1 a seat that has not bid yet."""
        return self._bids

    @property
    def blind(self) -> np.ndarray:
        """[n, seats] True for a seat that bid blind: a blind nil (bid 0) or a blind number (`blind_bids`)."""
        return self._blind

    def __len__(self) -> int:
        return len(self.seat)

    @property
    def partner(self) -> np.ndarray:
        """The partner's seat; -1 in Duel."""
        if self.players == 2:
            return _frozen(np.full(len(self.seat), -1))
        return _frozen((self.seat + 2) % 4)

    @property
    def team(self) -> np.ndarray:
        """The acting seat's side (0: seats 0+2, 1: seats 1+3; in Duel the seat itself)."""
        return _frozen(TEAM_OF_SEAT[self.seat])

    def uniform(self, draw: int = 0) -> np.ndarray:
        """Random floats in [0, 1) from each table's own stream for this decision.

        Use this, not a generator of your own, so that results do not depend on batch size. Each
        decision has one draw (`draw=0`); an exchange has one per card passed (0..cards-1). Two
        independent choices can share a draw u: use u < p for the first and (u / p) for the second.
        """
        if not 0 <= draw < len(self._draws):
            raise ValueError(f"this decision has {len(self._draws)} random draw(s) (0..{len(self._draws) - 1}); got {draw}")
        return self._draws[draw]


class BlindView(_View):
    """Whether to bid blind nil: decided before the seat has seen its cards, so there is no `hand`.

    Return a bool per table (True: declare blind nil). Only tables where the rules allow it are asked.
    """

    __slots__ = ()


class BlindBidView(BlindView):
    """Whether to bid a number blind (`blind_bids`), before seeing the cards: return 0 to look at the
    cards first, or a bid from `legal_bids` (at least `rules.blind_bids`); made or set, it counts double.
    Only seats whose side trails by `blind_bid_trail` (and that did not bid blind nil) are asked.
    """

    __slots__ = ("_legal_bids",)

    def __init__(self, state: State, rows: np.ndarray | None, seat: np.ndarray, decision: int, context: ViewContext) -> None:
        super().__init__(state, rows, seat, decision, context)
        self._legal_bids = _ro(state.legal_bids.copy() if rows is None else state.legal_bids[rows])

    @property
    def legal_bids(self) -> np.ndarray:
        """[n, 14] bool: the blind numbers allowed (column 0, nil, is never one)."""
        return self._legal_bids


class _SeenView(_View):
    __slots__ = ("_hand",)

    def __init__(self, state: State, rows: np.ndarray | None, seat: np.ndarray, decision: int, context: ViewContext, draws: int = 1) -> None:
        super().__init__(state, rows, seat, decision, context, draws)
        at = np.arange(len(seat)) if rows is None else rows
        self._hand = _ro(state.hands[at, seat])


    @property
    def hand(self) -> np.ndarray:
        """The acting seat's own cards as a uint64 mask over card ids."""
        return self._hand
class BidView(_SeenView):
    """A bidding decision: return one bid per table, 0 for nil."""

    __slots__ = ("_legal_bids",)

    def __init__(self, state: State, rows: np.ndarray | None, seat: np.ndarray, decision: int, context: ViewContext) -> None:
        super().__init__(state, rows, seat, decision, context)
        self._legal_bids = _ro(state.legal_bids.copy() if rows is None else state.legal_bids[rows])


    @property
    def legal_bids(self) -> np.ndarray:
        """[n, 14] bool: legal_bids[t, b] for bid b (0 = nil)."""
        return self._legal_bids
class ExchangeView(_SeenView):
    """A blind-nil exchange: return a uint64 mask of exactly `cards` cards of `hand` to pass to the partner.

    The partner of the blind-nil bidder passes first; the bidder then passes back, having seen what it got.
    """

    __slots__ = ("_received",)

    def __init__(self, state: State, rows: np.ndarray | None, seat: np.ndarray, decision: int, context: ViewContext) -> None:
        super().__init__(state, rows, seat, decision, context, max(1, exchange_cards(state.rules, decision)))
        at = np.arange(len(seat)) if rows is None else rows
        self._received = _ro(state.received[at, seat])

    @property
    def received(self) -> np.ndarray:
        """Cards this seat was passed (0 when passing first)."""
        return self._received

    @property
    def cards(self) -> int:
        return exchange_cards(self.rules, self.decision)

    @property
    def passing_to_blind(self) -> bool:
        """True for the partner's pass to the blind-nil bidder, False for the bidder's pass back."""
        return self.decision == EXCHANGE_DECISION

    @property
    def passing_to_nil(self) -> bool:
        """True for the partner's pass to the nil bidder (blind or, with `nil_exchange`, plain), False for the pass back."""
        return self.decision in (EXCHANGE_DECISION, NIL_EXCHANGE_DECISION)


class DraftView(_SeenView):
    """A Duel draft turn: return True to keep `top` (and discard the next card), False to discard it.

    Discarding the top card means taking the next one, whatever it is.
    """

    __slots__ = ("_top", "_discards", "_opponent_kept")

    def __init__(self, state: State, rows: np.ndarray | None, seat: np.ndarray, decision: int, context: ViewContext) -> None:
        super().__init__(state, rows, seat, decision, context)
        at = np.arange(len(seat)) if rows is None else rows
        turns = decision - DRAFT_DECISION
        self._top = _ro(state.stock[at, 2 * turns])
        self._discards = _ro(state.discards[at, seat])
        opp_turns = np.arange(1 - turns % 2, turns, 2)
        self._opponent_kept = _ro(state.draft_keep[at][:, opp_turns])

    @property
    def top(self) -> np.ndarray:
        """Id of the card shown."""
        return self._top

    @property
    def discards(self) -> np.ndarray:
        """uint64 mask of this player's own discards so far."""
        return self._discards

    @property
    def opponent_kept(self) -> np.ndarray:
        """[n, k] the opponent's choices so far, oldest first (True: kept the top card)."""
        return self._opponent_kept

    @property
    def turn(self) -> int:
        """This player's turn number (0..12)."""
        return (self.decision - DRAFT_DECISION) // 2


class PlayView(_SeenView):
    """A card-play decision: return one card id per table, from `legal`."""

    __slots__ = (
        "_legal", "_leader", "_led_suit", "_trick_cards", "_win_card", "_win_seat", "_played", "_plays",
        "_play_seats", "_tricks_won", "_spades_broken",
    )  # fmt: skip

    def __init__(self, state: State, rows: np.ndarray | None, seat: np.ndarray, decision: int, context: ViewContext) -> None:
        super().__init__(state, rows, seat, decision, context)

        def take(a: np.ndarray) -> np.ndarray:
            return _ro(a.copy() if rows is None else a[rows])

        k = decision - FIRST_PLAY_DECISION
        self._legal = take(state.legal)
        self._leader = take(state.leader)
        leading = k % self.players == 0
        self._trick_cards = take(state.trick_cards)
        self._led_suit = None if leading else take(state.led_suit)
        self._win_card = None if leading else take(state.win_card)
        self._win_seat = None if leading else take(state.win_seat)
        self._played = take(state.played)
        self._plays = _ro(state.plays[:, :k].copy() if rows is None else state.plays[rows, :k])
        self._play_seats = _ro(state.play_seats[:, :k].copy() if rows is None else state.play_seats[rows, :k])
        self._tricks_won = take(state.tricks_won)
        self._spades_broken = take(state.broken)

    @property
    def legal(self) -> np.ndarray:
        """uint64 mask of the cards this seat may play now."""
        return self._legal

    @property
    def leader(self) -> np.ndarray:
        """The seat that led (or leads) the current trick."""
        return self._leader

    @property
    def trick_cards(self) -> np.ndarray:
        """[n, seats] card id played to the current trick by each seat, -1 for not yet."""
        return self._trick_cards

    @property
    def played(self) -> np.ndarray:
        """uint64 mask of every card played so far this hand, the current trick included."""
        return self._played

    @property
    def plays(self) -> np.ndarray:
        """[n, k] card ids in play order so far."""
        return self._plays

    @property
    def play_seats(self) -> np.ndarray:
        """[n, k] the seat that played each card of `plays`."""
        return self._play_seats

    @property
    def tricks_won(self) -> np.ndarray:
        """[n, seats] tricks won by each seat so far this hand."""
        return self._tricks_won

    @property
    def spades_broken(self) -> np.ndarray:
        return self._spades_broken

    def _none(self) -> np.ndarray:
        return _frozen(np.full(len(self.seat), -1))

    @property
    def trick(self) -> int:
        """Index of the current trick (0..12)."""
        return (self.decision - FIRST_PLAY_DECISION) // self.players

    @property
    def position(self) -> int:
        """0 when leading, players - 1 when playing last to the trick."""
        return (self.decision - FIRST_PLAY_DECISION) % self.players

    @property
    def led_suit(self) -> np.ndarray:
        """Suit led to the current trick; -1 when this seat leads."""
        return self._none() if self._led_suit is None else self._led_suit

    @property
    def winning_card(self) -> np.ndarray:
        """The card holding the current trick (-1 when leading)."""
        return self._none() if self._win_card is None else self._win_card

    @property
    def winning_seat(self) -> np.ndarray:
        """The seat holding the current trick (-1 when leading)."""
        return self._none() if self._win_seat is None else self._win_seat


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
                seat=int(view.seat[t]),
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
