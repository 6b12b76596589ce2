"""Building players from short names: `random`, `counting+tips`, `counting(margin=2)+tips(-duck_after_contract)`.

A player name is a bid part and a play part joined by `+` (a single name serves both roles when it
is registered for both, like `random`). Each part is a registered policy name with optional
parameters in parentheses: `key=value`, `-flag` (switch off), `+flag` (switch on); `name:no_flag`
is the same as `name(-flag)`. Parameters are the fields of the policy's parameter dataclass, so
the listing and the errors always show exactly what exists.
"""

from __future__ import annotations

import dataclasses
import re
import sys
import textwrap
import warnings
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from spades_lab.names import did_you_mean
from spades_lab.players.entry import BUILT, STORE, Entry
from spades_lab.players.entry import registered as registered  # re-exported: the registry's public calls
from spades_lab.players.entry import restore as restore
from spades_lab.players.player import Player
from spades_lab.players.plugins import load_plugins
from spades_lab.policies.params import (  # re-exported: where a policy author has always found them
    CheckedParams as CheckedParams,
)
from spades_lab.policies.params import NoParams as NoParams
from spades_lab.policies.params import Ranges as Ranges
from spades_lab.policies.params import check_choices as check_choices
from spades_lab.policies.params import check_ranges as check_ranges
from spades_lab.policies.params import field_type as field_type
from spades_lab.policies.params import range_text as range_text


class PolicyReplacedWarning(UserWarning):
    """A policy of your own registered under the name of one that ships with spades_lab, which it replaces."""


class PolicyNameError(ValueError):
    """A player or policy name, or parameter, that does not exist; the message lists what does."""


ROLES = ("bid", "play", "draft", "exchange")
_NAME = re.compile(r"[A-Za-z_][\w-]*")
"""A policy name as player names can write it."""


def register(role: str, name: str, params: type = NoParams, doc: str = "") -> Callable[[Any], Any]:
    """Decorator for a factory `build(params) -> policy` under `name` for `role` ("bid", "play", "draft" or
    "exchange"). `params` is its frozen parameter dataclass (derive it from `CheckedParams` for checked
    ranges); `doc` is the line `spades-lab policies` shows (default: the factory's docstring). Registering
    a name again replaces it. In a file or module, `import_policies` or `spades-lab --import` runs it."""
    if role not in ROLES:
        raise PolicyNameError(
            f"register: role must be one of {', '.join(ROLES)}, got {role!r}{did_you_mean(role, ROLES)}"
        )
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise PolicyNameError(f"register: a policy name is a letter or _ then letters, digits, _ or -, got {name!r}")
    if not (dataclasses.is_dataclass(params) and isinstance(params, type)):
        raise PolicyNameError(f"register {role} policy {name!r}: params must be a dataclass class, got {params!r}")

    def wrap(build: Callable[[Any], Any]) -> Callable[[Any], Any]:
        entry = Entry(name, role, build, params, doc or (build.__doc__ or "").strip())
        shipped = STORE.get((role, name))
        if shipped is not None and source(shipped) is None and source(entry) is not None:
            warnings.warn(
                f"{role} policy {name!r} ships with spades_lab; {source(entry)} registers it again, so every player"
                f" naming {name!r} now uses that one (another name keeps both)",
                PolicyReplacedWarning,
                stacklevel=2,
            )
        STORE[(role, name)] = entry
        BUILT.clear()  # a name registered again must build the new policy, not a cached old one
        return build

    return wrap


def entries(role: str | None = None) -> list[Entry]:
    """Every registered policy (of `role`), installed plugins' included, sorted by role and name."""
    _load_plugins()
    return [e for (r, _), e in sorted(STORE.items()) if role in (None, r)]


def _load_plugins() -> None:
    """Installed plugins register their policies the first time a name is missing or the policies are
    listed, so `pip install` is all a plugin needs, and a run that names only shipped policies never
    imports them."""
    load_plugins()


_PART = re.compile(rf"^\s*({_NAME.pattern})\s*(?:\((.*)\))?\s*$")


def split_top(text: str, sep: str) -> list[str]:
    """Split on `sep` outside parentheses."""
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == sep and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return parts


def _convert(entry: Entry, key: str, raw: str, field_type: str) -> Any:
    try:
        if field_type == "bool":
            if raw.lower() in ("true", "1", "yes", "on"):
                return True
            if raw.lower() in ("false", "0", "no", "off"):
                return False
            raise ValueError(raw)
        if field_type == "int":
            return int(raw)
        if field_type == "float":
            return float(raw)
        return raw
    except ValueError:
        article = "an" if field_type[:1] in "aeiou" else "a"
        raise PolicyNameError(
            f"{entry.role} policy {entry.name!r}: parameter {key} needs {article} {field_type}, got {raw!r}"
        ) from None


