"""numba's disk cache of the package's kernels: keyed to all of the package's sources, and asked ahead.

numba compiles a kernel on its first call in a process, then loads it from the cache in later
processes as long as the source is unchanged. A first compilation takes seconds to tens of seconds,
so the layers that start one (a run's warm-up, the first double-dummy solve) say so beforehand, and
only when the cache cannot serve it (`cached`). And the cache must never serve code older than the
sources: `key_caches_to_sources`, applied to this package when it is imported.
"""

from __future__ import annotations

import hashlib
import os
import warnings
from typing import Any


def cached(kernel: Any) -> bool:
    """True when `kernel` (a numba dispatcher) is compiled in this process already, or its disk cache holds
    a compilation of the current source; False when its next call compiles (never cached, a changed
    source, caching off)."""
    if getattr(kernel, "signatures", None):
        return True
    cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
    if cache_file is None:
        return False  # caching off for this kernel
    try:
        # the index names the source's stamp: an index of another source loads as empty
        return os.path.exists(cache_file._index_path) and bool(cache_file._load_index())
    except Exception:
        return False


def sources_stamp(package_dir: str | os.PathLike[str]) -> str:
    """A stamp of every Python source under `package_dir`: its path, size and modification time, hashed.
    Any edit, added or removed module changes it; modules generated into `__pycache__` folders do not."""
    root = os.path.realpath(package_dir)
    digest = hashlib.sha1()
    sources = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]  # caches, and the entry modules generated into them
        sources += [os.path.join(folder, name) for name in names if name.endswith(".py")]
    for path in sorted(sources):
        st = os.stat(path)
        digest.update(f"{os.path.relpath(path, root)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()


_KEYED: set[str] = set()


def key_caches_to_sources(package_dir: str | os.PathLike[str]) -> None:
    """Make numba's disk cache of every kernel defined under `package_dir` valid only for the package's
    sources as they are now, not for its own file alone.

    numba checks a cached kernel against the file that defines it, but the compiled code also holds
    every function it calls from other files: edit a helper in one module and the kernels of another
    module that call it would load their old code from the cache, silently. A kernel defined in the
    package is therefore stamped with `sources_stamp` of the whole package: after any edit, each kernel
    compiles again once. Called by the package on import, before any kernel is defined."""
    from numba.core import caching

    root = os.path.realpath(package_dir)
    if root in _KEYED:
        return
    _KEYED.add(root)
    stamp = sources_stamp(root)
    keyed = []
    try:
        bases = (caching.UserProvidedCacheLocator, caching.InTreeCacheLocator, caching.UserWideCacheLocator)
        locators = caching.CacheImpl._locator_classes
    except AttributeError:  # pragma: no cover - a numba whose cache is laid out otherwise
        warnings.warn("spades_lab: this numba's cache cannot be keyed to the package's sources; after editing a"
                      " module, clear the __pycache__ folders to be sure no kernel runs older code", stacklevel=2)  # fmt: skip
        return
    for base in bases:

        class Keyed(base):  # type: ignore[valid-type, misc]  # numba's locators are untyped
            @classmethod
            def from_function(cls, py_func: Any, py_file: str) -> Any:
                if not os.path.realpath(py_file).startswith(root + os.sep):
                    return None
                return super().from_function(py_func, py_file)

            def get_source_stamp(self) -> str:
                return stamp

        Keyed.__name__ = Keyed.__qualname__ = f"PackageKeyed{base.__name__}"
        keyed.append(Keyed)
    locators[:0] = keyed


key_caches_to_sources(os.path.dirname(__file__))  # this package's own kernels (imported first by its __init__)
