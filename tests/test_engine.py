"""The batch engine (spades_lab.engine) checked from the outside.

(a) Every simulated game, under default and variant rules, is converted to hand records and
    replayed card by card by the independent referee (tests/referee.py).
(b) Hypothesis properties over seeds, batch sizes and rules: deals, tricks, scores, bags.
(c) Reproducibility: a seed fixes every game whatever the batch size; other seeds differ.
(d) Seats may hold different policies; per-table Python functions adapted with `from_functions`
    that make the same choices as the batch `random` policy give exactly the same games.
(e) A policy's bad answer stops the run with a PolicyError that says who, where and what was legal.
(f) Information hiding: views are read-only and never show another seat's cards.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import fields
from functools import cache
from itertools import groupby

import numpy as np
import pytest
import referee
from hypothesis import given, settings
from hypothesis import strategies as st

from spades_lab.cards import STANDARD_DECK
from spades_lab.engine import HandLog, PolicyError, simulate_games, simulate_hands
from spades_lab.engine import masks as sl_masks
from spades_lab.engine.records import hand_records
from spades_lab.engine.views import TableView
from spades_lab.policies import Player, RandomPlay, from_functions, make_player, make_players
from spades_lab.rules import Rules

FULL_DECK = (1 << 52) - 1
RANDOM = make_players("random")


# --------------------------------------------------------------------------- helpers


def run_games(rules: Rules, players, n: int, seed: int, batch_size: int = 64, start: int = 0) -> HandLog:
    return HandLog.concat(
        list(simulate_games(rules, players, n, seed=seed, batch_size=batch_size, start=start))
    ).sorted()


def run_hands(rules: Rules, players, n: int, seed: int, batch_size: int = 64, start: int = 0) -> HandLog:
    return HandLog.concat(
        list(simulate_hands(rules, players, n, seed=seed, batch_size=batch_size, start=start))
    ).sorted()


def games(log: HandLog, rules: Rules) -> Iterator[list[dict]]:
    """The records of each game of a sorted log, game by game."""
    for _, records in groupby(hand_records(log, rules), key=lambda r: r["game"]):
        yield list(records)


def referee_rules(rules: Rules) -> dict:
    return rules.to_dict()


def check_all_games(log: HandLog, rules: Rules, n_games: int, start: int = 0) -> list[list[dict]]:
    """Referee every game of a log; every game id appears, each game is complete. Returns the games."""
    all_games = list(games(log, rules))
    assert [g[0]["game"] for g in all_games] == list(range(start, start + n_games))
    for records in all_games:
        referee.check_game(records, referee_rules(rules))
    return all_games


def assert_same_logs(a: HandLog, b: HandLog) -> None:
    for f in fields(HandLog):
        x, y = getattr(a, f.name), getattr(b, f.name)
        assert x.shape == y.shape, f.name
        assert np.array_equal(x, y), f"HandLog.{f.name} differs"


class FixedBid:
    """A rigged bidder: every seat bids `n`, so contracts are usually made and games reach the target."""

    def __init__(self, n: int) -> None:
        self.n, self.name = n, f"bid{n}"

    def bid(self, view) -> np.ndarray:
        return np.full(len(view), self.n, dtype=np.int64)


def rigged(n: int) -> list[Player]:
    return [Player(FixedBid(n), RandomPlay())] * 4


# --------------------------------------------------------------------------- (a) referee agreement

CAPPED = Rules(hand_cap=25)


def test_random_games_agree_with_the_referee() -> None:
    # Random bids rarely reach 500, so the cap ends the games: 200 games x 25 hands = 5000 hands.
    log = run_games(CAPPED, RANDOM, 200, seed=2024)
    assert len(log) == 200 * 25
    all_games = check_all_games(log, CAPPED, 200)
    assert all(records[-1].get("unfinished") and records[-1]["winner"] is None for records in all_games)


def test_random_single_hands_agree_with_the_referee() -> None:
    rules = Rules()
    log = run_hands(rules, RANDOM, 2000, seed=99, batch_size=512)
    assert log.game.tolist() == list(range(2000))
    assert (log.hand == 0).all()
    for record in hand_records(log, rules):
        referee.check_record(record, referee_rules(rules))
        assert record["score_before"] == [0, 0] and record["bags_before"] == [0, 0]


VARIANTS = {
    "small bags, nil 50, nil tricks ignored": (
        Rules(hand_cap=15, bag_threshold=3, nil_value=50, nil_tricks_as_bags=False), RANDOM, 120,
    ),
    "mercy": (Rules(hand_cap=20, mercy=True), RANDOM, 300),
    "mercy at -100, no bag penalty": (
        Rules(hand_cap=20, mercy=True, mercy_threshold=-100, bag_penalty_enabled=False), RANDOM, 200,
    ),
    "target 60": (Rules(target=60, hand_cap=20), RANDOM, 150),
    "values and bid range": (
        Rules(hand_cap=10, trick_value=20, bag_value=2, bag_penalty=50, min_bid=2, max_bid=6,
              mercy=True, mercy_threshold=-300),
        RANDOM, 150,
    ),
    "short game, rigged bids of 2": (Rules(target=250, hand_cap=40), rigged(2), 150),
    "short game, rigged bids of 2, no bag penalty": (
        Rules(target=250, hand_cap=40, bag_penalty_enabled=False), rigged(2), 150,
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", list(VARIANTS))
def test_variant_rules_agree_with_the_referee(name: str) -> None:
    rules, players, n = VARIANTS[name]
    log = run_games(rules, players, n, seed=7, batch_size=50)
    all_games = check_all_games(log, rules, n)
    last = [records[-1] for records in all_games]
    finished = [r for r in last if r["game_over"]]
    if rules.mercy or rules.target <= 250:
        # These configurations exist to exercise game ends: some games must end, and both sides win some.
        assert len(finished) >= 5, f"only {len(finished)} of {n} games ended"
        assert {r["winner"] for r in finished} == {0, 1}
    if rules.target == 250:
        assert len(finished) > n // 2


def test_rigged_games_end_by_target_with_the_higher_total_winning() -> None:
    rules = Rules(target=250, hand_cap=40)
    log = run_games(rules, rigged(2), 150, seed=8)
    over = log.take(np.flatnonzero(log.game_over))
    assert len(over) > 75
    assert (over.score_after.max(axis=1) >= 250).all()
    assert (over.score_after[np.arange(len(over)), over.winner] == over.score_after.max(axis=1)).all()
    assert (over.score_after[:, 0] != over.score_after[:, 1]).all()
    # No hand before a game's last one reached the target with unequal totals.
    going = log.take(np.flatnonzero(~log.game_over & ~log.unfinished))
    reached = (going.score_after >= 250).any(axis=1)
    assert (going.score_after[reached, 0] == going.score_after[reached, 1]).all()


def test_hand_i_of_simulate_hands_is_the_first_hand_of_game_i() -> None:
    hands = run_hands(CAPPED, RANDOM, 40, seed=5, batch_size=16)
    first = run_games(Rules(hand_cap=1), RANDOM, 40, seed=5, batch_size=16)
    for name in ("game", "hand", "dealer", "deal", "bids", "plays", "play_seats", "tricks", "hand_score"):
        assert np.array_equal(getattr(hands, name), getattr(first, name)), name


def test_dealer_passes_clockwise_and_is_drawn_per_game() -> None:
    log = run_games(Rules(hand_cap=6), RANDOM, 100, seed=3)
    for g in range(100):
        dealers = log.dealer[log.game == g]
        assert dealers.tolist() == [(int(dealers[0]) + k) % 4 for k in range(6)]
    first = log.dealer[log.hand == 0]
    assert set(first.tolist()) == {0, 1, 2, 3}  # drawn at random, not always the same seat


# --------------------------------------------------------------------------- (b) properties


def check_log_invariants(log: HandLog, rules: Rules) -> None:
    """Card-level facts of every hand of a log, computed here without the engine or the referee."""
    ref = referee_rules(rules)
    for i in range(len(log)):
        deal = [int(m) for m in log.deal[i]]
        assert [bin(m).count("1") for m in deal] == [13, 13, 13, 13]
        assert deal[0] | deal[1] | deal[2] | deal[3] == FULL_DECK  # with 4 x 13 cards: each dealt exactly once
        plays, seats = log.plays[i].tolist(), log.play_seats[i].tolist()
        assert sorted(plays) == list(range(52))  # every card played exactly once: 13 tricks of 4
        for seat in range(4):
            played = sum(1 << c for c, s in zip(plays, seats) if s == seat)
            assert played == deal[seat]  # each seat played exactly the cards it was dealt
        for trick in range(13):
            assert sorted(seats[4 * trick : 4 * trick + 4]) == [0, 1, 2, 3]
        assert seats[0] == (int(log.dealer[i]) + 1) % 4
        tricks = log.tricks[i].tolist()
        assert sum(tricks) == 13 and min(tricks) >= 0
        bids = log.bids[i].tolist()
        assert all(b == 0 or rules.min_bid <= b <= rules.max_bid for b in bids)
        points, bags_after = referee.score_hand(ref, bids, tricks, log.bags_before[i].tolist())
        assert log.hand_score[i].tolist() == points
        assert log.bags_after[i].tolist() == bags_after
        assert (log.score_after[i] == log.score_before[i] + log.hand_score[i]).all()
        if rules.bag_penalty_enabled:
            assert (log.bags_after[i] < rules.bag_threshold).all()
            assert (log.bags_after[i] >= 0).all()


RULES_STRATEGY = st.builds(
    Rules,
    hand_cap=st.integers(1, 8),
    bag_threshold=st.integers(1, 12),
    bag_penalty_enabled=st.booleans(),
    nil_tricks_as_bags=st.booleans(),
    nil_value=st.sampled_from([100, 50]),
    mercy=st.booleans(),
)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(1, 40), st.integers(1, 16), RULES_STRATEGY)
def test_hands_properties(seed: int, n: int, batch_size: int, rules: Rules) -> None:
    log = run_hands(rules, RANDOM, n, seed=seed, batch_size=batch_size)
    assert len(log) == n
    check_log_invariants(log, rules)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(1, 12), st.integers(1, 8), RULES_STRATEGY)
def test_games_properties(seed: int, n: int, batch_size: int, rules: Rules) -> None:
    log = run_games(rules, RANDOM, n, seed=seed, batch_size=batch_size)
    check_log_invariants(log, rules)
    check_all_games(log, rules, n)


# --------------------------------------------------------------------------- (c) reproducibility

GAME_RULES = Rules(hand_cap=12, mercy=True, mercy_threshold=-400)  # games of 2 to 6 hands: batches refill often


@cache
def reference_log(mode: str, seed: int) -> HandLog:
    if mode == "hands":
        return run_hands(Rules(), RANDOM, 150, seed=seed, batch_size=1000)
    return run_games(GAME_RULES, RANDOM, 40, seed=seed, batch_size=1000)


@pytest.mark.parametrize("mode", ["hands", "games"])
@pytest.mark.parametrize("batch_size", [1, 7, 64])
def test_batch_size_does_not_change_results(mode: str, batch_size: int) -> None:
    if mode == "hands":
        log = run_hands(Rules(), RANDOM, 150, seed=11, batch_size=batch_size)
    else:
        log = run_games(GAME_RULES, RANDOM, 40, seed=11, batch_size=batch_size)
    assert_same_logs(log, reference_log(mode, 11))


@pytest.mark.parametrize("mode", ["hands", "games"])
def test_same_seed_same_results_other_seed_differs(mode: str) -> None:
    again = (
        run_hands(Rules(), RANDOM, 150, seed=11, batch_size=1000)
        if mode == "hands"
        else (run_games(GAME_RULES, RANDOM, 40, seed=11, batch_size=1000))
    )
    assert_same_logs(again, reference_log(mode, 11))
    a, b = reference_log(mode, 11), reference_log(mode, 12)
    assert not np.array_equal(a.deal[:20], b.deal[:20])
    assert (a.deal[:20] != b.deal[:20]).all(axis=1).mean() > 0.9  # not just one table
    assert not np.array_equal(a.dealer[a.hand == 0], b.dealer[b.hand == 0])
    assert not np.array_equal(a.bids[:20], b.bids[:20])


def test_a_run_resumed_at_start_gives_the_same_games() -> None:
    whole = run_games(GAME_RULES, RANDOM, 60, seed=4, batch_size=16)
    tail = run_games(GAME_RULES, RANDOM, 20, seed=4, batch_size=16, start=40)
    assert_same_logs(tail, whole.take(np.flatnonzero(whole.game >= 40)))
    hands = run_hands(Rules(), RANDOM, 30, seed=4, batch_size=8)
    assert_same_logs(run_hands(Rules(), RANDOM, 10, seed=4, batch_size=3, start=20), hands.take(np.arange(20, 30)))


# --------------------------------------------------------------------------- (d) seat policies and the adapter


def random_bid(table: TableView) -> int:
    """RandomBid's choice: the floor(u * n)-th legal bid, nil (0) first and then upwards."""
    assert table.legal == sorted(table.legal)
    return table.legal[int(table.random * len(table.legal))]


