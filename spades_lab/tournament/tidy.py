"""Long, tidy tables of a tournament's hands: one row per hand and seat, per hand and side, per card played.

The stored hands table is wide (`bid0..bid3`, `score_after0/1`, uint64 deal masks) and names no
entrant: which entrant sat on a side follows from the hand's pairing and seating, as planned in the
manifest's chunk list. These functions turn it into long frames that carry the entrant's name and
the cards as labels, so an analysis groups by entrant, bid size or bags carried in with plain
pandas. Contracts and sets come from the engine's own scoring, so the numbers add up to the summary's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pandas as pd

from spades_lab.cards import TRUMP, deck_for
from spades_lab.engine.scoring import score_hands, side_seats
from spades_lab.rules import Rules
from spades_lab.tournament.errors import TournamentError


class StoredTournament(Protocol):
    """What these tables read of a finished tournament (`spades_lab.tournament.TournamentResult` is one):
    named here so that the result can build its tidy tables without this module importing it back."""

    out: Path
    manifest: dict[str, Any]

    @property
    def hands(self) -> pd.DataFrame: ...


class HandsRequired(TournamentError):
    """A plot or table needs the per-hand table, and the tournament did not keep one."""


def rules_of(result: StoredTournament) -> Rules:
    return Rules.from_dict(result.manifest["config"]["rules"])


def entrants(result: StoredTournament) -> list[str]:
    """Entrant names in the tournament's order (the order of its summary)."""
    return list(result.manifest["config"]["entrants"])


def require_hands(result: StoredTournament, what: str) -> pd.DataFrame:
    """The hands table, or an error saying that `what` needs a run with store_hands on."""
    if not result.manifest["config"].get("store_hands", False):
        raise HandsRequired(
            f"{what} needs the per-hand table, but the tournament in {result.out} ran with store_hands=False"
            " (--no-hands); run it again with store_hands=True (without --no-hands) to draw it"
        )
    return result.hands


def side_entrants(result: StoredTournament) -> pd.DataFrame:
    """Which entrant sat on each side of each (pairing, seating): pairing, seating, side, entrant, opponent.

    Derived from the manifest's chunk list (side0 holds seats 0+2, side1 seats 1+3; in Duel seat 0
    and seat 1), since the hands table itself names no entrant.
    """
    names = entrants(result)
    rows = {}
    for chunk in result.manifest["chunks"]:
        pairing, seating = int(chunk["pairing"]), int(chunk["seating"])
        first, second = names[int(chunk["side0"])], names[int(chunk["side1"])]
        rows[(pairing, seating, 0)] = (first, second)
        rows[(pairing, seating, 1)] = (second, first)
    keys = sorted(rows)
    return pd.DataFrame(
        {
            "pairing": [k[0] for k in keys],
            "seating": [k[1] for k in keys],
            "side": [k[2] for k in keys],
            "entrant": pd.Categorical([rows[k][0] for k in keys], categories=names),
            "opponent": pd.Categorical([rows[k][1] for k in keys], categories=names),
        }
    )


def label_sides(frame: pd.DataFrame, result: StoredTournament) -> pd.DataFrame:
    """Add entrant and opponent columns to rows carrying pairing, seating and side."""
    entrant, opponent = side_labels(result, frame["pairing"], frame["seating"], frame["side"])
    return frame.assign(entrant=entrant, opponent=opponent)


def side_labels(
    result: StoredTournament, pairing: Any, seating: Any, side: Any
) -> tuple[pd.Categorical, pd.Categorical]:
    """The entrant and the opponent of each row's (pairing, seating, side), looked up in one array
    indexing (a table of millions of rows is labelled in a fraction of a second)."""
    lookup = side_entrants(result)
    keys = [lookup[k].to_numpy(dtype=np.int64) for k in ("pairing", "seating", "side")]
    shape = tuple(int(k.max()) + 1 for k in keys)
    codes = {}
    for column in ("entrant", "opponent"):
        table = np.full(shape, -1, dtype=np.int64)  # -1: a row of no planned (pairing, seating), as a merge's NaN
        table[tuple(keys)] = lookup[column].cat.codes.to_numpy()
        rows = [np.asarray(v, dtype=np.int64) for v in (pairing, seating, side)]
        inside = np.all([(r >= 0) & (r < n) for r, n in zip(rows, shape)], axis=0)
        found = np.full(len(rows[0]), -1, dtype=np.int64)
        found[inside] = table[tuple(r[inside] for r in rows)]
        codes[column] = found
    names = entrants(result)
    return (pd.Categorical.from_codes(codes["entrant"], categories=names),
            pd.Categorical.from_codes(codes["opponent"], categories=names))  # fmt: skip


