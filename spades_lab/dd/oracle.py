"""The `dd-oracle` bench workload: the solver against independent answers on many random deals.

Where Spades card play is bridge card play (standard deck, spades broken), DDS (Bo Haglund's
solver, through `endplay`) is the oracle: for each deal, every first leader of the full deal, an
ending after 1-12 random tricks (its leader) and the value of every card with a trick under way.
Where the games differ, a plain minimax (every legal card, no table, no bounds) on short endings
is: spades not yet broken, the `jokers` and `jokers-2d` decks and Duel. The first-trick rules apply
to full deals only, out of a minimax's reach; under `lowest_clubs` every first card is forced, so
the full deal is its forced first trick plus an ending DDS can value.

`spades-lab bench --workload dd-oracle --hands N` checks N deals and reports the counts and the
first disagreements (each with its deal in PBN): the solver is exact when `disagreements` is 0.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from spades_lab.cards import STANDARD_DECK, Deck, deck_for
from spades_lab.dd.api import card_values, solve
from spades_lab.dd.bench import pbn
from spades_lab.dd.solver import Solver
from spades_lab.rules import Rules

MINIMAX_CASES = (("standard", 4, False), ("jokers", 4, True), ("jokers-2d", 4, False), ("standard", 2, False))
"""(deck, players, broken) of the minimax checks, one short ending each per deal."""


def _bits(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _winner(trick: list[int], leader: int, players: int, deck: Deck) -> int:
    """The seat that wins a complete trick (cards in play order from `leader`)."""
    best = 0
    for j in range(1, len(trick)):
        c, w = trick[j], trick[best]
        cs, ws = int(deck.suit_of[c]), int(deck.suit_of[w])
        if (cs == ws and c > w) or (cs == 3 and ws != 3):
            best = j
    return (leader + best) % players


def _legal(hand: int, trick: list[int], broken: bool, deck: Deck) -> list[int]:
    """Follow suit; no trump lead before trumps break unless only trumps are held (the rules' text)."""
    cards = _bits(hand)
    if trick:
        led = int(deck.suit_of[trick[0]])
        follow = [c for c in cards if deck.suit_of[c] == led]
        return follow or cards
    side = [c for c in cards if deck.suit_of[c] != 3]
    return side if side and not broken else cards


def minimax(hands: tuple[int, ...], leader: int, broken: bool, deck: Deck) -> int:
    """Side 0's tricks (seats 0+2, player 0 in Duel) by trying every legal card at every turn."""
    players = len(hands)

    @cache
    def value(hands: tuple[int, ...], leader: int, broken: bool) -> int:
        if hands[leader] == 0:
            return 0

        def play(k: int, hs: tuple[int, ...], trick: list[int]) -> int:
            if k == players:
                seat = _winner(trick, leader, players, deck)
                now_broken = broken or any(deck.suit_of[c] == 3 for c in trick)
                return int(seat % 2 == 0) + value(hs, seat, now_broken)
            seat = (leader + k) % players
            results = []
            for c in _legal(hs[seat], trick, broken, deck):
                rest = tuple(h & ~(1 << c) if i == seat else h for i, h in enumerate(hs))
                results.append(play(k + 1, rest, [*trick, c]))
            return max(results) if seat % 2 == 0 else min(results)

        return play(0, hands, [])

    return value(hands, leader, broken)


def _random_deal(rng: np.random.Generator, players: int, size: int, cards: int = 52) -> list[int]:
    perm = rng.permutation(cards)[: players * size]
    return [sum(1 << int(c) for c in perm[i * size : (i + 1) * size]) for i in range(players)]


def _play_random_tricks(
    rng: np.random.Generator, hands: list[int], leader: int, tricks: int, deck: Deck
) -> tuple[list[int], int]:
    """The hands and leader after `tricks` random legal tricks (spades broken)."""
    hands = list(hands)
    for _ in range(tricks):
        trick: list[int] = []
        for k in range(len(hands)):
            seat = (leader + k) % len(hands)
            options = _legal(hands[seat], trick, True, deck)
            c = options[int(rng.integers(len(options)))]
            hands[seat] &= ~(1 << c)
            trick.append(c)
        leader = _winner(trick, leader, len(hands), deck)
    return hands, leader


def oracle_run(n: int, seed: int, *, keep: int = 10) -> dict[str, Any]:
    """Check `n` random deals (see the module's text); returns the counts and the first `keep` disagreements."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Card, Deal, Denom, Player

    def dds_value(masks: list[int], leader: int, trick: list[int] | None = None) -> dict[str, int]:
        full = list(masks)
        for j, c in enumerate(trick or []):
            full[(leader + j) % 4] |= 1 << c
        deal = Deal(pbn(full), first=Player(leader), trump=Denom.spades)
        for c in trick or []:
            deal.play(Card(STANDARD_DECK.cards[c][1] + STANDARD_DECK.cards[c][0]))
        # with a trick under way, DDS's default mode: the value of one card of each run of equals
        answers = solve_board(deal) if trick else solve_board(deal, SolveMode.OptimalOne)
        return {str(card.rank.name[1:] + card.suit.name[0].upper()): v for card, v in answers}

    rng = np.random.default_rng(seed)
    deck = STANDARD_DECK
    solver = Solver()
    minimax_solvers = {case: Solver(Rules(players=case[1], deck=case[0])) for case in MINIMAX_CASES}
    clubs = Solver(Rules(first_lead="lowest_clubs"))
    counts = {"full": 0, "ending": 0, "mid_trick": 0, "lowest_clubs": 0, "minimax": 0}
    wrong: list[dict[str, Any]] = []

    def check(kind: str, ours: int, want: int, **where: Any) -> None:
        counts[kind] += 1
        if ours != want and len(wrong) < keep:
            wrong.append({"kind": kind, "ours": int(ours), "oracle": int(want), **where})
        elif ours != want:
            wrong.append({})

    for _ in range(n):
        masks = _random_deal(rng, 4, 13)
        ours = solve([masks] * 4, np.arange(4), broken=True, solver=solver)
        for leader in range(4):
            want = max(dds_value(masks, leader).values())
            check("full", ours[leader, leader % 2], want, deal=pbn(masks), leader=leader)
        # an ending after 1-12 random tricks, valued at its trick boundary and with a trick under way
        leader = int(rng.integers(4))
        end, end_leader = _play_random_tricks(rng, masks, leader, int(rng.integers(1, 13)), deck)
        got = solve([end], end_leader, broken=True, solver=solver)[0, end_leader % 2]
        check("ending", got, max(dds_value(end, end_leader).values()), deal=pbn(end), leader=end_leader)
        trick: list[int] = []
        hands = list(end)
        for k in range(int(rng.integers(1, 4))):
            seat = (end_leader + k) % 4
            options = _legal(hands[seat], trick, True, deck)
            c = options[int(rng.integers(len(options)))]
            hands[seat] &= ~(1 << c)
            trick.append(c)
        row = np.array([trick + [-1] * (4 - len(trick))], dtype=np.int64)
        values = card_values(
            np.array([hands], dtype=np.uint64), row, np.array([end_leader]), np.array([True]), solver=solver
        )[0]
        for label, want in dds_value(hands, end_leader, trick).items():
            check("mid_trick", values[deck.card_id(label)], want, deal=pbn(end), leader=end_leader,
                  trick=[deck.cards[c] for c in trick], card=label)  # fmt: skip
        # lowest_clubs with spades broken: when every seat holds a club the first trick is forced
        # (each seat's lowest club), the rest is bridge play from its winner
        low_clubs = [_bits(m & int(deck.suit_masks[0]))[:1] for m in masks]
        if all(low_clubs):
            leader = int(rng.integers(4))
            trick = [low_clubs[(leader + k) % 4][0] for k in range(4)]
            winner = _winner(trick, leader, 4, deck)
            rest = [m & ~(1 << c[0]) for m, c in zip(masks, low_clubs, strict=True)]
            got = solve([masks], leader, broken=True, solver=clubs)[0, 0]
            want = int(winner % 2 == 0) + _side0(dds_value(rest, winner), winner, 12)
            check("lowest_clubs", got, want, deal=pbn(masks), leader=leader)
        # short endings where the games differ from bridge: a plain minimax
        for case, s in minimax_solvers.items():
            deck_name, players, brk = case
            case_deck = deck_for(deck_name)
            size = int(rng.integers(2, 5 if players == 4 else 7))
            hands = _random_deal(rng, players, size)
            lead = int(rng.integers(players))
            got = solve([hands], lead, broken=brk, solver=s)[0, 0]
            check("minimax", got, minimax(tuple(hands), lead, brk, case_deck), deal=[case_deck.labels(m) for m in hands],
                  leader=lead, rules=f"{deck_name}, {players} players, broken={brk}")  # fmt: skip
    found = len(wrong)
    return {"hands": n, **{f"checked_{k}": v for k, v in counts.items()}, "disagreements": found,
            "first_disagreements": [w for w in wrong if w]}  # fmt: skip


def _side0(values: dict[str, int], leader: int, tricks: int) -> int:
    """Side 0's tricks from DDS's best value for the leader's side."""
    best = max(values.values())
    return best if leader % 2 == 0 else tricks - best
