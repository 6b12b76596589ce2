"""Running chunk tasks: in this process, in local worker processes, or on a Dask cluster.

Each executor yields finished chunks as they complete, in any order, and keeps only a small
window of chunks in flight, so results stream to disk and memory does not grow with the size of
the tournament. In this process and in local workers, chunks are played as a stream in one batch
kept full across chunk boundaries (`play_stream`); a Dask task is one chunk. When a chunk fails, the executor stops handing out new chunks, still yields every
chunk already running that finishes, and then raises the first error: finished work is kept.
"""

from __future__ import annotations

import atexit
import multiprocessing as mp
import os
import queue
import time
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Any

from spades_lab.tournament.chunks import ChunkResult, ChunkTask, play_stream, run_chunk
from spades_lab.tournament.errors import TournamentError
from spades_lab.tournament.plan import Chunk

START_METHOD = "spawn"
"""Fresh interpreters: portable (macOS, Windows), no inherited locks or threads; numba loads its
compiled kernels from the on-disk cache, so a new worker is ready in about a second and a half
(imports, then kernels), and `WorkerPool` keeps it for the next run of this process."""


def _takes(tasks: Iterable[ChunkTask]) -> tuple[ChunkTask | None, Iterator[ChunkTask]]:
    """The first task (the template of a stream: tasks differ only in their chunk) and all of them."""
    pending = iter(tasks)
    first = next(pending, None)
    return first, (pending if first is None else chain([first], pending))


def run_inline(tasks: Iterable[ChunkTask]) -> Iterator[ChunkResult]:
    """Every chunk in this process, in one batch kept full across chunk boundaries (`play_stream`)."""
    first, pending = _takes(tasks)
    if first is None:
        return

    def take(wait: bool) -> Chunk | None:
        task = next(pending, None)
        return None if task is None else task.chunk

    yield from play_stream(first, take)


def _serve(template: ChunkTask, chunks: Any, results: Any) -> None:
    """A worker process: plays the chunks it takes from `chunks` in one full batch (`play_stream`),
    taking the next whenever a table frees up, and sends each finished chunk to `results`."""
    ended = False

    def take(wait: bool) -> Chunk | None:
        nonlocal ended
        if ended:
            return None
        try:
            chunk = chunks.get(block=wait)
        except queue.Empty:
            return None
        ended = chunk is None
        if not ended:
            results.put(("took", None))  # the parent keeps the queue stocked by what was taken
        return chunk

    try:
        for result in play_stream(template, take):
            results.put(("done", result))
    except TournamentError as exc:
        results.put(("error", exc))
    except BaseException as exc:  # pragma: no cover - a bug or an interrupt in the worker itself
        results.put(("error", TournamentError(f"a worker failed: {type(exc).__name__}: {exc}")))
    finally:
        results.put(("exit", (os.getpid(), time.process_time())))  # its CPU so far, for benchmarks


def _live(inbox: Any, chunks: Any, results: Any) -> None:
    """A pool's worker process: one `_serve` call per run template it is sent, until None.

    Between runs it checks every second that its parent still lives: a parent killed by a signal
    (a notebook kernel restarted) runs no exit handler to stop the pool, and its idle workers
    would otherwise wait for ever."""
    parent = mp.parent_process()
    while True:
        try:
            template = inbox.get(timeout=1.0)
        except queue.Empty:
            if parent is not None and not parent.is_alive():
                return
            continue
        if template is None:
            return
        _serve(template, chunks, results)


class WorkerPool:
    """Spawned players that outlive a run, so the next run of this process (a notebook's sweep, a
    benchmark) does not pay their start-up again.

    A run sends each worker its template through the worker's own inbox and shares one queue of
    chunks and one of results with them. A run that ends cleanly leaves both queues empty (every
    chunk handed out was taken, every end mark consumed, every message received), so the next run
    starts from nothing the last one left; after any other ending the pool is closed and the next
    run starts a new one.
    """

    def __init__(self, size: int) -> None:
        ctx: Any = mp.get_context(START_METHOD)
        self.chunks, self.results = ctx.Queue(), ctx.Queue()
        self.inboxes = [ctx.Queue() for _ in range(size)]
        self.processes = [
            ctx.Process(target=_live, args=(inbox, self.chunks, self.results), daemon=True) for inbox in self.inboxes
        ]
        for process in self.processes:
            process.start()
        self.cpu: dict[int, float] = {}
        """CPU seconds of each worker (by pid) since it started, as it reported at the end of its last run:
        a running worker's own time, which the parent's `RUSAGE_CHILDREN` counts only once it has ended."""

    def alive(self) -> bool:
        return all(p.is_alive() for p in self.processes)

    def usable(self, size: int) -> bool:
        return len(self.processes) == size and self.alive()

    def close(self, wait: bool) -> None:
        """Stop the workers: ask them to end (`wait`: they hold nothing) or terminate them at once."""
        for inbox, process in zip(self.inboxes, self.processes):
            if wait and process.is_alive():
                inbox.put(None)
            else:
                process.terminate()
        for process in self.processes:
            process.join(timeout=10)
            if process.is_alive():  # pragma: no cover - a worker stuck in native code
                process.kill()


