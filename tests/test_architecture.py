"""How the package is put together: what loads when, and what imports what."""

import subprocess
import sys


def test_import_loads_no_solver_library(tmp_path):
    """Importing cpmodels, listing its backends, reading and converting puzzles (a file too) load no solver library."""
    path = tmp_path / "puzzle.txt"
    path.write_text("." * 81 + "\n")
    code = (
        "import sys, cpmodels\n"
        "from cpmodels import BACKENDS, formats\n"
        "from cpmodels.cli import main\n"
        "names = sorted(BACKENDS) + ['cpsat' in BACKENDS]\n"
        "for text, to in (('.' * 81, 'grid'), ('4:_a_6bb_a_a3,a7d2m3s2a5d2m12', 'oneline')):\n"
        "    for entry in formats.read_text(text):\n"
        "        assert entry.puzzle is not None, entry.error\n"
        "        formats.write_puzzle(entry.puzzle, to)\n"
        f"assert main(['convert', {str(path)!r}, '--to', 'grid']) == 0\n"
        "print(sorted(m for m in ('ortools', 'numba', 'constraint') if m in sys.modules), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "[]", f"loaded by import cpmodels: {done.stderr}"


def test_help_loads_no_solver_library():
    """`cpmodels --help`, `cpmodels solve --help` and `cpmodels check --help` load no solver library."""
    code = (
        "import sys\n"
        "from cpmodels.cli import main\n"
        "for argv in (['--help'], ['solve', '--help'], ['check', '--help']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit as stop:\n"
        "        assert stop.code == 0, argv\n"
        "    else:\n"
        "        raise AssertionError(f'{argv} did not exit')\n"
        "print(sorted(m for m in ('ortools', 'numba', 'constraint') if m in sys.modules), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "usage: cpmodels" in done.stdout
    assert done.stderr.strip() == "[]", f"loaded by cpmodels --help: {done.stderr}"
