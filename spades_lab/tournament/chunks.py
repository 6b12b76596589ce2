"""Playing one chunk in a worker: its games, summed per game, plus optional hand rows and records.

This is the function a worker process or a Dask worker runs. It takes only picklable values
(rules, entrant names or picklable players, the chunk), builds the players itself and returns
tables the parent writes to disk, so workers need no shared file system.
"""

from __future__ import annotations

import json
import time
import traceback
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import cloudpickle
import numpy as np
import pandas as pd

from spades_lab._version import __version__
from spades_lab.dd.hands import hand_tricks, process_solver, with_dd
from spades_lab.engine import HandLog, MaxHandsWarning, PolicyError, simulate_games, simulate_hands
from spades_lab.engine.records import hand_records
from spades_lab.engine.stream import GameBlock, GameStream
from spades_lab.players import Player, make_player
from spades_lab.stats.tables import tally_totals
from spades_lab.stats.tally import GameTally, dd_measures, side_measures
from spades_lab.tournament.config import TournamentConfig
from spades_lab.tournament.errors import ChunkError
from spades_lab.tournament.plan import Chunk, ChunkResult
from spades_lab.tournament.storage import RunDir

EntrantSpec = str | Player
"""A player name (`counting+tips`) or a Player; a Player must pickle to reach worker processes."""


@dataclass(frozen=True)
class ShippedPlayer:
    """A player object packed by value with cloudpickle: classes and functions defined in a notebook
    or in `__main__` travel with it, where plain pickle would send only their names, which a spawned
    or Dask worker cannot find."""

    payload: bytes

    @classmethod
    def pack(cls, player: Any) -> ShippedPlayer:
        return cls(cloudpickle.dumps(player))

    def unpack(self) -> Any:
        return cloudpickle.loads(self.payload)


@dataclass(frozen=True)
class ChunkTask:
    """One chunk of a run to play: the run's configuration, its entrants as the worker builds them, the chunk."""

    chunk: Chunk
    config: TournamentConfig
    entrants: tuple[EntrantSpec | ShippedPlayer, ...]
    """Every entrant of the tournament, in order; the chunk names two by index."""
    version: str | None = None
    """The parent's package version; a worker with another version refuses the chunk."""
    write_to: str | None = None
    """Output directory the worker writes the chunk to itself (a local pool shares the disk), sparing
    the parent the transfer and the writing; None returns the tables instead (Dask workers)."""
    progress: Any = None
    """A queue the worker reports each batch to, as (games finished, hands played), so the parent's bar
    moves per batch rather than per chunk; None reports nothing. Results never depend on it."""

    def describe(self) -> str:
        c = self.chunk
        sides = "seats 0+2 vs seats 1+3" if self.config.rules.players == 4 else "seat 0 vs seat 1"
        sides += "" if self.config.rules.partnerships else " (each seat for itself)"
        return (f"chunk {c.id} (games {c.lo}..{c.hi - 1}, {self.config.entrants[c.side0]} vs {self.config.entrants[c.side1]} on {sides},"
                f" seed {self.config.seed})")  # fmt: skip


DD_BATCH = 32
"""Largest batch of a dd=True chunk: solving takes seconds a hand, so smaller batches move the progress bar
(and the results never depend on the batch size)."""

_PLAYERS: dict[str | bytes, Player] = {}


def _player(spec: EntrantSpec | ShippedPlayer) -> Player:
    """Build (or unpack) a player once per process; policies may precompute tables when built."""
    if isinstance(spec, ShippedPlayer):
        if spec.payload not in _PLAYERS:
            _PLAYERS[spec.payload] = spec.unpack()
        return _PLAYERS[spec.payload]
    if not isinstance(spec, str):
        return spec
    if spec not in _PLAYERS:
        _PLAYERS[spec] = make_player(spec)
    return _PLAYERS[spec]


def batch_for(task: ChunkTask) -> int:
    """Tables one process advances together: the configured batch, at most `DD_BATCH` with DD tricks, and
    at most every entrant's `Player.batch_limit` (a search player takes seconds a decision; with a large
    batch the first process would take every game and leave the other workers idle)."""
    limits = [task.config.batch_size] + ([DD_BATCH] if task.config.dd else [])
    limits += [limit for limit in (getattr(_player(e), "batch_limit", None) for e in task.entrants) if limit]
    return max(1, min(limits))


