"""A lead preference learned from double-dummy data: which kind of card to lead, by what the leader sees.

The expert's own leads (the tips' lead rules and its additions) cost two thirds of its double-dummy
loss, mostly by cashing side masters early. No single other kind of lead does better on average
(measured: replacing every master cash by a short-suit lead gains nothing on another seed), but some
situations favour another kind, and the bids and the trick count tell which. The `lead_model` switch of
the expert scores, at each lead it may change, six other *options* (`LEAD_OPTIONS`): the low or the high
card of the shortest side suit without a master, the low card of the longest such suit, the low trump,
the side master of the suit with the most unseen cards, the trump master. Each option's score is a
linear prediction of its double-dummy gain over the expert's own card from `FEATURES` (what the leader
sees: trick number, tricks the side needs, sure winners, trumps held and unseen, suit lengths, shown
voids, the four bids, the opponents' needs), each feature also crossed with the kind of card the expert
chose (trump master, other trump, side master, other side card). The best-scoring option held is led
when its score reaches `lead_margin` tricks; otherwise the expert's card stays.

The weights ship in `data/expert_leads.json` (`lead_weights=dd`: each option's DD gain at the lead) and
`data/expert_leads_continuation.json` (`lead_weights=continuation`: its gain when the expert plays the hand on);
`python -m spades_lab.fit dd|continuation` refits either from its seeds (ridge regression, `spades_lab.fit`) and
reports the gain on held-out hands.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

from spades_lab.engine.bits import ZERO, above, highest, lowest, popcount
from spades_lab.engine.trick import SuitMasks
from spades_lab.policies.play import card_bit, unseen_above

LEADS_RESOURCE = "expert_leads.json"
"""The DD-fitted weights, in `spades_lab/policies/data/` (written by `python -m spades_lab.fit dd --write`)."""
LEAD_WEIGHTS = {"dd": LEADS_RESOURCE, "continuation": "expert_leads_continuation.json"}
"""The expert's `lead_weights` choices and their files: `dd` scores each option by its predicted DD gain (in
tricks); `continuation` by the predicted gain in the hand's score (in tens of points) when the expert plays the
rest of the hand after it, which wins more games and loses more DD tricks (docs/players.md)."""

LEAD_OPTIONS = ("keep", "short_low", "short_high", "long_low", "low_trump", "side_master", "trump_master")
KEEP, SHORT_LOW, SHORT_HIGH, LONG_LOW, LOW_TRUMP, SIDE_MASTER, TRUMP_MASTER = range(7)
FEATURES = (
    "trick", "needed", "sure_winners", "slack", "trumps", "unseen_trumps", "shortest_without_master",
    "suits_with_master", "opponent_void", "partner_void", "my_bid", "partner_bid", "their_contract",
    "their_needed", "cards", "trump_master",
)  # fmt: skip
KINDS = ("trump_master", "other_trump", "side_master", "other_side")
WIDTH = len(FEATURES) * (1 + len(KINDS)) + len(KINDS)
"""The model's inputs: the features, each feature times each kind indicator, the kind indicators."""
assert len(FEATURES) == 16 and len(LEAD_OPTIONS) == 7, "model_lead writes the features and options out one by one"


class Lead(NamedTuple):
    """A lead as the model sees it: the card the expert would lead and what the leader knows.

    `bids`, `won` and `voids` (shown void suits, bit per suit) are by relative seat: me, partner, left,
    right. One record, so the features, the inputs and the pick read the same position."""

    card: int
    hand: np.uint64
    legal: np.uint64
    unseen: np.uint64
    trick: int
    bids: tuple[int, int, int, int]
    won: tuple[int, int, int, int]
    voids: tuple[int, int, int, int]


class LeadBatch(NamedTuple):
    """Many leads, one per row ([n] or [n, 4] arrays, the fields of `Lead`): the fitting's batch layout."""

    cards: np.ndarray
    hands: np.ndarray
    legal: np.ndarray
    unseen: np.ndarray
    tricks: np.ndarray
    bids: np.ndarray
    won: np.ndarray
    voids: np.ndarray


@njit(cache=True)
def lead_at(leads: LeadBatch, i: int) -> Lead:
    """Row `i` of a batch of leads."""
    b, w, v = leads.bids, leads.won, leads.voids
    return Lead(
        leads.cards[i], leads.hands[i], leads.legal[i], leads.unseen[i], leads.tricks[i],
        (b[i, 0], b[i, 1], b[i, 2], b[i, 3]), (w[i, 0], w[i, 1], w[i, 2], w[i, 3]),
        (v[i, 0], v[i, 1], v[i, 2], v[i, 3]),
    )  # fmt: skip


