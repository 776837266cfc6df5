"""Mathdoku: a random Latin square cut into connected cages with fitting operators, kept when unique."""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import prod

from .. import cages as cage_rules
from ..errors import CpModelsError, SearchTimeoutError
from ..grid import Cage, Cell, GridPuzzle
from ..mathdoku import mathdoku_puzzle
from ..minimality import SYMMETRIES as SYMMETRIES
from ..minimality import is_symmetric as is_symmetric
from ..solve import count_solutions
from .common import Progress, past, seconds_left
from .latin import random_latin_square


def planted_mathdoku(
    n: int, rng: random.Random, max_cage: int = 4, ops: Sequence[str] = ("+", "-", "*", "/")
) -> tuple[GridPuzzle, tuple[int, ...]]:
    """A planted order-n Mathdoku and its Latin square: connected cages of 1..max_cage cells, fitting operators."""
    unknown = set(ops) - set(cage_rules.ARITHMETIC)
    if unknown or max_cage < 1:
        raise CpModelsError(
            f"planted_mathdoku takes max_cage >= 1 and ops among + - * /, not {max_cage}, {sorted(ops)}"
        )
    square = random_latin_square(n, rng)
    cages: list[Cage] = []
    for cells in _random_partition(n, rng, max_cage):
        cages.extend(_planted_cages(cells, [square[r * n + c] for r, c in cells], rng, ops))
    return mathdoku_puzzle(n, cages), square


def _random_partition(n: int, rng: random.Random, max_cage: int) -> list[list[Cell]]:
    """The n x n cells split into orthogonally connected groups of 1..max_cage cells, at random."""
    free = {(r, c) for r in range(n) for c in range(n)}
    groups = []
    for start in rng.sample(sorted(free), len(free)):
        if start not in free:
            continue
        group, size = [start], rng.randint(1, max_cage)
        free.discard(start)
        while len(group) < size:
            frontier = sorted(
                {step for r, c in group for step in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))} & free
            )
            if not frontier:
                break
            group.append(rng.choice(frontier))
            free.discard(group[-1])
        groups.append(group)
    return groups


def _planted_cages(cells: list[Cell], values: list[int], rng: random.Random, ops: Sequence[str]) -> list[Cage]:
    """A cage over `cells` with a random operator in `ops` that fits `values`; single givens if none fits."""
    low, high = min(values), max(values)
    targets = {"+": sum(values), "*": prod(values), "-": high - low, "/": high // low}
    fits = [op for op in ops if op in cage_rules.operators_for(len(cells)) and (op != "/" or high % low == 0)]
    if not fits:
        return [Cage((cell,), "=", v) for cell, v in zip(cells, values, strict=True)]
    op = rng.choice(fits)
    return [Cage(tuple(cells), op, targets[op])]


def unique_mathdoku(
    n: int,
    rng: random.Random,
    *,
    backend: str = "cpsat",
    max_cage: int = 4,
    tries: int = 200,
    deadline: float | None = None,
    progress: Progress | None = None,
):
    """A unique planted order-n Mathdoku (the first of `tries`) and its solution; SearchTimeoutError at `deadline`."""
    for k in range(tries):
        puzzle, square = planted_mathdoku(n, rng, max_cage)
        try:
            if past(deadline):
                raise SearchTimeoutError
            if count_solutions(puzzle, 2, backend=backend, time_limit=seconds_left(deadline)) == 1:
                return puzzle, square
        except SearchTimeoutError:
            raise SearchTimeoutError(f"no unique order-{n} Mathdoku within the time limit ({k} tried)") from None
        if progress:
            progress(k + 1, tries)
    raise CpModelsError(f"no unique order-{n} Mathdoku in {tries} tries; allow smaller cages (max_cage)")