def random_card(table: TableView) -> str:
    """RandomPlay's choice: the floor(u * n)-th legal card in card-id order (suit blocks, each weakest first).

    `table.legal` lists cards weakest first across suits (trumps last), so it is re-sorted by id here.
    """
    order = {c: i for i, c in enumerate(STANDARD_DECK.cards[int(k)] for k in sl_masks.strength_order(STANDARD_DECK))}
    assert table.legal == sorted(table.legal, key=order.__getitem__)
    by_id = sorted(table.legal, key=STANDARD_DECK.card_id)
    return by_id[int(table.random * len(table.legal))]


def strongest_first_card(table: TableView) -> str:
    return table.legal[int(table.random * len(table.legal))]


ADAPTED = from_functions(random_bid, random_card, name="python-random")
ADAPTER_RULES = Rules(hand_cap=8, mercy=True)


@cache
def batch_random_games() -> HandLog:
    return run_games(ADAPTER_RULES, RANDOM, 24, seed=21, batch_size=10)


def test_adapter_gives_the_same_games_as_the_batch_policy() -> None:
    assert_same_logs(run_games(ADAPTER_RULES, [ADAPTED] * 4, 24, seed=21, batch_size=10), batch_random_games())


def test_adapter_on_some_seats_gives_the_same_games() -> None:
    batch = make_player("random")
    mixed = [batch, ADAPTED, batch, ADAPTED]
    log = run_games(ADAPTER_RULES, mixed, 24, seed=21, batch_size=10)
    assert_same_logs(log, batch_random_games())
    check_all_games(log, ADAPTER_RULES, 24)
    one_seat = [ADAPTED, batch, batch, batch]
    assert_same_logs(run_games(ADAPTER_RULES, one_seat, 24, seed=21, batch_size=7), batch_random_games())


