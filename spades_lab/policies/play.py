"""Card-play policies: the cheat sheet's tips (HEURISTICS.md sections 5 and 6) and a greedy baseline.

Both are per-table compiled functions (`tips_at`, `greedy_at`) over one seat's `Turn`
(`spades_lab.engine.turn`): the engine calls them table after table in its fused play loop, or over
the tables of a view (`play_turns`), so a game of four `counting+tips` players never runs Python per
table or per card. They read only what a seat may see (its hand, its legal cards, bids, tricks won,
the current trick, the cards already played and the voids shown) and derive the rest:

- the *unseen* cards: neither in this hand nor played yet (some other seat holds them);
- a *master*: a card with no unseen card of its suit above it (it wins unless trumped);
- the trick's current holder, recomputed from the cards on the table;
- a side's *contract*: the sum of its non-nil bids, *made* once its non-nil bidders have won
  that many tricks (a nil bidder's tricks never count, as in the scoring);
- a *live nil*: a seat that bid nil and has not won a trick yet;
- which opponents have shown out of spades, from the voids the engine records (read only when leading).

Card ids follow `spades_lab.cards`: suit blocks clubs, diamonds, hearts, trump, each weakest
first, so a higher id is a stronger card within a suit and every trump outranks every side card.
Inside the kernels the deck is only its four suit masks (a tuple) plus the ids of the ace and
king of spades: a card's suit, its rank and each side suit's ace and king follow from the masks,
so the variant decks work unchanged. Helpers take scalars and tuples, never arrays: passing arrays
between compiled functions costs reference counting on every call, which here cost more than
the decisions themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, ClassVar, NamedTuple

import numpy as np
from numba import njit

from spades_lab.cards import Deck
from spades_lab.engine import PlayView
from spades_lab.engine import trick as trick_rules
from spades_lab.engine.bits import ONE, ZERO, highest, lowest, popcount
from spades_lab.engine.trick import SuitMasks
from spades_lab.engine.turn import LEFT, ME, PARTNER, RIGHT, Game, Turn, play_turns
from spades_lab.policies.memory import seat_voids
from spades_lab.policies.params import CheckedParams, Ranges, WithoutParams, field_type
from spades_lab.rules import Rules

# --- parameters --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TipsParams(CheckedParams):
    """One switch per tip of section 5 and per rule of section 6, all on; then the numbers the tips leave vague."""

    no_trump_partner_ace: bool = True  # tip 1: void under partner's led ace that still holds: discard, do not ruff
    third_seat_low_when_partner_wins: bool = True  # tip 2: third seat, partner holds the trick: follow low
    third_seat_cheapest_winner: bool = True  # tip 3: third seat, opponent holds: cheapest card that beats it
    hold_spade_honours: bool = True  # tip 4: holding AS and KS, do not lead them early (unless hunting a nil)
    no_lead_singleton_king: bool = True  # tip 5: never lead a bare side king while its ace is out
    trump_early_when_void: bool = True  # tip 6: void early with 5+ spades: ruff at the first chance
    duck_after_contract: bool = True  # tip 7: contract made: play low, refuse tricks, never ruff unless forced
    pull_trumps_on_big_bid: bool = True  # tip 8: side bid 11+: lead spades until the opponents are out
    lead_low_against_nil: bool = True  # tip 9: opponent's nil live: lead the lowest of the longest suit
    discard_to_void: bool = True  # tip 10: discard the highest card of the shortest suit without a master
    cash_masters_last_spade: bool = True  # tip 11: last tricks, one spade and masters: cash masters first
    nil_play: bool = True  # section 6: as nil bidder, duck every trick it can
    nil_coverage: bool = True  # section 6: partner's nil live: keep the lead, play over partner
    set_opposing_nil: bool = True  # section 6: opponent's nil live: play under it, never over it
    honours_early_tricks: int = 8  # tip 4: tricks 1..8 are "early" (the sheet values trump control at trick 11)
    early_void_tricks: int = 5  # tip 6: a void counts as "early" during tricks 1..5
    early_void_min_spades: int = 5  # tip 6: spades needed in hand
    big_bid: int = 11  # tip 8: the side contract that calls for pulling trumps
    last_tricks: int = 3  # tip 11: how many final tricks the rule covers

    POLICY: ClassVar[str] = "tips play"
    RANGES: ClassVar[Ranges] = (  # expert and pimc extend it
        ("honours_early_tricks", 0, 13), ("early_void_tricks", 0, 13), ("early_void_min_spades", 0, 13),
        ("big_bid", 0, 26), ("last_tricks", 0, 13),
    )  # fmt: skip


SWITCHES = tuple(f.name for f in fields(TipsParams) if f.type == "bool")
"""The tips' switches, in the order of `TipsParams`."""


