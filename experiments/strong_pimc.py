"""The `pimc` search player's figures, one part at a time (each part bounded, each result saved as JSON).

The parts of the strong players' DD and timing targets:
- `match`: the 200-deal duplicate single-hand match counting+pimc vs counting+expert (points per hand,
  paired margin; prints the wall time and the CPU time of play, the workers' included);
- `tips`: duplicate games (to 500, 200-hand cap) counting+pimc vs counting+tips, `--deals` deals;
- `lost`: DD tricks lost per side per hand before the contract is made, over the WHOLE hand (all 13
  tricks), `--hands` hands per player of `--players`, broken down by trick number and by position in
  the trick (every checked play is a full-information `dd.card_values` solve of the true deal; the
  solves are spread over `--workers` processes one hand at a time, a fresh solver table per hand);
- `lost-tables`: prints pimc_lost.json as the markdown tables of results/strong_players/pimc.md;
- `lost-situations`: the loss of each `lost` run saved under `--out` by situation (lead of a side master,
  second seat ruffing, ...: `_situation`), as markdown;
- `lost-alternatives`: for each `lost` run saved under `--out`, what simple rules (the lowest card, the
  lowest winner, the lowest trump, ...) would lose where the player chose its card, paired (`lost_alternatives`);
- `lost-points --runs DIR,...`: which of the DD tricks lost of each saved `lost` run change the true deal's hand
  score (a contract made or set, ours or theirs) and which only move bags (`lost_points`), per side-hand;
- `floor --runs DIR/lost_N.npz [--worlds K] [--play-weight W]`: what the best card per decision would lose given
  only what pimc's worlds know (optionally also weighted by the others' plays), on the plays of a saved `lost`
  run (`floor_rows`);
- `match-pair --runs A,B`: two match runs of the same deals, B's pimc margin minus A's, paired by deal;
- `bench`: `spades-lab bench --json --workload pimc --hands N` (searched decisions/s).
Each part writes results/strong_players/pimc_PART.json (or `--name`); pimc.md is written by hand from them.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import resource
import time
from pathlib import Path
from typing import Any

import numpy as np
from common import RULES, SEED, checked_plays, entrant_figures, paired_figures

import spades_lab as sl
from spades_lab import dd
from spades_lab.bench import run_bench
from spades_lab.engine import PlayView, State
from spades_lab.engine import trick as trick_rules
from spades_lab.engine.views import ViewContext
from spades_lab.policies.identity import player_identity
from spades_lab.policies.pimc import PimcParams, cheapest, score_by_tricks
from spades_lab.policies.worlds import bid_log_weights, resample, sample_worlds, void_masks
from spades_lab.tournament import tournament

OUT = Path(__file__).resolve().parents[1] / "results" / "strong_players"
EXPERT, TIPS, PIMC = "counting+expert", "counting+tips", "counting+pimc"


def _save(part: str, data: dict) -> None:
    (OUT / f"pimc_{part}.json").write_text(json.dumps(data, indent=1))
    print(part, json.dumps(data), flush=True)


def _est(e) -> list[float]:
    return [float(e.value), float(e.lo), float(e.hi)]


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its finished (joined) children: the tournament's workers."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def match(deals: int, workers: int, out: Path, pimc: str = PIMC, part: str = "match") -> None:
    t, cpu = time.perf_counter(), _cpu_seconds()
    result = tournament([pimc, EXPERT], RULES, hands=deals, duplicate=True, workers=workers, out=out / part,
                        fresh=True, store_hands=False, seed=SEED, batch_size=1024,
                        chunk_games=max(1, deals // 4))  # fmt: skip
    wall, cpu = time.perf_counter() - t, _cpu_seconds() - cpu
    load = os.getloadavg()[0]
    print(
        f"match {pimc} vs {EXPERT}, {deals} deals: wall {wall:.0f} s, CPU {cpu:.0f} s "
        f"(workers {workers}, load average {load:.1f} at the end)",
        flush=True,
    )
    figs = entrant_figures(result)
    _save(part, {"player": pimc, "deals": deals, "workers": workers, "wall_s": wall, "play_s": result.seconds,
                 "cpu_s": cpu, "load_end": load,
                 "pimc_pph": _est(figs[pimc]["points_per_hand"]), "expert_pph": _est(figs[EXPERT]["points_per_hand"]),
                 "margin": _est(paired_figures(result, pimc)["margin"])})  # fmt: skip


def tips(deals: int, workers: int, out: Path) -> None:
    t = time.perf_counter()
    result = tournament([PIMC, TIPS], RULES, games=deals, duplicate=True, workers=workers, out=out / "pimc_vs_tips",
                        fresh=True, store_hands=False, seed=SEED, batch_size=1024,
                        chunk_games=max(1, deals // 4))  # fmt: skip
    figs = entrant_figures(result)
    win = figs[PIMC]["win_rate"]
    _save("tips", {"deals": deals, "games": 2 * deals, "finished": int(win.n), "win_rate": _est(win),
                   "pimc_pph": _est(figs[PIMC]["points_per_hand"]), "tips_pph": _est(figs[TIPS]["points_per_hand"]),
                   "wall_s": time.perf_counter() - t})  # fmt: skip


def tally(out: Path) -> None:
    """The pimc-vs-tips games finished so far (chunk files of a run stopped at its time bound)."""
    import pandas as pd

    from spades_lab.stats.intervals import wilson

    files = sorted((out / "pimc_vs_tips" / "games").glob("*.parquet"))
    games = pd.concat([pd.read_parquet(f) for f in files])
    mine = games[(games["entrant"] == PIMC) & ~games["unfinished"]]
    won = int(mine["won"].sum())
    interval = wilson(won, len(mine))
    _save("tips_partial", {"chunks": len(files), "finished": len(mine), "won": won, "win_rate": won / len(mine),
                           "wilson": [float(x) for x in interval], "pimc_points_per_hand":
                           float(mine["score"].sum() / mine["hands"].sum())})  # fmt: skip


def _lost_chunk(args: tuple[np.ndarray, ...]) -> np.ndarray:
    """[plays, 52] DD value of every card at each play of one hand, on the true deal (-1: not legal).

    The loss of a play is the best value minus the played card's; the whole row is kept so that other
    rules can be valued offline on the same plays. A fresh solver table per hand, so the figures do not
    depend on how hands are spread over workers.
    """
    hands, trick, leader, broken = args
    solver = _LOST_SOLVER.setdefault("solver", dd.Solver(sl.Rules()))
    solver.clear()
    return dd.card_values(hands, trick, leader, broken, solver=solver)


_LOST_SOLVER: dict[str, dd.Solver] = {}


def _interval(x: np.ndarray) -> list[float]:
    se = x.std(ddof=1) / np.sqrt(len(x)) if len(x) > 1 else float("nan")
    return [float(x.mean()), float(x.mean() - 1.96 * se), float(x.mean() + 1.96 * se)]


def _lost_summary(rows: dict[str, np.ndarray], loss: np.ndarray, hands: int) -> dict:
    """The statistic and its breakdowns over the first `hands` hands (side-hands 0 .. 2 * hands - 1)."""
    n_side = 2 * hands
    pick_hands = rows["side_hand"] < n_side
    side, lost_tricks = rows["side_hand"][pick_hands], loss[pick_hands]
    total = np.zeros(n_side)
    np.add.at(total, side, lost_tricks)
    by_trick: list[list[float]] = []
    by_position: list[list[float]] = []
    for column, cells, table in (("t", 13, by_trick), ("pos", 4, by_position)):
        for cell in range(cells):
            x = np.zeros(n_side)
            pick = rows[column][pick_hands] == cell
            np.add.at(x, side[pick], lost_tricks[pick])
            table.append(_interval(x) + [int(pick.sum())])
    value, lo, hi = _interval(total)
    return {
        "value": value, "lo": lo, "hi": hi, "side_hands": n_side, "hands": hands, "checked_plays": len(lost_tricks),
        "plays_losing": int((lost_tricks > 0).sum()), "by_trick": by_trick, "by_position": by_position,
        "per_side_hand": [int(x) for x in total],
    }  # fmt: skip


def lost(hands: int, players: list[str], workers: int, tag: str = "", out: Path | None = None, every: int = 20) -> None:
    """Whole-hand DD tricks lost per side per hand before the contract is made, by trick and by position.

    The plays are made in this process (one stream, seed SEED); the solver checks are spread over
    `workers` processes one hand at a time. Per side-hand: the sum of the lost tricks of its checked
    plays; broken down by trick number (0-12) and position in the trick (lead, 2nd, 3rd, 4th), each
    cell the mean over side-hands of that cell's sum (the cells add up to the total). `tag` keys the
    result as `NAME [TAG]` (a larger sample beside the 60-hand one). The result is saved every `every`
    hands checked, over the hands done so far (the first hands of the seed, in order), so a run stopped
    early still leaves its figure; with `out`, every checked play, its loss and every card's DD value go
    to `out/lost_N.npz` for other breakdowns. `play_s` is the time of play alone. Each entry keeps the
    player's resolved identity (`player`: every parameter), so a figure of an earlier version of a player
    is reported as such by strong_players.py.
    """
    path = OUT / "pimc_lost.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    for name in players:
        t, cpu = time.perf_counter(), _cpu_seconds()
        rows = checked_plays(name, hands, SEED)
        play_s = time.perf_counter() - t
        print(f"lost {name}: {hands} hands played in {play_s:.0f} s", flush=True)
        hand_of = rows["side_hand"] // 2
        chunks = [np.flatnonzero(hand_of == h) for h in range(int(rows["n_hands"]))]
        checked = [h for h, c in enumerate(chunks) if len(c)]
        tasks = [tuple(rows[k][chunks[h]] for k in ("hands", "trick", "leader", "broken")) for h in checked]
        key = f"{name} [{tag}]" if tag else name
        loss = np.zeros(len(rows["card"]), dtype=np.int64)
        values = np.full((len(rows["card"]), 52), -1, dtype=np.int8)
        pool = mp.get_context("spawn").Pool(workers) if workers > 1 else None
        try:
            parts = pool.imap(_lost_chunk, tasks, chunksize=1) if pool else map(_lost_chunk, tasks)
            for i, part in enumerate(parts):
                plays = chunks[checked[i]]
                values[plays] = part
                loss[plays] = part.max(axis=1).astype(np.int64) - part[np.arange(len(plays)), rows["card"][plays]]
                last = i == len(tasks) - 1
                if (i + 1) % every and not last:
                    continue
                done = int(rows["n_hands"]) if last else checked[i] + 1
                data[key] = _lost_summary(rows, loss, done) | {
                    "seconds": time.perf_counter() - t, "play_s": play_s, "cpu_s": _cpu_seconds() - cpu,
                    "workers": workers, "hands_asked": hands, "player": player_identity(name),
                }  # fmt: skip
                entry = data[key]
                print(
                    f"lost {key}: {entry['value']:.2f} ({entry['lo']:.2f} to {entry['hi']:.2f}) per side-hand over "
                    f"{entry['side_hands']} side-hands; wall {entry['seconds']:.0f} s (play {play_s:.0f} s), "
                    f"load {os.getloadavg()[0]:.1f}",
                    flush=True,
                )  # fmt: skip
                _save("lost", data)
                if out is not None:
                    keep = rows["side_hand"] < 2 * done
                    arrays: dict[str, Any] = {k: v[keep] if v.ndim else v for k, v in rows.items()}
                    arrays |= {
                        "loss": loss[keep],
                        "values": values[keep],
                        "done": np.array(done),
                        "key": np.array(key),
                        "player": np.array(json.dumps(entry["player"])),
                    }  # what played them, to check later
                    np.savez(out / f"lost_{list(data).index(key)}.npz", **arrays)
        finally:
            if pool:
                pool.terminate()


def lost_tables() -> str:
    """Markdown tables of pimc_lost.json: the totals, then the breakdowns by trick and by position."""
    data = json.loads((OUT / "pimc_lost.json").read_text())
    names = [n for n in data if "by_trick" in data[n]]

    def cell(v: list[float]) -> str:
        return f"{v[0]:.2f} ({v[1]:.2f} to {v[2]:.2f})"

    lines = ["| player | DD tricks lost per side per hand (95%) | side-hands | checked plays | plays losing |",
             "|---|---|---|---|---|"]  # fmt: skip
    lines += [f"| `{n}` | {cell([data[n]['value'], data[n]['lo'], data[n]['hi']])} | {data[n]['side_hands']} | "
              f"{data[n]['checked_plays']} | {data[n]['plays_losing']} |" for n in names]  # fmt: skip
    lines += ["", "| position in the trick | " + " | ".join(f"`{n}`" for n in names) + " |",
              "|---|" + "---|" * len(names)]  # fmt: skip
    for k, label in enumerate(("lead", "2nd", "3rd", "4th")):
        lines.append(f"| {label} | " + " | ".join(cell(data[n]["by_position"][k]) for n in names) + " |")
    lines += ["", "| trick | " + " | ".join(f"`{n}`" for n in names) + " |", "|---|" + "---|" * len(names)]
    for t in range(13):
        lines.append(f"| {t + 1} | " + " | ".join(f"{data[n]['by_trick'][t][0]:.2f}" for n in names) + " |")
    base = data.get(EXPERT, {}).get("per_side_hand")
    paired = [n for n in names if n != EXPERT and base and data[n].get("per_side_hand")]
    if paired:  # same deals and bids (counting bids do not see the play): paired per side-hand
        lines += ["", f"| paired with `{EXPERT}` (same side-hands) | {EXPERT} minus it (95%) |", "|---|---|"]
        for n in paired:
            other = np.array(data[n]["per_side_hand"], dtype=float)
            if len(other) > len(base):
                continue
            diff = np.array(base[: len(other)], dtype=float) - other  # the first hands of a seed are the same
            lines.append(f"| `{n}` | {cell(_interval(diff))} |")
    return "\n".join(lines)


def _beats(a: int, b: int, deck: sl.cards.Deck) -> bool:
    """Whether card `a` beats card `b` holding the trick (the engine's trick rule)."""
    return bool(trick_rules.beats(a, b, deck.suit_masks))


def _unseen(hands: np.ndarray, seat: int) -> int:
    """The cards `seat` cannot see at a checked play: the other seats' unplayed hands, as one mask."""
    return sum(int(hands[other]) for other in range(4) if other != seat)


def _master(card: int, unseen: int, deck: sl.cards.Deck) -> bool:
    """Whether no unseen card of `card`'s suit ranks above it (what the seat can tell from the play)."""
    return int(trick_rules.unseen_above(card, np.uint64(unseen), deck.suit_masks)) == 0


def _situation(hands: np.ndarray, trick: np.ndarray, leader: int, pos: int, card: int, deck: sl.cards.Deck) -> str:
    """What a checked play was, as the acting seat saw it: a lead (trump or side; master, honour or low), or
    a follow (its seat; following and winning or under, ruff, underruff, discard; who held the trick)."""
    suit = int(deck.suit_of[card])
    master = _master(card, _unseen(hands, (leader + pos) % 4), deck)
    if pos == 0:
        kind = "master" if master else ("honour" if deck.cards[card][0] in "TJQK" else "low")
        return f"lead {'trump' if suit == 3 else 'side'} {kind}"
    cards = [int(c) for c in trick[:pos]]
    best = int(trick_rules.holder(np.array(cards, dtype=np.int64), deck.suit_masks))
    holder = "partner holds" if cards.index(best) == pos - 2 else "opponent holds"
    led = int(deck.suit_of[cards[0]])
    if suit == led:
        act = "follows, wins" if _beats(card, best, deck) else "follows under"
    elif suit == 3:
        act = "ruffs" if _beats(card, best, deck) else "underruffs"
    else:
        act = "discards"
    return f"{('2nd', '3rd', '4th')[pos - 1]} {act} ({holder})"


def lost_situations(out: Path, top: int = 12) -> str:
    """Markdown: the whole-hand DD loss of each saved `lost` run (out/lost_*.npz) by situation, largest first."""
    deck = sl.cards.deck_for(sl.Rules().deck)
    lines = []
    for path in sorted(out.glob("lost_*.npz")):
        z = np.load(path)
        n_side = 2 * int(z["done"]) if "done" in z.files else 2 * (int(z["side_hand"].max()) // 2 + 1)
        cells: dict[str, list[int]] = {}
        for i in range(len(z["card"])):
            name = _situation(z["hands"][i], z["trick"][i], int(z["leader"][i]), int(z["pos"][i]), int(z["card"][i]),
                              deck)  # fmt: skip
            cell = cells.setdefault(name, [0, 0, 0])
            loss = int(z["loss"][i])
            cell[0], cell[1], cell[2] = cell[0] + 1, cell[1] + (loss > 0), cell[2] + loss
        lines += [f"`{z['key']}` ({n_side} side-hands, {len(z['card'])} checked plays, {int(z['loss'].sum())} DD tricks "
                  f"lost; the {top} largest situations):", "",
                  "| situation | plays | plays losing | DD tricks lost per side-hand | per play |", "|---|---|---|---|---|"]  # fmt: skip
        for name, (n, k, lost_tricks) in sorted(cells.items(), key=lambda kv: -kv[1][2])[:top]:
            lines.append(f"| {name} | {n} | {k} | {lost_tricks / n_side:.3f} | {lost_tricks / n:.3f} |")
        lines.append("")
    return "\n".join(lines)


def _alternatives(z: Any, i: int, deck: sl.cards.Deck, rank_of: np.ndarray) -> tuple[str, dict[str, int]] | None:
    """The family of play `i` of a saved `lost` run and the card each simple rule would play there (None: none
    of the families). Every rule reads only what the acting seat sees (its hand, the trick, the cards out)."""
    pos, card = int(z["pos"][i]), int(z["card"][i])
    suit_of = deck.suit_of
    legal = np.flatnonzero(z["values"][i] >= 0)
    if pos == 0:
        unseen = _unseen(z["hands"][i], int(z["leader"][i]))
        if suit_of[card] == 3 or _master(card, unseen, deck):
            return None
        mine = legal[suit_of[legal] == suit_of[card]]
        trumps = legal[suit_of[legal] == 3]
        masters = [int(c) for c in legal if suit_of[c] != 3 and _master(int(c), unseen, deck)]
        return "lead of a side card that is not a master", {
            "lowest of its suit": int(mine.min()), "highest of its suit": int(mine.max()),
            "lowest trump": int(trumps.min()) if len(trumps) else card,
            "lowest side master": min(masters) if masters else card,
        }  # fmt: skip
    trick = [int(c) for c in z["trick"][i][:pos]]
    led, best = suit_of[trick[0]], int(trick_rules.holder(np.array(trick, dtype=np.int64), deck.suit_masks))
    beats = np.array([_beats(int(c), best, deck) for c in legal], dtype=bool)
    follow = legal[suit_of[legal] == led]
    if len(follow):
        if pos == 3 or not beats[legal == card].all():
            return None
        return f"{('2nd', '3rd')[pos - 1]} seat follows and wins", {
            "lowest of the suit": int(follow.min()), "lowest winner": int(legal[beats].min()),
        }  # fmt: skip
    side = legal[suit_of[legal] != 3]
    ruffs = legal[beats]
    return f"{('2nd', '3rd', '4th')[pos - 1]} seat void in the led suit", {
        "lowest side discard": int(side[np.argmin(rank_of[side])]) if len(side) else card,
        "lowest winning trump": int(ruffs.min()) if len(ruffs) else card,
    }  # fmt: skip


def lost_alternatives(out: Path) -> str:
    """Markdown: for each saved `lost` run under `out`, what simple rules would lose at the plays of three
    families, valued on the true deal (the same DD values as the statistic). Families: the 2nd and 3rd seats'
    winning follows, a void seat's ruff or discard, and leads of a side card that is not a master. A rule
    that cannot apply at a play (no trump to lead, say) keeps the card played. Per side-hand sums with normal
    intervals, and each rule minus the card played, paired over side-hands: a negative difference is a rule
    that would have lost fewer DD tricks there than the player did (each play valued with the solver's
    continuation, so how the player would go on after the other card is not counted)."""
    deck = sl.cards.deck_for(sl.Rules().deck)
    rank_of = sl.masks.rank_of(np.arange(52), deck)
    lines = []
    for path in sorted(out.glob("lost_*.npz")):
        z = dict(np.load(path))  # in memory: an NpzFile reads the array again at every lookup
        n_side = 2 * int(z["done"])
        sums: dict[str, dict[str, np.ndarray]] = {}
        counts: dict[str, int] = {}
        for i in range(len(z["card"])):
            found = _alternatives(z, i, deck, rank_of)
            if found is None:
                continue
            family, rules = found
            values, side = z["values"][i].astype(np.int64), int(z["side_hand"][i])
            cells = sums.setdefault(family, {})
            counts[family] = counts.get(family, 0) + 1
            for name, card in ({"card played": int(z["card"][i])} | rules).items():
                cells.setdefault(name, np.zeros(n_side))[side] += values.max() - values[card]
        lines += [f"`{z['key']}` ({n_side} side-hands):", "",
                  "| plays | rule | DD tricks lost per side-hand | rule minus the card played |", "|---|---|---|---|"]  # fmt: skip
        for family, cells in sums.items():
            played = cells["card played"]
            lines.append(f"| {family} ({counts[family]} plays) | card played | {_interval(played)[0]:.3f} | |")
            for name, x in cells.items():
                if name != "card played":
                    d = _interval(x - played)
                    lines.append(f"| | {name} | {x.mean():.3f} | {d[0]:+.3f} ({d[1]:+.3f} to {d[2]:+.3f}) |")
        lines.append("")
    return "\n".join(lines)


def lost_points(paths: list[Path], hands: int = 0) -> str:
    """Markdown: the DD tricks lost of each saved `lost` run, split by whether they change the hand's score.

    Every checked play is valued on the true deal: the side's tricks so far plus the DD tricks after the best
    card (k_best) and after the card played (k_played); the side's hand score minus the opponents'
    (`score_by_tricks`, the search's own objective, no bags carried in: single hands) is read at every final
    trick count between. A lost trick k (k_played < k <= k_best) that moves that score by more than 2 points
    crosses a contract line: our contract made -> set ("ours") or the opponents' set -> made ("theirs"), or else the
    bag penalty (a trick fewer that would have saved it counts as a gain: negative points); one that moves it by
    2 points or less moves only bags and overtrick points ("bags only"). Per side-hand, the sum of
    each kind (the score-changing ones and the bags-only ones add up to the `lost` statistic), and the points lost (score after the best card minus after
    the card played). With `hands` > 0 only the first `hands` hands of each run (to pair runs of different
    length on the same deals).

    What it assumes: the DD continuation (all four seats trick-maximising with full sight) is how the hand
    would end after either card, so a trick "not needed" double dummy may be needed in real play and the other
    way round. A live nil is taken as made (tricks go to its partner): DD values are the partnership's tricks
    and do not say which seat wins them, so a nil broken by a lost trick is not seen here.
    """
    rules = sl.Rules()
    lines = [
        "| run | side-hands | DD tricks lost | changing the score | of which our contract | their contract | "
        "the bag penalty | bags only | points lost |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    runs: list[tuple[str, dict[str, np.ndarray]]] = []
    for path in paths:
        for npz in sorted(path.glob("lost_*.npz")) if path.is_dir() else [path]:
            z = np.load(npz)
            done = min(int(z["done"]), hands) if hands else int(z["done"])
            n_side = 2 * done
            pick = z["side_hand"] < n_side
            side_hand, loss, values = z["side_hand"][pick], z["loss"][pick], z["values"][pick].astype(np.int64)
            seat = (z["leader"][pick] + z["pos"][pick]) % 4
            bids, won = z["bids"][pick], z["won"][pick]
            rows = np.arange(len(seat))
            ours_now = won[rows, seat] + won[rows, (seat + 2) % 4]
            score = score_by_tricks(rules, bids, won, np.zeros((len(seat), 2), dtype=np.int64), seat)  # [n, 14]
            best = np.clip(ours_now + values.max(axis=1), 0, 13)
            played = np.clip(ours_now + values[rows, z["card"][pick]], 0, 13)
            assert np.array_equal(best - played, loss)
            step = np.diff(score, axis=1)  # [n, 13]: step[k - 1] = score[k] - score[k - 1]
            k = np.arange(1, 14)[None, :]
            lost_k = (k > played[:, None]) & (k <= best[:, None])
            big = lost_k & (np.abs(step) > 2)
            contract = np.where(bids > 0, bids, 0)
            own = contract[rows, seat] + contract[rows, (seat + 2) % 4]
            theirs_contract = contract.sum(axis=1) - own
            ours = big & (k == own[:, None])
            theirs = big & ~ours & (k == 14 - theirs_contract[:, None])  # they make theirs with 13 - k >= it
            kinds = {"lost": lost_k.sum(axis=1), "score": big.sum(axis=1), "ours": ours.sum(axis=1), "theirs": theirs.sum(axis=1),
                     "penalty": (big & ~ours & ~theirs).sum(axis=1), "bags": (lost_k & ~big).sum(axis=1),
                     "points": score[rows, best] - score[rows, played]}  # fmt: skip
            cells, sums = {}, {}
            for name, per_play in kinds.items():
                total = np.zeros(n_side)
                np.add.at(total, side_hand, per_play)
                cells[name], sums[name] = _interval(total), total
            row = [f"{c[0]:.2f} ({c[1]:.2f} to {c[2]:.2f})" for c in cells.values()]
            lines.append(f"| `{z['key']}` | {n_side} | " + " | ".join(row) + " |")
            runs.append((str(z["key"]), sums))
    if len(runs) > 1:  # the first hands of a seed are the same deals and bids: paired per side-hand
        first, base = runs[0]
        lines += ["", f"| paired: run minus `{first}` | side-hands | DD tricks lost | changing the score | bags only | "
                  "points lost |", "|---|---|---|---|---|---|"]  # fmt: skip
        for key, sums in runs[1:]:
            m = min(len(sums["lost"]), len(base["lost"]))
            paired = []
            for name in ("lost", "score", "bags", "points"):
                c = _interval(np.asarray(sums[name][:m] - base[name][:m], dtype=float))
                paired.append(f"{c[0]:+.2f} ({c[1]:+.2f} to {c[2]:+.2f})")
            lines.append(f"| `{key}` | {m} | " + " | ".join(paired) + " |")
    return "\n".join(lines)


FLOOR_COLUMNS = (
    ("floor", "best card's mean over the worlds (the floor: biased low)"),
    ("half_heldout", "best card of half the worlds, valued on the other half"),
    ("half_true", "best card of half the worlds, on the true deal"),
    ("choice_true", "best card of all the worlds (a whole-hand trick-maximising PIMC), on the true deal"),
    ("played_worlds", "card played, mean over the worlds"),
    ("played_true", "card played, on the true deal (the `lost` statistic)"),
)


def floor_rows(
    z: dict[str, np.ndarray], rows: np.ndarray, worlds: int, solver: dd.Solver,
    history: tuple[np.ndarray, np.ndarray, int] | None = None, play_weight: float = 0.0,
) -> np.ndarray:  # fmt: skip
    """[len(rows), len(FLOOR_COLUMNS)]: DD tricks lost at each play of a saved `lost` run, valued in worlds.

    For each play, `worlds` deals of the cards the acting seat has not seen are drawn as the default pimc
    draws them (its hand and the played cards fixed, each seat's card count and shown voids kept, resampled
    by the bids as `weigh_by_bids` does, with pimc's `bid_weight` and `oversample`), and every legal card's DD loss
    (the side's best DD tricks minus after that card) is solved in each. The mean loss per card is what the
    seat could know of it; the smallest mean (`floor`) is what the best card a seat could pick from that
    knowledge loses in those worlds. It is biased low (the least of several noisy means), so `half_*` picks
    the card on half the worlds and values it on the other half and on the true deal. `played_worlds`
    against `played_true` says whether the worlds are as hard as the true deals are. `rows` must be the
    plays of one hand, in order (its first play gives the whole hands, for the count by the bids).

    With `play_weight` w > 0 and the hand's `history` (its plays, their seats and the dealer), the candidate
    worlds are also weighted by the other seats' plays so far: exp(-w) for every one of them the `expert`
    would not have made from its own view of that world (`_play_misses`), as well as by the bids.
    """
    deck = sl.cards.deck_for(sl.Rules().deck)
    suit_of, rank_of = sl.masks.suit_of(np.arange(52), deck), sl.masks.rank_of(np.arange(52), deck)
    pimc = PimcParams()
    first = rows[0]
    whole = z["hands"][first].copy()  # each seat's 13 cards: the hand's first play, with its trick's cards
    for k in range(int(z["pos"][first])):
        whole[(z["leader"][first] + k) % 4] |= np.uint64(1) << np.uint64(z["trick"][first][k])
    by_bids = int(z["t"][first]) == 0  # a hand whose first checked play is later: uniform worlds
    out = np.zeros((len(rows), len(FLOOR_COLUMNS)))
    for i, r in enumerate(rows):
        hands, trick, leader, pos = z["hands"][r], z["trick"][r], int(z["leader"][r]), int(z["pos"][r])
        seat = (leader + pos) % 4
        known = np.zeros((1, 4), dtype=np.uint64)
        known[0, seat] = hands[seat]
        room = np.array([[0 if s == seat else int(hands[s]).bit_count() for s in range(4)]])
        unseen = np.array([np.bitwise_or.reduce([hands[s] for s in range(4) if s != seat])], dtype=np.uint64)
        forbidden = void_masks(z["voids"][r : r + 1], deck)
        key = np.array([np.random.default_rng([SEED, int(r)]).integers(1 << 62)], dtype=np.uint64)
        if by_bids:  # pimc's weigh_by_bids, with the plays' weight added to the bids' when asked
            played_by = (whole & ~hands)[None, :]
            for k in range(pos):
                played_by[0, (leader + k) % 4] |= np.uint64(1) << np.uint64(trick[k])
            candidates = sample_worlds(key, known, unseen, room, forbidden, worlds * pimc.oversample)
            dealt = candidates | played_by[:, None, :]
            log_weight = bid_log_weights(dealt, z["bids"][r][None, :], np.array([seat]), pimc.bid_weight, deck)
            if play_weight > 0 and history is not None:
                misses = _play_misses(dealt[0], z["bids"][r], history, 4 * int(z["t"][r]) + pos, seat)
                log_weight = log_weight - play_weight * misses[None, :]
            world = resample(key, candidates, log_weight, worlds)[0]
        else:
            world = sample_worlds(key, known, unseen, room, forbidden, worlds)[0]
        solver.clear()
        values = dd.card_values(world, np.repeat(trick[None, :], worlds, axis=0), np.full(worlds, leader),
                                np.full(worlds, bool(z["broken"][r])), solver=solver).astype(np.int64)  # fmt: skip
        legal = values[0] >= 0
        loss = values.max(axis=1, keepdims=True) - values  # [worlds, 52]
        true = z["values"][r].astype(np.int64)
        true_loss = true.max() - true
        half = worlds // 2
        mean, mean_a = loss.mean(axis=0), loss[:half].mean(axis=0)
        pick, pick_a = (_best_card(m, legal, suit_of, rank_of) for m in (mean, mean_a))
        played = int(z["card"][r])
        out[i] = (mean[pick], loss[half:, pick_a].mean(), true_loss[pick_a], true_loss[pick], mean[played],
                  true_loss[played])  # fmt: skip
    return out


def _best_card(mean: np.ndarray, legal: np.ndarray, suit_of: np.ndarray, rank_of: np.ndarray) -> int:
    """The legal card of least mean loss, ties to the cheapest (pimc's own tie rule)."""
    ties = legal & (mean <= np.where(legal, mean, np.inf).min() + 1e-9)
    return int(cheapest(ties[None, :], suit_of, rank_of)[0])


def _play_misses(
    dealt: np.ndarray, bids: np.ndarray, history: tuple[np.ndarray, np.ndarray, int], steps: int, seat: int
) -> np.ndarray:  # fmt: skip
    """[worlds]: how many of the first `steps` plays of the hand, by seats other than `seat`, the expert would
    not have made in each world (`dealt` [worlds, 4]: the hands as dealt), each seat on its own view of it."""
    plays, play_seats, dealer = history
    rules = sl.Rules()
    n = len(dealt)
    zeros = np.zeros(n, dtype=np.int64)
    state = State(rules, zeros, zeros, np.zeros(n, dtype=np.uint64), np.full(n, dealer), np.zeros((n, 2), dtype=np.int64),
                  np.zeros((n, 2), dtype=np.int64), deal=dealt)  # fmt: skip
    state.set_bids(np.repeat(bids[None, :], n, axis=0))
    expert = sl.play_policy("expert")  # built once per process (the registry caches it)
    context = ViewContext(rules, sl.cards.deck_for(rules.deck))
    misses = np.zeros(n)
    for k in range(steps):
        if int(play_seats[k]) != seat:
            view = PlayView(state, None, state.to_act.copy(), state.decision, context)
            misses += np.asarray(expert.play(view)) != int(plays[k])
        state.apply(np.full(n, int(plays[k]), dtype=np.int64))
    return misses


def _floor_hand(args: tuple[Any, ...]) -> tuple[np.ndarray, np.ndarray]:
    z, rows, worlds, history, play_weight = args
    solver = _LOST_SOLVER.setdefault("solver", dd.Solver(sl.Rules()))
    return rows, floor_rows(z, rows, worlds, solver, history, play_weight)


def floor(npz: Path, hands: int, worlds: int, workers: int, play_weight: float = 0.0) -> dict:
    """`floor_rows` over the first `hands` hands of a saved `lost` run: per column the mean over side-hands of
    its sum (95% interval, and the sums per side-hand), split into tricks 1-5 and 6-13 and by position; saved in
    pimc_floor.json. With `play_weight` > 0 the run's hands are played again (same player, seed and order as
    `checked_plays`) for their histories."""
    z = dict(np.load(npz))
    hands = min(hands, int(z["done"]))
    hand_of = z["side_hand"] // 2
    histories: list[Any] = [None] * hands
    if play_weight > 0:
        player = str(z["key"]).split(" [")[0]
        logs = sl.simulate_hands(sl.Rules(), sl.make_players(player), hands, SEED)
        histories = [(log.plays[r], log.play_seats[r], int(log.dealer[r])) for log in logs for r in range(len(log))]
    tasks = [(z, np.flatnonzero(hand_of == h), worlds, histories[h], play_weight) for h in range(hands)
             if (hand_of == h).any()]  # fmt: skip
    result = np.zeros((len(z["card"]), len(FLOOR_COLUMNS)))
    t = time.perf_counter()
    pool = mp.get_context("spawn").Pool(workers) if workers > 1 else None
    try:
        for rows, part in pool.imap(_floor_hand, tasks) if pool else map(_floor_hand, tasks):
            result[rows] = part
    finally:
        if pool:
            pool.terminate()
    n_side = 2 * hands
    pick = z["side_hand"] < n_side
    side, trick, pos = z["side_hand"][pick], z["t"][pick], z["pos"][pick]
    entry: dict[str, Any] = {"run": str(z["key"]), "hands": hands, "worlds": worlds, "play_weight": play_weight,
                             "seconds": time.perf_counter() - t}  # fmt: skip
    for j, (name, what) in enumerate(FLOOR_COLUMNS):
        cells = {}
        for label, keep in (("all", trick >= 0), ("tricks 1-5", trick < 5), ("tricks 6-13", trick >= 5),
                            *((f"position {k + 1}", pos == k) for k in range(4))):  # fmt: skip
            total = np.zeros(n_side)
            np.add.at(total, side[keep], result[pick, j][keep])
            cells[label] = _interval(total)
            if label == "all":
                sums = [round(float(x), 4) for x in total]  # per side-hand, to pair runs on the same hands
        entry[name] = {"what": what, **cells, "per_side_hand": sums}
        print(f"floor {entry['run']}, {worlds} worlds: {name} {cells['all'][0]:.3f} ({cells['all'][1]:.3f} to "
              f"{cells['all'][2]:.3f}); tricks 1-5 {cells['tricks 1-5'][0]:.3f}, 6-13 {cells['tricks 6-13'][0]:.3f}",
              flush=True)  # fmt: skip
    path = OUT / "pimc_floor.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    weighted = f", play weight {play_weight:g}" if play_weight > 0 else ""
    data[f"{entry['run']} [{hands} hands, {worlds} worlds{weighted}]"] = entry
    path.write_text(json.dumps(data, indent=1))
    return entry


def match_pair(first: Path, second: Path) -> None:
    """Two match runs on the same deals (same seed): the second's pimc margin minus the first's, paired by deal.

    Per deal and run: pimc's hand score minus the expert's, averaged over the two seatings; the difference
    of those per deal, with a normal interval over the deals.
    """
    import pandas as pd

    def margins(run: Path) -> pd.Series:
        games = pd.concat([pd.read_parquet(f) for f in sorted((run / "games").glob("*.parquet"))])
        pimc = games[games["entrant"] != EXPERT]
        return (pimc["score"] - pimc["opp_score"]).groupby(pimc["game"]).mean()

    a, b = margins(first), margins(second)
    diff = (b - a.reindex(b.index)).dropna().to_numpy(dtype=float)
    value = _interval(diff)
    print(
        f"{second.name} minus {first.name}: {value[0]:+.2f} ({value[1]:+.2f} to {value[2]:+.2f}) points per "
        f"hand of pimc's margin over the expert, {len(diff)} deals; margins {a.mean():+.2f} and {b.mean():+.2f}"
    )


def bench(hands: int) -> None:
    _save("bench", {"hands": hands, **run_bench(["pimc"], hands=hands)["pimc"]})


def split_names(text: str) -> list[str]:
    """Player names separated by commas outside parentheses: `a,counting+expert(-x, -y)` -> two names."""
    names, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            names.append(text[start:i].strip())
            start = i + 1
    return [*names, text[start:].strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "part",
        choices=[
            "match",
            "match-pair",
            "tips",
            "tally",
            "lost",
            "lost-tables",
            "lost-situations",
            "lost-points",
            "lost-alternatives",
            "floor",
            "bench",
        ],
    )
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--players", default=f"{TIPS},{EXPERT},{PIMC}")
    parser.add_argument("--out", default="/tmp/strong_pimc_runs")
    parser.add_argument("--pimc", default=PIMC, help="the pimc player of the match, e.g. counting+pimc(max_tricks=8)")
    parser.add_argument("--name", default="match", help="the part's name in results (pimc_NAME.json)")
    parser.add_argument("--tag", default="", help="lost: key the result as 'NAME [TAG]', e.g. '240 hands'")
    parser.add_argument("--first", type=int, default=0, help="lost-points: only the first N hands of each run")
    parser.add_argument("--runs", default="", help="match-pair: two run folders (under --out), e.g. match,match_mc64")
    parser.add_argument("--worlds", type=int, default=32, help="floor: worlds drawn per play")
    parser.add_argument("--play-weight", type=float, default=0.0, help="floor: weight worlds by the others' plays too")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.part == "match":
        match(args.deals, args.workers, out, args.pimc, args.name)
    elif args.part == "match-pair":
        first, second = args.runs.split(",")
        match_pair(out / first, out / second)
    elif args.part == "tips":
        tips(args.deals, args.workers, out)
    elif args.part == "tally":
        tally(out)
    elif args.part == "lost":
        lost(args.hands, split_names(args.players), args.workers, args.tag, out)
    elif args.part == "lost-tables":
        print(lost_tables())
    elif args.part == "lost-situations":
        print(lost_situations(out))
    elif args.part == "lost-alternatives":
        print(lost_alternatives(out))
    elif args.part == "lost-points":
        print(lost_points([out / r for r in args.runs.split(",")], args.first))
    elif args.part == "floor":
        floor(out / args.runs, args.hands, args.worlds, args.workers, args.play_weight)
    else:
        bench(args.hands)


if __name__ == "__main__":
    main()
