"""Hand records (the format of docs/records.md): write them from engine logs, read them, and replay them to verify.

A record is the complete story of one hand in JSON. Replaying feeds its deal, bids and plays back
through the engine as scripted decisions, so every play's legality, every trick and every score
is recomputed by the same rules a simulation uses, and any disagreement is reported by field.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from spades_lab.cards import Deck, deck_for
from spades_lab.engine import rng
from spades_lab.engine.protocol import PolicyError
from spades_lab.engine.simulate import HandLog, play_hand
from spades_lab.engine.state import play_step
from spades_lab.engine.views import BidView, BlindView, ExchangeView, PlayView
from spades_lab.rules import Rules, RulesLike, load_rules
from spades_lab.tempfiles import remove_orphans


class RecordError(ValueError):
    """A record that is malformed or does not replay to what it claims."""


def _rules_field(rules: Rules) -> str | dict[str, Any]:
    return rules.preset_name() or rules.to_dict()


def _exchange_list(log: HandLog, i: int, deck: Deck) -> list[list[Any]]:
    """Passes in the order made: every partner's pass to a nil (blind or plain) bidder, then the passes back."""
    bids, blind = log.bids[i], log.blind[i]
    entries: list[list[Any]] = []
    for to_nil in (True, False):
        for seat in range(log.passed.shape[1]):
            if not log.passed[i, seat]:
                continue
            taker = (seat + 2) % 4
            # the exchange's nil bidder: the blind one if the side has one, else the side's plain nil
            blind_nil = [bool(blind[s]) and bids[s] == 0 for s in (seat, taker)]
            taker_is_bidder = blind_nil[1] or (not blind_nil[0] and bids[taker] == 0)
            if taker_is_bidder == to_nil:
                entries += [[seat, (seat + 2) % 4, c] for c in deck.labels(int(log.passed[i, seat]))]
    return entries


def _draft_list(log: HandLog, i: int, deck: Deck) -> list[list[Any]]:
    first = (int(log.dealer[i]) + 1) % 2
    out = []
    for turn in range(log.draft_keep.shape[1]):
        top, nxt = deck.cards[log.stock[i, 2 * turn]], deck.cards[log.stock[i, 2 * turn + 1]]
        out.append([(first + turn) % 2, "keep" if log.draft_keep[i, turn] else "discard", top, nxt])
    return out


def hand_records(log: HandLog, rules: Rules, deck: Deck | None = None) -> Iterator[dict[str, Any]]:
    """One hand-record dict per row of a hand log, in the log's row order."""
    deck = deck or deck_for(rules.deck)
    rules_field = _rules_field(rules)
    cards = deck.cards
    for i in range(len(log)):
        deal = [deck.labels(int(m)) for m in log.deal[i]]
        hands = [deck.labels(int(m)) for m in log.held[i]]
        record = {
            "game": int(log.game[i]),
            "hand": int(log.hand[i]),
            "rules": rules_field,
            "players": rules.players,
            "dealer": int(log.dealer[i]),
            "deal": deal,
            "blind": [bool(b) for b in log.blind[i]],
            "exchange": _exchange_list(log, i, deck),
            "draft": _draft_list(log, i, deck),
            "hands": hands,
            "bids": [int(b) for b in log.bids[i]],
            "plays": [[int(s), cards[c]] for s, c in zip(log.play_seats[i], log.plays[i])],
            "tricks": [int(t) for t in log.tricks[i]],
            "score_before": [int(x) for x in log.score_before[i]],
            "bags_before": [int(x) for x in log.bags_before[i]],
            "hand_score": [int(x) for x in log.hand_score[i]],
            "score_after": [int(x) for x in log.score_after[i]],
            "bags_after": [int(x) for x in log.bags_after[i]],
            "game_over": bool(log.game_over[i]),
            "winner": int(log.winner[i]) if log.game_over[i] else None,
        }
        if log.unfinished[i]:
            record["unfinished"] = True
        yield record


class OutputPathError(ValueError):
    """An output path that cannot be written; raised before any work is done."""


