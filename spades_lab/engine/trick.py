"""The rules of a trick and of a side's contract, written once for every caller.

Every question the engine, the observations, the policies, the environments and the experiments
ask about a trick is answered here: which cards a seat may play, which card beats which, which
cards would take the trick now and whether the card holding it is a master, where a seat sits
relative to the acting seat, and how many tricks count toward a side's contract and how many it
still needs, under the rules' nil fields exactly as `spades_lab.engine.scoring` counts them.

The functions are compiled scalars (numba, inlined where they are called from compiled code), so
a kernel pays no call for them, and numpy code calls them through the batch forms at the bottom.
A deck is passed as its four suit masks (`suits`: clubs, diamonds, hearts, trumps), an array or a
tuple: because the deck puts the trump block on the highest ids and orders each block by strength,
a card beats another of its suit when its id is higher, and a trump beats every side card.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from spades_lab.engine.bits import ONE, ZERO, popcount

TRUMP = 3
"""The trump block's suit index in `suits`."""

SuitMasks = tuple[np.uint64, ...]
"""A deck's four suit masks as compiled policies receive them (clubs, diamonds, hearts, trumps)."""

FIRST_TRICK_FREE, FIRST_TRICK_TWO_OF_CLUBS, FIRST_TRICK_LOWEST_CLUBS = 0, 1, 2
"""First-trick rules: none, the holder of the two of clubs leads it, every seat plays its lowest club."""


# --- cards and suits ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def bit(card: int) -> np.uint64:
    """Mask of one card; empty for -1 (no card)."""
    return ONE << np.uint64(card) if card >= 0 else ZERO


@njit(cache=True, inline="always")
def above(card: int) -> np.uint64:
    """Every card id above `card` (stronger within its suit block, or in a block above it)."""
    return ZERO if card >= 63 else ~((ONE << np.uint64(card + 1)) - ONE)


@njit(cache=True, inline="always")
def suit(card: int, suits: Any) -> int:
    """The suit (0 clubs, 1 diamonds, 2 hearts, 3 trumps) of a card id."""
    b = ONE << np.uint64(card)
    if b & suits[0] != ZERO:
        return 0
    if b & suits[1] != ZERO:
        return 1
    if b & suits[2] != ZERO:
        return 2
    return TRUMP


@njit(cache=True, inline="always")
def suit_mask(card: int, suits: Any) -> np.uint64:
    """The mask of the whole suit `card` belongs to (selects, no branch: it runs inside every kernel)."""
    b = ONE << np.uint64(card)
    m = suits[3]
    m = suits[2] if b & suits[2] != ZERO else m
    m = suits[1] if b & suits[1] != ZERO else m
    return suits[0] if b & suits[0] != ZERO else m  # type: ignore[no-any-return]  # numba scalars


# --- legal plays -------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def legal_plays(
    hand: np.uint64, lead: bool, led_suit: int, broken: bool, suits: Any, first_trick: int, two_of_clubs: int
) -> np.uint64:
    """The cards a seat holding `hand` may play: follow suit if you can; no trump lead before trumps
    are broken unless only trumps remain. `first_trick` (on trick 0 only) makes the holder of the two
    of clubs lead it, or every seat play its lowest club (any card without a club)."""
    if first_trick == FIRST_TRICK_LOWEST_CLUBS:
        clubs = hand & suits[0]
        return (clubs & (~clubs + ONE)) if clubs != ZERO else hand
    if lead and first_trick == FIRST_TRICK_TWO_OF_CLUBS:
        return ONE << np.uint64(two_of_clubs)
    if lead:
        side = hand & ~suits[TRUMP]
        return side if (side != ZERO and not broken) else hand
    follow = hand & suits[led_suit]
    return follow if follow != ZERO else hand


# --- who holds the trick -----------------------------------------------------------------------


@njit(cache=True, inline="always")
def beaters(best: int, suits: Any) -> np.uint64:
    """Every card that would take the trick from `best` (every card when nothing is played: -1)."""
    if best < 0:
        return ~ZERO
    held = suit_mask(best, suits)
    higher = above(best) & held
    return higher if held == suits[TRUMP] else higher | suits[TRUMP]


@njit(cache=True, inline="always")
def takes(card: int, suit: int, best: int, best_suit: int) -> bool:
    """Whether `card` (of suit `suit`) takes the trick from `best` (of `best_suit`): a higher card of the
    holder's suit, or a trump over a side card. The form for callers that know the suits already."""
    if suit == best_suit:
        return card > best
    return suit == TRUMP


@njit(cache=True, inline="always")
def beats(card: int, best: int, suits: Any) -> bool:
    """Whether `card` takes the trick from `best` (-1: nothing played yet): `takes`, with the suits read
    from the masks."""
    if best < 0:
        return True
    b = ONE << np.uint64(card)
    if b & suit_mask(best, suits) != ZERO:  # the holder's suit: the higher card
        return card > best
    return b & suits[TRUMP] != ZERO  # type: ignore[no-any-return]  # another suit: only a trump, over a side card


