"""`spades-lab bench`: throughput and peak memory of named workloads, each in a fresh process.

Each workload runs in its own spawned process so that its peak resident memory is its own and
one workload's compiled code or caches do not flatter the next. Compilation happens in a small
warm-up before the clock starts.
"""

from __future__ import annotations

import multiprocessing as mp
import resource
import statistics
import time
from collections.abc import Callable
from typing import Any

from spades_lab.bench import games
from spades_lab.names import did_you_mean

# The three workloads below import their layer when they run, not when this module loads: every workload's
# process imports this module, and its peak memory is to hold only what that workload uses.


def _batch_env(n: int, seed: int) -> tuple[int, dict[str, Any]]:
    """spades_lab.env.BatchEnv at 4096 tables, random legal actions; OpenSpiel's spades beside it if installed."""
    from spades_lab.bench.env import batch_env_workload

    return batch_env_workload(n, seed)


def _tournament(n: int, seed: int) -> dict[str, Any]:
    """`tournament()` of counting+tips vs cautious+tips (chunks, tallies, Parquet), one worker then two."""
    from spades_lab.bench.tournament import tournament_workload

    return tournament_workload(n, seed)


def _dd_deals(n: int, seed: int) -> dict[str, Any]:
    """Exact double-dummy solves of full deals (spades_lab.dd), with DDS on the same deals if installed."""
    from spades_lab.bench.dd import dd_bench

    return dd_bench(n, seed)


def _dd_oracle(n: int, seed: int) -> dict[str, Any]:
    """The solver against DDS and a plain minimax on n random deals (spades_lab.dd.oracle)."""
    from spades_lab.dd.oracle import oracle_run

    return oracle_run(n, seed)


WORKLOADS: dict[str, tuple[Callable[[int, int], int | tuple[int, dict[str, Any]] | dict[str, Any]], int, str]] = {
    "random": (
        games.random_hands,
        2_000_000,
        "4-player hands, uniformly random bids and legal plays, deal and scoring included",
    ),
    "duel": (games.duel_hands, 2_000_000, "2-player Duel hands: random draft, bids and legal plays, scoring included"),
    "cutthroat": (
        games.cutthroat_hands,
        2_000_000,
        "the random workload under the cutthroat preset (each for themselves: four sides scored)",
    ),
    "three-player": (
        games.three_player_hands,
        2_000_000,
        "the random workload under the three-player preset (17 tricks of 3 cards; compare cards_per_s)",
    ),
    "heuristic": (
        games.heuristic_games,
        1_000_000,
        "complete games, all seats counting+tips (nil, bag-aware, tips, coverage)",
    ),
    "batch_env": (
        _batch_env,
        400_000,
        "BatchEnv, 4096 tables, random legal actions from the masks (decisions/s; OpenSpiel beside it)",
    ),
    "expert": (
        games.expert_games,
        1_000_000,
        "complete games, all seats counting+expert (the tips plus the expert additions)",
    ),
    "tournament": (
        _tournament,
        2_000_000,
        "tournament() of counting+tips vs cautious+tips to 500, one worker (hands_per_s) then two; with"
        " heuristic in the same run, ratio_vs_heuristic",
    ),
    "pimc": (
        games.pimc_hands,
        200,
        "single hands, counting+pimc vs counting+expert; also decisions_per_s (searched plays)",
    ),
    "dd": (_dd_deals, 30, "double-dummy solves of full deals, one core; deals/s, median/p99 ms, DDS alongside"),
    "dd-oracle": (
        _dd_oracle,
        100,
        "the DD solver against DDS (full deals x every leader, endings, mid-trick values) and a minimax on short"
        " endings where the games differ; disagreements must be 0",
    ),
}
PER_CARD = ("cutthroat", "three-player")
"""Rule-set workloads reported per card played against `random` of the same run (`cards_per_s_vs_random`)."""
OPT_IN = ("dd", "dd-oracle", "pimc")
"""Workloads run only when named (`--workload dd`): slow, and not about the simulator."""
WARM_UP = {"dd": 0, "dd-oracle": 1, "pimc": 8}
"""Warm-up sizes where 2,000 would take too long (pimc: the solver compiles in the first hand)."""


