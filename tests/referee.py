"""Independent reference referee for Spades: 4-player partnership Spades, every variant, and Duel.

Why this file exists: the spades_lab engine plays hands in numpy batches, and a
batch engine is easy to get subtly wrong (an off-by-one in the leader, a spade
"broken" one trick too early, a bag penalty applied twice). This module replays
a hand record (RECORDS.md format) card by card with deliberately plain Python,
written from RULES.md alone, and says exactly where a record disagrees with the
rules. It must never import spades_lab: an independent check that shares code
with the thing it checks is not independent.

Variants (RULES.md "Variants" and "Two-player Duel"), each a field of the rules dict:
    players 2 (Duel: a draft from the stock, per-player scores), deck jokers /
    jokers-2d (trump order as data), first_lead two_of_clubs / lowest_clubs,
    first_bidder, blind_nil (+ value, trail condition, exchange), big_contract
    (10-for-200), max_team_contract, min_team_contract, nil_tricks_to_partner; and the house variants:
    spades_break (off: spades may be led at any time), bid_rule suicide / whiz / mirror, moon
    ("off", "win" or a number of points), nil_exchange (cards passed each way with a plain nil),
    zero_bid "plain" (RULES.md's minimum-bid variant: 0 is a plain bid, not nil), blind_bids (a number
    of at least blind_bids bid before seeing the cards, allowed while trailing by blind_bid_trail,
    flagged in `blind` like a blind nil; its side's contract scores double, made or set);
    partnerships False (cutthroat: "four players, each for themselves: contracts,
    scores, bags, nil and the target per player"): every seat is its own side, so every per-side
    field has four entries, there are no partner exchanges and no side contract limits, a game ends
    when a player reaches the target with the highest total alone (a tie for the top plays on), and
    blind nil / blind bid trails are measured against the best other player;
    players 3 (three players: "three players, 17 cards each with the 2 of clubs removed,
    each for themselves; the seat left of the dealer leads"): 17 tricks a hand, three sides of one
    seat each (scored as cutthroat's), the deck of 51 cards, a moon is all 17 tricks, and a bid may
    go up to the 17 tricks there are (min_bid..max_bid; no bid anywhere exceeds the tricks of a hand).
A rules dict may omit any field: DEFAULT_RULES fills it in.

Public interface (the engine tests call exactly these):
    RefereeError, score_hand, check_record, check_game, DEFAULT_RULES.
"""

from __future__ import annotations

from typing import Any

RANKS = "23456789TJQKA"  # lowest to highest; the index is the rank's strength
SUITS = "CDHS"
SPADES = "S"  # the trump suit; promoted deuces and jokers belong to it
CLUBS = "C"
SEATS = 4
TRICKS_PER_HAND = 13
THREE_PLAYER_TRICKS = 17
THREE_PLAYER_OUT = "2C"  # the card removed from the three-player deck


def tricks_per_hand(players: int) -> int:
    """13 tricks, or 17 with three players (51 cards: the 2 of clubs removed)."""
    return THREE_PLAYER_TRICKS if players == 3 else TRICKS_PER_HAND


FULL_DECK = frozenset(rank + suit for suit in SUITS for rank in RANKS)
JOKER_CARDS = ("BJ", "LJ")

# RULES.md "jokers and deuces": the trump block strongest first, and the cards taken out so that the
# deck still holds 52. The 2-of-diamonds alternative is the same list with 2D promoted instead of 2C.
_SPADES_ACE_TO_3 = [rank + SPADES for rank in reversed(RANKS[1:])]
TRUMP_ORDERS: dict[str, list[str]] = {
    "standard": [rank + SPADES for rank in reversed(RANKS)],
    "jokers": ["BJ", "LJ", "2C", "2S", *_SPADES_ACE_TO_3],
    "jokers-2d": ["BJ", "LJ", "2D", "2S", *_SPADES_ACE_TO_3],
}
REMOVED: dict[str, tuple[str, ...]] = {"standard": (), "jokers": ("2H", "2D"), "jokers-2d": ("2H", "2C")}

# The default rules of RULES.md, as the fields the referee understands.
DEFAULT_RULES: dict[str, Any] = {
    "players": 4,
    "partnerships": True,
    "deck": "standard",
    "first_lead": "left_of_dealer",
    "first_bidder": "left_of_dealer",
    "target": 500,
    "hand_cap": None,
    "mercy": False,
    "mercy_threshold": -200,
    "trick_value": 10,
    "bag_value": 1,
    "bag_penalty_enabled": True,
    "bag_threshold": 10,
    "bag_penalty": 100,
    "nil_value": 100,
    "nil_tricks_as_bags": True,
    "min_bid": 1,
    "max_bid": 13,
    "blind_nil": False,
    "blind_nil_value": 200,
    "blind_nil_trail": 0,
    "blind_nil_exchange": 0,
    "big_contract": None,
    "big_contract_value": 200,
    "max_team_contract": None,
    "min_team_contract": 0,
    "nil_tricks_to_partner": False,
    "spades_break": True,
    "bid_rule": "free",
    "moon": "off",
    "nil_exchange": 0,
    "zero_bid": "nil",
    "blind_bids": None,
    "blind_bid_trail": 0,
}


