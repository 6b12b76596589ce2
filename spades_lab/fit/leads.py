"""Fitting the shipped lead weights: the expert's `lead_model` (policies/leads.py), learnt from its own play.

Both fits collect the leads the model may change (`rollout_leads`): single hands of a player, and at every such
lead each option card valued on the TRUE DEAL. `continuation` plays the rest of the hand with the same player at
all four seats and labels each option by the side's outcome after it minus after the keep card (`TARGETS`); `dd`
solves every card double dummy at the lead (`DD_TARGETS`). `fit` is one ridge regression per option on
standardized `leads.lead_inputs`, folded back into raw weights; `local_gain` is the held-out figure (one lead
changed at a time, the player playing on, paired per side-hand). Each shipped file has a recipe (hands, seeds,
ridge, margin) and is rebuilt from it by `python -m spades_lab.fit` (see `spades_lab.fit`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

import spades_lab as sl
from spades_lab import dd
from spades_lab.engine import PlayView, State
from spades_lab.engine.state import play_step
from spades_lab.engine.views import ViewContext
from spades_lab.policies.leads import (
    FEATURES,
    KINDS,
    LEAD_OPTIONS,
    LEAD_WEIGHTS,
    LeadBatch,
    lead_batch,
    lead_weights,
    model_leads,
)
from spades_lab.policies.pimc import score_by_tricks
from spades_lab.policies.play import TipsParams, kernel_deck

RULES = sl.Rules()
SUITS, _, _ = kernel_deck(sl.cards.deck_for(RULES.deck))


@dataclass
class Leads:
    """The kept leads of some `lost` runs, as `leads.lead_batch` lays them out, with each option's DD gain."""

    batch: LeadBatch
    inputs: np.ndarray
    options: np.ndarray
    values: np.ndarray  # [n, 52] DD value of every card (-1: not legal)
    gains: np.ndarray  # [n, options]
    side_hand: np.ndarray
    side_hands: int
    sources: list[str]


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
        assert play_step(state.decision) == 4 * t
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
        kept_leads = LeadBatch(*(np.ascontiguousarray(a) for a in at))
        _, options = batch(kept_leads, SUITS)
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
            columns[k].append(kept_leads[k])
        side_parts.append(2 * kept + seat[kept] % 2)
    leads = LeadBatch(*(np.concatenate(c) for c in columns))
    inputs, options = batch(leads, SUITS)
    side_hand = np.concatenate(side_parts)
    out = {}
    for name in TARGETS + (("dd",) if with_dd else ()):
        values = np.concatenate(value_parts[name])
        mine = values[np.arange(len(values)), leads.cards]
        picked = np.take_along_axis(values, np.maximum(options, 0), axis=1)
        gains = np.where(options >= 0, picked - mine[:, None], 0.0)
        source = f"{player} rolled out on the true deal, {n_hands} hands of seed {seed}, target {name}, keep = {base}"
        out[name] = Leads(leads, inputs, options, values, gains, side_hand, 2 * n_hands, [source])
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
    cards = pick(weights, margin, leads.batch, SUITS)
    rows = np.arange(len(cards))
    gain = leads.values[rows, cards] - leads.values[rows, leads.batch.cards]
    per_side = np.zeros(leads.side_hands)
    np.add.at(per_side, leads.side_hand, gain)
    se = per_side.std(ddof=1) / np.sqrt(len(per_side))
    changed = cards != leads.batch.cards
    by_option = {
        LEAD_OPTIONS[k]: int((changed & (leads.options[:, k] == cards)).sum()) for k in range(1, len(LEAD_OPTIONS))
    }
    return {
        "gain": float(per_side.mean()), "lo": float(per_side.mean() - 1.96 * se),
        "hi": float(per_side.mean() + 1.96 * se), "leads": int(len(gain)), "changed": int(changed.sum()),
        "gain_per_changed": float(gain[changed].mean()) if changed.any() else 0.0, "changed_by_option": by_option,
    }  # fmt: skip


PLAYER = "counting+expert(+lead_model)"
"""Who reaches the positions and plays on after each option: the expert with its lead model."""
BASE = "counting+expert(-lead_model)"
"""Whose card is KEEP: the same expert without the model (the card `model_lead` is handed)."""


@dataclass(frozen=True)
class ContinuationRecipe:
    """Everything `expert_leads_continuation.json` is fitted from: hands and seeds, target, ridge, margin."""

    train_hands: int = 20_000
    train_seed: int = 7
    test_hands: int = 4_000
    test_seed: int = 6
    target: str = "points"
    ridge: float = 1000.0
    margin: float = 0.05


def _report(
    train: dict[str, Leads], test: dict[str, Leads], named: dict[str, np.ndarray], margin: float
) -> dict[str, Any]:
    """`local_gain` of each named weights on the train and test leads, in every target."""
    return {
        f"{part} {label} {name}": local_gain(leads[name], weights, margin)
        for label, weights in named.items()
        for name in TARGETS
        for part, leads in (("train", train), ("test", test))
    }


