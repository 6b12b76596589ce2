"""Which games a tournament plays: pairings, seatings and the chunks of game ids they split into.

A chunk is a fixed range of global game ids of one pairing in one seating. Because the engine
derives every game from (seed, game id) alone, a chunk plays the same games whoever runs it, in
whatever order, and however big the other chunks are; the chunk size only decides how much work
is lost to an interruption and how finely it spreads over workers.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from spades_lab.tournament.errors import TournamentError

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

DEFAULT_CHUNK_GAMES = 4000

MAX_CHUNKS = 100_000
"""Most chunks a run can plan: the plan and the manifest list every chunk (about 150 bytes each in
the manifest, written every few seconds), so a count beyond it would fill memory and disk before
a game is played."""


@dataclass(frozen=True)
class Chunk:
    """Games lo..hi-1 of a pairing, with entrant `side0` on seats 0+2 and `side1` on seats 1+3 (Duel: seats 0, 1)."""

    pairing: int
    seating: int
    """0: the pairing's first entrant on side 0; 1: partnerships swapped."""
    lo: int
    hi: int
    side0: int
    """Index of the entrant on side 0."""
    side1: int

    @property
    def id(self) -> str:
        return f"p{self.pairing:03d}-s{self.seating}-g{self.lo:010d}"

    @property
    def games(self) -> int:
        return self.hi - self.lo

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Chunk:
        """The chunk a manifest lists (the inverse of `to_dict`)."""
        return cls(int(d["pairing"]), int(d["seating"]), int(d["games"][0]), int(d["games"][1]), int(d["side0"]),
                   int(d["side1"]))  # fmt: skip

    def to_dict(self) -> dict[str, int | str | list[int]]:
        return {"id": self.id, "pairing": self.pairing, "seating": self.seating, "side0": self.side0,
                "side1": self.side1, "games": [self.lo, self.hi]}  # fmt: skip


@dataclass
class ChunkResult:
    """What playing a chunk returns to the parent: its tables (or the facts of the files the worker wrote)."""

    chunk: Chunk
    games: pd.DataFrame | None
    """Long rows, one per game and side (spades_lab.stats.tally.GameTally.frame)."""
    tallies: pd.DataFrame | None
    """Table bid total histogram of the chunk: bid_total, hands."""
    hands: pd.DataFrame | None
    records: list[str] | None
    """hand-record JSON lines, in (game, hand) order."""
    n_hands: int
    seconds: float
    written: bool = False
    """The worker wrote the chunk to disk itself; the tables were dropped."""
    files: dict[str, Any] | None = None
    """Rows, bytes and SHA-256 of each file written (for the manifest), once written."""
    totals: tuple[dict[tuple[str, str], np.ndarray], np.ndarray] | None = None
    """The chunk's summary totals per (entrant, opponent) and its bid total histogram, so the parent
    sums a run without reading every games file back."""


def pairings(n_entrants: int) -> list[tuple[int, int]]:
    """Every pair of entrants once, in order: (0, 1), (0, 2), ..., (1, 2), ..."""
    if n_entrants < 2:
        raise ValueError(f"a tournament needs at least 2 entrants, got {n_entrants}")
    return list(combinations(range(n_entrants), 2))


def seating_ranges(count: int, duplicate: bool) -> list[tuple[int, int]]:
    """Game id range of seating 0 and of seating 1 for one pairing.

    Duplicate: both seatings play ids 0..count-1, so every deal is played twice with the
    partnerships swapped. Otherwise the ids are split: the first half with the pairing's first
    entrant on seats 0+2, the rest swapped, so no entrant keeps one seat position.
    """
    if count < 1:
        raise ValueError(f"a tournament needs at least 1 game per pairing, got {count}")
    if duplicate:
        return [(0, count), (0, count)]
    half = (count + 1) // 2
    return [(0, half), (half, count)]


def planned_chunks(n_entrants: int, count: int, duplicate: bool, chunk_games: int) -> int:
    """How many chunks `plan_chunks` makes, counted without making them."""
    return len(pairings(n_entrants)) * sum(-(-(hi - lo) // chunk_games) for lo, hi in seating_ranges(count, duplicate))


def check_plannable(n_entrants: int, count: int, duplicate: bool, chunk_games: int, unit: str = "games") -> None:
    """Refuse a run of more chunks than `MAX_CHUNKS`, before anything is allocated for them."""
    chunks = planned_chunks(n_entrants, count, duplicate, chunk_games)
    if chunks <= MAX_CHUNKS:
        return
    per_seating = max(1, MAX_CHUNKS // (2 * len(pairings(n_entrants))))  # chunks each seating may have
    most = per_seating * chunk_games * (1 if duplicate else 2)
    longest = count if duplicate else (count + 1) // 2  # game ids of the larger seating
    least = -(-longest // per_seating)
    raise TournamentError(
        f"{unit} = {count:,} per pairing makes {chunks:,} chunks of {chunk_games:,} {unit}, and at most"
        f" {MAX_CHUNKS:,} can be planned: play at most {most:,} {unit} per pairing, or raise chunk_games"
        f" (--chunk-games) to at least {least:,}"
    )


def plan_chunks(n_entrants: int, count: int, duplicate: bool, chunk_games: int = DEFAULT_CHUNK_GAMES) -> list[Chunk]:
    """All chunks of a tournament, in the canonical order of its tables: pairing, seating, game."""
    if chunk_games < 1:
        raise ValueError(f"chunk size must be at least 1 game, got {chunk_games}")
    chunks = []
    for index, (first, second) in enumerate(pairings(n_entrants)):
        for seating, (lo, hi) in enumerate(seating_ranges(count, duplicate)):
            side0, side1 = (first, second) if seating == 0 else (second, first)
            for start in range(lo, hi, chunk_games):
                chunks.append(Chunk(index, seating, start, min(start + chunk_games, hi), side0, side1))
    return chunks


def grow_plan(
    stored: list[Chunk], n_entrants: int, count: int, duplicate: bool, chunk_games: int = DEFAULT_CHUNK_GAMES
) -> list[Chunk]:
    """The chunks of a run of `count` games per pairing that keep every stored chunk still inside it.

    Asking an existing run for more games plays only what is new: each stored chunk whose games
    lie inside its seating's new range is kept as it is, and the gaps are filled with new chunks
    of `chunk_games`. The games played are exactly those of a fresh run of `count` (game ids are
    global, so the chunk layout changes no result); only the chunk boundaries may differ. In a
    run without duplicate the seatings split the ids in halves, so a seating-1 chunk of the old
    half is replayed, in seating 0, when the halves move.
    """
    if chunk_games < 1:
        raise ValueError(f"chunk size must be at least 1 game, got {chunk_games}")
    chunks: list[Chunk] = []
    for index, (first, second) in enumerate(pairings(n_entrants)):
        for seating, (lo, hi) in enumerate(seating_ranges(count, duplicate)):
            side0, side1 = (first, second) if seating == 0 else (second, first)
            kept = sorted(
                (c for c in stored if (c.pairing, c.seating, c.side0, c.side1) == (index, seating, side0, side1)
                 and lo <= c.lo and c.hi <= hi),
                key=lambda c: c.lo,
            )  # fmt: skip
            cursor = lo
            for chunk in [*kept, None]:
                end = hi if chunk is None else chunk.lo
                if chunk is not None and chunk.lo < cursor:
                    continue  # overlaps a chunk already kept
                for start in range(cursor, end, chunk_games):
                    chunks.append(Chunk(index, seating, start, min(start + chunk_games, end), side0, side1))
                if chunk is not None:
                    chunks.append(chunk)
                    cursor = chunk.hi
    return chunks
