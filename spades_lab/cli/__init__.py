"""The `spades-lab` command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
import time
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from spades_lab._version import __version__
from spades_lab.cli.columns import SUMMARY_COLUMNS
from spades_lab.engine import PolicyError, simulate_games, simulate_hands
from spades_lab.engine.protocol import NoLegalActionError
from spades_lab.engine.records import RecordError, RecordStream, check_output_file, write_text_atomic
from spades_lab.engine.simulate import DEFAULT_BATCH, MAX_HANDS
from spades_lab.names import did_you_mean
from spades_lab.players import PolicyNameError, describe, make_players
from spades_lab.players.decide import decide
from spades_lab.players.plugins import PluginError, import_policies
from spades_lab.rules import PRESETS, RulesError, load_rules, rules_label
from spades_lab.stats import HandStats
from spades_lab.tournament.plan import DEFAULT_CHUNK_GAMES

SHORT = {
    "win_rate": "win", "win_lo": "lo", "win_hi": "hi", "points_per_hand": "pts/hand", "set_rate": "set",
    "nil_bids_per_hand": "nil/hand", "nil_success": "nil_ok", "bags_per_hand": "bags/hand",
    "bag_penalties_per_game": "pen/game", "bag_penalties": "penalties", "team_bid_error": "bid_err",
    "hands_per_game": "hands/game", "unfinished": "unfin", "games_won": "won", "paired_win_diff": "paired",
    "paired_win_lo": "p_lo", "paired_win_hi": "p_hi", "paired_margin": "margin",
    "dd_tricks": "dd", "dd_bid_error": "dd_bid_err", "dd_bid_error_lo": "dbe_lo", "dd_bid_error_hi": "dbe_hi",
    "dd_tricks_lost": "dd_lost", "dd_tricks_lost_lo": "dl_lo", "dd_tricks_lost_hi": "dl_hi",
}  # fmt: skip
"""Short column headings for the terminal; files and --json keep the full names."""
WIDTH = 100


def _table(frame: pd.DataFrame, index: bool = False) -> str:
    """A table that fits WIDTH columns: short headings, and pandas wraps what is still wider."""
    shown = frame.rename(columns=SHORT)
    return str(shown.to_string(index=index, float_format=lambda x: f"{x:.3f}", line_width=WIDTH))


def _legend(columns: Iterable[str]) -> str:
    used = [f"{SHORT[c]}={c}" for c in dict.fromkeys(columns) if c in SHORT]
    return "\n".join(textwrap.wrap("columns: " + ", ".join(used), width=WIDTH))


def _simulate(args: argparse.Namespace) -> int:
    rules = load_rules(args.rules)
    if args.hand_cap is not None:
        rules = rules.replace(hand_cap=args.hand_cap)
    players = make_players(args.player or ["random"], seats=rules.players)
    stats = HandStats(rules)
    # a bad path (or one of the run's inputs) fails here, before play
    stream = RecordStream(args.records, rules, inputs=[args.rules]) if args.records is not None else None
    start = time.perf_counter()
    if args.hands is not None:
        logs = simulate_hands(rules, players, args.hands, args.seed, batch_size=args.batch_size)
    else:
        logs = simulate_games(
            rules, players, args.games, args.seed, batch_size=args.batch_size, max_hands=args.max_hands
        )
    if args.dd:
        from spades_lab.dd.hands import with_dd

        logs = with_dd(logs, rules)
    try:
        for log in logs:
            stats.add(log)
            if stream is not None:
                stream.add(log, single_hands=args.hands is not None)
    except BaseException:
        if stream is not None:
            stream.abort()
        raise
    elapsed = time.perf_counter() - start
    if stream is not None:
        n = stream.close()
        if not args.json:
            print(f"wrote {n} hand records to {args.records}")
    if args.json:
        print(json.dumps({
            "players": [p.name for p in players], "rules": rules.preset_name() or rules.to_dict(),
            "hands": stats.hands, "seconds": round(elapsed, 3), "hands_per_s": round(stats.hands / elapsed),
            "games_finished": stats.games_over if args.games is not None else None,
            "games_unfinished": stats.games_unfinished if args.games is not None else None,
            "sides": json.loads(pd.DataFrame(stats.rows()).to_json(orient="records")),
            "mean_table_bid_total": stats.mean_bid_total(), "records": args.records,
        }))  # fmt: skip
        return 0
    print(f"players by seat: {', '.join(p.name for p in players)}; rules: {rules_label(rules)}")
    print(f"{stats.hands} hands in {elapsed:.2f} s ({stats.hands / elapsed:,.0f} hands/s)", end="")
    if args.games is not None:
        print(
            f"; {stats.games_over} games finished, {stats.games_unfinished} stopped unfinished (hand cap or max hands)"
        )
    else:
        print()
    table = pd.DataFrame(stats.rows()).set_index("seats").drop(columns=["partnership", "hands"])
    if args.hands is not None:
        table = table.drop(columns=["games_won", "win_rate"])
    print(_table(table, index=True))
    print(f"mean table bid total: {stats.mean_bid_total():.2f}")
    print(_legend(table.columns))
    return 0


def _number(value: Any) -> str:
    """A bench figure for people: thousands separated, a list of rounds as its values."""
    if isinstance(value, list):
        return "[" + ", ".join(_number(v) for v in value) + "]"
    return f"{value:,}" if isinstance(value, int | float) else str(value)


def _bench(args: argparse.Namespace) -> int:
    from spades_lab.bench import WORKLOADS, run_bench

    results = run_bench(args.workload, args.hands, args.seed, args.repeat)
    if args.json:
        print(json.dumps(results))
    else:
        for name, r in results.items():
            print(f"{name:10s} {r['hands_per_s']:>10,} hands/s  peak {r['peak_mib']:.0f} MiB  ({WORKLOADS[name][2]})")
            extra = {k: v for k, v in r.items() if k not in ("hands", "seconds", "hands_per_s", "peak_mib")}
            if extra:
                print(" " * 11 + "  ".join(f"{k} {_number(v)}" for k, v in extra.items()))
    return 0


def _rules(args: argparse.Namespace) -> int:
    if args.list or not args.preset:
        for name, rules in PRESETS.items():
            changed = {k: v for k, v in rules.to_dict().items() if v != PRESETS["standard"].to_dict()[k]}
            print(
                f"{name:12s} {', '.join(f'{k}={v}' for k, v in changed.items()) or 'the default rules (docs/rules.md)'}"
            )
        return 0
    print(load_rules(args.preset).to_toml(), end="")
    return 0


def _policies(args: argparse.Namespace) -> int:
    if args.json:
        from spades_lab.players.catalogue import catalogue

        print(json.dumps(catalogue()))
    else:
        print(describe())
    return 0


def _decide(args: argparse.Namespace) -> int:
    print(json.dumps(decide(args.player, Path(args.position), args.rules)))
    return 0


def _check(args: argparse.Namespace) -> int:
    from spades_lab.players.check import PolicyCheckError, check_policy

    rules = load_rules(args.rules)
    try:
        asked = check_policy(args.player, rules, tables=args.tables, seed=args.seed)
    except PolicyCheckError as exc:
        if args.json:
            print(json.dumps({"player": args.player, "passed": False, "error": str(exc)}))
        return _error(f"{args.player}: check failed: {exc}", EXIT_RUNTIME)
    if args.json:
        print(json.dumps({"player": args.player, "passed": True, "asked": asked}))
    else:
        counts = ", ".join(f"{n} {kind}" for kind, n in asked.items())
        print(f"{args.player}: passed under {rules_label(rules)} ({counts} decisions asked)")
    return 0


def _play(args: argparse.Namespace) -> int:
    from spades_lab.env.play import parse_seat, play, refuse_unplayable

    rules = load_rules(args.rules)
    refuse_unplayable(rules)
    seat = parse_seat(args.seat, rules.players)
    seed = args.seed if args.seed is not None else int(time.time() * 1000) % 1_000_000
    # checked before the table is shown: a bad path must not cost a played hand
    save = None if args.save.lower() == "none" else check_output_file(args.save, [args.rules], option="--save")
    return play(rules, seat, args.partner, args.opponents, seed, clock=args.clock, save=save)


def _run(args: argparse.Namespace) -> int:
    from spades_lab.cli.main_job import main_job

    main_job(Path(args.out), games=args.games, seed=args.seed)
    return 0


def _tournament(args: argparse.Namespace) -> int:
    import os

    from spades_lab.tournament import tournament

    rules = load_rules(args.rules)
    if args.hand_cap is not None:
        rules = rules.replace(hand_cap=args.hand_cap)
    try:
        result = tournament(
            args.entrant, rules, games=args.games, hands=args.hands, seed=args.seed, duplicate=args.duplicate,
            workers=args.workers or os.cpu_count() or 1, out=args.out, chunk_games=args.chunk_games,
            store_hands=not args.no_hands, records=args.records, scheduler=args.scheduler,
            progress=False if args.quiet else None, fresh=args.fresh, batch_size=args.batch_size,
            max_hands=args.max_hands, dd=args.dd,
        )  # fmt: skip
    except KeyboardInterrupt as exc:  # a TournamentInterrupted says what is kept; a second Ctrl-C says nothing
        kept = str(exc) or f"stopped at once: the chunks written so far are kept in {args.out}"
        print(f"\ninterrupted: {kept}", file=sys.stderr)
        return EXIT_INTERRUPTED
    speed = f"{result.hands_played} hands played in {result.seconds:.1f} s ({result.hands_per_s:,.0f} hands/s)"
    if args.json:
        print(json.dumps({
            "out": str(result.out), "games": result.total_games, "hands": result.total_hands,
            "hands_played": result.hands_played, "seconds": round(result.seconds, 3),
            "hands_per_s": round(result.hands_per_s) if result.hands_played else None, "chunks_run": result.chunks_run,
            "summary": json.loads(result.summary.to_json(orient="records")),
            "matchups": json.loads(result.matchups.to_json(orient="records")),
            **({"ratings": json.loads(result.ratings().to_json(orient="records"))} if args.ratings else {}),
        }))  # fmt: skip
        return 0
    print(_table(result.summary[list(SUMMARY_COLUMNS)]))
    pairs = ["entrant", "opponent", "games", "win_rate", "win_lo", "win_hi", "unfinished"]
    if args.duplicate:
        pairs += ["paired_win_diff", "paired_win_lo", "paired_win_hi", "paired_margin"]
    print()
    print(_table(result.matchups[pairs]))
    dd = ["entrant", "dd_hands", "dd_tricks", "dd_bid_error", "dd_bid_error_lo", "dd_bid_error_hi", "dd_tricks_lost",
          "dd_tricks_lost_lo", "dd_tricks_lost_hi"] if "dd_bid_error" in result.summary else []  # fmt: skip
    if dd:
        print()
        print(_table(result.summary[dd]))
    if args.ratings:
        print()
        print(_table(result.ratings()))
    print(_legend([*SUMMARY_COLUMNS, *pairs, *dd]))
    print(
        f"{result.total_games} games, {result.total_hands} hands; {speed if result.hands_played else 'nothing left to play'}"
    )
    print(f"results in {result.out}/")
    return 0


def _show(args: argparse.Namespace) -> int:
    from spades_lab.viewer import HandNotFound, read_hand, show, tournament_hand

    try:
        if Path(args.source).is_dir():
            if args.pairing is None or args.seating is None:
                raise ValueError("a tournament directory needs --pairing and --seating (see its manifest.json)")
            record = tournament_hand(args.source, args.pairing, args.seating, args.game, args.hand)
        else:
            record = read_hand(args.source, args.game, args.hand)
    except HandNotFound as exc:
        print(f"spades-lab: error: {exc}", file=sys.stderr)
        return 2
    if args.html is not None:
        write_text_atomic(check_output_file(args.html, [args.source], option="--html"), record.html())
        print(f"wrote {args.html}")
    else:
        print(show(record), end="")
    return 0


def _plot(args: argparse.Namespace) -> int:
    from spades_lab.plots import write_all

    report = write_all(args.dir, args.out, format=args.format)
    for path in report.written:
        print(f"wrote {path}")
    for name, why in report.skipped.items():
        print(f"skipped {name}: {why}")
    return 0


def _count(minimum: int) -> Any:
    """argparse type: an integer of at least `minimum` (so --batch-size 0 is refused, not '0 games played')."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is impossible; allowed: {minimum} or more")
        return value

    return parse


