"""A tournament's tables, built from the chunk files one chunk (or one duplicate pair) at a time.

Summaries come from integer totals added chunk by chunk, so building them needs memory for one
chunk, not for the tournament; `games` and `hands` are read from Parquet only when asked for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import Any

import pandas as pd

from spades_lab.stats.tables import MatchupTotals, PairedTotals, bid_total_table, matchup_table, summary_table
from spades_lab.tournament.config import TournamentConfig
from spades_lab.tournament.errors import TournamentError
from spades_lab.tournament.plan import Chunk
from spades_lab.tournament.storage import MANIFEST, RunDir
from spades_lab.tournament.tidy import plays, seat_hands, side_hands


@dataclass
class Tables:
    summary: pd.DataFrame
    """One row per entrant over all its games."""
    matchups: pd.DataFrame
    """One row per (entrant, opponent), the entrant's figures; paired_* columns in duplicate mode."""
    bid_totals: pd.DataFrame
    """Table bid total distribution per (entrant, opponent)."""
    games: int
    hands: int


def aggregate(
    store: RunDir, chunks: list[Chunk], names: list[str], duplicate: bool, known: dict[str, Any] | None = None
) -> Tables:
    """Summary, matchup and bid-total tables from the chunk files of a finished tournament.

    `known` maps chunk ids to the totals their workers sent (`ChunkResult.totals`): those chunks'
    files are not read back (duplicate runs still read games, for the paired differences).
    """
    known = known or {}
    totals, paired = MatchupTotals(), PairedTotals()
    for _, grouped in groupby(chunks, key=lambda c: c.pairing):
        group = list(grouped)
        seat0 = [c for c in group if c.seating == 0]
        seat1 = [c for c in group if c.seating == 1]
        if duplicate:
            for c0, c1 in zip(seat0, seat1, strict=True):
                g0, g1 = store.read("games", c0), store.read("games", c1)
                totals.add_games(g0)
                totals.add_games(g1)
                paired.add(names[c0.side0], g0, g1)
        else:
            for c in group:
                if c.id in known:
                    totals.add_totals(known[c.id][0])
                else:
                    totals.add_games(store.read("games", c))
        for c in group:
            if c.id in known:
                totals.add_bid_totals((names[c.side0], names[c.side1]), known[c.id][1])
                continue
            tallies = store.read("tallies", c)
            hist = pd.Series(tallies["hands"].to_numpy(), index=tallies["bid_total"].to_numpy())
            dense = hist.reindex(range(int(hist.index.max()) + 1 if len(hist) else 1), fill_value=0).to_numpy()
            totals.add_bid_totals((names[c.side0], names[c.side1]), dense)
    frame = totals.frame(names)
    return Tables(
        summary=summary_table(frame, names),
        matchups=matchup_table(frame, paired.frame() if duplicate else None),
        bid_totals=bid_total_table(totals, names),
        games=int(frame["games"].sum()) // 2,
        hands=int(frame["hands"].sum()) // 2,
    )


