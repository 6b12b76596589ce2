"""Progress bars for long runs, shown where someone watches.

This module sits below every layer (it imports nothing of the package), so policy checks, runs and
exports share one bar. The word before the one-off kernel compilation is the tournament's
(`spades_lab.tournament.warmup`); `cold_kernels` and `warm_up` are still importable from here.

Bars are on by default where someone watches (stderr is a terminal, or a Jupyter kernel) and off
otherwise (a pipe, a log file, CI): `progress=None` means that choice; True or False force it.
"""

from __future__ import annotations

import sys
from typing import Any


def in_notebook() -> bool:
    """True inside Jupyter (an IPython kernel)."""
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    try:
        ip = shell.get_ipython()
    except Exception:
        return False
    return ip is not None and "IPKernelApp" in getattr(ip, "config", {})


def wanted(progress: bool | None) -> bool:
    """Whether to show progress: as asked, or (None) when stderr is a terminal or in a notebook."""
    if progress is not None:
        return bool(progress)
    if in_notebook():
        return True
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def bar(**kwargs: Any) -> Any:
    """A tqdm bar: the notebook widget (tqdm.auto) in Jupyter when ipywidgets is installed, text otherwise."""
    if in_notebook():
        try:
            import ipywidgets  # noqa: F401
            from tqdm.auto import tqdm as auto_tqdm

            return auto_tqdm(**kwargs)
        except ImportError:
            pass
    from tqdm import tqdm

    return tqdm(**kwargs)


_MOVED = ("COLD_COMPILE_SECONDS", "CORE_KERNELS", "cold_kernels", "warm_up")


def __getattr__(name: str) -> Any:
    """The warm-up names moved to `spades_lab.tournament.warmup`; reached here on first use only, so this
    module keeps importing nothing of the package when they are not asked for."""
    if name in _MOVED:
        from spades_lab.tournament import warmup

        return getattr(warmup, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
