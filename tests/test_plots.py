"""Plots (spades_lab.plots) and `spades-lab plot`: every figure shows the tournament's own numbers.

One small real tournament (three entrants, duplicate, games capped at 200 hands) is played once
for the module; each plot is checked for its labels, titles and legend entries, and for data
that matches the summary table or a recomputation from the hands table done here, without the
plots package's helpers. A second run without the hands table checks the store_hands error and
that the CLI still writes the plots that need only the per-game tables.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.patches import StepPatch

from spades_lab.cli import main
from spades_lab.plots import (
    PLOTS,
    HandsRequired,
    bags,
    bid_errors,
    bid_totals,
    nil_outcomes,
    score_trajectories,
    set_rate_by_contract,
    win_rates,
)
from spades_lab.plots.data import NIL_OUTCOMES
from spades_lab.rules import Rules
from spades_lab.tournament import TournamentResult, tournament

ENTRANTS = ["counting+tips", "cautious+tips", "random+tips"]
HANDS_PLOTS = ("set_rate_by_contract", "bid_errors", "score_trajectories", "nil_outcomes")
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def result(tmp_path_factory) -> TournamentResult:
    """600 games: 100 deals per pairing, each in both seatings."""
    out = tmp_path_factory.mktemp("plots") / "run"
    return tournament(ENTRANTS, Rules(hand_cap=200), games=100, seed=3, duplicate=True, out=out, chunk_games=50)


@pytest.fixture(scope="module")
def no_hands(tmp_path_factory) -> TournamentResult:
    out = tmp_path_factory.mktemp("plots") / "no-hands"
    return tournament(ENTRANTS[:2], Rules(hand_cap=50), games=10, seed=3, out=out, store_hands=False)


def seats_frame(result: TournamentResult) -> pd.DataFrame:
    """One row per hand and seat with the entrant's name, worked out here from the manifest's pairings:
    seating 0 puts a pairing's first entrant on seats 0+2, seating 1 on seats 1+3."""
    hands = result.hands
    rows = []
    for seat in range(4):
        part = hands[["pairing", "seating", "game", "hand"]].copy()
        part["seat"], part["bid"], part["tricks"] = seat, hands[f"bid{seat}"], hands[f"tricks{seat}"]
        rows.append(part)
    seats = pd.concat(rows, ignore_index=True)
    first = {p["pairing"]: p["entrants"] for p in result.manifest["pairings"]}
    seats["entrant"] = [
        first[p][(seat % 2) ^ s] for p, s, seat in zip(seats["pairing"], seats["seating"], seats["seat"])
    ]
    return seats


def legend_texts(ax) -> list[str]:
    legend = ax.get_legend()
    assert legend is not None, f"axes {ax.get_title()!r} has no legend"
    return [t.get_text() for t in legend.get_texts()]


def entrant_lines(ax) -> dict[str, object]:
    """Lines of an axes by the entrant its legend label starts with."""
    return {
        name: line
        for line in ax.get_lines()
        for name in ENTRANTS
        if line.get_label() == name or line.get_label().startswith(f"{name} (")
    }


def test_every_plot_returns_a_figure_and_leaves_pyplot_alone(result) -> None:
    plt = pytest.importorskip("matplotlib.pyplot")
    before = plt.get_fignums()
    for name, plot in PLOTS.items():
        fig = plot(result)
        assert isinstance(fig, Figure), name
        assert fig.get_axes(), name
        assert fig.canvas.get_default_filetype() == "png"
    assert plt.get_fignums() == before