def output_target(path: str | Path) -> Path:
    """Where writing `path` lands: a symlink's final target (the link stays a link), else `path` itself."""
    path = Path(path)
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def is_special(path: Path) -> bool:
    """An existing path that is no regular file (a FIFO, /dev/null, a device): written through, never replaced."""
    return path.exists() and not path.is_file() and not path.is_dir()


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_output_file(path: str | Path, inputs: Iterable[str | Path | None] = (), option: str = "output file") -> Path:
    """Refuse, before a run starts, an output file that could not be written at its end.

    The folder must exist and take a new file (tried with a probe file, removed at once) and the path
    must not be a folder; an existing file is replaced only when the run completes. A FIFO, a device or
    /dev/null is written through, so it needs only to be writable. The output must not be one of the run's
    `inputs` (its rules file, the records it shows), which writing it would destroy. `option` names the
    output in the messages (`--records`, `--save`).
    """
    if not str(path):
        raise OutputPathError(f"{option} name is empty; give a file name")
    path = Path(path)
    target = output_target(path)
    for given in inputs:
        if given is not None and str(given) and _same_file(target, Path(given)):
            raise OutputPathError(
                f"{option} {path} is also this run's input {given}; writing it would destroy it: give another file"
            )
    if target.is_dir():
        raise OutputPathError(f"{option} {path} is a directory; give a file name")
    if is_special(target):
        if not os.access(target, os.W_OK):
            raise OutputPathError(f"{option} {path} cannot be written: permission denied")
        return path
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise OutputPathError(f"{option} {path}: folder {parent} does not exist")
    try:
        probe = tempfile.NamedTemporaryFile(dir=parent, prefix=f".{target.name}.", suffix=".probe", delete=True)
        probe.close()
    except OSError as exc:
        raise OutputPathError(f"{option} {path} cannot be written: {exc.strerror or exc}") from None
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class AtomicFile:
    """A text file written under a temporary name beside `path` and renamed over it when complete.

    A run that fails or is interrupted leaves any earlier file at `path` as it was, and no half file.
    A symlink is followed (its target is written, the link kept); a path that exists and is no regular
    file (a FIFO, /dev/null, a device) is written through directly, since renaming over it would replace
    the device or pipe with a plain file.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = output_target(path)
        self.tmp: Path | None = None
        if is_special(self.path):
            self.file = open(self.path, "w")  # noqa: SIM115 (closed by commit or abort)
            return
        parent = self.path.parent if str(self.path.parent) else Path(".")
        remove_orphans(parent, _temp_name(self.path.name))  # of a run killed before it could clean up
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{self.path.name}.{os.getpid()}.", suffix=TMP_SUFFIX)
        self.tmp = Path(tmp)
        os.chmod(fd, 0o666 & ~_umask())  # mkstemp's 0600 would make the finished file private
        self.file = os.fdopen(fd, "w")

    def write(self, text: str) -> None:
        self.file.write(text)

    def commit(self) -> None:
        try:
            self.file.close()
            if self.tmp is not None:
                os.replace(self.tmp, self.path)
        except BaseException:
            self.abort()  # a full disk at the last flush must not leave the temporary file behind
            raise

    def abort(self) -> None:
        try:
            self.file.close()
        except OSError:
            pass  # the flush of a full disk fails again; the temporary file goes all the same
        finally:
            if self.tmp is not None:
                self.tmp.unlink(missing_ok=True)

    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(self, kind: object, value: object, tb: object) -> None:
        if kind is None:
            self.commit()
        else:
            self.abort()


TMP_SUFFIX = ".tmp"
"""AtomicFile's temporary files are `.NAME.<pid>.XXXXXXXX.tmp` beside the output."""


def _temp_name(name: str) -> re.Pattern[str]:
    """AtomicFile's temporary names for an output called `name`; group 1 is the writer's pid."""
    return re.compile(re.escape(f".{name}.") + r"(\d+)\.[^.]+" + re.escape(TMP_SUFFIX))


def write_text_atomic(path: str | Path, text: str) -> None:
    """`path` holds `text`, or (on any failure) what it held before: AtomicFile for a whole text at once."""
    with AtomicFile(path) as out:
        out.write(text)


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, separators=(",", ":")) + "\n"


