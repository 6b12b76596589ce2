"""Bidding policies from the cheat sheet: the counting bidder and its shifted baselines.

`counting` is HEURISTICS.md sections 1 to 3: count the hand (section 1), bid nil when the
section 2 rule allows it, and round a borderline count up when the side is about to pay for its
tenth bag (section 3). Each of the three is a switch, so a researcher can measure what each one
is worth; all are on by default, which makes `counting` the full expert bidder. `optimist` and
`cautious` are the section 7 baselines: the same bidder, one trick more or one trick less.

Section 4 (blind nil) is the bidder's `blind` decision: a comeback tool, declared only when the
side trails by `blind_nil_trail` points or more; the engine asks only where the rules allow a
blind nil, and the card exchange that follows is the exchange policy's job (`high` by default: the
partner passes its lowest cards, the nil bidder its highest spades, aces and kings).

Every number of the count and of the nil rule is a parameter too (`counting(void_value=0.5)`,
`counting(nil_highest_spade=7)`): the parameter classes are built from `CountParams` and
`NilParams`, so the two can never disagree about what exists or what the default is.
"""

from __future__ import annotations

from dataclasses import field, fields, make_dataclass, replace
from typing import Any

import numpy as np

from spades_lab.cards import RANKS, TRUMP
from spades_lab.engine import BidView
from spades_lab.engine.scoring import deficit
from spades_lab.engine.views import BlindView
from spades_lab.policies.counting import (
    COUNT_RANGES,
    NIL_CHOICES,
    NIL_RANGES,
    TRICKS,
    CountParams,
    NilParams,
    count_tricks_batch,
    nil_ok_batch,
)
from spades_lab.policies.draft import most, pass_orders
from spades_lab.policies.params import CheckedParams
from spades_lab.rules import MAX_BAG_THRESHOLD, MAX_SCORE

NIL_PREFIX = "nil_"
"""NilParams fields appear with this prefix (`nil_max_spades`), so they read as part of the nil rule."""

_SWITCHES: list[tuple[str, str, Any]] = [
    # name, type, default
    ("nil", "bool", True),  # section 2: bid nil when the hand passes the nil rule
    ("bag_aware", "bool", True),  # section 3: round a borderline count up just before a bag penalty
    ("margin", "int", 1),  # section 3: at most this many bags short of the next penalty (1: at 9 of 10)
    ("borderline", "float", 0.5),  # section 3: a count whose fractional part is at least this is borderline
    ("shift", "int", 0),  # tricks added to every numeric bid: +1 optimist, -1 cautious
    ("nil_beside_nil", "bool", False),  # bid nil even when partner already bid nil (nobody left to cover)
    ("pass_aware_nil", "bool", True),  # nil_exchange: judge the nil on the hand left after passing its worst cards
    ("blind_nil", "bool", True),  # section 4: declare blind nil as a comeback, where the rules allow it
    ("blind_nil_trail", "int", 200),  # section 4: points the side must trail by
    ("suicide_nil_below", "float", 4.0),  # suicide: the side's first bidder takes the nil below this nil danger
    ("suicide_spade_length", "float", 1.0),  # suicide: nil danger added per spade beyond the nil rule's max_spades
    ("suicide_sure_trick", "bool", True),  # suicide: a first bidder holding the top trump bids the number
]


def counting_fields(shift: int = 0, count: bool = True) -> list[tuple[str, str, Any]]:
    """The bidder's parameter fields: the switches, then (`count`) every CountParams number, then every NilParams
    number; a bidder with a count of its own (`calibrated`) leaves the CountParams numbers out."""
    switches = [(name, kind, field(default=shift if name == "shift" else default)) for name, kind, default in _SWITCHES]
    numbers = [(f.name, str(f.type), field(default=f.default)) for f in fields(CountParams)] if count else []
    nil = [(NIL_PREFIX + f.name, str(f.type), field(default=f.default)) for f in fields(NilParams)]
    return [*switches, *numbers, *nil]


RANGES: dict[str, tuple[float, float]] = {
    "margin": (0, MAX_BAG_THRESHOLD), "borderline": (0, 1), "shift": (-TRICKS, TRICKS),
    "blind_nil_trail": (-MAX_SCORE, MAX_SCORE),  # negative: declare blind nil even when ahead by that much
    "suicide_nil_below": (-2 * TRICKS, 2 * TRICKS), "suicide_spade_length": (0, TRICKS),
    **{name: (low, high) for name, low, high in COUNT_RANGES},  # the count's values and thresholds
    **{NIL_PREFIX + name: (low, high) for name, low, high in NIL_RANGES},  # the nil rule's numbers
    "dd_margin": (-TRICKS, TRICKS),  # calibrated's
}  # fmt: skip
"""Each number's documented range (docs/strategies.md), shared by every bidder built on the count; a threshold
on a count (which adds `suicide_spade_length` per long spade) may reach twice a hand's tricks."""
RANKED = tuple(NIL_PREFIX + name for name, _ in NIL_CHOICES)
"""Parameters that name a card rank."""