def test_win_rates_bars_and_wilson_bounds(result) -> None:
    fig = win_rates(result)
    (ax,) = fig.get_axes()
    summary = result.summary
    heights = [p.get_height() for p in ax.patches]
    np.testing.assert_allclose(heights, summary["win_rate"], equal_nan=True)
    assert [t.get_text() for t in ax.get_xticklabels()] == ENTRANTS
    (interval,) = [
        c for c in ax.collections if isinstance(c, LineCollection) and c.get_label() == "95% Wilson interval"
    ]
    ends = np.array([[seg[0][1], seg[1][1]] for seg in interval.get_segments()])
    np.testing.assert_allclose(ends[:, 0], summary["win_lo"])
    np.testing.assert_allclose(ends[:, 1], summary["win_hi"])
    assert "share of finished games won" in ax.get_ylabel()
    assert ax.get_xlabel() == "entrant"
    assert ax.get_title().startswith("Win rate per entrant")
    assert {"win rate", "95% Wilson interval"} <= set(legend_texts(ax))


def test_plots_read_a_directory_like_a_result(result) -> None:
    a, b = win_rates(result).get_axes()[0], win_rates(str(result.out)).get_axes()[0]
    assert [p.get_height() for p in a.patches] == pytest.approx([p.get_height() for p in b.patches], nan_ok=True)


def test_set_rate_by_contract_matches_the_hands(result) -> None:
    fig = set_rate_by_contract(result, min_contracts=20)
    ax_rate, ax_share = fig.get_axes()
    seats = seats_frame(result)
    seats["side"] = seats["seat"] % 2
    seats["nil"] = seats["bid"] == 0
    seats["counted_bid"] = np.where(seats["nil"], 0, seats["bid"])
    seats["counted_tricks"] = np.where(seats["nil"], 0, seats["tricks"])
    sides = seats.groupby(["pairing", "seating", "game", "hand", "side", "entrant"], as_index=False)[
        ["counted_bid", "counted_tricks"]
    ].sum()
    sides = sides[sides["counted_bid"] > 0]
    sides["set"] = sides["counted_tricks"] < sides["counted_bid"]
    summary = result.summary.set_index("entrant")
    lines, shares = entrant_lines(ax_rate), entrant_lines(ax_share)
    assert set(lines) == set(ENTRANTS) and set(shares) == set(ENTRANTS)
    for name in ENTRANTS:
        mine = sides[sides["entrant"] == name]
        assert mine["set"].sum() == summary.loc[name, "sets"]
        per_size = mine.groupby("counted_bid")["set"].agg(["size", "mean"])
        shown = per_size[per_size["size"] >= 20]
        np.testing.assert_array_equal(lines[name].get_xdata(), shown.index)
        np.testing.assert_allclose(lines[name].get_ydata(), shown["mean"])
        np.testing.assert_allclose(shares[name].get_ydata(), per_size["size"] / per_size["size"].sum())
    assert ax_rate.get_ylabel() == "share of contracts set"
    assert "side contract" in ax_share.get_xlabel() and "tricks" in ax_share.get_xlabel()
    assert ax_rate.get_title().startswith("Sets by contract size")
    assert set(ENTRANTS) <= set(legend_texts(ax_rate))


def test_bid_errors_match_the_summary(result) -> None:
    (ax,) = bid_errors(result).get_axes()
    summary = result.summary.set_index("entrant")
    seats = seats_frame(result)
    lines = entrant_lines(ax)
    assert set(lines) == set(ENTRANTS)
    for name, line in lines.items():
        error, share = np.asarray(line.get_xdata()), np.asarray(line.get_ydata())
        assert share.sum() == pytest.approx(1.0)
        assert (error * share).sum() == pytest.approx(summary.loc[name, "seat_bid_error"])
        assert share[error == 0].sum() == pytest.approx(summary.loc[name, "seat_bid_exact"])
        bids = seats[(seats["entrant"] == name) & (seats["bid"] > 0)]
        expected = (bids["bid"] - bids["tricks"]).value_counts(normalize=True).sort_index()
        np.testing.assert_array_equal(error, expected.index)
        np.testing.assert_allclose(share, expected.to_numpy())
    assert "bid minus tricks taken" in ax.get_xlabel() and "tricks" in ax.get_xlabel()
    assert ax.get_ylabel() == "share of the entrant's non-nil bids"
    assert ax.get_title().startswith("Bid error per player")
    assert all(any(t.startswith(name) for t in legend_texts(ax)) for name in ENTRANTS)


