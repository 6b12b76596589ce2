"""Where a hand to show comes from: a records file, or a tournament directory replayed.

A tournament keeps no card-by-card play unless it ran with records, but it need not: a game depends
only on the seed, the game id and the players, so replaying that one game with the same entrants
reproduces every hand exactly. The replayed deal and bids are compared with the stored hands table
(when the run kept one), so a policy whose code changed since the run is caught, not shown as truth.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from spades_lab.engine import HandLog, simulate_games, simulate_hands
from spades_lab.engine.records import RecordError, hand_records, read_records, verify
from spades_lab.players import make_player
from spades_lab.players.identity import player_differences, player_identity
from spades_lab.rules import Rules


class HandNotFound(LookupError):
    """The asked-for hand is not in the file or the tournament."""


class HandRecord(dict[str, Any]):
    """A hand record (a plain dict of the fields in docs/records.md) that Jupyter shows as a table; `str()` is the text view."""

    def __str__(self) -> str:
        from spades_lab.viewer.text import show

        return show(self)

    def _repr_html_(self) -> str:
        from spades_lab.viewer.html import hand_table

        return hand_table(self)

    def html(self) -> str:
        """The self-contained replay page (what `spades-lab show ... --html FILE` writes)."""
        from spades_lab.viewer.html import replay_page

        return replay_page(self)


def read_hand(path: str | Path, game: int, hand: int, verified: bool = True) -> HandRecord:
    """The record of (game, hand) in a JSON Lines records file (the first one if a file holds several pairings).

    `verified`: the record is first replayed through the engine (`records.verify`), so a record with an
    illegal or swapped play, a wrong trick count or score is refused (RecordError naming the field)
    instead of shown as if it were a hand of the game.
    """
    seen = 0
    for record in read_records(path):
        seen += 1
        if not isinstance(record, dict):
            raise RecordError(f"{path}: line {seen} is not a hand record (a JSON object)")
        if _number(record.get("game")) == game and _number(record.get("hand")) == hand:
            if verified:
                try:
                    verify([record])
                except RecordError as exc:
                    raise RecordError(f"{path}: the record does not verify, so it is not shown: {exc}") from None
            return HandRecord(record)
    raise HandNotFound(f"{path} holds no record of game {game}, hand {hand} ({seen} records read)")


def _number(value: object) -> int | None:
    """A record's game or hand number, None when the field is missing or no whole number."""
    return int(value) if isinstance(value, int | np.integer) and not isinstance(value, bool) else None


def _chunk_of(manifest: dict[str, Any], pairing: int, seating: int, game: int) -> dict[str, Any]:
    chunks: list[dict[str, Any]] = manifest["chunks"]
    for chunk in chunks:
        lo, hi = chunk["games"]
        if int(chunk["pairing"]) == pairing and int(chunk["seating"]) == seating and lo <= game < hi:
            return chunk
    pairs = sorted({(int(c["pairing"]), int(c["seating"])) for c in manifest["chunks"]})
    ranges: dict[tuple[int, int], tuple[int, int]] = {}
    for c in manifest["chunks"]:
        key = (int(c["pairing"]), int(c["seating"]))
        lo, hi = ranges.get(key, (c["games"][0], c["games"][1]))
        ranges[key] = (min(lo, c["games"][0]), max(hi, c["games"][1]))
    where = "; ".join(f"pairing {p} seating {s}: games {ranges[(p, s)][0]}..{ranges[(p, s)][1] - 1}" for p, s in pairs)
    raise HandNotFound(f"no pairing {pairing}, seating {seating}, game {game} in this tournament ({where})")


def _check_stored(out: Path, chunk: dict[str, Any], record: dict[str, Any], players: int) -> None:
    """Compare the replayed hand with the stored hands table, when the run kept one."""
    path = out / "hands" / f"{chunk['id']}.parquet"
    if not path.exists():
        return
    table = pd.read_parquet(path, filters=[("game", "==", record["game"]), ("hand", "==", record["hand"])])
    if len(table) != 1:
        raise HandNotFound(f"the stored hands table of chunk {chunk['id']} has no game {record['game']}, "
                           f"hand {record['hand']}")  # fmt: skip
    row = table.iloc[0]
    stored_bids = [int(row[f"bid{s}"]) for s in range(players)]
    stored_score = [int(row["score_after0"]), int(row["score_after1"])]
    if stored_bids != record["bids"] or stored_score != record["score_after"]:
        raise ValueError(
            f"replaying game {record['game']} gives bids {record['bids']} and scores {record['score_after']}, "
            f"the tournament stored {stored_bids} and {stored_score}: a policy has changed since the run"
        )


def tournament_hand(out: str | Path, pairing: int, seating: int, game: int, hand: int) -> HandRecord:
    """The record of one hand of a tournament directory, by replaying its game with the same entrants and seed.

    Entrants must be registered player names (as every CLI tournament's are). The record gains the
    tournament fields `pairing`, `seating` and `entrants` (side 0's entrant first).
    """
    out = Path(out)
    manifest_path = out / "manifest.json"
    if not manifest_path.exists():
        raise FileNotFoundError(f"{out} holds no tournament (no manifest.json)")
    manifest = json.loads(manifest_path.read_text())
    config = manifest["config"]
    chunk = _chunk_of(manifest, pairing, seating, game)
    names = config["entrants"]
    side0, side1 = names[int(chunk["side0"])], names[int(chunk["side1"])]
    rules = Rules.from_dict(config["rules"])
    stored = config.get("players") or {}
    changed = player_differences(stored, {n: player_identity(n) for n in (side0, side1) if n in stored})
    if changed:  # the replay would be another player's game: say which field, rather than only that it differs
        raise ValueError(f"the tournament's players have changed since the run ({'; '.join(changed)}): its hands"
                         " cannot be replayed with the current players")  # fmt: skip
    players: list[Any] = [make_player(side0), make_player(side1)] * (rules.players // 2)
    single = config["unit"] == "hands"
    if single and hand != 0:
        raise HandNotFound(f"this tournament played single hands: every game has only hand 0, not hand {hand}")
    play = simulate_hands if single else simulate_games
    wanted = None
    logs: list[HandLog] = []
    for log in play(rules, players, 1, int(config["seed"]), 1, game):
        logs.append(log)
        if np.any(log.hand == hand):
            wanted = log
            break
    if wanted is None:
        raise HandNotFound(f"game {game} of pairing {pairing}, seating {seating} ended after {len(logs)} hands; "
                           f"there is no hand {hand}")  # fmt: skip
    record = next(hand_records(wanted, rules))
    record.update(pairing=pairing, seating=seating, entrants=[side0, side1])
    _check_stored(out, chunk, record, rules.players)
    return HandRecord(record)
