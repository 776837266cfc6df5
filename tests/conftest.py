"""Shared test fixtures: paths to bundled fixtures and to ../shared/data (skipped where absent)."""

import random
from pathlib import Path

import pytest

from cpmodels.generate import random_grid
from cpmodels.grid import GridPuzzle
from cpmodels.sudoku import sudoku_puzzle

FIXTURES = Path(__file__).parent / "fixtures"
SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def shared_data(relative: str) -> Path:
    """The path of a file under ../shared/data, skipping the calling test when it is absent."""
    path = SHARED_DATA / relative
    if not path.exists():
        pytest.skip(f"benchmark data {relative} not found under ../shared/data (absent on a clean clone)")
    return path


def data_lines(path: Path) -> list[tuple[int, str]]:
    """(1-based line number, line) of the non-comment, non-blank lines of a data file."""
    lines = enumerate(path.read_text().splitlines(), start=1)
    return [(k, ln) for k, ln in lines if ln.strip() and not ln.startswith("#")]


def unsolvable_sudoku(box: tuple[int, int], rng: random.Random) -> GridPuzzle:
    """A Sudoku with valid givens and no solution.

    Row 1 holds every value but v, which forces r1c1 = v, while a row of another band puts v in column 1.
    """
    grid = random_grid(box, rng)
    n = box[0] * box[1]
    givens = [0] * (n * n)
    givens[1:n] = grid[1:n]
    givens[rng.randrange(box[0], n) * n] = grid[0]
    return sudoku_puzzle(givens, box)
