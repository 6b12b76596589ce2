"""The search kernel: does side 0 (seats 0+2, or player 0 in Duel) take at least `target` tricks?

Every question the solver answers reduces to this null-window probe, asked a few times with
different targets (a binary search on the trick count). A probe is an AND/OR tree walk: at a
seat of side 0 one card that reaches the target is enough, at a seat of side 1 every card must.
What keeps it small:

- cards of one hand with no outside card between them (in another hand or on the current trick)
  are one move, so a hand's run K-Q-J is searched once;
- at each trick boundary the transposition table (see `tt`) gives proven bounds on side 0's
  tricks for the same layout of relative ranks, met before under any deal, leader or target;
- quick tricks (winners the leader can cash at once) and the top-trump trick cut probes early;
- moves are tried in a likely-best-first order, so an OR node usually succeeds on its first card
  and an AND node fails on its first.

Card ids are the deck's (suit blocks, trumps on top, each block weakest first), so the winner of a
trick among the cards of the led suit or trump is simply the highest id, for every deck.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spades_lab.dd.tt import NO_LOWER, NO_UPPER, position_key, tt_lookup, tt_store
from spades_lab.engine.bits import BIT, ONE, ZERO, above, below, highest, lowest, popcount

FIRST_FREE, FIRST_TWO_OF_CLUBS, FIRST_LOWEST_CLUBS = 0, 1, 2
"""First-trick rule in force for the trick being played (only ever the hand's first trick)."""

MAX_MOVES = 16


@njit(cache=True, inline="always")
def side_of(seat: int) -> int:
    """Seats 0+2 are side 0 and 1+3 side 1; in Duel the player is the side, so it is seat & 1 both ways."""
    return seat & 1


@njit(cache=True)
def legal_mask(
    hand: np.uint64, leading: bool, led_suit: int, broken: bool, first_rule: int, suit_masks: np.ndarray
) -> np.uint64:
    """Follow suit; no trump lead before trumps break unless only trumps are held; first-trick rules."""
    if first_rule == FIRST_LOWEST_CLUBS:
        clubs = hand & suit_masks[0]
        if clubs != ZERO:
            return clubs & (~clubs + ONE)
        return hand
    if leading:
        if first_rule == FIRST_TWO_OF_CLUBS:
            return hand & suit_masks[0] & (~(hand & suit_masks[0]) + ONE)
        side = hand & ~suit_masks[3]
        if side != ZERO and not broken:
            return side
        return hand
    follow = hand & suit_masks[led_suit]
    return follow if follow != ZERO else hand


@njit(cache=True)
def quick_tricks(hands: np.ndarray, players: int, leader: int, broken: bool, suit_masks: np.ndarray) -> int:
    """Tricks the leader can surely cash from the top, leading throughout (a lower bound for its side).

    In a side suit only cards above every other hand's cards count (so the partner never
    overtakes), at most as many as the shortest opponent holding trumps can follow; suits are
    cashed one after another while those opponents follow, so no cash changes another suit's count.
    Top trumps come last, when leading them is allowed. A partner holding trumps can discard at
    most its non-trump cards before it must ruff and take the lead.
    """
    trump = suit_masks[3]
    me = hands[leader]
    if players == 4:
        partner = hands[(leader + 2) & 3]
        opp1 = hands[(leader + 1) & 3]
        opp2 = hands[(leader + 3) & 3]
    else:
        partner = ZERO
        opp1 = hands[1 - leader]
        opp2 = ZERO
    others = partner | opp1 | opp2
    side_total = 0
    for s in range(3):
        mine = me & suit_masks[s]
        if mine == ZERO:
            continue
        cnt = popcount(mine & above(highest(others & suit_masks[s])))
        if cnt == 0:
            continue
        if opp1 & trump != ZERO:
            cnt = min(cnt, popcount(opp1 & suit_masks[s]))
        if opp2 & trump != ZERO:
            cnt = min(cnt, popcount(opp2 & suit_masks[s]))
        side_total += cnt
    my_side_cards = popcount(me & ~trump)
    if partner & trump != ZERO:
        spare = popcount(partner & ~trump)
        if side_total > spare:
            return spare + 1
    total = side_total
    if broken or side_total == my_side_cards:
        total += popcount(me & trump & above(highest(others & trump)))
    return total


@njit(cache=True)
def _order_moves(
    reps: np.uint64,
    hands: np.ndarray,
    players: int,
    seat: int,
    leading: bool,
    led_suit: int,
    win_card: int,
    win_seat: int,
    suit_of: np.ndarray,
    suit_masks: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
) -> int:
    """Write the representative cards into `moves`, likeliest best first; return their count."""
    n = 0
    trump = suit_masks[3]
    everyone = hands[0] | hands[1]
    if players == 4:
        everyone |= hands[2] | hands[3]
        partner = hands[(seat + 2) & 3]
        lho = hands[(seat + 1) & 3]
        rho = hands[(seat + 3) & 3]
    else:
        partner = ZERO
        lho = hands[1 - seat]
        rho = ZERO
    opps = lho | rho
    m = reps
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        s = suit_of[c]
        rank_in_block = c  # higher ids are stronger within a block
        score = 0
        if leading:
            opp_suit = opps & suit_masks[s]
            if c > highest(opp_suit):
                # no opponent can beat it by following
                score = 60
                if s != 3:
                    # risk of a ruff: an opponent void in the suit who holds trumps
                    if (lho & suit_masks[s] == ZERO and lho & trump != ZERO) or (
                        rho & suit_masks[s] == ZERO and rho & trump != ZERO
                    ):
                        score = 10
            elif partner & suit_masks[s] != ZERO and highest(partner & suit_masks[s]) > highest(opp_suit):
                score = 45 - (rank_in_block & 15)
            elif s != 3 and partner & suit_masks[s] == ZERO and partner & trump != ZERO and (opp_suit != ZERO):
                score = 40 - (rank_in_block & 15)  # lead for partner's ruff
            else:
                score = 20 - (rank_in_block & 15)
                if s == 3:
                    score -= 5
        else:
            beats = (s == led_suit and suit_of[win_card] == led_suit and c > win_card) or (
                s == 3 and (suit_of[win_card] != 3 or c > win_card)
            )
            partner_winning = side_of(win_seat) == side_of(seat)
            if partner_winning:
                score = 30 - c if not beats else 5 - c  # duck under partner, cheapest first
            elif beats:
                score = 100 - c  # the cheapest card that takes the lead
            else:
                score = 40 - c  # cannot win: throw the cheapest
        moves[n] = c
        scores[n] = score
        n += 1
    # insertion sort, highest score first
    for i in range(1, n):
        cm = moves[i]
        cs = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < cs:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = cm
        scores[j + 1] = cs
    return n


@njit(cache=True)
def representatives(legal: np.uint64, separators: np.uint64, suit_masks: np.ndarray) -> np.uint64:
    """The weakest card of each run of `legal` cards with no separator card between them, per suit."""
    out = ZERO
    for s in range(4):
        mine = legal & suit_masks[s]
        if mine == ZERO:
            continue
        u = mine | (separators & suit_masks[s])
        m = mine
        while m != ZERO:
            c = lowest(m)
            m &= m - ONE
            lower = u & below(c)
            if lower == ZERO or BIT[highest(lower)] & mine == ZERO:
                out |= BIT[c]
    return out


@njit(cache=True)
def representative_of(
    card: int, legal: np.uint64, separators: np.uint64, suit_of: np.ndarray, suit_masks: np.ndarray
) -> int:
    """The weakest card of the run `card` belongs to (see `representatives`)."""
    s = suit_of[card]
    mine = legal & suit_masks[s]
    u = mine | (separators & suit_masks[s])
    c = card
    while True:
        lower = u & below(c)
        if lower == ZERO:
            return c
        h = highest(lower)
        if BIT[h] & mine == ZERO:
            return c
        c = h


@njit(cache=True)
def _last_trick(hands: np.ndarray, players: int, leader: int, nil_seat: int, suit_of: np.ndarray) -> int:
    """Side 0's (or the nil seat's) tricks, 0 or 1, in a last trick, where every card is forced."""
    win_card = lowest(hands[leader])
    win_seat = leader
    for k in range(1, players):
        seat = (leader + k) % players
        c = lowest(hands[seat])
        s = suit_of[c]
        ws = suit_of[win_card]
        if (s == ws and c > win_card) or (s == 3 and ws != 3):
            win_card = c
            win_seat = seat
    if nil_seat >= 0:
        return 1 if win_seat == nil_seat else 0
    return 1 if side_of(win_seat) == 0 else 0


@njit(cache=False)  # numba's cache cannot reload a self-recursive function (it crashes): compiled per process
def probe(
    hands: np.ndarray,
    players: int,
    leader: int,
    broken: bool,
    k: int,
    led_suit: int,
    win_card: int,
    win_seat: int,
    trick_mask: np.uint64,
    target: int,
    first_rule: int,
    depth: int,
    nil_seat: int,
    tt_keys: np.ndarray,
    tt_vals: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    suit_of: np.ndarray,
    suit_masks: np.ndarray,
) -> bool:
    """True when side 0 can take `target` of the tricks from the current one (k cards on it) to the end.

    `hands` holds the unplayed cards (it is changed and restored); `trick_mask` the cards on the
    current trick; `depth` indexes the move buffers (one row per card played in this search).
    With `nil_seat` >= 0 the objective is the nil one instead: the nil seat's opponents try to
    make it take `target` tricks (counting only tricks it wins itself), its partner helps it.
    """
    max_side = 0 if nil_seat < 0 else 1 - side_of(nil_seat)
    boundary = k == 0
    if boundary:
        rem = popcount(hands[leader])
        if target <= 0:
            return True
        if target > rem:
            return False
        if rem == 1:
            return _last_trick(hands, players, leader, nil_seat, suit_of) >= target
        if first_rule == FIRST_FREE:
            k1, k2 = position_key(hands, players, leader, broken, suit_masks)
            if nil_seat >= 0:
                k1 |= np.uint64(1 + 2 * nil_seat) << np.uint64(57)
            found, lo, hi = tt_lookup(tt_keys, tt_vals, k1, k2)
            if found:
                if lo >= target:
                    return True
                if hi < target:
                    return False
        if first_rule == FIRST_FREE and nil_seat >= 0:
            # the highest trump wins the trick it falls on, so its holder takes at least one
            if target <= 1 and hands[nil_seat] & suit_masks[3] != ZERO:
                everyone = hands[0] | hands[1]
                if players == 4:
                    everyone |= hands[2] | hands[3]
                if hands[nil_seat] & BIT[highest(everyone & suit_masks[3])] != ZERO:
                    tt_store(tt_keys, tt_vals, k1, k2, 1, NO_UPPER, rem)
                    return True
        elif first_rule == FIRST_FREE:
            qt = quick_tricks(hands, players, leader, broken, suit_masks)
            if side_of(leader) == 0:
                if qt >= target:
                    tt_store(tt_keys, tt_vals, k1, k2, qt, NO_UPPER, rem)
                    return True
            elif rem - qt < target:
                tt_store(tt_keys, tt_vals, k1, k2, NO_LOWER, rem - qt, rem)
                return False
            # the highest trump left wins whatever trick it falls on
            everyone = hands[0] | hands[1]
            if players == 4:
                everyone |= hands[2] | hands[3]
            top_trump = highest(everyone & suit_masks[3])
            if top_trump >= 0:
                holder = 0
                for p in range(players):
                    if hands[p] & BIT[top_trump] != ZERO:
                        holder = p
                if side_of(holder) == 1 and target == rem:
                    tt_store(tt_keys, tt_vals, k1, k2, NO_LOWER, rem - 1, rem)
                    return False
    seat = (leader + k) % players
    hand = hands[seat]
    legal = legal_mask(hand, boundary, led_suit, broken, first_rule, suit_masks)
    separators = trick_mask
    for p in range(players):
        if p != seat:
            separators |= hands[p]
    reps = representatives(legal, separators, suit_masks)
    n = _order_moves(reps, hands, players, seat, boundary, led_suit, win_card, win_seat, suit_of, suit_masks,
                     moves[depth], scores[depth])  # fmt: skip
    my_side = side_of(seat)
    result = my_side != max_side
    for i in range(n):
        c = moves[depth, i]
        bit = BIT[c]
        s = suit_of[c]
        if boundary:
            n_led, n_win, n_seat = s, c, seat
        else:
            n_led, n_win, n_seat = led_suit, win_card, win_seat
            ws = suit_of[win_card]
            if (s == ws and c > win_card) or (s == 3 and ws != 3):
                n_win, n_seat = c, seat
        hands[seat] = hand ^ bit
        if k + 1 == players:
            if nil_seat < 0:
                gained = 1 if side_of(n_seat) == 0 else 0
            else:
                gained = 1 if n_seat == nil_seat else 0
            n_broken = broken or (trick_mask | bit) & suit_masks[3] != ZERO
            ok = probe(hands, players, n_seat, n_broken, 0, -1, -1, -1, ZERO, target - gained, FIRST_FREE,
                       depth + 1, nil_seat, tt_keys, tt_vals, moves, scores, suit_of, suit_masks)  # fmt: skip
        else:
            ok = probe(hands, players, leader, broken, k + 1, n_led, n_win, n_seat, trick_mask | bit, target,
                       first_rule, depth + 1, nil_seat, tt_keys, tt_vals, moves, scores, suit_of, suit_masks)  # fmt: skip
        hands[seat] = hand
        if my_side == max_side and ok:
            result = True
            break
        if my_side != max_side and not ok:
            result = False
            break
    if boundary and first_rule == FIRST_FREE:
        k1, k2 = position_key(hands, players, leader, broken, suit_masks)
        if nil_seat >= 0:
            k1 |= np.uint64(1 + 2 * nil_seat) << np.uint64(57)
        if result:
            tt_store(tt_keys, tt_vals, k1, k2, target, NO_UPPER, popcount(hand))
        else:
            tt_store(tt_keys, tt_vals, k1, k2, NO_LOWER, target - 1, popcount(hand))
    return result


@njit(cache=True)
def trick_state(
    trick: np.ndarray, k: int, leader: int, players: int, suit_of: np.ndarray
) -> tuple[int, int, int, np.uint64]:
    """Led suit, winning card, winning seat and card mask of a trick with `k` cards (play order)."""
    if k == 0:
        return -1, -1, -1, ZERO
    led = suit_of[trick[0]]
    win_card = trick[0]
    win_seat = leader
    mask = BIT[trick[0]]
    for j in range(1, k):
        c = trick[j]
        mask |= BIT[c]
        s = suit_of[c]
        ws = suit_of[win_card]
        if (s == ws and c > win_card) or (s == 3 and ws != 3):
            win_card = c
            win_seat = (leader + j) % players
    return led, win_card, win_seat, mask


@njit(cache=False)  # calls the recursive probe, which numba cannot cache
def best_value(
    hands: np.ndarray,
    players: int,
    leader: int,
    broken: bool,
    trick: np.ndarray,
    k: int,
    first_rule: int,
    nil_seat: int,
    tt_keys: np.ndarray,
    tt_vals: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    suit_of: np.ndarray,
    suit_masks: np.ndarray,
) -> int:
    """Exact tricks side 0 takes from the current trick (with `k` cards on it) to the end.

    With `nil_seat` >= 0: the tricks the nil seat is held to (its opponents maximise them)."""
    led, win_card, win_seat, mask = trick_state(trick, k, leader, players, suit_of)
    rem = popcount(hands[leader]) + (1 if k > 0 else 0)
    lo, hi = 0, rem
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if probe(hands, players, leader, broken, k, led, win_card, win_seat, mask, mid, first_rule, 0, nil_seat,
                 tt_keys, tt_vals, moves, scores, suit_of, suit_masks):  # fmt: skip
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=False)  # calls the recursive probe, which numba cannot cache
def card_values(
    hands: np.ndarray,
    players: int,
    leader: int,
    broken: bool,
    trick: np.ndarray,
    k: int,
    first_rule: int,
    tt_keys: np.ndarray,
    tt_vals: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    suit_of: np.ndarray,
    suit_masks: np.ndarray,
    out: np.ndarray,
) -> None:
    """DD value of every card for the seat to act: its side's tricks from the current trick to the end.

    `out` (length 52 or more, by card id) gets -1 for cards the seat may not play. Cards of one run
    (see `representatives`) are searched once and share the value. `hands` is restored on return;
    `trick` (play order, `k` cards) is used as scratch beyond index k.
    """
    for c in range(out.shape[0]):
        out[c] = -1
    seat = (leader + k) % players
    led, win_card, win_seat, mask = trick_state(trick, k, leader, players, suit_of)
    hand = hands[seat]
    legal = legal_mask(hand, k == 0, led, broken, first_rule, suit_masks)
    separators = mask
    for p in range(players):
        if p != seat:
            separators |= hands[p]
    total = popcount(hands[leader]) + (1 if k > 0 else 0)
    reps = representatives(legal, separators, suit_masks)
    m = reps
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        hands[seat] = hand ^ BIT[c]
        trick[k] = c
        if k + 1 == players:
            _, _, w_seat, t_mask = trick_state(trick, players, leader, players, suit_of)
            gained = 1 if side_of(w_seat) == 0 else 0
            n_broken = broken or t_mask & suit_masks[3] != ZERO
            v0 = gained + best_value(hands, players, w_seat, n_broken, trick, 0, FIRST_FREE, -1,
                                     tt_keys, tt_vals, moves, scores, suit_of, suit_masks)  # fmt: skip
        else:
            v0 = best_value(hands, players, leader, broken, trick, k + 1, first_rule, -1,
                            tt_keys, tt_vals, moves, scores, suit_of, suit_masks)  # fmt: skip
        hands[seat] = hand
        out[c] = v0 if side_of(seat) == 0 else total - v0
    m = legal & ~reps
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        out[c] = out[representative_of(c, legal, separators, suit_of, suit_masks)]
