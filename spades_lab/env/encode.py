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

import numpy as np
from numba import njit

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


@njit(cache=True)
def _encode(
    out: np.ndarray,
    seat: np.ndarray,
    players: int,
    hands: np.ndarray,
    bids: np.ndarray,
    blind: np.ndarray,
    trick_cards: np.ndarray,
    plays: np.ndarray,
    play_seats: np.ndarray,
    tricks_won: np.ndarray,
    scores: np.ndarray,
    bags: np.ndarray,
    phase: np.ndarray,
    dealer: np.ndarray,
    broken: np.ndarray,
    draft_top: np.ndarray,
    received: np.ndarray,
    suit_of: np.ndarray,
    target: float,
    bag_threshold: float,
    o_hand: int, o_bids: int, o_trick: int, o_played: int, o_voids: int, o_tricks: int, o_scores: int,
    o_phase: int, o_dealer: int, o_leader: int, o_broken: int, o_draft: int, o_received: int,
) -> None:  # fmt: skip
    n = out.shape[0]
    for t in range(n):
        me = seat[t]
        if me < 0:
            out[t, o_phase + phase[t]] = 1.0
            continue
        side = me % 2
        hand = hands[t, me]
        got = received[t, me]
        for c in range(52):
            if (hand >> np.uint64(c)) & np.uint64(1):
                out[t, o_hand + c] = 1.0
            if (got >> np.uint64(c)) & np.uint64(1):
                out[t, o_received + c] = 1.0
        for s in range(players):
            rel = (s - me) % players
            b = bids[t, s]
            if b >= 0:
                out[t, o_bids + 15 * rel + b] = 1.0
                if blind[t, s]:
                    out[t, o_bids + 15 * rel + 14] = 1.0
            card = trick_cards[t, s]
            if card >= 0:
                out[t, o_trick + 52 * rel + card] = 1.0
            out[t, o_tricks + rel] = tricks_won[t, s] / 13.0
        count = 0
        while count < plays.shape[1] and plays[t, count] >= 0:
            count += 1
        led = -1
        for i in range(count):
            card = plays[t, i]
            rel = (play_seats[t, i] - me) % players
            out[t, o_played + 52 * rel + card] = 1.0
            if i % players == 0:
                led = suit_of[card]
            elif suit_of[card] != led:
                out[t, o_voids + 4 * rel + led] = 1.0
        in_trick = count % players
        if count > 0 and in_trick > 0:
            out[t, o_leader + (play_seats[t, count - in_trick] - me) % players] = 1.0
        out[t, o_scores + 0] = min(max(scores[t, side] / target, -SCORE_CLIP), SCORE_CLIP)
        out[t, o_scores + 1] = min(max(scores[t, 1 - side] / target, -SCORE_CLIP), SCORE_CLIP)
        out[t, o_scores + 2] = min(bags[t, side] / bag_threshold, SCORE_CLIP)
        out[t, o_scores + 3] = min(bags[t, 1 - side] / bag_threshold, SCORE_CLIP)
        out[t, o_phase + phase[t]] = 1.0
        out[t, o_dealer + (dealer[t] - me) % players] = 1.0
        if broken[t]:
            out[t, o_broken] = 1.0
        if draft_top[t] >= 0:
            out[t, o_draft + draft_top[t]] = 1.0


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
    _encode(
        out, np.ascontiguousarray(seats, dtype=np.int64), state.players, state.hands, state.bids, state.blind,
        state.trick_cards, state.plays, state.play_seats, state.tricks_won, state.scores, state.bags,
        state.phase.astype(np.int64), state.dealer.astype(np.int64), state.broken, draft_top, state.received,
        state.deck.suit_of.astype(np.int64), float(rules.target), threshold,
        *(_O[name] for name in LAYOUT),
    )  # fmt: skip
    return out


def describe_layout() -> list[tuple[str, int, int, str]]:
    """(block, first index, width, meaning) for every block, in order: the table on the docs page."""
    return [(name, LAYOUT[name].start, width, text) for name, width, text in _BLOCKS]
