"""The package's layers: each imports only those below it, no package has a cycle, and no module reaches
into another's private names. `make lint` runs the same contracts with `lint-imports`; these tests keep the
promise visible where the suite runs and show an upward import is caught. Functions take records, not long
argument lists."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "spades_lab"
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def _layers() -> list[list[str]]:
    (contract,) = [c for c in CONTRACTS if c["type"] == "layers"]
    return [[name.strip() for name in layer.replace("|", ":").split(":")] for layer in contract["layers"]]


def _imported(path: Path) -> set[str]:
    """The package modules a file imports (absolute imports; the package uses no relative ones)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("spades_lab"):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("spades_lab")}
    return found


def test_the_contracts_hold() -> None:
    command = Path(sys.executable).with_name("lint-imports")
    if not command.exists():
        pytest.skip("import-linter is in the dev extras: `make dev`")
    done = subprocess.run([str(command), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "2 kept, 0 broken" in done.stdout


def test_every_top_level_module_has_a_layer() -> None:
    placed = {name for layer in _layers() for name in layer}
    modules = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    modules |= {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert modules - placed == set(), "add the new module to a layer in pyproject.toml"


def _sources() -> list[Path]:
    """The package's modules (not the entry modules numba's cache generates under `__pycache__`)."""
    return [p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts]


def test_the_bottom_layers_import_nothing_from_above() -> None:
    """An independent check of the contract's lower half, read from the source: a module of cards, rules or
    the engine never imports dd, policies or anything above."""
    rank = {name: i for i, layer in enumerate(reversed(_layers())) for name in layer}
    for path in _sources():
        top = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
        if top not in ("cards", "rules", "engine"):
            continue
        for module in _imported(path):
            parts = module.split(".")
            if len(parts) > 1:
                assert rank[parts[1]] <= rank[top], f"{path.relative_to(ROOT)} imports {module} from above"


def test_no_module_imports_another_modules_private_name() -> None:
    offenders = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("spades_lab"):
                private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
                offenders += [f"{path.relative_to(ROOT)}: {node.module}.{name}" for name in private]
    assert offenders == []


def test_names_moved_to_a_new_home_still_answer_at_their_old_path() -> None:
    """Aliases left where public names used to live: the same objects, not copies."""
    import spades_lab.cli.compare
    import spades_lab.cli.main_job
    import spades_lab.compare_cli
    import spades_lab.main_job

    assert spades_lab.main_job.main_job is spades_lab.cli.main_job.main_job
    assert spades_lab.compare_cli.parse_claim is spades_lab.cli.compare.parse_claim
    assert spades_lab.compare_cli.run is spades_lab.cli.compare.run


def test_the_player_modules_answer_at_their_old_policies_paths_in_a_new_process() -> None:
    """`spades_lab.policies.registry` and `from spades_lab.policies import make_player` keep working after the
    players layer moved out of policies, even as the first import of a fresh interpreter."""
    code = (
        "import spades_lab.policies.registry as old\n"
        "from spades_lab.policies import Player, make_player, register\n"
        "from spades_lab.policies.decide import decide\n"
        "import spades_lab.players as players\n"
        "assert old is players.registry and make_player is players.make_player and register is players.register\n"
        "assert Player is players.Player and decide is players.decide\n"
        "print(make_player('counting+tips').label)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "counting+tips"


def test_strategies_know_nothing_of_names() -> None:
    """The strategy modules import nothing from the registry: `players.shipped` names them, from above."""
    for path in sorted((PACKAGE / "policies").glob("*.py")):
        tree = ast.parse(path.read_text())
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not {m for m in imported if m.startswith("spades_lab.players")}, path.name
        assert "register" not in {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}


def _is_compiled(node: ast.FunctionDef) -> bool:
    return any("jit" in ast.unparse(d) for d in node.decorator_list)


def test_functions_take_records_not_argument_lists() -> None:
    """Compiled code takes a few records (a seat's turn, the game, a parameters record), so no compiled
    function takes more than 8 arguments and no other function more than 8 positional ones (options after
    them are keyword-only)."""
    offenders = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef):
                continue
            args = node.args
            positional = [a.arg for a in args.posonlyargs + args.args if a.arg not in ("self", "cls")]
            count = len(positional) + (len(args.kwonlyargs) if _is_compiled(node) else 0)
            if count > 8:
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} takes {count}")
    assert offenders == []
