"""What the acting seat may see, as arrays a person can use: `observe(view)`.

A view (`BidView`, `PlayView`, ...) holds the facts in the engine's layout: absolute seats, uint64
card masks, side 0 = seats 0+2. An `Observation` restates them per table from the acting seat's
chair, computed with numpy from the view alone (so it shows nothing the view does not):

- relative seats: axis order me, left, partner, right (Duel: me, opponent); "left" plays next;
- sides: us, them; where each player is its own side (Duel, cutthroat) the sides are the players
  in relative seat order: me, left, across, right in cutthroat (me, opponent in Duel);
- cards: boolean [n, 52] masks by card id and [n, 13] id arrays weakest first (-1 padded); see
  `spades_lab.engine.masks` for the id layout and the weakest-first order;
- the current trick with its leader, who holds it, whether that card is a master; voids shown.

It costs a few numpy passes over the batch: fine for a numpy policy, and what `from_functions`
uses. A compiled kernel (like `tips`) reads the view's masks directly instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from spades_lab.cards import TRUMP
from spades_lab.engine import masks

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
    """[n, sides] as `contract`: tricks the side still needs for its contract (0 once made)."""
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


@njit(cache=True)
def _voids(plays: np.ndarray, who: np.ndarray, seat: np.ndarray, suit_of: np.ndarray, p: int) -> np.ndarray:
    """[n, seats, 4] by relative seat: a seat that did not follow the led suit is void in it."""
    n, k = plays.shape
    out = np.zeros((n, p, 4), dtype=np.bool_)
    for t in range(n):
        led = -1
        for i in range(k):
            suit = suit_of[plays[t, i]]
            if i % p == 0:
                led = suit
            elif suit != led:
                out[t, (who[t, i] - seat[t]) % p, led] = True
    return out


def _relative(per_seat: np.ndarray, seats: np.ndarray) -> np.ndarray:
    return np.take_along_axis(per_seat, seats, axis=1)


def observe(view: Any) -> Observation:
    """The observation of every table of a view (bid, play or any other decision)."""
    n, p, deck = len(view), view.players, view.deck
    seat = np.asarray(view.seat, dtype=np.int64)
    seats = (seat[:, None] + np.arange(p)) % p
    hand_mask = getattr(view, "hand", np.zeros(n, dtype=np.uint64))
    is_play = hasattr(view, "legal") and hasattr(view, "trick_cards")
    legal_mask = view.legal if is_play else np.zeros(n, dtype=np.uint64)
    bids = _relative(view.bids, seats)
    blind = _relative(view.blind, seats)
    n_sides = view.rules.sides
    side_of = np.arange(p) % n_sides  # relative seat -> relative side: us (0) / them (1), or the seat itself
    contract = np.stack([np.maximum(bids[:, side_of == s], 0).sum(axis=1) for s in range(n_sides)], axis=1)
    tricks_won = _relative(view.tricks_won, seats) if is_play else np.zeros((n, p), dtype=np.int64)
    tricks = np.stack([tricks_won[:, side_of == s].sum(axis=1) for s in range(n_sides)], axis=1)
    us_them = (seat[:, None] + np.arange(n_sides)) % n_sides  # absolute side of each relative side
    scores = np.take_along_axis(view.scores, us_them, axis=1)
    bags = np.take_along_axis(view.bags, us_them, axis=1)
    full = np.uint64((1 << 52) - 1)
    if p == 3:  # the 2 of clubs is out of the three-player deck: nobody holds it
        full &= ~np.uint64(1 << deck.index["2C"])
    width = view.rules.tricks  # cards a hand can hold: 13, or 17 with three players
    if is_play:
        played_mask = view.played
        trick_cards = _relative(view.trick_cards, seats)
        leader = (view.leader - seat) % p
        led = view.led_suit
        win_card = view.winning_card
        win_seat = np.where(view.winning_seat >= 0, (view.winning_seat - seat) % p, -1)
        trick, position = view.trick, view.position
        voids = _voids(view.plays, view.play_seats, seat, np.asarray(deck.suit_of, dtype=np.int64), p)
        unseen_mask = full & ~(hand_mask | played_mask)
        trumps = np.asarray(deck.suit_masks, dtype=np.uint64)[TRUMP]
        above = masks.above(win_card)
        beaters = np.where(
            masks.suit_of(win_card, deck) == TRUMP, above & trumps, (above & masks.suit_mask(led, deck)) | trumps
        )
        master = (win_card >= 0) & ((beaters & unseen_mask) == 0)
        winners_mask = np.where(win_card >= 0, legal_mask & beaters, legal_mask)
        broken = view.spades_broken
    else:
        played_mask = np.zeros(n, dtype=np.uint64)
        trick_cards = np.full((n, p), -1, dtype=np.int64)
        leader = np.zeros(n, dtype=np.int64)
        led = win_card = win_seat = np.full(n, -1, dtype=np.int64)
        trick = position = 0
        voids = np.zeros((n, p, 4), dtype=bool)
        unseen_mask = full & ~hand_mask
        master = np.zeros(n, dtype=bool)
        winners_mask = np.zeros(n, dtype=np.uint64)
        broken = np.zeros(n, dtype=bool)
    legal_bids = view.legal_bids if hasattr(view, "legal_bids") else np.zeros((n, view.rules.tricks + 1), dtype=bool)
    return Observation(
        seat=seat, seats=seats, hand=masks.to_bool(hand_mask), hand_ids=masks.card_ids(hand_mask, width, deck=deck),
        legal=masks.to_bool(legal_mask), legal_ids=masks.card_ids(legal_mask, width, deck=deck), legal_bids=legal_bids,
        bids=bids, blind=blind, contract=contract, tricks=tricks, needed=np.maximum(contract - tricks, 0),
        tricks_won=tricks_won, scores=scores, bags=bags, trick=trick, position=position, trick_cards=trick_cards,
        leader=leader, led_suit=led, winning_card=win_card, winning_seat=win_seat,
        partner_winning=(win_seat == PARTNER) if n_sides == 2 and p == 4 else np.zeros(n, dtype=bool), master=master,
        winners=masks.to_bool(winners_mask), winners_ids=masks.card_ids(winners_mask, width, deck=deck), voids=voids,
        played=masks.to_bool(played_mask), unseen=masks.to_bool(unseen_mask), spades_broken=broken,
    )  # fmt: skip
