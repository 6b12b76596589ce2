"""What the acting seat may see, as arrays a person can use: `observe(view)`.

A view (`BidView`, `PlayView`, ...) holds the facts in the engine's layout: absolute seats, uint64
card masks, side 0 = seats 0+2. An `Observation` restates them per table from the acting seat's
chair, computed from the view alone (so it shows nothing the view does not):

- relative seats: axis order me, left, partner, right (Duel: me, opponent); "left" plays next;
- sides: us, them; where each player is its own side (Duel, cutthroat) the sides are the players
  in relative seat order: me, left, across, right in cutthroat (me, opponent in Duel);
- cards: boolean [n, 52] masks by card id and [n, 13] id arrays weakest first (-1 padded); see
  `spades_lab.engine.masks` for the id layout and the weakest-first order;
- the current trick with its leader, who holds it, whether that card is a master; voids shown.

Every form of an observation is filled by one compiled pass, `fill`, into one `RECORD` per table:
`observe` restates the records as numpy arrays, `records` hands them to compiled scalar policies
(`spades_lab.engine.scalar`), `table_views` turns them into plain Python values and
`spades_lab.env.encode` writes its vector from them, so the forms cannot drift apart. The rules of
the trick and of a side's contract come from `spades_lab.engine.trick`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from spades_lab.engine import masks, trick

ME, LEFT, PARTNER, RIGHT = 0, 1, 2, 3
"""Relative seats (axis order of every per-seat array); in Duel 0 is me and 1 the opponent."""
US, THEM = 0, 1
"""Relative sides with partnerships (and in Duel); in cutthroat side k is relative seat k (0 = me)."""


@dataclass(frozen=True)
class Observation:
    """One row per table; per-seat arrays in relative order (me, left, partner, right)."""

    seat: np.ndarray
    """[n] my absolute seat (0..3)."""
    seats: np.ndarray
    """[n, seats] absolute seat of me, left, partner, right."""
    hand: np.ndarray
    """[n, 52] bool: my cards."""
    hand_ids: np.ndarray
    """[n, 13] my card ids, weakest first, -1 padded ([n, 17] with three players)."""
    legal: np.ndarray
    """[n, 52] bool: cards I may play now (all False outside card play)."""
    legal_ids: np.ndarray
    """[n, 13] legal card ids, weakest first, -1 padded."""
    legal_bids: np.ndarray
    """[n, tricks + 1] bool: legal_bids[t, b] for bid b (0 = nil; 14 columns, 18 with three players); all False outside bidding."""
    bids: np.ndarray
    """[n, seats] bids by relative seat: -1 not yet, 0 nil."""
    blind: np.ndarray
    """[n, seats] blind nil declared, by relative seat."""
    contract: np.ndarray
    """[n, sides] us/them (cutthroat: me, left, across, right): the side's bids so far added up (nil counts 0)."""
    tricks: np.ndarray
    """[n, sides] as `contract`: tricks the side has won this hand (a nil bidder's tricks included)."""
    needed: np.ndarray
    """[n, sides] as `contract`: tricks the side still needs for its contract (0 once made), counted as the
    scorer does: a nil bidder's tricks count toward its partner's contract only with `nil_tricks_to_partner`."""
    tricks_won: np.ndarray
    """[n, seats] tricks won by relative seat."""
    scores: np.ndarray
    """[n, sides] us/them (cutthroat: me, left, across, right) game scores before this hand."""
    bags: np.ndarray
    """[n, sides] as `scores`: bags carried into this hand."""
    trick: int
    """The current trick (0..12); 0 during bidding."""
    position: int
    """0 when I lead, 1 second to play, ..., seats - 1 last."""
    trick_cards: np.ndarray
    """[n, seats] card id each relative seat played to the current trick, -1 for not (yet)."""
    leader: np.ndarray
    """[n] relative seat that led the current trick (0 = me when I lead)."""
    led_suit: np.ndarray
    """[n] suit led (0 C, 1 D, 2 H, 3 trump); -1 when I lead."""
    winning_card: np.ndarray
    """[n] card id holding the trick; -1 when I lead."""
    winning_seat: np.ndarray
    """[n] relative seat holding the trick; -1 when I lead."""
    partner_winning: np.ndarray
    """[n] my partner holds the trick (False in Duel and cutthroat: no partner)."""
    master: np.ndarray
    """[n] the card holding the trick cannot be beaten by any card I cannot see (False when I lead)."""
    winners: np.ndarray
    """[n, 52] bool: legal cards that would hold the trick if played now (every legal card when I lead)."""
    winners_ids: np.ndarray
    """[n, 13] those card ids, weakest first, -1 padded."""
    voids: np.ndarray
    """[n, seats, 4] bool: the seat has shown it is void in the suit (did not follow it)."""
    played: np.ndarray
    """[n, 52] bool: every card played this hand, the current trick included."""
    unseen: np.ndarray
    """[n, 52] bool: cards neither in my hand nor played: held by the other seats."""
    spades_broken: np.ndarray
    """[n] a trump has been played, so trumps may be led."""

    def __len__(self) -> int:
        return len(self.seat)


