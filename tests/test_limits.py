"""What happens at each limit (docs/limits.md): runs that must end, inputs that must be refused.

Each test drives the toolkit the way a user would (the API or `spades_lab.cli.main`) and checks
the outcome a user would see: the run ends, the count is right, the error names the field.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from spades_lab.cli import main
from spades_lab.engine import MAX_HANDS, MaxHandsWarning, simulate_games
from spades_lab.policies import make_players
from spades_lab.rules import Rules

# --------------------------------------------------------------------------- max_hands


def test_max_hands_stops_games_unfinished_with_one_warning() -> None:
    players = make_players(["random"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        logs = list(simulate_games(Rules(), players, 6, seed=11, batch_size=4, max_hands=3))
    hands = np.concatenate([log.hand for log in logs])
    unfinished = np.concatenate([log.unfinished for log in logs])
    over = np.concatenate([log.game_over for log in logs])
    winner = np.concatenate([log.winner for log in logs])
    assert hands.max() == 2 and len(hands) == 18  # three hands for each of the six games, then stopped
    assert unfinished.sum() == 6 and not over.any() and (winner == -1).all()
    assert len(caught) == 1 and issubclass(caught[0].category, MaxHandsWarning)
    assert "6 of 6 games reached max_hands = 3" in str(caught[0].message)


def test_max_hands_does_not_touch_games_that_end_before_it() -> None:
    players = make_players(["counting+tips"])
    rules = Rules(target=100)
    with warnings.catch_warnings():
        warnings.simplefilter("error", MaxHandsWarning)
        capped = list(simulate_games(rules, players, 8, seed=3, max_hands=MAX_HANDS))
    free = list(simulate_games(rules, players, 8, seed=3, max_hands=None))
    assert sum(len(log) for log in capped) == sum(len(log) for log in free)
    assert sum(int(log.game_over.sum()) for log in capped) == 8


@pytest.mark.parametrize("bad", [0, -1, 1.5, True])
def test_max_hands_must_be_a_positive_count(bad) -> None:
    with pytest.raises(ValueError, match="max_hands"):
        next(simulate_games(Rules(), make_players(["random"]), 2, seed=1, max_hands=bad))


def test_cli_random_games_end_at_the_default_max_hands(capsys) -> None:
    """Random play rarely reaches 500: without the safety net this run would not end."""
    assert main(["simulate", "--games", "2", "--seed", "11"]) == 0
    out, err = capsys.readouterr()
    assert f"{2 * MAX_HANDS} hands" in out
    assert (
        err.strip()
        == f"spades-lab: warning: 2 of 2 games reached max_hands = {MAX_HANDS} hands and stopped unfinished (no winner)"
    )


def test_cli_max_hands_flag(capsys) -> None:
    assert main(["simulate", "--games", "3", "--seed", "11", "--max-hands", "5"]) == 0
    out, err = capsys.readouterr()
    assert "15 hands" in out and "0 games finished, 3 stopped unfinished" in out
    assert err.count("\n") == 1 and "3 of 3 games reached max_hands = 5" in err
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--games", "3", "--seed", "11", "--max-hands", "0"])
    assert exit_info.value.code == 2
    assert "--max-hands" in capsys.readouterr().err


def test_tournament_warns_once_for_the_run(tmp_path) -> None:
    from spades_lab.tournament import tournament

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = tournament(["random", "random(blind_rate=0.0)+random"], games=4, seed=2, out=tmp_path / "t",
                            chunk_games=2, max_hands=4)  # fmt: skip
    assert int(result.summary["unfinished"].sum()) == 2 * 4
    messages = [str(w.message) for w in caught if issubclass(w.category, MaxHandsWarning)]
    assert messages == ["4 games reached max_hands = 4 hands and stopped unfinished (no winner)"]


# --------------------------------------------------------------------------- records


def test_streamed_records_are_the_sorted_run_and_verify(tmp_path, capsys) -> None:
    from spades_lab.engine import HandLog
    from spades_lab.engine.records import hand_records, read_records, verify

    path = tmp_path / "g.jsonl"
    assert main(["simulate", "--games", "12", "--seed", "4", "--batch-size", "5", "--records", str(path),
                 "--player", "counting+tips", "--player", "random"]) == 0  # fmt: skip
    assert "wrote" in capsys.readouterr().out
    streamed = list(read_records(path))
    players = make_players(["counting+tips", "random"])
    log = HandLog.concat(list(simulate_games(Rules(), players, 12, seed=4, batch_size=64))).sorted()
    assert streamed == list(hand_records(log, Rules()))
    verify(streamed[:40])
    assert [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]  # no temporary file left behind
    import os

    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask  # an ordinary file, not mkstemp's private 0600


def test_record_stream_holds_only_games_in_play(tmp_path) -> None:
    from spades_lab.engine.records import RecordStream

    rules = Rules(target=150)
    stream = RecordStream(tmp_path / "r.jsonl", rules)
    most = 0
    for log in simulate_games(rules, make_players(["counting+tips"]), 200, seed=9, batch_size=8):
        stream.add(log)
        most = max(most, len(stream.pending))
    assert stream.close() > 200
    assert most <= 40  # about one batch of games in play, not the 200 games of the run


def test_records_are_written_atomically(tmp_path) -> None:
    from spades_lab.engine.records import RecordStream

    path = tmp_path / "r.jsonl"
    path.write_text("earlier run\n")
    stream = RecordStream(path, Rules())
    stream.add(next(simulate_games(Rules(), make_players(["random"]), 4, seed=1)))
    assert path.read_text() == "earlier run\n"  # nothing replaced while the run plays
    stream.abort()  # the run failed or was interrupted
    assert path.read_text() == "earlier run\n" and [p.name for p in tmp_path.iterdir()] == ["r.jsonl"]


@pytest.mark.parametrize("where", ["missing/g.jsonl", "."])
def test_a_bad_records_path_is_refused_before_the_run(tmp_path, capsys, where) -> None:
    target = tmp_path / where
    assert main(["simulate", "--games", "5000", "--seed", "1", "--records", str(target)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "hands in" not in out  # refused before playing, not after
    assert err.startswith("spades-lab: error: output file") and str(target) in err


# --------------------------------------------------------------------------- rules validation


@pytest.mark.parametrize(
    "fields",
    [
        {"max_bid": 5, "min_team_contract": 10},
        {"min_bid": 3, "min_team_contract": 4, "max_team_contract": 4},
        {"min_team_contract": 26},
        {"min_bid": 8, "max_team_contract": 7, "min_team_contract": 1},
    ],
)
def test_bid_limits_that_leave_a_seat_no_legal_bid_are_refused(fields) -> None:
    from spades_lab.rules import RulesError

    with pytest.raises(RulesError, match="min_team_contract") as info:
        Rules(**fields)
    assert "no legal bid" in str(info.value)


def test_bid_limits_that_work_are_accepted_and_every_bid_is_legal() -> None:
    rules = Rules(min_team_contract=4, max_team_contract=13, max_bid=6)
    for log in simulate_games(rules.replace(hand_cap=3), make_players(["random"]), 50, seed=2):
        for side in ((0, 2), (1, 3)):
            contract = log.bids[:, side].sum(axis=1)
            assert ((contract >= 4) & (contract <= 13)).all()
        assert ((log.bids >= 0) & (log.bids <= 6)).all()


@pytest.mark.parametrize(
    ("field", "value"),
    [("trick_value", 2**63 - 1), ("nil_value", 2**63), ("bag_penalty", 10**7), ("target", 10**10),
     ("mercy_threshold", -(10**10)), ("blind_nil_trail", 2**62), ("bag_threshold", 10**6), ("hand_cap", 10**7),
     ("trick_value", -1)],
)  # fmt: skip
def test_integer_fields_have_ranges_so_scores_cannot_overflow(field, value) -> None:
    from spades_lab.rules import RulesError

    with pytest.raises(RulesError, match=rf"rules field {field} = {value} is impossible; allowed: "):
        Rules(**{field: value})


def test_the_largest_allowed_values_score_without_overflow() -> None:
    from spades_lab.engine import score_hands
    from spades_lab.rules import MAX_POINTS

    big = {k: MAX_POINTS for k in ("trick_value", "bag_value", "bag_penalty", "nil_value", "big_contract_value")}
    rules = Rules(**big, big_contract=10, bag_threshold=1)
    result = score_hands(rules, np.array([[13, 0, 13, 0]]), np.array([[13, 0, 0, 0]]), np.array([[0, 0]]))
    assert result.points[0].tolist() == [-MAX_POINTS, 2 * MAX_POINTS]  # 10-for-200 set; two nils made


def test_rules_that_cannot_move_a_score_are_refused_and_far_targets_warned() -> None:
    from spades_lab.rules import RulesError, RulesWarning

    with pytest.raises(RulesError, match="no side can ever score"):
        Rules(trick_value=0, bag_value=0, nil_value=0)
    with pytest.warns(RulesWarning, match="target = 100,000,000 needs at least"):
        Rules(target=10**8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Rules(trick_value=0, bag_value=0, nil_value=10)  # nil can still score: allowed, no warning


def test_the_engine_never_asks_a_policy_to_choose_from_nothing() -> None:
    from types import SimpleNamespace

    from spades_lab.engine.kernels import pick_nth_true
    from spades_lab.engine.protocol import NoLegalActionError, ask_bids, ask_plays

    asked = []
    policy = SimpleNamespace(name="spy", bid=lambda view: asked.append(view), play=lambda view: asked.append(view))
    legal_bids = np.zeros((2, 14), dtype=bool)
    legal_bids[0, 3] = True
    view = SimpleNamespace(legal_bids=legal_bids, legal=np.array([5, 0], dtype=np.uint64),
                           seat=np.array([1, 2]), tables=np.array([10, 11]))  # fmt: skip
    with pytest.raises(NoLegalActionError, match="no legal bid for seat 2 at table 11"):
        ask_bids(policy, view)
    with pytest.raises(NoLegalActionError, match="no legal card for seat 2 at table 11"):
        ask_plays(policy, view)
    assert asked == []
    # The random pick says "none" instead of returning uninitialised memory.
    assert pick_nth_true(legal_bids, np.array([0.5, 0.5])).tolist() == [3, -1]


# --------------------------------------------------------------------------- positions


def _position() -> dict:
    from spades_lab.engine.records import hand_records

    log = next(simulate_games(Rules(), make_players(["random"]), 1, seed=3))
    record = next(hand_records(log, Rules()))
    keys = ("game", "hand", "rules", "dealer", "hands", "score_before", "bags_before")
    position = {k: record[k] for k in keys}
    position["bids"] = [None] * 4
    position["plays"] = []
    return position


def _first_bidder(position: dict) -> int:
    return (position["dealer"] + 1) % 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: p["hands"].__setitem__(_first_bidder(p), []), r"hands\[\d\] \(the seat to act\) gives 0 cards"),
        (lambda p: p["hands"].__setitem__(_first_bidder(p), p["hands"][_first_bidder(p)][:12]), "gives 12 cards"),
        (lambda p: p.__setitem__("dealer", 4), "dealer = 4 is impossible"),
        (lambda p: p.__setitem__("dealer", "0"), "dealer = '0' is impossible"),
        (lambda p: p.__setitem__("bids", [None, None, None, 14]), r"bids\[3\] = 14 is impossible"),
        (lambda p: p.__setitem__("bids", [-1, None, None, None]), r"bids\[0\] = -1 is impossible"),
        (lambda p: p.__setitem__("bids", [None, None]), "bids must list 4 bids"),
        (lambda p: p.__setitem__("blind", [False, True, False, False]) or p.__setitem__("bids", [3, 4, 2, 1]),
         r"blind\[1\] is true but bids\[1\] = 4"),
        (lambda p: p.__setitem__("plays", [[7, "AS"]]), r"plays\[0\] = \[7, 'AS'\] is impossible"),
        (lambda p: p.__setitem__("score_before", [0]), "score_before"),
    ],
)  # fmt: skip
def test_bad_positions_are_refused_naming_the_field(change, message) -> None:
    from spades_lab.engine.records import RecordError
    from spades_lab.players.decide import decide

    position = _position()
    assert "bid" in decide("counting+tips", position)  # the unchanged position is fine
    change(position)
    with pytest.raises(RecordError, match=message):
        decide("counting+tips", position)


@pytest.mark.parametrize("text", ["[1, 2]", "3", '"x"'])
def test_a_position_that_is_not_a_json_object_is_refused(tmp_path, text) -> None:
    from spades_lab.engine.records import RecordError
    from spades_lab.players.decide import decide

    path = tmp_path / "p.json"
    path.write_text(text)
    with pytest.raises(RecordError, match="a position must be a JSON object"):
        decide("random", path)


# --------------------------------------------------------------------------- tournament directories


def _tour(out, **kw):
    from spades_lab.tournament import tournament

    return tournament(["random", "counting+tips"], rules=Rules(target=150), games=8, seed=5, out=out,
                      chunk_games=2, **kw)  # fmt: skip


def test_fresh_removes_only_the_files_this_tool_wrote(tmp_path) -> None:
    out = tmp_path / "t"
    _tour(out, records=True)
    (out / "records" / "notes.txt").write_text("mine")
    (out / "games" / "keep.parquet").write_text("mine too")
    (out / "README.txt").write_text("about this run")
    _tour(out, fresh=True)  # no records this time: records/ keeps only the user's file
    assert (out / "records" / "notes.txt").read_text() == "mine"
    assert (out / "games" / "keep.parquet").read_text() == "mine too"
    assert (out / "README.txt").read_text() == "about this run"
    assert sorted(p.name for p in (out / "records").iterdir()) == ["notes.txt"]
    assert not (out / "records.jsonl").exists()


def test_the_manifest_records_rows_and_checksums_of_every_chunk_file(tmp_path) -> None:
    import hashlib
    import json

    import pandas as pd

    out = tmp_path / "t"
    _tour(out)
    manifest = json.loads((out / "manifest.json").read_text())
    assert sorted(manifest["chunk_files"]) == sorted(c["id"] for c in manifest["chunks"])
    for chunk_id, files in manifest["chunk_files"].items():
        assert set(files) == {"games", "tallies", "hands"}
        for kind, facts in files.items():
            path = out / kind / f"{chunk_id}.parquet"
            assert facts["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
            assert facts["rows"] == len(pd.read_parquet(path)) and facts["bytes"] == path.stat().st_size


@pytest.mark.parametrize("damage", ["truncate", "flip", "delete_hands"])
def test_a_damaged_chunk_is_played_again_on_resume(tmp_path, damage) -> None:
    import json

    out = tmp_path / "t"
    first = _tour(out, records=True)
    expected = (first.summary.copy(), (out / "records.jsonl").read_bytes())
    manifest = json.loads((out / "manifest.json").read_text())
    victim = manifest["chunks"][3]["id"]
    games = out / "games" / f"{victim}.parquet"
    if damage == "truncate":
        games.write_bytes(games.read_bytes()[:200])
    elif damage == "flip":
        data = bytearray(games.read_bytes())
        data[len(data) // 2] ^= 0xFF
        games.write_bytes(bytes(data))
    else:
        (out / "hands" / f"{victim}.parquet").unlink()
    again = _tour(out, records=True)
    assert again.chunks_run == 1  # only the damaged chunk
    pd_testing = pytest.importorskip("pandas.testing")
    pd_testing.assert_frame_equal(again.summary, expected[0])
    assert (out / "records.jsonl").read_bytes() == expected[1]


@pytest.mark.parametrize("content", ["{not json", "[1, 2]"])
def test_a_corrupt_manifest_is_named(tmp_path, content, capsys) -> None:
    out = tmp_path / "t"
    _tour(out)
    (out / "manifest.json").write_text(content)
    code = main(["tournament", "--entrant", "random", "--entrant", "counting+tips", "--games", "8", "--seed", "5",
                 "--out", str(out), "--quiet"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "manifest.json" in err and "Traceback" not in err


# --------------------------------------------------------------------------- command line errors and exit codes


def _cli(*args: str, **kw):
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    return subprocess.run([sys.executable, "-m", "spades_lab.cli", *args], env=env, capture_output=True, text=True,
                          timeout=300, **kw)  # fmt: skip


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--games", "2", "--seed", "1", "--batch-size", "0"], "--batch-size: "),
        (["simulate", "--games", "0", "--seed", "1"], "--games: "),
        (["simulate", "--hands", "-3", "--seed", "1"], "--hands: "),
        (["tournament", "--entrant", "random", "--entrant", "counting+tips", "--games", "2", "--seed", "1",
          "--out", "x", "--chunk-games", "0"], "--chunk-games: "),
    ],
)  # fmt: skip
def test_bad_numbers_are_usage_errors(capsys, args, message) -> None:
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2 and message in capsys.readouterr().err


def test_library_counts_are_checked_too() -> None:
    from spades_lab.engine import simulate_hands

    with pytest.raises(ValueError, match="batch_size = 0"):
        next(simulate_games(Rules(), make_players(["random"]), 5, seed=1, batch_size=0))
    with pytest.raises(ValueError, match="0 or more"):
        next(simulate_hands(Rules(), make_players(["random"]), -1, seed=1))


def test_input_errors_exit_2_with_one_line_naming_the_file(tmp_path, capsys) -> None:
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    a_file = tmp_path / "taken"
    a_file.write_text("x")
    cases = [
        (["simulate", "--games", "1", "--seed", "1", "--rules", str(folder)], "is a directory"),
        (["simulate", "--games", "1", "--seed", "1", "--rules", str(broken)], "broken.json"),
        (["decide", "--player", "random", "--position", str(tmp_path)], "is a directory"),
        (["decide", "--player", "random", "--position", str(broken)], "broken.json is not valid JSON"),
        (["decide", "--player", "random", "--position", str(tmp_path / "none.json")], "does not exist"),
        (["tournament", "--entrant", "random", "--entrant", "counting+tips", "--games", "2", "--seed", "1",
          "--out", str(a_file), "--quiet"], "is a file"),
        (["plot", str(tmp_path / "nothing-here")], "nothing-here"),
        (["simulate", "--games", "1", "--seed", "1", "--player", "nobody"], "nobody"),
        (["simulate", "--games", "1", "--seed", "1", "--player", "counting(margin=-30)+tips"],
         "counting bid: margin must be 0..1000, got -30"),
        (["simulate", "--games", "1", "--seed", "1", "--rules", "no-such-preset"], "no-such-preset"),
    ]  # fmt: skip
    for args, message in cases:
        assert main(args) == 2, args
        err = capsys.readouterr().err
        assert err.startswith("spades-lab: error:") and message in err and err.count("\n") == 1, (args, err)


def test_a_full_disk_is_a_runtime_error_and_leaves_no_half_file(tmp_path, capsys, monkeypatch) -> None:
    import errno

    from spades_lab.engine import records

    def full(self, text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(self.tmp))

    monkeypatch.setattr(records.AtomicFile, "write", full)
    assert main(["simulate", "--games", "3", "--seed", "1", "--records", str(tmp_path / "g.jsonl")]) == 1
    err = capsys.readouterr().err
    assert "No space left on device" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_an_unexpected_error_is_one_line_and_exit_1(capsys, monkeypatch) -> None:
    import spades_lab.cli as cli

    def broken(args):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(cli, "_policies", broken)
    monkeypatch.delenv("SPADES_LAB_TRACEBACK", raising=False)
    parser = cli.build_parser()
    args = parser.parse_args(["policies"])
    args.func = broken
    assert cli._run_command(args) == 1
    err = capsys.readouterr().err
    assert "internal error: ZeroDivisionError: boom" in err and "Traceback" not in err


def test_a_closed_pipe_ends_quietly() -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    # `spades-lab simulate ... | head -1`: the reader is gone before the summary is written.
    args = ["simulate", "--hands", "200", "--seed", "1"]
    proc = subprocess.Popen([sys.executable, "-m", "spades_lab.cli", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)  # fmt: skip
    proc.stdout.close()
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=120)
    assert err == "" and code == 141


def test_ctrl_c_exits_130(tmp_path) -> None:
    """Ctrl-C in the middle of writing records: exit 130, one line, and no half file left behind.

    Waits on conditions, not on a clock, so load cannot make it flaky: the signal goes once the
    records file holds lines (so the run is past its set-up and inside the play loop), and SIGINT is
    restored to its default in the child, since a suite started in the background (`cmd &` in a
    script) hands its children SIGINT ignored, and Python then never raises KeyboardInterrupt.
    Independent hands, because each ends at once and reaches the file at once (games wait for the
    lowest unfinished game, which a random player can keep going for a long time).
    """
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    records = tmp_path / "g.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "spades_lab.cli", "simulate", "--hands", "100000000", "--seed", "1",
                             "--batch-size", "1", "--records", str(records)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # fmt: skip

    def writing() -> bool:  # the temporary records file (beside the target) has lines in it
        return any(p.stat().st_size > 0 for p in tmp_path.iterdir())

    try:
        deadline = time.monotonic() + 600  # a generous bound for a loaded machine; idle, it takes 2 s
        while not writing() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None and writing(), f"the run never started writing records: {proc.poll()=}"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:  # never leave the child running, whatever failed above
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # the half-written records were removed, nothing was put in place


def test_record_stream_memory_is_bounded_when_every_game_runs_long(tmp_path) -> None:
    """Random players' games all go to max_hands: the stream writes past its buffer instead of holding them."""
    from spades_lab.engine.records import RecordStream, read_records

    stream = RecordStream(tmp_path / "r.jsonl", Rules(), buffer=50)
    most = 0
    with pytest.warns(MaxHandsWarning):
        for log in simulate_games(Rules(), make_players(["random"]), 20, seed=11, max_hands=12):
            stream.add(log)
            most = max(most, stream.held)
    total = stream.close()
    assert total == 20 * 12 and most <= 50 + 20 and not stream.sorted
    records = list(read_records(tmp_path / "r.jsonl"))
    assert len(records) == total
    by_game: dict[int, list[int]] = {}
    for r in records:
        by_game.setdefault(r["game"], []).append(r["hand"])
    assert all(hands == list(range(12)) for hands in by_game.values())  # each game's hands still in order