def params_record(params: Any) -> Any:
    """A policy's parameters as its compiled code reads them: a numba record with one field per switch (bool) and
    per whole number (int) of the parameter dataclass, under the field's name (`p.duck_after_contract`,
    `p.big_bid`). The fields are sorted by name: `expert`'s record is then a type of its own, not an extension of
    the tips' (which numba would pass to the tips' compiled code as the smaller record, an experimental cast)."""
    chosen = sorted((f for f in fields(params) if field_type(f) in ("bool", "int")), key=lambda f: f.name)
    record = np.zeros(1, dtype=[(f.name, np.bool_ if field_type(f) == "bool" else np.int64) for f in chosen])
    for f in chosen:
        record[0][f.name] = getattr(params, f.name)
    return record[0]


class OnTrick(NamedTuple):
    """The trick in progress as the acting seat sees it: what every following rule asks first."""

    best: int
    """The card holding the trick; -1 when leading."""
    holder: int
    """Its play order (0 = the lead); -1 when leading."""
    following: bool
    """This seat holds a card of the led suit."""
    last: bool
    """This seat plays the trick's last card."""
    partner_holds: bool
    partner_led_ace: bool
    """Partner led an ace and it still holds the trick (tip 1)."""


class Plan(NamedTuple):
    """What the acting seat's side plays for at a lead: the facts the lead rules branch on."""

    covering: bool
    """Partner's nil is live: keep the lead (section 6)."""
    hunting: bool
    """An opponent's nil is live: lead under it (tip 9)."""
    contract: int
    ducking: bool
    """Refuse tricks: the contract is made (tip 7), or for the expert also lost."""
    trumps_out: bool
    """The opponents hold no spade (tip 8)."""


# --- bits, suits and ranks (scalar, compiled) --------------------------------------------------


@njit(cache=True, inline="always")
def _rank(card: int, suits: SuitMasks) -> int:
    """0 for a deuce .. 12 for an ace: a suit block holds its top cards, so count down from the ace."""
    suit = trick_rules.suit_mask(card, suits)
    return card - lowest(suit) + 13 - popcount(suit)


@njit(cache=True, inline="always")
def _is_ace(card: int, suits: SuitMasks, spade_ace: int) -> bool:
    suit = trick_rules.suit_mask(card, suits)
    return card == (spade_ace if suit == suits[3] else highest(suit))


@njit(cache=True)
def _low_card(cards: np.uint64, suits: SuitMasks) -> int:
    """Play low: the lowest-ranked side card (clubs, diamonds, hearts on equal rank); a trump only if nothing else."""
    best = -1
    for suit in range(3):
        card = lowest(cards & suits[suit])
        if card >= 0 and (best < 0 or _rank(card, suits) < _rank(best, suits)):
            best = card
    return best if best >= 0 else lowest(cards)


@njit(cache=True)
def _strongest(cards: np.uint64, unseen: np.uint64, suits: SuitMasks) -> int:
    """The card most likely to win: fewest unseen cards above it, then a trump, then the higher rank.

    For a nil bidder this is the most dangerous card to keep; for its partner the best card to lead.
    """
    best, best_above = -1, 99
    x = cards
    while x != ZERO:
        card = lowest(x)
        x &= x - ONE
        n_above = trick_rules.unseen_above(card, unseen, suits)
        if best < 0 or n_above < best_above:
            best, best_above = card, n_above
        elif n_above == best_above:
            trump, best_trump = trick_rules.bit(card) & suits[3] != ZERO, trick_rules.bit(best) & suits[3] != ZERO
            if (trump and not best_trump) or (trump == best_trump and _rank(card, suits) >= _rank(best, suits)):
                best = card
    return best


