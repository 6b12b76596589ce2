"""Tournaments: every pair of entrants, seeded chunks on disk, resumable, local or on Dask."""

from spades_lab.tournament.config import TournamentConfig
from spades_lab.tournament.errors import ChunkError, CodeChangedWarning, ConfigMismatch, TournamentError
from spades_lab.tournament.plan import DEFAULT_CHUNK_GAMES, Chunk, plan_chunks
from spades_lab.tournament.results import TournamentResult
from spades_lab.tournament.runner import tournament

__all__ = [
    "DEFAULT_CHUNK_GAMES", "Chunk", "ChunkError", "CodeChangedWarning", "ConfigMismatch", "TournamentConfig", "TournamentError",
    "TournamentResult",
    "plan_chunks", "tournament",
]  # fmt: skip
