"""Hands judged against double-dummy truth (`--dd` / `dd=True`): columns, arithmetic, reproducibility, plot, CLI.

A full 4-player solve takes seconds (and some deals a minute or more), so the 4-player runs here are a
few hands of seeds measured to solve in about a second each; Duel deals (two hands) solve in
milliseconds, so the reproducibility checks run on Duel. Every DD value checked is recomputed here
with `dd.solve` on the recorded cards and first leader, independently of the code under test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

import spades_lab as sl
from spades_lab import dd
from spades_lab.cards import deck_for
from spades_lab.cli import main
from spades_lab.plots import DDRequired, dd_bid_error, write_all
from spades_lab.plots.data import dd_error_shares
from spades_lab.stats.tables import rates
from spades_lab.stats.tally import DD_SUMS, dd_measures
from spades_lab.tournament import TournamentResult, tournament

DOCS = Path(__file__).resolve().parents[1] / "docs"
FAST_SEED = 2
"""Its first game ids solve in about a second each in the standard, jokers and two-of-clubs decks."""


def solved_from_records(result: TournamentResult) -> pd.DataFrame:
    """Each recorded hand solved again here: its cards at the first lead and the seat that led the first trick."""
    rules = sl.Rules.from_dict(result.manifest["config"]["rules"])
    deck = deck_for(rules.deck)
    solver = dd.Solver(rules)
    rows = []
    for line in (result.out / "records.jsonl").read_text().splitlines():
        record = json.loads(line)
        hands = [[deck.cards[deck.card_id(c)] for c in hand] for hand in record["hands"]]
        leader = record["plays"][0][0]
        side0, side1 = dd.solve(hands, leader, broken=not rules.spades_break, solver=solver)[0]
        rows.append({"pairing": record["pairing"], "seating": record["seating"], "game": record["game"],
                     "hand": record["hand"], "dd0": int(side0), "dd1": int(side1)})  # fmt: skip
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def four(tmp_path_factory) -> TournamentResult:
    """Three hands of standard Spades, solved (counting+tips against counting+expert)."""
    out = tmp_path_factory.mktemp("dd") / "four"
    return tournament(["counting+tips", "counting+expert"], "standard", hands=3, seed=FAST_SEED, out=out,
                      records=True, dd=True, progress=False)  # fmt: skip


@pytest.fixture(scope="module")
def duel(tmp_path_factory) -> TournamentResult:
    out = tmp_path_factory.mktemp("dd") / "duel"
    return tournament(["counting+tips", "random"], "duel", games=4, seed=5, out=out, records=True, dd=True,
                      chunk_games=2, progress=False)  # fmt: skip


def test_hand_rows_hold_the_dd_tricks_of_the_recorded_deal(four: TournamentResult) -> None:
    hands = four.hands
    again = solved_from_records(four)
    merged = hands.merge(again, on=["pairing", "seating", "game", "hand"], validate="one_to_one")
    assert len(merged) == len(hands) == 3
    assert (merged["dd_tricks0"] == merged["dd0"]).all() and (merged["dd_tricks1"] == merged["dd1"]).all()
    assert ((hands["dd_tricks0"] + hands["dd_tricks1"]) == 13).all()


def test_side_hands_and_summary_follow_from_the_hand_rows(four: TournamentResult) -> None:
    sides = four.side_hands()
    expected_err = np.where(sides["has_contract"], sides["contract"] - sides["dd_tricks"], np.nan)
    np.testing.assert_array_equal(sides["dd_bid_error"].to_numpy(), expected_err)
    np.testing.assert_array_equal(sides["dd_tricks_lost"], sides["dd_tricks"] - sides["tricks"])
    for name, mine in sides.groupby("entrant", observed=True):
        row = four.summary.set_index("entrant").loc[name]
        assert row["dd_hands"] == len(mine)
        assert row["dd_tricks"] == pytest.approx(mine["dd_tricks"].mean())
        assert row["dd_bid_error"] == pytest.approx(mine["dd_bid_error"].mean())
        assert row["dd_tricks_lost"] == pytest.approx(mine["dd_tricks_lost"].mean())
        half = 1.959963984540054 * mine["dd_tricks_lost"].std(ddof=1) / np.sqrt(len(mine))
        assert row["dd_tricks_lost_hi"] - row["dd_tricks_lost"] == pytest.approx(half)
    # the two sides of a hand: what one side lost the other gained
    assert sides.groupby(["pairing", "seating", "game", "hand"])["dd_tricks_lost"].sum().eq(0).all()


def test_dd_arithmetic_on_hand_made_rows() -> None:
    """Two hands worked out by hand: one with a nil bidder beside a partner, one where side 0 bid double nil."""
    log = SimpleNamespace(
        bids=np.array([[3, 4, 0, 2], [0, 3, 0, 3]]),
        tricks=np.array([[2, 5, 1, 5], [1, 6, 0, 6]]),
        bags_before=np.zeros((2, 2), dtype=np.int64),
        blind=np.zeros((2, 4), dtype=bool),
        dd_tricks=np.array([[5, 8], [2, 11]]),
    )
    m = dd_measures(log, sl.Rules())  # type: ignore[arg-type]
    assert m["dd_tricks_lost"].tolist() == [[5 - 3, 8 - 10], [2 - 1, 11 - 12]]
    assert m["dd_bids"].tolist() == [[1, 1], [0, 1]]  # a double nil side has no contract
    assert m["dd_bid_err"].tolist() == [[3 - 5, 6 - 8], [0, 6 - 11]]
    assert m["dd_bid_abs"].tolist() == [[2, 2], [0, 5]]
    assert m["dd_bid_err_sq"].tolist() == [[4, 4], [0, 25]]
    # the summary's means and intervals from such sums
    totals = pd.DataFrame({"entrant": ["a"], **{k: [0] for k in ("games", "finished", "wins", "unfinished",
                           "hands", "points", "sets", "contracts", "nil_bids", "nils_made", "blind_nils",
                           "blind_nils_made", "bags_won", "bag_penalties", "seat_bids", "seat_bid_err",
                           "seat_bid_abs", "seat_bid_exact", "team_bids", "team_bid_err", "team_bid_abs",
                           "team_bid_exact", "table_bid_total")}})  # fmt: skip
    side0 = {k: [int(m[k][:, 0].sum())] for k in DD_SUMS}
    out = rates(totals.assign(**side0))
    assert out["dd_tricks_lost"].iloc[0] == pytest.approx(1.5)  # (2 + 1) / 2 hands
    assert out["dd_bid_error"].iloc[0] == pytest.approx(-2.0)  # one contract
    assert np.isnan(out["dd_bid_error_lo"].iloc[0])  # one observation: no interval
    assert out["dd_tricks_lost_lo"].iloc[0] == pytest.approx(1.5 - 1.959963984540054 * np.sqrt(0.5) / np.sqrt(2))
    assert "dd_bid_error" not in rates(totals.assign(**{k: [0] for k in DD_SUMS})).columns


def test_a_log_without_dd_is_refused_by_the_dd_measures() -> None:
    log = SimpleNamespace(dd_tricks=None)
    with pytest.raises(ValueError, match="dd=True"):
        dd_measures(log, sl.Rules())  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", ["jokers", "two-of-clubs"])
def test_simulate_dd_in_other_decks_and_first_trick_rules(preset: str) -> None:
    rules = sl.preset(preset)
    players = sl.make_players(["counting+tips"], seats=4)
    (log,) = list(sl.simulate(rules, players, hands=2, seed=FAST_SEED, dd=True))
    deck = deck_for(rules.deck)
    for i in range(len(log)):
        labels = [deck.labels(int(m)) for m in log.held[i]]
        leader = int(log.play_seats[i, 0])
        if preset == "two-of-clubs":
            assert "2C" in labels[leader]
        assert dd.solve(labels, leader, rules=rules)[0].tolist() == log.dd_tricks[i].tolist()
    frame = log.to_pandas(rules)
    assert frame[["dd_tricks0", "dd_tricks1"]].to_numpy().tolist() == log.dd_tricks.tolist()


def test_the_solve_starts_after_the_exchange() -> None:
    """Under a nil exchange the cards at the first lead differ from the deal; the DD tricks are those of the former."""
    rules = sl.Rules(nil_exchange=2)
    players = sl.make_players(["counting+tips"], seats=4)
    log = sl.HandLog.concat(list(sl.simulate(rules, players, hands=60, seed=FAST_SEED)))
    changed = np.flatnonzero((log.deal != log.held).any(axis=1))
    assert len(changed), "no nil exchange in 60 hands: pick another seed"
    one = log.take(changed[:1])
    held, leader, broken = one.play_start(rules)
    assert (held == one.held).all() and not broken.any()
    (solved,) = list(dd.with_dd([one], rules))
    assert solved.dd_tricks.tolist() == dd.solve(one.held, leader, rules=rules).tolist()


def test_spades_break_off_solves_with_spades_open() -> None:
    rules = sl.Rules(spades_break=False)
    (log,) = list(sl.simulate(rules, sl.make_players(["counting+tips"], seats=4), hands=1, seed=FAST_SEED, dd=True))
    held, leader, broken = log.play_start(rules)
    assert broken.all() and not sl.HandLog.play_start(log, sl.Rules())[2].any()
    assert log.dd_tricks.tolist() == dd.solve(held, leader, rules=rules, broken=True).tolist()


def test_duel_dd_columns_match_the_records(duel: TournamentResult) -> None:
    merged = duel.hands.merge(solved_from_records(duel), on=["pairing", "seating", "game", "hand"])
    assert len(merged) == len(duel.hands) > 4
    assert (merged["dd_tricks0"] == merged["dd0"]).all() and (merged["dd_tricks1"] == merged["dd1"]).all()


def test_same_dd_results_whatever_the_batch_chunks_workers_or_resume(duel: TournamentResult, tmp_path) -> None:
    other = tournament(["counting+tips", "random"], "duel", games=4, seed=5, out=tmp_path / "b", dd=True,
                       chunk_games=4, batch_size=1, workers=2, progress=False)  # fmt: skip
    pd.testing.assert_frame_equal(duel.summary, other.summary)
    pd.testing.assert_frame_equal(duel.matchups, other.matchups)
    keys = ["pairing", "seating", "game", "hand"]
    left = duel.hands.sort_values(keys, ignore_index=True)
    right = other.hands.sort_values(keys, ignore_index=True)
    pd.testing.assert_frame_equal(left, right)
    # grown from a smaller run: only the new chunks are played, the tables come out the same
    tournament(["counting+tips", "random"], "duel", games=2, seed=5, out=tmp_path / "c", dd=True, chunk_games=2,
               progress=False)  # fmt: skip
    grown = tournament(["counting+tips", "random"], "duel", games=4, seed=5, out=tmp_path / "c", dd=True,
                       chunk_games=2, progress=False)  # fmt: skip
    pd.testing.assert_frame_equal(duel.summary, grown.summary)
    # the option is part of the configuration: a run without it is a different tournament
    with pytest.raises(Exception, match="different tournament"):
        tournament(["counting+tips", "random"], "duel", games=4, seed=5, out=tmp_path / "c", chunk_games=2,
                   progress=False)  # fmt: skip


def test_a_run_without_dd_has_no_dd_columns(tmp_path) -> None:
    plain = tournament(["counting+tips", "random"], "duel", games=2, seed=5, out=tmp_path, progress=False)
    assert not [c for c in plain.summary.columns if c.startswith("dd_")]
    assert not [c for c in plain.hands.columns if c.startswith("dd_")]
    assert "dd" not in plain.manifest["config"]
    with pytest.raises(DDRequired, match="dd=True"):
        dd_bid_error(plain)
    report = write_all(plain, tmp_path / "plots")
    assert "dd_bid_error" not in [p.stem for p in report.written]


def test_the_plot_draws_both_distributions(duel: TournamentResult, tmp_path) -> None:
    fig = dd_bid_error(duel)
    assert isinstance(fig, Figure)
    bid_ax, lost_ax = fig.axes[:2]
    assert "DD bid error" in bid_ax.get_title() and "DD tricks lost" in lost_ax.get_title()
    shares = dd_error_shares(duel)
    summary = duel.summary.set_index("entrant")
    for ax, measure in ((bid_ax, "dd_bid_error"), (lost_ax, "dd_tricks_lost")):
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert len(labels) == 2
        for line, label in zip(ax.get_lines(), labels):
            name = label.split(" (")[0]
            assert f"mean {summary.loc[name, measure]:+.2f}" in label
            mine = shares[(shares["measure"] == measure) & (shares["entrant"] == name)]
            np.testing.assert_array_equal(line.get_xdata(), mine["value"].to_numpy())
            assert sum(line.get_ydata()) == pytest.approx(1.0)
    one = dd_bid_error(duel, tricks_lost=False)
    assert len(one.axes) == 1
    report = write_all(duel, tmp_path)
    assert (tmp_path / "dd_bid_error.png").read_bytes()[:4] == b"\x89PNG"
    assert not report.skipped


def test_cli_dd_end_to_end(tmp_path, capsys) -> None:
    out = tmp_path / "run"
    assert main(["tournament", "--entrant", "counting+tips", "--entrant", "random", "--rules", "duel", "--hands", "4",
                 "--seed", "3", "--out", str(out), "--dd", "--quiet", "--records", "--workers", "1"]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "dd_bid_err" in text and "dd_lost" in text
    result = TournamentResult.load(out)
    assert result.manifest["config"]["dd"] is True
    merged = result.hands.merge(solved_from_records(result), on=["pairing", "seating", "game", "hand"])
    assert len(merged) == 4 and (merged["dd_tricks0"] == merged["dd0"]).all()
    assert main(["plot", str(out)]) == 0
    assert (out / "plots" / "dd_bid_error.png").exists()
    capsys.readouterr()
    assert main(["simulate", "--hands", "5", "--seed", "3", "--rules", "duel", "--player", "counting+tips",
                 "--player", "random", "--dd", "--json"]) == 0  # fmt: skip
    sides = json.loads(capsys.readouterr().out)["sides"]
    rules = sl.preset("duel")
    (log,) = list(sl.simulate_hands(rules, sl.make_players(["counting+tips", "random"], seats=2), 5, 3))
    truth = dd.solve(log.held, log.play_seats[:, 0].astype(np.int64), rules=rules)
    for side in (0, 1):
        assert sides[side]["dd_tricks"] == pytest.approx(truth[:, side].mean())
        assert sides[side]["dd_tricks_lost"] == pytest.approx((truth[:, side] - log.tricks[:, side]).mean())


def test_every_dd_column_is_documented(four: TournamentResult) -> None:
    text = re.sub(r"```.*?```", "", (DOCS / "statistics.md").read_text(), flags=re.S)
    names: set[str] = set()
    for inner in re.findall(r"`([^`]+)`", text):
        names.update([inner, *re.split(r"[\s,=()/.]+", inner)])
    frames = {"summary": four.summary, "matchups": four.matchups, "games": four.games, "hands": four.hands,
              "side_hands": four.side_hands()}  # fmt: skip
    for table, frame in frames.items():
        missing = [c for c in frame.columns if c.startswith("dd_") and c not in names]
        assert not missing, f"{table}: {missing}"
    assert "dd_bid_error" in (DOCS / "plots.md").read_text()
