"""The rules object: every number of the game in one frozen, validated, serialisable value.

Nothing in the engine hard-codes a target, a penalty or a threshold; it reads them here. A rules
object round-trips through dict, JSON and TOML, so a run's configuration can be stored beside its
results and read back exactly.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import tomllib

__all__ = ["Rules", "RulesError", "PRESETS", "preset", "load_rules"]


class RulesError(ValueError):
    """Rules input that cannot be used; the message names the field and what is allowed."""


@dataclass(frozen=True)
class Rules:
    """4-player partnership Spades as in RULES.md; each field is one number or switch of the game."""

    target: int = 500
    """A game ends after a hand in which a side reaches this score (higher total wins; ties play on)."""
    hand_cap: int | None = None
    """Stop a game after this many hands and record it as unfinished (None: no cap)."""
    mercy: bool = False
    """A side at or below `mercy_threshold` after a hand ends the game (the higher total wins)."""
    mercy_threshold: int = -200
    trick_value: int = 10
    """Points per trick of a made contract; a set costs the same per trick bid."""
    bag_value: int = 1
    """Points per overtrick (bag)."""
    bag_penalty_enabled: bool = True
    bag_threshold: int = 10
    """Each time a side's accumulated bags reach this count, it loses `bag_penalty` and this many bags."""
    bag_penalty: int = 100
    nil_value: int = 100
    """Won by a nil bidder taking no trick, lost if it takes one or more."""
    nil_tricks_as_bags: bool = True
    """Tricks won by a nil bidder count as bags (and bag points) for the side; off: they are ignored."""
    min_bid: int = 1
    """Smallest non-nil bid."""
    max_bid: int = 13

    def __post_init__(self) -> None:
        for f in fields(self):
            _check_type(f.name, getattr(self, f.name), f.type)
        _require(self.target > 0, "target", self.target, "a positive number of points")
        _require(self.hand_cap is None or self.hand_cap >= 1, "hand_cap", self.hand_cap, "None or at least 1 hand")
        _require(self.mercy_threshold < self.target, "mercy_threshold", self.mercy_threshold, f"below target ({self.target})")
        _require(self.trick_value >= 0, "trick_value", self.trick_value, "0 or more points")
        _require(self.bag_value >= 0, "bag_value", self.bag_value, "0 or more points")
        _require(self.bag_threshold >= 1, "bag_threshold", self.bag_threshold, "at least 1 bag")
        _require(self.bag_penalty >= 0, "bag_penalty", self.bag_penalty, "0 or more points")
        _require(self.nil_value >= 0, "nil_value", self.nil_value, "0 or more points")
        _require(1 <= self.max_bid <= 13, "max_bid", self.max_bid, "1..13")
        _require(1 <= self.min_bid <= self.max_bid, "min_bid", self.min_bid, f"1..max_bid ({self.max_bid})")

    # -- serialisation -------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Build from a dict; `preset` names a base that the other keys override."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be a mapping of field to value, got {type(data).__name__}")
        data = dict(data)
        base = preset(data.pop("preset")) if "preset" in data else cls()
        allowed = [f.name for f in fields(cls)]
        unknown = sorted(set(data) - set(allowed))
        if unknown:
            raise RulesError(f"unknown rules field(s) {', '.join(unknown)}; allowed fields: {', '.join(allowed)}")
        return dataclasses.replace(base, **data)

    def replace(self, **changes: Any) -> Rules:
        return self.from_dict({**self.to_dict(), **changes})

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Rules:
        return cls.from_dict(json.loads(text))

    def to_toml(self) -> str:
        """TOML with one `key = value` line per field; `hand_cap = None` is written as a comment."""
        lines = []
        for key, value in self.to_dict().items():
            if value is None:
                lines.append(f"# {key} is not set")
            else:
                lines.append(f"{key} = {json.dumps(value)}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_toml(cls, text: str) -> Rules:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise RulesError(f"rules TOML cannot be read: {exc}") from None
        return cls.from_dict(data)

    def preset_name(self) -> str | None:
        """The preset this object equals, if any (records may name it instead of the dict)."""
        return next((name for name, rules in PRESETS.items() if rules == self), None)


def _require(ok: bool, name: str, value: Any, allowed: str) -> None:
    if not ok:
        raise RulesError(f"rules field {name} = {value!r} is impossible; allowed: {allowed}")


def _check_type(name: str, value: Any, annotation: str) -> None:
    wants_int = "int" in annotation
    optional = "None" in annotation
    if value is None and optional:
        return
    if annotation == "bool":
        ok = isinstance(value, bool)
    elif wants_int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, str)
    if not ok:
        expected = annotation.replace(" | None", " or None")
        raise RulesError(f"rules field {name} must be {expected}, got {value!r} ({type(value).__name__})")


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "short": Rules(target=250),
}


def preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown rules preset {name!r}; presets: {', '.join(PRESETS)}") from None


def load_rules(spec: str | Path | dict | Rules | None) -> Rules:
    """Rules from a preset name, a .toml/.json file, a dict or a Rules object (None: standard)."""
    if spec is None:
        return Rules()
    if isinstance(spec, Rules):
        return spec
    if isinstance(spec, dict):
        return Rules.from_dict(spec)
    text = str(spec)
    if text in PRESETS:
        return PRESETS[text]
    path = Path(text)
    if path.suffix.lower() in (".toml", ".json") or path.exists():
        if not path.exists():
            raise RulesError(f"rules file {path} does not exist")
        body = path.read_text()
        return Rules.from_json(body) if path.suffix.lower() == ".json" else Rules.from_toml(body)
    raise RulesError(f"unknown rules preset {text!r}; presets: {', '.join(PRESETS)}, or a .toml/.json file")
