"""Hand records (RECORDS.md): write them from engine logs, read them, and replay them to verify.

A record is the complete story of one hand in JSON. Replaying feeds its deal, bids and plays back
through the engine as scripted decisions, so every play's legality, every trick and every score
is recomputed by the same rules a simulation uses, and any disagreement is reported by field.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from spades_lab.cards import STANDARD_DECK, Deck
from spades_lab.engine import rng
from spades_lab.engine.protocol import PolicyError
from spades_lab.engine.simulate import HandLog, play_hand
from spades_lab.engine.views import BidView, PlayView
from spades_lab.rules import Rules, load_rules


class RecordError(ValueError):
    """A record that is malformed or does not replay to what it claims."""


def _rules_field(rules: Rules) -> str | dict[str, Any]:
    return rules.preset_name() or rules.to_dict()


def hand_records(log: HandLog, rules: Rules, deck: Deck = STANDARD_DECK) -> Iterator[dict[str, Any]]:
    """One RECORDS.md dict per row of a hand log, in the log's row order."""
    rules_field = _rules_field(rules)
    cards = deck.cards
    for i in range(len(log)):
        deal = [deck.labels(int(m)) for m in log.deal[i]]
        record = {
            "game": int(log.game[i]),
            "hand": int(log.hand[i]),
            "rules": rules_field,
            "players": 4,
            "dealer": int(log.dealer[i]),
            "deal": deal,
            "blind": [False] * 4,
            "exchange": [],
            "draft": [],
            "hands": deal,
            "bids": [int(b) for b in log.bids[i]],
            "plays": [[int(s), cards[c]] for s, c in zip(log.play_seats[i], log.plays[i])],
            "tricks": [int(t) for t in log.tricks[i]],
            "score_before": [int(x) for x in log.score_before[i]],
            "bags_before": [int(x) for x in log.bags_before[i]],
            "hand_score": [int(x) for x in log.hand_score[i]],
            "score_after": [int(x) for x in log.score_after[i]],
            "bags_after": [int(x) for x in log.bags_after[i]],
            "game_over": bool(log.game_over[i]),
            "winner": int(log.winner[i]) if log.game_over[i] else None,
        }
        if log.unfinished[i]:
            record["unfinished"] = True
        yield record


def write_records(path: str | Path, records: Iterable[dict[str, Any]], append: bool = False) -> int:
    """Write records as JSON Lines; returns how many were written."""
    n = 0
    with open(path, "a" if append else "w") as out:
        for record in records:
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
            n += 1
    return n


def read_records(path: str | Path) -> Iterator[dict[str, Any]]:
    with open(path) as src:
        for number, line in enumerate(src, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as exc:
                    raise RecordError(f"{path}:{number}: not a JSON object: {exc}") from None


class _Script:
    """Replays recorded decisions: bids[n, 4] and plays[n, 52] (card ids), indexed by table row."""

    name = "record"

    def __init__(self, bids: np.ndarray, plays: np.ndarray) -> None:
        self.bids_by_seat, self.cards = bids, plays

    def bid(self, view: BidView) -> np.ndarray:
        return self.bids_by_seat[np.arange(len(view)), view.seat]

    def play(self, view: PlayView) -> np.ndarray:
        return self.cards[:, view.decision - 4]


def _need(record: dict, key: str) -> Any:
    if key not in record:
        raise RecordError(f"record (game {record.get('game')}, hand {record.get('hand')}) lacks field {key!r}")
    return record[key]


def replay(records: list[dict[str, Any]], rules: Rules | str | dict | None = None, deck: Deck = STANDARD_DECK) -> HandLog:
    """Re-run records through the engine with their own deal and decisions; returns the engine's log.

    `rules` defaults to the first record's `rules` field. Raises RecordError if a record is
    malformed or holds an illegal bid or play.
    """
    if not records:
        raise RecordError("no records to replay")
    rules = load_rules(rules if rules is not None else records[0].get("rules"))
    n = len(records)
    deal = np.zeros((n, 4), dtype=np.uint64)
    bids = np.zeros((n, 4), dtype=np.int64)
    plays = np.zeros((n, 52), dtype=np.int64)
    for i, record in enumerate(records):
        try:
            hands = _need(record, "hands")
            for seat in range(4):
                deal[i, seat] = deck.mask(hands[seat])
            bids[i] = _need(record, "bids")
            recorded = _need(record, "plays")
            if len(recorded) != 52:
                raise RecordError(f"has {len(recorded)} plays, a hand has 52")
            plays[i] = [deck.card_id(card) for _, card in recorded]
        except (ValueError, TypeError, IndexError) as exc:
            raise RecordError(f"record {i} (game {record.get('game')}, hand {record.get('hand')}): {exc}") from None
    script = _Script(bids, plays)
    game = np.array([r.get("game", i) for i, r in enumerate(records)], dtype=np.int64)
    try:
        return play_hand(
            rules, [script] * 4, game,
            np.array([_need(r, "hand") for r in records], dtype=np.int64),
            rng.derive(np.uint64(0), game),
            np.array([_need(r, "dealer") for r in records], dtype=np.int64),
            np.array([_need(r, "score_before") for r in records], dtype=np.int64).reshape(n, 2),
            np.array([_need(r, "bags_before") for r in records], dtype=np.int64).reshape(n, 2),
            deck=deck, deal=deal,
        )  # fmt: skip
    except PolicyError as exc:
        raise RecordError(f"record replays an illegal decision: {exc}") from None


def verify(records: list[dict[str, Any]], rules: Rules | str | dict | None = None, deck: Deck = STANDARD_DECK) -> None:
    """Replay records and compare every derived field; raises RecordError naming the first mismatch."""
    log = replay(records, rules, deck)
    rules = load_rules(rules if rules is not None else records[0].get("rules"))
    for record, replayed in zip(records, hand_records(log, rules, deck)):
        for key in ("plays", "tricks", "hand_score", "score_after", "bags_after", "game_over", "winner"):
            mine = [[s, c] for s, c in record[key]] if key == "plays" else record.get(key)
            if key == "plays":
                mine = [[int(s), deck.cards[deck.card_id(c)]] for s, c in mine]
            if mine != replayed[key]:
                raise RecordError(
                    f"game {record.get('game')}, hand {record.get('hand')}: {key} is {record.get(key)!r},"
                    f" the rules give {replayed[key]!r}"
                )
        if bool(record.get("unfinished", False)) != bool(replayed.get("unfinished", False)):
            raise RecordError(f"game {record.get('game')}, hand {record.get('hand')}: unfinished flag disagrees")
