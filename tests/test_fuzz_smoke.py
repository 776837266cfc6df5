"""A short coverage-guided fuzzing run of every reader (atheris), as CI's smoke test; the long run is documented."""

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("atheris")

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "fuzz" / "fuzz_read.py"
TARGETS = {"auto", "sudoku", "mathdoku", "tatham", "qwh", "dlx"}


def test_every_reader_survives_a_short_fuzzing_run(tmp_path):
    command = [sys.executable, str(SCRIPT), "all", "--seconds", "3", "--out", str(tmp_path)]
    out = subprocess.run(command, check=True, capture_output=True, text=True, timeout=600).stdout
    rows = {
        line.split()[0]: line.split() for line in out.splitlines() if line.split()[:1] and line.split()[0] in TARGETS
    }
    assert set(rows) == TARGETS, out
    assert {name: int(row[3]) for name, row in rows.items() if int(row[3]) <= 0} == {}, out
    assert {name: int(row[5]) for name, row in rows.items() if int(row[5]) != 0} == {}, out
