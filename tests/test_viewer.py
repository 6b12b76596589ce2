"""The hand viewer: text, Jupyter HTML, the tournament replay, and the replay page in headless Chromium."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

import spades_lab as sl
from spades_lab.cli import main
from spades_lab.engine.records import hand_records, read_records
from spades_lab.tournament import tournament
from spades_lab.viewer import Hand, HandNotFound, HandRecord, read_hand, show, tournament_hand


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("viewer") / "hands.jsonl"
    assert main(["simulate", "--games", "4", "--seed", "5", "--player", "counting+tips", "--player", "random",
                 "--hand-cap", "12", "--records", str(path)]) == 0  # fmt: skip
    return path


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("viewer-run") / "run"
    tournament(["counting+tips", "optimist+tips"], sl.Rules(hand_cap=15), games=6, seed=11, out=out, chunk_games=2,
               records=True)  # fmt: skip
    return out


def test_text_has_deal_bids_tricks_and_score(records: Path) -> None:
    record = read_hand(records, 2, 1)
    text = show(record)
    hand = Hand.of(record)
    for seat in range(4):
        for card in record["deal"][seat]:
            block = hand.deck.suit(card)
            assert Hand.short(card, block) in text
    lines = text.splitlines()
    assert lines[0].startswith("game 2, hand 1")
    suit_rows = [line for line in lines if line and line[0] in "\u2660\u2665\u2666\u2663"]
    assert len(suit_rows) == 4
    trick_rows = [line for line in lines if line.split()[:1] and line.split()[0].isdigit()]
    assert [int(r.split()[0]) for r in trick_rows] == list(range(1, 14))
    # the running count of the last trick is the record's tricks per seat
    assert trick_rows[-1].split()[-4:] == [str(t) for t in record["tricks"]]
    for side in (0, 1):
        assert f"score {record['score_before'][side]} -> {record['score_after'][side]}" in text
        assert f"hand {record['hand_score'][side]:+d}" in text
    assert str(record) == text


def test_a_ten_is_written_as_in_the_trick_table(records: Path) -> None:
    """The deal's rows use the card labels' notation of the trick table (`TS`): a ten is `T`, never `10`."""
    for game, hand in ((2, 1), (3, 0)):
        text = show(read_hand(records, game, hand))
        rows = [line[11:] for line in text.splitlines() if line[:1] in "\u2660\u2665\u2666\u2663"]
        tokens = " ".join(rows).split()
        assert "10" not in tokens and tokens.count("T") == 4, rows  # the four tens of the deck, one per suit row
        assert re.search(r"\bT[SHDC]\*?(\s|$)", text, flags=re.M), "the trick table writes a ten as TS, TH, TD, TC"


def test_trick_winners_match_the_engine(records: Path) -> None:
    for record in read_records(records):
        hand = Hand.of(record)
        hand.check()
        tricks = hand.tricks()
        # each winner leads the next trick
        assert [t.leader for t in tricks[1:]] == [t.winner for t in tricks[:-1]]


def test_check_catches_a_wrong_record(records: Path) -> None:
    record = dict(read_hand(records, 0, 0))
    record["tricks"] = record["tricks"][::-1] if record["tricks"] != record["tricks"][::-1] else [13, 0, 0, 0]
    with pytest.raises(ValueError, match="record says"):
        Hand.of(record).check()


def test_html_table_for_jupyter(records: Path) -> None:
    record = read_hand(records, 1, 0)
    html = record._repr_html_()
    assert html.count("<tr>") >= 4 + 1 + 13
    for _, card in record["plays"]:
        assert card in html


def test_missing_hand_is_named(records: Path) -> None:
    with pytest.raises(HandNotFound, match="game 99, hand 0"):
        read_hand(records, 99, 0)


def test_cli_show(records: Path, capsys) -> None:
    assert main(["show", str(records), "--game", "3", "--hand", "0"]) == 0
    out = capsys.readouterr().out
    assert out == show(read_hand(records, 3, 0))
    assert main(["show", str(records), "--game", "3", "--hand", "77"]) == 2
    assert "no record of game 3, hand 77" in capsys.readouterr().err


def test_tournament_replay_equals_recorded_hand(run_dir: Path) -> None:
    stored = [r for r in read_records(run_dir / "records.jsonl")]
    checked = 0
    for r in stored:
        if r["hand"] in (0, 2):
            replayed = tournament_hand(run_dir, r["pairing"], r["seating"], r["game"], r["hand"])
            assert dict(replayed) == r
            checked += 1
    assert checked >= 6


def test_tournament_replay_detects_a_changed_run(run_dir: Path, tmp_path: Path) -> None:
    import pandas as pd

    copy = tmp_path / "run"
    shutil.copytree(run_dir, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    chunk = next(c for c in manifest["chunks"] if c["pairing"] == 0 and c["seating"] == 0)
    path = copy / "hands" / f"{chunk['id']}.parquet"
    hands = pd.read_parquet(path)
    hands.loc[(hands["game"] == chunk["games"][0]) & (hands["hand"] == 0), "bid0"] = 13
    hands.to_parquet(path, index=False)
    with pytest.raises(ValueError, match="a policy has changed"):
        tournament_hand(copy, 0, 0, chunk["games"][0], 0)


def test_tournament_replay_errors(run_dir: Path, capsys) -> None:
    with pytest.raises(HandNotFound, match="games 3..5"):
        tournament_hand(run_dir, 0, 1, 0, 0)
    with pytest.raises(HandNotFound, match="there is no hand 500"):
        tournament_hand(run_dir, 0, 0, 0, 500)
    assert main(["show", str(run_dir), "--game", "0"]) == 2
    assert "--pairing and --seating" in capsys.readouterr().err
    assert main(["show", str(run_dir), "--pairing", "0", "--seating", "1", "--game", "4", "--hand", "1"]) == 0
    assert "pairing 0, seating 1" in capsys.readouterr().out


def test_duel_hand_shows(tmp_path: Path) -> None:
    rules = sl.preset("duel")
    players = sl.make_players(["random"], seats=2)
    log = next(sl.simulate_hands(rules, players, 3, seed=2))
    record = HandRecord(next(hand_records(log.sorted(), rules)))
    Hand.of(record).check()
    text = show(record)
    assert "hands after the draft" in text and "seat 1" in text and "seat 2" not in text
    assert (
        "seat 0" in record.html()
        and json.loads(record.html().split('id="hand-data">')[1].split("</script>")[0].replace("<\\/", "</"))["players"]
        == 2
    )


# -- the replay page in a real browser --------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1100,800"]  # fmt: skip


def _chromium(args: list[str], profile: Path) -> str:
    run = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True, text=True,
                         timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


@pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (CI installs it: apt-get install chromium)"
)
def test_replay_page_in_chromium(records: Path, tmp_path: Path) -> None:
    from matplotlib.image import imread

    record = read_hand(records, 1, 1)
    page = tmp_path / "hand.html"
    assert main(["show", str(records), "--game", "1", "--hand", "1", "--html", str(page)]) == 0
    url = page.resolve().as_uri()
    profile = Path(tempfile.mkdtemp(dir=tmp_path))

    def dom(fragment: str) -> str:
        return _chromium(["--dump-dom", f"{url}#{fragment}"], profile)

    start = dom("")
    assert start.count('class="seat') == 4
    assert start.count('data-cards-left="13"') == 4, "the four hands render with 13 cards each"
    for seat in range(4):
        for card in record["hands"][seat]:
            assert f'data-card="{card}"' in start
    end = dom("keys=ArrowRight*13")
    assert 'data-step="13"' in end and "trick 13 of 13" in end
    assert end.count('data-cards-left="0"') == 4
    last = Hand.of(record).tricks()[-1]
    assert f"seat {last.winner} wins" in end
    assert 'data-step="12"' in dom("keys=End,ArrowLeft")
    assert 'data-step="0"' in dom("keys=ArrowRight*5,Home")
    assert 'data-step="13"' in dom("keys=ArrowRight*20")  # never past the last trick
    seat_view = dom("seat=1")  # as seat 1 sees the table: its own cards, the others face down
    assert 'data-viewer="1"' in seat_view and seat_view.count('data-cards-left="13"') == 4
    assert all(f'data-card="{card}"' in seat_view for card in record["hands"][1])
    assert not any(f'data-card="{card}"' in seat_view for seat in (0, 2, 3) for card in record["hands"][seat])
    shown = re.sub(r"<script.*?</script>", "", seat_view, flags=re.S)
    assert shown.count('class="c back"') == 3 * 13

    shots = []
    for fragment in ("", "keys=ArrowRight*13"):
        shot = tmp_path / f"shot{len(shots)}.png"
        _chromium([f"--screenshot={shot}", f"{url}#{fragment}"], profile)
        image = imread(shot)
        assert image.shape[0] >= 600 and image.shape[1] >= 1000
        shots.append(image[..., :3])
    # the page draws something (cards, the green trick area) and stepping changes what it draws
    assert (np.abs(shots[0] - shots[0][0, 0]).sum(axis=2) > 0.1).mean() > 0.05
    green = (shots[1][..., 1] > shots[1][..., 0] + 0.15) & (shots[1][..., 1] > shots[1][..., 2] + 0.1)
    assert green.mean() > 0.01
    assert np.abs(shots[0] - shots[1]).sum() > 0
