"""The double-dummy solver against a plain brute-force minimax on short endings.

The brute force knows nothing of the solver's tricks (no table, no bounds, no merged cards): it
tries every legal card at every turn. It checks what the bridge oracle cannot: the spades-broken
lead rule, the jokers decks, Duel, first-trick rules and the nil objective.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zlib
from functools import cache

import numpy as np
import pytest

from spades_lab import dd
from spades_lab.cards import deck_for
from spades_lab.dd.search import FIRST_FREE, FIRST_LOWEST_CLUBS, FIRST_TWO_OF_CLUBS, legal_mask
from spades_lab.rules import Rules


def _suit(deck, c: int) -> int:
    return int(deck.suit_of[c])


def brute(deck, hands: tuple[frozenset, ...], leader: int, broken: bool, nil_seat: int = -1, first: str = "") -> int:
    """Side 0's tricks (or, with nil_seat, the fewest the nil seat is held to), trying every card."""
    players = len(hands)

    @cache
    def go(hands: tuple[frozenset, ...], leader: int, broken: bool, first: str) -> int:
        if not hands[leader]:
            return 0
        maximiser = 0 if nil_seat < 0 else 1 - (nil_seat & 1)

        def rec(k: int, hs: tuple[frozenset, ...], trick: tuple[int, ...]) -> int:
            if k == players:
                win = 0
                for j in range(1, players):
                    c, w = trick[j], trick[win]
                    if (_suit(deck, c) == _suit(deck, w) and c > w) or (_suit(deck, c) == 3 and _suit(deck, w) != 3):
                        win = j
                seat = (leader + win) % players
                gained = (seat & 1) == 0 if nil_seat < 0 else seat == nil_seat
                nb = broken or any(_suit(deck, c) == 3 for c in trick)
                return int(gained) + go(hs, seat, nb, "")
            seat = (leader + k) % players
            hand = hs[seat]
            if first == "lowest_clubs" and any(_suit(deck, c) == 0 for c in hand):
                options = [min(c for c in hand if _suit(deck, c) == 0)]
            elif k == 0 and first == "two_of_clubs":
                options = [deck.card_id("2C")]
            elif k == 0:
                side = [c for c in hand if _suit(deck, c) != 3]
                options = side if side and not broken else list(hand)
            else:
                follow = [c for c in hand if _suit(deck, c) == _suit(deck, trick[0])]
                options = follow or list(hand)
            results = []
            for c in options:
                nh = tuple(h - {c} if i == seat else h for i, h in enumerate(hs))
                results.append(rec(k + 1, nh, (*trick, c)))
            return max(results) if (seat & 1) == maximiser else min(results)

        return rec(0, hands, ())

    return go(hands, leader, broken, first)


def random_ending(rng: np.random.Generator, players: int, tricks: int) -> tuple[list[int], list[frozenset]]:
    perm = rng.permutation(52)[: players * tricks]
    sets = [frozenset(int(c) for c in perm[i * tricks : (i + 1) * tricks]) for i in range(players)]
    return [sum(1 << c for c in s) for s in sets], sets


CASES = [("standard", 4), ("jokers", 4), ("jokers-2d", 4), ("standard", 2), ("jokers", 2)]


@pytest.mark.parametrize("deck_name,players", CASES)
def test_solve_matches_brute_force_on_endings(deck_name: str, players: int) -> None:
    rng = np.random.default_rng(zlib.crc32(f"{deck_name}/{players}".encode()))
    rules = Rules(deck=deck_name, players=players)
    deck = deck_for(deck_name)
    solver = dd.Solver(rules)
    for _ in range(40):
        tricks = int(rng.integers(1, 5 if players == 4 else 6))
        masks, sets = random_ending(rng, players, tricks)
        leader = int(rng.integers(players))
        broken = bool(rng.integers(2))
        got = dd.solve([masks], leader, rules=rules, broken=broken, solver=solver)[0]
        want = brute(deck, tuple(sets), leader, broken)
        assert got.tolist() == [want, tricks - want], (masks, leader, broken)