def seat_players(task: ChunkTask) -> list[Player]:
    side0, side1 = _player(task.entrants[task.chunk.side0]), _player(task.entrants[task.chunk.side1])
    return [side0, side1] * (task.config.rules.players // 2)


def hand_frame(log: HandLog, chunk: Chunk) -> pd.DataFrame:
    """One row per hand: what was dealt, bid and won per seat, and the score per side."""
    seats = log.bids.shape[1]
    data: dict[str, np.ndarray] = {
        "pairing": np.full(len(log), chunk.pairing, dtype=np.int64),
        "seating": np.full(len(log), chunk.seating, dtype=np.int64),
        "game": log.game,
        "hand": log.hand,
        "dealer": log.dealer,
    }
    for name, array in (("deal", log.deal), ("bid", log.bids), ("tricks", log.tricks), ("blind", log.blind)):
        for seat in range(seats):
            data[f"{name}{seat}"] = array[:, seat]
    per_side = (
        ("score_before", log.score_before), ("bags_before", log.bags_before), ("hand_score", log.hand_score),
        ("score_after", log.score_after), ("bags_after", log.bags_after), ("bags_won", log.bags_won),
        ("bag_penalties", log.bag_penalties),
    )  # fmt: skip
    for name, array in per_side:
        for side in range(array.shape[1]):  # 2 sides, or one per player in cutthroat
            data[f"{name}{side}"] = array[:, side]
    data["game_over"] = log.game_over
    data["winner"] = log.winner
    data["unfinished"] = log.unfinished
    if log.dd_tricks is not None:
        for side in (0, 1):
            data[f"dd_tricks{side}"] = log.dd_tricks[:, side]
    return pd.DataFrame(data)


def _records(log: HandLog, task: ChunkTask) -> list[str]:
    """hand-record lines, with the tournament's pairing, seating and entrants added (a writer may add fields)."""
    c = task.chunk
    extra = {
        "pairing": c.pairing,
        "seating": c.seating,
        "entrants": [task.config.entrants[c.side0], task.config.entrants[c.side1]],
    }
    return [json.dumps({**record, **extra}, separators=(",", ":")) for record in hand_records(log, task.config.rules)]


def _play(task: ChunkTask) -> ChunkResult:
    if task.version is not None and task.version != __version__:
        raise RuntimeError(
            f"this worker has spades-lab {__version__}, the tournament runs {task.version}; install the same version"
        )
    start = time.perf_counter()
    c = task.chunk
    players = seat_players(task)
    batch = min(batch_for(task), c.games)
    if task.config.single_hands:
        logs = simulate_hands(task.config.rules, players, c.games, task.config.seed, batch, c.lo)
    else:
        logs = simulate_games(
            task.config.rules, players, c.games, task.config.seed, batch, c.lo, max_hands=task.config.max_hands
        )
    if task.config.dd:
        logs = with_dd(logs, task.config.rules, solver=process_solver(task.config.rules))
    tally = GameTally(task.config.rules, c.lo, c.hi, single_hands=task.config.single_hands, dd=task.config.dd)
    kept: list[HandLog] = []
    n_hands = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MaxHandsWarning)  # one warning for the whole run, from the parent
        for log in logs:
            tally.add(log)
            n_hands += len(log)
            if task.progress is not None:
                finished = (
                    len(log) if task.config.single_hands else int(np.count_nonzero(log.game_over | log.unfinished))
                )
                task.progress.put((finished, len(log)))
            if task.config.store_hands or task.config.records:
                kept.append(log)
    return _finish(task, tally, kept, n_hands, start)


def _finish(task: ChunkTask, tally: GameTally, kept: list[HandLog], n_hands: int, start: float) -> ChunkResult:
    """The chunk's tables from its tally and kept hand logs (consumed)."""
    c = task.chunk
    games = tally.frame((task.config.entrants[c.side0], task.config.entrants[c.side1]), list(task.config.entrants))
    games.insert(0, "seating", np.int64(c.seating))
    games.insert(0, "pairing", np.int64(c.pairing))
    hist = tally.bid_totals
    totals = np.flatnonzero(hist)
    tallies = pd.DataFrame({"pairing": np.int64(c.pairing), "seating": np.int64(c.seating), "bid_total": totals,
                            "hands": hist[totals]})  # fmt: skip
    hands = records = None
    if kept:
        log = HandLog.concat(kept).sorted()
        kept.clear()
        hands = hand_frame(log, c) if task.config.store_hands else None
        records = _records(log, task) if task.config.records else None
    dense = hist[: int(totals[-1]) + 1 if len(totals) else 1]  # as `aggregate` rebuilds it from the file
    summed = (tally_totals(tally, (task.config.entrants[c.side0], task.config.entrants[c.side1])), dense)
    return ChunkResult(c, games, tallies, hands, records, n_hands, time.perf_counter() - start, totals=summed)