def test_adapter_comparison_can_fail() -> None:
    # The same draw read against the other card order is a different policy: the games must differ.
    other = from_functions(random_bid, strongest_first_card, name="strongest-first")
    log = run_games(ADAPTER_RULES, [other] * 4, 24, seed=21, batch_size=10)
    assert not np.array_equal(log.plays[:5], batch_random_games().plays[:5])


def test_different_policies_per_seat() -> None:
    # Seats 0 and 2 always bid 2, seats 1 and 3 bid at random; each seat keeps its own policy.
    players = [rigged(2)[0], RANDOM[0], rigged(2)[0], RANDOM[0]]
    log = run_games(Rules(hand_cap=6), players, 30, seed=9, batch_size=8)
    assert (log.bids[:, [0, 2]] == 2).all()
    assert len(np.unique(log.bids[:, [1, 3]])) > 5
    check_all_games(log, Rules(hand_cap=6), 30)


def test_seat_policy_list_is_checked() -> None:
    with pytest.raises(ValueError, match="4 seat policies"):
        next(simulate_hands(Rules(), RANDOM[:3], 1, seed=0))

    class NoPlay:
        name = "noplay"

        def bid(self, view):
            return np.ones(len(view), dtype=np.int64)

    with pytest.raises(TypeError, match="seat 2.*play"):
        next(simulate_hands(Rules(), [RANDOM[0], RANDOM[0], NoPlay(), RANDOM[0]], 1, seed=0))


