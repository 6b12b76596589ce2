"""The rules object: every number of the game in one frozen, validated, serialisable value.

Nothing in the engine hard-codes a target, a penalty or a threshold; it reads them here. A rules
object round-trips through dict, JSON and TOML, so a run's configuration can be stored beside its
results and read back exactly.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import tomllib
import warnings
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from spades_lab.names import did_you_mean

__all__ = ["Rules", "RulesError", "RulesWarning", "UnknownRulesField", "PRESETS", "preset", "load_rules", "rules_label"]


class RulesError(ValueError):
    """Rules input that cannot be used; the message names the field and what is allowed."""


@dataclass(frozen=True)
class Rules:
    """Spades as in docs/rules.md; each field is one number or switch of the game.

    The defaults are 4-player partnership Spades; `players = 2` is Duel (a draft from the stock,
    game to 300 in the `duel` preset).
    """

    players: int = 4
    """4: partnerships of seats 0+2 and 1+3 (or each for themselves, see `partnerships`). 3: three players,
    17 cards each (the 2 of clubs out), each for themselves. 2: Duel."""
    partnerships: bool = True
    """4 players only. True: seats 0+2 and 1+3 are partners. False: cutthroat, each seat for itself
    (its own contract, score, bags, nil and target); Duel and three players have no partners and keep True."""
    deck: str = "standard"
    """standard, or jokers (BJ LJ 2C 2S AS..3S as trumps; 2H 2D out) or jokers-2d (2D promoted; 2H 2C out)."""
    first_lead: str = "left_of_dealer"
    """left_of_dealer (any legal card), two_of_clubs (its holder leads it), lowest_clubs (all play their lowest club)."""
    first_bidder: str = "left_of_dealer"
    """left_of_dealer or dealer."""
    target: int = 500
    """A game ends after a hand in which a side reaches this score (higher total wins; ties play on)."""
    hand_cap: int | None = None
    """Stop a game after this many hands and record it as unfinished (None: no cap)."""
    mercy: bool = False
    """A side at or below `mercy_threshold` after a hand ends the game (the higher total wins)."""
    mercy_threshold: int = -200
    trick_value: int = 10
    """Points per trick of a made contract; a set costs the same per trick bid."""
    bag_value: int = 1
    """Points per overtrick (bag)."""
    bag_penalty_enabled: bool = True
    bag_threshold: int = 10
    """Each time a side's accumulated bags reach this count, it loses `bag_penalty` and this many bags."""
    bag_penalty: int = 100
    nil_value: int = 100
    """Won by a nil bidder taking no trick, lost if it takes one or more."""
    nil_tricks_as_bags: bool = True
    """Tricks won by a nil bidder count as bags (and bag points) for the side; off: they are ignored."""
    min_bid: int = 1
    """Smallest non-nil bid."""
    max_bid: int = 13
    blind_nil: bool = False
    """A seat may declare nil before seeing its cards (not in Duel; with three players and cutthroat the
    trail compares the seat's score with the best score of the others)."""
    blind_nil_value: int = 200
    blind_nil_trail: int = 0
    """Blind nil is allowed only while the seat's side trails the best other side by at least this many points."""
    blind_nil_exchange: int = 0
    """Cards passed each way between a blind-nil bidder and its partner (none when both bid blind nil)."""
    big_contract: int | None = None
    """10-for-200: a made side contract of at least this many tricks scores `big_contract_value` (set: minus it)."""
    big_contract_value: int = 200
    max_team_contract: int | None = None
    """A side's bids may not add up to more than this (13 caps the contract at the tricks there are)."""
    min_team_contract: int = 0
    """A side's bids must add up to at least this (the second partner to bid must make it up)."""
    nil_tricks_to_partner: bool = False
    """A failed nil's tricks count toward the partner's contract instead of as separate bags."""
    spades_break: bool = True
    """Spades may not be led until broken (off: a spade may be led at any time)."""
    bid_rule: str = "free"
    """free; suicide (per side one nil and one bid of at least 4); whiz (nil or the spades held);
    mirror (exactly the spades held, nil with none). Spades means the deck's trumps."""
    moon: str | int = "off"
    """A side taking all 13 tricks: off (nothing special), "win" (it wins the game at once) or a
    number of points it scores for the hand in place of everything else the hand gave it."""
    nil_exchange: int = 0
    """Cards passed each way between a (plain, not blind) nil bidder and its partner after the bidding."""
    blind_bids: int | None = None
    """Smallest blind number bid (None: no blind bids): a seat may bid this many tricks or more before
    seeing its cards; its side's contract then scores double, made or set (not in Duel)."""
    blind_bid_trail: int = 0
    """Blind bids are allowed only while the seat's side trails the best other side by at least this many points."""
    zero_bid: str = "nil"
    """nil: a bid of 0 is nil. plain: the minimum-bid variant, a bid of 0 is a plain contract of no
    tricks (its tricks count for the side's contract, beyond it they are bags) and there is no nil."""

    def __post_init__(self) -> None:
        for f in fields(self):
            _check_type(f.name, getattr(self, f.name), str(f.type))
        # Ranges keep every score far inside int64: a hand moves a side by at most ~90 x MAX_POINTS,
        # so even a million hands at the largest values stay below 10**14 (int64 holds 9.2 x 10**18).
        _points("target", self.target, 1, MAX_SCORE)
        _require(self.hand_cap is None or 1 <= self.hand_cap <= MAX_HAND_CAP, "hand_cap", self.hand_cap,
                 f"None or 1..{MAX_HAND_CAP:,} hands")  # fmt: skip
        _points("mercy_threshold", self.mercy_threshold, -MAX_SCORE, self.target - 1)
        for name in ("trick_value", "bag_value", "bag_penalty", "nil_value", "blind_nil_value", "big_contract_value"):
            _points(name, getattr(self, name), 0, MAX_POINTS)
        _require(1 <= self.bag_threshold <= MAX_BAG_THRESHOLD, "bag_threshold", self.bag_threshold,
                 f"1..{MAX_BAG_THRESHOLD} bags")  # fmt: skip
        _one_of("players", self.players, (4, 2, 3))
        _require(1 <= self.max_bid <= self.tricks, "max_bid", self.max_bid,
                 f"1..{self.tricks} (the tricks of a hand)")  # fmt: skip
        _require(1 <= self.min_bid <= self.max_bid, "min_bid", self.min_bid, f"1..max_bid ({self.max_bid})")
        _one_of("deck", self.deck, DECKS)
        _one_of("first_lead", self.first_lead, FIRST_LEADS)
        _one_of("first_bidder", self.first_bidder, FIRST_BIDDERS)
        _points("blind_nil_trail", self.blind_nil_trail, 0, MAX_SCORE)
        _require(0 <= self.blind_nil_exchange <= 3, "blind_nil_exchange", self.blind_nil_exchange, "0, 1, 2 or 3 cards")
        _require(
            self.big_contract is None or 1 <= self.big_contract <= 26,
            "big_contract",
            self.big_contract,
            "None or 1..26",
        )
        _require(
            self.max_team_contract is None or 1 <= self.max_team_contract <= 26,
            "max_team_contract", self.max_team_contract, "None or 1..26",
        )  # fmt: skip
        top = self.max_team_contract if self.max_team_contract is not None else 2 * self.max_bid
        _require(0 <= self.min_team_contract <= top, "min_team_contract", self.min_team_contract, f"0..{top}")
        if self.first_lead == "two_of_clubs" and self.deck != "standard":
            raise RulesError(
                f"rules field first_lead = 'two_of_clubs' cannot go with deck = {self.deck!r}: the 2 of clubs"
                " is a trump or out of that deck; allowed: first_lead left_of_dealer or lowest_clubs"
            )
        _one_of("bid_rule", self.bid_rule, BID_RULES)
        if isinstance(self.moon, str):
            _one_of("moon", self.moon, ("off", "win"))
        else:
            _points("moon", self.moon, 0, MAX_POINTS)
        _require(0 <= self.nil_exchange <= 3, "nil_exchange", self.nil_exchange, "0, 1, 2 or 3 cards")
        if self.bid_rule != "free":
            _check_bid_rule(self)
        _one_of("zero_bid", self.zero_bid, ("nil", "plain"))
        _require(self.blind_bids is None or 2 <= self.blind_bids <= self.tricks, "blind_bids", self.blind_bids,
                 f"None or 2..{self.tricks} tricks")  # fmt: skip
        _points("blind_bid_trail", self.blind_bid_trail, 0, MAX_SCORE)
        if self.blind_bids is not None and self.bid_rule != "free":
            raise RulesError(
                f"rules field blind_bids = {self.blind_bids} cannot go with bid_rule = {self.bid_rule!r}, whose"
                " bids depend on the cards or the partner's nil; allowed: blind_bids None"
            )
        if self.blind_bids is not None and self.blind_bids > min(self.max_bid, self.max_team_contract or self.tricks):
            raise RulesError(
                f"rules field blind_bids = {self.blind_bids} is above the largest bid the limits allow"
                f" (max_bid {self.max_bid}, max_team_contract {self.max_team_contract}); allowed: a smaller minimum"
            )
        if self.zero_bid == "plain":
            for name, off in (("blind_nil", False), ("nil_exchange", 0), ("bid_rule", "free")):
                if getattr(self, name) != off:
                    raise RulesError(
                        f"rules field {name} = {getattr(self, name)!r} needs a nil bid, which zero_bid = 'plain'"
                        f" does not have (0 is a plain bid there); allowed: {off!r}"
                    )
        if not self.partnerships or self.players == 3:
            _check_cutthroat(self)
        if self.players == 3:
            _check_three_players(self)
        if self.players == 4:
            _check_bids_can_be_legal(self)
        _check_score_can_move(self)
        if self.players == 2:
            duel_only = {"blind_nil": False, "first_lead": "left_of_dealer", "first_bidder": "left_of_dealer",
                         "max_team_contract": None, "min_team_contract": 0, "nil_tricks_to_partner": False,
                         "nil_exchange": 0, "blind_bids": None, "partnerships": True}  # fmt: skip
            for name, default in duel_only.items():
                if getattr(self, name) != default:
                    raise RulesError(
                        f"rules field {name} = {getattr(self, name)!r} does not exist in Duel (players = 2);"
                        f" allowed there: {default!r}"
                    )

    # -- serialisation -------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Build from a dict; `preset` names a base that the other keys override."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be a mapping of field to value, got {type(data).__name__}")
        data = dict(data)
        base = preset(data.pop("preset")) if "preset" in data else cls()
        _check_field_names(data)
        return dataclasses.replace(base, **data)

    def replace(self, **changes: Any) -> Rules:
        return self.from_dict({**self.to_dict(), **changes})

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Rules:
        try:
            data = json.loads(text.removeprefix(BOM))
        except json.JSONDecodeError as exc:
            raise RulesError(f"rules JSON cannot be read: {exc}") from None
        except RecursionError:
            raise RulesError(f"rules JSON cannot be read: nested deeper than {_NESTING_LIMIT}") from None
        return cls.from_dict(data)

    def to_toml(self) -> str:
        """TOML with one `key = value` line per field; `hand_cap = None` is written as a comment."""
        lines = []
        for key, value in self.to_dict().items():
            if value is None:
                lines.append(f"# {key} is not set")
            else:
                lines.append(f"{key} = {json.dumps(value)}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_toml(cls, text: str) -> Rules:
        try:
            data = tomllib.loads(text.removeprefix(BOM))
        except tomllib.TOMLDecodeError as exc:
            raise RulesError(f"rules TOML cannot be read: {exc}") from None
        except RecursionError:
            raise RulesError(f"rules TOML cannot be read: nested deeper than {_NESTING_LIMIT}") from None
        return cls.from_dict(data)

    @property
    def tricks(self) -> int:
        """Tricks in a hand, the cards each seat is dealt: 13, or 17 with three players."""
        return THREE_PLAYER_TRICKS if self.players == 3 else 13

    @property
    def sides(self) -> int:
        """How many sides score: 2 partnerships, or one per player (Duel, cutthroat)."""
        return 2 if self.players == 4 and self.partnerships else self.players

    def preset_name(self) -> str | None:
        """The preset this object equals, if any (records may name it instead of the dict)."""
        return next((name for name, rules in PRESETS.items() if rules == self), None)


BOM = "\ufeff"
"""The byte-order mark some editors put first in a UTF-8 file; it is not part of the rules."""
_NESTING_LIMIT = "Python's recursion limit (rules are a flat table of fields)"


class UnknownRulesField(RulesError, TypeError):
    """A rules field that does not exist (`Rules(bag_treshold=9)`): a RulesError naming the field probably
    meant, and still the TypeError an unknown keyword argument is."""


def _check_field_names(data: dict[str, Any]) -> None:
    allowed = [f.name for f in fields(Rules)]
    unknown = sorted(set(map(str, data)) - set(allowed))
    if unknown:
        hints = "".join(did_you_mean(name, allowed) for name in unknown[:1])
        raise UnknownRulesField(
            f"unknown rules field{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}{hints};"
            f" allowed fields: {', '.join(allowed)}"
        )


def _init_naming_fields(init: Callable[..., None]) -> Callable[..., None]:
    """`Rules(...)` with a misspelt keyword names the field meant instead of Python's bare TypeError."""

    @functools.wraps(init)
    def checked(self: Rules, *args: Any, **kwargs: Any) -> None:
        _check_field_names(kwargs)
        init(self, *args, **kwargs)

    return checked


setattr(Rules, "__init__", _init_naming_fields(Rules.__init__))  # noqa: B010 (mypy refuses assigning a method)


MAX_POINTS = 1_000_000
"""Largest value of any per-trick, per-bag, nil or penalty field."""
MAX_SCORE = 1_000_000_000
"""Largest target, blind-nil trail and (negated) mercy threshold."""
MAX_HAND_CAP = 1_000_000
MAX_BAG_THRESHOLD = 1_000


class RulesWarning(UserWarning):
    """Rules that can be played but are probably not what was meant (a target no game reaches)."""


def _points(name: str, value: int, lo: int, hi: int) -> None:
    _require(lo <= value <= hi, name, value, f"{lo:,}..{hi:,}")


def _side_bids(rules: Rules, partner: int | None) -> list[int]:
    """Bids (0 = nil) the engine allows a seat, given its partner's bid (None: partner not yet bid)."""
    counted = partner or 0
    options = []
    if partner is None or counted >= rules.min_team_contract:
        options.append(0)
    for bid in range(rules.min_bid, rules.max_bid + 1):
        if rules.max_team_contract is not None and bid + counted > rules.max_team_contract:
            continue
        if partner is not None and bid + counted < rules.min_team_contract:
            continue
        options.append(bid)
    return options


def _check_bid_rule(rules: Rules) -> None:
    """A bid rule fixes which numbers are legal by itself, so it refuses limits that would fight it."""
    if rules.bid_rule == "suicide" and not (rules.players == 4 and rules.partnerships):
        raise RulesError(
            "rules field bid_rule = 'suicide' needs partnerships (players = 4, partnerships = True);"
            " allowed: players 4 with partnerships"
        )
    if rules.bid_rule == "mirror" and rules.blind_nil:
        raise RulesError(
            "rules field blind_nil = True cannot go with bid_rule = 'mirror': a mirror bid is the spades held,"
            " which a blind bidder has not seen; allowed: blind_nil False"
        )
    for name, default in (("min_bid", 1), ("max_bid", 13), ("max_team_contract", None), ("min_team_contract", 0)):
        if name == "max_bid" and rules.max_bid >= 13:
            continue  # no hand holds more than 13 trumps: 13..tricks (17 with three players) limit nothing
        if getattr(rules, name) != default:
            raise RulesError(
                f"rules field {name} = {getattr(rules, name)!r} cannot go with bid_rule = {rules.bid_rule!r},"
                f" which decides the legal bids itself; allowed: {default!r}{' or more' if name == 'max_bid' else ''}"
            )


CUTTHROAT_OFF: dict[str, Any] = {
    "blind_nil_exchange": 0, "nil_exchange": 0, "max_team_contract": None, "min_team_contract": 0,
    "nil_tricks_to_partner": False,
}  # fmt: skip
"""Fields that need a partner, with the only value cutthroat (`partnerships = False`) allows."""


def _check_cutthroat(rules: Rules) -> None:
    """Each for themselves: refuse what only exists between partners (exchanges, side contracts)."""
    game = "three players" if rules.players == 3 else "partnerships = False (cutthroat)"
    for name, off in CUTTHROAT_OFF.items():
        if getattr(rules, name) != off:
            raise RulesError(
                f"rules field {name} = {getattr(rules, name)!r} needs partners, which {game} does not have;"
                f" allowed: {off!r}"
            )


def _check_three_players(rules: Rules) -> None:
    """Three players: 51 cards of the standard deck (the 2 of clubs out), each for themselves."""
    for name, only in (("deck", "standard"), ("partnerships", True)):
        if getattr(rules, name) != only:
            raise RulesError(
                f"rules field {name} = {getattr(rules, name)!r} does not exist with three players (players = 3:"
                f" the standard deck without the 2 of clubs, no partners); allowed there: {only!r}"
            )
    if rules.first_lead == "two_of_clubs":
        raise RulesError(
            "rules field first_lead = 'two_of_clubs' cannot go with players = 3: the 2 of clubs is out of the"
            " three-player deck; allowed: first_lead left_of_dealer or lowest_clubs"
        )


def _check_bids_can_be_legal(rules: Rules) -> None:
    """Refuse bid limits under which some seat could be left with no legal bid (the engine never asks then)."""
    for first in _side_bids(rules, None):
        if not _side_bids(rules, first):
            what = "nil" if first == 0 else f"{first}"
            raise RulesError(
                f"rules fields min_bid = {rules.min_bid}, max_bid = {rules.max_bid}, min_team_contract ="
                f" {rules.min_team_contract}, max_team_contract = {rules.max_team_contract} cannot all hold:"
                f" after a first partner's bid of {what} the second partner has no legal bid; allowed:"
                " limits where every first bid leaves the partner one (for example min_team_contract <= max_bid)"
            )


def _check_score_can_move(rules: Rules) -> None:
    """Refuse rules under which no side can ever score a point; warn when the target is out of reach."""
    nil = max(rules.nil_value, rules.blind_nil_value if rules.blind_nil else 0)
    big = rules.big_contract_value if rules.big_contract is not None and rules.big_contract <= 13 else 0
    seats = rules.players // rules.sides
    best = max(13 * rules.trick_value, big) + 13 * rules.bag_value + seats * nil
    if best == 0:
        raise RulesError(
            "rules fields trick_value, bag_value, nil_value (and blind_nil_value, big_contract_value) are all 0:"
            f" no side can ever score, so target = {rules.target} cannot be reached; allowed: at least one above 0"
        )
    hands = -(-rules.target // best)
    if hands > 1000:
        warnings.warn(
            f"rules field target = {rules.target:,} needs at least {hands:,} hands even if one side scored the"
            f" most a hand allows ({best:,} points) every hand: games will stop unfinished at max_hands",
            RulesWarning, stacklevel=4,
        )  # fmt: skip


def _require(ok: bool, name: str, value: Any, allowed: str) -> None:
    if not ok:
        raise RulesError(f"rules field {name} = {value!r} is impossible; allowed: {allowed}")


def _one_of(name: str, value: Any, allowed: tuple[Any, ...]) -> None:
    if value not in allowed:
        hint = did_you_mean(value, [a for a in allowed if isinstance(a, str)])
        raise RulesError(
            f"rules field {name} = {value!r}{hint} is not allowed; allowed: {', '.join(map(repr, allowed))}"
        )


def _check_type(name: str, value: Any, annotation: str) -> None:
    wants_int = "int" in annotation
    optional = "None" in annotation
    if value is None and optional:
        return
    if annotation == "str | int":
        ok = isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))
    elif annotation == "bool":
        ok = isinstance(value, bool)
    elif wants_int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, str)
    if not ok:
        expected = annotation.replace(" | None", " or None")
        raise RulesError(f"rules field {name} must be {expected}, got {value!r} ({type(value).__name__})")


