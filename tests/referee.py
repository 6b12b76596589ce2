"""Independent reference referee for 4-player partnership Spades.

Why this file exists: the spades_lab engine plays hands in numpy batches, and a
batch engine is easy to get subtly wrong (an off-by-one in the leader, a spade
"broken" one trick too early, a bag penalty applied twice). This module replays
a hand record (RECORDS.md format) card by card with deliberately plain Python,
written from RULES.md alone, and says exactly where a record disagrees with the
rules. It must never import spades_lab: an independent check that shares code
with the thing it checks is not independent.

Public interface (the engine tests call exactly these):
    RefereeError, score_hand, check_record, check_game, DEFAULT_RULES.
"""

from __future__ import annotations

from typing import Any

RANKS = "23456789TJQKA"  # lowest to highest; the index is the rank's strength
SUITS = "CDHS"
SPADES = "S"
SEATS = 4
TRICKS_PER_HAND = 13
FULL_DECK = frozenset(rank + suit for suit in SUITS for rank in RANKS)

# The default rules of RULES.md, as the fields the referee understands.
DEFAULT_RULES: dict[str, Any] = {
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
}


class RefereeError(Exception):
    """A record disagrees with the rules; the message names the field or play."""


# --------------------------------------------------------------------------- cards


def normalise_card(card: Any, where: str) -> str:
    """Return the canonical two-character form of a card ("10h" -> "TH").

    RECORDS.md says readers also accept "10H" and lower case, so the referee
    accepts them too rather than failing a record on spelling alone. Jokers are
    not part of the rules checked here, so "BJ"/"LJ" are rejected.
    """
    if not isinstance(card, str):
        raise RefereeError(f"{where}: card {card!r} is not a string")
    text = card.strip().upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise RefereeError(f"{where}: {card!r} is not a card of the 52-card deck")
    return text


def suit_of(card: str) -> str:
    """Suit letter of a canonical card."""
    return card[1]


def rank_of(card: str) -> int:
    """Strength of a canonical card within its suit (2 -> 0, ace -> 12)."""
    return RANKS.index(card[0])


def trick_winner_index(cards: list[str]) -> int:
    """Index (0..3, in play order) of the card that wins a complete trick.

    RULES.md: the highest spade wins; with no spade, the highest card of the
    suit led. Cards of other suits can never win.
    """
    led = suit_of(cards[0])
    spades = [i for i, c in enumerate(cards) if suit_of(c) == SPADES]
    candidates = spades if spades else [i for i, c in enumerate(cards) if suit_of(c) == led]
    return max(candidates, key=lambda i: rank_of(cards[i]))


# --------------------------------------------------------------------------- scoring


def partnership_of(seat: int) -> int:
    """Seats 0+2 are partnership 0, seats 1+3 partnership 1."""
    return seat % 2


def score_hand(rules: dict, bids: list[int], tricks: list[int], bags_before: list[int]) -> tuple[list[int], list[int]]:
    """Score one hand: returns (hand_score per partnership, bags_after per partnership).

    Follows RULES.md "Default scoring", with every number taken from `rules`:
    - contract = sum of the partnership's non-nil bids; contract tricks = the
      tricks of its non-nil bidders (a nil bidder's tricks never help the partner);
    - made: +trick_value * contract + bag_value per overtrick, overtricks are bags;
      set: -trick_value * contract, nothing for the tricks;
    - each nil on its own: +nil_value if it took no trick, -nil_value otherwise;
    - a nil bidder's tricks are bags worth bag_value each if nil_tricks_as_bags,
      otherwise ignored;
    - bags accumulate; while the penalty is enabled and bags >= bag_threshold:
      -bag_penalty and bag_threshold bags removed (the excess carries over).
    The returned hand_score already includes any bag penalty of this hand.
    """
    if len(bids) != SEATS or len(tricks) != SEATS or len(bags_before) != 2:
        raise ValueError("score_hand needs 4 bids, 4 trick counts and 2 bag counts")
    if rules["bag_penalty_enabled"] and rules["bag_threshold"] <= 0:
        raise ValueError("bag_threshold must be positive when the bag penalty is enabled")

    hand_score = [0, 0]
    bags_after = [0, 0]
    for team in (0, 1):
        seats = [team, team + 2]
        score = 0
        new_bags = 0

        contract = sum(bids[s] for s in seats if bids[s] != 0)
        contract_tricks = sum(tricks[s] for s in seats if bids[s] != 0)
        if contract_tricks >= contract:
            overtricks = contract_tricks - contract
            score += rules["trick_value"] * contract + rules["bag_value"] * overtricks
            new_bags += overtricks
        else:
            score -= rules["trick_value"] * contract

        for s in seats:
            if bids[s] != 0:
                continue
            score += rules["nil_value"] if tricks[s] == 0 else -rules["nil_value"]
            if rules["nil_tricks_as_bags"]:
                score += rules["bag_value"] * tricks[s]
                new_bags += tricks[s]

        bags = bags_before[team] + new_bags
        if rules["bag_penalty_enabled"]:
            while bags >= rules["bag_threshold"]:
                score -= rules["bag_penalty"]
                bags -= rules["bag_threshold"]
        hand_score[team] = score
        bags_after[team] = bags
    return hand_score, bags_after


