"""The cheat sheet's trick-counting bid and nil rule (HEURISTICS.md sections 1 and 2).

Each rule exists twice: a plain-Python scalar version that reads like the sheet, for
people checking one hand, and a compiled batch version over uint64 hand masks, for
simulating millions of deals. Both read their numbers from the same frozen dataclass and
add the terms in the same order, so they agree exactly (a property test checks it).

Cards are found by label through the deck (`deck.index`, `deck.suit_masks`) rather than
by id arithmetic, so a variant deck only changes which block a card sits in: the side
suits are blocks 0-2 and the trump block is `TRUMP`. Honours are the printed A/K/Q of a
suit. The sheet's spade honours are read by place in the trump order (`deck_aware`, on by
default): in the jokers-and-deuces deck BJ, LJ and the promoted deuce are the sure tricks the
sheet's AS, KS and QS are, and with 16 trumps the spade-count thresholds rise by one (a hand then
holds four trumps on average). Without it four counting bidders bid 15.3 tricks a hand in the
jokers deck and are set so often that games do not reach the target.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from spades_lab.cards import RANKS, STANDARD_DECK, SUITS, TRUMP, Deck, parse_cards
from spades_lab.engine.bits import popcount
from spades_lab.engine.trick import SuitMasks
from spades_lab.names import did_you_mean
from spades_lab.policies.params import check_choices, check_ranges

SIDE_SUITS = tuple(s for s in range(4) if s != TRUMP)


@dataclass(frozen=True)
class CountParams:
    """Every number of HEURISTICS.md section 1, defaulting to the sheet's value."""

    ace_spade: float = 1.0
    king_spade: float = 1.0
    singleton_king_spade: float = 0.5  # the king is the only spade held
    queen_spade: float = 1.0
    queen_spade_min_others: int = 2  # other spades needed to guard the queen
    spade_length_from: int = 3  # +spade_length_value for every spade beyond this many
    spade_length_value: float = 1.0
    side_ace: float = 1.0
    side_king: float = 1.0  # the king has at least one other card of its suit
    side_singleton_king: float = 0.5
    side_queen: float = 1.0  # the ace or the king of the same suit is also held
    side_queen_alone: float = 0.0
    void_value: float = 1.0  # per side-suit void, with at least void_min_spades spades
    void_min_spades: int = 4
    # A void held with fewer than void_min_spades but at least singleton_min_spades spades
    # (exactly three at the defaults): a void is never worth less than a singleton.
    void_with_three_spades: float = 0.5
    singleton_value: float = 0.5  # per side-suit singleton, with at least singleton_min_spades spades
    singleton_min_spades: int = 3
    deck_aware: bool = True
    """Jokers decks: the deck's three strongest trumps take the places of AS, KS and QS, and every spade-count threshold (length, void, singleton) rises by the deck's extra trumps per hand; off reads the sheet literally."""


@dataclass(frozen=True)
class NilParams:
    """The nil rule of HEURISTICS.md section 2.

    `long_weak_suit_credit` is the sheet's "long weak side suits help" ("five small hearts
    discard easily"): each side suit of at least `long_suit_min_length` cards none higher
    than `weak_suit_highest` lowers the count by this much before it is compared with
    `count_threshold`. The default 0 leaves the rule exactly as the sheet states it.
    """

    max_spades: int = 3
    highest_spade: str = "6"  # rank of the highest spade allowed (6S passes, 7S fails)
    count_threshold: float = 2.0  # nil needs count < threshold
    long_weak_suit_credit: float = 0.0
    long_suit_min_length: int = 5
    weak_suit_highest: str = "9"


DEFAULT_COUNT = CountParams()
DEFAULT_NIL = NilParams()