def _labels(masks: np.ndarray, deck_name: str) -> list[str]:
    deck = deck_for(deck_name)
    return [" ".join(deck.labels(int(m))) for m in masks]


def side_hands(result: StoredTournament) -> pd.DataFrame:
    """One row per hand and side, as the engine scored it.

    Columns: pairing, seating, game, hand, side, entrant, opponent; contract (the side's non-nil
    bids added up; 0 when every bidder of the side bid nil), contract_tricks (tricks counting toward
    it), tricks (all the side's tricks), has_contract, set (had a contract and missed it); nil_bids,
    nils_made; score_before, bags_before (carried into the hand), bags_won (taken in it), bags_after,
    bag_penalties, hand_score (the points of the hand), score_after. A run with dd=True adds dd_tricks
    (the side's double-dummy tricks), dd_bid_error (contract minus dd_tricks; NaN without a contract)
    and dd_tricks_lost (dd_tricks minus tricks). In cutthroat every player is a side (side = seat, four
    rows per hand) and the entrant is the one seated there (seats 0+2, 1+3).
    """
    hands = require_hands(result, "a per-side table")
    rules = rules_of(result)
    players = rules.players
    n_sides = rules.sides
    bids = hands[[f"bid{s}" for s in range(players)]].to_numpy(dtype=np.int64)
    tricks = hands[[f"tricks{s}" for s in range(players)]].to_numpy(dtype=np.int64)
    blind = hands[[f"blind{s}" for s in range(players)]].to_numpy(dtype=bool)
    bags_before = hands[[f"bags_before{s}" for s in range(n_sides)]].to_numpy(dtype=np.int64)
    scored = score_hands(rules, bids, tricks, bags_before, blind)
    seats = side_seats(players, rules.partnerships)
    nil = bids[:, seats] == 0
    side_tricks = tricks[:, seats]
    per_side = {
        "contract": scored.contract,
        "contract_tricks": scored.contract_tricks,
        "tricks": side_tricks.sum(axis=2),
        "has_contract": scored.has_contract,
        "set": scored.set,
        "nil_bids": nil.sum(axis=2),
        "nils_made": (nil & (side_tricks == 0)).sum(axis=2),
    }
    if "dd_tricks0" in hands.columns:
        dd = hands[["dd_tricks0", "dd_tricks1"]].to_numpy(dtype=np.int64)
        per_side["dd_tricks"] = dd
        per_side["dd_bid_error"] = np.where(scored.has_contract, scored.contract - dd, np.nan)
        per_side["dd_tricks_lost"] = dd - per_side["tricks"]
    n = len(hands)
    frame = pd.DataFrame({k: np.repeat(hands[k].to_numpy(), n_sides) for k in ("pairing", "seating", "game", "hand")})
    frame["side"] = np.tile(np.arange(n_sides), n)
    for name, values in per_side.items():
        frame[name] = np.asarray(values).reshape(-1)
    for name in ("score_before", "bags_before", "bags_won", "bags_after", "bag_penalties", "hand_score",
                 "score_after"):  # fmt: skip
        frame[name] = hands[[f"{name}{s}" for s in range(n_sides)]].to_numpy().reshape(-1)
    side = frame["side"].to_numpy()
    frame = label_sides(frame.assign(side=side % 2), result).assign(side=side)  # entrants sit at seats 0+2, 1+3
    front = ["pairing", "seating", "game", "hand", "side", "entrant", "opponent"]
    return frame[front + [c for c in frame.columns if c not in front]]


def seat_hands(result: StoredTournament, cards: bool = True) -> pd.DataFrame:
    """One row per hand and seat.

    Columns: pairing, seating, game, hand, seat, side, entrant, opponent; cards (dealt, as labels,
    strongest suit first), bid, blind, nil (a nil or blind nil bid), tricks, error (bid minus tricks
    taken; meaningful for non-nil bids); and the side's figures of the hand: set, bags_won,
    hand_score (points), score_after. `cards=False` leaves the card labels out: they are most of
    the time it takes (a string per seat and hand), and no figure needs them.
    """
    return seat_table(result, side_hands(result), cards)


