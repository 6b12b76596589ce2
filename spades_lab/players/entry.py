"""The registry's store: one entry per registered (role, name), and the policies built from them.

It sits below both `registry` (which registers, parses names and builds players) and `plugins` (which
snapshots the store around a module's import and puts it back if the module fails), so neither imports
the other back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spades_lab.policies.params import NoParams


@dataclass(frozen=True)
class Entry:
    name: str
    role: str
    """"bid" or "play"."""
    build: Callable[[Any], Any]
    params: type = NoParams
    doc: str = ""


STORE: dict[tuple[str, str], Entry] = {}
"""Every registered policy by (role, name): written by `registry.register`, read by the registry's lookups."""

BUILT: dict[tuple[str, str], Any] = {}
"""Policies built from a part of a player name, by (role, part text); cleared whenever the store changes."""


def registered() -> dict[tuple[str, str], Entry]:
    """The registry as it stands, by (role, name), without loading plugins: what a module just added."""
    return dict(STORE)


def restore(saved: dict[tuple[str, str], Entry]) -> None:
    """Put the registry back as `registered()` returned it: a module that fails half-way leaves none of
    the policies it registered before failing."""
    STORE.clear()
    STORE.update(saved)
    BUILT.clear()
