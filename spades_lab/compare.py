"""`compare()`: is the candidate better than the baseline, and does the answer hold under strong card play?

One call plays duplicate deals (every deal twice, partnerships swapped) between a candidate and a
baseline under each card-play engine asked for, on the tournament machinery (workers, Dask, resume,
Parquet), with the same deals for every engine. It returns tidy figures with 95% intervals
(`spades_lab.stats.estimates`), a verdict per engine and one across engines, claims checked in one line
each, a plot and an HTML summary. `stop="sequential"` plays in rounds and stops as soon as the paired
result is decided (`spades_lab.stats.sequential`). `sweep()` runs one policy parameter over a grid
against a baseline on the same deals.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from spades_lab.players import Player, make_player
from spades_lab.players.registry import bid_policy, play_policy, split_top
from spades_lab.players.seats import Beside, beside
from spades_lab.rules import RulesLike, load_rules
from spades_lab.stats.divergence import DIVERGENCE_FIGURES, divergence_estimates, first_divergences
from spades_lab.stats.estimates import (
    Estimate,
    estimates_frame,
    mean_estimate,
    paired_by_deal,
    paired_estimate,
    paired_ratio_estimate,
    proportion_difference,
    ratio_estimate,
    wilson_estimate,
)
from spades_lab.stats.sequential import Decision, SequentialTest, check_error_rate
from spades_lab.tournament import TournamentResult, tournament

__all__ = [
    "Claim",
    "ClaimCheck",
    "CompareError",
    "Comparison",
    "FIGURES",
    "SIDE_FIGURES",
    "Sweep",
    "across",
    "beside",
    "combine",
    "compare",
    "sweep",
]

Side = str | Player | Beside

FIGURES: dict[str, str] = {
    "win_rate": "share of finished games won (Wilson)",
    "points_per_hand": "points scored per hand (cluster ratio over games)",
    "set_rate": "share of hands the side was set (cluster ratio over games)",
    "bags_per_hand": "bags taken per hand (cluster ratio over games)",
    "bag_penalty_points_per_game": "points lost to bag penalties per game (mean)",
    "nil_success": "share of nil bids made (Wilson)",
    "nil_bids_per_hand": "nil bids per hand (cluster ratio over games)",
    "hands_per_game": "hands per game (mean)",
    "nil_success_diff": "candidate's nil success minus the baseline's in the same games (Wald, two proportions)",
    **DIVERGENCE_FIGURES,
    "paired_win_diff": "candidate's wins minus the baseline's per deal, both tables (paired mean, in [-1, 1])",
    "paired_margin": "candidate's final score minus the baseline's per deal (paired mean, points)",
    "paired_points_per_hand": "candidate's points per hand minus the baseline's, both tables of a deal (paired ratio)",
    "paired_sets_per_game": "candidate's sets per game minus the baseline's, per deal (paired mean)",
    "paired_bag_penalty_points": "candidate's bag penalty points per game minus the baseline's, per deal",
}
"""Every figure a comparison reports: the per-side ones (rows for candidate and baseline) and the paired ones."""

SIDE_FIGURES = ("win_rate", "points_per_hand", "set_rate", "bags_per_hand", "bag_penalty_points_per_game",
                "nil_success", "nil_bids_per_hand", "hands_per_game")  # fmt: skip
"""The figures with a row per side (candidate, baseline); the others are one row, side "paired"."""
NEUTRAL = ("undecided", "no difference")
"""Verdicts that take no side: they neither confirm nor contradict a measured effect."""
ENGINES_AS_GIVEN = "as given"
"""The engine label of a comparison of whole players (each plays its own cards)."""


class CompareError(ValueError):
    """A comparison was asked for something impossible; raised before any deal is played."""


def _close(name: str, known: Iterable[str]) -> str:
    import difflib

    match = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {match[0]!r}?)" if match else ""


def check_figure(figure: str) -> str:
    """A figure name, checked against FIGURES."""
    if figure not in FIGURES:
        raise CompareError(f"unknown figure {figure!r}{_close(figure, FIGURES)}; figures: {', '.join(FIGURES)}")
    return figure


# ----------------------------------------------------------------------------------------------
# Claims


@dataclass(frozen=True)
class Claim:
    """A sentence to check: a figure, its reference value and the words for each side of it.

    `about` is the value the claim states (the reference); without it the reference is 0 and the claim is
    about a sign. The verdict is `above` when the figure's whole interval lies above the reference,
    `below` when below, and `neither` when the interval holds it (for `about`, that is the claim holding:
    "about 100"). `within` widens the reference to a band: `about=100, within=10` reads "about 100" as
    anything from 90 to 110, so a precise figure of 104 still agrees. `than` is a threshold instead of 0 for a
    claim about a side of it ("nils are mostly made": `than=0.5`): there, as for a sign, `neither` says the
    interval cannot tell. Per-side figures are the candidate's unless `side="baseline"`.
    """

    text: str
    figure: str
    about: float | None = None
    above: str = ""
    below: str = ""
    neither: str = ""
    side: str = "candidate"
    within: float = 0.0
    than: float | None = None

    def __post_init__(self) -> None:
        check_figure(self.figure)
        if self.side not in ("candidate", "baseline"):
            raise CompareError(f"claim side {self.side!r} is impossible; allowed: candidate, baseline")
        if not (isinstance(self.within, int | float) and math.isfinite(self.within) and self.within >= 0):
            raise CompareError(f"claim within = {self.within!r} is impossible; allowed: a number >= 0")
        if self.about is not None and self.than is not None:
            raise CompareError("a claim states `about` (a value) or `than` (a threshold), not both")

    @property
    def reference(self) -> float:
        if self.about is not None:
            return float(self.about)
        return 0.0 if self.than is None else float(self.than)

    def words(self) -> tuple[str, str, str]:
        """The (above, below, neither) verdicts, defaults filled in."""
        ref = self.reference
        if self.about is None:
            above, below = ("higher", "lower") if self.than is None else (f"more than {ref:g}", f"less than {ref:g}")
            return self.above or above, self.below or below, self.neither or "no measurable difference"
        return self.above or f"more than {ref:g}", self.below or f"less than {ref:g}", self.neither or f"about {ref:g}"

    def judge(self, e: Estimate) -> str:
        above, below, neither = self.words()
        if not e.measurable:
            return neither
        top, bottom = self.reference + self.within, self.reference - self.within
        return above if e.lo > top else (below if e.hi < bottom else neither)


def across(per_engine: dict[str, tuple[Estimate, str]], neutral: Sequence[str]) -> str:
    """One verdict across engines: "holds" (one definite verdict everywhere), "flips" (two different definite
    verdicts), "changes" (an effect measured under one engine is absent under another whose interval excludes
    it) or "undecided" (the definite verdicts agree where the intervals can tell, or none is definite)."""
    definite = {e: v for e, (_, v) in per_engine.items() if v not in neutral}
    if definite and len(definite) == len(per_engine) and len(set(definite.values())) == 1:
        return "holds"
    if len(set(definite.values())) > 1:
        return "flips"
    unclear = [est for est, v in per_engine.values() if v in neutral]
    if any(not u.contains(per_engine[e][0].value) for e in definite for u in unclear if u.measurable):
        return "changes"
    return "undecided"


@dataclass
class ClaimCheck:
    """A claim judged under every engine of a comparison."""

    claim: Claim
    per_engine: dict[str, tuple[Estimate, str]]

    @property
    def across(self) -> str:
        _, _, neither = self.claim.words()
        return across(self.per_engine, (neither,) if self.claim.about is None else ())

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(
            [
                {
                    "claim": self.claim.text,
                    "figure": self.claim.figure,
                    "engine": engine,
                    "verdict": verdict,
                    "value": e.value,
                    "lo": e.lo,
                    "hi": e.hi,
                    "n": e.n,
                    "across": self.across,
                }
                for engine, (e, verdict) in self.per_engine.items()
            ]  # fmt: skip
        )

    def __str__(self) -> str:
        per = "; ".join(f"{engine} {v} ({e.fmt(3)})" for engine, (e, v) in self.per_engine.items())
        return f"{self.claim.text}: {per}; the verdict {self.across} across engines"


# ----------------------------------------------------------------------------------------------
# Figures of one duplicate pairing


def figures(games: pd.DataFrame, candidate: str, baseline: str, bag_penalty: int) -> list[dict[str, Any]]:
    """The rows of every figure of one duplicate pairing's games table (one row per game and side)."""
    games = games.assign(
        win=games["won"].astype(float),
        margin=(games["score"] - games["opp_score"]).astype(float),
        penalty_points=games["bag_penalties"].astype(float) * bag_penalty,
        sets_f=games["sets"].astype(float),
    )
    rows: list[dict[str, Any]] = []
    for side, name in (("candidate", candidate), ("baseline", baseline)):
        g = games[games["entrant"].astype(str) == name]
        finished = int((g["won"] | g["lost"]).sum())
        per = {
            "win_rate": wilson_estimate(int(g["won"].sum()), finished),
            "points_per_hand": ratio_estimate(g["score"], g["hands"]),
            "set_rate": ratio_estimate(g["sets"], g["hands"]),
            "bags_per_hand": ratio_estimate(g["bags_won"], g["hands"]),
            "bag_penalty_points_per_game": mean_estimate(g["penalty_points"]),
            "nil_success": wilson_estimate(int(g["nils_made"].sum()), int(g["nil_bids"].sum())),
            "nil_bids_per_hand": ratio_estimate(g["nil_bids"], g["hands"]),
            "hands_per_game": mean_estimate(g["hands"]),
        }
        rows += [{"figure": f, "side": side, "estimate": e} for f, e in per.items()]
    nils = {r["side"]: r["estimate"] for r in rows if r["figure"] == "nil_success"}
    paired = {
        "paired_win_diff": paired_estimate(games, "win", candidate),
        "paired_margin": paired_estimate(games, "margin", candidate, 0.5),
        "paired_points_per_hand": paired_ratio_estimate(games, "score", "hands", candidate),
        "paired_sets_per_game": paired_estimate(games, "sets_f", candidate),
        "paired_bag_penalty_points": paired_estimate(games, "penalty_points", candidate),
        "nil_success_diff": proportion_difference(nils["candidate"], nils["baseline"]),
    }
    rows += [{"figure": f, "side": "paired", "estimate": e} for f, e in paired.items()]
    return rows


