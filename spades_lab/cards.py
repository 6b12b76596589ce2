"""Cards, notation and the deck as data.

A deck is an ordered tuple of 52 card labels laid out in suit blocks (clubs, diamonds,
hearts, then the trump suit), each block from weakest to strongest. A card's integer id
is its position in that tuple, and a hand is a uint64 bitmask over ids. Because the trump
block sits on the highest bits and every block is ordered by strength, the winner of a
trick among the cards that can win it (led suit or trump) is simply the highest id: the
engine needs no rank tables, and a variant deck (jokers and deuces) is only another tuple.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from spades_lab.names import did_you_mean

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
TRUMP = SPADES
JOKERS = ("LJ", "BJ")


class CardError(ValueError):
    """A card or hand string that cannot be read."""


def parse_card(text: str) -> str:
    """Return the canonical two-character label of a card (`10h` -> `TH`, `bj` -> `BJ`)."""
    raw = str(text).strip().upper()
    if raw in JOKERS:
        return raw
    if raw.startswith("10") and len(raw) == 3:
        raw = "T" + raw[2]
    if len(raw) != 2 or raw[0] not in RANKS or raw[1] not in SUITS:
        raise CardError(
            f"cannot read card {text!r}: expected rank from {RANKS} (or 10) then suit from {SUITS},"
            " e.g. 'AS', 'TH', '10H', or a joker 'BJ'/'LJ'"
        )
    return raw


def parse_cards(cards: str | Iterable[str]) -> list[str]:
    """Read a hand given as `"AS KS 4S"`, `"AS,KS"` or a list of card strings."""
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    labels = [parse_card(c) for c in cards]
    seen: set[str] = set()
    for label in labels:
        if label in seen:
            raise CardError(f"card {label} appears twice")
        seen.add(label)
    return labels


def natural_suit(label: str) -> int:
    """The suit printed on a card; jokers belong to the trump suit."""
    return TRUMP if label in JOKERS else SUITS.index(label[1])


def natural_rank(label: str) -> int:
    """0 for a deuce up to 12 for an ace; jokers rank above the ace (13 little, 14 big)."""
    if label in JOKERS:
        return 13 + JOKERS.index(label)
    return RANKS.index(label[0])


def _immutable(array: np.ndarray) -> np.ndarray:
    """An array over an immutable bytes buffer: read-only, and no flag can make it writable."""
    return np.frombuffer(np.ascontiguousarray(array).tobytes(), dtype=array.dtype)


@dataclass(frozen=True)
class Deck:
    """The 52 cards of a game in id order: suit blocks C, D, H, trump, each weakest first.

    `trump_order` lists the trump block strongest first, so the jokers-and-deuces deck is
    one list (`BJ LJ 2C 2S AS KS ... 3S`) and `removed` names the cards taken out.
    """

    name: str
    cards: tuple[str, ...]
    suit_of: np.ndarray = field(repr=False, compare=False)
    suit_masks: np.ndarray = field(repr=False, compare=False)
    index: Mapping[str, int] = field(repr=False, compare=False)

    def __post_init__(self) -> None:
        """Make every part immutable: arrays over read-only buffers (no policy can make them writable again
        through `view.deck`) and a read-only index."""
        object.__setattr__(self, "suit_of", _immutable(self.suit_of))
        object.__setattr__(self, "suit_masks", _immutable(self.suit_masks))
        object.__setattr__(self, "index", MappingProxyType(dict(self.index)))

    def copy(self) -> Deck:
        """Another deck object with the same (immutable) parts: what each view gets, so that forcing new
        attributes onto it (`object.__setattr__`) reaches no other view and not the engine."""
        twin = object.__new__(Deck)
        twin.__dict__.update(self.__dict__)
        return twin

    def __reduce__(self) -> tuple[type[Deck], tuple[object, ...]]:
        return Deck, (self.name, self.cards, np.array(self.suit_of), np.array(self.suit_masks), dict(self.index))

    @classmethod
    def build(cls, name: str, trump_order: Sequence[str] | None = None, removed: Sequence[str] = ()) -> Deck:
        trump = [parse_card(c) for c in trump_order] if trump_order else [r + "S" for r in reversed(RANKS)]
        gone = {parse_card(c) for c in removed}
        blocks: list[list[str]] = []
        for suit in (CLUBS, DIAMONDS, HEARTS):
            blocks.append(
                [r + SUITS[suit] for r in RANKS if r + SUITS[suit] not in gone and r + SUITS[suit] not in trump]
            )
        blocks.append(list(reversed(trump)))
        cards = tuple(c for block in blocks for c in block)
        if len(cards) != 52 or len(set(cards)) != 52:
            raise CardError(f"deck {name!r} must hold 52 distinct cards, it holds {len(set(cards))}")
        suit_of = np.repeat(np.arange(4, dtype=np.int8), [len(b) for b in blocks])
        suit_masks = np.zeros(4, dtype=np.uint64)
        for card_id, suit in enumerate(suit_of.tolist()):
            suit_masks[suit] |= np.uint64(1) << np.uint64(card_id)
        return cls(name, cards, suit_of, suit_masks, {c: i for i, c in enumerate(cards)})

    def card_id(self, label: str) -> int:
        label = parse_card(label)
        try:
            return self.index[label]
        except KeyError:
            raise CardError(f"card {label} is not in the {self.name!r} deck") from None

    def mask(self, labels: str | Iterable[str]) -> int:
        """Bitmask of a hand given in any notation `parse_cards` reads."""
        bits = 0
        for label in parse_cards(labels):
            bits |= 1 << self.card_id(label)
        return bits

    def labels(self, mask: int) -> list[str]:
        """Cards of a bitmask, strongest suit block first and strongest card first within it."""
        mask = int(mask)
        return [self.cards[i] for i in range(51, -1, -1) if mask >> i & 1]

    def suit(self, label: str) -> int:
        return int(self.suit_of[self.card_id(label)])


STANDARD_DECK = Deck.build("standard")
_SPADES_DOWN = [r + "S" for r in reversed(RANKS[1:])]  # AS .. 3S
DECKS: dict[str, Deck] = {
    "standard": STANDARD_DECK,
    # Jokers and deuces: the jokers on top, then the promoted deuce, then 2S, then AS..3S.
    "jokers": Deck.build("jokers", ["BJ", "LJ", "2C", "2S", *_SPADES_DOWN], removed=["2H", "2D"]),
    "jokers-2d": Deck.build("jokers-2d", ["BJ", "LJ", "2D", "2S", *_SPADES_DOWN], removed=["2H", "2C"]),
}


def deck_for(name: str) -> Deck:
    try:
        return DECKS[name]
    except KeyError:
        raise CardError(f"unknown deck {name!r}{did_you_mean(name, DECKS)}; decks: {', '.join(DECKS)}") from None


def format_hand(deck: Deck, mask: int) -> str:
    return " ".join(deck.labels(mask))
