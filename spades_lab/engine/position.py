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
from spades_lab.engine.records import RecordError
from spades_lab.engine.state import Phase, State, exchange_cards, first_bidder, play_step
from spades_lab.engine.views import ViewContext
from spades_lab.names import did_you_mean
from spades_lab.rules import Rules, RulesLike, load_rules


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
        if (
            flag
            and bids[seat] not in (None, 0)
            and not (rules.blind_bids is not None and bids[seat] >= rules.blind_bids)
        ):
            allowed = "nil (0)" if rules.blind_bids is None else f"nil (0) or a blind number of {rules.blind_bids}+"
            raise RecordError(
                f"position field blind[{seat}] is true but bids[{seat}] = {bids[seat]}: a blind bid is {allowed}"
                " under these rules (blind_bids)"
            )
    decision = position.get("decision")
    if decision is not None and decision not in DECISIONS:
        raise RecordError(
            f"position field decision = {decision!r} is not a decision{did_you_mean(decision, DECISIONS)};"
            f" allowed: {', '.join(DECISIONS)} (or leave it out: the next bid or play)"
        )
    for name in ("exchange", "draft"):
        entries = position.get(name, [])
        if not isinstance(entries, list) or not all(isinstance(e, list) for e in entries):
            raise RecordError(f"position field {name} must be a list of lists (as in a hand record), got {entries!r}")
    plays = position.get("plays", [])
    if not isinstance(plays, list):
        raise RecordError(f"position field plays must be a list of [seat, card] pairs, got {plays!r}")
    for step, play in enumerate(plays):
        ok = isinstance(play, list) and len(play) == 2 and _is_int(play[0]) and isinstance(play[1], str)
        if not ok or not 0 <= play[0] < seats:
            raise RecordError(
                f"position field plays[{step}] = {play!r} is impossible; allowed: [seat 0..{seats - 1}, card]"
            )


DECISIONS = ("blind", "blind_bid", "bid", "exchange", "draft", "play")
"""What a position may ask (its `decision` field); without it, the next bid or play."""

_PHASE_OF = {
    "blind": Phase.BLIND, "blind_bid": Phase.BLIND_BID, "bid": Phase.BID, "exchange": Phase.EXCHANGE,
    "draft": Phase.DRAFT, "play": Phase.PLAY,
}  # fmt: skip


def _card(deck: Deck, label: Any, where: str) -> int:
    try:
        return deck.card_id(label)
    except (ValueError, TypeError, KeyError) as exc:
        raise RecordError(f"position field {where}: {exc}") from None


def _pool(rules: Rules, deck: Deck) -> list[int]:
    """The card ids in play: the whole deck, less the 2 of clubs with three players."""
    out = list(range(len(deck.cards)))
    return [c for c in out if not (rules.players == 3 and deck.cards[c] == "2C")]


def _shown_voids(position: dict[str, Any], deck: Deck, seats: int) -> list[set[int]]:
    """Per seat, the suits its plays show it has none of (it did not follow a suit led)."""
    voids: list[set[int]] = [set() for _ in range(seats)]
    plays = position.get("plays", [])
    for start in range(0, len(plays), seats):
        trick = plays[start : start + seats]
        led = int(deck.suit_of[_card(deck, trick[0][1], f"plays[{start}]")])
        for k, (seat, label) in enumerate(trick[1:], 1):
            if int(deck.suit_of[_card(deck, label, f"plays[{start + k}]")]) != led:
                voids[int(seat)].add(led)
    return voids