@njit(cache=True)
def _discard(cards: np.uint64, hand: np.uint64, unseen: np.uint64, to_void: bool, suits: SuitMasks) -> int:
    """A card thrown on a trick this seat does not try to win.

    Tip 10 (`to_void`): the highest card of the shortest side suit holding no master ("useless"),
    to make a void to ruff into later. Otherwise, and when every side suit holds a master, play
    low. A trump only when `cards` holds nothing else.
    """
    side = cards & ~suits[3]
    if side == ZERO:
        return lowest(cards)
    if to_void:
        best_suit, best_length = -1, 99
        for suit in range(3):
            if side & suits[suit] == ZERO or trick_rules.unseen_above(highest(hand & suits[suit]), unseen, suits) == 0:
                continue  # nothing to throw here, or the suit holds a master: not useless
            length = popcount(hand & suits[suit])
            if length < best_length:
                best_suit, best_length = suit, length
        if best_suit >= 0:
            return highest(side & suits[best_suit])
    return _low_card(side, suits)


# --- the nil bidder and its partner (section 6) ------------------------------------------------


@njit(cache=True)
def _nil_card(
    legal: np.uint64,
    position: int,
    last: bool,
    best: int,
    following: bool,
    unseen: np.uint64,
    suits: SuitMasks,
) -> int:
    """The nil bidder: never win a trick it can avoid.

    Leading: the card with the most unseen cards of its suit above it (the easiest to cover),
    the lower rank on ties. Following: the highest card that still loses. Void: the most
    dangerous card that still loses (`_strongest`). Forced to win: playing last, the trick is lost
    anyway, so shed the most dangerous card; earlier, the lowest, so a later seat may overtake.
    """
    if position == 0:
        pick, pick_above = -1, -1
        x = legal
        while x != ZERO:
            card = lowest(x)
            x &= x - ONE
            n_above = trick_rules.unseen_above(card, unseen, suits)
            if n_above > pick_above or (n_above == pick_above and _rank(card, suits) < _rank(pick, suits)):
                pick, pick_above = card, n_above
        return pick
    losing = legal & ~trick_rules.winners(legal, best, suits)
    if losing != ZERO:
        return highest(losing) if following else _strongest(losing, unseen, suits)
    if last:
        return _strongest(legal, unseen, suits)
    return _low_card(legal, suits)


@njit(cache=True)
def _cover_partner(
    legal: np.uint64, partner_card: int, partner_holds: bool, best: int, following: bool, suits: SuitMasks
) -> int:
    """The nil bidder's partner on a trick in progress; -1 when partner is already safe.

    Partner has played and holds the trick: overtake it as cheaply as possible. Partner still to
    play: make the trick as high as possible (the top card of the suit, or the cheapest winning
    ruff) so partner can duck under it. The sheet: "make sure the nil bidder never wins anything".
    """
    winning = trick_rules.winners(legal, best, suits)
    if winning == ZERO:
        return -1
    if partner_card >= 0:
        return lowest(winning) if partner_holds else -1
    return highest(legal) if following else lowest(winning)


@njit(cache=True)
def _set_opposing_nil(s: Turn, g: Game, p: Any, t: OnTrick, nil_card: int, nil_holds: bool) -> int:
    """Against a live opposing nil on a trick in progress; -1 when the nil bidder is already safe here.

    The nil bidder still to play: play as low as possible (never ruff), so it must come in under a
    low card or win. The nil bidder holds the trick: never overtake it; follow with the highest
    card that still loses (the low ones are kept for later leads), or discard.
    """
    legal, suits = s.legal, g.suits
    if nil_card < 0:
        return lowest(legal) if t.following else _discard(legal, s.hand, s.unseen, p.discard_to_void, suits)
    if not nil_holds:
        return -1
    losing = legal & ~trick_rules.winners(legal, t.best, suits)
    if losing == ZERO:
        return -1
    return highest(losing) if t.following else _discard(losing, s.hand, s.unseen, p.discard_to_void, suits)


