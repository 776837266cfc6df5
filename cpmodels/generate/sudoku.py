"""Sudoku of any r x c box shape: random complete grids, then punched while unique, in lockstep batches.

Sudoku: a random complete grid of any r x c box shape (the shifted-row pattern with bands, stacks,
rows, columns and symbols shuffled: not uniform over grids), then one top-down pass: the cells, or the
orbits of a `symmetry` of positions (minimality.SYMMETRIES), in random order, each emptied when the
puzzle stays unique. By monotonicity the result is minimal (orbit-minimal with a symmetry; definitions
in minimality.py); `minimal="strict"` keeps only orbit-minimal puzzles that are clue-minimal too, and
`clues=(lo, hi)` only those with lo..hi clues, drawing again (same stream) until one is.
Every trial is one uniqueness check on the backtracking kernel; the trials of many puzzles of a run go
to it as one batch (lockstep), and a trial's givens are never re-validated (they are a subset of a
solution), which was half of the time before.
"""

from __future__ import annotations

import random
import warnings
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import prod
from typing import Any

from ..errors import CpModelsError, SearchTimeoutError
from ..grid import GridPuzzle
from ..minimality import SYMMETRIES as SYMMETRIES
from ..minimality import check_symmetry, orbits, unchecked, unique_rows
from ..minimality import is_symmetric as is_symmetric
from ..solve import solve
from ..sudoku import box_of, default_box, sudoku_puzzle
from .common import Progress, TimeLimitWarning, past

SUDOKU_9X9_LEAST_CLUES = 17
"""No 9x9 Sudoku with 16 clues has a unique solution (McGuire, Tugemann and Civario 2012)."""
MINIMAL = (True, False, "strict")
"""What `minimal` takes: True (minimal; orbit-minimal with a symmetry), "strict" (clue-minimal as well), False."""


@dataclass(frozen=True)
class SudokuSpec:
    """What every Sudoku of a run is asked to be, validated once by sudoku_spec."""

    box: tuple[int, int]
    template: GridPuzzle
    symmetry: str
    orbits: tuple[tuple[int, ...], ...]
    minimal: bool | str
    clues: tuple[int, int] | None
    holes: int | None
    backend: str

    @property
    def strict(self) -> bool:
        """Clue-minimal asked for beyond orbit-minimal (only a symmetry makes them differ)."""
        return self.minimal == "strict" and self.symmetry != "none"


def sudoku_spec(
    *,
    order: int | None = None,
    box: tuple[int, int] | None = None,
    holes: int | None = None,
    backend: str = "backtrack",
    symmetry: str | None = "none",
    minimal: bool | str = True,
    clues: int | tuple[int, int] | None = None,
    **ignored: Any,
) -> SudokuSpec:
    """The validated options of a Sudoku run; CpModelsError with one clear message for a bad one.

    box (default: default_box(order or 9)): sides of at least 2, order at most 64. symmetry: one of
    SYMMETRIES, positions only, so every box shape takes every one. minimal: see MINIMAL; "strict"
    with a symmetry keeps only the orbit-minimal puzzles that are clue-minimal too (rejection).
    clues: K or (lo, hi), minimal puzzles drawn until one has lo..hi clues; 9x9 below 17 is refused.
    holes: stop after that many empty cells (unique, not necessarily minimal); not with clues or "strict".
    Options for other families (balanced, max_cage) are ignored.
    """
    sides: tuple[int, ...] = tuple(box) if box is not None else default_box(order or 9)
    if len(sides) != 2 or not all(isinstance(side, int) and side >= 2 for side in sides) or prod(sides) > 64:
        raise CpModelsError(f"a Sudoku box needs two sides of at least 2 and an order up to 64, not {box!r}")
    n = prod(sides)
    symmetry = check_symmetry(symmetry)
    if minimal not in MINIMAL or isinstance(minimal, int) and not isinstance(minimal, bool):
        raise CpModelsError(f"minimal must be True, False or 'strict', not {minimal!r}")
    target = _clue_range(clues, n)
    if holes is not None and (target is not None or minimal == "strict"):
        raise CpModelsError("holes stops removal early, so it cannot go with clues or minimal='strict'")
    if holes is not None and not 0 <= holes <= n * n:
        raise CpModelsError(f"an order-{n} Sudoku has {n * n} cells; cannot punch {holes} holes")
    shape = (sides[0], sides[1])
    template = _empty_sudoku(shape)
    return SudokuSpec(shape, template, symmetry, orbits(n, symmetry), minimal, target, holes, backend)


@lru_cache(maxsize=16)
def _empty_sudoku(box: tuple[int, int]) -> GridPuzzle:
    """The Sudoku of this box shape with no givens: the template every trial of a run shares."""
    n = box[0] * box[1]
    return sudoku_puzzle((0,) * (n * n), box)