def _fill(known: list[int], need: list[int], pool: list[int], voids: list[set[int]], deck: Deck) -> list[int]:
    """Each seat's `known` cards completed to `need` cards from the cards nobody is known to hold, never of
    a suit the seat has shown it lacks (a matching of cards to seats, so no seat is left unable to follow)."""
    taken = 0
    for mask in known:
        taken |= mask
    free = [c for c in pool if not taken >> c & 1]
    slots = [seat for seat, n in enumerate(need) for _ in range(n)]
    owner: dict[int, int] = {}  # card -> slot

    def place(slot: int, seen: set[int]) -> bool:  # an augmenting path: Kuhn's bipartite matching
        for card in free:
            if card in seen or int(deck.suit_of[card]) in voids[slots[slot]]:
                continue
            seen.add(card)
            if card not in owner or place(owner[card], seen):
                owner[card] = slot
                return True
        return False

    for slot in range(len(slots)):
        if not place(slot, set()):
            raise RecordError(
                f"the cards left cannot be dealt to seat {slots[slot]} without a suit its plays show it lacks;"
                " give the other seats' cards (hands) or check the plays"
            )
    filled = list(known)
    for card, slot in owner.items():
        filled[slots[slot]] |= 1 << card
    return filled


def _start(position: dict[str, Any], rules: Rules, deck: Deck) -> tuple[np.ndarray, np.ndarray, bool]:
    """([1, seats] the hands the hand starts from, [seats] the cards the position itself gives, from_deal).

    From `deal` (the cards as dealt) the position's exchange passes are replayed; from `hands` (the cards
    held when the first trick was led) there is no exchange left to make. Cards a seat passed belong to
    its dealt hand, cards it played to its hand (unless it was passed them); other seats' missing cards are
    filled in from the unseen ones, honouring the voids the plays show.
    """
    from_deal = position.get("deal") is not None
    given = position.get("deal") if from_deal else position.get("hands")
    seats = rules.players
    if given is None:
        raise RecordError("a position needs 'hands' (at least the acting seat's cards; others may be [])")
    known = [0] * seats
    for seat in range(seats):
        try:
            known[seat] = deck.mask(given[seat]) if seat < len(given) and given[seat] else 0
        except (ValueError, TypeError) as exc:
            raise RecordError(f"position field {'deal' if from_deal else 'hands'}[{seat}]: {exc}") from None
    received: dict[int, int] = {}
    if from_deal:
        for k, entry in enumerate(position.get("exchange", [])):
            if len(entry) != 3 or not _is_int(entry[0]) or not 0 <= entry[0] < seats:
                raise RecordError(f"position field exchange[{k}] = {entry!r}; allowed: [giver seat, taker seat, card]")
            card = _card(deck, entry[2], f"exchange[{k}]")
            known[entry[0]] |= 1 << card
            received[card] = int(entry[1])
    for step, (seat, label) in enumerate(position.get("plays", [])):
        card = _card(deck, label, f"plays[{step}]")
        if received.get(card) != int(seat):
            known[int(seat)] |= 1 << card
    total = 0
    for mask in known:
        if total & mask:
            raise RecordError("a card appears in two seats' hands")
        total |= mask
    size = 0 if rules.players == 2 and from_deal else rules.tricks  # a Duel deal is drafted, not dealt
    need = [size - bin(m).count("1") for m in known]
    for seat, n in enumerate(need):
        if n < 0:
            raise RecordError(f"seat {seat} holds more than {rules.tricks} cards")
    voids = _shown_voids(position, deck, seats)
    filled = _fill(known, need, _pool(rules, deck), voids, deck) if any(need) else known
    return np.array([filled], dtype=np.uint64), np.array(known, dtype=np.uint64), from_deal


def _stock(position: dict[str, Any], deck: Deck, rules: Rules) -> np.ndarray:
    """A Duel stock for a draft position: the recorded turns' cards, then `top`, then the rest in any order
    (no one sees a card beyond the top one before deciding)."""
    order: list[int] = []
    for turn, entry in enumerate(position.get("draft", [])):
        if len(entry) != 4:
            raise RecordError(f"position field draft[{turn}] = {entry!r}; allowed: [seat, keep|discard, top, next]")
        order += [_card(deck, entry[2], f"draft[{turn}]"), _card(deck, entry[3], f"draft[{turn}]")]
    if "top" in position:
        order.append(_card(deck, position["top"], "top"))
    if len(set(order)) != len(order):
        raise RecordError("position field draft shows a card drawn twice")
    order += [c for c in _pool(rules, deck) if c not in order]
    return np.array([order], dtype=np.int64)