class RefereeError(Exception):
    """A record disagrees with the rules; the message names the field or play."""


# --------------------------------------------------------------------------- cards and decks


class RefDeck:
    """The 52 cards of a deck and, for each, the suit it belongs to in play and its strength there.

    A card listed in the trump order (every spade, plus jokers and a promoted deuce) belongs to
    the trump suit for following suit, breaking spades and winning tricks; its strength is its
    place in that list. Any other card keeps its printed suit and ranks 2 (low) .. A (high).
    """

    def __init__(self, name: str) -> None:
        if name not in TRUMP_ORDERS:
            raise ValueError(f"unknown deck {name!r}; the referee knows {', '.join(TRUMP_ORDERS)}")
        self.name = name
        self.trump_order = list(TRUMP_ORDERS[name])
        removed = set(REMOVED[name])
        cards = {c for c in FULL_DECK if c not in removed} | set(self.trump_order)
        if len(cards) != 52:
            raise ValueError(f"deck {name!r} holds {len(cards)} cards, not 52")
        self.cards = frozenset(cards)
        self._trump_strength = {c: len(self.trump_order) - i for i, c in enumerate(self.trump_order)}
        self._suit = {c: SPADES if c in self._trump_strength else c[1] for c in self.cards}

    def suit(self, card: str) -> str:
        """The suit a card belongs to in play: the trump suit for every trump."""
        return self._suit[card]

    def strength(self, card: str) -> int:
        """Order of cards within the suit they belong to (higher wins)."""
        if card in self._trump_strength:
            return self._trump_strength[card]
        return RANKS.index(card[0])


STANDARD = RefDeck("standard")


def deck_named(name: str) -> RefDeck:
    return STANDARD if name == "standard" else RefDeck(name)


def normalise_card(card: Any, where: str, deck: RefDeck = STANDARD) -> str:
    """Return the canonical two-character form of a card ("10h" -> "TH").

    RECORDS.md says readers also accept "10H" and lower case, so the referee
    accepts them too rather than failing a record on spelling alone. A card
    the deck does not hold (a joker in the standard deck, 2H in the jokers
    deck) is rejected.
    """
    if not isinstance(card, str):
        raise RefereeError(f"{where}: card {card!r} is not a string")
    if card in deck.cards:  # already canonical: the common case
        return card
    text = card.strip().upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    if text not in deck.cards:
        raise RefereeError(f"{where}: {card!r} is not a card of the {deck.name} deck")
    return text


def suit_of(card: str, deck: RefDeck = STANDARD) -> str:
    """Suit a canonical card belongs to in play."""
    return deck.suit(card)


def rank_of(card: str, deck: RefDeck = STANDARD) -> int:
    """Strength of a canonical card within its suit (standard deck: 2 -> 0, ace -> 12)."""
    return deck.strength(card)


def trick_winner_index(cards: list[str], deck: RefDeck = STANDARD) -> int:
    """Index (in play order) of the card that wins a complete trick.

    RULES.md: the highest trump wins; with no trump, the highest card of the
    suit led. Cards of other suits can never win.
    """
    led = deck.suit(cards[0])
    trumps = [i for i, c in enumerate(cards) if deck.suit(c) == SPADES]
    candidates = trumps if trumps else [i for i, c in enumerate(cards) if deck.suit(c) == led]
    return max(candidates, key=lambda i: deck.strength(cards[i]))


def legal_cards(
    held: set[str] | list[str], trick: list[str], broken: bool, deck: RefDeck = STANDARD, first_lead: str | None = None
) -> tuple[set[str], str]:
    """(the cards a seat may play, the reason) for a seat holding `held` with `trick` on the table.

    `first_lead` is the rules' first_lead, given for the first trick only:
    - two_of_clubs: the leader must lead 2C (the caller checks that the leader holds it);
    - lowest_clubs: every seat plays its lowest club; a seat with no club plays any card.
    Otherwise: follow the suit led if possible, else anything; a leader may not lead a trump
    before trumps are broken unless it holds nothing else.
    """
    held = set(held)
    if first_lead == "lowest_clubs":
        clubs = [c for c in held if deck.suit(c) == CLUBS]
        if clubs:
            return {min(clubs, key=deck.strength)}, "must play its lowest club on the first trick"
        return held, ""
    if not trick:
        if first_lead == "two_of_clubs":
            return {"2C"} & held, "must lead the 2 of clubs to the first trick"
        if broken:
            return held, ""
        side = {c for c in held if deck.suit(c) != SPADES}
        if side:
            return side, "may not lead a spade (trump) before spades are broken while holding other suits"
        return held, ""
    led = deck.suit(trick[0])
    follow = {c for c in held if deck.suit(c) == led}
    if follow:
        return follow, f"must follow suit {led} (it holds one)"
    return held, ""


# --------------------------------------------------------------------------- scoring


def partnership_of(seat: int) -> int:
    """Seats 0+2 are partnership 0, seats 1+3 partnership 1 (in Duel, seat s is side s)."""
    return seat % 2


