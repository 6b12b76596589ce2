"""A strategy's parameters: the frozen dataclass every policy takes, checked when it is built.

Strategies declare their parameters here and nothing else about names: `spades_lab.players` turns the
parameter classes into the `name(key=value, -flag)` syntax, registers the shipped strategies and lists
them. A parameter class derives from `CheckedParams`, so a number outside its range or a word outside its
choices is refused when the player is built, naming the policy and the field, never mid-run.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from spades_lab.names import did_you_mean

SEARCH_BATCH = 32
"""Tables a tournament process advances together when a seat's policy searches (`pimc`, the `dd` bid): a
decision takes a second or more, so a large batch would keep every game in the first process."""


@dataclass(frozen=True)
class NoParams:
    """This policy takes no parameters."""


class WithoutParams:
    """Base of a strategy without parameters: it is built from `NoParams` as the others from theirs, or bare."""

    def __init__(self, params: NoParams | None = None) -> None:
        """Nothing to keep: every instance plays alike."""


Ranges = tuple[tuple[str, float, float], ...]
"""(field, low, high), both ends allowed."""


def range_text(low: float, high: float) -> str:
    """A range as the errors and docs/strategies.md write it: `0..13`, `-13..13`, `0.5..1000`, `0..1,000,000`."""

    def number(x: float) -> str:
        if not float(x).is_integer():
            return str(x)
        return f"{int(x):,}" if abs(x) >= 10_000 else str(int(x))

    return f"{number(low)}..{number(high)}"


def check_ranges(policy: str, params: object, ranges: Ranges) -> None:
    """Refuse a parameter outside its documented range, by policy and field, before any bid or play."""
    for name, low, high in ranges:
        value = getattr(params, name)
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not number or not low <= value <= high:  # also refuses NaN
            raise ValueError(f"{policy}: {name} must be {range_text(low, high)}, got {value!r}")


def check_choices(policy: str, params: object, choices: tuple[tuple[str, tuple[str, ...]], ...]) -> None:
    """Refuse a parameter that is not one of its allowed words (a card rank, say) at construction, not mid-run."""
    for name, allowed in choices:
        value = getattr(params, name)
        if value not in allowed:
            raise ValueError(
                f"{policy}: {name} must be one of {', '.join(allowed)}, got {value!r}{did_you_mean(value, allowed)}"
            )


def field_type(f: dataclasses.Field[Any]) -> str:
    """A parameter field's type as a name (`int`, `float`, `bool`, `str`), the same whether its class was
    written with `from __future__ import annotations` (the type is then the string) or without (the class)."""
    return f.type.__name__ if isinstance(f.type, type) else str(f.type)


class CheckedParams:
    """Base of a policy's parameter dataclass: building one refuses a number outside `RANGES` or a word outside
    `CHOICES`, naming `POLICY`, so a bad player name fails before any hand, not mid-run. The three are class
    variables, not fields (a player's identity is its fields); `spades-lab policies --json` lists them."""

    POLICY: ClassVar[str] = ""
    RANGES: ClassVar[Ranges] = ()
    CHOICES: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = ()

    def __post_init__(self) -> None:
        check_ranges(self.POLICY, self, self.RANGES)
        check_choices(self.POLICY, self, self.CHOICES)
