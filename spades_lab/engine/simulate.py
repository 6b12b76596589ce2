"""Playing batches of hands and games in lockstep.

Every hand has the same fixed sequence of decisions (four bids, 52 plays), so a batch of tables
advances one decision at a time: the engine computes the legal actions, asks each seat's policy
for the tables where that seat acts, checks the answers and applies them in compiled kernels.
In game mode a table whose game ends takes the next game id at once, so the batch stays full;
every game's randomness comes from its own id, so results never depend on the batch size.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

import numpy as np

from spades_lab.cards import Deck, deck_for
from spades_lab.engine import kernels, rng
from spades_lab.engine.protocol import Policy, ask_bids, ask_blind, ask_draft, ask_exchange, ask_plays
from spades_lab.engine.scoring import game_end, score_hands
from spades_lab.engine.views import BidView, BlindView, DraftView, ExchangeView, PlayView
from spades_lab.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_BATCH = 8192


@dataclass
class HandLog:
    """One row per hand played, for a batch of tables (arrays share their first axis).

    Per-seat arrays have one column per seat (4, or 2 in Duel); per-side arrays have 2 columns.
    """

    game: np.ndarray
    hand: np.ndarray
    dealer: np.ndarray
    deal: np.ndarray
    """[n, seats] uint64 masks of each seat's cards before bidding (after the draft in Duel)."""
    held: np.ndarray
    """[n, seats] uint64 masks of the cards held when the first trick was led (after any exchange)."""
    bids: np.ndarray
    plays: np.ndarray
    """[n, 13 * seats] card ids in play order."""
    play_seats: np.ndarray
    tricks: np.ndarray
    score_before: np.ndarray
    bags_before: np.ndarray
    hand_score: np.ndarray
    score_after: np.ndarray
    bags_after: np.ndarray
    bags_won: np.ndarray
    """[n, 2] bags taken in this hand (before any penalty removed some)."""
    bag_penalties: np.ndarray
    game_over: np.ndarray
    winner: np.ndarray
    """Winning side once game_over, else -1."""
    unfinished: np.ndarray
    blind: np.ndarray
    """[n, seats] blind nil declared."""
    passed: np.ndarray
    """[n, seats] uint64 mask of the cards each seat passed in a blind-nil exchange."""
    draft_keep: np.ndarray
    """Duel: [n, 26] True where the player on turn kept the top card ([n, 0] in 4-player games)."""
    stock: np.ndarray
    """Duel: [n, 52] the stock, top first ([n, 0] in 4-player games)."""

    def __len__(self) -> int:
        return len(self.game)

    def take(self, rows: np.ndarray) -> HandLog:
        return HandLog(**{f.name: getattr(self, f.name)[rows] for f in fields(self)})

    @staticmethod
    def concat(logs: Sequence[HandLog]) -> HandLog:
        return HandLog(**{f.name: np.concatenate([getattr(g, f.name) for g in logs]) for f in fields(HandLog)})

    def to_pandas(self, rules: Rules | None = None) -> pd.DataFrame:
        """One row per hand: game, hand, dealer, then per seat cards dealt and held (labels, strongest suit first),
        bid, blind, tricks, then per side the scores and bags, then game_over, winner, unfinished.

        Cards are labelled with the deck of `rules` (the standard deck when None: pass the rules of a
        jokers game). The card-by-card play is left out: it is in the hand records.
        """
        import pandas as pd

        deck = deck_for(rules.deck if rules is not None else "standard")
        data: dict[str, object] = {"game": self.game, "hand": self.hand, "dealer": self.dealer}
        seats = self.bids.shape[1]
        for seat in range(seats):
            data[f"deal{seat}"] = [" ".join(deck.labels(int(m))) for m in self.deal[:, seat]]
            data[f"held{seat}"] = [" ".join(deck.labels(int(m))) for m in self.held[:, seat]]
        for name, array in (("bid", self.bids), ("blind", self.blind), ("tricks", self.tricks)):
            for seat in range(seats):
                data[f"{name}{seat}"] = array[:, seat]
        for name in ("score_before", "bags_before", "hand_score", "score_after", "bags_after", "bags_won",
                     "bag_penalties"):  # fmt: skip
            for side in (0, 1):
                data[f"{name}{side}"] = getattr(self, name)[:, side]
        data.update(game_over=self.game_over, winner=self.winner, unfinished=self.unfinished)
        return pd.DataFrame(data)

    def sorted(self) -> HandLog:
        """Rows in (game, hand) order: the order of a run, whatever the batch size was."""
        return self.take(np.lexsort((self.hand, self.game)))