def test_bags_match_the_games_and_summary(result) -> None:
    fig = bags(result)
    ax_bags, ax_pen = fig.get_axes()
    summary = result.summary.set_index("entrant")
    games = result.games
    steps = {p.get_label().split(" (")[0]: p for p in ax_bags.patches if isinstance(p, StepPatch)}
    assert set(steps) == set(ENTRANTS)
    for name, step in steps.items():
        values, edges, _ = step.get_data()
        taken = games.loc[games["entrant"] == name, "bags_won"]
        np.testing.assert_allclose(values, np.histogram(taken, bins=edges)[0] / len(taken))
        assert taken.sum() == pytest.approx(summary.loc[name, "bags_per_hand"] * summary.loc[name, "hands"])
    for container in ax_pen.containers:
        name = container.get_label().split(" (")[0]
        x = np.array([p.get_x() + p.get_width() / 2 for p in container.patches])
        share = np.array([p.get_height() for p in container.patches])
        assert share.sum() == pytest.approx(1.0)
        assert (np.round(x) * share).sum() == pytest.approx(summary.loc[name, "bag_penalties_per_game"])
    assert {c.get_label().split(" (")[0] for c in ax_pen.containers} == set(ENTRANTS)
    assert "bags taken in a game" in ax_bags.get_xlabel()
    assert "bag penalties in a game" in ax_pen.get_xlabel() and "-100 points" in ax_pen.get_xlabel()
    assert ax_pen.get_ylabel() == "share of the entrant's games"
    assert fig.get_suptitle().startswith("Bags and bag penalties")
    assert all(any(t.startswith(name) for t in legend_texts(ax_pen)) for name in ENTRANTS)


def test_bid_totals_match_the_summary(result) -> None:
    (ax,) = bid_totals(result).get_axes()
    summary = result.summary.set_index("entrant")
    lines = entrant_lines(ax)
    assert set(lines) == set(ENTRANTS)
    for name, line in lines.items():
        total, share = np.asarray(line.get_xdata()), np.asarray(line.get_ydata())
        assert share.sum() == pytest.approx(1.0)
        assert (total * share).sum() == pytest.approx(summary.loc[name, "table_bid_total"])
    assert "table bid total" in ax.get_xlabel() and "tricks" in ax.get_xlabel()
    assert ax.get_ylabel() == "share of the entrant's hands"
    assert "13 tricks in a hand" in legend_texts(ax)
    (by_pairing,) = bid_totals(result, by="pairing").get_axes()
    pairs = [f"{p['entrants'][0]} vs {p['entrants'][1]}" for p in result.manifest["pairings"]]
    assert [t.split(" (")[0] for t in legend_texts(by_pairing) if " vs " in t] == pairs
    with pytest.raises(ValueError, match="entrant"):
        bid_totals(result, by="seat")


def test_score_trajectories_follow_the_hands(result) -> None:
    fig = score_trajectories(result, n_games=4)
    axes = [ax for ax in fig.get_axes() if ax.get_visible()]
    assert len(axes) == 4
    hands = result.hands
    first = {p["pairing"]: p["entrants"] for p in result.manifest["pairings"]}
    picks = [(0, 0), (0, 1), (1, 0), (1, 1)]  # duplicate: both seatings of a pairing start at game 0
    for ax, (pairing, seating) in zip(axes, picks):
        rows = hands[(hands["pairing"] == pairing) & (hands["seating"] == seating) & (hands["game"] == 0)]
        on_02 = first[pairing][seating]
        on_13 = first[pairing][1 - seating]
        texts = legend_texts(ax)
        assert f"{on_02} (seats 0+2)" in texts and f"{on_13} (seats 1+3)" in texts
        assert "target 500" in texts
        lines = {line.get_label(): line for line in ax.get_lines()}
        for side, name in enumerate((on_02, on_13)):
            y = lines[f"{name} (seats {'0+2' if side == 0 else '1+3'})"].get_ydata()
            np.testing.assert_array_equal(y, [0, *rows.sort_values("hand")[f"score_after{side}"]])
        assert ax.get_xlabel() == "hands played" and ax.get_ylabel() == "score (points)"
        title = ax.get_title()
        assert title.startswith(f"pairing {pairing} ({on_02} on seats 0+2), seating {seating}, game 0:")
    assert fig.get_suptitle().startswith("Score trajectories of sample games")


