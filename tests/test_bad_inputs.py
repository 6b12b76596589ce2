"""Bad inputs a user can give, each answered with one clear line (exit 2 on the command line), before any
work is done; outputs that respect what is already at their path; no temporary file left behind."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from spades_lab.cli import main
from spades_lab.engine.records import AtomicFile, RecordError, read_records, verify
from spades_lab.rules import Rules, RulesError, load_rules


def _one_error_line(capsys, code: int, args: list[str]) -> str:
    assert main(args) == code, args
    out, err = capsys.readouterr()
    assert err.startswith("spades-lab: error:") and err.count("\n") == 1, err
    assert "internal error" not in err and "Traceback" not in err
    return err


# --------------------------------------------------------------------------- the name probably meant


@pytest.mark.parametrize(
    "args, meant",
    [
        (["simulate", "--hands", "2", "--seed", "1", "--player", "countng+tips"], "'counting'"),
        (["simulate", "--hands", "2", "--seed", "1", "--player", "counting+tipps"], "'tips'"),
        (["simulate", "--hands", "2", "--seed", "1", "--player", "counting(margn=1)+tips"], "'margin'"),
        (["simulate", "--hands", "2", "--seed", "1", "--player", "counting+tips+drafft=random"], "'draft'"),
        (["simulate", "--hands", "2", "--seed", "1", "--rules", "standrd"], "'standard'"),
        (["rules", "cuthroat"], "'cutthroat'"),
        (["bench", "--workload", "randm"], "'random'"),
        (["play", "--seat", "soutj", "--save", "none"], "'south'"),
    ],
)
def test_unknown_names_say_the_name_probably_meant(capsys, args, meant) -> None:
    err = _one_error_line(capsys, 2, args)
    assert f"did you mean {meant}" in err


def test_a_misspelt_rules_field_in_toml_names_the_field_meant(tmp_path, capsys) -> None:
    path = tmp_path / "house.toml"
    path.write_text("bag_treshold = 7\n")
    err = _one_error_line(capsys, 2, ["simulate", "--hands", "2", "--seed", "1", "--rules", str(path)])
    assert "bag_treshold" in err and "did you mean 'bag_threshold'" in err


def test_a_misspelt_rules_value_names_the_value_meant(tmp_path, capsys) -> None:
    path = tmp_path / "deck.toml"
    path.write_text('deck = "jokerz"\n')
    err = _one_error_line(capsys, 2, ["simulate", "--hands", "2", "--seed", "1", "--rules", str(path)])
    assert "did you mean 'jokers'" in err


def test_a_misspelt_rules_keyword_in_python_names_the_field_meant() -> None:
    with pytest.raises(RulesError, match="did you mean 'bag_threshold'") as caught:
        Rules(bag_treshold=9)  # type: ignore[call-arg]
    assert isinstance(caught.value, TypeError)  # still what an unknown keyword argument raises
    with pytest.raises(RulesError, match="did you mean 'bag_threshold'"):
        Rules().replace(bag_treshold=9)


def test_a_misspelt_command_names_the_command_meant(capsys) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["simulat", "--hands", "2"])
    assert ended.value.code == 2
    assert "did you mean 'simulate'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["plot", ".", "--format", "pgn"])
    assert "did you mean 'png'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["simulate", "--hands", "2", "--seed", "1", "--hand-cpa", "100"])
    assert "did you mean '--hand-cap'" in capsys.readouterr().err


def test_plot_of_a_folder_that_is_no_tournament_says_what_it_expected(tmp_path, capsys) -> None:
    err = _one_error_line(capsys, 2, ["plot", str(tmp_path)])
    assert "not a tournament's output folder" in err and "manifest.json" in err and "again" not in err


# --------------------------------------------------------------------------- outputs


def _records_run(path: Path | str, *more: str) -> list[str]:
    return ["simulate", "--hands", "3", "--seed", "1", "--records", str(path), *more]


def test_records_through_a_link_to_dev_null_write_through_and_keep_both(tmp_path, capsys) -> None:
    """Through a link in a scratch folder, so that even a writer that replaced its target (the bug this guards
    against) would replace only the link, never the system's device."""
    link = tmp_path / "null.jsonl"
    link.symlink_to(os.devnull)
    assert main(_records_run(link)) == 0
    assert link.is_symlink() and stat.S_ISCHR(os.stat(os.devnull).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null.jsonl"]


def test_records_to_a_fifo_are_written_through_it(tmp_path, capsys) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert main(_records_run(fifo)) == 0
    reader.join(timeout=60)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still a pipe, not a plain file
    assert received and received[0].count(b"\n") == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_records_through_a_symlink_write_its_target_and_keep_the_link(tmp_path, capsys) -> None:
    target, link = tmp_path / "real.jsonl", tmp_path / "link.jsonl"
    target.write_text("old\n")
    link.symlink_to(target)
    assert main(_records_run(link)) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert len(list(read_records(target))) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.jsonl", "real.jsonl"]


def test_an_output_that_is_the_runs_own_input_is_refused(tmp_path, capsys) -> None:
    rules = tmp_path / "my.toml"
    rules.write_text("target = 300\n")
    err = _one_error_line(capsys, 2, _records_run(rules, "--rules", str(rules)))
    assert "my.toml" in err and "input" in err
    assert rules.read_text() == "target = 300\n"


def test_show_html_refuses_to_overwrite_its_own_records_file(tmp_path, capsys) -> None:
    records = tmp_path / "hands.jsonl"
    assert main(_records_run(records)) == 0
    capsys.readouterr()
    before = records.read_bytes()
    err = _one_error_line(capsys, 2, ["show", str(records), "--game", "0", "--html", str(records)])
    assert "--html" in err and "input" in err
    assert records.read_bytes() == before


def test_an_empty_records_name_is_refused(capsys) -> None:
    err = _one_error_line(capsys, 2, _records_run(""))
    assert "empty" in err


# --------------------------------------------------------------------------- early and clear errors


def _play(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["play", "--seed", "1", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_play_checks_its_save_path_before_the_table_is_shown(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", open(os.devnull))  # noqa: SIM115
    code, out, err = _play(capsys, "--save", str(tmp_path / "nodir" / "x.jsonl"))
    assert code == 2 and out == "" and "--save" in err and "does not exist" in err


@pytest.mark.parametrize("clock", ["-1", "nan", "inf", "0"])
def test_play_refuses_a_clock_that_is_no_time_limit_naming_clock(capsys, clock) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["play", "--save", "none", "--clock", clock])
    out, err = capsys.readouterr()
    assert ended.value.code == 2 and out == "" and "--clock" in err


@pytest.mark.parametrize("rules, field", [("three-player", "players = 3"), ("cutthroat", "partnerships")])
def test_play_refuses_rules_it_cannot_seat_in_one_line(capsys, monkeypatch, rules, field) -> None:
    monkeypatch.setattr(sys, "stdin", open(os.devnull))  # noqa: SIM115
    code, out, err = _play(capsys, "--save", "none", "--rules", rules)
    assert code == 2 and out == "" and field in err and "internal error" not in err


def test_a_toml_file_with_a_byte_order_mark_is_read(tmp_path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes("\ufefftarget = 300\n".encode())
    assert load_rules(path).target == 300


def test_a_deeply_nested_toml_file_is_one_clear_line(tmp_path, capsys) -> None:
    path = tmp_path / "deep.toml"
    path.write_text("target = " + "[" * 5000 + "]" * 5000 + "\n")
    err = _one_error_line(capsys, 2, ["simulate", "--hands", "2", "--seed", "1", "--rules", str(path)])
    assert "deep.toml" in err and "nested" in err


def test_a_hand_cap_names_the_preset_and_the_cap_not_custom(capsys) -> None:
    assert main(["simulate", "--hands", "2", "--seed", "1", "--hand-cap", "200"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith("rules: standard, hand_cap=200")


# --------------------------------------------------------------------------- Python API errors


@pytest.mark.parametrize("action", [53.7, "53", None, True])
def test_gymnasium_refuses_actions_that_are_not_whole_numbers(action) -> None:
    pytest.importorskip("gymnasium")
    from spades_lab.env.gym import SpadesEnv

    env = SpadesEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="whole number"):
        env.step(action)


def test_pettingzoo_raw_env_refuses_a_string_action() -> None:
    spz = pytest.importorskip("spades_lab.env.pettingzoo")
    aec = spz.raw_env()
    aec.reset(seed=0)
    with pytest.raises(ValueError, match="whole number"):
        aec.step("53")


def test_verify_of_one_record_says_to_pass_a_list(tmp_path, capsys) -> None:
    path = tmp_path / "r.jsonl"
    assert main(_records_run(path)) == 0
    record = next(read_records(path))
    with pytest.raises(RecordError, match=r"pass \[record\]"):
        verify(record)  # type: ignore[arg-type]
    verify([record])


# --------------------------------------------------------------------------- temporary files


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_full_disk_at_the_last_flush_leaves_no_temporary_file(tmp_path) -> None:
    out = AtomicFile(tmp_path / "r.jsonl")

    class Full:
        def close(self) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

        def write(self, text: str) -> None:
            pass

    out.file.close()
    out.file = Full()  # type: ignore[assignment]
    with pytest.raises(OSError):
        out.commit()
    assert list(tmp_path.iterdir()) == []


def test_a_killed_writers_temporary_file_goes_at_the_next_write(tmp_path) -> None:
    left = tmp_path / f".r.jsonl.{_dead_pid()}.abcd1234.tmp"
    live = tmp_path / f".r.jsonl.{os.getppid()}.abcd1234.tmp"  # a process still running: left alone
    left.write_text("partial")
    live.write_text("in progress")
    with AtomicFile(tmp_path / "r.jsonl") as out:
        out.write("x\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, "r.jsonl"])


def test_a_records_join_that_fails_leaves_no_temporary_file(tmp_path, monkeypatch) -> None:
    import shutil

    from spades_lab.tournament import storage, tournament

    out = tmp_path / "run"
    tournament(["random", "counting+tips"], "short", games=2, seed=1, workers=1, out=out, records=True,
               progress=False)  # fmt: skip
    real_copy = shutil.copyfileobj
    copied: list[int] = []

    def full(src, dst, *args):  # the first chunk goes in, the disk is full at the second
        if copied:
            raise OSError(errno.ENOSPC, "No space left on device")
        copied.append(1)
        real_copy(src, dst, *args)

    monkeypatch.setattr(storage.shutil, "copyfileobj", full)
    before = (out / "records.jsonl").read_bytes()
    import json

    chunks = [storage.Chunk.from_dict(c) for c in json.loads((out / "manifest.json").read_text())["chunks"]]
    assert len(chunks) >= 2
    with pytest.raises(OSError):
        storage.RunDir(out).join_records(chunks)
    assert (out / "records.jsonl").read_bytes() == before
    assert not (out / ".tmp").exists() or list((out / ".tmp").iterdir()) == []


def test_a_killed_runs_temporary_file_is_removed_when_the_run_resumes(tmp_path) -> None:
    from spades_lab.tournament import tournament

    out = tmp_path / "run"
    args = dict(games=2, seed=1, workers=1, out=out, records=True, progress=False)
    tournament(["random", "counting+tips"], "short", **args)
    leftover = out / ".tmp" / f"run-records.jsonl.{_dead_pid()}"
    leftover.parent.mkdir(exist_ok=True)
    leftover.write_text("a partial join")
    tournament(["random", "counting+tips"], "short", **{**args, "games": 4})
    assert not leftover.exists()


# --------------------------------------------------------------------------- late and wrong errors


def test_tournament_dd_with_cutthroat_is_refused_before_the_folder_is_touched(tmp_path, capsys) -> None:
    out = tmp_path / "run"
    args = ["tournament", "--entrant", "random", "--entrant", "counting+tips", "--hands", "2", "--seed", "1"]
    err = _one_error_line(capsys, 2, [*args, "--dd", "--rules", "cutthroat", "--out", str(out), "--quiet"])
    assert "partnerships" in err and "--dd" in err
    assert not out.exists()


@pytest.fixture
def own_registry():
    """Policies registered by a test are gone after it."""
    from spades_lab.policies import registry

    saved = registry.registered()
    yield
    registry.restore(saved)


EXITING_POLICY = """
import sys
import numpy as np
from spades_lab.policies import register

class Leaves:
    def bid(self, view):
        sys.exit(3)

@register("bid", "leaves")
def build(params):
    return Leaves()
"""


def test_sys_exit_in_a_policy_is_an_error_line_not_a_silent_end(tmp_path, capsys, own_registry) -> None:
    path = tmp_path / "leaves.py"
    path.write_text(EXITING_POLICY)
    err = _one_error_line(
        capsys, 1, ["--import", str(path), "simulate", "--hands", "2", "--seed", "1", "--player", "leaves+tips"]
    )
    assert "sys.exit(3)" in err and "leaves.py" in err


def test_sys_exit_in_an_imported_module_is_an_error_line(tmp_path, capsys, own_registry) -> None:
    path = tmp_path / "quits.py"
    path.write_text("import sys\nsys.exit(4)\n")
    err = _one_error_line(capsys, 1, ["--import", str(path), "policies"])
    assert "sys.exit(4)" in err and "quits.py" in err


def test_a_factory_returning_none_is_named(tmp_path, capsys, own_registry) -> None:
    path = tmp_path / "none.py"
    path.write_text("from spades_lab.policies import register\n\n@register('bid', 'nothing')\ndef build(params):\n"
                    "    return None\n")  # fmt: skip
    err = _one_error_line(
        capsys, 2, ["--import", str(path), "simulate", "--hands", "2", "--seed", "1", "--player", "nothing+tips"]
    )
    assert "'nothing'" in err and "returned None" in err and "none.py" in err


def test_re_registering_a_shipped_name_warns(tmp_path, capsys, own_registry) -> None:
    path = tmp_path / "mine.py"
    path.write_text("from spades_lab.policies import register\nfrom spades_lab.policies.baseline import RandomBid\n\n"
                    "@register('bid', 'counting')\ndef build(params):\n    return RandomBid(0.0)\n")  # fmt: skip
    assert main(["--import", str(path), "simulate", "--hands", "2", "--seed", "1", "--player", "counting+tips"]) == 0
    err = capsys.readouterr().err
    assert "warning" in err and "'counting' ships with spades_lab" in err and "mine.py" in err


def _bad_records(tmp_path: Path, capsys) -> Path:
    import json

    good = tmp_path / "good.jsonl"
    assert main(_records_run(good)) == 0
    capsys.readouterr()
    lines = [json.loads(line) for line in good.read_text().splitlines()]
    del lines[0]["deal"]
    lines[1]["plays"][4], lines[1]["plays"][5] = lines[1]["plays"][5], lines[1]["plays"][4]
    lines[2]["hand_score"][0] += 10
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(record) + "\n" for record in lines))
    return bad


@pytest.mark.parametrize("game, field", [(0, "'deal'"), (1, "not a legal play"), (2, "hand_score")])
def test_show_verifies_a_record_before_showing_it(tmp_path, capsys, game, field) -> None:
    bad = _bad_records(tmp_path, capsys)
    err = _one_error_line(capsys, 2, ["show", str(bad), "--game", str(game)])
    assert "does not verify" in err and field in err


def test_a_huge_unsigned_bid_is_named_as_given(capsys) -> None:
    import numpy as np

    from spades_lab.engine import PolicyError, simulate_hands
    from spades_lab.players.player import Player
    from spades_lab.players.registry import play_policy

    class Huge:
        name = "huge"

        def bid(self, view):
            return np.full(len(view), 2**64 - 3, dtype=np.uint64)

    with pytest.raises(PolicyError, match="answered 18446744073709551613 while bidding"):
        next(simulate_hands(Rules(), [Player(Huge(), play_policy("tips"))] * 4, 2, 1))


def test_deeply_nested_position_and_records_files_are_one_clear_line(tmp_path, capsys) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    position = tmp_path / "deep.json"
    position.write_text(deep)
    err = _one_error_line(capsys, 2, ["decide", "--player", "random", "--position", str(position)])
    assert "deep.json" in err and "nested" in err
    records = tmp_path / "deep.jsonl"
    records.write_text(deep + "\n")
    err = _one_error_line(capsys, 2, ["show", str(records), "--game", "0"])
    assert "deep.jsonl:1" in err and "nested" in err


def test_a_tournament_writes_through_a_symlinked_output_and_keeps_the_link(tmp_path) -> None:
    from spades_lab.tournament import tournament

    out, kept = tmp_path / "run", tmp_path / "kept.jsonl"
    out.mkdir()
    (out / "records.jsonl").symlink_to(kept)
    tournament(["random", "counting+tips"], "short", games=2, seed=1, workers=1, out=out, records=True,
               progress=False)  # fmt: skip
    assert (out / "records.jsonl").is_symlink() and len(list(read_records(kept))) > 0


@pytest.mark.parametrize("clock", [float("nan"), float("inf"), -1.0, "15"])
def test_play_in_python_refuses_a_clock_that_is_no_time_limit(clock) -> None:
    from spades_lab.env.play import play

    with pytest.raises(ValueError, match="clock"):
        play(Rules(), 0, None, None, 1, clock=clock, save=None)