def _scripted(position: dict[str, Any], state: State, deck: Deck, asked: Phase | None, from_deal: bool) -> Any:
    """The position's own answer at the state's current point, or None: this is the decision asked.

    Blind questions not asked are answered "look first"; from `hands` (after any exchange) an exchange
    passes nothing, since the hands already hold its result."""
    phase, _, index = state.point
    seat = int(state.to_act[0])
    bids = position.get("bids") or [None] * state.players
    blind = position.get("blind") or [False] * state.players
    if phase == Phase.BLIND:
        if bids[seat] is None:
            return None if asked == phase else np.zeros(1, dtype=bool)
        return np.array([bool(blind[seat]) and bids[seat] == 0])
    if phase == Phase.BLIND_BID:
        if bids[seat] is None:
            return None if asked == phase else np.zeros(1, dtype=np.int64)
        return np.array([bids[seat] if blind[seat] and bids[seat] > 0 else 0], dtype=np.int64)
    if phase == Phase.BID:
        return None if bids[seat] is None else np.array([bids[seat]], dtype=np.int64)
    if phase == Phase.EXCHANGE:
        if not from_deal:
            return np.zeros(1, dtype=np.uint64)
        cards = [deck.card_id(e[2]) for e in position.get("exchange", []) if int(e[0]) == seat]
        return np.array([sum(1 << c for c in cards)], dtype=np.uint64) if cards else None
    if phase == Phase.DRAFT:
        turns = position.get("draft", [])
        return np.array([turns[index][1] == "keep"]) if index < len(turns) else None
    step = play_step(state.decision)
    plays = position.get("plays", [])
    return np.array([deck.card_id(plays[step][1])], dtype=np.int64) if step < len(plays) else None


def _check_scripted(state: State, deck: Deck, answer: Any) -> None:
    """A decision the position says was made must be one the rules allowed there."""
    phase = state.point[0]
    seat = int(state.to_act[0])
    if phase == Phase.BID or (phase == Phase.BLIND_BID and int(answer[0]) > 0):
        bid = int(answer[0])
        if not (0 <= bid < state.legal_bids.shape[1] and state.legal_bids[0, bid]):
            allowed = [b for b in np.flatnonzero(state.legal_bids[0]).tolist() if phase == Phase.BID or b]
            raise RecordError(f"position: seat {seat}'s bid {bid} is not allowed there; allowed: {allowed}")
    elif phase == Phase.EXCHANGE:
        passed, hand = int(answer[0]), int(state.hands[0, seat])
        cards = exchange_cards(state.rules, state.decision)
        if passed & ~hand or bin(passed).count("1") != cards:
            raise RecordError(
                f"position field exchange: seat {seat} passes {' '.join(deck.labels(passed))}; it must pass"
                f" exactly {cards} card(s) of its hand {' '.join(deck.labels(hand))}"
            )
    elif phase == Phase.PLAY and not state.is_legal_play(answer)[0]:
        step = play_step(state.decision)
        legal = " ".join(deck.labels(int(state.legal[0])))
        raise RecordError(f"play {step}: {deck.cards[int(answer[0])]} by seat {seat} is not legal; legal: {legal}")


