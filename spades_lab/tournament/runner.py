"""`tournament(...)`: plan the chunks, play the missing ones, write them, summarise.

A run is resumable by construction: the plan is a pure function of the configuration, a chunk
on disk is finished (its games file is renamed into place last), and running the same
configuration again only plays the chunks that are not on disk. Since every game depends only on
(seed, game id), the finished tables are identical to those of an uninterrupted run, for any
number of workers and any chunk size.
"""

from __future__ import annotations

import os
import queue
import shutil
import tempfile
import threading
import time
import warnings
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from spades_lab._version import __version__
from spades_lab.engine.simulate import DEFAULT_BATCH, MAX_HANDS, MaxHandsWarning
from spades_lab.players import Player, make_player
from spades_lab.players.identity import changed_modules, code_fingerprint, player_identity
from spades_lab.players.registry import built_in
from spades_lab.progress import bar as progress_bar
from spades_lab.progress import wanted
from spades_lab.rules import Rules, RulesLike, load_rules
from spades_lab.tournament.chunks import ChunkTask, EntrantSpec, ShippedPlayer
from spades_lab.tournament.config import TournamentConfig
from spades_lab.tournament.errors import CodeChangedWarning, TournamentError
from spades_lab.tournament.executors import execute
from spades_lab.tournament.interrupt import Interruption, TournamentInterrupted
from spades_lab.tournament.plan import DEFAULT_CHUNK_GAMES, Chunk, grow_plan, pairings, plan_chunks
from spades_lab.tournament.results import TournamentResult, aggregate
from spades_lab.tournament.storage import RunDir
from spades_lab.tournament.warmup import warm_up


def _entrant_names(entrants: Sequence[EntrantSpec]) -> list[str]:
    """Names of the entrants; builds each named player once here so a bad name fails before any work."""
    names = []
    for spec in entrants:
        if isinstance(spec, str):
            make_player(spec)
            names.append(spec.strip())
        elif isinstance(spec, Player) or (hasattr(spec, "bid") and hasattr(spec, "play")):
            names.append(spec.name)
        else:
            raise TournamentError(f"an entrant is a player name or a Player, got {spec!r}")
    if len(set(names)) != len(names):
        raise TournamentError(f"entrant names must differ (they label the results), got {names}")
    if len(names) < 2:
        raise TournamentError(f"a tournament needs at least 2 entrants, got {len(names)}")
    return names


def _shipped(entrants: Sequence[EntrantSpec], names: list[str]) -> list[EntrantSpec | ShippedPlayer]:
    """Entrant objects packed by value (cloudpickle), so that a policy defined in a notebook or in
    `__main__` reaches spawned and Dask workers; checked by unpacking here, before any work. A name
    travels as itself when every policy it uses ships with spades_lab, and built otherwise."""
    out: list[EntrantSpec | ShippedPlayer] = []
    for spec, name in zip(entrants, names):
        if isinstance(spec, str) and built_in(spec):
            out.append(spec)
            continue
        if isinstance(spec, str):  # a policy registered here only: the worker could not build it by name
            spec = make_player(spec)
        try:
            shipped = ShippedPlayer.pack(spec)
            shipped.unpack()
        except Exception as exc:
            raise TournamentError(
                f"entrant {name!r} cannot be sent to worker processes ({type(exc).__name__}: {exc}). Fix: keep"
                " no open files, locks, generators or live connections on the policy object (build them"
                " lazily inside its methods), or define the policy in a module you import; or run with workers=1"
            ) from None
        out.append(shipped)
    return out


def _warm_up(rules: Rules, entrants: Sequence[EntrantSpec], seed: int, say: bool) -> None:
    """Compile a cold kernel cache once here, so workers load it instead of each compiling its own."""
    players = [make_player(e) if isinstance(e, str) else e for e in entrants]
    seats = [players[k % len(players)] for k in range(rules.players)]
    warm_up(rules, seats, seed, say=say)


