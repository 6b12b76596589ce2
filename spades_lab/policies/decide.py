"""Asking a player what it would do in a position: the basic tool for debugging a bot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spades_lab.engine.position import position_view
from spades_lab.engine.protocol import ask_bids, ask_plays
from spades_lab.engine.views import BidView
from spades_lab.policies.player import Player
from spades_lab.policies.registry import make_player


def decide(player: str | Player, position: dict[str, Any] | str | Path, rules=None) -> dict[str, Any]:
    """`{"seat": s, "bid": b}` or `{"seat": s, "card": "AS"}`: the player's choice in a position.

    `position` is a dict, a JSON string or a path to a JSON file in the position format of docs/records.md.
    The answer goes through the same legality checks as in a simulation.
    """
    if isinstance(position, Path) or (isinstance(position, str) and not position.lstrip().startswith("{")):
        position = json.loads(Path(position).read_text())
    elif isinstance(position, str):
        position = json.loads(position)
    policy = make_player(player)
    view = position_view(position, rules)
    seat = int(view.seat[0])
    if isinstance(view, BidView):
        return {"seat": seat, "bid": int(ask_bids(policy, view)[0])}
    return {"seat": seat, "card": view.deck.cards[int(ask_plays(policy, view)[0])]}