DECKS = ("standard", "jokers", "jokers-2d")
FIRST_LEADS = ("left_of_dealer", "two_of_clubs", "lowest_clubs")
FIRST_BIDDERS = ("left_of_dealer", "dealer")
BID_RULES = ("free", "suicide", "whiz", "mirror")
THREE_PLAYER_TRICKS = 17
"""Three players: 51 cards (the 2 of clubs out), 17 each."""
SUICIDE_MIN = 4
"""In suicide the partner of the nil bidder bids at least this many tricks."""

PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "short": Rules(target=250),
    "duel": Rules(players=2, target=300),
    "blind-nil": Rules(blind_nil=True, blind_nil_trail=100, blind_nil_exchange=1),
    "jokers": Rules(deck="jokers"),
    "jokers-2d": Rules(deck="jokers-2d"),
    "two-of-clubs": Rules(first_lead="two_of_clubs"),
    "pagat": Rules(blind_nil=True, blind_nil_trail=100, blind_nil_exchange=2, mercy=True),
    "house": Rules(big_contract=10, max_team_contract=13, min_team_contract=4, nil_value=50),
    "suicide": Rules(bid_rule="suicide"),
    "whiz": Rules(bid_rule="whiz"),
    "mirror": Rules(bid_rule="mirror"),
    "cutthroat": Rules(partnerships=False),
    "three-player": Rules(players=3, max_bid=THREE_PLAYER_TRICKS),
}