@njit(cache=True, inline="always")
def winners(cards: np.uint64, best: int, suits: Any) -> np.uint64:
    """The cards of `cards` that would take the trick from `best` (all of them when leading)."""
    return cards & beaters(best, suits)


@njit(cache=True)
def holder(cards: np.ndarray, suits: Any) -> int:
    """The card holding a trick of `cards` in play order (-1 entries skipped; -1 for none)."""
    best = -1
    for card in cards:
        if card >= 0 and beats(card, best, suits):
            best = card
    return best


@njit(cache=True, inline="always")
def is_master(best: int, unseen: np.uint64, suits: Any) -> bool:
    """Whether no card in `unseen` (cards the seat cannot see) beats `best`; False when nothing is played."""
    return best >= 0 and beaters(best, suits) & unseen == ZERO


@njit(cache=True, inline="always")
def unseen_above(card: int, unseen: np.uint64, suits: Any) -> int:
    """How many unseen cards of its own suit outrank `card` (0: a master of its suit)."""
    return popcount(unseen & suit_mask(card, suits) & above(card))


# --- seats -------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def relative(seat: int, me: int, players: int) -> int:
    """Where `seat` sits from `me`: 0 me, 1 left (plays next), 2 partner (across), 3 right; -1 stays -1."""
    if seat < 0:
        return -1
    rel = seat - me
    return rel + players if rel < 0 else rel  # no division: this runs for every seat of every observation


@njit(cache=True, inline="always")
def absolute(rel: int, me: int, players: int) -> int:
    """The seat at relative place `rel` (0 <= rel < players) from `me`."""
    seat = me + rel
    return seat - players if seat >= players else seat


# --- a side's contract -------------------------------------------------------------------------


@njit(cache=True, inline="always")
def is_nil(bid: int, plain_zero: bool) -> bool:
    """A bid of 0 is nil unless the rules make it a plain zero (`zero_bid = "plain"`)."""
    return bid == 0 and not plain_zero


@njit(cache=True, inline="always")
def contract_tricks(contract: int, nil_won: int, bid_won: int, plain_zero: bool, to_partner: bool) -> int:
    """Tricks that count toward a side's contract, as the scorer counts them, from the side's number
    bids added up (`contract`), its nil bidders' tricks (`nil_won`) and its other seats' (`bid_won`):
    the number bidders' tricks; with `nil_tricks_to_partner` every trick of a side that has a contract
    (a side of nil bidders only has none, and its nil tricks count toward nothing)."""
    if not to_partner:
        return bid_won
    return nil_won + bid_won if (plain_zero or contract > 0) else 0


@njit(cache=True, inline="always")
def tricks_needed(contract: int, nil_won: int, bid_won: int, plain_zero: bool, to_partner: bool) -> int:
    """Tricks a side still needs for its contract (0 once made, and for a side without contract)."""
    return max(contract - contract_tricks(contract, nil_won, bid_won, plain_zero, to_partner), 0)


# --- batch forms for numpy code ----------------------------------------------------------------


@njit(cache=True)
def beaters_of(best: np.ndarray, suits: np.ndarray) -> np.ndarray:
    """`beaters` of each card of an array (-1 entries: every card)."""
    out = np.empty(best.shape[0], dtype=np.uint64)
    for t in range(best.shape[0]):
        out[t] = beaters(best[t], suits)
    return out


@njit(cache=True)
def needed_of(
    bids: np.ndarray, won: np.ndarray, sides: int, plain_zero: bool, to_partner: bool
) -> np.ndarray:  # fmt: skip
    """[n, sides] `tricks_needed` per table and side from [n, seats] bids (-1: not yet) and tricks; seats
    in any common origin, side k holding every seat s with s % sides == k."""
    n, players = bids.shape
    out = np.zeros((n, sides), dtype=np.int64)
    for t in range(n):
        for side in range(sides):
            contract, nil_won, bid_won = 0, 0, 0
            for s in range(side, players, sides):
                contract += max(bids[t, s], 0)
                if is_nil(bids[t, s], plain_zero):
                    nil_won += won[t, s]
                else:
                    bid_won += won[t, s]
            out[t, side] = tricks_needed(contract, nil_won, bid_won, plain_zero, to_partner)
    return out


def needed_for(rules: Any, bids: np.ndarray, won: np.ndarray) -> np.ndarray:
    """`needed_of` under a `Rules` object's nil fields."""
    return needed_of(
        np.ascontiguousarray(bids, dtype=np.int64), np.ascontiguousarray(won, dtype=np.int64), rules.sides,
        rules.zero_bid == "plain", bool(rules.nil_tricks_to_partner),
    )  # fmt: skip
