"""The name probably meant, for every error about an unknown name (player, policy, parameter, preset,
rules field, command): one place, so every such message suggests the same way."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["close_names", "did_you_mean"]


def close_names(name: object, known: Iterable[str], n: int = 3) -> list[str]:
    """The known names nearest `name` in spelling (at most `n`, best first; none when nothing is close)."""
    if not isinstance(name, str) or not name:
        return []
    choices = [str(k) for k in known]
    by_case = {k.lower(): k for k in choices}
    close = difflib.get_close_matches(name.lower(), list(by_case), n=n, cutoff=0.6)
    return [by_case[c] for c in close]


def did_you_mean(name: object, known: Iterable[str]) -> str:
    """`" (did you mean 'x'?)"` (or `'x' or 'y'`) to follow the unknown name in an error, or "" when nothing is close."""
    close = close_names(name, known)
    if not close:
        return ""
    return " (did you mean " + " or ".join(repr(c) for c in close) + "?)"
