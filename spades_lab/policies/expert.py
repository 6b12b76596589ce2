"""The `expert` card play: the tips, plus what a strong human does where the sheet reads too literally.

`tips` is the cheat sheet's player and stays exactly as the sheet says. `expert` plays the same
cards wherever its own additions are silent (it calls the same compiled tips code), and each
addition is a switch, on by default (one, `second_seat_win`, measured and left off), so that an
experiment can measure what each one is worth:

- `read_voids` (memory, `spades_lab.policies.memory`): every seat's shown voids, from the plays
  this seat has seen (the engine keeps them as cards are played: `PlayView.shown_voids`). Off, the
  additions below assume nobody has shown out of anything.
- `spare_partner_winner` (third seat): never ruff partner's sure winner. A card is a *sure
  winner* when the fourth seat cannot beat it: no unseen card of its suit is higher and the fourth
  seat has not shown out of the led suit (or has, and has shown out of trumps too). Tip 1 spares
  only a led ace.
- `third_hand_high` (third seat, following suit, partner's card beatable or an opponent holding):
  the cheapest card that beats both the trick and every card of the led suit the fourth seat can
  still hold; when none does, the lowest card of the top sequence (the cheapest of the cards equal
  to the highest held, say the Q from K-Q), if it beats the trick. When the fourth seat has shown
  out and may ruff, it plays as the tips do. Tip 2 always ducks under partner.
- `second_seat_ruff` (second seat, void): ruff when the trick is worth taking: the led card is a
  master (only a trump takes it), or the side still needs more tricks than the sure winners this
  seat holds. The ruff is the cheapest trump; when the fourth seat is out of the led suit (no
  other seat can hold a card of it) and may hold trumps, the cheapest trump above every trump
  still out, if there is one.
- `cover_honour` (second seat, following an honour J, Q or K): cover with the cheapest higher card
  when it is a master, or when only one unseen card beats it and this seat holds a ten or better
  of the suit besides: the cover draws that card and promotes the one kept. Otherwise second hand
  plays low, as the tips do.
- `second_seat_master` (second seat, following suit): win the trick with the cheapest master of
  the led suit held (a card above every unseen card of the suit and the led card: the bottom of
  A-K-Q, the A of A-x) instead of second hand low, unless the fourth seat has shown out of the led
  suit and may ruff. Measured with the solver, second hand low under a held master was the second
  seat's most frequent double-dummy loss (the master's trick is not lost by waiting, but the lead
  passes to the opponents, who cash or ruff first).
- `no_master_into_ruff` (leading, four seats in partnerships, no nil live): when the lead chosen is a side master
  in a suit an opponent has shown out of, and that opponent may still ruff (it has not shown out of
  trumps and a trump is unseen), lead as if that suit were not held (the master waits for the
  suit to be led by others or for the trumps to be drawn). Measured with the solver, side masters
  led into an opponent's void gave away twice the DD tricks of other master leads.
- `short_suit_first` (leading): while the side is short of its contract (partnerships, no nil
  live, before tip 11's last tricks), holding two trumps or more with a trump unseen, when the lead chosen
  cashes a side master, lead the lowest card of the shortest other side suit of one or two cards without a
  master instead: the master's trick waits, the short suit is emptied to ruff in. Measured with the solver
  (240 and 480 hands, paired): DD loss neutral; games +28 to +36 points per game over three seeds; with
  `lead_model`, see below.
- `lead_model` (leading): while the side is short of its contract (partnerships, both
  partners bid a number, no nil live, before tip 11's last tricks), the lead chosen so far is compared with
  six other kinds of lead (the low or high card of the shortest side suit without a master, the low card of
  the longest one, the low trump, a side master, the trump master) by a linear model of their double-dummy
  gain, fitted on saved DD values of the expert's own leads (`spades_lab.policies.leads`, weights in
  `data/expert_leads.json`); the best option held replaces the card when its predicted gain reaches
  `lead_margin` tricks. Measured: the changed leads gain DD tricks on held-out hands, but later plays
  give most of it back, so the whole-hand DD loss is neutral; with `short_suit_first` the games gain about
  +50 to +67 points per game over three seeds (docs/players.md). Its work at each lead is one pass over
  the suits with the weights folded per kind of card (`leads.combine_weights`), so it costs about a tenth
  of the expert's speed (on a 2-core Intel Xeon, in one sitting: 0.61 of tips' hands per second with it,
  0.70 without). `lead_weights`
  picks the model: `dd` (as above), a `.json` file of one's own fit, or
  `continuation` (fitted on the hand's score when the expert plays on after each option: about +50 to +70
  points per game more than `dd` with `lead_model` on, and more DD tricks lost; docs/players.md).
- `second_seat_win` (second seat following, off by default): when no cover and no held master decides,
  the cheapest card that beats the led card instead of second hand low, unless that card is a queen or
  a king with a higher card unseen (those honours still wait). Measured with the solver on the expert's
  own plays (480 hands): second hand low while holding a winner was the second seat's most frequent
  follow-suit loss, and the cheapest winner is worth +0.018 DD tricks per side-hand at the plays it
  changes; whole-hand paired over 960 hands 1.61 -> 1.59, -0.021 (-0.034 to -0.008), but games lean
  the other way (measurably worse beside `lead_model` and `short_suit_first`, docs/players.md), so it is off.
- `third_seat_equals` (third seat, partner holding the trick): `third_hand_high` never overtakes partner's
  card with an equal of it (a card with no unseen card between the two, such as the J over partner's 10):
  whatever beats partner's card beats that one too, so overtaking only spends a card. Tip 2's low card is
  played instead.
- `cover_duck` (partner's live nil, partner already under this trick): when the card chosen would win the
  trick and leave this seat on lead with no safe lead for the nil (no master, no suit the nil has shown out
  of), lose the trick instead with the highest losing card (a discard when void), provided the sure winners
  kept still cover the tricks the side's contract needs. Off by default: measured over 10,000 duplicate
  deals against the expert without it, paired win difference -0.1% (-0.2% to -0.0%), nil success unchanged.
- `cover_keeps_masters` (partner's live nil plays fourth, this seat second): the tips make the trick as
  high as they can, the highest card held, so partner can play under it. With this switch no more is
  spent than the cover needs: nothing when no unseen card of the trick's suit beats the card holding it
  (partner plays under whatever it holds; the trick is played as if partner had not bid nil), else the
  cheapest card held above every unseen card of the suit (the K from A-K with the Q out, keeping the A).
  Off by default: measured over 20,000 duplicate deals against the expert without it, paired win
  difference -0.05% (-0.12% to +0.02%), -0.4 points per game (-0.6 to -0.1), nil success unchanged.
- `set_ducks` (trick arithmetic): when the side's contract is lost (more tricks still needed than cards
  left), its tricks score nothing, so the seat ducks as once the contract is made (and `keep_setting` still
  plays on while the opponents can be set): every trick the opponents take past their contract is a bag.
  Measured over 10,000 duplicate deals against the expert without it: paired win difference +1.1%
  (+0.7% to +1.5%), +6.6 points per game.
- `keep_setting` (trick arithmetic): once the side's contract is made, tip 7 ducks every trick.
  With this switch the seat keeps playing to win while the opponents are still short of their
  contract and can still make it, unless the side's bags plus its overtricks are within
  `bag_margin` of the bag penalty.
- `keep_stoppers` (discards): keep masters and guarded honours (stoppers: a card with k unseen
  cards of its suit above it and at least k of this seat's own cards below it, k <= 2). Throw from
  the shortest side suit with neither (its highest card, towards a void); else the lowest card
  whose suit keeps all its stoppers without it (so never the king of K-x-x-x when a low card is
  free); else the lowest side card. Tip 10 throws the highest card of the shortest suit without a
  master, honours and all.
- `safe_coverage` (partner's live nil, leading): lead only cards the nil cannot be forced to win
  under: a master (nobody beats it in suit, so the nil plays below it), best in a suit the nil has
  shown out of (the nil discards); else a card of a suit the nil has shown out of; else as the
  tips (the strongest card).
- `hunt_nil_by_voids` (an opponent's live nil, leading): tip 9 leads the lowest card of the
  longest suit; this switch first drops the suits the nil has shown out of (it would discard).

The trick arithmetic uses, per side, the contract (non-nil bids) and the tricks that count toward
it, as the tips do; `bag_margin` and the rules' bag threshold decide when bags matter.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, NamedTuple

import numpy as np
from numba import njit

from spades_lab.engine import PlayView
from spades_lab.engine.bits import ZERO, above, below, highest, lowest, popcount
from spades_lab.engine.trick import SuitMasks
from spades_lab.engine.turn import LEFT, ME, PARTNER, RIGHT, Game, Turn, play_turns
from spades_lab.policies.leads import Lead, combine_weights, lead_weights, model_lead, sure_winners
from spades_lab.policies.memory import seat_voids, suit_index, void_cards
from spades_lab.policies.params import Ranges
from spades_lab.policies.play import (
    SWITCHES,
    OnTrick,
    Plan,
    TipsParams,
    beats,
    card_bit,
    discard_card,
    hunting,
    in_order,
    lead_against_nil,
    lead_card,
    nil_card,
    nils_then_duck,
    on_trick,
    opponents_out_of_trumps,
    params_record,
    rank_of,
    strongest,
    suit_of,
    unseen_above,
    winners,
    with_legal,
)
from spades_lab.rules import Rules


@dataclass(frozen=True)
class ExpertParams(TipsParams):
    """Every switch of the tips, then one switch per expert addition (all on) and the bag margin."""

    read_voids: bool = True  # memory: read every seat's shown voids from the play history
    spare_partner_winner: bool = True  # third seat: never ruff partner's sure winner
    third_hand_high: bool = True  # third seat: cheapest card that beats what the fourth seat can hold
    second_seat_ruff: bool = True  # second seat void: ruff a master, or when the side needs the trick
    cover_honour: bool = True  # second seat: cover an honour with an honour when it promotes a card
    keep_setting: bool = True  # contract made: keep setting opponents still short, unless bags are near
    keep_stoppers: bool = True  # discards: keep masters and guarded honours, throw from suits with neither
    safe_coverage: bool = True  # partner's nil: lead only masters or suits the nil has shown out of
    hunt_nil_by_voids: bool = True  # opponent's nil: tip 9 leads no suit the nil has shown out of
    second_seat_master: bool = True  # second seat following: win with the cheapest master when no ruff threatens
    no_master_into_ruff: bool = True  # leading: no side master in a suit an opponent has shown out of and may ruff
    short_suit_first: bool = True  # leading with trumps, side short: a short side suit's low card before a master
    lead_model: bool = True  # leading, side short: another kind of lead when the fitted DD model predicts a gain
    second_seat_win: bool = False  # second seat following: the cheapest card that beats the led card, not low
    third_seat_equals: bool = True  # third seat: never overtake partner's winning card with an equal of it
    cover_duck: bool = False  # partner's nil safe on this trick: duck rather than win and have no safe lead after
    set_ducks: bool = True  # contract already lost: duck as once it is made, while the opponents cannot be set
    cover_keeps_masters: bool = False  # partner's nil plays after me: no top card spent where a lower one covers
    bag_margin: int = 2  # keep_setting stops when bags + overtricks >= bag threshold - bag_margin
    lead_margin: float = 0.05  # lead_model: predicted DD tricks per lead an option must gain over the expert's card
    lead_weights: str = "dd"  # lead_model: dd (DD gain, tricks), continuation (score, tens of points) or a .json path

    POLICY: ClassVar[str] = "expert play"
    RANGES: ClassVar[Ranges] = TipsParams.RANGES + (
        ("bag_margin", 0, 100), ("lead_margin", 0.0, 13.0),
    )  # fmt: skip


EXPERT_SWITCHES = tuple(f.name for f in fields(ExpertParams) if f.type == "bool" and f.name not in SWITCHES)
"""The expert's own switches (after the tips'), in the order of `ExpertParams`."""

NO_PENALTY = 1 << 30
"""The bag threshold used when the rules have no bag penalty: bags never stop `keep_setting`."""


# --- pieces ------------------------------------------------------------------------------------
# The small pieces are inlined into `_expert_card`: each call site of a compiled function costs its caller two
# stores at every entry, whether the call is taken or not. The larger ones stay calls: numba's inlining costs
# compile time (inlining them all made the expert's first run 15 s longer for no further speed).


@njit(cache=True, inline="always")
def _wins_against_fourth(card: int, led: int, left_voids: int, unseen: np.uint64, suits: SuitMasks) -> bool:
    """Whether `card`, holding the trick, beats anything the fourth seat (`left_voids`) can still play.

    The fourth seat can follow with any unseen card of the led suit unless it has shown out of it;
    having shown out it may ruff, unless it has shown out of trumps too or no trump is unseen.
    """
    led_suit = suits[led]
    trump = card_bit(card) & suits[3] != ZERO
    if (left_voids >> led) & 1 == 0:
        if trump and led != 3:
            return True  # the fourth seat must follow the led suit: it cannot overruff
        return popcount(unseen & led_suit & above(card)) == 0
    can_ruff = (left_voids >> 3) & 1 == 0 and unseen & suits[3] != ZERO
    if not can_ruff:
        return True
    return trump and popcount(unseen & suits[3] & above(card)) == 0


@njit(cache=True)
def _sequence_bottom(cards: np.uint64, unseen: np.uint64, suits: SuitMasks) -> int:
    """The cheapest card equal to the highest of `cards` (no unseen card between them): Q from K-Q-x."""
    card = highest(cards)
    while True:
        lower = highest(cards & below(card))
        if lower < 0 or popcount(unseen & suit_of(card, suits) & above(lower) & below(card)) > 0:
            return card
        card = lower


@njit(cache=True)
def _third_hand_high(
    legal: np.uint64, best: int, led: int, left_voids: int, unseen: np.uint64, suits: SuitMasks
) -> int:
    """Third seat following suit: cheapest sure winner, else the bottom of the top sequence; -1: no play."""
    winning = winners(legal, best, suits) & suits[led]
    if winning == ZERO:
        return -1
    if (left_voids >> led) & 1 == 1:
        can_ruff = (left_voids >> 3) & 1 == 0 and unseen & suits[3] != ZERO
        return -1 if can_ruff else lowest(winning)
    sure = winning & above(highest(unseen & suits[led]))
    if sure != ZERO:
        return lowest(sure)
    return _sequence_bottom(winning, unseen, suits)


@njit(cache=True, inline="always")
def _equals(card: int, best: int, unseen: np.uint64, suits: SuitMasks) -> bool:
    """Whether `card` is an equal of `best` in its suit: no unseen card between them, so any card that beats
    one beats the other (partner's 10 and this seat's J once nothing unseen lies between)."""
    between = unseen & suit_of(card, suits) & above(best) & below(card)
    return card_bit(card) & suit_of(best, suits) != ZERO and between == ZERO  # type: ignore[no-any-return]  # numba scalars


@njit(cache=True)
def _cover_duck(card: int, s: Turn, g: Game, p: Any, t: OnTrick, nil_voids: int, needed: int) -> int:
    """Covering partner's nil once it is under this trick: -1 to keep `card`, or a losing card instead.

    Winning with `card` gives this seat the next lead. When no safe lead would be left for the nil (no
    master, no card of a suit the nil has shown out of: `_safe_coverage_lead`), the win only forces a lead
    the nil may have to win under; so lose the trick instead, if a losing card is held and the sure winners
    kept (the winning card among them) still cover the tricks the contract needs.
    """
    legal, hand, unseen, suits = s.legal, s.hand, s.unseen, g.suits
    if not beats(card, t.best, suits):
        return -1
    if _safe_coverage_lead(hand & ~card_bit(card), unseen, nil_voids, suits) >= 0:
        return -1
    losing = legal & ~winners(legal, t.best, suits)
    if losing == ZERO:
        return -1
    duck = highest(losing) if t.following else discard_card(losing, hand, unseen, p.discard_to_void, suits)
    if sure_winners(hand & ~card_bit(duck), unseen, suits) < needed:
        return -1
    return duck


@njit(cache=True, inline="always")
def _cover_cheaply(s: Turn, g: Game, t: OnTrick) -> int:
    """Second seat, partner's live nil fourth: the card that keeps the nil safe, spending no more than it must.

    The nil is safe whatever it holds once no unseen card of the trick's suit beats the card holding it (it
    plays under, or discards when void): then -2, and this trick is played as if partner had not bid nil.
    Otherwise the cheapest card of the suit held above every unseen one (the K from A-K with the Q out), not
    the tips' highest card, which would spend a master the cover needs later; -1 when none is held (the tips'
    highest card, or cheapest ruff, then).
    """
    suits, unseen = g.suits, s.unseen
    if unseen_above(t.best, unseen, suits) == 0:
        return -2
    masters = _held_masters(s.legal, t.best, unseen, suits)  # none when void: this seat cannot follow
    return lowest(masters) if masters != ZERO else -1


@njit(cache=True, inline="always")
def _cover(legal: np.uint64, led_card: int, unseen: np.uint64, suits: SuitMasks) -> int:
    """Second seat over a led J, Q or K: the cover that wins, or that promotes a ten-or-better kept; else -1."""
    rank = rank_of(led_card, suits)
    if rank < 9 or rank > 11:
        return -1
    mine = legal & suit_of(led_card, suits)
    cover = lowest(mine & above(led_card))
    if cover < 0:
        return -1
    over = unseen_above(cover, unseen, suits)
    if over == 0:
        return cover
    if over == 1:
        rest = mine & ~card_bit(cover)
        if rest != ZERO and rank_of(highest(rest), suits) >= 8:
            return cover
    return -1


@njit(cache=True, inline="always")
def _held_masters(legal: np.uint64, first: int, unseen: np.uint64, suits: SuitMasks) -> np.uint64:
    """The legal cards of the led suit above the led card and above every unseen card of the suit."""
    mine = legal & suit_of(first, suits) & above(first)
    top_out = highest(unseen & suit_of(first, suits))
    return mine & above(top_out) if top_out >= 0 else mine


@njit(cache=True, inline="always")
def _second_master(legal: np.uint64, first: int, left_voids: int, unseen: np.uint64, suits: SuitMasks) -> int:
    """Second seat following: the cheapest held master of the led suit, if no ruff by the fourth seat threatens; -1 else."""
    masters = _held_masters(legal, first, unseen, suits)
    if masters == ZERO:
        return -1
    led = suit_index(first, suits)
    if led != 3 and _may_ruff(left_voids, led, unseen, suits):
        return -1
    return lowest(masters)


@njit(cache=True, inline="always")
def _second_seat_ruff(ruffs: np.uint64, left_voids: int, led: int, unseen: np.uint64, suits: SuitMasks) -> int:
    """The cheapest trump; above every unseen trump when the fourth seat is out of the suit and may overruff."""
    overruff = (left_voids >> led) & 1 == 1 and (left_voids >> 3) & 1 == 0
    if overruff:
        safe = ruffs & above(highest(unseen & suits[3]))
        if safe != ZERO:
            return lowest(safe)
    return lowest(ruffs)


@njit(cache=True)
def _keep_stoppers_discard(cards: np.uint64, hand: np.uint64, unseen: np.uint64, suits: SuitMasks) -> int:
    """The discard of `keep_stoppers` (see the module docstring)."""
    side = cards & ~suits[3]
    if side == ZERO:
        return lowest(cards)
    neither, neither_length = -1, 99
    free, free_rank = -1, 99
    for s in range(3):
        if side & suits[s] == ZERO:
            continue
        mine = hand & suits[s]
        out = unseen & suits[s]
        length = popcount(mine)
        needed = 0  # cards the suit's masters and stoppers need: themselves plus their guards
        index = 0
        x = mine
        while x != ZERO:
            card = highest(x)
            x &= ~card_bit(card)
            over = popcount(out & above(card))
            if over > 2:
                break  # lower cards have at least as many unseen cards above them
            if length - 1 - index >= over:  # the cards below it guard it
                needed = max(needed, index + 1 + over)
            index += 1
        if needed == 0:
            if length < neither_length:
                neither, neither_length = highest(side & suits[s]), length
        elif length > needed:
            low = lowest(side & suits[s])
            if rank_of(low, suits) < free_rank:
                free, free_rank = low, rank_of(low, suits)
    if neither >= 0:
        return neither
    if free >= 0:
        return free
    best = -1
    for s in range(3):
        card = lowest(side & suits[s])
        if card >= 0 and (best < 0 or rank_of(card, suits) < rank_of(best, suits)):
            best = card
    return best


@njit(cache=True)
def _safe_coverage_lead(legal: np.uint64, unseen: np.uint64, nil_voids: int, suits: SuitMasks) -> int:
    """Partner's live nil, leading: a master (one in a suit the nil has shown out of first), else a card
    of a suit the nil has shown out of; -1 when there is neither."""
    masters = ZERO
    x = legal
    while x != ZERO:
        card = lowest(x)
        x &= x - np.uint64(1)
        if unseen_above(card, unseen, suits) == 0:
            masters |= card_bit(card)
    shed = legal & void_cards(nil_voids, suits)
    if masters & shed != ZERO:
        return strongest(masters & shed, unseen, suits)
    if masters != ZERO:
        return strongest(masters, unseen, suits)
    if shed != ZERO:
        return strongest(shed, unseen, suits)
    return -1


@njit(cache=True)
def _short_suit_lead(card: int, legal: np.uint64, hand: np.uint64, unseen: np.uint64, suits: SuitMasks) -> int:
    """`short_suit_first`: when `card` cashes a side master while this seat holds two trumps or more and a trump
    is unseen, the lowest card of its shortest other side suit of one or two cards without a master (towards a
    void to ruff in), the master waiting; -1 when there is no such suit or the lead is not a side master."""
    suit = suit_index(card, suits)
    if suit == 3 or unseen_above(card, unseen, suits) != 0:
        return -1
    if popcount(hand & suits[3]) < 2 or unseen & suits[3] == ZERO:
        return -1
    pick, pick_length = -1, 3
    for other in range(3):
        mine = legal & suits[other]
        if other == suit or mine == ZERO or popcount(mine) >= pick_length:
            continue
        if unseen_above(highest(mine), unseen, suits) == 0:
            continue  # a master there: that suit is cashed, not emptied
        pick, pick_length = lowest(mine), popcount(mine)
    return pick


@njit(cache=True, inline="always")  # one call site: _expert_card
def _expert_follow(s: Turn, g: Game, p: Any, t: OnTrick, left_voids: int, needed: int) -> int:
    """The tips' `_follow` with the expert's third-seat, second-seat and discard additions.

    With every expert switch off this is the tips' `_follow`, decision for decision.
    """
    legal, hand, unseen, suits, position, first = s.legal, s.hand, s.unseen, g.suits, s.position, s.first
    best, last, partner_holds = t.best, t.last, t.partner_holds
    partner_card = in_order(position - 2, s)
    winning = winners(legal, best, suits)
    led = suit_index(first, suits)
    if unseen & suits[led] == ZERO:  # nobody else holds the led suit: the fourth seat is out of it
        left_voids |= 1 << led
    if unseen & suits[3] == ZERO:
        left_voids |= 1 << 3
    sure_partner = (
        p.spare_partner_winner and position == 2 and partner_holds
        and _wins_against_fourth(partner_card, led, left_voids, unseen, suits)
    )  # fmt: skip
    if t.following:
        if last:
            return lowest(winning) if not partner_holds and winning != ZERO else lowest(legal)
        if position == 1:
            if p.cover_honour:
                card = _cover(legal, first, unseen, suits)
                if card >= 0:
                    return card
            if p.second_seat_master:
                card = _second_master(legal, first, left_voids, unseen, suits)
                if card >= 0:
                    return card
            if p.second_seat_win and winning != ZERO:
                card = lowest(winning)
                if rank_of(card, suits) < 10 or unseen_above(card, unseen, suits) == 0:
                    return card
            return lowest(legal)
        if sure_partner:
            return lowest(legal)
        if p.third_hand_high and (partner_holds or winning != ZERO):
            card = _third_hand_high(legal, best, led, left_voids, unseen, suits)
            if card >= 0 and not (p.third_seat_equals and partner_holds and _equals(card, best, unseen, suits)):
                return card
        if partner_holds:
            return lowest(legal) if p.third_seat_low_when_partner_wins else highest(legal)
        if winning != ZERO:
            return lowest(winning) if p.third_seat_cheapest_winner else highest(legal)
        return lowest(legal)
    ruffs = winning & suits[3]
    spare = (t.partner_led_ace and p.no_trump_partner_ace) or sure_partner
    if last:
        ruff = not partner_holds
    else:
        ruff = position == 2 and not spare
    early_void = (
        p.trump_early_when_void
        and s.trick < p.early_void_tricks
        and popcount(hand & suits[3]) >= p.early_void_min_spades
        and not spare
        and not (last and partner_holds)
    )
    second_ruff = p.second_seat_ruff and position == 1 and not last
    if second_ruff and not (ruff or early_void):
        ruff = unseen_above(first, unseen, suits) == 0 or needed > sure_winners(hand, unseen, suits)
    if ruffs != ZERO and (ruff or early_void):
        if position == 2 and not partner_holds and not p.third_seat_cheapest_winner:
            return highest(ruffs)
        if second_ruff:
            return _second_seat_ruff(ruffs, left_voids, led, unseen, suits)
        return lowest(ruffs)
    if p.keep_stoppers:
        return _keep_stoppers_discard(legal, hand, unseen, suits)
    return discard_card(legal, hand, unseen, p.discard_to_void, suits)


class ExpertRecord(NamedTuple):
    """What `expert_at` reads besides the turn: the parameters record, the rules' bag limit, the lead model's
    combined weights and its margin (see `spades_lab.policies.leads.model_lead`).

    `lead` is a numpy record whose one field, `combined`, holds the weights: an array inside a record costs
    no reference counting at each call (a plain array in `k` did, at every card the expert played)."""

    p: Any
    bag_limit: int
    lead: Any
    lead_margin: float


def lead_record(combined: np.ndarray) -> Any:
    """`combined` (see `leads.combine_weights`) as the record `ExpertRecord.lead`: a copy, in one field."""
    record = np.zeros(1, dtype=[("combined", np.float64, combined.shape)])
    record["combined"][0] = combined
    return record[0]


@njit(cache=True)
def _expert_card(s: Turn, g: Game, p: Any, bag_limit: int, trumps_out: bool, voids: tuple[int, int, int, int]) -> int:
    """The `expert` decision for one table; `voids` are the relative seats' 4-bit void masks.

    `g.partnered` is False in cutthroat: the seat across is an opponent like left and right. (The lead
    model's weights stay with `expert_at`: an array passed to a compiled call costs reference counting.)
    """
    bids, won, position, hand, legal, suits = s.bids, s.won, s.position, s.hand, s.legal, g.suits
    t = on_trick(s, g)
    if bids[ME] == 0 and p.nil_play:  # the tips' own nil play
        return nil_card(legal, position, t.last, t.best, t.following, s.unseen, suits)
    partnered = g.partnered
    mate_bid = bids[PARTNER] if partnered else -1
    mate_won = won[PARTNER] if partnered else 0
    contract = max(bids[ME], 0) + max(mate_bid, 0)
    contract_tricks = (won[ME] if bids[ME] > 0 else 0) + (mate_won if mate_bid > 0 else 0)
    contract_made = contract > 0 and contract_tricks >= contract
    # more tricks still needed than cards left: the contract is lost, and a set side's tricks score nothing
    contract_lost = p.set_ducks and contract > 0 and contract - contract_tricks > popcount(hand)
    covering = p.nil_coverage and mate_bid == 0 and mate_won == 0

    setting = False
    if (contract_made or contract_lost) and p.keep_setting:
        room = contract_lost or s.bags + contract_tricks - contract < bag_limit
        if partnered:
            their_contract = max(bids[LEFT], 0) + max(bids[RIGHT], 0)
            their_tricks = (won[LEFT] if bids[LEFT] > 0 else 0) + (won[RIGHT] if bids[RIGHT] > 0 else 0)
            short = their_contract - their_tricks
            setting = their_contract > 0 and 0 < short <= popcount(hand) and room  # tricks left: cards held
        else:  # cutthroat: any one opponent still short of its own contract
            for seat in (LEFT, PARTNER, RIGHT):
                short = bids[seat] - won[seat]
                if bids[seat] > 0 and 0 < short <= popcount(hand) and room:
                    setting = True
    ducking = (contract_made or contract_lost) and not setting

    if position == 0:
        if covering and p.safe_coverage:
            card = _safe_coverage_lead(legal, s.unseen, voids[PARTNER], suits)
            if card >= 0:
                return card
        hunted = hunting(s, g)
        if not covering and hunted and p.hunt_nil_by_voids and p.lead_low_against_nil:
            nil_voids = voids[LEFT] if bids[LEFT] == 0 and won[LEFT] == 0 else 0
            nil_voids |= voids[RIGHT] if bids[RIGHT] == 0 and won[RIGHT] == 0 else 0
            nil_voids |= voids[PARTNER] if not partnered and bids[PARTNER] == 0 and won[PARTNER] == 0 else 0
            allowed = legal & ~void_cards(nil_voids, suits)
            if allowed != ZERO and allowed != legal:
                return lead_against_nil(allowed, hand, suits, g.spade_ace)
        card = lead_card(s, g, p, Plan(covering, hunted, contract, ducking, trumps_out))
        if (
            p.short_suit_first and partnered and mate_bid > 0 and bids[ME] > 0 and not hunted
            and not ducking and contract_tricks < contract and popcount(hand) > p.last_tricks
        ):  # fmt: skip
            short = _short_suit_lead(card, legal, hand, s.unseen, suits)
            if short >= 0:
                return short
        return card
    if covering and p.cover_keeps_masters and position == 1 and g.players == 4:  # partner's nil plays last
        card = _cover_cheaply(s, g, t)
        if card >= 0:
            return card
        covering = card == -1  # -2: safe whatever partner holds
    card = nils_then_duck(s, g, p, t, covering, ducking)
    if card >= 0:
        return card
    partner_card = in_order(position - 2, s)
    card = _expert_follow(s, g, p, t, voids[LEFT], contract - contract_tricks)
    if covering and partner_card >= 0 and p.cover_duck:  # partner's nil is already under this trick
        duck = _cover_duck(card, s, g, p, t, voids[PARTNER], contract - contract_tricks)
        if duck >= 0:
            return duck
    return card


@njit(cache=True)
def expert_at(s: Turn, g: Game, k: Any) -> int:
    """The `expert` card of one table (a per-table play function, see `spades_lab.engine.turn`): the tips'
    layout, with the engine's shown voids and the side's bags."""
    p = k.p
    suits, players, partnered, position = g.suits, g.players, g.partnered, s.position
    seat_bids, seat_won, unseen, legal, hand = s.bids, s.won, s.unseen, s.legal, s.hand
    first, second = s.first, s.second
    read = p.read_voids
    # Only the voids a rule reads are looked up: the fourth seat's when third, or second and void, the nil's
    # when leading to or against a live nil, both opponents' for tip 8.
    big_bid = max(seat_bids[ME], 0) + (max(seat_bids[PARTNER], 0) if partnered else 0) >= p.big_bid
    partner_voids = left_voids = right_voids = 0
    if position == 0:
        if big_bid or (read and seat_bids[LEFT] == 0 and seat_won[LEFT] == 0):
            left_voids = seat_voids(s.voids, s.left)
        if big_bid or (read and seat_bids[RIGHT] == 0 and seat_won[RIGHT] == 0):
            right_voids = seat_voids(s.voids, s.right)
        if (read and seat_bids[PARTNER] == 0 and seat_won[PARTNER] == 0) or (big_bid and not partnered):
            partner_voids = seat_voids(s.voids, s.partner)
    elif read and position < players - 1 and _reads_fourth_seat(legal, position, first, second, unseen, p, suits):
        left_voids = seat_voids(s.voids, s.left)
    trumps_out = False
    if position == 0 and big_bid:
        trumps_out = opponents_out_of_trumps(left_voids, right_voids, unseen, suits)
        if not partnered:  # the seat across is an opponent too
            trumps_out = trumps_out and opponents_out_of_trumps(partner_voids, partner_voids, unseen, suits)
    rel = (0, partner_voids, left_voids, right_voids) if read else (0, 0, 0, 0)
    out = _expert_card(s, g, p, k.bag_limit, trumps_out, rel)
    nil_live = False
    for i in range(4):
        nil_live = nil_live or (seat_bids[i] == 0 and seat_won[i] == 0)
    if position == 0 and players == 4 and partnered and read and p.no_master_into_ruff and not nil_live:
        allowed = legal
        left_voids = right_voids = -1
        for _ in range(3):  # at most one suit dropped per side suit
            card = out
            suit = suit_index(card, suits)
            if suit == 3 or unseen_above(card, unseen, suits) != 0:
                break
            if left_voids < 0:
                left_voids = seat_voids(s.voids, s.left)
                right_voids = seat_voids(s.voids, s.right)
            if not (_may_ruff(left_voids, suit, unseen, suits) or _may_ruff(right_voids, suit, unseen, suits)):
                break
            allowed &= ~suits[suit]
            if allowed == ZERO:
                break
            other = _expert_card(with_legal(s, allowed), g, p, k.bag_limit, trumps_out, rel)
            if card_bit(other) & allowed == ZERO:
                break  # a rule that reads the hand, not the legal cards (tip 11): keep its card
            out = other
    if (
        position == 0 and players == 4 and partnered and p.lead_model and not nil_live
        and seat_bids[ME] > 0 and seat_bids[PARTNER] > 0 and seat_won[ME] + seat_won[PARTNER] < seat_bids[ME]
        + seat_bids[PARTNER] and popcount(hand) > p.last_tricks
    ):  # fmt: skip
        seen = (0, seat_voids(s.voids, s.partner), seat_voids(s.voids, s.left), seat_voids(s.voids, s.right))
        lead = Lead(out, hand, legal, unseen, s.trick, seat_bids, seat_won, seen)
        out = model_lead(k.lead.combined, k.lead_margin, lead, suits)
    return out


@njit(cache=True, inline="always")
def _may_ruff(voids: int, suit: int, unseen: np.uint64, suits: SuitMasks) -> bool:
    """Whether a seat with these shown voids may ruff a lead of `suit`: out of it, not shown out of trumps."""
    return (voids >> suit) & 1 == 1 and (voids >> 3) & 1 == 0 and unseen & suits[3] != ZERO


@njit(cache=True, inline="always")
def _reads_fourth_seat(
    legal: np.uint64,
    position: int,
    first: int,
    second: int,
    unseen: np.uint64,
    p: Any,
    suits: SuitMasks,
) -> bool:
    """Whether a rule will read the fourth seat's voids: third seat when partner holds the trick, or an opponent
    does and this seat can beat it in suit (otherwise it plays low or ruffs whatever the fourth seat holds).
    The second seat reads them only when it holds a master of the led suit (`second_seat_master` asks whether
    the fourth seat may ruff it); its choice of ruff does not read them (so its games stay those measured)."""
    if position == 1:
        return bool(p.second_seat_master) and _held_masters(legal, first, unseen, suits) != ZERO
    following = legal & suit_of(first, suits) != ZERO
    partner_holds = not beats(second, first, suits)
    return partner_holds or (following and winners(legal, second, suits) != ZERO)


class ExpertPlay:
    """The `expert` play: the tips plus the additions of `ExpertParams` (see the module docstring).

    The order of the rules is the tips' (`TipsPlay`): own nil, partner's nil, an opponent's nil,
    contract made, then the seat-by-seat play, with each addition at its place in that order.
    """

    def __init__(self, params: ExpertParams, weights: np.ndarray | None = None) -> None:
        """`weights` replace the shipped lead-model weights named by `lead_weights` (for fitting them)."""
        self.params = params
        self.name = "expert"
        self.params_record = params_record(params)
        shipped = lead_weights(params.lead_weights)  # an unknown name is refused even while lead_model is off
        self.weights = shipped if weights is None else np.array(weights, dtype=np.float64)
        self.lead = lead_record(combine_weights(self.weights))  # what the kernel reads (`leads.model_lead`)

    def compiled_play(self, rules: Rules) -> tuple[Any, Any]:
        """The per-table play function and its record (parameters, the rules' bag limit, the lead model)."""
        threshold = rules.bag_threshold if rules.bag_penalty_enabled else NO_PENALTY
        bag_limit = threshold - self.params.bag_margin
        return expert_at, ExpertRecord(self.params_record, bag_limit, self.lead, float(self.params.lead_margin))

    def play(self, view: PlayView) -> np.ndarray:
        fn, k = self.compiled_play(view.rules)
        return play_turns(fn, k, view)