POSITIVE, NON_NEGATIVE = _count(1), _count(0)

MAX_HANDS_HELP = (f"safety net, not a rule: stop a game still going after this many hands as unfinished"
                  f" (default {MAX_HANDS}; 'none': no limit)")  # fmt: skip


DD_HELP = ("solve every hand double dummy from its deal and first leader: DD bid error and DD tricks lost"
           " in the tables (seconds per 4-player hand: keep runs small)")  # fmt: skip


def _max_hands(text: str) -> int | None:
    if text.lower() == "none":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of hands (at least 1, or 'none')") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is impossible; allowed: at least 1 hand, or 'none'")
    return value


def _seconds(text: str) -> float:
    """argparse type of --clock: seconds per decision, as `env.play.check_clock` allows them."""
    from spades_lab.env.play import check_clock

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    try:
        return check_clock(value) or value
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("clock = ")) from None


IMPORT_HELP = ("a .py file or module of your own whose register(...) calls name policies, imported first"
               " (repeatable); installed plugins load by themselves")  # fmt: skip


class _Help(argparse.RawDescriptionHelpFormatter):
    """Help that ends every option with its default (where it has a meaningful one) and keeps the examples' layout."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if "%(default)" in text or "(default" in text or default in (None, False, argparse.SUPPRESS):
            return text
        if action.option_strings or action.nargs in (argparse.OPTIONAL, argparse.ZERO_OR_MORE):
            return f"{text} (default: %(default)s)"
        return text


EXAMPLES = {
    None: """examples:
  spades-lab simulate --games 1000 --seed 1 --player counting+tips --player random --hand-cap 200
  spades-lab tournament --entrant counting+tips --entrant optimist+tips --games 4000 --seed 1 --duplicate --out results/x
  spades-lab plot results/x --format svg
  spades-lab show results/x --pairing 0 --seating 0 --game 0 --hand 3 --html hand.html
  spades-lab run                      # the default tournament of `make run`
  spades-lab --import my_policies.py tournament --entrant aces+tips --entrant counting+tips --games 400 \\
      --seed 1 --out results/aces       # policies of your own, registered in my_policies.py

