"""A stream of chunks keeps one batch full across chunk boundaries and plays exactly the chunks' games.

`GameStream` (engine) takes the next block of game ids whenever a table frees up, with tables of
different line-ups (pairings, seatings) in one batch; `play_stream` (tournament) turns that into
finished chunks. Both must give the games `simulate_games` / `run_chunk` give, whatever the batch
size and the order the blocks come in.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from spades_lab.engine import HandLog, simulate_games, simulate_hands
from spades_lab.engine.stream import GameBlock, GameStream
from spades_lab.policies import make_player
from spades_lab.rules import Rules
from spades_lab.tournament.chunks import ChunkTask, play_stream, run_chunk
from spades_lab.tournament.config import TournamentConfig
from spades_lab.tournament.plan import plan_chunks

RULES = Rules(hand_cap=12)
A, B, R = make_player("counting+tips"), make_player("cautious+tips"), make_player("random")
LINEUPS = [(A, B, A, B), (B, A, B, A), (R, A, R, A)]
BLOCKS = [(0, 0, 23), (1, 23, 41), (2, 0, 30), (0, 41, 44), (1, 0, 9)]
"""(line-up, lo, hi): overlapping game ids in different line-ups, as duplicate seatings have."""


def stream_logs(batch: int, single: bool, blocks=BLOCKS) -> tuple[dict[int, HandLog], list[tuple[int, int, int]]]:
    """Each block's hands, and per batch played (its tables, the games it started, its blocks)."""
    pending = iter(blocks)

    def take(wait: bool) -> GameBlock | None:
        nxt = next(pending, None)
        return None if nxt is None else GameBlock(LINEUPS[nxt[0]], nxt[1], nxt[2])

    parts: dict[int, list[HandLog]] = {i: [] for i in range(len(blocks))}
    sizes = []
    for log, block in GameStream(RULES, 7, batch, single_hands=single).run(take):
        sizes.append((len(log), int((log.hand == 0).sum()), len(np.unique(block))))
        for b in np.unique(block):
            parts[int(b)].append(log.take(np.flatnonzero(block == b)))
    return {b: HandLog.concat(p).sorted() for b, p in parts.items()}, sizes


@pytest.mark.parametrize("single", [False, True])
@pytest.mark.parametrize("batch", [3, 64, 4096])
def test_stream_plays_each_blocks_games_as_simulate_does(batch: int, single: bool) -> None:
    logs, _ = stream_logs(batch, single)
    for b, (lineup, lo, hi) in enumerate(BLOCKS):
        play = simulate_hands if single else simulate_games
        reference = HandLog.concat(list(play(RULES, list(LINEUPS[lineup]), hi - lo, 7, 16, lo))).sorted()
        for name, value in vars(reference).items():
            assert np.array_equal(getattr(logs[b], name), value), (b, name)


def test_the_batch_stays_full_until_the_last_block_is_handed_out() -> None:
    """Draining happens once, at the end of the stream, not at each block boundary: a batch of 16
    tables fed blocks of 10 games is full at every hand until all 120 games have started."""
    blocks = [(k % 3, 10 * k, 10 * k + 10) for k in range(12)]
    batch = 16
    logs, sizes = stream_logs(batch, False, blocks)
    assert sum(len(np.unique(log.game)) for log in logs.values()) == 120
    started = 0
    for tables, new, _ in sizes:
        started += new
        if started < 120:
            assert tables == batch, "a table was left empty while games were waiting"
    assert started == 120
    assert sizes[-1][0] < batch, "the stream ends by draining"
    assert max(b for _, _, b in sizes) >= 3, "tables of several blocks (and line-ups) share a batch"


def task_for(chunk, batch: int) -> ChunkTask:
    names = ("counting+tips", "cautious+tips")
    return ChunkTask(chunk, TournamentConfig(names, RULES, 3, "games", chunk.hi, batch_size=batch), names)


def test_play_stream_mixes_seatings_in_one_batch_and_gives_run_chunks_tables() -> None:
    chunks = plan_chunks(2, 40, False, 7)  # seatings 0 and 1, chunks of 7 games
    order = sorted(chunks, key=lambda c: (c.lo % 3, c.seating, c.lo))  # any order the parent hands out
    pending = iter(order)
    results = list(play_stream(task_for(order[0], 32), lambda wait: next(pending, None)))
    assert sorted(r.chunk.id for r in results) == sorted(c.id for c in chunks)
    for result in results:
        alone = run_chunk(replace(task_for(result.chunk, 64), chunk=result.chunk))
        pd.testing.assert_frame_equal(result.games, alone.games)
        pd.testing.assert_frame_equal(result.tallies, alone.tallies)
        pd.testing.assert_frame_equal(result.hands, alone.hands)
        assert result.n_hands == alone.n_hands
        assert result.totals is not None and alone.totals is not None
        for key, row in alone.totals[0].items():
            assert np.array_equal(result.totals[0][key], row)
        assert np.array_equal(result.totals[1], alone.totals[1])


def test_tally_totals_are_the_game_rows_totals() -> None:
    from spades_lab.stats.tables import game_totals

    chunk = plan_chunks(2, 30, False, 30)[1]
    result = run_chunk(task_for(chunk, 8))
    expected = game_totals(result.games)
    assert result.totals is not None
    for key, row in result.totals[0].items():
        assert np.array_equal(expected.loc[key].to_numpy(dtype=np.int64), row)


class DiesInAWorker:
    """Plays its lowest legal card; in a spawned worker process it kills that process instead.

    `slow` makes each play in the parent take 3 ms, so the parent cannot finish the run alone
    before the spawned worker has started. It is kept private: it changes the timing, not the games,
    so it is no part of what the player is (a tournament folder compares public settings)."""

    name = "dies-in-a-worker"

    def __init__(self, slow: bool = False) -> None:
        self._slow = slow

    def bid(self, view) -> np.ndarray:
        return np.argmax(view.legal_bids[:, 1:], axis=1).astype(np.int64) + 1

    def play(self, view) -> np.ndarray:
        import multiprocessing
        import os

        if multiprocessing.parent_process() is not None:
            os._exit(3)
        if self._slow:
            import time

            time.sleep(0.003)
        return np.log2((view.legal & -view.legal).astype(np.float64)).astype(np.int64)


def test_a_killed_worker_stops_the_run_with_finished_chunks_kept(tmp_path) -> None:
    from spades_lab.policies import Player
    from spades_lab.tournament import TournamentError, tournament
    from spades_lab.tournament.storage import RunDir

    slow = Player(DiesInAWorker(slow=True), DiesInAWorker(slow=True), label="dies-in-a-worker")
    dies = Player(DiesInAWorker(), DiesInAWorker(), label="dies-in-a-worker")
    kwargs = dict(rules=Rules(hand_cap=3), games=400, seed=2, chunk_games=10, batch_size=16, out=tmp_path / "t")
    with pytest.raises(TournamentError, match="a worker process died"):
        tournament(["random", slow], workers=2, **kwargs)
    done = [c for c in plan_chunks(2, 400, False, 10) if RunDir(tmp_path / "t").is_done(c)]
    assert done, "the chunks this process played are kept"
    resumed = tournament(["random", dies], workers=1, **kwargs)
    assert resumed.chunks_run == 40 - len(done)
    clean = tournament(["random", dies], workers=1, **{**kwargs, "out": tmp_path / "clean"})
    pd.testing.assert_frame_equal(resumed.summary, clean.summary)