def side_seats(players: int, partnerships: bool = True) -> list[list[int]]:
    """The seats of each side: two partnerships, or every player alone (Duel, cutthroat)."""
    if players == 4 and partnerships:
        return [[0, 2], [1, 3]]
    return [[s] for s in range(players)]


def side_of(seat: int, rules: dict) -> int:
    """The side a seat scores for: its partnership, or the seat itself where each plays for itself."""
    for side, seats in enumerate(side_seats(rules["players"], rules["partnerships"])):
        if seat in seats:
            return side
    raise ValueError(f"seat {seat} is at no side")


def trailing_by(score_before: list[int], side: int) -> int:
    """How far a side is behind the best of the other sides (with two sides: the other one)."""
    return max(score for other, score in enumerate(score_before) if other != side) - score_before[side]


def score_hand(
    rules: dict, bids: list[int], tricks: list[int], bags_before: list[int], blind: list[bool] | None = None
) -> tuple[list[int], list[int]]:
    """Score one hand: returns (hand_score per side, bags_after per side).

    4 bids: partnerships of seats 0+2 and 1+3 (partnerships False, cutthroat: four sides of one
    seat each); 2 bids: Duel, each player its own side. bags_before has one entry per side.
    Follows RULES.md "Default scoring" and its variants, with every number taken from `rules`:
    - contract = sum of the side's non-nil bids; contract tricks = the tricks of its
      non-nil bidders (a nil bidder's tricks never help the partner), unless
      nil_tricks_to_partner: then every trick of the side counts toward the contract
      and a failed nil's tricks are not also nil bags;
    - a side where every bidder bid nil has no contract: nothing made or set, no overtricks,
      and its tricks follow nil_tricks_as_bags even with nil_tricks_to_partner;
    - made: +trick_value * contract (big_contract_value instead when big_contract is set
      and the contract is at least big_contract) + bag_value per overtrick, overtricks are bags;
      set: minus that value, nothing for the tricks;
    - each nil on its own: +nil_value if it took no trick, -nil_value otherwise
      (blind nil: blind_nil_value);
    - a nil bidder's tricks are bags worth bag_value each if nil_tricks_as_bags,
      otherwise ignored;
    - a blind number bid (a blind flag on a bid that is not nil) doubles its side's contract
      value, made or set;
    - zero_bid "plain": a 0 is an ordinary contract of no tricks, never a nil (a side bidding
      0 + 0 makes its contract of 0 and every trick is a bag);
    - moon set to a number: a side that took all 13 tricks scores that number for the hand
      instead of all the above, and takes no bags;
    - bags accumulate; while the penalty is enabled and bags >= bag_threshold:
      -bag_penalty and bag_threshold bags removed (the excess carries over).
    The returned hand_score already includes any bag penalty of this hand.
    """
    rules = {**DEFAULT_RULES, **rules}
    players = len(bids)
    sides = side_seats(players, rules["partnerships"])
    if players not in (2, 3, 4) or len(tricks) != players or len(bags_before) != len(sides):
        raise ValueError("score_hand needs 4 (or 3, or in Duel 2) bids and trick counts and one bag count per side")
    if blind is None:
        blind = [False] * players
    if len(blind) != players:
        raise ValueError("score_hand needs one blind flag per seat")
    if rules["bag_penalty_enabled"] and rules["bag_threshold"] <= 0:
        raise ValueError("bag_threshold must be positive when the bag penalty is enabled")

    hand_score = [0] * len(sides)
    bags_after = [0] * len(sides)
    for side, seats in enumerate(sides):
        score = 0
        new_bags = 0

        plain_zero = rules["zero_bid"] == "plain"  # a 0 is an ordinary contract of no tricks; no nil
        is_nil = [bids[s] == 0 and not plain_zero for s in range(players)]
        contract = sum(bids[s] for s in seats if not is_nil[s])
        if plain_zero:
            contract_tricks = sum(tricks[s] for s in seats)
        elif rules["nil_tricks_to_partner"]:
            contract_tricks = sum(tricks[s] for s in seats)
        else:
            contract_tricks = sum(tricks[s] for s in seats if bids[s] != 0)
        value = rules["trick_value"] * contract
        if rules["big_contract"] is not None and contract >= rules["big_contract"]:
            value = rules["big_contract_value"]
        if any(blind[s] and not is_nil[s] for s in seats):
            value *= 2  # a blind number bid: the side's contract counts double, made or set
        if contract == 0 and not plain_zero:
            pass  # both bid nil: no contract to make or miss, and no partner contract to take the tricks
        elif contract_tricks >= contract:
            overtricks = contract_tricks - contract
            score += value + rules["bag_value"] * overtricks
            new_bags += overtricks
        else:
            score -= value

        for s in seats:
            if not is_nil[s]:
                continue
            worth = rules["blind_nil_value"] if blind[s] else rules["nil_value"]
            score += worth if tricks[s] == 0 else -worth
            if rules["nil_tricks_as_bags"] and (contract == 0 or not rules["nil_tricks_to_partner"]):
                score += rules["bag_value"] * tricks[s]
                new_bags += tricks[s]

        if sum(tricks[s] for s in seats) == tricks_per_hand(players) and not isinstance(rules["moon"], str):
            # moon: a side taking all 13 tricks scores the moon value instead of this hand's points
            score, new_bags = rules["moon"], 0
        bags = bags_before[side] + new_bags
        if rules["bag_penalty_enabled"]:
            while bags >= rules["bag_threshold"]:
                score -= rules["bag_penalty"]
                bags -= rules["bag_threshold"]
        hand_score[side] = score
        bags_after[side] = bags
    return hand_score, bags_after


