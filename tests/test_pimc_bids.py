"""`pimc(bid_weight=...)`: worlds weighted by how well each other seat's whole hand fits its bid."""

from __future__ import annotations

import numpy as np

from spades_lab import Rules, make_players, simulate_hands
from spades_lab.cards import STANDARD_DECK
from spades_lab.engine import HandLog
from spades_lab.policies.worlds import bid_targets, sample_worlds, weigh_by_bids, world_keys

DECK = STANDARD_DECK
HONOURS = np.uint64(sum(1 << DECK.card_id(r + s) for r in "AK" for s in "SHDC"))


def _opening(tables: int = 40) -> tuple[np.ndarray, ...]:
    """Seat 0 holds 13 cards (no ace, no 2 of spades or hearts), the other 39 are unseen, 13 to each other seat."""
    mine = DECK.mask("QS 9S 5H 4H 3H KD TD 8D 2D QC JC 7C 3C".split())
    unseen = np.full(tables, np.uint64(((1 << 52) - 1) & ~mine))
    known = np.zeros((tables, 4), dtype=np.uint64)
    known[:, 0] = mine
    room = np.tile([0, 13, 13, 13], (tables, 1)).astype(np.int64)
    forbidden = np.zeros((tables, 4), dtype=np.uint64)
    keys = world_keys(np.linspace(0.01, 0.99, tables))
    return keys, known, unseen, room, forbidden


def _honours(worlds: np.ndarray, seat: int) -> float:
    """Mean aces and kings held by `seat` over all the worlds of all the tables."""
    return float(np.bitwise_count(worlds[:, :, seat] & HONOURS).mean())


def test_bid_targets_are_the_middle_of_the_counting_bids_counts() -> None:
    assert bid_targets(np.array([0, 1, 2, 5])).tolist() == [0.0, 1.0, 2.5, 5.5]


def test_a_nil_gets_fewer_honours_and_a_big_bid_more() -> None:
    """Seat 1 bid nil, seat 3 bid 6: weighted, seat 1 holds fewer aces and kings than in the uniform worlds,
    seat 3 more; with bid_weight 0 every candidate weighs the same and nothing moves much."""
    keys, known, unseen, room, forbidden = _opening()
    bids = np.tile([3, 0, 3, 6], (len(keys), 1))
    played = np.zeros_like(known)
    seat = np.zeros(len(keys), dtype=np.int64)
    uniform = sample_worlds(keys, known, unseen, room, forbidden, 32)
    weighted = weigh_by_bids(
        keys, known, unseen, room, forbidden, 32, played, bids, seat=seat, bid_weight=0.5, oversample=8, deck=DECK
    )
    assert weighted.shape == uniform.shape
    assert np.all(weighted[:, :, 0] == known[:, None, 0])
    assert np.all(weighted[:, :, 1] | weighted[:, :, 2] | weighted[:, :, 3] == unseen[:, None])
    assert _honours(weighted, 1) < _honours(uniform, 1) - 0.5
    assert _honours(weighted, 3) > _honours(uniform, 3) + 0.5
    flat = weigh_by_bids(
        keys, known, unseen, room, forbidden, 32, played, bids, seat=seat, bid_weight=0.0, oversample=8, deck=DECK
    )
    assert abs(_honours(flat, 1) - _honours(uniform, 1)) < 0.3
    again = weigh_by_bids(
        keys, known, unseen, room, forbidden, 32, played, bids, seat=seat, bid_weight=0.5, oversample=8, deck=DECK
    )
    assert np.array_equal(weighted, again)
    one = weigh_by_bids(keys[3:4], known[3:4], unseen[3:4], room[3:4], forbidden[3:4], 32, played[3:4], bids[3:4],
                        seat=seat[3:4], bid_weight=0.5, oversample=8, deck=DECK)  # fmt: skip
    assert np.array_equal(one[0], weighted[3])  # a table's worlds do not depend on the other tables


def test_the_count_is_of_the_whole_hand_cards_played_included() -> None:
    """Seat 1 bid 2 and has already played AS and AH (two sure tricks, here set aside from the unseen cards):
    the weight then wants no more honours in its unplayed cards, fewer than when it played two low cards."""
    keys, known, unseen, room, forbidden = _opening()
    bids = np.tile([3, 2, 3, 3], (len(keys), 1))
    seat = np.zeros(len(keys), dtype=np.int64)
    room[:, 1] = 11
    picks = {}
    for name, cards in (("aces", ["AS", "AH"]), ("low", ["2S", "2H"])):
        gone = np.uint64(DECK.mask(cards))
        played = np.zeros_like(known)
        played[:, 1] = gone
        left = unseen & ~gone
        picks[name] = weigh_by_bids(
            keys, known, left, room, forbidden, 32, played, bids, seat=seat, bid_weight=0.5, oversample=8, deck=DECK
        )
    assert _honours(picks["aces"], 1) < _honours(picks["low"], 1) - 0.3


def test_bid_weight_zero_never_weighs_and_a_weight_reproduces_whatever_the_batch(monkeypatch) -> None:
    """bid_weight=0 takes the uniform path (the weighting is never called: the worlds are `sample_worlds`' bit
    for bit); the default weight plays other cards on some hands, the same ones at any batch size."""
    from spades_lab.policies import pimc

    rules = Rules()
    spec = "counting+pimc(worlds=4,max_tricks=3)"
    weighted = HandLog.concat(list(simulate_hands(rules, make_players(spec), 16, seed=5)))
    small = HandLog.concat(list(simulate_hands(rules, make_players(spec), 16, seed=5, batch_size=5)))
    assert np.array_equal(weighted.sorted().plays, small.sorted().plays)

    def refuse(*args: object) -> None:
        raise AssertionError("bid_weight=0 must not weigh the worlds")

    monkeypatch.setattr(pimc, "weigh_by_bids", refuse)
    uniform = HandLog.concat(list(simulate_hands(rules, make_players(spec[:-1] + ",bid_weight=0)"), 16, seed=5)))
    assert not np.array_equal(uniform.plays, weighted.plays)  # the weight is used: some card differs
