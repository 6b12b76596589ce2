"""Fit the expert's `lead_model` (spades_lab/policies/leads.py) from saved double-dummy values of its leads.

Input: the per-play npz files of `strong_pimc.py lost --out DIR` runs of `counting+expert` (the default
expert: the model learns where ITS leads lose), each folder given with the seed its hands were played
from (`DIR@SEED`: the shown voids are read from the npz, or replayed from the seed for files written before
`lost` saved them). Each checked lead carries the DD value of every legal card on the true deal (`values`), so every option of `leads.LEAD_OPTIONS` is valued offline on
the same lead: its gain is its card's DD value minus the expert's card's (0 when the seat holds no such
card). Only the leads the switch may change are kept (four seats, both partners bid a number, no nil live,
more cards held than tip 11's last tricks; the sides in `lost` are short of their contract by construction).
One ridge regression per option (`--ridge`, on standardized inputs, folded back into raw weights) predicts
the gain from `leads.lead_inputs`.

The held-out figure is the local gain per side-hand on the TEST folders (other hands, not fitted): the DD
value of the card `model_lead` picks at `--margin` minus the expert's card's, summed per side-hand, the rest
of the play unchanged. Later play can give it back: confirm with a paired `strong_pimc.py lost` run of
`counting+expert(+lead_model)` on the test hands.

    cd experiments && ../.venv/bin/python fit_expert_leads.py --train /tmp/xlead/train7@7 --test /tmp/base480@6
    cd experiments && ../.venv/bin/python fit_expert_leads.py --train /tmp/xlead/train7@7 --test /tmp/base480@6 --write

The continuation mode (`--rollout TARGET`, `rollout_leads`) needs no saved runs and no solver: it plays
`--train-hands N@SEED` single hands with `--player` (the model-on expert: the positions the model will meet)
and, at every kept lead, plays each option card and then the rest of the hand ON THE TRUE DEAL with `--player`
at all four seats (the engine batched: 20,000 hands, 180,000 leads x 7 options, in about 15 s). The label of
an option is the side's outcome after it minus the outcome after `--base`'s card (the same expert without the
model: the card the model is handed), in one of `TARGETS`: final tricks, tricks capped at the contract, or the
single-hand score difference in tens of points. So the model learns what a lead is worth given how the expert
plays on, not given DD play; the labels are hindsight (the true deal) but the inputs are still only what the
leader sees. `--rollout dd` / `--rollout both` add one DD solve per kept lead (the option's DD value on these
positions; `both` fits the smaller of the DD and the continuation gain). `--rollout-weights FILE` plays the
positions and continuations with other weights (to iterate the fit once on the player that will use them);
`--weights-out FILE` writes the fitted weights as a JSON file of the shipped layout without shipping them;
any player plays them as `counting+expert(lead_weights=FILE)` (a tournament, `spades-lab tournament`, a notebook).
The held-out figures are `local_gain` on `--test-hands` (other seed), in every target, for the fitted, the
shipped and the rolled-with weights: one lead changed at a time, the expert playing on (paired per side-hand).

    cd experiments && ../.venv/bin/python fit_expert_leads.py --rollout points --ridge 1000 --margin 0.05 \
        --weights-out /tmp/w1.json
    cd experiments && ../.venv/bin/python fit_expert_leads.py --rollout points --ridge 1000 --margin 0.05 \
        --rollout-weights /tmp/w1.json --weights-out /tmp/w2.json

What it measured (results/strong_players/pimc.md): the continuation-fitted leads gain more
tricks as the expert plays on (+0.069 against +0.032 for the DD-fitted weights, per side-hand, one lead at a
time) but played out they RAISE the whole-hand DD loss (1.69 against 1.57): the tricks they gain come partly
from the opponents' later mistakes, which the DD statistic counts as losses.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

import spades_lab as sl
from spades_lab import dd
from spades_lab.engine import PlayView, State
from spades_lab.engine.state import FIRST_PLAY_DECISION
from spades_lab.engine.views import ViewContext
from spades_lab.policies.leads import (
    FEATURES,
    KINDS,
    LEAD_OPTIONS,
    LEADS_RESOURCE,
    lead_batch,
    lead_weights,
    model_leads,
)
from spades_lab.policies.memory import shown_voids
from spades_lab.policies.pimc import score_by_tricks
from spades_lab.policies.play import TipsParams, kernel_deck

RULES = sl.Rules()
SUITS, _, _ = kernel_deck(sl.cards.deck_for(RULES.deck))


@dataclass
class Leads:
    """The kept leads of some `lost` runs, as `leads.lead_batch` lays them out, with each option's DD gain."""

    args: tuple[np.ndarray, ...]  # cards, hands, legal, unseen, tricks, bids, won, voids (relative seats)
    inputs: np.ndarray
    options: np.ndarray
    values: np.ndarray  # [n, 52] DD value of every card (-1: not legal)
    gains: np.ndarray  # [n, options]
    side_hand: np.ndarray
    side_hands: int
    sources: list[str]