TRICKS = 13
"""A trick value or a count is at most a hand's tricks either way."""
COUNT_RANGES = tuple(
    (f.name, -TRICKS, TRICKS) if f.type == "float" else (f.name, 0, TRICKS)
    for f in fields(CountParams)
    if f.type in ("float", "int")
)
"""(field, low, high) of every CountParams number: its values -13..13, its spade-count thresholds 0..13."""
NIL_RANGES = (
    ("max_spades", 0, TRICKS), ("count_threshold", -2 * TRICKS, 2 * TRICKS), ("long_weak_suit_credit", 0, TRICKS),
    ("long_suit_min_length", 0, TRICKS),
)  # fmt: skip
"""(field, low, high) of every NilParams number; a threshold on a count may reach twice a hand's tricks."""
NIL_CHOICES = (("highest_spade", tuple(RANKS)), ("weak_suit_highest", tuple(RANKS)))


def check_count(p: CountParams, where: str = "count_tricks") -> None:
    """Refuse a count number outside its range (docs/strategies.md), by field, before any hand is counted."""
    check_ranges(where, p, COUNT_RANGES)
    if not isinstance(p.deck_aware, bool):
        raise ValueError(f"{where}: deck_aware must be True or False, got {p.deck_aware!r}")


def check_nil(p: NilParams, where: str = "nil_ok") -> None:
    """Refuse a nil number outside its range or a rank that is not one (`Z` would fail only at the first hand)."""
    check_ranges(where, p, NIL_RANGES)
    check_choices(where, p, NIL_CHOICES)


def checked_count(params: CountParams, overrides: dict[str, Any]) -> CountParams:
    """`params` with `overrides`, refused (by field, with what is allowed) unless every field exists and every
    number is in its range: a typo must not silently count the sheet's default or a value of -99."""
    names = [f.name for f in fields(CountParams)]
    unknown = [k for k in overrides if k not in names]
    if unknown:
        raise ValueError(
            f"count_tricks: no parameter {unknown[0]!r}{did_you_mean(unknown[0], names)}; its parameters: {', '.join(names)}"
        )
    p = replace(params, **overrides) if overrides else params
    if p is not DEFAULT_COUNT:
        check_count(p)
    return p


# --- scalar versions -------------------------------------------------------------------


def _suits(labels: list[str], deck: Deck) -> list[list[str]]:
    """Labels grouped by the deck's suit block (so a promoted 2C counts as a spade)."""
    by_suit: list[list[str]] = [[], [], [], []]
    for label in labels:
        by_suit[deck.suit(label)].append(label)
    return by_suit


def top_trumps(deck: Deck) -> tuple[str, str, str]:
    """The deck's three strongest trumps, which the count treats as the sheet treats AS, KS and QS.

    The sheet's spade honours are sure tricks because nothing outranks them; in the jokers deck BJ
    and LJ are the sure tricks and 2C the third, while AS and KS are only the fifth and sixth trumps
    (plain spade length). Standard deck: AS, KS, QS.
    """
    return deck.cards[51], deck.cards[50], deck.cards[49]


def trump_shift(deck: Deck) -> int:
    """How many more trumps than the standard deck's share (3 of 13) an average hand holds.

    The sheet's thresholds (a spade beyond the third is a trick, shortness needs three or four
    spades) are set for 13 trumps, about 3 per hand. With 16 trumps a hand holds 4 on average, so
    the fourth trump is ordinary length, not an extra trick: 0 in the standard deck, 1 with jokers.
    """
    trumps = int(np.count_nonzero(deck.suit_of == TRUMP))
    return trumps // 4 - 13 // 4


def _deck_params(p: CountParams, deck: Deck) -> tuple[CountParams, tuple[str, str, str]]:
    """The params and trump honours the count uses in this deck (see `deck_aware`)."""
    if not p.deck_aware:
        return p, ("AS", "KS", "QS")
    shift = trump_shift(deck)
    if shift:
        p = replace(
            p, spade_length_from=p.spade_length_from + shift, void_min_spades=p.void_min_spades + shift,
            singleton_min_spades=p.singleton_min_spades + shift,
        )  # fmt: skip
    return p, top_trumps(deck)