class _HandState:
    """The private state of a batch of tables during one hand; views read it, kernels write it."""

    def __init__(self, rules: Rules, deck: Deck, game_id, hand_number, hand_keys, dealer, scores, bags, deal=None) -> None:
        n, p = len(game_id), rules.players
        self.rules, self.deck, self.players = rules, deck, p
        self.game_id, self.hand_number, self.dealer = game_id, hand_number, dealer
        self.scores, self.bags = scores, bags
        self.policy_key = rng.derive(hand_keys, rng.STREAM_POLICY)
        if deal is not None:
            self.hands = deal.copy()
        elif p == 4:
            self.hands = kernels.deal(hand_keys, np.uint64(rng.STREAM_DEAL))
        else:
            self.stock = kernels.stock(hand_keys, np.uint64(rng.STREAM_DEAL))
            self.hands = np.zeros((n, 2), dtype=np.uint64)
            self.discards = np.zeros((n, 2), dtype=np.uint64)
            self.draft_keep = np.zeros((n, 26), dtype=bool)
        self.bids = np.full((n, p), -1, dtype=np.int64)
        self.blind = np.zeros((n, p), dtype=bool)
        self.received = np.zeros((n, p), dtype=np.uint64)
        self.passed = np.zeros((n, p), dtype=np.uint64)
        self.legal_bids = np.zeros((n, 14), dtype=bool)
        self.plays = np.full((n, 13 * p), -1, dtype=np.int8)
        self.play_seats = np.full((n, 13 * p), -1, dtype=np.int8)
        self.trick_cards = np.full((n, p), -1, dtype=np.int64)
        self.played = np.zeros(n, dtype=np.uint64)
        self.led_suit = np.full(n, -1, dtype=np.int64)
        self.win_card = np.full(n, -1, dtype=np.int64)
        self.win_seat = np.full(n, -1, dtype=np.int64)
        self.broken = np.zeros(n, dtype=bool)
        self.tricks_won = np.zeros((n, p), dtype=np.int64)
        self.leader = (dealer + 1) % p
        self.legal = np.zeros(n, dtype=np.uint64)

    def prepare_play(self, step: int) -> np.ndarray:
        """The seat to play `step` (0..13*seats-1) at each table; sets `legal` to its legal cards."""
        p = self.players
        position = step % p
        actor = (self.leader + position) % p
        self.legal = kernels.legal_plays(
            self.hands, actor, position == 0, self.led_suit, self.broken, self.deck.suit_masks,
            FIRST_TRICK_MODES[self.rules.first_lead] if step < p else 0, self.deck.index.get("2C", 0),
        )  # fmt: skip
        return actor

    def apply_play(self, step: int, actor: np.ndarray, cards: np.ndarray) -> None:
        p = self.players
        kernels.apply_play(
            cards, actor, step % p == 0, step % p == p - 1, step,
            self.hands, self.played, self.plays, self.play_seats, self.trick_cards, self.led_suit,
            self.win_card, self.win_seat, self.broken, self.tricks_won, self.leader, self.deck.suit_of,
        )  # fmt: skip

    def base_bids(self) -> np.ndarray:
        row = np.zeros(14, dtype=bool)
        row[0] = True
        row[self.rules.min_bid : self.rules.max_bid + 1] = True
        return row


