"""Tournaments (spades_lab.tournament): determinism, resumption, refusal, errors, duplicate, Dask.

(a) The finished tables are identical for 1 or 2 worker processes and for any chunk size.
(b) A run interrupted by a failing chunk, by a deleted chunk file or by Ctrl-C finishes the
    missing chunks only when run again, and ends identical to an uninterrupted run; re-running a
    finished run writes nothing; another configuration in the same directory is refused.
(c) A policy error inside a worker comes back naming the policy, the seat and the chunk.
(d) Duplicate mode plays the same game ids (same deals) with the partnerships swapped, and its
    paired difference and interval match a hand computation from the games table.
(e) Statistics agree with figures recomputed here from the hands table.
(f) A Dask LocalCluster run equals the local run.
The entrants are `random` and a deterministic policy defined below, so nothing depends on the
expert policies. Wilson and paired intervals are checked in tests/test_stats.py.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from spades_lab.cli import main
from spades_lab.engine import simulate_games
from spades_lab.engine.records import read_records, verify
from spades_lab.policies import Player, make_player
from spades_lab.rules import Rules
from spades_lab.tournament import ChunkError, ConfigMismatch, TournamentError, TournamentResult, plan_chunks, tournament
from spades_lab.tournament.storage import RunDir

RULES = Rules(target=150, mercy=True, mercy_threshold=-250, hand_cap=4)
"""Short games: most end by target or mercy within four hands, a few stop unfinished at the cap."""
ROOT = Path(__file__).resolve().parents[1]


class Steady:
    """Bids the legal bid nearest 3 (never nil) and plays its highest legal card: no randomness at all.

    `fail_from` makes it raise while playing at any table whose game id is at least that, but only
    while the file `flag` exists, so a test can break a run and then let the same entrant finish it.
    """

    def __init__(self, name: str = "steady", fail_from: int | None = None, flag: str | None = None) -> None:
        self.name, self.fail_from, self.flag = name, fail_from, flag

    def bid(self, view) -> np.ndarray:
        score = np.where(view.legal_bids, -np.abs(np.arange(14) - 3), -99)
        score[:, 0] = -98
        return np.argmax(score, axis=1).astype(np.int64)

    def play(self, view) -> np.ndarray:
        if self.fail_from is not None and (self.flag is None or os.path.exists(self.flag)):
            if (view.tables >= self.fail_from).any():
                raise RuntimeError("the steady hand slipped")
        return np.log2(view.legal.astype(np.float64)).astype(np.int64)


def steady(name: str = "steady", **kwargs) -> Player:
    policy = Steady(name, **kwargs)
    return Player(policy, policy, label=name)


def run(out: Path, entrants=None, **kwargs) -> TournamentResult:
    options = {"rules": RULES, "games": 60, "seed": 5, "chunk_games": 25, "out": out}
    options.update(kwargs)
    return tournament(entrants or ["random", steady()], **options)


def assert_same_tables(a: TournamentResult, b: TournamentResult, hands: bool = True) -> None:
    pd.testing.assert_frame_equal(a.summary, b.summary)
    pd.testing.assert_frame_equal(a.matchups, b.matchups)
    pd.testing.assert_frame_equal(a.bid_totals, b.bid_totals)
    pd.testing.assert_frame_equal(a.games, b.games)
    if hands:
        pd.testing.assert_frame_equal(a.hands, b.hands)


def files(root: Path) -> dict[str, tuple[int, bytes]]:
    """Every file under root (temporary ones aside) with its mtime and bytes."""
    return {
        str(p.relative_to(root)): (p.stat().st_mtime_ns, p.read_bytes())
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".tmp" not in p.parts
    }


def outputs(root: Path) -> dict[str, bytes]:
    """The files that make up a finished result (chunk files included)."""
    return {k: v for k, (_, v) in files(root).items()}


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> TournamentResult:
    """Three entrants, one worker, chunks of 25 games: the run others are compared with."""
    out = tmp_path_factory.mktemp("reference")
    return run(out, ["random", steady(), "random(blind_rate=0.2)+random"], games=50)


# --------------------------------------------------------------------------- plan


def test_plan_covers_every_game_id_once_per_seating() -> None:
    plain = plan_chunks(3, 101, duplicate=False, chunk_games=20)
    for pairing in range(3):
        ids = [range(c.lo, c.hi) for c in plain if c.pairing == pairing]
        assert sorted(i for r in ids for i in r) == list(range(101))
        s0 = {(c.side0, c.side1) for c in plain if c.pairing == pairing and c.seating == 0}
        s1 = {(c.side0, c.side1) for c in plain if c.pairing == pairing and c.seating == 1}
        assert len(s0) == len(s1) == 1 and s0 == {tuple(reversed(p)) for p in s1}
    dup = plan_chunks(2, 101, duplicate=True, chunk_games=20)
    for seating in (0, 1):
        assert sorted(i for c in dup if c.seating == seating for i in range(c.lo, c.hi)) == list(range(101))
    assert max(c.games for c in dup) == 20


# --------------------------------------------------------------------------- (a) determinism


def test_same_tables_for_two_workers_and_other_chunk_sizes(reference, tmp_path) -> None:
    entrants = ["random", steady(), "random(blind_rate=0.2)+random"]
    two = run(tmp_path / "two", entrants, games=50, workers=2, chunk_games=17)
    one_chunk = run(tmp_path / "one", entrants, games=50, chunk_games=1000, batch_size=7)
    assert two.chunks_run == 3 * 2 * 2 and one_chunk.chunks_run == 3 * 2
    assert_same_tables(reference, two)
    assert_same_tables(reference, one_chunk)


def test_a_second_run_reuses_the_worker_pool_and_gives_the_same_tables(reference, tmp_path) -> None:
    """The spawned workers outlive a run (no second start-up); the reused ones play the same games."""
    from spades_lab.tournament.executors import close_pool, worker_pool

    entrants = ["random", steady(), "random(blind_rate=0.2)+random"]
    close_pool()
    assert_same_tables(reference, run(tmp_path / "first", entrants, games=50, workers=2, chunk_games=17))
    workers = worker_pool(1).processes
    started = [p.pid for p in workers]
    assert_same_tables(reference, run(tmp_path / "again", entrants, games=50, workers=2, chunk_games=9))
    assert [p.pid for p in worker_pool(1).processes] == started
    close_pool()
    assert not any(p.is_alive() for p in workers), "closing the pool ends its workers"


def test_a_relative_out_is_the_callers_after_a_change_of_directory(tmp_path, monkeypatch) -> None:
    """The pool's workers outlive a run and keep the directory they started in; a notebook that changes
    directory between runs must still find every chunk under its own relative `out`."""
    entrants = ["random", "random(blind_rate=0.2)+random"]
    kwargs = dict(
        rules=RULES, games=300, seed=2, workers=2, chunk_games=3, batch_size=4, store_hands=False, progress=False
    )
    tournament(entrants, out=tmp_path / "first", **kwargs)  # the pool starts here, in the old directory
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    result = tournament(entrants, out="run", **kwargs)
    assert result.chunks_run == 100 and len(list((tmp_path / "elsewhere" / "run" / "games").iterdir())) == 100


def test_a_chunk_written_elsewhere_stops_the_run(tmp_path, monkeypatch) -> None:
    """A worker's chunk that is not where the parent reads (the bug above) is an error, never a summary
    silently missing its games."""
    from spades_lab.tournament import chunks

    class Elsewhere(RunDir):
        def __init__(self, root) -> None:
            super().__init__(tmp_path / "elsewhere")

    monkeypatch.setattr(chunks, "RunDir", Elsewhere)
    with pytest.raises(
        TournamentError,
        match=r"^chunk p000-s\d-g\d+ was written by a worker but is not in .*run: the worker wrote it elsewhere",
    ):
        tournament(["random", steady()], RULES, games=4, seed=1, out=tmp_path / "run", progress=False)


def test_two_workers_keep_their_batches_full_until_the_chunks_run_out() -> None:
    """Each player's batch drains once, at the end: at most `hand_cap` short batches each.

    Games of RULES last 1 to 4 hands, so a chunk stays open in a batch several hands after its last
    game started; a hand-out limited by chunks not yet finished starved the batches all run long
    (32-39 short batches of 81 here), one stocked by chunks not yet taken does not (6-7 of 70)."""
    import multiprocessing as mp
    from dataclasses import replace

    from spades_lab.tournament.chunks import ChunkTask
    from spades_lab.tournament.config import TournamentConfig
    from spades_lab.tournament.executors import execute

    chunks = plan_chunks(2, 2000, False, 4)
    with mp.get_context("spawn").Manager() as manager:
        reports = manager.Queue()  # every batch of every player: (games finished, tables played)
        config = TournamentConfig(("a", "b"), RULES, 3, "games", 2000, chunk_games=4, store_hands=False, batch_size=64)
        template = ChunkTask(chunks[0], config, ("random", "random(blind_rate=0.2)+random"), progress=reports)
        done = list(execute((replace(template, chunk=c) for c in chunks), workers=2))
        sizes = [reports.get()[1] for _ in range(reports.qsize())]
    assert sorted(r.chunk.id for r in done) == sorted(c.id for c in chunks)
    short = sum(size < 64 for size in sizes)
    assert short <= 2 * RULES.hand_cap + 4, f"{short} short batches of {len(sizes)}: a player waited for chunks"


KILLED_PARENT = """
import os, signal, sys, tempfile
import spades_lab as sl
from spades_lab.tournament.executors import worker_pool