@njit(cache=True)
def _set_opposing_nils(s: Turn, g: Game, p: Any, t: OnTrick) -> int:
    """`_set_opposing_nil` against each live opposing nil that plays this trick, the seat on the right first;
    -1 when every such nil is already safe."""
    bids, won, position = s.bids, s.won, s.position
    if bids[RIGHT] == 0 and won[RIGHT] == 0:  # played before me in this trick
        card = _set_opposing_nil(s, g, p, t, _in_order(position - 1, s), t.holder == position - 1)
        if card >= 0:
            return card
    if not g.partnered and bids[PARTNER] == 0 and won[PARTNER] == 0:
        card = _set_opposing_nil(s, g, p, t, _in_order(position - 2, s), t.holder == position - 2)
        if card >= 0:
            return card
    if bids[LEFT] == 0 and won[LEFT] == 0:
        return _set_opposing_nil(s, g, p, t, _in_order(position - 3, s), t.holder == position - 3)
    return -1


# --- leading -----------------------------------------------------------------------------------


@njit(cache=True)
def _lead_against_nil(legal: np.uint64, hand: np.uint64, suits: SuitMasks, spade_ace: int) -> int:
    """Tip 9: the lowest card of the longest suit, not an ace, keeping the hand's lowest card for the end.

    The aces are kept to regain the lead; the lowest card is kept back while anything else can be
    led. Among equally long suits, the one whose candidate card is lower.
    """
    aces = (
        trick_rules.bit(spade_ace)
        | trick_rules.bit(highest(suits[0]))
        | trick_rules.bit(highest(suits[1]))
        | trick_rules.bit(highest(suits[2]))
    )
    candidates = legal & ~aces if legal & ~aces != ZERO else legal
    for_the_end = trick_rules.bit(_low_card(hand, suits))
    if candidates & ~for_the_end != ZERO:
        candidates &= ~for_the_end
    pick, pick_length = -1, -1
    for suit in range(4):
        card = lowest(candidates & suits[suit])
        if card < 0:
            continue
        length = popcount(hand & suits[suit])
        if length > pick_length or (length == pick_length and _rank(card, suits) < _rank(pick, suits)):
            pick, pick_length = card, length
    return pick


@njit(cache=True)
def _cash_before_last_spade(hand: np.uint64, unseen: np.uint64, suits: SuitMasks) -> int:
    """Tip 11: one spade and nothing but side masters: lead the highest master, keep the spade; -1 otherwise."""
    side = hand & ~suits[3]
    if popcount(hand & suits[3]) != 1 or side == ZERO:
        return -1
    for suit in range(3):
        low = lowest(hand & suits[suit])
        if low >= 0 and trick_rules.unseen_above(low, unseen, suits) > 0:
            return -1
    return highest(side)


@njit(cache=True)
def _default_lead(
    legal: np.uint64,
    hand: np.uint64,
    unseen: np.uint64,
    kept: np.uint64,
    skip_bare_king: bool,
    suits: SuitMasks,
) -> int:
    """What the sheet leaves open: what to lead when no tip speaks.

    1. The master spade, if spades may be led: it draws trumps and protects side winners
       (`kept`, the honours of tip 4, are not led).
    2. A side master, from the suit with the most unseen cards (the least likely to be ruffed).
    3. The lowest card of the shortest side suit, working towards a void to ruff into later
       (tip 5: not a bare king, which waits for the suit to be led so that its ace falls first).
    4. Otherwise a low spade (not a kept honour while another is left), else the bare king.
    """
    trumps = legal & suits[3]
    if trumps != ZERO:
        top = highest(trumps)
        if trick_rules.unseen_above(top, unseen, suits) == 0 and trick_rules.bit(top) & kept == ZERO:
            return top
    pick, pick_out = -1, -1
    for suit in range(3):
        top = highest(legal & suits[suit])
        if top >= 0 and trick_rules.unseen_above(top, unseen, suits) == 0 and popcount(unseen & suits[suit]) > pick_out:
            pick, pick_out = top, popcount(unseen & suits[suit])
    if pick >= 0:
        return pick
    pick_length = 99
    for suit in range(3):
        mine = legal & suits[suit]
        bare_king = popcount(mine) == 1 and highest(mine) == highest(
            suits[suit] & ~trick_rules.bit(highest(suits[suit]))
        )
        if mine == ZERO or (skip_bare_king and bare_king):
            continue
        if popcount(mine) < pick_length:
            pick, pick_length = lowest(mine), popcount(mine)
    if pick >= 0:
        return pick
    if trumps != ZERO:
        return lowest(trumps & ~kept) if trumps & ~kept != ZERO else lowest(trumps)
    return _low_card(legal, suits)


