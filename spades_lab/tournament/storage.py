"""The output directory of a tournament: manifest, one Parquet file per finished chunk, final tables.

Layout of DIR:

    manifest.json          configuration (rules, entrants, seed, version), chunk list, complete flag
    games/<chunk>.parquet  one row per game and side; written last for a chunk, so it marks it done
    tallies/<chunk>.parquet the chunk's table bid total histogram
    hands/<chunk>.parquet  one row per hand (unless hands storage is off)
    records/<chunk>.jsonl  hand-record lines (with --records), joined into records.jsonl at the end
    summary.csv, matchups.csv, bid_totals.csv, records.jsonl

The manifest's `chunk_files` holds, for each finished chunk, every file's row count, size and
SHA-256; a resumed run replays a chunk whose files are missing, short or changed, so a truncated
or corrupt chunk is never joined into the tables. `fresh` removes only files of these names.

`games/` and `hands/` are Parquet datasets: `pandas.read_parquet(DIR / "games")` reads one whole.
Every file is written under a temporary name and renamed into place, so an interrupted write
never leaves a half file that looks finished.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

import pandas as pd

from spades_lab.engine.records import is_special, output_target
from spades_lab.players.identity import player_differences
from spades_lab.tempfiles import remove_orphans
from spades_lab.tournament.errors import ConfigMismatch, TournamentError
from spades_lab.tournament.plan import Chunk, ChunkResult

MANIFEST = "manifest.json"
CHUNK_DIRS = {"games": ".parquet", "tallies": ".parquet", "hands": ".parquet", "records": ".jsonl"}
OUTPUTS = ("summary.csv", "matchups.csv", "bid_totals.csv", "records.jsonl")
CHUNK_FILE = re.compile(r"p\d{3}-s\d-g\d{10}\.(parquet|jsonl)")
"""Names of the chunk files this tool writes (`Chunk.id` plus the kind's extension)."""
TMP_FILE = re.compile(r".+\.(\d+)")
"""Temporary files in `.tmp/`: `<kind>-<name>.<pid of the writer>`."""


def file_facts(path: Path, rows: int) -> dict[str, Any]:
    """What the manifest records of a chunk file: rows, bytes and SHA-256 of the content."""
    digest = hashlib.sha256()
    with open(path, "rb") as src:
        for block in iter(lambda: src.read(1 << 20), b""):
            digest.update(block)
    return {"rows": int(rows), "bytes": path.stat().st_size, "sha256": digest.hexdigest()}


class RunDir:
    """Reads and writes one tournament's directory; the parent process is its only writer."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self._swept = False

    # -- paths -----------------------------------------------------------------------------
    def path(self, kind: str, chunk: Chunk) -> Path:
        return self.root / kind / f"{chunk.id}{CHUNK_DIRS[kind]}"

    def is_done(self, chunk: Chunk, files: dict[str, Any] | None = None) -> bool:
        """The chunk's files are all there and exactly as the manifest recorded them.

        `files` is the chunk's `chunk_files` entry (read from the manifest on disk if not given).
        """
        if files is None:
            files = ((self.read_manifest() or {}).get("chunk_files") or {}).get(chunk.id)
        if not files or "games" not in files or not self.holds(chunk, files):
            return False
        try:
            return all(file_facts(self.path(kind, chunk), facts["rows"]) == facts for kind, facts in files.items())
        except (OSError, KeyError, TypeError):
            return False

    def holds(self, chunk: Chunk, files: dict[str, Any]) -> bool:
        """The chunk's files are here at the sizes recorded: a cheap check (no hashing) of what another
        process says it wrote, so that a chunk written anywhere else stops the run instead of going missing."""
        try:
            return all(self.path(kind, chunk).stat().st_size == facts["bytes"] for kind, facts in files.items())
        except (OSError, KeyError, TypeError):
            return False

    def drop_chunk(self, chunk: Chunk) -> None:
        """Remove a chunk's files (before it is played again)."""
        for kind in CHUNK_DIRS:
            self.path(kind, chunk).unlink(missing_ok=True)

    # -- manifest --------------------------------------------------------------------------
    def read_manifest(self) -> dict[str, Any] | None:
        path = self.root / MANIFEST
        if not path.exists():
            return None
        try:
            manifest = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise TournamentError(
                f"{path} cannot be read ({exc}); it is this tool's record of the run: restore it, or start over"
                " with --fresh (which removes only this tool's files)"
            ) from None
        if not isinstance(manifest, dict) or not isinstance(manifest.get("config"), dict):
            raise TournamentError(f"{path} is not a tournament manifest (no config object); restore it or use --fresh")
        return manifest

    def open(self, manifest: dict[str, Any], fresh: bool = False) -> dict[str, Any] | None:
        """Prepare the directory for this configuration; returns the stored manifest if it matches.

        Refuses (ConfigMismatch) a directory holding another configuration, or chunk data with no
        manifest. `fresh` first removes this tool's files (and only those) from the directory.
        """
        if self.root.exists() and not self.root.is_dir():
            raise TournamentError(
                f"output directory {self.root} is a file; give a directory (it is created if missing)"
            )
        if fresh:
            self.clear()
        stored = self.read_manifest()
        if stored is None:
            leftovers = [
                k for k in CHUNK_DIRS
                if (self.root / k).is_dir() and any(CHUNK_FILE.fullmatch(p.name) for p in (self.root / k).iterdir())
            ]  # fmt: skip
            if leftovers:
                raise ConfigMismatch(
                    f"{self.root} holds tournament data ({', '.join(leftovers)}/) but no {MANIFEST}; "
                    "choose another output directory or remove it"
                )
            self.root.mkdir(parents=True, exist_ok=True)
            self.write_manifest(manifest)
            return None
        differences = _differences(stored.get("config", {}), manifest["config"])
        also = f" It also differs in: {'; '.join(differences)}." if differences else ""
        if "players" not in stored["config"] and "players" in manifest["config"]:
            raise ConfigMismatch(
                f"{self.root} was written before run folders recorded what each player is (every parameter of"
                " its policies), so its games cannot be checked against the entrants asked now (a player's"
                f" defaults may have changed since).{also} {FRESH_ADVICE}"
            )
        changed = player_differences(stored["config"].get("players") or {}, manifest["config"].get("players") or {})
        if changed:
            raise ConfigMismatch(
                f"{self.root} holds games of other players under the same names ({'; '.join(changed)});"
                f" results depend on what each player is, so these games cannot be reused.{also} {FRESH_ADVICE}"
            )
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
        if "chunk_files" in manifest:  # chunk order, not completion order: the same run gives the same bytes
            manifest = {**manifest, "chunk_files": dict(sorted(manifest["chunk_files"].items()))}
        self._write_text(self.root / MANIFEST, json.dumps(manifest, indent=2) + "\n")

    def clear(self) -> None:
        """Remove what a tournament writes here (by its file names), leaving any other file alone.

        A folder is removed only once it is empty, so `records/notes.txt` of a user survives.
        """
        for kind, ext in [*CHUNK_DIRS.items(), (".tmp", "")]:
            folder = self.root / kind
            if not folder.is_dir():
                continue
            pattern = TMP_FILE if kind == ".tmp" else CHUNK_FILE
            for path in folder.iterdir():
                if path.is_file() and pattern.fullmatch(path.name) and path.name.endswith(ext):
                    path.unlink()
            try:
                folder.rmdir()
            except OSError:
                pass  # something of the user's is still in it
        for name in (MANIFEST, *OUTPUTS):
            (self.root / name).unlink(missing_ok=True)

    # -- chunks ----------------------------------------------------------------------------
    def write_chunk(self, result: ChunkResult) -> dict[str, Any]:
        """Write a finished chunk; returns each file's facts for the manifest's `chunk_files`."""
        chunk = result.chunk
        files = {}
        if result.records is not None:
            path = self.path("records", chunk)
            self._write_text(path, "".join(line + "\n" for line in result.records))
            files["records"] = file_facts(path, len(result.records))
        for kind, frame in (("hands", result.hands), ("tallies", result.tallies), ("games", result.games)):
            if frame is not None:
                path = self.path(kind, chunk)
                self._write_parquet(path, frame)
                files[kind] = file_facts(path, len(frame))
        return files

    def read(self, kind: str, chunk: Chunk) -> pd.DataFrame:
        return pd.read_parquet(self.path(kind, chunk))

    def read_all(self, kind: str, chunks: Iterable[Chunk]) -> pd.DataFrame:
        """A whole table in the tournament's canonical order (chunks in plan order)."""
        frames = [self.read(kind, c) for c in chunks]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    def join_records(self, chunks: Iterable[Chunk]) -> Path:
        """records.jsonl: every chunk's records in plan order, streamed file by file."""
        target = self.root / "records.jsonl"

        def join(out: IO[bytes]) -> None:
            for chunk in chunks:
                with open(self.path("records", chunk), "rb") as src:
                    shutil.copyfileobj(src, out)

        self._write_atomic(target, join)
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
        if not tmp_dir.is_dir():
            tmp_dir.mkdir(parents=True, exist_ok=True)
        elif not self._swept:  # once per run: what a killed earlier run could not remove
            remove_orphans(tmp_dir, TMP_FILE)
        self._swept = True
        target.parent.mkdir(parents=True, exist_ok=True)
        return tmp_dir / f"{target.parent.name}-{target.name}.{os.getpid()}"

    def _write_atomic(self, target: Path, write: Callable[[IO[bytes]], object]) -> None:
        """`write` fills a temporary file that then replaces `target`; on any failure (a full disk, Ctrl-C)
        the temporary file is removed and `target` keeps what it held. As for every output file, a symlink is
        followed and a FIFO or device is written through (`spades_lab.engine.records.AtomicFile`)."""
        target = output_target(target)
        if is_special(target):
            with open(target, "wb") as out:
                write(out)
            return
        tmp = self._tmp(target)
        try:
            with open(tmp, "wb") as out:
                write(out)
            os.replace(tmp, target)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise

    def _write_text(self, target: Path, text: str) -> None:
        self._write_atomic(target, lambda out: out.write(text.encode()))

    def _write_parquet(self, target: Path, frame: pd.DataFrame) -> None:
        self._write_atomic(target, lambda out: frame.to_parquet(out, index=False))


FRESH_ADVICE = (
    "To play them again, pass fresh=True (--fresh), which deletes this folder's results first, or choose"
    " another output directory (out=, --out)"
)


def _differences(stored: dict[str, Any], wanted: dict[str, Any]) -> list[str]:
    """Readable `field: stored X, asked Y` lines (rules compared field by field; players elsewhere)."""
    out = []
    for key in sorted(set(stored) | set(wanted)):
        a, b = stored.get(key), wanted.get(key)
        if key == "players":
            continue  # compared entrant by entrant in `player_differences`; new or dropped names show in `entrants`
        if key == "rules" and isinstance(a, dict) and isinstance(b, dict):
            out += [
                f"rules.{k}: stored {a.get(k)!r}, asked {b.get(k)!r}"
                for k in sorted(set(a) | set(b))
                if a.get(k) != b.get(k)
            ]
        elif a != b:
            out.append(f"{key}: stored {a!r}, asked {b!r}")
    return out
