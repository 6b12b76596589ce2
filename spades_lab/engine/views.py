"""What a seat may see when it must act, for a whole batch of tables at once.

A view holds no reference to the engine's `State`. It carries a copy of the acting seat's own
cards (and of its own passes or discards) and reads every public fact (bids, the trick, the
cards played, scores ...) from `PublicArrays`: read-only aliases of the engine's arrays built
over immutable buffers, which nothing reachable from a view can make writable again (a view of
some tables of the batch holds read-only copies of those rows only). So there is no attribute
path from a view to another seat's cards, to another table's legal cards or bids, to the stock,
or to state the engine can be made to read differently; the rules and the deck a view carries
are its own copies, and the deck's arrays and index are immutable. Arrays of a view are valid during the call (the engine moves on after it).

Out of scope: interpreter-level tricks (walking the garbage collector or the call stack with
`gc` / `sys._getframe`, or writing raw memory with `ctypes`) reach anything in a Python process;
a policy that does that is not playing Spades. The view's random draws are precomputed numbers,
not the table's key, so no key can be inverted to recover the deal.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import numpy as np

from spades_lab.cards import Deck
from spades_lab.engine import kernels, masks, rng
from spades_lab.engine.observation import Observation, observe
from spades_lab.engine.state import (
    DRAFT_DECISION,
    EXCHANGE_DECISION,
    NIL_EXCHANGE_DECISION,
    PublicArrays,
    State,
    exchange_cards,
    play_step,
)
from spades_lab.rules import Rules

TEAM_OF_SEAT = np.array([0, 1, 0, 1])
"""Side of each seat: partnerships in 4-player games; in Duel seat s is side s."""


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.array(a, copy=True)
    a.setflags(write=False)
    return a


_NO_ROWS = np.zeros(0, dtype=np.int64)


def _ro(a: np.ndarray) -> np.ndarray:
    """Mark a fresh copy read-only (it is the view's own: nothing else holds it)."""
    a.setflags(write=False)
    return a


class ViewContext:
    """What every view of one hand is built with besides the state: the rules and the deck.

    Each view gets its own copy of the rules and of the deck, so a policy that forces its way into
    `view.rules` or `view.deck` (`object.__setattr__`) changes only that copy: never the engine's
    rules or deck, nor what another policy sees. The deck's arrays are immutable buffers and its
    `index` a read-only mapping.
    """

    __slots__ = ("rules", "deck")

    def __init__(self, rules: Rules, deck: Deck) -> None:
        self.rules = rules
        self.deck = deck


class _View:
    __slots__ = ("rules", "deck", "decision", "players", "_pub", "_rows", "_seat", "_draws")
    _SHOWN: tuple[str, ...] = ("game_id", "hand_number", "dealer", "scores", "bags", "bids", "blind")
    """The public arrays this kind of view reads (copied, at its tables only, when it covers some tables)."""

    def __init__(
        self,
        state: State,
        rows: np.ndarray | None,
        seat: np.ndarray,
        decision: int,
        context: ViewContext,
        draws: int = 1,
    ) -> None:
        self.rules: Rules = copy.copy(context.rules)
        self.deck: Deck = context.deck.copy()
        self.decision: int = decision
        """Index of this decision in the hand (bids 0..3, plays 4..55); the random stream's counter."""
        self.players: int = state.players
        self._pub: PublicArrays = state.public if rows is None else state.public.rows(rows, self._SHOWN)
        self._rows = None if rows is None else _frozen(rows)
        self._seat = _frozen(seat)
        keys = state.policy_key if rows is None else state.policy_key[rows]
        self._draws = tuple(_ro(rng.uniform(keys, decision * 256 + d)) for d in range(draws))

    def _gather(self, hidden: np.ndarray) -> np.ndarray:
        """The acting seat's own entry of a per-seat array that other seats may not see (a copy)."""
        rows = _NO_ROWS if self._rows is None else self._rows
        return _ro(kernels.own_entries(hidden, rows, self._seat))

    def __len__(self) -> int:
        return len(self._seat)

    def observe(self) -> Observation:
        """This view restated from the acting seat's chair (relative seats, us/them, bool masks): see
        `spades_lab.engine.observation`."""
        return observe(self)

    @property
    def seat(self) -> np.ndarray:
        """The acting seat per table (0..3)."""
        return self._seat

    @property
    def partner(self) -> np.ndarray:
        """The partner's seat; -1 in Duel, cutthroat and with three players (no partner)."""
        if self.rules.sides == self.players:
            return _frozen(np.full(len(self._seat), -1))
        return _frozen((self._seat + 2) % 4)

    @property
    def team(self) -> np.ndarray:
        """The acting seat's side: its column of `scores` and `bags` (0: seats 0+2, 1: seats 1+3; in Duel
        and cutthroat and with three players, the seat itself)."""
        if self.rules.sides == self.players:
            return _frozen(self._seat)
        return _frozen(TEAM_OF_SEAT[self._seat])

    @property
    def tables(self) -> np.ndarray:
        """Global game (or hand) id of each table: stable across batch sizes, for messages and logs."""
        return self._pub.game_id

    @property
    def hand_number(self) -> np.ndarray:
        return self._pub.hand_number

    @property
    def dealer(self) -> np.ndarray:
        return self._pub.dealer

    @property
    def scores(self) -> np.ndarray:
        """Scores by side [n, sides] before this hand: column 0 is seats 0+2, column 1 seats 1+3 (Duel and
        cutthroat: column s is seat s)."""
        return self._pub.scores

    @property
    def bags(self) -> np.ndarray:
        """Accumulated bags by side [n, sides] before this hand (columns as `scores`)."""
        return self._pub.bags

    @property
    def bids(self) -> np.ndarray:
        """Bids by seat [n, seats]: 0 is nil, -1 a seat that has not bid yet."""
        return self._pub.bids

    @property
    def blind(self) -> np.ndarray:
        """[n, seats] True for a seat that bid blind: a blind nil (bid 0) or a blind number (`blind_bids`)."""
        return self._pub.blind

    def uniform(self, draw: int = 0) -> np.ndarray:
        """Random floats in [0, 1) from each table's own stream for this decision.

        Use this, not a generator of your own, so that results do not depend on batch size. Each
        decision has one draw (`draw=0`); an exchange has one per card passed (0..cards-1). Two
        independent choices can share a draw u: use u < p for the first and (u / p) for the second.
        """
        if not 0 <= draw < len(self._draws):
            raise ValueError(
                f"this decision has {len(self._draws)} random draw(s) (0..{len(self._draws) - 1}); got {draw}"
            )
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

    __slots__ = ()
    _SHOWN = (*_View._SHOWN, "legal_bids")

    @property
    def legal_bids(self) -> np.ndarray:
        """[n, tricks + 1] bool: the blind numbers allowed (column 0, nil, is never one)."""
        return self._pub.legal_bids


class _SeenView(_View):
    __slots__ = ("_hand",)

    def __init__(
        self,
        state: State,
        rows: np.ndarray | None,
        seat: np.ndarray,
        decision: int,
        context: ViewContext,
        draws: int = 1,
    ) -> None:
        super().__init__(state, rows, seat, decision, context, draws)
        self._hand = self._gather(state.hands)

    @property
    def hand(self) -> np.ndarray:
        """The acting seat's own cards as a uint64 mask over card ids."""
        return self._hand


class BidView(_SeenView):
    """A bidding decision: return one bid per table, 0 for nil."""

    __slots__ = ()
    _SHOWN = (*_View._SHOWN, "legal_bids")

    @property
    def legal_bids(self) -> np.ndarray:
        """[n, tricks + 1] bool: legal_bids[t, b] for bid b (0 = nil; 14 columns, 18 with three players)."""
        return self._pub.legal_bids


class ExchangeView(_SeenView):
    """A blind-nil exchange: return a uint64 mask of exactly `cards` cards of `hand` to pass to the partner.

    The partner of the blind-nil bidder passes first; the bidder then passes back, having seen what it got.
    """

    __slots__ = ("_received",)

    def __init__(
        self, state: State, rows: np.ndarray | None, seat: np.ndarray, decision: int, context: ViewContext
    ) -> None:
        super().__init__(state, rows, seat, decision, context, max(1, exchange_cards(state.rules, decision)))
        self._received = self._gather(state.received)

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

    __slots__ = ("_top", "_discards")
    _SHOWN = (*_View._SHOWN, "draft_keep")

    def __init__(
        self, state: State, rows: np.ndarray | None, seat: np.ndarray, decision: int, context: ViewContext
    ) -> None:
        super().__init__(state, rows, seat, decision, context)
        at = slice(None) if rows is None else rows
        self._top = _ro(state.stock[at, 2 * (decision - DRAFT_DECISION)].copy())
        self._discards = self._gather(state.discards)

    @property
    def turn(self) -> int:
        """This player's turn number (0..12)."""
        return (self.decision - DRAFT_DECISION) // 2

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
        turns = self.decision - DRAFT_DECISION
        opp_turns = np.arange(1 - turns % 2, turns, 2)
        return _ro(self._pub.draft_keep[:, opp_turns])


class PlayView(_SeenView):
    """A card-play decision: return one card id per table, from `legal`.

    Arrays are valid during the call: the engine moves on once the policy has answered.
    """

    __slots__ = ()
    _SHOWN = (
        *_View._SHOWN, "plays", "play_seats", "trick_cards", "played", "led_suit", "win_card", "win_seat", "broken",
        "tricks_won", "leader", "legal", "shown_voids",
    )  # fmt: skip

    def _none(self) -> np.ndarray:
        return _frozen(np.full(len(self._seat), -1))

    @property
    def legal(self) -> np.ndarray:
        """uint64 mask of the cards this seat may play now."""
        return self._pub.legal

    @property
    def trick(self) -> int:
        """Index of the current trick (0..12)."""
        return play_step(self.decision) // self.players

    @property
    def position(self) -> int:
        """0 when leading, players - 1 when playing last to the trick."""
        return play_step(self.decision) % self.players

    @property
    def leader(self) -> np.ndarray:
        """The seat that led (or leads) the current trick."""
        return self._pub.leader

    @property
    def led_suit(self) -> np.ndarray:
        """Suit led to the current trick; -1 when this seat leads."""
        return self._pub.led_suit if self.position else self._none()

    @property
    def trick_cards(self) -> np.ndarray:
        """[n, seats] card id played to the current trick by each seat, -1 for not yet."""
        return self._pub.trick_cards

    @property
    def winning_card(self) -> np.ndarray:
        """The card holding the current trick (-1 when leading)."""
        return self._pub.win_card if self.position else self._none()

    @property
    def winning_seat(self) -> np.ndarray:
        """The seat holding the current trick (-1 when leading)."""
        return self._pub.win_seat if self.position else self._none()

    @property
    def played(self) -> np.ndarray:
        """uint64 mask of every card played so far this hand, the current trick included."""
        return self._pub.played

    @property
    def plays(self) -> np.ndarray:
        """[n, k] card ids in play order so far."""
        return self._pub.plays[:, : play_step(self.decision)]

    @property
    def play_seats(self) -> np.ndarray:
        """[n, k] the seat that played each card of `plays`."""
        return self._pub.play_seats[:, : play_step(self.decision)]

    @property
    def shown_voids(self) -> np.ndarray:
        """[n] int64: bit `4 * seat + suit` set when `seat` has not followed a led `suit` this hand (it holds
        none: everyone saw it), suits as the deck's blocks (0-2 the side suits, 3 trumps). The engine keeps it
        as the cards are played, so a policy reads it without going through `plays` again."""
        return self._pub.shown_voids

    @property
    def tricks_won(self) -> np.ndarray:
        """[n, seats] tricks won by each seat so far this hand."""
        return self._pub.tricks_won

    @property
    def spades_broken(self) -> np.ndarray:
        return self._pub.broken


@dataclass(frozen=True)
class TableView:
    """One table's observation as plain Python values, for per-table policy functions (`from_functions`).

    Conventions (the same as `spades_lab.engine.observation.Observation`, one row of it):
    per-seat lists are relative to the acting seat, in the order [me, left, partner, right]
    (Duel: [me, opponent]); "left" plays after me. Per-side tuples are (us, them); where every player
    is its own side they are the players in relative seat order ((me, left, across, right) in cutthroat,
    (me, opponent) in Duel). Card lists are
    weakest first: side-suit cards by rank (2 < ... < A; at equal rank C < D < H), then trumps
    from the lowest to the highest (see `spades_lab.engine.masks`). Cards are labels like "QH";
    suits are 0 clubs, 1 diamonds, 2 hearts, 3 trumps (spades).
    """

    seat: int
    """My absolute seat (0..3): for logs only; everything else is relative."""
    players: int
    hand: list[str]
    """My cards, weakest first."""
    legal: list[str] | list[int]
    """Play: the cards I may play, weakest first. Bid: the legal bids, ascending (0 = nil)."""
    bids: list[int | None]
    """Bids by relative seat (None: not yet; 0: nil)."""
    blind: list[bool]
    """Blind nil declared, by relative seat."""
    contract: tuple[int, ...]
    """(us, them): bids so far added up, nil counting 0."""
    tricks: tuple[int, ...]
    """(us, them): tricks won this hand."""
    needed: tuple[int, ...]
    """(us, them): tricks still needed for the contract (0 once made), as the scorer counts them (a nil
    bidder's tricks count toward the partner's contract only with `nil_tricks_to_partner`)."""
    tricks_won: list[int]
    """Tricks won this hand by relative seat."""
    scores: tuple[int, ...]
    """(us, them) game scores before this hand."""
    bags: tuple[int, ...]
    """(us, them) bags carried into this hand."""
    dealer: int
    """Relative seat of the dealer."""
    trick: list[tuple[int, str]]
    """Cards of the current trick so far as (relative seat, card), in play order."""
    leader: int
    """Relative seat that led the current trick (0 when I lead)."""
    led_suit: int
    """Suit led to the current trick; -1 when I lead."""
    winning_card: str | None
    """The card holding the trick; None when I lead."""
    winning_seat: int
    """Relative seat holding the trick; -1 when I lead."""
    partner_winning: bool
    master: bool
    """No card I cannot see beats the card holding the trick."""
    winners: list[str]
    """Legal cards that would hold the trick if played now, weakest first (all legal cards when I lead)."""
    voids: list[list[bool]]
    """`voids[relative seat][suit]`: that seat has shown it holds no card of the suit."""
    unseen: list[str]
    """Cards neither in my hand nor played (held by the others), weakest first."""
    plays: list[tuple[int, str]]
    """Every card played this hand as (relative seat, card), in play order."""
    spades_broken: bool
    random: float
    """A uniform draw from this table's stream for this decision."""


def _labels(deck: Deck, ids: np.ndarray) -> list[str]:
    return [deck.cards[int(c)] for c in ids if c >= 0]


def table_views(view: Any) -> list[TableView]:
    """Split a batch view into per-table plain observations (slow: a Python loop over tables)."""
    deck = view.deck
    obs = observe(view)
    u = view.uniform()
    is_play = isinstance(view, PlayView)
    p = view.players
    plays = view.plays if is_play else np.zeros((len(view), 0), dtype=np.int64)
    rel_seats = ((view.play_seats.astype(np.int64) - view.seat[:, None]) % p) if is_play else plays
    unseen_ids = masks.card_ids(masks.from_bool(obs.unseen), width=52, deck=deck)
    dealer = (view.dealer - view.seat) % p
    out = []
    for t in range(len(view)):
        history = [(int(s), deck.cards[c]) for s, c in zip(rel_seats[t], plays[t])]
        in_trick = obs.position if is_play else 0
        out.append(
            TableView(
                seat=int(view.seat[t]),
                players=p,
                hand=_labels(deck, obs.hand_ids[t]),
                legal=_labels(deck, obs.legal_ids[t])
                if is_play
                else [int(b) for b in np.flatnonzero(obs.legal_bids[t])],
                bids=[None if b < 0 else int(b) for b in obs.bids[t]],
                blind=[bool(b) for b in obs.blind[t]],
                contract=tuple(int(x) for x in obs.contract[t]),
                tricks=tuple(int(x) for x in obs.tricks[t]),
                needed=tuple(int(x) for x in obs.needed[t]),
                tricks_won=[int(x) for x in obs.tricks_won[t]],
                scores=tuple(int(x) for x in obs.scores[t]),
                bags=tuple(int(x) for x in obs.bags[t]),
                dealer=int(dealer[t]),
                trick=history[len(history) - in_trick :] if in_trick else [],
                leader=int(obs.leader[t]),
                led_suit=int(obs.led_suit[t]),
                winning_card=deck.cards[int(obs.winning_card[t])] if obs.winning_card[t] >= 0 else None,
                winning_seat=int(obs.winning_seat[t]),
                partner_winning=bool(obs.partner_winning[t]),
                master=bool(obs.master[t]),
                winners=_labels(deck, obs.winners_ids[t]) if is_play else [],
                voids=[[bool(v) for v in row] for row in obs.voids[t]],
                unseen=_labels(deck, unseen_ids[t]),
                plays=history,
                spades_broken=bool(obs.spades_broken[t]),
                random=float(u[t]),
            )
        )
    return out