def bidder_params(name: str, policy: str, field_list: list[tuple[str, str, Any]]) -> type:
    """A frozen parameter class whose construction refuses a number outside its range or a rank that is not one,
    naming `policy` (a bad `nil_highest_spade` would otherwise fail only at the first bid, mid-run)."""
    names = {field_name for field_name, _, _ in field_list}
    namespace = {
        "POLICY": policy,
        "RANGES": tuple((n, *RANGES[n]) for n in RANGES if n in names),
        "CHOICES": tuple((n, tuple(RANKS)) for n in RANKED if n in names),
    }
    params = make_dataclass(name, field_list, bases=(CheckedParams,), frozen=True, namespace=namespace)
    params.__module__ = __name__
    return params


CountingParams = bidder_params("CountingParams", "counting bid", counting_fields(0))
CountingParams.__doc__ = (
    "Switches of sections 1-4, then every CountParams number, then every NilParams number (nil_...)."
)
OptimistParams = bidder_params("OptimistParams", "optimist bid", counting_fields(+1))
OptimistParams.__doc__ = "CountingParams with shift +1: the sheet's optimist, who 'sets his side one hand in three'."
CautiousParams = bidder_params("CautiousParams", "cautious bid", counting_fields(-1))
CautiousParams.__doc__ = "CountingParams with shift -1: the sheet's cautious bidder, who 'costs 100 points of bags'."


