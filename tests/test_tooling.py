"""The package's own tooling promises: types, Python version, licence metadata.

`make test` runs mypy over the whole package as `--strict` (less the untyped-decorator rule); these tests
pin the promises a type checker or an installer relies on, so a change that breaks one fails here.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_player_satisfies_the_policy_protocol_for_a_type_checker() -> None:
    api = pytest.importorskip("mypy.api")
    snippet = (
        "from spades_lab.engine import Policy\n"
        "from spades_lab.players import Player, make_player\n"
        "from spades_lab.policies import make_player as old_make_player\n"
        "p: Policy = make_player('counting+tips')\n"
        "q: Policy = old_make_player('counting+tips')\n"
        "seats: list[Policy] = [make_player('random')] * 4\n"
    )
    out, err, status = api.run(["--config-file", "", "--ignore-missing-imports", "-c", snippet])
    mine = [line for line in out.splitlines() if line.startswith("<string>")]  # the package itself: `make test`
    assert mine == [] and not err, out + err


def test_player_satisfies_the_policy_protocol_at_run_time() -> None:
    from spades_lab.engine import Policy
    from spades_lab.policies import make_player

    assert isinstance(make_player("counting+tips"), Policy)


def test_python_requirement_matches_the_code() -> None:
    """`tomllib` (used unconditionally by spades_lab.rules) exists from Python 3.11 on."""
    required = PYPROJECT["project"]["requires-python"]
    match = re.fullmatch(r">=\s*3\.(\d+)", required)
    assert match, required
    uses_tomllib = any("import tomllib" in p.read_text() for p in (ROOT / "spades_lab").rglob("*.py"))
    if uses_tomllib:
        assert int(match.group(1)) >= 11, f"requires-python {required} but the code imports tomllib (3.11+)"
    assert PYPROJECT["tool"]["ruff"]["target-version"] == f"py3{match.group(1)}"
    assert PYPROJECT["tool"]["mypy"]["python_version"] == f"3.{match.group(1)}"


def test_licence_is_an_spdx_string() -> None:
    licence = PYPROJECT["project"]["license"]
    assert isinstance(licence, str) and licence == "MIT"  # a table ({text = ...}) makes setuptools warn
    build = PYPROJECT["build-system"]["requires"]
    assert any(re.fullmatch(r"setuptools>=(\d+)", r) and int(r.split(">=")[1]) >= 77 for r in build), build


def test_mypy_is_part_of_make_test_and_the_dev_extra() -> None:
    makefile = (ROOT / "Makefile").read_text()
    test_recipe = makefile.split("\ntest:")[1].split("\n\n")[0]
    assert "mypy" in test_recipe
    assert any(d.startswith("mypy") for d in PYPROJECT["project"]["optional-dependencies"]["dev"])
    config = PYPROJECT["tool"]["mypy"]
    assert config["strict"] is True and "spades_lab" in config["files"]
    relaxed = [m for o in config.get("overrides", []) for m in o["module"] if m.startswith("spades_lab")]
    assert relaxed == [], f"the package is checked strictly throughout; relaxed here: {relaxed}"


def test_the_package_ships_its_types() -> None:
    """A py.typed marker (PEP 561) in the package and in its package data, so that a user's type checker
    reads the annotations of an installed spades_lab instead of treating it as untyped."""
    from importlib.resources import files

    assert files("spades_lab").joinpath("py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["spades_lab"]
