"""Double-dummy truth for hands that were played: each side's DD tricks from the actual deal.

A played hand is judged against the tricks each side could have taken with every hand seen and
perfect play from both sides, starting where play really started: the cards held at the first
lead (after any exchange or Duel draft), the seat that really led, and the rules' spades-break and
first-trick rules. The values are exact, so they depend only on the deal, never on how the hands
were batched, which process solved them or what the solver's table held before.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from spades_lab.dd.api import solve
from spades_lab.dd.solver import Solver
from spades_lab.engine import HandLog, Policy
from spades_lab.engine.simulate import DEFAULT_BATCH, MAX_HANDS, simulate_games, simulate_hands
from spades_lab.rules import Rules, RulesLike, load_rules

_SOLVERS: dict[Rules, Solver] = {}


def process_solver(rules: RulesLike) -> Solver:
    """One solver per process and rules: its table (about 30 MB) is built once and reused by every batch."""
    key = load_rules(rules)
    if key not in _SOLVERS:
        _SOLVERS[key] = Solver(key)
    return _SOLVERS[key]


def hand_tricks(log: HandLog, rules: RulesLike = None, *, solver: Solver | None = None) -> np.ndarray:
    """[n, 2] int64: each side's DD tricks for every hand of a log, from its position at the first lead."""
    s = solver if solver is not None else process_solver(rules)
    if len(log) == 0:
        return np.zeros((0, 2), dtype=np.int64)
    held, leader, broken = log.play_start(s.rules)
    return solve(held, leader, broken=broken, solver=s).astype(np.int64)


def with_dd(logs: Iterable[HandLog], rules: RulesLike = None, *, solver: Solver | None = None) -> Iterator[HandLog]:
    """The same logs, each with `dd_tricks` filled in as it passes (streams: one batch in memory at a time)."""
    s = solver if solver is not None else process_solver(rules)
    for log in logs:
        log.dd_tricks = hand_tricks(log, solver=s)
        yield log


def simulate(
    rules: RulesLike,
    policies: Sequence[Policy],
    *,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    batch_size: int = DEFAULT_BATCH,
    start: int = 0,
    max_hands: int | None = MAX_HANDS,
    dd: bool = False,
    solver: Solver | None = None,
) -> Iterator[HandLog]:
    """`simulate_hands` (hands=) or `simulate_games` (games=), with `dd=True` adding each hand's DD tricks.

    A full-deal solve takes from a tenth of a second to about a minute (a few seconds typically),
    against microseconds for playing the hand: keep `dd=True` runs to hundreds or thousands of hands.
    """
    if (hands is None) == (games is None):
        raise ValueError("give exactly one of hands (independent hands) or games (complete games)")
    r = load_rules(rules)
    if hands is not None:
        logs = simulate_hands(r, policies, hands, seed, batch_size=batch_size, start=start)
    else:
        logs = simulate_games(r, policies, int(games or 0), seed, batch_size=batch_size, start=start,
                              max_hands=max_hands)  # fmt: skip
    if not dd:
        yield from logs
        return
    yield from with_dd(logs, r, solver=solver)