# --------------------------------------------------------------------------- policy parameters


def _ranged_parameters() -> list[tuple[str, str, dict]]:
    from spades_lab.players.catalogue import catalogue

    return [(role, entry["name"], param) for role, entries in catalogue().items() for entry in entries
            for param in entry["params"] if param["type"] in ("int", "float", "str")]  # fmt: skip


def _player_name(role: str, policy: str, setting: str) -> str:
    """The player a user would type to set one parameter of one policy."""
    part = f"{policy}({setting})"
    return {"bid": f"{part}+tips", "play": f"counting+{part}", "draft": f"counting+tips+draft={part}"}[role]


@pytest.mark.parametrize(("role", "policy", "param"), _ranged_parameters(),
                         ids=lambda x: x["name"] if isinstance(x, dict) else x)  # fmt: skip
def test_every_policy_number_has_a_range_whose_edges_are_kept_and_outside_refused(role, policy, param) -> None:
    """A number just outside its range (or NaN) is refused naming the policy and the field, when the player is
    built; both edges and the default are accepted. A new number without a range fails here."""
    from spades_lab.policies import make_player

    name = param["name"]
    if param["choices"] is not None:  # a rank, or one of a few words
        for allowed in param["choices"]:
            make_player(_player_name(role, policy, f"{name}={allowed}"))
        listed = ", ".join(map(str, param["choices"][:2]))
        with pytest.raises(ValueError, match=rf"^{policy} {role}: {name} must be one of {listed}.*, got 'Z'$"):
            make_player(_player_name(role, policy, f"{name}=Z"))
        return
    if param["type"] == "str":  # a file or a name, checked where it is read (lead_weights, tests/test_leads.py)
        return
    assert param["range"] is not None, f"{policy} {role}: {name} has no range"
    low, high = param["range"]
    assert low <= param["default"] <= high
    step = 1 if param["type"] == "int" else 0.5
    for edge in (low, high):
        make_player(_player_name(role, policy, f"{name}={edge}"))
    for bad in (low - step, high + step, *(["nan"] if param["type"] == "float" else [])):
        with pytest.raises(ValueError, match=rf"^{policy} {role}: {name} must be -?[\d,.]+\.\.[\d,.]+, got "):
            make_player(_player_name(role, policy, f"{name}={bad}"))