# --------------------------------------------------------------------------- (e) PolicyError


class Saboteur:
    """Random policy that gives one bad answer at one table and decision; remembers what was legal there."""

    def __init__(self, name: str, table: int, decision: int, answer) -> None:
        self.name, self.table, self.decision, self.answer = name, table, decision, answer
        self.inner = make_player("random")
        self.seen: dict | None = None

    def _spoil(self, view, actions: np.ndarray, legal: list[str]) -> np.ndarray:
        rows = np.flatnonzero(view.tables == self.table)
        if view.decision != self.decision or not len(rows):
            return actions
        row = int(rows[0])
        self.seen = {"seat": int(view.seat[row]), "legal": legal[row]}
        return self.answer(view, row, actions)

    def bid(self, view):
        legal = [[str(b) for b in np.flatnonzero(view.legal_bids[t]) if b] for t in range(len(view))]
        return self._spoil(view, self.inner.bid(view), legal)

    def play(self, view):
        legal = [STANDARD_DECK.labels(int(m)) for m in view.legal]
        return self._spoil(view, self.inner.play(view), legal)


def set_row(value):
    def answer(view, row, actions):
        actions = actions.copy()
        actions[row] = value(view, row) if callable(value) else value
        return actions

    return answer


def illegal_card(view, row) -> int:
    """The weakest card that is not legal for this seat now (often one of another seat's cards)."""
    legal = int(view.legal[row])
    return next(c for c in range(52) if not legal >> c & 1)


