"""Public double-dummy functions: read and check the input, then run one compiled batch call.

Every check names the deal and the problem, because a bad deal inside a batch of thousands is
otherwise hard to find: overlapping hands, wrong sizes, cards outside the rules' deck, a leader
or a position the rules do not allow.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from spades_lab.cards import CardError, Deck
from spades_lab.compiled import cached
from spades_lab.dd.search import FIRST_TWO_OF_CLUBS, UNCAPPED, legal_mask
from spades_lab.dd.solver import FIRST_RULES, DDError, Solver, solve_batch, values_batch
from spades_lab.dd.tt import META_NODE_BUDGET
from spades_lab.engine.trick import holder
from spades_lab.rules import RulesLike, load_rules

DD_COMPILE_SECONDS = 25
"""Measured first compilation of the search (a fresh numba cache, the first full-deal solve)."""


def _announce_compile(kernel: Any) -> None:
    """Say so before a solve that compiles the search: the first use after installing (or changing) the
    package, tens of seconds; every later process loads it from numba's cache."""
    if not cached(kernel):
        print(
            f"spades_lab.dd: compiling the double-dummy search (first use only, about {DD_COMPILE_SECONDS} s;"
            " cached for later processes)",
            file=sys.stderr,
            flush=True,
        )


def _solver(rules: RulesLike, solver: Solver | None) -> Solver:
    if solver is not None:
        if rules is not None and load_rules(rules) != solver.rules:
            raise DDError("the solver was made for other rules than the ones given")
        return solver
    return Solver(rules)


