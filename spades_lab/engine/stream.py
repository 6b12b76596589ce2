"""Complete games from a stream of blocks of game ids, each with its own line-up, in one full batch.

`simulate_games` plays one line-up's games and its batch drains at the end: the last tables run
alone until the longest game ends, and a batch of a few tables costs almost what a full one does
per decision. A tournament plays many short ranges of game ids (chunks), of several pairings and
seatings; draining at the end of each one cost it a quarter of its speed. `GameStream` takes the
next block whenever a table frees up, so the batch stays full across block boundaries and drains
once, when no block is left. Tables of different line-ups share the batch (`play_hand`'s
`lineup`), and every game still depends only on (seed, game id) and its line-up's policies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from spades_lab.engine import rng
from spades_lab.engine.protocol import Policy
from spades_lab.engine.simulate import DEFAULT_BATCH, MAX_HANDS, HandLog, play_hand
from spades_lab.rules import Rules


@dataclass(frozen=True)
class GameBlock:
    """Games lo..hi-1 with `seats[s]` deciding for seat s."""

    seats: Sequence[Policy]
    lo: int
    hi: int


Take = Callable[[bool], GameBlock | None]
"""`take(wait)`: the next block, or None. With wait False, None only means "nothing now" (the
stream asks again after the next hand); with wait True, no game of the batch is in play and None means
"no more": the stream plays what it has taken and ends."""


class GameStream:
    """Plays the games of the blocks `take` hands out, refilling freed tables at once.

    `run` yields every hand batch with, per row, the index of its block (blocks count from 0 in
    the order they were taken). A block's games are finished when as many of its rows have ended
    (`game_over | unfinished`; every row in `single_hands` mode) as it has games. `block` holds the
    block of each table of the batch being played, to name the block of a failing table.
    """

    def __init__(
        self,
        rules: Rules,
        seed: int,
        batch_size: int = DEFAULT_BATCH,
        max_hands: int | None = MAX_HANDS,
        single_hands: bool = False,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size = {batch_size!r} is impossible; allowed: at least 1 table")
        self.rules, self.batch_size, self.max_hands, self.single_hands = rules, batch_size, max_hands, single_hands
        self.root = rng.seed_key(seed)
        self.lineups: list[tuple[Policy, ...]] = []
        self._lineup_of: dict[tuple[int, ...], int] = {}
        self.block = np.zeros(0, dtype=np.int64)
        self.stopped = 0
        """Games stopped unfinished at `max_hands` so far."""

    def _lineup(self, seats: Sequence[Policy]) -> int:
        key = tuple(id(p) for p in seats)
        index = self._lineup_of.get(key)
        if index is None:
            if len(seats) != self.rules.players:
                raise ValueError(f"a block needs {self.rules.players} seat policies, got {len(seats)}")
            index = self._lineup_of[key] = len(self.lineups)
            self.lineups.append(tuple(seats))
        return index

    def run(self, take: Take) -> Iterator[tuple[HandLog, np.ndarray]]:
        seats = self.rules.players
        empty = np.zeros(0, dtype=np.int64)
        game, hand, lineup, block = empty, empty, empty, empty
        keys = np.zeros(0, dtype=np.uint64)
        dealer = empty
        scores = bags = np.zeros((0, self.rules.sides), dtype=np.int64)
        # The block being drawn from: (index, lineup, next game id, end).
        current: tuple[int, int, int, int] | None = None
        blocks = 0
        while True:
            free = self.batch_size - len(game)
            fresh_parts: list[tuple[np.ndarray, int, int]] = []
            while free > 0:
                if current is None or current[2] >= current[3]:
                    # An empty batch waits to be filled whole: a block handed out a moment ago may still be
                    # on its way, and a first hand started with one block would run the batch short.
                    got = take(len(game) == 0)
                    if got is None:
                        current = None
                        break
                    current = (blocks, self._lineup(got.seats), int(got.lo), int(got.hi))
                    blocks += 1
                    continue
                index, line, lo, hi = current
                top = min(hi, lo + free)
                fresh_parts.append((np.arange(lo, top, dtype=np.int64), line, index))
                free -= top - lo
                current = (index, line, top, hi)
            if fresh_parts:
                fresh = np.concatenate([ids for ids, _, _ in fresh_parts])
                fresh_keys = rng.derive(self.root, fresh)
                game = np.concatenate([game, fresh])
                hand = np.concatenate([hand, np.zeros(len(fresh), dtype=np.int64)])
                keys = np.concatenate([keys, fresh_keys])
                dealer = np.concatenate([dealer, rng.below(fresh_keys, rng.STREAM_DEALER, seats)])
                scores = np.concatenate([scores, np.zeros((len(fresh), self.rules.sides), dtype=np.int64)])
                bags = np.concatenate([bags, np.zeros((len(fresh), self.rules.sides), dtype=np.int64)])
                lineup = np.concatenate([lineup, *(np.full(len(ids), line, np.int64) for ids, line, _ in fresh_parts)])
                block = np.concatenate([block, *(np.full(len(ids), b, np.int64) for ids, _, b in fresh_parts)])
            if not len(game):
                return
            self.block = block
            log = play_hand(self.rules, self.lineups, game, hand, rng.derive(keys, hand), dealer, scores, bags,
                            lineup=lineup)  # fmt: skip
            if self.single_hands:
                done = np.ones(len(game), dtype=bool)
            else:
                if self.max_hands is not None:
                    hit = ~log.game_over & ~log.unfinished & (log.hand + 1 >= self.max_hands)
                    log.unfinished = log.unfinished | hit
                    self.stopped += int(hit.sum())
                done = log.game_over | log.unfinished
            yield log, block
            keep = ~done
            game, hand, keys, lineup, block = game[keep], hand[keep] + 1, keys[keep], lineup[keep], block[keep]
            dealer, scores, bags = (dealer[keep] + 1) % seats, log.score_after[keep], log.bags_after[keep]