class _Seating:
    """Which policy acts for each seat, grouped once per hand: seats sharing a policy object are asked together."""

    def __init__(self, policies: Sequence[Policy]) -> None:
        self.distinct: list[Policy] = []
        group_of_seat = []
        for policy in policies:
            known = next((g for g, p in enumerate(self.distinct) if p is policy), None)
            if known is None:
                self.distinct.append(policy)
                known = len(self.distinct) - 1
            group_of_seat.append(known)
        self.group_of_seat = np.array(group_of_seat, dtype=np.int64)

    def groups(self, actor: np.ndarray) -> list[tuple[Policy, np.ndarray | None]]:
        """(policy, table rows) per policy acting now; rows None when one policy acts at every table."""
        if len(self.distinct) == 1:
            return [(self.distinct[0], None)]
        group = self.group_of_seat[actor]
        if len(group) and (group == group[0]).all():
            return [(self.distinct[int(group[0])], None)]
        return [(policy, np.flatnonzero(group == g)) for g, policy in enumerate(self.distinct)]


def _decide(policies: _Seating, actor, state, view_cls, ask, decision, rows=None, dtype=np.int64) -> np.ndarray:
    """Ask each seat's policy for its tables; `rows` restricts the question to some tables."""
    if rows is not None:
        actions = np.zeros(len(actor), dtype=dtype)
        if len(rows):
            sub = _decide_all(policies, actor[rows], state, view_cls, ask, decision, rows, dtype)
            actions[rows] = sub
        return actions
    return _decide_all(policies, actor, state, view_cls, ask, decision, None, dtype)


def _decide_all(policies: _Seating, actor, state, view_cls, ask, decision, base_rows, dtype) -> np.ndarray:
    actions = np.empty(len(actor), dtype=dtype)
    for policy, rows in policies.groups(actor):
        if rows is None:
            actions[:] = ask(policy, view_cls(state, base_rows, actor, decision))
        elif len(rows):
            table_rows = rows if base_rows is None else base_rows[rows]
            actions[rows] = ask(policy, view_cls(state, table_rows, actor[rows], decision))
    return actions


def _draft(state: _HandState, policies: _Seating) -> None:
    """Duel: 26 turns alternating from the non-dealer; each keeps the top card or takes the next."""
    first = (state.dealer + 1) % 2
    for turn in range(26):
        actor = (first + turn) % 2
        keep = _decide(policies, actor, state, DraftView, ask_draft, DRAFT_DECISION + turn, dtype=bool)
        state.draft_keep[:, turn] = keep
        kernels.apply_draft(keep, actor, turn, state.stock, state.hands, state.discards)


def _legal_bids(state: _HandState, actor: np.ndarray) -> np.ndarray:
    """Bids allowed for each acting seat: nil or min..max, within the side contract limits."""
    rules, n = state.rules, len(actor)
    legal = np.broadcast_to(state.base_bids(), (n, 14)).copy()
    if state.players == 4 and (rules.max_team_contract is not None or rules.min_team_contract):
        partner_bid = state.bids[np.arange(n), (actor + 2) % 4]
        has_bid = partner_bid >= 0
        counted = np.maximum(partner_bid, 0)
        numbers = np.arange(14)[None, :]
        if rules.max_team_contract is not None:
            legal[:, 1:] &= numbers[:, 1:] + counted[:, None] <= rules.max_team_contract
        if rules.min_team_contract:
            short = has_bid[:, None] & (numbers + counted[:, None] < rules.min_team_contract)
            legal[:, 1:] &= ~short[:, 1:]
            legal[:, 0] &= ~(has_bid & (counted < rules.min_team_contract))
    return legal


def _bidding(state: _HandState, policies: _Seating) -> None:
    rules, n = state.rules, len(state.dealer)
    p = state.players
    first = state.dealer if rules.first_bidder == "dealer" else (state.dealer + 1) % p
    for k in range(p):
        actor = (first + k) % p
        rows_all = np.arange(n)
        state.legal_bids = _legal_bids(state, actor)
        blind = None
        if rules.blind_nil:
            # blind nil is a nil: only where nil is a legal bid, and only for a side trailing enough
            eligible = state.legal_bids[:, 0].copy()
            if rules.blind_nil_trail:
                side = actor % 2
                eligible &= state.scores[rows_all, 1 - side] - state.scores[rows_all, side] >= rules.blind_nil_trail
            blind = _decide(policies, actor, state, BlindView, ask_blind, BLIND_DECISION + k, np.flatnonzero(eligible), bool)
            state.blind[rows_all, actor] = blind
        if blind is None or not blind.any():
            state.bids[rows_all, actor] = _decide(policies, actor, state, BidView, ask_bids, k)
        else:
            bids = _decide(policies, actor, state, BidView, ask_bids, k, np.flatnonzero(~blind))
            state.bids[rows_all, actor] = np.where(blind, 0, bids)


