"""A researcher's own policies outside the package: `import_policies`, `spades-lab --import`, installed plugins,
and their players in worker processes."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import spades_lab as sl
from spades_lab.cli import main
from spades_lab.policies import PluginError, plugins, registry

ACES = '''
from dataclasses import dataclass
from typing import ClassVar

import spades_lab as sl
from spades_lab.policies import CheckedParams, register

@dataclass(frozen=True)
class AcesParams(CheckedParams):
    extra: int = 0
    POLICY: ClassVar[str] = "aces bid"
    RANGES: ClassVar = (("extra", 0, 4),)

@register("bid", "aces", AcesParams)
def build_aces(params):
    """One trick per ace, plus extra."""
    def bid(table):
        {marker}
        want = max(1, sum(card[0] == "A" for card in table.hand) + params.extra)
        return min(want, max(table.legal))
    return sl.from_functions(bid=bid, name="aces")
'''


def write_aces(folder: Path, name: str = "my_policies.py", marker: str = "pass") -> Path:
    path = folder / name
    path.write_text(ACES.replace("{marker}", marker))
    return path


@pytest.fixture
def clean_imports(scratch_registry, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """The test's own modules (those in its tmp_path) and sys.path entries go when it ends; plugins load again."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(plugins, "_LOADED", [])
    yield
    for name, module in list(sys.modules.items()):
        if str(tmp_path) in str(getattr(module, "__file__", None) or ""):
            del sys.modules[name]


def test_a_file_registers_its_policies_once(clean_imports, tmp_path) -> None:
    path = write_aces(tmp_path)
    assert sl.import_policies(path) == ["bid:aces"]
    assert sl.make_player("aces(extra=1)+tips").name == "aces(extra=1)+tips"
    with pytest.raises(ValueError, match=r"^aces bid: extra must be 0\.\.4, got 9$"):
        sl.make_player("aces(extra=9)+tips")
    build = registry.registered()[("bid", "aces")].build
    assert sl.import_policies(str(path)) == ["bid:aces"], "the same keys again"
    assert registry.registered()[("bid", "aces")].build is build, "the same file again runs nothing"


def test_a_file_may_import_files_beside_it_and_shadows_no_module(clean_imports, tmp_path) -> None:
    import random

    (tmp_path / "helpers.py").write_text("EXTRA = 2\n")
    path = tmp_path / "random.py"  # a file named like a standard module
    path.write_text(ACES.replace("{marker}", "pass").replace("params.extra)", "params.extra + helpers.EXTRA)")
                    .replace("import spades_lab as sl", "import helpers\nimport spades_lab as sl"))  # fmt: skip
    assert sl.import_policies(path) == ["bid:aces"]
    assert sys.modules["random"] is random
    assert sl.make_player("aces+tips")


def test_a_module_name_is_found_in_the_current_directory(clean_imports, tmp_path, monkeypatch) -> None:
    package = tmp_path / "mylab"
    package.mkdir()
    (package / "__init__.py").write_text("")
    write_aces(package, "policies.py")
    monkeypatch.chdir(tmp_path)
    assert sl.import_policies("mylab.policies") == ["bid:aces"]


@pytest.mark.parametrize(
    ("source", "target", "message"),
    [
        (None, "missing.py", r"^policies module 'missing.py': no such file"),
        (None, "nosuch.mod", r"^policies module 'nosuch.mod': no module named 'nosuch' "),
        (None, "not a name", r"^policies module 'not a name': not a \.py file or a module name"),
        ("x = 1\ny = undefined + 1\n", "bad.py", r"failed while loading: NameError: .*undefined.*bad\.py:2\)$"),
        ("def broken(:\n", "bad.py", r"failed while loading: SyntaxError: .*bad\.py:1\)$"),
        ("import not_installed_anywhere\n", "bad.py", r"ModuleNotFoundError: .*not_installed_anywhere.*bad\.py:1\)$"),
        (ACES.replace("{marker}", "pass") + "\nraise RuntimeError('half-way')\n", "bad.py", r"RuntimeError: half-way"),
    ],
)  # fmt: skip
def test_a_module_that_cannot_load_is_one_clear_error(clean_imports, tmp_path, monkeypatch, source, target, message):
    monkeypatch.chdir(tmp_path)
    if source is not None:
        (tmp_path / target).write_text(source)
    before = registry.registered()
    with pytest.raises(PluginError, match=message):
        sl.import_policies(target)
    assert registry.registered() == before
    assert not any(name.startswith("spades_lab_import_bad") for name in sys.modules), "a failed module is not kept"


