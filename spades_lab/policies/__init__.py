"""Bidding and card-play policies, and players built from their names."""

from spades_lab.policies import bidding as _bidding  # noqa: F401  (registers counting, optimist, cautious)
from spades_lab.policies import calibrated as _calibrated  # noqa: F401  (registers calibrated)
from spades_lab.policies import ddbid as _ddbid  # noqa: F401  (registers the dd bid)
from spades_lab.policies import draft as _draft  # noqa: F401  (registers draft and exchange policies)
from spades_lab.policies import expert as _expert  # noqa: F401  (registers expert)
from spades_lab.policies import pimc as _pimc  # noqa: F401  (registers pimc)
from spades_lab.policies import play as _play  # noqa: F401  (registers tips and greedy)
from spades_lab.policies.adapter import FunctionPolicy, from_functions
from spades_lab.policies.baseline import RandomBid, RandomPlay
from spades_lab.policies.counting import count_tricks, count_tricks_batch, nil_ok_batch
from spades_lab.policies.player import Player
from spades_lab.policies.plugins import PluginError, import_policies
from spades_lab.policies.registry import (
    CheckedParams,
    PolicyNameError,
    bid_policy,
    describe,
    make_player,
    make_players,
    play_policy,
    register,
)

__all__ = [
    "CheckedParams", "FunctionPolicy", "Player", "PluginError", "PolicyNameError", "RandomBid", "RandomPlay", "bid_policy",
    "count_tricks", "count_tricks_batch", "describe", "from_functions", "import_policies", "make_player", "make_players", "nil_ok_batch",
    "play_policy", "register",
]  # fmt: skip
