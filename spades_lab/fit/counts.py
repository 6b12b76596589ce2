"""Count calibration: what each part of the cheat sheet's trick count is worth in double-dummy tricks.

Random deals, deal i from (seed, i) alone, solved double dummy under two rules: `broken` (spades broken from the
first lead: bridge with spades as trumps, solved by DDS through `endplay` when it imports, else by
`spades_lab.dd.solve`; both give the same values) and `spades` (the standard rules, the first leader may not lead
a spade: only our solver). A side's DD tricks are regressed on the side's summed count features (OLS with an
intercept, 95% intervals from a cluster-by-deal sandwich: the two sides of a deal are one observation, their
tricks add to 13). The standard-rule weights are the broken fit on every broken deal plus the paired correction
d (the regression of spades - broken tricks over the deals solved both ways), with the joint covariance of the
two. The features are the count's own parts, named as `spades_lab.policies.counting.CountParams` names them, so
the fitted weights ARE a count: the `calibrated` bidder reads them (`calibrated_weights.json`).

Deals are solved in chunks of Parquet files under a raw folder (`RAW/broken/`, `RAW/spades/`; each chunk records
its solver), and solving resumes: a larger count solves only the deals no chunk holds yet.
`python -m spades_lab.fit counts --raw DIR` solves what its recipe needs and refits.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from spades_lab import dd
from spades_lab.policies.counting import DEFAULT_COUNT
from spades_lab.rules import Rules
from spades_lab.stats.intervals import Z95

CHUNK = 100
"""Deals per raw chunk (about 30 s of our solving): a stopped run loses at most one chunk."""
SPADES, SIDE = 3, (0, 1, 2)
"""Card ids: suit block s holds ids 13*s .. 13*s+12, ranks 2..A (the standard deck, spades the trumps)."""
ACE, KING, QUEEN = 12, 11, 10


@dataclass(frozen=True)
class CountRecipe:
    """Everything `calibrated_weights.json` is fitted from: the deal stream's seed and how many deals of each set."""

    seed: int = 14
    deals: int = 100_000
    """Deals solved with spades broken."""
    paired_deals: int = 5_300
    """Of those, deals also solved under the standard rules (the paired correction)."""


def deal(seed: int, i: int) -> tuple[np.ndarray, int]:
    """Deal i of the stream: four 13-card hand masks and the first leader, from (seed, i) only."""
    rng = np.random.default_rng([seed, i])
    perm = rng.permutation(52)
    hands = np.zeros(4, dtype=np.uint64)
    for seat in range(4):
        for card in perm[13 * seat : 13 * seat + 13]:
            hands[seat] |= np.uint64(1) << np.uint64(int(card))
    return hands, int(rng.integers(4))


RULES = ("broken", "spades")
"""The two datasets of the one deal stream: `broken` = spades broken from the first lead (bridge with spades as
trumps, the problem DDS solves: either solver gives the same values), `spades` = the standard rules (the first
leader may not lead a spade; only our solver knows that rule)."""
SOLVERS = ("auto", "ours", "dds")
COLUMNS = ["deal", "leader", "side0", "hand0", "hand1", "hand2", "hand3", "seconds", "cpu_seconds", "solver"]


def have_dds() -> bool:
    """Whether DDS (through `endplay`, a dev dependency) can be imported here."""
    try:
        import endplay.dds  # noqa: F401
    except ImportError:
        return False
    return True


def pick_solver(rules: str, solver: str) -> str:
    """The solver that will run: `auto` is DDS for the `broken` set when endplay imports, else ours."""
    if rules not in RULES or solver not in SOLVERS:
        raise ValueError(f"rules {rules!r} / solver {solver!r}: expected one of {RULES} / {SOLVERS}")
    if rules == "spades":
        if solver == "dds":
            raise ValueError("DDS cannot solve the `spades` set (it knows no first-trick spade rule)")
        return "ours"
    if solver == "auto":
        return "dds" if have_dds() else "ours"
    if solver == "dds" and not have_dds():
        raise ValueError("--solver dds needs endplay (pip install -e .[dev])")
    return solver


