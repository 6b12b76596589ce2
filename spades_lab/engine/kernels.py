"""Compiled per-table steps of a hand, each run over a whole batch in one call.

The engine drives a batch of tables through the fixed sequence of a hand (deal, four bids,
52 plays) from Python, one call per step; the work inside a step is a loop over tables
compiled by numba, so no Python code runs per card.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from spades_lab.engine import trick
from spades_lab.engine.bits import BIT, ONE, nth, popcount
from spades_lab.engine.rng import draw, mix64, unit
from spades_lab.engine.trick import FIRST_TRICK_FREE as FIRST_TRICK_FREE
from spades_lab.engine.trick import FIRST_TRICK_LOWEST_CLUBS as FIRST_TRICK_LOWEST_CLUBS
from spades_lab.engine.trick import FIRST_TRICK_TWO_OF_CLUBS as FIRST_TRICK_TWO_OF_CLUBS


@njit(cache=True, inline="always")
def _shuffle(hand_key: np.uint64, stream: np.uint64, perm: np.ndarray) -> None:
    """Fisher-Yates over 52 ids on the table's own stream."""
    key = mix64(draw(hand_key, stream))
    for i in range(52):
        perm[i] = i
    for i in range(51, 0, -1):
        j = int(unit(draw(key, np.uint64(i))) * (i + 1))
        perm[i], perm[j] = perm[j], perm[i]