def _grow(
    store: RunDir, stored: dict[str, Any], chunks: list[Chunk], names: list[str], config: dict[str, Any]
) -> tuple[list[Chunk], dict[str, Any]]:
    """More games in an existing run: keep its chunks that still fit, drop the rest, plan the new ones."""
    old = [Chunk.from_dict(c) for c in stored["chunks"]]
    grown = grow_plan(old, len(names), config["count"], config["duplicate"], config["chunk_games"])
    keep = set(grown)
    for chunk in old:
        if chunk not in keep:
            store.drop_chunk(chunk)
    manifest = _manifest(config, grown, names, stored.get("code") or {})
    recorded = stored.get("chunk_files") or {}
    manifest["chunk_files"] = {c.id: recorded[c.id] for c in grown if c.id in recorded}
    store.write_manifest(manifest)
    return grown, manifest


def _manifest(config: dict[str, Any], chunks: list[Chunk], names: list[str], code: dict[str, Any]) -> dict[str, Any]:
    return {
        "tool": "spades-lab tournament",
        "version": __version__,
        "config": config,
        "seed": config["seed"],
        "seeds": "every game is derived from (seed, game id) alone; every pairing and seating plays the same ids",
        "pairings": [{"pairing": i, "entrants": [names[a], names[b]]} for i, (a, b) in enumerate(pairings(len(names)))],
        "chunks": [c.to_dict() for c in chunks],
        "chunk_files": {},
        "complete": False,
        "code": code,
    }


CODE_BASE = ("spades_lab.tournament.chunks",)
"""Where every entrant's code fingerprint starts besides its own policies: the module that plays a chunk
(and, through it, the engine, the rules and the tallies that the chunk files store)."""


def code_fingerprints(entrants: Sequence[EntrantSpec], names: list[str]) -> dict[str, Any]:
    """Each entrant's code fingerprint; one that cannot be taken (an exotic policy object) is left out,
    since it only ever feeds a warning and must never stop a run."""
    out = {}
    for spec, name in zip(entrants, names):
        try:
            out[name] = code_fingerprint(spec, base=CODE_BASE)
        except Exception:  # noqa: BLE001  (a fingerprint is advice: no failure of it may stop a run)
            continue
    return out


def _check_code(store: RunDir, stored: dict[str, Any], current: dict[str, Any]) -> None:
    """Warn when the code that played a run folder's games differs from the code asked to add to or read it.

    A warning, not a refusal: an edit that keeps every game bit for bit (a refactor, a faster kernel;
    the golden playthroughs say which) leaves the games valid, and the package version, which pip users
    see change, is already part of the configuration that must match.
    """
    old = stored.get("code") or {}
    changed = {name: changed_modules(old.get(name) or {}, now) for name, now in current.items() if name in old}
    changed = {name: mods for name, mods in changed.items() if mods}
    if changed:
        listed = "; ".join(f"{name!r}: {', '.join(mods)}" for name, mods in changed.items())
        warnings.warn(
            f"{store.root} holds games played by other code than this (changed since: {listed}); its games are"
            " kept, since the players' parameters and the version match. If the change alters games, play them"
            " again with fresh=True (--fresh) or another output directory; this warning repeats until then",
            CodeChangedWarning, stacklevel=3,
        )  # fmt: skip


MANIFEST_EVERY = 2.0
"""Seconds between manifest updates while chunks finish (and once more at the end, or on any stop)."""


def _kept(store: RunDir, manifest: dict[str, Any], chunks: list[Chunk], temporary: bool) -> str:
    """What a stopped run keeps, and what running it again would do: said only when it is true."""
    done = len(manifest["chunk_files"])
    left = len(chunks) - done
    if temporary:
        return (f"{done} of {len(chunks)} chunks were played into a temporary folder, which is removed; give out=..."
                " (--out) to keep a run and finish it later")  # fmt: skip
    if not left:
        return f"all {len(chunks)} chunks are kept in {store.root}; run the same command again to write its tables"
    return (f"{done} of {len(chunks)} chunks are kept in {store.root}; run the same command again to play the other"
            f" {left}")  # fmt: skip


