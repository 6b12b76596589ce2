"""A policy defined in `__main__` (a script, a notebook) plays with workers > 1 and on Dask.

Plain pickle sends such classes by name, and a spawned worker has no `__main__.MyPolicy`; the
tournament packs entrant objects by value (cloudpickle) and checks them before any work.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

import spades_lab as sl
from spades_lab.tournament.errors import TournamentError

SCRIPT = """
import json, sys
import numpy as np
import spades_lab as sl


class LowestPlay:
    name = "lowest"

    def play(self, view):
        return sl.masks.card_ids(view.legal, deck=view.deck)[:, 0]


def main(out, workers, scheduler):
    me = sl.Player(sl.bid_policy("counting"), LowestPlay(), label="counting+lowest")
    kwargs = dict(games=24, seed=3, out=out, chunk_games=6, rules=sl.Rules(hand_cap=8), batch_size=16)
    if scheduler == "dask":
        from distributed import Client, LocalCluster
        with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
            result = sl.tournament([me, "counting+tips"], scheduler=client, **kwargs)
    else:
        result = sl.tournament([me, "counting+tips"], workers=workers, **kwargs)
    print(json.dumps(result.summary.to_dict(orient="records")))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
"""


def run_script(tmp_path: Path, workers: int, scheduler: str) -> str:
    script = tmp_path / "my_policy.py"
    script.write_text(textwrap.dedent(SCRIPT))
    out = tmp_path / f"out-{workers}-{scheduler}"
    done = subprocess.run(
        [sys.executable, str(script), str(out), str(workers), scheduler], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def test_a_main_policy_runs_on_two_workers_with_the_same_results(tmp_path: Path) -> None:
    inline = run_script(tmp_path, 1, "pool")
    assert run_script(tmp_path, 2, "pool") == inline


def test_a_main_policy_runs_on_dask(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    assert run_script(tmp_path, 1, "dask") == run_script(tmp_path, 1, "pool")


class HoldsALock:
    name = "locked"

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.inner = sl.make_player("random")

    def bid(self, view):
        return self.inner.bid(view)

    def play(self, view):
        return self.inner.play(view)


def test_an_entrant_that_cannot_travel_fails_before_the_run_with_the_fix(tmp_path: Path) -> None:
    with pytest.raises(TournamentError, match="cannot be sent to worker processes.*Fix:.*workers=1"):
        sl.tournament([HoldsALock(), "random"], games=4, out=tmp_path / "t", workers=2)
    assert not (tmp_path / "t" / "games").exists()
