"""One observation encoding of a seat's information, as a flat float32 vector per table.

An agent needs the same facts a careful human tracks: its own cards, what everyone bid, the trick
on the table, which cards are gone and who played them, which seats have shown a void, tricks
taken against contracts, and the game score with bags. Everything is from the point of view of
the observing seat: other seats are numbered relatively (0 = self, 1 = left, 2 = partner,
3 = right; in Duel 1 is the opponent and 2, 3 stay zero), so one network serves every seat.
Hidden cards (other hands, the stock below the top card, discards) never enter the vector.

The layout (`LAYOUT`, `SIZE` = 671 floats) is documented in docs/environments.md; cards are in
engine card-id order (`deck.cards[i]`), which in the standard deck is OpenSpiel's numbering.
The work per table is compiled (numba): no Python loop per card or per table.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from spades_lab.engine import kernels, trick
from spades_lab.engine.observation import RECORD, Seen, Table, fill, in_deck
from spades_lab.engine.state import Phase, State

SEATS = 4
"""Relative seat slots in the vector (Duel fills slots 0 and 1)."""

_BLOCKS: list[tuple[str, int, str]] = [
    ("hand", 52, "own cards now held (1 per card id)"),
    (
        "bids",
        SEATS * 15,
        "per relative seat: one-hot nil, 1..13 (14 slots), then 1 if the nil is blind; zeros: not bid yet",
    ),
    ("trick", SEATS * 52, "per relative seat: the card it has played to the current trick"),
    ("played", SEATS * 52, "per relative seat: every card it has played this hand (current trick included)"),
    ("voids", SEATS * 4, "per relative seat and suit C, D, H, S: 1 once the seat failed to follow that suit"),
    ("tricks", SEATS, "per relative seat: tricks won this hand / 13"),
    (
        "scores",
        4,
        "own side's score / target, other side's score / target, own bags / bag threshold, other side's bags /"
        " bag threshold; each clipped to -10..10",
    ),
    ("phase", 6, "one-hot of the table's phase: draft, blind, bid, exchange, play, done"),
    ("dealer", SEATS, "one-hot relative seat of the dealer"),
    ("leader", SEATS, "one-hot relative seat that led the current trick (zeros before the first lead)"),
    ("broken", 1, "1 once spades are broken"),
    ("draft_top", 52, "Duel draft: the face-up top card of the stock (zeros outside the draft)"),
    ("received", 52, "cards received from the partner in a blind-nil exchange"),
]

LAYOUT: dict[str, slice] = {}
"""Block name -> slice of the vector."""
DESCRIPTION: dict[str, str] = {}
_at = 0
for _name, _width, _text in _BLOCKS:
    LAYOUT[_name] = slice(_at, _at + _width)
    DESCRIPTION[_name] = _text
    _at += _width
SIZE: int = _at
"""Length of one observation vector."""

_O = {name: s.start for name, s in LAYOUT.items()}
SCORE_CLIP = 10.0
"""Scores / target and bags / threshold are clipped to +-10 (a game far past its target, or bags without penalty)."""


def bounds() -> tuple[np.ndarray, np.ndarray]:
    """(low, high) of every entry: 0..1 except the scores block, -10..10."""
    low, high = np.zeros(SIZE, dtype=np.float32), np.ones(SIZE, dtype=np.float32)
    low[LAYOUT["scores"]], high[LAYOUT["scores"]] = -SCORE_CLIP, SCORE_CLIP
    return low, high


class Extras(NamedTuple):
    """What the vector holds beyond the seat's observation record: the phase, the dealer, the play history
    by seat, the draft's face-up card and the cards received in an exchange (per table)."""

    phase: np.ndarray
    dealer: np.ndarray
    plays: np.ndarray
    play_seats: np.ndarray
    draft_top: np.ndarray
    received: np.ndarray
    target: float
    bag_threshold: float


class Offsets(NamedTuple):
    """First index of every block of the vector, by block name (`LAYOUT`)."""

    hand: int
    bids: int
    trick: int
    played: int
    voids: int
    tricks: int
    scores: int
    phase: int
    dealer: int
    leader: int
    broken: int
    draft_top: int
    received: int


OFFSETS = Offsets(**_O)
assert Offsets._fields == tuple(LAYOUT), "keep Offsets in step with the layout's blocks"


