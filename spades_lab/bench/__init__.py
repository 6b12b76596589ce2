"""`spades-lab bench`: the named workloads (simulator, environments, tournament, double-dummy solver) and
the runner that times each in a fresh process."""

from spades_lab.bench.run import WORKLOADS, run_bench

__all__ = ["WORKLOADS", "run_bench"]
