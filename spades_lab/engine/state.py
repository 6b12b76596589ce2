"""The public game state of a batch of tables during one hand, and its step function.

A hand is a fixed schedule of decision points: in Duel 26 draft turns; then per bidder an
optional blind-nil decision and a bid; then the blind-nil exchanges; then 13 plays per seat.
Every table of a batch is at the same point of the schedule (lockstep), which is what keeps the
engine batch-fast; a table that has nothing to decide at a point (no blind nil allowed, a blind
nil bidder at the bid, no exchange) simply waits: its `to_act` is -1 there and the point is
skipped entirely when no table acts.

`State` is the engine's own object: it holds every hand, so it is never given to a policy (a
policy gets a view built from it, see `spades_lab.engine.views`). It is public so that an RL
loop, a search or a test can drive hands directly: `legal_action_mask()` and `step(actions)` in
OpenSpiel's Spades numbering, or `apply(answers)` with the answers a policy returns.

Action numbering (OpenSpiel Spades, 66 actions; with three players 70, see the bids):

- 0..51: a card, by engine card id. In the standard deck the id is suit * 13 + rank with suits
  C, D, H, S and ranks 2..A, exactly OpenSpiel's numbering. In the jokers decks the id is still the
  card's place in `deck.cards` (clubs, diamonds, hearts blocks without the removed deuces, then the
  trump block weakest first: 3S .. AS, 2S, the promoted deuce, LJ, BJ), so `deck.cards[action]`
  names the card in every deck.
- 52: nil; 53..65: bids 1..13 (action = 52 + bid). The bids follow the tricks of a hand
  (`Rules.tricks`): with three players (17 tricks) 53..69 are bids 1..17, so the mask has
  `n_actions(rules)` = 53 + tricks columns: 66 in every 13-trick game (OpenSpiel's), 70 with three
  players. Every array of legal bids likewise has `bid_columns(rules)` = tricks + 1 columns (nil first).
- The blind-nil decision uses 52 (declare blind nil) and 53 (look at the cards first).
- A blind number bid (`blind_bids`, at least 2) is 52 + bid; 53 is "look at the cards first".
- A Duel draft turn is the card taken: the top card (keep it) or the next one (discard the top).
- A blind-nil exchange passes one card per step: `blind_nil_exchange` steps per giver.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from enum import IntEnum
from typing import Any

import numpy as np

from spades_lab.cards import Deck, deck_for
from spades_lab.engine import fused, kernels, rng
from spades_lab.engine.bits import BIT
from spades_lab.engine.scoring import HandScore, deficit, score_hands
from spades_lab.engine.turn import game_of
from spades_lab.rules import SUICIDE_MIN, Rules


class Phase(IntEnum):
    """What a table is deciding now."""

    DRAFT = 0
    BLIND = 1
    BID = 2
    EXCHANGE = 3
    PLAY = 4
    DONE = 5
    BLIND_BID = 6
    """A blind number bid (`blind_bids`), after the blind-nil decision and before the bid."""


N_ACTIONS = 66
"""Actions of a 13-trick game (OpenSpiel's numbering); `n_actions(rules)` in general."""
NIL_ACTION = 52
"""Action of a nil bid (and of declaring blind nil); bid b >= 1 is action 52 + b."""
LOOK_ACTION = 53
"""In the blind-nil decision: do not bid blind, look at the cards."""

# Decision numbers name each decision's random stream (`view.uniform` draws from (key, decision)):
# bids are 0..3, plays 4..55, and the optional phases sit apart so that adding one never shifts another.
FIRST_PLAY_DECISION = 4
BLIND_DECISION = 100
"""Blind-nil decision of the k-th bidder: BLIND_DECISION + k."""
BLIND_BID_DECISION = 120
"""Blind number bid decision of the k-th bidder: BLIND_BID_DECISION + k."""
EXCHANGE_DECISION = 110
"""The partner's pass to the blind-nil bidder; the pass back is EXCHANGE_DECISION + 1."""
NIL_EXCHANGE_DECISION = 112
"""The partner's pass to a plain nil bidder (`nil_exchange`); the pass back is NIL_EXCHANGE_DECISION + 1."""


def exchange_cards(rules: Rules, decision: int) -> int:
    """Cards in each pass of the exchange at this decision: blind nil's or plain nil's."""
    return rules.nil_exchange if decision >= NIL_EXCHANGE_DECISION else rules.blind_nil_exchange


DRAFT_DECISION = 200
"""Duel draft turn t: DRAFT_DECISION + t."""

FIRST_TRICK_MODES = {
    "left_of_dealer": kernels.FIRST_TRICK_FREE,
    "two_of_clubs": kernels.FIRST_TRICK_TWO_OF_CLUBS,
    "lowest_clubs": kernels.FIRST_TRICK_LOWEST_CLUBS,
}


def bid_decision(k: int) -> int:
    """Decision number of the k-th bid of a hand (0 = first bidder)."""
    return k


def play_decision(step: int) -> int:
    """Decision number of play `step` (0 = the first card led)."""
    return FIRST_PLAY_DECISION + step


def play_step(decision: int) -> int:
    """The play step of a play decision: cards played before it this hand (the inverse of `play_decision`)."""
    return decision - FIRST_PLAY_DECISION


def bid_columns(rules: Rules) -> int:
    """Columns of a legal-bids array: nil, then bids 1..tricks (14; 18 with three players)."""
    return rules.tricks + 1


def n_actions(rules: Rules) -> int:
    """Width of the legal action mask: 52 cards, nil, bids 1..tricks (66; 70 with three players)."""
    return NIL_ACTION + bid_columns(rules)


def base_bids(rules: Rules) -> np.ndarray:
    """[tricks + 1] bool: nil and min_bid..max_bid, before any side-contract limit."""
    row = np.zeros(bid_columns(rules), dtype=bool)
    row[0] = True
    row[rules.min_bid : rules.max_bid + 1] = True
    return row


def legal_bids(rules: Rules, bids: np.ndarray, actor: np.ndarray, spades: np.ndarray | None = None) -> np.ndarray:
    """[n, tricks + 1] bids allowed for each acting seat: nil or min..max, within the side contract limits.

    `bids` are the bids so far [n, seats] (-1: not yet); the partner's bid bounds the side contract.
    `spades` [n] is the number of trumps each acting seat holds, which whiz and mirror bid by.
    """
    n = len(actor)
    if rules.bid_rule != "free":
        return _bid_rule_bids(rules, bids, actor, spades)
    width = bid_columns(rules)
    legal = np.broadcast_to(base_bids(rules), (n, width)).copy()
    if rules.players == 4 and (rules.max_team_contract is not None or rules.min_team_contract):
        partner_bid = bids[np.arange(n), (actor + 2) % 4]
        has_bid = partner_bid >= 0
        counted = np.maximum(partner_bid, 0)
        numbers = np.arange(width)[None, :]
        if rules.max_team_contract is not None:
            legal[:, 1:] &= numbers[:, 1:] + counted[:, None] <= rules.max_team_contract
        if rules.min_team_contract:
            short = has_bid[:, None] & (numbers + counted[:, None] < rules.min_team_contract)
            legal[:, 1:] &= ~short[:, 1:]
            legal[:, 0] &= ~(has_bid & (counted < rules.min_team_contract))
    return legal


def _bid_rule_bids(rules: Rules, bids: np.ndarray, actor: np.ndarray, spades: np.ndarray | None) -> np.ndarray:
    """Legal bids of the suicide, whiz and mirror presets (see `Rules.bid_rule`)."""
    n = len(actor)
    legal = np.zeros((n, bid_columns(rules)), dtype=bool)
    tables = np.arange(n)
    if rules.bid_rule == "suicide":
        partner = bids[tables, (actor + 2) % 4]
        # first of the side: nil or at least 4; second: nil exactly when the partner did not bid it
        legal[:, 0] = partner != 0
        legal[:, SUICIDE_MIN:] = (partner <= 0)[:, None]
        return legal
    if spades is None:
        raise ValueError(f"bid_rule {rules.bid_rule!r} needs the spades each bidder holds")
    held = np.asarray(spades, dtype=np.int64)
    legal[tables, held] = True  # mirror: exactly the spades held (none: nil)
    if rules.bid_rule == "whiz":
        legal[:, 0] = True
    return legal


def first_bidder(rules: Rules, dealer: np.ndarray) -> np.ndarray:
    return dealer if rules.first_bidder == "dealer" else (dealer + 1) % rules.players


def _schedule(rules: Rules, draft: bool) -> list[tuple[Phase, int, int]]:
    """(phase, decision number, index) of every decision point of a hand, in order.

    The index is the draft turn, the bidder's place in the bidding order, the exchange pass
    (side * 2 + 0 for the partner's pass, + 1 for the pass back) or the play step.
    """
    p = rules.players
    points: list[tuple[Phase, int, int]] = []
    if draft:
        points += [(Phase.DRAFT, DRAFT_DECISION + t, t) for t in range(26)]
    for k in range(p):
        if rules.blind_nil:
            points.append((Phase.BLIND, BLIND_DECISION + k, k))
        if rules.blind_bids is not None:
            points.append((Phase.BLIND_BID, BLIND_BID_DECISION + k, k))
        points.append((Phase.BID, bid_decision(k), k))
    if rules.blind_nil and rules.blind_nil_exchange:
        for side in (0, 1):
            points += [(Phase.EXCHANGE, EXCHANGE_DECISION + back, 2 * side + back) for back in (0, 1)]
    if rules.nil_exchange:
        for side in (0, 1):
            points += [(Phase.EXCHANGE, NIL_EXCHANGE_DECISION + back, 4 + 2 * side + back) for back in (0, 1)]
    points += [(Phase.PLAY, play_decision(step), step) for step in range(rules.tricks * p)]
    return points


def _aliased(shape: tuple[int, ...], dtype: type, fill: object) -> tuple[np.ndarray, np.ndarray]:
    """A writable array for the engine and a read-only alias of the same memory for views.

    The alias is built over an immutable `bytes` object, so nothing reachable from it (its base
    chain ends at those bytes) can be made writable again: a view can read the engine's public
    arrays without a copy, and cannot change them. The engine writes through the other array,
    made from the memory's address (it keeps the bytes alive).
    """
    dt = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dt.itemsize
    raw = bytes(nbytes + 16)  # never empty or one byte long: CPython shares those bytes objects
    read_only = np.frombuffer(raw, dtype=np.uint8, count=nbytes).view(dt).reshape(shape)
    memory = (ctypes.c_uint8 * max(nbytes, 1)).from_address(read_only.__array_interface__["data"][0])
    memory.keep = raw  # type: ignore[attr-defined]
    writable = np.frombuffer(memory, dtype=np.uint8, count=nbytes).view(dt).reshape(shape)  # type: ignore[call-overload]
    writable[...] = fill
    return writable, read_only


class PublicArrays:
    """The public facts of a hand (bids, the trick, cards played, scores ...) as read-only arrays
    that views index lazily. It holds no reference to the `State`, no hidden card, and no array
    that can be made writable."""

    __slots__ = (
        "game_id", "hand_number", "dealer", "scores", "bags", "draft_keep", "bids", "blind", "legal_bids",
        "plays", "play_seats", "trick_cards", "played", "led_suit", "win_card", "win_seat", "broken",
        "tricks_won", "leader", "legal", "shown_voids",
    )  # fmt: skip
    game_id: np.ndarray
    hand_number: np.ndarray
    dealer: np.ndarray
    scores: np.ndarray
    bags: np.ndarray
    draft_keep: np.ndarray
    bids: np.ndarray
    blind: np.ndarray
    legal_bids: np.ndarray
    plays: np.ndarray
    play_seats: np.ndarray
    trick_cards: np.ndarray
    played: np.ndarray
    led_suit: np.ndarray
    win_card: np.ndarray
    win_seat: np.ndarray
    broken: np.ndarray
    tricks_won: np.ndarray
    leader: np.ndarray
    legal: np.ndarray
    shown_voids: np.ndarray

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        for name, array in arrays.items():
            object.__setattr__(self, name, array)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("the public arrays of a hand are read-only")

    def rows(self, rows: np.ndarray, names: tuple[str, ...]) -> PublicArrays:
        """The facts `names` at some tables only, as read-only copies: a view of those tables holds no path
        to the others' rows (another seat's legal cards or legal bids there)."""
        arrays = {}
        for name in names:
            array = object.__getattribute__(self, name).take(rows, axis=0)
            array.setflags(write=False)
            arrays[name] = array
        return PublicArrays(arrays)


class State:
    """Every fact of one hand at a batch of tables; arrays share their first axis (tables).

    Per-seat arrays are [n, seats] (4, or 2 in Duel), per-side arrays [n, 2] (side 0 = seats 0+2).
    Scores and bags are the totals before this hand. Use `to_act`, `phase`, `legal_action_mask()`
    and `step()` to drive it; `score()` once `done`.
    """

    def __init__(
        self,
        rules: Rules,
        game_id: np.ndarray,
        hand_number: np.ndarray,
        hand_keys: np.ndarray,
        dealer: np.ndarray,
        scores: np.ndarray,
        bags: np.ndarray,
        *,
        deal: np.ndarray | None = None,
        deck: Deck | None = None,
    ) -> None:
        n, p = len(game_id), rules.players
        self.rules, self.players = rules, p
        self.deck: Deck = deck or deck_for(rules.deck)
        self.n = n
        public: dict[str, np.ndarray] = {}

        def shown(name: str, shape: tuple[int, ...], dtype: type, fill: object) -> np.ndarray:
            writable, read_only = _aliased(shape, dtype, fill)
            public[name] = read_only
            return writable

        self.game_id = shown("game_id", (n,), np.int64, game_id)
        self.hand_number = shown("hand_number", (n,), np.int64, hand_number)
        self.dealer = shown("dealer", (n,), np.int64, dealer)
        self.scores = shown("scores", (n, rules.sides), np.int64, scores)
        self.bags = shown("bags", (n, rules.sides), np.int64, bags)
        self.policy_key = rng.derive(hand_keys, rng.STREAM_POLICY)
        self.drafted = deal is None and p == 2
        if deal is not None:
            self.hands = np.array(deal, dtype=np.uint64, copy=True)
        elif p == 4:
            self.hands = kernels.deal(hand_keys, np.uint64(rng.STREAM_DEAL))
        elif p == 3:
            self.hands = kernels.deal_three(hand_keys, np.uint64(rng.STREAM_DEAL), self.deck.index["2C"])
        else:
            self.hands = np.zeros((n, 2), dtype=np.uint64)
        self.stock = (
            kernels.stock(hand_keys, np.uint64(rng.STREAM_DEAL)) if self.drafted else np.zeros((n, 0), np.int64)
        )
        self.discards = np.zeros((n, p), dtype=np.uint64)
        self.draft_keep = shown("draft_keep", (n, 26 if self.drafted else 0), np.bool_, False)
        self.bids = shown("bids", (n, p), np.int64, -1)
        self.blind = shown("blind", (n, p), np.bool_, False)
        self.received = np.zeros((n, p), dtype=np.uint64)
        self.passed = np.zeros((n, p), dtype=np.uint64)
        self.legal_bids = shown("legal_bids", (n, bid_columns(rules)), np.bool_, False)
        self.plays = shown("plays", (n, rules.tricks * p), np.int8, -1)
        self.play_seats = shown("play_seats", (n, rules.tricks * p), np.int8, -1)
        self.trick_cards = shown("trick_cards", (n, p), np.int64, -1)
        self.played = shown("played", (n,), np.uint64, 0)
        self.led_suit = shown("led_suit", (n,), np.int64, -1)
        self.win_card = shown("win_card", (n,), np.int64, -1)
        self.win_seat = shown("win_seat", (n,), np.int64, -1)
        self.broken = shown("broken", (n,), np.bool_, False)
        self.tricks_won = shown("tricks_won", (n, p), np.int64, 0)
        self.leader = shown("leader", (n,), np.int64, (dealer + 1) % p)
        self.legal = shown("legal", (n,), np.uint64, 0)
        """uint64 mask of the legal cards of the seat to play (PLAY), of the giver's hand (EXCHANGE)."""
        self.shown_voids = shown("shown_voids", (n,), np.int64, 0)
        """Bit `4 * seat + suit` set once `seat` has not followed a led `suit` this hand (kept by `apply_play`)."""
        self.public = PublicArrays(public)
        """Read-only aliases of the public arrays above, for views (see `PublicArrays`)."""
        self.dealt = self.hands.copy()
        """[n, seats] each seat's cards before bidding (after the draft in Duel)."""
        self.held = self.hands.copy()
        """[n, seats] the cards held when the first trick was led (after any exchange)."""
        self._suit_of = np.array(self.deck.suit_of, dtype=np.int64)
        self._suit_masks = np.array(self.deck.suit_masks, copy=True)
        self._two_of_clubs = self.deck.index.get("2C", 0)
        self._card_play = kernels.CardPlay(
            self.hands, self.played, self.plays, self.play_seats, self.trick_cards, self.led_suit, self.win_card,
            self.win_seat, self.broken, self.tricks_won, self.leader, self.shown_voids,
        )  # fmt: skip
        """The arrays a card changes, as `kernels.apply_play` takes them."""
        self._open = np.ones(n, dtype=bool)
        """Spades counted as broken from the first lead on (`spades_break` off)."""
        self._points = _schedule(rules, self.drafted)
        self._at = -1
        self._pending = np.zeros(n, dtype=np.uint64)
        self._pending_count = 0
        self._acting_of: np.ndarray | None = None
        self._acting = np.zeros(n, dtype=bool)
        self.to_act = np.full(n, -1, dtype=np.int64)
        """The seat to act at each table now; -1 where this table has nothing to decide at this point."""
        self._advance()

    # --- where the hand is ----------------------------------------------------------------------

    @property
    def point(self) -> tuple[Phase, int, int]:
        """(phase, decision number, index) of the current decision point; (DONE, -1, -1) at the end."""
        return self._points[self._at] if self._at < len(self._points) else (Phase.DONE, -1, -1)

    @property
    def decision(self) -> int:
        """The current decision number (names the random stream of `view.uniform`)."""
        return self.point[1]

    @property
    def done(self) -> bool:
        return self._at >= len(self._points)

    @property
    def cards_chosen(self) -> int:
        """In an exchange driven by `step`: how many of the pass's cards are chosen so far."""
        return self._pending_count

    @property
    def acting(self) -> np.ndarray:
        """[n] True where a seat decides at this point."""
        if self._acting_of is not self.to_act:  # recomputed only when the seats to act change
            self._acting, self._acting_of = self.to_act >= 0, self.to_act
        return self._acting

    @property
    def phase(self) -> np.ndarray:
        """[n] Phase per table: the current point's phase where a seat acts, else its next one (DONE at the end)."""
        now = self.point[0]
        out = np.full(self.n, int(now), dtype=np.int8)
        if now != Phase.DONE:
            waiting = ~self.acting
            if waiting.any():
                out[waiting] = int(self._next_phase())
        return out

    def _next_phase(self) -> Phase:
        later = [ph for ph, _, _ in self._points[self._at + 1 :] if ph != self.point[0]]
        return later[0] if later else Phase.DONE

    # --- legal actions --------------------------------------------------------------------------

    @property
    def n_actions(self) -> int:
        """Columns of `legal_action_mask()`: 66, or 70 with three players (bids up to the 17 tricks)."""
        return n_actions(self.rules)

    def legal_action_mask(self) -> np.ndarray:
        """[n, n_actions] bool in OpenSpiel's numbering (see the module docstring): 66 columns, 70 with three
        players; all False where nobody acts."""
        mask = np.zeros((self.n, self.n_actions), dtype=bool)
        phase, _, index = self.point
        rows = np.flatnonzero(self.acting)
        if phase == Phase.BID:
            mask[rows, NIL_ACTION:] = self.legal_bids[rows]
        elif phase == Phase.BLIND_BID:
            mask[rows, NIL_ACTION:] = self.legal_bids[rows]
            mask[rows, LOOK_ACTION] = True
        elif phase == Phase.BLIND:
            mask[rows, NIL_ACTION] = mask[rows, LOOK_ACTION] = True
        elif phase == Phase.DRAFT:
            mask[rows, self.stock[rows, 2 * index]] = True
            mask[rows, self.stock[rows, 2 * index + 1]] = True
        elif phase in (Phase.PLAY, Phase.EXCHANGE):
            legal = self.legal[rows] & ~self._pending[rows] if phase == Phase.EXCHANGE else self.legal[rows]
            mask[rows, :52] = ((legal[:, None] >> np.arange(52, dtype=np.uint64)) & np.uint64(1)).astype(bool)
        return mask

    # --- stepping -------------------------------------------------------------------------------

    def step(self, actions: np.ndarray) -> None:
        """Apply one action id per table (OpenSpiel numbering; ignored where `to_act` is -1).

        Raises ValueError naming the first table whose action is not in `legal_action_mask()`.
        """
        actions = np.asarray(actions, dtype=np.int64)
        if actions.shape != (self.n,):
            raise ValueError(f"step needs one action per table, shape ({self.n},); got {actions.shape}")
        mask = self.legal_action_mask()
        rows = np.flatnonzero(self.acting)
        ok = (actions[rows] >= 0) & (actions[rows] < self.n_actions)
        ok &= mask[rows, np.clip(actions[rows], 0, self.n_actions - 1)]
        if not ok.all():
            bad = int(rows[np.argmin(ok)])
            raise ValueError(
                f"table {bad}: action {int(actions[bad])} is not legal in phase {self.point[0].name}; "
                f"legal: {np.flatnonzero(mask[bad]).tolist()}"
            )
        phase, _, index = self.point
        if phase == Phase.BID:
            self.apply(np.where(actions >= NIL_ACTION, actions - NIL_ACTION, 0))
        elif phase == Phase.BLIND:
            self.apply(actions == NIL_ACTION)
        elif phase == Phase.BLIND_BID:
            self.apply(np.where(actions == LOOK_ACTION, 0, actions - NIL_ACTION))
        elif phase == Phase.DRAFT:
            self.apply(actions == self.stock[:, 2 * index])
        elif phase == Phase.PLAY:
            self.apply(actions)
        else:  # one card of an exchange per step
            pick = np.where(self.acting, BIT[np.clip(actions, 0, 63)], np.uint64(0))
            self._pending |= pick
            self._pending_count += 1
            if self._pending_count == exchange_cards(self.rules, self.decision):
                passed, self._pending = self._pending, np.zeros(self.n, dtype=np.uint64)
                self._pending_count = 0
                self.apply(passed)

    def apply(self, answers: np.ndarray) -> None:
        """Apply the policies' answers for this point (what a policy returns: a bid 0..tricks, a card id,
        a bool for blind nil and the draft, a uint64 mask of cards for an exchange); one per table,
        ignored where `to_act` is -1. Legality is checked by the caller (`spades_lab.engine.protocol`)."""
        phase, _, index = self.point
        actor = self.to_act
        rows = np.flatnonzero(self.acting) if phase != Phase.PLAY else np.zeros(0, dtype=np.int64)
        if phase == Phase.PLAY:
            kernels.apply_play(answers, actor, index, self._card_play, self._suit_of)
        elif phase == Phase.BID:
            self.bids[rows, actor[rows]] = answers[rows]
        elif phase == Phase.BLIND:
            blind = np.asarray(answers, dtype=bool)[rows]
            self.blind[rows, actor[rows]] = blind
            self.bids[rows[blind], actor[rows[blind]]] = 0
        elif phase == Phase.BLIND_BID:
            number = np.asarray(answers, dtype=np.int64)[rows]
            blind = number > 0
            self.blind[rows[blind], actor[rows[blind]]] = True
            self.bids[rows[blind], actor[rows[blind]]] = number[blind]
        elif phase == Phase.EXCHANGE:
            cards = np.asarray(answers, dtype=np.uint64)[rows]
            giver = actor[rows]
            taker = (giver + 2) % 4
            self.hands[rows, giver] ^= cards
            self.hands[rows, taker] |= cards
            self.passed[rows, giver] = cards
            self.received[rows, taker] = cards
        elif phase == Phase.DRAFT:
            keep = np.asarray(answers, dtype=bool)
            self.draft_keep[:, index] = keep
            kernels.apply_draft(keep, actor, index, self.stock, self.hands, self.discards)
        self._advance()

    def play_out(self, deciders: Sequence[tuple[Any, Any]], who: np.ndarray) -> np.ndarray | None:
        """Play every remaining card of the hand in one compiled call (`spades_lab.engine.fused`).

        `deciders` are one or two (per-table function, record) pairs, `who` [n, seats] picks each seat's
        pair. Returns None once the hand is played, else the first illegal card as (table row, seat, play
        step, card, legal mask bits); the state is then left mid-hand.
        """
        phase, _, index = self.point
        if phase != Phase.PLAY:
            raise ValueError(f"play_out starts at a play decision; the hand is in phase {phase.name}")
        (fa, ka), (fb, kb) = deciders[0], deciders[-1]
        fail = np.full(5, -1, dtype=np.int64)
        rule = (
            self._suit_of, not self.rules.spades_break, FIRST_TRICK_MODES[self.rules.first_lead],
            self._two_of_clubs, FIRST_PLAY_DECISION, index,
        )  # fmt: skip
        table = (self.bids, self.bags, self.policy_key, np.ascontiguousarray(who, dtype=np.int64), fail)
        fused.driver(fa, fb)(self._card_play, table, game_of(self.rules, self.deck), rule, ka, kb)
        if fail[0] >= 0:
            return fail
        self._at = len(self._points)
        self.to_act = np.full(self.n, -1, dtype=np.int64)
        return None

    def is_legal_play(self, cards: np.ndarray) -> np.ndarray:
        """[n] True where a card id is legal for the seat to play."""
        return kernels.is_legal_card(self.legal, np.asarray(cards, dtype=np.int64))

    # --- moving through the schedule ------------------------------------------------------------

    def _advance(self) -> None:
        """Move to the next decision point at which some table acts, preparing its legal actions."""
        while True:
            self._at += 1
            phase, _, index = self.point
            if phase == Phase.DONE:
                self.to_act = np.full(self.n, -1, dtype=np.int64)
                return
            self._enter(phase, index)
            if self.acting.any():
                return

    def _enter(self, phase: Phase, index: int) -> None:
        p, rules = self.players, self.rules
        if phase == Phase.DRAFT:
            self.to_act = np.broadcast_to((self.dealer + 1 + index) % 2, (self.n,)).astype(np.int64)
            return
        if phase in (Phase.BLIND, Phase.BLIND_BID, Phase.BID):
            if index == 0 and phase == self._points_first_bid_phase():
                self.dealt = self.hands.copy()
            actor = (first_bidder(rules, self.dealer) + index) % p
            spades = None
            if rules.bid_rule in ("whiz", "mirror"):
                held = self.hands[np.arange(self.n), actor] & self._suit_masks[3]
                spades = np.bitwise_count(held).astype(np.int64)
            self.legal_bids[...] = legal_bids(rules, self.bids, actor, spades)
            tables = np.arange(self.n)
            if phase == Phase.BLIND_BID:
                # a number of at least blind_bids, within the side limits; for a side trailing enough
                self.legal_bids[:, : rules.blind_bids] = False
                eligible = ~self.blind[tables, actor] & self.legal_bids.any(axis=1)
                if rules.blind_bid_trail:
                    eligible &= deficit(self.scores, actor % rules.sides) >= rules.blind_bid_trail
            elif phase == Phase.BLIND:
                # blind nil is a nil: only where nil is a legal bid, and only for a side trailing enough
                eligible = self.legal_bids[:, 0].copy()
                if rules.blind_nil_trail:
                    eligible &= deficit(self.scores, actor % rules.sides) >= rules.blind_nil_trail
            else:
                eligible = ~self.blind[tables, actor]
            self.to_act = np.where(eligible, actor, -1)
            return
        if phase == Phase.EXCHANGE:
            plain, (side, back) = index >= 4, divmod(index % 4, 2)
            # blind nil: one blind bidder on the side; plain nil: one nil bidder, and neither is blind
            nils = self.bids[:, [side, side + 2]] == 0
            blinds = self.blind[:, [side, side + 2]] & nils  # blind nils (a blind number bid is no nil)
            pair = nils if plain else blinds
            single = pair[:, 0] ^ pair[:, 1]
            if plain:
                single &= ~blinds.any(axis=1) & (nils.sum(axis=1) == 1)
            bidder = np.where(pair[:, 0], side, side + 2)
            giver = bidder if back else (bidder + 2) % 4
            self.to_act = np.where(single, giver, -1)
            self.legal[...] = self.hands[np.arange(self.n), np.maximum(self.to_act, 0)]
            return
        # PLAY
        if index == 0:
            self.held = self.hands.copy()
            if rules.first_lead == "two_of_clubs":
                two = self._two_of_clubs
                holds = (self.hands >> np.uint64(two)) & np.uint64(1)
                self.leader[...] = np.argmax(holds, axis=1)
        position = index % p
        actor = (self.leader + position) % p
        kernels.legal_plays_into(
            self.legal, self.hands, actor, position == 0, self.led_suit,
            self.broken if rules.spades_break else self._open, self._suit_masks,
            (FIRST_TRICK_MODES[rules.first_lead] if index < p else 0, self._two_of_clubs),
        )  # fmt: skip
        self.to_act = actor

    def _points_first_bid_phase(self) -> Phase:
        if self.rules.blind_nil:
            return Phase.BLIND
        return Phase.BLIND_BID if self.rules.blind_bids is not None else Phase.BID

    # --- setting up positions -------------------------------------------------------------------

    def set_bids(self, bids: np.ndarray, blind: np.ndarray | None = None) -> None:
        """Start from bids already made ([n, seats], -1 for not yet; same count at every table):
        moves to the next bid, or to the first play once every seat has bid (positions, replays)."""
        phase = self.point[0]
        if phase not in (Phase.BLIND, Phase.BLIND_BID, Phase.BID) or self.point[2] != 0:
            raise ValueError("bids can only be set before the first bid")
        self.bids[:] = bids
        if blind is not None:
            self.blind[:] = blind
        made = int((self.bids[0] >= 0).sum())
        target = next(
            (
                i
                for i, (ph, _, k) in enumerate(self._points)
                if ph in (Phase.BLIND, Phase.BLIND_BID, Phase.BID) and k == made
            ),
            None,
        )
        if target is None:
            target = next(i for i, (ph, _, _) in enumerate(self._points) if ph in (Phase.EXCHANGE, Phase.PLAY))
            if self._points[target][0] == Phase.EXCHANGE:  # a position gives the hands after the exchange
                target = next(i for i, (ph, _, _) in enumerate(self._points) if ph == Phase.PLAY)
        self._at = target - 1
        self._advance()

    # --- the result -----------------------------------------------------------------------------

    def score(self) -> HandScore:
        """The hand's scores (points, bags, penalties, contracts) once `done`."""
        if not self.done:
            raise ValueError(f"the hand is not over: tables are in phase {self.point[0].name}")
        return score_hands(self.rules, self.bids, self.tricks_won, self.bags, self.blind)
