"""The lead model's pieces (spades_lab/policies/leads.py): each option's card, the inputs, the pick, the fit."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import spades_lab as sl
from spades_lab.fit import TARGETS, ContinuationRecipe, Leads, continuation_data, differences, fit, rollout_leads
from spades_lab.fit import main as fit_main
from spades_lab.policies.leads import (
    FEATURES,
    KINDS,
    LEAD_OPTIONS,
    SHORT_LOW,
    SIDE_MASTER,
    WIDTH,
    Lead,
    card_kind,
    combine_weights,
    lead_inputs,
    lead_option,
    lead_weights,
    model_lead,
    sure_winners,
)
from spades_lab.policies.play import kernel_deck

DECK = sl.cards.deck_for(sl.Rules().deck)
SUITS, _, _ = kernel_deck(DECK)
HAND = "AC QC 8C 4C KD JD 2D QH 8H 5H QS 8S 2S"


def mask(cards: str) -> np.uint64:
    return np.uint64(sum(1 << DECK.index[c] for c in cards.split()))


def label(card: int) -> str | None:
    return None if card < 0 else DECK.labels(np.uint64(1 << card))[0]


HELD = mask(HAND)
UNSEEN = np.uint64((1 << 52) - 1) & ~HELD
AC = DECK.index["AC"]

OPTION_ROWS = [
    # (option, legal cards, card of the option, working)
    ("keep", HAND, "AC", "the expert's card itself"),
    ("short_low", HAND, "2D", "diamonds and hearts are the shortest suits without a master (3 each): diamonds"),
    ("short_high", HAND, "KD", "the top of that suit"),
    ("long_low", HAND, "5H", "the longest such suit, ties to the higher suit: hearts"),
    ("low_trump", HAND, "2S", "the lowest spade"),
    ("side_master", HAND, "AC", "the only side master"),
    ("trump_master", HAND, None, "the QS is not a master (AS, KS unseen)"),
    ("low_trump", "AC QC 8C 4C KD JD 2D QH 8H 5H", None, "spades not broken: no trump is legal"),
    ("short_low", "AC QC 8C 4C", None, "no side suit without a master"),
]  # fmt: skip


@pytest.mark.parametrize("option, legal, card, working", OPTION_ROWS, ids=[f"{r[0]}:{r[2]}" for r in OPTION_ROWS])
def test_lead_option(option: str, legal: str, card: str | None, working: str) -> None:
    got = lead_option(LEAD_OPTIONS.index(option), AC, mask(legal), UNSEEN, SUITS)
    assert label(got) == card, working


def test_inputs_name_the_position() -> None:
    x = lead_inputs(Lead(AC, HELD, HELD, UNSEEN, 0, (2, 4, 3, 3), (0, 0, 0, 0), (0, 0, 0, 0)), SUITS)
    n = len(FEATURES)
    assert x.shape == (WIDTH,) and WIDTH == n * (1 + len(KINDS)) + len(KINDS)
    named = dict(zip(FEATURES, x[:n], strict=True))
    assert named["needed"] == 6 and named["sure_winners"] == 1 and named["slack"] == 5 and named["trumps"] == 3
    assert named["unseen_trumps"] == 10 and named["shortest_without_master"] == 3 and named["suits_with_master"] == 1
    assert named["their_contract"] == 6 and named["cards"] == 13 and named["trump_master"] == 0
    kind = card_kind(AC, UNSEEN, SUITS)
    assert KINDS[kind] == "side_master"
    assert np.array_equal(x[n * (1 + kind) : n * (2 + kind)], x[:n]) and x[n * (1 + len(KINDS)) + kind] == 1
    assert x[n : n * (1 + kind)].sum() == 0 and x[n * (2 + kind) : n * (1 + len(KINDS))].sum() == 0


def test_model_picks_the_best_option_held_above_the_margin() -> None:
    weights = np.zeros((len(LEAD_OPTIONS) - 1, WIDTH + 1))
    weights[SHORT_LOW - 1, -1] = 0.3
    weights[SIDE_MASTER - 1, -1] = 0.5  # the side master IS the expert's card: not an other option
    lead = Lead(AC, HELD, HELD, UNSEEN, 0, (2, 4, 3, 3), (0, 0, 0, 0), (0, 0, 0, 0))
    assert label(model_lead(combine_weights(weights), 0.2, lead, SUITS)) == "2D"
    assert label(model_lead(combine_weights(weights), 0.31, lead, SUITS)) == "AC"  # below the margin: the card stays
    weights[SHORT_LOW - 1, FEATURES.index("needed")] = -0.1  # 0.3 - 0.1 * 6 tricks needed < 0
    assert label(model_lead(combine_weights(weights), 0.01, lead, SUITS)) == "AC"


def random_lead(rng: np.random.Generator) -> Lead:
    """A lead position of any shape: a hand of 1-13 cards, some of the rest played, spades broken or not,
    shown voids, bids and tricks won (me, partner, left, right), and one of the legal cards as the expert's."""
    order = rng.permutation(52)
    size = int(rng.integers(1, 14))
    hand = [int(c) for c in order[:size]]
    unseen_cards = [int(c) for c in order[size:] if rng.random() < 0.7]
    held = np.uint64(sum(1 << c for c in hand))
    unseen = np.uint64(sum(1 << c for c in unseen_cards))
    legal = held
    if rng.random() < 0.5 and held & ~SUITS[3] != 0:  # spades not broken
        legal = held & ~SUITS[3]
    legal_cards = [c for c in hand if (1 << c) & int(legal)]
    card = int(rng.choice(legal_cards))
    bids = tuple(int(b) for b in rng.integers(1, 7, size=4))
    won = tuple(int(rng.integers(0, b + 1)) for b in bids)
    voids = (0,) + tuple(int(v) for v in rng.integers(0, 16, size=3))
    return Lead(card, held, legal, unseen, 13 - size, bids, won, voids)


