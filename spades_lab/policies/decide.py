"""Asking a player what it would do in a position: the basic tool for debugging a bot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spades_lab.engine.position import position_view
from spades_lab.engine.protocol import ask_bids, ask_plays
from spades_lab.engine.records import RecordError
from spades_lab.engine.views import BidView
from spades_lab.policies.player import Player
from spades_lab.policies.registry import make_player


def _read_position(path: Path) -> Any:
    """The JSON of a position file; every way it can fail names the file."""
    if path.is_dir():
        raise RecordError(f"position file {path} is a directory; give a JSON file")
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise RecordError(f"position file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"position file {path} cannot be read: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"position file {path} is not valid JSON: {exc}") from None


def decide(player: str | Player, position: dict[str, Any] | str | Path, rules: Any = None) -> dict[str, Any]:
    """`{"seat": s, "bid": b}` or `{"seat": s, "card": "AS"}`: the player's choice in a position.

    `position` is a dict, a JSON string or a path to a JSON file in the RECORDS.md position format.
    The answer goes through the same legality checks as in a simulation.
    """
    data: Any = position
    if isinstance(position, Path) or (isinstance(position, str) and not position.lstrip().startswith(("{", "["))):
        data = _read_position(Path(position))
    elif isinstance(position, str):
        try:
            data = json.loads(position)
        except json.JSONDecodeError as exc:
            raise RecordError(f"position is not valid JSON: {exc}") from None
    policy = make_player(player)
    view = position_view(data, rules)
    seat = int(view.seat[0])
    if isinstance(view, BidView):
        return {"seat": seat, "bid": int(ask_bids(policy, view)[0])}
    return {"seat": seat, "card": view.deck.cards[int(ask_plays(policy, view)[0])]}
