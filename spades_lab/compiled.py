"""Whether numba's disk cache already holds a kernel: the one question behind every "compiling ..." word.

numba compiles a kernel on its first call in a process, then loads it from the cache in later
processes as long as the source is unchanged. A first compilation takes seconds to tens of seconds,
so the layers that start one (a run's warm-up, the first double-dummy solve) say so beforehand, and
only when the cache cannot serve it.
"""

from __future__ import annotations

import os
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
