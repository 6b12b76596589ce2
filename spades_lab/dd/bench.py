"""Moved: the `dd` workload to `spades_lab.bench.dd`, the deals to `spades_lab.dd.deals`; this name stays so
its imports keep working."""

from spades_lab.bench.dd import dd_bench
from spades_lab.dd.deals import pbn, random_deals

__all__ = ["dd_bench", "pbn", "random_deals"]