def _shortness(length: int, spades: int, p: CountParams) -> float:
    """Value of one side suit's shortness: it needs trumps to ruff with."""
    if length == 0:
        if spades >= p.void_min_spades:
            return p.void_value
        return p.void_with_three_spades if spades >= p.singleton_min_spades else 0.0
    if length == 1 and spades >= p.singleton_min_spades:
        return p.singleton_value
    return 0.0


def count_tricks(
    hand: str | Iterable[str], params: CountParams = DEFAULT_COUNT, *, deck: Deck = STANDARD_DECK, **overrides: float
) -> float:
    """The section 1 count, halves included, before rounding down and before the 'at least 1' rule.

    Any `CountParams` field may be given as a keyword (`count_tricks(h, void_value=0.5)`); an unknown one or
    a number outside its range (docs/strategies.md) is a ValueError naming it.
    """
    p, (first, second, third) = _deck_params(checked_count(params, overrides), deck)
    by_suit = _suits(parse_cards(hand), deck)
    spades = len(by_suit[TRUMP])
    trumps = set(by_suit[TRUMP])
    count = 0.0
    if first in trumps:
        count += p.ace_spade
    if second in trumps:
        count += p.singleton_king_spade if spades == 1 else p.king_spade
    if third in trumps and spades - 1 >= p.queen_spade_min_others:
        count += p.queen_spade
    count += p.spade_length_value * max(spades - p.spade_length_from, 0)
    for s in SIDE_SUITS:
        cards = set(by_suit[s])
        ace, king, queen = (r + SUITS[s] in cards for r in "AKQ")
        if ace:
            count += p.side_ace
        if king:
            count += p.side_singleton_king if len(cards) == 1 else p.side_king
        if queen:
            count += p.side_queen if ace or king else p.side_queen_alone
        count += _shortness(len(cards), spades, p)
    return count


def counting_bid(count: float) -> int:
    """The sheet's bid: round the count down, never below 1 (nil is decided separately) nor above 13."""
    return max(1, min(13, math.floor(count)))


def nil_ok(
    hand: str | Iterable[str],
    count: float | None = None,
    params: NilParams = DEFAULT_NIL,
    *,
    count_params: CountParams = DEFAULT_COUNT,
    deck: Deck = STANDARD_DECK,
) -> bool:
    """Section 2: no ace, no singleton king, few and low spades, and a count below the threshold.

    `count` defaults to `count_tricks(hand, count_params)`. A number of `params` outside its range, or a rank
    that is not one, is a ValueError naming it.
    """
    if params is not DEFAULT_NIL:
        check_nil(params)
    labels = parse_cards(hand)
    if count is None:
        count = count_tricks(labels, count_params, deck=deck)
    by_suit = _suits(labels, deck)
    if any(label[0] == "A" for label in labels):
        return False
    if any(len(cards) == 1 and cards[0][0] == "K" for cards in by_suit):
        return False
    spades = by_suit[TRUMP]
    highest = deck.card_id(params.highest_spade + SUITS[TRUMP])
    if len(spades) > params.max_spades or any(deck.card_id(c) > highest for c in spades):
        return False
    weak_top = RANKS.index(params.weak_suit_highest)
    long_weak = sum(
        1
        for s in SIDE_SUITS
        if len(by_suit[s]) >= params.long_suit_min_length
        and all(c[1] == SUITS[s] and RANKS.index(c[0]) <= weak_top for c in by_suit[s])
    )
    return count - params.long_weak_suit_credit * long_weak < params.count_threshold


# --- batch versions --------------------------------------------------------------------
# Compiled loops over the hands, because the bidder runs them four times per simulated hand.
# The deck and the parameters become plain numbers first (`_count_numbers`, `_nil_numbers`):
# card masks found by label, as above, so a variant deck works the same way.