RECORD = np.dtype(
    [
        ("seat", np.int64),  # my absolute seat
        ("players", np.int64),
        ("position", np.int64),  # 0 when I lead
        ("trick", np.int64),
        ("hand", np.uint64),
        ("legal", np.uint64),  # cards I may play (0 while bidding)
        ("legal_bids", np.uint8, 18),  # 1 where bid b is legal (0 nil; 1..13, 1..17 with 3 players; 0 in play)
        ("played", np.uint64),
        ("unseen", np.uint64),  # neither in my hand nor played (nor out of the deck)
        ("led_suit", np.int64),  # -1 when I lead
        ("winning_card", np.int64),  # -1 when I lead
        ("winning_seat", np.int64),  # relative; -1 when I lead
        ("partner_winning", np.bool_),
        ("master", np.bool_),  # no unseen card beats the winning card (False when I lead)
        ("winners", np.uint64),  # legal cards that would hold the trick now (every legal card when I lead)
        ("leader", np.int64),  # relative
        ("trick_cards", np.int64, 4),  # relative seat -> card id on the current trick, -1
        ("bids", np.int64, 4),  # relative; -1 not yet, 0 nil
        ("blind", np.uint8, 4),  # relative: 1 where the seat bid blind
        ("tricks_won", np.int64, 4),  # relative
        ("voids", np.int64),  # bit 4 * relative seat + suit: that seat has shown a void in the suit
        ("contract", np.int64, 4),  # us, them (cutthroat: me, left, across, right; unused slots 0)
        ("tricks", np.int64, 4),  # as contract: tricks the side has won
        ("needed", np.int64, 4),  # as contract: tricks still needed, as the scorer counts them
        ("scores", np.int64, 4),  # as contract
        ("bags", np.int64, 4),  # as contract
        ("spades_broken", np.bool_),
        ("random", np.float64),  # this decision's uniform draw for this table
    ]
)
"""One table's observation as a numba record: what every form of an observation is filled from (per-seat
arrays have 4 slots, Duel uses 2; per-side arrays have 4 slots: us, them in partnership games and Duel, me,
left, across, right in cutthroat)."""


class Seen(NamedTuple):
    """What a view shows, per table in the engine's layout (absolute seats): `fill`'s input record."""

    seat: np.ndarray
    hand: np.ndarray
    legal: np.ndarray
    legal_bids: np.ndarray
    played: np.ndarray
    bids: np.ndarray
    blind: np.ndarray
    scores: np.ndarray
    bags: np.ndarray
    tricks_won: np.ndarray
    trick_cards: np.ndarray
    leader: np.ndarray
    led_suit: np.ndarray
    winning_card: np.ndarray
    winning_seat: np.ndarray
    shown_voids: np.ndarray
    broken: np.ndarray
    random: np.ndarray


class Table(NamedTuple):
    """The game's facts every table of a view shares: seats, sides, nil rules, the cards in play."""

    players: int
    sides: int
    plain_zero: bool
    nil_tricks_to_partner: bool
    in_deck: np.uint64
    """The cards dealt (every card but the three-player deck's 2 of clubs)."""
    suits: np.ndarray
    position: int
    trick: int


@njit(cache=True)
def fill(r: np.ndarray, v: Seen, g: Table) -> None:
    """Fill one record per table from the view's arrays: the only place a seat's observation is derived."""
    p, sides = g.players, g.sides
    nil_won = np.zeros(4, dtype=np.int64)
    for t in range(r.shape[0]):
        me = v.seat[t]
        o = r[t]
        o.seat, o.players, o.position, o.trick = me, p, g.position, g.trick
        o.hand, o.legal, o.played = v.hand[t], v.legal[t], v.played[t]
        o.unseen = g.in_deck & ~(v.hand[t] | v.played[t])
        for k in range(4):
            o.bids[k] = -1
            o.trick_cards[k] = -1
            nil_won[k] = 0
        voids = 0
        for k in range(p):
            s = trick.absolute(k, me, p)
            bid, won, side = v.bids[t, s], v.tricks_won[t, s], k if k < sides else k - sides  # k % sides (k < 2 sides)
            o.bids[k] = bid
            o.blind[k] = v.blind[t, s]
            o.tricks_won[k] = won
            o.trick_cards[k] = v.trick_cards[t, s]
            voids |= ((v.shown_voids[t] >> (4 * s)) & 15) << (4 * k)
            o.contract[side] += max(bid, 0)
            o.tricks[side] += won
            if trick.is_nil(bid, g.plain_zero):
                nil_won[side] += won
        o.voids = voids
        us = me if me < sides else me - sides
        for side in range(sides):
            bid_won = o.tricks[side] - nil_won[side]
            o.needed[side] = trick.tricks_needed(
                o.contract[side], nil_won[side], bid_won, g.plain_zero, g.nil_tricks_to_partner
            )
            theirs = trick.absolute(side, us, sides)
            o.scores[side] = v.scores[t, theirs]
            o.bags[side] = v.bags[t, theirs]
        o.leader = trick.relative(v.leader[t], me, p)
        o.led_suit, o.winning_card = v.led_suit[t], v.winning_card[t]
        o.winning_seat = trick.relative(v.winning_seat[t], me, p)
        o.partner_winning = p == 4 and sides == 2 and o.winning_seat == 2
        o.master = trick.is_master(o.winning_card, o.unseen, g.suits)
        o.winners = trick.winners(o.legal, o.winning_card, g.suits)
        o.spades_broken = v.broken[t]
        o.random = v.random[t]
        for b in range(v.legal_bids.shape[1]):
            o.legal_bids[b] = v.legal_bids[t, b]


