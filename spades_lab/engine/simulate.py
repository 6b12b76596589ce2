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

import numpy as np

from spades_lab.cards import STANDARD_DECK, Deck
from spades_lab.engine import kernels, rng
from spades_lab.engine.protocol import Policy, ask_bids, ask_plays
from spades_lab.engine.scoring import game_end, score_hands
from spades_lab.engine.views import BidView, PlayView
from spades_lab.rules import Rules

DEFAULT_BATCH = 8192


@dataclass
class HandLog:
    """One row per hand played, for a batch of tables (arrays share their first axis)."""

    game: np.ndarray
    hand: np.ndarray
    dealer: np.ndarray
    deal: np.ndarray
    """[n, 4] uint64 masks of the cards dealt to each seat."""
    bids: np.ndarray
    plays: np.ndarray
    """[n, 52] card ids in play order."""
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
    """Winning partnership once game_over, else -1."""
    unfinished: np.ndarray

    def __len__(self) -> int:
        return len(self.game)

    def take(self, rows: np.ndarray) -> HandLog:
        return HandLog(**{f.name: getattr(self, f.name)[rows] for f in fields(self)})

    @staticmethod
    def concat(logs: Sequence[HandLog]) -> HandLog:
        return HandLog(**{f.name: np.concatenate([getattr(g, f.name) for g in logs]) for f in fields(HandLog)})

    def sorted(self) -> HandLog:
        """Rows in (game, hand) order: the order of a run, whatever the batch size was."""
        return self.take(np.lexsort((self.hand, self.game)))


class _HandState:
    """The private state of a batch of tables during one hand; views read it, kernels write it."""

    def __init__(self, rules: Rules, deck: Deck, game_id, hand_number, hand_keys, dealer, scores, bags, deal=None) -> None:
        n = len(game_id)
        self.rules, self.deck = rules, deck
        self.game_id, self.hand_number, self.dealer = game_id, hand_number, dealer
        self.scores, self.bags = scores, bags
        self.policy_key = rng.derive(hand_keys, rng.STREAM_POLICY)
        self.hands = kernels.deal(hand_keys, np.uint64(rng.STREAM_DEAL)) if deal is None else deal.copy()
        self.dealt = self.hands.copy()
        self.bids = np.full((n, 4), -1, dtype=np.int64)
        legal = np.zeros(14, dtype=bool)
        legal[0] = True
        legal[rules.min_bid : rules.max_bid + 1] = True
        self.legal_bid_row = legal
        self.plays = np.full((n, 52), -1, dtype=np.int8)
        self.play_seats = np.full((n, 52), -1, dtype=np.int8)
        self.trick_cards = np.full((n, 4), -1, dtype=np.int64)
        self.played = np.zeros(n, dtype=np.uint64)
        self.led_suit = np.full(n, -1, dtype=np.int64)
        self.win_card = np.full(n, -1, dtype=np.int64)
        self.win_seat = np.full(n, -1, dtype=np.int64)
        self.broken = np.zeros(n, dtype=bool)
        self.tricks_won = np.zeros((n, 4), dtype=np.int64)
        self.leader = (dealer + 1) % 4
        self.legal = np.zeros(n, dtype=np.uint64)


def _groups(policies: Sequence[Policy], actor: np.ndarray) -> list[tuple[Policy, np.ndarray | None]]:
    """Tables grouped by the policy of their acting seat; one group of all tables when seats share one."""
    distinct: dict[int, tuple[Policy, list[int]]] = {}
    for seat, policy in enumerate(policies):
        distinct.setdefault(id(policy), (policy, []))[1].append(seat)
    if len(distinct) == 1:
        return [(policies[0], None)]
    return [(policy, np.flatnonzero(np.isin(actor, seats))) for policy, seats in distinct.values()]


def _decide(policies, actor, state, view_cls, ask, decision) -> np.ndarray:
    actions = np.empty(len(actor), dtype=np.int64)
    for policy, rows in _groups(policies, actor):
        if rows is None:
            actions[:] = ask(policy, view_cls(state, None, actor, decision))
        elif len(rows):
            actions[rows] = ask(policy, view_cls(state, rows, actor[rows], decision))
    return actions