def build_part(text: str, role: str) -> Any:
    """One policy from `name`, `name(key=value, -flag)` or `name:no_flag`.

    The same text builds the same object once per process: registered parts are pure functions of
    their view, so players that share a part (`counting+tips`, `cautious+tips`) share the object,
    and the engine asks the seats of both players in one batch.
    """
    key = (role, " ".join(text.split()))
    built = BUILT.get(key)
    if built is None:
        built = BUILT[key] = _build_part(text, role)
    return built


def bid_policy(name: str) -> Any:
    """A bid part alone, e.g. `bid_policy("counting(margin=1)")`: combine parts with `Player(bid, play)`."""
    return build_part(name, "bid")


def play_policy(name: str) -> Any:
    """A play part alone, e.g. `play_policy("tips(-duck_after_contract)")`."""
    return build_part(name, "play")


def resolve_part(text: str, role: str) -> tuple[Entry, Any]:
    """The registry entry and the full parameters (defaults filled in) that `text` names for `role`.

    This is what a part *is*: the same text can resolve differently once a default changes or another
    factory is registered under the name, which is why tournament run folders record it.
    """
    head, *switches = text.strip().split(":")
    match = _PART.match(head)
    if not match:
        raise PolicyNameError(f"cannot read policy {text!r}; expected name or name(key=value, -flag)")
    name, args = match.group(1), match.group(2)
    if (role, name) not in STORE:
        _load_plugins()
    entry = STORE.get((role, name))
    if entry is None:
        known = ", ".join(e.name for e in entries(role))
        other = [r for (r, n) in STORE if n == name]
        hint = ""
        if other and role == "bid" and "play" in other:
            hint = f"; {name!r} is a play policy: name a bid part too (e.g. counting+{name}), or build the part alone with play_policy({name!r})"
        elif other:
            hint = f"; {name!r} is a {'/'.join(other)} policy"
        meant = "" if other else did_you_mean(name, [e.name for e in entries(role)])
        raise PolicyNameError(
            f"unknown {role} policy {name!r}{meant}; {role} policies: {known} (see `spades-lab policies`; one of your"
            f" own: import its module first, `spades-lab --import FILE.py` or `import_policies`){hint}"
        )
    items = [a.strip() for a in split_top(args, ",")] if args and args.strip() else []
    for switch in switches:
        if not switch.startswith("no_"):
            raise PolicyNameError(f"cannot read {text!r}: after ':' write no_FLAG to switch FLAG off")
        items.append("-" + switch[3:])
    field_types = {f.name: field_type(f) for f in fields(entry.params)}
    values: dict[str, Any] = {}
    for item in items:
        if item[:1] in "+-" and "=" not in item:
            key, raw = item[1:].strip(), "true" if item[0] == "+" else "false"
        elif "=" in item:
            key, raw = (s.strip() for s in item.split("=", 1))
        else:
            raise PolicyNameError(f"cannot read parameter {item!r} of {name!r}; write key=value, -flag or +flag")
        if key not in field_types:
            allowed = ", ".join(field_types) or "none"
            raise PolicyNameError(
                f"{role} policy {name!r} has no parameter {key!r}{did_you_mean(key, field_types)};"
                f" its parameters: {allowed}"
            )
        values[key] = _convert(entry, key, raw, field_types[key])
    return entry, dataclasses.replace(entry.params(), **values) if values else entry.params()


def _build_part(text: str, role: str) -> Any:
    entry, params = resolve_part(text, role)
    policy = entry.build(params)
    if not callable(getattr(policy, role, None)):  # the role's method: bid, play, draft or exchange
        where = source(entry) or entry.build.__module__
        raise PolicyNameError(
            f"{role} policy {entry.name!r} (registered in {where}): its factory returned {policy!r}, which has"
            f" no {role}(view) method; a factory returns the policy object"
        )
    policy.name = text.strip()
    return policy


DEFAULT_DRAFT, DEFAULT_EXCHANGE = "value", "high"


