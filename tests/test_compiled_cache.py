"""numba's disk cache never serves a kernel compiled from older sources of the package.

numba checks a cached kernel only against the file that defines it, while the compiled code also holds
every function it calls from other modules: a strategy's helper edited in one file would leave the kernels
of another file running the old helper, silently. The package keys its kernels' cache to all of its sources.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

KEYED_INIT = """
import os
from spades_lab.compiled import key_caches_to_sources
key_caches_to_sources(os.path.dirname(__file__))
"""


def _package(where: Path, init: str) -> Path:
    """A package whose kernel `a.f` calls the kernel `b.g` of another module, both cached on disk."""
    pkg = where / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(init)
    (pkg / "a.py").write_text(textwrap.dedent("""
        from numba import njit
        from pkg.b import g

        @njit(cache=True)
        def f():
            return g() + 1
    """))  # fmt: skip
    (pkg / "b.py").write_text("from numba import njit\n\n@njit(cache=True)\ndef g():\n    return 1\n")
    return pkg


def _f(where: Path) -> str:
    env = {**os.environ, "PYTHONPATH": f"{where}{os.pathsep}{ROOT}"}
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", "from pkg.a import f; print(f())"], cwd=where, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _edit_helper(pkg: Path) -> None:
    helper = pkg / "b.py"
    helper.write_text(helper.read_text().replace("return 1", "return 10"))
    st = os.stat(helper)
    os.utime(helper, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))  # a later edit, whatever the clock


def test_an_edited_helper_reaches_the_kernels_of_other_modules(tmp_path: Path) -> None:
    pkg = _package(tmp_path, KEYED_INIT)
    assert _f(tmp_path) == "2"
    _edit_helper(pkg)
    assert _f(tmp_path) == "11"


def test_numba_alone_would_serve_the_old_kernel(tmp_path: Path) -> None:
    """What the keying prevents (if numba ever checks a kernel's callees itself, this test says so)."""
    pkg = _package(tmp_path, "")
    assert _f(tmp_path) == "2"
    _edit_helper(pkg)
    assert _f(tmp_path) == "2"


def test_the_package_kernels_are_keyed_to_its_sources() -> None:
    from spades_lab.compiled import sources_stamp
    from spades_lab.engine.kernels import apply_play

    locator = apply_play._cache._impl._locator
    assert type(locator).__name__.startswith("PackageKeyed")
    assert locator.get_source_stamp() == sources_stamp(ROOT / "spades_lab")