def dds_side0(hands: np.ndarray, leaders: np.ndarray) -> np.ndarray:
    """Side 0's DD tricks of each full deal by DDS, spades trumps and broken from the start, one thread."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    from spades_lab.dd.deals import pbn

    out = np.empty(len(hands), dtype=np.int64)
    for i, (masks, leader) in enumerate(zip(hands, leaders)):
        board = Deal(pbn(masks), first=Player(int(leader)), trump=Denom.spades)
        # OptimalOne: the value of the deal (one best card), for the side on lead
        best = max(v for _, v in solve_board(board, SolveMode.OptimalOne))
        out[i] = best if leader % 2 == 0 else 13 - best
    return out


def solve_chunk(args: tuple[int, int, int, str, str, str]) -> str:
    """Solve deals [start, stop) of one dataset and write them as one Parquet file; returns its path."""
    seed, start, stop, raw, rules, solver = args
    dealt = [deal(seed, i) for i in range(start, stop)]
    hands = np.stack([h for h, _ in dealt])
    leaders = np.array([lead for _, lead in dealt], dtype=np.int64)
    t, cpu = time.perf_counter(), time.process_time()
    if solver == "dds":
        side0 = dds_side0(hands, leaders)
    else:
        # exact: a shared table never changes an answer
        side0 = dd.solve(hands, leaders, broken=rules == "broken", solver=dd.Solver(Rules()))[:, 0]
    seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
    frame = pd.DataFrame({"deal": np.arange(start, stop, dtype=np.int64), "leader": leaders,
                          "side0": side0.astype(np.int64)})  # fmt: skip
    for seat in range(4):
        frame[f"hand{seat}"] = hands[:, seat].astype(np.uint64)
    frame["seconds"] = seconds / (stop - start)
    frame["cpu_seconds"] = cpu / (stop - start)
    frame["solver"] = solver
    path = Path(raw) / f"deals_{start:07d}_{stop:07d}.parquet"
    tmp = path.with_suffix(".tmp")
    frame.to_parquet(tmp, index=False)
    os.replace(tmp, path)
    return str(path)


def solved_deals(raw: Path, seed: int) -> pd.DataFrame:
    """Every raw chunk of one dataset's folder for this seed, one row per deal (a deal solved twice is kept once)."""
    meta = raw / "seed.json"
    if meta.exists() and json.loads(meta.read_text())["seed"] != seed:
        raise ValueError(f"{raw} holds deals of seed {json.loads(meta.read_text())['seed']}, not {seed}")
    files = sorted(raw.glob("deals_*.parquet"))
    if not files:
        return pd.DataFrame(columns=COLUMNS)
    frame = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
    if "solver" not in frame:  # chunks written before the two datasets: all ours
        frame["solver"] = "ours"
    frame["solver"] = frame["solver"].fillna("ours")
    if "cpu_seconds" not in frame:
        frame["cpu_seconds"] = np.nan
    return frame.drop_duplicates("deal").sort_values("deal", ignore_index=True)


def missing_chunks(have: np.ndarray, deals: int) -> list[tuple[int, int]]:
    """The ranges of deals 0..deals-1 no chunk holds yet, cut at multiples of CHUNK."""
    held = np.zeros(deals, dtype=bool)
    have = have[have < deals]
    held[have] = True
    chunks = []
    for start in range(0, deals, CHUNK):
        stop = min(start + CHUNK, deals)
        todo = np.flatnonzero(~held[start:stop])
        if len(todo):
            chunks.append((start + int(todo[0]), start + int(todo[-1]) + 1))
    return chunks