_POOL: list[WorkerPool] = []
"""This process's pool, if one is running (at most one)."""


def worker_pool(size: int) -> WorkerPool:
    """The running pool of `size` spawned workers, started (or restarted at another size) if needed."""
    if _POOL and not _POOL[0].usable(size):
        close_pool(wait=_POOL[0].alive())
    if not _POOL:
        _POOL.append(WorkerPool(size))
    return _POOL[0]


def close_pool(wait: bool = True) -> None:
    """Stop this process's worker pool (at exit, and after a run that did not end cleanly)."""
    while _POOL:
        _POOL.pop().close(wait)


atexit.register(close_pool)


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
    """`workers` processes, each playing a stream of chunks in one full batch: this process and
    `workers - 1` spawned ones, kept in this process's `WorkerPool` for the next run.

    This process hands out chunks through a queue and takes its own from the same queue: every
    player takes a chunk whenever its batch has free tables, so none drains its batch at a chunk
    boundary and the last chunks go to whoever is free. The queue is kept stocked with `window`
    chunks not yet taken (each player says when it takes one), whatever the players still hold:
    a chunk stays open in a batch until its longest game ends, dozens of hands after its last game
    started, so a limit on chunks not yet finished left the batches half empty for seconds. This
    process plays from the start, with its kernels loaded, while new workers start up (about a
    second and a half each, paid once per pool). On the first failure nothing more is handed out;
    every player finishes what it holds, the error is raised, and the pool is closed.
    """
    first, pending = _takes(tasks)
    if first is None:
        return
    pool = worker_pool(workers - 1)
    chunks, results, processes = pool.chunks, pool.results, pool.processes
    for worker_inbox in pool.inboxes:
        worker_inbox.put(first)
    window = 2 * workers * (-(-first.batch_size // max(1, first.chunk.games)) + 1)
    handed = taken = exited = 0
    closed = False
    error: TournamentError | None = None
    clean = False
    inbox: list[ChunkResult] = []
    dead: list[Any] = []

    def withdraw() -> None:
        """After a failure: take back the chunks still queued, so no player starts one (they stay missing
        and are played on resume); a chunk a player takes meanwhile is played and kept as usual."""
        while True:
            try:
                chunks.get_nowait()
            except queue.Empty:
                return

    def hand_out() -> None:
        nonlocal handed, closed
        while not closed and handed - taken < window:
            task = next(pending, None) if error is None else None
            if task is None:
                closed = True
                if error is not None:
                    withdraw()
                for _ in range(workers):  # one end mark per player, this process included
                    chunks.put(None)
                return
            chunks.put(task.chunk)
            handed += 1

    def receive(timeout: float | None) -> None:
        """Take the spawned workers' messages: wait up to `timeout` for one (None: do not wait)."""
        nonlocal taken, exited, error
        while True:
            try:
                kind, value = results.get(timeout=timeout) if timeout else results.get_nowait()
            except queue.Empty:
                for p in processes:
                    if p.exitcode is not None and p not in dead:  # it died: it sends nothing more
                        dead.append(p)
                        exited += 1
                        error = error or TournamentError(
                            f"a worker process died (exit code {p.exitcode}); finished chunks are kept, run the"
                            " same command again to finish"
                        )
                return
            if kind == "took":
                taken += 1
            elif kind == "done":
                inbox.append(value)
            elif kind == "error":
                error = error or value
            else:
                exited += 1
                pid, cpu = value
                pool.cpu[pid] = cpu
            timeout = None

    ended = False

    def take(wait: bool) -> Chunk | None:
        """This process's own chunks, from the queue it feeds (serving the workers meanwhile)."""
        nonlocal ended, taken
        while not ended:
            receive(None)
            hand_out()
            try:
                chunk = chunks.get(timeout=0.05) if wait else chunks.get_nowait()
            except queue.Empty:
                if wait:
                    continue
                return None
            ended = chunk is None
            if not ended:
                taken += 1
            return chunk
        return None

    def flush() -> Iterator[ChunkResult]:
        while inbox:
            yield inbox.pop(0)

    try:
        try:
            for own in play_stream(first, take):
                yield from flush()
                yield own
        except TournamentError as exc:
            error = error or exc
            ended = True
        hand_out()  # with an error: hands out nothing more and marks the end for the workers
        while exited < len(processes):
            yield from flush()
            receive(0.5)
            hand_out()
        yield from flush()
        if error is not None:
            raise error
        clean = True
    finally:
        if not clean:  # interrupted (Ctrl-C, an error): do not wait for running chunks
            close_pool(wait=False)


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
