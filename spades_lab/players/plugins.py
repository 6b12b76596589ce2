"""Policies from outside the package: a researcher's own file or module, and installed plugins.

`import_policies("my_policies.py")` (or a module name, `"mylab.policies"`) runs the module once, so the
`register` calls in it name its policies for `make_player`, `tournament` and the command line
(`spades-lab --import my_policies.py tournament --entrant aces+tips ...`). An installed package names its
policy module under the entry point group `spades_lab.policies`; those load by themselves the first time a
name is not found or the policies are listed (`load_plugins`).

An imported file or module is pickled by value (cloudpickle), so its policies reach spawned and Dask workers
that cannot import it by name; an installed plugin is pickled by reference, as it is installed there too.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import re
import sys
import traceback
import warnings
import weakref
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

import cloudpickle

from spades_lab.players.entry import Entry, registered, restore

ENTRY_POINT_GROUP = "spades_lab.policies"
"""Entry point group of installed policy packages: `[project.entry-points."spades_lab.policies"]`,
`mybot = "mybot.policies"`; the value is the module whose import registers the policies."""


class PluginError(ValueError):
    """A policy module that cannot be found or fails while it loads; the message says which and where."""


class PluginWarning(UserWarning):
    """An installed plugin that failed to load: its policies are missing, everything else works."""


def _where(exc: BaseException, path: str | None) -> str:
    """` (file:line)` of the failing line in the module's own code (its file, else the deepest module body
    running, not the library call inside it that raised), so a typo is found without a traceback."""
    if isinstance(exc, SyntaxError) and exc.filename:
        return f" ({exc.filename}:{exc.lineno})"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "importlib" not in f.filename]
    own = [f for f in frames if path is not None and Path(f.filename) == Path(path)]
    bodies = [f for f in frames if f.name == "<module>"]
    chosen = own or bodies or frames
    return f" ({chosen[-1].filename}:{chosen[-1].lineno})" if chosen else ""


def _failed(target: str, exc: BaseException, path: str | None) -> PluginError:
    return PluginError(
        f"policies module {target!r} failed while loading: {type(exc).__name__}: {exc}{_where(exc, path)}"
    )


def _module_name(path: Path) -> str:
    """A name for a file's module that shadows no real module (`import random` must stay the library's)."""
    stem = re.sub(r"\W", "_", path.stem)
    name = f"spades_lab_import_{stem}"
    known = sys.modules.get(name)
    if known is not None and Path(getattr(known, "__file__", "") or "").resolve() != path:
        name += "_" + hashlib.sha1(str(path).encode()).hexdigest()[:8]
    return name


def _is_file(target: str) -> bool:
    return target.endswith(".py") or os.sep in target or "/" in target or Path(target).is_file()


def import_policies(target: str | os.PathLike[str]) -> list[str]:
    """Run a policy module once and return the `role:name` keys it registered (or registered again) then.

    `target` is a `.py` file (its folder goes on `sys.path`, so it may import files beside it) or an
    importable module name (the current directory is searched first, as `python -m` does). Importing the
    same file or module again runs nothing and returns the same keys. Raises PluginError, naming the
    module and the line, when it cannot be found or raises while it loads.
    """
    text = os.fspath(target)
    before = registered()
    try:
        module = _import_file(text) if _is_file(text) else _import_name(text)
    except PluginError:
        restore(before)
        raise
    cloudpickle.register_pickle_by_value(module)
    if module not in _REGISTERED:
        _REGISTERED[module] = _registered_since(before)
    return _REGISTERED[module]


_REGISTERED: weakref.WeakKeyDictionary[ModuleType, list[str]] = weakref.WeakKeyDictionary()
"""What each imported module registered when it first ran."""


def _registered_since(before: dict[tuple[str, str], Entry]) -> list[str]:
    """`role:name` of every policy registered (or registered again) since `registered()` gave `before`."""
    return [f"{role}:{name}" for (role, name), entry in registered().items() if before.get((role, name)) is not entry]


def _import_file(text: str) -> ModuleType:
    path = Path(text).expanduser().resolve()
    if not path.is_file():
        raise PluginError(f"policies module {text!r}: no such file (give a .py file or an importable module name)")
    name = _module_name(path)
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise PluginError(f"policies module {text!r}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)  # kept: spawned workers inherit it, for files the module imports later
    sys.modules[name] = module  # before running it: dataclasses look their module up while it runs
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:
        del sys.modules[name]
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        raise _failed(text, exc, str(path)) from exc
    return module


def _import_name(text: str) -> ModuleType:
    if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", text):
        raise PluginError(f"policies module {text!r}: not a .py file or a module name like mylab.policies")
    here = os.getcwd()
    if here not in sys.path:
        sys.path.insert(0, here)
    try:
        return importlib.import_module(text)
    except ModuleNotFoundError as exc:
        if exc.name is not None and text.startswith(exc.name) and text[len(exc.name) :][:1] in ("", "."):
            raise PluginError(
                f"policies module {text!r}: no module named {exc.name!r} (in {here} or installed); for a file, give its path"
            ) from None
        raise _failed(text, exc, None) from exc
    except Exception as exc:
        raise _failed(text, exc, None) from exc


_LOADED: list[bool] = []


def load_plugins() -> list[str]:
    """Import every installed plugin's policy module (entry point group `spades_lab.policies`), once per
    process; return the `role:name` keys they registered. A plugin that fails is a PluginWarning naming it
    and why, not an error: one broken package must not stop the commands that do not use it."""
    if _LOADED:
        return []
    _LOADED.append(True)
    before = registered()
    for point in entry_points(group=ENTRY_POINT_GROUP):
        saved = registered()
        try:
            point.load()
        except Exception as exc:  # noqa: BLE001  (reported, and the rest of the plugins still load)
            restore(saved)
            source = f" from {point.dist.name}" if point.dist is not None else ""
            warnings.warn(
                f"policy plugin {point.name!r}{source} ({point.value}) failed to load, its policies are missing:"
                f" {type(exc).__name__}: {exc}{_where(exc, None)}",
                PluginWarning,
                stacklevel=2,
            )
    return _registered_since(before)