def _exchange(state: _HandState, policies: _Seating) -> None:
    """Blind nil exchange: the partner passes k cards, then the blind bidder passes k back."""
    k = state.rules.blind_nil_exchange
    if not (state.rules.blind_nil and k and state.blind.any()):
        return
    n = len(state.dealer)
    for side in (0, 1):
        pair = state.blind[:, [side, side + 2]]
        single = pair[:, 0] ^ pair[:, 1]
        rows = np.flatnonzero(single)
        if not len(rows):
            continue
        bidder = np.where(pair[rows, 0], side, side + 2)
        partner = (bidder + 2) % 4
        for giver, taker, decision in ((partner, bidder, EXCHANGE_DECISION), (bidder, partner, EXCHANGE_DECISION + 1)):
            actor = np.zeros(n, dtype=np.int64)
            actor[rows] = giver
            cards = _decide(policies, actor, state, ExchangeView, ask_exchange, decision, rows, np.uint64)[rows]
            state.hands[rows, giver] ^= cards
            state.hands[rows, taker] |= cards
            state.passed[rows, giver] = cards
            state.received[rows, taker] = cards


def _first_leader(state: _HandState) -> None:
    if state.rules.first_lead == "two_of_clubs":
        two = state.deck.index["2C"]
        holds = (state.hands >> np.uint64(two)) & np.uint64(1)
        state.leader = np.argmax(holds, axis=1).astype(np.int64)


FIRST_TRICK_MODES = {
    "left_of_dealer": kernels.FIRST_TRICK_FREE,
    "two_of_clubs": kernels.FIRST_TRICK_TWO_OF_CLUBS,
    "lowest_clubs": kernels.FIRST_TRICK_LOWEST_CLUBS,
}
BLIND_DECISION, EXCHANGE_DECISION, DRAFT_DECISION = 100, 110, 200
"""Decision counters of the optional phases (bids are 0..3, plays 4..55); they name random streams."""


def play_hand(
    rules: Rules,
    policies: Sequence[Policy],
    game_id: np.ndarray,
    hand_number: np.ndarray,
    hand_keys: np.ndarray,
    dealer: np.ndarray,
    scores: np.ndarray,
    bags: np.ndarray,
    deck: Deck | None = None,
    deal: np.ndarray | None = None,
) -> HandLog:
    """Deal (or draft, in Duel), bid, exchange, play and score one hand at every table.

    `deal` gives the [n, seats] hand masks instead of dealing (replays and positions).
    """
    deck = deck or deck_for(rules.deck)
    policies = _Seating(policies)
    state = _HandState(rules, deck, game_id, hand_number, hand_keys, dealer, scores, bags, deal)
    p = state.players
    if p == 2 and deal is None:
        _draft(state, policies)
    state.dealt = state.hands.copy()
    _bidding(state, policies)
    _exchange(state, policies)
    held = state.hands.copy()
    _first_leader(state)
    for step in range(13 * p):
        actor = state.prepare_play(step)
        state.apply_play(step, actor, _decide(policies, actor, state, PlayView, ask_plays, 4 + step))
    result = score_hands(rules, state.bids, state.tricks_won, bags, state.blind)
    after = scores + result.points
    over, winner, unfinished = game_end(rules, after, hand_number + 1)
    n = len(game_id)
    return HandLog(
        game=game_id, hand=hand_number, dealer=dealer, deal=state.dealt, held=held, bids=state.bids,
        plays=state.plays, play_seats=state.play_seats, tricks=state.tricks_won,
        score_before=scores, bags_before=bags, hand_score=result.points, score_after=after,
        bags_after=result.bags_after, bags_won=result.new_bags, bag_penalties=result.penalties,
        game_over=over, winner=winner, unfinished=unfinished,
        blind=state.blind, passed=state.passed,
        draft_keep=state.draft_keep if p == 2 and deal is None else np.zeros((n, 26 if p == 2 else 0), dtype=bool),
        stock=state.stock if p == 2 and deal is None else np.zeros((n, 52 if p == 2 else 0), dtype=np.int64),
    )  # fmt: skip


