"""What a player *is*, as plain data: resolved parameters, and a fingerprint of the code it runs.

A player name such as `counting+expert` is only a name: once a default parameter changes, the
same name plays other games. Anything that keeps results keyed by a player (a tournament's run
folder above all) records `player_identity` beside the name and compares it before reusing games.

- `player_identity(spec)`: for a name, each role's registered policy, its factory and every
  parameter field with defaults filled in; for a player object, its class's qualified name and its
  params (or, lacking those, its plain public attributes), part by part for a `Player`. JSON-ready
  and deterministic (no memory addresses, no set order), so two processes give equal dicts.
- `code_fingerprint(spec)`: a hash per source module the player's policies reach (its classes'
  modules and, through their globals, every spades_lab module they use, plus `base` modules
  such as the engine), per data file those modules name, and per `.json` file a parameter names.
  A module is hashed from its syntax tree with docstrings removed, so comments, docstrings and
  formatting never change a fingerprint; any other edit does, whether or not it changes a game (a
  rename, a faster kernel), which is why a fingerprint mismatch is a warning and a parameter mismatch
  a refusal.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import hashlib
import inspect
import math
import sys
import types
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from spades_lab.players.player import Player
from spades_lab.players.registry import player_parts, resolve_part

ROLES = ("bid", "play", "draft", "exchange")
PACKAGE = "spades_lab"


def jsonable(value: Any) -> Any:
    """A JSON-ready, deterministic copy of a parameter value (dataclasses field by field)."""
    if isinstance(value, bool) or value is None or isinstance(value, int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)  # NaN != NaN would never match
    if isinstance(value, enum.Enum):
        return f"{type(value).__qualname__}.{value.name}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((jsonable(v) for v in value), key=repr)
    if hasattr(value, "tolist") and hasattr(value, "dtype"):  # numpy scalars and small arrays
        return jsonable(value.tolist())
    return f"<{qualified(value if callable(value) else type(value))}>"


def qualified(obj: Any) -> str:
    """`module.QualName` of a class or function (what identifies it across processes)."""
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', getattr(obj, '__name__', '?'))}"


def _part_identity(text: str, role: str) -> dict[str, Any]:
    entry, params = resolve_part(text, role)
    return {"policy": entry.name, "factory": qualified(entry.build), "params": jsonable(params)}


def _object_identity(obj: Any) -> dict[str, Any]:
    """Class and parameters of a policy object; a `Player` part by part."""
    out: dict[str, Any] = {"class": qualified(type(obj))}
    if isinstance(obj, Player):
        parts = {"bid": obj.bidder, "play": obj.player, "draft": obj.drafter, "exchange": obj.exchanger}
        out["parts"] = {role: _object_identity(part) for role, part in parts.items() if part is not None}
        return out
    params = getattr(obj, "params", None)
    if params is not None:
        out["params"] = jsonable(params)
        return out
    state = getattr(obj, "__dict__", {})
    attributes = {
        key: jsonable(value)
        for key, value in sorted(state.items())
        # plain settings and the functions it calls; not caches or arrays, which are state, not identity
        if (not key.startswith("_") and key != "name" and isinstance(value, bool | int | float | str | enum.Enum))
        or isinstance(value, types.FunctionType | types.MethodType)
    }
    if attributes:
        out["attributes"] = attributes
    return out


def player_identity(spec: Any) -> dict[str, Any]:
    """What a tournament entrant is: see the module docstring."""
    if isinstance(spec, str):
        parts = player_parts(spec)
        return {role: _part_identity(parts[role], role) for role in ROLES}
    return _object_identity(spec)


def _policy_objects(spec: Any) -> list[Any]:
    if isinstance(spec, str):
        resolved = [resolve_part(text, role) for role, text in player_parts(spec).items()]
        return [e.build for e, _ in resolved] + [e.params for e, _ in resolved] + [p for _, p in resolved]
    if isinstance(spec, Player):
        return [spec, *(p for p in (spec.bidder, spec.player, spec.drafter, spec.exchanger) if p is not None)]
    return [spec]


def _reached(seeds: Iterable[str]) -> set[str]:
    """The package's modules reachable from `seeds` through the objects their globals hold.

    Following the objects (a class's or function's `__module__`) rather than the import
    statements keeps `from spades_lab.players import Player` from pulling in every policy that the
    layer's `shipped` table registers.
    """
    seen: set[str] = set()
    todo = list(seeds)
    while todo:
        name = todo.pop()
        if name in seen or not (name == PACKAGE or name.startswith(PACKAGE + ".")):
            continue
        seen.add(name)
        module = sys.modules.get(name)
        for value in vars(module).values() if module is not None else ():
            if isinstance(value, types.ModuleType):
                todo.append(value.__name__)
            elif isinstance(getattr(value, "__module__", None), str):
                todo.append(value.__module__)
    return seen


def _strip_docstrings(tree: ast.AST) -> ast.AST:
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and isinstance(
            body, list
        ):
            # every bare string statement: docstrings, and the attribute docstrings under fields
            kept = [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                            and isinstance(s.value.value, str))]  # fmt: skip
            node.body = kept or [ast.Pass()]
    return tree


@cache
def _source_hash(path: str, mtime_ns: int) -> str:
    """Hash of a source file's syntax tree without docstrings (line numbers are not in the dump)."""
    text = Path(path).read_text(encoding="utf-8")
    try:
        dump = ast.dump(_strip_docstrings(ast.parse(text)))
    except SyntaxError:
        dump = text
    return hashlib.sha256(dump.encode()).hexdigest()[:16]


