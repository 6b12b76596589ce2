"""Stopping a run without losing what was played: Ctrl-C and SIGTERM finish the chunks in play first.

A chunk is the unit a run keeps, and a player (this process or a worker) has several chunks open
in its batch at once, most of them part played. Stopping at once would throw all of that away;
so the first Ctrl-C (SIGINT) or SIGTERM (what `timeout`, `kill` and batch schedulers send) only
stops handing out chunks: every chunk in play finishes and is written, and the run then raises
`TournamentInterrupted` saying how much is kept. A second signal stops at once (only the chunks
already written are kept). Workers ignore SIGINT, since the terminal sends it to them too: the
parent decides how the run ends.
"""

from __future__ import annotations

import signal
import sys
import threading
from types import FrameType, TracebackType
from typing import Any

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class TournamentInterrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C or SIGTERM after keeping every chunk that was in play; the message
    says how much is kept and how to finish."""


class Interruption:
    """While active (a `with` block in the main thread): the first SIGINT or SIGTERM is recorded and
    announced, the second raises KeyboardInterrupt. Calling the object says whether to stop."""

    def __init__(self, say: bool = True) -> None:
        self.signal_name: str | None = None
        self.say = say
        self._saved: dict[int, Any] = {}

    def __call__(self) -> bool:
        return self.signal_name is not None

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.signal_name is not None:
            raise KeyboardInterrupt
        self.signal_name = signal.Signals(signum).name
        if self.say:
            print(f"\n{self.signal_name}: finishing the chunks in play so that they are kept"
                  " (Ctrl-C again stops at once)", file=sys.stderr, flush=True)  # fmt: skip

    def __enter__(self) -> Interruption:
        if threading.current_thread() is threading.main_thread():
            for signum in SIGNALS:
                try:
                    self._saved[signum] = signal.signal(signum, self._handle)
                except (ValueError, OSError):  # pragma: no cover - a platform without the signal
                    continue
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        for signum, handler in self._saved.items():
            signal.signal(signum, handler)
        self._saved.clear()
