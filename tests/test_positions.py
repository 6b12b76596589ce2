"""Every decision asked from a position (docs/records.md): cut a position from a simulated hand at any
decision, and a deterministic player answers there as it did in the game."""

from __future__ import annotations

from functools import cache

import pytest

import spades_lab as sl
from spades_lab.engine.records import RecordError, hand_records
from spades_lab.players.decide import decide
from spades_lab.rules import Rules, preset

SETTINGS = ("rules", "dealer", "score_before", "bags_before")


@cache
def records(rules: Rules, player: str, hands: int = 40, seed: int = 1, games: bool = False) -> tuple[dict, ...]:
    """Single hands from 0-0, or whole games (to reach the scores at which blind nil is bid)."""
    players = sl.make_players(player, seats=rules.players)
    logs = (
        sl.simulate_games(rules, players, 6, seed, max_hands=None)
        if games
        else sl.simulate_hands(rules, players, hands, seed)
    )
    return tuple(r for log in logs for r in hand_records(log, rules))


def _cut(record: dict, *keys: str) -> dict:
    return {k: record[k] for k in (*SETTINGS, *keys)}


def test_every_play_with_the_other_seats_cards_left_out_is_answered_as_in_the_game() -> None:
    """The filler deals the hidden cards honouring the voids the plays show, so the plays replay legally."""
    for record in records(Rules(), "counting+tips")[:3]:
        for step in range(1, 52):
            seat = record["plays"][step][0]
            position = _cut(record, "bids", "blind")
            position["plays"] = record["plays"][:step]
            position["hands"] = [h if s == seat else [] for s, h in enumerate(record["hands"])]
            assert decide("counting+tips", position) == {"seat": seat, "card": record["plays"][step][1]}


def test_positions_cut_from_blind_bid_games_are_accepted() -> None:
    rules = Rules(blind_bids=6)
    record = next(r for r in records(rules, "random") if any(b and n > 0 for b, n in zip(r["blind"], r["bids"])))
    position = _cut(record, "hands", "bids", "blind")
    position["plays"] = record["plays"][:5]
    answer = decide("counting+tips", position)
    assert answer["seat"] == record["plays"][5][0] and isinstance(answer["card"], str)


def test_a_blind_bid_is_asked_before_the_cards_are_seen() -> None:
    rules = Rules(blind_bids=6)
    record = records(rules, "random")[0]
    position = {**_cut(record, "hands"), "bids": [None] * 4, "decision": "blind_bid"}
    answer = decide("random", position)
    assert set(answer) == {"seat", "blind_bid"} and (answer["blind_bid"] == 0 or answer["blind_bid"] >= 6)


def test_the_blind_nil_choice_and_both_exchange_passes_are_answered_as_in_the_game() -> None:
    rules = preset("blind-nil").replace(blind_nil_trail=0)
    record = next(r for r in records(rules, "counting+tips", games=True) if any(r["blind"]) and r["exchange"])
    bidder = record["blind"].index(True)
    order = [(record["dealer"] + 1 + k) % 4 for k in range(4)]
    before = {s: (record["bids"][s] if order.index(s) < order.index(bidder) else None) for s in range(4)}
    asked = {**_cut(record, "deal"), "bids": [before[s] for s in range(4)], "decision": "blind"}
    assert decide("counting+tips", asked) == {"seat": bidder, "blind": True}
    exchange = _cut(record, "deal", "bids", "blind")
    first, back = record["exchange"][0], record["exchange"][-1]
    partner_passes = [e[2] for e in record["exchange"] if e[0] == first[0]]
    assert decide("counting+tips", exchange) == {"seat": first[0], "exchange": sorted_as(partner_passes)}
    exchange["exchange"] = [e for e in record["exchange"] if e[0] == first[0]]
    bidder_passes = [e[2] for e in record["exchange"] if e[0] == back[0]]
    assert decide("counting+tips", exchange) == {"seat": back[0], "exchange": sorted_as(bidder_passes)}


def sorted_as(labels: list[str]) -> list[str]:
    """Cards in the order decide lists them (deck order)."""
    return sl.STANDARD_DECK.labels(sl.STANDARD_DECK.mask(labels))


def test_a_duel_draft_turn_is_answered_as_in_the_game() -> None:
    record = records(preset("duel"), "counting+tips")[0]
    for turn in (0, 5, 25):
        position = {**_cut(record), "draft": record["draft"][:turn], "top": record["draft"][turn][2]}
        position["decision"] = "draft"
        answer = decide("counting+tips", position)
        assert answer == {"seat": record["draft"][turn][0], "draft": record["draft"][turn][1]}


def test_a_decision_the_position_does_not_reach_is_named() -> None:
    record = records(Rules(), "counting+tips")[0]
    position = {**_cut(record, "hands"), "bids": [None] * 4, "decision": "play"}
    with pytest.raises(RecordError, match="decision = 'play'.*next decision is bid"):
        decide("counting+tips", position)
    with pytest.raises(RecordError, match="did you mean 'blind_bid'"):
        decide("counting+tips", {**position, "decision": "blind-bid"})