class CountingBidder:
    """The section 1 count rounded down (never below the smallest legal bid), nil by section 2, bag-aware by section 3.

    Order of the rules, for one seat:
    1. count the hand (halves included);
    2. bid = floor(count), plus one when `bag_aware` and the side's bags (modulo the penalty
       threshold) are within `margin` of the next penalty and the count's fractional part is at
       least `borderline`; a side whose rules have no bag penalty is never bag-aware;
    3. add `shift`, then take the nearest legal number (the lower one on a tie): a count below 1
       bids 1, as the sheet says, and side-contract limits of the rules are respected;
    4. if `nil` and the hand passes the nil rule (which reads the raw count, before any rounding
       or shift), bid nil instead, where nil is legal, unless partner already bid nil and
       `nil_beside_nil` is off: a double nil leaves no one to cover, and the sheet's nil advice
       assumes a covering partner. A seat with no legal number bids nil.
    The bidder does not look at partner's or the opponents' numeric bids: the sheet bids the hand.

    Blind nil (section 4, `blind`): declared when `blind_nil` is on and the side trails the other
    by at least `blind_nil_trail` points, unless partner has already bid nil (as for nil, with
    `nil_beside_nil` off). "A comeback tool, never a gamble": the hand is not seen, so nothing
    else enters the decision. In Duel there is no partner, and the rules have no blind nil.
    """

    def __init__(self, params: Any) -> None:
        self.params = params
        self.name = "counting"
        # a bidder without the count's numbers among its parameters (`calibrated`) keeps the sheet's for nil
        sheet = CountParams()
        self.count_params = replace(
            sheet, **{f.name: getattr(params, f.name, getattr(sheet, f.name)) for f in fields(CountParams)}
        )
        self.nil_params = NilParams(**{f.name: getattr(params, NIL_PREFIX + f.name) for f in fields(NilParams)})

    def bid(self, view: BidView) -> np.ndarray:
        hands = view.hand
        counts = count_tricks_batch(hands, self.count_params, view.deck)
        numbers = self.number_counts(view, counts)
        bids = np.floor(numbers)
        if self.params.bag_aware:
            bids += self._round_up_before_penalty(view, numbers)
        legal = view.legal_bids
        bids = nearest_legal(bids + self.params.shift, legal)
        if self.params.nil:
            nil = self._nil_ok(view, hands, counts)
            nil &= self._partner_not_nil(view) & legal[:, 0]
            bids[nil] = 0
        if view.rules.bid_rule == "suicide":
            bids[self._suicide_nil(view, counts)] = 0
        return bids

    def _nil_ok(self, view: BidView, hands: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """The nil rule on the hand as it will be played.

        Where the rules pass cards to a nil bidder (`nil_exchange`), a nil bidder passes back its most dangerous
        cards (its highest spades, then aces, kings, as the `high` exchange does), so with `pass_aware_nil` the
        rule reads the hand without them (and its count): a hand whose one or two high cards go back to partner
        is a nil. The cards partner passes in are its lowest, so they are taken to add no danger.
        """
        passed = view.rules.nil_exchange if self.params.pass_aware_nil else 0
        if passed:
            hands = hands & ~most(hands, pass_orders(view.deck)[1], passed)
            counts = count_tricks_batch(hands, self.count_params, view.deck)
        return nil_ok_batch(hands, counts, self.nil_params, view.deck)

    def number_counts(self, view: BidView, counts: np.ndarray) -> np.ndarray:
        """The count a number bid rounds down: the sheet's count here; `calibrated` puts its DD fit in its place.

        The nil and suicide rules keep reading the sheet's count (`counts`), whose scale their thresholds assume.
        """
        return counts

    def _suicide_nil(self, view: BidView, counts: np.ndarray) -> np.ndarray:
        """Suicide: the side's first bidder takes the nil unless its hand is the side's number hand.

        One of the pair must bid nil and the other at least 4, and the first bidder cannot see which
        hand is the better nil: it keeps the nil unless its own hand is a bad one. Its *nil danger*
        is its count plus `suicide_spade_length` per spade beyond the nil rule's `max_spades` (long
        spades are tricks the nil cannot shed, counted once more); below `suicide_nil_below` (4, the
        partner's minimum) it bids nil. The ace of spades (the deck's top trump) is a sure trick,
        so its holder never takes the nil (`suicide_sure_trick`). Measured (docs/variants.md): with the count alone, a nil
        held with the ace of spades or four spades failed at once or nearly, sides gained 4 points a
        hand and a game in a thousand never ended; with this rule about 12 and every game finished.
        (A second bidder's choice is forced either way.)
        """
        n = len(view)
        hands = view.hand
        deck = view.deck
        first = view.bids[np.arange(n), view.partner] < 0
        trumps = np.bitwise_count(hands & deck.suit_masks[TRUMP]).astype(np.int64)
        top_trump = np.uint64(1) << np.uint64(int(np.flatnonzero(deck.suit_of == TRUMP).max()))
        sure_trick = (hands & top_trump != 0) & self.params.suicide_sure_trick
        long_spades = np.maximum(trumps - self.nil_params.max_spades, 0)
        danger = counts + self.params.shift + self.params.suicide_spade_length * long_spades
        return np.asarray(first & view.legal_bids[:, 0] & ~sure_trick & (danger < self.params.suicide_nil_below))

    def blind(self, view: BlindView) -> np.ndarray:
        n = len(view)
        if not self.params.blind_nil:
            return np.zeros(n, dtype=bool)
        trail = deficit(view.scores, view.team)  # behind the best other side (the other partnership)
        return np.asarray((trail >= self.params.blind_nil_trail) & self._partner_not_nil(view))

    def _partner_not_nil(self, view: BidView | BlindView) -> np.ndarray:
        """False where partner already bid nil and a second nil is not wanted (`nil_beside_nil` off)."""
        partner = view.partner
        if self.params.nil_beside_nil or view.players != 4 or not view.rules.partnerships:
            return np.ones(len(view), dtype=bool)
        return np.asarray(view.bids[np.arange(len(view)), partner] != 0)

    def _round_up_before_penalty(self, view: BidView, counts: np.ndarray) -> np.ndarray:
        """Section 3: -10 per trick for a set is cheaper than the tenth bag's -100, so bid the borderline trick."""
        rules = view.rules
        if not rules.bag_penalty_enabled:
            return np.zeros(len(counts), dtype=bool)
        bags = view.bags[np.arange(len(view)), view.team]
        bags_to_penalty = rules.bag_threshold - bags % rules.bag_threshold
        borderline = counts - np.floor(counts) >= self.params.borderline
        return np.asarray((bags_to_penalty <= self.params.margin) & borderline)


def nearest_legal(wanted: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """The legal number of tricks nearest to `wanted` (the lower on a tie); nil where no number is legal.

    Most wanted numbers are whole and legal already, and are kept as they are; only the others are
    measured against every number (the bidders ask this for every bid of every table)."""
    n, width = legal.shape
    whole: np.ndarray = np.clip(wanted, 1, width - 1).astype(np.int64)
    kept = (whole == wanted) & legal[np.arange(n), whole]
    if kept.all():
        return whole
    rest = np.flatnonzero(~kept)
    allowed = legal[rest, 1:]
    numbers = np.arange(1, width)
    distance = np.where(allowed, np.abs(numbers[None, :] - wanted[rest, None]), np.inf)
    whole[rest] = np.where(allowed.any(axis=1), numbers[distance.argmin(axis=1)], 0)
    return whole
