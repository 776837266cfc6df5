"""Sudoku of any r x c box shape: box shapes, units, the puzzle, and telling a Sudoku from other grids.

Its text formats (line, grid, Gecode lines, JSON) are in formats/sudoku.py.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from math import isqrt

from .errors import PuzzleError
from .grid import GridPuzzle, latin_units


def default_box(n: int) -> tuple[int, int]:
    """The most square box shape r x c = n with r <= c (6 -> 2x3, 8 -> 2x4, 12 -> 3x4)."""
    r = max(d for d in range(1, isqrt(n) + 1) if n % d == 0)
    if r == 1 and n > 3:
        raise PuzzleError(f"order {n} is prime: it has no box shape (only 1x{n}, a Latin square)")
    return r, n // r


def parse_box(text: str) -> tuple[int, int]:
    """A box shape from `RxC` text, as (rows, columns)."""
    m = re.fullmatch(r"\s*([0-9]{1,9})\s*[xX×]\s*([0-9]{1,9})\s*", text)
    if not m or int(m[1]) < 1 or int(m[2]) < 1:
        raise PuzzleError(f"box shape {text!r} is not of the form RxC, such as 2x3")
    return int(m[1]), int(m[2])


@lru_cache(maxsize=64)
def sudoku_units(n: int, box: tuple[int, int]) -> tuple[tuple[int, ...], ...]:
    """Rows, columns and boxes of box[0] rows by box[1] columns, as row-major cell indices (one shared tuple)."""
    br, bc = box
    if br * bc != n:
        raise PuzzleError(f"a {br}x{bc} box holds {br * bc} cells, but the grid has order {n}")
    boxes = tuple(
        tuple((top + r) * n + left + c for r in range(br) for c in range(bc))
        for top in range(0, n, br)
        for left in range(0, n, bc)
    )
    return latin_units(n) + boxes


def sudoku_puzzle(givens: Sequence[int], box: tuple[int, int] | None = None, name: str = "") -> GridPuzzle:
    """The Sudoku with these row-major givens (0 = empty) and box shape (default: default_box(n))."""
    n = isqrt(len(givens))
    if n * n != len(givens) or n == 0:
        raise PuzzleError(f"{len(givens)} cells do not make a square grid")
    return GridPuzzle(n, sudoku_units(n, box or default_box(n)), tuple(givens), name=name)


def box_of(puzzle: GridPuzzle) -> tuple[int, int] | None:
    """The box shape of a Sudoku, read off its units; None if the puzzle has no rectangular boxes."""
    n = puzzle.n
    for unit in puzzle.units[2 * n :]:
        rows = {i // n for i in unit}
        cols = {i % n for i in unit}
        if len(rows) * len(cols) == len(unit) == n and len(rows) > 1 and len(cols) > 1:
            return len(rows), len(cols)
    return None


def is_sudoku(puzzle: GridPuzzle) -> bool:
    """Whether `puzzle` is a plain Sudoku: no cages, and exactly the rows, columns and boxes of its box shape."""
    box = box_of(puzzle)
    if puzzle.cages or box is None:
        return False
    return {frozenset(u) for u in puzzle.units} == {frozenset(u) for u in sudoku_units(puzzle.n, box)}