def pair_values(games: pd.DataFrame, candidate: str) -> np.ndarray:
    """Per deal, in order of game id: the candidate's paired win difference (the sequential test's data)."""
    frame = paired_by_deal(games.assign(win=games["won"].astype(float)), "win", candidate)
    return np.asarray(frame.sort_index()["diff"].to_numpy())


# ----------------------------------------------------------------------------------------------
# The comparison


@dataclass
class Comparison:
    """What `compare()` returns: per engine the tournament, the figures and the verdict."""

    candidate: Side
    baseline: Side
    engines: list[str]
    names: dict[str, tuple[str, str]]
    """Per engine, the (candidate, baseline) entrant names."""
    results: dict[str, TournamentResult]
    figures: pd.DataFrame
    """One row per engine, figure and side (candidate, baseline, paired): value, lo, hi, n, method, estimate."""
    decisions: dict[str, Decision | None]
    """Per engine, the sequential test's last decision (None for a fixed-size run)."""
    deals: dict[str, int]
    test: SequentialTest | None = None
    claims: list[ClaimCheck] = field(default_factory=list)
    _keep: Any = field(default=None, repr=False)
    _divergence: dict[str, tuple[pd.DataFrame, dict[str, Estimate]]] = field(default_factory=dict, repr=False)

    def estimate(self, figure: str, engine: str | None = None, side: str = "candidate") -> Estimate:
        """One figure's estimate (a paired figure ignores `side`); `engine` may be left out with one engine."""
        check_figure(figure)
        engine = engine or self.engines[0]
        if engine not in self.engines:
            raise CompareError(f"engine {engine!r} was not compared{_close(engine, self.engines)}; "
                               f"engines: {', '.join(self.engines)}")  # fmt: skip
        if figure in DIVERGENCE_FIGURES:
            return self.divergence(engine)[1][figure]
        want = side if figure in SIDE_FIGURES else "paired"
        rows = self.figures[(self.figures["engine"] == engine) & (self.figures["figure"] == figure)
                            & (self.figures["side"] == want)]  # fmt: skip
        est = rows["estimate"].iloc[0]
        assert isinstance(est, Estimate)
        return est

    def divergence(self, engine: str | None = None) -> tuple[pd.DataFrame, dict[str, Estimate]]:
        """The first hand of each deal where the two bidders' bids part, and its figures
        (`spades_lab.stats.divergence`): the exact counterfactual of a rare difference between bidders."""
        engine = engine or self.engines[0]
        if engine not in self._divergence:
            result = self.results[engine]
            games, hands = result.games, result.hands
            n = self.deals[engine]
            frame = first_divergences(hands[hands["game"] < n], games[games["game"] < n], self.names[engine][0])
            self._divergence[engine] = (frame, divergence_estimates(frame))
        return self._divergence[engine]

    def verdict(self, engine: str | None = None) -> str:
        """Per engine: candidate better, baseline better, no difference (sequential only) or undecided."""
        engine = engine or self.engines[0]
        decision = self.decisions.get(engine)
        if decision is not None:
            return decision.verdict
        sign = self.estimate("paired_win_diff", engine).sign()
        return "candidate better" if sign > 0 else ("baseline better" if sign < 0 else "undecided")

    @property
    def across(self) -> str:
        """The verdict across engines: holds, flips, changes or undecided (see `across`)."""
        per = {e: (self.estimate("paired_win_diff", e), self.verdict(e)) for e in self.engines}
        return across(per, NEUTRAL)

    @property
    def verdicts(self) -> pd.DataFrame:
        """One row per engine: deals played, verdict and the paired win difference and margin."""
        rows = []
        for e in self.engines:
            win, margin = self.estimate("paired_win_diff", e), self.estimate("paired_margin", e)
            rows.append({"engine": e, "candidate": self.names[e][0], "baseline": self.names[e][1],
                         "deals": self.deals[e], "verdict": self.verdict(e), "paired_win_diff": win.value,
                         "lo": win.lo, "hi": win.hi, "paired_margin": margin.value})  # fmt: skip
        return pd.DataFrame(rows)

    def table(self, side: str | None = None) -> pd.DataFrame:
        """The figures as a wide table: one row per figure and side, one column per engine (text with intervals)."""
        f = self.figures if side is None else self.figures[self.figures["side"] == side]
        f = f.assign(text=[e.fmt(3) for e in f["estimate"]])
        return f.pivot_table(index=["figure", "side"], columns="engine", values="text", aggfunc="first", sort=False)[
            self.engines
        ]

    def check(self, claim: Claim) -> ClaimCheck:
        """Judge a claim under every engine of this comparison."""
        per = {e: (est := self.estimate(claim.figure, e, claim.side), claim.judge(est)) for e in self.engines}
        return ClaimCheck(claim, per)

    def ratings(self) -> pd.DataFrame:
        """Bradley-Terry (Elo-scale) ratings of candidate and baseline per engine, from the duplicate pairs."""
        frames = [self.results[e].ratings().assign(engine=e) for e in self.engines]
        return pd.concat(frames, ignore_index=True)[["engine", "entrant", "elo", "elo_lo", "elo_hi", "encounters"]]

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain JSON values (for `spades-lab compare --json`)."""
        return {
            "candidate": _label(self.candidate), "baseline": _label(self.baseline), "engines": self.engines,
            "across": self.across,
            "sequential": None if self.test is None else {"delta": self.test.delta, "alpha": self.test.alpha,
                                                          "beta": self.test.beta},
            "verdicts": _records(self.verdicts),
            "figures": _records(self.figures.drop(columns="estimate")),
            "claims": [_records(c.frame()) for c in self.claims],
        }  # fmt: skip

    def plot(self, ax: Any = None) -> Any:
        """The paired win difference per engine with its 95% interval (0 dashed); returns the figure."""
        import matplotlib.pyplot as plt

        if ax is None:
            fig, ax = plt.subplots(figsize=(6, 0.6 + 0.5 * len(self.engines)))
        else:
            fig = ax.figure
        v = self.verdicts
        y = np.arange(len(v))[::-1]
        ax.errorbar(v["paired_win_diff"], y, xerr=[v["paired_win_diff"] - v["lo"], v["hi"] - v["paired_win_diff"]],
                    fmt="o", capsize=4)  # fmt: skip
        ax.axvline(0, color="grey", linestyle="--", linewidth=1)
        ax.set_yticks(y, [f"{e} ({d:,} deals): {w}" for e, d, w in zip(v["engine"], v["deals"], v["verdict"])])
        ax.set_xlabel(f"paired win difference, {_label(self.candidate)} minus {_label(self.baseline)} (95% CI)")
        ax.set_title(f"across engines: {self.across}")
        return fig

    def __str__(self) -> str:
        lines = [f"{_label(self.candidate)} vs {_label(self.baseline)}: {self.across} across engines"]
        for _, r in self.verdicts.iterrows():
            e = self.estimate("paired_win_diff", r["engine"])
            lines.append(f"  {r['engine']}: {r['verdict']}, paired win difference {e.fmt(3, signed=True)}"
                         f" over {r['deals']:,} deals")  # fmt: skip
        lines += [f"  claim {c}" for c in self.claims]
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        from html import escape

        table = self.table().to_html()
        claims = "".join(f"<li>{escape(str(c))}</li>" for c in self.claims)
        return (f"<div><p><b>{escape(_label(self.candidate))}</b> vs <b>{escape(_label(self.baseline))}</b>:"
                f" <b>{escape(self.across)}</b> across engines</p>{self.verdicts.to_html(index=False)}{table}"
                + (f"<ul>{claims}</ul>" if claims else "") + "</div>")  # fmt: skip


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    out = []
    for row in frame.to_dict("records"):
        out.append({k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()})
    return out


def _label(side: Side) -> str:
    if isinstance(side, Beside):
        return side.name()
    if isinstance(side, Player):
        return side.name
    return str(side).strip()


def _is_player(side: Side) -> bool:
    """A whole player (plays its own cards), as opposed to a bid policy or a seat beside a partner."""
    if isinstance(side, Player):
        return True
    text = side.partner if isinstance(side, Beside) else side
    return len(split_top(text, "+")) > 1


def _entrant(side: Side, play: str | None) -> tuple[str | Player, str]:
    """The tournament entrant for this side under engine `play` (None: whole players), and its name.
    Building it here checks every policy name before any deal is played."""
    if isinstance(side, Beside):
        player = side.player(play)
        return player, player.name
    if isinstance(side, Player):
        return side, side.name
    spec = f"{side.strip()}+{play}" if play else side.strip()
    if play:
        bid_policy(side.strip())
    return spec, make_player(spec).name


def _sides(candidate: Side, baseline: Side, play: Sequence[str] | str | None) -> dict[str, tuple[Any, Any, str, str]]:
    """Per engine, (candidate entrant, baseline entrant, their names); every bad input raises here."""
    for name, side in (("candidate", candidate), ("baseline", baseline)):
        if not isinstance(side, str | Player | Beside) or (isinstance(side, str) and not side.strip()):
            raise CompareError(f"{name} must be a player name, a bid policy name, a Player or beside(...), "
                               f"got {side!r}")  # fmt: skip
    whole = [_is_player(candidate), _is_player(baseline)]
    engines: list[str | None]
    if isinstance(play, str):
        play = [p.strip() for p in split_top(play, ",") if p.strip()]
    if all(whole):
        if play:
            raise CompareError(
                f"candidate {_label(candidate)!r} and baseline {_label(baseline)!r} are whole players (they name"
                " their card play): leave play out, or give bid policies (e.g. 'cautious') to play under each engine"
            )
        engines = [None]
    elif any(whole):
        which = "candidate" if whole[0] else "baseline"
        raise CompareError(
            f"{which} {_label(candidate if whole[0] else baseline)!r} names its card play but the other side does"
            " not: give both as bid policies (with play=[...]) or both as whole players (BID+PLAY)"
        )
    else:
        if not play:
            raise CompareError("bid policies need card play engines: play=['tips', 'expert', 'pimc'] (or any play"
                               " policy names)")  # fmt: skip
        for p in play:
            play_policy(p)
        if len(set(play)) != len(play):
            raise CompareError(f"play engines repeat: {list(play)}; name each once")
        engines = list(play)
    out = {}
    for engine in engines:
        (cand, cname), (base, bname) = _entrant(candidate, engine), _entrant(baseline, engine)
        if cname == bname:
            raise CompareError(
                f"candidate and baseline are the same player {cname!r}: a comparison of a player with itself has"
                " nothing to find; compare two different players"
            )
        out[engine or ENGINES_AS_GIVEN] = (cand, base, cname, bname)
    return out


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text) or "play"


def compare(
    candidate: Side,
    baseline: Side,
    play: Sequence[str] | str | None = None,
    *,
    rules: RulesLike = None,
    deals: int = 1000,
    seed: int = 0,
    stop: str = "fixed",
    delta: float = 0.05,
    alpha: float = 0.05,
    beta: float = 0.05,
    round_deals: int = 100,
    claims: Sequence[Claim] = (),
    workers: int = 1,
    out: str | Path | None = None,
    scheduler: Any = None,
    progress: bool | None = None,
    fresh: bool = False,
) -> Comparison:
    """Is `candidate` better than `baseline`, and does the answer hold under every card-play engine in `play`?

    - `candidate`, `baseline`: bid policy names (`"cautious"`: each engine of `play` plays their cards),
      whole players (`"cautious+tips"`, a `Player`; then no `play`), or `beside(bid, partner=...)` (one seat
      of each side bids `bid` next to a partner bidding like `partner`).
    - `deals`: duplicate deals per engine (each played twice, partnerships swapped; the same deals for every
      engine); with `stop="sequential"` the most deals to play, in rounds of `round_deals`, stopping as soon
      as the GSPRT at `alpha` (a false "better" verdict), `beta` (missing a paired win difference of `delta`)
      decides (`spades_lab.stats.sequential`).
    - `claims`: `Claim`s judged under every engine (`Comparison.claims`); `check(claim)` judges more later.
    - `workers`, `scheduler`, `out`, `fresh`, `progress`: as for `tournament`; each engine plays in
      `out/ENGINE` (a temporary directory when `out` is None), and a run resumes what is on disk.
    Every input is checked before any deal is played.
    """
    if stop not in ("fixed", "sequential"):
        raise CompareError(f"stop = {stop!r} is impossible; allowed: 'fixed', 'sequential'")
    for name, value in (("alpha", alpha), ("beta", beta)):
        try:
            check_error_rate(name, value)
        except ValueError as why:
            raise CompareError(str(why)) from None
    if not isinstance(deals, int) or deals < 2:
        raise CompareError(f"deals = {deals!r} is impossible; allowed: at least 2")
    if not isinstance(round_deals, int) or round_deals < 2:
        raise CompareError(f"round_deals = {round_deals!r} is impossible; allowed: at least 2")
    for claim in claims:
        if not isinstance(claim, Claim):
            raise CompareError(f"a claim is a Claim(text, figure=..., about=...), got {claim!r}")
    rules = load_rules(rules)
    sides = _sides(candidate, baseline, play)
    test = SequentialTest(delta, alpha, beta) if stop == "sequential" else None
    keep = None
    if out is None:
        keep = tempfile.TemporaryDirectory(prefix="spades-compare-")
        out = keep.name
    results: dict[str, TournamentResult] = {}
    decisions: dict[str, Decision | None] = {}
    played: dict[str, int] = {}
    rows: list[dict[str, Any]] = []
    for engine, (cand, base, cname, bname) in sides.items():
        run = dict(rules=rules, seed=seed, duplicate=True, workers=workers, out=Path(out) / _slug(engine),
                   scheduler=scheduler, progress=progress, fresh=fresh)  # fmt: skip
        if test is None:
            result = tournament([cand, base], games=deals, chunk_games=max(1, math.ceil(deals / 2)), **run)
            decision, n = None, deals
        else:
            result, decision, n = _sequential([cand, base], cname, deals, round_deals, test, run)
        games = result.games[result.games["game"] < n]
        results[engine], decisions[engine], played[engine] = result, decision, n
        rows += [{"engine": engine, **r} for r in figures(games, cname, bname, rules.bag_penalty)]
    frame = estimates_frame(rows)
    comparison = Comparison(candidate, baseline, list(sides), {e: (s[2], s[3]) for e, s in sides.items()}, results,
                            frame, decisions, played, test, _keep=keep)  # fmt: skip
    comparison.claims = [comparison.check(c) for c in claims]
    return comparison


def combine(per_engine: Mapping[str, Comparison]) -> Comparison:
    """One comparison of several one-engine comparisons, each under the engine name it is keyed by.

    For what one `compare()` call cannot hold: a different number of deals per engine (a search player's
    budget), or sides that differ per engine in more than the bid (`counting+tips` against
    `counting+tips(-nil_coverage)` beside the same pair under `expert`). The verdict across engines and
    `check(claim)` then read every engine, as for one call.
    """
    if not per_engine:
        raise CompareError("combine needs at least one comparison")
    for key, c in per_engine.items():
        if not isinstance(c, Comparison) or len(c.engines) != 1:
            raise CompareError(f"combine takes one-engine comparisons; {key!r} is {c!r}")
    parts = list(per_engine.items())
    first = parts[0][1]
    frame = pd.concat([c.figures.assign(engine=key) for key, c in parts], ignore_index=True)

    def one(attribute: str) -> dict[str, Any]:
        return {key: getattr(c, attribute)[c.engines[0]] for key, c in parts}

    tests = {c.test for _, c in parts}
    return Comparison(first.candidate, first.baseline, [key for key, _ in parts], one("names"), one("results"),
                      frame, one("decisions"), one("deals"), tests.pop() if len(tests) == 1 else None,
                      _keep=[c._keep for _, c in parts])  # fmt: skip


def _sequential(entrants: list[Any], candidate: str, most: int, step: int, test: SequentialTest,
                run: dict[str, Any]) -> tuple[TournamentResult, Decision, int]:  # fmt: skip
    """Play rounds of `step` deals (a grown tournament plays only the new ones) until the test decides."""
    decision: Decision | None = None
    n = 0
    fresh = run.pop("fresh")
    while True:
        n = min(most, n + step)
        result = tournament(entrants, games=n, chunk_games=step, fresh=fresh and n <= step, **run)
        games = result.games[result.games["game"] < n]
        decision = test.decide(pair_values(games, candidate), final=n >= most, state=decision)
        if decision.decided:
            return result, decision, n


# ----------------------------------------------------------------------------------------------
# Sweeps


@dataclass
class Sweep:
    """What `sweep()` returns: the paired curve over the grid and the best value."""

    template: str
    baseline: Side
    values: list[Any]
    comparisons: list[Comparison]
    figure: str

    @property
    def curve(self) -> pd.DataFrame:
        """One row per (engine, value): the paired figure against the baseline with its 95% interval."""
        rows = []
        for value, c in zip(self.values, self.comparisons):
            for e in c.engines:
                est = c.estimate(self.figure, e)
                rows.append({"engine": e, "value": value, "candidate": c.names[e][0], self.figure: est.value,
                             "lo": est.lo, "hi": est.hi, "deals": c.deals[e], "verdict": c.verdict(e)})  # fmt: skip
        return pd.DataFrame(rows)

    def best(self, engine: str | None = None) -> tuple[Any, Estimate]:
        """The grid value with the highest paired figure, and that figure's estimate."""
        curve = self.curve
        engine = engine or str(curve["engine"].iloc[0])
        on = curve[curve["engine"] == engine]
        k = int(on[self.figure].to_numpy().argmax())
        row = on.iloc[k]
        return row["value"], self.comparisons[k].estimate(self.figure, engine)

    def difference(self, value: Any, reference: Any, engine: str | None = None) -> Estimate:
        """The candidate's wins at grid `value` minus at grid `reference`, paired by deal (both played the same
        deals): is one setting better than another, not only than the baseline?"""
        per = {}
        for v in (value, reference):
            if v not in self.values:
                raise CompareError(f"{v!r} is not a value of this sweep; values: {self.values}")
            c = self.comparisons[self.values.index(v)]
            on = engine or c.engines[0]
            games = c.results[on].games.assign(win=c.results[on].games["won"].astype(float))
            per[v] = paired_by_deal(games[games["game"] < c.deals[on]], "win", c.names[on][0])["entrant"]
        joined = pd.concat(per, axis=1, join="inner")
        e = mean_estimate((joined[value] - joined[reference]).to_numpy())
        return Estimate(e.value, e.lo, e.hi, e.n, "paired mean")

    def plot(self, ax: Any = None) -> Any:
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 4)) if ax is None else (ax.figure, ax)
        curve = self.curve
        for engine, on in curve.groupby("engine", sort=False):
            ax.errorbar(on["value"], on[self.figure], yerr=[on[self.figure] - on["lo"], on["hi"] - on[self.figure]],
                        marker="o", capsize=3, label=str(engine))  # fmt: skip
        ax.axhline(0, color="grey", linestyle="--", linewidth=1)
        ax.set_xlabel(self.template.replace("{}", "x"))
        ax.set_ylabel(f"{self.figure} vs {_label(self.baseline)} (95% CI)")
        ax.legend()
        return fig

    def __str__(self) -> str:
        value, est = self.best()
        return (
            f"{self.template} over {self.values} vs {_label(self.baseline)}: best {value!r}, {est.fmt(3, signed=True)}"
        )

    __repr__ = __str__


def sweep(template: str, values: Sequence[Any], baseline: Side, play: Sequence[str] | str | None = None, *,
          figure: str = "paired_win_diff", out: str | Path | None = None, **kwargs: Any) -> Sweep:  # fmt: skip
    """One parameter of a policy over a grid against a baseline, on the same deals:
    `sweep("counting(margin={})+expert", [0, 1, 2], baseline="counting+expert")`. `template` holds `{}`
    where each value goes; the other arguments are `compare()`'s. The curve's paired intervals come from
    duplicate deals that every grid value plays (same seed, same game ids)."""
    if "{}" not in template:
        raise CompareError(
            f"sweep template {template!r} has no '{{}}' for the swept value, e.g. 'counting(margin={{}})'"
        )
    check_figure(figure)
    if not values:
        raise CompareError("sweep needs at least one value")
    candidates = [template.format(v) for v in values]
    for c in candidates:  # every name is checked before any deal is played
        _sides(c, baseline, play)
    comparisons = []
    for value, c in zip(values, candidates):
        where = None if out is None else Path(out) / _slug(str(value))
        comparisons.append(compare(c, baseline, play, out=where, **kwargs))
    return Sweep(template, baseline, list(values), comparisons, figure)