@pytest.mark.parametrize("deck_name,players", CASES)
def test_nil_tricks_match_brute_force(deck_name: str, players: int) -> None:
    rng = np.random.default_rng(7 + players)
    rules = Rules(deck=deck_name, players=players)
    deck = deck_for(deck_name)
    solver = dd.Solver(rules)
    for _ in range(30):
        tricks = int(rng.integers(1, 5))
        masks, sets = random_ending(rng, players, tricks)
        leader, seat = int(rng.integers(players)), int(rng.integers(players))
        broken = bool(rng.integers(2))
        got = int(dd.nil_tricks([masks], seat, leader, rules=rules, broken=broken, solver=solver)[0])
        want = brute(deck, tuple(sets), leader, broken, nil_seat=seat)
        assert got == want, (masks, seat, leader, broken)
        for cap in (1, 2):  # the capped question ("broken at all?") answers min(fewest, cap)
            capped = dd.nil_tricks([masks], seat, leader, rules=rules, broken=broken, solver=solver, cap=cap)
            assert int(capped[0]) == min(want, cap), (masks, seat, leader, broken, cap)


@pytest.mark.parametrize("cap", [0, -1, 1.5, True, "1"])
def test_nil_tricks_cap_must_be_a_positive_count(cap) -> None:
    deal = [["AS", "KH"], ["QS", "AH"], ["2C", "3C"], ["4C", "5C"]]
    with pytest.raises(dd.DDError, match="cap must be None or a whole number of tricks"):
        dd.nil_tricks(deal, 2, 0, cap=cap)


def test_nil_tricks_out_of_nodes_answer_unknown_and_leave_the_solver_true() -> None:
    """A nil search past `node_limit` nodes answers -1 (unknown); with room enough it answers as without a
    limit, and a solver that gave up still solves the next deals right (nothing saved for the abandoned nodes,
    every hand as it was)."""
    rng = np.random.default_rng(21)
    deck = deck_for("standard")
    solver = dd.Solver()
    unknown = 0
    for _ in range(20):
        masks, sets = random_ending(rng, 4, 4)
        leader, seat = int(rng.integers(4)), int(rng.integers(4))
        want = brute(deck, tuple(sets), leader, True, nil_seat=seat)
        starved = dd.nil_tricks([masks] * 2, seat, leader, broken=True, solver=solver, node_limit=2)
        assert set(starved.tolist()) <= {-1, want}
        unknown += int((starved == -1).sum())
        roomy = dd.nil_tricks([masks], seat, leader, broken=True, solver=solver, node_limit=10**9)
        assert int(roomy[0]) == want
        assert int(dd.nil_tricks([masks], seat, leader, broken=True, solver=solver)[0]) == want
        assert dd.solve([masks], leader, broken=True, solver=solver)[0, 0] == brute(deck, tuple(sets), leader, True)
    assert unknown > 0


@pytest.mark.parametrize("limit", [0, -1, 1.5, True, "9"])
def test_nil_tricks_node_limit_must_be_a_positive_count(limit) -> None:
    deal = [["AS", "KH"], ["QS", "AH"], ["2C", "3C"], ["4C", "5C"]]
    with pytest.raises(dd.DDError, match="node_limit must be None or a whole number of search nodes"):
        dd.nil_tricks(deal, 2, 0, node_limit=limit)


def test_card_values_match_brute_force_mid_trick() -> None:
    rng = np.random.default_rng(3)
    deck = deck_for("standard")
    solver = dd.Solver()
    for _ in range(30):
        tricks = int(rng.integers(2, 5))
        masks, sets = random_ending(rng, 4, tricks)
        leader = int(rng.integers(4))
        broken = bool(rng.integers(2))
        k = int(rng.integers(0, 4))
        hs = [set(s) for s in sets]
        trick: list[int] = []
        for j in range(k):  # play legal cards at random onto the trick
            seat = (leader + j) % 4
            if j == 0:
                side = [c for c in hs[seat] if deck.suit_of[c] != 3]
                options = side if side and not broken else sorted(hs[seat])
            else:
                options = [c for c in hs[seat] if deck.suit_of[c] == deck.suit_of[trick[0]]] or sorted(hs[seat])
            c = sorted(options)[int(rng.integers(len(options)))]
            hs[seat].discard(c)
            trick.append(c)
        hands = np.array([[sum(1 << c for c in h) for h in hs]], dtype=np.uint64)
        row = np.array([trick + [-1] * (4 - k)], dtype=np.int64)
        values = dd.card_values(hands, row, np.array([leader]), np.array([broken]), solver=solver)[0]
        seat = (leader + k) % 4
        total = tricks
        for c in range(52):
            if values[c] < 0:
                continue
            assert c in hs[seat]
            # finish the trick by brute force, from the acting seat's side
            rest = [frozenset(h - {c}) if i == seat else frozenset(h) for i, h in enumerate(hs)]
            v0 = _brute_mid(deck, rest, leader, broken, [*trick, c])
            assert values[c] == (v0 if seat % 2 == 0 else total - v0), (hands, trick, c)
        assert (values >= 0).sum() >= 1