def _clue_range(clues: int | tuple[int, int] | None, n: int) -> tuple[int, int] | None:
    """`clues` as (lo, hi), checked against the n*n cells and the 17-clue floor of 9x9; None for None."""
    if clues is None:
        return None
    pair = [clues, clues] if isinstance(clues, int) else list(clues)
    if len(pair) != 2 or not all(isinstance(k, int) and not isinstance(k, bool) for k in pair):
        raise CpModelsError(f"clues must be a count K or a range (lo, hi), not {clues!r}")
    lo, hi = pair
    if not 0 <= lo <= hi <= n * n:
        raise CpModelsError(f"clues must satisfy 0 <= lo <= hi <= {n * n} on an order-{n} Sudoku, not {lo}-{hi}")
    if n == 9 and lo < SUDOKU_9X9_LEAST_CLUES:
        raise CpModelsError(
            f"no 9x9 Sudoku with fewer than 17 clues has a unique solution (McGuire, Tugemann and Civario 2012); "
            f"ask for clues from 17 on, not {lo}"
        )
    return lo, hi


class SudokuJob:
    """One Sudoku made from its own random stream, attempt after attempt until one meets the spec.

    An attempt: a complete grid, then one pass over the orbits in random order, each emptied when the
    puzzle stays unique (top-down: minimal, or orbit-minimal, by monotonicity).

    The pass is driven from outside (run_sudoku_jobs): trials() gives givens to check, answer() takes
    whether they are unique. Its outcome depends on the stream and those answers only, so it is the same
    however many trials are checked at once.
    """

    def __init__(self, spec: SudokuSpec, rng: random.Random, progress: Progress | None = None) -> None:
        self.spec, self.rng, self.progress = spec, rng, progress
        self.attempts = 0
        self.result: GridPuzzle | SearchTimeoutError | None = None
        self.new_attempt()

    def new_attempt(self) -> None:
        """A new complete grid, and a removal pass over it from the start."""
        self.attempts += 1
        grid = bytes(random_grid(self.spec.box, self.rng))
        self.start(grid, grid)

    def start(self, givens: bytes, solution: bytes) -> None:
        """A removal pass from `givens` (unique, with `solution`), over the orbits in an order drawn now."""
        orbits_ = self.spec.orbits
        self.solution, self.givens = solution, bytearray(givens)
        self.order = [orbits_[k] for k in self.rng.sample(range(len(orbits_)), len(orbits_))]
        self.tried = 0
        self.holes = self.givens.count(0)
        self.pending: list[bytes] = []

    def trials(self, most: int = 1) -> list[bytes]:
        """The next `most` trials at most, each as if the ones before it were unique; [] when the pass is over.

        Trial 1 is the givens without the next orbit's clues, trial 2 without the next two orbits' clues,
        and so on: one batch answers several steps of the pass when the first few stay unique. Orbits are
        disjoint, so which clues each removes does not depend on the answers before it.
        """
        self._skip()
        limit = self.spec.holes
        rows: list[bytes] = []
        row, holes, k = bytearray(self.givens), self.holes, self.tried
        while k < len(self.order) and len(rows) < most and (limit is None or holes < limit):
            present = [i for i in self.order[k] if row[i]]
            if present and (limit is None or holes + len(present) <= limit):
                for i in present:
                    row[i] = 0
                holes += len(present)
                rows.append(bytes(row))
            k += 1
        self.pending = rows
        return rows

    def answer(self, uniques: Sequence[bool]) -> None:
        """Whether the last trials' givens are unique, in order: the pass takes them up to the first that is not."""
        for row, unique in zip(self.pending, uniques, strict=False):
            if unique:
                self.holes += row.count(0) - self.givens.count(0)
                self.givens = bytearray(row)
            self._step()
            self._skip()
            if not unique:
                break
        self.pending = []

    def _skip(self) -> None:
        """Step past the orbits with no clue left, or too many for `holes`, as a trial of them would."""
        limit = self.spec.holes
        while self.tried < len(self.order) and (limit is None or self.holes < limit):
            present = sum(1 for i in self.order[self.tried] if self.givens[i])
            if present and (limit is None or self.holes + present <= limit):
                return
            self._step()

    def _step(self) -> None:
        self.tried += 1
        if self.progress:
            self.progress(self.tried, len(self.order))

    def untried(self) -> int:
        """Orbits of the pass not tried yet."""
        return len(self.order) - self.tried

    def puzzle(self) -> GridPuzzle:
        """The puzzle of the current givens: valid by construction (a subset of its solution), so not re-validated."""
        return unchecked(self.spec.template, self.givens)

    def accepts(self, deadline: float | None) -> bool | None:
        """At the end of a pass: whether its puzzle meets the spec (clue count, strict); None if the deadline came."""
        spec = self.spec
        count = len(self.givens) - self.givens.count(0)
        if spec.clues is not None and not spec.clues[0] <= count <= spec.clues[1]:
            return False
        if spec.strict:
            rows = []
            for i, v in enumerate(self.givens):
                if v:
                    row = bytearray(self.givens)
                    row[i] = 0
                    rows.append(bytes(row))
            unique = unique_rows(
                spec.template, [self.solution] * len(rows), rows, backend=spec.backend, deadline=deadline
            )
            if unique is None:
                return None
            return not any(unique)
        return True


