"""The notebooks run top to bottom on small inputs (CPMODELS_NOTEBOOK_SMALL=1) and reach their conclusion.

Each runs in a fresh kernel of this interpreter (checked through sys.prefix), matplotlib on Agg. They are
stored executed, with their outputs (so that a reader sees the tables, plots and puzzle pictures without
running them): every code cell run once, in order, without an error, the conclusion among the outputs,
at least one puzzle drawn as SVG (cpmodels.draw), and the file kept small.
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


MAX_BYTES = 600_000
"""The largest notebook file stored (outputs included): pictures as SVG, plots as modest PNGs."""
MAX_IMAGE_BYTES = 300_000
"""The largest single image output (base64 PNG or SVG text): a four-panel plot is about 230 kB."""


@pytest.mark.parametrize("name", sorted(KEY_OUTPUT))
def test_notebook_stored_executed_in_order_with_small_outputs_and_pictures(name):
    path = NOTEBOOKS / name
    nb = nbformat.read(path, as_version=4)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert code and [cell.execution_count for cell in code] == list(range(1, len(code) + 1))
    outputs = [out for cell in code for out in cell.outputs]
    assert not [out for out in outputs if out.output_type == "error"]
    printed = "".join(out.get("text", "") for out in outputs if out.output_type == "stream")
    assert KEY_OUTPUT[name] in printed
    images = [out.data[kind] for out in outputs for kind in out.get("data", {}) if kind.startswith("image/")]
    assert any("<svg" in str(image) for image in images), "no puzzle drawn"
    assert max(map(len, images)) <= MAX_IMAGE_BYTES and path.stat().st_size <= MAX_BYTES
