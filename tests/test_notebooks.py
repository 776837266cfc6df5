"""The notebooks run top to bottom on small inputs (CPMODELS_NOTEBOOK_SMALL=1) and reach their conclusion.

Each runs in a fresh kernel of this interpreter (checked through sys.prefix), matplotlib on Agg.
"""

import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
KEY_OUTPUT = {
    "backends_compared.ipynb": "all backends agree",
    "qwh_phase_transition.ipynb": "predicted peak",
    "extend_the_model.ipynb": "the extended model and all backends agree",
}
CELL_TIMEOUT = 300


def run_notebook(name: str, monkeypatch: pytest.MonkeyPatch, data: Path | None = None) -> str:
    """Execute notebooks/`name` in small mode; the text every code cell printed, then the kernel's sys.prefix."""
    monkeypatch.setenv("CPMODELS_NOTEBOOK_SMALL", "1")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    if data is not None:
        monkeypatch.setenv("CPMODELS_DATA", str(data))
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell("import sys\nprint('kernel prefix:', sys.prefix)"))
    client = nbclient.NotebookClient(
        nb, timeout=CELL_TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    client.execute()
    return "".join(
        out.get("text", "")
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.output_type == "stream" and out.get("name") == "stdout"
    )


def test_every_notebook_is_tested():
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == sorted(KEY_OUTPUT)


@pytest.mark.parametrize("name", sorted(KEY_OUTPUT))
def test_notebook_runs(name, monkeypatch):
    printed = run_notebook(name, monkeypatch)
    assert f"kernel prefix: {sys.prefix}\n" in printed
    assert KEY_OUTPUT[name] in printed


def test_backends_notebook_without_data(monkeypatch, tmp_path):
    printed = run_notebook("backends_compared.ipynb", monkeypatch, data=tmp_path / "absent")
    assert "puzzles from generated 9x9" in printed
    assert "all backends agree" in printed


@pytest.mark.parametrize("name", sorted(KEY_OUTPUT))
def test_notebook_stored_without_outputs(name):
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert code and all(cell.outputs == [] and cell.execution_count is None for cell in code)
