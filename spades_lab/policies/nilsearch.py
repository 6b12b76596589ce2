"""Double-dummy nil outcomes per card: after this card, can the nil's opponents force a trick on it?

The solver's card values (`spades_lab.dd.card_values`) are the side's tricks, which do not say
which seat takes them, and a nil's fate (100 points either way) is decided by exactly that. The
solver's search also answers the nil question (`spades_lab.dd.nil_tricks`): its probe with the nil
objective lets the nil's opponents push tricks on it while its partner shields it. One probe with
target 1 per legal card is the exact DD answer to "is the nil broken if I play this card", which is
all the hand score needs (a broken nil's second trick only moves a bag).

The side's tricks and the nil's fate are then two separate games; `nil_joint_values` asks the joint
question, the most tricks the side takes on a line that also gives the nil the fate the side wants.

It lives in the policies layer because it is the pimc player's question; it uses only the dd
search's public kernel functions and the same `Solver` working memory (entries for the nil
objective are keyed apart from the trick objective's, so one table serves both).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from spades_lab.dd.search import (
    FIRST_FREE,
    MAX_MOVES,
    STACK_DEPTH,
    Setting,
    Trick,
    Workspace,
    acting_moves,
    fill_runs,
    no_trick,
    order_moves,
    probe,
    representative_of,
    representatives,
    side_of,
    trick_after,
)
from spades_lab.dd.solver import Solver, Worlds, load_world
from spades_lab.engine.bits import BIT, ONE, ZERO, lowest, popcount


@njit(cache=True)
def _nil_values(worlds: Worlds, nil_seat: np.ndarray, players: int, first_rule: int, work: Workspace) -> np.ndarray:
    suit_of, suit_masks = work.deck
    broken = worlds.broken
    n = worlds.hands.shape[0]
    out = np.full((n, 52), -1, dtype=np.int8)
    row = np.empty(players, dtype=np.uint64)
    tr = np.empty(players, dtype=np.int64)
    for t in range(n):
        rule, current = load_world(worlds, t, players, first_rule, suit_of, row, tr)
        k, led, win_card, win_seat, mask = current
        lead = worlds.leader[t]
        # the nil objective, under the first-trick rule for this trick, then under none from the next
        this_trick, next_tricks = Setting(players, rule, nil_seat[t]), Setting(players, FIRST_FREE, nil_seat[t])
        seat, legal, separators = acting_moves(row, players, lead, current, broken[t], rule, suit_masks)
        hand = row[seat]
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
        fill_runs(out[t], legal, reps, separators, work.deck)
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
    n = len(hands)
    return _nil_values(
        _worlds(hands, trick, leader, broken), np.broadcast_to(np.asarray(nil_seat, dtype=np.int64), (n,)).copy(),
        solver.players, solver.first_rule, solver.arrays,
    )  # fmt: skip


def _worlds(hands: np.ndarray, trick: np.ndarray, leader: np.ndarray, broken: np.ndarray) -> Worlds:
    return Worlds(np.ascontiguousarray(hands, dtype=np.uint64), np.ascontiguousarray(trick, dtype=np.int64),
                  np.ascontiguousarray(leader, dtype=np.int64), np.ascontiguousarray(broken, dtype=np.bool_))  # fmt: skip


# Joint valuation: the side's tricks and one live nil's fate from a single game.
#
# The two questions above are separate double-dummy games: the side's most tricks, and whether the nil's
# opponents can force a trick on it. One line of play may not reach both: overtaking an opposing nil that
# holds the trick gains a trick, and the nil can often still be broken later, but only by giving that
# trick back. The joint question is a game with a two-threshold goal: side 0 wins when it ends with at
# least `thr[made]` tricks if the nil ends made, or `thr[broken]` if it ends broken. Once the nil is
# broken the goal is a plain trick count, which the solver's own probe answers (with its table); while it
# is live the walk below plays card by card. At every trick boundary three probes of the solver settle most
# nodes: the nil's fate alone (can its opponents force a trick on it), the higher threshold reached whatever
# the nil, the lower one not reached at all; the boundaries already answered are remembered.

_J_LEADER, _J_BROKEN, _J_K, _J_LED, _J_WIN_CARD, _J_WIN_SEAT, _J_MADE, _J_HIT, _J_FIRST, _J_SEAT, _J_N, _J_I = range(12)
_J_TRICK, _J_HAND = range(2)
_NEVER = 99
"""A threshold no side reaches (more tricks than a hand has); its negative is one every side reaches."""


class JointFrames(NamedTuple):
    """The joint walk's working memory: its stack, one row per card played below its root (the node's
    numbers and its masks), and a table of the answers at trick boundaries already met (`memo_keys`
    [slots, 5]: the four hands, then leader and goal; `memo_answers` [slots]: 0 none, 1 reached, 2 not)."""

    numbers: np.ndarray
    masks: np.ndarray
    moves: np.ndarray
    scores: np.ndarray
    memo_keys: np.ndarray
    memo_answers: np.ndarray
    limit: int
    """Most positions one `joint_probe` may enter before it gives up (answers unknown)."""


MEMO_BITS = 16
"""A joint walk's table holds 2**MEMO_BITS answers (each slot keeps the latest position that hashed to it)."""