@njit(cache=True, inline="always")  # one call site each in tips_at and the expert's decision
def _lead(s: Turn, g: Game, p: Any, plan: Plan) -> int:
    """The `tips` lead, rules 2-7 of the `TipsPlay` docstring in order."""
    legal, hand, unseen, suits, spade_ace, spade_king = s.legal, s.hand, s.unseen, g.suits, g.spade_ace, g.spade_king
    hunting = plan.hunting
    if plan.covering:
        return _strongest(legal, unseen, suits)
    if hunting and p.lead_low_against_nil:
        return _lead_against_nil(legal, hand, suits, spade_ace)
    if hunting and p.set_opposing_nil:
        aces = (
            trick_rules.bit(spade_ace)
            | trick_rules.bit(highest(suits[0]))
            | trick_rules.bit(highest(suits[1]))
            | trick_rules.bit(highest(suits[2]))
        )
        return _low_card(legal & ~aces if legal & ~aces != ZERO else legal, suits)
    if plan.ducking and p.duck_after_contract:
        return _low_card(legal, suits)
    trumps = legal & suits[3]
    if p.pull_trumps_on_big_bid and plan.contract >= p.big_bid and trumps != ZERO and not plan.trumps_out:
        top = highest(trumps)
        return top if trick_rules.unseen_above(top, unseen, suits) == 0 else lowest(trumps)
    if p.cash_masters_last_spade and popcount(hand) <= p.last_tricks:  # the last tricks: as many as cards held
        card = _cash_before_last_spade(hand, unseen, suits)
        if card >= 0:
            return card
    honours = trick_rules.bit(spade_ace) | trick_rules.bit(spade_king)
    early = s.trick < p.honours_early_tricks
    kept = honours if p.hold_spade_honours and not hunting and early and hand & honours == honours else ZERO
    return _default_lead(legal, hand, unseen, kept, p.no_lead_singleton_king, suits)


# --- following ---------------------------------------------------------------------------------


@njit(cache=True)
def _duck(legal: np.uint64, last: bool, best: int, following: bool, hand: np.uint64, unseen: np.uint64,
          to_void: bool, suits: SuitMasks) -> int:  # fmt: skip
    """Tip 7, contract made: play low, refuse tricks, never ruff unless forced.

    Following: the lowest card (it loses whenever any card can). When every card wins, the
    last seat takes the trick with its highest card (a bag either way, one danger fewer later).
    Void: discard; only spades left: the highest spade that still loses, else as when following.
    """
    if not following and legal & ~suits[3] != ZERO:
        return _discard(legal, hand, unseen, to_void, suits)
    winning = trick_rules.winners(legal, best, suits)
    if not following and legal & ~winning != ZERO:
        return highest(legal & ~winning)
    if last and winning == legal:
        return highest(legal)
    return lowest(legal)