@njit(cache=True)
def sure_winners(hand: np.uint64, unseen: np.uint64, suits: SuitMasks) -> int:
    """Tricks a seat holds for sure: per suit, its top cards while no unseen card of the suit outranks them
    (the lead model's feature and the expert's `second_seat_ruff` test)."""
    count = 0
    for s in range(4):  # the held cards above the suit's highest unseen card (every held card when none is out)
        count += popcount(hand & suits[s] & above(highest(unseen & suits[s])))
    return count


@njit(cache=True)
def _short_suit(legal: np.uint64, unseen: np.uint64, suits: SuitMasks, longest: bool) -> int:
    """The shortest (or longest) side suit of the legal cards whose top card is not a master; -1 if none.

    Ties go to the lower suit for the shortest, to the higher suit for the longest."""
    pick, pick_length = -1, -1
    for s in range(3):
        mine = legal & suits[s]
        if mine == ZERO or unseen_above(highest(mine), unseen, suits) == 0:
            continue
        length = popcount(mine)
        if pick < 0 or (length < pick_length if not longest else length >= pick_length):
            pick, pick_length = s, length
    return pick


@njit(cache=True)
def lead_option(option: int, card: int, legal: np.uint64, unseen: np.uint64, suits: SuitMasks) -> int:
    """The card an option leads (`card` for KEEP), or -1 when the seat holds no such card."""
    if option == KEEP:
        return card
    if option == SHORT_LOW or option == SHORT_HIGH or option == LONG_LOW:
        suit = _short_suit(legal, unseen, suits, option == LONG_LOW)
        if suit < 0:
            return -1
        mine = legal & suits[suit]
        return highest(mine) if option == SHORT_HIGH else lowest(mine)
    trumps = legal & suits[3]
    if option == LOW_TRUMP:
        return lowest(trumps) if trumps != ZERO else -1
    if option == TRUMP_MASTER:
        top = highest(trumps)
        return top if trumps != ZERO and unseen_above(top, unseen, suits) == 0 else -1
    pick, pick_out = -1, -1  # SIDE_MASTER: as the tips' default lead, from the suit with most unseen cards
    for s in range(3):
        top = highest(legal & suits[s])
        if top >= 0 and unseen_above(top, unseen, suits) == 0 and popcount(unseen & suits[s]) > pick_out:
            pick, pick_out = top, popcount(unseen & suits[s])
    return pick


@njit(cache=True)
def card_kind(card: int, unseen: np.uint64, suits: SuitMasks) -> int:
    """0 trump master, 1 other trump, 2 side master, 3 other side card."""
    master = unseen_above(card, unseen, suits) == 0
    if card_bit(card) & suits[3] != ZERO:
        return 0 if master else 1
    return 2 if master else 3


@njit(cache=True)
def lead_features(lead: Lead, suits: SuitMasks) -> tuple[np.ndarray, int]:
    """The `FEATURES` at a lead and the led card's kind (index in `KINDS`): the model's inputs are these
    crossed with the kind (`lead_inputs`), which the kernel never builds (see `model_lead`)."""
    card, hand, legal, unseen, trick, bids, won, voids = lead
    x = np.zeros(len(FEATURES))
    needed = bids[0] + bids[1] - won[0] - won[1]
    sure = sure_winners(hand, unseen, suits)
    short = _short_suit(legal, unseen, suits, False)
    x[0] = trick
    x[1] = needed
    x[2] = sure
    x[3] = needed - sure
    x[4] = popcount(hand & suits[3])
    x[5] = popcount(unseen & suits[3])
    x[6] = 4 if short < 0 else min(popcount(legal & suits[short]), 4)
    opponents = voids[2] | voids[3]
    for s in range(3):
        mine = legal & suits[s]
        if mine == ZERO:
            continue
        if unseen_above(highest(mine), unseen, suits) == 0:
            x[7] += 1.0
        x[8] = 1.0 if (opponents >> s) & 1 == 1 else x[8]
        x[9] = 1.0 if (voids[1] >> s) & 1 == 1 and (voids[1] >> 3) & 1 == 0 else x[9]
    x[10] = bids[0]
    x[11] = bids[1]
    x[12] = bids[2] + bids[3]
    x[13] = bids[2] + bids[3] - won[2] - won[3]
    x[14] = popcount(hand)
    trumps = hand & suits[3]
    x[15] = 1.0 if trumps != ZERO and unseen_above(highest(trumps), unseen, suits) == 0 else 0.0
    return x, card_kind(card, unseen, suits)


