"""Which games a tournament plays: pairings, seatings and the chunks of game ids they split into.

A chunk is a fixed range of global game ids of one pairing in one seating. Because the engine
derives every game from (seed, game id) alone, a chunk plays the same games whoever runs it, in
whatever order, and however big the other chunks are; the chunk size only decides how much work
is lost to an interruption and how finely it spreads over workers.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

DEFAULT_CHUNK_GAMES = 4000


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

    def to_dict(self) -> dict[str, int | str | list[int]]:
        return {"id": self.id, "pairing": self.pairing, "seating": self.seating, "side0": self.side0,
                "side1": self.side1, "games": [self.lo, self.hi]}  # fmt: skip


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
