"""Every generator, in one place: complete grids, Sudoku punched while unique, planted Mathdoku, QWH.

Sudoku: a random complete grid of any r x c box shape (the shifted-row pattern with bands, stacks,
rows, columns and symbols shuffled), then givens removed while the puzzle stays unique.
Mathdoku: a random Latin square cut into connected cages with fitting operators, kept when unique.
QWH (Achlioptas, Gomes, Kautz and Selman, AAAI-00): a square drawn (approximately) uniformly with
the Jacobson-Matthews Markov chain, then holes punched uniformly at random, or balanced (the same
number per row and column, Kautz et al., IJCAI-01), which is markedly harder. The hardness peak lies
near holes = 1.6 * n**1.55.

A `deadline` (a time.monotonic() value) bounds the searches for uniqueness: punching stops when it passes,
with a TimeLimitWarning, leaving the puzzle unique but perhaps not minimal; a Mathdoku not found by then
raises SearchTimeoutError. `progress(done, total)` is called after each step of that search.
"""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Callable, Sequence
from math import prod

import numpy as np

from . import cages as cage_rules
from .errors import CpModelsError, SearchTimeoutError
from .grid import Cage, Cell, GridPuzzle
from .latin import latin_puzzle
from .mathdoku import mathdoku_puzzle
from .solve import count_solutions
from .sudoku import default_box, sudoku_puzzle

FAMILIES = ("sudoku", "mathdoku", "qwh")
"""What `generate` makes."""
Progress = Callable[[int, int], None]
"""progress(done, total): called after each step of a long generation (a given tried, a Mathdoku tried)."""


class TimeLimitWarning(UserWarning):
    """The deadline passed while punching: the puzzle returned is unique but perhaps not minimal."""


def _past(deadline: float | None) -> bool:
    """Whether `deadline` (a time.monotonic() value) has passed; never without one."""
    return deadline is not None and time.monotonic() >= deadline


def _seconds_left(deadline: float | None) -> float | None:
    """The seconds until `deadline` (a time.monotonic() value), at least 0; None without a deadline."""
    return None if deadline is None else max(0.0, deadline - time.monotonic())


def generate(
    family: str,
    rng: random.Random,
    *,
    order: int | None = None,
    box: tuple[int, int] | None = None,
    holes: int | None = None,
    balanced: bool = False,
    max_cage: int = 4,
    backend: str = "backtrack",
    deadline: float | None = None,
    progress: Progress | None = None,
) -> GridPuzzle:
    """One new puzzle of `family` (sudoku, mathdoku or qwh): unique Sudoku and Mathdoku, QWH with `holes` holes."""
    if family == "sudoku":
        box = box or default_box(order or 9)
        solved = sudoku_puzzle(random_grid(box, rng), box)
        return punch_while_unique(solved, rng, backend=backend, holes=holes, deadline=deadline, progress=progress)
    if family == "mathdoku":
        found, _ = unique_mathdoku(
            order or 6, rng, backend=backend, max_cage=max_cage, deadline=deadline, progress=progress
        )
        return found
    if family == "qwh":
        n = order or 10
        return qwh(n, peak_holes(n) if holes is None else holes, rng, balanced)[0]
    raise CpModelsError(f"unknown family {family!r}; choose one of: {', '.join(FAMILIES)}")


# ---- Sudoku ----------------------------------------------------------------------------------