def solve_missing(raw: Path, seed: int, deals: int, workers: int, minutes: float, rules: str = "spades",
                  solver: str = "ours") -> int:  # fmt: skip
    """Solve the missing deals below `deals` of one dataset (raw = its folder), stopping (between chunks)
    after `minutes`; returns chunks solved."""
    raw.mkdir(parents=True, exist_ok=True)
    (raw / "seed.json").write_text(json.dumps({"seed": seed}))
    todo = missing_chunks(solved_deals(raw, seed)["deal"].to_numpy(dtype=np.int64), deals)
    if not todo:
        return 0
    deadline = time.monotonic() + 60 * minutes
    jobs = [(seed, a, b, str(raw), rules, solver) for a, b in todo]
    done = 0
    if workers <= 1:
        for job in jobs:
            if time.monotonic() > deadline:
                break
            solve_chunk(job)
            done += 1
            print(f"count calibration {rules} ({solver}): deals {job[1]}-{job[2]} solved", file=sys.stderr, flush=True)
        return done
    with mp.get_context("spawn").Pool(workers) as pool:
        for path in pool.imap_unordered(solve_chunk, jobs):
            done += 1
            print(f"count calibration {rules} ({solver}): {Path(path).name}", file=sys.stderr, flush=True)
            if time.monotonic() > deadline:
                pool.terminate()  # chunks under way are lost; every written one is whole
                break
    return done


# ----------------------------------------------------------------------------------------------
# Features: the count's parts, per hand


FEATURES: dict[str, str] = {
    "ace_spade": "holds the ace of spades",
    "king_spade": "holds the king of spades and at least one other spade",
    "singleton_king_spade": "holds the king of spades as its only spade",
    "queen_spade": "holds the queen of spades with at least two other spades",
    "spade_length_value": "spades beyond the third (max(spades - 3, 0))",
    "side_ace": "side-suit aces held",
    "side_king": "side-suit kings with at least one other card of their suit",
    "side_singleton_king": "side-suit kings held bare (the suit's only card)",
    "side_queen": "side-suit queens held with the ace or the king of the same suit",
    "side_queen_alone": "side-suit queens held without the suit's ace and king",
    "void_value": "side-suit voids, with four or more spades",
    "void_with_three_spades": "side-suit voids, with exactly three spades",
    "singleton_value": "side-suit singletons, with three or more spades",
}
"""The count's parts (named as CountParams names their values), each defined per hand; a side's feature is
the sum over its two hands. The sheet's value of each is the CountParams default."""

EXTRA: dict[str, str] = {
    "queen_spade_short": "holds the queen of spades with fewer than two other spades (the sheet: 0)",
    "void_short_trumps": "side-suit voids with two spades or fewer (the sheet: 0)",
    "singleton_short_trumps": "side-suit singletons with two spades or fewer (the sheet: 0)",
    "singleton_four_spades": "side-suit singletons with four or more spades (a part of singleton_value)",
}
"""Parts the sheet counts 0 (or lumps together), fitted in a second, extended model to see whether they matter."""

ON_LEAD = "on_lead"
"""1 for the side whose seat leads the first trick (a per-deal, not a per-hand, feature)."""


def _bits(x: np.ndarray) -> np.ndarray:
    counted: np.ndarray = np.bitwise_count(x).astype(np.int64)
    return counted


def hand_features(hands: np.ndarray) -> pd.DataFrame:
    """The count's parts (FEATURES, then EXTRA) of each hand of a uint64 mask array [n]."""
    hands = np.asarray(hands, dtype=np.uint64)

    def has(card: int) -> np.ndarray:
        held: np.ndarray = (hands >> np.uint64(card)) & np.uint64(1) == 1
        return held

    def suit(s: int) -> np.ndarray:
        return _bits(hands & np.uint64(0x1FFF << (13 * s)))

    spades = suit(SPADES)
    f: dict[str, np.ndarray] = {
        "ace_spade": has(13 * SPADES + ACE),
        "king_spade": has(13 * SPADES + KING) & (spades >= 2),
        "singleton_king_spade": has(13 * SPADES + KING) & (spades == 1),
        "queen_spade": has(13 * SPADES + QUEEN) & (spades >= 3),
        "spade_length_value": np.maximum(spades - 3, 0),
    }
    zero = np.zeros(len(hands), dtype=np.int64)
    side = {k: zero.copy() for k in ("side_ace", "side_king", "side_singleton_king", "side_queen", "side_queen_alone",
                                      "voids", "singletons")}  # fmt: skip
    for s in SIDE:
        length = suit(s)
        ace, king, queen = has(13 * s + ACE), has(13 * s + KING), has(13 * s + QUEEN)
        side["side_ace"] += ace
        side["side_king"] += king & (length >= 2)
        side["side_singleton_king"] += king & (length == 1)
        side["side_queen"] += queen & (ace | king)
        side["side_queen_alone"] += queen & ~ace & ~king
        side["voids"] += length == 0
        side["singletons"] += length == 1
    voids, singletons = side.pop("voids"), side.pop("singletons")
    f.update(side)
    f["void_value"] = voids * (spades >= 4)
    f["void_with_three_spades"] = voids * (spades == 3)
    f["singleton_value"] = singletons * (spades >= 3)
    f["queen_spade_short"] = has(13 * SPADES + QUEEN) & (spades < 3)
    f["void_short_trumps"] = voids * (spades <= 2)
    f["singleton_short_trumps"] = singletons * (spades <= 2)
    f["singleton_four_spades"] = singletons * (spades >= 4)
    return pd.DataFrame({k: np.asarray(v, dtype=float) for k, v in f.items()})


