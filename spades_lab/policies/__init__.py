"""Bidding and card-play strategies: each a class built from its parameter dataclass.

Names, the registry, plugins, conformance checks and players built from names live one layer up, in
`spades_lab.players`; its older public names (`make_player`, `register`, `Player`, ...) still answer here,
where `spades_lab.players` leaves them when it loads (importing `spades_lab` loads it).
"""

import importlib
from typing import Any

from spades_lab.policies.baseline import RandomBid, RandomPlay
from spades_lab.policies.counting import count_tricks, count_tricks_batch, nil_ok_batch
from spades_lab.policies.params import CheckedParams, NoParams, Ranges

__all__ = ["CheckedParams", "NoParams", "RandomBid", "RandomPlay", "Ranges", "count_tricks", "count_tricks_batch",
           "nil_ok_batch"]  # fmt: skip


def __getattr__(name: str) -> Any:
    """An older public name of the players layer (`make_player`, `register`, ...): loading that layer sets them
    here (`spades_lab.players.aliases`); this finds one asked for before it has loaded."""
    players = importlib.import_module("spades_lab.players")
    if name in players.aliases.NAMES or name in players.aliases.MODULES:
        return globals()[name]
    raise AttributeError(f"module 'spades_lab.policies' has no attribute {name!r}")