def _show(value: Any) -> str:
    """A short repr of a user's value for an error message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _hand_mask(hand: Any, deck: Deck, where: str) -> int:
    if isinstance(hand, (int, np.integer)) and not isinstance(hand, (bool, np.bool_)):
        mask = int(hand)
        if mask < 0 or mask >> 52:
            raise DDError(f"{where}: mask {mask:#x} has bits outside the 52 card ids (0..51)")
        return mask
    if isinstance(hand, (str, list, tuple)):
        try:
            return deck.mask(hand)
        except CardError as exc:
            raise DDError(f"{where}: {exc}") from None
        except (TypeError, AttributeError):
            pass
    raise DDError(
        f"{where}: a hand is card labels ('AS KH' or ['AS', 'KH']) or a whole-number mask of card ids, got {_show(hand)}"
    )


def read_deals(deals: Any, players: int, deck: Deck) -> np.ndarray:
    """[n, players] uint64 masks from one deal or a batch (labels, label lists or masks)."""
    if isinstance(deals, np.ndarray) and deals.dtype.kind not in "uiUO":
        raise DDError(f"deals as an array must hold uint64 hand masks, got dtype {deals.dtype}")
    if isinstance(deals, np.ndarray) and deals.dtype.kind in "ui":
        if deals.dtype.kind == "i" and (deals < 0).any():
            raise DDError("deals: a hand mask is negative; masks are uint64 sets of card ids 0..51")
        arr = deals.astype(np.uint64)
        outside = arr >> np.uint64(52) != 0
        if outside.any():
            i, seat = (int(x) for x in np.argwhere(outside)[0])
            raise DDError(f"deal {i}, seat {seat}: mask {int(arr[i, seat]) if arr.ndim == 2 else int(arr[seat]):#x} has"
                          " bits outside the 52 card ids (0..51)")  # fmt: skip
        if arr.ndim == 1:
            arr = arr[None, :]
        if arr.ndim != 2 or arr.shape[1] != players:
            raise DDError(f"deals must be [n, {players}] hand masks for {players} players, got shape {deals.shape}")
        rows = [[int(x) for x in row] for row in arr]
    else:
        if isinstance(deals, str):
            raise DDError("a deal is a sequence of hands, one per seat, not a single string")
        if not isinstance(deals, (list, tuple, np.ndarray)):
            raise DDError(
                f"deals must be one deal (a list of hands, one per seat) or a list of deals, got {_show(deals)}"
            )
        items = list(deals)
        hand_like = (str, int, float, np.integer, np.floating)
        one = len(items) == players and all(isinstance(h, hand_like) or _is_card_list(h) for h in items)
        batch = [items] if one else items
        for i, d in enumerate(batch):
            if not isinstance(d, (list, tuple, np.ndarray)):
                raise DDError(f"deal {i} must be a list of hands, one per seat, got {_show(d)}")
        rows = [[_hand_mask(h, deck, f"deal {i}, seat {s}") for s, h in enumerate(d)] for i, d in enumerate(batch)]
    out = np.zeros((len(rows), players), dtype=np.uint64)
    for i, row in enumerate(rows):
        if len(row) != players:
            raise DDError(f"deal {i} has {len(row)} hands; these rules have {players} players")
        sizes = [bin(m).count("1") for m in row]
        if len(set(sizes)) != 1 or sizes[0] == 0 or sizes[0] > 13:
            raise DDError(f"deal {i}: every hand must hold the same number of cards (1..13), got {sizes}")
        seen = 0
        for s, m in enumerate(row):
            if seen & m:
                raise DDError(f"deal {i}: seat {s} holds {' '.join(deck.labels(seen & m))}, already in another hand")
            seen |= m
            out[i, s] = m
    return out


def _is_card_list(h: Any) -> bool:
    """A hand written as a list of single card labels (a string holding several cards is a whole hand)."""
    return isinstance(h, (list, tuple)) and all(isinstance(c, str) and not any(x in c for x in " ,") for c in h)


def _per_deal(value: Any, n: int, name: str, allowed: str) -> np.ndarray:
    """`value` (one or one per deal) as [n] seats (`allowed` = "seat") or flags ("True or False")."""
    flags = allowed == "True or False"
    arr = np.asarray(value)
    kind_ok = arr.dtype.kind == "b" if flags else arr.dtype.kind in "iu"
    if not kind_ok:
        raise DDError(f"{name} must be {allowed}, one value or one per deal, got {_show(value)}")
    if arr.ndim == 0:
        arr = np.full(n, arr.item())
    elif arr.shape != (n,):
        raise DDError(f"{name} must be one value or one per deal ({n}), got shape {arr.shape}")
    return arr.astype(np.bool_ if flags else np.int64)


def _broken(value: Any, n: int, s: Solver) -> np.ndarray:
    """[n] spades broken before the trick: always, when the rules have no spades-break rule."""
    brk = _per_deal(value, n, "broken", "True or False")
    return brk | (not s.rules.spades_break)


def _check_leaders(hands: np.ndarray, leader: np.ndarray, s: Solver) -> None:
    bad = (leader < 0) | (leader >= s.players)
    if bad.any():
        i = int(np.argmax(bad))
        raise DDError(f"deal {i}: leader {int(leader[i])} is not a seat (0..{s.players - 1})")
    if s.first_rule == FIRST_TWO_OF_CLUBS:
        two = np.uint64(1) << np.uint64(s.deck.index["2C"])
        full = np.bitwise_count(hands).sum(axis=1) == 13 * s.players
        holds = (hands[np.arange(len(hands)), leader] & two) != 0
        wrong = full & ~holds
        if wrong.any():
            i = int(np.argmax(wrong))
            raise DDError(
                f"deal {i}: under first_lead = 'two_of_clubs' the holder of 2C leads the first trick, not seat {int(leader[i])}"
            )


def solve(
    deals: Any, leader: Any, *, rules: RulesLike = None, broken: Any = False, solver: Solver | None = None
) -> np.ndarray:
    """[n, 2] DD tricks of each side (side 0 = seats 0+2, or player 0 in Duel) with `leader` to lead.

    Deals are 4 hands (2 in Duel) of equal size: a full deal, where the rules' first-trick rule
    applies, or an ending. `broken=True` means spades were broken before this trick.
    """
    s = _solver(rules, solver)
    hands = read_deals(deals, s.players, s.deck)
    n = len(hands)
    lead = _per_deal(leader, n, "leader", "a seat number")
    _check_leaders(hands, lead, s)
    brk = _broken(broken, n, s)
    _announce_compile(solve_batch)
    side0 = solve_batch(hands, lead, brk, s.players, s.first_rule, np.full(n, -1, dtype=np.int64), UNCAPPED, s.arrays)
    size = np.bitwise_count(hands[:, 0]).astype(np.int64)
    return np.stack([side0, size - side0], axis=1)


def _check_count(name: str, value: Any, unit: str) -> None:
    """Refuse a `value` that is neither None nor a whole number, 1 or more (True is no count here)."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1):
        raise DDError(f"{name} must be None or a whole number of {unit}, 1 or more, got {value!r}")


