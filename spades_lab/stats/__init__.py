"""Statistics over played hands and games."""

from spades_lab.stats.summary import HandStats

__all__ = ["HandStats"]