def _play(
    store: RunDir,
    tasks: Iterable[ChunkTask],
    chunks: list[Chunk],
    missing: list[Chunk],
    *,
    workers: int,
    scheduler: Any,
    progress: bool,
    manifest: dict[str, Any],
    known: dict[str, Any],
    temporary: bool,
) -> tuple[int, float]:
    """Play the missing chunks, writing each as it finishes; returns (hands played, seconds).

    Each finished chunk's file facts go into `manifest["chunk_files"]`, written every few seconds
    and on the way out however the run stops; a chunk whose facts did not reach the manifest is
    played again on resume, so nothing unrecorded is ever trusted. With a bar on, the players report
    every batch (local workers through their message queue) to a queue that a thread of this process
    drains into the bar, so it moves steadily even with few, large chunks; Dask workers (no shared
    queue) move it per chunk. Ctrl-C or SIGTERM stops handing out chunks, keeps every chunk in play,
    and raises `TournamentInterrupted`; a failure says how much is kept.
    """
    total = sum(c.games for c in chunks)
    bar = progress_bar(total=total, initial=total - sum(c.games for c in missing), unit="game",
                       disable=not progress, dynamic_ncols=True, smoothing=0.1)  # fmt: skip
    start = last_write = time.perf_counter()
    played = 0
    pending = False
    live = progress and scheduler is None and bool(missing)
    reports: Any = queue.Queue() if live else None
    drained = [0]

    def drain() -> None:
        while (item := reports.get()) is not None:
            bar.update(item[0])
            drained[0] += item[1]
            bar.set_postfix_str(f"{drained[0] / max(time.perf_counter() - start, 1e-9):,.0f} hands/s", refresh=False)

    thread = threading.Thread(target=drain, daemon=True) if live else None
    if thread is not None:
        thread.start()
        tasks = (replace(t, progress=reports) for t in tasks)
    stop = Interruption(say=True)
    try:
        with stop:
            for result in execute(tasks, workers, scheduler, stop):
                if result.written and not store.holds(result.chunk, result.files or {}):
                    raise TournamentError(
                        f"chunk {result.chunk.id} was written by a worker but is not in {store.root.absolute()}: the"
                        " worker wrote it elsewhere (a worker of another machine or folder)"
                    )
                files = result.files if result.written else store.write_chunk(result)
                manifest["chunk_files"][result.chunk.id] = files
                if result.totals is not None:
                    known[result.chunk.id] = result.totals
                pending = True
                if time.perf_counter() - last_write >= MANIFEST_EVERY:
                    store.write_manifest(manifest)
                    last_write, pending = time.perf_counter(), False
                played += result.n_hands
                if thread is None:
                    bar.update(result.chunk.games)
                    bar.set_postfix_str(f"{played / (time.perf_counter() - start):,.0f} hands/s")
    except TournamentError as exc:
        if type(exc) is TournamentError:  # a failure of the run, not of one chunk's code: say what is kept
            raise TournamentError(f"{exc}; {_kept(store, manifest, chunks, temporary)}") from None
        raise
    finally:
        if thread is not None:
            reports.put(None)
            thread.join(timeout=10)
        bar.close()
        if pending:
            store.write_manifest(manifest)
    if stop():
        raise TournamentInterrupted(
            f"stopped by {stop.signal_name} after {played:,} hands; {_kept(store, manifest, chunks, temporary)}"
        )
    return played, time.perf_counter() - start


def _workers(workers: int, missing: list[Chunk]) -> int:
    """Workers for the chunks left: never more than there are chunks (a worker holds a chunk at least),
    with a warning above the machine's cores (they would only share them, each with its own memory)."""
    cores = os.cpu_count() or 1
    if workers > cores:
        warnings.warn(
            f"workers = {workers} is more than the {cores} cores of this machine: they share the cores and each"
            f" takes its own memory; workers = {cores} plays as fast", stacklevel=3,
        )  # fmt: skip
    return max(1, min(workers, len(missing)))


