"""Progress (automatic bars, per-batch reports, the cold-cache message) and growing a run directory."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import spades_lab as sl
from spades_lab import progress
from spades_lab.tournament import ConfigMismatch, TournamentResult, tournament, warmup
from spades_lab.tournament.chunks import ChunkTask, run_chunk
from spades_lab.tournament.plan import Chunk, grow_plan, plan_chunks

RULES = sl.Rules(hand_cap=10)
PAIR = ["counting+tips", "optimist+tips"]


def test_progress_is_automatic() -> None:
    assert progress.wanted(True) and not progress.wanted(False)
    # under pytest stderr is captured, not a terminal, and this is no notebook
    assert progress.wanted(None) is sys.stderr.isatty()
    assert not progress.in_notebook()


def test_warm_cache_says_nothing_and_cold_cache_says_so(capsys, monkeypatch) -> None:
    players = sl.make_players(PAIR)
    warmup.warm_up(RULES, players, say=False)  # compiles here if this is the first test to need kernels
    assert warmup.cold_kernels() == []
    assert warmup.warm_up(RULES, players) == 0.0
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(warmup, "cold_kernels", lambda: ["apply_play"])
    assert warmup.warm_up(RULES, players) >= 0.0
    err = capsys.readouterr().err
    assert f"compiling kernels (first run only, about {warmup.COLD_COMPILE_SECONDS} s)" in err
    assert "compiled in" in err


def test_the_warm_up_names_are_still_reached_from_progress() -> None:
    assert progress.warm_up is warmup.warm_up and progress.cold_kernels is warmup.cold_kernels
    with pytest.raises(AttributeError, match="no attribute 'warmup_typo'"):
        progress.warmup_typo  # noqa: B018


def test_an_empty_numba_cache_is_cold(tmp_path: Path) -> None:
    code = "from spades_lab.progress import cold_kernels; print(','.join(cold_kernels()))"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert set(out.strip().split(",")) >= set(warmup.CORE_KERNELS)


def test_a_chunk_reports_every_batch() -> None:
    chunk = plan_chunks(2, 40, False, 40)[0]
    reports: queue.Queue = queue.Queue()
    from spades_lab.tournament.config import TournamentConfig

    config = TournamentConfig(tuple(PAIR), RULES, 1, "games", 40, chunk_games=40, store_hands=False, batch_size=4)
    task = ChunkTask(chunk, config, tuple(PAIR), progress=reports)
    result = run_chunk(task)
    items = []
    while not reports.empty():
        items.append(reports.get())
    assert len(items) > 5
    assert sum(g for g, _ in items) == chunk.games
    assert sum(h for _, h in items) == result.n_hands


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_changes_no_result(tmp_path: Path, workers: int) -> None:
    quiet = tournament(PAIR, RULES, games=16, seed=4, out=tmp_path / "q", chunk_games=8, progress=False)
    shown = tournament(PAIR, RULES, games=16, seed=4, out=tmp_path / "p", chunk_games=8, progress=True,
                       workers=workers)  # fmt: skip
    pd.testing.assert_frame_equal(quiet.summary, shown.summary)


@pytest.mark.parametrize("duplicate", [True, False])
def test_growing_plays_only_new_chunks_and_equals_a_fresh_run(tmp_path: Path, duplicate: bool) -> None:
    grown_dir = tmp_path / "grown"
    small = tournament(PAIR, RULES, games=6, seed=9, duplicate=duplicate, out=grown_dir, chunk_games=4, records=True)
    before = {c["id"]: (grown_dir / "games" / f"{c['id']}.parquet").stat().st_mtime_ns
              for c in small.manifest["chunks"]}  # fmt: skip
    grown = tournament(PAIR, RULES, games=10, seed=9, duplicate=duplicate, out=grown_dir, chunk_games=4, records=True)
    fresh = tournament(PAIR, RULES, games=10, seed=9, duplicate=duplicate, out=tmp_path / "fresh", chunk_games=4,
                       records=True)  # fmt: skip
    for name in ("summary", "matchups", "bid_totals"):
        pd.testing.assert_frame_equal(getattr(grown, name), getattr(fresh, name))
    pd.testing.assert_frame_equal(grown.games, fresh.games)
    pd.testing.assert_frame_equal(grown.hands, fresh.hands)
    assert (grown_dir / "records.jsonl").read_text() == (tmp_path / "fresh" / "records.jsonl").read_text()
    kept = [c for c in grown.manifest["chunks"] if c["id"] in before
            and (grown_dir / "games" / f"{c['id']}.parquet").stat().st_mtime_ns == before[c["id"]]]  # fmt: skip
    played = sum(c["games"][1] - c["games"][0] for c in grown.manifest["chunks"]) - sum(
        c["games"][1] - c["games"][0] for c in kept
    )
    assert kept, "some chunks of the small run are kept"
    assert grown.chunks_run == len(grown.manifest["chunks"]) - len(kept)
    if duplicate:
        assert played == 2 * (10 - 6)  # only the new games, in both seatings
    again = tournament(PAIR, RULES, games=10, seed=9, duplicate=duplicate, out=grown_dir, chunk_games=4, records=True)
    assert again.chunks_run == 0
    loaded = TournamentResult.load(grown_dir)
    pd.testing.assert_frame_equal(loaded.summary, fresh.summary)


def test_fewer_games_or_another_configuration_names_fresh(tmp_path: Path) -> None:
    tournament(PAIR, RULES, games=6, seed=9, out=tmp_path, chunk_games=4)
    with pytest.raises(ConfigMismatch, match="--fresh") as fewer:
        tournament(PAIR, RULES, games=4, seed=9, out=tmp_path, chunk_games=4)
    assert "only grows" in str(fewer.value)
    with pytest.raises(ConfigMismatch, match="--fresh"):
        tournament(PAIR, RULES, games=6, seed=10, out=tmp_path, chunk_games=4)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["config"]["count"] == 6


def test_grow_plan_keeps_what_fits() -> None:
    old = plan_chunks(2, 6, True, 4)
    grown = grow_plan(old, 2, 10, True, 4)
    assert set(old) <= set(grown)
    for seating in (0, 1):
        ranges = sorted((c.lo, c.hi) for c in grown if c.seating == seating)
        assert ranges == [(0, 4), (4, 6), (6, 10)]
    assert grow_plan([], 3, 101, False, 20) == plan_chunks(3, 101, False, 20)
    plain = grow_plan(plan_chunks(2, 6, False, 4), 2, 10, False, 4)
    assert Chunk(0, 0, 0, 3, 0, 1) in plain and all(c.seating == 1 and c.lo >= 5 for c in plain if c.seating == 1)
