"""Every registered policy with its parameters, defaults and their explanations, as plain data.

The explanation of a parameter is the comment or docstring written beside its field in the policy's
source; Python keeps neither at run time, so they are read from the source files. This is what `spades-lab policies --json` prints and what the strategies page of the
documentation is checked against.
"""

from __future__ import annotations

import re
from dataclasses import MISSING, fields
from functools import cache
from pathlib import Path
from typing import Any

import spades_lab.policies as policies
from spades_lab.players.registry import ROLES, entries, field_type, source

EXPLAINED = {
    "ace_spade": "count: the ace of spades is worth this many tricks",
    "king_spade": "count: the king of spades, with at least one other spade",
    "queen_spade": "count: the queen of spades, when guarded by queen_spade_min_others other spades (else 0)",
    "spade_length_value": "count: added for every spade beyond the spade_length_from-th",
    "side_ace": "count: each ace of a side suit (clubs, diamonds, hearts)",
    "side_singleton_king": "count: a side king with no other card of its suit",
    "side_queen_alone": "count: a side queen without the ace or the king of its suit",
    "void_min_spades": "count: spades needed for a side-suit void to be worth void_value",
    "void_with_three_spades": "count: a void held with fewer than void_min_spades spades but at least "
    "singleton_min_spades (a void is never worth less than a singleton)",
    "singleton_min_spades": "count: spades needed for a side-suit singleton to be worth singleton_value",
    "nil_max_spades": "nil rule: most spades a nil hand may hold",
    "nil_long_weak_suit_credit": "nil rule: lowers the count, per long weak side suit, before the threshold test"
    " (0: the rule exactly as the sheet states it)",
    "nil_long_suit_min_length": "nil rule: cards a side suit needs to count as long",
    "nil_weak_suit_highest": "nil rule: rank of the highest card a long suit may hold to count as weak",
}
"""Our own words for the parameters whose source carries no comment (the count's plain numbers)."""

_FIELD = re.compile(r"^\s+(\w+): [^=]+=[^#]*#\s*(.+)$")
_LISTED = re.compile(r'^\s+\("(\w+)", "[^"]+", [^)]*\),\s*#\s*(.+)$')
_CLASS = re.compile(r"^class (\w+)")


@cache
def source_docs() -> dict[str, str]:
    """Parameter name -> the comment or docstring written beside it in the policies' source.

    Parameters are declared as dataclass fields with a trailing comment or a docstring below, or
    (the counting bidder's switches) as a list of (name, type, default) with a trailing comment;
    fields of `NilParams` appear in the bidders with the `nil_` prefix.
    """
    docs: dict[str, str] = dict(EXPLAINED)
    for path in sorted(Path(policies.__file__).parent.glob("*.py")):  # the strategies' sources
        lines = path.read_text().splitlines()
        klass = ""
        for i, line in enumerate(lines):
            if m := _CLASS.match(line):
                klass = m.group(1)
            prefix = "nil_" if klass == "NilParams" else ""
            for pattern in (_FIELD, _LISTED):
                if (m := pattern.match(line)) is not None:
                    docs.setdefault(prefix + m.group(1), m.group(2).strip())
                    # a name two policies share (say `margin`) keeps each class's own words too
                    docs.setdefault(f"{klass}.{prefix}{m.group(1)}", m.group(2).strip())
                    break
            else:
                m = re.match(r"^\s+(\w+): [^=]+= .*$", line)
                nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
                if m and nxt.startswith('"""') and nxt.endswith('"""') and len(nxt) > 6:
                    docs.setdefault(prefix + m.group(1), nxt.strip('"').strip())
    return docs


def _default(f: Any) -> Any:
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    return None


def _jsonable(value: Any) -> Any:
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    if isinstance(value, list | tuple | frozenset | set):
        return [_jsonable(v) for v in value]
    return repr(value)


def catalogue() -> dict[str, list[dict[str, Any]]]:
    """{role: [{name, doc, params: [{name, type, default, doc, range, choices}], source}]} for the roles bid, play,
    draft, exchange; `range` is a number's [low, high] (both allowed) and `choices` a word's allowed values, else
    null; `source` is the file or module a policy of one's own was registered from, null for a shipped one."""
    out: dict[str, list[dict[str, Any]]] = {}
    for role in ROLES:
        listed = []
        for entry in entries(role):
            docs = source_docs()
            ranges = {name: [low, high] for name, low, high in getattr(entry.params, "RANGES", ())}
            choices = {name: list(allowed) for name, allowed in getattr(entry.params, "CHOICES", ())}
            params = [
                {
                    "name": f.name,
                    "type": field_type(f),
                    "default": _jsonable(_default(f)),
                    "doc": docs.get(f"{entry.params.__name__}.{f.name}", docs.get(f.name, "")),
                    "range": ranges.get(f.name),
                    "choices": choices.get(f.name),
                }
                for f in fields(entry.params)
            ]
            listed.append(
                {"name": entry.name, "doc": " ".join(entry.doc.split()), "params": params, "source": source(entry)}
            )
        out[role] = listed
    return out