def position_state(position: dict[str, Any], rules: RulesLike = None) -> tuple[State, Rules]:
    """The engine state (one table) at the decision `position` asks: every decision it records is replayed
    through the rules (bids, blind choices, exchange passes, draft turns, plays), so an illegal one is
    refused, and the state stops at the first decision the position does not answer."""
    if not isinstance(position, dict):
        raise RecordError(f"a position must be a JSON object (field name to value), got {type(position).__name__}")
    rules = load_rules(rules if rules is not None else position.get("rules"))
    _check_fields(position, rules)
    deck = deck_for(rules.deck)
    seats = rules.players
    asked = _PHASE_OF.get(position.get("decision") or "")
    drafting = seats == 2 and (asked == Phase.DRAFT or "draft" in position and "hands" not in position)
    if drafting:
        start, shown, from_deal = None, np.zeros(seats, dtype=np.uint64), True
    else:
        start, shown, from_deal = _start(position, rules, deck)
    state = State(
        rules, np.array([int(position.get("game", 0))]), np.array([int(position.get("hand", 0))]),
        np.zeros(1, dtype=np.uint64), np.array([int(position.get("dealer", 0))]),
        np.array([position.get("score_before", [0] * rules.sides)], dtype=np.int64),
        np.array([position.get("bags_before", [0] * rules.sides)], dtype=np.int64),
        deal=start, deck=deck,
    )  # fmt: skip
    if drafting:
        state.stock[...] = _stock(position, deck, rules)
    elif seats == 2 and state.point[0] == Phase.DRAFT:
        while state.point[0] == Phase.DRAFT:  # hands given after the draft: no draft left to make
            state.apply(np.zeros(1, dtype=bool))
    _check_order(position, rules)
    while not state.done:
        answer = _scripted(position, state, deck, asked, from_deal)
        if answer is None:
            break
        if from_deal or state.point[0] != Phase.EXCHANGE:  # from `hands` the exchange is already in them
            _check_scripted(state, deck, answer)
        state.apply(answer)
    if state.done:
        raise RecordError("the hand is over: no seat is to act")
    if asked is not None and state.point[0] != asked:
        raise RecordError(
            f"position field decision = {position['decision']!r}, but the position's next decision is"
            f" {state.point[0].name.lower()} (seat {int(state.to_act[0])})"
        )
    _expect(position, state, shown, from_deal)
    return state, rules


def _check_order(position: dict[str, Any], rules: Rules) -> None:
    seats = rules.players
    bids = position.get("bids") or [None] * seats
    first = int(first_bidder(rules, np.array([int(position.get("dealer", 0))]))[0])
    order = [(first + k) % seats for k in range(seats)]
    made = [seat for seat in order if bids[seat] is not None]
    if made != order[: len(made)]:
        raise RecordError(f"bids must be made in order from seat {first}; got {bids}")
    if len(made) < seats and position.get("plays"):
        raise RecordError("a position with plays must have every bid")


def position_view(position: dict[str, Any], rules: RulesLike = None) -> Any:
    """The view (one table) the engine would give the seat to act in `position`: a BlindView, BlindBidView,
    BidView, ExchangeView, DraftView or PlayView, as the position's next decision is (docs/records.md)."""
    from spades_lab.engine.simulate import ASK

    state, rules = position_state(position, rules)
    view_cls = ASK[state.point[0]][1]
    return view_cls(state, None, state.to_act.copy(), state.decision, ViewContext(rules, state.deck))


def _expect(position: dict[str, Any], state: State, shown: np.ndarray, from_deal: bool) -> None:
    """The acting seat's own cards must be in the position: a decision on made-up cards means nothing."""
    seat = int(state.to_act[0])
    to_act = position.get("to_act")
    if to_act is not None and to_act != seat:
        raise RecordError(f"position says seat {to_act} is to act, but the rules make it seat {seat}")
    phase = state.point[0]
    if phase in (Phase.BLIND, Phase.BLIND_BID, Phase.DRAFT):
        return  # decided before seeing the cards, or on the cards the draft shows
    held = bin(int(shown[seat])).count("1")
    if held != state.rules.tricks:
        field = "deal" if from_deal else "hands"
        raise RecordError(
            f"position field {field}[{seat}] (the seat to act) gives {held} cards with its plays; it needs all"
            f" {state.rules.tricks}"
        )