def nil_tricks(
    deals: Any, seat: Any, leader: Any, *, rules: RulesLike = None, broken: Any = False, solver: Solver | None = None,
    cap: int | None = None, node_limit: int | None = None,
) -> np.ndarray:  # fmt: skip
    """[n] the fewest tricks `seat` can be held to, its partner helping and the opponents pushing tricks on it.

    0 means the nil can be made double dummy. With `cap`, the answer is min(fewest, cap): `cap=1` asks
    only whether the nil is made (0) or broken (1), one search probe instead of a bisection over the
    trick counts, which is all a nil decision needs and far cheaper on full deals.

    With `node_limit`, each deal's search stops after that many nodes and answers -1 (unknown). The nil
    search has few bounds to cut with (only "the top trump takes a trick"), so proving a nil on a full deal
    usually takes a few million nodes (about a second) but can take billions: a caller with a time budget
    (the `dd` bidder) sets a limit. The answers stay reproducible: the node count depends only on the deals
    and on what the solver holds from earlier calls (`Solver.clear` for a fresh start).
    """
    _check_count("cap", cap, "tricks")
    _check_count("node_limit", node_limit, "search nodes")
    s = _solver(rules, solver)
    hands = read_deals(deals, s.players, s.deck)
    n = len(hands)
    lead = _per_deal(leader, n, "leader", "a seat number")
    _check_leaders(hands, lead, s)
    nil = _per_deal(seat, n, "seat", "a seat number")
    if ((nil < 0) | (nil >= s.players)).any():
        raise DDError(f"nil seat must be a seat 0..{s.players - 1}")
    brk = _broken(broken, n, s)
    limit = UNCAPPED if cap is None else min(int(cap), UNCAPPED)
    _announce_compile(solve_batch)
    meta = s.arrays.table.meta
    meta[META_NODE_BUDGET] = 0 if node_limit is None else int(node_limit)
    try:
        return solve_batch(hands, lead, brk, s.players, s.first_rule, nil, limit, s.arrays)
    finally:
        meta[META_NODE_BUDGET] = 0


def card_values(
    hands: np.ndarray, trick: np.ndarray, leader: np.ndarray, broken: np.ndarray, *,
    rules: RulesLike = None, solver: Solver | None = None,
) -> np.ndarray:  # fmt: skip
    """[n, 52] int8: per card id, the tricks the acting seat's side takes from the current trick on
    if it plays that card (DD, all hands seen); -1 for cards it may not play.

    hands: [n, players] uint64 unplayed cards; trick: [n, players] card ids already on the current
    trick in play order from `leader` (-1 padding); broken: spades broken before this trick.
    """
    s = _solver(rules, solver)
    if np.asarray(hands).dtype.kind not in "ui":
        raise DDError(f"hands must be [n, {s.players}] uint64 masks, got {_show(hands)}")
    hands = np.ascontiguousarray(hands, dtype=np.uint64)
    if hands.ndim != 2 or hands.shape[1] != s.players:
        raise DDError(f"hands must be [n, {s.players}] uint64 masks, got shape {hands.shape}")
    n = len(hands)
    if np.asarray(trick).dtype.kind not in "ui":
        raise DDError(f"trick must be [n, {s.players}] card ids (-1 padding), got {_show(trick)}")
    trick = np.ascontiguousarray(trick, dtype=np.int64)
    if trick.shape != (n, s.players):
        raise DDError(f"trick must be [n, {s.players}] card ids (-1 padding), got shape {trick.shape}")
    lead = _per_deal(leader, n, "leader", "a seat number")
    brk = _broken(broken, n, s)
    _check_world(hands, trick, lead, s)
    _announce_compile(values_batch)
    return values_batch(hands, trick, lead, brk, s.players, s.first_rule, s.arrays)


