"""A hand record as plain text: deal, bids, a trick table and the score, readable in a terminal or a bug report."""

from __future__ import annotations

from typing import Any

from spades_lab.viewer.hand import SUIT_SYMBOLS, Hand

SUIT_ROWS = ((3, "spades"), (2, "hearts"), (1, "diamonds"), (0, "clubs"))


def _cell(text: str, width: int) -> str:
    return text.ljust(width)


def deal_lines(hand: Hand, key: str = "deal") -> list[str]:
    """Seats as columns, one line per suit (trump first): the deal as a player would sort it."""
    p = hand.players
    cards = [list(hand.record[key][s]) for s in range(p)]
    blocks = [hand.suits(c) for c in cards]
    cols = [[" ".join(Hand.short(c, 3 - row) for c in blocks[s][row]) or "-" for row in range(4)] for s in range(p)]
    width = max(14, *(len(hand.seat_name(s)) for s in range(p)), *(len(x) for col in cols for x in col)) + 2
    lines = [" " * 11 + "".join(_cell(hand.seat_name(s), width) for s in range(p))]
    for row, (_, word) in enumerate(SUIT_ROWS):
        lines.append(f"{SUIT_SYMBOLS[3 - row]} {word:<9}" + "".join(_cell(cols[s][row], width) for s in range(p)))
    return [line.rstrip() for line in lines]


def _exchange_lines(hand: Hand) -> list[str]:
    passes = hand.record.get("exchange") or []
    if not passes:
        return []
    return ["blind-nil exchange: " + ", ".join(f"seat {a} -> seat {b}: {c}" for a, b, c in passes)]


def trick_lines(hand: Hand) -> list[str]:
    """Trick number, leader, the cards in seat order (* marks the winning card), winner, running tricks per seat."""
    p = hand.players
    head = ["trick", "leader"] + [f"seat {s}" for s in range(p)] + ["winner", "tricks by seat"]
    rows = []
    for t in hand.tricks():
        cards = [(c or "") + ("*" if s == t.winner else "") for s, c in enumerate(t.cards)]
        rows.append([str(t.number), f"seat {t.leader}", *cards, f"seat {t.winner}", " ".join(map(str, t.running))])
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    fmt = [(str.rjust if i == 0 else str.ljust) for i in range(len(head))]
    out = ["  ".join(fmt[i](h, widths[i]) for i, h in enumerate(head)).rstrip()]
    out += ["  ".join(fmt[i](x, widths[i]) for i, x in enumerate(r)).rstrip() for r in rows]
    return out


def score_lines(hand: Hand) -> list[str]:
    r = hand.record
    p = hand.players
    out = []
    sides = len(r["hand_score"])  # 2, or 4 players in cutthroat
    for side in range(sides):
        seats = list(range(side, p, sides))
        took = sum(int(r["tricks"][s]) for s in seats)
        bids = " + ".join(f"{hand.bid_text(s)} (seat {s} took {r['tricks'][s]})" for s in seats)
        out.append(
            f"{hand.side_name(side)}: bid {bids}; {took} tricks; hand {int(r['hand_score'][side]):+d};"
            f" bags {r['bags_before'][side]} -> {r['bags_after'][side]};"
            f" score {r['score_before'][side]} -> {r['score_after'][side]}"
        )
    if r.get("unfinished"):
        out.append("game stopped unfinished at the hand cap (no winner)")
    elif r.get("game_over"):
        out.append(f"game over: {hand.side_name(int(r['winner']))} wins")
    else:
        out.append("game goes on")
    return out


def show(record: dict[str, Any]) -> str:
    """The whole hand as text: the deal by seat, the bids, every trick, and the score, bags and game score."""
    hand = Hand.of(record)
    r = hand.record
    where = [f"game {r['game']}, hand {r['hand']}"]
    if "pairing" in r:
        where.append(f"pairing {r['pairing']}, seating {r['seating']}")
    rules = hand.rules.preset_name() or "custom rules"
    lines = [f"{'; '.join(where)}; rules {rules}; dealer seat {r['dealer']}", ""]
    lines.append("hands after the draft:" if hand.players == 2 else "deal:")
    lines += deal_lines(hand)
    lines += _exchange_lines(hand)
    lines.append("")
    lines.append("bids (in bidding order): " + ", ".join(f"seat {s} {hand.bid_text(s)}" for s in hand.bidding_order()))
    lines.append("")
    lines += trick_lines(hand)
    lines.append("")
    lines += score_lines(hand)
    return "\n".join(lines) + "\n"