def game_result(
    rules: dict, score_after: list[int], hands_played: int, tricks_per_side: list[int] | None = None
) -> tuple[bool, int | None, bool]:
    """Decide (game_over, winner, unfinished) once a hand has been scored.

    The game ends if a side reached the target, or (mercy on) a side is at or
    below mercy_threshold; the higher total wins and equal totals play on. With more than two
    sides (cutthroat) the highest total must be one side's alone; a tie for the top plays on.
    With moon "win", a side that took all 13 tricks of this hand (`tricks_per_side`) wins at once.
    If it has not ended and hands_played reached hand_cap, it stops unfinished:
    never a win for anyone.
    """
    rules = {**DEFAULT_RULES, **rules}
    every = tricks_per_hand(rules["players"])
    if rules["moon"] == "win" and tricks_per_side is not None and every in tricks_per_side:
        return True, tricks_per_side.index(every), False
    ended = any(s >= rules["target"] for s in score_after)
    if rules["mercy"]:
        ended = ended or any(s <= rules["mercy_threshold"] for s in score_after)
    top = max(score_after)
    if ended and score_after.count(top) == 1:
        return True, score_after.index(top), False
    cap = rules["hand_cap"]
    if cap is not None and hands_played >= cap:
        return False, None, True
    return False, None, False


# --------------------------------------------------------------------------- record checks


def _field(record: dict, name: str) -> Any:
    """Fetch a required field, failing with its name rather than a KeyError."""
    if name not in record:
        raise RefereeError(f"{name}: missing from the record")
    return record[name]