def defined_pick(weights: np.ndarray, margin: float, lead: Lead) -> tuple[int, float]:
    """The pick as the model is defined: each held option's `lead_inputs` dot its row, the best reaching the
    margin (the later option on a tie); also how close the decision came to a tie (the smallest gap)."""
    card, held, legal, unseen = lead[:4]
    x = lead_inputs(lead, SUITS)
    best, best_score, closest = card, margin, np.inf
    for k in range(weights.shape[0]):
        other = lead_option(k + 1, card, legal, unseen, SUITS)
        if other < 0 or other == card:
            continue
        score = float(x @ weights[k, :-1] + weights[k, -1])
        closest = min(closest, abs(score - best_score))
        if score >= best_score:
            best, best_score = other, score
    return best, closest


@pytest.mark.parametrize("weights_name", ["dd", "continuation", "random"])
def test_model_lead_agrees_with_its_definition(weights_name: str) -> None:
    """The kernel's one-pass features and folded weights pick what `lead_inputs` and `lead_option` define."""
    rng = np.random.default_rng(11)
    if weights_name == "random":
        weights = rng.normal(0, 0.3, size=(len(LEAD_OPTIONS) - 1, WIDTH + 1))
    else:
        weights = np.array(lead_weights(weights_name))
    combined = combine_weights(weights)
    changed = 0
    for _ in range(1000):
        lead = random_lead(rng)
        want, closest = defined_pick(weights, 0.05, lead)
        got = model_lead(combined, 0.05, lead, SUITS)
        if closest > 1e-9:
            assert got == want, (label(got), label(want), lead)
        changed += want != lead[0]
    assert changed > 100  # the options do change leads in this sample, so the agreement is tested


def test_sure_winners_counts_the_top_cards_no_unseen_card_outranks() -> None:
    """Per suit, the held cards taken from the top while no unseen card of the suit is higher, on random
    hands and unseen cards (every held card of a suit with nothing unseen counts)."""
    rng = np.random.default_rng(3)
    for _ in range(400):
        ids = rng.permutation(52)
        held, unseen = ids[: rng.integers(0, 14)], ids[13 : 13 + rng.integers(0, 40)]
        want = 0
        for suit in SUITS:
            mine = sorted((c for c in held if (int(suit) >> int(c)) & 1), reverse=True)
            top_out = max((c for c in unseen if (int(suit) >> int(c)) & 1), default=-1)
            for card in mine:
                if card < top_out:
                    break
                want += 1
        hand = np.uint64(sum(1 << int(c) for c in held))
        out = np.uint64(sum(1 << int(c) for c in unseen))
        assert sure_winners(hand, out, SUITS) == want
    assert sure_winners(mask("AS KS 2S AH"), mask("QS KH"), SUITS) == 3  # AS KS over the QS, AH over the KH


def test_shipped_weights_have_the_model_shape() -> None:
    assert lead_weights().shape == (len(LEAD_OPTIONS) - 1, WIDTH + 1)
    assert lead_weights("continuation").shape == lead_weights("dd").shape
    assert not np.array_equal(lead_weights("continuation"), lead_weights("dd"))


def test_an_unknown_weights_name_is_refused_naming_the_field() -> None:
    with pytest.raises(ValueError, match="lead_weights = 'best' is unknown; allowed: dd, continuation"):
        sl.make_player("counting+expert(lead_weights=best)")


