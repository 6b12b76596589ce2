"""Running chunk tasks: in this process, in a local process pool, or on a Dask cluster.

Each executor yields finished chunks as they complete, in any order, and keeps only a small
window of chunks in flight, so results stream to disk and memory does not grow with the size of
the tournament. When a chunk fails, the executor stops handing out new chunks, still yields every
chunk already running that finishes, and then raises the first error: finished work is kept.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from spades_lab.tournament.chunks import ChunkResult, ChunkTask, run_chunk
from spades_lab.tournament.errors import TournamentError

START_METHOD = "spawn"
"""Fresh interpreters: portable (macOS, Windows), no inherited locks or threads; numba loads its
compiled kernels from the on-disk cache, so a new worker is ready in about a second."""


def run_inline(tasks: Iterable[ChunkTask]) -> Iterator[ChunkResult]:
    for task in tasks:
        yield run_chunk(task)


def _window(
    tasks: Iterable[ChunkTask], submit: Callable[[ChunkTask], Any], wait_any: Callable[[set[Any]], set[Any]],
    result: Callable[[Any], ChunkResult], window: int,
) -> Iterator[ChunkResult]:  # fmt: skip
    """Keep up to `window` tasks in flight; on the first failure drain what runs, then raise it."""
    pending = iter(tasks)
    running: set = set()
    error: BaseException | None = None
    while True:
        while error is None and len(running) < window:
            task = next(pending, None)
            if task is None:
                break
            running.add(submit(task))
        if not running:
            break
        for future in wait_any(running):
            running.discard(future)
            try:
                done = result(future)
            except TournamentError as exc:
                error = error or exc
            else:
                yield done
    if error is not None:
        raise error


def run_pool(tasks: Iterable[ChunkTask], workers: int) -> Iterator[ChunkResult]:
    """A local pool of `workers` spawned processes."""
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context(START_METHOD))
    clean = False

    def result(future: Future) -> ChunkResult:
        try:
            return future.result()
        except BrokenProcessPool as exc:
            raise TournamentError(
                f"a worker process died ({exc}); finished chunks are kept, run the same command again to finish"
            ) from None

    try:
        yield from _window(
            tasks, lambda t: pool.submit(run_chunk, t),
            lambda running: wait(running, return_when=FIRST_COMPLETED)[0], result, 2 * workers,
        )  # fmt: skip
        clean = True
    finally:
        if clean:
            pool.shutdown(wait=True)
        else:
            # Interrupted (Ctrl-C, an error in the caller): do not wait for running chunks to end.
            processes = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                if process.is_alive():
                    process.terminate()


def run_dask(tasks: Iterable[ChunkTask], scheduler: Any) -> Iterator[ChunkResult]:
    """Chunks on a Dask cluster: `scheduler` is a `distributed.Client` or a scheduler address.

    Results travel back to this process, which writes them; workers need the package installed
    but no access to the output directory.
    """
    try:
        from distributed import Client
        from distributed import wait as dask_wait
    except ImportError:  # pragma: no cover - depends on the environment
        raise TournamentError("Dask is not installed: pip install 'dask[distributed]'") from None
    own = not isinstance(scheduler, Client)
    client = Client(scheduler) if own else scheduler

    def result(future) -> ChunkResult:
        try:
            return future.result()
        except TournamentError:
            raise
        except Exception as exc:
            raise TournamentError(
                f"Dask could not run a chunk ({type(exc).__name__}: {exc}); finished chunks are kept"
            ) from None
        finally:
            future.release()

    threads = max(1, sum(client.nthreads().values()))
    try:
        yield from _window(
            tasks, lambda t: client.submit(run_chunk, t, pure=False),
            lambda running: dask_wait(list(running), return_when="FIRST_COMPLETED").done, result, 2 * threads,
        )  # fmt: skip
    finally:
        if own:
            client.close()


def execute(tasks: Iterable[ChunkTask], workers: int = 1, scheduler: Any = None) -> Iterator[ChunkResult]:
    """Finished chunks in completion order, from the executor the arguments choose."""
    if scheduler is not None:
        return run_dask(tasks, scheduler)
    if workers <= 1:
        return run_inline(tasks)
    return run_pool(tasks, workers)