@njit(cache=True, inline="always")  # one call site: tips_at
def _follow(s: Turn, g: Game, p: Any, t: OnTrick) -> int:
    """A trick in progress when no nil and no made contract is in play.

    Following suit: the last seat (fourth, or second in Duel) takes the trick as cheaply as it can
    when an opponent holds it, else plays low; second seat plays low; third seat with partner
    holding plays low (tip 2; off: its highest card), with an opponent holding plays the cheapest
    card that beats it (tip 3; off: its highest card, "your best"), else low.

    Void: the last seat ruffs with its cheapest winning trump when an opponent holds the trick;
    the third seat ruffs (tip 3 off: with its highest winning trump) unless partner's led ace
    holds the trick (tip 1); the second seat does not ruff in front of two seats (its partner may
    win), unless tip 6 applies: early in the hand with enough spades it ruffs at the first chance,
    anywhere but over partner's led ace or partner's trick at the last seat. A seat that does not
    ruff discards (tip 10).
    """
    legal, hand, position, suits = s.legal, s.hand, s.position, g.suits
    last, partner_holds = t.last, t.partner_holds
    winning = trick_rules.winners(legal, t.best, suits)
    if t.following:
        if last:
            return lowest(winning) if not partner_holds and winning != ZERO else lowest(legal)
        if position == 1:
            return lowest(legal)
        if partner_holds:
            return lowest(legal) if p.third_seat_low_when_partner_wins else highest(legal)
        if winning != ZERO:
            return lowest(winning) if p.third_seat_cheapest_winner else highest(legal)
        return lowest(legal)
    ruffs = winning & suits[3]
    spare_ace = t.partner_led_ace and p.no_trump_partner_ace
    if last:
        ruff = not partner_holds
    else:
        ruff = position == 2 and not spare_ace
    early_void = (
        p.trump_early_when_void
        and s.trick < p.early_void_tricks
        and popcount(hand & suits[3]) >= p.early_void_min_spades
        and not spare_ace
        and not (last and partner_holds)
    )
    if ruffs != ZERO and (ruff or early_void):
        if position == 2 and not partner_holds and not p.third_seat_cheapest_winner:
            return highest(ruffs)
        return lowest(ruffs)
    return _discard(legal, hand, s.unseen, p.discard_to_void, suits)


# --- one decision ------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def on_trick(s: Turn, g: Game) -> OnTrick:
    """The trick in progress at this turn: the card holding it and who played it, and what that means for
    this seat. Partner exists only when `g.partnered` (not in cutthroat or with three players)."""
    position, first = s.position, s.first
    best, holder = first, 0
    if position == 0:
        best, holder = -1, -1
    if position >= 2 and trick_rules.beats(s.second, best, g.suits):
        best, holder = s.second, 1
    if position >= 3 and trick_rules.beats(s.third, best, g.suits):
        best, holder = s.third, 2
    following = position > 0 and s.legal & trick_rules.suit_mask(first, g.suits) != ZERO
    partner_holds = g.partnered and holder == position - 2
    partner_led_ace = g.partnered and position == 2 and holder == 0 and _is_ace(first, g.suits, g.spade_ace)
    return OnTrick(best, holder, following, position == g.players - 1, partner_holds, partner_led_ace)


@njit(cache=True, inline="always")
def with_legal(s: Turn, legal: np.uint64) -> Turn:
    """The same turn with fewer cards allowed: how a rule asks what the others would play without a suit."""
    return Turn(
        s.hand, legal, s.unseen, s.seat, s.position, s.trick, s.bids, s.won, s.first, s.second, s.third, s.partner,
        s.left, s.right, s.voids, s.bags, s.u,
    )  # fmt: skip


@njit(cache=True, inline="always")
def hunting(s: Turn, g: Game) -> bool:
    """An opponent's nil is live: left's or right's, or across in cutthroat."""
    bids, won = s.bids, s.won
    across = not g.partnered and bids[PARTNER] == 0 and won[PARTNER] == 0
    return (bids[LEFT] == 0 and won[LEFT] == 0) or (bids[RIGHT] == 0 and won[RIGHT] == 0) or across


@njit(cache=True, inline="always")
def _in_order(k: int, s: Turn) -> int:
    """The card played k-th to the trick (0 = the lead); -1 for k outside 0..2 (not played before me)."""
    if k == 0:
        return s.first
    if k == 1:
        return s.second
    return s.third if k == 2 else -1


