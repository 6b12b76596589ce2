"""A run's configuration, written once: what `tournament()` checks, the manifest records and every worker plays.

A `TournamentConfig` is built from `tournament()`'s arguments (or by the CLI through them), checked there, written
to the manifest as `to_dict()` (the `config` of manifest.json, with the package version and each entrant's
resolved identity beside it), handed to every chunk task, and read back from a run folder by
`TournamentResult.config` (`from_dict`). Results depend on every recorded field and on nothing else: `batch_size`
is kept out of the record because no result depends on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spades_lab.engine import MAX_HANDS
from spades_lab.engine.simulate import DEFAULT_BATCH
from spades_lab.rules import Rules
from spades_lab.tournament.errors import TournamentError
from spades_lab.tournament.plan import DEFAULT_CHUNK_GAMES, check_plannable

UNITS = ("games", "hands")


@dataclass(frozen=True)
class TournamentConfig:
    """Who plays, under which rules, how many games or hands from which seed, in which layout."""

    entrants: tuple[str, ...]
    """The entrants' names, in order (each pairing seats two of them)."""
    rules: Rules
    seed: int
    unit: str
    """`games` (complete games) or `hands` (independent hands from 0-0)."""
    count: int
    """Games or hands per pairing (each played twice with `duplicate`)."""
    duplicate: bool = False
    chunk_games: int = DEFAULT_CHUNK_GAMES
    store_hands: bool = True
    records: bool = False
    max_hands: int | None = MAX_HANDS
    dd: bool = False
    batch_size: int = DEFAULT_BATCH
    """Tables advanced together; not recorded, since no result depends on it."""

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise TournamentError(f"unit = {self.unit!r} is impossible; allowed: {', '.join(UNITS)}")
        for name, value in (
            (self.unit, self.count),
            ("batch_size", self.batch_size),
            ("chunk_games", self.chunk_games),
        ):
            if value < 1:
                raise TournamentError(f"{name} = {value} is impossible; allowed: at least 1")
        if self.rules.players == 3:  # two entrants cannot share three seats evenly
            raise TournamentError(
                "rules field players = 3: a tournament seats two entrants at seats 0+2 and 1+3, which three seats"
                " cannot hold evenly; play three-player games with simulate_games (spades-lab simulate)"
            )
        if self.dd and self.rules.sides > 2:  # refused before the folder is touched, as simulate --dd refuses it
            raise TournamentError(
                "rules field partnerships = False (cutthroat) cannot go with dd=True (--dd): the double-dummy solver"
                " counts a partnership's tricks; allowed: partnerships True, or Duel"
            )
        check_plannable(len(self.entrants), self.count, self.duplicate, self.chunk_games, self.unit)

    @property
    def single_hands(self) -> bool:
        """Independent hands from 0-0 (game id = hand id) instead of complete games."""
        return self.unit == "hands"

    def to_dict(self, version: str, players: dict[str, Any]) -> dict[str, Any]:
        """The manifest's `config`: every field results depend on, the package `version` and each entrant's
        resolved identity (`players`). `dd` is written only when on, so runs made before it still resume."""
        return {
            "entrants": list(self.entrants), "rules": self.rules.to_dict(), "seed": self.seed, "unit": self.unit,
            "count": self.count, "duplicate": self.duplicate, "chunk_games": self.chunk_games,
            "store_hands": self.store_hands, "records": self.records, "version": version, "max_hands": self.max_hands,
            "players": players, **({"dd": True} if self.dd else {}),
        }  # fmt: skip

    @classmethod
    def from_dict(cls, config: dict[str, Any], batch_size: int = DEFAULT_BATCH) -> TournamentConfig:
        """The configuration a manifest recorded (`to_dict`'s `config`)."""
        return cls(
            tuple(config["entrants"]), Rules.from_dict(config["rules"]), int(config["seed"]), str(config["unit"]),
            int(config["count"]), bool(config["duplicate"]), int(config["chunk_games"]), bool(config["store_hands"]),
            bool(config["records"]), config.get("max_hands", MAX_HANDS), bool(config.get("dd", False)), batch_size,
        )  # fmt: skip