@njit(cache=True)
def _encode(out: np.ndarray, r: np.ndarray, x: Extras, at: Offsets) -> None:
    """Write each table's vector from its observation record `r` (the one every observation form is filled
    from) and the extras; a table whose record seat is -1 gets only its phase."""
    for t in range(out.shape[0]):
        o = r[t]
        out[t, at.phase + x.phase[t]] = 1.0
        if o.seat < 0:
            continue
        p = o.players
        for c in range(52):
            if (o.hand >> np.uint64(c)) & np.uint64(1):
                out[t, at.hand + c] = 1.0
            if (x.received[t] >> np.uint64(c)) & np.uint64(1):
                out[t, at.received + c] = 1.0
        for k in range(p):
            b = o.bids[k]
            if b >= 0:
                out[t, at.bids + 15 * k + b] = 1.0
                if o.blind[k]:
                    out[t, at.bids + 15 * k + 14] = 1.0
            card = o.trick_cards[k]
            if card >= 0:
                out[t, at.trick + 52 * k + card] = 1.0
            out[t, at.tricks + k] = o.tricks_won[k] / 13.0
            for suit in range(4):
                if (o.voids >> (4 * k + suit)) & 1:
                    out[t, at.voids + 4 * k + suit] = 1.0
        count = 0
        while count < x.plays.shape[1] and x.plays[t, count] >= 0:
            count += 1
        for i in range(count):
            out[t, at.played + 52 * trick.relative(x.play_seats[t, i], o.seat, p) + x.plays[t, i]] = 1.0
        if count % p > 0:  # a trick under way: who led it
            out[t, at.leader + o.leader] = 1.0
        out[t, at.scores + 0] = min(max(o.scores[0] / x.target, -SCORE_CLIP), SCORE_CLIP)
        out[t, at.scores + 1] = min(max(o.scores[1] / x.target, -SCORE_CLIP), SCORE_CLIP)
        out[t, at.scores + 2] = min(o.bags[0] / x.bag_threshold, SCORE_CLIP)
        out[t, at.scores + 3] = min(o.bags[1] / x.bag_threshold, SCORE_CLIP)
        out[t, at.dealer + trick.relative(x.dealer[t], o.seat, p)] = 1.0
        if o.spades_broken:
            out[t, at.broken] = 1.0
        if x.draft_top[t] >= 0:
            out[t, at.draft_top + x.draft_top[t]] = 1.0


def _records(state: State, seats: np.ndarray) -> np.ndarray:
    """The observation record of `seats` (-1: no seat, record seat -1) at every table of the state."""
    n, rules = state.n, state.rules
    clipped = np.maximum(seats, 0)
    hand = kernels.own_entries(state.hands, np.zeros(0, dtype=np.int64), clipped)
    zeros = np.zeros(n, dtype=np.uint64)
    seen = Seen(
        clipped, hand, zeros, np.zeros((n, 0), dtype=np.bool_), state.played, state.bids, state.blind, state.scores,
        state.bags, state.tricks_won, state.trick_cards, state.leader, state.led_suit, state.win_card,
        state.win_seat, state.shown_voids, state.broken, np.zeros(n),
    )  # fmt: skip
    table = Table(
        state.players, rules.sides, rules.zero_bid == "plain", bool(rules.nil_tricks_to_partner),
        in_deck(state.players, state.deck), np.asarray(state.deck.suit_masks, dtype=np.uint64), 0, 0,
    )  # fmt: skip
    r = np.zeros(n, dtype=RECORD)
    fill(r, seen, table)
    r["seat"] = seats
    return r


def encode(state: State, seat: np.ndarray | int | None = None, out: np.ndarray | None = None) -> np.ndarray:
    """[n, SIZE] float32 observation of `seat` at every table (default: the seat to act).

    A table whose seat is -1 (nobody acts there now) gets only its phase. `out` reuses a buffer.
    """
    n, rules = state.n, state.rules
    if not rules.partnerships or rules.players == 3:
        raise ValueError(
            "rules field partnerships = False (cutthroat) or players = 3: more than two sides, and this vector"
            " holds two (own side, other side): the encoding does not support them"
        )
    if seat is None:
        seats = state.to_act
    else:
        seats = np.broadcast_to(np.asarray(seat, dtype=np.int64), (n,))
    seats = np.ascontiguousarray(seats, dtype=np.int64)
    if out is None:
        out = np.zeros((n, SIZE), dtype=np.float32)
    else:
        out[:] = 0.0
    phase, _, index = state.point
    if phase == Phase.DRAFT:
        draft_top = state.stock[:, 2 * index].astype(np.int64)
    else:
        draft_top = np.full(n, -1, dtype=np.int64)
    threshold = float(rules.bag_threshold) if rules.bag_penalty_enabled and rules.bag_threshold else 10.0
    received = kernels.own_entries(state.received, np.zeros(0, dtype=np.int64), np.maximum(seats, 0))
    extras = Extras(
        state.phase.astype(np.int64), state.dealer.astype(np.int64), state.plays, state.play_seats, draft_top,
        received, float(rules.target), threshold,
    )  # fmt: skip
    _encode(out, _records(state, seats), extras, OFFSETS)
    return out


def describe_layout() -> list[tuple[str, int, int, str]]:
    """(block, first index, width, meaning) for every block, in order: the table on the docs page."""
    return [(name, LAYOUT[name].start, width, text) for name, width, text in _BLOCKS]