def rules_label(rules: Rules) -> str:
    """How the rules are named to people: the preset they equal, else the nearest preset and the fields
    that differ from it (`standard, hand_cap=200`), else "custom" when they differ in more than a few."""
    name = rules.preset_name()
    if name is not None:
        return name
    mine = rules.to_dict()
    changes = {base: {k: v for k, v in mine.items() if PRESETS[base].to_dict()[k] != v} for base in PRESETS}
    base = min(changes, key=lambda b: len(changes[b]))
    if len(changes[base]) > 3:
        return "custom"
    return f"{base}, " + ", ".join(f"{k}={v}" for k, v in changes[base].items())


def preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise RulesError(
            f"unknown rules preset {name!r}{did_you_mean(name, PRESETS)}; presets: {', '.join(PRESETS)}"
        ) from None


RulesLike = Rules | str | Path | dict[str, Any] | None
"""Anything `load_rules` reads: a Rules, a preset name, a JSON/YAML path, a dict of fields, or None (standard)."""


def load_rules(spec: RulesLike) -> Rules:
    """Rules from a preset name, a .toml/.json file, a dict or a Rules object (None: standard)."""
    if spec is None:
        return Rules()
    if isinstance(spec, Rules):
        return spec
    if isinstance(spec, dict):
        return Rules.from_dict(spec)
    text = str(spec)
    if text in PRESETS:
        return PRESETS[text]
    path = Path(text)
    if path.suffix.lower() in (".toml", ".json") or path.exists():
        if not path.exists():
            raise RulesError(f"rules file {path} does not exist")
        if path.is_dir():
            raise RulesError(f"rules file {path} is a directory; give a .toml or .json file or a preset name")
        try:
            body = path.read_text()
        except (OSError, UnicodeDecodeError) as exc:
            raise RulesError(f"rules file {path} cannot be read: {exc}") from None
        try:
            return Rules.from_json(body) if path.suffix.lower() == ".json" else Rules.from_toml(body)
        except RulesError as exc:
            raise RulesError(f"rules file {path}: {exc}") from None
    raise RulesError(
        f"unknown rules preset {text!r}{did_you_mean(text, PRESETS)}; presets: {', '.join(PRESETS)}, or a .toml/.json file"
    )
