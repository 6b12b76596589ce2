"""The one-off kernel compilation: find it coming, say so, and do it once in the parent process.

numba compiles the engine's and the policies' kernels on first use and caches them on disk. On a
fresh install that first compilation takes tens of seconds (about 25 s measured on this project's
loaded 2-core machine: `NUMBA_CACHE_DIR=$(mktemp -d) python -c "..."` playing one game with the
four default players), during which a progress bar would sit at 0 and then predict hours. So a run
first checks the cache, says what is happening when it is cold, and compiles once in the parent
process (worker processes then load the cached kernels instead of each compiling its own).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any

from spades_lab.compiled import cached

COLD_COMPILE_SECONDS = 25
"""Measured first compilation of every kernel the default players use (see the module docstring)."""


def _package_dispatchers() -> Iterable[Any]:
    from numba.core.registry import CPUDispatcher

    import spades_lab.engine.kernels  # noqa: F401  (the modules holding kernels are loaded before looking)
    import spades_lab.players  # noqa: F401  (registers every shipped strategy, so their modules are loaded)

    for name, module in list(sys.modules.items()):
        if name.startswith("spades_lab") and module is not None:
            for value in list(vars(module).values()):
                if isinstance(value, CPUDispatcher):
                    yield value


CORE_KERNELS = ("legal_plays_into", "apply_play")
"""Kernels every hand uses: with no cache entry at all, this is a first run."""


def cold_kernels() -> list[str]:
    """Names of the core kernels that the next run will compile: never cached, or cached from an older
    source. Empty when the cache is warm.

    Other kernels are left out, cached or not: a 4-player run never compiles the Duel draft, and a
    stale entry of a kernel the run does not use would announce a compilation that never happens.
    """
    cold = []
    for dispatcher in _package_dispatchers():
        if getattr(getattr(dispatcher, "_cache", None), "_cache_file", None) is None:
            continue  # caching off for this kernel
        if dispatcher.py_func.__name__ in CORE_KERNELS and not cached(dispatcher):
            cold.append(dispatcher.py_func.__qualname__)
    return cold


def warm_up(rules: Any, players: Sequence[Any], seed: int = 0, say: bool = True) -> float:
    """Compile the kernels a run will use by playing one short game here, when the cache is cold.

    Says so on stderr first (when `say`), since the compilation can take tens of seconds. Returns
    the seconds spent (0.0 when the cache was warm and nothing was done). Playing this game changes
    no result: it is not part of any run.
    """
    if not cold_kernels():
        return 0.0
    from spades_lab.engine import simulate_games

    if say:
        print(f"compiling kernels (first run only, about {COLD_COMPILE_SECONDS} s) ...", file=sys.stderr, flush=True)
    start = time.perf_counter()
    short = rules.replace(hand_cap=2)
    for _ in simulate_games(short, players, 1, seed, 1):
        pass
    seconds = time.perf_counter() - start
    if say:
        print(f"compiled in {seconds:.0f} s; cached for later runs", file=sys.stderr, flush=True)
    return seconds
