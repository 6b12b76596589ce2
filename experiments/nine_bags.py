"""At nine bags, is bidding the extra trick better than the borderline count?

Per play engine (tips, expert, pimc), one duplicate tournament: counting (bag-aware: a side at 9 bags,
modulo 10, rounds a count whose fractional part is at least .5 up) against counting(bag_aware=False)
(always rounds down), every seat playing the engine. Two looks at it:

- Whole games: win rate and final margin, paired deal by deal.
- The hands where it matters. Both seatings of a game id play the same deals, and the two bidders
  differ only at 9 bags with a borderline count, so the two tables of a deal are identical up to
  the first hand where some side is at 9 bags with a borderline count. At that hand the two tables
  hold the same cards, scores and bags: one bids the extra trick, the other the floor. That is an
  exact counterfactual; we compare what the hand (and the rest of the game) brings the side in
  both. Hands where both sides were in that spot at once are left out (the opponents' bid differs).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import (
    ENGINE_NAMES,
    ENGINES,
    RULES,
    Claim,
    Engine,
    Experiment,
    answer_per_engine,
    cli,
    entrant_figures,
    figures_frame,
    mean_estimate,
    paired_figures,
    save_figure,
    sign,
    verdict_section,
    wilson_estimate,
    write_readme,
)

NAME = "nine_bags"
GAMES = {"tips": 10_000, "expert": 10_000, "pimc": 100}
"""Games (or duplicate deals) per tournament at scale 1, per play engine: the machine is 2 shared cores, so
the budget of the whole `make experiments` is about half an hour; pimc is the expensive one."""
SEATS = {0: (0, 2), 1: (1, 3)}
COLUMNS = ["seating", "game", "hand", *(f"bid{s}" for s in range(4)), *(f"tricks{s}" for s in range(4)),
           "score_before0", "score_before1", "bags_before0", "bags_before1", "hand_score0", "hand_score1",
           "bag_penalties0", "bag_penalties1", "bags_won0", "bags_won1"]  # fmt: skip


def first_divergences(hands: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, int]]:
    """Per game id, the first hand whose bids differ between the two seatings, with both tables' rows
    side by side (suffix _a: seating 0, AWARE on side 0; _b: seating 1, AWARE on side 1)."""
    a = hands[hands["seating"] == 0].drop(columns="seating")
    b = hands[hands["seating"] == 1].drop(columns="seating")
    both = a.merge(b, on=["game", "hand"], suffixes=("_a", "_b")).sort_values(["game", "hand"])
    differ = {side: np.zeros(len(both), dtype=bool) for side in (0, 1)}
    for side, seats in SEATS.items():
        for s in seats:
            differ[side] |= both[f"bid{s}_a"].to_numpy() != both[f"bid{s}_b"].to_numpy()
    both["diff0"], both["diff1"] = differ[0], differ[1]
    first = both[both["diff0"] | both["diff1"]].groupby("game", sort=True).head(1)
    same_state = all((first[f"{c}_a"] == first[f"{c}_b"]).all()
                     for c in ("score_before0", "score_before1", "bags_before0", "bags_before1"))  # fmt: skip
    if not same_state:
        raise AssertionError("the two seatings reached a divergent hand in different states: duplicate broken?")
    counts = {"games": int(hands["game"].nunique()), "divergent_games": len(first),
              "both_sides": int((first["diff0"] & first["diff1"]).sum())}  # fmt: skip
    return first[first["diff0"] ^ first["diff1"]].copy(), counts


def side_outcome(rows: pd.DataFrame, side: np.ndarray, table: str) -> pd.DataFrame:
    """For each row, what the hand brought `side` at table suffix `table` ('a' or 'b')."""
    n = len(rows)
    idx = np.arange(n)

    def per_seat(prefix: str) -> np.ndarray:
        return np.stack([rows[f"{prefix}{s}_{table}"].to_numpy() for s in range(4)], axis=1)

    bids, tricks = per_seat("bid"), per_seat("tricks")
    seats = np.array([SEATS[0], SEATS[1]])[side]  # [n, 2]
    my_bids, my_tricks = bids[idx[:, None], seats], tricks[idx[:, None], seats]
    numeric = my_bids > 0
    contract = np.where(numeric, my_bids, 0).sum(axis=1)
    made_tricks = np.where(numeric, my_tricks, 0).sum(axis=1)

    def per_side(prefix: str, which: np.ndarray) -> np.ndarray:
        return np.where(which == 0, rows[f"{prefix}0_{table}"].to_numpy(), rows[f"{prefix}1_{table}"].to_numpy())

    return pd.DataFrame({
        "contract": contract,
        "set": (contract > 0) & (made_tricks < contract),
        "penalty": per_side("bag_penalties", side) > 0,
        "bags_won": per_side("bags_won", side),
        "hand_points": per_side("hand_score", side),
        "hand_margin": per_side("hand_score", side) - per_side("hand_score", 1 - side),
        "bags_before": per_side("bags_before", side),
    }, index=rows.index)  # fmt: skip


def later_nine_bag_hands(
    hands: pd.DataFrame, samples: pd.DataFrame, up_seating, floor_seating
) -> dict[str, np.ndarray]:
    """For each sample, how many later hands of the same game the side entered at 9 bags (modulo 10),
    at the table where it bid the extra trick and at the one where it bid the floor."""
    nine = RULES.bag_threshold - 1
    long = hands[["seating", "game", "hand", "bags_before0", "bags_before1"]]
    key = (
        samples[["game", "hand", "side"]]
        .rename(columns={"hand": "at"})
        .assign(up=up_seating, floor=floor_seating, sample=np.arange(len(samples)))
    )
    merged = key.merge(long, on="game")
    merged = merged[merged["hand"] > merged["at"]]
    bags = np.where(merged["side"] == 0, merged["bags_before0"], merged["bags_before1"])
    merged = merged.assign(nine=(bags % RULES.bag_threshold) == nine)
    out = {}
    for which in ("up", "floor"):
        mine = merged[merged["seating"] == merged[which]]
        out[which] = mine.groupby("sample")["nine"].sum().reindex(range(len(samples)), fill_value=0).to_numpy()
    return out


def measure(exp: Experiment, engine: Engine) -> dict:
    """One engine's duplicate tournament and its divergent hands."""
    AWARE, PLAIN = engine.player("counting"), engine.player("counting(bag_aware=False)")
    games = exp.games(engine)
    result = exp.run(engine, [AWARE, PLAIN], games=games, duplicate=True)
    figs = entrant_figures(result)
    paired = paired_figures(result, AWARE)

    hands = pd.read_parquet(result.out / "hands", columns=COLUMNS)
    first, counts = first_divergences(hands)
    side = np.where(first["diff0"].to_numpy(), 0, 1)
    # seating 0 (suffix a) has AWARE on side 0: side 0's extra trick is at table a, side 1's at table b
    up = side_outcome(first, side, "a").where(pd.Series(side == 0, index=first.index), side_outcome(first, side, "b"))
    floor = side_outcome(first, side, "b").where(
        pd.Series(side == 0, index=first.index), side_outcome(first, side, "a")
    )
    extra = up["contract"] - floor["contract"]
    if len(first) and not (
        (extra >= 1).all() and (up["bags_before"] % RULES.bag_threshold == RULES.bag_threshold - 1).all()
    ):
        raise AssertionError("a divergent hand is not a bag-aware round-up at nine bags")
    g = result.games.assign(entrant=result.games["entrant"].astype(str)).set_index(["seating", "game", "side"])
    games_ = first["game"].to_numpy()
    up_seating, floor_seating = side, 1 - side  # AWARE sits on side s in seating s
    up_rows = g.loc[list(zip(up_seating, games_, side))]
    floor_rows = g.loc[list(zip(floor_seating, games_, side))]
    won_up, won_floor = up_rows["won"].to_numpy(dtype=float), floor_rows["won"].to_numpy(dtype=float)
    margin_up = (up_rows["score"] - up_rows["opp_score"]).to_numpy()
    margin_floor = (floor_rows["score"] - floor_rows["opp_score"]).to_numpy()
    samples = pd.DataFrame({
        "game": games_, "hand": first["hand"].to_numpy(), "side": side, "extra_tricks": extra.to_numpy(),
        "contract_floor": floor["contract"].to_numpy(), "contract_up": up["contract"].to_numpy(),
        "set_floor": floor["set"].to_numpy(), "set_up": up["set"].to_numpy(),
        "penalty_floor": floor["penalty"].to_numpy(), "penalty_up": up["penalty"].to_numpy(),
        "hand_points_floor": floor["hand_points"].to_numpy(), "hand_points_up": up["hand_points"].to_numpy(),
        "hand_margin_floor": floor["hand_margin"].to_numpy(), "hand_margin_up": up["hand_margin"].to_numpy(),
        "won_floor": won_floor, "won_up": won_up,
        "final_margin_floor": margin_floor, "final_margin_up": margin_up,
    })  # fmt: skip
    later = later_nine_bag_hands(hands, samples, up_seating, floor_seating)
    samples["later_nine_floor"], samples["later_nine_up"] = later["floor"], later["up"]
    n = len(samples)
    rate = {k: {v: wilson_estimate(int(samples[f"{k}_{v}"].sum()), n) for v in ("floor", "up")}
            for k in ("set", "penalty", "won")}  # fmt: skip
    diff = {k: mean_estimate(samples[f"{k}_up"].astype(float) - samples[f"{k}_floor"].astype(float))
            for k in ("set", "penalty", "won", "hand_points", "hand_margin", "final_margin", "later_nine",
                      "contract")}  # fmt: skip
    means = {k: {v: mean_estimate(samples[f"{k}_{v}"].astype(float)) for v in ("floor", "up")}
             for k in ("hand_points", "hand_margin", "final_margin", "later_nine", "contract")}  # fmt: skip

    rows = [figures_frame(figs, look="games"),
            figures_frame({AWARE: {f"paired_{k}": e for k, e in paired.items()}}, look="games"),
            figures_frame({"floor+1 minus floor": {f"{k}_diff": e for k, e in diff.items()}}, look="divergent hands"),
            figures_frame({"floor": {f"{k}_rate": v["floor"] for k, v in rate.items()},
                           "floor+1": {f"{k}_rate": v["up"] for k, v in rate.items()}}, look="divergent hands"),
            figures_frame({"floor": {k: v["floor"] for k, v in means.items()},
                           "floor+1": {k: v["up"] for k, v in means.items()}}, look="divergent hands"),
            pd.DataFrame([{"look": "divergent hands", "entrant": "", "figure": k, "value": v} for k, v in counts.items()]
                         + [{"look": "divergent hands", "entrant": "", "figure": "samples", "value": n},
                            {"look": "divergent hands", "entrant": "", "figure": "samples_extra_2",
                             "value": int((samples["extra_tricks"] >= 2).sum())}])]  # fmt: skip
    frame = pd.concat(rows, ignore_index=True).assign(engine=engine.name)
    samples.to_csv(exp.out / "run" / engine.name / "nine_bags_hands.csv", index=False)  # per hand: kept out of git
    return {
        "AWARE": AWARE,
        "PLAIN": PLAIN,
        "games": games,
        "figs": figs,
        "paired": paired,
        "rate": rate,
        "diff": diff,
        "means": means,
        "counts": counts,
        "n": n,
        "samples": samples,
        "frame": frame,
    }