def _brute_mid(deck, hands: list[frozenset], leader: int, broken: bool, trick: list[int]) -> int:
    """Side 0's tricks with a partial trick on the table (brute force)."""
    players = len(hands)
    k = len(trick)
    if k == players:
        win = 0
        for j in range(1, players):
            c, w = trick[j], trick[win]
            if (deck.suit_of[c] == deck.suit_of[w] and c > w) or (deck.suit_of[c] == 3 and deck.suit_of[w] != 3):
                win = j
        seat = (leader + win) % players
        nb = broken or any(deck.suit_of[c] == 3 for c in trick)
        return int(seat % 2 == 0) + brute(deck, tuple(hands), seat, nb)
    seat = (leader + k) % players
    follow = [c for c in hands[seat] if deck.suit_of[c] == deck.suit_of[trick[0]]] or sorted(hands[seat])
    results = []
    for c in follow:
        nh = [h - {c} if i == seat else h for i, h in enumerate(hands)]
        results.append(_brute_mid(deck, nh, leader, broken, [*trick, c]))
    return max(results) if seat % 2 == 0 else min(results)


def test_first_trick_lead_rules() -> None:
    """lowest_clubs forces a seat's lowest club; two_of_clubs forces the 2C lead; free leads keep spades back."""
    deck = deck_for("standard")
    sm = deck.suit_masks
    hand = np.uint64(deck.mask("AS 5C 9C KH"))
    assert deck.labels(int(legal_mask(hand, True, -1, False, FIRST_LOWEST_CLUBS, sm))) == ["5C"]
    assert deck.labels(int(legal_mask(hand, False, 2, False, FIRST_LOWEST_CLUBS, sm))) == ["5C"]
    no_clubs = np.uint64(deck.mask("AS KH"))
    assert deck.labels(int(legal_mask(no_clubs, False, 0, False, FIRST_LOWEST_CLUBS, sm))) == ["AS", "KH"]
    two = np.uint64(deck.mask("AS 2C KH"))
    assert deck.labels(int(legal_mask(two, True, -1, False, FIRST_TWO_OF_CLUBS, sm))) == ["2C"]
    assert deck.labels(int(legal_mask(hand, True, -1, False, FIRST_FREE, sm))) == ["KH", "9C", "5C"]
    assert deck.labels(int(legal_mask(hand, True, -1, True, FIRST_FREE, sm))) == ["AS", "KH", "9C", "5C"]
    spades = np.uint64(deck.mask("AS 3S"))
    assert deck.labels(int(legal_mask(spades, True, -1, False, FIRST_FREE, sm))) == ["AS", "3S"]


def test_bad_input_is_named() -> None:
    with pytest.raises(dd.DDError, match="already in another hand"):
        dd.solve([["AS"], ["AS"], ["2C"], ["3C"]], 0)
    with pytest.raises(dd.DDError, match="same number of cards"):
        dd.solve([["AS", "KS"], ["QS"], ["2C"], ["3C"]], 0)
    with pytest.raises(dd.DDError, match="4 players"):
        dd.solve([[["AS"], ["KS"]]], 0)
    with pytest.raises(dd.DDError, match="not a seat"):
        dd.solve([["AS"], ["KS"], ["2C"], ["3C"]], 5)
    with pytest.raises(dd.DDError, match="seat 1"):
        dd.solve([["AS"], ["XX"], ["2C"], ["3C"]], 0)