def side_rows(deals: pd.DataFrame) -> pd.DataFrame:
    """Two rows per deal (side 0 = seats 0+2, side 1 = seats 1+3): the side's summed features, on_lead, tricks."""
    per_seat = [hand_features(deals[f"hand{s}"].to_numpy(dtype=np.uint64)) for s in range(4)]
    rows = []
    for side in (0, 1):
        x = per_seat[side] + per_seat[side + 2]
        x[ON_LEAD] = (deals["leader"].to_numpy() % 2 == side).astype(float)
        x["tricks"] = deals["side0"].to_numpy() if side == 0 else 13 - deals["side0"].to_numpy()
        x["deal"] = deals["deal"].to_numpy()
        x["side"] = side
        rows.append(x)
    return pd.concat(rows, ignore_index=True)


# ----------------------------------------------------------------------------------------------
# The fit


@dataclass
class Fit:
    names: list[str]
    coef: np.ndarray
    se: np.ndarray
    rows: int
    deals: int
    r2: float
    rmse: float
    cov: np.ndarray
    clusters: np.ndarray | None = None
    """The cluster (deal) labels, sorted, one per row of `influence`."""
    influence: np.ndarray | None = None
    """Each cluster's share of coef - truth (bread @ its score), scaled so that influence.T @ influence == cov:
    what lets two fits on overlapping deals be added with their covariance (`combine`)."""
    se_added: np.ndarray | None = None
    """For a combined fit: the interval half-widths / Z95 if the two parts' variances were simply added."""

    def ratio(self, top: str, bottom: str) -> tuple[float, float, float]:
        """weight(top) / weight(bottom) with a delta-method 95% interval (from the clustered covariance)."""
        i, j = self.names.index(top), self.names.index(bottom)
        a, b = self.coef[i], self.coef[j]
        grad = np.zeros(len(self.coef))
        grad[i], grad[j] = 1 / b, -a / b**2
        se = float(np.sqrt(max(grad @ self.cov @ grad, 0.0)))
        return float(a / b), float(a / b - Z95 * se), float(a / b + Z95 * se)


def ols_cluster(x: pd.DataFrame, y: np.ndarray, clusters: np.ndarray) -> Fit:
    """OLS with an intercept; standard errors from the cluster-robust (by deal) sandwich, CR1 small-sample factor."""
    names = ["intercept", *x.columns]
    design = np.column_stack([np.ones(len(x)), x.to_numpy(dtype=float)])
    bread = np.linalg.pinv(design.T @ design)
    coef = bread @ design.T @ y
    resid = y - design @ coef
    labels, inverse = np.unique(clusters, return_inverse=True)
    g = len(labels)
    scores = np.zeros((g, design.shape[1]))
    np.add.at(scores, inverse, design * resid[:, None])
    n, k = design.shape
    factor = g / (g - 1) * (n - 1) / (n - k) if g > 1 and n > k else float("nan")
    influence = np.sqrt(factor) * scores @ bread  # bread is symmetric
    cov = influence.T @ influence
    r2 = 1 - float(resid @ resid) / float(((y - y.mean()) ** 2).sum()) if len(y) > 1 else float("nan")
    return Fit(names, coef, np.sqrt(np.maximum(np.diag(cov), 0)), n, g, r2, float(np.sqrt(np.mean(resid**2))), cov,
               labels, influence)  # fmt: skip