def _run(name: str, n: int, seed: int, queue: Any) -> None:
    work = WORKLOADS[name][0]
    work(WARM_UP.get(name, 2_000), seed + 1)  # compile and warm caches outside the clock
    start, cpu_start = time.perf_counter(), time.process_time()
    out = work(n, seed)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    if isinstance(out, dict) and "seconds" in out:  # a workload timing its own part (tournament)
        out = dict(out)
        elapsed, cpu = out.pop("seconds"), out.pop("cpu_s")
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if isinstance(out, dict):  # a workload reporting more than hands (dd, pimc)
        extra = dict(out)
        hands = extra.pop("hands")
    else:
        hands, extra = out if isinstance(out, tuple) else (out, {})
    if "decisions" in extra:
        extra = extra | {"decisions_per_s": round(extra["decisions"] / elapsed, 1)}
    if "cards" in extra:
        extra = extra | {"cards_per_s": round(extra["cards"] / elapsed)}
    queue.put(
        {
            "hands": hands,
            "seconds": round(elapsed, 3),
            "hands_per_s": round(hands / elapsed),
            "peak_mib": round(peak_mib, 1),
            "cpu_s": round(cpu, 3),
            **extra,
        }
    )


RATIOS = (("expert", "heuristic"), ("tournament", "heuristic"))
"""Workloads reported against another of the same run (`ratio_vs_heuristic`, and per CPU second): on a shared
machine a ratio of two workloads run back to back is steadier than either speed."""


def _run_once(names: list[str], hands: int | None, seed: int) -> dict[str, dict[str, Any]]:
    ctx = mp.get_context("spawn")
    results = {}
    for name in names:
        queue = ctx.Queue()
        proc = ctx.Process(target=_run, args=(name, hands or WORKLOADS[name][1], seed, queue))
        proc.start()
        result = queue.get()
        proc.join()
        results[name] = result
    base = results.get("random", {}).get("cards_per_s")
    for name in PER_CARD:
        if base and name in results:  # the target: at least 0.8 of random's speed per card, in the same run
            results[name]["cards_per_s_vs_random"] = round(results[name]["cards_per_s"] / base, 3)
    for name, against in RATIOS:
        if name in results and against in results:
            mine, theirs = results[name], results[against]
            mine[f"ratio_vs_{against}"] = round(mine["hands_per_s"] / theirs["hands_per_s"], 3)
            per_cpu = [r["hands"] / max(r["cpu_s"], 1e-9) for r in (mine, theirs)]
            mine[f"cpu_ratio_vs_{against}"] = round(per_cpu[0] / per_cpu[1], 3)
    if all(name in results for name in ("tournament", "heuristic", "expert")):
        # the tournament's two players alone: its target is 0.8 of the mean of their engine speeds
        mine, engines = results["tournament"], [results["heuristic"], results["expert"]]
        mine["ratio_vs_engine_mean"] = round(
            mine["hands_per_s"] / statistics.mean(r["hands_per_s"] for r in engines), 3
        )
        per_cpu = statistics.mean(r["hands"] / max(r["cpu_s"], 1e-9) for r in engines)
        mine["cpu_ratio_vs_engine_mean"] = round(mine["hands"] / max(mine["cpu_s"], 1e-9) / per_cpu, 3)
    return results


def run_bench(
    names: list[str] | None = None, hands: int | None = None, seed: int = 0, repeat: int = 1
) -> dict[str, dict[str, Any]]:
    """Run workloads (all by default); `hands` overrides each workload's default size.

    With `repeat` > 1 the workloads run that many rounds in turn (each in a fresh process, as always): each
    workload reports its median round (`hands_per_s_rounds` lists every round), and each ratio is the median
    of the rounds' ratios (`..._rounds` lists them), so one round slowed by another job counts once. Of an
    even count the lower middle value is the median: always a value some round measured."""
    names = names or [n for n in WORKLOADS if n not in OPT_IN]
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        raise ValueError(
            f"unknown workload(s) {', '.join(unknown)}{did_you_mean(unknown[0], WORKLOADS)};"
            f" workloads: {', '.join(WORKLOADS)}"
        )
    if repeat < 1:
        raise ValueError(f"repeat = {repeat} is impossible; allowed: at least 1")
    rounds = [_run_once(names, hands, seed) for _ in range(repeat)]
    if repeat == 1:
        return rounds[0]
    results = {}
    for name in names:
        runs = sorted((r[name] for r in rounds), key=lambda r: r["hands_per_s"])
        result = dict(runs[(len(runs) - 1) // 2])  # the median round (the lower one of an even count)
        result["hands_per_s_rounds"] = [r[name]["hands_per_s"] for r in rounds]
        for key in [k for k in result if k.startswith(("ratio_vs_", "cpu_ratio_vs_", "cards_per_s_vs_"))]:
            values = [r[name][key] for r in rounds]
            result[key] = statistics.median_low(values)
            result[f"{key}_rounds"] = values
        results[name] = result
    return results