def _check_world(hands: np.ndarray, trick: np.ndarray, lead: np.ndarray, s: Solver) -> None:
    p = s.players
    for i in range(len(hands)):
        k = int((trick[i] >= 0).sum())
        if k == p or (trick[i, :k] < 0).any() or (trick[i, k:] >= 0).any():
            raise DDError(f"world {i}: trick must hold 0..{p - 1} card ids first, then -1, got {trick[i].tolist()}")
        if not 0 <= lead[i] < p:
            raise DDError(f"world {i}: leader {int(lead[i])} is not a seat")
        seen = 0
        for c in trick[i, :k]:
            if not 0 <= c < 52 or seen >> int(c) & 1:
                raise DDError(f"world {i}: trick card {int(c)} is not a card id or appears twice")
            seen |= 1 << int(c)
        sizes = []
        for seat in range(p):
            m = int(hands[i, seat])
            if m >> 52 or seen & m:
                raise DDError(f"world {i}: seat {seat}'s hand overlaps another hand or the trick")
            seen |= m
            played = 1 if (seat - int(lead[i])) % p < k else 0
            sizes.append(bin(m).count("1") + played)
        if len(set(sizes)) != 1 or not 0 < sizes[0] <= 13:
            raise DDError(f"world {i}: hands do not fit the trick (cards per seat incl. the trick: {sizes}; 1..13)")


def table(deals: Any, rules: RulesLike = None, *, broken: bool = False, solver: Solver | None = None) -> pd.DataFrame:
    """One row per deal and first leader: each side's DD tricks (`side0`, `side1`).

    Under first_lead = 'two_of_clubs' a full deal has one possible first leader, the holder of 2C.
    """
    s = _solver(rules, solver)
    hands = read_deals(deals, s.players, s.deck)
    n = len(hands)
    deal_idx, leaders = [], []
    for i in range(n):
        full = int(np.bitwise_count(hands[i]).sum()) == 13 * s.players
        if s.first_rule == FIRST_TWO_OF_CLUBS and full:
            two = 1 << s.deck.index["2C"]
            seats = [next(p for p in range(s.players) if int(hands[i, p]) & two)]
        else:
            seats = list(range(s.players))
        deal_idx += [i] * len(seats)
        leaders += seats
    idx = np.array(deal_idx, dtype=np.int64)
    lead = np.array(leaders, dtype=np.int64)
    tricks = solve(hands[idx], lead, rules=s.rules, broken=broken, solver=s)
    return pd.DataFrame({"deal": idx, "leader": lead, "side0": tricks[:, 0], "side1": tricks[:, 1]})