def test_solve_position_replays_plays_and_values_each_card() -> None:
    # an ending of 3 tricks; dealer 3, so seat 0 leads: AS breaks nothing (spades not broken, seat 0 has a side card)
    hands = [["KH", "AS", "2D"], ["AH", "QS", "3D"], ["2C", "3C", "4D"], ["4C", "5C", "5D"]]
    position = {"dealer": 3, "hands": hands, "plays": [[0, "KH"], [1, "AH"]]}
    values = dd.solve_position(position)
    # seat 2 (side 0) must discard: clubs or the diamond, all lose this trick to AH;
    # then seat 1 leads: side 0 can still win AS's trick and perhaps a diamond
    deck = deck_for("standard")
    masks = np.array(
        [[deck.mask(h) for h in [["AS", "2D"], ["QS", "3D"], ["2C", "3C", "4D"], ["4C", "5C", "5D"]]]], dtype=np.uint64
    )
    trick = np.array([[deck.card_id("KH"), deck.card_id("AH"), -1, -1]])
    direct = dd.card_values(masks, trick, 0, False)[0]
    assert values == {deck.cards[c]: int(direct[c]) for c in range(51, -1, -1) if direct[c] >= 0}
    assert set(values) == {"4D", "3C", "2C"}
    with pytest.raises(dd.DDError, match="not legal"):
        dd.solve_position({"dealer": 3, "hands": hands, "plays": [[0, "AS"]]})
    with pytest.raises(dd.DDError, match="seat 0 is to play"):
        dd.solve_position({"dealer": 3, "hands": hands, "plays": [[1, "AH"]]})
    with pytest.raises(dd.DDError, match="to act"):
        dd.solve_position({**position, "to_act": 3})


def test_table_lists_every_leader_and_sides_add_up() -> None:
    rng = np.random.default_rng(5)
    deals = [random_ending(rng, 4, 3)[0] for _ in range(3)]
    frame = dd.table(deals)
    assert list(frame.columns) == ["deal", "leader", "side0", "side1"]
    assert len(frame) == 12 and (frame.side0 + frame.side1 == 3).all()
    again = dd.solve(deals[1], 2)
    assert frame.query("deal == 1 and leader == 2")[["side0", "side1"]].to_numpy().tolist() == again.tolist()


def test_deal_notations_agree() -> None:
    deck = deck_for("standard")
    as_lists = [["AS", "KH"], ["QS", "AH"], ["2C", "3C"], ["4C", "5C"]]
    as_strings = [" ".join(h) for h in as_lists]
    as_masks = [deck.mask(h) for h in as_lists]
    want = dd.solve(as_lists, 0).tolist()
    assert dd.solve(as_strings, 0).tolist() == want
    assert dd.solve(np.array(as_masks, dtype=np.uint64), 0).tolist() == want
    # a batch of four deals whose hands are strings is four deals, not one
    assert dd.solve([as_strings] * 4, [0, 1, 2, 3]).shape == (4, 2)


def test_hands_longer_than_thirteen_cards_are_refused() -> None:
    # two 14-card Duel hands are no Spades hand; the search keeps per-trick state for 13 tricks at most
    long = np.array([[(1 << 14) - 1, ((1 << 14) - 1) << 14]], dtype=np.uint64)
    with pytest.raises(dd.DDError, match="1..13"):
        dd.card_values(long, np.array([[-1, -1]]), 0, False, rules="duel")
    deck = deck_for("standard")
    hands = [deck.labels(int(m)) for m in long[0]]
    with pytest.raises(dd.DDError, match="1..13"):
        dd.solve_position({"dealer": 1, "hands": hands, "plays": []}, rules="duel")
    with pytest.raises(dd.DDError, match="1..13"):
        dd.solve([hands], 0, rules="duel")


def test_without_the_spades_break_rule_a_spade_may_be_led_at_once() -> None:
    # spades not yet broken, seat 0 to lead (dealer 3): under spades_break = False AS is a legal lead
    hands = [["AS", "2H"], ["KH", "3C"], ["3H", "4C"], ["QH", "5C"]]
    free = Rules(spades_break=False)
    position = {"dealer": 3, "hands": hands, "plays": []}
    assert set(dd.solve_position(position)) == {"2H"}
    # AS wins its trick, and after 2H seat 0 ruffs the club return with it: one trick either way
    assert dd.solve_position(position, free) == {"AS": 1, "2H": 1}
    assert dd.nil_tricks(hands, 0, 0, rules=free).tolist() == [1]
    trick = np.full((1, 4), -1)
    values = dd.card_values(np.array([[deck_for("standard").mask(h) for h in hands]], dtype=np.uint64), trick, 0, False,
                            rules=free)[0]  # fmt: skip
    assert (values >= 0).sum() == 2