def run_sudoku_jobs(
    spec: SudokuSpec, jobs: Sequence[SudokuJob], deadline: float | None, threads: int = 1
) -> list[GridPuzzle | SearchTimeoutError]:
    """Drive `jobs` in lockstep until each has a puzzle meeting `spec`; their puzzles (or errors) in order.

    See lockstep; here every job is active from the start.
    """
    return list(lockstep(spec, iter(jobs), max(1, len(jobs)), deadline, threads, late=True))


def lockstep(
    spec: SudokuSpec,
    jobs: Iterator[SudokuJob],
    window: int,
    deadline: float | None,
    threads: int = 1,
    *,
    late: bool = False,
) -> Iterator[GridPuzzle | SearchTimeoutError]:
    """The puzzles (or errors) of `jobs`, in order, driven `window` at a time in lockstep.

    Each step takes one trial from every active job and checks them all at once (one kernel batch on
    the backtracking backend, on `threads` threads); a job that finishes is replaced by the next, so
    the batches stay full while some jobs draw again for a clue count.

    At `deadline`: an active job asked only for minimality keeps its unique puzzle with a TimeLimitWarning;
    one asked for a clue count or strictness gets a SearchTimeoutError instead of a puzzle; no job starts
    after it, unless `late` (each then ends at once, as the active ones do).
    """
    waiting: deque[SudokuJob] = deque()
    active: list[SudokuJob] = []
    while True:
        while len(active) < window and (late or not past(deadline)):
            job = next(jobs, None)
            if job is None:
                break
            waiting.append(job)
            active.append(job)
        while waiting and waiting[0].result is not None:
            made = waiting.popleft().result
            assert made is not None
            yield made
        if not active:
            return
        if not _step(spec, active, deadline, threads):
            for job in active:
                if job.result is None:
                    _out_of_time(spec, job)
        active = [job for job in active if job.result is None]


def _step(spec: SudokuSpec, active: list[SudokuJob], deadline: float | None, threads: int) -> bool:
    """One step of every active job: its next trial checked, or (its pass over) its puzzle judged; False at deadline."""
    trials: list[bytes] = []
    asking: list[tuple[SudokuJob, int]] = []
    for job in active:
        rows = job.trials()
        while not rows:
            accepted = job.accepts(deadline)
            if accepted is None:
                break
            if accepted:
                job.result = job.puzzle()
                break
            if past(deadline):
                break
            job.new_attempt()
            rows = job.trials()
        if rows:
            asking.append((job, len(trials)))
            trials.extend(rows)
    if not trials:
        return all(job.result is not None for job in active)
    solutions = [job.solution for job, _ in asking for _ in job.pending]
    answers = unique_rows(spec.template, solutions, trials, backend=spec.backend, deadline=deadline, threads=threads)
    if answers is None:
        return False
    for job, at in asking:
        job.answer(answers[at : at + len(job.pending)])
    return True


def raised(made: GridPuzzle | SearchTimeoutError) -> GridPuzzle:
    """The puzzle made, or raise the error that stopped it."""
    if isinstance(made, SearchTimeoutError):
        raise made
    return made


def _out_of_time(spec: SudokuSpec, job: SudokuJob) -> None:
    """The deadline came during `job`: keep its unique puzzle with a warning, or an error if the spec asks more."""
    if spec.clues is not None or spec.strict:
        wanted = f"{spec.clues[0]}-{spec.clues[1]} clues" if spec.clues else "clue-minimal"
        job.result = SearchTimeoutError(
            f"no {wanted} Sudoku within the time limit ({job.attempts} grid(s) tried, {job.untried()} orbit(s) "
            "of the last one untried)"
        )
        return
    job.pending = []
    warnings.warn(
        f"time limit reached with {job.untried()} of {len(job.order)} cells untried: the puzzle is unique "
        f"but may not be minimal ({job.givens.count(0)} holes)",
        TimeLimitWarning,
        stacklevel=3,
    )
    job.result = job.puzzle()


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
    symmetry: str = "none",
) -> GridPuzzle:
    """`puzzle` (unique) with givens emptied in random order, each kept empty only while the puzzle stays unique.

    Givens go one at a time, or one `symmetry` orbit at a time.

    Stops after `holes` holes, when no given can go (a minimal puzzle), or at `deadline` with a TimeLimitWarning.
    """
    n = puzzle.n
    if holes is not None and not 0 <= holes <= n * n:
        raise CpModelsError(f"an order-{n} puzzle has {n * n} cells; cannot punch {holes} holes")
    found = solve(puzzle, backend=backend, limit=2, keep=1)
    if found.count != 1:
        raise CpModelsError(f"punch_while_unique takes a unique puzzle, not one with {found.status} solutions")
    symmetry = check_symmetry(symmetry)
    box = box_of(puzzle) or (1, n)
    spec = SudokuSpec(box, puzzle, symmetry, orbits(n, symmetry), False, None, holes, backend)
    job = object.__new__(SudokuJob)
    job.spec, job.rng, job.progress, job.attempts, job.result = spec, rng, progress, 1, None
    job.start(bytes(puzzle.givens), bytes(found.solutions[0]))
    return raised(run_sudoku_jobs(spec, [job], deadline)[0])
