"""The notebooks in notebooks/ run top to bottom without a cell error, each in a fresh temporary directory.

Each runs in a kernel started from this test's own interpreter (a kernelspec written here, so an
unrelated `python3` kernel installed elsewhere is never picked up), with the notebook's folder
unaffected: whatever a notebook writes lands in the temporary directory. The committed notebooks
must hold no outputs, so that outputs always come from the code as it is.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from jupyter_client.kernelspec import KernelSpecManager  # noqa: E402
from jupyter_client.manager import KernelManager  # noqa: E402

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
MINUTE = 60.0


def kernel_manager(root: Path) -> KernelManager:
    """A KernelManager for a python3 kernel running sys.executable."""
    spec = root / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "Python 3 (tests)",
                "language": "python",
            }
        )
    )
    specs = KernelSpecManager(kernel_dirs=[str(root / "kernels")], ensure_native_kernel=False)
    return KernelManager(kernel_name="python3", kernel_spec_manager=specs)


def test_there_are_notebooks() -> None:
    assert {p.name for p in NOTEBOOKS} >= {"compare_bidding.ipynb", "bags_and_sets.ipynb"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_stored_without_outputs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{path.name} holds outputs"
    assert any(cell.cell_type == "markdown" for cell in notebook.cells)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_without_errors(path: Path, tmp_path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    workdir = tmp_path / "run"
    workdir.mkdir()
    client = nbclient.NotebookClient(
        notebook, km=kernel_manager(tmp_path), timeout=int(3 * MINUTE), resources={"metadata": {"path": str(workdir)}}
    )
    start = time.perf_counter()
    client.execute()  # raises CellExecutionError naming the cell on the first error
    seconds = time.perf_counter() - start
    outputs = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs]
    assert not [out for out in outputs if out.output_type == "error"]
    images = [out for out in outputs if "image/png" in out.get("data", {})]
    assert images, f"{path.name} drew no figure"
    assert seconds < 2 * MINUTE, f"{path.name} took {seconds:.0f} s; it should run in about a minute"