def assert_names_who_where_what(error: PolicyError, policy: Saboteur, table: int) -> None:
    message = str(error)
    assert f"'{policy.name}'" in message
    assert policy.seen is not None
    assert re.search(rf"\bseat {policy.seen['seat']}\b", message), message
    assert re.search(rf"\btable {table}\b", message), message
    assert "legal" in message, message
    listed = message.rsplit("legal", 1)[1]  # the options follow the last "legal"
    options = policy.seen["legal"]
    if options and options[0].isdigit():  # bids: nil and the numbers allowed
        assert "nil" in listed or re.search(r"\b0\b", listed), message
        assert set(re.findall(r"\d+", listed)) - {"0"} == set(options), message
    else:
        assert set(re.findall(r"\b[2-9TJQKA][CDHS]\b", listed)) == set(options), message


@pytest.mark.parametrize(
    "label, decision, answer, rules",
    [
        ("card not legal", 4 + 9, set_row(illegal_card), Rules()),
        ("card id out of the deck", 4 + 30, set_row(60), Rules()),
        ("negative card id", 4 + 17, set_row(-1), Rules()),
        ("bid 14", 2, set_row(14), Rules()),
        ("bid -1", 0, set_row(-1), Rules()),
        ("bid above max_bid", 3, set_row(7), Rules(max_bid=6)),
        ("bid below min_bid", 1, set_row(1), Rules(min_bid=2)),
    ],
)
def test_illegal_answer_stops_the_run_naming_policy_seat_table_and_legal_options(label, decision, answer, rules):
    policy = Saboteur("saboteur", table=6, decision=decision, answer=answer)
    with pytest.raises(PolicyError) as info:
        list(simulate_hands(rules, [policy] * 4, 10, seed=1, batch_size=10))
    assert_names_who_where_what(info.value, policy, table=6)
    assert info.value.policy == "saboteur"
    assert info.value.seat == policy.seen["seat"]
    assert info.value.table == 6


def test_illegal_answer_in_game_mode_names_the_game() -> None:
    policy = Saboteur("saboteur", table=13, decision=4 + 40, answer=set_row(illegal_card))
    with pytest.raises(PolicyError) as info:
        list(simulate_games(Rules(hand_cap=3), [policy] * 4, 20, seed=2, batch_size=8))
    assert_names_who_where_what(info.value, policy, table=13)