def write_records(path: str | Path, records: Iterable[dict[str, Any]], append: bool = False) -> int:
    """Write records as JSON Lines (atomically unless appending); returns how many were written."""
    n = 0
    if append:
        with open(path, "a") as out:
            for record in records:
                out.write(_line(record))
                n += 1
        return n
    with AtomicFile(path) as out:
        for record in records:
            out.write(_line(record))
            n += 1
    return n


STREAM_BUFFER = 20_000
"""Most hand records a RecordStream holds back (about 30 MB) to keep the file in (game, hand) order."""


class RecordStream:
    """Hand records written while a run plays, with memory bounded whatever the run's length.

    A game's hands arrive over many batches and games end out of order, so each game's lines wait
    until it and every lower game id have ended, which writes the file sorted by (game, hand). Should
    more than `buffer` lines wait (games in play all going long, as random players' do), everything
    waiting is written at once: each game's hands then stay in order but games interleave. Written
    atomically: the file appears at `path` on `close()`. `inputs` are the run's input files (its rules
    file), which `path` must not be.
    """

    def __init__(
        self,
        path: str | Path,
        rules: Rules,
        first_game: int = 0,
        buffer: int = STREAM_BUFFER,
        inputs: Iterable[str | Path | None] = (),
    ) -> None:
        self.rules, self.deck = rules, deck_for(rules.deck)
        self.out = AtomicFile(check_output_file(path, inputs))
        self.next_game = first_game
        self.pending: dict[int, list[tuple[int, str]]] = {}
        self.ended: set[int] = set()
        self.written = 0
        self.held = 0
        self.buffer = buffer
        self.sorted = True
        """False once the buffer overflowed and games were interleaved."""

    def add(self, log: HandLog, single_hands: bool = False) -> None:
        """Take one batch; `single_hands`: every row is a whole game (simulate_hands)."""
        ends = np.ones(len(log), dtype=bool) if single_hands else (log.game_over | log.unfinished)
        for record, end in zip(hand_records(log, self.rules, self.deck), ends.tolist()):
            game = record["game"]
            self.pending.setdefault(game, []).append((record["hand"], _line(record)))
            self.held += 1
            if end:
                self.ended.add(game)
        while self.next_game in self.ended:
            self._flush(self.next_game)
            self.ended.discard(self.next_game)
            self.next_game += 1
        if self.held > self.buffer:
            self.sorted = False
            for game in sorted(self.pending):
                self._flush(game)

    def _flush(self, game: int) -> None:
        lines = sorted(self.pending.pop(game, []))
        self.held -= len(lines)
        for _, line in lines:
            self.out.write(line)
            self.written += 1

    def close(self) -> int:
        """Write what is left (in order) and put the file in place; returns the number of records."""
        for game in sorted(self.pending):
            self._flush(game)
        self.out.commit()
        return self.written

    def abort(self) -> None:
        self.out.abort()