@njit(cache=True)
def lead_inputs(lead: Lead, suits: SuitMasks) -> np.ndarray:
    """The model's `WIDTH` inputs at a lead."""
    x, kind = lead_features(lead, suits)
    out = np.zeros(WIDTH)
    n = len(FEATURES)
    out[:n] = x
    out[n * (1 + kind) : n * (2 + kind)] = x
    out[n * (1 + len(KINDS)) + kind] = 1.0
    return out


def combine_weights(weights: np.ndarray) -> np.ndarray:
    """`weights` [options - 1, WIDTH + 1] folded per kind of card: [KINDS, options - 1, FEATURES + 1].

    A lead's inputs are its features, the same features again in its kind's block and its kind's
    indicator (`lead_inputs`), so each option's score is `combined[kind, option] . (features, 1)`: the
    kernel then reads one row of FEATURES + 1 numbers per option instead of the model's WIDTH."""
    weights = _check_shape(np.asarray(weights, dtype=np.float64), "lead weights")
    n = len(FEATURES)
    combined = np.empty((len(KINDS), len(LEAD_OPTIONS) - 1, n + 1))
    for kind in range(len(KINDS)):
        combined[kind, :, :n] = weights[:, :n] + weights[:, n * (1 + kind) : n * (2 + kind)]
        combined[kind, :, n] = weights[:, -1] + weights[:, n * (1 + len(KINDS)) + kind]
    return combined


@njit(cache=True, inline="always")
def _score(w: np.ndarray, x: tuple[float, ...]) -> float:
    """One option's predicted gain: its bias, then each feature's term, added in that order."""
    return (  # type: ignore[no-any-return]  # numba floats
        w[16] + w[0] * x[0] + w[1] * x[1] + w[2] * x[2] + w[3] * x[3] + w[4] * x[4] + w[5] * x[5] + w[6] * x[6]
        + w[7] * x[7] + w[8] * x[8] + w[9] * x[9] + w[10] * x[10] + w[11] * x[11] + w[12] * x[12] + w[13] * x[13]
        + w[14] * x[14] + w[15] * x[15]
    )  # fmt: skip


@njit(cache=True)
def model_lead(combined: np.ndarray, margin: float, lead: Lead, suits: SuitMasks) -> int:
    """The option card of best predicted DD gain over the lead's card when it reaches `margin`; else that card.

    `combined` is `combine_weights(weights)`. It runs at every lead the switch may change, so it makes
    one pass over the suits for both the `FEATURES` and the option cards (the same as `lead_features`
    and `lead_option`, which stay the definition; tests/test_leads.py holds the two to the same picks),
    with the features as plain numbers and nothing allocated."""
    card, hand, legal, unseen, trick, bids, won, voids = lead
    opponents = voids[2] | voids[3]
    partner_ruffs = (voids[1] >> 3) & 1 == 0
    short, short_length, long, long_length = -1, -1, -1, -1
    masters, opponent_void, partner_void = 0, 0.0, 0.0
    side_master, side_unseen = -1, -1
    for s in range(3):
        mine = legal & suits[s]
        if mine == ZERO:
            continue
        top = highest(mine)
        out = popcount(unseen & suits[s])
        if top > highest(unseen & suits[s]):
            masters += 1
            if out > side_unseen:
                side_master, side_unseen = top, out
        else:
            length = popcount(mine)
            if short < 0 or length < short_length:
                short, short_length = s, length
            if long < 0 or length >= long_length:
                long, long_length = s, length
        if (opponents >> s) & 1 == 1:
            opponent_void = 1.0
        if (voids[1] >> s) & 1 == 1 and partner_ruffs:
            partner_void = 1.0
    trumps = legal & suits[3]
    top_unseen_trump = highest(unseen & suits[3])
    trump_master_card = highest(trumps) if trumps != ZERO and highest(trumps) > top_unseen_trump else -1
    held_trumps = hand & suits[3]
    needed = bids[0] + bids[1] - won[0] - won[1]
    sure = sure_winners(hand, unseen, suits)
    kind = card_kind(card, unseen, suits)
    x0 = float(trick)
    x1 = float(needed)
    x2 = float(sure)
    x3 = float(needed - sure)
    x4 = float(popcount(held_trumps))
    x5 = float(popcount(unseen & suits[3]))
    x6 = 4.0 if short < 0 else float(min(short_length, 4))
    x7 = float(masters)
    x8 = opponent_void
    x9 = partner_void
    x10 = float(bids[0])
    x11 = float(bids[1])
    x12 = float(bids[2] + bids[3])
    x13 = float(bids[2] + bids[3] - won[2] - won[3])
    x14 = float(popcount(hand))
    x15 = 1.0 if held_trumps != ZERO and highest(held_trumps) > top_unseen_trump else 0.0
    x = (x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15)
    # the six scores before the option loop: independent sums the processor overlaps, each in its fixed order
    w = combined[kind]
    scores = (_score(w[0], x), _score(w[1], x), _score(w[2], x), _score(w[3], x), _score(w[4], x), _score(w[5], x))
    best, best_score = card, margin
    for k in range(6):
        option = k + 1
        if option == SHORT_LOW:
            other = lowest(legal & suits[short]) if short >= 0 else -1
        elif option == SHORT_HIGH:
            other = highest(legal & suits[short]) if short >= 0 else -1
        elif option == LONG_LOW:
            other = lowest(legal & suits[long]) if long >= 0 else -1
        elif option == LOW_TRUMP:
            other = lowest(trumps)
        elif option == SIDE_MASTER:
            other = side_master
        else:
            other = trump_master_card
        if other < 0 or other == card:
            continue
        score = scores[k]
        if score >= best_score:
            best, best_score = other, score
    return best