if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as out:
        sl.tournament(["random", "counting+tips"], sl.Rules(hand_cap=3), games=40, seed=1, workers=2, out=out,
                      chunk_games=10, batch_size=8, progress=False)
    with open(sys.argv[1], "w") as pid:
        pid.write(str(worker_pool(1).processes[0].pid))
    os.kill(os.getpid(), signal.SIGKILL)
"""


def _running(pid: int) -> bool:
    """Whether the process runs (a zombie waiting to be reaped has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process states from /proc")
def test_a_pooled_worker_ends_when_its_parent_is_killed(tmp_path) -> None:
    """A killed parent (a notebook kernel restarted) runs no exit handler; its idle worker must not linger."""
    script = tmp_path / "killed_parent.py"
    script.write_text(KILLED_PARENT)
    pid = tmp_path / "worker.pid"
    # no pipes: a lingering worker would hold them open and keep run() waiting
    subprocess.run([sys.executable, str(script), str(pid)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=300)  # fmt: skip
    worker = int(pid.read_text())
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and _running(worker):
        time.sleep(0.2)
    assert not _running(worker), "the pooled worker outlived its killed parent"


def test_tables_are_the_engines_games(reference) -> None:
    """A chunk's hands are exactly the engine's games for that seating, whoever played them."""
    assert list(reference.summary["entrant"])[:2] == ["random", "steady"], "pairing 0 is random vs steady"
    hands = reference.hands
    rows = hands[(hands["pairing"] == 0) & (hands["seating"] == 1)]
    calm, loose = steady(), make_player("random")
    players = [calm, loose, calm, loose]
    lo = int(rows["game"].min())
    logs = list(simulate_games(RULES, players, int(rows["game"].max()) + 1 - lo, seed=5, start=lo))
    engine = np.concatenate([log.hand_score for log in logs])
    games = np.concatenate([log.game for log in logs])
    order = np.lexsort((np.concatenate([log.hand for log in logs]), games))
    assert len(rows) == len(order)
    np.testing.assert_array_equal(rows[["hand_score0", "hand_score1"]].to_numpy(), engine[order])


# --------------------------------------------------------------------------- (b) resumption


def test_rerunning_a_finished_run_changes_nothing(tmp_path) -> None:
    first = run(tmp_path)
    before = files(tmp_path)
    time.sleep(0.01)
    again = run(tmp_path)
    assert files(tmp_path) == before
    assert again.chunks_run == 0 and again.hands_played == 0
    assert_same_tables(first, again)


def test_a_deleted_chunk_is_played_again_and_the_result_is_identical(tmp_path) -> None:
    first = run(tmp_path)
    before = outputs(tmp_path)
    chunk = plan_chunks(2, 60, False, 25)[3]
    for kind in ("games", "hands", "tallies"):
        RunDir(tmp_path).path(kind, chunk).unlink()
    again = run(tmp_path)
    assert again.chunks_run == 1 and again.hands_played == first.hands.query(f"game >= {chunk.lo}").shape[0] > 0
    assert outputs(tmp_path) == before
    assert_same_tables(first, again)


def test_a_failed_run_keeps_finished_chunks_and_resumes_to_the_uninterrupted_result(tmp_path) -> None:
    flag = tmp_path / "break"
    flag.write_text("on")
    flaky = steady(fail_from=40, flag=str(flag))
    with pytest.raises(ChunkError):
        run(tmp_path / "run", ["random", flaky], workers=2)
    store = RunDir(tmp_path / "run")
    done = [c for c in plan_chunks(2, 60, False, 25) if store.is_done(c)]
    assert [c.lo for c in done] == [0, 25], "chunks below game 40 finished and were kept"
    assert not json.loads((tmp_path / "run" / "manifest.json").read_text())["complete"]
    flag.unlink()
    resumed = run(tmp_path / "run", ["random", flaky], workers=2)
    assert resumed.chunks_run == 2
    clean = run(tmp_path / "clean", ["random", flaky])
    assert_same_tables(resumed, clean)
    assert outputs(tmp_path / "run") == outputs(tmp_path / "clean")


def test_ctrl_c_keeps_finished_chunks_and_the_command_resumes(tmp_path) -> None:
    """SIGINT a slow CLI run (batches of one table) after its first chunk; finish it in this process."""
    out = tmp_path / "run"
    args = ["tournament", "--entrant", "random", "--entrant", "random(blind_rate=0.3)+random", "--games", "80",
            "--seed", "9", "--hand-cap", "8", "--chunk-games", "4", "--workers", "1", "--out", str(out), "--quiet"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "spades_lab.cli", *args, "--batch-size", "1"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        deadline = time.time() + 60
        while time.time() < deadline and proc.poll() is None:
            if (out / "games").exists() and any((out / "games").iterdir()):
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "run the same command again" in err
    kept = len(list((out / "games").iterdir()))
    assert 1 <= kept < 20, "interrupted before the 20 chunks were done"
    assert main(args + ["--batch-size", "64"]) == 0
    assert main(args + ["--out", str(tmp_path / "clean")]) == 0
    assert outputs(out) == outputs(tmp_path / "clean")


def test_another_configuration_in_the_same_directory_is_refused(tmp_path, capsys) -> None:
    run(tmp_path)
    before = files(tmp_path)
    with pytest.raises(ConfigMismatch, match=r"seed: stored 5, asked 6"):
        run(tmp_path, seed=6)
    with pytest.raises(ConfigMismatch, match=r"rules\.target: stored 150, asked 200"):
        run(tmp_path, rules=RULES.replace(target=200))
    with pytest.raises(ConfigMismatch, match=r"entrants"):
        run(tmp_path, ["random", steady("other")])
    args = ["tournament", "--entrant", "random", "--entrant", "random+random", "--games", "4", "--seed", "1",
            "--out", str(tmp_path), "--quiet", "--workers", "1"]  # fmt: skip
    assert main(args) == 2
    assert "holds a different tournament" in capsys.readouterr().err
    assert files(tmp_path) == before


def test_chunk_data_without_a_manifest_is_refused(tmp_path) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "p000-s0-g0000000000.parquet").write_bytes(b"")
    with pytest.raises(ConfigMismatch, match="no manifest"):
        run(tmp_path)


# --------------------------------------------------------------------------- (c) errors


def test_a_policy_error_in_a_worker_names_policy_seat_and_chunk(tmp_path) -> None:
    with pytest.raises(ChunkError) as info:
        run(tmp_path, ["random", steady("faulty", fail_from=30)], workers=2)
    error = info.value
    failing = {c.id: c for c in plan_chunks(2, 60, False, 25) if c.hi > 30}
    assert error.chunk in failing
    assert error.policy == "faulty"
    side = failing[error.chunk].side0 == 1
    assert error.seat in ((0, 2) if side else (1, 3))
    message = str(error)
    assert f"chunk {error.chunk}" in message and "'faulty'" in message and f"seat {error.seat}" in message
    assert "the steady hand slipped" in message
    assert RunDir(tmp_path).is_done(plan_chunks(2, 60, False, 25)[0])


def test_bad_entrants_fail_before_any_work(tmp_path) -> None:
    with pytest.raises(ValueError, match="unknown"):
        run(tmp_path / "a", ["random", "no-such-policy"])
    with pytest.raises(TournamentError, match="differ"):
        run(tmp_path / "b", ["random", "random"])
    lam = Player(make_player("random").bidder, make_player("random").player, label="lam")
    object.__setattr__(lam, "drafter", threading.Lock())  # a lambda travels (cloudpickle); a lock cannot
    with pytest.raises(TournamentError, match="cannot be sent to worker processes"):
        run(tmp_path / "c", ["random", lam], workers=2)
    assert not (tmp_path / "a").exists()


# --------------------------------------------------------------------------- (d) duplicate


def test_duplicate_plays_each_deal_with_partnerships_swapped(tmp_path) -> None:
    result = run(tmp_path, ["random", steady()], duplicate=True, games=40, chunk_games=15)
    games, hands = result.games, result.hands
    s0 = games[(games["seating"] == 0) & (games["side"] == 0)].set_index("game")
    s1 = games[(games["seating"] == 1) & (games["side"] == 0)].set_index("game")
    assert list(s0.index) == list(s1.index) == list(range(40))
    assert set(s0["entrant"]) == {"random"} and set(s1["entrant"]) == {"steady"}
    h0 = hands[hands["seating"] == 0].set_index(["game", "hand"])
    h1 = hands[hands["seating"] == 1].set_index(["game", "hand"])
    common = h0.index.intersection(h1.index)
    assert len(common) >= 40
    deal = [f"deal{s}" for s in range(4)] + ["dealer"]
    pd.testing.assert_frame_equal(h0.loc[common, deal], h1.loc[common, deal])
    assert (h0.loc[common, "bid0"] != h1.loc[common, "bid0"]).any(), "different players bid those cards"

    a = games[games["entrant"] == "random"]
    per_table = a["won"].astype(int) - a["lost"].astype(int)
    d = per_table.groupby(a["game"]).sum().to_numpy() / 2
    margin = (a["score"] - a["opp_score"]).groupby(a["game"]).sum().to_numpy() / 2
    row = result.matchups.set_index(["entrant", "opponent"]).loc[("random", "steady")]
    half = 1.959963984540054 * d.std(ddof=1) / np.sqrt(len(d))
    assert row["paired_deals"] == 40
    assert row["paired_win_diff"] == pytest.approx(d.mean())
    assert (row["paired_win_lo"], row["paired_win_hi"]) == pytest.approx((d.mean() - half, d.mean() + half))
    assert row["paired_margin"] == pytest.approx(margin.mean())
    other = result.matchups.set_index(["entrant", "opponent"]).loc[("steady", "random")]
    assert other["paired_win_diff"] == pytest.approx(-d.mean())
    assert other["paired_win_lo"] == pytest.approx(-d.mean() - half)


# --------------------------------------------------------------------------- (e) statistics


def test_summary_figures_agree_with_the_hands_table(reference) -> None:
    hands, summary = reference.hands, reference.summary.set_index("entrant")
    games = reference.games
    for name in summary.index:
        mine = games[games["entrant"] == name]
        side_rows = []
        for _, g in mine.groupby(["pairing", "seating"]):
            side = int(g["side"].iloc[0])
            h = hands[(hands["pairing"] == g["pairing"].iloc[0]) & (hands["seating"] == g["seating"].iloc[0])]
            seats = [side, side + 2]
            bids = h[[f"bid{s}" for s in seats]].to_numpy()
            tricks = h[[f"tricks{s}" for s in seats]].to_numpy()
            contract = np.where(bids > 0, bids, 0).sum(axis=1)
            taken = np.where(bids > 0, tricks, 0).sum(axis=1)
            side_rows.append(
                {
                    "hands": len(h),
                    "points": h[f"hand_score{side}"].sum(),
                    "sets": int(((contract > 0) & (taken < contract)).sum()),
                    "nils": int((bids == 0).sum()),
                    "nils_made": int(((bids == 0) & (tricks == 0)).sum()),
                    "bags": h[f"bags_won{side}"].sum(),
                    "err": int(np.where(bids > 0, bids - tricks, 0).sum()),
                    "bids": int((bids > 0).sum()),
                    "table": int(h[[f"bid{s}" for s in range(4)]].to_numpy().sum()),
                }
            )
        t = pd.DataFrame(side_rows).sum()
        row = summary.loc[name]
        assert row["hands"] == t["hands"]
        assert row["points_per_hand"] == pytest.approx(t["points"] / t["hands"])
        assert row["set_rate"] == pytest.approx(t["sets"] / t["hands"])
        assert row["nil_bids"] == t["nils"]
        assert (
            row["nil_success"] == pytest.approx(t["nils_made"] / t["nils"])
            if t["nils"]
            else np.isnan(row["nil_success"])
        )
        assert row["bags_per_hand"] == pytest.approx(t["bags"] / t["hands"])
        assert row["seat_bid_error"] == pytest.approx(t["err"] / t["bids"])
        assert row["table_bid_total"] == pytest.approx(t["table"] / t["hands"])
        finished = mine["won"] | mine["lost"]
        assert row["wins"] == mine["won"].sum() and row["finished"] == finished.sum()
        assert row["unfinished"] == mine["unfinished"].sum()
        assert row["win_rate"] == pytest.approx(mine["won"].sum() / finished.sum())
    assert summary.loc["steady", "nil_bids"] == 0
    assert (summary["wins"] > 0).all() and (summary["finished"] < summary["games"]).any(), "rules give both outcomes"
    shares = reference.bid_totals.groupby(["entrant", "opponent"])["share"].sum()
    np.testing.assert_allclose(shares.to_numpy(), 1.0)


def test_independent_hands_mode(tmp_path) -> None:
    result = tournament(["random", steady()], Rules(), hands=30, seed=2, out=tmp_path, chunk_games=10)
    assert result.total_hands == 30 and (result.games["hands"] == 1).all()
    first = result.hands.query("seating == 0")
    players = [make_player("random"), steady()] * 2
    log = next(simulate_games(Rules(), players, 15, seed=2, batch_size=15))
    np.testing.assert_array_equal(first.sort_values("game")["deal0"].to_numpy(), log.deal[np.argsort(log.game), 0])


def test_hands_storage_off_gives_the_same_summary(reference, tmp_path) -> None:
    entrants = ["random", steady(), "random(blind_rate=0.2)+random"]
    lean = run(tmp_path, entrants, games=50, store_hands=False)
    assert not (tmp_path / "hands").exists()
    with pytest.raises(TournamentError, match="hands storage off"):
        _ = lean.hands
    assert_same_tables(reference, lean, hands=False)


# --------------------------------------------------------------------------- CLI and storage


def test_cli_writes_parquet_csv_manifest_and_records(tmp_path, capsys) -> None:
    out = tmp_path / "cli"
    args = ["tournament", "--entrant", "random", "--entrant", "random(blind_rate=0.2)+random", "--games", "12",
            "--seed", "3", "--hand-cap", "6", "--rules", "blind-nil", "--chunk-games", "5", "--duplicate",
            "--records", "--json", "--quiet", "--workers", "1", "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert [row["entrant"] for row in report["summary"]] == ["random", "random(blind_rate=0.2)+random"]
    assert report["games"] == 24 and report["hands"] == report["hands_played"]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] and manifest["config"]["seed"] == 3 and manifest["version"]
    assert manifest["config"]["rules"]["blind_nil"] and manifest["config"]["rules"]["hand_cap"] == 6
    assert [c["id"] for c in manifest["chunks"]] == [p.stem for p in sorted((out / "games").iterdir())]
    summary = pd.read_csv(out / "summary.csv")
    assert list(summary["entrant"]) == ["random", "random(blind_rate=0.2)+random"]
    assert len(pd.read_parquet(out / "games")) == 2 * 24 and len(pd.read_parquet(out / "hands")) == report["hands"]
    records = list(read_records(out / "records.jsonl"))
    assert len(records) == report["hands"]
    assert {tuple(r["entrants"]) for r in records} == {("random", "random(blind_rate=0.2)+random"),
                                                        ("random(blind_rate=0.2)+random", "random")}  # fmt: skip
    assert sum(any(r["blind"]) for r in records) > 0
    verify([{k: v for k, v in r.items()} for r in records[:40]])


# --------------------------------------------------------------------------- (f) Dask


def test_dask_local_cluster_gives_the_local_result(reference) -> None:
    distributed = pytest.importorskip("distributed")
    entrants = ["random", steady(), "random(blind_rate=0.2)+random"]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:  # fmt: skip
        with distributed.Client(cluster) as client:
            by_client = run(None, entrants, games=50, scheduler=client, chunk_games=10)
        by_address = run(None, entrants, games=50, scheduler=cluster.scheduler_address)
    assert by_client.chunks_run == 3 * 2 * 3
    assert_same_tables(reference, by_client)
    assert_same_tables(reference, by_address)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the kernel's count from /proc (Linux)")
def test_a_pooled_worker_reports_its_own_cpu_time(tmp_path) -> None:
    """What a running worker reports at the end of a run is its CPU time as the kernel counts it
    (`RUSAGE_CHILDREN` counts a worker only once it has ended): the bench's two-worker cost per hand."""
    from spades_lab.bench.tournament import tournament_workload
    from spades_lab.tournament.executors import worker_pool

    run(tmp_path, ["random", steady()], games=200, workers=2, chunk_games=10)
    pool = worker_pool(1)
    pid = pool.processes[0].pid
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    kernel = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    assert kernel > 0.5, "imports and kernels alone cost a worker about a CPU second"
    assert abs(pool.cpu[pid] - kernel) < 0.1 + 0.05 * kernel, (pool.cpu, kernel)
    out = tournament_workload(3000, 1)
    assert out["hands"] > 2000 and out["cpu_s"] > 0 and out["cpu_s_2_workers"] > 0
    assert 0 < out["parent_cpu_share_2_workers"] < 1, out


def test_the_run_configuration_is_one_object_from_the_call_to_the_manifest_and_back(tmp_path: Path) -> None:
    """`tournament()` checks its arguments once as a `TournamentConfig`, records it as the manifest's `config`
    and reads it back as `result.config`; a bad field is refused by name before any folder is touched."""
    from spades_lab.tournament import TournamentConfig

    result = tournament(["random", "counting+tips"], Rules(hand_cap=4), games=6, seed=2, duplicate=True,
                        out=tmp_path / "run", chunk_games=3, store_hands=False, progress=False)  # fmt: skip
    config = result.config
    assert isinstance(config, TournamentConfig)
    assert (config.entrants, config.seed, config.unit, config.count, config.duplicate) == (
        ("random", "counting+tips"), 2, "games", 6, True)  # fmt: skip
    assert config.rules == Rules(hand_cap=4) and not config.store_hands and not config.single_hands
    stored = result.manifest["config"]
    assert config.to_dict(stored["version"], stored["players"]) == stored
    assert TournamentConfig.from_dict(stored) == config
    for bad, message in ((dict(count=0), "games = 0"), (dict(unit="rounds"), "unit = 'rounds'"),
                         (dict(chunk_games=0), "chunk_games = 0"), (dict(rules=Rules(players=3)), "players = 3")):  # fmt: skip
        with pytest.raises(TournamentError, match=message):
            TournamentConfig(**{**vars(config), **bad})
