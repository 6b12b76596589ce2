"""Hand records and positions (RECORDS.md): JSON Lines files, verification, card notation, decide.

Records written by the engine must carry every RECORDS.md field, survive a file round trip, be
accepted by `verify` and the independent referee, and be rejected by `verify` once tampered with,
with a RecordError naming the field. Positions cut from those records must be answered by
`spades_lab.decide` with a legal action for the seat to act, computed here independently.
"""

from __future__ import annotations

import copy
import json
import re
from functools import cache

import pytest
import referee

import spades_lab
from spades_lab.cards import CardError, parse_card, parse_cards
from spades_lab.engine import HandLog, simulate_games, simulate_hands
from spades_lab.engine.records import RecordError, hand_records, read_records, replay, verify, write_records
from spades_lab.policies import Player, from_functions, make_players
from spades_lab.rules import Rules, load_rules

RECORD_FIELDS = (
    "game", "hand", "rules", "players", "dealer", "deal", "blind", "exchange", "draft", "hands", "bids",
    "plays", "tricks", "score_before", "bags_before", "hand_score", "score_after", "bags_after", "game_over",
    "winner",
)  # fmt: skip
CARD = re.compile(r"^[23456789TJQKA][CDHS]$")
GAME_RULES = Rules(hand_cap=6, mercy=True)


@cache
def game_records() -> tuple[dict, ...]:
    """Records of 30 short games (mercy and a cap of 6 hands), as plain JSON data."""
    logs = simulate_games(GAME_RULES, make_players("random"), 30, seed=77, batch_size=8)
    records = list(hand_records(HandLog.concat(list(logs)).sorted(), GAME_RULES))
    return tuple(json.loads(json.dumps(records)))


@cache
def hand_only_records() -> tuple[dict, ...]:
    log = HandLog.concat(list(simulate_hands(Rules(), make_players("random"), 40, seed=78))).sorted()
    return tuple(json.loads(json.dumps(list(hand_records(log, Rules())))))


def fresh(records=None) -> list[dict]:
    return copy.deepcopy(list(records if records is not None else hand_only_records()))


# --------------------------------------------------------------------------- writing and reading


def test_round_trip_through_jsonl(tmp_path) -> None:
    records = fresh(game_records())
    path = tmp_path / "hands.jsonl"
    assert write_records(path, records) == len(records)
    lines = path.read_text().splitlines()
    assert len(lines) == len(records)  # one object per line
    for line in lines:
        assert isinstance(json.loads(line), dict)
    assert list(read_records(path)) == records
    # Appending adds lines after the existing ones.
    assert write_records(path, records[:3], append=True) == 3
    assert list(read_records(path)) == records + records[:3]


def test_records_hold_every_field_of_records_md() -> None:
    for record in game_records():
        for name in RECORD_FIELDS:
            assert name in record, name
        assert record["players"] == 4
        assert load_rules(record["rules"]) == GAME_RULES
        assert record["blind"] == [False] * 4
        assert record["exchange"] == [] and record["draft"] == []
        assert record["hands"] == record["deal"]  # no exchange in these rules
        for cards in record["deal"]:
            assert len(cards) == 13 and all(CARD.match(c) for c in cards)
        assert len(record["plays"]) == 52
        assert all(len(p) == 2 and p[0] in range(4) and CARD.match(p[1]) for p in record["plays"])
        assert len(record["bids"]) == 4 and len(record["tricks"]) == 4
        for name in ("score_before", "bags_before", "hand_score", "score_after", "bags_after"):
            assert len(record[name]) == 2
        if record["game_over"]:
            assert record["winner"] in (0, 1)
        else:
            assert record["winner"] is None
        assert record.get("unfinished", False) == (not record["game_over"] and record["hand"] + 1 == 6)


def test_record_fields_are_independent_lists() -> None:
    # A scenario is often built by editing a record in memory: changing `hands` must not change `deal`.
    log = HandLog.concat(list(simulate_hands(Rules(), make_players("random"), 1, seed=78)))
    record = next(hand_records(log, Rules()))
    dealt = copy.deepcopy(record["deal"])
    record["hands"][0].pop()
    record["hands"][1].append("XX")
    assert record["deal"] == dealt


def test_default_rules_are_named_by_their_preset() -> None:
    record = hand_only_records()[0]
    assert record["rules"] == "standard"
    assert load_rules(record["rules"]) == Rules()


