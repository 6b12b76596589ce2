"""Running chunk tasks: in this process, in local worker processes, or on a Dask cluster.

Each executor yields finished chunks as they complete, in any order, and keeps only a small
window of chunks in flight, so results stream to disk and memory does not grow with the size of
the tournament. In this process and in local workers, chunks are played as a stream in one batch
kept full across chunk boundaries (`play_stream`); a Dask task is one chunk. When a chunk fails, the executor stops handing out new chunks, still yields every
chunk already running that finishes, and then raises the first error: finished work is kept. When
`stop()` turns true (Ctrl-C, SIGTERM: `spades_lab.tournament.interrupt`), they likewise hand out
nothing more and yield every chunk in play as it finishes.
"""

from __future__ import annotations

import atexit
import multiprocessing as mp
import multiprocessing.spawn
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from itertools import chain
from typing import Any

from spades_lab.tournament.chunks import ChunkTask, play_stream, run_chunk
from spades_lab.tournament.errors import TournamentError
from spades_lab.tournament.plan import Chunk, ChunkResult

START_METHOD = "spawn"
"""Fresh interpreters: portable (macOS, Windows), no inherited locks or threads; numba loads its
compiled kernels from the on-disk cache, so a new worker is ready in about a second and a half
(imports, then kernels), and `WorkerPool` keeps it for the next run of this process."""


def _takes(tasks: Iterable[ChunkTask]) -> tuple[ChunkTask | None, Iterator[ChunkTask]]:
    """The first task (the template of a stream: tasks differ only in their chunk) and all of them."""
    pending = iter(tasks)
    first = next(pending, None)
    return first, (pending if first is None else chain([first], pending))


def _never() -> bool:
    return False


def run_inline(tasks: Iterable[ChunkTask], stop: Callable[[], bool] = _never) -> Iterator[ChunkResult]:
    """Every chunk in this process, in one batch kept full across chunk boundaries (`play_stream`)."""
    first, pending = _takes(tasks)
    if first is None:
        return

    def take(wait: bool) -> Chunk | None:
        task = None if stop() else next(pending, None)
        return None if task is None else task.chunk

    yield from play_stream(first, take)


IN_FLIGHT_SECONDS = 0.002
"""How long a player with free tables waits for a chunk before playing its next hand short: a chunk put on
the queue a moment ago is still in the sending process's feeder thread, and the queue looks empty meanwhile."""


class _ToParent:
    """A worker's progress reports, sent to the parent with its other messages (the parent's bar)."""

    def __init__(self, results: Any) -> None:
        self.results = results

    def put(self, item: tuple[int, int]) -> None:
        self.results.put(("progress", item))


def _serve(template: ChunkTask, chunks: Any, results: Any) -> None:
    """A worker process: plays the chunks it takes from `chunks` in one full batch (`play_stream`),
    taking the next whenever a table frees up, and sends each finished chunk to `results`."""
    ended = False
    if template.progress is not None:
        template = replace(template, progress=_ToParent(results))

    def take(wait: bool) -> Chunk | None:
        nonlocal ended
        if ended:
            return None
        try:
            chunk: Chunk | None = chunks.get(timeout=None if wait else IN_FLIGHT_SECONDS)
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


PARENT_CHECK_SECONDS = 0.5
"""How often a worker checks that its parent still lives."""


def _watch_parent(parent_pid: int) -> None:
    """Exit this worker as soon as its parent is gone (killed, even by kill -9): a worker blocked on a
    full pipe or waiting for chunks would otherwise live on as an orphan holding its memory."""
    while os.getppid() == parent_pid:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)