@dataclass
class TournamentResult:
    """Tidy tables of a tournament; `games` and `hands` load from its Parquet files on first use."""

    out: Path
    manifest: dict[str, Any]
    summary: pd.DataFrame
    matchups: pd.DataFrame
    bid_totals: pd.DataFrame
    total_games: int
    total_hands: int
    hands_played: int = 0
    """Hands played by this call (0 when every chunk was already on disk)."""
    seconds: float = 0.0
    chunks_run: int = 0
    _cache: dict[str, pd.DataFrame] = field(default_factory=dict, repr=False)
    _keep: Any = field(default=None, repr=False)
    """For a run given no `out`: the finalizer that removes its temporary folder with this result."""

    def keep(self) -> Path:
        """Keep this result's folder on disk after the result is gone (a run given no `out` plays into a
        temporary folder, otherwise removed when the result is garbage-collected or at exit)."""
        if self._keep is not None:
            self._keep.detach()
            self._keep = None
        return self.out

    @property
    def config(self) -> TournamentConfig:
        """The run's configuration, read back from its manifest (what `tournament()` was asked)."""
        return TournamentConfig.from_dict(self.manifest["config"])

    @property
    def chunks(self) -> list[Chunk]:
        return [Chunk.from_dict(c) for c in self.manifest["chunks"]]

    @property
    def games(self) -> pd.DataFrame:
        """One row per game and side: pairing, seating, game, side, entrant, opponent, score, won, per-game sums."""
        if "games" not in self._cache:
            self._cache["games"] = RunDir(self.out).read_all("games", self.chunks)
        return self._cache["games"]

    @property
    def hands(self) -> pd.DataFrame:
        """One row per hand: pairing, seating, game, hand, dealer, per-seat deal masks, bids, tricks and blind
        flags, per-side scores and bags. The card-by-card play is in records.jsonl (records=True)."""
        if not self.config.store_hands:
            raise TournamentError("this tournament ran with hands storage off (store_hands=False / --no-hands)")
        if "hands" not in self._cache:
            self._cache["hands"] = RunDir(self.out).read_all("hands", self.chunks)
        return self._cache["hands"]

    @property
    def hands_per_s(self) -> float:
        return self.hands_played / self.seconds if self.seconds > 0 else float("nan")

    def seat_hands(self) -> pd.DataFrame:
        """One row per hand and seat: entrant, opponent, cards dealt (labels), bid, nil, tricks, bid error, and the
        side's set, bags and points of the hand (see `spades_lab.tournament.tidy.seat_hands`)."""
        return seat_hands(self)

    def side_hands(self) -> pd.DataFrame:
        """One row per hand and side: entrant, opponent, contract, tricks, set, nils, bags, points, scores
        (see `spades_lab.tournament.tidy.side_hands`)."""
        return side_hands(self)

    def plays(self) -> pd.DataFrame:
        """One row per card played (trick, seat, entrant, card, trick winner); needs a run with records=True."""
        return plays(self)

    def encounters(self) -> pd.DataFrame:
        """Head-to-head scores: per pairing and deal (duplicate: the deal's two tables averaged) or per game,
        the pairing's first entrant, its opponent and its score in [0, 1] (a win 1, an unfinished game 0.5)."""
        games = self.games
        first = {int(p["pairing"]): p["entrants"] for p in self.manifest["pairings"]}
        mine = games[games["entrant"].astype(str) == [first[int(p)][0] for p in games["pairing"]]]
        score = mine["won"].astype(float) + 0.5 * mine["unfinished"].astype(float)
        keys = ["pairing", "game"] if self.manifest["config"]["duplicate"] else ["pairing", "seating", "game"]
        per = score.groupby([mine[k] for k in keys]).mean().reset_index(name="score")
        per["entrant"] = [first[int(p)][0] for p in per["pairing"]]
        per["opponent"] = [first[int(p)][1] for p in per["pairing"]]
        return per[["pairing", "game", "entrant", "opponent", "score"]]

    def ratings(self) -> pd.DataFrame:
        """Bradley-Terry ratings on the Elo scale with 95% intervals, one row per entrant, best first
        (`spades_lab.stats.ratings.bradley_terry` over `encounters()`: duplicate deal pairs when played so)."""
        from spades_lab.stats.ratings import bradley_terry

        met = self.encounters()
        return bradley_terry(met["entrant"], met["opponent"], met["score"], list(self.config.entrants))

    def _describe(self) -> tuple[str, list[str]]:
        c = self.config
        head = (f"{c.count:,} {c.unit} per pairing{' x 2 seatings (duplicate)' if c.duplicate else ''},"
                f" seed {c.seed}; {self.total_games:,} games, {self.total_hands:,} hands in {self.out}")  # fmt: skip
        return head, list(c.entrants)

    def __repr__(self) -> str:
        head, names = self._describe()
        table = self.summary[["entrant", "games", "win_rate", "win_lo", "win_hi", "unfinished"]].to_string(
            index=False, float_format=lambda x: f"{x:.3f}"
        )
        return f"TournamentResult({len(names)} entrants: {', '.join(names)}; {head})\n{table}"

    def _repr_html_(self) -> str:
        from html import escape

        head, names = self._describe()
        table = self.summary[["entrant", "games", "finished", "win_rate", "win_lo", "win_hi", "unfinished",
                              "points_per_hand", "set_rate", "bags_per_hand"]].to_html(
            index=False, float_format=lambda x: f"{x:.3f}")  # fmt: skip
        return (f"<div><p><b>TournamentResult</b>: {len(names)} entrants ({escape(', '.join(names))}); "
                f"{escape(head)}</p>{table}<p>.summary, .matchups, .games, .hands, .seat_hands(), .side_hands(),"
                f" .plays(), .bid_totals</p></div>")  # fmt: skip

    @classmethod
    def load(cls, out: str | Path) -> TournamentResult:
        """The result of a finished tournament directory, read without playing anything."""
        store = RunDir(out)
        manifest = store.read_manifest()
        if not Path(out).is_dir():
            raise TournamentError(f"{out} is not a folder; give a tournament's output folder (its --out, out=)")
        if manifest is None:
            raise TournamentError(
                f"{out} is not a tournament's output folder: expected {MANIFEST} with games/ and the tables beside"
                " it, as `spades-lab tournament --out DIR` or tournament(out=DIR) writes"
            )
        if not manifest.get("complete"):
            raise TournamentError(
                f"{out} holds an unfinished tournament; run the same tournament into it again to finish it"
            )
        config = manifest["config"]
        chunks = [Chunk.from_dict(c) for c in manifest["chunks"]]
        tables = aggregate(store, chunks, config["entrants"], config["duplicate"])
        return cls(Path(out), manifest, tables.summary, tables.matchups, tables.bid_totals, tables.games, tables.hands)
