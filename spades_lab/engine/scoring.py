"""Scoring a batch of hands and deciding game ends, per side, exactly as RULES.md.

A side is a partnership (seats 0+2, 1+3) in 4-player Spades and a single player in Duel, in
cutthroat (`partnerships = False`) and with three players (side s is seat s); every array here is
[n, sides] per side (`rules.sides`: 2, 4 in cutthroat, 3 with three players), so every game shares one
scoring rule.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from spades_lab.rules import Rules

TEAM_SEATS = np.array([[0, 2], [1, 3]])
"""Partnership p holds seats p and p + 2."""
DUEL_SEATS = np.array([[0], [1]])
CUTTHROAT_SEATS = np.array([[0], [1], [2], [3]])
"""Each for themselves: side s is seat s alone."""
THREE_SEATS = np.array([[0], [1], [2]])


def side_seats(players: int, partnerships: bool = True) -> np.ndarray:
    """[sides, seats per side]: which seats make up each side."""
    if players == 4:
        return TEAM_SEATS if partnerships else CUTTHROAT_SEATS
    return THREE_SEATS if players == 3 else DUEL_SEATS


def deficit(scores: np.ndarray, side: np.ndarray) -> np.ndarray:
    """[n] how far each table's `side` trails the best other side (negative when it leads).

    With two sides this is the other side's score minus its own; blind nil and blind bid trails
    compare against it.
    """
    scores = np.asarray(scores, dtype=np.int64)
    tables = np.arange(len(scores))
    others = scores.copy()
    others[tables, side] = np.iinfo(np.int64).min
    behind: np.ndarray = others.max(axis=1) - scores[tables, side]
    return behind


@dataclass(frozen=True)
class HandScore:
    """Per table and side [n, sides] unless said otherwise."""

    points: np.ndarray
    bags_after: np.ndarray
    new_bags: np.ndarray
    penalties: np.ndarray
    """How many bag penalties this hand triggered."""
    contract: np.ndarray
    """The side's non-nil bids added up; 0 when every bidder of the side bid nil (no contract)."""
    made: np.ndarray
    """Contract made. A side with no contract (contract 0) has nothing to make: neither made nor set."""
    nil_made: np.ndarray
    """[n, seats] True where a nil bidder took no trick (False for non-nil bidders)."""
    contract_tricks: np.ndarray
    """Tricks that count toward the contract (with `nil_tricks_to_partner`, the nil bidders' too)."""
    set: np.ndarray
    """Had a contract and missed it. `stats`, `plots` and `experiments` read sets here, nowhere else."""
    moon: np.ndarray
    """The side took all 13 tricks (whatever `rules.moon` makes of it)."""

    @property
    def has_contract(self) -> np.ndarray:
        return self.contract > 0


def bag_price(rules: Rules, bag_cost: float = -1.0) -> float:
    """Points a bag costs beyond its own point: `bag_cost`, or (negative) the rules' long-run price, one
    `bag_penalty` per `bag_threshold` bags (0 when bag penalties are off)."""
    if bag_cost >= 0:
        return float(bag_cost)
    if not rules.bag_penalty_enabled or rules.bag_threshold <= 0:
        return 0.0
    return abs(float(rules.bag_penalty)) / float(rules.bag_threshold)