`spades-lab COMMAND --help` explains each command; the documentation site (`make docs`) explains the rest.""",
    "simulate": """examples:
  spades-lab simulate --games 1000 --seed 1 --player counting+tips --player random --hand-cap 200
  spades-lab simulate --hands 100000 --seed 7 --rules short --records hands.jsonl
  spades-lab simulate --games 100 --seed 2 --rules duel --player counting+tips --player random --json
  spades-lab simulate --hands 20 --seed 1 --player counting+tips --dd     # bids and play against DD truth""",
    "bench": """examples:
  spades-lab bench --json
  spades-lab bench --workload random --hands 1000000
  spades-lab bench --json --workload heuristic --workload expert --hands 300000 --repeat 5""",
    "rules": """examples:
  spades-lab rules --list
  spades-lab rules standard > my.toml     # edit, then: spades-lab simulate --rules my.toml ...""",
    "policies": """examples:
  spades-lab policies
  spades-lab policies --json | python -m json.tool""",
    "decide": """examples:
  spades-lab decide --player counting+tips --position position.json""",
    "check": """examples:
  spades-lab check --player counting+tips
  spades-lab --import my_policies.py check --player 'aces(extra=1)+tips' --rules blind-nil""",
    "tournament": """examples:
  spades-lab tournament --entrant counting+tips --entrant optimist+tips --games 10000 --seed 1 --out results/a
  spades-lab tournament --entrant counting+tips --entrant optimist+tips --games 20000 --seed 1 --out results/a
        # the same directory with more games plays only the new chunks
  spades-lab tournament --entrant counting+tips --entrant cautious+tips --entrant counting+greedy \\
      --games 4000 --seed 1 --hand-cap 200 --duplicate --workers 2 --out results/rr
  spades-lab tournament ... --json --quiet
  spades-lab tournament --entrant counting+tips --entrant counting+expert --hands 50 --seed 1 --dd --out results/dd""",
    "compare": """examples:
  spades-lab compare cautious counting --play tips,expert --deals 400 --seed 1 --hand-cap 200
  spades-lab compare calibrated+tips counting+tips --sequential --deals 5000 --round-deals 100
  spades-lab compare cautious counting --play tips --claim "bag_penalty_points_per_game=100: about 100" --json""",
    "show": """examples:
  spades-lab show hands.jsonl --game 12 --hand 3
  spades-lab show results/a --pairing 0 --seating 1 --game 5000 --hand 0
  spades-lab show results/a --pairing 0 --seating 0 --game 0 --hand 2 --html hand.html""",
    "plot": """examples:
  spades-lab plot results/a
  spades-lab plot results/a --out figures/ --format pdf""",
    "play": """examples:
  spades-lab play                                   # seat 0 (south) with the default bots
  spades-lab play --rules duel --seed 7 --clock 15  # Duel against a bot, 15 s per decision
  spades-lab play --seat 2 --partner counting+tips --opponents random --save none""",
    "run": """examples:
  spades-lab run --out results/default""",
}