def test_written_records_pass_the_referee(tmp_path) -> None:
    path = tmp_path / "games.jsonl"
    write_records(path, game_records())
    by_game: dict[int, list[dict]] = {}
    for record in read_records(path):
        by_game.setdefault(record["game"], []).append(record)
    assert sorted(by_game) == list(range(30))
    for records in by_game.values():
        referee.check_game(records, GAME_RULES.to_dict())


def test_reading_a_broken_file_names_the_line(tmp_path) -> None:
    path = tmp_path / "broken.jsonl"
    write_records(path, game_records()[:2])
    with open(path, "a") as out:
        out.write("{not json\n")
    with pytest.raises(RecordError, match=r"broken\.jsonl:3"):
        list(read_records(path))


# --------------------------------------------------------------------------- verify


def test_verify_accepts_engine_records(tmp_path) -> None:
    verify(fresh(game_records()))
    verify(fresh())
    verify(fresh(), rules=Rules())
    path = tmp_path / "hands.jsonl"
    write_records(path, game_records())
    verify(list(read_records(path)))


def test_replay_reproduces_the_engine_log() -> None:
    records = fresh()
    log = replay(records)
    assert [list(map(int, t)) for t in log.tricks] == [r["tricks"] for r in records]
    assert [list(map(int, s)) for s in log.hand_score] == [r["hand_score"] for r in records]


def rejected(records: list[dict], *words: str) -> str:
    with pytest.raises(RecordError) as info:
        verify(records)
    message = str(info.value)
    for word in words:
        assert re.search(word, message), f"{word!r} not in {message!r}"
    return message


def illegal_swap(record: dict) -> tuple[int, int] | None:
    """Two plays of one seat whose exchange makes the first illegal: it followed suit in trick 0
    and is swapped with a later card of another suit, which it may not play while holding the led suit."""
    plays = record["plays"]
    led = plays[0][1][1]
    for k in (1, 2, 3):
        seat, card = plays[k]
        if card[1] != led:
            continue
        for j in range(4, 52):
            if plays[j][0] == seat and plays[j][1][1] != led:
                return k, j
    return None


def test_verify_rejects_a_changed_card_order() -> None:
    records = fresh()
    i, (k, j) = next((i, illegal_swap(r)) for i, r in enumerate(records) if illegal_swap(r))
    seat, card = records[i]["plays"][j]
    records[i]["plays"][k][1], records[i]["plays"][j][1] = records[i]["plays"][j][1], records[i]["plays"][k][1]
    rejected(records, r"\bplays?\b", rf"\b{card}\b", rf"\bseat {seat}\b", r"not (a )?legal|illegal")


def test_verify_rejects_a_card_not_held() -> None:
    records = fresh()
    seat, _ = records[5]["plays"][10]
    other = next(c for s in range(4) if s != seat for c in records[5]["hands"][s])
    records[5]["plays"][10][1] = other
    rejected(records, r"\bplays?\b", rf"\b{other}\b")


@pytest.mark.parametrize(
    "field, change",
    [
        ("hand_score", lambda r: r["hand_score"].__setitem__(0, r["hand_score"][0] + 1)),
        ("hand_score", lambda r: r["hand_score"].__setitem__(1, r["hand_score"][1] - 100)),
        ("tricks", lambda r: r["tricks"].__setitem__(0, r["tricks"][0] + 1)),
        ("tricks", lambda r: r["tricks"].reverse() if r["tricks"] != r["tricks"][::-1] else r["tricks"].clear()),
        ("score_after", lambda r: r["score_after"].__setitem__(1, r["score_after"][1] + 10)),
        ("bags_after", lambda r: r["bags_after"].__setitem__(0, r["bags_after"][0] + 1)),
        ("game_over", lambda r: r.__setitem__("game_over", not r["game_over"])),
        ("winner", lambda r: r.__setitem__("winner", 1)),
        ("plays", lambda r: r["plays"][7].__setitem__(0, (r["plays"][7][0] + 1) % 4)),
    ],
)
def test_verify_rejects_a_changed_field_naming_it(field: str, change) -> None:
    records = fresh()
    change(records[3])
    message = rejected(records, rf"\b{field}\b")
    assert "hand 0" in message and f"game {records[3]['game']}" in message


def test_verify_rejects_hands_that_disagree_with_the_deal() -> None:
    # No exchange in these rules, so each seat holds at the first trick exactly what it was dealt.
    records = fresh()
    hands = records[2]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    rejected(records, r"\bhands\b")