def _written(task: ChunkTask, result: ChunkResult) -> ChunkResult:
    """The result as the parent needs it: written by this worker when it shares the disk."""
    if task.write_to is None:
        return result
    files = RunDir(task.write_to).write_chunk(result)
    return ChunkResult(result.chunk, None, None, None, None, result.n_hands, result.seconds, written=True,
                       files=files, totals=result.totals)  # fmt: skip


def _chunk_error(task: ChunkTask, exc: Exception) -> ChunkError:
    if isinstance(exc, PolicyError):
        return ChunkError(f"{task.describe()}: {exc}", task.chunk.id, exc.policy, exc.seat)
    where = "".join(traceback.format_exception(exc)[-4:]).rstrip()
    return ChunkError(f"{task.describe()}: {type(exc).__name__}: {exc}\n{where}", task.chunk.id)


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Play a chunk; any failure comes back as a ChunkError naming the chunk (and policy and seat)."""
    try:
        return _written(task, _play(task))
    except Exception as exc:
        raise _chunk_error(task, exc) from None


@dataclass
class _Open:
    """A chunk whose games are in the stream's batch: what `_play` keeps for one chunk."""

    task: ChunkTask
    tally: GameTally
    start: float
    ended: int = 0
    n_hands: int = 0
    kept: list[HandLog] = field(default_factory=list)


def play_stream(template: ChunkTask, take: Callable[[bool], Chunk | None]) -> Iterator[ChunkResult]:
    """Play the chunks `take` hands out in one batch kept full across chunk boundaries; yield each
    chunk as its last game ends (written, as `run_chunk` does).

    `take(wait)` returns the next chunk or None: "none now" when wait is False (asked again after
    the next hand), "no more" when wait is True (the batch is empty then). The chunks' games are
    exactly those `run_chunk` plays: a game depends on (seed, game id) and its seat policies only.
    If anything fails, the chunks still in play are replayed one by one with `run_chunk`, so every
    one that can finish is yielded and the failing one raises its own ChunkError (chunk, policy, seat).
    """
    batch = batch_for(template)
    stream = GameStream(
        template.config.rules, template.config.seed, batch, template.config.max_hands, template.config.single_hands
    )
    open_: dict[int, _Open] = {}
    blocks = 0
    keep = template.config.store_hands or template.config.records

    def next_block(wait: bool) -> GameBlock | None:
        nonlocal blocks
        chunk = None if failed else take(wait)
        if chunk is None:
            return None
        if template.version is not None and template.version != __version__:
            raise RuntimeError(
                f"this worker has spades-lab {__version__}, the tournament runs {template.version}; install the"
                " same version"
            )
        task = replace(template, chunk=chunk)
        tally = GameTally(task.config.rules, chunk.lo, chunk.hi, task.config.single_hands, dd=task.config.dd)
        open_[blocks] = _Open(task, tally, time.perf_counter())
        blocks += 1
        return GameBlock(seat_players(task), chunk.lo, chunk.hi)

    failed = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MaxHandsWarning)
            for log, block in stream.run(next_block):
                first, last = int(block.min()), int(block.max())
                finished: list[int] = []
                ended = (
                    np.ones(len(log), dtype=bool) if template.config.single_hands else log.game_over | log.unfinished
                )
                measures = side_measures(log, template.config.rules)
                if template.config.dd:
                    log.dd_tricks = hand_tricks(
                        log, template.config.rules, solver=process_solver(template.config.rules)
                    )
                    measures.update(dd_measures(log, template.config.rules))
                for b in range(first, last + 1):
                    part = open_.get(b)
                    if part is None:
                        continue
                    rows = None if first == last else np.flatnonzero(block == b)
                    if rows is not None and not len(rows):
                        continue
                    part.tally.add(log, rows, measures)
                    part.n_hands += len(log) if rows is None else len(rows)
                    part.ended += int(np.count_nonzero(ended if rows is None else ended[rows]))
                    if keep:
                        part.kept.append(log if rows is None else log.take(rows))
                    if part.ended == part.task.chunk.games:
                        finished.append(b)
                if template.progress is not None:
                    template.progress.put((int(np.count_nonzero(ended)), len(log)))
                for b in finished:
                    part = open_.pop(b)
                    result = _finish(part.task, part.tally, part.kept, part.n_hands, part.start)
                    yield _written(part.task, result)
    except Exception as exc:
        failed = True
        tasks = [open_.pop(b).task for b in sorted(open_)]
        for task in tasks:
            yield run_chunk(task)  # the failing chunk raises its own ChunkError here
        error = _chunk_error(tasks[0] if tasks else template, exc)
        raise ChunkError(f"{error} (the chunks in play finished when replayed one by one)", error.chunk, error.policy,
                         error.seat) from None  # fmt: skip