def score_hands(
    rules: Rules, bids: np.ndarray, tricks: np.ndarray, bags_before: np.ndarray, blind: np.ndarray | None = None
) -> HandScore:
    """Score hands from bids ([n, seats], 0 = nil), tricks won, bags carried in ([n, sides]) and blind-nil flags."""
    bids = np.asarray(bids, dtype=np.int64)
    tricks = np.asarray(tricks, dtype=np.int64)
    seats = side_seats(bids.shape[1], rules.partnerships)
    plain_zero = rules.zero_bid == "plain"
    nil = (bids == 0) & (not plain_zero)
    side_nil = nil[:, seats]
    side_tricks = tricks[:, seats]
    contract = np.where(side_nil, 0, bids[:, seats]).sum(axis=2)
    nil_tricks = np.where(side_nil, side_tricks, 0).sum(axis=2)
    # a plain 0 is a contract like any other: a side bidding 0 + 0 makes it, every trick a bag
    has_contract = np.ones_like(contract, dtype=bool) if plain_zero else contract > 0
    if rules.nil_tricks_to_partner:
        # A failed nil's tricks go toward the partner's contract instead of being bags; a side where
        # both partners bid nil has no contract to take them, so the ordinary nil-trick rule applies.
        contract_tricks = np.where(has_contract, side_tricks.sum(axis=2), 0)
        nil_tricks = np.where(has_contract, 0, nil_tricks)
    else:
        contract_tricks = np.where(side_nil, 0, side_tricks).sum(axis=2)
    # Contract 0 is not "made": were it, every trick of a double-nil side would become an overtrick.
    made = has_contract & (contract_tricks >= contract)
    overtricks = np.where(made, contract_tricks - contract, 0)
    value = rules.trick_value * contract
    if rules.big_contract is not None:
        value = np.where(contract >= rules.big_contract, rules.big_contract_value, value)
    if blind is not None and rules.blind_bids is not None:
        # a blind number bid doubles its side's contract, made or set (blind flags on nils are blind nils)
        blind_number = (np.asarray(blind, dtype=bool) & ~nil)[:, seats].any(axis=2)
        value = np.where(blind_number, 2 * value, value)
    points = np.where(has_contract, np.where(made, value, -value), 0) + rules.bag_value * overtricks
    nil_made = nil & (tricks == 0)
    worth = np.full(bids.shape, rules.nil_value, dtype=np.int64)
    if blind is not None:
        worth = np.where(blind, rules.blind_nil_value, worth)  # only nils use it
    nil_result = np.where(nil_made, worth, np.where(nil, -worth, 0))
    points += nil_result[:, seats].sum(axis=2)
    new_bags = overtricks
    if rules.nil_tricks_as_bags:
        points += rules.bag_value * nil_tricks
        new_bags = new_bags + nil_tricks
    moon = side_tricks.sum(axis=2) == rules.tricks
    if not isinstance(rules.moon, str):
        # a moon worth points replaces the side's whole hand: its value, no bags, no penalty
        points = np.where(moon, rules.moon, points)
        new_bags = np.where(moon, 0, new_bags)
    bags = np.asarray(bags_before, dtype=np.int64) + new_bags
    penalties = np.zeros_like(bags)
    if rules.bag_penalty_enabled:
        penalties = bags // rules.bag_threshold
        points -= penalties * rules.bag_penalty
        bags -= penalties * rules.bag_threshold
    return HandScore(
        points, bags, new_bags, penalties, contract, made, nil_made, contract_tricks, has_contract & ~made, moon
    )


def game_end(
    rules: Rules, scores: np.ndarray, hands_played: np.ndarray, moon: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(over, winner, unfinished) after a hand, from the scores after it and the hands played so far.

    A game ends once a side reaches the target (or, with mercy, falls to the threshold) and the
    highest total is one side's alone; that side wins. A tie for the highest total plays on (with
    two sides: equal totals). With `moon = "win"` a side that took all 13 tricks this hand (`moon`,
    [n, sides]) wins at once, whatever the scores. A game still going at the hand cap stops
    unfinished, with no winner.
    """
    trigger = (scores >= rules.target).any(axis=1)
    if rules.mercy:
        trigger |= (scores <= rules.mercy_threshold).any(axis=1)
    if scores.shape[1] == 2:
        alone = scores[:, 0] != scores[:, 1]
    else:
        alone = (scores == scores.max(axis=1, keepdims=True)).sum(axis=1) == 1
    over = trigger & alone
    winner = np.where(over, np.argmax(scores, axis=1), -1)
    if rules.moon == "win" and moon is not None:
        shot = moon.any(axis=1)
        over = over | shot
        winner = np.where(shot, np.argmax(moon, axis=1), winner)
    if rules.hand_cap is None:
        unfinished = np.zeros_like(over)
    else:
        unfinished = ~over & (hands_played >= rules.hand_cap)
    return over, winner, unfinished