def test_verify_rejects_a_changed_deal() -> None:
    # The plays were made from the real deal: against a changed one they no longer add up.
    records = fresh()
    deal = records[2]["deal"]
    deal[0][0], deal[1][0] = deal[1][0], deal[0][0]
    rejected(records, r"\bdeal\b|\bhands\b|not a legal play")


def test_verify_rejects_a_malformed_deal() -> None:
    records = fresh()
    records[2]["deal"][3][4] = "ZZ"
    rejected(records, "'ZZ'", r"game 2\b")


def test_verify_rejects_bad_bids_and_missing_fields() -> None:
    records = fresh()
    records[1]["bids"][2] = 14
    rejected(records, r"\bbid\b", r"\b14\b")
    records = fresh()
    del records[4]["plays"]
    rejected(records, "plays")
    records = fresh()
    records[4]["plays"] = records[4]["plays"][:51]
    rejected(records, "plays", "52")


def test_verify_judges_by_the_rules_given() -> None:
    # The same hands scored under other rules disagree with the recorded scores.
    records = fresh()
    rejected_under = [r for r in records if any(b == 0 for b in r["bids"])][:1] or records[:1]
    with pytest.raises(RecordError, match="hand_score"):
        verify(rejected_under, rules=Rules(trick_value=20, nil_value=50))


# --------------------------------------------------------------------------- card notation


