"""Throughput and peak memory of a tournament: `python -m spades_lab.bench.tournament`.

Plays about `--hands` hands (whole games, so slightly more) with hands storage off, then prints
hands/s and the peak resident memory of this process and of its largest worker. Running it at
1M and at 10M hands shows whether memory grows with the size of a run; running it with
`--workers 1` and `--workers 2` shows how throughput scales. A warm-up run first loads numba's
cached kernels so compilation is not timed. CPU seconds of this process and of the workers and
the load average are reported too: on a shared machine, wall-clock scaling measures the
neighbours as much as the code.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import tempfile
import time

from spades_lab.rules import Rules
from spades_lab.tournament.executors import close_pool, worker_pool
from spades_lab.tournament.runner import tournament

WORKLOADS = {
    "short": (Rules(target=300, mercy=True, mercy_threshold=-300, hand_cap=50), 2.4),
    "long": (Rules(hand_cap=200), 200.0),
    "expert": (Rules(hand_cap=200), 13.0),
}
"""Rules and hands per game of random players. short: games end by mercy in about 2.4 hands, the
most game rows per hand (the hardest case for memory, since stored tables grow with games) and the
most batch draining at chunk ends. long: no random game reaches 500, so every game runs to the
200-hand cap in full batches (the closest to steady engine throughput). expert: the same rules for
expert entrants (pass --entrant), whose games to 500 last about 13 hands."""


MIXED = ("counting+tips", "counting+expert")
"""The entrants of `spades-lab bench --workload tournament`: two players with different play parts, so every
batch holds two play deciders (the case the fused play loop is for)."""


def _timed(rules: Rules, entrants: list[str], games: int, seed: int, workers: int) -> tuple[int, float, float]:
    """(hands, wall seconds, CPU seconds of this process and its ended workers) of one tournament call."""
    before = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        result = tournament(entrants, rules, games=games, seed=seed, workers=workers, out=out, store_hands=False,
                            progress=False)  # fmt: skip
        wall = time.perf_counter() - start
    after = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    cpu = sum((a.ru_utime + a.ru_stime) - (b.ru_utime + b.ru_stime) for a, b in zip(after, before))
    return result.total_hands, wall, cpu


def tournament_workload(hands: int, seed: int) -> dict[str, float | int]:
    """The whole tournament path (`tournament()`: chunks, tallies, Parquet, summary) of `MIXED` under
    the `expert` workload's rules, on one worker and then on two, about `hands` hands each.

    `hands_per_s` and `cpu_s` are the one-worker figures, which `spades-lab bench` sets beside the engine's
    when those run: `ratio_vs_heuristic`, and `ratio_vs_engine_mean` against the mean of `heuristic` and
    `expert` (the speeds of the two players alone), with per-CPU-second forms (`cpu_ratio_vs_...`), steadier
    on a shared machine. Two workers run twice: first with a new worker pool, whose
    start-up (imports and kernels of the spawned worker) is then part of the run
    (`speedup_2_workers_cold`), then again on that pool, as every later run of the process would
    (`speedup_2_workers`, the scaling of the play itself). Both are wall over wall, meaningful only
    when the machine has two idle cores. `cpu_s_2_workers` is the CPU time of that second run, this
    process and the worker (as the worker reports it), and `parent_cpu_share_2_workers` this process's
    part of it: on a loaded machine, `cpu_s_2_workers` against `cpu_s` says what the second worker
    costs per hand where the wall clock cannot.
    """
    rules, hands_per_game = WORKLOADS["expert"]
    games = max(1, round(hands / hands_per_game))
    one, wall1, cpu1 = _timed(rules, list(MIXED), games, seed, 1)
    close_pool()
    cold, wall_cold, _ = _timed(rules, list(MIXED), games, seed, 2)
    pool = worker_pool(1)  # the pool the cold run started
    worker_before = sum(pool.cpu.values())
    two, wall2, parent2 = _timed(rules, list(MIXED), games, seed, 2)
    worker2 = sum(pool.cpu.values()) - worker_before
    close_pool()
    return {
        "hands": one, "seconds": wall1, "cpu_s": cpu1,
        "hands_per_s_2_workers": round(two / wall2), "speedup_2_workers": round((two / wall2) / (one / wall1), 3),
        "speedup_2_workers_cold": round((cold / wall_cold) / (one / wall1), 3),
        "cpu_s_2_workers": round(parent2 + worker2, 2),
        "parent_cpu_share_2_workers": round(parent2 / max(parent2 + worker2, 1e-9), 3),
        "load_average": round(os.getloadavg()[0], 2),
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="about this many hands in total")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--chunk-games", type=int, default=5000)
    parser.add_argument("--entrant", action="append", help="default: random vs random+random")
    parser.add_argument("--workload", choices=list(WORKLOADS), default="short")
    args = parser.parse_args(argv)
    entrants = args.entrant or ["random", "random+random"]
    pairings = len(entrants) * (len(entrants) - 1) // 2
    rules, hands_per_game = WORKLOADS[args.workload]
    games = max(1, round(args.hands / hands_per_game / pairings))
    with tempfile.TemporaryDirectory() as warm:
        tournament(entrants, rules, games=200, seed=0, out=warm, store_hands=False)
    before = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        result = tournament(entrants, rules, games=games, seed=1, workers=args.workers, out=out,
                            chunk_games=args.chunk_games, store_hands=False)  # fmt: skip
        wall = time.perf_counter() - start
    close_pool()  # a pooled worker's CPU time and memory are counted once it has ended
    cpu = [
        (now.ru_utime + now.ru_stime) - (then.ru_utime + then.ru_stime)
        for now, then in zip([resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)], before)
    ]
    report = {
        "workload": args.workload, "entrants": entrants, "workers": args.workers, "games": result.total_games, "hands": result.total_hands,
        "seconds": round(wall, 1), "hands_per_s": round(result.total_hands / wall),
        "loop_hands_per_s": round(result.hands_per_s),
        "cpu_parent_s": round(cpu[0], 1), "cpu_workers_s": round(cpu[1], 1),
        "load_average": round(os.getloadavg()[0], 2),
        "peak_parent_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "peak_worker_mib": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
    }  # fmt: skip
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
