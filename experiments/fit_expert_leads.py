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
import json
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

import spades_lab as sl
from spades_lab.fit import DD_TARGETS, SUITS, TARGETS, Leads, fit, local_gain, rollout_leads
from spades_lab.policies.leads import (
    FEATURES,
    KINDS,
    LEAD_OPTIONS,
    LEADS_RESOURCE,
    lead_batch,
    lead_weights,
)
from spades_lab.policies.memory import shown_voids
from spades_lab.policies.play import TipsParams

RULES = sl.Rules()


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