@njit(cache=True)
def deal(hand_keys: np.ndarray, stream: np.uint64) -> np.ndarray:
    """Shuffle and deal 13 cards to each of four seats: [n, 4] hand masks."""
    n = hand_keys.shape[0]
    hands = np.zeros((n, 4), dtype=np.uint64)
    perm = np.empty(52, dtype=np.int64)
    for t in range(n):
        _shuffle(hand_keys[t], stream, perm)
        for i in range(52):
            hands[t, i // 13] |= BIT[perm[i]]
    return hands


@njit(cache=True)
def deal_three(hand_keys: np.ndarray, stream: np.uint64, removed: int) -> np.ndarray:
    """Three players: shuffle the 52 ids, leave out `removed` (the 2 of clubs), deal 17 to each: [n, 3]."""
    n = hand_keys.shape[0]
    hands = np.zeros((n, 3), dtype=np.uint64)
    perm = np.empty(52, dtype=np.int64)
    for t in range(n):
        _shuffle(hand_keys[t], stream, perm)
        k = 0
        for i in range(52):
            if perm[i] != removed:
                hands[t, k // 17] |= BIT[perm[i]]
                k += 1
    return hands


@njit(cache=True)
def stock(hand_keys: np.ndarray, stream: np.uint64) -> np.ndarray:
    """Duel's face-down stock: [n, 52] card ids, top first."""
    n = hand_keys.shape[0]
    out = np.empty((n, 52), dtype=np.int64)
    perm = np.empty(52, dtype=np.int64)
    for t in range(n):
        _shuffle(hand_keys[t], stream, perm)
        out[t] = perm
    return out


@njit(cache=True)
def legal_plays_into(
    out: np.ndarray,
    hands: np.ndarray,
    actor: np.ndarray,
    lead: bool,
    led_suit: np.ndarray,
    broken: np.ndarray,
    suit_masks: np.ndarray,
    first_trick: tuple[int, int],
) -> None:
    """Write into `out` the cards each acting seat may play (`trick.legal_plays`). `first_trick` is the
    first-trick rule and the two of clubs' id: pass the rule on trick 0 only, 0 (none) after."""
    mode, two_of_clubs = first_trick
    for t in range(hands.shape[0]):
        out[t] = trick.legal_plays(hands[t, actor[t]], lead, led_suit[t], broken[t], suit_masks, mode, two_of_clubs)


class CardPlay(NamedTuple):
    """The arrays of a hand that a card changes, per table: `apply_play`'s record (one per `State`)."""

    hands: np.ndarray
    played: np.ndarray
    plays: np.ndarray
    play_seats: np.ndarray
    trick_cards: np.ndarray
    led_suit: np.ndarray
    win_card: np.ndarray
    win_seat: np.ndarray
    broken: np.ndarray
    tricks_won: np.ndarray
    leader: np.ndarray
    shown_voids: np.ndarray


@njit(cache=True)
def apply_play(cards: np.ndarray, actor: np.ndarray, step: int, h: CardPlay, suit_of: np.ndarray) -> None:
    """Move each table's card (play number `step` of the hand) from hand to trick; close the trick on its
    last card.

    The trick's holder follows `trick.takes` (`suit_of`: each card id's suit). A card off the led suit sets
    the bit `4 * seat + led suit` of `shown_voids`: every seat saw it, and policies read it instead of
    deriving it again from the history at every decision.
    """
    # the record's arrays as locals: read through the record inside the loop they cost a third more time
    hands, played, plays, play_seats, trick_cards = h.hands, h.played, h.plays, h.play_seats, h.trick_cards
    led_suit, win_card, win_seat, broken, tricks_won = h.led_suit, h.win_card, h.win_seat, h.broken, h.tricks_won
    leader, shown_voids = h.leader, h.shown_voids
    p = trick_cards.shape[1]
    lead, last = step % p == 0, step % p == p - 1
    for t in range(cards.shape[0]):
        card = cards[t]
        seat = actor[t]
        b = BIT[card]
        hands[t, seat] ^= b
        played[t] |= b
        plays[t, step] = card
        play_seats[t, step] = seat
        trick_cards[t, seat] = card
        suit = suit_of[card]
        if lead:
            led_suit[t] = suit
            win_card[t] = card
            win_seat[t] = seat
        else:
            if suit != led_suit[t]:
                shown_voids[t] |= 1 << (4 * seat + led_suit[t])
            if trick.takes(card, suit, win_card[t], suit_of[win_card[t]]):
                win_card[t] = card
                win_seat[t] = seat
        if last:
            # Spades break when a spade lands on a trick; the flag matters from the next lead on.
            for s in range(p):
                if suit_of[trick_cards[t, s]] == trick.TRUMP:
                    broken[t] = True
                trick_cards[t, s] = -1
            tricks_won[t, win_seat[t]] += 1
            leader[t] = win_seat[t]


@njit(cache=True, inline="always")
def uniform_card(cards: np.uint64, u: float) -> int:
    """The floor(u * n)-th of n cards (weakest first): a uniform choice for uniform u (-1 if none)."""
    return nth(cards, int(u * popcount(cards)))


@njit(cache=True)
def pick_nth_legal(legal: np.ndarray, u: np.ndarray) -> np.ndarray:
    """`uniform_card` of each table's legal cards."""
    out = np.empty(legal.shape[0], dtype=np.int64)
    for t in range(legal.shape[0]):
        out[t] = uniform_card(legal[t], u[t])
    return out


@njit(cache=True)
def is_legal_card(legal: np.ndarray, cards: np.ndarray) -> np.ndarray:
    out = np.empty(cards.shape[0], dtype=np.bool_)
    for t in range(cards.shape[0]):
        c = cards[t]
        out[t] = 0 <= c < 64 and (legal[t] >> np.uint64(c)) & ONE == ONE
    return out


@njit(cache=True)
def pick_nth_true(allowed: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Per row of a boolean [n, m] array, the floor(u * count)-th True column (uniform choice); -1 if none."""
    n, m = allowed.shape
    out = np.full(n, -1, dtype=np.int64)
    for t in range(n):
        count = 0
        for j in range(m):
            count += allowed[t, j]
        k = int(u[t] * count)
        for j in range(m):
            if allowed[t, j]:
                if k == 0:
                    out[t] = j
                    break
                k -= 1
    return out


@njit(cache=True)
def apply_draft(
    keep: np.ndarray, actor: np.ndarray, turn: int, stock: np.ndarray, hands: np.ndarray, discards: np.ndarray
) -> None:
    """Duel turn: keep the top card and discard the next, or discard the top and take the next."""
    for t in range(keep.shape[0]):
        top, nxt = stock[t, 2 * turn], stock[t, 2 * turn + 1]
        taken, dropped = (top, nxt) if keep[t] else (nxt, top)
        hands[t, actor[t]] |= BIT[taken]
        discards[t, actor[t]] |= BIT[dropped]


@njit(cache=True)
def own_entries(per_seat: np.ndarray, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """per_seat[rows[t], seat[t]] for each t (rows empty: row t): a seat's own cards, for its view."""
    n = seat.shape[0]
    out = np.empty(n, dtype=per_seat.dtype)
    if rows.shape[0] == 0:
        for t in range(n):
            out[t] = per_seat[t, seat[t]]
    else:
        for t in range(n):
            out[t] = per_seat[rows[t], seat[t]]
    return out