def _label_bit(deck: Deck, label: str) -> int:
    """Mask of `label` in `deck`; 0 if the deck lacks it."""
    card_id = deck.index.get(label)
    return 0 if card_id is None else 1 << card_id


@lru_cache(maxsize=32)
def _count_numbers(params: CountParams, deck: Deck) -> tuple[Any, ...]:
    check_count(params, "count_tricks_batch")  # once per params and deck: the numbers are cached
    p, honours = _deck_params(params, deck)
    suits = tuple(np.uint64(m) for m in deck.suit_masks)
    spade_honours = tuple(np.uint64(_label_bit(deck, label)) for label in honours)
    side_honours = tuple(np.uint64(_label_bit(deck, r + SUITS[s])) for s in SIDE_SUITS for r in "AKQ")
    values = tuple(
        float(v)
        for v in (
            p.ace_spade, p.king_spade, p.singleton_king_spade, p.queen_spade, p.spade_length_value,
            p.side_ace, p.side_king, p.side_singleton_king, p.side_queen, p.side_queen_alone,
            p.void_value, p.void_with_three_spades, p.singleton_value,
        )
    )  # fmt: skip
    sizes = (p.queen_spade_min_others, p.spade_length_from, p.void_min_spades, p.singleton_min_spades)
    return suits, spade_honours, side_honours, values, tuple(int(v) for v in sizes)


@njit(cache=True, inline="always")
def _cards(x: np.uint64) -> int:
    """How many cards a mask holds, as a signed int (bits.popcount returns uint64 in compiled code)."""
    return np.int64(popcount(x))  # type: ignore[return-value]  # an int in compiled code


@njit(cache=True)
def _count_kernel(
    hands: np.ndarray,
    suits: SuitMasks,
    spade_honours: tuple[Any, ...],
    side_honours: tuple[Any, ...],
    values: tuple[Any, ...],
    sizes: tuple[Any, ...],
) -> np.ndarray:
    """`count_tricks` per hand, the terms in the scalar version's order (so sums agree to the bit)."""
    (ace_spade, king_spade, singleton_king_spade, queen_spade, length_value, side_ace, side_king,
     side_singleton_king, side_queen, side_queen_alone, void_value, void_three, singleton_value) = values  # fmt: skip
    queen_min_others, length_from, void_min_spades, singleton_min_spades = sizes
    out = np.empty(hands.shape[0], dtype=np.float64)
    for t in range(hands.shape[0]):
        hand = hands[t]
        spades = _cards(hand & suits[3])
        count = 0.0
        if hand & spade_honours[0] != 0:
            count += ace_spade
        if hand & spade_honours[1] != 0:
            count += singleton_king_spade if spades == 1 else king_spade
        if hand & spade_honours[2] != 0 and spades - 1 >= queen_min_others:
            count += queen_spade
        count += length_value * max(spades - length_from, 0)
        void = void_value if spades >= void_min_spades else (void_three if spades >= singleton_min_spades else 0.0)
        singleton = singleton_value if spades >= singleton_min_spades else 0.0
        for s in range(3):
            length = _cards(hand & suits[s])
            ace = hand & side_honours[3 * s] != 0
            king = hand & side_honours[3 * s + 1] != 0
            if ace:
                count += side_ace
            if king:
                count += side_singleton_king if length == 1 else side_king
            if hand & side_honours[3 * s + 2] != 0:
                count += side_queen if ace or king else side_queen_alone
            if length == 0:
                count += void
            elif length == 1:
                count += singleton
        out[t] = count
    return out


def count_tricks_batch(
    hands: np.ndarray, params: CountParams = DEFAULT_COUNT, deck: Deck = STANDARD_DECK
) -> np.ndarray:
    """`count_tricks` over a uint64 array of hand masks of any shape; float64 counts, same shape. Checks
    `params` as `count_tricks` does."""
    hands = np.asarray(hands, dtype=np.uint64)
    flat = np.ascontiguousarray(hands.ravel())
    return _count_kernel(flat, *_count_numbers(params, deck)).reshape(hands.shape)


