"""Playing batches of hands and games in lockstep.

Every hand has the same fixed sequence of decisions (four bids, 52 plays), so a batch of tables
advances one decision at a time: the engine computes the legal actions, asks each seat's policy
for the tables where that seat acts, checks the answers and applies them in compiled kernels.
In game mode a table whose game ends takes the next game id at once, so the batch stays full;
every game's randomness comes from its own id, so results never depend on the batch size.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from spades_lab.cards import Deck, deck_for
from spades_lab.engine import rng
from spades_lab.engine.fused import MAX_DECIDERS
from spades_lab.engine.protocol import (
    Policy,
    ask_bids,
    ask_blind,
    ask_blind_bid,
    ask_draft,
    ask_exchange,
    ask_plays,
    policy_error,
)
from spades_lab.engine.scoring import game_end
from spades_lab.engine.state import Phase, State
from spades_lab.engine.views import BidView, BlindBidView, BlindView, DraftView, ExchangeView, PlayView, ViewContext
from spades_lab.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_BATCH = 8192
MAX_HANDS = 1000
"""Run-level safety net, not a rule: a game still going after this many hands stops unfinished."""


class MaxHandsWarning(RuntimeWarning):
    """Some games hit `max_hands` and stopped unfinished (never a win)."""


@dataclass
class HandLog:
    """One row per hand played, for a batch of tables (arrays share their first axis).

    Per-seat arrays have one column per seat (4, or 2 in Duel); per-side arrays have one column per
    side: 2, 4 in cutthroat, 3 with three players (`rules.sides`).
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
    """[n, tricks * seats] card ids in play order (13 tricks; 17 with three players)."""
    play_seats: np.ndarray
    tricks: np.ndarray
    score_before: np.ndarray
    bags_before: np.ndarray
    hand_score: np.ndarray
    score_after: np.ndarray
    bags_after: np.ndarray
    bags_won: np.ndarray
    """[n, sides] bags taken in this hand (before any penalty removed some)."""
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

    def __post_init__(self) -> None:
        # Not a dataclass field: it is filled after play, by the dd layer, and most logs never have it.
        self.dd_tricks: np.ndarray | None = None
        """[n, 2] each side's double-dummy tricks from `play_start` (None: not solved; see `spades_lab.dd.with_dd`)."""

    def __len__(self) -> int:
        return len(self.game)

    @property
    def first_leader(self) -> np.ndarray:
        """[n] the seat that led the first trick (left of the dealer, or the 2C holder)."""
        return self.play_seats[:, 0].astype(np.int64)

    def play_start(self, rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(held, first leader, spades broken) at the first lead: the position a double-dummy solver
        starts from. Spades count as broken from the start only when the rules have no spades-break rule."""
        broken = np.full(len(self), not rules.spades_break, dtype=np.bool_)
        return self.held, self.first_leader, broken

    def take(self, rows: np.ndarray) -> HandLog:
        out = HandLog(**{f.name: getattr(self, f.name)[rows] for f in fields(self)})
        out.dd_tricks = None if self.dd_tricks is None else self.dd_tricks[rows]
        return out

    @staticmethod
    def concat(logs: Sequence[HandLog]) -> HandLog:
        out = HandLog(**{f.name: np.concatenate([getattr(g, f.name) for g in logs]) for f in fields(HandLog)})
        out.dd_tricks = _joined([g.dd_tricks for g in logs])
        return out

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
            for side in range(self.score_after.shape[1]):
                data[f"{name}{side}"] = getattr(self, name)[:, side]
        data.update(game_over=self.game_over, winner=self.winner, unfinished=self.unfinished)
        if self.dd_tricks is not None:
            for side in (0, 1):
                data[f"dd_tricks{side}"] = self.dd_tricks[:, side]
        return pd.DataFrame(data)

    def sorted(self) -> HandLog:
        """Rows in (game, hand) order: the order of a run, whatever the batch size was."""
        return self.take(np.lexsort((self.hand, self.game)))


def _joined(arrays: list[np.ndarray | None]) -> np.ndarray | None:
    """Optional arrays of logs joined; None unless every log has one (a partly solved batch is not solved)."""
    if any(a is None for a in arrays):
        return None
    return np.concatenate(arrays)  # type: ignore[arg-type]


FUSED_PLAY = True
"""Play the cards of a hand in the fused compiled loop when every play decider allows it
(`spades_lab.engine.fused`). The games are the same either way; False keeps the lockstep path."""


class _Seating:
    """Which object decides for each seat, grouped once per hand: seats whose decider is the same
    object are asked together, in one view.

    A policy may name, per decision, the object that really makes it (`decider(method)`, as a
    `Player` does with its parts), so players that share a play part (`counting+tips` and
    `cautious+tips`) play every card of a mixed game as one batch. With several lineups (the seat
    policies of each table, `lineup[table]` indexing `lineups`), tables of different pairings or
    seatings share one batch and are still asked per decider, not per lineup.
    """

    def __init__(self, lineups: Sequence[Sequence[Policy]], lineup: np.ndarray | None = None) -> None:
        self.lineups = [list(seats) for seats in lineups]
        self.lineup = lineup
        self._by_method: dict[str, tuple[list[Policy], np.ndarray]] = {}

    def _grouping(self, method: str) -> tuple[list[Policy], np.ndarray]:
        known = self._by_method.get(method)
        if known is None:
            distinct: list[Policy] = []
            group_of_seat = []
            for seats in self.lineups:
                groups = []
                for policy in seats:
                    decider = policy.decider(method) if hasattr(policy, "decider") else policy
                    g = next((g for g, d in enumerate(distinct) if d is decider), None)
                    if g is None:
                        distinct.append(decider)
                        g = len(distinct) - 1
                    groups.append(g)
                group_of_seat.append(groups)
            known = self._by_method[method] = (distinct, np.array(group_of_seat, dtype=np.int64))
        return known

    def compiled_play(self, rules: Rules, n: int) -> tuple[list[Policy], list[tuple[Any, Any]], np.ndarray] | None:
        """(deciders, their (per-table function, record) pairs, [n, seats] decider of each seat) when every
        play decider is compiled per table and there are at most `fused.MAX_DECIDERS`; else None."""
        distinct, group_of_seat = self._grouping("play")
        if len(distinct) > MAX_DECIDERS or not all(hasattr(d, "compiled_play") for d in distinct):
            return None
        pairs = [d.compiled_play(rules) for d in distinct]  # type: ignore[attr-defined]
        if self.lineup is None:
            who = np.broadcast_to(group_of_seat[0], (n, group_of_seat.shape[1]))
        else:
            who = group_of_seat[self.lineup]
        return distinct, pairs, who

    def groups(
        self, method: str, actor: np.ndarray, rows: np.ndarray | None = None
    ) -> list[tuple[Policy, np.ndarray | None]]:
        """(decider, indices into `actor`) per decider acting now; None when one decider acts at every
        table. `rows` are the batch rows of `actor` (None: all), to look up their lineups."""
        distinct, group_of_seat = self._grouping(method)
        if len(distinct) == 1:
            return [(distinct[0], None)]
        if self.lineup is None:
            group = group_of_seat[0][actor]
        else:
            group = group_of_seat[self.lineup if rows is None else self.lineup[rows], actor]
        if len(group) and (group == group[0]).all():
            return [(distinct[int(group[0])], None)]
        return [(policy, np.flatnonzero(group == g)) for g, policy in enumerate(distinct)]


def _decide(
    policies: _Seating,
    state: State,
    method: str,
    view_cls: type,
    ask: Callable[..., np.ndarray],
    context: ViewContext,
    dtype: type,
) -> np.ndarray:
    """Ask each seat's policy at this decision point, for the tables where a seat acts."""
    actor, decision = state.to_act, state.decision
    acting = state.acting
    actions: np.ndarray = np.zeros(len(actor), dtype=dtype)
    base_rows = None if acting.all() else np.flatnonzero(acting)
    seats = actor if base_rows is None else actor[base_rows]
    for policy, rows in policies.groups(method, seats, base_rows):
        if rows is None:
            answer = ask(policy, view_cls(state, base_rows, seats, decision, context))
            if base_rows is None:
                actions[:] = answer
            else:
                actions[base_rows] = answer
        elif len(rows):
            table_rows = rows if base_rows is None else base_rows[rows]
            actions[table_rows] = ask(policy, view_cls(state, table_rows, seats[rows], decision, context))
    return actions


_ASK: dict[Phase, tuple[str, type, Callable[..., np.ndarray], type]] = {
    Phase.DRAFT: ("draft", DraftView, ask_draft, np.bool_),
    Phase.BLIND: ("blind", BlindView, ask_blind, np.bool_),
    Phase.BLIND_BID: ("blind_bid", BlindBidView, ask_blind_bid, np.int64),
    Phase.BID: ("bid", BidView, ask_bids, np.int64),
    Phase.EXCHANGE: ("exchange", ExchangeView, ask_exchange, np.uint64),
    Phase.PLAY: ("play", PlayView, ask_plays, np.int64),
}
"""Per phase: the policy method, the view it gets, the check of its answer, and the answer's dtype."""
ASK = _ASK


def _play_out(state: State, deciders: list[Policy], pairs: list[tuple[Any, Any]], who: np.ndarray) -> None:
    """The rest of the hand in the fused loop; an illegal card raises the lockstep path's PolicyError."""
    fail = state.play_out(pairs, who)
    if fail is None:
        return
    row, seat, step, card, legal = (int(x) for x in fail)
    policy = deciders[int(who[row, seat])]
    deck = state.deck
    label = deck.cards[card] if 0 <= card < 52 else f"id {card}"
    where = (seat, int(state.game_id[row]), int(state.hand_number[row]))
    raise policy_error(policy.name, where, f"card {label} is not a legal play",
                       " ".join(deck.labels(legal & 0xFFFFFFFFFFFFFFFF)))  # fmt: skip


def play_hand(
    rules: Rules,
    policies: Sequence[Policy] | Sequence[Sequence[Policy]],
    game_id: np.ndarray,
    hand_number: np.ndarray,
    hand_keys: np.ndarray,
    dealer: np.ndarray,
    scores: np.ndarray,
    bags: np.ndarray,
    *,
    deck: Deck | None = None,
    deal: np.ndarray | None = None,
    lineup: np.ndarray | None = None,
) -> HandLog:
    """Deal (or draft, in Duel), bid, exchange, play and score one hand at every table.

    `deal` gives the [n, seats] hand masks instead of dealing (replays and positions). `lineup`
    plays tables of different line-ups in one batch: `policies` is then a list of seat-policy
    lists and table t's seats play `policies[lineup[t]]`; a table's game is the same as in a batch
    of its own line-up alone (policies must not depend on the batch, see `check_policy`).
    """
    if lineup is None:
        seating = _Seating([cast(Sequence[Policy], policies)])
    else:
        seating = _Seating(cast(Sequence[Sequence[Policy]], policies), lineup)
    state = State(rules, game_id, hand_number, hand_keys, dealer, scores, bags, deal=deal, deck=deck)
    context = ViewContext(rules, state.deck)
    while not state.done:
        phase = state.point[0]
        if phase == Phase.PLAY and FUSED_PLAY:
            compiled = seating.compiled_play(rules, state.n)
            if compiled is not None:
                _play_out(state, *compiled)
                break
        method, view_cls, ask, dtype = _ASK[phase]
        state.apply(_decide(seating, state, method, view_cls, ask, context, dtype))
    result = state.score()
    after = scores + result.points
    over, winner, unfinished = game_end(rules, after, hand_number + 1, result.moon)
    n, p = len(game_id), rules.players
    return HandLog(
        game=game_id, hand=hand_number, dealer=dealer, deal=state.dealt, held=state.held, bids=state.bids,
        plays=state.plays, play_seats=state.play_seats, tricks=state.tricks_won,
        score_before=scores, bags_before=bags, hand_score=result.points, score_after=after,
        bags_after=result.bags_after, bags_won=result.new_bags, bag_penalties=result.penalties,
        game_over=over, winner=winner, unfinished=unfinished,
        blind=state.blind, passed=state.passed,
        draft_keep=state.draft_keep if state.drafted else np.zeros((n, 26 if p == 2 else 0), dtype=bool),
        stock=state.stock if state.drafted else np.zeros((n, 52 if p == 2 else 0), dtype=np.int64),
    )  # fmt: skip


def _check_players(rules: Rules, policies: Sequence[Policy]) -> list[Policy]:
    policies = list(policies)
    if len(policies) != rules.players:
        game = {2: "Duel", 3: "three-player Spades"}.get(rules.players, "4-player Spades")
        raise ValueError(f"{game} needs {rules.players} seat policies, got {len(policies)}")
    needed = ("name", "bid", "play") + (("draft",) if rules.players == 2 else ())
    for seat, policy in enumerate(policies):
        missing = [m for m in needed if not hasattr(policy, m)]
        if missing:
            raise TypeError(f"seat {seat} policy {policy!r} lacks {', '.join(missing)}; see spades_lab.engine.Policy")
    return policies


def _check_counts(n: int, batch_size: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
        raise ValueError(f"the number of hands or games must be 0 or more, got {n!r}")
    if isinstance(batch_size, bool) or not isinstance(batch_size, int | np.integer) or batch_size < 1:
        raise ValueError(f"batch_size = {batch_size!r} is impossible; allowed: at least 1 table")


def simulate_hands(
    rules: Rules, policies: Sequence[Policy], n_hands: int, seed: int, batch_size: int = DEFAULT_BATCH, start: int = 0
) -> Iterator[HandLog]:
    """Independent single hands from 0-0 scores; hand i is the first hand of game i of the same seed."""
    _check_counts(n_hands, batch_size)
    policies = _check_players(rules, policies)
    root = rng.seed_key(seed)
    for lo in range(start, start + n_hands, batch_size):
        ids = np.arange(lo, min(lo + batch_size, start + n_hands), dtype=np.int64)
        game_keys = rng.derive(root, ids)
        dealer = rng.below(game_keys, rng.STREAM_DEALER, rules.players)
        zeros = np.zeros((len(ids), rules.sides), dtype=np.int64)
        yield play_hand(rules, policies, ids, np.zeros_like(ids), rng.derive(game_keys, 0), dealer, zeros, zeros.copy())


def simulate_games(
    rules: Rules,
    policies: Sequence[Policy],
    n_games: int,
    seed: int,
    batch_size: int = DEFAULT_BATCH,
    start: int = 0,
    max_hands: int | None = MAX_HANDS,
) -> Iterator[HandLog]:
    """Complete games start..start+n_games-1; yields each hand batch as it is played (rows in any order).

    `max_hands` keeps a run finite whatever the rules and players (random play rarely reaches 500):
    a game still going after that many hands stops as unfinished, never a win, like `hand_cap` but
    outside the rules. One `MaxHandsWarning` at the end says how many games it stopped; None: no limit.
    """
    if max_hands is not None and (isinstance(max_hands, bool) or not isinstance(max_hands, int) or max_hands < 1):
        raise ValueError(f"max_hands = {max_hands!r} is impossible; allowed: None or at least 1 hand")
    _check_counts(n_games, batch_size)
    stopped = 0
    policies = _check_players(rules, policies)
    root = rng.seed_key(seed)
    seats = rules.players
    end = start + n_games
    next_game = min(start + batch_size, end)
    game = np.arange(start, next_game, dtype=np.int64)
    hand = np.zeros_like(game)
    game_keys = rng.derive(root, game)
    dealer = rng.below(game_keys, rng.STREAM_DEALER, seats)
    scores = np.zeros((len(game), rules.sides), dtype=np.int64)
    bags = np.zeros_like(scores)
    while len(game):
        log = play_hand(rules, policies, game, hand, rng.derive(game_keys, hand), dealer, scores, bags)
        if max_hands is not None:
            hit = ~log.game_over & ~log.unfinished & (log.hand + 1 >= max_hands)
            log.unfinished = log.unfinished | hit
            stopped += int(hit.sum())
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
            scores = np.concatenate([scores, np.zeros((len(fresh), rules.sides), dtype=np.int64)])
            bags = np.concatenate([bags, np.zeros((len(fresh), rules.sides), dtype=np.int64)])
    if stopped:
        warnings.warn(
            f"{stopped} of {n_games} games reached max_hands = {max_hands} hands and stopped unfinished (no winner)",
            MaxHandsWarning, stacklevel=2,
        )  # fmt: skip