@njit(cache=True, inline="always")
def _opponents_out_of_trumps(left_voids: int, right_voids: int, unseen: np.uint64, suits: SuitMasks) -> bool:
    """Tip 8's test, read from the shown voids: both opponents have shown out of spades (failed to follow a
    spade lead), or no spade is unseen."""
    if unseen & suits[3] == ZERO:
        return True
    return (left_voids >> 3) & 1 == 1 and (right_voids >> 3) & 1 == 1


@njit(cache=True)
def tips_at(s: Turn, g: Game, p: Any) -> int:
    """The `tips` card of one table (a per-table play function, see `spades_lab.engine.turn`), rules in the
    order of the `TipsPlay` docstring.

    Seats are relative to the acting seat (`bids[ME]`, `won[PARTNER]`, ...) and the trick is its
    cards in play order, so that nothing is looked up by a seat number that varies from table to
    table (a branch the processor cannot predict). A seat that does not exist (partner and left
    in Duel) has bid -1: never nil, no contract. In Duel (2 players) the opponent sits on the right
    and plays the other card of each trick. `g.partnered` is False in cutthroat, where the seat across
    is one more opponent (no shared contract, no coverage, its nil is set like the others'), and with
    three players, where left (the seat two before me in a trick) takes the across slot.
    """
    t = on_trick(s, g)
    bids, won, position = s.bids, s.won, s.position
    if bids[ME] == 0 and p.nil_play:
        return _nil_card(s.legal, position, t.last, t.best, t.following, s.unseen, g.suits)

    mate_bid = bids[PARTNER] if g.partnered else -1
    mate_won = won[PARTNER] if g.partnered else 0
    contract = max(bids[ME], 0) + max(mate_bid, 0)  # a nil adds 0
    contract_tricks = (won[ME] if bids[ME] > 0 else 0) + (mate_won if mate_bid > 0 else 0)
    contract_made = contract > 0 and contract_tricks >= contract
    covering = p.nil_coverage and mate_bid == 0 and mate_won == 0

    if position == 0:
        trumps_out = False
        if p.pull_trumps_on_big_bid and contract >= p.big_bid:
            left, right = seat_voids(s.voids, s.left), seat_voids(s.voids, s.right)
            trumps_out = _opponents_out_of_trumps(left, right, s.unseen, g.suits)
            if not g.partnered and trumps_out:
                across = seat_voids(s.voids, s.partner)
                trumps_out = _opponents_out_of_trumps(across, across, s.unseen, g.suits)
        return _lead(s, g, p, Plan(covering, hunting(s, g), contract, contract_made, trumps_out))
    card = _nils_then_duck(s, g, p, t, covering, contract_made)
    return card if card >= 0 else _follow(s, g, p, t)


@njit(cache=True, inline="always")
def _nils_then_duck(s: Turn, g: Game, p: Any, t: OnTrick, covering: bool, ducking: bool) -> int:
    """Rules 8-10 of `TipsPlay` on a trick in progress, which the expert keeps: cover partner's live nil,
    play under an opposing one, duck once the contract is made (`ducking`); -1 when none of them decides."""
    position = s.position
    if covering:
        card = _cover_partner(s.legal, _in_order(position - 2, s), t.holder == position - 2, t.best, t.following,
                              g.suits)  # fmt: skip
        if card >= 0:
            return card
    if p.set_opposing_nil and hunting(s, g):
        card = _set_opposing_nils(s, g, p, t)
        if card >= 0:
            return card
    if ducking and p.duck_after_contract:
        return _duck(s.legal, t.last, t.best, t.following, s.hand, s.unseen, p.discard_to_void, g.suits)
    return -1


@njit(cache=True)
def greedy_at(s: Turn, g: Game, k: Any) -> int:
    """Win cheaply if you can, else play low (the `greedy` card of one table)."""
    best = -1
    for i in range(s.position):
        card = _in_order(i, s)
        if trick_rules.beats(card, best, g.suits):
            best = card
    winning = trick_rules.winners(s.legal, best, g.suits) if s.position > 0 else ZERO
    return lowest(winning) if winning != ZERO else _low_card(s.legal, g.suits)