JOINT_LIMIT = 100_000
"""Positions a joint question may enter. The walk has no rank-relative table like the solver's, so a few
questions with eight tricks left would take seconds; past the limit the answer is unknown and the caller
keeps the separate valuation."""


def new_frames(limit: int = JOINT_LIMIT) -> JointFrames:
    slots = 1 << MEMO_BITS
    rows = (STACK_DEPTH, MAX_MOVES)
    return JointFrames(np.zeros((STACK_DEPTH, 12), dtype=np.int64), np.zeros((STACK_DEPTH, 2), dtype=np.uint64),
                       np.zeros(rows, dtype=np.int64), np.zeros(rows, dtype=np.int64),
                       np.zeros((slots, 5), dtype=np.uint64), np.zeros(slots, dtype=np.int8), limit)  # fmt: skip


@njit(cache=True, inline="always")
def _memo_key(leader: int, made: int, hit_thr: int, rem: int) -> np.uint64:
    """The last word of a boundary's key: leader and the two thresholds, each clipped to 0..rem + 1 (below 0
    is reached as surely as 0, above the tricks left missed as surely as one more)."""
    m = min(max(made, 0), rem + 1)
    h = min(max(hit_thr, 0), rem + 1)
    return np.uint64(leader) | (np.uint64(m) << np.uint64(8)) | (np.uint64(h) << np.uint64(16))


@njit(cache=True, inline="always")
def _memo_slot(hands: np.ndarray, last: np.uint64, slots: int) -> int:
    h = last * np.uint64(0x9E3779B97F4A7C15)
    for p in range(4):
        h = (h ^ hands[p]) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(slots - 1))  # type: ignore[return-value]  # numba int


class JointGoal(NamedTuple):
    """Side 0's goal: at least `made` tricks from here on if the nil of `nil_seat` ends made, `broken` if
    it ends broken (it is live at the root)."""

    made: int
    broken: int
    nil_seat: int


