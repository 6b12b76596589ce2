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
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

import spades_lab as sl
from spades_lab.policies.leads import FEATURES, KINDS, LEAD_OPTIONS, LEADS_RESOURCE, lead_batch, model_leads
from spades_lab.policies.memory import shown_voids
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", nargs="+", required=True, help="DIR@SEED folders of `lost --out` npz files")
    parser.add_argument("--test", nargs="+", default=[], help="DIR@SEED folders of other hands (held out)")
    parser.add_argument("--ridge", type=float, default=100.0)
    parser.add_argument("--margin", type=float, default=0.1, help="predicted DD tricks an option must gain")
    parser.add_argument("--write", action="store_true", help=f"ship the weights as policies/data/{LEADS_RESOURCE}")
    args = parser.parse_args()
    train = read_leads(args.train)
    weights = fit(train, args.ridge)
    report = {"train": local_gain(train, weights, args.margin)}
    print(f"train: {len(train.gains)} leads, {train.side_hands} side-hands; {report['train']}")
    if args.test:
        test = read_leads(args.test)
        report["test"] = local_gain(test, weights, args.margin)
        print(f"test: {len(test.gains)} leads, {test.side_hands} side-hands; {report['test']}")
    if args.write:
        path = Path(str(resources.files("spades_lab.policies").joinpath("data", LEADS_RESOURCE)))
        data = {
            "about": "The expert's lead_model (spades_lab/policies/leads.py): per option but keep, the weights of "
            "its inputs (features, features x kinds, kinds) and the intercept last; fitted by "
            "experiments/fit_expert_leads.py from the DD values of counting+expert's leads.",
            "options": list(LEAD_OPTIONS[1:]), "features": list(FEATURES), "kinds": list(KINDS),
            "ridge": args.ridge, "margin": args.margin, "train": train.sources,
            "test": test.sources if args.test else [], "report": report,
            "weights": [[round(float(w), 6) for w in row] for row in weights],
        }  # fmt: skip
        path.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