def _check_players(rules: Rules, policies: Sequence[Policy]) -> list[Policy]:
    policies = list(policies)
    if len(policies) != rules.players:
        game = "Duel" if rules.players == 2 else "4-player Spades"
        raise ValueError(f"{game} needs {rules.players} seat policies, got {len(policies)}")
    needed = ("name", "bid", "play") + (("draft",) if rules.players == 2 else ())
    for seat, policy in enumerate(policies):
        missing = [m for m in needed if not hasattr(policy, m)]
        if missing:
            raise TypeError(f"seat {seat} policy {policy!r} lacks {', '.join(missing)}; see spades_lab.engine.Policy")
    return policies


def simulate_hands(
    rules: Rules, policies: Sequence[Policy], n_hands: int, seed: int, batch_size: int = DEFAULT_BATCH, start: int = 0
) -> Iterator[HandLog]:
    """Independent single hands from 0-0 scores; hand i is the first hand of game i of the same seed."""
    policies = _check_players(rules, policies)
    root = rng.seed_key(seed)
    for lo in range(start, start + n_hands, batch_size):
        ids = np.arange(lo, min(lo + batch_size, start + n_hands), dtype=np.int64)
        game_keys = rng.derive(root, ids)
        dealer = rng.below(game_keys, rng.STREAM_DEALER, rules.players)
        zeros = np.zeros((len(ids), 2), dtype=np.int64)
        yield play_hand(
            rules, policies, ids, np.zeros_like(ids), rng.derive(game_keys, 0), dealer, zeros, zeros.copy()
        )


def simulate_games(
    rules: Rules, policies: Sequence[Policy], n_games: int, seed: int, batch_size: int = DEFAULT_BATCH, start: int = 0
) -> Iterator[HandLog]:
    """Complete games start..start+n_games-1; yields each hand batch as it is played (rows in any order)."""
    policies = _check_players(rules, policies)
    root = rng.seed_key(seed)
    seats = rules.players
    end = start + n_games
    next_game = min(start + batch_size, end)
    game = np.arange(start, next_game, dtype=np.int64)
    hand = np.zeros_like(game)
    game_keys = rng.derive(root, game)
    dealer = rng.below(game_keys, rng.STREAM_DEALER, seats)
    scores = np.zeros((len(game), 2), dtype=np.int64)
    bags = np.zeros_like(scores)
    while len(game):
        log = play_hand(rules, policies, game, hand, rng.derive(game_keys, hand), dealer, scores, bags)
        yield log
        done = log.game_over | log.unfinished
        keep = ~done
        game, hand, game_keys = game[keep], hand[keep] + 1, game_keys[keep]
        dealer, scores, bags = (dealer[keep] + 1) % seats, log.score_after[keep], log.bags_after[keep]
        fresh = np.arange(next_game, min(next_game + int(done.sum()), end), dtype=np.int64)
        if len(fresh):
            next_game += len(fresh)
            fresh_keys = rng.derive(root, fresh)
            game = np.concatenate([game, fresh])
            hand = np.concatenate([hand, np.zeros_like(fresh)])
            game_keys = np.concatenate([game_keys, fresh_keys])
            dealer = np.concatenate([dealer, rng.below(fresh_keys, rng.STREAM_DEALER, seats)])
            scores = np.concatenate([scores, np.zeros((len(fresh), 2), dtype=np.int64)])
            bags = np.concatenate([bags, np.zeros((len(fresh), 2), dtype=np.int64)])