def test_a_users_own_params_class_is_read_and_checked_like_the_shipped_ones(scratch_registry) -> None:
    """A researcher's params class written without `from __future__ import annotations` (its field types are
    classes, not strings): `extra=2` arrives as an int, a value outside RANGES or a word outside CHOICES is
    refused naming the policy, a non-number in a ranged field too, and `policies --json` shows the types."""
    from dataclasses import field, make_dataclass

    from spades_lab.players.catalogue import catalogue
    from spades_lab.policies import CheckedParams, from_functions, make_player, registry

    params = make_dataclass(
        "ShiftParams", [("extra", int, field(default=0)), ("style", str, field(default="low"))],
        bases=(CheckedParams,), frozen=True,
        namespace={"POLICY": "shift bid", "RANGES": (("extra", 0, 4),), "CHOICES": (("style", ("low", "high")),)},
    )  # fmt: skip
    registry.register("bid", "shift", params)(lambda p: from_functions(bid=lambda t: 1 + p.extra, name="shift"))
    _, built = registry.resolve_part("shift(extra=2, style=high)", "bid")
    assert type(built.extra) is int and built.extra == 2 and built.style == "high"
    make_player("shift(extra=4)+tips")
    with pytest.raises(ValueError, match=r"^shift bid: extra must be 0\.\.4, got 5$"):
        make_player("shift(extra=5)+tips")
    with pytest.raises(ValueError, match=r"^shift bid: style must be one of low, high, got 'mid'$"):
        make_player("shift(style=mid)+tips")
    with pytest.raises(ValueError, match=r"^bid policy 'shift': parameter extra needs an int, got 'x'$"):
        make_player("shift(extra=x)+tips")
    with pytest.raises(ValueError, match=r"^shift bid: extra must be 0\.\.4, got '2'$"):
        params(extra="2")  # built in code with a string: refused, not a TypeError mid-run
    listed = next(e for e in catalogue()["bid"] if e["name"] == "shift")["params"]
    assert [(p["name"], p["type"], p["range"], p["choices"]) for p in listed] == [
        ("extra", "int", [0, 4], None), ("style", "str", None, ["low", "high"])
    ]  # fmt: skip