@njit(cache=True)
def _joint_bound(
    hands: np.ndarray, leader: int, broken: bool, k: int, goal: JointGoal, nil_hit: bool, setting: Setting,
    work: Workspace,
) -> int:  # fmt: skip
    """1 when side 0 surely reaches its goal from this node, -1 when it surely cannot, 0 when the walk must go on."""
    rem = popcount(hands[leader]) + (1 if k > 0 else 0)
    if nil_hit:
        if goal.broken <= 0:
            return 1
        if goal.broken > rem:
            return -1
        # a plain trick count from here: the solver's probe (at a trick boundary: the nil seat took the last trick)
        ok, _ = probe(hands, leader, broken, no_trick(), goal.broken, 0, Setting(setting.players, FIRST_FREE, -1), work)
        return 1 if ok else -1
    lo, hi = min(goal.made, goal.broken), max(goal.made, goal.broken)
    if rem == 0:
        return 1 if goal.made <= 0 else -1
    if hi <= 0:
        return 1
    if lo > rem:
        return -1
    if k > 0:
        return 0
    # the nil's fate alone: can its opponents force a trick on it (its partner shielding it)?
    forced, _ = probe(hands, leader, broken, no_trick(), 1, 0, Setting(setting.players, setting.first_rule, goal.nil_seat),
                      work)  # fmt: skip
    opponents = side_of(goal.nil_seat) != 0  # side 0 plays against the nil
    if opponents:
        if forced and goal.broken <= 0:
            return 1
        if not forced and goal.made > rem:
            return -1
    else:
        if forced and goal.broken > rem:
            return -1
        if not forced and goal.made <= 0:
            return 1
    plain = Setting(setting.players, setting.first_rule, -1)
    if hi <= rem:
        ok, _ = probe(hands, leader, broken, no_trick(), hi, 0, plain, work)
        if ok:
            return 1
    if lo > 0:
        ok, _ = probe(hands, leader, broken, no_trick(), lo, 0, plain, work)
        if not ok:
            return -1
    return 0