@njit(cache=True)
def lead_batch(leads: LeadBatch, suits: SuitMasks) -> tuple[np.ndarray, np.ndarray]:
    """Batch form for fitting: each lead's model inputs [n, WIDTH] and every option's card [n, options] (-1:
    none)."""
    n = leads.cards.shape[0]
    inputs = np.empty((n, WIDTH))
    options = np.empty((n, len(LEAD_OPTIONS)), dtype=np.int64)
    for i in range(n):
        lead = lead_at(leads, i)
        inputs[i] = lead_inputs(lead, suits)
        for k in range(len(LEAD_OPTIONS)):
            options[i, k] = lead_option(k, lead.card, lead.legal, lead.unseen, suits)
    return inputs, options


def model_leads(weights: np.ndarray, margin: float, leads: LeadBatch, suits: SuitMasks) -> np.ndarray:
    """`model_lead` with `weights` [options - 1, WIDTH + 1] over a batch of leads, for held-out evaluation."""
    return _model_leads(combine_weights(weights), margin, leads, suits)


@njit(cache=True)
def _model_leads(combined: np.ndarray, margin: float, leads: LeadBatch, suits: SuitMasks) -> np.ndarray:
    out = np.empty(leads.cards.shape[0], dtype=np.int64)
    for i in range(leads.cards.shape[0]):
        out[i] = model_lead(combined, margin, lead_at(leads, i), suits)
    return out


def lead_weights(name: str = "dd") -> np.ndarray:
    """The weights `name` names: [options - 1, WIDTH + 1] float64, read-only (see `model_lead`).

    `name` is a key of `LEAD_WEIGHTS` (the shipped weights) or the path of a `.json` file in their layout
    (what `python -m spades_lab.fit dd --out FILE` writes), so a researcher plays weights of their own
    fit as `counting+expert(lead_weights=/path/w.json)` without editing the package. Weights are read each
    time they are named, so a rewritten file is never stale; a run records a named file's hash in the
    player's code fingerprint (spades_lab.players.identity)."""
    if name in LEAD_WEIGHTS:
        return _shipped_weights(name)
    if not name.endswith(".json"):
        raise ValueError(
            f"expert play: lead_weights = {name!r} is unknown; allowed: {', '.join(LEAD_WEIGHTS)}, or the path of a "
            ".json file of weights (what `python -m spades_lab.fit dd --out FILE` writes)"
        )
    path = Path(name)
    if not path.is_file():
        raise ValueError(f"expert play: lead_weights = {name!r}: no such file")
    try:
        weights = json.loads(path.read_text())["weights"]
    except (ValueError, KeyError, TypeError) as error:
        raise ValueError(
            f"expert play: lead_weights = {name!r}: not a JSON object with a 'weights' list ({error})"
        ) from None
    return _checked(np.asarray(weights, dtype=np.float64), f"expert play: lead_weights = {name!r}")


def _shipped_weights(name: str) -> np.ndarray:
    resource = LEAD_WEIGHTS[name]
    text = resources.files("spades_lab.policies").joinpath("data", resource).read_text()
    return _checked(np.asarray(json.loads(text)["weights"], dtype=np.float64), resource)


def _check_shape(weights: np.ndarray, where: str) -> np.ndarray:
    if weights.shape != (len(LEAD_OPTIONS) - 1, WIDTH + 1):
        raise ValueError(
            f"{where}: weights of shape {(len(LEAD_OPTIONS) - 1, WIDTH + 1)} are expected, not {weights.shape}"
        )
    return weights


def _checked(weights: np.ndarray, where: str) -> np.ndarray:
    """Shape and finiteness checked, then made read-only (the arrays are shared by the players built)."""
    _check_shape(weights, where)
    if not np.isfinite(weights).all():
        raise ValueError(f"{where}: every weight must be a finite number")
    weights.setflags(write=False)
    return weights
