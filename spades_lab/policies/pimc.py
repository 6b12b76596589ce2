"""The `pimc` card play: perfect-information Monte Carlo search on the double-dummy solver.

At a play decision the seat does not know the other hands, but it knows a lot about them: the
cards it holds, every card played, how many cards each seat still holds and which suits each seat
has shown out of. `pimc` samples `worlds` deals of the unseen cards consistent with all of that
(`spades_lab.policies.worlds`), asks the double-dummy solver (`spades_lab.dd`) for the tricks its
side takes after each legal card in each world, turns those tricks into the hand's score and
plays the card with the best mean. Ties go to the cheaper card (a side card before a trump, then
the lower rank).

The score is the side's hand score minus the opponents' (contract made or set, bags and the bag
penalty they bring on, from the rules' own scoring, `spades_lab.engine.scoring`), not raw tricks:
once the contract is made a trick more is a bag, and near the penalty a bag costs 100. The
opponents' score counts because a set of their contract is worth as much as a make of ours.
`trick_value` > 0 adds points per trick while the side is short of its contract (a trick-maximiser
until the contract is in); measured, it changes neither the DD tricks lost nor the points (docs/players.md).

A bag is worth more than the point the hand score gives it: every `bag_threshold` bags cost
`bag_penalty` points sooner or later. So each bag a side takes this hand is charged `bag_cost` points
(by default -1: the rules' long-run price, `bag_penalty / bag_threshold`, 10 under the standard
rules, 0 with bag penalties off) on top of the penalty when it falls this hand, once the side's
contract is already made (before, a trick more in a sampled world is DD optimism as often as a bag);
the opponents' bags count for the side. With both contracts made the search then gives a spare trick
away instead of taking it. Measured over 200 duplicate deals against `pimc(bag_cost=0)`, the search
that valued a bag at its point alone: +45 points per game (docs/players.md).

While a nil bid is live the search also asks, per world and card, whether the nil ends made or
broken double dummy (`spades_lab.policies.nilsearch`: the solver's own nil objective, the nil's
opponents pushing a trick on it and its partner shielding it). Those are two DD games, and one line may
not reach both optima (a ruff over an opposing nil that holds the trick wins the trick, and the nil can
then be broken only by giving a trick back). So with one live nil (`joint_nil`, on by default) it also asks
the most tricks the side takes on a line that gives the nil the fate the side wants, and scores the better
of the two outcomes; with two nils live the answers are added as they come.

Where the search does not apply, the seat plays the `expert` card instead (its parameters are the
expert's, so `pimc(-keep_setting)` changes the fallback):

- while more than `max_tricks` tricks remain (default 8, chosen from measured speed: see
  docs/players.md; 13 searches the whole hand, at about 15 s of search per hand for 11 tricks), unless
  `early_worlds` > 0: then each legal card is valued by expert rollouts in that many worlds (every seat
  plays on with the expert on its own view of the world, to the end of the hand or, with `leaf_tricks`,
  to a DD solve of the last tricks; `rollout_values`), and the best card replaces the expert's only when
  its paired gain exceeds `early_z` standard errors. Off by default: measured, it did not lower the DD
  tricks lost nor raise the points against the expert (docs/players.md);
- in Duel, cutthroat and three-player (no partnership), and with a single legal card (nothing to choose).

Worlds come from each table's own random stream for the decision (`view.uniform`), so a game
plays the same cards whatever the batch, worker or chunk. They are uniform among the deals
consistent with the play when `bid_weight` is 0; by default (0.5) they are resampled from `oversample`
times as many by how well each other seat's whole hand fits its bid (`spades_lab.policies.worlds.weigh_by_bids`;
measured +3.7 points per hand against the expert over 600 deals and 0.08 fewer DD tricks lost per side
per hand over 180 hands, both paired: docs/players.md).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

import numpy as np

from spades_lab import dd
from spades_lab.engine import PlayView, State
from spades_lab.engine.scoring import bag_price, score_hands
from spades_lab.engine.state import play_step
from spades_lab.engine.views import ViewContext
from spades_lab.policies.expert import ExpertParams, ExpertPlay
from spades_lab.policies.nilsearch import new_frames, nil_broken_values, nil_joint_values
from spades_lab.policies.params import SEARCH_BATCH, Ranges
from spades_lab.policies.worlds import sample_worlds, void_masks, weigh_by_bids, world_keys


@dataclass(frozen=True)
class PimcParams(ExpertParams):
    """The expert's parameters (its play is the fallback), then the search's."""

    worlds: int = 32  # deals of the unseen cards sampled per decision
    max_tricks: int = 8  # DD search of every card while at most this many tricks remain (earlier: rollouts)
    early_worlds: int = 0  # worlds per decision while more tricks remain (expert rollouts); 0: the expert's card
    leaf_tricks: int = 0  # a rollout hands over to the DD solver when this many tricks remain (0: to the end)
    early_z: float = 1.0  # a rollout's best card replaces the expert's only if its paired gain exceeds z std errors
    bid_weight: float = 0.5  # worlds resampled by exp(-w * sum (count - bid target)^2) over the other seats; 0: uniform
    oversample: int = 8  # with bid_weight > 0: candidate worlds drawn per kept world
    trick_value: float = 0.0  # points added per trick the side ends with, while its contract is not yet made
    bag_cost: float = -1.0  # points per bag taken once the contract is made; -1: the rules' bag_penalty / bag_threshold
    joint_nil: bool = True  # one live nil: its fate and the side's tricks from one DD game, not two added

    # the bounds keep a decision's arrays finite (worlds x oversample candidate deals per table)
    POLICY: ClassVar[str] = "pimc play"
    RANGES: ClassVar[Ranges] = ExpertParams.RANGES + (
        ("worlds", 1, 1024), ("max_tricks", 0, 13), ("early_worlds", 0, 1024), ("leaf_tricks", 0, 13),
        ("early_z", 0.0, 100.0), ("bid_weight", 0.0, 100.0), ("oversample", 1, 64), ("trick_value", 0.0, 1000.0),
        ("bag_cost", -1.0, 1000.0),
    )  # fmt: skip


_SOLVERS: dict[Any, Any] = {}


def _solver(rules: Any) -> Any:
    """One solver per process and rules: it owns the transposition table, reused across calls."""
    if rules not in _SOLVERS:
        _SOLVERS[rules] = dd.Solver(rules)
    return _SOLVERS[rules]


def score_by_tricks(
    rules: Any, bids: np.ndarray, won: np.ndarray, bags: np.ndarray, seat: np.ndarray,
    nil_broken: np.ndarray | None = None, trick_value: float = 0.0, bag_cost: float = 0.0,
) -> np.ndarray:  # fmt: skip
    """[n, 14]: the acting side's hand score minus the opponents' if the side ends with k = 0..13 tricks.

    `trick_value` > 0 adds that many points per trick the side ends with, on rows where its contract is
    not yet made. The hand score values a trick the side may not need at a bag's point or two, so under
    doubt the search gives such tricks away; the bonus makes it a trick-maximiser until the contract is in.

    `bag_cost` is charged per bag each side takes this hand, against the side for its own bags and for it
    for the opponents' (`bag_price`), on top of the penalty when it falls this hand; only for a side whose
    contract is already made (its bags are then certain, not a sampled world's optimism).

    `nil_broken` [n, seats] says, for each seat with a live nil (bid 0, no trick yet), whether it
    ends broken; a broken nil takes exactly one of its side's tricks (a second would only move a bag),
    a made one none. Every other trick still to come goes to a non-nil seat of its side (a seat
    whose nil is already broken counts as one: its further tricks only move bags within the side).
    """
    n = len(seat)
    players = bids.shape[1]
    rows = np.arange(n)
    partner = (seat + 2) % players
    left, right = (seat + 1) % players, (seat + 3) % players
    live = (bids == 0) & (won == 0)
    hit = live & (np.zeros_like(live) if nil_broken is None else np.asarray(nil_broken, dtype=bool))
    ours_now = won[rows, seat] + won[rows, partner]
    theirs_now = won.sum(axis=1) - ours_now
    k = np.arange(14)
    tricks = np.repeat(won[:, None, :], 14, axis=1).astype(np.int64)  # [n, 14, seats]
    ours_more = np.maximum(k[None, :] - ours_now[:, None], 0)
    theirs_more = np.maximum((13 - k)[None, :] - theirs_now[:, None], 0)
    for a, b, more in ((seat, partner, ours_more), (left, right, theirs_more)):
        for s in (a, b):
            tricks[rows, :, s] += hit[rows, s][:, None]
            more = more - hit[rows, s][:, None]
        more = np.maximum(more, 0)
        # the rest to a seat that is not a live nil, else to a broken one, else (a double nil made) nowhere
        takes_a = ~live[rows, a] | (live[rows, b] & hit[rows, a])
        takes_b = ~live[rows, b] | hit[rows, b]
        to = np.where(takes_a, a, b)
        nowhere = ~takes_a & ~takes_b
        tricks[rows[:, None], k[None, :], to[:, None]] += np.where(nowhere[:, None], 0, more)
    flat = score_hands(rules, np.repeat(bids, 14, axis=0), tricks.reshape(n * 14, players), np.repeat(bags, 14, axis=0))
    points = flat.points.reshape(n, 14, 2)
    side = seat % 2
    difference = points[rows, :, side] - points[rows, :, 1 - side]
    if bag_cost:
        new_bags = flat.new_bags.reshape(n, 14, 2)
        ours_made = ours_now >= bids[rows, seat].clip(0) + bids[rows, partner].clip(0)
        theirs_made = theirs_now >= bids[rows, left].clip(0) + bids[rows, right].clip(0)
        charge = np.where(ours_made[:, None], new_bags[rows, :, side], 0)
        charge = charge - np.where(theirs_made[:, None], new_bags[rows, :, 1 - side], 0)
        difference = difference - float(bag_cost) * charge
    if not trick_value:
        return np.asarray(difference)
    short = ours_now < bids[rows, seat] + bids[rows, partner]
    return np.asarray(difference + np.where(short[:, None], float(trick_value) * k[None, :], 0.0))


def cheapest(cards: np.ndarray, suit_of: np.ndarray, rank_of: np.ndarray) -> np.ndarray:
    """Per row of a [n, 52] bool array, the cheapest card: a side card before a trump, then the lowest rank."""
    cost = np.where(suit_of == 3, 100, 0) + rank_of * 4 + suit_of  # [52]
    return np.asarray(np.argmin(np.where(cards, cost[None, :], 10_000), axis=1))


class PimcPlay:
    """Sample worlds, value every legal card double dummy in each, play the best mean hand score."""

    batch_limit = SEARCH_BATCH
    """Tables a tournament process holds at once (`Player.batch_limit`): each decision searches."""

    def __init__(self, params: PimcParams) -> None:
        self.params = params
        self.name = "pimc"
        expert_fields = {f.name for f in fields(ExpertParams)}
        self.expert = ExpertPlay(ExpertParams(**{k: v for k, v in vars(params).items() if k in expert_fields}))
        self.searched = 0
        """Decisions searched so far by this object (the `pimc` bench workload reports them per second)."""
        self.searched_nil = 0
        """Of those, the decisions searched while a nil bid was live at the table."""
        self.searched_early = 0
        """Of those, the decisions searched by expert rollouts (more than `max_tricks` tricks to play)."""

    def play(self, view: PlayView) -> np.ndarray:
        cards = np.array(self.expert.play(view), dtype=np.int64)
        remaining = 13 - view.trick
        partnered = view.players == 4 and view.rules.partnerships  # cutthroat and Duel play the expert's card
        early = remaining > self.params.max_tricks
        worlds = self.params.early_worlds if early else self.params.worlds
        leaf = min(self.params.leaf_tricks, self.params.max_tricks)
        if not partnered or worlds < 1:
            return cards
        choices = np.bitwise_count(view.legal)
        search = np.flatnonzero(choices > 1)
        if len(search) == 0:
            return cards
        hands = self._worlds(view, search, worlds)
        if early:
            cards[search] = self._rollouts(view, search, hands, leaf, cards[search])
            self.searched_early += len(search)
        else:
            cards[search] = self._search(view, search, hands)
        self.searched += len(search)
        live = (view.bids[search] == 0) & (view.tricks_won[search] == 0)
        self.searched_nil += int(live.any(axis=1).sum()) if view.rules.zero_bid != "plain" else 0
        return cards

    def _worlds(self, view: PlayView, rows: np.ndarray, worlds: int) -> np.ndarray:
        """[m, worlds, 4] unplayed hands of every seat: the seat's own, and deals of the cards it has not seen."""
        deck = view.deck
        seat = view.seat[rows].astype(np.int64)
        hand = view.hand[rows]
        played = view.played[rows]
        play_seats = view.play_seats[rows]
        m = len(rows)
        full = np.uint64(sum(int(x) for x in deck.suit_masks))
        unseen = full & ~(played | hand)
        # cards still held per seat: 13 minus its plays (the history includes the trick in progress)
        held = 13 - np.stack([(play_seats == s).sum(axis=1) for s in range(4)], axis=1)
        room = held.astype(np.int64)
        room[np.arange(m), seat] = 0
        forbidden = void_masks(view.shown_voids[rows], deck)  # the voids are kept by the engine as the cards fall
        known = np.zeros((m, 4), dtype=np.uint64)
        known[np.arange(m), seat] = hand
        keys = world_keys(view.uniform(0)[rows])  # the decision's one draw: the expert part draws none
        unseen = np.ascontiguousarray(unseen)
        if self.params.bid_weight <= 0:
            return sample_worlds(keys, known, unseen, room, forbidden, worlds)
        # each seat's cards played this hand, for the count of its whole hand
        plays = view.plays[rows].astype(np.uint64)
        played_by = np.zeros((m, 4), dtype=np.uint64)
        for s in range(4):
            bits = np.where(play_seats == s, np.uint64(1) << plays, np.uint64(0))
            played_by[:, s] = np.bitwise_or.reduce(bits, axis=1) if bits.shape[1] else np.uint64(0)
        return weigh_by_bids(keys, known, unseen, room, forbidden, worlds, played_by, view.bids[rows], seat=seat,
                             bid_weight=self.params.bid_weight, oversample=self.params.oversample, deck=deck)  # fmt: skip

    def _search(self, view: PlayView, rows: np.ndarray, hands: np.ndarray) -> np.ndarray:
        rules = view.rules
        m, worlds = hands.shape[:2]
        leader = view.leader[rows].astype(np.int64)
        on_table = view.trick_cards[rows]
        position = view.position
        trick = np.full((m, 4), -1, dtype=np.int64)
        for k in range(position):
            trick[:, k] = on_table[np.arange(m), (leader + k) % 4]
        broken = view.spades_broken[rows].astype(bool)

        solver = _solver(rules)
        flat_hands = hands.reshape(m * worlds, 4)
        flat_trick, flat_leader = np.repeat(trick, worlds, axis=0), np.repeat(leader, worlds)
        flat_broken = np.repeat(broken, worlds)
        bids, won = view.bids[rows], view.tricks_won[rows]
        live = (bids == 0) & (won == 0) & ~np.asarray(view.rules.zero_bid == "plain")
        values = np.empty((m, worlds, 52), dtype=np.int64)
        # outcome index per world and card: bit s set when seat s's live nil is broken after the card
        outcome = np.zeros((m, worlds, 52), dtype=np.int64)
        joint = np.full((m, worlds, 52), -1, dtype=np.int64)
        joint_bit = np.zeros(m, dtype=np.int64)
        bag_cost = bag_price(rules, self.params.bag_cost)
        score = hand_scores(view, rows, live, self.params.trick_value, bag_cost) if live.any() else None
        for t in range(m):
            # a fresh table per decision: the solver's answers must not depend on what else it solved
            # before (other tables of the batch, earlier decisions), or games would depend on the batch
            solver.clear()
            w = slice(t * worlds, (t + 1) * worlds)
            world = (flat_hands[w], flat_trick[w], flat_leader[w], flat_broken[w])
            values[t] = dd.card_values(*world, solver=solver)
            nils = np.flatnonzero(live[t])
            for s in map(int, nils):
                hit = nil_broken_values(*world, np.full(worlds, s), solver)
                outcome[t] |= (hit == 1).astype(np.int64) << s
                if self.params.joint_nil and len(nils) == 1 and score is not None:
                    joint_bit[t] = 1 << s
                    me = int(view.seat[rows[t]])
                    ours_now, wants_broken = won[t, me] + won[t, (me + 2) % 4], s % 2 != me % 2
                    joint[t] = joint_by_card(world, s, (values[t], hit, outcome[t]), score[t], ours_now, wants_broken,
                                              solver)  # fmt: skip
        return _choose(view, rows, values, outcome, live, trick_value=self.params.trick_value, bag_cost=bag_cost,
                       joint=(joint, joint_bit), score=score)  # fmt: skip

    def _rollouts(
        self, view: PlayView, rows: np.ndarray, hands: np.ndarray, leaf: int, expert: np.ndarray
    ) -> np.ndarray:
        values, outcome, live = rollout_values(view, rows, hands, leaf, self.expert)
        return _choose(view, rows, values, outcome, live, keep=expert, z=self.params.early_z,
                       trick_value=self.params.trick_value, bag_cost=bag_price(view.rules, self.params.bag_cost))  # fmt: skip


def rollout_values(
    view: PlayView, rows: np.ndarray, hands: np.ndarray, leaf: int, play: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per world and legal card: play the card, then `play`'s card at every seat (each on its own
    view of that world) until `leaf` tricks remain, then the DD solver's tricks for the rest.

    `hands` [m, worlds, 4]: the unplayed hands of each world of the tables `rows` of `view`. Returns
    `values` [m, worlds, 52] (the side's tricks from the current trick on, -1 for cards not legal),
    `outcome` (bit s: seat s's live nil ends broken) and `live` [m, 4] (the live nils), as `choose_cards`
    reads them.

    All rollouts of the batch move in lockstep in one engine `State` (tables x worlds x cards), so
    each expert decision is one batched call; the DD leaf is one solve per rollout (none with leaf 0).
    """
    rules, deck = view.rules, view.deck
    m, worlds = hands.shape[:2]
    seat = view.seat[rows].astype(np.int64)
    plays, play_seats = view.plays[rows], view.play_seats[rows]
    steps = play_step(view.decision)
    # the hands as dealt to the first trick: the world's unplayed cards plus each seat's plays
    dealt = hands.copy()
    for k in range(steps):
        who = play_seats[:, k].astype(np.int64)
        dealt[np.arange(m), :, who] |= np.uint64(1) << plays[:, k].astype(np.uint64)[:, None]
    legal = view.legal[rows]
    bits = (legal[:, None] >> np.arange(52, dtype=np.uint64)[None, :]) & np.uint64(1) == 1  # [m, 52]
    table, card = np.nonzero(bits)  # one entry per (table, legal card), tables in order
    # rollout r: table of `table[j]`, world w, card `card[j]` (order: table, world, card)
    per_table = np.bincount(table, minlength=m)
    start = np.concatenate([[0], np.cumsum(per_table)[:-1]])
    r_table = np.concatenate([np.repeat(t, worlds * per_table[t]) for t in range(m)])
    r_world = np.concatenate([np.repeat(np.arange(worlds), per_table[t]) for t in range(m)])
    r_card = np.concatenate([np.tile(card[start[t] : start[t] + per_table[t]], worlds) for t in range(m)])
    tables = rows[r_table]
    state = State(
        rules, view.tables[tables], view.hand_number[tables], np.zeros(len(tables), dtype=np.uint64),
        view.dealer[tables], view.scores[tables], view.bags[tables], deal=dealt[r_table, r_world], deck=deck,
    )  # fmt: skip
    state.set_bids(view.bids[tables], view.blind[tables])
    for k in range(steps):
        state.apply(plays[r_table, k].astype(np.int64))
    state.apply(r_card)
    context = ViewContext(rules, deck)
    end = 4 * (13 - leaf)  # the play step at which `leaf` tricks remain
    while not state.done and play_step(state.decision) < end:
        seen = PlayView(state, None, state.to_act.copy(), state.decision, context)
        state.apply(np.asarray(play.play(seen), dtype=np.int64))
    partner = (seat + 2) % 4
    won, now = state.tricks_won, view.tricks_won[rows]
    gained = won[np.arange(len(tables)), seat[r_table]] + won[np.arange(len(tables)), partner[r_table]]
    gained -= (now[np.arange(m), seat] + now[np.arange(m), partner])[r_table]
    bids = view.bids[rows]
    live = (bids == 0) & (now == 0) & ~np.asarray(rules.zero_bid == "plain")
    outcome_r = np.zeros(len(tables), dtype=np.int64)
    for s in range(4):
        outcome_r |= (live[r_table, s] & (won[:, s] > 0)).astype(np.int64) << s
    if leaf > 0:
        solver = _solver(rules)
        side_r = np.empty(len(tables), dtype=np.int64)
        first = np.concatenate([[0], np.cumsum(worlds * per_table)])
        for t in range(m):
            solver.clear()  # as in `_search`: answers independent of what the solver met before
            r = slice(int(first[t]), int(first[t + 1]))
            tricks = dd.solve(state.hands[r], state.leader[r], broken=state.broken[r], solver=solver)
            side_r[r] = tricks[:, int(seat[t]) % 2]
            for s in map(int, np.flatnonzero(live[t])):
                still = np.flatnonzero(won[r, s] == 0)
                if len(still):
                    fewest = dd.nil_tricks(state.hands[r][still], s, state.leader[r][still],
                                           broken=state.broken[r][still], solver=solver, cap=1)  # fmt: skip
                    outcome_r[r][still] |= (fewest > 0).astype(np.int64) << s
        gained = gained + side_r
    values = np.full((m, worlds, 52), -1, dtype=np.int64)
    outcome = np.zeros((m, worlds, 52), dtype=np.int64)
    values[r_table, r_world, r_card] = gained
    outcome[r_table, r_world, r_card] = outcome_r
    return values, outcome, live


def _choose(
    view: PlayView, rows: np.ndarray, values: np.ndarray, outcome: np.ndarray, live: np.ndarray, *,
    keep: np.ndarray | None = None, z: float = 0.0, trick_value: float = 0.0, bag_cost: float = 0.0,
    joint: tuple[np.ndarray, np.ndarray] | None = None, score: np.ndarray | None = None,
) -> np.ndarray:  # fmt: skip
    """The hand-score table of every nil outcome that occurs, then `choose_cards`.

    With `joint` (tricks [m, worlds, 52] from `nil_joint_values`, -1 where not asked, and the live nil's
    outcome bit per table, 0 for none) each world and card where the side can have the nil's fate it wants
    has two outcomes to choose from: its DD tricks with the other fate, or the joint tricks with that fate.
    The better of the two by the hand score is the card's value there."""
    m = len(rows)
    seat = view.seat[rows].astype(np.int64)
    won = view.tricks_won[rows]
    flipped = outcome ^ joint[1][:, None, None] if joint is not None else outcome
    if score is None:
        score = hand_scores(view, rows, live, trick_value, bag_cost)
    ours_now = won[np.arange(m), seat] + won[np.arange(m), (seat + 2) % 4]
    if joint is not None:
        values, outcome = joint_outcomes(values, outcome, joint[0], flipped, score, ours_now)
    return choose_cards(values, score, ours_now, view.legal[rows], view.deck, outcome, keep, z)


def hand_scores(view: PlayView, rows: np.ndarray, live: np.ndarray, trick_value: float, bag_cost: float) -> np.ndarray:
    """[m, 16, 14]: `score_by_tricks` for every outcome of the live nils (index bit s: seat s's nil broken; the
    outcomes of nils no table has are left 0); [m, 1, 14] when no nil is live."""
    m = len(rows)
    seat = view.seat[rows].astype(np.int64)
    any_live = int((live.any(axis=0) * (1 << np.arange(live.shape[1]))).sum())  # bit s: a nil of seat s is live
    score = np.zeros((m, 16 if any_live else 1, 14), dtype=np.float64 if trick_value or bag_cost else np.int64)
    for combo in range(score.shape[1]):
        if combo & ~any_live:
            continue  # a broken nil no table has
        broken_nils = ((combo >> np.arange(4)) & 1 == 1)[None, :] & live
        score[:, combo] = score_by_tricks(view.rules, view.bids[rows], view.tricks_won[rows], view.bags[rows], seat,
                                          broken_nils, trick_value, bag_cost)  # fmt: skip
    return score


def joint_by_card(
    world: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], nil_seat: int,
    separate: tuple[np.ndarray, np.ndarray, np.ndarray],
    score: np.ndarray, ours_now: int, wants_broken: bool, solver: Any,
) -> np.ndarray:  # fmt: skip
    """One table's joint tricks [worlds, 52] (`nil_joint_values`), asked card by card from the highest bound on
    its joint mean down: in each world the better of the DD tricks with the other fate and the best score of at
    most that many tricks with the wanted one (or, where the wanted fate is out of reach, the separate value
    itself). Once a card's bound falls below the best joint mean found, it and every later card cannot be
    chosen and are not asked (-1: their separate value stands, below the best)."""
    values, hit, outcome = separate
    bit = 1 << nil_seat
    now = np.array([ours_now])
    legal = np.flatnonzero((values >= 0).all(axis=0))
    # where the wanted fate is within reach (`outcome` has it), the joint value is the DD tricks with the other
    # fate, or at most as many tricks with the wanted one: bounded by the best score of any such count; elsewhere
    # it is the separate value
    askable = ((outcome & bit) != 0) == wants_broken
    separate_points = world_points(values[None], score[None], now, outcome[None])[0]
    reach = world_points(values[None], np.maximum.accumulate(score, axis=1)[None], now, outcome[None])[0]
    other = world_points(values[None], score[None], now, (outcome ^ bit)[None])[0]
    upper = np.where(askable, np.maximum(other, reach), separate_points)[:, legal].mean(axis=0)
    joint = np.full(values.shape, -1, dtype=np.int64)
    frames = new_frames()
    best = -np.inf
    for i in np.argsort(-upper, kind="stable"):
        if upper[i] < best - 1e-9:
            break
        c = int(legal[i])
        joint[:, c] = nil_joint_values(*world, nil_seat, values, hit, solver, cards=1 << c, frames=frames)[:, c]
        card = (slice(None), slice(c, c + 1))  # this card's column: the others' values are not needed here
        v, o = joint_outcomes(values[card][None], outcome[card][None], joint[card][None], (outcome ^ bit)[card][None],
                              score[None], now)  # fmt: skip
        best = max(best, float(world_points(v, score[None], now, o)[0, :, 0].mean()))
    return joint


def world_points(values: np.ndarray, score: np.ndarray, ours_now: np.ndarray, outcome: np.ndarray) -> np.ndarray:
    """[m, worlds, 52]: each world's and card's points, `score` [m, outcomes, 14] read at its `outcome` and at the
    side's final tricks (`ours_now` [m] plus `values` [m, worlds, 52], kept within 0..13)."""
    final = np.clip(ours_now[:, None, None] + values, 0, 13)
    return np.asarray(score[np.arange(len(values))[:, None, None], outcome, final])


def joint_outcomes(
    values: np.ndarray, outcome: np.ndarray, joint: np.ndarray, flipped: np.ndarray, score: np.ndarray,
    ours_now: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Per world and card, the better of the two outcomes one DD game allows when the side can have the
    live nil's fate it wants: `joint` tricks with that fate (`outcome`), or its DD tricks (`values`) with
    the other fate (`flipped`); unchanged where `joint` is -1. Returns the (values, outcome) to score.

    `score` [m, outcomes, 14] and `ours_now` [m] as `choose_cards` reads them; ties keep the wanted fate."""
    wanted = world_points(joint, score, ours_now, outcome)
    other = world_points(values, score, ours_now, flipped)
    asked = (joint >= 0) & (values >= 0)
    take_other = asked & (other > wanted)
    return np.where(asked & ~take_other, joint, values), np.where(take_other, flipped, outcome)


def choose_cards(
    values: np.ndarray, score: np.ndarray, ours_now: np.ndarray, legal: np.ndarray, deck: Any,
    outcome: np.ndarray | None = None, keep: np.ndarray | None = None, z: float = 0.0,
) -> np.ndarray:  # fmt: skip
    """The card with the best mean hand score over the worlds; ties to the cheapest (see `cheapest`).

    With `keep` [m] (a default card per table, legal) the best card replaces it only where its gain
    over `keep`, paired world by world, exceeds `z` standard errors: a noisy estimate over few worlds
    then does not overturn a sound default card by chance (the best of many noisy means is biased up).

    `values` [m, worlds, 52]: the side's DD tricks from the current trick on per card (-1 illegal);
    `score` [m, 14] (the side's score minus the opponents' by the side's final tricks) or, with live
    nils, [m, outcomes, 14] with `outcome` [m, worlds, 52] the index of each world's and card's nil
    outcome (bit s: seat s's nil broken); `ours_now` [m]: tricks the side has already; `legal` [m] card masks.
    """
    m, worlds, _ = values.shape
    if score.ndim == 2:
        score, outcome = score[:, None, :], np.zeros_like(values)
    assert outcome is not None
    points = world_points(values, score, ours_now, outcome)
    mean = points.mean(axis=1)
    playable = (np.asarray(legal, dtype=np.uint64)[:, None] >> np.arange(52, dtype=np.uint64)[None, :]) & np.uint64(
        1
    ) == 1
    playable &= (values >= 0).all(axis=1)
    best = np.where(playable, mean, -np.inf).max(axis=1)
    ties = playable & (mean >= best[:, None] - 1e-9)
    chosen = cheapest(ties, deck.suit_of.astype(np.int64), _ranks(deck))
    if keep is None:
        return chosen
    rows = np.arange(m)
    gain = (points[rows, :, chosen] - points[rows, :, keep]).astype(np.float64)  # [m, worlds]
    se = gain.std(axis=1, ddof=1) / np.sqrt(worlds) if worlds > 1 else np.zeros(m)
    better = gain.mean(axis=1) > np.maximum(z * se, 1e-9)
    return np.where(better, chosen, keep)


def _ranks(deck: Any) -> np.ndarray:
    """0 for a suit block's weakest card up to 12 for its strongest, per card id."""
    ranks = np.zeros(52, dtype=np.int64)
    for mask in deck.suit_masks:
        ids = [i for i in range(52) if int(mask) >> i & 1]
        for r, i in enumerate(ids):
            ranks[i] = r + 13 - len(ids)
    return ranks