def pattern_grid(box: tuple[int, int]) -> tuple[int, ...]:
    """A solved Sudoku grid of the given box shape, from the classic shifted-row pattern."""
    br, bc = box
    n = br * bc
    return tuple((bc * (r % br) + r // br + c) % n + 1 for r in range(n) for c in range(n))


def random_grid(box: tuple[int, int], rng: random.Random) -> tuple[int, ...]:
    """A random solved grid: pattern_grid with values relabelled and bands, stacks, rows, columns shuffled."""
    br, bc = box
    n = br * bc
    rows = [b * br + r for b in rng.sample(range(bc), bc) for r in rng.sample(range(br), br)]
    cols = [s * bc + c for s in rng.sample(range(br), br) for c in rng.sample(range(bc), bc)]
    relabel = [0, *rng.sample(range(1, n + 1), n)]
    base = pattern_grid(box)
    return tuple(relabel[base[r * n + c]] for r in rows for c in cols)


def punch(grid: Sequence[int], holes: int, rng: random.Random) -> tuple[int, ...]:
    """`grid` with `holes` cells, chosen uniformly at random, emptied (set to 0)."""
    emptied = set(rng.sample(range(len(grid)), min(holes, len(grid))))
    return tuple(0 if i in emptied else v for i, v in enumerate(grid))


def punch_while_unique(
    puzzle: GridPuzzle,
    rng: random.Random,
    *,
    backend: str = "backtrack",
    holes: int | None = None,
    deadline: float | None = None,
    progress: Progress | None = None,
) -> GridPuzzle:
    """`puzzle` (unique) with givens emptied one at a time in random order, each kept empty only while unique.

    Stops after `holes` holes, when no given can go (a minimal puzzle), or at `deadline` with a TimeLimitWarning.
    """
    givens = list(puzzle.givens)
    order = rng.sample(range(len(givens)), len(givens))
    for tried, i in enumerate(order):
        if holes is not None and givens.count(0) >= holes:
            break
        if _past(deadline) or (givens[i] and not _try_emptying(puzzle, givens, i, backend, deadline)):
            warnings.warn(
                f"time limit reached with {len(order) - tried} of {len(order)} cells untried: the puzzle is unique "
                f"but may not be minimal ({givens.count(0)} holes)",
                TimeLimitWarning,
                stacklevel=2,
            )
            break
        if progress:
            progress(tried + 1, len(order))
    return puzzle.with_givens(givens)


def _try_emptying(puzzle: GridPuzzle, givens: list[int], i: int, backend: str, deadline: float | None) -> bool:
    """Empty givens[i] if the puzzle stays unique without it; False, givens unchanged, if the deadline came first."""
    value, givens[i] = givens[i], 0
    try:
        if count_solutions(puzzle.with_givens(givens), 2, backend=backend, time_limit=_seconds_left(deadline)) != 1:
            givens[i] = value
    except SearchTimeoutError:
        givens[i] = value
        return False
    return True


# ---- Latin squares and QWH -------------------------------------------------------------------


def random_latin_square(n: int, rng: random.Random) -> tuple[int, ...]:
    """A row-major Latin square of order n: the cyclic square with rows, columns and symbols shuffled by `rng`."""
    rows = rng.sample(range(n), n)
    cols = rng.sample(range(n), n)
    symbols = rng.sample(range(1, n + 1), n)
    return tuple(symbols[(r + c) % n] for r in rows for c in cols)


def uniform_latin_square(n: int, rng: random.Random, steps: int | None = None) -> tuple[int, ...]:
    """A Latin square of order n drawn approximately uniformly: `steps` (default n**3) Jacobson-Matthews moves."""
    cube = np.zeros((n, n, n), dtype=np.int8)
    for i, v in enumerate(random_latin_square(n, rng)):
        cube[i // n, i % n, v - 1] = 1
    improper = None
    for _ in range(steps if steps is not None and n > 1 else n**3 if n > 1 else 0):
        improper = _jacobson_matthews_move(cube, improper, rng)
    while improper is not None:  # finish on a proper square
        improper = _jacobson_matthews_move(cube, improper, rng)
    return tuple(int(s) + 1 for s in cube.argmax(axis=2).ravel())


def _jacobson_matthews_move(cube: np.ndarray, improper: tuple[int, int, int] | None, rng: random.Random):
    """One move of the Jacobson-Matthews chain on the incidence cube; returns the improper cell or None."""
    n = cube.shape[0]
    if improper is None:
        while True:  # a random 0-cell of the cube, then the 1s on its three lines
            r, c, s = rng.randrange(n), rng.randrange(n), rng.randrange(n)
            if cube[r, c, s] == 0:
                break
        r2 = int(np.flatnonzero(cube[:, c, s] == 1)[0])
        c2 = int(np.flatnonzero(cube[r, :, s] == 1)[0])
        s2 = int(np.flatnonzero(cube[r, c, :] == 1)[0])
    else:  # the -1 cell: each of its lines holds two 1s, take one of each at random
        r, c, s = improper
        r2 = rng.choice(np.flatnonzero(cube[:, c, s] == 1).tolist())
        c2 = rng.choice(np.flatnonzero(cube[r, :, s] == 1).tolist())
        s2 = rng.choice(np.flatnonzero(cube[r, c, :] == 1).tolist())
    for cell, delta in (
        ((r, c, s), 1),
        ((r, c2, s2), 1),
        ((r2, c, s2), 1),
        ((r2, c2, s), 1),
        ((r, c2, s), -1),
        ((r2, c, s), -1),
        ((r, c, s2), -1),
        ((r2, c2, s2), -1),
    ):
        cube[cell] += delta
    return (r2, c2, s2) if cube[r2, c2, s2] == -1 else None


def punch_holes(square: tuple[int, ...], holes: int, rng: random.Random, balanced: bool = False) -> tuple[int, ...]:
    """`square` with `holes` cells emptied: uniformly at random, or balanced (as equal as can be per row and column)."""
    n = round(len(square) ** 0.5)
    if not 0 <= holes <= n * n:
        raise CpModelsError(f"an order-{n} square has {n * n} cells; cannot punch {holes} holes")
    if not balanced:
        emptied = set(rng.sample(range(n * n), holes))
    else:  # the cells of k symbols of a random square: k holes in every row and column, then part of one more
        pattern = random_latin_square(n, rng)
        full, extra = divmod(holes, n)
        symbols = rng.sample(range(1, n + 1), n)
        emptied = {i for i, v in enumerate(pattern) if v in symbols[:full]}
        if extra:
            last = [i for i, v in enumerate(pattern) if v == symbols[full]]
            emptied |= set(rng.sample(last, extra))
    return tuple(0 if i in emptied else v for i, v in enumerate(square))


def qwh(n: int, holes: int, rng: random.Random, balanced: bool = False) -> tuple[GridPuzzle, tuple[int, ...]]:
    """A QWH instance of order n with `holes` holes, and the square it was punched from (a solution)."""
    square = uniform_latin_square(n, rng)
    puzzle = latin_puzzle(punch_holes(square, holes, rng, balanced), name=f"qwh-o{n}-h{holes}")
    return puzzle, square


def peak_holes(n: int) -> int:
    """The number of holes near which QWH of order n is hardest: 1.6 * n**1.55 (Achlioptas et al. 2000)."""
    return min(n * n, round(1.6 * n**1.55))


# ---- Mathdoku --------------------------------------------------------------------------------


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
            if _past(deadline):
                raise SearchTimeoutError
            if count_solutions(puzzle, 2, backend=backend, time_limit=_seconds_left(deadline)) == 1:
                return puzzle, square
        except SearchTimeoutError:
            raise SearchTimeoutError(f"no unique order-{n} Mathdoku within the time limit ({k} tried)") from None
        if progress:
            progress(k + 1, tries)
    raise CpModelsError(f"no unique order-{n} Mathdoku in {tries} tries; allow smaller cages (max_cage)")
