"""Every generator, in one package: complete grids, Sudoku punched while unique, planted Mathdoku, QWH.

Sudoku: a random complete grid of any r x c box shape (the shifted-row pattern with bands, stacks,
rows, columns and symbols shuffled: not uniform over grids), then one top-down pass: the cells, or the
orbits of a `symmetry` of positions (minimality.SYMMETRIES), in random order, each emptied when the
puzzle stays unique. By monotonicity the result is minimal (orbit-minimal with a symmetry; definitions
in minimality.py); `minimal="strict"` keeps only orbit-minimal puzzles that are clue-minimal too, and
`clues=(lo, hi)` only those with lo..hi clues, drawing again (same stream) until one is.
Every trial is one uniqueness check on the backtracking kernel; the trials of many puzzles of a run go
to it as one batch (lockstep), and a trial's givens are never re-validated (they are a subset of a
solution), which was half of the time before.
Seeds: puzzle i of a run with seed S comes from its own stream (stream(S, i), numpy SeedSequence
spawning), so generate_one(family, S, i) and generate_many(family, S, count) agree, in any order.
Mathdoku: a random Latin square cut into connected cages with fitting operators, kept when unique.
QWH (Achlioptas, Gomes, Kautz and Selman, AAAI-00): a square drawn (approximately) uniformly with
the Jacobson-Matthews Markov chain, then holes punched uniformly at random, or balanced (the same
number per row and column, Kautz et al., IJCAI-01), which is markedly harder. The hardness peak lies
near holes = 1.6 * n**1.55.

A `deadline` (a time.monotonic() value) bounds the searches for uniqueness: punching stops when it passes,
with a TimeLimitWarning, leaving the puzzle unique but perhaps not minimal; a Mathdoku not found by then
raises SearchTimeoutError. `progress(done, total)` is called after each step of that search.

Modules: common (progress, deadlines, seeds per puzzle), sudoku, latin (Latin squares and QWH), mathdoku.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ..errors import CpModelsError, SearchTimeoutError
from ..grid import GridPuzzle
from ..minimality import SYMMETRIES, is_symmetric
from .common import Progress, TimeLimitWarning, check_seed, stream
from .latin import peak_holes, punch_holes, qwh, random_latin_square, uniform_latin_square
from .mathdoku import planted_mathdoku, unique_mathdoku
from .sudoku import (
    MINIMAL,
    SUDOKU_9X9_LEAST_CLUES,
    SudokuJob,
    SudokuSpec,
    lockstep,
    pattern_grid,
    punch,
    punch_while_unique,
    raised,
    random_grid,
    run_sudoku_jobs,
    sudoku_spec,
)

__all__ = [
    "FAMILIES",
    "MINIMAL",
    "SUDOKU_9X9_LEAST_CLUES",
    "SYMMETRIES",
    "Progress",
    "SudokuJob",
    "SudokuSpec",
    "TimeLimitWarning",
    "generate",
    "generate_many",
    "generate_one",
    "is_symmetric",
    "lockstep",
    "pattern_grid",
    "peak_holes",
    "planted_mathdoku",
    "punch",
    "punch_holes",
    "punch_while_unique",
    "qwh",
    "random_grid",
    "random_latin_square",
    "run_sudoku_jobs",
    "stream",
    "sudoku_spec",
    "uniform_latin_square",
    "unique_mathdoku",
]

FAMILIES = ("sudoku", "mathdoku", "qwh")
"""What `generate` makes."""


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
    symmetry: str = "none",
    minimal: bool | str = True,
    clues: int | tuple[int, int] | None = None,
) -> GridPuzzle:
    """One new puzzle of `family` (sudoku, mathdoku or qwh): unique Sudoku and Mathdoku, QWH with `holes` holes.

    Sudoku only: `symmetry` (SYMMETRIES) of the pattern of givens, `minimal` (True: minimal, orbit-minimal
    with a symmetry; "strict": clue-minimal as well), `clues` (K or (lo, hi)) a clue count drawn for by
    rejection; see sudoku_spec.
    """
    if family == "sudoku":
        spec = sudoku_spec(
            order=order, box=box, holes=holes, backend=backend, symmetry=symmetry, minimal=minimal, clues=clues
        )
        return raised(run_sudoku_jobs(spec, [SudokuJob(spec, rng, progress)], deadline)[0])
    if family == "mathdoku":
        found, _ = unique_mathdoku(
            order or 6, rng, backend=backend, max_cage=max_cage, deadline=deadline, progress=progress
        )
        return found
    if family == "qwh":
        n = order or 10
        return qwh(n, peak_holes(n) if holes is None else holes, rng, balanced)[0]
    raise CpModelsError(f"unknown family {family!r}; choose one of: {', '.join(FAMILIES)}")


def generate_one(family: str, seed: int, index: int = 0, **options: Any) -> GridPuzzle:
    """Puzzle `index` of a run of `family` with `seed`: generate(family, stream(seed, index), **options).

    The same (seed, index) and options give the same puzzle on every call (unless a deadline cut it short).
    """
    return generate(family, stream(seed, index), **options)


def generate_many(
    family: str,
    seed: int,
    count: int,
    *,
    start: int = 0,
    window: int = 128,
    threads: int = 1,
    deadline: float | None = None,
    progress: Progress | None = None,
    **options: Any,
) -> Iterator[GridPuzzle]:
    """Puzzles start .. start+count-1 of a run of `family` with `seed`, in index order: each as generate_one makes it.

    Sudoku on the backtracking backend are punched `window` at a time in lockstep, each step's trial
    removals checked in one kernel batch (on `threads` threads); puzzle i is the same as
    generate_one(family, seed, i) all the same. `deadline` (time.monotonic()) is for the whole run:
    puzzles under way then are kept unique with a TimeLimitWarning, or, asked for a clue count or
    strictness, raise SearchTimeoutError; none is started after it, and a run that stops short raises
    SearchTimeoutError after the puzzles made. `progress(done, count)` is called after each puzzle.
    """
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise CpModelsError(f"count must be an integer of at least 0, not {count!r}")
    check_seed(seed, start)
    if window < 1 or threads < 1:
        raise CpModelsError(f"window and threads must be at least 1, not {window} and {threads}")
    if family != "sudoku":
        return _others(family, seed, range(start, start + count), deadline, progress, options)
    spec = sudoku_spec(**options)
    return _sudokus(spec, seed, range(start, start + count), window, threads, deadline, progress)


def _others(
    family: str, seed: int, indices: range, deadline: float | None, progress: Progress | None, options: dict
) -> Iterator[GridPuzzle]:
    """generate_many for a family other than Sudoku: one puzzle after the other."""
    for k, index in enumerate(indices, start=1):
        yield generate(family, stream(seed, index), deadline=deadline, **options)
        if progress:
            progress(k, len(indices))


def _sudokus(
    spec: SudokuSpec,
    seed: int,
    indices: range,
    window: int,
    threads: int,
    deadline: float | None,
    progress: Progress | None,
) -> Iterator[GridPuzzle]:
    """generate_many for Sudoku: `window` puzzles at a time in lockstep."""
    count = len(indices)
    jobs = (SudokuJob(spec, stream(seed, i)) for i in indices)
    done = 0
    for made in lockstep(spec, jobs, window, deadline, threads):
        done += 1
        yield raised(made)
        if progress:
            progress(done, count)
    if done < count:
        raise SearchTimeoutError(f"time limit reached: {done} of {count} puzzles made")
