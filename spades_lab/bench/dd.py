"""The `dd` bench workload: exact solves of random full deals, timed one by one on one core.

Each deal is solved for one leader (seat 0) with spades broken, the problem DDS also solves
(bridge with spades as trumps), so when `endplay` is installed the same deals are solved by DDS
in the same process and the two distributions can be compared as ratios. The transposition table
is cleared before every deal (outside the clock) so no deal is helped by the one before.
"""

from __future__ import annotations

import time

import numpy as np

from spades_lab.dd.api import solve
from spades_lab.dd.deals import pbn, random_deals
from spades_lab.dd.solver import Solver


def _summary(ms: list[float], prefix: str = "") -> dict[str, float]:
    arr = np.array(ms)
    return {
        f"{prefix}median_ms": round(float(np.median(arr)), 3),
        f"{prefix}p90_ms": round(float(np.percentile(arr, 90)), 3),
        f"{prefix}p99_ms": round(float(np.percentile(arr, 99)), 3),
        f"{prefix}max_ms": round(float(arr.max()), 3),
        f"{prefix}mean_ms": round(float(arr.mean()), 3),
    }


def dd_bench(n: int, seed: int) -> dict[str, float | int]:
    """Time `n` full deals; returns deals/s, the per-deal distribution (ours, then DDS's) and our
    search nodes per deal.

    Compilation happens first, on a small ending, outside every clock (n = 0 only compiles)."""
    solver = Solver()
    solve([[1, 2, 4, 8]], 0, broken=True, solver=solver)
    if n == 0:
        return {"hands": 0}
    deals = random_deals(n, seed)
    try:
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode
        from endplay.types import Deal, Denom, Player

        have_dds = True
    except ImportError:
        have_dds = False
    ms: list[float] = []
    cpu_ms: list[float] = []
    nodes: list[int] = []
    dds_ms: list[float] = []
    dds_cpu_ms: list[float] = []
    agree = 0
    for t in range(n):
        # ours and DDS's solve of one deal back to back, so both see the same machine load
        solver.clear()
        start, cpu = time.perf_counter(), time.thread_time()
        tricks = int(solve(deals[t : t + 1], 0, broken=True, solver=solver)[0, 0])
        ms.append((time.perf_counter() - start) * 1000)
        cpu_ms.append((time.thread_time() - cpu) * 1000)
        nodes.append(solver.stats()["nodes"])
        if have_dds:
            deal = Deal(pbn(deals[t]), first=Player.north, trump=Denom.spades)
            start, cpu = time.perf_counter(), time.thread_time()
            # OptimalOne asks DDS our question (the value of the deal, one best card); its default
            # mode values every card of the leader, about three times the work, which flatters us
            best = max(v for _, v in solve_board(deal, SolveMode.OptimalOne))
            dds_ms.append((time.perf_counter() - start) * 1000)
            dds_cpu_ms.append((time.thread_time() - cpu) * 1000)
            agree += best == tricks
    out: dict[str, float | int] = {"hands": n, "deals_per_s": round(n / (sum(ms) / 1000), 3), **_summary(ms)}
    # search nodes per deal: the machine-independent measure of the search's work
    out["median_nodes"] = int(np.median(nodes))
    out["p90_nodes"] = int(np.percentile(nodes, 90))
    out["max_nodes"] = int(max(nodes))
    # the calling thread's CPU time (DDS solves in this thread too): on a shared machine the wall
    # clock also counts the time other processes hold the core, which swings the ratio with the load
    out["cpu_median_ms"] = round(float(np.median(cpu_ms)), 3)
    if dds_ms:
        out.update(_summary(dds_ms, "dds_"))
        out["median_ratio"] = round(float(out["median_ms"]) / max(float(out["dds_median_ms"]), 1e-9), 2)
        out["agree_with_dds"] = agree
        out["dds_cpu_median_ms"] = round(float(np.median(dds_cpu_ms)), 3)
        out["cpu_median_ratio"] = round(out["cpu_median_ms"] / max(out["dds_cpu_median_ms"], 1e-9), 2)
    return out