def solve_position(
    position: dict[str, Any], rules: RulesLike = None, *, solver: Solver | None = None
) -> dict[str, int]:
    """DD value of every legal card for the seat to act in a RECORDS.md position (every hand given):
    {card: tricks its side takes from the current trick to the end of the hand}.

    The plays are replayed under the rules from the first leader (left of the dealer, or the 2C
    holder); an illegal play, a play out of turn or a card that is in no hand is an error.
    """
    if not isinstance(position, Mapping):
        raise DDError(
            f"a position is a dict in the hand-record format (with 'hands' and 'plays'), got {_show(position)}"
        )
    s = _solver(rules if rules is not None else position.get("rules"), solver)
    p, deck = s.players, s.deck
    given = position.get("hands") or position.get("deal")
    if not isinstance(given, (list, tuple)) or len(given) != p or any(not h for h in given):
        raise DDError(f"a position for the solver needs 'hands' with every one of the {p} seats' cards")
    masks = [_hand_mask(h, deck, f"position, seat {seat}") for seat, h in enumerate(given)]
    plays = position.get("plays", [])
    if not isinstance(plays, (list, tuple)):
        raise DDError(f"position: 'plays' must be a list of [seat, card] pairs, got {_show(plays)}")
    for step, entry in enumerate(plays):
        if not (isinstance(entry, (list, tuple)) and len(entry) == 2 and isinstance(entry[0], int | np.integer)):
            raise DDError(f"play {step}: a play is a [seat, card] pair, got {_show(entry)}")
        seat, card = int(entry[0]), entry[1]
        if not 0 <= seat < p:
            raise DDError(f"play {step}: seat {seat} is not a seat")
        masks[seat] |= _hand_mask([card], deck, f"play {step}")
    seen = 0
    for seat, m in enumerate(masks):
        if seen & m:
            raise DDError(f"position: seat {seat} holds {' '.join(deck.labels(seen & m))}, already in another hand")
        seen |= m
    sizes = [bin(m).count("1") for m in masks]
    if len(set(sizes)) != 1 or not 0 < sizes[0] <= 13:
        raise DDError(f"position: the seats' hands (with their played cards) must hold 1..13 cards each: {sizes}")
    if len(plays) >= sizes[0] * p:
        raise DDError("position: the hand is over, no seat is to act")
    dealer = int(position.get("dealer", 0))
    leader = (dealer + 1) % p
    first_rule = FIRST_RULES[s.rules.first_lead] if sizes[0] == 13 else 0
    if first_rule == FIRST_TWO_OF_CLUBS:
        leader = next(seat for seat in range(p) if masks[seat] >> deck.index["2C"] & 1)
    hands = np.array(masks, dtype=np.uint64)
    broken = bool(position.get("broken", False)) or not s.rules.spades_break
    trick: list[int] = []
    suit_masks = deck.suit_masks
    for step, entry in enumerate(plays):
        seat, label = int(entry[0]), entry[1]
        to_play = (leader + len(trick)) % p
        if seat != to_play:
            raise DDError(f"play {step} ({label}) is by seat {seat}, but seat {to_play} is to play")
        cid = deck.card_id(label)
        led = int(deck.suit_of[trick[0]]) if trick else -1
        rule = first_rule if step < p else 0
        legal = int(legal_mask(hands[seat], not trick, led, broken, rule, suit_masks))
        if not legal >> cid & 1:
            raise DDError(f"play {step}: {label} by seat {seat} is not legal; legal: {' '.join(deck.labels(legal))}")
        hands[seat] ^= np.uint64(1 << cid)
        trick.append(cid)
        if len(trick) == p:
            winner_pos = _trick_winner(trick, deck)
            broken = broken or any(deck.suit_of[c] == 3 for c in trick)
            leader = (leader + winner_pos) % p
            trick = []
    to_act = (leader + len(trick)) % p
    if position.get("to_act") is not None and int(position["to_act"]) != to_act:
        raise DDError(f"position says seat {position['to_act']} is to act, but the rules make it seat {to_act}")
    row = np.array([trick + [-1] * (p - len(trick))], dtype=np.int64)
    values = card_values(hands[None, :], row, np.array([leader]), np.array([broken]), solver=s)[0]
    return {deck.cards[c]: int(values[c]) for c in range(51, -1, -1) if values[c] >= 0}


def _trick_winner(trick: Sequence[int], deck: Deck) -> int:
    """Position in play order of the card that wins a complete trick (the engine's trick rule)."""
    return trick.index(int(holder(np.asarray(trick, dtype=np.int64), deck.suit_masks)))
