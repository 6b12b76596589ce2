"""Exact double-dummy solver for Spades: the tricks each side takes when every hand is seen.

`solve` gives each side's tricks for a batch of deals; `solve_position` the value of every legal
card in a recorded position; `nil_tricks` whether a nil can be made; `table` a DataFrame per deal
and leader; `card_values` the batch all-moves entry point for players that search sampled worlds;
`hand_tricks` / `with_dd` / `simulate(..., dd=True)` the DD tricks of hands that were played.
"""

from spades_lab.dd.api import card_values, nil_tricks, solve, solve_position, table
from spades_lab.dd.hands import hand_tricks, simulate, with_dd
from spades_lab.dd.solver import DDError, Solver

__all__ = [
    "DDError", "Solver", "card_values", "hand_tricks", "nil_tricks", "simulate", "solve", "solve_position", "table",
    "with_dd",
]  # fmt: skip
