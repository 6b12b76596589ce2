"""compare(), sweep(), claims and ratings: paired verdicts across play engines on the tournament machinery."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import spades_lab as sl
from spades_lab.cli import main
from spades_lab.compare import FIGURES, Claim, CompareError, across, combine, compare, sweep
from spades_lab.players.registry import PolicyNameError
from spades_lab.players.seats import SeatBidder
from spades_lab.stats.divergence import DIVERGENCE_FIGURES
from spades_lab.stats.estimates import Estimate

RULES = sl.Rules(target=150, hand_cap=8)
"""Short games (to 150, stopped after 8 hands): a few dozen deals take a second or two."""


@pytest.fixture(scope="module")
def two_engines(tmp_path_factory: pytest.TempPathFactory) -> sl.Comparison:
    out = tmp_path_factory.mktemp("two")
    return compare("cautious", "counting", play=["tips", "expert"], rules=RULES, deals=24, seed=3, out=out,
                   progress=False, claims=[Claim("cautious pays bags", figure="paired_bag_penalty_points")])  # fmt: skip


def test_every_engine_plays_the_same_deals_in_both_seatings(two_engines: sl.Comparison) -> None:
    hands = {e: two_engines.results[e].hands for e in two_engines.engines}
    first = {e: h[h["hand"] == 0].sort_values(["seating", "game"]) for e, h in hands.items()}
    tips, expert = first["tips"], first["expert"]
    assert len(tips) == 2 * 24 and set(tips["seating"]) == {0, 1}
    for seat in range(4):
        assert np.array_equal(tips[f"deal{seat}"].to_numpy(), expert[f"deal{seat}"].to_numpy())
    names = two_engines.results["tips"].manifest["config"]["entrants"]
    assert names == ["cautious+tips", "counting+tips"] and two_engines.results["tips"].manifest["config"]["duplicate"]


def test_figures_are_tidy_and_agree_with_the_tournament(two_engines: sl.Comparison) -> None:
    f = two_engines.figures
    assert set(f["figure"]) == set(FIGURES) - set(DIVERGENCE_FIGURES) and set(f["engine"]) == {"tips", "expert"}
    assert all(isinstance(e, Estimate) for e in f["estimate"])
    for engine in two_engines.engines:
        m = two_engines.results[engine].matchups
        row = m[m["entrant"] == two_engines.names[engine][0]].iloc[0]
        est = two_engines.estimate("paired_win_diff", engine)
        assert (est.value, est.lo, est.hi) == pytest.approx((row["paired_win_diff"], row["paired_win_lo"],
                                                             row["paired_win_hi"]))  # fmt: skip
        assert two_engines.estimate("paired_margin", engine).value == pytest.approx(row["paired_margin"])
        s = two_engines.results[engine].summary.set_index("entrant").loc[two_engines.names[engine][0]]
        assert two_engines.estimate("win_rate", engine).value == pytest.approx(s["win_rate"], nan_ok=True)
        assert two_engines.estimate("set_rate", engine).value == pytest.approx(s["set_rate"])


def test_verdicts_claims_summary_and_plot(two_engines: sl.Comparison) -> None:
    v = two_engines.verdicts
    assert list(v["engine"]) == ["tips", "expert"] and (v["deals"] == 24).all()
    assert two_engines.across in ("holds", "flips", "changes", "undecided")
    (check,) = two_engines.claims
    assert set(check.per_engine) == {"tips", "expert"} and "cautious pays bags" in str(check)
    assert "<table" in two_engines._repr_html_() and "across engines" in str(two_engines)
    assert two_engines.plot() is not None
    json.dumps(two_engines.to_dict())
    ratings = two_engines.ratings()
    assert len(ratings) == 4 and set(ratings["engine"]) == {"tips", "expert"}


def test_across_engines() -> None:
    up, down, none = Estimate(0.2, 0.1, 0.3), Estimate(-0.2, -0.3, -0.1), Estimate(0.0, -0.05, 0.05)
    wide = Estimate(0.05, -0.3, 0.4)
    better, worse, neutral = "candidate better", "baseline better", ("undecided", "no difference")
    assert across({"a": (up, better), "b": (up, better)}, neutral) == "holds"
    assert across({"a": (up, better), "b": (down, worse)}, neutral) == "flips"
    assert across({"a": (up, better), "b": (none, "undecided")}, neutral) == "changes"
    assert across({"a": (up, better), "b": (wide, "undecided")}, neutral) == "undecided"


def test_claim_about_a_value() -> None:
    claim = Claim("cautious pays about 100 points of bags", figure="bag_penalty_points_per_game", about=100)
    assert claim.judge(Estimate(104, 90, 118)) == "about 100"
    assert claim.judge(Estimate(150, 130, 170)) == "more than 100"
    assert claim.judge(Estimate(50, 30, 70)) == "less than 100"
    sign = Claim("cautious wins more", figure="paired_win_diff", above="wins more", below="wins less")
    assert sign.judge(Estimate(0.1, 0.05, 0.15)) == "wins more"
    assert sign.judge(Estimate(0.0, -0.05, 0.05)) == "no measurable difference"


def test_claim_within_a_band_and_against_a_threshold() -> None:
    about = Claim("about 100", figure="paired_bag_penalty_points", about=100, within=10)
    assert about.judge(Estimate(104, 102, 106)) == "about 100"  # precise, but inside the band
    assert about.judge(Estimate(115, 112, 118)) == "more than 100"
    mostly = Claim("nils are mostly made", figure="nil_success", than=0.5, above="mostly made", below="mostly failed",
                   neither="cannot tell")  # fmt: skip
    assert mostly.judge(Estimate(0.8, 0.6, 0.9)) == "mostly made" and mostly.judge(Estimate(0.3, 0.1, 0.45)) == (
        "mostly failed"
    )
    assert mostly.judge(Estimate(0.6, 0.4, 0.8)) == "cannot tell"
    with pytest.raises(CompareError, match="not both"):
        Claim("x", figure="nil_success", about=0.5, than=0.5)
    with pytest.raises(CompareError, match="within = -1"):
        Claim("x", figure="nil_success", about=0.5, within=-1)


def test_combine_keys_one_engine_comparisons_by_engine(two_engines: sl.Comparison, tmp_path: Path) -> None:
    """Different deals per engine, sides that differ in the play: one comparison, verdicts and claims across."""
    nil = compare("counting+tips", "counting+tips(-nil_coverage)", rules=RULES, deals=10, seed=3, out=tmp_path,
                  progress=False)  # fmt: skip
    both = combine({"tips": nil, "expert": two_engines.__class__(
        two_engines.candidate, two_engines.baseline, ["expert"], {"expert": two_engines.names["expert"]},
        {"expert": two_engines.results["expert"]}, two_engines.figures[two_engines.figures["engine"] == "expert"],
        {"expert": None}, {"expert": 24})})  # fmt: skip
    assert both.engines == ["tips", "expert"] and both.deals == {"tips": 10, "expert": 24}
    assert both.names["tips"] == ("counting+tips", "counting+tips(-nil_coverage)")
    assert both.estimate("paired_win_diff", "tips") == nil.estimate("paired_win_diff")
    assert both.estimate("paired_win_diff", "expert") == two_engines.estimate("paired_win_diff", "expert")
    check = both.check(Claim("x", figure="paired_win_diff"))
    assert set(check.per_engine) == {"tips", "expert"} and both.across in ("holds", "flips", "changes", "undecided")
    with pytest.raises(CompareError, match="one-engine comparisons"):
        combine({"both": two_engines})


def test_nil_success_difference_is_the_two_sides_rates(two_engines: sl.Comparison) -> None:
    for engine in two_engines.engines:
        cand, base = (two_engines.estimate("nil_success", engine, side) for side in ("candidate", "baseline"))
        diff = two_engines.estimate("nil_success_diff", engine)
        assert diff.value == pytest.approx(cand.value - base.value, nan_ok=True) and diff.n == cand.n + base.n


def test_sequential_stops_in_rounds_and_resumes(tmp_path: Path) -> None:
    run = dict(rules=RULES, deals=400, seed=1, stop="sequential", round_deals=40, delta=0.2, out=tmp_path,
               progress=False)  # fmt: skip
    first = compare("cautious+tips", "random+tips", **run)
    n = first.deals["as given"]
    assert first.verdict() == "candidate better" and n < 400 and n % 40 == 0
    assert first.decisions["as given"] is not None and first.decisions["as given"].n == n
    again = compare("cautious+tips", "random+tips", **run)
    assert again.deals == first.deals and again.results["as given"].hands_played == 0


def test_one_seat_beside_a_partner() -> None:
    c = compare(sl.beside("cautious", partner="counting"), "counting", play="tips", rules=RULES, deals=8,
                progress=False)  # fmt: skip
    assert c.names["tips"] == ("cautious/counting+tips", "counting+tips")
    assert c.verdict("tips") in ("candidate better", "baseline better", "undecided")


def test_seat_bidder_asks_the_first_part_for_seats_0_and_1() -> None:
    class Fixed:
        def __init__(self, bid: int) -> None:
            self.value = bid

        def bid(self, view: object) -> np.ndarray:
            return np.full(4, self.value)

    class View:
        seat = np.array([0, 1, 2, 3])

        def __len__(self) -> int:
            return 4

    bidder = SeatBidder(Fixed(1), Fixed(5), "one/five")
    assert bidder.bid(View()).tolist() == [1, 1, 5, 5]
    assert bidder.blind(View()).tolist() == [False] * 4


def test_sweep_plays_every_value_on_the_same_deals(tmp_path: Path) -> None:
    s = sweep("counting(margin={})+tips", [0, 1], baseline="counting+tips", rules=RULES, deals=10, out=tmp_path,
              progress=False)  # fmt: skip
    curve = s.curve
    assert list(curve["value"]) == [0, 1] and {"lo", "hi", "paired_win_diff"} <= set(curve.columns)
    value, est = s.best()
    assert value in (0, 1) and est.value == curve["paired_win_diff"].max()
    deals = [c.results["as given"].hands.query("hand == 0").sort_values(["seating", "game"])["deal0"].to_numpy()
             for c in s.comparisons]  # fmt: skip
    assert np.array_equal(deals[0], deals[1])
    one_minus_zero = s.difference(1, 0)
    wins = [c.results["as given"].games.assign(win=lambda g: g["won"].astype(float)) for c in s.comparisons]
    per_deal = [w[w["entrant"] == c.names["as given"][0]].groupby("game")["win"].mean() for w, c in
                zip(wins, s.comparisons)]  # fmt: skip
    assert one_minus_zero.value == pytest.approx((per_deal[1] - per_deal[0]).mean()) and one_minus_zero.n == 10
    with pytest.raises(CompareError, match="not a value of this sweep"):
        s.difference(2, 0)


BAD = [
    (dict(candidate="cautious", baseline="counting", play=["tipz"]), PolicyNameError, "unknown play policy 'tipz'"),
    (dict(candidate="cautous", baseline="counting", play=["tips"]), PolicyNameError, "unknown bid policy 'cautous'"),
    (dict(candidate="counting", baseline="counting", play=["tips"]), CompareError, "same player"),
    (dict(candidate="cautious", baseline="counting", play=["tips"], alpha=0.5), CompareError, "alpha = 0.5"),
    (dict(candidate="cautious", baseline="counting", play=["tips"], beta=0.0), CompareError, "beta = 0.0"),
    (dict(candidate="cautious+tips", baseline="counting+tips", play=["tips"]), CompareError, "leave play out"),
    (dict(candidate="cautious+tips", baseline="counting", play=["tips"]), CompareError, "names its card play"),
    (dict(candidate="cautious", baseline="counting"), CompareError, "need card play engines"),
    (dict(candidate="cautious", baseline="counting", play=["tips"], stop="early"), CompareError, "stop = 'early'"),
]


@pytest.mark.parametrize(("kwargs", "error", "message"), BAD)
def test_bad_input_is_one_clear_error_before_any_play(kwargs: dict, error: type, message: str, tmp_path: Path) -> None:
    with pytest.raises(error, match=message):
        compare(rules=RULES, deals=4, out=tmp_path / "run", progress=False, **kwargs)
    assert not (tmp_path / "run").exists()


def test_a_claim_naming_an_unknown_figure_is_refused() -> None:
    with pytest.raises(CompareError, match=r"unknown figure 'bag_penalty_points'.*did you mean"):
        Claim("cautious pays bags", figure="bag_penalty_points")


def test_sweep_checks_every_value_first(tmp_path: Path) -> None:
    with pytest.raises(PolicyNameError, match="no parameter 'margn'"):
        sweep("counting(margn={})+tips", [0, 1], baseline="counting+tips", deals=4, out=tmp_path / "s")
    assert not (tmp_path / "s").exists()


def test_cli_compare_json_and_claims(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["compare", "cautious", "counting", "--play", "tips", "--deals", "8", "--hand-cap", "6", "--json",
                 "--claim", "bag_penalty_points_per_game=100: cautious pays about 100 points of bags",
                 "--plot", str(tmp_path / "p.png")])  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engines"] == ["tips"] and out["claims"][0][0]["figure"] == "bag_penalty_points_per_game"
    assert {r["figure"] for r in out["figures"]} == set(FIGURES) - set(DIVERGENCE_FIGURES) and (
        tmp_path / "p.png"
    ).exists()


def test_cli_compare_refuses_an_unknown_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "cautious", "counting", "--play", "tips", "--claim", "bag_points=100: x"]) == 2
    err = capsys.readouterr().err
    assert "unknown figure 'bag_points'" in err and err.count("\n") == 1


def test_cli_tournament_ratings(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["tournament", "--entrant", "cautious+tips", "--entrant", "random+tips", "--games", "6", "--seed",
                 "1", "--out", str(tmp_path), "--duplicate", "--hand-cap", "6", "--workers", "1", "--quiet",
                 "--ratings", "--json"])  # fmt: skip
    assert code == 0
    ratings = json.loads(capsys.readouterr().out)["ratings"]
    assert [r["entrant"] for r in ratings][0] == "cautious+tips" and len(ratings) == 2