@pytest.mark.parametrize("deck_name,players", CASES)
def test_without_the_spades_break_rule_values_match_brute_force(deck_name: str, players: int) -> None:
    """Every deal's value under spades_break = False is the brute force's with spades broken from the start."""
    deck = deck_for(deck_name)
    rules = Rules(players=players, deck=deck_name, spades_break=False)
    solver = dd.Solver(rules)
    rng = np.random.default_rng(zlib.crc32(f"free-{deck_name}-{players}".encode()))
    for _ in range(25):
        tricks = int(rng.integers(1, 5))
        masks, sets = random_ending(rng, players, tricks)
        leader = int(rng.integers(players))
        got = dd.solve([masks], leader, solver=solver)[0, 0]
        assert got == brute(deck, tuple(sets), leader, True), (masks, leader)


BAD_CALLS = {
    "a mask bit above 51": (lambda: dd.solve(np.array([[1 << 52, 2, 4, 8]], dtype=np.uint64), 0), "outside the 52"),
    "a mask bit above 51 in a list": (lambda: dd.solve([1 << 60, 2, 4, 8], 0), "outside the 52"),
    "a fractional leader": (lambda: dd.solve([1, 2, 4, 8], 1.5), "leader must be a seat number"),
    "broken as a word": (lambda: dd.solve([1, 2, 4, 8], 0, broken="yes"), "broken must be True or False"),
    "no deal": (lambda: dd.solve(None, 0), "deals must be one deal"),
    "float masks": (lambda: dd.solve([1.0, 2.0, 4.0, 8.0], 0), "whole-number mask"),
    "a float mask array": (lambda: dd.solve(np.array([[1.0, 2.0, 4.0, 8.0]]), 0), "uint64 hand masks"),
    "a list for a position": (lambda: dd.solve_position([1, 2]), "a position is a dict"),
    "a huge table": (lambda: dd.Solver(tt_bits=40), "tt_bits must be a whole number 6..23"),
    "a float nil seat": (lambda: dd.nil_tricks([1, 2, 4, 8], 0.5, 0), "seat must be a seat number"),
    "float card_values hands": (
        lambda: dd.card_values(np.array([[1.0, 2, 4, 8]]), np.full((1, 4), -1), 0, True),
        "hands must be",
    ),
    "a play that is no pair": (
        lambda: dd.solve_position({"hands": [["AS"], ["KS"], ["2C"], ["3C"]], "plays": ["AS"]}),
        "a play is a \\[seat, card\\] pair",
    ),
}


@pytest.mark.parametrize("what", list(BAD_CALLS))
def test_bad_python_input_gets_one_clear_error(what: str) -> None:
    call, message = BAD_CALLS[what]
    with pytest.raises(dd.DDError, match=message):
        call()


CACHE_CHECK = """
import sys
import numpy as np
from spades_lab import dd
from spades_lab.compiled import cached
from spades_lab.dd.solver import solve_batch, values_batch
before = [cached(k) for k in (solve_batch, values_batch)]
print(before)
if all(before):
    dd.solve([["AS KS", "QS JS", "AH KH", "QH JH"]], 0)
    print(sum(solve_batch.stats.cache_hits.values()), sum(solve_batch.stats.cache_misses.values()))
"""


def test_a_new_process_loads_the_search_from_numbas_cache(tmp_path) -> None:
    """The search is a loop, not a recursion, so numba caches it: a process after the first loads the
    compiled search (a cache hit, no word of compiling), and with an empty cache each kernel says it
    will compile."""
    # this process compiles (or loads) both kernels, which leaves them in the package's cache
    dd.solve([["AS KS", "QS JS", "AH KH", "QH JH"]], 0)
    dd.card_values(np.array([[0b11, 0b1100, 0b110000, 0b11000000]], dtype=np.uint64), np.full((1, 4), -1),
                   np.array([0]), np.array([True]))  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    warm = subprocess.run([sys.executable, "-c", CACHE_CHECK], capture_output=True, text=True, env=env, timeout=300)
    assert warm.returncode == 0, warm.stderr
    assert warm.stdout.split("\n")[:2] == ["[True, True]", "1 0"], warm.stdout
    assert "compiling" not in warm.stderr
    cold = subprocess.run([sys.executable, "-c", CACHE_CHECK], capture_output=True, text=True, timeout=300,
                          env={**env, "NUMBA_CACHE_DIR": str(tmp_path)})  # fmt: skip
    assert cold.returncode == 0, cold.stderr
    assert cold.stdout.strip() == "[False, False]"
