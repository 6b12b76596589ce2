"""The output directory of a tournament: manifest, one Parquet file per finished chunk, final tables.

Layout of DIR:

    manifest.json          configuration (rules, entrants, seed, version), chunk list, complete flag
    games/<chunk>.parquet  one row per game and side; written last for a chunk, so it marks it done
    tallies/<chunk>.parquet the chunk's table bid total histogram
    hands/<chunk>.parquet  one row per hand (unless hands storage is off)
    records/<chunk>.jsonl  RECORDS.md lines (with --records), joined into records.jsonl at the end
    summary.csv, matchups.csv, bid_totals.csv, records.jsonl

`games/` and `hands/` are Parquet datasets: `pandas.read_parquet(DIR / "games")` reads one whole.
Every file is written under a temporary name and renamed into place, so an interrupted write
never leaves a half file that looks finished.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from spades_lab.tournament.errors import ConfigMismatch
from spades_lab.tournament.plan import Chunk

if TYPE_CHECKING:
    from spades_lab.tournament.chunks import ChunkResult

MANIFEST = "manifest.json"
CHUNK_DIRS = {"games": ".parquet", "tallies": ".parquet", "hands": ".parquet", "records": ".jsonl"}
OUTPUTS = ("summary.csv", "matchups.csv", "bid_totals.csv", "records.jsonl")


class RunDir:
    """Reads and writes one tournament's directory; the parent process is its only writer."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    # -- paths -----------------------------------------------------------------------------
    def path(self, kind: str, chunk: Chunk) -> Path:
        return self.root / kind / f"{chunk.id}{CHUNK_DIRS[kind]}"

    def is_done(self, chunk: Chunk) -> bool:
        return self.path("games", chunk).exists()

    # -- manifest --------------------------------------------------------------------------
    def read_manifest(self) -> dict[str, Any] | None:
        path = self.root / MANIFEST
        return json.loads(path.read_text()) if path.exists() else None

    def open(self, manifest: dict[str, Any], fresh: bool = False) -> dict[str, Any] | None:
        """Prepare the directory for this configuration; returns the stored manifest if it matches.

        Refuses (ConfigMismatch) a directory holding another configuration, or chunk data with no
        manifest. `fresh` first removes this tool's files (and only those) from the directory.
        """
        if fresh:
            self.clear()
        stored = self.read_manifest()
        if stored is None:
            leftovers = [k for k in CHUNK_DIRS if (self.root / k).exists() and any((self.root / k).iterdir())]
            if leftovers:
                raise ConfigMismatch(
                    f"{self.root} holds tournament data ({', '.join(leftovers)}/) but no {MANIFEST}; "
                    "choose another output directory or remove it"
                )
            self.root.mkdir(parents=True, exist_ok=True)
            self.write_manifest(manifest)
            return None
        differences = _differences(stored.get("config", {}), manifest["config"])
        if differences and differences[0].startswith("count:") and len(differences) == 1:
            had, asked = int(stored["config"]["count"]), int(manifest["config"]["count"])
            if asked > had:
                return stored  # growing: the caller keeps the chunks still inside the bigger run
            raise ConfigMismatch(
                f"{self.root} holds {had} {stored['config'].get('unit', 'games')} per pairing and {asked} were asked; "
                "a run only grows (more games play only the new chunks): ask at least as many, choose another "
                "output directory, or pass fresh=True (--fresh) to delete this one's results and start over"
            )
        if differences:
            raise ConfigMismatch(
                f"{self.root} holds a different tournament ({'; '.join(differences)}); "
                "choose another output directory, or pass fresh=True (--fresh) to delete this one's results and"
                " start over"
            )
        return stored

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        self._write_text(self.root / MANIFEST, json.dumps(manifest, indent=2) + "\n")

    def drop_chunk(self, chunk: Chunk) -> None:
        """Delete a chunk's files (a chunk a grown plan no longer has); its games file goes first."""
        for kind in ("games", "tallies", "hands", "records"):
            self.path(kind, chunk).unlink(missing_ok=True)

    def clear(self) -> None:
        """Remove what a tournament writes here, leaving any other files alone."""
        for kind in CHUNK_DIRS:
            shutil.rmtree(self.root / kind, ignore_errors=True)
        shutil.rmtree(self.root / ".tmp", ignore_errors=True)
        for name in (MANIFEST, *OUTPUTS):
            (self.root / name).unlink(missing_ok=True)

    # -- chunks ----------------------------------------------------------------------------
    def write_chunk(self, result: ChunkResult) -> None:
        """Write a finished chunk; its games file goes last and marks the chunk done."""
        chunk = result.chunk
        if result.records is not None:
            self._write_text(self.path("records", chunk), "".join(line + "\n" for line in result.records))
        if result.hands is not None:
            self._write_parquet(self.path("hands", chunk), result.hands)
        self._write_parquet(self.path("tallies", chunk), result.tallies)
        self._write_parquet(self.path("games", chunk), result.games)

    def read(self, kind: str, chunk: Chunk) -> pd.DataFrame:
        return pd.read_parquet(self.path(kind, chunk))

    def read_all(self, kind: str, chunks: Iterable[Chunk]) -> pd.DataFrame:
        """A whole table in the tournament's canonical order (chunks in plan order)."""
        frames = [self.read(kind, c) for c in chunks]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    def join_records(self, chunks: Iterable[Chunk]) -> Path:
        """records.jsonl: every chunk's records in plan order, streamed file by file."""
        target = self.root / "records.jsonl"
        tmp = self._tmp(target)
        with open(tmp, "wb") as out:
            for chunk in chunks:
                with open(self.path("records", chunk), "rb") as src:
                    shutil.copyfileobj(src, out)
        os.replace(tmp, target)
        return target

    def write_csv(self, name: str, frame: pd.DataFrame) -> None:
        self._write_text(self.root / name, frame.to_csv(index=False))

    def tidy(self) -> None:
        """Remove the temporary-file directory once nothing is being written."""
        try:
            (self.root / ".tmp").rmdir()
        except OSError:
            pass

    # -- atomic writes ---------------------------------------------------------------------
    def _tmp(self, target: Path) -> Path:
        tmp_dir = self.root / ".tmp"
        tmp_dir.mkdir(parents=True, exist_ok=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        return tmp_dir / f"{target.parent.name}-{target.name}.{os.getpid()}"

    def _write_text(self, target: Path, text: str) -> None:
        tmp = self._tmp(target)
        tmp.write_text(text)
        os.replace(tmp, target)

    def _write_parquet(self, target: Path, frame: pd.DataFrame) -> None:
        tmp = self._tmp(target)
        frame.to_parquet(tmp, index=False)
        os.replace(tmp, target)


def _differences(stored: dict[str, Any], wanted: dict[str, Any]) -> list[str]:
    """Readable `field: stored X, asked Y` lines (rules compared field by field)."""
    out = []
    for key in sorted(set(stored) | set(wanted)):
        a, b = stored.get(key), wanted.get(key)
        if key == "rules" and isinstance(a, dict) and isinstance(b, dict):
            out += [
                f"rules.{k}: stored {a.get(k)!r}, asked {b.get(k)!r}"
                for k in sorted(set(a) | set(b))
                if a.get(k) != b.get(k)
            ]
        elif a != b:
            out.append(f"{key}: stored {a!r}, asked {b!r}")
    return out