def in_deck(players: int, deck: Any) -> np.uint64:
    """The cards dealt: all 52 ids, but the 2 of clubs is out of the three-player deck."""
    full = np.uint64((1 << 52) - 1)
    if players == 3:
        full &= ~np.uint64(1 << deck.index["2C"])
    return full


def records(view: Any) -> np.ndarray:
    """The observation records of every table of a view (one compiled pass): bid, play or any other decision."""
    n, p, rules = len(view), view.players, view.rules
    seat = np.asarray(view.seat, dtype=np.int64)
    zeros = np.zeros(n, dtype=np.uint64)
    none = np.full(n, -1, dtype=np.int64)
    hand = view.hand if hasattr(view, "hand") else zeros
    legal_bids = view.legal_bids if hasattr(view, "legal_bids") else np.zeros((n, 0), dtype=np.bool_)
    if hasattr(view, "legal") and hasattr(view, "trick_cards"):
        seen = Seen(
            seat, hand, view.legal, legal_bids, view.played, view.bids, view.blind, view.scores, view.bags,
            view.tricks_won, view.trick_cards, view.leader, view.led_suit, view.winning_card, view.winning_seat,
            view.shown_voids, view.spades_broken, view.uniform(),
        )  # fmt: skip
        position, at = view.position, view.trick
    else:
        seen = Seen(
            seat, hand, zeros, legal_bids, zeros, view.bids, view.blind, view.scores, view.bags,
            np.zeros((n, p), dtype=np.int64), np.full((n, p), -1, dtype=np.int64), seat, none, none, none,
            np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.bool_), view.uniform(),
        )  # fmt: skip
        position, at = 0, 0
    table = Table(
        p, rules.sides, rules.zero_bid == "plain", bool(rules.nil_tricks_to_partner), in_deck(p, view.deck),
        np.asarray(view.deck.suit_masks, dtype=np.uint64), position, at,
    )  # fmt: skip
    r = np.zeros(n, dtype=RECORD)
    fill(r, seen, table)
    return r


def _voids(bits: np.ndarray, p: int) -> np.ndarray:
    """[n, seats, 4] bool from the record's relative void bits."""
    shifts = np.arange(4 * p, dtype=np.int64).reshape(p, 4)
    return ((bits[:, None, None] >> shifts) & 1).astype(bool)


def observe(view: Any) -> Observation:
    """The observation of every table of a view (bid, play or any other decision): the records of
    `records(view)` restated as numpy arrays."""
    r = records(view)
    n, p, deck = len(view), view.players, view.deck
    sides, width = view.rules.sides, view.rules.tricks  # cards a hand can hold: 13, or 17 with three players
    seat = r["seat"]
    is_play = hasattr(view, "legal") and hasattr(view, "trick_cards")
    trick_at = int(view.trick) if is_play else 0
    position = int(view.position) if is_play else 0
    return Observation(
        seat=seat, seats=(seat[:, None] + np.arange(p)) % p, hand=masks.to_bool(r["hand"]),
        hand_ids=masks.card_ids(r["hand"], width, deck=deck), legal=masks.to_bool(r["legal"]),
        legal_ids=masks.card_ids(r["legal"], width, deck=deck),
        legal_bids=r["legal_bids"][:, : width + 1].astype(bool) if hasattr(view, "legal_bids")
        else np.zeros((n, width + 1), dtype=bool),
        bids=r["bids"][:, :p], blind=r["blind"][:, :p].astype(bool), contract=r["contract"][:, :sides],
        tricks=r["tricks"][:, :sides], needed=r["needed"][:, :sides], tricks_won=r["tricks_won"][:, :p],
        scores=r["scores"][:, :sides], bags=r["bags"][:, :sides], trick=trick_at, position=position,
        trick_cards=r["trick_cards"][:, :p], leader=r["leader"], led_suit=r["led_suit"],
        winning_card=r["winning_card"], winning_seat=r["winning_seat"], partner_winning=r["partner_winning"],
        master=r["master"], winners=masks.to_bool(r["winners"]), winners_ids=masks.card_ids(r["winners"], width, deck=deck),
        voids=_voids(r["voids"], p), played=masks.to_bool(r["played"]), unseen=masks.to_bool(r["unseen"]),
        spades_broken=r["spades_broken"],
    )  # fmt: skip
