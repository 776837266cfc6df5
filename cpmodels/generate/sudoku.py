"""Sudoku of any r x c box shape: complete grids reduced by a method, with targets, in lockstep batches.

An attempt starts from a complete grid (grids.py: randomised search up to order SEARCH_UP_TO, the shuffled
pattern above it; neither uniform over grids) and reduces it by `method` (METHODS), over the cells or the
orbits of a `symmetry` of positions (minimality.SYMMETRIES):
  top-down         one pass over the orbits in random order, each emptied when the puzzle stays unique:
                   minimal (orbit-minimal with a symmetry) by monotonicity, no re-check needed;
  bottom-up        random orbits of the grid added to an empty grid until the puzzle is unique, then the
                   same removal pass over the clues added (fewer checks; slightly fewer clues on average);
  controlled-bias  the top-down pass stopped at the first orbit that cannot go, kept only if the puzzle is
                   then minimal (Berthier's controlled-bias generator): a minimal puzzle with k of the m
                   orbits filled comes out with probability k!(m-k)!/m! (from a given grid), so each carries
                   the relative weight C(m, k) / C(m, m // 2) (1 at the least likely count) for reweighting;
  logic:singles    the removal pass keeping a removal only while the puzzle is solved by singles alone
                   (logic.py): unique by construction, not minimal, search-free.
Targets, each met by rejection, a new attempt per miss: `minimal="strict"` (orbit-minimal and clue-minimal),
`clues=(lo, hi)`, `nodes=(lo, hi)` (targets.py: the backtracking kernel's mean nodes over `evals` random
relabellings), `difficulty=(policy, level)` (cpmodels.strategies.grade). For clue and node targets the
attempts after the first are, three times in four, a local search from the closest puzzle so far (as
tdoku's pool generator does): drop one to three of its orbits, add random ones of its grid until unique,
and reduce again. `max_attempts` bounds the attempts of one puzzle.

Every trial of every job of a run is checked in one batch per step (lockstep): on the backtracking
kernel (unique_rows) or by the singles closure; a trial's givens are never re-validated (they are a
subset of a solution). A job's outcome depends on its random stream and the answers only, so it is the
same however many jobs run at once.
"""

from __future__ import annotations

import random
import time
import warnings
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb, prod
from typing import Any

from ..errors import CpModelsError, SearchTimeoutError
from ..grid import GridPuzzle, explain_violation
from ..minimality import SYMMETRIES as SYMMETRIES
from ..minimality import UNDECIDED, check_symmetry, orbits, unchecked, unique_rows
from ..minimality import is_symmetric as is_symmetric
from ..solve import solve
from ..sudoku import box_of, default_box, sudoku_puzzle
from .common import Made, Progress, Tally, TimeLimitWarning, past
from .grids import GRID_SOURCES, SEARCH_UP_TO, complete_grid, pattern_grid, random_grid, shuffle_grid
from .targets import check_difficulty, check_range, difficulty_of, mean_nodes

__all__ = [
    "METHODS",
    "MINIMAL",
    "SUDOKU_9X9_LEAST_CLUES",
    "SudokuJob",
    "SudokuSpec",
    "lockstep",
    "pattern_grid",
    "punch",
    "punch_while_unique",
    "raised",
    "random_grid",
    "run_sudoku_jobs",
    "shuffle_grid",
    "sudoku_spec",
]

