"""Scoring a batch of hands and deciding game ends, per side, exactly as RULES.md.

A side is a partnership (seats 0+2, 1+3) in 4-player Spades and a single player in Duel; every
array here is [n, 2] per side, so both games share one scoring rule.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from spades_lab.rules import Rules

TEAM_SEATS = np.array([[0, 2], [1, 3]])
"""Partnership p holds seats p and p + 2."""
DUEL_SEATS = np.array([[0], [1]])


def side_seats(players: int) -> np.ndarray:
    """[2, seats per side]: which seats make up each side."""
    return TEAM_SEATS if players == 4 else DUEL_SEATS


@dataclass(frozen=True)
class HandScore:
    """Per table and side [n, 2] unless said otherwise."""

    points: np.ndarray
    bags_after: np.ndarray
    new_bags: np.ndarray
    penalties: np.ndarray
    """How many bag penalties this hand triggered."""
    contract: np.ndarray
    made: np.ndarray
    """Contract made; a side with no non-nil bidder has contract 0 and always makes it."""
    nil_made: np.ndarray
    """[n, seats] True where a nil bidder took no trick (False for non-nil bidders)."""


def score_hands(
    rules: Rules, bids: np.ndarray, tricks: np.ndarray, bags_before: np.ndarray, blind: np.ndarray | None = None
) -> HandScore:
    """Score hands from bids ([n, seats], 0 = nil), tricks won, bags carried in ([n, 2]) and blind-nil flags."""
    bids = np.asarray(bids, dtype=np.int64)
    tricks = np.asarray(tricks, dtype=np.int64)
    seats = side_seats(bids.shape[1])
    nil = bids == 0
    side_nil = nil[:, seats]
    side_tricks = tricks[:, seats]
    contract = np.where(side_nil, 0, bids[:, seats]).sum(axis=2)
    nil_tricks = np.where(side_nil, side_tricks, 0).sum(axis=2)
    if rules.nil_tricks_to_partner:
        contract_tricks = side_tricks.sum(axis=2)
        nil_tricks = np.zeros_like(nil_tricks)
    else:
        contract_tricks = np.where(side_nil, 0, side_tricks).sum(axis=2)
    made = contract_tricks >= contract
    overtricks = np.where(made, contract_tricks - contract, 0)
    value = rules.trick_value * contract
    if rules.big_contract is not None:
        value = np.where(contract >= rules.big_contract, rules.big_contract_value, value)
    points = np.where(made, value, -value) + rules.bag_value * overtricks
    nil_made = nil & (tricks == 0)
    worth = np.full(bids.shape, rules.nil_value, dtype=np.int64)
    if blind is not None:
        worth = np.where(blind, rules.blind_nil_value, worth)
    nil_result = np.where(nil_made, worth, np.where(nil, -worth, 0))
    points += nil_result[:, seats].sum(axis=2)
    new_bags = overtricks
    if rules.nil_tricks_as_bags:
        points += rules.bag_value * nil_tricks
        new_bags = new_bags + nil_tricks
    bags = np.asarray(bags_before, dtype=np.int64) + new_bags
    penalties = np.zeros_like(bags)
    if rules.bag_penalty_enabled:
        penalties = bags // rules.bag_threshold
        points -= penalties * rules.bag_penalty
        bags -= penalties * rules.bag_threshold
    return HandScore(points, bags, new_bags, penalties, contract, made, nil_made)


def game_end(rules: Rules, scores: np.ndarray, hands_played: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(over, winner, unfinished) after a hand, from the scores after it and the hands played so far.

    A game ends once a side reaches the target (or, with mercy, falls to the threshold) and the
    totals differ; the higher total wins. Equal totals play on. A game still going at the hand
    cap stops unfinished, with no winner.
    """
    trigger = (scores >= rules.target).any(axis=1)
    if rules.mercy:
        trigger |= (scores <= rules.mercy_threshold).any(axis=1)
    over = trigger & (scores[:, 0] != scores[:, 1])
    winner = np.where(over, np.argmax(scores, axis=1), -1)
    if rules.hand_cap is None:
        unfinished = np.zeros_like(over)
    else:
        unfinished = ~over & (hands_played >= rules.hand_cap)
    return over, winner, unfinished
