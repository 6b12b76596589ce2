"""Fixtures shared by test modules."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from spades_lab.policies import registry


@pytest.fixture
def scratch_registry() -> Iterator[None]:
    """A test that registers a policy of its own keeps it out of the registry the other tests list."""
    saved = registry.registered()
    registry.restore(saved)
    yield
    registry.restore(saved)
