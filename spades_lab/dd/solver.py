"""Batch entry points of the solver over numba loops, and the reusable working memory they share.

A `Solver` owns the transposition table and move buffers. Its table stays valid across deals,
leaders and targets (entries are keyed on the position itself), so a caller solving many worlds
of one hand, as a PIMC player does, should keep one solver and pass it to every call.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from spades_lab.cards import Deck, deck_for
from spades_lab.dd.search import (
    FIRST_FREE,
    FIRST_LOWEST_CLUBS,
    FIRST_TWO_OF_CLUBS,
    DeckTables,
    Setting,
    Trick,
    Workspace,
    best_value,
    card_values,
    new_stack,
    no_trick,
    trick_state,
)
from spades_lab.dd.tt import (
    DEFAULT_BITS,
    MAX_BITS,
    META_CLEARS,
    META_CUTS,
    META_ENTRIES,
    META_FIRST_CUTS,
    META_HITS,
    META_LATE_MOVES,
    META_NODE_BUDGET,
    META_NODE_LIMIT,
    META_NODES,
    META_PROBES,
    META_SCANS,
    MIN_BITS,
    new_table,
)
from spades_lab.engine.bits import popcount
from spades_lab.rules import RulesLike, load_rules


class DDError(ValueError):
    """Input the solver cannot use; the message names the deal and the problem."""


FIRST_RULES = {"left_of_dealer": FIRST_FREE, "two_of_clubs": FIRST_TWO_OF_CLUBS, "lowest_clubs": FIRST_LOWEST_CLUBS}


class Solver:
    """Working memory of the search for one rules' deck and number of players.

    `arrays` is the `search.Workspace` record (transposition table, stack, deck tables) that the
    numba-level functions take after their position arguments.
    """

    def __init__(self, rules: RulesLike = None, tt_bits: int = DEFAULT_BITS) -> None:
        self.rules = load_rules(rules)
        if not self.rules.partnerships or self.rules.players == 3:
            what = "players = 3" if self.rules.players == 3 else "partnerships = False (cutthroat)"
            raise ValueError(
                f"rules field {what}: the double-dummy solver counts a partnership's tricks (seats 0+2 against"
                " 1+3, or Duel's), which is no question of a game each for themselves; allowed: partnerships"
                " True with 4 players, or Duel"
            )
        if (
            isinstance(tt_bits, bool)
            or not isinstance(tt_bits, int | np.integer)
            or not MIN_BITS <= tt_bits <= MAX_BITS
        ):
            raise DDError(
                f"tt_bits must be a whole number {MIN_BITS}..{MAX_BITS} (a table of 2**tt_bits entries, about 44 bytes"
                f" each: {DEFAULT_BITS} is about 44 MB, {MAX_BITS} about 370 MB), got {tt_bits!r}"
            )
        self.deck: Deck = deck_for(self.rules.deck)
        self.players = self.rules.players
        self.first_rule = FIRST_RULES[self.rules.first_lead]
        self.arrays = Workspace(
            new_table(tt_bits), new_stack(), DeckTables(self.deck.suit_of.astype(np.int64), self.deck.suit_masks.copy())
        )

    def clear(self) -> None:
        """Forget every proof and zero the counters, so the next solve starts as a fresh solver would."""
        table = self.arrays.table
        # only the shape slots: an entry's row and sieve word are written whenever it is taken
        table.lookup[: max(len(table.keys) >> 2, 16)] = 0
        table.meta[:] = 0

    def stats(self) -> dict[str, int]:
        """Counters since the last `clear`: search nodes, table probes/hits/chain scans, entries in use,
        table clears (a debugging and benchmarking aid: node counts compare search changes
        without the machine's noise)."""
        meta = self.arrays.table.meta
        return {
            "nodes": int(meta[META_NODES]),
            "tt_probes": int(meta[META_PROBES]),
            "tt_hits": int(meta[META_HITS]),
            "tt_scans": int(meta[META_SCANS]),
            "tt_entries": int(meta[META_ENTRIES]),
            "tt_clears": int(meta[META_CLEARS]),
            "cuts": int(meta[META_CUTS]),
            "first_cuts": int(meta[META_FIRST_CUTS]),
            "late_moves": int(meta[META_LATE_MOVES]),
        }


@njit(cache=True)
def first_rule_for(hands: np.ndarray, players: int, k: int, first_rule: int) -> int:
    """The rules' first-trick rule applies while the hands (and the trick's cards) are full 13-card hands."""
    held = 0
    for p in range(players):
        held += popcount(hands[p])
    return first_rule if held + k == 13 * players else FIRST_FREE


class Worlds(NamedTuple):
    """Positions to value, one per row: hands [n, players] (unplayed cards), trick [n, players] (card ids on
    the current trick in play order from the leader, -1 padding), leader [n] and broken [n] (spades broken
    before this trick)."""

    hands: np.ndarray
    trick: np.ndarray
    leader: np.ndarray
    broken: np.ndarray


@njit(cache=True)
def load_world(
    worlds: Worlds, t: int, players: int, first_rule: int, suit_of: np.ndarray, row: np.ndarray, tr: np.ndarray
) -> tuple[int, Trick]:
    """Copy world `t`'s hands into `row` and its trick's cards into `tr`; return the first-trick rule in force
    for its current trick and the trick as the search carries it."""
    k = 0
    for p in range(players):
        row[p] = worlds.hands[t, p]
        tr[p] = worlds.trick[t, p]
        if worlds.trick[t, p] >= 0:
            k += 1
    rule = first_rule_for(row, players, k, first_rule)
    return rule, trick_state(tr, k, worlds.leader[t], players, suit_of)


@njit(cache=True)
def solve_batch(
    hands: np.ndarray,
    leader: np.ndarray,
    broken: np.ndarray,
    players: int,
    first_rule: int,
    nil_seat: np.ndarray,
    cap: int,
    work: Workspace,
) -> np.ndarray:
    """Per deal at a trick boundary: side 0's DD tricks, or with nil_seat[t] >= 0 the nil seat's fewest; at most `cap`.

    With the table's `META_NODE_BUDGET` set, each deal may take that many search nodes; a deal whose search
    needs more gets -1 (no answer) instead of a search that can run for many minutes."""
    n = hands.shape[0]
    out = np.empty(n, dtype=np.int64)
    meta = work.table.meta
    budget = meta[META_NODE_BUDGET]
    row = np.empty(players, dtype=np.uint64)
    for t in range(n):
        for p in range(players):
            row[p] = hands[t, p]
        rule = first_rule_for(row, players, 0, first_rule)
        # consecutive rows of one deal (as `table` makes, one per leader) have close values
        same = t > 0 and nil_seat[t] == nil_seat[t - 1]
        for p in range(players):
            same = same and hands[t, p] == hands[t - 1, p]
        guess = out[t - 1] if same else -1
        setting = Setting(players, rule, nil_seat[t])
        if budget > 0:
            meta[META_NODE_LIMIT] = meta[META_NODES] + budget
        out[t] = best_value(row, leader[t], broken[t], no_trick(), guess, cap, setting, work)
        if budget > 0 and meta[META_NODES] > meta[META_NODE_LIMIT]:
            out[t] = -1
    meta[META_NODE_LIMIT] = 0
    return out


@njit(cache=True)
def values_batch(
    hands: np.ndarray,
    trick: np.ndarray,
    leader: np.ndarray,
    broken: np.ndarray,
    players: int,
    first_rule: int,
    work: Workspace,
) -> np.ndarray:
    """[n, 52] int8: the acting side's DD tricks from the current trick on, per card; -1 if illegal."""
    n = hands.shape[0]
    out = np.empty((n, 52), dtype=np.int8)
    vals = np.empty(52, dtype=np.int64)
    row = np.empty(players, dtype=np.uint64)
    tr = np.empty(players, dtype=np.int64)
    worlds = Worlds(hands, trick, leader, broken)
    for t in range(n):
        rule, current = load_world(worlds, t, players, first_rule, work.deck.suit_of, row, tr)
        card_values(row, players, leader[t], broken[t], current, rule, work, vals)
        for c in range(52):
            out[t, c] = vals[c]
    return out