def _live(inbox: Any, chunks: Any, results: Any) -> None:
    """A pool's worker process: one `_serve` call per run template it is sent, until None.

    It ignores SIGINT (a terminal's Ctrl-C, a notebook kernel's interrupt or shutdown reach the
    whole process group): the parent decides how a run ends and tells it through the queues. A
    thread ends it when its parent dies, which runs no exit handler to stop the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = mp.parent_process()
    if parent is not None and parent.pid is not None:
        threading.Thread(target=_watch_parent, args=(parent.pid,), daemon=True).start()
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
        with _worker_start():
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


@contextmanager
def _worker_start() -> Iterator[None]:
    """Start processes that do not run the parent's `__main__` again, with SIGINT ignored from their first
    instruction.

    A spawned process normally re-runs the script that started the parent (as `__mp_main__`), so a
    script calling `tournament(..., workers=2)` at module level, without `if __name__ ==
    "__main__":`, would start a tournament in every worker. Workers need nothing from `__main__`:
    players defined there travel by value (`ShippedPlayer`), and everything else is imported by
    its module name. So the start-up data a worker receives leaves the main module out (as
    joblib's loky executor does). An ignored signal stays ignored in the new interpreter, so a
    Ctrl-C while a worker still imports cannot kill it either (the parent decides how a run ends).
    """
    original = multiprocessing.spawn.get_preparation_data

    def without_main(name: str) -> dict[str, Any]:
        data = original(name)
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
        return data

    main_thread = threading.current_thread() is threading.main_thread()
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN) if main_thread else None
    multiprocessing.spawn.get_preparation_data = without_main
    try:
        yield
    finally:
        multiprocessing.spawn.get_preparation_data = original
        if main_thread:
            signal.signal(signal.SIGINT, handler)


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
    result: Callable[[Any], ChunkResult], window: int, stop: Callable[[], bool] = _never,
) -> Iterator[ChunkResult]:  # fmt: skip
    """Keep up to `window` tasks in flight; on the first failure (or `stop()`) drain what runs, then
    raise the failure."""
    pending = iter(tasks)
    running: set[Any] = set()
    error: BaseException | None = None
    while True:
        while error is None and not stop() and len(running) < window:
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


def run_pool(tasks: Iterable[ChunkTask], workers: int, stop: Callable[[], bool] = _never) -> Iterator[ChunkResult]:
    """`workers` processes, each playing a stream of chunks in one full batch: this process and
    `workers - 1` spawned ones, kept in this process's `WorkerPool` for the next run.

    This process hands out chunks through a queue and takes its own from the same queue: every
    player takes a chunk whenever its batch has free tables, so none drains its batch at a chunk
    boundary and the last chunks go to whoever is free. The queue is kept stocked with `window`
    chunks not yet taken (each player says when it takes one), whatever the players still hold:
    a chunk stays open in a batch until its longest game ends, dozens of hands after its last game
    started, so a limit on chunks not yet finished left the batches half empty for seconds. This
    process plays from the start, with its kernels loaded, while new workers start up (about a
    second and a half each, paid once per pool). On the first failure (or `stop()`) nothing more is
    handed out; every player finishes what it holds, and the error is raised (the pool is closed).
    The workers' progress reports come with their other messages and go to this run's own queue.
    """
    first, pending = _takes(tasks)
    if first is None:
        return
    pool = worker_pool(workers - 1)
    chunks, results, processes = pool.chunks, pool.results, pool.processes
    reports = first.progress
    for worker_inbox in pool.inboxes:  # the workers report progress through `results` (a flag here)
        worker_inbox.put(replace(first, progress=None if reports is None else True))
    window = 2 * workers * (-(-first.config.batch_size // max(1, first.chunk.games)) + 1)
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
            task = next(pending, None) if error is None and not stop() else None
            if task is None:
                closed = True
                if error is not None or stop():
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
                        error = error or TournamentError(f"a worker process died (exit code {p.exitcode})")
                return
            if kind == "progress":
                reports.put(value)
            elif kind == "took":
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
                chunk: Chunk | None = chunks.get(timeout=0.05 if wait else IN_FLIGHT_SECONDS)
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
        hand_out()  # after an error or a stop: hands out nothing more and marks the end for the workers
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


def run_dask(tasks: Iterable[ChunkTask], scheduler: Any, stop: Callable[[], bool] = _never) -> Iterator[ChunkResult]:
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
    client = Client(scheduler) if own else scheduler  # type: ignore[no-untyped-call]  # dask ships no types here

    def result(future: Any) -> ChunkResult:
        try:
            done: ChunkResult = future.result()
            return done
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
            lambda running: dask_wait(list(running), return_when="FIRST_COMPLETED").done,  # type: ignore[no-untyped-call]
            result, 2 * threads, stop,
        )  # fmt: skip
    finally:
        if own:
            client.close()


def execute(
    tasks: Iterable[ChunkTask], workers: int = 1, scheduler: Any = None, stop: Callable[[], bool] = _never
) -> Iterator[ChunkResult]:
    """Finished chunks in completion order, from the executor the arguments choose; once `stop()` is
    true, only the chunks already in play."""
    if scheduler is not None:
        return run_dask(tasks, scheduler, stop)
    if workers <= 1:
        return run_inline(tasks, stop)
    return run_pool(tasks, workers, stop)