def read_records(path: str | Path) -> Iterator[dict[str, Any]]:
    with open(path) as src:
        for number, line in enumerate(src, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as exc:
                    raise RecordError(f"{path}:{number}: not a JSON object: {exc}") from None
                except RecursionError:
                    raise RecordError(f"{path}:{number}: nested too deeply to be a hand record") from None


class _Script:
    """Replays recorded decisions (bids, blind flags, passes, plays), indexed by table row."""

    name = "record"

    def __init__(
        self,
        bids: np.ndarray,
        blind: np.ndarray,
        passed: np.ndarray,
        plays: np.ndarray,
        game: np.ndarray,
        hand: np.ndarray,
    ) -> None:
        self.bids_by_seat, self.blind_by_seat, self.passed, self.cards = bids, blind, passed, plays
        self.row_of = {(int(g), int(h)): row for row, (g, h) in enumerate(zip(game, hand))}

    def _row(self, view: Any) -> np.ndarray:
        """The record of each table, found by its (game, hand): a view carries no batch row."""
        return np.array([self.row_of[(int(g), int(h))] for g, h in zip(view.tables, view.hand_number)], dtype=np.int64)

    def blind(self, view: BlindView) -> np.ndarray:
        rows = self._row(view)
        return np.asarray(self.blind_by_seat[rows, view.seat] & (self.bids_by_seat[rows, view.seat] == 0))

    def blind_bid(self, view: BlindView) -> np.ndarray:
        """A blind flag on a number is a blind number bid; 0 (look first) otherwise."""
        rows = self._row(view)
        number = self.bids_by_seat[rows, view.seat]
        return np.asarray(np.where(self.blind_by_seat[rows, view.seat] & (number > 0), number, 0))

    def bid(self, view: BidView) -> np.ndarray:
        return np.asarray(self.bids_by_seat[self._row(view), view.seat])

    def exchange(self, view: ExchangeView) -> np.ndarray:
        return np.asarray(self.passed[self._row(view), view.seat])

    def play(self, view: PlayView) -> np.ndarray:
        return np.asarray(self.cards[self._row(view), play_step(view.decision)])


def _need(record: dict[str, Any], key: str) -> Any:
    if key not in record:
        raise RecordError(f"record (game {record.get('game')}, hand {record.get('hand')}) lacks field {key!r}")
    return record[key]


def _record_list(records: object) -> list[dict[str, Any]]:
    """The records given to replay or verify as a list, refused with a clear line if it is not a non-empty
    list of record objects (one record alone is a dict: pass it as `[record]`)."""
    if isinstance(records, dict):
        raise RecordError("records must be a list of hand records; got one record (a dict): pass [record]")
    if isinstance(records, str | bytes) or not isinstance(records, Iterable):
        raise RecordError(f"records must be a list of hand records (dicts), got {type(records).__name__}")
    listed = list(records)
    if not listed:
        raise RecordError("no records to replay")
    for i, record in enumerate(listed):
        if not isinstance(record, dict):
            raise RecordError(f"record {i} is a {type(record).__name__}, not a hand record (a JSON object)")
    return listed


def replay(records: list[dict[str, Any]], rules: RulesLike = None) -> HandLog:
    """Re-run records through the engine with their own deal and decisions; returns the engine's log.

    `rules` defaults to the first record's `rules` field. Raises RecordError if a record is
    malformed or holds an illegal bid, pass or play. A Duel draft is checked by `verify`.
    """
    records = _record_list(records)
    rules = load_rules(rules if rules is not None else records[0].get("rules"))
    deck = deck_for(rules.deck)
    n, p = len(records), rules.players
    deal = np.zeros((n, p), dtype=np.uint64)
    bids = np.zeros((n, p), dtype=np.int64)
    blind = np.zeros((n, p), dtype=bool)
    passed = np.zeros((n, p), dtype=np.uint64)
    plays = np.zeros((n, rules.tricks * p), dtype=np.int64)
    for i, record in enumerate(records):
        try:
            dealt = _need(record, "deal")
            for seat in range(p):
                deal[i, seat] = deck.mask(dealt[seat])
            bids[i] = _need(record, "bids")
            blind[i] = record.get("blind") or [False] * p
            for giver, _, card in record.get("exchange") or []:
                passed[i, int(giver)] |= np.uint64(deck.mask([card]))
            recorded = _need(record, "plays")
            if len(recorded) != rules.tricks * p:
                raise RecordError(f"has {len(recorded)} plays, a hand has {rules.tricks * p}")
            plays[i] = [deck.card_id(card) for _, card in recorded]
        except (ValueError, TypeError, IndexError) as exc:
            raise RecordError(f"record {i} (game {record.get('game')}, hand {record.get('hand')}): {exc}") from None
    game = np.array([r.get("game", i) for i, r in enumerate(records)], dtype=np.int64)
    hand = np.array([_need(r, "hand") for r in records], dtype=np.int64)
    carried = {}
    for key in ("score_before", "bags_before"):
        values = [_need(r, key) for r in records]
        for record, value in zip(records, values):
            if not isinstance(value, list) or len(value) != rules.sides:
                raise RecordError(
                    f"record (game {record.get('game')}, hand {record.get('hand')}): {key} is {value!r}; these rules"
                    f" have {rules.sides} sides (one entry each: partnerships 0+2, 1+3, or one per player)"
                )
        carried[key] = np.array(values, dtype=np.int64).reshape(n, rules.sides)
    script = _Script(bids, blind, passed, plays, game, hand)
    try:
        return play_hand(
            rules, [script] * p, game, hand,
            rng.derive(np.uint64(0), game),
            np.array([_need(r, "dealer") for r in records], dtype=np.int64),
            carried["score_before"], carried["bags_before"],
            deal=deal,
        )  # fmt: skip
    except PolicyError as exc:
        raise RecordError(f"record replays an illegal decision: {exc}") from None


def _check_draft(record: dict[str, Any], deck: Deck) -> None:
    """A Duel draft must use each stock card once and build exactly the recorded hands."""
    draft = record.get("draft") or []
    where = f"game {record.get('game')}, hand {record.get('hand')}"
    if len(draft) != 26:
        raise RecordError(f"{where}: draft has {len(draft)} turns, Duel has 26")
    first = (int(record["dealer"]) + 1) % 2
    built = [0, 0]
    seen = 0
    for turn, (seat, choice, top, nxt) in enumerate(draft):
        if int(seat) != (first + turn) % 2 or choice not in ("keep", "discard"):
            raise RecordError(f"{where}: draft turn {turn} is {[seat, choice]}, expected seat {(first + turn) % 2}")
        pair = deck.mask([top, nxt])
        if seen & pair:
            raise RecordError(f"{where}: draft turn {turn} shows a card already drawn")
        seen |= pair
        built[int(seat)] |= deck.mask([top if choice == "keep" else nxt])
    if [deck.mask(h) for h in record["deal"]] != built:
        raise RecordError(f"{where}: the draft does not build the recorded deal")


def verify(records: list[dict[str, Any]], rules: RulesLike = None) -> None:
    """Replay records and compare every derived field; raises RecordError naming the first mismatch."""
    records = _record_list(records)
    log = replay(records, rules)
    rules = load_rules(rules if rules is not None else records[0].get("rules"))
    deck = deck_for(rules.deck)
    for record, replayed in zip(records, hand_records(log, rules, deck)):
        if rules.players == 2:
            _check_draft(record, deck)
        record_hands = [sorted(deck.labels(deck.mask(h))) for h in _need(record, "hands")]
        if record_hands != [sorted(h) for h in replayed["hands"]]:
            raise RecordError(
                f"game {record.get('game')}, hand {record.get('hand')}: hands disagree with deal and exchange"
            )
        exchange = [[int(a), int(b), deck.cards[deck.card_id(c)]] for a, b, c in record.get("exchange") or []]
        if exchange != replayed["exchange"]:
            raise RecordError(
                f"game {record.get('game')}, hand {record.get('hand')}: exchange is {record.get('exchange')!r},"
                f" the passes replay as {replayed['exchange']!r}"
            )
        for key in (
            "bids",
            "blind",
            "plays",
            "tricks",
            "hand_score",
            "score_after",
            "bags_after",
            "game_over",
            "winner",
        ):
            mine: Any = record.get(key)
            if key == "blind":  # a record may leave out `blind` (no blind bids)
                mine = [bool(b) for b in (mine or [False] * rules.players)]
            if key == "plays":
                mine = [[int(s), deck.cards[deck.card_id(c)]] for s, c in record[key]]
            if mine != replayed[key]:
                raise RecordError(
                    f"game {record.get('game')}, hand {record.get('hand')}: {key} is {record.get(key)!r},"
                    f" the rules give {replayed[key]!r}"
                )
        # A record may say unfinished where the rules alone do not: the run stopped it at max_hands (a run
        # setting, not a rule). game_over was compared above, so such a game was indeed still going.
        if bool(replayed.get("unfinished", False)) and not record.get("unfinished", False):
            raise RecordError(f"game {record.get('game')}, hand {record.get('hand')}: unfinished flag disagrees")
