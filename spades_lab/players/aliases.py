"""The old paths of this layer's modules and names, kept working: `spades_lab.policies.registry`,
`from spades_lab.policies import make_player`, and the like.

These modules lived in `spades_lab.policies` before strategies and players were split into two layers.
A lower layer may not import an upper one, so the aliases are installed from here, when `spades_lab.players`
loads (importing `spades_lab` loads it): each moved module is entered under its old name, and each moved
public name is set on `spades_lab.policies`.
"""

from __future__ import annotations

import importlib
import sys

import spades_lab.policies as policies

MODULES = ("adapter", "catalogue", "check", "decide", "entry", "identity", "player", "plugins", "registry", "seats")
"""The modules that moved from `spades_lab.policies` to `spades_lab.players`."""

NAMES = {
    "FunctionPolicy": "adapter", "from_functions": "adapter", "Player": "player", "PluginError": "plugins",
    "import_policies": "plugins", "PolicyNameError": "registry", "bid_policy": "registry", "describe": "registry",
    "make_player": "registry", "make_players": "registry", "play_policy": "registry", "register": "registry",
}  # fmt: skip
"""Public names `spades_lab.policies` exported before the split, and the module of this layer that has them."""


def install() -> None:
    """Enter every moved module under its old path, and every moved name on `spades_lab.policies`."""
    for name in MODULES:
        module = importlib.import_module(f"spades_lab.players.{name}")
        sys.modules.setdefault(f"spades_lab.policies.{name}", module)
        setattr(policies, name, module)
    for name, home in NAMES.items():
        setattr(policies, name, getattr(sys.modules[f"spades_lab.players.{home}"], name))
