"""`check_policy`: a conformance check for a policy, in the spirit of pgx's `api_test`.

Before a policy plays a long tournament it should be known to answer every decision the rules
have, in the right shape and dtype, legally, the same way for the same seed whatever the batch,
and without writing into its view. `check_policy` plays it through hands built to reach every
phase (a partner that bids blind nil whenever allowed, so exchanges happen; scores that trail,
sit at nine bags, near the target or below zero) and raises `PolicyCheckError` saying what failed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import fields
from typing import Any

import numpy as np

from spades_lab.engine import HandLog, Policy, PolicyError, play_hand, rng
from spades_lab.engine.views import BidView, BlindView
from spades_lab.players.player import Player
from spades_lab.players.registry import make_player
from spades_lab.policies.baseline import RandomBid, RandomDraft, RandomExchange, RandomPlay
from spades_lab.progress import bar, wanted
from spades_lab.rules import Rules, RulesLike, load_rules

METHODS = ("blind", "bid", "exchange", "draft", "play")


class PolicyCheckError(AssertionError):
    """A policy failed `check_policy`; the message says which check, where and how to fix it."""


class _Watcher:
    """Stands in for the policy: counts its decisions and checks it leaves its view unchanged."""

    def __init__(self, policy: Any) -> None:
        self.inner = policy
        self.name = getattr(policy, "name", type(policy).__name__)
        self.asked: Counter[str] = Counter()
        for method in METHODS:
            if hasattr(policy, method):
                setattr(self, method, self._wrap(method))

    def _wrap(self, method: str) -> Callable[[Any], Any]:
        decide = getattr(self.inner, method)

        def watched(view: Any) -> Any:
            before = _arrays(view)
            answer = decide(view)
            for name, value in _arrays(view).items():
                if not np.array_equal(value, before[name]):
                    raise PolicyCheckError(
                        f"policy {self.name!r} wrote into view.{name} during {method}: a view is read-only input;"
                        " copy an array (np.array(view.x)) before changing it"
                    )
            self.asked[method] += 1
            return answer

        return watched


def _arrays(view: Any) -> dict[str, np.ndarray]:
    out = {}
    for name in dir(view):
        if name.startswith("_"):
            continue
        value = getattr(view, name, None)
        if isinstance(value, np.ndarray):
            out[name] = value.copy()
    return out


class _BlindPartner:
    """Random play, but declares blind nil wherever the rules allow, so the exchange is reached."""

    name = "blind-partner"

    def __init__(self) -> None:
        self._bid, self._play, self._draft, self._exchange = (
            RandomBid(1.0),
            RandomPlay(),
            RandomDraft(),
            RandomExchange(),
        )

    def blind(self, view: BlindView) -> np.ndarray:
        return np.ones(len(view), dtype=bool)

    def bid(self, view: BidView) -> np.ndarray:
        return self._bid.bid(view)

    def play(self, view: Any) -> np.ndarray:
        return self._play.play(view)

    def draft(self, view: Any) -> np.ndarray:
        return self._draft.draft(view)

    def exchange(self, view: Any) -> np.ndarray:
        return self._exchange.exchange(view)


def _positions(rules: Rules, tables: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Dealer, hand number, scores and bags of the test tables: ordinary and edge situations."""
    trail = max(rules.blind_nil_trail, 100) + 50
    score_rows = [
        [0, 0], [0, trail], [trail, 0], [rules.target - 10, rules.target - 20], [-150, 40],
        [rules.mercy_threshold + 10 if rules.mercy else -300, 0], [90, 90],
    ]  # fmt: skip
    bag_rows = [[0, 0], [rules.bag_threshold - 1, 0], [0, rules.bag_threshold - 1], [3, 7]]
    if rules.sides > 2:  # each for themselves: seats 2 (and 3) mirror seats 1 and 0 (ties for the lead included)
        score_rows = [(row + row[::-1])[: rules.sides] for row in score_rows]
        bag_rows = [(row + row[::-1])[: rules.sides] for row in bag_rows]
    t = np.arange(tables)
    scores = np.array(score_rows, dtype=np.int64)[t % len(score_rows)]
    bags = np.array(bag_rows, dtype=np.int64)[(t // len(score_rows)) % len(bag_rows)]
    dealer = t % rules.players
    hand_number = (t // 3) % 5
    return dealer, hand_number.astype(np.int64), scores, bags


def _play(rules: Rules, seats: list[Any], seed: int, rows: np.ndarray, tables: int) -> HandLog:
    dealer, hand_number, scores, bags = _positions(rules, tables)
    ids = np.arange(tables, dtype=np.int64)
    keys = rng.derive(int(rng.seed_key(seed)), ids)
    return play_hand(rules, seats, ids[rows], hand_number[rows], keys[rows], dealer[rows], scores[rows], bags[rows])


def _same(a: HandLog, b: HandLog) -> str | None:
    for f in fields(HandLog):
        if not np.array_equal(getattr(a, f.name), getattr(b, f.name)):
            return f.name
    return None


MAX_TABLES = 100_000
"""Most tables a check plays: every table's hand is held in memory, four times per seating."""


def check_policy(
    policy: Policy | str,
    rules: RulesLike = None,
    tables: int = 48,
    seed: int = 0,
    progress: bool | None = None,
) -> dict[str, int]:
    """Check that `policy` (an object or a player name) plays correctly under `rules` (default: standard).

    Plays `tables` hands twice with the policy on every seat and twice beside a partner that bids
    blind nil whenever allowed, from ordinary and edge scores. Checks: the methods the rules need
    exist; every answer has the right shape, dtype and is legal; the policy never writes into its
    view; the same seed gives the same games, and so does splitting the tables into two batches
    (a policy must draw randomness only from `view.uniform`, never from its batch); every phase the
    rules have was asked. Returns the number of decisions asked per method; raises
    `PolicyCheckError` naming the first failure. `progress`: a bar over the plays (None:
    where someone watches), since a slow policy takes minutes; `tables` is at most `MAX_TABLES`.
    """
    if not 1 <= int(tables) <= MAX_TABLES:
        raise ValueError(f"tables = {tables:,} is impossible; allowed: 1 to {MAX_TABLES:,} (each is held in memory)")
    rules = rules if isinstance(rules, Rules) else load_rules(rules)
    target = make_player(policy) if isinstance(policy, (str, Player)) else policy
    needed = ["name", "bid", "play"] + (["draft"] if rules.players == 2 else [])
    needed += ["exchange"] if (rules.blind_nil and rules.blind_nil_exchange) or rules.nil_exchange else []
    missing = [m for m in needed if not hasattr(target, m)]
    if missing:
        raise PolicyCheckError(
            f"policy {getattr(target, 'name', target)!r} lacks {', '.join(missing)}, which these rules need"
            " (see spades_lab.engine.Policy)"
        )
    watcher = _Watcher(target)
    partner = _BlindPartner()
    p = rules.players
    seatings: dict[str, list[Any]] = {
        "every seat": [watcher] * p,
        "beside a blind-nil partner": [watcher] * (p - p // 2) + [partner] * (p // 2),
    }
    every = np.arange(tables)
    shown = bar(total=3 * len(seatings), unit="play", desc=f"checking {watcher.name}", disable=not wanted(progress),
                dynamic_ncols=True)  # fmt: skip

    def played(seats: list[Any], rows: np.ndarray) -> HandLog:
        log = _play(rules, seats, seed, rows, tables)
        shown.update(len(rows) / tables)
        return log

    for label, seats in seatings.items():
        try:
            shown.set_postfix_str(label)
            first = played(seats, every)
            again = played(seats, every)
            halves = [played(seats, every[k::2]) for k in (0, 1)]
        except PolicyCheckError:
            shown.close()
            raise
        except PolicyError as exc:
            shown.close()
            raise PolicyCheckError(f"{label}: {exc}") from exc
        differs = _same(first, again)
        if differs:
            raise PolicyCheckError(
                f"{label}: the same seed gave different games ({differs} differs): draw randomness only from"
                " view.uniform(), and keep no state between calls"
            )
        split = HandLog.concat(halves).sorted()
        differs = _same(first.sorted(), split)
        if differs:
            raise PolicyCheckError(
                f"{label}: splitting the tables into two batches changed the games ({differs} differs): a policy's"
                " answer at a table must depend only on that table's view, not on the batch"
            )
    shown.close()
    asked = dict(watcher.asked)
    expect = ["bid", "play"] + (["draft"] if p == 2 else []) + (["exchange"] if "exchange" in needed else [])
    expect += ["blind"] if rules.blind_nil and hasattr(target, "blind") else []
    never = [m for m in expect if not asked.get(m)]
    if never:
        raise PolicyCheckError(
            f"the check never reached {', '.join(never)} decisions of {watcher.name!r} (a bug of the check)"
        )
    return asked
