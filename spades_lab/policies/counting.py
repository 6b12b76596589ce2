"""The cheat sheet's trick-counting bid and nil rule (HEURISTICS.md sections 1 and 2).

Each rule exists twice: a plain-Python scalar version that reads like the sheet, for
people checking one hand, and a numpy batch version over uint64 hand masks, for
simulating millions of deals. Both read their numbers from the same frozen dataclass and
add the terms in the same order, so they agree exactly (a property test checks it).

Cards are found by label through the deck (`deck.index`, `deck.suit_masks`) rather than
by id arithmetic, so a variant deck only changes which block a card sits in: the side
suits are blocks 0-2 and the trump block is `TRUMP`. Honours are the printed A/K/Q of a
suit; in the jokers-and-deuces deck the jokers and promoted deuces count as spade length
only, a reading the sheet does not settle.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

import numpy as np

from spades_lab.cards import RANKS, STANDARD_DECK, SUITS, TRUMP, Deck, parse_cards

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


# --- scalar versions -------------------------------------------------------------------


def _suits(labels: list[str], deck: Deck) -> list[list[str]]:
    """Labels grouped by the deck's suit block (so a promoted 2C counts as a spade)."""
    by_suit: list[list[str]] = [[], [], [], []]
    for label in labels:
        by_suit[deck.suit(label)].append(label)
    return by_suit


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

    Any `CountParams` field may be given as a keyword (`count_tricks(h, void_value=0.5)`).
    """
    p = replace(params, **overrides) if overrides else params
    by_suit = _suits(parse_cards(hand), deck)
    spades = len(by_suit[TRUMP])
    trumps = set(by_suit[TRUMP])
    count = 0.0
    if "AS" in trumps:
        count += p.ace_spade
    if "KS" in trumps:
        count += p.singleton_king_spade if spades == 1 else p.king_spade
    if "QS" in trumps and spades - 1 >= p.queen_spade_min_others:
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

    `count` defaults to `count_tricks(hand, count_params)`.
    """
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


def _has(hands: np.ndarray, deck: Deck, label: str) -> np.ndarray:
    """Whether each hand holds `label` (all False if the deck lacks it)."""
    card_id = deck.index.get(label)
    if card_id is None:
        return np.zeros(hands.shape, dtype=bool)
    return (hands & np.uint64(1 << card_id)) != 0


def _lengths(hands: np.ndarray, deck: Deck) -> list[np.ndarray]:
    return [np.bitwise_count(hands & deck.suit_masks[s]).astype(np.int64) for s in range(4)]


def count_tricks_batch(
    hands: np.ndarray, params: CountParams = DEFAULT_COUNT, deck: Deck = STANDARD_DECK
) -> np.ndarray:
    """`count_tricks` over a uint64 array of hand masks of any shape; float64 counts, same shape."""
    p = params
    hands = np.asarray(hands, dtype=np.uint64)
    lengths = _lengths(hands, deck)
    spades = lengths[TRUMP]
    count = np.zeros(hands.shape, dtype=np.float64)
    count += np.where(_has(hands, deck, "AS"), p.ace_spade, 0.0)
    king_value = np.where(spades == 1, p.singleton_king_spade, p.king_spade)
    count += np.where(_has(hands, deck, "KS"), king_value, 0.0)
    count += np.where(_has(hands, deck, "QS") & (spades - 1 >= p.queen_spade_min_others), p.queen_spade, 0.0)
    count += p.spade_length_value * np.maximum(spades - p.spade_length_from, 0)
    void_value = np.where(
        spades >= p.void_min_spades,
        p.void_value,
        np.where(spades >= p.singleton_min_spades, p.void_with_three_spades, 0.0),
    )
    singleton_value = np.where(spades >= p.singleton_min_spades, p.singleton_value, 0.0)
    for s in SIDE_SUITS:
        length = lengths[s]
        ace, king, queen = (_has(hands, deck, r + SUITS[s]) for r in "AKQ")
        count += np.where(ace, p.side_ace, 0.0)
        count += np.where(king, np.where(length == 1, p.side_singleton_king, p.side_king), 0.0)
        count += np.where(queen, np.where(ace | king, p.side_queen, p.side_queen_alone), 0.0)
        count += np.where(length == 0, void_value, np.where(length == 1, singleton_value, 0.0))
    return count


def nil_ok_batch(
    hands: np.ndarray, counts: np.ndarray, params: NilParams = DEFAULT_NIL, deck: Deck = STANDARD_DECK
) -> np.ndarray:
    """`nil_ok` over a uint64 array of hand masks, given their counts; bool array of the same shape."""
    hands = np.asarray(hands, dtype=np.uint64)
    lengths = _lengths(hands, deck)
    ok = ~np.logical_or.reduce([_has(hands, deck, "A" + suit) for suit in SUITS])
    for suit in SUITS:
        label = "K" + suit
        if label in deck.index:
            ok &= ~(_has(hands, deck, label) & (lengths[deck.suit(label)] == 1))
    trump_ids = np.flatnonzero(deck.suit_of == TRUMP)
    highest = deck.card_id(params.highest_spade + SUITS[TRUMP])
    too_high = sum((1 << int(i) for i in trump_ids if i > highest), 0)
    ok &= (lengths[TRUMP] <= params.max_spades) & ((hands & np.uint64(too_high)) == 0)
    weak_top = RANKS.index(params.weak_suit_highest)
    long_weak = np.zeros(hands.shape, dtype=np.int64)
    for s in SIDE_SUITS:
        weak = sum((1 << deck.index[label] for r in RANKS[: weak_top + 1] if (label := r + SUITS[s]) in deck.index), 0)
        strong = int(deck.suit_masks[s]) & ~weak
        long_weak += (lengths[s] >= params.long_suit_min_length) & ((hands & np.uint64(strong)) == 0)
    return ok & (np.asarray(counts, dtype=np.float64) - params.long_weak_suit_credit * long_weak < params.count_threshold)
