"""Tidy tables: seat_hands, side_hands, plays, HandLog.to_pandas and the result's short repr."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import spades_lab as sl
from spades_lab.cards import STANDARD_DECK
from spades_lab.tournament import TournamentError, TournamentResult, tournament


@pytest.fixture(scope="module")
def result(tmp_path_factory) -> TournamentResult:
    out = tmp_path_factory.mktemp("tidy") / "run"
    return tournament(["counting+tips", "optimist+tips", "random"], sl.Rules(hand_cap=12), games=4, seed=3, out=out,
                      chunk_games=2, records=True)  # fmt: skip


def test_seat_hands(result: TournamentResult) -> None:
    seats = result.seat_hands()
    hands = result.hands
    assert len(seats) == 4 * len(hands)
    first = [c for c in ["pairing", "seating", "game", "hand", "seat", "side", "entrant", "opponent"]]
    assert list(seats.columns[:8]) == first
    for column in ("cards", "bid", "nil", "tricks", "error", "set", "bags_won", "hand_score"):
        assert column in seats.columns
    assert not any(seats[c].dtype == np.uint64 for c in seats.columns)
    row = hands.iloc[5]
    mine = seats[(seats["pairing"] == row["pairing"]) & (seats["seating"] == row["seating"])
                 & (seats["game"] == row["game"]) & (seats["hand"] == row["hand"])]  # fmt: skip
    for seat in range(4):
        r = mine[mine["seat"] == seat].iloc[0]
        assert STANDARD_DECK.mask(r["cards"]) == int(row[f"deal{seat}"])
        assert len(r["cards"].split()) == 13
        assert r["bid"] == row[f"bid{seat}"] and r["tricks"] == row[f"tricks{seat}"]
        assert r["hand_score"] == row[f"hand_score{seat % 2}"]
    assert (seats.groupby(["pairing", "seating", "game", "hand"])["tricks"].sum() == 13).all()


def test_side_hands_add_up_to_the_summary(result: TournamentResult) -> None:
    sides = result.side_hands()
    assert len(sides) == 2 * len(result.hands)
    by = sides.groupby("entrant", observed=True)
    summary = result.summary.set_index("entrant")
    for name, group in by:
        assert group["set"].mean() == pytest.approx(summary.loc[name, "set_rate"])
        assert group["hand_score"].mean() == pytest.approx(summary.loc[name, "points_per_hand"])
    assert (sides["score_after"] == sides["score_before"] + sides["hand_score"]).all()
    assert (sides.groupby(["pairing", "seating", "game", "hand"])["tricks"].sum() == 13).all()


def test_plays_table(result: TournamentResult) -> None:
    plays = result.plays()
    assert len(plays) == 52 * len(result.hands)
    per_hand = plays.groupby(["pairing", "seating", "game", "hand"])
    assert (per_hand["wins"].sum() == 13).all()
    assert (per_hand["card"].nunique() == 52).all()
    won = plays[plays["wins"]].groupby(["pairing", "seating", "game", "hand", "seat"]).size()
    seats = result.seat_hands().set_index(["pairing", "seating", "game", "hand", "seat"])["tricks"]
    assert (won.reindex(seats.index, fill_value=0) == seats).all()
    assert set(plays["led_suit"]) <= set("CDHS")
    assert (plays.loc[plays["wins"], "seat"].to_numpy() == plays.loc[plays["wins"], "winner"].to_numpy()).all()


def test_plays_needs_records(tmp_path: Path) -> None:
    run = tournament(["random", "counting+tips"], sl.Rules(hand_cap=3), games=2, seed=1, out=tmp_path / "r")
    with pytest.raises(TournamentError, match="--records"):
        run.plays()


def test_handlog_to_pandas() -> None:
    rules = sl.Rules(hand_cap=5)
    log = next(sl.simulate_games(rules, sl.make_players(["random"]), 3, seed=4))
    frame = log.to_pandas(rules)
    assert len(frame) == len(log)
    assert not any(frame[c].dtype == np.uint64 for c in frame.columns)
    for seat in range(4):
        assert [STANDARD_DECK.mask(c) for c in frame[f"deal{seat}"]] == [int(m) for m in log.deal[:, seat]]
        assert (frame[f"bid{seat}"].to_numpy() == log.bids[:, seat]).all()
    assert (frame["score_after1"].to_numpy() == log.score_after[:, 1]).all()
    jokers = sl.preset("jokers")
    jlog = next(sl.simulate_hands(jokers, sl.make_players(["random"]), 4, seed=1))
    labels = " ".join(jlog.to_pandas(jokers)[[f"deal{s}" for s in range(4)]].to_numpy().ravel())
    assert "BJ" in labels and "2H" not in labels


def test_short_repr(result: TournamentResult) -> None:
    text = repr(result)
    assert text.startswith("TournamentResult(3 entrants: counting+tips, optimist+tips, random;")
    assert "manifest" not in text and "chunks" not in text
    assert len(text.splitlines()) == 1 + 1 + 3
    html = result._repr_html_()
    assert "<table" in html and "optimist+tips" in html and ".seat_hands()" in html