class NilNumbers(NamedTuple):
    """The nil rule's parameters on one deck, as the compiled check reads them: card masks found by label."""

    suits: SuitMasks
    aces: np.uint64
    kings: tuple[np.uint64, ...]
    king_suits: tuple[np.uint64, ...]
    """The suit of each king (0 where the deck lacks that king)."""
    too_high: np.uint64
    """Spades above `highest_spade`."""
    strong: tuple[np.uint64, ...]
    """Per side suit, the cards above `weak_suit_highest`."""
    max_spades: int
    long_suit: int
    credit: float
    threshold: float


@lru_cache(maxsize=32)
def _nil_numbers(params: NilParams, deck: Deck) -> NilNumbers:
    check_nil(params, "nil_ok_batch")
    suits = tuple(np.uint64(m) for m in deck.suit_masks)
    aces = sum(_label_bit(deck, "A" + suit) for suit in SUITS)
    kings = tuple(np.uint64(_label_bit(deck, "K" + suit)) for suit in SUITS)
    king_suits = tuple(
        np.uint64(deck.suit_masks[deck.suit("K" + suit)] if "K" + suit in deck.index else 0) for suit in SUITS
    )
    trump_ids = np.flatnonzero(deck.suit_of == TRUMP)
    highest = deck.card_id(params.highest_spade + SUITS[TRUMP])
    too_high = sum((1 << int(i) for i in trump_ids if i > highest), 0)
    weak_top = RANKS.index(params.weak_suit_highest)
    strong = []
    for s in SIDE_SUITS:
        weak = sum(_label_bit(deck, r + SUITS[s]) for r in RANKS[: weak_top + 1])
        strong.append(np.uint64(int(deck.suit_masks[s]) & ~weak))
    return NilNumbers(
        suits, np.uint64(aces), kings, king_suits, np.uint64(too_high), tuple(strong), params.max_spades,
        params.long_suit_min_length, float(params.long_weak_suit_credit), float(params.count_threshold),
    )  # fmt: skip


@njit(cache=True)
def _nil_kernel(hands: np.ndarray, counts: np.ndarray, n: NilNumbers) -> np.ndarray:
    """`nil_ok` per hand, given its count."""
    suits, aces, kings, king_suits, too_high, strong = n.suits, n.aces, n.kings, n.king_suits, n.too_high, n.strong
    max_spades, long_suit, credit, threshold = n.max_spades, n.long_suit, n.credit, n.threshold
    out = np.empty(hands.shape[0], dtype=np.bool_)
    for t in range(hands.shape[0]):
        hand = hands[t]
        ok = hand & aces == 0 and hand & too_high == 0 and _cards(hand & suits[3]) <= max_spades
        for k in range(4):
            if hand & kings[k] != 0 and _cards(hand & king_suits[k]) == 1:
                ok = False
        long_weak = 0
        for s in range(3):
            if _cards(hand & suits[s]) >= long_suit and hand & strong[s] == 0:
                long_weak += 1
        out[t] = ok and counts[t] - credit * long_weak < threshold
    return out


def nil_ok_batch(
    hands: np.ndarray, counts: np.ndarray, params: NilParams = DEFAULT_NIL, deck: Deck = STANDARD_DECK
) -> np.ndarray:
    """`nil_ok` over a uint64 array of hand masks, given their counts; bool array of the same shape. Checks
    `params` as `nil_ok` does."""
    hands = np.asarray(hands, dtype=np.uint64)
    flat = np.ascontiguousarray(hands.ravel())
    flat_counts = np.ascontiguousarray(np.broadcast_to(np.asarray(counts, dtype=np.float64), hands.shape).ravel())
    return _nil_kernel(flat, flat_counts, _nil_numbers(params, deck)).reshape(hands.shape)