SUDOKU_9X9_LEAST_CLUES = 17
"""No 9x9 Sudoku with 16 clues has a unique solution (McGuire, Tugemann and Civario 2012)."""
MINIMAL = (True, False, "strict")
"""What `minimal` takes: True (minimal; orbit-minimal with a symmetry), "strict" (clue-minimal as well), False."""
METHODS = ("top-down", "bottom-up", "controlled-bias", "logic:singles")
"""The reduction methods (see the module docstring)."""
REDRAWS = 3
"""Free bottom-up adding draws new values for an orbit whose values left no solution this many times, then passes."""
TRIAL_FROM = 20
"""From this order on, each uniqueness check of a removal gets at most TRIAL_SECONDS (some 25x25 ones take minutes)."""
TRIAL_SECONDS = 2.0
"""A removal whose check is not decided in this long is kept (undecided): the puzzle stays unique, perhaps not
minimal, and its record says how many (`undecided=K`) with a TimeLimitWarning."""
LOCAL_SHARE = 0.75
"""The share of attempts after the first that search locally from the closest puzzle so far (clue and node targets)."""


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
    method: str = "top-down"
    grids: str = "search"
    grid_shuffle: bool = False
    nodes: tuple[int, int] | None = None
    evals: int = 5
    difficulty: tuple[str, str] | None = None
    max_attempts: int | None = None
    trial_seconds: float | None = None

    @property
    def strict(self) -> bool:
        """Clue-minimal asked for beyond orbit-minimal (only a symmetry makes them differ)."""
        return self.minimal == "strict" and self.symmetry != "none"

    @property
    def logic(self) -> bool:
        """Removals kept while singles solve the puzzle, not while it is unique."""
        return self.method.startswith("logic:")

    @property
    def local(self) -> bool:
        """Whether missed attempts search locally from the closest puzzle (a clue or node target, a removal method)."""
        return (self.clues is not None or self.nodes is not None) and self.method in ("top-down", "bottom-up")

    def check(
        self, solutions: Sequence[bytes], rows: Sequence[bytes], deadline: float | None, threads: int
    ) -> list[bool] | None:
        """Whether each row of givens passes the method's test (unique, or solved by singles); None past deadline."""
        if self.logic:
            from .logic import singles_rows

            return None if past(deadline) else singles_rows(self.template, solutions, rows)
        return unique_rows(
            self.template, solutions, rows, backend=self.backend, deadline=deadline, threads=threads,
            trial_seconds=self.trial_seconds,
        )  # fmt: skip


def sudoku_spec(
    *,
    order: int | None = None,
    box: tuple[int, int] | None = None,
    holes: int | None = None,
    backend: str = "backtrack",
    symmetry: str | None = "none",
    minimal: bool | str = True,
    clues: int | tuple[int, int] | None = None,
    method: str = "top-down",
    grids: str | None = None,
    grid_shuffle: bool = False,
    nodes: tuple[int, int] | None = None,
    evals: int = 5,
    difficulty: str | None = None,
    max_attempts: int | None = None,
    **ignored: Any,
) -> SudokuSpec:
    """The validated options of a Sudoku run; CpModelsError with one clear message for a bad one.

    box (default: default_box(order or 9)): sides of at least 2, order at most 64. symmetry: one of
    SYMMETRIES, positions only, so every box shape takes every one. minimal: see MINIMAL; "strict"
    with a symmetry keeps only the orbit-minimal puzzles that are clue-minimal too (rejection).
    clues: K or (lo, hi), minimal puzzles drawn until one has lo..hi clues; 9x9 below 17 is refused.
    holes: stop after that many empty cells (unique, not necessarily minimal); not with clues or "strict".
    method: METHODS; grids: GRID_SOURCES (default search up to order SEARCH_UP_TO); nodes: (lo, hi) mean
    nodes over `evals` relabellings; difficulty: "POLICY:LEVEL"; max_attempts: per puzzle.
    Options for other families (balanced, max_cage) are ignored.
    """
    sides: tuple[int, ...] = tuple(box) if box is not None else default_box(order or 9)
    if len(sides) != 2 or not all(isinstance(side, int) and side >= 2 for side in sides) or prod(sides) > 64:
        shown = "x".join(map(str, sides)) if all(isinstance(side, int) for side in sides) else repr(box)
        raise CpModelsError(f"a Sudoku box needs two sides of at least 2 and an order up to 64, not {shown}")
    n = prod(sides)
    symmetry = check_symmetry(symmetry)
    if minimal not in MINIMAL or isinstance(minimal, int) and not isinstance(minimal, bool):
        raise CpModelsError(f"minimal must be True, False or 'strict', not {minimal!r}")
    method = _check_method(method, minimal)
    target = _clue_range(clues, n)
    if holes is not None and (target is not None or minimal == "strict"):
        raise CpModelsError("holes stops removal early, so it cannot go with clues or minimal='strict'")
    if holes is not None and not 0 <= holes <= n * n:
        raise CpModelsError(f"an order-{n} Sudoku has {n * n} cells; cannot punch {holes} holes")
    source = grids or ("search" if n <= SEARCH_UP_TO else "pattern")
    if source not in GRID_SOURCES:
        raise CpModelsError(f"unknown grid source {grids!r}; choose one of: {', '.join(GRID_SOURCES)}")
    if not isinstance(evals, int) or isinstance(evals, bool) or evals < 1:
        raise CpModelsError(f"evals must be an integer of at least 1, not {evals!r}")
    if max_attempts is not None and (not isinstance(max_attempts, int) or max_attempts < 1):
        raise CpModelsError(f"max_attempts must be an integer of at least 1, not {max_attempts!r}")
    shape = (sides[0], sides[1])
    template = _empty_sudoku(shape)
    return SudokuSpec(
        shape, template, symmetry, orbits(n, symmetry), minimal, target, holes, backend, method, source,
        grid_shuffle, check_range(nodes, "nodes"), evals, check_difficulty(difficulty), max_attempts,
        TRIAL_SECONDS if n >= TRIAL_FROM else None,
    )  # fmt: skip


