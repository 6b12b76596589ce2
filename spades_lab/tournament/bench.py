"""Moved to `spades_lab.bench.tournament`; this name stays so `python -m spades_lab.tournament.bench` and its
imports keep working."""

from spades_lab.bench.tournament import MIXED, WORKLOADS, main, tournament_workload

__all__ = ["MIXED", "WORKLOADS", "main", "tournament_workload"]

if __name__ == "__main__":
    raise SystemExit(main())
