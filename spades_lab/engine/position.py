"""Positions (docs/records.md): a hand record cut short at the moment a seat must act.

A position becomes the same batch view (of one table) that the engine would give the acting
seat, so any policy can be asked what it would do there. Only the acting seat's hand is needed:
cards of other seats that are not given are filled in from the unseen cards, which the view never
shows anyway.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spades_lab.cards import Deck, deck_for
from spades_lab.engine.bits import BIT
from spades_lab.engine.records import RecordError
from spades_lab.engine.state import Phase, State, first_bidder
from spades_lab.engine.views import BidView, PlayView, ViewContext
from spades_lab.rules import Rules, load_rules


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_fields(position: Any, rules: Rules) -> None:
    """Refuse a malformed position naming the field, before anything is built from it."""
    if not isinstance(position, dict):
        raise RecordError(f"a position must be a JSON object (field name to value), got {type(position).__name__}")
    seats = rules.players
    dealer = position.get("dealer", 0)
    if not _is_int(dealer) or not 0 <= dealer < seats:
        raise RecordError(f"position field dealer = {dealer!r} is impossible; allowed: a seat 0..{seats - 1}")
    for name in ("game", "hand"):
        value = position.get(name, 0)
        if not _is_int(value) or value < 0:
            raise RecordError(f"position field {name} = {value!r} is impossible; allowed: 0 or more")
    sides = rules.sides  # 2, or 4 players in cutthroat
    for name in ("score_before", "bags_before"):
        value = position.get(name, [0] * sides)
        if not (isinstance(value, list) and len(value) == sides and all(_is_int(v) and abs(v) < 2**53 for v in value)):
            raise RecordError(
                f"position field {name} = {value!r} is impossible; allowed: {sides} integers, one per side"
            )
    hands = position.get("hands") or position.get("deal")
    if hands is not None and not (isinstance(hands, list) and len(hands) <= seats):
        raise RecordError(f"position field hands must be a list of at most {seats} hands (one per seat), got {hands!r}")
    bids = position.get("bids") or [None] * seats
    if not isinstance(bids, list) or len(bids) != seats:
        raise RecordError(f"position field bids must list {seats} bids (null for not yet), got {bids!r}")
    allowed = f"null, 0 (nil) or {rules.min_bid}..{rules.max_bid}"
    for seat, bid in enumerate(bids):
        if bid is not None and not (_is_int(bid) and (bid == 0 or rules.min_bid <= bid <= rules.max_bid)):
            raise RecordError(f"position field bids[{seat}] = {bid!r} is impossible; allowed: {allowed}")
    blind = position.get("blind") or [False] * seats
    if not (isinstance(blind, list) and len(blind) == seats and all(isinstance(b, bool) for b in blind)):
        raise RecordError(f"position field blind must list {seats} true/false flags, got {blind!r}")
    for seat, flag in enumerate(blind):
        if flag and bids[seat] not in (None, 0):
            raise RecordError(
                f"position field blind[{seat}] is true but bids[{seat}] = {bids[seat]}: a blind bid is nil (0)"
            )
    plays = position.get("plays", [])
    if not isinstance(plays, list):
        raise RecordError(f"position field plays must be a list of [seat, card] pairs, got {plays!r}")
    for step, play in enumerate(plays):
        ok = isinstance(play, list) and len(play) == 2 and _is_int(play[0]) and isinstance(play[1], str)
        if not ok or not 0 <= play[0] < seats:
            raise RecordError(
                f"position field plays[{step}] = {play!r} is impossible; allowed: [seat 0..{seats - 1}, card]"
            )


def _hands(position: dict[str, Any], deck: Deck, seats: int) -> tuple[np.ndarray, np.ndarray]:
    """([1, seats] full hands, [seats] the cards the position itself gives per seat, plays included)."""
    given = position.get("hands") or position.get("deal")
    if given is None:
        raise RecordError("a position needs 'hands' (at least the acting seat's cards; others may be [])")
    masks = np.zeros(seats, dtype=np.uint64)
    for seat in range(seats):
        try:
            masks[seat] = deck.mask(given[seat]) if seat < len(given) and given[seat] else 0
        except (ValueError, TypeError) as exc:
            raise RecordError(f"position field hands[{seat}]: {exc}") from None
    # cards already played belong to the seats that played them
    for seat, card in position.get("plays", []):
        masks[int(seat)] |= np.uint64(deck.mask([card]))
    known = 0
    for m in masks:
        if int(known) & int(m):
            raise RecordError("a card appears in two seats' hands")
        known |= int(m)
    shown = masks.copy()
    unseen = [i for i in range(52) if not known >> i & 1]
    for seat in range(seats):
        missing = 13 - bin(int(masks[seat])).count("1")
        if missing < 0:
            raise RecordError(f"seat {seat} holds more than 13 cards")
        for card in unseen[:missing]:
            masks[seat] |= BIT[card]
        unseen = unseen[missing:]
    return masks[None, :], shown


def position_view(position: dict[str, Any], rules: Rules | str | dict[str, Any] | None = None) -> BidView | PlayView:
    """The BidView or PlayView (one table) of the seat to act in `position`.

    `hands` are the cards held when the first trick was led (after any exchange); blind-nil
    flags come from `blind`. Draft and exchange decisions are not positions (yet).
    """
    if not isinstance(position, dict):
        raise RecordError(f"a position must be a JSON object (field name to value), got {type(position).__name__}")
    rules = load_rules(rules if rules is not None else position.get("rules"))
    _check_fields(position, rules)
    deck = deck_for(rules.deck)
    seats = rules.players
    dealer = np.array([int(position.get("dealer", 0))])
    deal, shown = _hands(position, deck, seats)
    state = State(
        rules, np.array([int(position.get("game", 0))]), np.array([int(position.get("hand", 0))]),
        np.zeros(1, dtype=np.uint64), dealer,
        np.array([position.get("score_before", [0] * rules.sides)], dtype=np.int64),
        np.array([position.get("bags_before", [0] * rules.sides)], dtype=np.int64),
        deal=deal, deck=deck,
    )  # fmt: skip
    bids = position.get("bids") or [None] * seats
    bid_row = np.array([[-1 if b is None else int(b) for b in bids]], dtype=np.int64)
    blind_row = np.array([position.get("blind") or [False] * seats], dtype=bool)
    first = int(first_bidder(rules, dealer)[0])
    order = [(first + k) % seats for k in range(seats)]
    made = [seat for seat in order if bid_row[0, seat] >= 0]
    if made != order[: len(made)]:
        raise RecordError(f"bids must be made in order from seat {first}; got {bids}")
    plays = position.get("plays", [])
    if len(made) < seats and plays:
        raise RecordError("a position with plays must have every bid")
    state.set_bids(bid_row, blind_row)
    context = ViewContext(rules, deck)
    if state.point[0] == Phase.BLIND:  # a position asks for the bid itself, blind or not
        state.apply(np.zeros(1, dtype=bool))
    if state.point[0] == Phase.BID:
        return _expect(position, BidView(state, None, state.to_act.copy(), state.decision, context), shown)
    for step, (seat, card) in enumerate(plays):
        actor = int(state.to_act[0])
        if actor != int(seat):
            raise RecordError(f"play {step} ({card}) is by seat {seat}, but seat {actor} is to play")
        cid = np.array([deck.card_id(card)])
        if not state.is_legal_play(cid)[0]:
            legal = " ".join(deck.labels(int(state.legal[0])))
            raise RecordError(f"play {step}: {card} by seat {seat} is not legal; legal: {legal}")
        state.apply(cid)
    if state.done:
        raise RecordError("the hand is over: no seat is to act")
    return _expect(position, PlayView(state, None, state.to_act.copy(), state.decision, context), shown)


def _expect(position: dict[str, Any], view: BidView | PlayView, shown: np.ndarray) -> BidView | PlayView:
    """The acting seat's own 13 cards must be in the position: a decision on made-up cards means nothing."""
    seat = int(view.seat[0])
    to_act = position.get("to_act")
    if to_act is not None and to_act != seat:
        raise RecordError(f"position says seat {to_act} is to act, but the rules make it seat {seat}")
    held = bin(int(shown[seat])).count("1")
    if held != 13:
        raise RecordError(
            f"position field hands[{seat}] (the seat to act) gives {held} cards with its plays; it needs all 13"
        )
    return view