@njit(cache=True)
def joint_probe(
    hands: np.ndarray, leader: int, broken: bool, trick: Trick, goal: JointGoal, setting: Setting, work: Workspace,
    frames: JointFrames,
) -> int:  # fmt: skip
    """Does side 0 reach `goal` (see `JointGoal`) from the current `trick`, led by `leader`, the nil live?
    1 yes, 0 no, -1 unknown (more than `frames.limit` positions entered).

    An AND/OR walk over the cards (a run of one hand is one move, as in the solver, in the solver's order)
    while the nil is live, with an explicit stack (`frames`) so that it caches, and the answers at trick
    boundaries kept in `frames`' table; `hands` is changed and restored."""
    suit_of, suit_masks = work.deck
    players = setting.players
    numbers, masks, moves = frames.numbers, frames.masks, frames.moves
    k, led, win_card, win_seat, trick_mask = trick
    first_rule = setting.first_rule
    made, hit_thr, nil_seat = goal
    nil_hit = False
    d = 0
    entering = True
    ok = False
    seat = 0
    hand = ZERO
    n = i = 0
    memo_keys, memo_answers = frames.memo_keys, frames.memo_answers
    slots = memo_answers.shape[0]
    entered = 0
    while True:
        decided = False
        if entering:
            entered += 1
            if entered > frames.limit:
                for up in range(d - 1, -1, -1):  # give up: every hand as it was at the root
                    hands[numbers[up, _J_SEAT]] = masks[up, _J_HAND]
                return -1
            verdict = 0
            if k == 0 and not nil_hit and players == 4:
                last = _memo_key(leader, made, hit_thr, popcount(hands[leader]))
                slot = _memo_slot(hands, last, slots)
                if memo_answers[slot] != 0 and memo_keys[slot, 4] == last:
                    same = True
                    for p in range(4):
                        same = same and memo_keys[slot, p] == hands[p]
                    if same:
                        verdict = 1 if memo_answers[slot] == 1 else -1
            if verdict == 0:
                verdict = _joint_bound(hands, leader, broken, k, JointGoal(made, hit_thr, nil_seat), nil_hit,
                                       Setting(players, first_rule, -1), work)  # fmt: skip
            if verdict != 0:
                ok, decided = verdict > 0, True
            else:
                current = Trick(k, led, win_card, win_seat, trick_mask)
                seat, legal, separators = acting_moves(hands, players, leader, current, broken, first_rule, suit_masks)
                hand = hands[seat]
                reps = representatives(legal, separators, suit_masks)
                n = order_moves(reps, hands, players, seat, current, work.deck, moves[d], frames.scores[d])
                i = 0
        else:
            fr, ms = numbers[d], masks[d]
            leader, broken, k, led = fr[_J_LEADER], fr[_J_BROKEN] != 0, fr[_J_K], fr[_J_LED]
            win_card, win_seat, made, hit_thr = fr[_J_WIN_CARD], fr[_J_WIN_SEAT], fr[_J_MADE], fr[_J_HIT]
            first_rule, seat, n, i = fr[_J_FIRST], fr[_J_SEAT], fr[_J_N], fr[_J_I]
            trick_mask, hand = ms[_J_TRICK], ms[_J_HAND]
            hands[seat] = hand
            nil_hit = False
            if ok == (side_of(seat) == 0):
                decided = True  # one card decides the node
        if not decided:
            if i == n:
                ok, decided = side_of(seat) != 0, True  # every card tried: the node goes to the other side
            else:
                c = moves[d, i]
                i += 1
                fr, ms = numbers[d], masks[d]
                fr[_J_LEADER], fr[_J_BROKEN], fr[_J_K], fr[_J_LED] = leader, 1 if broken else 0, k, led
                fr[_J_WIN_CARD], fr[_J_WIN_SEAT], fr[_J_MADE], fr[_J_HIT] = win_card, win_seat, made, hit_thr
                fr[_J_FIRST], fr[_J_SEAT], fr[_J_N], fr[_J_I] = first_rule, seat, n, i
                ms[_J_TRICK], ms[_J_HAND] = trick_mask, hand
                n_led, n_win, n_seat = trick_after(c, seat, k, led, win_card, win_seat, suit_of)
                bit = BIT[c]
                hands[seat] = hand ^ bit
                if k + 1 == players:
                    gained = 1 if side_of(n_seat) == 0 else 0
                    broken = broken or (trick_mask | bit) & suit_masks[3] != ZERO
                    made, hit_thr = made - gained, hit_thr - gained
                    nil_hit = n_seat == nil_seat
                    leader, k, led, win_card, win_seat, trick_mask, first_rule = n_seat, 0, -1, -1, -1, ZERO, FIRST_FREE
                else:
                    k, led, win_card, win_seat, trick_mask = k + 1, n_led, n_win, n_seat, trick_mask | bit
                d += 1
                entering = True
                continue
        # this node is decided (ok): remembered at a trick boundary, then back to its parent
        if k == 0 and not nil_hit and players == 4:
            last = _memo_key(leader, made, hit_thr, popcount(hands[leader]))
            slot = _memo_slot(hands, last, slots)
            for p in range(4):
                memo_keys[slot, p] = hands[p]
            memo_keys[slot, 4] = last
            memo_answers[slot] = 1 if ok else 2
        if d == 0:
            return 1 if ok else 0
        d -= 1
        entering = False


