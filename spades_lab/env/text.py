"""The table as text, from one seat's point of view: what `spades-lab play` and `render()` show.

Only what that seat may know is printed: its own hand (sorted by suit, strongest first), the
bids, the cards on the current trick and who holds it, tricks won, and the scores with bags.
"""

from __future__ import annotations

from spades_lab.cards import SUIT_NAMES, Deck
from spades_lab.engine.state import LOOK_ACTION, NIL_ACTION, Phase, State

SEAT_NAMES_4 = ("South", "West", "North", "East")
SEAT_NAMES_2 = ("South", "North")


def seat_name(seat: int, players: int) -> str:
    return (SEAT_NAMES_4 if players == 4 else SEAT_NAMES_2)[seat]


def hand_by_suit(deck: Deck, mask: int) -> list[str]:
    """One line per suit, spades first, strongest card first: `S: AS KS 4S`."""
    lines = []
    labels = deck.labels(mask)
    for suit in (3, 2, 1, 0):
        cards = [c for c in labels if deck.suit(c) == suit]
        lines.append(f"{SUIT_NAMES[suit]:8s}: {' '.join(cards) if cards else '-'}")
    return lines


def bid_text(bid: int, blind: bool = False) -> str:
    if bid < 0:
        return "?"
    if bid == 0:
        return "blind nil" if blind else "nil"
    return str(bid)


def action_text(state: State, action: int, t: int = 0) -> str:
    """How an OpenSpiel action reads at this point: `nil`, `4`, `AS`, `blind nil`, `keep 7H`."""
    phase, _, index = state.point
    if phase == Phase.BID:
        return bid_text(action - NIL_ACTION)
    if phase == Phase.BLIND:
        return "blind nil" if action == NIL_ACTION else "look" if action == LOOK_ACTION else str(action)
    if phase == Phase.DRAFT:
        keep = action == int(state.stock[t, 2 * index])
        return f"{'keep' if keep else 'take next'} ({state.deck.cards[action]})"
    return state.deck.cards[action] if 0 <= action < 52 else str(action)


def describe_table(state: State, seat: int, t: int = 0, names: list[str] | None = None) -> str:
    """The table at row t as seen by `seat`."""
    p, deck, rules = state.players, state.deck, state.rules
    names = names or [seat_name(s, p) for s in range(p)]
    out: list[str] = []
    phase = Phase(int(state.phase[t]))
    side = seat % 2
    score = f"scores: you {int(state.scores[t, side])} ({int(state.bags[t, side])} bags)"
    score += f", them {int(state.scores[t, 1 - side])} ({int(state.bags[t, 1 - side])} bags); game to {rules.target}"
    out.append(f"hand {int(state.hand_number[t]) + 1}, dealer {names[int(state.dealer[t])]}; {score}")
    bids = "  ".join(f"{names[s]} {bid_text(int(state.bids[t, s]), bool(state.blind[t, s]))}" for s in range(p))
    out.append(f"bids: {bids}")
    if phase in (Phase.PLAY, Phase.DONE):
        out.append("tricks won: " + "  ".join(f"{names[s]} {int(state.tricks_won[t, s])}" for s in range(p)))
        trick = [(s, int(state.trick_cards[t, s])) for s in range(p) if state.trick_cards[t, s] >= 0]
        if trick:
            order = sorted(trick, key=lambda sc: (sc[0] - int(state.leader[t])) % p)
            shown = "  ".join(f"{names[s]} {deck.cards[c]}" for s, c in order)
            out.append(
                f"trick: {shown}; held by {names[int(state.win_seat[t])]} ({deck.cards[int(state.win_card[t])]})"
            )
        else:
            out.append("trick: (empty)")
    if phase == Phase.DRAFT:
        _, _, index = state.point
        out.append(f"draft turn {index // 2 + 1} of 13: top card {deck.cards[int(state.stock[t, 2 * index])]}")
    out.append(f"your hand ({names[seat]}):")
    out += ["  " + line for line in hand_by_suit(deck, int(state.hands[t, seat]))]
    return "\n".join(out)