def game_result(rules: dict, score_after: list[int], hands_played: int) -> tuple[bool, int | None, bool]:
    """Decide (game_over, winner, unfinished) once a hand has been scored.

    The game ends if a side reached the target, or (mercy on) a side is at or
    below mercy_threshold; the higher total wins and equal totals play on.
    If it has not ended and hands_played reached hand_cap, it stops unfinished:
    never a win for anyone.
    """
    ended = any(s >= rules["target"] for s in score_after)
    if rules["mercy"]:
        ended = ended or any(s <= rules["mercy_threshold"] for s in score_after)
    if ended and score_after[0] != score_after[1]:
        return True, (0 if score_after[0] > score_after[1] else 1), False
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


def _int_pair(record: dict, name: str) -> list[int]:
    """A per-partnership field: a list of two ints."""
    value = _field(record, name)
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(_is_int(v) for v in value):
        raise RefereeError(f"{name}: expected two integers (one per partnership), got {value!r}")
    return list(value)


def _check_hands(record: dict, name: str) -> list[set[str]]:
    """`deal`/`hands`: four disjoint 13-card hands that together are the 52-card deck."""
    value = _field(record, name)
    if not isinstance(value, (list, tuple)) or len(value) != SEATS:
        raise RefereeError(f"{name}: expected 4 hands, got {value!r}")
    hands: list[set[str]] = []
    seen: set[str] = set()
    for seat, cards in enumerate(value):
        if not isinstance(cards, (list, tuple)) or len(cards) != TRICKS_PER_HAND:
            raise RefereeError(f"{name}[{seat}]: expected 13 cards, got {cards!r}")
        hand: set[str] = set()
        for card in cards:
            c = normalise_card(card, f"{name}[{seat}]")
            if c in seen:
                raise RefereeError(f"{name}[{seat}]: card {c} appears twice in the deal")
            seen.add(c)
            hand.add(c)
        hands.append(hand)
    if seen != FULL_DECK:  # 52 distinct valid cards is the deck, but say what is missing if not
        raise RefereeError(f"{name}: missing cards {sorted(FULL_DECK - seen)}")
    return hands


def _check_bids(record: dict, rules: dict) -> list[int]:
    """`bids`: one per seat, each nil (0) or min_bid..max_bid."""
    bids = _field(record, "bids")
    if not isinstance(bids, (list, tuple)) or len(bids) != SEATS:
        raise RefereeError(f"bids: expected 4 bids, got {bids!r}")
    for seat, bid in enumerate(bids):
        if not _is_int(bid) or not (bid == 0 or rules["min_bid"] <= bid <= rules["max_bid"]):
            raise RefereeError(
                f"bids[{seat}]: {bid!r} is neither nil (0) nor in {rules['min_bid']}..{rules['max_bid']}"
            )
    return list(bids)


def _replay_plays(record: dict, hands: list[set[str]], dealer: int) -> list[int]:
    """Replay `plays` trick by trick; return the tricks won per seat.

    Checks, for every play: the right seat (left of the dealer leads the first
    trick, then clockwise, the previous trick's winner leads the next), the card
    is held by that seat, suit is followed when possible, and spades are not
    led before they are broken (a spade played in an earlier trick) unless the
    leader holds nothing but spades.
    """
    plays = _field(record, "plays")
    if not isinstance(plays, (list, tuple)) or len(plays) != SEATS * TRICKS_PER_HAND:
        count = len(plays) if isinstance(plays, (list, tuple)) else plays
        raise RefereeError(f"plays: expected 52 plays, got {count!r}")

    held = [set(h) for h in hands]  # copies: cards leave as they are played
    tricks_won = [0] * SEATS
    leader = (dealer + 1) % SEATS
    spades_broken = False
    for trick in range(TRICKS_PER_HAND):
        trick_cards: list[str] = []
        for position in range(SEATS):
            index = trick * SEATS + position
            entry = plays[index]
            where = f"plays[{index}] (trick {trick}, play {position})"
            if not isinstance(entry, (list, tuple)) or len(entry) != 2 or not _is_int(entry[0]):
                raise RefereeError(f"{where}: expected [seat, card], got {entry!r}")
            seat = entry[0]
            card = normalise_card(entry[1], where)
            expected_seat = (leader + position) % SEATS
            if seat != expected_seat:
                raise RefereeError(f"{where}: {card} played by seat {seat}, but seat {expected_seat} is to play")
            if card not in held[seat]:
                raise RefereeError(f"{where}: seat {seat} plays {card}, which it does not hold")
            if position == 0:
                only_spades = all(suit_of(c) == SPADES for c in held[seat])
                if suit_of(card) == SPADES and not spades_broken and not only_spades:
                    raise RefereeError(
                        f"{where}: seat {seat} leads {card} before spades are broken while holding other suits"
                    )
            else:
                led = suit_of(trick_cards[0])
                can_follow = any(suit_of(c) == led for c in held[seat])
                if can_follow and suit_of(card) != led:
                    raise RefereeError(f"{where}: seat {seat} plays {card} but must follow suit {led} (it holds one)")
            held[seat].remove(card)
            trick_cards.append(card)

        winner = (leader + trick_winner_index(trick_cards)) % SEATS
        tricks_won[winner] += 1
        # Broken from the NEXT trick on: a spade in this trick does not license a spade lead within it.
        if any(suit_of(c) == SPADES for c in trick_cards):
            spades_broken = True
        leader = winner
    return tricks_won