def combine(base: Fit, correction: Fit) -> Fit:
    """base + correction, with the joint cluster-by-deal covariance of the two estimates.

    The correction is fitted on a subset of the base's deals, so the two are not independent: the sum's
    covariance is sum over deals of (base influence + correction influence)(...)^T, which counts their
    covariance through the shared deals. `se_added` keeps the plain sum of the two variances for comparison."""
    assert base.names == correction.names and base.influence is not None and correction.influence is not None
    assert base.clusters is not None and correction.clusters is not None
    where = np.searchsorted(base.clusters, correction.clusters)
    if not (where < len(base.clusters)).all() or not (base.clusters[where] == correction.clusters).all():
        raise ValueError("the correction's deals must all be among the base fit's deals")
    influence = base.influence.copy()
    influence[where] += correction.influence
    cov = influence.T @ influence
    added = np.sqrt(np.maximum(np.diag(base.cov + correction.cov), 0))
    return Fit(base.names, base.coef + correction.coef, np.sqrt(np.maximum(np.diag(cov), 0)), base.rows, base.deals,
               float("nan"), float("nan"), cov, base.clusters, influence, added)  # fmt: skip


def fit_frame(fit: Fit, sheet: dict[str, float]) -> pd.DataFrame:
    z = Z95
    return pd.DataFrame({"feature": fit.names, "weight": fit.coef, "lo": fit.coef - z * fit.se,
                         "hi": fit.coef + z * fit.se, "se": fit.se,
                         "sheet": [sheet.get(n, float("nan")) for n in fit.names]})  # fmt: skip


def sheet_values() -> dict[str, float]:
    """The sheet's value of each part (CountParams defaults); the extended parts are 0 on the sheet."""
    values = {name: float(getattr(DEFAULT_COUNT, name)) for name in FEATURES}
    values.update({name: 0.0 for name in EXTRA})
    values["singleton_four_spades"] = 0.0  # on top of singleton_value
    return values


def paired_difference_rows(broken: pd.DataFrame, spades: pd.DataFrame) -> pd.DataFrame:
    """Side rows of the deals in both datasets, `tricks` = spades tricks - broken tricks (features are the same)."""
    both = np.intersect1d(broken["deal"].to_numpy(dtype=np.int64), spades["deal"].to_numpy(dtype=np.int64))
    b = broken.set_index("deal").loc[both].reset_index()
    s = spades.set_index("deal").loc[both].reset_index()
    same = ["leader", "hand0", "hand1", "hand2", "hand3"]
    if not (b[same].to_numpy(dtype=np.uint64) == s[same].to_numpy(dtype=np.uint64)).all():
        raise ValueError("the two datasets disagree on a deal (different seeds or streams?)")
    rows_b, rows_s = side_rows(b), side_rows(s)
    return rows_s.assign(tricks=rows_s["tricks"].to_numpy() - rows_b["tricks"].to_numpy())


@dataclass
class Fits:
    """Every fit of one model (a list of feature columns)."""

    broken: Fit
    """The rule `broken` on every broken deal."""
    correction: Fit
    """d: (spades tricks - broken tricks) on the same features, over the paired deals."""
    standard: Fit
    """broken + correction: the standard rules' weights (what the `calibrated` bidder ships)."""
    plain: Fit
    """The standard rules fitted directly on the paired spades deals only (the comparison)."""


