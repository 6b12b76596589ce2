"""Players from names: the registry of policies, plugins, the catalogue, identities, the conformance check, `decide`.

`spades_lab.policies` holds the strategies; this layer turns names such as `counting(margin=1)+expert` into
players, registers the shipped strategies (`shipped`) and anything a researcher registers, and checks a
policy of one's own (`check_policy`). Its modules used to live in `spades_lab.policies`; `aliases` keeps
those paths working.
"""

from spades_lab.players import shipped as _shipped  # noqa: F401  (registers the shipped strategies)
from spades_lab.players.adapter import FunctionPolicy, from_functions
from spades_lab.players.aliases import install as _install_aliases
from spades_lab.players.check import PolicyCheckError, check_policy
from spades_lab.players.decide import decide
from spades_lab.players.player import Player
from spades_lab.players.plugins import PluginError, import_policies
from spades_lab.players.registry import (
    CheckedParams,
    PolicyNameError,
    bid_policy,
    describe,
    make_player,
    make_players,
    play_policy,
    register,
)
from spades_lab.players.seats import beside

_install_aliases()

__all__ = [
    "CheckedParams", "FunctionPolicy", "Player", "PluginError", "PolicyCheckError", "PolicyNameError", "beside",
    "bid_policy", "check_policy", "decide", "describe", "from_functions", "import_policies", "make_player",
    "make_players", "play_policy", "register",
]  # fmt: skip