def replayed_voids(player: str, hands: int, seed: int) -> np.ndarray:
    """[hands, 13]: the shown-void bits before each trick, replayed from the seed with the current code.

    Only for npz files written before `lost` saved the voids of each play (`voids`): the replay matches
    their plays only while `player` still plays as it did then."""
    out = []
    for log in sl.simulate_hands(RULES, sl.make_players(player), hands, seed):
        for r in range(len(log)):
            plays, seats = log.plays[r], log.play_seats[r]
            out.append([shown_voids(plays[: 4 * t], seats[: 4 * t], 4, SUITS) for t in range(13)])
    return np.array(out, dtype=np.int64)


def read_run(path: Path, seed: int) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray, int, str]:
    z = np.load(path)
    done, player = int(z["done"]), str(z["key"]).split(" [")[0]
    lead = np.flatnonzero(z["pos"] == 0)
    leader = z["leader"][lead]
    rows = np.arange(len(lead))
    hands = z["hands"][lead]
    hand = hands[rows, leader]
    unseen = np.bitwise_or.reduce(hands, axis=1) & ~hand
    legal = hand.copy()
    side = hand & ~np.uint64(SUITS[3])
    shut = ~z["broken"][lead] & (side != 0)
    legal[shut] = side[shut]
    order = np.stack([leader, (leader + 2) % 4, (leader + 1) % 4, (leader + 3) % 4], axis=1)  # me, partner, left, right
    bids = np.take_along_axis(z["bids"][lead], order, axis=1)
    won = np.take_along_axis(z["won"][lead], order, axis=1)
    if "voids" in z.files:
        voids_now = z["voids"][lead]
    else:
        voids_now = replayed_voids(player, done, seed)[z["side_hand"][lead] // 2, z["t"][lead]]
    voids = (voids_now[:, None] >> (4 * order)) & 15
    nil_live = ((bids == 0) & (won == 0)).any(axis=1)
    cards_held = np.array([bin(int(h)).count("1") for h in hand])
    keep = (bids[:, 0] > 0) & (bids[:, 1] > 0) & ~nil_live & (cards_held > TipsParams().last_tricks)
    columns = (z["card"][lead], hand, legal, unseen, z["t"][lead], bids, won, voids.astype(np.int64))
    args = tuple(np.ascontiguousarray(a[keep]) for a in columns)
    return (
        args,
        z["values"][lead][keep].astype(np.int64),
        z["side_hand"][lead][keep],
        2 * done,
        f"{path}@{seed} ({done} hands, {z['key']})",
    )


def read_leads(folders: list[str]) -> Leads:
    """Every kept lead of the npz files of `DIR@SEED` folders (side-hands numbered apart across files)."""
    parts, offset, sources = [], 0, []
    for spec in folders:
        folder, seed = spec.rsplit("@", 1)
        for path in sorted(Path(folder).glob("lost_*.npz")):
            args, values, side_hand, side_hands, source = read_run(path, int(seed))
            parts.append((args, values, side_hand + offset))
            offset += side_hands
            sources.append(source)
    args = tuple(np.concatenate([p[0][k] for p in parts]) for k in range(8))
    values = np.concatenate([p[1] for p in parts])
    batch: Any = lead_batch  # a numba dispatcher: its call is not typed
    inputs, options = batch(*args, SUITS)
    mine = values[np.arange(len(values)), args[0]]
    picked = np.take_along_axis(values, np.maximum(options, 0), axis=1)
    gains = np.where(options >= 0, picked - mine[:, None], 0)
    return Leads(args, inputs, options, values, gains, np.concatenate([p[2] for p in parts]), offset, sources)


TARGETS = ("tricks", "contract", "points")
"""What a continuation is worth to the leader's side (`--rollout`): its tricks at the end of the hand, those
tricks capped at the side's contract (only the tricks it still needs count, as in the `lost` statistic), or
the hand score of the side minus the opponents' (`pimc.score_by_tricks`, no bags carried in) in tens of
points (so that `--margin` stays near a trick's scale). With `--rollout dd` or `--rollout both` two more: `dd`, the option's DD
value on the true deal at the lead (the DD mode's target, on these positions), `both`, per option the
smaller of its DD gain and its continuation gain in tricks (an option must be better both ways), and `mix`,
`--dd-share` times the DD gain plus the rest times the continuation gain in tricks."""
DD_TARGETS = ("dd", "both", "mix")


def _play_on(rules: sl.Rules, deck: Any, state: State, play: Any) -> None:
    """Every seat plays `play`'s card until the hand ends (each seat on its own view)."""
    context = ViewContext(rules, deck)
    while not state.done:
        seen = PlayView(state, None, state.to_act.copy(), state.decision, context)
        state.apply(np.asarray(play.play(seen), dtype=np.int64))


def _replayed(rules: sl.Rules, deck: Any, logs: list[Any], rows: np.ndarray, t: int, repeat: int = 1) -> State:
    """The hands `rows` of the concatenated logs at the lead of trick `t` (each row `repeat` times in a row)."""
    pick = np.repeat(rows, repeat)
    game = np.concatenate([log.game for log in logs])[pick]
    field = {name: np.concatenate([getattr(log, name) for log in logs])[pick]
             for name in ("hand", "dealer", "held", "bids", "blind", "plays", "score_before", "bags_before")}  # fmt: skip
    state = State(rules, game, field["hand"], np.zeros(len(pick), dtype=np.uint64), field["dealer"],
                  field["score_before"], field["bags_before"], deal=field["held"], deck=deck)  # fmt: skip
    state.set_bids(field["bids"], field["blind"])
    for k in range(4 * t):
        state.apply(field["plays"][:, k].astype(np.int64))
    return state


def play_with_weights(player: str, weights: np.ndarray) -> Any:
    """The expert play of `player` with other lead-model weights: a fresh play object, since the one
    make_players hands out is cached and shared, so it is never changed in place."""
    cached: Any = sl.make_players(player)[0].player
    return type(cached)(cached.params, weights)


def rollout_leads(
    player: str,
    base: str,
    hands: int,
    seed: int,
    weights: np.ndarray | None = None,
    with_dd: bool = False,
    dd_share: float = 0.75,
) -> dict[str, Leads]:
    """Every lead the switch may change in `hands` single hands of `player` (seed `seed`), each option valued
    by playing the rest of the hand ON THE TRUE DEAL with `player` at every seat (`target`: `TARGETS`).

    The positions are those `player` reaches; the expert's own card at each (KEEP) is `base`'s (the same
    expert without the model: the card `model_lead` is handed); `weights` replace `player`'s lead weights
    (to iterate the fit on the player that will use them). A lead is kept as `lead_model`'s kernel keeps it
    (both partners bid a number, no nil live, the side short of its contract, more cards than tip 11's last
    tricks). One `Leads` per target of `TARGETS`, whose `values` [n, 52] hold each rolled card's outcome (NaN
    for the cards no option leads), so the gains and `local_gain` read as in the DD mode: the option's outcome minus the expert's card's. Hindsight
    labels (the true deal), but the model still sees only the leader's features. `with_dd`: also the `DD_TARGETS`
    (one `dd.card_values` solve per kept lead: about 0.5 s of solver per hand, where the rollouts take 1 ms)."""
    rules = sl.Rules()
    deck = sl.cards.deck_for(rules.deck)
    players = sl.make_players(player)
    if weights is not None:  # the positions and the continuations both from the player with these weights
        expert = play_with_weights(player, weights)
        players = [dataclasses.replace(seat_player, player=expert) for seat_player in players]
    play = players[0].player
    keep_play = sl.make_players(base)[0].player
    logs = list(sl.simulate_hands(rules, players, hands, seed))
    n_hands = sum(len(log) for log in logs)
    context = ViewContext(rules, deck)
    batch: Any = lead_batch  # a numba dispatcher: its call is not typed
    columns: list[list[np.ndarray]] = [[] for _ in range(8)]
    value_parts: dict[str, list[np.ndarray]] = {name: [] for name in TARGETS + ("dd",)}
    solver = dd.Solver(rules) if with_dd else None
    side_parts = []
    for t in range(13):
        state = _replayed(rules, deck, logs, np.arange(n_hands), t)
        view = PlayView(state, None, state.to_act.copy(), state.decision, context)
        assert state.decision - FIRST_PLAY_DECISION == 4 * t
        card = np.asarray(keep_play.play(view), dtype=np.int64)
        seat = state.to_act.astype(np.int64)
        rows = np.arange(n_hands)
        order = np.stack([seat, (seat + 2) % 4, (seat + 1) % 4, (seat + 3) % 4], axis=1)  # me, partner, left, right
        bids = np.take_along_axis(state.bids, order, axis=1)
        won = np.take_along_axis(state.tricks_won, order, axis=1)
        hand = state.hands[rows, seat]
        nil_live = ((bids == 0) & (won == 0)).any(axis=1)
        cards_held = np.array([bin(int(h)).count("1") for h in hand])
        short = won[:, 0] + won[:, 1] < bids[:, 0] + bids[:, 1]
        keep = (bids[:, 0] > 0) & (bids[:, 1] > 0) & ~nil_live & short & (cards_held > TipsParams().last_tricks)
        if not keep.any():
            continue
        kept = rows[keep]
        voids = (state.shown_voids[kept, None] >> (4 * order[kept])) & 15
        unseen = np.bitwise_or.reduce(state.hands[kept], axis=1) & ~hand[kept]
        at: tuple[np.ndarray, ...] = (card[kept], hand[kept], view.legal[kept].astype(np.uint64), unseen,
                                      np.full(len(kept), t, dtype=np.int64), bids[kept], won[kept],
                                      voids.astype(np.int64))  # fmt: skip
        args = tuple(np.ascontiguousarray(a) for a in at)
        _, options = batch(*args, SUITS)
        options = np.where(options >= 0, options, card[kept][:, None])  # none held: the expert's card (gain 0)
        width = options.shape[1]
        rolled = _replayed(rules, deck, logs, kept, t, width)
        rolled.apply(options.reshape(-1))
        _play_on(rules, deck, rolled, play)
        me = np.repeat(seat[kept], width)
        r = np.arange(len(me))
        final = rolled.tricks_won[r, me] + rolled.tricks_won[r, (me + 2) % 4]
        lead = np.repeat(np.arange(len(kept)), width)
        bags = np.zeros((len(kept), 2), dtype=np.int64)
        score = score_by_tricks(rules, state.bids[kept], state.tricks_won[kept], bags, seat[kept])  # [n, 14]
        outcomes = {
            "tricks": final.astype(np.float64),
            "contract": np.minimum(final, np.repeat(bids[kept, 0] + bids[kept, 1], width)).astype(np.float64),
            "points": score[lead, final] / 10.0,
        }
        for name, outcome in outcomes.items():
            values = np.full((len(kept), 52), np.nan)
            values[lead, options.reshape(-1)] = outcome
            value_parts[name].append(values)
        if solver is not None:
            trick = np.full((len(kept), 4), -1, dtype=np.int64)
            exact = dd.card_values(state.hands[kept], trick, seat[kept], state.broken[kept], solver=solver)
            value_parts["dd"].append(np.where(exact >= 0, exact, np.nan).astype(np.float64))
        for k in range(8):
            columns[k].append(args[k])
        side_parts.append(2 * kept + seat[kept] % 2)
    args = tuple(np.concatenate(c) for c in columns)
    inputs, options = batch(*args, SUITS)
    side_hand = np.concatenate(side_parts)
    out = {}
    for name in TARGETS + (("dd",) if with_dd else ()):
        values = np.concatenate(value_parts[name])
        mine = values[np.arange(len(values)), args[0]]
        picked = np.take_along_axis(values, np.maximum(options, 0), axis=1)
        gains = np.where(options >= 0, picked - mine[:, None], 0.0)
        source = f"{player} rolled out on the true deal, {n_hands} hands of seed {seed}, target {name}, keep = {base}"
        out[name] = Leads(args, inputs, options, values, gains, side_hand, 2 * n_hands, [source])
    if with_dd:  # valued (local_gain) in continuation tricks; fitted on the smaller gain (both) or the blend (mix)
        both = np.minimum(out["dd"].gains, out["tricks"].gains)
        out["both"] = dataclasses.replace(out["tricks"], gains=both, sources=[out["tricks"].sources[0] + " and dd"])
        mix = dd_share * out["dd"].gains + (1.0 - dd_share) * out["tricks"].gains
        out["mix"] = dataclasses.replace(out["tricks"], gains=mix, sources=[f"{out['tricks'].sources[0]} and dd, "
                                                                            f"dd share {dd_share}"])  # fmt: skip
    return out


def fit(leads: Leads, ridge: float) -> np.ndarray:
    """[options - 1, WIDTH + 1] raw weights: per option but KEEP, ridge on standardized inputs, folded back."""
    x = leads.inputs
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    xs = np.c_[(x - mean) / scale, np.ones(len(x))]
    penalty = ridge * np.eye(xs.shape[1])
    penalty[-1, -1] = 0.0  # the intercept is not shrunk
    coef = np.linalg.solve(xs.T @ xs + penalty, xs.T @ leads.gains[:, 1:])  # [WIDTH + 1, options - 1]
    weights = np.empty((coef.shape[1], x.shape[1] + 1))
    weights[:, :-1] = (coef[:-1] / scale[:, None]).T
    weights[:, -1] = coef[-1] - (coef[:-1] * (mean / scale)[:, None]).sum(axis=0)
    return weights


def local_gain(leads: Leads, weights: np.ndarray, margin: float) -> dict[str, Any]:
    """The model's DD gain per side-hand on these leads (95% interval over side-hands), as the kernel picks."""
    pick: Any = model_leads  # a numba dispatcher: its call is not typed
    cards = pick(weights, margin, *leads.args, SUITS)
    rows = np.arange(len(cards))
    gain = leads.values[rows, cards] - leads.values[rows, leads.args[0]]
    per_side = np.zeros(leads.side_hands)
    np.add.at(per_side, leads.side_hand, gain)
    se = per_side.std(ddof=1) / np.sqrt(len(per_side))
    changed = cards != leads.args[0]
    by_option = {
        LEAD_OPTIONS[k]: int((changed & (leads.options[:, k] == cards)).sum()) for k in range(1, len(LEAD_OPTIONS))
    }
    return {
        "gain": float(per_side.mean()), "lo": float(per_side.mean() - 1.96 * se),
        "hi": float(per_side.mean() + 1.96 * se), "leads": int(len(gain)), "changed": int(changed.sum()),
        "gain_per_changed": float(gain[changed].mean()) if changed.any() else 0.0, "changed_by_option": by_option,
    }  # fmt: skip


def _hands_at(spec: str) -> tuple[int, int]:
    """`N@SEED` -> (N, SEED)."""
    hands, seed = spec.split("@")
    return int(hands), int(seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", nargs="+", default=[], help="DIR@SEED folders of `lost --out` npz files")
    parser.add_argument("--test", nargs="+", default=[], help="DIR@SEED folders of other hands (held out)")
    parser.add_argument("--ridge", type=float, default=100.0)
    parser.add_argument("--margin", type=float, default=0.1, help="predicted gain an option must reach")
    parser.add_argument(
        "--rollout", choices=TARGETS + DD_TARGETS, help="fit on the expert's continuation, not on DD values"
    )
    parser.add_argument("--player", default="counting+expert(+lead_model)", help="--rollout: who plays on")
    parser.add_argument("--base", default="counting+expert(-lead_model)", help="--rollout: whose card is KEEP")
    parser.add_argument("--train-hands", default="20000@7", help="--rollout: N@SEED hands to fit on")
    parser.add_argument("--test-hands", default="4000@6", help="--rollout: N@SEED held-out hands")
    parser.add_argument("--dd-share", type=float, default=0.75, help="--rollout mix: the DD gain's share")
    parser.add_argument("--rollout-weights", help="--rollout: a weights JSON file for --player (iterate the fit)")
    parser.add_argument("--weights-out", help="write the weights JSON to this file (not shipped)")
    parser.add_argument("--write", action="store_true", help=f"ship the weights as policies/data/{LEADS_RESOURCE}")
    args = parser.parse_args()
    report: dict[str, Any] = {}
    if args.rollout:
        given = None
        if args.rollout_weights:
            given = np.asarray(json.loads(Path(args.rollout_weights).read_text())["weights"], dtype=np.float64)
        with_dd = args.rollout in DD_TARGETS
        train_all = rollout_leads(args.player, args.base, *_hands_at(args.train_hands), given, with_dd, args.dd_share)
        test_all = rollout_leads(args.player, args.base, *_hands_at(args.test_hands), given, with_dd, args.dd_share)
        train, test_sources = train_all[args.rollout], test_all[args.rollout].sources
        weights = fit(train, args.ridge)
        shipped = np.array(lead_weights())
        for label, w in (("fitted", weights), ("shipped before", shipped), ("rolled with", given)):
            if w is None:
                continue
            for name in TARGETS + (("dd",) if with_dd else ()):
                for part, leads in (("train", train_all[name]), ("test", test_all[name])):
                    report[f"{part} {label} {name}"] = local_gain(leads, w, args.margin)
                    cell = report[f"{part} {label} {name}"]
                    print(
                        f"{part} {label} weights, gain in {name}: {cell['gain']:+.3f} ({cell['lo']:+.3f} to "
                        f"{cell['hi']:+.3f}) per side-hand, {cell['changed']} of {cell['leads']} leads changed"
                    )
    else:
        if not args.train:
            parser.error("--train DIR@SEED ... (or --rollout TARGET)")
        train = read_leads(args.train)
        weights = fit(train, args.ridge)
        report = {"train": local_gain(train, weights, args.margin)}
        print(f"train: {len(train.gains)} leads, {train.side_hands} side-hands; {report['train']}")
        test_sources = []
        if args.test:
            test = read_leads(args.test)
            report["test"] = local_gain(test, weights, args.margin)
            test_sources = test.sources
            print(f"test: {len(test.gains)} leads, {test.side_hands} side-hands; {report['test']}")
    fitted_on = (
        f"the {args.rollout} outcome of playing the rest of the hand on the true deal with {args.player}"
        f"{' (weights ' + args.rollout_weights + ')' if args.rollout_weights else ''} after each option, "
        f"minus that after {args.base}'s card"
        if args.rollout
        else "the DD values of counting+expert's leads"
    )
    data = {
        "about": "The expert's lead_model (spades_lab/policies/leads.py): per option but keep, the weights of "
        "its inputs (features, features x kinds, kinds) and the intercept last; fitted by "
        f"experiments/fit_expert_leads.py on {fitted_on}.",
        "options": list(LEAD_OPTIONS[1:]), "features": list(FEATURES), "kinds": list(KINDS),
        "target": args.rollout or "dd", "ridge": args.ridge, "margin": args.margin, "train": train.sources,
        "test": test_sources, "report": report,
        "weights": [[round(float(w), 6) for w in row] for row in weights],
    }  # fmt: skip
    if args.weights_out:
        Path(args.weights_out).write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {args.weights_out}")
    if args.write:
        path = Path(str(resources.files("spades_lab.policies").joinpath("data", LEADS_RESOURCE)))
        path.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