def play_hand(
    rules: Rules,
    policies: Sequence[Policy],
    game_id: np.ndarray,
    hand_number: np.ndarray,
    hand_keys: np.ndarray,
    dealer: np.ndarray,
    scores: np.ndarray,
    bags: np.ndarray,
    deck: Deck = STANDARD_DECK,
    deal: np.ndarray | None = None,
) -> HandLog:
    """Deal (unless `deal` gives the [n, 4] hand masks), bid, play and score one hand at every table."""
    state = _HandState(rules, deck, game_id, hand_number, hand_keys, dealer, scores, bags, deal)
    first = (dealer + 1) % 4
    for k in range(4):
        actor = (first + k) % 4
        state.bids[np.arange(len(actor)), actor] = _decide(policies, actor, state, BidView, ask_bids, k)
    suit_masks = deck.suit_masks
    for step in range(52):
        position = step % 4
        actor = (state.leader + position) % 4
        state.legal = kernels.legal_plays(state.hands, actor, position == 0, state.led_suit, state.broken, suit_masks)
        cards = _decide(policies, actor, state, PlayView, ask_plays, 4 + step)
        kernels.apply_play(
            cards, actor, position == 0, position == 3, step,
            state.hands, state.played, state.plays, state.play_seats, state.trick_cards, state.led_suit,
            state.win_card, state.win_seat, state.broken, state.tricks_won, state.leader, deck.suit_of,
        )  # fmt: skip
    result = score_hands(rules, state.bids, state.tricks_won, bags)
    after = scores + result.points
    over, winner, unfinished = game_end(rules, after, hand_number + 1)
    return HandLog(
        game=game_id, hand=hand_number, dealer=dealer, deal=state.dealt, bids=state.bids,
        plays=state.plays, play_seats=state.play_seats, tricks=state.tricks_won,
        score_before=scores, bags_before=bags, hand_score=result.points, score_after=after,
        bags_after=result.bags_after, bags_won=result.new_bags, bag_penalties=result.penalties,
        game_over=over, winner=winner, unfinished=unfinished,
    )  # fmt: skip


def _check_players(policies: Sequence[Policy]) -> list[Policy]:
    policies = list(policies)
    if len(policies) != 4:
        raise ValueError(f"4-player Spades needs 4 seat policies, got {len(policies)}")
    for seat, policy in enumerate(policies):
        missing = [m for m in ("name", "bid", "play") if not hasattr(policy, m)]
        if missing:
            raise TypeError(f"seat {seat} policy {policy!r} lacks {', '.join(missing)}; see spades_lab.engine.Policy")
    return policies


def simulate_hands(
    rules: Rules, policies: Sequence[Policy], n_hands: int, seed: int, batch_size: int = DEFAULT_BATCH, start: int = 0
) -> Iterator[HandLog]:
    """Independent single hands from 0-0 scores; hand i is the first hand of game i of the same seed."""
    policies = _check_players(policies)
    root = rng.seed_key(seed)
    for lo in range(start, start + n_hands, batch_size):
        ids = np.arange(lo, min(lo + batch_size, start + n_hands), dtype=np.int64)
        game_keys = rng.derive(root, ids)
        dealer = rng.below(game_keys, rng.STREAM_DEALER, 4)
        zeros = np.zeros((len(ids), 2), dtype=np.int64)
        yield play_hand(
            rules, policies, ids, np.zeros_like(ids), rng.derive(game_keys, 0), dealer, zeros, zeros.copy()
        )


def simulate_games(
    rules: Rules, policies: Sequence[Policy], n_games: int, seed: int, batch_size: int = DEFAULT_BATCH, start: int = 0
) -> Iterator[HandLog]:
    """Complete games start..start+n_games-1; yields each hand batch as it is played (rows in any order)."""
    policies = _check_players(policies)
    root = rng.seed_key(seed)
    end = start + n_games
    next_game = min(start + batch_size, end)
    game = np.arange(start, next_game, dtype=np.int64)
    hand = np.zeros_like(game)
    game_keys = rng.derive(root, game)
    dealer = rng.below(game_keys, rng.STREAM_DEALER, 4)
    scores = np.zeros((len(game), 2), dtype=np.int64)
    bags = np.zeros_like(scores)
    while len(game):
        log = play_hand(rules, policies, game, hand, rng.derive(game_keys, hand), dealer, scores, bags)
        yield log
        done = log.game_over | log.unfinished
        keep = ~done
        game, hand, game_keys = game[keep], hand[keep] + 1, game_keys[keep]
        dealer, scores, bags = (dealer[keep] + 1) % 4, log.score_after[keep], log.bags_after[keep]
        fresh = np.arange(next_game, min(next_game + int(done.sum()), end), dtype=np.int64)
        if len(fresh):
            next_game += len(fresh)
            fresh_keys = rng.derive(root, fresh)
            game = np.concatenate([game, fresh])
            hand = np.concatenate([hand, np.zeros_like(fresh)])
            game_keys = np.concatenate([game_keys, fresh_keys])
            dealer = np.concatenate([dealer, rng.below(fresh_keys, rng.STREAM_DEALER, 4)])
            scores = np.concatenate([scores, np.zeros((len(fresh), 2), dtype=np.int64)])
            bags = np.concatenate([bags, np.zeros((len(fresh), 2), dtype=np.int64)])
