"""Double-dummy nil outcomes per card: after this card, can the nil's opponents force a trick on it?

The solver's card values (`spades_lab.dd.card_values`) are the side's tricks, which do not say
which seat takes them, and a nil's fate (100 points either way) is decided by exactly that. The
solver's search also answers the nil question (`spades_lab.dd.nil_tricks`): its probe with the nil
objective lets the nil's opponents push tricks on it while its partner shields it. One probe with
target 1 per legal card is the exact DD answer to "is the nil broken if I play this card", which is
all the hand score needs (a broken nil's second trick only moves a bag).

It lives in the policies layer because it is the pimc player's question; it uses only the dd
search's public kernel functions and the same `Solver` working memory (entries for the nil
objective are keyed apart from the trick objective's, so one table serves both).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spades_lab.dd.search import (
    FIRST_FREE,
    Setting,
    Trick,
    Workspace,
    legal_mask,
    no_trick,
    probe,
    representative_of,
    representatives,
    trick_after,
    trick_state,
)
from spades_lab.dd.solver import Solver, first_rule_for
from spades_lab.engine.bits import BIT, ONE, ZERO, lowest, popcount


@njit(cache=True)
def _nil_values(
    hands: np.ndarray,
    trick: np.ndarray,
    leader: np.ndarray,
    broken: np.ndarray,
    nil_seat: np.ndarray,
    players: int,
    first_rule: int,
    work: Workspace,
) -> np.ndarray:
    suit_of, suit_masks = work.deck
    n = hands.shape[0]
    out = np.full((n, 52), -1, dtype=np.int8)
    row = np.empty(players, dtype=np.uint64)
    tr = np.empty(players, dtype=np.int64)
    for t in range(n):
        k = 0
        for p in range(players):
            row[p] = hands[t, p]
            tr[p] = trick[t, p]
            if trick[t, p] >= 0:
                k += 1
        lead = leader[t]
        rule = first_rule_for(row, players, k, first_rule)
        # the nil objective, under the first-trick rule for this trick, then under none from the next
        this_trick, next_tricks = Setting(players, rule, nil_seat[t]), Setting(players, FIRST_FREE, nil_seat[t])
        seat = (lead + k) % players
        _, led, win_card, win_seat, mask = trick_state(tr, k, lead, players, suit_of)
        hand = row[seat]
        legal = legal_mask(hand, k == 0, led, broken[t], rule, suit_masks)
        separators = mask
        for p in range(players):
            if p != seat:
                separators |= row[p]
        reps = representatives(legal, separators, suit_masks)
        m = reps
        while m != ZERO:
            c = lowest(m)
            m &= m - ONE
            bit = BIT[c]
            n_led, n_win, n_seat = trick_after(c, seat, k, led, win_card, win_seat, suit_of)
            row[seat] = hand ^ bit
            if k + 1 == players:
                if n_seat == nil_seat[t]:
                    hit = True
                elif popcount(row[n_seat]) == 0:
                    hit = False
                else:
                    t_mask = mask | bit
                    n_broken = broken[t] or t_mask & suit_masks[3] != ZERO
                    hit, _ = probe(row, n_seat, n_broken, no_trick(), 1, 0, next_tricks, work)
            else:
                after = Trick(k + 1, n_led, n_win, n_seat, mask | bit)
                hit, _ = probe(row, lead, broken[t], after, 1, 0, this_trick, work)
            row[seat] = hand
            out[t, c] = 1 if hit else 0
        m = legal & ~reps
        while m != ZERO:
            c = lowest(m)
            m &= m - ONE
            out[t, c] = out[t, representative_of(c, legal, separators, suit_of, suit_masks)]
    return out


def nil_broken_values(
    hands: np.ndarray, trick: np.ndarray, leader: np.ndarray, broken: np.ndarray, nil_seat: np.ndarray, solver: Solver
) -> np.ndarray:
    """[n, 52] int8 per card id of the acting seat: 1 if after it the nil of `nil_seat` is broken double
    dummy (its opponents can force a trick on it, its partner helping it), 0 if it is made, -1 if illegal.

    Same world layout as `spades_lab.dd.card_values`: hands [n, players] unplayed cards, trick
    [n, players] card ids on the current trick in play order from `leader` (-1 padding), broken:
    spades broken before this trick. The nil seat must not have taken a trick yet.
    """
    hands = np.ascontiguousarray(hands, dtype=np.uint64)
    n = len(hands)
    return _nil_values(
        hands, np.ascontiguousarray(trick, dtype=np.int64), np.ascontiguousarray(leader, dtype=np.int64),
        np.ascontiguousarray(broken, dtype=np.bool_), np.broadcast_to(np.asarray(nil_seat, dtype=np.int64), (n,)).copy(),
        solver.players, solver.first_rule, solver.arrays,
    )  # fmt: skip