def test_illegal_answer_of_one_seat_among_different_policies() -> None:
    policy = Saboteur("saboteur", table=4, decision=4 + 22, answer=set_row(illegal_card))
    players = [RANDOM[0], RANDOM[0], policy, RANDOM[0]]
    # Only seat 2 asks the saboteur: find a decision where seat 2 acts at table 4 by trying a few.
    for decision in range(4 + 20, 4 + 28):
        policy.decision, policy.seen = decision, None
        try:
            list(simulate_hands(Rules(), players, 8, seed=3, batch_size=8))
        except PolicyError as error:
            assert policy.seen is not None and policy.seen["seat"] == 2
            assert_names_who_where_what(error, policy, table=4)
            return
        assert policy.seen is None  # not seat 2's turn there: nothing was spoiled
    pytest.fail("seat 2 never acted at table 4 in 8 consecutive plays")


def bad_shape(view, row, actions):
    return actions[:-1] if len(actions) > 1 else np.zeros((1, 1), dtype=np.int64)


def float_dtype(view, row, actions):
    return actions.astype(np.float64)


def raises(view, row, actions):
    raise RuntimeError("the policy crashed")


@pytest.mark.parametrize("kind", [bad_shape, float_dtype, raises], ids=["wrong shape", "float dtype", "raises"])
@pytest.mark.parametrize("phase, decision", [("bid", 1), ("play", 4 + 14)])
def test_malformed_answer_stops_the_run_naming_policy_seat_table_and_legal_options(kind, phase, decision) -> None:
    # One table (id 5), so "the seat" and "the table" are unambiguous.
    policy = Saboteur("saboteur", table=5, decision=decision, answer=kind)
    with pytest.raises(PolicyError) as info:
        list(simulate_hands(Rules(), [policy] * 4, 1, seed=1, batch_size=1, start=5))
    if kind is raises:
        assert isinstance(info.value.__cause__, RuntimeError)
        assert "the policy crashed" in str(info.value)
    assert_names_who_where_what(info.value, policy, table=5)


@pytest.mark.parametrize("kind", [bad_shape, float_dtype, raises], ids=["wrong shape", "float dtype", "raises"])
def test_malformed_answer_in_a_batch_stops_the_run_naming_the_policy(kind) -> None:
    policy = Saboteur("saboteur", table=3, decision=4 + 5, answer=kind)
    with pytest.raises(PolicyError) as info:
        list(simulate_hands(Rules(), [policy] * 4, 10, seed=1, batch_size=10))
    assert "'saboteur'" in str(info.value)
    assert info.value.policy == "saboteur"
    assert policy.seen is not None


# --------------------------------------------------------------------------- (f) information hiding

COMMON_NAMES = {
    "seat", "partner", "team", "hand", "dealer", "bids", "scores", "bags", "hand_number", "tables",
    "uniform", "rules", "deck", "decision", "players", "blind", "observe",
}  # fmt: skip
ALLOWED_NAMES = {
    "BidView": COMMON_NAMES | {"legal_bids"},
    "PlayView": COMMON_NAMES | {
        "legal", "trick", "position", "leader", "led_suit", "trick_cards", "winning_card", "winning_seat",
        "played", "plays", "play_seats", "tricks_won", "spades_broken", "shown_voids",
    },
}  # fmt: skip
CARD_ID_ARRAYS = ("plays", "trick_cards", "winning_card")


def public_names(view) -> set[str]:
    return {name for name in dir(view) if not name.startswith("_")}


class Spy:
    """Plays at random and records every public array of every view it is given."""

    name = "spy"

    def __init__(self) -> None:
        self.inner = make_player("random")
        self.seen: list[tuple[str, int, dict]] = []
        self.names: dict[str, set[str]] = {}
        self.write_errors = 0
        self.hands: list[np.ndarray] = []

    def _record(self, view) -> None:
        kind = type(view).__name__
        self.names.setdefault(kind, set()).update(public_names(view))
        arrays = {}
        for name in sorted(public_names(view)):
            value = getattr(view, name)
            if isinstance(value, np.ndarray):
                arrays[name] = value.copy()  # view arrays are valid during the call only
                if value.size:  # writing must fail, even for a policy that tries
                    try:
                        value.flat[0] = value.flat[0]
                    except ValueError:
                        self.write_errors += 1
                    else:
                        raise AssertionError(f"{kind}.{name} is writable")
        self.seen.append((kind, view.decision, arrays))
        self.hands.append(view.hand)

    def bid(self, view):
        self._record(view)
        return self.inner.bid(view)

    def play(self, view):
        self._record(view)
        return self.inner.play(view)