def test_the_command_line_imports_before_and_after_the_command(clean_imports, tmp_path, capsys) -> None:
    path = write_aces(tmp_path)
    assert main(["--import", str(path), "policies"]) == 0
    assert f"aces: One trick per ace, plus extra.\n      (from {path})" in capsys.readouterr().out
    assert main(["policies", "--json"]) == 0
    listed = {e["name"]: e["source"] for e in json.loads(capsys.readouterr().out)["bid"]}
    assert listed["aces"] == str(path) and listed["counting"] is None
    code = main(["simulate", "--import", str(path), "--hands", "8", "--seed", "1", "--player", "aces+tips", "--json"])
    assert code == 0 and '"players": ["aces+tips"' in capsys.readouterr().out


def test_the_command_line_names_a_missing_policy_or_a_broken_module(clean_imports, tmp_path, capsys) -> None:
    assert main(["simulate", "--hands", "8", "--seed", "1", "--player", "nobody+tips"]) == 2
    assert "unknown bid policy 'nobody'" in (err := capsys.readouterr().err) and "--import FILE.py" in err
    (tmp_path / "bad.py").write_text("1 / 0\n")
    assert main(["--import", str(tmp_path / "bad.py"), "policies"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("spades-lab: error: policies module") and "ZeroDivisionError" in err
    assert "bad.py:1)" in err and "Traceback" not in err
    (tmp_path / "empty.py").write_text("x = 1\n")
    assert main(["--import", str(tmp_path / "empty.py"), "rules", "--list"]) == 0
    assert "registered no policy" in capsys.readouterr().err


def test_installed_plugins_load_when_a_name_is_missing(clean_imports, tmp_path, monkeypatch) -> None:
    write_aces(tmp_path, "aces_plugin.py")
    (tmp_path / "broken_plugin.py").write_text(
        "from spades_lab.policies import register\n\n"
        "register('play', 'half')(lambda params: None)\nraise RuntimeError('no licence')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    points = [EntryPoint("broken", "broken_plugin", plugins.ENTRY_POINT_GROUP),
              EntryPoint("aces", "aces_plugin", plugins.ENTRY_POINT_GROUP)]  # fmt: skip
    monkeypatch.setattr(plugins, "entry_points", lambda group: points if group == plugins.ENTRY_POINT_GROUP else [])
    sl.make_player("counting+tips")
    assert "aces_plugin" not in sys.modules, "a run naming only shipped policies imports no plugin"
    with pytest.warns(plugins.PluginWarning, match=r"plugin 'broken' \(broken_plugin\) failed .*no licence"):
        assert sl.make_player("aces(extra=2)+tips").name == "aces(extra=2)+tips"
    assert [e.name for e in registry.entries("bid")].count("aces") == 1
    assert ("play", "half") not in registry.registered(), "a plugin that failed half-way leaves no policy"


def test_a_policy_of_ones_own_plays_in_worker_processes(clean_imports, tmp_path) -> None:
    """Spawned workers do not have the module: the player is sent built, by value, and plays the same games."""
    marker = f"open({str(tmp_path / 'pids')!r}, 'a').write(f'{{__import__(\"os\").getpid()}}\\n')"
    sl.import_policies(write_aces(tmp_path, marker=textwrap.dedent(marker)))
    entrants = ["aces+tips", "counting+tips"]
    kwargs = dict(games=120, seed=3, chunk_games=4, batch_size=8, store_hands=False, progress=False)
    two = sl.tournament(entrants, workers=2, out=tmp_path / "two", **kwargs)
    pids = set((tmp_path / "pids").read_text().split())
    assert len(pids) == 2, "both processes played chunks"
    one = sl.tournament(entrants, workers=1, out=tmp_path / "one", **kwargs)
    assert two.summary.equals(one.summary)


def test_the_documented_file_and_commands_work(clean_imports, tmp_path, monkeypatch, capsys) -> None:
    """docs/writing-policies.md: its aces example down to `build_aces`, saved as my_policies.py, and its commands."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "writing-policies.md").read_text()
    block = next(b for b in re.findall(r"```python\n(.*?)```", page, flags=re.S) if '@register("bid", "aces"' in b)
    (tmp_path / "my_policies.py").write_text(block.split("\naces = ")[0])
    section = page.split("## Your policies from the command line")[1].split("\n## ")[0]
    commands = re.findall(r"```\n(.*?)```", section, flags=re.S)[0].replace("\\\n", " ").splitlines()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mylab").mkdir()
    (tmp_path / "mylab" / "__init__.py").write_text("")
    (tmp_path / "mylab" / "policies.py").write_text((tmp_path / "my_policies.py").read_text())
    for line in commands:
        words = shlex.split(line.split("#")[0])
        assert words[0] == "spades-lab"
        if "tournament" in words:
            words += ["--quiet", "--workers", "2", "--chunk-games", "50"]
            words[words.index("--games") + 1] = "100"
        if "simulate" in words:
            words[words.index("--hands") + 1] = "50"
        assert main(words[1:]) == 0, line
    assert "aces:" in capsys.readouterr().out


def test_a_module_failing_in_a_library_call_names_its_own_line(clean_imports, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "badmod.py").write_text("import json\n\nSETTINGS = json.loads('{')\n")
    with pytest.raises(PluginError, match=r"JSONDecodeError: .*badmod\.py:3\) *$"):
        sl.import_policies("badmod")


@pytest.mark.parametrize(
    ("role", "name", "params", "message"),
    [
        ("bids", "aces", registry.NoParams, r"role must be one of bid, play, draft, exchange, got 'bids'"),
        ("bid", "two words", registry.NoParams, r"a policy name is a letter or _ then .*got 'two words'"),
        ("bid", "aces+", registry.NoParams, r"got 'aces\+'"),
        ("play", "aces", dict, r"play policy 'aces': params must be a dataclass class"),
    ],
)
def test_register_refuses_what_no_player_name_could_reach(scratch_registry, role, name, params, message) -> None:
    with pytest.raises(sl.policies.PolicyNameError, match=message):
        registry.register(role, name, params)


DASK_SCRIPT = """
import json, sys
import spades_lab as sl
from distributed import Client, LocalCluster

if __name__ == "__main__":
    sl.import_policies(sys.argv[1])
    kwargs = dict(games=24, seed=3, chunk_games=6, rules=sl.Rules(hand_cap=8), batch_size=16, progress=False)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            on_dask = sl.tournament(["aces+tips", "counting+tips"], scheduler=client, out=sys.argv[2], **kwargs)
    here = sl.tournament(["aces+tips", "counting+tips"], out=sys.argv[3], **kwargs)
    print(json.dumps(on_dask.summary.equals(here.summary)))
"""


def test_a_policy_of_ones_own_plays_on_dask(tmp_path) -> None:
    """A Dask worker cannot import the file's module (its name is made up here): the module goes by value."""
    pytest.importorskip("distributed")
    (tmp_path / "elsewhere").mkdir()
    policies = write_aces(tmp_path / "elsewhere")
    script = tmp_path / "run.py"
    script.write_text(DASK_SCRIPT)
    done = subprocess.run([sys.executable, str(script), str(policies), str(tmp_path / "a"), str(tmp_path / "b")],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "true"


def test_check_tells_a_sound_policy_from_one_that_draws_its_own_randomness(clean_imports, tmp_path, capsys) -> None:
    path = write_aces(tmp_path)
    assert main(["--import", str(path), "check", "--player", "aces(extra=1)+tips", "--tables", "8"]) == 0
    assert capsys.readouterr().out.startswith("aces(extra=1)+tips: passed under standard (")
    (tmp_path / "dice.py").write_text(ACES.replace("{marker}", "import random")
                                      .replace("+ params.extra", "+ random.randint(0, 2)").replace('"aces"', '"dice"'))  # fmt: skip
    assert main(["--import", str(tmp_path / "dice.py"), "check", "--player", "dice+tips", "--json"]) == 1
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["passed"] is False and "the same seed gave different games" in report["error"]
    assert err.startswith("spades-lab: error: dice+tips: check failed: every seat: the same seed gave different")