# --- the policies ------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def kernel_deck(deck: Deck) -> tuple[tuple[np.uint64, ...], int, int]:
    """The deck as the kernels see it: the four suit masks, and the ids of the ace and king of spades."""
    suits = tuple(np.uint64(m) for m in deck.suit_masks)
    return suits, deck.index.get("AS", -1), deck.index.get("KS", -1)


class TipsPlay:
    """The rule-based player of HEURISTICS.md sections 5 and 6; see `TipsParams` for the switches.

    For each decision the first rule that applies decides:

    1. Own nil (`nil_play`): never win a trick it can avoid (see `_nil_card`). A nil bidder that
       has already taken a trick keeps ducking: its tricks only add bags.
    Leading:
    2. Partner's live nil (`nil_coverage`): lead the strongest card, to take the lead and keep it.
    3. An opponent's live nil: tip 9 (`lead_low_against_nil`); with tip 9 off, `set_opposing_nil`
       leads the lowest-ranked card that is not an ace.
    4. Contract made (tip 7, `duck_after_contract`): lead low (lowest-ranked side card).
    5. Side contract >= `big_bid` (tip 8): lead the master spade, else the lowest spade, while
       spades may be led and the opponents may still hold one.
    6. The last `last_tricks` tricks with one spade and only side masters (tip 11): cash a master.
    7. Otherwise `_default_lead`: master spade (not AS/KS early when holding both, tip 4), side
       master, lowest card of the shortest side suit (never a bare king, tip 5), low spade.
    Following:
    8. Partner's live nil (`nil_coverage`): overtake partner, or play high before it (`_cover_partner`).
    9. An opponent's live nil in this trick (`set_opposing_nil`): play under it (`_set_opposing_nil`).
    10. Contract made (tip 7): duck (`_duck`).
    11. Otherwise `_follow`: seat-by-seat defaults with tips 1, 2, 3, 6 and 10.
    """

    def __init__(self, params: TipsParams) -> None:
        self.params = params
        self.name = "tips"
        self.params_record = params_record(params)

    def compiled_play(self, rules: Rules) -> tuple[Any, Any]:
        """The per-table play function and its record (the engine's fused loop calls them per table)."""
        return tips_at, self.params_record

    def play(self, view: PlayView) -> np.ndarray:
        return play_turns(tips_at, self.params_record, view)


class GreedyPlay(WithoutParams):
    """The plain baseline: take the trick with the cheapest card that beats it, else play low.

    It does not look at who holds the trick (it overtakes its own partner), at bids or at what
    has been played. Leading, there is nothing to beat, so it leads low. "Low" is the
    lowest-ranked side card (clubs, diamonds, hearts on equal rank), a trump only when nothing
    else is legal; "cheapest" is the lowest card of the led suit that wins, else the lowest
    winning trump.
    """

    name = "greedy"

    def compiled_play(self, rules: Rules) -> tuple[Any, Any]:
        """The per-table play function and its (empty) record, for the engine's fused loop."""
        return greedy_at, 0

    def play(self, view: PlayView) -> np.ndarray:
        return play_turns(greedy_at, 0, view)


# --- compiled pieces shared with the policies built on the tips ---------------------------------
# Public names for `spades_lab.policies.expert`, which plays the tips wherever its own additions
# are silent: the same compiled functions, so the tips' own decisions stay exactly as above.
lead_card = _lead
lead_against_nil = _lead_against_nil
nils_then_duck = _nils_then_duck
nil_card = _nil_card
opponents_out_of_trumps = _opponents_out_of_trumps
rank_of, strongest, discard_card, in_order = (
    _rank,
    _strongest,
    _discard,
    _in_order,
)
card_bit, suit_of, beats, winners, unseen_above = (
    trick_rules.bit,
    trick_rules.suit_mask,
    trick_rules.beats,
    trick_rules.winners,
    trick_rules.unseen_above,
)