def engine_section(engine: Engine, r: dict) -> str:
    """The per-engine tables (the numbers behind one column of the verdict table)."""
    AWARE, PLAIN, figs, paired, rate, diff, means, counts, n, samples = (
        r[k] for k in ("AWARE", "PLAIN", "figs", "paired", "rate", "diff", "means", "counts", "n", "samples")
    )
    return f"""### `{engine.play}`

**The hands where it matters** ({n:,} first divergent hands out of {counts["games"]:,} deals;
{counts["divergent_games"]:,} deals diverged at all, {counts["both_sides"]:,} of them with both sides at 9 bags and
borderline at once, left out; the extra trick was 2 tricks, both partners borderline, in
{int((samples["extra_tricks"] >= 2).sum()):,} hands):

| at the divergent hand, for the side at 9 bags | bid the floor | bid floor + 1 | floor + 1 minus floor (paired) |
|---|---|---|---|
| set | {rate["set"]["floor"].fmt(1, percent=True)} | {rate["set"]["up"].fmt(1, percent=True)} | {diff["set"].fmt(1, percent=True, signed=True)} |
| tenth bag: 100-point penalty | {rate["penalty"]["floor"].fmt(1, percent=True)} | {rate["penalty"]["up"].fmt(1, percent=True)} | {diff["penalty"].fmt(1, percent=True, signed=True)} |
| side's points this hand | {means["hand_points"]["floor"].fmt(1)} | {means["hand_points"]["up"].fmt(1)} | {diff["hand_points"].fmt(1, signed=True)} |
| side's points minus opponents' this hand | {means["hand_margin"]["floor"].fmt(1)} | {means["hand_margin"]["up"].fmt(1)} | {diff["hand_margin"].fmt(1, signed=True)} |
| won the game | {rate["won"]["floor"].fmt(1, percent=True)} | {rate["won"]["up"].fmt(1, percent=True)} | {diff["won"].fmt(1, percent=True, signed=True)} |
| final score margin | {means["final_margin"]["floor"].fmt(0)} | {means["final_margin"]["up"].fmt(0)} | {diff["final_margin"].fmt(0, signed=True)} |
| side's contract this hand | {means["contract"]["floor"].fmt(2)} | {means["contract"]["up"].fmt(2)} | {diff["contract"].fmt(2, signed=True)} |
| later hands of the game entered at 9 bags | {means["later_nine"]["floor"].fmt(2)} | {means["later_nine"]["up"].fmt(2)} | {diff["later_nine"].fmt(2, signed=True)} |

**Whole games** (duplicate, {r["games"]:,} deals, each played in both seatings):

| | bag-aware (`{AWARE}`) | always floor (`{PLAIN}`) |
|---|---|---|
| win rate | {figs[AWARE]["win_rate"].fmt(1, percent=True)} | {figs[PLAIN]["win_rate"].fmt(1, percent=True)} |
| sets per hand | {figs[AWARE]["set_rate"].value:.2%} | {figs[PLAIN]["set_rate"].value:.2%} |
| bag penalty points per game | {figs[AWARE]["bag_penalty_points_per_game"].fmt(1)} | {figs[PLAIN]["bag_penalty_points_per_game"].fmt(1)} |
| points per hand | {figs[AWARE]["points_per_hand"].value:.2f} | {figs[PLAIN]["points_per_hand"].value:.2f} |

Paired per deal (bag-aware minus always floor): win rate {paired["win_diff"].fmt(2, percent=True, signed=True)},
final margin {paired["margin"].fmt(1, signed=True)} points. The spot comes up (for the first time) in
{n / counts["games"]:.0%} of deals."""


