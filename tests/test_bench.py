"""`spades-lab bench`'s rounds: what `--repeat` reports is the median of what each round measured."""

from __future__ import annotations

import statistics

import pytest

from spades_lab.bench import run_bench


def test_repeat_reports_the_median_round_and_the_rounds_ratios() -> None:
    results = run_bench(["heuristic", "expert"], hands=30, repeat=2)
    heuristic, expert = results["heuristic"], results["expert"]
    assert len(heuristic["hands_per_s_rounds"]) == len(expert["hands_per_s_rounds"]) == 2
    assert heuristic["hands_per_s"] == min(heuristic["hands_per_s_rounds"])  # the lower middle of two
    per_round = [round(e / h, 3) for e, h in zip(expert["hands_per_s_rounds"], heuristic["hands_per_s_rounds"],
                                                 strict=True)]  # fmt: skip
    assert expert["ratio_vs_heuristic_rounds"] == per_round
    assert expert["ratio_vs_heuristic"] == statistics.median_low(per_round)
    assert len(expert["cpu_ratio_vs_heuristic_rounds"]) == 2


def test_a_bad_repeat_is_refused_before_anything_runs() -> None:
    with pytest.raises(ValueError, match="repeat = 0"):
        run_bench(["heuristic"], hands=30, repeat=0)


def test_the_bench_modules_old_paths_still_import_the_moved_workloads() -> None:
    from spades_lab.bench import dd, env, tournament
    from spades_lab.dd import bench as dd_bench
    from spades_lab.dd.deals import pbn
    from spades_lab.env import speed
    from spades_lab.tournament import bench as tournament_bench

    assert dd_bench.dd_bench is dd.dd_bench and dd_bench.pbn is pbn
    assert speed.batch_env_workload is env.batch_env_workload
    assert tournament_bench.tournament_workload is tournament.tournament_workload
