"""Temporary files named after the process writing them, so a later run can tell a leftover from a live write.

A file is written under a temporary name and renamed into place when complete. A process killed
(kill -9, a lost machine) in between cannot remove its temporary file; the next run that writes in the
same folder removes every such file whose process is gone, and leaves alone those of a process still
running (two runs into one folder must not delete each other's work in progress).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["alive", "remove_orphans", "PID_SUFFIX"]

PID_SUFFIX = re.compile(r"\.(\d+)(?:\.[^.]*)*$")
"""The writer's process id inside a temporary name: `NAME.<pid>` or `NAME.<pid>.<random>.tmp`."""


def alive(pid: int) -> bool:
    """Whether process `pid` still runs (a process of another user counts as running)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_orphans(folder: Path, pattern: re.Pattern[str]) -> list[Path]:
    """Remove the files of `folder` matching `pattern` (whose group 1 is the writer's pid) left by a process
    that is gone; returns what was removed. A folder that cannot be listed is left alone."""
    removed: list[Path] = []
    try:
        names = list(folder.iterdir())
    except OSError:
        return removed
    for path in names:
        match = pattern.fullmatch(path.name)
        if match is None or alive(int(match.group(1))) or not path.is_file():
            continue
        try:
            path.unlink()
            removed.append(path)
        except OSError:
            pass
    return removed