def _temporary_folder() -> str:
    """A folder for a run given no `out`, removed with the result that holds it (see `tournament`)."""
    return tempfile.mkdtemp(prefix="spades-tournament-")


def tournament(
    entrants: Sequence[EntrantSpec],
    rules: RulesLike = None,
    *,
    games: int | None = None,
    hands: int | None = None,
    seed: int = 0,
    duplicate: bool = False,
    workers: int = 1,
    out: str | Path | None = None,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    store_hands: bool = True,
    records: bool = False,
    scheduler: Any = None,
    progress: bool | None = None,
    fresh: bool = False,
    batch_size: int = DEFAULT_BATCH,
    max_hands: int | None = MAX_HANDS,
    dd: bool = False,
) -> TournamentResult:
    """Play every pair of entrants against each other and return the tidy tables.

    - `games`: complete games per pairing (or `hands`: independent hands from 0-0 per pairing).
      Each pairing plays half its game ids with the first entrant on seats 0+2 and half swapped;
      with `duplicate` it plays every game id twice, once per seating, so each deal sequence is
      played by both entrants (2 x games tables per pairing) and matchups gain paired differences.
    - `workers`: local processes (1 plays in this process; never more than there are chunks to play,
      and a warning above the machine's cores); `scheduler`: a Dask `distributed.Client` or scheduler
      address instead. Workers do not run the calling script's `__main__` again, so a plain script
      needs no `if __name__ == "__main__":`.
    - Ctrl-C or SIGTERM: the chunks in play are finished and kept, then `TournamentInterrupted`
      (a KeyboardInterrupt) says how many; running the same call again plays the rest.
    - `out`: the directory to write and resume; `fresh` clears it first. None: a temporary folder,
      removed when the result is garbage-collected or the interpreter exits (to keep a run's files,
      give `out`, or copy `result.out` away first).
    - `store_hands`: keep the per-hand table (off for huge runs: memory and disk then depend on
      games, not hands); `records`: also write hand records to records.jsonl.
    - `chunk_games`: game ids per chunk, the unit of resumption and of work handed to a worker.
    - `max_hands`: a complete game still going after this many hands stops unfinished (a safety
      net outside the rules, so that no run goes on for ever); one `MaxHandsWarning` gives the count.
    - `dd`: solve every hand double dummy from its deal (after any exchange) and first leader: the
      hands table gains dd_tricks0/1 and the summaries the dd_* columns (bid error and tricks lost
      against DD truth). A solve takes seconds per 4-player hand: keep such runs to thousands of hands.
    - `progress`: a bar moving per batch; None (the default) shows it when stderr is a terminal or in
      Jupyter. A cold kernel cache is compiled here first, with a message unless progress is False.
    Results depend on entrants, rules, seed, counts, duplicate and chunk layout only.
    """
    if (games is None) == (hands is None):
        raise TournamentError("give exactly one of games (complete games) or hands (independent hands)")
    if workers < 1:
        raise TournamentError(f"workers = {workers} is impossible; allowed: at least 1")
    rules = load_rules(rules)
    names = _entrant_names(entrants)
    run = TournamentConfig(
        tuple(names), rules, int(seed), "games" if games is not None else "hands", int(games or hands or 0),
        bool(duplicate), int(chunk_games), bool(store_hands), bool(records), max_hands, bool(dd), int(batch_size),
    )  # fmt: skip
    shipped = _shipped(entrants, names) if scheduler is not None or workers > 1 else list(entrants)
    chunks = plan_chunks(len(names), run.count, run.duplicate, run.chunk_games)
    config = run.to_dict(__version__, {name: player_identity(spec) for spec, name in zip(entrants, names)})
    temporary = out is None
    if out is None:
        out = _temporary_folder()
    store = RunDir(out)
    manifest = _manifest(config, chunks, names, code_fingerprints(entrants, names))
    stored = store.open(manifest, fresh=fresh)
    if stored is not None:
        _check_code(store, stored, manifest["code"])
        # the code that played the first games stays on record, so the warning repeats until a fresh run
        manifest["code"] = {**manifest["code"], **(stored.get("code") or {})}
    if stored is not None and int(stored["config"]["count"]) < run.count:
        chunks, manifest = _grow(store, stored, chunks, names, config)
    elif stored is not None:  # resuming: the stored layout (a grown run's differs from a fresh plan's)
        chunks = [Chunk.from_dict(c) for c in stored["chunks"]]
        manifest = {**manifest, "chunks": stored["chunks"]}
    recorded = (stored or {}).get("chunk_files") or {}
    manifest["chunk_files"] = {c.id: recorded[c.id] for c in chunks if store.is_done(c, recorded.get(c.id))}
    missing = [c for c in chunks if c.id not in manifest["chunk_files"]]
    for chunk in missing:
        store.drop_chunk(chunk)  # missing, truncated, changed or never recorded: play it again
    if missing and stored is not None and stored.get("complete"):
        store.write_manifest(manifest)  # chunk files were removed: no longer complete until replayed
    write_to = None if scheduler is not None else str(store.root.absolute())  # a pooled worker keeps an old cwd
    template = ChunkTask(missing[0] if missing else chunks[0], run, tuple(shipped), __version__, write_to)
    tasks = (replace(template, chunk=c) for c in missing)
    show = wanted(progress)
    if missing and scheduler is None:  # the compile message is shown unless progress was switched off
        _warm_up(rules, entrants, int(seed), say=progress is not False)
    known: dict[str, Any] = {}
    try:
        played, seconds = _play(store, tasks, chunks, missing, workers=_workers(workers, missing) if scheduler is None
                                else workers, scheduler=scheduler, progress=show, manifest=manifest, known=known,
                                temporary=temporary)  # fmt: skip
    except BaseException:
        if temporary:
            shutil.rmtree(out, ignore_errors=True)
        raise
    tables = aggregate(store, chunks, names, duplicate, known)
    outputs = ["summary.csv", "matchups.csv", "bid_totals.csv"] + (["records.jsonl"] if records else [])
    finished_before = stored is not None and stored.get("complete") and all((store.root / n).exists() for n in outputs)
    if missing or not finished_before:
        store.write_csv("summary.csv", tables.summary)
        store.write_csv("matchups.csv", tables.matchups)
        store.write_csv("bid_totals.csv", tables.bid_totals)
        if records:
            store.join_records(chunks)
        manifest = {**manifest, "complete": True, "totals": {"games": tables.games, "hands": tables.hands}}
        store.write_manifest(manifest)
        store.tidy()
    elif stored is not None:
        manifest = stored
    cap_first = rules.hand_cap is None or (max_hands is not None and max_hands < rules.hand_cap)
    stopped = int(tables.summary["unfinished"].sum()) // 2 if games is not None and max_hands is not None else 0
    if cap_first and stopped:
        # Every unfinished game stopped at max_hands: the rules' own hand cap, if any, lies beyond it.
        warnings.warn(f"{stopped} games reached max_hands = {max_hands} hands and stopped unfinished (no winner)",
                      MaxHandsWarning, stacklevel=2)  # fmt: skip
    result = TournamentResult(
        Path(out), manifest, tables.summary, tables.matchups, tables.bid_totals, tables.games, tables.hands,
        hands_played=played, seconds=seconds, chunks_run=len(missing),
    )  # fmt: skip
    if temporary:  # removed with the result, or at exit (weakref.finalize runs then too)
        result._keep = weakref.finalize(result, shutil.rmtree, str(out), ignore_errors=True)
    return result