def seat_table(result: StoredTournament, sides: pd.DataFrame, cards: bool = True) -> pd.DataFrame:
    """`seat_hands` from the result's `side_hands` table, when the caller already has it."""
    hands = require_hands(result, "a per-seat table")
    rules = rules_of(result)
    players = rules.players
    n = len(hands)
    keys = {k: np.repeat(hands[k].to_numpy(), players) for k in ("pairing", "seating", "game", "hand")}
    seat = np.tile(np.arange(players), n)
    bids = hands[[f"bid{s}" for s in range(players)]].to_numpy(dtype=np.int64).reshape(-1)
    tricks = hands[[f"tricks{s}" for s in range(players)]].to_numpy(dtype=np.int64).reshape(-1)
    blind = hands[[f"blind{s}" for s in range(players)]].to_numpy(dtype=bool).reshape(-1)
    side = seat % rules.sides
    entrant, opponent = side_labels(result, keys["pairing"], keys["seating"], side % 2)  # seats 0+2 vs 1+3
    frame = pd.DataFrame({**keys, "seat": seat, "side": side, "entrant": entrant, "opponent": opponent})
    if cards:
        deal = hands[[f"deal{s}" for s in range(players)]].to_numpy(dtype=np.uint64).reshape(-1)
        frame["cards"] = _labels(deal, rules.deck)
    frame["bid"], frame["blind"], frame["nil"], frame["tricks"], frame["error"] = (
        bids, blind, bids == 0, tricks, bids - tricks)  # fmt: skip
    row = np.repeat(np.arange(n) * rules.sides, players) + side  # the seat's side row of the same hand
    for name in ("set", "bags_won", "hand_score", "score_after"):
        frame[name] = sides[name].to_numpy()[row]
    return frame


def plays(result: StoredTournament) -> pd.DataFrame:
    """One row per card played, from records.jsonl (a tournament run with records=True / --records).

    Columns: pairing, seating, game, hand, trick (1..13), position (0 = the lead), seat, entrant,
    card (label), led_suit (the block led: C, D, H or S), winner (the seat that won the trick),
    wins (this card won it).
    """
    if not result.manifest["config"].get("records", False):
        raise TournamentError(
            f"a plays table needs the hand records, but the tournament in {result.out} ran without them;"
            " run it with records=True (--records) to keep them"
        )
    rules = rules_of(result)
    deck = deck_for(rules.deck)
    p = rules.players
    lookup = side_entrants(result).set_index(["pairing", "seating", "side"])["entrant"]
    columns: dict[str, list[Any]] = {k: [] for k in ("pairing", "seating", "game", "hand", "trick", "position", "seat",
                                                "entrant", "card", "led_suit", "winner", "wins")}  # fmt: skip
    with open(result.out / "records.jsonl") as src:
        for line in src:
            record = json.loads(line)
            names = {side: lookup[(record["pairing"], record["seating"], side)] for side in (0, 1)}
            for k in range(len(record["plays"]) // p):
                trick = record["plays"][k * p : (k + 1) * p]
                ids = [deck.card_id(c) for _, c in trick]
                led = int(deck.suit_of[ids[0]])
                best = max((i for i, cid in enumerate(ids) if int(deck.suit_of[cid]) in (led, TRUMP)),
                           key=lambda i: ids[i])  # fmt: skip
                for position, (seat, card) in enumerate(trick):
                    columns["pairing"].append(record["pairing"])
                    columns["seating"].append(record["seating"])
                    columns["game"].append(record["game"])
                    columns["hand"].append(record["hand"])
                    columns["trick"].append(k + 1)
                    columns["position"].append(position)
                    columns["seat"].append(int(seat))
                    columns["entrant"].append(names[int(seat) % 2])
                    columns["card"].append(card)
                    columns["led_suit"].append("CDHS"[led])
                    columns["winner"].append(int(trick[best][0]))
                    columns["wins"].append(position == best)
    frame = pd.DataFrame(columns)
    frame["entrant"] = pd.Categorical(frame["entrant"], categories=entrants(result))
    return frame