class _Parser(argparse.ArgumentParser):
    """argparse naming the command, choice or option probably meant when one is misspelt."""

    def error(self, message: str) -> Any:
        prefix = "unrecognized arguments: "
        if message.startswith(prefix):
            unknown = next((word for word in message[len(prefix) :].split() if word.startswith("-")), None)
            if unknown is not None:
                message += did_you_mean(unknown.split("=")[0], self._option_names())
        super().error(message)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self._argv = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def _option_names(self) -> list[str]:
        """The options of this parser and of the command given (unknown options are reported by the top parser)."""
        names = [o for action in self._actions for o in action.option_strings]
        given = getattr(self, "_argv", [])
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, command in action.choices.items():
                    if name in given:
                        names += [o for a in command._actions for o in a.option_strings]
        return sorted(set(names))

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is not None and value not in choices:
            allowed = ", ".join(map(str, choices))
            raise argparse.ArgumentError(
                action, f"invalid choice: {value!r}{did_you_mean(value, map(str, choices))} (choose from {allowed})"
            )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="spades-lab", description="Simulate Spades and measure strategies.",
                                     epilog=EXAMPLES[None], formatter_class=_Help)  # fmt: skip
    parser.add_argument("--version", action="version", version=f"spades-lab {__version__}")
    parser.add_argument("--import", dest="imports", action="append", default=[], metavar="MODULE", help=IMPORT_HELP)
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play hands or games and print a summary")
    size = sim.add_mutually_exclusive_group(required=True)
    size.add_argument("--hands", type=POSITIVE, help="independent single hands from 0-0")
    size.add_argument("--games", type=POSITIVE, help="complete games")
    sim.add_argument("--seed", type=int, required=True, help="seed of every deal and random choice")
    sim.add_argument("--rules", default="standard", help=f"preset ({', '.join(PRESETS)}) or a .toml/.json file")
    sim.add_argument(
        "--player",
        action="append",
        help="player name: once for all seats, twice (0+2, 1+3) or 4 times (default: random)",
    )
    sim.add_argument("--records", help="write every hand as JSON Lines (hand records, docs/records.md) to this file")
    sim.add_argument(
        "--hand-cap",
        type=POSITIVE,
        help="stop games after this many hands as unfinished (default: the rules' own; none in standard)",
    )
    sim.add_argument(
        "--batch-size", type=POSITIVE, default=DEFAULT_BATCH, help="tables per batch (results do not depend on it)"
    )
    sim.add_argument("--max-hands", type=_max_hands, default=MAX_HANDS, help=MAX_HANDS_HELP)
    sim.add_argument("--dd", action="store_true", help=DD_HELP)
    sim.add_argument(
        "--json", action="store_true", help="print one JSON object (per-side figures, speed) instead of tables"
    )
    sim.set_defaults(func=_simulate)

    bench = sub.add_parser("bench", help="measure hands/s and peak memory of the named workloads")
    bench.add_argument("--json", action="store_true", help="print one JSON object keyed by workload")
    bench.add_argument(
        "--workload", action="append", help="run only this workload (repeatable; default: every workload)"
    )
    bench.add_argument("--hands", type=POSITIVE, help="hands per workload (default: each workload's own)")
    bench.add_argument("--seed", type=int, default=0, help="seed of the benchmark's deals")
    bench.add_argument(
        "--repeat", type=POSITIVE, default=1,
        help="rounds of the workloads in turn: each reports its median round, each ratio the median of the rounds'",
    )  # fmt: skip
    bench.set_defaults(func=_bench)

    rules = sub.add_parser("rules", help="list presets, or print one as TOML")
    rules.add_argument("preset", nargs="?", help="a preset name or a rules file to print as TOML")
    rules.add_argument("--list", action="store_true", help="list the presets and how each differs from standard")
    rules.set_defaults(func=_rules)

    pol = sub.add_parser("policies", help="list policies, their parameters and defaults")
    pol.add_argument("--json", action="store_true", help="one JSON object: per role, each policy with its parameters")
    pol.set_defaults(func=_policies)

    dec = sub.add_parser(
        "decide", help="what a player would decide in a position: bid, play, blind, exchange or draft (docs/records.md)"
    )
    dec.add_argument("--player", required=True, help="player name, e.g. counting+tips")
    dec.add_argument("--position", required=True, help="JSON file holding the position")
    dec.add_argument("--rules", default=None, help="rules preset or file (default: the position's own)")
    dec.set_defaults(func=_decide)

    chk = sub.add_parser("check", help="check a player before a long run: legal, deterministic, batch-independent")
    chk.add_argument("--player", required=True, help="player name, e.g. aces+tips (with --import for your own)")
    chk.add_argument("--rules", default="standard", help=f"preset ({', '.join(PRESETS)}) or a .toml/.json file")
    chk.add_argument(
        "--tables", type=POSITIVE, default=48, help="hands per seating checked (each replayed to check reproducibility)"
    )
    chk.add_argument("--seed", type=int, default=0, help="seed of the deals")
    chk.add_argument("--json", action="store_true", help="print one JSON object: player, passed, asked or error")
    chk.set_defaults(func=_check)

    tour = sub.add_parser("tournament", help="round robin of entrants in resumable seeded chunks; tables in --out")
    tour.add_argument("--entrant", action="append", required=True, help="player name (repeat; at least 2)")
    tsize = tour.add_mutually_exclusive_group(required=True)
    tsize.add_argument("--games", type=POSITIVE, help="complete games per pairing")
    tsize.add_argument("--hands", type=POSITIVE, help="independent single hands from 0-0 per pairing")
    tour.add_argument("--seed", type=int, required=True, help="seed of every deal and random choice")
    tour.add_argument("--out", required=True, help="results directory; running again resumes it, more games grow it")
    tour.add_argument("--rules", default="standard", help=f"preset ({', '.join(PRESETS)}) or a .toml/.json file")
    tour.add_argument(
        "--hand-cap",
        type=POSITIVE,
        help="stop games after this many hands as unfinished (default: the rules' own; none in standard)",
    )
    tour.add_argument("--duplicate", action="store_true", help="play every game id twice, partnerships swapped")
    tour.add_argument("--workers", type=NON_NEGATIVE, default=0, help="local worker processes (default: all cores)")
    tour.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://HOST:8786 (instead of local workers)")
    tour.add_argument(
        "--chunk-games", type=POSITIVE, default=DEFAULT_CHUNK_GAMES, help="game ids per chunk (the unit of resumption)"
    )
    tour.add_argument(
        "--batch-size", type=POSITIVE, default=DEFAULT_BATCH, help="tables per batch (results do not depend on it)"
    )
    tour.add_argument("--max-hands", type=_max_hands, default=MAX_HANDS, help=MAX_HANDS_HELP)
    tour.add_argument(
        "--no-hands", action="store_true", help="no per-hand table: flat memory, disk grows with games only"
    )
    tour.add_argument("--records", action="store_true", help="also write every hand to records.jsonl (hand records)")
    tour.add_argument("--dd", action="store_true", help=DD_HELP)
    tour.add_argument("--fresh", action="store_true", help="delete this tool's files in --out first")
    tour.add_argument("--json", action="store_true", help="print the summary and matchups as one JSON object")
    tour.add_argument("--ratings", action="store_true", help="also Bradley-Terry (Elo-scale) ratings with intervals")
    tour.add_argument("--quiet", action="store_true", help="no progress bar (default: a bar when stderr is a terminal)")
    tour.set_defaults(func=_tournament)

    from spades_lab.cli import compare as compare_cli

    compare_cli.add_parser(sub, POSITIVE)

    show = sub.add_parser("show", help="one hand: deal, bids, tricks and score (text, or an HTML replay)")
    show.add_argument("source", help="a records file (.jsonl) or a tournament directory (replays the hand)")
    show.add_argument("--game", type=int, required=True, help="game id")
    show.add_argument("--hand", type=int, default=0, help="hand number within the game (default: 0, the first)")
    show.add_argument("--pairing", type=int, help="tournament directory only: the pairing (0, 1, ...)")
    show.add_argument("--seating", type=int, choices=(0, 1), help="tournament directory only: 0, or 1 for swapped")
    show.add_argument("--html", metavar="FILE", help="write a self-contained replay page to FILE instead")
    show.set_defaults(func=_show)

    plot = sub.add_parser("plot", help="draw every plot of a finished tournament directory (PNG, SVG or PDF)")
    plot.add_argument("dir", help="the tournament's output directory (its --out)")
    plot.add_argument("--out", help="folder for the plot files (default: DIR/plots)")
    plot.add_argument("--format", choices=("png", "svg", "pdf"), default="png", help="file format (default: png)")
    plot.set_defaults(func=_plot)

    game = sub.add_parser("play", help="play a game in the terminal against the bots")
    game.add_argument("--rules", default="standard", help=f"preset ({', '.join(PRESETS)}) or a .toml/.json file")
    game.add_argument("--seat", default="0", help="your seat: 0..3 or south, west, north, east (default 0, south)")
    game.add_argument("--partner", help="your partner's player name (default counting+expert, else counting+tips)")
    game.add_argument("--opponents", help="the opponents' player name (default as --partner)")
    game.add_argument("--seed", type=int, help="the game's seed (default: from the clock, printed)")
    game.add_argument("--clock", type=_seconds, help="seconds per decision; at expiry the table plays for you")
    game.add_argument(
        "--save", default="spades-lab-game.jsonl", help="hand-record file of the finished hands ('none': no file)"
    )
    game.set_defaults(func=_play)

    run = sub.add_parser("run", help="the main job: a default match, results and plots in --out")
    run.add_argument("--out", default="results/default", help="results directory (cleared first)")
    run.add_argument("--games", type=POSITIVE, default=2000, help="deals per pairing, each played in both seatings")
    run.add_argument("--seed", type=int, default=1, help="seed of every deal and random choice")
    run.set_defaults(func=_run)
    for name, command in sub.choices.items():
        command.formatter_class = _Help
        command.epilog = EXAMPLES.get(name)
        command.add_argument(  # also after the command, where people type it: merged with the global ones
            "--import", dest="command_imports", action="append", default=[], metavar="MODULE", help=IMPORT_HELP
        )
    return parser