def check_record(record: dict, rules: dict) -> None:
    """Replay one 4-player hand record and raise RefereeError at the first disagreement.

    `rules` is the rules dict to judge by; record["rules"] (a dict or a preset
    name) is ignored so the caller decides what the record is held to. Fields
    not in RECORDS.md are ignored.
    """
    rules = {**DEFAULT_RULES, **rules}
    if not isinstance(record, dict):
        raise RefereeError(f"record: expected a dict, got {type(record).__name__}")

    if "players" in record and record["players"] != SEATS:
        raise RefereeError(f"players: expected 4, got {record['players']!r}")
    hand_no = _field(record, "hand")
    if not _is_int(hand_no) or hand_no < 0:
        raise RefereeError(f"hand: expected a hand number >= 0, got {hand_no!r}")
    dealer = _field(record, "dealer")
    if not _is_int(dealer) or not 0 <= dealer < SEATS:
        raise RefereeError(f"dealer: expected a seat 0..3, got {dealer!r}")

    deal = _check_hands(record, "deal")
    hands = _check_hands(record, "hands")
    for seat in range(SEATS):
        if hands[seat] != deal[seat]:
            raise RefereeError(f"hands[{seat}]: differs from deal[{seat}] but these rules have no exchange")
    # No blind nil and no exchange in these rules: if the fields are present they must say so.
    if "blind" in record and any(record["blind"]):
        raise RefereeError(f"blind: {record['blind']!r} but these rules have no blind nil")
    if record.get("exchange"):
        raise RefereeError(f"exchange: {record['exchange']!r} but these rules have no exchange")

    bids = _check_bids(record, rules)
    tricks = _replay_plays(record, hands, dealer)

    claimed_tricks = _field(record, "tricks")
    if not isinstance(claimed_tricks, (list, tuple)) or list(claimed_tricks) != tricks:
        raise RefereeError(f"tricks: record says {claimed_tricks!r}, replay gives {tricks}")

    score_before = _int_pair(record, "score_before")
    bags_before = _int_pair(record, "bags_before")
    hand_score, bags_after = score_hand(rules, bids, tricks, bags_before)
    if _int_pair(record, "hand_score") != hand_score:
        raise RefereeError(f"hand_score: record says {record['hand_score']!r}, rules give {hand_score}")
    score_after = [score_before[t] + hand_score[t] for t in (0, 1)]
    if _int_pair(record, "score_after") != score_after:
        raise RefereeError(f"score_after: record says {record['score_after']!r}, expected {score_after}")
    if _int_pair(record, "bags_after") != bags_after:
        raise RefereeError(f"bags_after: record says {record['bags_after']!r}, rules give {bags_after}")

    game_over, winner, unfinished = game_result(rules, score_after, hand_no + 1)
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
    passes clockwise; each hand starts from the previous hand's totals and bags
    (the first from [0, 0]); the game ends exactly at the last record, either
    with game_over true or, when the hand cap stopped it, unfinished after
    exactly hand_cap hands.
    """
    rules = {**DEFAULT_RULES, **rules}
    if not records:
        raise RefereeError("game: no records")
    game_ids = {r.get("game") for r in records if isinstance(r, dict)}
    if len(game_ids) > 1:
        raise RefereeError(f"game: records come from several games {sorted(map(str, game_ids))}")

    previous_score = [0, 0]
    previous_bags = [0, 0]
    previous_dealer: int | None = None
    for i, record in enumerate(records):
        try:
            check_record(record, rules)
        except RefereeError as error:
            raise RefereeError(f"hand {i}: {error}") from error
        if record["hand"] != i:
            raise RefereeError(f"hand {i}: hand: numbered {record['hand']!r}, expected {i}")
        if previous_dealer is not None and record["dealer"] != (previous_dealer + 1) % SEATS:
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