def test_nil_outcomes_match_the_summary(result) -> None:
    fig = nil_outcomes(result)
    ax_out, ax_freq = fig.get_axes()
    summary = result.summary.set_index("entrant")
    containers = {c.get_label(): c for c in ax_out.containers}
    assert set(containers) == set(NIL_OUTCOMES)
    made = [p.get_width() for p in containers["made (0 tricks)"].patches]
    np.testing.assert_allclose(made, summary.loc[ENTRANTS, "nil_success"].fillna(0))
    total = np.sum([[p.get_width() for p in c.patches] for c in containers.values()], axis=0)
    bid_nil = summary.loc[ENTRANTS, "nil_bids"].to_numpy() > 0
    np.testing.assert_allclose(total[bid_nil], 1.0)
    seats = seats_frame(result)
    for i, name in enumerate(ENTRANTS):
        mine = seats[(seats["entrant"] == name) & (seats["bid"] == 0)]
        assert len(mine) == summary.loc[name, "nil_bids"]
        if len(mine):
            broken3 = containers["broken by 3+ tricks"].patches[i].get_width()
            assert broken3 == pytest.approx((mine["tricks"] >= 3).mean())
    per_100 = [p.get_width() for p in ax_freq.patches]
    np.testing.assert_allclose(per_100, 100 * summary.loc[ENTRANTS, "nil_bids_per_hand"])
    assert [t.get_text() for t in ax_out.get_yticklabels()] == ENTRANTS
    assert ax_out.get_xlabel() == "share of the entrant's nil bids"
    assert "nil bids per 100 hands" in ax_freq.get_xlabel()
    assert set(NIL_OUTCOMES) <= set(legend_texts(ax_out))


@pytest.mark.parametrize("name", HANDS_PLOTS)
def test_hand_plots_name_store_hands_without_a_hands_table(no_hands, name) -> None:
    with pytest.raises(HandsRequired, match="store_hands"):
        PLOTS[name](no_hands)


def test_cli_writes_every_png(result, tmp_path, capsys) -> None:
    assert main(["plot", str(result.out), "--out", str(tmp_path / "png")]) == 0
    written = sorted(p.name for p in (tmp_path / "png").iterdir())
    assert written == sorted(f"{name}.png" for name in PLOTS)
    for path in (tmp_path / "png").iterdir():
        assert path.read_bytes()[:8] == PNG and path.stat().st_size > 10_000
    assert capsys.readouterr().out.count("wrote ") == len(PLOTS)


def test_cli_default_folder_and_no_hands_run(no_hands, capsys) -> None:
    assert main(["plot", str(no_hands.out)]) == 0
    folder = Path(no_hands.out) / "plots"
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{n}.png" for n in PLOTS if n not in HANDS_PLOTS)
    out = capsys.readouterr().out
    assert all(f"skipped {name}" in out for name in HANDS_PLOTS) and "store_hands" in out


def test_cli_refuses_a_directory_without_a_tournament(tmp_path, capsys) -> None:
    assert main(["plot", str(tmp_path)]) == 2
    assert "not a tournament's output folder" in capsys.readouterr().err