def test_weights_of_ones_own_fit_are_named_by_path(tmp_path: Path) -> None:
    """A `.json` file in the shipped layout plays as those weights, and editing it changes the player's
    code fingerprint (so a run folder played with the old file is not silently reused)."""
    from spades_lab.players.identity import code_fingerprint

    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"weights": lead_weights("continuation").tolist()}))
    name = f"counting+expert(lead_weights={path})"
    assert np.array_equal(sl.make_player(name).player.weights, lead_weights("continuation"))
    before = code_fingerprint(name)[f"file {path}"]
    edited = np.array(lead_weights("continuation"))
    edited[0, 0] += 1.0
    path.write_text(json.dumps({"weights": edited.tolist()}))
    assert code_fingerprint(name)[f"file {path}"] != before
    assert np.array_equal(lead_weights(str(path)), edited)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("not json", "not a JSON object with a 'weights' list"),
        ('{"weights": [[1, 2]]}', r"weights of shape \(6, 85\) are expected, not \(1, 2\)"),
        ('{"weights": ' + json.dumps([[float("nan")] * 85] * 6) + "}", "every weight must be a finite number"),
    ],
)
def test_a_bad_weights_file_is_refused_naming_the_field(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "w.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(ValueError, match=f"lead_weights = '{path}'.*{message}"):
        sl.make_player(f"counting+expert(lead_weights={path})")


def test_fit_recovers_a_linear_gain() -> None:
    """The fit's ridge: a gain that is linear in one input comes back in that input's raw weight."""
    rng = np.random.default_rng(0)
    inputs = rng.normal(3.0, 2.0, size=(4000, WIDTH))
    gains = np.zeros((4000, len(LEAD_OPTIONS)))
    gains[:, SHORT_LOW] = 0.2 * inputs[:, 1] - 0.5
    leads = Leads((), inputs, np.zeros((4000, 7), dtype=np.int64), np.zeros((4000, 52)), gains,
                  np.arange(4000), 4000, [])  # fmt: skip
    weights = fit(leads, ridge=1.0)
    assert weights[SHORT_LOW - 1, 1] == pytest.approx(0.2, abs=1e-3)
    assert weights[SHORT_LOW - 1, -1] == pytest.approx(-0.5, abs=1e-2)
    assert np.abs(weights[SIDE_MASTER - 1]).max() < 1e-9


def test_rollout_keep_replays_the_hand_and_options_differ() -> None:
    """The continuation labels: when the player that plays on is the keep player, rolling out the expert's own
    card at each kept lead must end the hand exactly as it was played (the logged tricks), so the replayed
    position (deal, bids, plays so far) is the true one; the other options lead other cards and some of them
    end with other tricks; the option columns' gains are the option's outcome minus KEEP's."""
    player = "counting+expert(-lead_model)"
    by_target = rollout_leads(player, player, 12, 3)
    assert set(by_target) == set(TARGETS)
    leads = by_target["tricks"]
    logs = list(sl.simulate_hands(sl.Rules(), sl.make_players(player), 12, 3))
    tricks = np.concatenate([log.tricks for log in logs])
    hand, side = leads.side_hand // 2, leads.side_hand % 2
    rows = np.arange(len(leads.side_hand))
    keep = leads.values[rows, leads.batch.cards]
    assert len(rows) > 40 and leads.side_hands == 24
    np.testing.assert_array_equal(keep, tricks[hand, side] + tricks[hand, side + 2])
    assert np.all(leads.gains[:, 0] == 0)
    held = leads.options >= 0
    picked = np.take_along_axis(leads.values, np.maximum(leads.options, 0), axis=1)
    np.testing.assert_array_equal(leads.gains[held], (picked - keep[:, None])[held])
    assert np.any(leads.gains[:, 1:] != 0)
    contract = by_target["contract"].values[rows, leads.batch.cards]
    assert np.all(contract <= keep)


def test_the_continuation_fit_is_reproduced_from_its_seeds() -> None:
    """`python -m spades_lab.fit` must regenerate the shipped file bit for bit: two refits of the same recipe
    (here a small one) give the same file, and one hand more in training gives other weights, which
    `differences` names."""
    recipe = ContinuationRecipe(train_hands=40, test_hands=20)
    first, again = continuation_data(recipe), continuation_data(recipe)
    assert json.dumps(first) == json.dumps(again)
    assert len(first["weights"]) == len(first["options"])
    other = continuation_data(ContinuationRecipe(train_hands=41, test_hands=20))
    found = differences(other, first)
    assert any(key.startswith("weights (largest difference") for key in found)
    assert "train" in found and "ridge" not in found


def test_the_fit_command_writes_its_file_and_checks_the_shipped_one(tmp_path: Path, capsys) -> None:
    """`python -m spades_lab.fit --out FILE --check`: the file written is a weights file a player reads, and a
    refit on other hands than the shipped recipe's is reported as differing (exit 1), naming the weights."""
    out = tmp_path / "refit.json"
    code = fit_main(["--train-hands", "30", "--test-hands", "20", "--out", str(out), "--check"])
    assert code == 1 and "differs in:" in capsys.readouterr().out
    assert json.loads(out.read_text())["train"][0].startswith("counting+expert(+lead_model) rolled out")
    sl.make_player(f"counting+expert(lead_weights={out})")