def fit_continuation(
    recipe: ContinuationRecipe, rolled_with: np.ndarray | None = None
) -> tuple[np.ndarray, dict[str, Any]]:
    """One continuation fit: the weights, and the held-out report of them (and of the weights rolled with)."""
    train = rollout_leads(PLAYER, BASE, recipe.train_hands, recipe.train_seed, rolled_with)
    test = rollout_leads(PLAYER, BASE, recipe.test_hands, recipe.test_seed, rolled_with)
    weights = fit(train[recipe.target], recipe.ridge)
    named = {"fitted": weights, "shipped before": lead_weights("dd")}
    if rolled_with is not None:
        named["rolled with"] = rolled_with
    report = _report(train, test, named, recipe.margin)
    sources = {"train": train[recipe.target].sources, "test": test[recipe.target].sources}
    return weights, {"report": report, **sources}


def continuation_data(recipe: ContinuationRecipe = ContinuationRecipe()) -> dict[str, Any]:
    """The shipped `lead_weights=continuation` file's content, refitted: a first fit on the shipped player,
    then the fit iterated once with the player using the first weights (so the positions and continuations
    are those of the player that will use them)."""
    first, _ = fit_continuation(recipe)
    rounded = np.array([[round(float(w), 6) for w in row] for row in first])
    weights, found = fit_continuation(recipe, rounded)
    return {
        "about": "The expert's lead_model weights `lead_weights=continuation` (spades_lab/policies/leads.py): per "
        "option but keep, the weights of its inputs (features, features x kinds, kinds) and the intercept last, "
        "in tens of points of the single-hand score; fitted by `python -m spades_lab.fit continuation` (iterated once) "
        "on the score of "
        f"playing the rest of the hand on the true deal with {PLAYER} at all four seats after each option, minus "
        f"that after the expert's own card ({recipe.train_hands:,} hands of seed {recipe.train_seed}; held out on "
        f"{recipe.test_hands:,} of seed {recipe.test_seed}).",
        "options": list(LEAD_OPTIONS[1:]), "features": list(FEATURES), "kinds": list(KINDS),
        "target": recipe.target, "ridge": recipe.ridge, "margin": recipe.margin,
        "train": found["train"], "test": found["test"], "report": found["report"],
        "weights": [[round(float(w), 6) for w in row] for row in weights],
    }  # fmt: skip


def shipped_path(name: str = "continuation") -> Path:
    """The package's weights file of `lead_weights=name`."""
    return Path(str(resources.files("spades_lab.policies").joinpath("data", LEAD_WEIGHTS[name])))


def differences(new: dict[str, Any], old: dict[str, Any]) -> list[str]:
    """The top-level keys whose values differ, with the largest weight difference when the weights do."""
    out = [key for key in sorted(set(new) | set(old)) if new.get(key) != old.get(key)]
    if "weights" in out:
        a, b = new.get("weights"), old.get("weights")
        if isinstance(a, dict) and isinstance(b, dict):  # named weights (the count's parts)
            names = sorted(set(a) | set(b))
            a, b = [a.get(k, np.nan) for k in names], [b.get(k, np.nan) for k in names]
        gap = np.abs(np.array(a, dtype=float) - np.array(b, dtype=float)).max()
        out[out.index("weights")] = f"weights (largest difference {gap:.6g})"
    return out


@dataclass(frozen=True)
class DdRecipe:
    """Everything `expert_leads.json` (`lead_weights=dd`) is fitted from: each option's double-dummy gain at the
    leads of the expert without the model (whose card is the keep card), its hands, seeds, ridge and margin."""

    player: str = BASE
    train_hands: int = 520
    train_seed: int = 7
    test_hands: int = 480
    test_seed: int = 6
    ridge: float = 100.0
    margin: float = 0.05


def dd_data(recipe: DdRecipe = DdRecipe()) -> dict[str, Any]:
    """The shipped `lead_weights=dd` file's content, refitted: one ridge fit on the DD gains (a `dd.card_values`
    solve per kept lead, about half a second of solver per hand), held out on the test hands."""
    train = rollout_leads(recipe.player, recipe.player, recipe.train_hands, recipe.train_seed, with_dd=True)["dd"]
    test = rollout_leads(recipe.player, recipe.player, recipe.test_hands, recipe.test_seed, with_dd=True)["dd"]
    weights = fit(train, recipe.ridge)
    report = {"train": local_gain(train, weights, recipe.margin), "test": local_gain(test, weights, recipe.margin)}
    return {
        "about": "The expert's lead_model (spades_lab/policies/leads.py): per option but keep, the weights of its "
        "inputs (features, features x kinds, kinds) and the intercept last; fitted by `python -m spades_lab.fit dd` "
        f"on the DD values of {recipe.player}'s leads ({recipe.train_hands:,} hands of seed {recipe.train_seed}; "
        f"held out on {recipe.test_hands:,} of seed {recipe.test_seed}).",
        "options": list(LEAD_OPTIONS[1:]), "features": list(FEATURES), "kinds": list(KINDS), "target": "dd",
        "ridge": recipe.ridge, "margin": recipe.margin, "train": train.sources, "test": test.sources,
        "report": report, "weights": [[round(float(w), 6) for w in row] for row in weights],
    }  # fmt: skip