@pytest.mark.parametrize(
    "text, card",
    [("TH", "TH"), ("10H", "TH"), ("10h", "TH"), ("th", "TH"), ("as", "AS"), (" Ks ", "KS"), ("2c", "2C"),
     ("bj", "BJ"), ("LJ", "LJ")],
)  # fmt: skip
def test_parse_card(text: str, card: str) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["ZZ", "1H", "10", "AX", "", "11H", "A", "ASS", "10HS"])
def test_parse_card_errors(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_parse_cards() -> None:
    assert parse_cards("AS KS, 10h 2c") == ["AS", "KS", "TH", "2C"]
    assert parse_cards(["as", "10D"]) == ["AS", "TD"]
    with pytest.raises(CardError, match="twice"):
        parse_cards("AS as")


def test_records_in_other_notation_verify() -> None:
    def spell(card: str) -> str:
        return ("10" + card[1] if card[0] == "T" else card).lower()

    records = fresh()[:5]
    for record in records:
        record["deal"] = [[spell(c) for c in cards] for cards in record["deal"]]
        record["hands"] = [[spell(c) for c in cards] for cards in record["hands"]]
        record["plays"] = [[s, spell(c)] for s, c in record["plays"]]
    assert any(p[1].startswith("10") for p in records[0]["plays"])
    verify(records)
    for record in records:
        referee.check_record(record, Rules().to_dict())


# --------------------------------------------------------------------------- positions


POSITION_KEYS = ("game", "hand", "rules", "dealer", "hands", "score_before", "bags_before")


def bidding_position(record: dict, k: int) -> dict:
    """The moment the k-th bidder (counting from the dealer's left) must bid."""
    position = {key: copy.deepcopy(record[key]) for key in POSITION_KEYS}
    order = [(record["dealer"] + 1 + i) % 4 for i in range(4)]
    position["bids"] = [record["bids"][s] if s in order[:k] else None for s in range(4)]
    position["to_act"] = order[k]
    return position


def play_position(record: dict, step: int) -> dict:
    position = {key: copy.deepcopy(record[key]) for key in POSITION_KEYS}
    position["bids"] = list(record["bids"])
    position["plays"] = copy.deepcopy(record["plays"][:step])
    position["to_act"] = record["plays"][step][0]
    return position


def legal_cards(record: dict, step: int) -> set[str]:
    """The cards the seat to act may play at `step`, worked out here from the rules alone."""
    seat = record["plays"][step][0]
    held = set(record["hands"][seat]) - {c for s, c in record["plays"][:step] if s == seat}
    start = step - step % 4
    trick = [c for _, c in record["plays"][start:step]]
    broken = any(c[1] == "S" for _, c in record["plays"][:start])
    if trick:
        follow = {c for c in held if c[1] == trick[0][1]}
        return follow or held
    if broken:
        return held
    return {c for c in held if c[1] != "S"} or held


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_decide_a_bid(k: int) -> None:
    for record in hand_only_records()[:10]:
        position = bidding_position(record, k)
        answer = spades_lab.decide("random", position)
        assert answer["seat"] == position["to_act"]
        assert answer["bid"] == 0 or 1 <= answer["bid"] <= 13
    # The position's own rules decide what is legal: a player bidding the most it may bids 13, or 3.
    greedy = Player(*[from_functions(lambda table: max(table.legal), None, name="greedy")] * 2)
    position = bidding_position(hand_only_records()[0], k)
    assert spades_lab.decide(greedy, position) == {"seat": position["to_act"], "bid": 13}
    position["rules"] = {"max_bid": 3}
    position["bids"] = [None if b is None else min(b, 3) for b in position["bids"]]  # earlier bids legal there too
    assert spades_lab.decide(greedy, position)["bid"] == 3
    assert spades_lab.decide(greedy, position, rules=Rules(max_bid=5))["bid"] == 5


def test_decide_a_card_at_every_step_of_a_hand() -> None:
    record = hand_only_records()[0]
    for step in range(52):
        position = play_position(record, step)
        answer = spades_lab.decide("random", position)
        assert answer["seat"] == record["plays"][step][0]
        assert answer["card"] in legal_cards(record, step), step


def test_decide_many_positions_where_the_choice_is_forced_or_free() -> None:
    forced = free = 0
    for record in hand_only_records()[:12]:
        for step in (1, 5, 14, 23, 30, 41, 50):
            legal = legal_cards(record, step)
            answer = spades_lab.decide("random", play_position(record, step))
            assert answer["card"] in legal
            forced += len(legal) == 1
            free += len(legal) > 1
    assert forced and free


def test_decide_reads_json_text_and_files(tmp_path) -> None:
    position = play_position(hand_only_records()[1], 9)
    expected = spades_lab.decide("random", position)
    assert spades_lab.decide("random", json.dumps(position)) == expected
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    assert spades_lab.decide("random", path) == expected
    assert spades_lab.decide("random", str(path)) == expected


def test_a_position_needs_only_the_acting_seats_cards() -> None:
    record = hand_only_records()[2]
    step = 17
    seat = record["plays"][step][0]
    seen = []

    def look(table) -> str:
        seen.append((table.seat, sorted(table.hand), sorted(table.legal)))
        return table.legal[-1]

    player = Player(*[from_functions(None, look, name="look")] * 2)
    full = play_position(record, step)
    partial = copy.deepcopy(full)
    partial["hands"] = [cards if s == seat else [] for s, cards in enumerate(full["hands"])]
    assert spades_lab.decide(player, full) == spades_lab.decide(player, partial)
    held = set(record["hands"][seat]) - {c for s, c in record["plays"][:step] if s == seat}
    assert seen[0] == seen[1] == (seat, sorted(held), sorted(legal_cards(record, step)))


def test_a_position_may_give_the_cards_still_held() -> None:
    # Positions cut from a game often list what each seat still holds; played cards are added back.
    record = hand_only_records()[1]
    for step in (0, 9, 22, 51):
        full = play_position(record, step)
        remaining = copy.deepcopy(full)
        remaining["hands"] = [
            [c for c in cards if [s, c] not in full["plays"]] for s, cards in enumerate(full["hands"])
        ]
        answer = spades_lab.decide("random", remaining)
        assert answer == spades_lab.decide("random", full)
        assert answer["card"] in legal_cards(record, step)


def test_position_to_act_must_agree_with_the_rules() -> None:
    record = hand_only_records()[3]
    position = play_position(record, 6)
    position["to_act"] = (position["to_act"] + 1) % 4
    with pytest.raises(RecordError, match="to act"):
        spades_lab.decide("random", position)
    position = bidding_position(record, 2)
    position["to_act"] = (position["to_act"] + 2) % 4
    with pytest.raises(RecordError, match="to act"):
        spades_lab.decide("random", position)


def test_position_with_an_illegal_play_or_bids_out_of_order() -> None:
    record, (k, j) = next((r, illegal_swap(r)) for r in hand_only_records() if illegal_swap(r))
    position = play_position(record, k + 1)
    position["plays"][k][1] = record["plays"][j][1]  # the seat discards while holding the led suit
    with pytest.raises(RecordError, match="not legal"):
        spades_lab.decide("random", position)
    position = bidding_position(record, 2)
    first = (record["dealer"] + 1) % 4
    position["bids"][first] = None  # the second bidder has bid but the first has not
    del position["to_act"]
    with pytest.raises(RecordError, match="in order"):
        spades_lab.decide("random", position)
