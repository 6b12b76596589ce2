"""Runs that just work: plain scripts with workers, Ctrl-C and SIGTERM that keep what was played, workers that
never outlive their parent, bounded sizes and worker counts, temporary folders that go away."""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import spades_lab as sl
from spades_lab.cli import main
from spades_lab.tournament import TournamentError, executors, tournament

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
PAIR = ["random", "random(blind_rate=0.3)+random"]
ON_PROC = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")


PLAIN_SCRIPT = """
import sys
import spades_lab as sl

class Mine:
    # a player defined in the script itself: it reaches the workers by value
    name = "mine"
    def __init__(self):
        self.inner = sl.make_player("counting+tips")
    def bid(self, view):
        return self.inner.bid(view)
    def play(self, view):
        return self.inner.play(view)

result = sl.tournament(["random", Mine()], sl.Rules(hand_cap=4), games=8, seed=2, workers=2, chunk_games=2,
                       out=sys.argv[1], progress=False)
print("played", result.total_games)
"""


def test_a_plain_script_with_workers_runs_without_a_main_guard(tmp_path: Path) -> None:
    """Workers do not run the script again: no spawn bootstrapping error, no second tournament."""
    script = tmp_path / "first.py"
    script.write_text(PLAIN_SCRIPT)
    done = subprocess.run([sys.executable, str(script), str(tmp_path / "out")], env=ENV, capture_output=True,
                          text=True, timeout=300, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("played") == 1 and "played 8" in done.stdout
    assert "bootstrapping" not in done.stderr and "Traceback" not in done.stderr
    assert json.loads((tmp_path / "out" / "manifest.json").read_text())["complete"]


def _chunks_on_disk(out: Path) -> int:
    games = out / "games"
    return len([p for p in games.iterdir() if p.suffix == ".parquet"]) if games.exists() else 0


GAMES = 6000
"""100 chunks of 60 games: random hands play so fast that fewer chunks could all end before a signal lands."""


@pytest.mark.parametrize("how", ["ctrl-c to the process group", "sigterm to the parent"])
def test_an_interrupted_run_keeps_the_chunks_in_play_and_the_rerun_plays_only_the_rest(tmp_path, how, capsys) -> None:
    """The first signal stops handing out chunks; each player finishes the chunks in its batch, all of them
    are written and recorded, no worker prints a traceback, and the message says what is kept."""
    out = tmp_path / "run"
    args = ["tournament", "--entrant", PAIR[0], "--entrant", PAIR[1], "--games", str(GAMES), "--seed", "4",
            "--hand-cap", "8", "--chunk-games", "60", "--workers", "2", "--out", str(out), "--quiet"]  # fmt: skip
    # 7 tables against 60-game chunks: every game lasts the 8 capped hands, so the tables start and end their games
    # together, and a chunk's last game ends with the batch's last only every 7th chunk; at any signal before that,
    # a player that has finished a chunk already has the next one in play
    proc = subprocess.Popen([sys.executable, "-m", "spades_lab.cli", *args, "--batch-size", "7"], env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)  # fmt: skip
    try:
        deadline = time.time() + 120
        while time.time() < deadline and proc.poll() is None and _chunks_on_disk(out) < 2:
            time.sleep(0.02)
        on_disk = _chunks_on_disk(out)
        if how.startswith("ctrl-c"):
            os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the workers get it too
        else:
            proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "finishing the chunks in play" in err and "run the same command again to play the other" in err, err
    recorded = json.loads((out / "manifest.json").read_text())["chunk_files"]
    assert GAMES // 60 > len(recorded) > on_disk >= 2, (
        f"{len(recorded)} chunks kept, {on_disk} on disk at the signal; {err}"
    )
    kept_hands = sum(files["hands"]["rows"] for files in recorded.values())
    capsys.readouterr()
    assert main(args) == 0
    clean = tournament(PAIR, sl.Rules(hand_cap=8), games=GAMES, seed=4, chunk_games=60, out=tmp_path / "clean",
                       progress=False)  # fmt: skip
    assert f"; {clean.total_hands - kept_hands} hands played in" in capsys.readouterr().out
    for name in ("summary.csv", "matchups.csv", "bid_totals.csv"):
        assert (out / name).read_bytes() == (tmp_path / "clean" / name).read_bytes()


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@ON_PROC
def test_workers_exit_when_their_parent_is_killed_in_the_middle_of_a_run(tmp_path: Path) -> None:
    """kill -9 of the parent while its workers play: none lives on (one blocked on its pipe used to)."""
    out = tmp_path / "run"
    args = ["tournament", "--entrant", PAIR[0], "--entrant", PAIR[1], "--games", "4000", "--seed", "4",
            "--hand-cap", "8", "--chunk-games", "50", "--workers", "2", "--out", str(out), "--quiet"]  # fmt: skip
    # 7 tables against 60-game chunks: every game lasts the 8 capped hands, so the tables start and end their games
    # together, and a chunk's last game ends with the batch's last only every 7th chunk; at any signal before that,
    # a player that has finished a chunk already has the next one in play
    proc = subprocess.Popen([sys.executable, "-m", "spades_lab.cli", *args, "--batch-size", "7"], env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline = time.time() + 120
        while time.time() < deadline and proc.poll() is None and _chunks_on_disk(out) < 2:
            time.sleep(0.05)
        workers = [p for p in _children(proc.pid) if b"spawn_main" in Path(f"/proc/{p}/cmdline").read_bytes()]
        assert workers, "the run started no worker"
        proc.kill()
        proc.wait(timeout=30)
        deadline = time.time() + 20
        while time.time() < deadline and any(_running(p) for p in workers):
            time.sleep(0.1)
        assert not any(_running(p) for p in workers), "a worker outlived its killed parent"
    finally:
        if proc.poll() is None:
            proc.kill()


def test_workers_are_capped_at_the_chunks_and_warned_above_the_cores(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    with pytest.warns(UserWarning, match=r"workers = 5 is more than the 1 cores of this machine"):
        tournament(PAIR, sl.Rules(hand_cap=4), games=4, seed=1, workers=5, chunk_games=2, out=tmp_path / "run",
                   progress=False)  # fmt: skip
    assert len(executors._POOL[0].processes) == 1, "2 chunks: this process and one worker"


def test_a_size_beyond_what_can_be_planned_is_refused_before_any_allocation(tmp_path: Path, capsys) -> None:
    with pytest.raises(TournamentError, match=r"games = 1,000,000,000,000,000 per pairing makes 250,000,000,000"
                       r" chunks .* at most 100,000 can be planned: play at most 400,000,000 games"):  # fmt: skip
        tournament(PAIR, games=10**15, out=tmp_path / "run", progress=False)
    assert not (tmp_path / "run").exists()
    assert main(["tournament", "--entrant", PAIR[0], "--entrant", PAIR[1], "--hands", str(10**15), "--seed", "1", "--out",
                 str(tmp_path / "cli")]) == 2  # fmt: skip
    assert "raise chunk_games (--chunk-games) to at least" in capsys.readouterr().err


def test_a_temporary_run_folder_goes_with_its_result_unless_kept(tmp_path: Path) -> None:
    result = tournament(PAIR, sl.Rules(hand_cap=4), games=2, seed=1, progress=False)
    folder = result.out
    assert (folder / "summary.csv").exists()
    del result
    gc.collect()
    assert not folder.exists()
    kept = tournament(PAIR, sl.Rules(hand_cap=4), games=2, seed=1, progress=False)
    folder = kept.keep()
    del kept
    gc.collect()
    try:
        assert (folder / "summary.csv").exists()
    finally:
        import shutil

        shutil.rmtree(folder)


def test_a_temporary_run_folder_is_removed_at_exit(tmp_path: Path) -> None:
    code = ("import spades_lab as sl; r = sl.tournament(['random', 'counting+tips'], sl.Rules(hand_cap=3), games=2,"
            " workers=2, chunk_games=1, progress=False); print(r.out)")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], env=ENV, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert not Path(done.stdout.strip()).exists()


def test_plots_of_a_tiny_run_draw_without_a_warning(tmp_path: Path) -> None:
    """No contract size reaches min_contracts in two games: no line is labelled, and no empty legend is asked for."""
    import warnings

    from spades_lab.plots import write_all

    result = tournament(PAIR, sl.Rules(hand_cap=2), games=2, seed=1, out=tmp_path / "run", progress=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        written = write_all(result, tmp_path / "plots", progress=False)
    assert len(written.written) == 8


def test_a_check_of_more_tables_than_memory_holds_is_refused_at_once(capsys) -> None:
    from spades_lab.players.check import MAX_TABLES, check_policy

    with pytest.raises(ValueError, match=r"tables = 100,000,000 is impossible; allowed: 1 to 100,000"):
        check_policy("random", tables=10**8)
    assert main(["check", "--player", "random", "--tables", str(MAX_TABLES + 1)]) == 2
    assert "allowed: 1 to 100,000" in capsys.readouterr().err


def test_a_check_shows_its_progress(capsys) -> None:
    from spades_lab.players.check import check_policy

    check_policy("random", tables=4, progress=True)
    assert "checking random: 100%" in capsys.readouterr().err