def _is_int(value: Any) -> bool:
    """True for a plain int (JSON true/false must not pass as 1/0)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _int_pair(record: dict, name: str, sides: int = 2) -> list[int]:
    """A per-side field: a list of one int per side (two, or four in cutthroat)."""
    value = _field(record, name)
    if not isinstance(value, (list, tuple)) or len(value) != sides or not all(_is_int(v) for v in value):
        raise RefereeError(f"{name}: expected {sides} integers (one per side), got {value!r}")
    return list(value)


def _check_hands(record: dict, name: str, deck: RefDeck, players: int) -> list[set[str]]:
    """`deal`/`hands`: disjoint 13-card hands, one per seat; with 4 seats together the whole deck."""
    value = _field(record, name)
    if not isinstance(value, (list, tuple)) or len(value) != players:
        raise RefereeError(f"{name}: expected {players} hands, got {value!r}")
    hands: list[set[str]] = []
    seen: set[str] = set()
    for seat, cards in enumerate(value):
        if not isinstance(cards, (list, tuple)) or len(cards) != tricks_per_hand(players):
            raise RefereeError(f"{name}[{seat}]: expected {tricks_per_hand(players)} cards, got {cards!r}")
        hand: set[str] = set()
        for card in cards:
            c = normalise_card(card, f"{name}[{seat}]", deck)
            if c in seen:
                raise RefereeError(f"{name}[{seat}]: card {c} appears twice in the {name}")
            seen.add(c)
            hand.add(c)
        hands.append(hand)
    if players == 4 and seen != deck.cards:  # 52 distinct valid cards is the deck, but say what is missing if not
        raise RefereeError(f"{name}: missing cards {sorted(deck.cards - seen)}")
    if players == 3 and seen != deck.cards - {THREE_PLAYER_OUT}:  # 51 cards: the whole deck but the 2 of clubs
        raise RefereeError(f"{name}: three players hold every card but {THREE_PLAYER_OUT}, got {sorted(seen)}")
    return hands


def _check_draft(record: dict, dealer: int, deal: list[set[str]], deck: RefDeck) -> None:
    """Duel: 26 turns alternating from the non-dealer over a 52-card stock; they build `deal`.

    Each turn [seat, "keep" | "discard", top, next]: keep takes the top card and discards the
    next one; discard throws the top card away and takes the next one, whatever it is.
    """
    draft = _field(record, "draft")
    if not isinstance(draft, (list, tuple)) or len(draft) != 26:
        count = len(draft) if isinstance(draft, (list, tuple)) else draft
        raise RefereeError(f"draft: expected 26 turns (13 each), got {count!r}")
    built: list[set[str]] = [set(), set()]
    drawn: set[str] = set()
    for turn, entry in enumerate(draft):
        where = f"draft[{turn}]"
        if not isinstance(entry, (list, tuple)) or len(entry) != 4 or not _is_int(entry[0]):
            raise RefereeError(f"{where}: expected [seat, 'keep' | 'discard', top, next], got {entry!r}")
        seat, choice = entry[0], entry[1]
        expected = (dealer + 1 + turn) % 2
        if seat != expected:
            raise RefereeError(f"{where}: seat {seat} draws, but seat {expected} is to draw (the non-dealer first)")
        if choice not in ("keep", "discard"):
            raise RefereeError(f"{where}: choice {choice!r} is neither 'keep' nor 'discard'")
        top = normalise_card(entry[2], where, deck)
        nxt = normalise_card(entry[3], where, deck)
        for card in (top, nxt):
            if card in drawn:
                raise RefereeError(f"{where}: {card} was already drawn from the stock")
            drawn.add(card)
        built[seat].add(top if choice == "keep" else nxt)
    for seat in (0, 1):
        if built[seat] != deal[seat]:
            raise RefereeError(
                f"draft: builds {sorted(built[seat])} for seat {seat}, but deal[{seat}] is {sorted(deal[seat])}"
            )


def _check_blind(record: dict, rules: dict, players: int, score_before: list[int]) -> list[bool]:
    """`blind`: one flag per seat; a blind nil needs the rules, 4 players and (if set) a large enough deficit."""
    blind = record.get("blind")
    if blind is None:
        return [False] * players
    if not isinstance(blind, (list, tuple)) or len(blind) != players or not all(isinstance(b, bool) for b in blind):
        raise RefereeError(f"blind: expected {players} true/false flags, got {blind!r}")
    raw_bids = record.get("bids")
    for seat, flag in enumerate(blind):
        if not flag:
            continue
        if players == 2:
            raise RefereeError(f"blind[{seat}]: Duel has no blind nil")
        bid = raw_bids[seat] if isinstance(raw_bids, (list, tuple)) and len(raw_bids) == players else 0
        if _is_int(bid) and bid != 0:
            _check_blind_number(seat, bid, rules, score_before)
            continue
        if not rules["blind_nil"]:
            raise RefereeError(f"blind[{seat}]: {blind!r} but these rules have no blind nil")
        deficit = trailing_by(score_before, side_of(seat, rules))
        trail = rules["blind_nil_trail"]
        if trail > 0 and deficit < trail:
            raise RefereeError(
                f"blind[{seat}]: blind nil while the side trails by {deficit} (score_before {score_before}),"
                f" but the rules allow it only when trailing by at least {trail}"
            )
    return list(blind)


def _check_blind_number(seat: int, bid: int, rules: dict, score_before: list[int]) -> None:
    """A blind number bid: the rules must allow them, the number must reach blind_bids, the side must trail enough."""
    least = rules["blind_bids"]
    if least is None:
        raise RefereeError(f"blind[{seat}]: blind bid of {bid} but these rules have no blind bids")
    if bid < least:
        raise RefereeError(f"blind[{seat}]: blind bid of {bid}, below the blind minimum {least}")
    deficit = trailing_by(score_before, side_of(seat, rules))
    trail = rules["blind_bid_trail"]
    if trail > 0 and deficit < trail:
        raise RefereeError(
            f"blind[{seat}]: blind bid while the side trails by {deficit} (score_before {score_before}),"
            f" but the rules allow it only when trailing by at least {trail}"
        )


def _check_bids(
    record: dict,
    rules: dict,
    players: int,
    blind: list[bool],
    deal: list[set[str]] | None = None,
    deck: RefDeck = STANDARD,
) -> list[int]:
    """`bids`: one per seat, each nil (0) or min_bid..max_bid, never above the tricks of a hand (13; 17 with
    three players: bids 14..17 are legal there when max_bid allows them); a blind nil is a nil; side contract limits;
    the bid rule (suicide, whiz, mirror) judged on the dealt cards."""
    bids = _field(record, "bids")
    if not isinstance(bids, (list, tuple)) or len(bids) != players:
        raise RefereeError(f"bids: expected {players} bids, got {bids!r}")
    for seat, bid in enumerate(bids):
        if not _is_int(bid) or not (bid == 0 or rules["min_bid"] <= bid <= rules["max_bid"]):
            raise RefereeError(
                f"bids[{seat}]: {bid!r} is neither nil (0) nor in {rules['min_bid']}..{rules['max_bid']}"
            )
        if bid > tricks_per_hand(players):
            # nobody can bid more tricks than a hand has: 13, or 17 with three players (whatever max_bid says)
            raise RefereeError(f"bids[{seat}]: {bid} is more than the {tricks_per_hand(players)} tricks of a hand")
        if blind[seat] and bid != 0 and (rules["blind_bids"] is None or bid < rules["blind_bids"]):
            raise RefereeError(f"bids[{seat}]: {bid} but blind[{seat}] marks a blind nil")
    _check_bid_rule(bids, rules, players, deal, deck)
    if players == 4 and not rules["partnerships"]:
        # cutthroat: no side contract; a limit on one would need a partner to share it
        if rules["max_team_contract"] is not None or rules["min_team_contract"]:
            raise ValueError("side contract limits need partnerships; these rules have none")
    elif players == 4:
        # Nil counts 0. The cap binds every bid; the minimum binds the second partner to bid, and
        # once both have bid that is exactly "the side's sum is at least the minimum".
        for side, seats in enumerate(side_seats(players)):
            total = sum(bids[s] for s in seats)
            cap = rules["max_team_contract"]
            if cap is not None and total > cap:
                raise RefereeError(
                    f"bids: side {side} bids {[bids[s] for s in seats]}, more than max_team_contract {cap}"
                )
            if total < rules["min_team_contract"]:
                raise RefereeError(
                    f"bids: side {side} bids {[bids[s] for s in seats]},"
                    f" less than min_team_contract {rules['min_team_contract']}"
                )
    return list(bids)


def _check_bid_rule(bids: list[int], rules: dict, players: int, deal: list[set[str]] | None, deck: RefDeck) -> None:
    """The bid rules, from their text:
    - suicide: in each partnership exactly one partner bids nil and the other at least 4;
    - whiz: every bid is nil or the number of spades (trumps) the bidder was dealt;
    - mirror: every bid is exactly that number (no spades: nil).
    """
    rule = rules["bid_rule"]
    if rule == "free":
        return
    if rule == "suicide":
        if players != 4 or not rules["partnerships"]:
            raise ValueError("suicide is a rule of partnerships; these rules have none")
        for side, seats in enumerate(side_seats(players)):
            pair = [bids[s] for s in seats]
            nils = [b for b in pair if b == 0]
            if len(nils) != 1 or max(pair) < 4:
                raise RefereeError(
                    f"bids: side {side} bids {pair}; suicide needs exactly one nil and one bid of 4 or more"
                )
        return
    if deal is None:
        raise ValueError(f"bid_rule {rule!r} needs the deal to count spades")
    for seat, bid in enumerate(bids):
        spades = sum(1 for c in deal[seat] if deck.suit(c) == SPADES)
        if bid != spades and not (rule == "whiz" and bid == 0):
            allowed = f"nil or {spades}" if rule == "whiz" else f"{spades}"
            raise RefereeError(
                f"bids[{seat}]: {bid} under {rule}, but seat {seat} holds {spades} spades; allowed {allowed}"
            )


def _apply_exchange(
    record: dict, rules: dict, deal: list[set[str]], blind: list[bool], deck: RefDeck, bids: list[int] | None = None
) -> list[set[str]]:
    """Replay `exchange` on the deal and return the hands it leaves.

    RULES.md: after declaring blind nil, the bidder and its partner exchange `blind_nil_exchange`
    cards each way; no exchange when both partners bid blind nil. nil_exchange: a side
    with exactly one nil bidder, not blind, exchanges nil_exchange cards each way the same way
    (none when both partners bid nil, blind or not). Records list the partner's
    passes before the blind bidder's passes back; a pass must be a card its giver holds at that
    moment (so the bidder may pass back a card it has just received).
    """
    exchange = record.get("exchange") or []
    if not rules["partnerships"]:
        if exchange:
            raise RefereeError(f"exchange: {exchange!r} but each plays for itself: there is no partner to pass to")
        return [set(h) for h in deal]
    blind_k = rules["blind_nil_exchange"] if rules["blind_nil"] else 0
    cards_of: dict[int, int] = {}  # side -> cards passed each way
    if not isinstance(exchange, (list, tuple)):
        raise RefereeError(f"exchange: expected a list of [from_seat, to_seat, card], got {exchange!r}")
    bidder_of: dict[int, int] = {}  # side -> its single (blind or plain) nil bidder, for sides that exchange
    for side, seats in enumerate(side_seats(SEATS)):
        nils = [s for s in seats if bids is not None and bids[s] == 0]
        blinds = [s for s in seats if blind[s] and (bids is None or bids[s] == 0)]  # blind nils
        if blind_k and len(blinds) == 1:
            bidder_of[side], cards_of[side] = blinds[0], blind_k
        elif rules["nil_exchange"] and len(nils) == 1 and not blinds:
            bidder_of[side], cards_of[side] = nils[0], rules["nil_exchange"]
    held = [set(h) for h in deal]
    to_bidder = {side: 0 for side in bidder_of}
    to_partner = {side: 0 for side in bidder_of}
    for i, entry in enumerate(exchange):
        where = f"exchange[{i}]"
        if not isinstance(entry, (list, tuple)) or len(entry) != 3 or not (_is_int(entry[0]) and _is_int(entry[1])):
            raise RefereeError(f"{where}: expected [from_seat, to_seat, card], got {entry!r}")
        giver, taker = entry[0], entry[1]
        if not 0 <= giver < SEATS or taker != (giver + 2) % SEATS:
            raise RefereeError(f"{where}: seat {giver} passes to seat {taker}, but passes go to the partner")
        side = partnership_of(giver)
        if side not in bidder_of:
            raise RefereeError(
                f"{where}: seat {giver} passes a card, but its side has no exchange"
                f" (blind {blind!r}, bids {bids!r}, blind_nil_exchange {blind_k}, nil_exchange {rules['nil_exchange']})"
            )
        k = cards_of[side]
        card = normalise_card(entry[2], where, deck)
        if giver != bidder_of[side]:
            if to_bidder[side] >= k or to_partner[side]:
                raise RefereeError(f"{where}: seat {giver} passes a card out of turn (the partner passes {k} first)")
            to_bidder[side] += 1
        else:
            if to_bidder[side] < k or to_partner[side] >= k:
                raise RefereeError(f"{where}: nil bidder {giver} passes back out of turn (after receiving {k})")
            to_partner[side] += 1
        if card not in held[giver]:
            raise RefereeError(f"{where}: seat {giver} passes {card}, which it does not hold")
        held[giver].remove(card)
        held[taker].add(card)
    for side, bidder in bidder_of.items():
        k = cards_of[side]
        if to_bidder[side] != k or to_partner[side] != k:
            raise RefereeError(
                f"exchange: nil bidder {bidder} and its partner must pass {k} card(s) each way,"
                f" the record has {to_bidder[side]} and {to_partner[side]}"
            )
    return held


def _first_leader(rules: dict, hands: list[set[str]], dealer: int, players: int) -> int:
    """Left of the dealer (in Duel: the non-dealer), or the holder of 2C under two_of_clubs."""
    if rules["first_lead"] == "two_of_clubs":
        holders = [s for s in range(players) if "2C" in hands[s]]
        if len(holders) != 1:
            raise RefereeError(f"hands: first_lead two_of_clubs but 2C is held by {holders}")
        return holders[0]
    return (dealer + 1) % players


def _replay_plays(
    record: dict, hands: list[set[str]], dealer: int, rules: dict | None = None, deck: RefDeck = STANDARD
) -> list[int]:
    """Replay `plays` trick by trick; return the tricks won per seat.

    Checks, for every play: the right seat (left of the dealer leads the first
    trick, or the holder of 2C under two_of_clubs; then clockwise; the previous
    trick's winner leads the next), the card is held by that seat, the
    first-trick variant, suit is followed when possible, and spades (trumps)
    are not led before they are broken (a trump played in an earlier trick)
    unless the leader holds nothing but trumps.
    """
    rules = {**DEFAULT_RULES, **(rules or {})}
    players = len(hands)
    plays = _field(record, "plays")
    tricks = tricks_per_hand(players)
    if not isinstance(plays, (list, tuple)) or len(plays) != players * tricks:
        count = len(plays) if isinstance(plays, (list, tuple)) else plays
        raise RefereeError(f"plays: expected {players * tricks} plays, got {count!r}")

    held = [set(h) for h in hands]  # copies: cards leave as they are played
    tricks_won = [0] * players
    leader = _first_leader(rules, hands, dealer, players)
    spades_broken = not rules["spades_break"]  # spades_break off: a spade may be led at any time
    for trick in range(tricks):
        trick_cards: list[str] = []
        first = rules["first_lead"] if trick == 0 else None
        for position in range(players):
            index = trick * players + position
            entry = plays[index]
            where = f"plays[{index}] (trick {trick}, play {position})"
            if not isinstance(entry, (list, tuple)) or len(entry) != 2 or not _is_int(entry[0]):
                raise RefereeError(f"{where}: expected [seat, card], got {entry!r}")
            seat = entry[0]
            card = normalise_card(entry[1], where, deck)
            expected_seat = (leader + position) % players
            if seat != expected_seat:
                raise RefereeError(f"{where}: {card} played by seat {seat}, but seat {expected_seat} is to play")
            if card not in held[seat]:
                raise RefereeError(f"{where}: seat {seat} plays {card}, which it does not hold")
            allowed, reason = legal_cards(held[seat], trick_cards, spades_broken, deck, first)
            if card not in allowed:
                raise RefereeError(f"{where}: seat {seat} plays {card} but {reason}; allowed {sorted(allowed)}")
            held[seat].remove(card)
            trick_cards.append(card)

        winner = (leader + trick_winner_index(trick_cards, deck)) % players
        tricks_won[winner] += 1
        # Broken from the NEXT trick on: a trump in this trick does not license a trump lead within it.
        if any(deck.suit(c) == SPADES for c in trick_cards):
            spades_broken = True
        leader = winner
    return tricks_won


def check_record(record: dict, rules: dict) -> None:
    """Replay one hand record and raise RefereeError at the first disagreement.

    `rules` is the rules dict to judge by (missing fields take DEFAULT_RULES);
    record["rules"] (a dict or a preset name) is ignored so the caller decides
    what the record is held to. Fields not in RECORDS.md are ignored.
    """
    rules = {**DEFAULT_RULES, **rules}
    if not isinstance(record, dict):
        raise RefereeError(f"record: expected a dict, got {type(record).__name__}")
    players = rules["players"]
    if players not in (2, 3, 4):
        raise ValueError(f"rules players = {players!r}: the referee knows 4-player Spades, three players and Duel")
    deck = deck_named(rules["deck"])

    if "players" in record and record["players"] != players:
        raise RefereeError(f"players: expected {players}, got {record['players']!r}")
    hand_no = _field(record, "hand")
    if not _is_int(hand_no) or hand_no < 0:
        raise RefereeError(f"hand: expected a hand number >= 0, got {hand_no!r}")
    dealer = _field(record, "dealer")
    if not _is_int(dealer) or not 0 <= dealer < players:
        raise RefereeError(f"dealer: expected a seat 0..{players - 1}, got {dealer!r}")
    n_sides = len(side_seats(players, rules["partnerships"]))
    score_before = _int_pair(record, "score_before", n_sides)
    bags_before = _int_pair(record, "bags_before", n_sides)

    deal = _check_hands(record, "deal", deck, players)
    if players == 2:
        _check_draft(record, dealer, deal, deck)
    elif record.get("draft"):
        raise RefereeError(f"draft: {record['draft']!r} but only Duel drafts")
    blind = _check_blind(record, rules, players, score_before)
    bids = _check_bids(record, rules, players, blind, deal, deck)

    expected_hands = _apply_exchange(record, rules, deal, blind, deck, bids) if players == 4 else deal
    if players == 3 and record.get("exchange"):
        raise RefereeError(f"exchange: {record['exchange']!r} but three players have no partners to pass to")
    hands = _check_hands(record, "hands", deck, players)
    for seat in range(players):
        if hands[seat] != expected_hands[seat]:
            raise RefereeError(
                f"hands[{seat}]: {sorted(hands[seat])} but the deal after the exchange gives {sorted(expected_hands[seat])}"
            )
    tricks = _replay_plays(record, hands, dealer, rules, deck)

    claimed_tricks = _field(record, "tricks")
    if not isinstance(claimed_tricks, (list, tuple)) or list(claimed_tricks) != tricks:
        raise RefereeError(f"tricks: record says {claimed_tricks!r}, replay gives {tricks}")

    hand_score, bags_after = score_hand(rules, bids, tricks, bags_before, blind)
    if _int_pair(record, "hand_score", n_sides) != hand_score:
        raise RefereeError(f"hand_score: record says {record['hand_score']!r}, rules give {hand_score}")
    score_after = [score_before[t] + hand_score[t] for t in range(n_sides)]
    if _int_pair(record, "score_after", n_sides) != score_after:
        raise RefereeError(f"score_after: record says {record['score_after']!r}, expected {score_after}")
    if _int_pair(record, "bags_after", n_sides) != bags_after:
        raise RefereeError(f"bags_after: record says {record['bags_after']!r}, rules give {bags_after}")

    per_side = [sum(tricks[s] for s in seats) for seats in side_seats(players, rules["partnerships"])]
    game_over, winner, unfinished = game_result(rules, score_after, hand_no + 1, per_side)
    if _field(record, "game_over") is not game_over:
        raise RefereeError(f"game_over: record says {record['game_over']!r}, expected {game_over}")
    if _field(record, "winner") != winner or isinstance(record["winner"], bool):
        raise RefereeError(f"winner: record says {record['winner']!r}, expected {winner}")
    claimed_unfinished = record.get("unfinished", False)  # optional field; absent means a normal hand
    if (claimed_unfinished is True) != unfinished or claimed_unfinished not in (True, False, None):
        raise RefereeError(f"unfinished: record says {record.get('unfinished')!r}, expected {unfinished}")


def check_game(records: list[dict], rules: dict) -> None:
    """Check the records of one whole game, in hand order.

    Each hand must pass check_record; hands are numbered 0, 1, 2, ...; the deal
    passes clockwise (in Duel the dealer role alternates); each hand starts from
    the previous hand's totals and bags (the first from [0, 0]); the game ends
    exactly at the last record, either with game_over true or, when the hand cap
    stopped it, unfinished after exactly hand_cap hands.
    """
    rules = {**DEFAULT_RULES, **rules}
    players = rules["players"]
    if not records:
        raise RefereeError("game: no records")
    game_ids = {r.get("game") for r in records if isinstance(r, dict)}
    if len(game_ids) > 1:
        raise RefereeError(f"game: records come from several games {sorted(map(str, game_ids))}")

    previous_score = [0] * len(side_seats(players, rules["partnerships"]))
    previous_bags = list(previous_score)
    previous_dealer: int | None = None
    for i, record in enumerate(records):
        try:
            check_record(record, rules)
        except RefereeError as error:
            raise RefereeError(f"hand {i}: {error}") from error
        if record["hand"] != i:
            raise RefereeError(f"hand {i}: hand: numbered {record['hand']!r}, expected {i}")
        if previous_dealer is not None and record["dealer"] != (previous_dealer + 1) % players:
            raise RefereeError(
                f"hand {i}: dealer: {record['dealer']} but the deal passes clockwise from {previous_dealer}"
            )
        if list(record["score_before"]) != previous_score:
            raise RefereeError(f"hand {i}: score_before: {record['score_before']!r}, expected {previous_score}")
        if list(record["bags_before"]) != previous_bags:
            raise RefereeError(f"hand {i}: bags_before: {record['bags_before']!r}, expected {previous_bags}")
        last = i == len(records) - 1
        ends_here = record["game_over"] or record.get("unfinished", False)
        if ends_here and not last:
            raise RefereeError(f"hand {i}: game_over/unfinished before the last record")
        if last and not ends_here:
            raise RefereeError(f"hand {i}: game_over: the last record neither ends the game nor is unfinished")
        previous_score = list(record["score_after"])
        previous_bags = list(record["bags_after"])
        previous_dealer = record["dealer"]

    if records[-1].get("unfinished", False) and len(records) != rules["hand_cap"]:
        raise RefereeError(f"game: unfinished after {len(records)} hands but hand_cap is {rules['hand_cap']}")
