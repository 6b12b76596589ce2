"""What can stop a tournament, with enough in the message to act on it."""

from __future__ import annotations


class TournamentError(RuntimeError):
    """A tournament could not start or finish; finished chunks are kept on disk."""


class ConfigMismatch(TournamentError):
    """The output directory holds another tournament's results."""


class CodeChangedWarning(UserWarning):
    """A run folder's games were played by other code than the running one (same players, same version)."""


class ChunkError(TournamentError):
    """A chunk failed in a worker; names the chunk and, for a policy error, the policy and seat.

    It crosses process and machine boundaries by pickling, so its state travels in `__reduce__`
    rather than in keyword-only constructor arguments (which unpickling cannot pass).
    """

    def __init__(self, message: str, chunk: str | None = None, policy: str | None = None, seat: int | None = None):
        super().__init__(message)
        self.chunk, self.policy, self.seat = chunk, policy, seat

    def __reduce__(self) -> tuple[type[TournamentError], tuple[str, str | None, str | None, int | None]]:
        return (type(self), (str(self), self.chunk, self.policy, self.seat))