def _check_method(method: str, minimal: bool | str) -> str:
    """`method` if it is one of METHODS (and not logic with strict minimality); CpModelsError otherwise."""
    if method not in METHODS:
        levels = ", ".join(m for m in METHODS if m.startswith("logic:"))
        raise CpModelsError(
            f"unknown method {method!r}; choose one of: {', '.join(METHODS)} (logic levels so far: {levels})"
        )
    if method.startswith("logic:") and minimal == "strict":
        raise CpModelsError(f"--minimal strict needs uniqueness checks, which --method {method} does not make")
    return method


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


@dataclass
class _Closest:
    """The puzzle closest to the targets so far: its distance, givens and solution."""

    distance: float
    givens: bytes
    solution: bytes


@dataclass
class _Judged:
    """What judging a finished pass found: accepted or not, its distance to the targets, the fields measured."""

    accepted: bool
    distance: float = 0.0
    fields: dict[str, Any] = field(default_factory=dict)


class SudokuJob:
    """One Sudoku made from its own random stream, attempt after attempt until one meets the spec.

    An attempt: a starting point (a complete grid, or for bottom-up and local search a grid's clues to add
    to), an adding phase while not unique (bottom-up, local search), then a removal pass (METHODS).
    The phases are driven from outside (lockstep): trials() gives givens to check, answer() takes whether
    they pass. Its outcome depends on the stream and those answers only, so it is the same however many
    trials are checked at once.
    """

    def __init__(
        self,
        spec: SudokuSpec,
        rng: random.Random,
        progress: Progress | None = None,
        key: tuple[int, int] | None = None,
        tally: Tally | None = None,
    ) -> None:
        self.spec, self.rng, self.progress, self.key, self.tally = spec, rng, progress, key, tally
        self.attempts = 0
        self.undecided = 0
        self.closest: _Closest | None = None
        self.result: Made | SearchTimeoutError | None = None
        self.new_attempt()

    def new_attempt(self) -> None:
        """A new attempt: from a fresh grid, or (targets missed before) a local step from the closest puzzle."""
        spec = self.spec
        if spec.max_attempts is not None and self.attempts >= spec.max_attempts:
            self.result = SearchTimeoutError(f"{self._wanted()}: no puzzle in {spec.max_attempts} attempt(s)")
            return
        self.attempts += 1
        if self.tally is not None:
            self.tally.attempts += 1
        if spec.local and self.closest is not None and self.rng.random() < LOCAL_SHARE:
            self._local_step(self.closest)
            return
        if spec.method == "bottom-up" and not spec.logic:
            self.start_adding(bytes(spec.template.n**2), b"", [])
            return
        grid = complete_grid(spec.box, self.rng, spec.grids, spec.grid_shuffle)
        self.start(grid, grid)

    def _local_step(self, closest: _Closest) -> None:
        """Drop one to three clue orbits of the closest puzzle, then add random orbits of its grid until unique."""
        present = [orbit for orbit in self.spec.orbits if closest.givens[orbit[0]]]
        dropped = self.rng.sample(present, min(len(present), self.rng.randint(1, 3)))
        givens = bytearray(closest.givens)
        for orbit in dropped:
            for i in orbit:
                givens[i] = 0
        self.start_adding(bytes(givens), closest.solution, dropped)

    def start_adding(self, givens: bytes, solution: bytes, last: list[tuple[int, ...]]) -> None:
        """An adding phase from `givens`: empty orbits in random order (those in `last` at the end), until unique.

        With a `solution`, each orbit gets that grid's values; without one (bottom-up from nothing), random
        candidates left by singles (_free_trial), kept when the puzzle still has a solution (drawn again up
        to REDRAWS times, then the orbit is passed over), as tdoku's generator and Berthier's bottom-up add clues.
        """
        self.solution, self.givens = solution, bytearray(givens)
        empty = [orbit for orbit in self.spec.orbits if not givens[orbit[0]] and orbit not in last]
        self.adding: list[tuple[int, ...]] | None = self.rng.sample(empty, len(empty)) + last
        self.added = 0
        self.redraws = 0
        self.order: list[tuple[int, ...]] = []
        self.tried = 0
        self.holes = self.givens.count(0)
        self.pending: list[bytes] = []

    def start(self, givens: bytes, solution: bytes) -> None:
        """A removal pass from `givens` (unique, with `solution`), over the orbits in an order drawn now."""
        orbits_ = self.spec.orbits
        self.solution, self.givens = solution, bytearray(givens)
        self.adding = None
        self.order = [orbits_[k] for k in self.rng.sample(range(len(orbits_)), len(orbits_))]
        self.tried = 0
        self.holes = self.givens.count(0)
        self.pending = []

    def trials(self, most: int = 1) -> list[bytes]:
        """The next `most` trials at most, each as if the ones before it passed; [] when the pass is over.

        Adding: the givens with the next orbit filled (one trial). Removing: trial 1 is the givens without
        the next orbit's clues, trial 2 without the next two orbits' clues, and so on: one batch answers
        several steps of the pass when the first few stay unique. Orbits are disjoint, so which clues each
        removes does not depend on the answers before it.
        """
        if self.result is not None:
            return []
        if self.adding is not None:
            row = bytearray(self.givens)
            if not self.solution:
                return self._free_trial(row)
            for i in self.adding[self.added]:
                row[i] = self.solution[i]
            self.pending = [bytes(row)]
            return self.pending
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

    def _free_trial(self, row: bytearray) -> list[bytes]:
        """The next free-adding trial: the next orbit whose cells singles leave open, each a random candidate.

        As tdoku's generator adds clues: never one that propagation already places or excludes (here the
        propagation is singles: logic.singles_marks). [] if no orbit is left (the attempt then starts again).
        """
        from .logic import singles_marks

        marks = singles_marks(self.spec.template, bytes(row))
        adding = self.adding or []
        while self.added < len(adding):
            orbit = adding[self.added]
            if all(marks[i] and marks[i] & (marks[i] - 1) for i in orbit):
                for i in orbit:
                    values = [v + 1 for v in range(self.spec.template.n) if marks[i] >> v & 1]
                    row[i] = self.rng.choice(values)
                self.pending = [bytes(row)]
                return self.pending
            self.added += 1
        self.new_attempt()
        return self.trials()

    @property
    def counting(self) -> bool:
        """Whether the pending trial asks for a solution count and grid (free bottom-up adding), not a yes or no."""
        return self.adding is not None and not self.solution

    def counted(self, count: int, first: bytes) -> None:
        """The pending free-adding trial has `count` solutions (up to 2), the first being `first`."""
        self.pending, row = [], self.pending[0]
        if count == 0:
            self.redraws += 1
            if self.redraws <= REDRAWS:
                return
        else:
            self.givens = bytearray(row)
        self.added += 1
        self.redraws = 0
        if count == 1:
            self.start(bytes(self.givens), first)
        elif self.added == len(self.adding or ()):
            self.new_attempt()

    def answer(self, passes: Sequence[bool]) -> None:
        """Whether the last trials' givens pass, in order: the pass takes them up to the first that does not."""
        if self.adding is not None:
            self.givens = bytearray(self.pending[0])
            self.added += 1
            if passes[0] or self.added == len(self.adding):
                self.start(bytes(self.givens), self.solution)
            self.pending = []
            return
        for row, unique in zip(self.pending, passes, strict=False):
            if unique:
                self.holes += row.count(0) - self.givens.count(0)
                self.givens = bytearray(row)
            self._step()
            if not unique and self.spec.method == "controlled-bias":
                self.tried = len(self.order)  # the pass stops at the first orbit that cannot go
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

    def fraction(self) -> float:
        """How far the current pass has gone, 0 to 1 (0 while adding)."""
        return self.tried / len(self.order) if self.order else 0.0

    def puzzle(self) -> GridPuzzle:
        """The puzzle of the current givens: valid by construction (a subset of its solution), so not re-validated."""
        return unchecked(self.spec.template, self.givens)

    def made(self, fields: dict[str, Any]) -> Made:
        """The record of the current puzzle, with its solution, clue count, method, attempts and `fields`."""
        seed, index = self.key or (None, None)
        return Made(
            self.puzzle(), tuple(self.solution), seed, index, self.spec.method, self.spec.symmetry,
            self.attempts, fields,
        )  # fmt: skip

    def judge(self, deadline: float | None) -> _Judged | None:
        """At the end of a pass: whether its puzzle meets the spec, how close it came; None if the deadline came."""
        spec = self.spec
        count = len(self.givens) - self.givens.count(0)
        fields: dict[str, Any] = {}
        distance = 0.0
        if spec.clues is not None:
            distance += max(spec.clues[0] - count, count - spec.clues[1], 0)
        if spec.method == "controlled-bias":
            minimal = self._none_removable(spec.orbits, deadline)
            if minimal is None:
                return None
            if not minimal:
                return _Judged(False, distance)
            filled = sum(1 for orbit in spec.orbits if self.givens[orbit[0]])
            fields["weight"] = comb(len(spec.orbits), filled) / comb(len(spec.orbits), len(spec.orbits) // 2)
        if distance:
            return _Judged(False, distance)
        if spec.strict:
            minimal = self._none_removable(tuple((i,) for i in range(len(self.givens))), deadline)
            if minimal is None:
                return None
            if not minimal:
                return _Judged(False, distance)
        if spec.nodes is not None:
            nodes = mean_nodes(spec.template, self.givens, spec.evals, self.rng, spec.box)
            fields["nodes"] = round(nodes, 1)
            lo, hi = spec.nodes
            if not lo <= nodes <= hi:
                return _Judged(False, distance + (lo - nodes if nodes < lo else nodes - hi) / max(hi, 1))
        if spec.difficulty is not None:
            level = difficulty_of(self.puzzle(), spec.difficulty[0])
            fields["grade"] = f"{spec.difficulty[0]}:{level}"
            if str(level).lower() != spec.difficulty[1].lower():
                return _Judged(False, distance + 1)
        return _Judged(True, distance, fields)

    def _none_removable(self, groups: Sequence[tuple[int, ...]], deadline: float | None) -> bool | None:
        """Whether removing any one group's clues leaves several solutions; None past the deadline."""
        rows = []
        for group in groups:
            if any(self.givens[i] for i in group):
                row = bytearray(self.givens)
                for i in group:
                    row[i] = 0
                rows.append(bytes(row))
        spec = self.spec
        unique = unique_rows(spec.template, [self.solution] * len(rows), rows, backend=spec.backend, deadline=deadline)
        return None if unique is None else not any(unique)

    def finish(self, deadline: float | None) -> bool | None:
        """The pass is over: keep its puzzle (True), or start a new attempt (False); None if the deadline came."""
        judged = self.judge(deadline)
        if judged is None:
            return None
        if judged.accepted:
            if self.undecided:
                judged.fields["undecided"] = self.undecided
                warnings.warn(
                    f"{self.undecided} removal(s) not decided within {self.spec.trial_seconds:g} s each: the "
                    "puzzle is unique but may not be minimal",
                    TimeLimitWarning,
                    stacklevel=2,
                )
            self.result = self.made(judged.fields)
            return True
        if self.closest is None or judged.distance < self.closest.distance:
            self.closest = _Closest(judged.distance, bytes(self.givens), self.solution)
        if past(deadline):
            return None
        self.new_attempt()
        return self.result is not None

    def _wanted(self) -> str:
        """What the spec asks beyond a unique puzzle, in words, for messages."""
        spec = self.spec
        wanted = []
        if spec.clues is not None:
            wanted.append(f"{spec.clues[0]}-{spec.clues[1]} clues")
        if spec.strict:
            wanted.append("clue-minimal")
        if spec.nodes is not None:
            wanted.append(f"{spec.nodes[0]}-{spec.nodes[1]} nodes")
        if spec.difficulty is not None:
            wanted.append(":".join(spec.difficulty))
        if spec.method == "controlled-bias":
            wanted.append("controlled-bias minimal")
        return f"no {', '.join(wanted) or 'unique'} Sudoku"


def run_sudoku_jobs(
    spec: SudokuSpec, jobs: Sequence[SudokuJob], deadline: float | None, threads: int = 1
) -> list[Made | SearchTimeoutError]:
    """Drive `jobs` in lockstep until each has a puzzle meeting `spec`; their records (or errors) in order.

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
    progress: Progress | None = None,
) -> Iterator[Made | SearchTimeoutError]:
    """The records (or errors) of `jobs`, in order, driven `window` at a time in lockstep.

    Each step takes one trial from every active job and checks them all at once (one kernel batch on
    the backtracking backend, on `threads` threads); a job that finishes is replaced by the next, so
    the batches stay full while some jobs draw again for a target.

    At `deadline`: an active job asked only for minimality keeps its unique puzzle with a TimeLimitWarning;
    one asked for a target (clue count, strictness, nodes, difficulty, controlled-bias) gets a
    SearchTimeoutError instead of a puzzle; one that removed nothing yet ends the run there (UNSTARTED);
    no job starts after it, unless `late` (each then ends at once, as the active ones do, and is kept).
    `progress(done, -1)` after each step: the puzzles done, with the fraction of
    the oldest unfinished one's pass (so a single large puzzle shows its progress).
    """
    waiting: deque[SudokuJob] = deque()
    active: list[SudokuJob] = []
    done = 0
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
            if made is UNSTARTED:  # the run stops before the first puzzle the deadline left unstarted
                return
            done += 1
            yield made
        if not active:
            return
        if not _step(spec, active, deadline, threads):
            for job in active:
                if job.result is None and not late and job.tried == 0 and not getattr(job, "added", 0):
                    job.result = UNSTARTED  # nothing removed yet: no puzzle to keep
                elif job.result is None:
                    _out_of_time(spec, job)
        active = [job for job in active if job.result is None]
        if progress and waiting:
            progress(done + waiting[0].fraction(), -1)  # type: ignore[arg-type]


UNSTARTED = SearchTimeoutError("the time limit came before this puzzle's first removal")
"""The result of a job the deadline stopped before it removed anything: lockstep ends the run there."""


def _step(spec: SudokuSpec, active: list[SudokuJob], deadline: float | None, threads: int) -> bool:
    """One step of every active job: its next trial checked, or (its pass over) its puzzle judged; False at deadline."""
    trials: list[bytes] = []
    asking: list[tuple[SudokuJob, int]] = []
    counting: list[SudokuJob] = []
    for job in active:
        rows = job.trials()
        while not rows and job.result is None:
            finished = job.finish(deadline)
            if finished is None:
                break
            rows = job.trials()
        if rows and job.counting:
            counting.append(job)
        elif rows:
            asking.append((job, len(trials)))
            trials.extend(rows)
    if not trials and not counting:
        return all(job.result is not None for job in active)
    if counting:
        counts = count_rows(spec, [job.pending[0] for job in counting], deadline, threads)
        if counts is None:
            return False
        for job, (count, first) in zip(counting, counts, strict=True):
            job.counted(count, first)
    if not trials:
        return True
    solutions = [job.solution for job, _ in asking for _ in job.pending]
    answers = spec.check(solutions, trials, deadline, threads)
    if answers is None:
        return False
    undecided = list(UNDECIDED)
    for job, at in asking:
        job.undecided += sum(1 for k in undecided if at <= k < at + len(job.pending))
        job.answer(answers[at : at + len(job.pending)])
    return True


def count_rows(
    spec: SudokuSpec, rows: Sequence[bytes], deadline: float | None, threads: int
) -> list[tuple[int, bytes]] | None:
    """Each row's solutions counted up to 2, with the first found; None if the deadline passes first.

    A solution that is the only one is checked by the solver-free checker. One kernel batch on the
    backtracking backend, one search a row on another.
    """
    if past(deadline):
        return None
    left = None if deadline is None else max(0.001, deadline - time.monotonic())
    if spec.backend == "backtrack":
        import numpy as np

        from ..backends.backtrack import solve_givens

        givens = np.frombuffer(b"".join(rows), np.uint8).reshape(len(rows), -1)
        result = solve_givens(spec.template, givens, limit=2, time_limit=left, jobs=threads)
        if not bool(result.complete[result.counts < 2].all()):
            return None
        found = [(int(c), first.tobytes()) for c, first in zip(result.counts.tolist(), result.firsts, strict=True)]
    else:
        found = []
        for row in rows:
            one = solve(unchecked(spec.template, row), backend=spec.backend, limit=2, keep=1, time_limit=left)
            if one.status == "timeout":
                return None
            found.append((min(one.count or 0, 2), bytes(one.solutions[0]) if one.solutions else b""))
    for row, (count, first) in zip(rows, found, strict=True):
        problem = explain_violation(unchecked(spec.template, row), tuple(first)) if count == 1 else None
        if problem:
            raise RuntimeError(f"backend {spec.backend!r} gave a wrong solution: {problem}")
    return found


def raised(made: Made | SearchTimeoutError) -> GridPuzzle:
    """The puzzle made, or raise the error that stopped it."""
    if isinstance(made, SearchTimeoutError):
        raise made
    return made.puzzle


def _out_of_time(spec: SudokuSpec, job: SudokuJob) -> None:
    """The deadline came during `job`: keep its unique puzzle with a warning, or an error if the spec asks more."""
    targeted = spec.strict or spec.method == "controlled-bias" or spec.difficulty is not None
    if spec.clues is not None or spec.nodes is not None or targeted:
        job.result = SearchTimeoutError(
            f"{job._wanted()} within the time limit ({job.attempts} attempt(s), {job.untried()} orbit(s) "
            "of the last one untried)"
        )
        return
    job.pending = []
    if job.adding is not None and not job.solution:
        job.result = SearchTimeoutError("time limit reached before the clues added made a unique puzzle")
        return
    if job.adding is not None:  # still adding: every orbit of the grid back, unique
        job.start(job.solution, job.solution)
    warnings.warn(
        f"time limit reached with {job.untried()} of {len(job.order)} cells untried: the puzzle is unique "
        f"but may not be minimal ({job.givens.count(0)} holes)",
        TimeLimitWarning,
        stacklevel=3,
    )
    job.result = job.made({})


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
    job.key, job.tally, job.closest, job.undecided = None, None, None, 0
    job.start(bytes(puzzle.givens), bytes(found.solutions[0]))
    return raised(run_sudoku_jobs(spec, [job], deadline)[0])
