"""Moved to `spades_lab.bench.env`; this name stays so its imports keep working."""

from spades_lab.bench.env import BENCH_TABLES, batch_env_rate, batch_env_workload, openspiel_rate

__all__ = ["BENCH_TABLES", "batch_env_rate", "batch_env_workload", "openspiel_rate"]