@cache
def spied() -> tuple[Spy, HandLog]:
    spy = Spy()
    log = run_hands(Rules(), [spy] * 4, 12, seed=31, batch_size=5)
    return spy, log


def test_view_arrays_are_read_only() -> None:
    spy, _ = spied()
    assert spy.write_errors > 56 * 3 * 5  # every decision, several arrays each
    with pytest.raises(ValueError):
        spy.hands[-1][0] = 0


def test_view_properties_cannot_be_replaced() -> None:
    caught = []

    class Vandal:
        name = "vandal"

        def bid(self, view):
            for name in ("hand", "legal_bids", "bids", "scores"):
                with pytest.raises(AttributeError):
                    setattr(view, name, np.zeros(1))
            with pytest.raises(AttributeError):
                view.hands = np.zeros(4)  # no new attributes either
            caught.append(True)
            return RANDOM[0].bid(view)

        def play(self, view):
            with pytest.raises(AttributeError):
                view.legal = np.full(len(view), -1)
            return RANDOM[0].play(view)

    log = run_hands(Rules(), [Vandal()] * 4, 3, seed=1, batch_size=3)
    assert len(caught) == 4
    check_log_invariants(log, Rules())


def test_views_expose_only_allowed_public_names() -> None:
    spy, _ = spied()
    assert set(spy.names) == {"BidView", "PlayView"}
    for kind, names in spy.names.items():
        assert names <= ALLOWED_NAMES[kind], f"{kind} exposes {sorted(names - ALLOWED_NAMES[kind])}"
        for hidden in ("hands", "deal", "dealt", "stock"):
            assert hidden not in names
    table_fields = {f.name for f in fields(TableView)}
    assert table_fields <= {
        "seat", "hand", "legal", "bids", "scores", "bags", "dealer", "trick", "plays", "tricks_won",
        "spades_broken", "random", "blind", "players", "contract", "tricks", "needed", "leader", "led_suit",
        "winning_card", "winning_seat", "partner_winning", "master", "voids", "unseen", "winners",
    }  # fmt: skip


def test_a_policy_never_sees_other_seats_cards() -> None:
    spy, log = spied()
    row_of = {int(g): i for i, g in enumerate(log.game)}
    checked = 0
    for kind, decision, arrays in spy.seen:
        played_before = decision - 4 if kind == "PlayView" else 0
        for t, game in enumerate(arrays["tables"].tolist()):
            i, seat = row_of[game], int(arrays["seat"][t])
            gone = dict.fromkeys(range(4), 0)
            for c, s in zip(log.plays[i, :played_before].tolist(), log.play_seats[i, :played_before].tolist()):
                gone[s] |= 1 << c
            own = int(log.deal[i, seat]) & ~gone[seat]
            hidden = 0
            for other in range(4):
                if other != seat:
                    hidden |= int(log.deal[i, other]) & ~gone[other]
            assert int(arrays["hand"][t]) == own  # its own cards, exactly
            for name, value in arrays.items():
                if value.dtype == np.uint64:  # every card mask a view hands out
                    for mask in np.atleast_1d(value[t]).tolist():
                        assert int(mask) & hidden == 0, f"{kind}.{name} shows another seat's card"
            played = sum(gone.values())
            for name in CARD_ID_ARRAYS:
                if name in arrays:
                    for card in np.atleast_1d(arrays[name][t]).tolist():
                        assert card == -1 or (played >> card) & 1, f"{kind}.{name} shows an unplayed card"
            checked += 1
    assert checked == 12 * 56


def test_a_table_view_shows_only_its_own_hand() -> None:
    seen: list[tuple[int, int, list[str]]] = []

    def peek(table: TableView) -> int:
        seen.append((table.seat, table.dealer, list(table.hand)))
        return random_bid(table)

    log = run_hands(Rules(), [from_functions(peek, random_card, name="peek")] * 4, 1, seed=17, batch_size=1)
    assert len(seen) == 4
    for seat, _, hand in seen:
        assert sorted(hand) == sorted(STANDARD_DECK.labels(int(log.deal[0, seat])))
    assert sorted(seat for seat, _, _ in seen) == [0, 1, 2, 3]
