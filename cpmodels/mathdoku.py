"""Mathdoku / KenKen: the validated, canonical puzzle, hidden operators, and cages worth a warning.

A Mathdoku of order n is a Latin square (rows and columns all-different) partitioned into cages, each
with a target and an operator (+ - * /, `=` for a single cell, or None when the operator is hidden).

Every puzzle built here is canonical: cells sorted within each cage, cages sorted by their first cell,
and a single-cell cage (+, * or hidden) is a given, op `=`. So reading a written puzzle gives it back.
Its text formats are in formats/mathdoku.py; the cage rules themselves in cages.py.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import cages as cage_rules
from .errors import PuzzleError
from .grid import Cage, Cell, GridPuzzle, cage_name, cell_name, latin_units


def mathdoku_puzzle(n: int, cages: Iterable[Cage], name: str = "") -> GridPuzzle:
    """The canonical order-n Mathdoku of `cages`; PuzzleError unless each cell is in one cage and targets reachable."""
    given = tuple(as_given(cage) for cage in cages)
    GridPuzzle(n, latin_units(n), (0,) * (n * n), given)  # cells outside the grid, in two cages, bad arity
    for k, cage in enumerate(given, start=1):
        problem = target_problem(k, cage, n)
        if problem:
            raise PuzzleError(problem)
    missing = first_uncovered(n, {cell for cage in given for cell in cage.cells})
    if missing:
        raise PuzzleError(f"{cell_name(*missing)} is in no cage")
    return canonical(n, given, name)


def as_given(cage: Cage) -> Cage:
    """The cage with integer tuple cells; a single-cell +, * or hidden cage becomes `=` (they mean the same)."""
    cells = tuple((int(r), int(c)) for r, c in cage.cells)
    op = "=" if len(cells) == 1 and cage.op in ("+", "*", None) else cage.op
    return Cage(cells, op, cage.target)


def canonical(n: int, cages: Iterable[Cage], name: str = "") -> GridPuzzle:
    """The Mathdoku with cells sorted within each cage and cages sorted by their first cell."""
    ordered = sorted((Cage(tuple(sorted(c.cells)), c.op, c.target) for c in cages), key=lambda c: c.cells[0])
    return GridPuzzle(n, latin_units(n), (0,) * (n * n), tuple(ordered), name)


def first_uncovered(n: int, covered: set[Cell]) -> Cell | None:
    """The first cell of the n x n grid, row-major, that is not in `covered`."""
    return next(((r, c) for r in range(n) for c in range(n) if (r, c) not in covered), None)


def size_problem(k: int, cage: Cage) -> str | None:
    """Why cage k (numbered 1-based) has the wrong number of cells for its operator, in GridPuzzle's words, or None."""
    problem = cage_rules.size_problem(cage.op, len(cage.cells))
    return f"{cage_name(k, cage.cells)}: {problem}" if problem else None


def target_problem(k: int, cage: Cage, n: int) -> str | None:
    """Why no values 1..n can meet cage k (numbered 1-based), or None when some can."""
    reason = cage_rules.unreachable_reason(cage.cells, cage.op, cage.target, n)
    return f"{cage_name(k, cage.cells)}: {reason}" if reason else None


def disconnected_cages(puzzle: GridPuzzle) -> list[int]:
    """The 1-based numbers of the cages whose cells are not orthogonally connected."""
    return [k for k, cage in enumerate(puzzle.cages, start=1) if not cage_rules.is_connected(cage.cells)]


def hide_operators(puzzle: GridPuzzle) -> GridPuzzle:
    """The same puzzle with the operator of every cage of 2+ cells hidden (op None); givens stay `=`."""
    cages = tuple(Cage(c.cells, None if len(c.cells) > 1 else c.op, c.target) for c in puzzle.cages)
    return GridPuzzle(puzzle.n, puzzle.units, puzzle.givens, cages, puzzle.name)


def ambiguous_cages(puzzle: GridPuzzle) -> list[tuple[int, tuple[str, ...]]]:
    """The 1-based cages of 2+ cells whose target some values meet under several operators, with those operators."""
    found = []
    for k, cage in enumerate(puzzle.cages, start=1):
        fits = cage_rules.operators_for(len(cage.cells))
        ops = tuple(op for op in fits if cage_rules.is_reachable(cage.cells, op, cage.target, puzzle.n))
        if len(ops) > 1:
            found.append((k, ops))
    return found