def _file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def _source_of(obj: Any) -> str | None:
    """The source text of a class or function defined outside the package (a notebook, a script)."""
    target = obj if isinstance(obj, type) or inspect.isfunction(obj) else type(obj)
    try:
        return inspect.getsource(target)
    except (OSError, TypeError):
        return None


def code_fingerprint(spec: Any, base: Iterable[str] = ()) -> dict[str, str]:
    """{module or data file: hash} of the code a player runs, plus the `base` modules' reach.

    Modules of the package are hashed whole (docstrings aside); a class or function defined
    elsewhere (a user's own policy) by its own source, under its qualified name, and not at all when
    Python keeps no source for it.
    """
    objects = _policy_objects(spec)
    seeds = {getattr(o, "__module__", None) or type(o).__module__ for o in objects} | set(base)
    out: dict[str, str] = {}
    for name in sorted(_reached(seeds)):
        path = getattr(sys.modules.get(name), "__file__", None)
        if path and path.endswith(".py"):
            out[name] = _source_hash(path, Path(path).stat().st_mtime_ns)
    for obj in objects:
        module = getattr(obj, "__module__", None) or type(obj).__module__
        if module == PACKAGE or module.startswith(PACKAGE + "."):
            continue
        source = _source_of(obj)
        if source is not None:
            try:
                dump = ast.dump(_strip_docstrings(ast.parse(inspect.cleandoc("\n" + source))))
            except SyntaxError:
                dump = source
            target = obj if isinstance(obj, type) or inspect.isfunction(obj) else type(obj)
            out[qualified(target)] = hashlib.sha256(dump.encode()).hexdigest()[:16]
    out.update(_data_files(out))
    out.update(_named_files(objects))
    return dict(sorted(out.items()))


def _named_files(objects: list[Any]) -> dict[str, str]:
    """Hashes of the `.json` files a policy's parameters name (the expert's `lead_weights` may be a path), so
    editing such a file between runs is seen like editing code."""
    out: dict[str, str] = {}
    for obj in objects:
        params = obj if dataclasses.is_dataclass(obj) and not isinstance(obj, type) else getattr(obj, "params", None)
        if not dataclasses.is_dataclass(params) or isinstance(params, type):
            continue
        for field in dataclasses.fields(params):
            value = getattr(params, field.name)
            if isinstance(value, str) and value.endswith(".json") and Path(value).is_file():
                out[f"file {value}"] = _file_hash(Path(value))
    return out


def _data_files(modules: dict[str, str]) -> dict[str, str]:
    """Hashes of the package data files (`<package>/data/*`) that a reached module names in its source."""
    out: dict[str, str] = {}
    sources: dict[str, str] = {}
    for name in modules:
        module = sys.modules.get(name)
        path = getattr(module, "__file__", None)
        if not path:
            continue
        data = Path(path).parent / "data"
        if not data.is_dir():
            continue
        text = sources.setdefault(path, Path(path).read_text(encoding="utf-8"))
        for item in sorted(data.iterdir()):
            if item.is_file() and f'"{item.name}"' in text:
                package_dir = Path(sys.modules[PACKAGE].__file__ or "").parent
                out[str(item.relative_to(package_dir.parent))] = _file_hash(item)
    return out


def changed_modules(stored: dict[str, str], current: dict[str, str]) -> list[str]:
    """Modules (and data files) whose hash differs, or that one side has and the other lacks."""
    return sorted(k for k in set(stored) | set(current) if stored.get(k) != current.get(k))


def player_differences(stored: dict[str, Any], wanted: dict[str, Any]) -> list[str]:
    """`entrant 'NAME': field: old -> new` for every resolved field that differs, per entrant named in both.

    Takes {entrant name: `player_identity`}; an entrant only one side names is left to whoever compares
    the names (a tournament's `entrants` difference).
    """
    out = []
    for name in sorted(set(stored) & set(wanted)):
        old, new = _flat(stored[name]), _flat(wanted[name])
        fields = [
            f"{key}: {_shown(old.get(key, _ABSENT))} -> {_shown(new.get(key, _ABSENT))}"
            for key in sorted(set(old) | set(new))
            if old.get(key, _ABSENT) != new.get(key, _ABSENT)
        ]
        if fields:
            out.append(f"entrant {name!r}: " + ", ".join(fields))
    return out


def _shown(value: Any) -> str:
    return "(absent)" if value is _ABSENT else repr(value)


_ABSENT = object()


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    """A nested identity as {dotted.path: leaf}, with the `params` level left out of the path."""
    if not isinstance(value, dict) or not value:
        return {prefix: value}
    out: dict[str, Any] = {}
    for key, item in value.items():
        path = prefix if key in ("params", "parts") else f"{prefix}.{key}" if prefix else str(key)
        out.update(_flat(item, path))
    return out