@njit(cache=True)
def _joint_values(
    worlds: Worlds, nil_seat: int, values: np.ndarray, hit: np.ndarray, ask: np.uint64, setting: Setting,
    work: Workspace, frames: JointFrames,
) -> np.ndarray:  # fmt: skip
    suit_of, suit_masks = work.deck
    players = setting.players
    broken = worlds.broken
    n = worlds.hands.shape[0]
    out = np.full((n, 52), -1, dtype=np.int8)
    row = np.empty(players, dtype=np.uint64)
    tr = np.empty(players, dtype=np.int64)
    for t in range(n):
        rule, current = load_world(worlds, t, players, setting.first_rule, suit_of, row, tr)
        k, led, win_card, win_seat, mask = current
        lead = worlds.leader[t]
        seat, legal, separators = acting_moves(row, players, lead, current, broken[t], rule, suit_masks)
        ours = side_of(seat)
        wants_broken = side_of(nil_seat) != ours
        total = popcount(row[lead]) + (1 if k > 0 else 0)
        hand = row[seat]
        reps = representatives(legal, separators, suit_masks)
        asked = ZERO  # the runs of the cards asked about
        m = ask & legal
        while m != ZERO:
            c = lowest(m)
            m &= m - ONE
            asked |= BIT[representative_of(c, legal, separators, suit_of, suit_masks)]
        m = reps & asked
        while m != ZERO:
            c = lowest(m)
            m &= m - ONE
            if values[t, c] < 0 or (hit[t, c] == 1) != wants_broken:
                continue  # the nil outcome the side wants is out of its reach after this card
            bit = BIT[c]
            n_led, n_win, n_seat = trick_after(c, seat, k, led, win_card, win_seat, suit_of)
            row[seat] = hand ^ bit
            if k + 1 == players:
                gained = 1 if side_of(n_seat) == 0 else 0
                child = no_trick()
                c_lead, c_broken, c_rule = n_seat, broken[t] or (mask | bit) & suit_masks[3] != ZERO, FIRST_FREE
                hit_now = n_seat == nil_seat
            else:
                gained = 0
                child = Trick(k + 1, n_led, n_win, n_seat, mask | bit)
                c_lead, c_broken, c_rule = lead, broken[t], rule
                hit_now = False
            # the most tricks the side takes with the nil as it wants it: its DD tricks, then one fewer, then bisection
            best = -1
            lo, hi = 0, int(values[t, c])
            if hit_now:
                best = hi  # the nil is broken by this very card: the side's DD tricks go with it
                lo = hi + 1
            steps = 0
            while lo <= hi:
                target = hi if steps < 2 else (lo + hi + 1) // 2
                steps += 1
                # side 0's goal for "the side gets the nil it wants and `target` tricks", or its complement
                if ours == 0:
                    want, other = target - gained, _NEVER
                else:
                    want, other = total - target + 1 - gained, -_NEVER
                goal = JointGoal(other, want, nil_seat) if wants_broken else JointGoal(want, other, nil_seat)
                answer = joint_probe(row, c_lead, c_broken, child, goal, Setting(players, c_rule, -1), work, frames)
                if answer < 0:
                    best = hi  # unknown: the most not yet ruled out (the DD tricks at first: the separate answer)
                    break
                if (answer == 1) == (ours == 0):
                    best = target
                    lo = target + 1
                else:
                    hi = target - 1
            row[seat] = hand
            out[t, c] = best
        fill_runs(out[t], legal, reps, separators, work.deck)
    return out


def nil_joint_values(
    hands: np.ndarray, trick: np.ndarray, leader: np.ndarray, broken: np.ndarray, nil_seat: int,
    values: np.ndarray, hit: np.ndarray, solver: Solver, *, cards: int = -1, frames: JointFrames | None = None,
) -> np.ndarray:  # fmt: skip
    """[n, 52] int8 per card id of the acting seat: the most tricks its side takes from the current trick on
    on a line that also gives the live nil of `nil_seat` the fate the side wants (broken for an opponent's
    nil, made for its own), -1 where the side cannot have that fate or the card is illegal.

    `values` [n, 52] are the side's DD tricks per card (`spades_lab.dd.card_values`) and `hit` the nil's
    fate per card (`nil_broken_values`), both for the same worlds (same layout). Where the wanted fate is
    within reach the answer is at most `values`: equal when both optima fit one line of play, lower when
    the fate costs tricks. The side then has two outcomes to choose from: its DD tricks with the other
    fate, or these tricks with the fate it wants.

    `cards` (a card mask; every card by default) limits the question to those cards (-1 for the others);
    `frames` (from `new_frames`) keeps the walk's table of answers from one call to the next of the same
    decision (same acting seat and nil).
    """
    return _joint_values(
        _worlds(hands, trick, leader, broken), int(nil_seat), np.ascontiguousarray(values, dtype=np.int64),
        np.ascontiguousarray(hit, dtype=np.int64), np.uint64(cards & ((1 << 64) - 1)),
        Setting(solver.players, solver.first_rule, -1), solver.arrays, new_frames() if frames is None else frames,
    )  # fmt: skip
