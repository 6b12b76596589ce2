"""Scoring a batch of hands and deciding game ends, per partnership, exactly as RULES.md."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from spades_lab.rules import Rules

TEAM_SEATS = np.array([[0, 2], [1, 3]])
"""Partnership p holds seats p and p + 2."""


@dataclass(frozen=True)
class HandScore:
    """Per table and partnership [n, 2] unless said otherwise."""

    points: np.ndarray
    bags_after: np.ndarray
    new_bags: np.ndarray
    penalties: np.ndarray
    """How many bag penalties this hand triggered."""
    contract: np.ndarray
    made: np.ndarray
    """Contract made; a side with no non-nil bidder has contract 0 and always makes it."""
    nil_made: np.ndarray
    """[n, 4] per seat: True where a nil bidder took no trick (False for non-nil bidders)."""


def score_hands(rules: Rules, bids: np.ndarray, tricks: np.ndarray, bags_before: np.ndarray) -> HandScore:
    """Score hands from bids ([n, 4], 0 = nil), tricks won ([n, 4]) and bags carried in ([n, 2])."""
    bids = np.asarray(bids, dtype=np.int64)
    tricks = np.asarray(tricks, dtype=np.int64)
    nil = bids == 0
    team_bids = np.where(nil, 0, bids)[:, TEAM_SEATS]
    team_tricks = tricks[:, TEAM_SEATS]
    team_nil = nil[:, TEAM_SEATS]
    contract = team_bids.sum(axis=2)
    contract_tricks = np.where(team_nil, 0, team_tricks).sum(axis=2)
    nil_tricks = np.where(team_nil, team_tricks, 0).sum(axis=2)
    made = contract_tricks >= contract
    overtricks = np.where(made, contract_tricks - contract, 0)
    points = np.where(made, rules.trick_value * contract, -rules.trick_value * contract) + rules.bag_value * overtricks
    nil_made = nil & (tricks == 0)
    nil_result = np.where(nil_made, rules.nil_value, np.where(nil, -rules.nil_value, 0))
    points += nil_result[:, TEAM_SEATS].sum(axis=2)
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