def make_player(spec: str | Player) -> Player:
    """A Player from a name like `counting+tips`, `random` or `counting+tips+draft=random`.

    Draft (Duel) and exchange (blind nil) policies are named with `+draft=NAME` and
    `+exchange=NAME`; without them a player uses the one of its bid name if that exists (`random`)
    and otherwise the defaults `value` and `high`. A Player passes through unchanged.
    """
    if isinstance(spec, Player):
        return spec
    parts = player_parts(spec)
    return Player(
        build_part(parts["bid"], "bid"), build_part(parts["play"], "play"), label=spec.strip(),
        drafter=build_part(parts["draft"], "draft"), exchanger=build_part(parts["exchange"], "exchange"),
    )  # fmt: skip


def player_parts(spec: str) -> dict[str, str]:
    """The part texts a player name stands for, per role: {"bid", "play", "draft", "exchange"}.

    Draft and exchange are filled in as `make_player` fills them (the bid name's own, else the
    defaults), so the result names every policy the player would use.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise PolicyNameError(f"a player name must be a non-empty string, got {spec!r}")
    parts = [p.strip() for p in split_top(spec, "+")]
    extras: dict[str, str] = {}
    while parts and "=" in parts[-1].split("(")[0]:
        role, name = (x.strip() for x in parts.pop().split("=", 1))
        if role not in ("draft", "exchange"):
            raise PolicyNameError(
                f"cannot read {role}= in player {spec!r}{did_you_mean(role, ('draft', 'exchange'))}; extra parts are draft=NAME and exchange=NAME"
            )
        extras[role] = name
    if len(parts) == 1:
        bid_text = play_text = parts[0]
    elif len(parts) == 2:
        bid_text, play_text = parts
    else:
        raise PolicyNameError(f"cannot read player {spec!r}: write BID+PLAY, e.g. counting+tips")
    bid_name = _PART.match(bid_text.split(":")[0])
    own = bid_name.group(1) if bid_name else ""
    if ("bid", own) not in STORE:
        _load_plugins()  # a plugin's bid name may bring its own draft and exchange
    draft = extras.get("draft") or (own if ("draft", own) in STORE else DEFAULT_DRAFT)
    exchange = extras.get("exchange") or (own if ("exchange", own) in STORE else DEFAULT_EXCHANGE)
    return {"bid": bid_text, "play": play_text, "draft": draft, "exchange": exchange}


def source(entry: Entry) -> str | None:
    """Where a policy that does not ship with spades_lab was registered from (its file, else its module);
    None for a shipped one. Listed by `spades-lab policies`, so the last of two same-named policies is seen."""
    module = entry.build.__module__
    if module.startswith("spades_lab."):
        return None
    return getattr(sys.modules.get(module), "__file__", None) or module


def built_in(spec: str) -> bool:
    """Whether every policy a player name uses ships with spades_lab, so another process (a spawned or a Dask
    worker) builds the same player from the name alone. A policy registered by a researcher's module or a
    plugin, or a shipped name registered again, is not registered there: such a player travels built."""
    return all(source(resolve_part(text, role)[0]) is None for role, text in player_parts(spec).items())


def make_players(specs: list[str] | str, seats: int = 4) -> list[Player]:
    """Seat players from one name (every seat), two names (partnerships 0+2 and 1+3, or the two Duel
    players) or one name per seat."""
    if isinstance(specs, str):
        specs = [specs]
    built: dict[str, Player] = {}
    for s in specs:
        built.setdefault(s, make_player(s))
    if len(specs) == 1:
        return [built[specs[0]]] * seats
    if len(specs) == 2:
        return [built[specs[k % 2]] for k in range(seats)]
    if len(specs) == seats:
        return [built[s] for s in specs]
    raise PolicyNameError(
        f"give 1 player (all seats), 2 (partnerships 0+2, 1+3; or the two Duel players) or {seats} (one per seat),"
        f" got {len(specs)}"
    )


def describe() -> str:
    """The listing printed by `spades-lab policies`."""
    lines = []
    for role in ROLES:
        lines.append(f"{role} policies:")
        for entry in entries(role):
            where = source(entry)
            lines.append(f"  {entry.name}: {entry.doc.splitlines()[0] if entry.doc else ''}")
            if where:
                lines.append(f"      (from {where})")
            params = ", ".join(f"{f.name}={f.default!r}" for f in fields(entry.params))
            if params:
                lines += textwrap.wrap(params, width=110, initial_indent="      ", subsequent_indent="      ")
        lines.append("")
    lines.append("players: BID+PLAY, e.g. counting+tips, counting(margin=2)+tips(-duck_after_contract), random;")
    lines.append(
        f"  add +draft=NAME (Duel) or +exchange=NAME (blind nil); defaults {DEFAULT_DRAFT} and {DEFAULT_EXCHANGE}"
    )
    return "\n".join(lines)
