"""Fixtures shared by test modules."""

from __future__ import annotations

import pytest

from spades_lab.policies import registry


@pytest.fixture
def scratch_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test that registers a policy of its own keeps it out of the registry the other tests list."""
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.setattr(registry, "_BUILT", {})
