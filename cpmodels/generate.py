"""Every generator, in one place: complete grids, Sudoku punched while unique, planted Mathdoku, QWH.

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
"""

from __future__ import annotations

import random
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import prod
from typing import Any

import numpy as np

from . import cages as cage_rules
from .errors import CpModelsError, SearchTimeoutError
from .grid import Cage, Cell, GridPuzzle
from .latin import latin_puzzle
from .mathdoku import mathdoku_puzzle
from .minimality import SYMMETRIES as SYMMETRIES
from .minimality import check_symmetry, orbits, unchecked, unique_rows
from .minimality import is_symmetric as is_symmetric
from .solve import count_solutions, solve
from .sudoku import box_of, default_box, sudoku_puzzle

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
        return _raised(run_sudoku_jobs(spec, [SudokuJob(spec, rng, progress)], deadline)[0])
    if family == "mathdoku":
        found, _ = unique_mathdoku(
            order or 6, rng, backend=backend, max_cage=max_cage, deadline=deadline, progress=progress
        )
        return found
    if family == "qwh":
        n = order or 10
        return qwh(n, peak_holes(n) if holes is None else holes, rng, balanced)[0]
    raise CpModelsError(f"unknown family {family!r}; choose one of: {', '.join(FAMILIES)}")


# ---- seeds -----------------------------------------------------------------------------------


def stream(seed: int, index: int) -> random.Random:
    """The random stream of puzzle `index` of a run with `seed`: numpy's SeedSequence(seed).spawn(...)[index].

    SeedSequence(seed, spawn_key=(index,)) is that child without spawning the ones before it; its
    256 bits seed a random.Random. Each puzzle depends on (seed, index) alone: not on the order the
    puzzles are made in, how many are made at once, or the machine.
    """
    _check_seed(seed, index)
    state = np.random.SeedSequence(int(seed), spawn_key=(int(index),)).generate_state(8, np.uint32)
    return random.Random(int.from_bytes(state.astype("<u4").tobytes(), "little"))


def _check_seed(seed: object, index: object) -> None:
    """CpModelsError unless `seed` and `index` are integers of at least 0."""
    for name, value in (("seed", seed), ("index", index)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 0:
            raise CpModelsError(f"the {name} must be an integer of at least 0, not {value!r}")


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
    _check_seed(seed, start)
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
        yield _raised(made)
        if progress:
            progress(done, count)
    if done < count:
        raise SearchTimeoutError(f"time limit reached: {done} of {count} puzzles made")


# ---- Sudoku ----------------------------------------------------------------------------------


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
        while len(active) < window and (late or not _past(deadline)):
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
            if _past(deadline):
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


def _raised(made: GridPuzzle | SearchTimeoutError) -> GridPuzzle:
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
    return _raised(run_sudoku_jobs(spec, [job], deadline)[0])


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