def _show_warning(message: Warning | str, category: type[Warning], *args: Any, **kwargs: Any) -> None:
    """A warning is one line on stderr, without the source line Python would add."""
    print(f"spades-lab: warning: {message}", file=sys.stderr)


EXIT_USAGE = 2
"""Bad input: arguments, rules, positions, player names, paths (also argparse's own errors)."""
EXIT_RUNTIME = 1
"""The input was fine but the run failed: a policy error, a full disk, a worker that died, a bug."""
EXIT_INTERRUPTED = 130
"""Ctrl-C (128 + SIGINT)."""
EXIT_CLOSED_PIPE = 141
"""The reader of stdout went away (`... | head -1`): 128 + SIGPIPE, as for any Unix filter, silently."""


def _error(message: object, code: int) -> int:
    print(f"spades-lab: error: {message}", file=sys.stderr)
    return code


def _os_error(exc: OSError) -> str:
    where = f": {exc.filename}" if exc.filename else ""
    return f"{exc.strerror or exc}{where}"


def _where(exc: BaseException) -> str:
    """file:line of the frame that raised `exc` (the deepest of its traceback)."""
    tb = exc.__traceback__
    if tb is None:
        return "an unknown place"
    while tb.tb_next is not None:
        tb = tb.tb_next
    return f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}"


