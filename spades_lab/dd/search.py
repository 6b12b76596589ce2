"""The search kernel: does side 0 (seats 0+2, or player 0 in Duel) take at least `target` tricks?

Every question the solver answers reduces to this null-window probe, asked a few times with
different targets (a binary search on the trick count). A probe is an AND/OR tree walk: at a
seat of side 0 one card that reaches the target is enough, at a seat of side 1 every card must.
What keeps it small:

- cards of one hand with no outside card between them (in another hand or on the current trick)
  are one move, so a hand's run K-Q-J is searched once;
- at each trick boundary the transposition table (see `tt`) gives proven bounds on side 0's
  tricks for the same layout of relative ranks, met before under any deal, leader or target;
- quick tricks (winners the leader can cash at once, or run in one suit with the partner's winners)
  and sure trump tricks (one hand's trumps above every opposing trump) cut probes early;
- moves are tried in a likely-best-first order, so an OR node usually succeeds on its first card
  and an AND node fails on its first; at a trick boundary the *killer lead* (the card that last
  decided a boundary with as many tricks left and the same leader) goes first.

Card ids are the deck's (suit blocks, trumps on top, each block weakest first), so the winner of a
trick among the cards of the led suit or trump is simply the highest id, for every deck.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from spades_lab.dd.tt import (
    META_CUTS,
    META_FIRST_CUTS,
    META_KILLERS,
    META_LATE_MOVES,
    META_NODE_LIMIT,
    META_NODES,
    NO_LOWER,
    NO_UPPER,
    PositionKey,
    TransTable,
    position_code,
    tt_probe,
    tt_save,
)
from spades_lab.engine.bits import BIT, ONE, ZERO, above, below, highest, lowest, popcount
from spades_lab.engine.trick import (
    FIRST_TRICK_FREE,
    FIRST_TRICK_LOWEST_CLUBS,
    FIRST_TRICK_TWO_OF_CLUBS,
    legal_plays,
    takes,
)

FIRST_FREE, FIRST_TWO_OF_CLUBS, FIRST_LOWEST_CLUBS = (
    FIRST_TRICK_FREE,
    FIRST_TRICK_TWO_OF_CLUBS,
    FIRST_TRICK_LOWEST_CLUBS,
)
"""First-trick rule in force for the trick being played (only ever the hand's first trick): the engine's."""

MAX_MOVES = 16

UNCAPPED = 64
"""`best_value`'s cap when the exact value is wanted: more tricks than any hand has."""


class Trick(NamedTuple):
    """The trick in progress, as a search carries it from card to card: `k` cards on it, the suit led,
    the card that holds it and its seat (-1 each before the lead), and its cards as a mask."""

    k: int
    led_suit: int
    win_card: int
    win_seat: int
    mask: np.uint64


class Setting(NamedTuple):
    """What a search asks, fixed from its root down: the seats at the table, the first-trick rule for
    the root's trick (no later trick has one), and the objective: side 0's tricks, or with
    `nil_seat` >= 0 the tricks that seat is held to."""

    players: int
    first_rule: int
    nil_seat: int


class Stack(NamedTuple):
    """The search's working stack, one row per depth (see `new_stack`): `planes` int64 [depth, plane,
    MAX_MOVES] (the node's moves, their scores, its frame) and `masks` uint64 [depth, 16] (its card masks)."""

    planes: np.ndarray
    masks: np.ndarray


class DeckTables(NamedTuple):
    """The rules' deck as the search reads it: each card id's suit, and each suit's cards as a mask."""

    suit_of: np.ndarray
    suit_masks: np.ndarray


class Workspace(NamedTuple):
    """A solver's working memory and deck tables (the transposition table, the stack, the deck), one
    argument for the entry points and `probe`. The helpers a node calls take only the parts they read:
    numba passes a record's fields as separate machine arguments, all of them copied at every call."""

    table: TransTable
    stack: Stack
    deck: DeckTables


@njit(cache=True, inline="always")
def no_trick() -> Trick:
    """A trick boundary: no card on the trick yet."""
    return Trick(0, -1, -1, -1, ZERO)


@njit(cache=True, inline="always")
def side_of(seat: int) -> int:
    """Seats 0+2 are side 0 and 1+3 side 1; in Duel the player is the side, so it is seat & 1 both ways."""
    return seat & 1


@njit(cache=True, inline="always")
def legal_mask(
    hand: np.uint64, leading: bool, led_suit: int, broken: bool, first_rule: int, suit_masks: np.ndarray
) -> np.uint64:
    """The engine's legal plays (`trick.legal_plays`); under the two-of-clubs rule the first leader holds
    the deck's lowest club, which is its lowest club."""
    clubs = hand & suit_masks[0]
    return legal_plays(hand, leading, led_suit, broken, suit_masks, first_rule, lowest(clubs) if clubs != ZERO else 0)


@njit(cache=True, inline="always")
def trick_after(
    card: int, seat: int, k: int, led_suit: int, win_card: int, win_seat: int, suit_of: np.ndarray
) -> tuple[int, int, int]:
    """Led suit, winning card and winning seat once `seat` plays `card` as the trick's card number `k`."""
    s = suit_of[card]
    if k == 0:
        return s, card, seat
    if takes(card, s, win_card, suit_of[win_card]):
        return led_suit, card, seat
    return led_suit, win_card, win_seat


@njit(cache=True)
def _cash(hands: np.ndarray, players: int, leader: int, broken: bool, suit_masks: np.ndarray) -> tuple[int, np.uint64]:
    """Tricks the leader can surely cash from the top, leading throughout (a lower bound for its side).

    In a side suit only cards above every other hand's cards count (so the partner never
    overtakes), at most as many as the shortest opponent holding trumps can follow; suits are
    cashed one after another while those opponents follow, so no cash changes another suit's count.
    Top trumps come last, when leading them is allowed. A partner holding trumps can discard at
    most its non-trump cards before it must ruff and take the lead. Also returns the weakest
    counted winner of each suit used: the ranks the bound rests on.
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
    rel = ZERO
    for s in range(3):
        mine = me & suit_masks[s]
        if mine == ZERO:
            continue
        tops = mine & above(highest(others & suit_masks[s]))
        cnt = popcount(tops)
        if cnt == 0:
            continue
        rel |= BIT[lowest(tops)]
        if opp1 & trump != ZERO:
            cnt = min(cnt, popcount(opp1 & suit_masks[s]))
        if opp2 & trump != ZERO:
            cnt = min(cnt, popcount(opp2 & suit_masks[s]))
        side_total += cnt
    my_side_cards = popcount(me & ~trump)
    if partner & trump != ZERO:
        spare = popcount(partner & ~trump)
        if side_total > spare:
            return spare + 1, rel
    total = side_total
    if broken or side_total == my_side_cards:
        tops = me & trump & above(highest(others & trump))
        if tops != ZERO:
            total += popcount(tops)
            rel |= BIT[lowest(tops)]
    return total, rel


@njit(cache=True)
def _joint_run(hands: np.ndarray, leader: int, s: int, suit_masks: np.ndarray) -> tuple[int, np.uint64]:
    """Tricks the leader's side surely takes in side suit `s` alone, both hands' winners counted.

    A line of play for the side: the hand on lead plays its highest card of the suit, its partner
    follows with its lowest; the trick is the side's when either card is above every opponent's
    card of the suit (a winner), and the higher of the two leads next. Counting stops at the first
    trick that no winner takes, when the hand on lead runs out of the suit, when the partner must
    ruff or when an opponent with trumps is void. Who wins each trick depends only on which cards
    are winners, so the bound rests on the ranks from the weakest winner used up."""
    trump = suit_masks[3]
    sm = suit_masks[s]
    lho = hands[(leader + 1) & 3]
    rho = hands[(leader + 3) & 3]
    opp_top = highest((lho | rho) & sm)
    limit = 13
    if lho & trump != ZERO:
        limit = min(limit, popcount(lho & sm))
    if rho & trump != ZERO:
        limit = min(limit, popcount(rho & sm))
    on_lead = hands[leader] & sm
    follow = hands[(leader + 2) & 3] & sm
    follow_spare = popcount(hands[(leader + 2) & 3] & ~trump & ~sm)
    lead_spare = popcount(hands[leader] & ~trump & ~sm)
    wins = above(opp_top)
    got = 0
    low_used = -1
    while got < limit and on_lead != ZERO:
        a = highest(on_lead)
        if follow != ZERO:
            b = lowest(follow)
        else:
            if follow_spare == 0:
                break
            b = -1
        if BIT[a] & wins == ZERO and (b < 0 or BIT[b] & wins == ZERO):
            break
        w = a if b < a else b
        if low_used < 0 or w < low_used:
            low_used = w
        on_lead ^= BIT[a]
        if b >= 0:
            follow ^= BIT[b]
        else:
            follow_spare -= 1
        got += 1
        if b > a:
            on_lead, follow = follow, on_lead
            lead_spare, follow_spare = follow_spare, lead_spare
    if got == 0:
        return 0, ZERO
    return got, BIT[low_used]


@njit(cache=True)
def quick_tricks(
    hands: np.ndarray, players: int, leader: int, broken: bool, suit_masks: np.ndarray
) -> tuple[int, np.uint64]:
    """Sure tricks of the leader's side from here: the leader's own cashes (`_cash`), or, when that
    is less, a small card led to a side suit the partner wins at once, then the partner's cashes.

    For the entry trick the leader plays its lowest card of the suit, the partner its top card
    (above every other hand's cards of the suit), and each opponent is taken to follow with its
    lowest card (playing a higher one only helps the partner's later cashes); the partner's count
    in that suit being at least one after the ruff limit means no opponent can ruff it. Also
    returns the cards whose ranks the bound rests on.
    """
    best, rel = _cash(hands, players, leader, broken, suit_masks)
    if players != 4:
        return best, rel
    for s in range(3):
        if hands[leader] & suit_masks[s] != ZERO:
            got, r = _joint_run(hands, leader, s, suit_masks)
            if got > best:
                best = got
                rel = r
    partner = (leader + 2) & 3
    lho = (leader + 1) & 3
    rho = (leader + 3) & 3
    trump = suit_masks[3]
    me = hands[leader]
    pa = hands[partner]
    for s in range(3):
        sm = suit_masks[s]
        mine = me & sm
        theirs = pa & sm
        if mine == ZERO or theirs == ZERO:
            continue
        top = highest(theirs)
        if top < highest((me | hands[lho] | hands[rho]) & sm):
            continue
        # the entry must not be ruffable: each opponent follows or holds no trump
        if (hands[lho] & sm == ZERO and hands[lho] & trump != ZERO) or (
            hands[rho] & sm == ZERO and hands[rho] & trump != ZERO
        ):
            continue
        a, b, c = hands[lho], hands[rho], me
        hands[leader] = me ^ BIT[lowest(mine)]
        hands[partner] = pa ^ BIT[top]
        if a & sm != ZERO:
            hands[lho] = a ^ BIT[lowest(a & sm)]
        if b & sm != ZERO:
            hands[rho] = b ^ BIT[lowest(b & sm)]
        got, r = _cash(hands, players, partner, broken, suit_masks)
        hands[leader] = c
        hands[partner] = pa
        hands[lho] = a
        hands[rho] = b
        if got + 1 > best:
            best = got + 1
            rel = r | BIT[top]
    return best, rel


@njit(cache=True)
def order_moves(
    reps: np.uint64,
    hands: np.ndarray,
    players: int,
    seat: int,
    trick: Trick,
    deck: DeckTables,
    moves: np.ndarray,
    scores: np.ndarray,
) -> int:
    """Write the representative cards into `moves`, likeliest best first; return their count.

    Leads: cash sure winners, then lead towards the partner's winners or its ruff, then low cards.
    Follows: the cheapest card that wins the trick for good; under a partner who holds the trick,
    the lowest card; otherwise the lowest card (second hand low).
    """
    suit_of, suit_masks = deck
    k, led_suit, win_card, win_seat, _ = trick
    leading, last, third = k == 0, k == players - 1, k == 2 and players == 4
    n = 0
    trump = suit_masks[3]
    if players == 4:
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
        low = c - int(lowest(suit_masks[s]))  # rank within the suit block, 0 = weakest
        score = 0
        if leading:
            opp_suit = opps & suit_masks[s]
            ruff_risk = s != 3 and (
                (lho & suit_masks[s] == ZERO and lho & trump != ZERO)
                or (rho & suit_masks[s] == ZERO and rho & trump != ZERO)
            )
            if c > highest(opp_suit) and not ruff_risk:
                score = 90 if s != 3 else 80
            elif not ruff_risk and highest(partner & suit_masks[s]) > highest(opp_suit):
                score = 70 - low
            elif s != 3 and partner != ZERO and partner & suit_masks[s] == ZERO and partner & trump != ZERO:
                score = 60 - low
            elif not ruff_risk and highest(partner & suit_masks[s]) > highest(lho & suit_masks[s]):
                # the partner plays after the left-hand opponent: it wins unless the right-hand one beats it
                score = 45 - low
            else:
                score = 30 - low
                if s == 3:
                    score -= 10
        else:
            ws = suit_of[win_card]
            beats = takes(c, s, win_card, ws)
            partner_winning = side_of(win_seat) == side_of(seat)
            # can the next seat (an opponent: LHO) still beat the card that would hold the trick?
            nxt = ZERO if last else lho
            if beats:
                best = c
                bs = s
            else:
                best = win_card
                bs = ws
            nxt_follow = nxt & suit_masks[led_suit]
            if bs == 3:
                threat = (nxt_follow == ZERO or led_suit == 3) and highest(nxt & trump) > best
            else:
                threat = highest(nxt_follow) > best or (nxt_follow == ZERO and nxt & trump != ZERO)
            if partner_winning:
                score = (20 - low) if not beats else (-20 - low)
                if beats and not threat:
                    # third hand high: overtake when the next opponent would beat the partner's card
                    if ws == 3:
                        p_threat = (nxt_follow == ZERO or led_suit == 3) and highest(nxt & trump) > win_card
                    else:
                        p_threat = highest(nxt_follow) > win_card or (nxt_follow == ZERO and nxt & trump != ZERO)
                    if p_threat:
                        score = 90 - low
            elif beats:
                score = (100 - low) if not threat else (10 - low)
                if threat and third:
                    score = 45 - low  # third hand high: make the last hand spend its winner
            else:
                score = 40 - low
            if s != led_suit and s != 3:
                score -= 2 * popcount(hands[seat] & suit_masks[s] & above(c))  # discard from short, weak suits
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
def run_above(card: int, legal: np.uint64, separators: np.uint64, suit_mask: np.uint64) -> np.uint64:
    """The cards of `card`'s run above it: legal cards of its suit up to the next separator card."""
    sep = separators & suit_mask & above(card)
    cap = below(lowest(sep)) if sep != ZERO else suit_mask
    return legal & suit_mask & above(card) & cap


@njit(cache=True)
def acting_moves(
    hands: np.ndarray, players: int, leader: int, trick: Trick, broken: bool, first_rule: int, suit_masks: np.ndarray
) -> tuple[int, np.uint64, np.uint64]:
    """The seat to act on `trick`, its legal cards, and the cards that separate runs for it (everything
    not in its hand: the other hands and the trick's cards; see `representatives`)."""
    seat = (leader + trick.k) % players
    hand = hands[seat]
    legal = legal_mask(hand, trick.k == 0, trick.led_suit, broken, first_rule, suit_masks)
    separators = trick.mask
    for p in range(players):
        if p != seat:
            separators |= hands[p]
    return seat, legal, separators


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
def fill_runs(out: np.ndarray, legal: np.uint64, reps: np.uint64, separators: np.uint64, deck: DeckTables) -> None:
    """Each legal card that was not searched (`reps` holds the searched ones) gets its run's value in `out`
    (by card id): a card plays as its run's representative does."""
    m = legal & ~reps
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        out[c] = out[representative_of(c, legal, separators, deck.suit_of, deck.suit_masks)]


@njit(cache=True)
def _last_trick(
    hands: np.ndarray, players: int, leader: int, nil_seat: int, suit_of: np.ndarray
) -> tuple[int, np.uint64]:
    """Side 0's (or the nil seat's) tricks, 0 or 1, in a last trick, where every card is forced;
    and the winner if it won by rank."""
    win_card = lowest(hands[leader])
    win_seat = leader
    by_rank = False
    for k in range(1, players):
        seat = (leader + k) % players
        c = lowest(hands[seat])
        s = suit_of[c]
        ws = suit_of[win_card]
        if s == ws:
            by_rank = True
        if takes(c, s, win_card, ws):
            by_rank = s == ws
            win_card = c
            win_seat = seat
    rel = BIT[win_card] if by_rank else ZERO
    if nil_seat >= 0:
        return (1 if win_seat == nil_seat else 0), rel
    return (1 if side_of(win_seat) == 0 else 0), rel


# The search walks its tree with an explicit stack (one row of a `Stack`'s planes and masks per depth:
# the node's moves, their scores and its frame) rather than by recursion, because numba can cache
# a loop but not a self-recursive function: a new process loads the compiled search from the cache
# in a moment instead of compiling it for tens of seconds. Without NRT (`_nrt`, numba's flag; probe
# makes no array) calls into the helpers skip the atomic reference counts of their array arguments.
_NO_NRT: dict[str, Any] = {"_nrt": False}

MOVES, SCORES, FRAME = 0, 1, 2
"""Planes of `stack[depth]`: the node's ordered moves, the ordering's scratch scores, its frame."""

# the frame of a node while one of its moves is searched (`stack[depth, FRAME]`)
F_LEADER, F_BROKEN, F_K, F_LED, F_WIN_CARD, F_WIN_SEAT, F_TARGET, F_FIRST = range(8)
F_SEAT, F_N, F_KILLER, F_I, F_RESULT, F_STORED, F_CARD, F_NEXT_WIN = range(8, 16)
# and its card masks (`stack_masks[depth]`)
M_TRICK, M_HAND, M_LEGAL, M_SEPARATORS, M_REL, M_SKIP, M_SHAPE, M_W0, M_W1, M_EVERYONE, M_NEXT_TRICK = range(11)

STACK_DEPTH = 64
"""Rows of the stack: one per card played below the root, 52 at most."""


def new_stack() -> Stack:
    """The search's working stack, zeroed."""
    return Stack(np.zeros((STACK_DEPTH, 3, MAX_MOVES), dtype=np.int64), np.zeros((STACK_DEPTH, 16), dtype=np.uint64))


@njit(cache=True, **_NO_NRT)
def _known_bound(
    hands: np.ndarray,
    leader: int,
    broken: bool,
    target: int,
    key: PositionKey,
    setting: Setting,
    table: TransTable,
    suit_masks: np.ndarray,
) -> tuple[int, np.uint64]:
    """At a trick boundary: 1 when side 0 surely takes `target` of the tricks left, -1 when it surely
    cannot, 0 when the table and the bounds do not tell; with the cards whose ranks the proof used.
    A bound found here is saved in the table.

    It takes the table and the suit masks, not the whole `Workspace` (see there): it is called at most
    trick boundaries."""
    players, nil_seat = setting.players, setting.nil_seat
    everyone = key.everyone
    rem = popcount(hands[leader])
    verdict, rel = tt_probe(table, key, target, suit_masks)
    if verdict != 0:
        return verdict, rel
    top_trump = highest(everyone & suit_masks[3])
    if nil_seat >= 0:
        # the highest trump wins the trick it falls on, so its holder takes at least one
        if target <= 1 and top_trump >= 0 and hands[nil_seat] & BIT[top_trump] != ZERO:
            rel = BIT[top_trump]
            tt_save(table, key, rel, suit_masks, 1, NO_UPPER)
            return 1, rel
        return 0, ZERO
    qt, rel = quick_tricks(hands, players, leader, broken, suit_masks)
    if side_of(leader) == 0:
        if qt >= target:
            tt_save(table, key, rel, suit_masks, qt, NO_UPPER)
            return 1, rel
    elif rem - qt < target:
        tt_save(table, key, rel, suit_masks, NO_LOWER, rem - qt)
        return -1, rel
    if top_trump < 0 and players == 4:
        # no trumps left: when an opponent tops every suit the leader can lead, the first
        # trick is theirs, so the leader's side cannot take every remaining trick
        lho, rho = hands[(leader + 1) & 3], hands[(leader + 3) & 3]
        ours = hands[leader] | hands[(leader + 2) & 3]
        lost = True
        rel = ZERO
        for s in range(3):
            sm = suit_masks[s]
            if hands[leader] & sm == ZERO:
                continue
            their = highest((lho | rho) & sm)
            if their < highest(ours & sm):
                lost = False
                break
            rel |= BIT[their]
        if lost:
            if side_of(leader) == 0 and target >= rem:
                tt_save(table, key, rel, suit_masks, NO_LOWER, rem - 1)
                return -1, rel
            if side_of(leader) == 1 and target <= 1:
                tt_save(table, key, rel, suit_masks, 1, NO_UPPER)
                return 1, rel
    if top_trump >= 0:
        # a hand holding the top trumps in sequence wins a trick with each of them
        holder = 0
        for p in range(players):
            if hands[p] & BIT[top_trump] != ZERO:
                holder = p
        run = top_trump
        trumps = everyone & suit_masks[3]
        while True:
            nxt = highest(trumps & below(run))
            if nxt < 0 or hands[holder] & BIT[nxt] == ZERO:
                break
            run = nxt
        sure = popcount(hands[holder] & suit_masks[3] & ~below(run))
        rel = BIT[run]
        if side_of(holder) == 1 and target > rem - sure:
            tt_save(table, key, rel, suit_masks, NO_LOWER, rem - sure)
            return -1, rel
        if side_of(holder) == 0 and target <= sure:
            tt_save(table, key, rel, suit_masks, sure, NO_UPPER)
            return 1, rel
        # each trump of one hand above every opposing trump takes a trick for its side (it
        # wins the trick it falls on unless the partner's card beats it), one trick per card
        for side in range(2):
            opp_top = -1
            for p in range(players):
                if side_of(p) != side:
                    opp_top = max(opp_top, highest(hands[p] & trumps))
            sure = 0
            best_mine = ZERO
            for p in range(players):
                if side_of(p) == side:
                    mine = hands[p] & trumps & above(opp_top)
                    cnt = popcount(mine)
                    if cnt > sure:
                        sure = cnt
                        best_mine = mine
            need = target if side == 0 else rem - target + 1
            if sure < need:
                continue
            # the proof rests only on the `need` highest of them: pin the ranks from there up
            for _ in range(sure - need):
                best_mine ^= BIT[lowest(best_mine)]
            rel = BIT[lowest(best_mine)]
            if side == 1:
                tt_save(table, key, rel, suit_masks, NO_LOWER, rem - need)
                return -1, rel
            tt_save(table, key, rel, suit_masks, need, NO_UPPER)
            return 1, rel
    return 0, ZERO


@njit(cache=True, **_NO_NRT)
def probe(
    hands: np.ndarray,
    leader: int,
    broken: bool,
    trick: Trick,
    target: int,
    depth: int,
    setting: Setting,
    work: Workspace,
) -> tuple[bool, np.uint64]:
    """Can side 0 take `target` of the tricks from the current `trick` (led by `leader`) to the end?

    Returns the answer and the cards whose ranks the proof used (see `tt`): every card that won
    a trick by beating a card of its own suit, or that a bound relied on.
    `hands` holds the unplayed cards (it is changed and restored); `depth` is the stack row of this
    node (its children use the rows below it). With the setting's `nil_seat` >= 0 the objective is
    the nil one instead: the nil seat's opponents try to make it take `target` tricks (counting only
    tricks it wins itself), its partner helps it.

    The walk is depth first: entering a node applies the bounds and orders its moves; each move
    pushes the child's position (the node's frame is saved in its stack row); a child's answer
    resumes its parent, which cuts (one card decides the node) or tries its next move.

    Once the table's node count passes its `META_NODE_LIMIT` (when set) the walk stops at once with no
    answer (False): the caller that set the limit reads the count to tell a real answer from none. Nothing
    is saved for the abandoned nodes, so the table stays true.
    """
    players, first_rule, nil_seat = setting
    k, led_suit, win_card, win_seat, trick_mask = trick
    table, deck = work.table, work.deck
    stack, stack_masks = work.stack
    suit_of, suit_masks = deck
    tt_meta = table.meta
    max_side = 0 if nil_seat < 0 else 1 - side_of(nil_seat)
    d = depth
    ok, rel = False, ZERO  # the answer of the node just finished
    seat = n = killer = i = c = n_win = 0
    result = stored = False
    # the table key's parts as plain locals, a `PositionKey` made only for each call: kept as one record
    # across the loop, the key made the compiled walk about a tenth slower
    hand = legal = separators = rel_all = skip = shape = w0 = w1 = everyone = t_mask = ZERO
    entering = True
    while True:
        answered = False
        if entering:
            tt_meta[META_NODES] += 1
            if tt_meta[META_NODE_LIMIT] > 0 and tt_meta[META_NODES] > tt_meta[META_NODE_LIMIT]:
                # out of nodes: every hand as it was at this call's root, and no answer (the caller sees the count)
                for up in range(d - 1, depth - 1, -1):
                    hands[stack[up, FRAME, F_SEAT]] = stack_masks[up, M_HAND]
                return False, ZERO
            boundary = k == 0
            stored = boundary and first_rule == FIRST_FREE
            everyone = hands[0] | hands[1]
            if players == 4:
                everyone |= hands[2] | hands[3]
            rem = 0
            if boundary:
                rem = popcount(hands[leader])
                if target <= 0:
                    ok, rel, answered = True, ZERO, True
                elif target > rem:
                    ok, rel, answered = False, ZERO, True
                elif rem == 1:
                    got, rel = _last_trick(hands, players, leader, nil_seat, suit_of)
                    ok, answered = got >= target, True
            if stored and not answered:
                shape, w0, w1, _ = position_code(hands, players, leader, broken, nil_seat, suit_masks)
                key = PositionKey(shape, w0, w1, everyone)
                verdict, rel = _known_bound(hands, leader, broken, target, key, setting, table, suit_masks)
                if verdict != 0:
                    ok, answered = verdict > 0, True
            if not answered:
                seat = (leader + k) % players
                hand = hands[seat]
                legal = legal_mask(hand, boundary, led_suit, broken, first_rule, suit_masks)
                separators = trick_mask | (everyone & ~hand)
                reps = representatives(legal, separators, suit_masks)
                n = order_moves(reps, hands, players, seat, Trick(k, led_suit, win_card, win_seat, trick_mask), deck,
                                 stack[d, MOVES], stack[d, SCORES])  # fmt: skip
                killer = -1
                if stored:
                    # the killer lead: the card that last decided a trick-boundary node with this many tricks
                    # left and this leader, tried first when it is still held (its run's representative)
                    killer = META_KILLERS + 4 * rem + seat
                    kc = tt_meta[killer] - 1
                    if kc >= 0 and BIT[kc] & legal != ZERO:
                        first = representative_of(kc, legal, separators, suit_of, suit_masks)
                        for j in range(1, n):
                            if stack[d, MOVES, j] == first:
                                for jj in range(j, 0, -1):
                                    stack[d, MOVES, jj] = stack[d, MOVES, jj - 1]
                                stack[d, MOVES, 0] = first
                                break
                result = side_of(seat) != max_side
                rel_all = ZERO
                skip = ZERO
                i = 0
        else:
            # back at node d with the answer (ok, rel) of its move i: reload its frame
            fr = stack[d, FRAME]
            ms = stack_masks[d]
            leader, broken, k, led_suit = fr[F_LEADER], fr[F_BROKEN] != 0, fr[F_K], fr[F_LED]
            win_card, win_seat, target, first_rule = fr[F_WIN_CARD], fr[F_WIN_SEAT], fr[F_TARGET], fr[F_FIRST]
            seat, n, killer, i = fr[F_SEAT], fr[F_N], fr[F_KILLER], fr[F_I]
            result, stored, c, n_win = fr[F_RESULT] != 0, fr[F_STORED] != 0, fr[F_CARD], fr[F_NEXT_WIN]
            trick_mask, hand, legal, separators = ms[M_TRICK], ms[M_HAND], ms[M_LEGAL], ms[M_SEPARATORS]
            rel_all, skip, shape, w0, w1 = ms[M_REL], ms[M_SKIP], ms[M_SHAPE], ms[M_W0], ms[M_W1]
            everyone, t_mask = ms[M_EVERYONE], ms[M_NEXT_TRICK]
            hands[seat] = hand
            bit = BIT[c]
            if k + 1 == players:
                # the winner's rank mattered if it beat a card of its own suit
                if t_mask & suit_masks[suit_of[n_win]] & below(n_win) != ZERO:
                    rel |= BIT[n_win]
            if (side_of(seat) == max_side) == ok:
                # a cut: this one card decides the node
                tt_meta[META_CUTS] += 1
                if i == 0:
                    tt_meta[META_FIRST_CUTS] += 1
                tt_meta[META_LATE_MOVES] += i
                result = ok
                rel_all = rel
                if killer >= 0:
                    tt_meta[killer] = c + 1
                i = n
            else:
                rel_all |= rel
                # the proof never used this card's rank: any other card of the suit below every card whose
                # rank it used plays the same (same trick outcomes, same positions up to small cards)
                sm = suit_masks[suit_of[c]]
                r = rel & sm
                if r != ZERO and run_above(c, legal, separators, sm) & ~below(lowest(r)) != ZERO:
                    # the card stood for its run, but the proof pinned ranks inside the run: where the
                    # run's higher cards are not touching it (the table's other positions), they are other
                    # moves this proof never tried, so the run's bottom rank is part of the proof
                    rel_all |= bit
                thr = below(lowest(r)) if r != ZERO else sm
                if bit & thr != ZERO:
                    skip |= hand & sm & thr
                i += 1
        if not answered:
            while i < n and BIT[stack[d, MOVES, i]] & skip != ZERO:
                i += 1
            if i < n:
                # search move i: save this node's frame, then enter the child
                c = stack[d, MOVES, i]
                bit = BIT[c]
                n_led, n_win, n_seat = trick_after(c, seat, k, led_suit, win_card, win_seat, suit_of)
                t_mask = trick_mask | bit
                fr = stack[d, FRAME]
                ms = stack_masks[d]
                fr[F_LEADER], fr[F_BROKEN], fr[F_K], fr[F_LED] = leader, 1 if broken else 0, k, led_suit
                fr[F_WIN_CARD], fr[F_WIN_SEAT], fr[F_TARGET], fr[F_FIRST] = win_card, win_seat, target, first_rule
                fr[F_SEAT], fr[F_N], fr[F_KILLER], fr[F_I] = seat, n, killer, i
                fr[F_RESULT], fr[F_STORED] = 1 if result else 0, 1 if stored else 0
                fr[F_CARD], fr[F_NEXT_WIN] = c, n_win
                ms[M_TRICK], ms[M_HAND], ms[M_LEGAL], ms[M_SEPARATORS] = trick_mask, hand, legal, separators
                ms[M_REL], ms[M_SKIP], ms[M_SHAPE], ms[M_W0], ms[M_W1] = rel_all, skip, shape, w0, w1
                ms[M_EVERYONE], ms[M_NEXT_TRICK] = everyone, t_mask
                hands[seat] = hand ^ bit
                if k + 1 == players:
                    if nil_seat < 0:
                        gained = 1 if side_of(n_seat) == 0 else 0
                    else:
                        gained = 1 if n_seat == nil_seat else 0
                    broken = broken or t_mask & suit_masks[3] != ZERO
                    leader, k, led_suit, win_card, win_seat = n_seat, 0, -1, -1, -1
                    trick_mask, target, first_rule = ZERO, target - gained, FIRST_FREE
                else:
                    k, led_suit, win_card, win_seat, trick_mask = k + 1, n_led, n_win, n_seat, t_mask
                d += 1
                entering = True
                continue
            if stored:
                key = PositionKey(shape, w0, w1, everyone)
                if result:
                    tt_save(table, key, rel_all, suit_masks, target, NO_UPPER)
                else:
                    tt_save(table, key, rel_all, suit_masks, NO_LOWER, target - 1)
            ok, rel = result, rel_all
        # node d has its answer (ok, rel): give it to its parent
        if d == depth:
            return ok, rel
        d -= 1
        entering = False


@njit(cache=True)
def trick_state(cards: np.ndarray, k: int, leader: int, players: int, suit_of: np.ndarray) -> Trick:
    """The trick whose first `k` cards (play order from `leader`) are `cards`."""
    if k == 0:
        return no_trick()
    win_card = cards[0]
    win_seat = leader
    mask = BIT[cards[0]]
    for j in range(1, k):
        c = cards[j]
        mask |= BIT[c]
        if takes(c, suit_of[c], win_card, suit_of[win_card]):
            win_card = c
            win_seat = (leader + j) % players
    return Trick(k, suit_of[cards[0]], win_card, win_seat, mask)


@njit(cache=True)
def best_value(
    hands: np.ndarray,
    leader: int,
    broken: bool,
    trick: Trick,
    guess: int,
    cap: int,
    setting: Setting,
    work: Workspace,
) -> int:
    """Exact tricks side 0 takes from the current `trick` (led by `leader`) to the end.

    With the setting's `nil_seat` >= 0: the tricks the nil seat is held to (its opponents maximise them).
    `guess` (-1 for none) is a likely value, e.g. a sibling card's: the search steps from it
    before falling back to bisection; it changes the work, never the result. The answer is
    min(value, `cap`): a caller that needs only "at least one trick?" (is a nil broken) asks
    `cap` = 1 and pays one probe instead of a bisection over 0..13."""
    last_ok = False
    rem = popcount(hands[leader]) + (1 if trick.k > 0 else 0)
    lo, hi = 0, min(rem, cap)
    steps = 0
    while lo < hi:
        if guess >= 0 and steps < 3:
            # near a good guess, one trick at a time: an exact guess costs two probes (>= g, >= g+1)
            if steps == 0:
                mid = min(max(guess, lo + 1), hi)
            else:
                mid = lo + 1 if last_ok else hi
            steps += 1
        else:
            mid = (lo + hi + 1) // 2
        ok, _ = probe(hands, leader, broken, trick, mid, 0, setting, work)
        last_ok = ok
        if ok:
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True)
def card_values(
    hands: np.ndarray,
    players: int,
    leader: int,
    broken: bool,
    trick: Trick,
    first_rule: int,
    work: Workspace,
    out: np.ndarray,
) -> None:
    """DD value of every card for the seat to act: its side's tricks from the current `trick` to the end.

    `out` (length 52 or more, by card id) gets -1 for cards the seat may not play. Cards of one run
    (see `representatives`) are searched once and share the value. `hands` is restored on return.
    """
    suit_of, suit_masks = work.deck
    k, led, win_card, win_seat, mask = trick
    for c in range(out.shape[0]):
        out[c] = -1
    seat, legal, separators = acting_moves(hands, players, leader, trick, broken, first_rule, suit_masks)
    hand = hands[seat]
    total = popcount(hands[leader]) + (1 if k > 0 else 0)
    reps = representatives(legal, separators, suit_masks)
    m = reps
    prev = -1  # the previous card's value: sibling cards' values are usually close
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        bit = BIT[c]
        n_led, n_win, n_seat = trick_after(c, seat, k, led, win_card, win_seat, suit_of)
        hands[seat] = hand ^ bit
        if k + 1 == players:
            gained = 1 if side_of(n_seat) == 0 else 0
            n_broken = broken or (mask | bit) & suit_masks[3] != ZERO
            v0 = gained + best_value(hands, n_seat, n_broken, no_trick(), prev - gained, UNCAPPED,
                                     Setting(players, FIRST_FREE, -1), work)  # fmt: skip
        else:
            v0 = best_value(hands, leader, broken, Trick(k + 1, n_led, n_win, n_seat, mask | bit), prev, UNCAPPED,
                            Setting(players, first_rule, -1), work)  # fmt: skip
        hands[seat] = hand
        prev = v0
        out[c] = v0 if side_of(seat) == 0 else total - v0
    fill_runs(out, legal, reps, separators, work.deck)
