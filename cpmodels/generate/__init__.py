"""Every generator, in one package: complete grids, Sudoku punched while unique, planted Mathdoku, QWH.

Sudoku (sudoku.py, with grids.py for complete grids, logic.py for solving by singles, targets.py for
search-effort and difficulty targets): a complete grid reduced by a method (top-down, bottom-up,
controlled-bias, logic:singles), over cells or the orbits of a symmetry of positions, with targets met by
rejection and local search; many puzzles of a run in lockstep batches on the backtracking kernel, and with
`processes` above 1 in worker processes (processes.py), each owning a kernel.
Seeds: puzzle i of a run with seed S comes from its own stream (stream(S, i), numpy SeedSequence
spawning), so generate_one(family, S, i) and generate_many(family, S, count) agree, in any order.
Mathdoku (mathdoku.py, with mathdoku_cages.py for partitions and operators): a random Latin square cut
into connected cages (Keen's way by default), operators dealt round-robin, made unique by repair or a new
draw, then merged and with operators hidden as asked; mathdoku() is the API call.
QWH (Achlioptas, Gomes, Kautz and Selman, AAAI-00): a square drawn (approximately) uniformly with
the Jacobson-Matthews Markov chain, then holes punched uniformly at random, or balanced (the same
number per row and column, Kautz et al., IJCAI-01), which is markedly harder. The hardness peak lies
near holes = 1.6 * n**1.55.

A `deadline` (a time.monotonic() value) bounds the searches for uniqueness: punching stops when it passes,
with a TimeLimitWarning, leaving the puzzle unique but perhaps not minimal; a Mathdoku not found by then
raises SearchTimeoutError. `progress(done, total)` is called after each step of that search.

Modules: common (progress, deadlines, seeds per puzzle, the Made record with its output fields), sudoku,
grids, logic, targets, processes, latin (Latin squares and QWH), mathdoku.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ..errors import CpModelsError, SearchTimeoutError
from ..grid import GridPuzzle
from ..minimality import SYMMETRIES, is_symmetric
from .common import Made, Progress, Tally, TimeLimitWarning, check_seed, stream
from .grids import complete_grid, shuffle_grid
from .latin import peak_holes, punch_holes, qwh, random_latin_square, uniform_latin_square
from .mathdoku import MathdokuSpec, made_mathdoku, mathdoku, mathdoku_spec, planted_mathdoku, unique_mathdoku
from .sudoku import (
    METHODS,
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
    "METHODS",
    "MINIMAL",
    "SUDOKU_9X9_LEAST_CLUES",
    "SYMMETRIES",
    "Made",
    "MathdokuSpec",
    "Progress",
    "SudokuJob",
    "SudokuSpec",
    "Tally",
    "TimeLimitWarning",
    "complete_grid",
    "generate",
    "generate_many",
    "generate_one",
    "generate_records",
    "is_symmetric",
    "lockstep",
    "make_one",
    "mathdoku",
    "mathdoku_spec",
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
    "shuffle_grid",
    "sudoku_spec",
    "uniform_latin_square",
    "unique_mathdoku",
]

FAMILIES = ("sudoku", "mathdoku", "qwh")
"""What `generate` makes."""


def generate(family: str, rng: random.Random, **options: Any) -> GridPuzzle:
    """One new puzzle of `family` (sudoku, mathdoku or qwh): unique Sudoku and Mathdoku, QWH with `holes` holes.

    make_one(family, rng, **options).puzzle; see there for the options.
    """
    return make_one(family, rng, **options).puzzle


def make_one(
    family: str,
    rng: random.Random,
    *,
    order: int | None = None,
    box: tuple[int, int] | None = None,
    holes: int | None = None,
    balanced: bool = False,
    max_cage: int | None = None,
    backend: str = "backtrack",
    deadline: float | None = None,
    progress: Progress | None = None,
    key: tuple[int, int] | None = None,
    tally: Tally | None = None,
    **sudoku: Any,
) -> Made:
    """One new puzzle of `family` as a Made record (its solution, how it was made); `key`: its (seed, index).

    Sudoku only: `sudoku` options as sudoku_spec takes them (symmetry, minimal, clues, method, grids,
    grid_shuffle, nodes, evals, difficulty, max_attempts).
    """
    if family == "sudoku":
        spec = sudoku_spec(order=order, box=box, holes=holes, backend=backend, **sudoku)
        job = SudokuJob(spec, rng, progress, key, tally)
        made = run_sudoku_jobs(spec, [job], deadline)[0]
        raised(made)
        assert isinstance(made, Made)
        return made
    seed, index = key or (None, None)
    if family == "mathdoku":  # its options in `sudoku` too: ops, cage_sizes, ... as mathdoku_spec takes them
        options = {"order": order, "backend": backend, "max_cage": max_cage, **sudoku}
        return made_mathdoku(rng, key=key, deadline=deadline, progress=progress, **options)
    if family == "qwh":
        n = order or 10
        puzzle, square = qwh(n, peak_holes(n) if holes is None else holes, rng, balanced)
        return Made(puzzle, tuple(square), seed, index)
    raise CpModelsError(f"unknown family {family!r}; choose one of: {', '.join(FAMILIES)}")


def generate_one(family: str, seed: int, index: int = 0, **options: Any) -> GridPuzzle:
    """Puzzle `index` of a run of `family` with `seed`: generate(family, stream(seed, index), **options).

    The same (seed, index) and options give the same puzzle on every call (unless a deadline cut it short).
    """
    return generate(family, stream(seed, index), **options)


def generate_many(family: str, seed: int, count: int, **options: Any) -> Iterator[GridPuzzle]:
    """Puzzles start .. start+count-1 of a run of `family` with `seed`, in index order: each as generate_one makes it.

    The puzzles of generate_records(family, seed, count, **options); see there.
    """
    return (made.puzzle for made in generate_records(family, seed, count, **options))


def generate_records(
    family: str,
    seed: int,
    count: int,
    *,
    start: int = 0,
    window: int = 128,
    threads: int = 1,
    processes: int = 1,
    deadline: float | None = None,
    progress: Progress | None = None,
    tally: Tally | None = None,
    **options: Any,
) -> Iterator[Made]:
    """Records of puzzles start .. start+count-1 of a run of `family` with `seed`, in index order.

    Sudoku on the backtracking backend are made `window` at a time in lockstep, each step's trials
    checked in one kernel batch (on `threads` threads); with `processes` above 1, in that many worker
    processes, chunks of indices each (processes.py). Puzzle i is the same as generate_one(family, seed,
    i) all the same. `deadline` (time.monotonic()) is for the whole run: puzzles under way then are kept
    unique with a TimeLimitWarning, or, asked for a target, raise SearchTimeoutError; none is started after
    it, and a run that stops short raises SearchTimeoutError after the puzzles made. `progress(done,
    count)` is called as puzzles are made (done may count the oldest unfinished puzzle's part done).
    """
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise CpModelsError(f"count must be an integer of at least 0, not {count!r}")
    check_seed(seed, start)
    if window < 1 or threads < 1 or processes < 1:
        raise CpModelsError(
            f"window, threads and processes must be at least 1, not {window}, {threads} and {processes}"
        )
    indices = range(start, start + count)
    if family == "sudoku":
        sudoku_spec(**options)  # refused now, before the first puzzle is asked for
    elif family == "mathdoku":
        mathdoku_spec(**options)
    elif family not in FAMILIES:
        raise CpModelsError(f"unknown family {family!r}; choose one of: {', '.join(FAMILIES)}")
    if processes > 1 and count > 1:
        from .processes import in_processes

        return in_processes(generate_records, family, seed, indices, processes, deadline, progress, tally, options)
    if family != "sudoku":
        return _others(family, seed, indices, deadline, progress, tally, options)
    return _sudokus(sudoku_spec(**options), seed, indices, window, threads, deadline, progress, tally)


def _others(
    family: str,
    seed: int,
    indices: range,
    deadline: float | None,
    progress: Progress | None,
    tally: Tally | None,
    options: dict,
) -> Iterator[Made]:
    """generate_records for a family other than Sudoku: one puzzle after the other."""
    for k, index in enumerate(indices, start=1):
        yield make_one(family, stream(seed, index), deadline=deadline, key=(seed, index), tally=tally, **options)
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
    tally: Tally | None,
) -> Iterator[Made]:
    """generate_records for Sudoku: `window` puzzles at a time in lockstep."""
    count = len(indices)
    jobs = (SudokuJob(spec, stream(seed, i), key=(seed, i), tally=tally) for i in indices)
    done = 0
    for made in lockstep(spec, jobs, window, deadline, threads, progress=_total(progress, count)):
        done += 1
        raised(made)
        assert isinstance(made, Made)
        yield made
        if progress:
            progress(done, count)
    if done < count:
        raise SearchTimeoutError(f"time limit reached: {done} of {count} puzzles made")


def _total(progress: Progress | None, count: int) -> Progress | None:
    """`progress` with the run's count as its total (lockstep reports its steps without one)."""
    return None if progress is None else lambda done, _: progress(done, count)