def _quiet_stdout() -> None:
    """After a closed pipe, point stdout at /dev/null so the interpreter's final flush stays silent."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main(argv: list[str] | None = None) -> int:
    """Run one command; every failure is one `spades-lab: error:` line and an exit code, never a traceback.

    Set SPADES_LAB_TRACEBACK=1 to get the traceback of an unexpected error.
    """
    args = build_parser().parse_args(argv)
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning
        return _run_command(args)


def _import_policies(modules: list[str]) -> None:
    """The `--import` modules, in order, before the command reads any player name."""
    for module in modules:
        if not import_policies(module):
            warnings.warn(
                f"--import {module} registered no policy (register(...) at module level names one)", stacklevel=1
            )


def _run_command(args: argparse.Namespace) -> int:
    from spades_lab.tournament.errors import ChunkError, TournamentError

    try:
        _import_policies(args.imports + args.command_imports)
        code = int(args.func(args))
        sys.stdout.flush()  # inside the try: a closed pipe must surface here, not at interpreter exit
        return code
    except KeyboardInterrupt:
        print("\nspades-lab: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except SystemExit as exc:  # argparse exits before this try: this one came from a policy or imported module
        if os.environ.get("SPADES_LAB_TRACEBACK"):
            raise
        return _error(
            f"sys.exit({exc.code!r}) called at {_where(exc)} stopped the command before it finished"
            " (SPADES_LAB_TRACEBACK=1 shows the traceback)",
            EXIT_RUNTIME,
        )
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_CLOSED_PIPE
    except PluginError as exc:
        if exc.__cause__ is None:  # not found: the message says all
            return _error(exc, EXIT_USAGE)
        if os.environ.get("SPADES_LAB_TRACEBACK"):
            raise exc.__cause__ from None
        return _error(f"{exc} (SPADES_LAB_TRACEBACK=1 shows the traceback)", EXIT_USAGE)
    except (PolicyError, NoLegalActionError, ChunkError) as exc:
        return _error(exc, EXIT_RUNTIME)
    except (RulesError, PolicyNameError, RecordError, TournamentError, ValueError) as exc:
        return _error(exc, EXIT_USAGE)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, FileExistsError) as exc:
        return _error(_os_error(exc), EXIT_USAGE)
    except OSError as exc:  # a full disk, no permission, ...
        return _error(_os_error(exc), EXIT_RUNTIME)
    except Exception as exc:
        if os.environ.get("SPADES_LAB_TRACEBACK"):
            raise
        return _error(f"internal error: {type(exc).__name__}: {exc} (SPADES_LAB_TRACEBACK=1 shows where)", EXIT_RUNTIME)