def fit_model(broken: pd.DataFrame, spades: pd.DataFrame, columns: list[str]) -> Fits:
    rows_b = side_rows(broken)
    both = spades[spades["deal"].isin(broken["deal"])]
    rows_s = side_rows(both)
    diff = paired_difference_rows(broken, both)

    def ols(rows: pd.DataFrame) -> Fit:
        return ols_cluster(rows[columns], rows["tricks"].to_numpy(dtype=float), rows["deal"].to_numpy())

    b, d = ols(rows_b), ols(diff)
    return Fits(b, d, combine(b, d), ols(rows_s))


def fits(broken: pd.DataFrame, spades: pd.DataFrame) -> tuple[Fits, Fits]:
    """The count's model and the extended one (parts the sheet counts 0), each in all four fits."""
    return fit_model(broken, spades, [*FEATURES, ON_LEAD]), fit_model(broken, spades, [*FEATURES, *EXTRA, ON_LEAD])


def weights_of(fit: Fit) -> dict[str, float]:
    """The count the `calibrated` bidder uses: per-hand weights, and the per-hand base (half the side's intercept)."""
    c = dict(zip(fit.names, (float(v) for v in fit.coef)))
    return {"base": c["intercept"] / 2, ON_LEAD: c[ON_LEAD], **{name: c[name] for name in FEATURES}}


def weights_data(model: Fits, seed: int) -> dict[str, Any]:
    """The content of `calibrated_weights.json`: the standard-rule fit as a count."""
    return {
        "about": "DD-trick weights of the section 1 count's parts under the standard rules, fitted by `python -m "
        "spades_lab.fit counts` (OLS of a side's DD tricks on its summed parts with spades broken from the start, on "
        "`deals` deals, plus the paired correction spades - broken fitted on `paired_deals` deals; base = half the "
        "side's intercept, on_lead = the first leader's side's extra tricks).",
        "deals": model.broken.deals,
        "paired_deals": model.correction.deals,
        "seed": seed,
        "weights": {k: round(v, 4) for k, v in weights_of(model.standard).items()},
    }


def solve(
    raw: Path, recipe: CountRecipe, workers: int = 1, minutes: float = float("inf"), solver: str = "auto"
) -> None:
    """Solve what the recipe needs and no chunk under `raw` holds yet (broken first), for at most `minutes`."""
    deadline = time.monotonic() + 60 * minutes
    for rules, deals in (("broken", recipe.deals), ("spades", recipe.paired_deals)):
        left = (deadline - time.monotonic()) / 60
        if left > 0:
            solve_missing(raw / rules, recipe.seed, deals, workers, left, rules, pick_solver(rules, solver))


def refit(raw: Path, recipe: CountRecipe, least: int = 30) -> tuple[Fits, Fits, pd.DataFrame, pd.DataFrame]:
    """The count's model and the extended one, fitted on the recipe's deals under `raw` (at least `least` each)."""
    broken = solved_deals(raw / "broken", recipe.seed)
    spades = solved_deals(raw / "spades", recipe.seed)
    broken = broken[broken["deal"] < recipe.deals]
    spades = spades[spades["deal"] < recipe.paired_deals]
    paired = int(spades["deal"].isin(broken["deal"]).sum())
    if len(broken) < least or paired < least:
        raise ValueError(f"{len(broken)} broken deals, {paired} paired with spades deals under {raw}: too few to fit "
                         "(solve them first)")  # fmt: skip
    base, extended = fits(broken, spades)
    return base, extended, broken, spades


def weights_table(m: Fits) -> pd.DataFrame:
    """One row per feature: the sheet's value, the standard-rule weight, its two parts and the fit on the paired
    deals alone, each with its 95% interval (`NAME`, `NAME_lo`, `NAME_hi`)."""
    sheet = sheet_values()
    rows: dict[str, Any] = {"feature": m.standard.names, "sheet": [sheet.get(n, np.nan) for n in m.standard.names]}
    for label, fit in (
        ("standard", m.standard),
        ("broken", m.broken),
        ("correction", m.correction),
        ("plain", m.plain),
    ):
        rows |= {label: fit.coef, f"{label}_lo": fit.coef - Z95 * fit.se, f"{label}_hi": fit.coef + Z95 * fit.se}
    return pd.DataFrame(rows)
