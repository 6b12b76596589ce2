"""Honest figures: the matchup grid counts every game, colours stay with entrants, every plot takes ax=,
the formats, the set-rate intervals break at gaps, and the 0.5 line appears only where it means something."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from spades_lab.cli import main
from spades_lab.plots import PLOTS, matchups, set_rate_by_contract, win_rates
from spades_lab.plots.matchups import net_table
from spades_lab.plots.style import colour_map, colours, entrant_colour
from spades_lab.rules import Rules
from spades_lab.tournament import TournamentResult, tournament

ENTRANTS = ["counting+tips", "random+tips", "cautious+tips"]
PANELS = {"set_rate_by_contract": 2, "bags": 2, "nil_outcomes": 2, "score_trajectories": 4}


@pytest.fixture(scope="module")
def capped(tmp_path_factory) -> TournamentResult:
    """A short cap, so many games stop unfinished: the case where a finished-only rate misleads."""
    out = tmp_path_factory.mktemp("honest") / "run"
    return tournament(ENTRANTS, Rules(hand_cap=8), games=60, seed=2, out=out, chunk_games=30)


@pytest.fixture(scope="module")
def duplicate(tmp_path_factory) -> TournamentResult:
    out = tmp_path_factory.mktemp("honest") / "dup"
    return tournament(ENTRANTS[:2], Rules(hand_cap=8), games=40, seed=2, duplicate=True, out=out, chunk_games=40)


def test_matchup_net_counts_every_game(capped: TournamentResult) -> None:
    table = net_table(capped).set_index(["entrant", "opponent"])
    m = capped.matchups.set_index(["entrant", "opponent"])
    assert (m["unfinished"] > 0).any()
    for (a, b), row in table.iterrows():
        games = m.loc[(a, b), "games"]
        expected = (m.loc[(a, b), "wins"] - m.loc[(b, a), "wins"]) / games
        assert row["net"] == pytest.approx(expected)
        assert row["net_lo"] <= row["net"] <= row["net_hi"]
        assert row["unfinished_share"] == pytest.approx(m.loc[(a, b), "unfinished"] / games)
        assert table.loc[(b, a), "net"] == pytest.approx(-row["net"])


def test_matchup_grid_colours_by_net_and_prints_the_evidence(capped: TournamentResult) -> None:
    fig = matchups(capped)
    ax = fig.get_axes()[0]
    (image,) = ax.get_images()
    table = net_table(capped).set_index(["entrant", "opponent"])
    data = np.asarray(image.get_array())
    for i, a in enumerate(ENTRANTS):
        for j, b in enumerate(ENTRANTS):
            if a != b:
                assert data[i, j] == pytest.approx(table.loc[(a, b), "net"])
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 6
    for text in texts:
        assert "games" in text and "unfinished" in text and "net" in text
    assert image.norm.vmin == -image.norm.vmax  # centred on no edge either way


def test_matchup_grid_uses_the_paired_interval_in_duplicate(duplicate: TournamentResult) -> None:
    table = net_table(duplicate).set_index(["entrant", "opponent"])
    m = duplicate.matchups.set_index(["entrant", "opponent"])
    for key, row in table.iterrows():
        assert row["net"] == pytest.approx(m.loc[key, "paired_win_diff"])
        assert row["net_lo"] == pytest.approx(m.loc[key, "paired_win_lo"])


def test_colours_follow_the_name_not_the_order(capped: TournamentResult, duplicate: TournamentResult) -> None:
    one, two = colours(capped), colours(duplicate)
    for name in ENTRANTS[:2]:
        assert one[name] == two[name] == entrant_colour(name)
    reordered = colour_map(list(reversed(ENTRANTS)))
    assert all(reordered[n] == one[n] for n in ENTRANTS)
    many = colour_map([f"counting(margin={m})+tips" for m in range(12)])
    assert len(set(many.values())) == 12


@pytest.mark.parametrize("name", sorted(PLOTS))
def test_every_plot_draws_into_given_axes(capped: TournamentResult, name: str) -> None:
    fig = Figure(figsize=(8, 6))
    FigureCanvasAgg(fig)
    panels = PANELS.get(name, 1)
    axes = fig.subplots(1, panels) if panels > 1 else fig.add_subplot()
    drawn = PLOTS[name](capped, ax=axes)
    assert drawn is fig
    assert len(fig.get_axes()) >= panels
    first = axes[0] if panels > 1 else axes
    assert first.has_data()
    one = Figure()
    FigureCanvasAgg(one)
    single = one.add_subplot()
    assert PLOTS[name](capped, ax=single) is one and single.has_data()
    with pytest.raises(ValueError, match="ax must be"):
        PLOTS[name](capped, ax=[single] * (panels + 1))


@pytest.mark.parametrize("fmt,magic", [("svg", b"<?xml"), ("pdf", b"%PDF")])
def test_plot_formats(capped: TournamentResult, tmp_path, fmt: str, magic: bytes) -> None:
    assert main(["plot", str(capped.out), "--out", str(tmp_path), "--format", fmt]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(f"{n}.{fmt}" for n in PLOTS)
    assert all(p.read_bytes()[:5].startswith(magic[:4]) for p in tmp_path.iterdir())


def test_even_line_only_for_two_entrants(capped: TournamentResult, duplicate: TournamentResult) -> None:
    def even_lines(result: TournamentResult) -> int:
        ax = win_rates(result).get_axes()[0]
        return sum(1 for line in ax.get_lines() if list(line.get_ydata()) == [0.5, 0.5])

    assert even_lines(capped) == 0
    assert even_lines(duplicate) == 1


def test_set_rate_line_breaks_where_a_size_is_not_shown(capped: TournamentResult) -> None:
    ax = set_rate_by_contract(capped, min_contracts=5, ax=None).get_axes()[0]
    from spades_lab.plots.data import set_rates

    table = set_rates(capped)
    for name in ENTRANTS:
        shown = table[(table["entrant"] == name) & (table["contracts"] >= 5)]["contract"].to_numpy()
        if len(shown) > 1:
            gaps = set(range(shown.min(), shown.max() + 1)) - set(shown)
            for line in ax.get_lines():
                x, y = np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)
                for gap in gaps:
                    if gap in x:
                        assert np.isnan(y[list(x).index(gap)])