def main(out_dir=None, scale: float = 1.0, workers: int = 2, engines=ENGINE_NAMES):
    """Bag-aware overbidding at nine bags, per play engine: duplicate games and the exact hands where it changes the bid."""
    exp = Experiment(NAME, out_dir, scale, workers, engines, GAMES)
    out = exp.out
    m = {e.name: measure(exp, e) for e in exp.engines}
    pd.concat([r["frame"] for r in m.values()], ignore_index=True).to_csv(out / "nine_bags.csv", index=False)

    colours = {"tips": "tab:gray", "expert": "tab:blue", "pimc": "tab:purple"}
    width = 0.8 / len(m)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    labels = {"set": "set", "penalty": "10th-bag\npenalty", "won": "won the\ngame"}
    keys = {"hand_points": "side's points\nthis hand", "hand_margin": "vs opponents\nthis hand"}
    for i, (k, r) in enumerate(m.items()):
        off = (i - (len(m) - 1) / 2) * width
        es = [r["diff"][x] for x in labels]
        ax1.bar(np.arange(len(labels)) + off, [e.value * 100 for e in es], width=width, color=colours.get(k), label=k,
                yerr=np.array([(e.value - e.lo, e.hi - e.value) for e in es]).T * 100, capsize=3)  # fmt: skip
        es = [r["diff"][x] for x in keys]
        ax2.bar(np.arange(len(keys)) + off, [e.value for e in es], width=width, color=colours.get(k), label=k,
                yerr=np.array([(e.value - e.lo, e.hi - e.value) for e in es]).T, capsize=3)  # fmt: skip
    for ax, names, unit in ((ax1, labels, "% points"), (ax2, keys, "points")):
        ax.axhline(0, color="k", lw=0.8)
        ax.set_xticks(np.arange(len(names)), list(names.values()))
        ax.set_ylabel(f"floor + 1 minus floor ({unit})")
        ax.legend(fontsize=8)
    ax1.set_title("Side at 9 bags with a borderline count: paired, same deal and state", fontsize=9)
    ax2.set_title("Points on the divergent hand", fontsize=9)
    plot = save_figure(fig, out / "nine_bags.png")

    fig, ax = plt.subplots(figsize=(6, 4))
    es = [r["paired"]["win_diff"] for r in m.values()]
    ax.bar(np.arange(len(m)), [e.value * 100 for e in es], color=[colours.get(k) for k in m], capsize=4,
           yerr=np.array([(e.value - e.lo, e.hi - e.value) for e in es]).T * 100)  # fmt: skip
    ax.axhline(0, color="k", lw=0.8)
    ax.set_xticks(np.arange(len(m)), list(m))
    ax.set_ylabel("bag-aware minus always floor, win rate (% points)")
    ax.set_title("Whole duplicate games, paired per deal", fontsize=9)
    plot2 = save_figure(fig, out / "nine_bags_games.png")

    claims = [
        Claim("bag-aware rounding wins games", "win rate, bag-aware minus always floor (paired per deal)",
              {k: (r["paired"]["win_diff"], sign(r["paired"]["win_diff"], "yes", "no")) for k, r in m.items()}, 2,
              percent=True, signed=True),
        Claim("the extra trick pays on the hand", "points minus opponents' on the divergent hand, floor + 1 minus floor",
              {k: (r["diff"]["hand_margin"], sign(r["diff"]["hand_margin"], "ahead", "behind")) for k, r in m.items()},
              1, signed=True),
        Claim("the extra trick avoids the tenth bag", "tenth-bag penalty on the hand, floor + 1 minus floor",
              {k: (r["diff"]["penalty"], sign(r["diff"]["penalty"], "more penalties", "fewer penalties"))
               for k, r in m.items()}, 1, percent=True, signed=True),
        Claim("the extra trick costs sets", "set on the hand, floor + 1 minus floor",
              {k: (r["diff"]["set"], sign(r["diff"]["set"], "more sets", "fewer sets")) for k, r in m.items()}, 1,
              percent=True, signed=True),
    ]  # fmt: skip
    answer = answer_per_engine(claims[:2])
    body = (
        "\n\n".join(engine_section(ENGINES[k], r) for k, r in m.items())
        + """

The "won the game" and "final score margin" rows follow the rest of the game, in which the side keeps bidding
bag-aware (or not) and the opponents do the opposite; the hand rows are an exact counterfactual (same cards, score
and bags, only the side's bid differs). The script also writes every sample, one row per divergent hand, to
`run/ENGINE/nine_bags_hands.csv` (not committed).

**What it means.** The sheet's arithmetic: a set costs the contract (-10 a trick, so a set of a 6-trick contract
costs about 60, not 50), the tenth bag -100. A set side takes no bags, so it stays at 9 bags and faces the same
choice again. The engines differ in how many tricks the side actually takes, which moves both the set and the
bag odds of the extra trick."""
    )
    setup = (f"Per play engine, one duplicate tournament, standard rules, games stopped at {RULES.hand_cap} hands: "
             "`counting+ENGINE` (bag-aware at 9 bags: margin 1, borderline 0.5) against "
             f"`counting(bag_aware=False)+ENGINE` (always rounds down). {exp.budgets('deals')}")  # fmt: skip
    write_readme(out, title="At nine bags, bid the extra trick?",
                 question="At nine bags, is bidding the extra trick better than the borderline count?",
                 claim="\"Vous êtes à neuf bags avec une main limite : annoncez le pli supplémentaire. Moins cinquante "
                       "pour une chute vaut mieux que moins cent pour le dixième bag.\" (at nine bags with a borderline "
                       "hand, bid the extra trick: -50 for a set beats -100 for the tenth bag.)",
                 answer=answer, body=body, cmd=exp.command, setup=setup, seconds=exp.timer.seconds,
                 plots=[plot.name, plot2.name], csvs=["nine_bags.csv"], verdicts=verdict_section(claims, exp.engines))  # fmt: skip
    return out


if __name__ == "__main__":
    cli(NAME, main)
