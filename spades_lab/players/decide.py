"""Asking a player what it would do in a position: the basic tool for debugging a bot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spades_lab.engine.position import position_view
from spades_lab.engine.records import RecordError
from spades_lab.engine.simulate import ASK
from spades_lab.engine.state import Phase
from spades_lab.players.player import Player
from spades_lab.players.registry import make_player


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
    except RecursionError:
        raise RecordError(f"position file {path} is nested too deeply to be a position") from None


def decide(player: str | Player, position: dict[str, Any] | str | Path, rules: Any = None) -> dict[str, Any]:
    """The player's choice at the decision a position asks, with the acting seat:

    `{"seat": s, "bid": b}`, `{"seat": s, "card": "AS"}`, `{"seat": s, "blind": true}` (blind nil or look),
    `{"seat": s, "blind_bid": 6}` (0: look first), `{"seat": s, "exchange": ["2C", "3C"]}` (the cards passed),
    `{"seat": s, "draft": "keep"}` (or "discard"; Duel).

    `position` is a dict, a JSON string or a path to a JSON file in the position format of docs/records.md.
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
        except RecursionError:
            raise RecordError("position is nested too deeply to be a position") from None
    policy = make_player(player)
    view = position_view(data, rules)
    seat = int(view.seat[0])
    phase = next(p for p, (_, view_cls, _, _) in ASK.items() if type(view) is view_cls)
    method, _, ask, _ = ASK[phase]
    answer = ask(policy, view)[0]
    deck = view.deck
    if phase == Phase.BID:
        return {"seat": seat, "bid": int(answer)}
    if phase == Phase.PLAY:
        return {"seat": seat, "card": deck.cards[int(answer)]}
    if phase == Phase.BLIND:
        return {"seat": seat, "blind": bool(answer)}
    if phase == Phase.BLIND_BID:
        return {"seat": seat, "blind_bid": int(answer)}
    if phase == Phase.EXCHANGE:
        return {"seat": seat, "exchange": deck.labels(int(answer))}
    return {"seat": seat, "draft": "keep" if bool(answer) else "discard"}
