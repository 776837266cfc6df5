"""Exact cover with dancing links (Knuth's Algorithm X): exact-cover problems, and a grid puzzle compiled to one.

Exact cover as a problem family of its own (formats/dlx.py holds the problem type, ExactCoverProblem,
and Knuth's DLX1-DLX3 files): `solve_cover` (first solutions), `count_cover` (a count that keeps only
its witnesses), `iter_cover` (solutions as they come). Each takes the problem or its numeric form
`ExactCover`, a solution limit, a time limit, a node or update limit, and Knuth's branching rule or the
grid backend's (dlx_kernel.py's docstring says how they differ). Statistics are Knuth's: `nodes`,
`updates`, `cleansings` (dlx_kernel.py), so a DLX1 file gives DLX1's node and update counts.

The compilation of a grid puzzle (no family is assumed):

- items: one primary item per empty cell ("the cell holds a value"), one per (unit, value) for every
  unit of exactly n cells ("the unit holds the value"); units of fewer than n cells give secondary
  items (the value at most once);
- options: for each empty cell outside every cage and each value, the cell's item and the (unit,
  value) items of its units; for each cage, one option per tuple of `cages.allowed_tuples` that agrees
  with the givens, covering its cells' items and their (unit, value) items. So every cage, `/`
  included, is exact, and a tuple that repeats a value inside a box is no option at all.
- givens are pre-covered: their cells and (unit, value) items are left out, and so is every option
  that would cover one of those. In a DLX file a given is instead an option forced in advance: the
  given cell's only option, so that the file stands alone.

Knuth's DLX files (reading them, writing a puzzle's exact cover, item names) are in formats/dlx.py; his
SUDOKU-DLX and SUDOKU (for DANCE) exports are in formats/knuth.py.

The search (dlx_kernel.py) is Knuth's, run in chunks of a work budget with the clock read between
chunks, so that the time limit is honoured; solutions past the ones kept are only counted.

stats: "nodes" (search nodes, Knuth's count), "build_s", "search_s" (base.STAT_NAMES), and the
backend's own: "updates" (Knuth's count), "items" and "options" (the size of the exact cover).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain, islice
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .. import cages as cage_rules
from ..errors import BackendUnavailableError, CpModelsError
from ..grid import Cage, GridPuzzle, cells_named
from .base import (
    KEEP_ALL,
    MAX_COUNT,
    WITNESSES,
    Capabilities,
    SolveResult,
    SolveTimer,
    capability_problem,
    kept,
    search_limit,
    unreachable_cage,
)

if TYPE_CHECKING:
    from ..cover import ExactCoverProblem

MAX_CAGE_OPTIONS = 200_000
"""A cage allowing more value tuples than this is refused (can_solve says so)."""
MAX_OPTIONS = 5_000_000
"""A puzzle whose exact cover would have more options than this is refused."""
BUFFER_CELLS = 1 << 22
"""Solutions are handed out of the kernel in buffers of at most this many int32 (moves of 4 fields)."""
ITERATOR_ROWS = 256
"""iter_cover hands solutions out of the kernel at most this many at a time."""
FIRST_CHUNK = 50_000
"""The work budget (nodes + updates) of the first kernel call of a timed search, before it has a rate."""
CHUNK_SECONDS = 0.02
"""A search aims at kernel calls this long (timed or not), so that it overshoots its time limit by about this
much and a signal handler (Ctrl-C) runs between two calls."""
RULES = {"knuth": 0, "stop-at-1": 1}
"""Branching rules: Knuth's exact minimum-remaining-values scan (his node counts), or the same scan stopped
at the first item with one option (fewer items scanned; other ties, so other node counts)."""
GRID_RULE = "stop-at-1"
"""The rule the grid backend searches with (benchmarks/RESULTS.md, "Exact cover", compares the two)."""
_NO_COLOURS = np.zeros(0, np.int32)
_NO_BOUNDS = np.zeros(0, np.int64)


# ---- the exact-cover problem in numbers ------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ExactCover:
    """Items 0..n_primary-1 primary, the rest secondary; options as CSR rows of items (option_start, option_items).

    colours: a colour number per entry of option_items (0: none; only on secondary items), or None;
    lower, upper: each primary item's bounds (DLX3: covered at least lower, at most upper times), or None
    for exactly once each.
    """

    n_primary: int
    n_secondary: int
    option_start: np.ndarray
    option_items: np.ndarray
    colours: np.ndarray | None = None
    lower: np.ndarray | None = None
    upper: np.ndarray | None = None

    def __post_init__(self) -> None:
        sizes = np.diff(self.option_start)
        if len(self.option_items) and not (0 <= self.option_items.min() and self.option_items.max() < self.n_items):
            raise CpModelsError(f"an option names an item outside 0..{self.n_items - 1}")
        if (sizes < 1).any():
            raise CpModelsError(f"option {int(np.argmin(sizes))} covers no item")
        if self.colours is not None and (
            len(self.colours) != len(self.option_items)
            or (self.colours < 0).any()
            or (self.colours[self.option_items < self.n_primary] != 0).any()
        ):
            raise CpModelsError("colours: one number >= 0 per entry, and 0 on every primary item")
        if (self.lower is None) != (self.upper is None) or (
            self.upper is not None
            and self.lower is not None
            and (
                len(self.upper) != self.n_primary
                or len(self.lower) != self.n_primary
                or (self.lower < 0).any()
                or (self.upper < np.maximum(self.lower, 1)).any()
            )
        ):
            raise CpModelsError("bounds: lower and upper for every primary item, 0 <= lower <= upper, upper >= 1")

    @property
    def n_items(self) -> int:
        """The number of items, primary and secondary."""
        return self.n_primary + self.n_secondary

    @property
    def n_options(self) -> int:
        """The number of options."""
        return len(self.option_start) - 1

    @property
    def is_bounded(self) -> bool:
        """Whether some primary item may be covered other than exactly once (DLX3)."""
        return self.upper is not None and bool(((self.lower != 1) | (self.upper != 1)).any())

    @property
    def is_coloured(self) -> bool:
        """Whether some option gives a secondary item a colour (DLX2)."""
        return self.colours is not None and bool(self.colours.any())

    def option(self, k: int) -> list[int]:
        """The items of option k, 0-based."""
        return self.option_items[self.option_start[k] : self.option_start[k + 1]].tolist()


def exact_cover(
    n_primary: int,
    n_secondary: int,
    options: Sequence[Sequence[int]],
    colours: Sequence[Sequence[int]] | None = None,
    bounds: Sequence[tuple[int, int]] | None = None,
) -> ExactCover:
    """The ExactCover of options given as lists of 0-based items (colours: a list of numbers per option)."""
    start = np.zeros(len(options) + 1, np.int64)
    start[1:] = np.cumsum([len(o) for o in options])
    items = np.fromiter(chain.from_iterable(options), np.int32, int(start[-1]))
    for k, o in enumerate(options):
        if len(set(o)) != len(o):
            raise CpModelsError(f"option {k} names an item twice: {list(o)}")
    numbers = None if colours is None else np.fromiter(chain.from_iterable(colours), np.int32, int(start[-1]))
    lower = upper = None
    if bounds is not None:
        lower = np.array([b[0] for b in bounds], np.int64).reshape(len(bounds))
        upper = np.array([b[1] for b in bounds], np.int64).reshape(len(bounds))
    return ExactCover(n_primary, n_secondary, start, items, numbers, lower, upper)


def cover_of(problem: ExactCoverProblem | ExactCover) -> ExactCover:
    """The numeric ExactCover of a named problem (items numbered in order, colours by first appearance)."""
    if isinstance(problem, ExactCover):
        return problem
    colours = None
    if problem.colours:
        number: dict[str, int] = {"": 0}
        colours = [[number.setdefault(c, len(number)) for c in row] for row in problem.colours]
    return exact_cover(
        problem.n_primary, len(problem.items) - problem.n_primary, problem.options, colours, problem.bounds or None
    )


class Move(NamedTuple):
    """One level of a solution, as Knuth's programs print it: `option's items (position of degree)`."""

    option: int
    """The option chosen, 0-based; -1 for DLX3's null move (the item gets no more options)."""
    item: int
    """The item branched on, 0-based."""
    position: int
    """k of `(k of n)`: the option's place among the options the item had when it was branched on."""
    degree: int
    """n of `(k of n)`: the branching degree (DLX1: how many options the item had)."""


class CoverSolution(NamedTuple):
    """A solution: its options in the order chosen (null moves left out), and each level's move."""

    options: tuple[int, ...]
    moves: tuple[Move, ...]


@dataclass
class CoverResult:
    """The outcome of an exact-cover search: the solutions kept, the count, and Knuth's counters.

    solutions: each a tuple of 0-based options in the order the search chose them (level by level; sort
    it for a canonical form); the first `keep` found. count: every solution found, exact when
    `complete`. stopped: why an incomplete search stopped: "limit" (the solutions asked for were found),
    "time", "nodes" or "updates" (a limit), None when complete. moves: with trace=True, each kept
    solution's moves (Move), for Knuth's `(k of n)`.
    """

    solutions: list[tuple[int, ...]]
    count: int
    complete: bool
    nodes: int
    updates: int
    wall_s: float
    cleansings: int = 0
    stopped: str | None = None
    moves: list[tuple[Move, ...]] = field(default_factory=list)
    stats: dict[str, float] = field(default_factory=dict)


# ---- the search driver ---------------------------------------------------------------------


def _kernel() -> ModuleType:
    """The numba kernels, imported on first use so that `import cpmodels` does not pay for importing numba."""
    from . import dlx_kernel

    return dlx_kernel


@dataclass
class _Outcome:
    """How a run of the kernel ended: finished (the whole space seen), solutions found, counters, why it stopped."""

    finished: bool
    found: int
    nodes: int
    updates: int
    cleansings: int
    stopped: str | None


def _depth(cover: ExactCover) -> int:
    """The most levels a search can reach: one per primary item (DLX3: per option allowed, and a null move each)."""
    if not cover.is_bounded or cover.upper is None:
        return cover.n_primary + 1
    return int(min(int(cover.upper.sum()), cover.n_options)) + cover.n_primary + 1


def _run(
    cover: ExactCover,
    limit: int,
    keep: int,
    deadline: float | None,
    node_limit: int | None = None,
    update_limit: int | None = None,
    rule: str = "knuth",
    rows: int | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> Generator[tuple[np.ndarray, np.ndarray], None, _Outcome]:
    """Algorithm X up to `limit` solutions, `deadline` or a node/update limit, yielding the first `keep` in blocks.

    Each block is (moves: solutions x levels x 4 fields, sizes: levels per solution), valid until the
    next one is asked for. The kernel runs in calls of about CHUNK_SECONDS of work, so that the clock is
    read, a signal handler can run and `progress(solutions, nodes)` is told between calls; solutions past
    `keep` are only counted.
    """
    kernel = _kernel()
    if rule not in RULES:
        raise CpModelsError(f"unknown branching rule {rule!r}; choose one of: {', '.join(RULES)}")
    limit, keep = search_limit(limit), min(keep, search_limit(limit))
    colours = _NO_COLOURS if cover.colours is None else cover.colours
    lower, upper = (
        (_NO_BOUNDS, _NO_BOUNDS) if cover.lower is None or cover.upper is None else (cover.lower, cover.upper)
    )
    links = kernel.build_links(
        cover.n_primary, cover.n_items, cover.option_start, cover.option_items, colours, lower, upper
    )
    depth = _depth(cover)
    levels = np.zeros((5, depth), np.int32)
    state = np.zeros(kernel.STATE_SIZE, np.int64)
    size = max(1, min(keep, rows or BUFFER_CELLS // (kernel.MOVE_FIELDS * depth)))
    buffer = np.empty((size, depth, kernel.MOVE_FIELDS), np.int32)
    sizes = np.empty(size, np.int32)
    caps = [MAX_COUNT if x is None else search_limit(x) for x in (node_limit, update_limit)]
    bounded, coloured = cover.is_bounded, cover.is_coloured
    flags: tuple[int, ...] = (RULES[rule],)
    if bounded or coloured:  # DLX2, DLX3
        search, arrays, flags = kernel.search_general, links, (int(bounded), int(coloured), *flags)
    else:  # DLX1: llink, rlink, length, ulink, dlink, top, option_of
        search, arrays = kernel.search, links[:3] + links[5:8] + links[9:]
    general = (cover.n_primary,) if bounded or coloured else ()
    found, stored, budget = 0, 0, FIRST_CHUNK
    while True:
        began = time.perf_counter()
        work = int(state[kernel.NODES] + state[kernel.UPDATES])
        k, w, finished = search(
            *arrays, levels, state, buffer, sizes, *general, limit - found, keep - stored, budget, *caps, *flags
        )
        if w:
            yield buffer[:w], sizes[:w]
            stored += w
        found += k
        now = time.perf_counter()
        counters = int(state[kernel.NODES]), int(state[kernel.UPDATES]), int(state[kernel.CLEANSINGS])
        stopped = None if finished else _stopped(found >= limit, deadline, now, counters, caps)
        if finished or stopped:
            return _Outcome(bool(finished), found, *counters, stopped)
        if progress is not None:
            progress(found, counters[0])
        left = None if deadline is None else deadline - now
        budget = _next_budget(counters[0] + counters[1] - work, now - began, left)


def _stopped(
    enough: bool, deadline: float | None, now: float, counters: tuple[int, int, int], caps: list[int]
) -> str | None:
    """Why a search that has not finished stops now ("limit", "time", "nodes", "updates"), or None to go on."""
    if enough:
        return "limit"
    if counters[0] >= caps[0]:
        return "nodes"
    if counters[1] >= caps[1]:
        return "updates"
    if deadline is not None and now >= deadline:
        return "time"
    return None


def _next_budget(work: int, seconds: float, left: float | None) -> int:
    """The work budget of the next kernel call: about CHUNK_SECONDS at the rate just seen, never past the deadline."""
    rate = work / max(seconds, 1e-6)
    return max(1_000, int(rate * (CHUNK_SECONDS if left is None else min(CHUNK_SECONDS, left))))


def _search(
    cover: ExactCover, limit: int, keep: int, deadline: float | None, take: Callable[[np.ndarray, np.ndarray], object]
) -> tuple[bool, int, int, int]:
    """The grid backend's search: DLX1 with GRID_RULE, `take(moves, sizes)` getting the first `keep` solutions.

    Returns (complete, solutions found, nodes, updates). _run's loop written out for DLX1 alone: a grid
    puzzle's cover has neither colours nor bounds, and a solve spends less here (about 30 us a Sudoku).
    """
    kernel = _kernel()
    limit, keep = search_limit(limit), min(keep, search_limit(limit))
    if cover.n_secondary:  # units of fewer cells than the order: secondary items, which build_links1 does not know
        links = kernel.build_links(
            cover.n_primary, cover.n_items, cover.option_start, cover.option_items, _NO_COLOURS, _NO_BOUNDS, _NO_BOUNDS
        )
        links = links[:3] + links[5:8] + links[9:]
    else:
        links = kernel.build_links1(cover.n_items, cover.option_start, cover.option_items)
    depth = cover.n_primary + 1
    levels = np.zeros((5, depth), np.int32)
    state = np.zeros(kernel.STATE_SIZE, np.int64)
    buffer = np.empty(
        (max(1, min(keep, BUFFER_CELLS // (kernel.MOVE_FIELDS * depth))), depth, kernel.MOVE_FIELDS), np.int32
    )
    sizes = np.empty(len(buffer), np.int32)
    rule = RULES[GRID_RULE]
    found, stored, budget = 0, 0, FIRST_CHUNK
    while True:
        began = time.perf_counter()
        work = int(state[kernel.NODES] + state[kernel.UPDATES])
        k, w, finished = kernel.search(
            *links, levels, state, buffer, sizes, limit - found, keep - stored, budget, MAX_COUNT, MAX_COUNT, rule
        )
        if w:
            take(buffer[:w], sizes[:w])
            stored += w
        found += k
        now = time.perf_counter()
        nodes, updates = int(state[kernel.NODES]), int(state[kernel.UPDATES])
        if finished or found >= limit or (deadline is not None and now >= deadline):
            return bool(finished), found, nodes, updates
        left = None if deadline is None else deadline - now
        budget = _next_budget(nodes + updates - work, now - began, left)


def _default_keep(limit: int, keep: int | None) -> int:
    """What a cover search keeps: `keep`, else every solution up to KEEP_ALL asked for, else WITNESSES (as solve)."""
    if keep is not None:
        return kept(limit, keep)
    return kept(limit, None) if limit <= KEEP_ALL else WITNESSES


def _solutions(moves: np.ndarray, sizes: np.ndarray) -> list[tuple[int, ...]]:
    """The options of each solution in a block, in the order chosen (null moves, -1, left out)."""
    rows = moves[:, :, 0].tolist()
    return [tuple(o for o in row[:size] if o >= 0) for row, size in zip(rows, sizes.tolist(), strict=True)]


def _moves(moves: np.ndarray, sizes: np.ndarray) -> list[tuple[Move, ...]]:
    """The moves of each solution in a block."""
    return [tuple(Move(*m) for m in row[:size]) for row, size in zip(moves.tolist(), sizes.tolist(), strict=True)]


def solve_cover(
    problem: ExactCoverProblem | ExactCover,
    *,
    limit: int = 1,
    time_limit: float | None = None,
    node_limit: int | None = None,
    update_limit: int | None = None,
    keep: int | None = None,
    rule: str = "knuth",
    trace: bool = False,
    progress: Callable[[int, int], object] | None = None,
) -> CoverResult:
    """Up to `limit` exact covers of `problem`, the first `keep` kept, and Knuth's counters.

    An exact cover is a set of options covering each primary item once (DLX3: within its bounds) and each
    secondary item at most once or (DLX2) always in the same colour.

    The first `keep` are returned (default: all when limit <= KEEP_ALL, else WITNESSES); `count` counts
    every one found. The search stops at `time_limit` seconds, `node_limit` nodes or `update_limit` updates.
    `progress(solutions, nodes)` is called about every CHUNK_SECONDS while it runs.
    """
    timer = SolveTimer()
    cover = cover_of(problem)
    timer.built()
    solutions: list[tuple[int, ...]] = []
    moves: list[tuple[Move, ...]] = []
    run = _run(
        cover, limit, _default_keep(limit, keep), timer.deadline(time_limit), node_limit, update_limit, rule,
        progress=progress,
    )  # fmt: skip
    while True:
        try:
            block, sizes = next(run)
        except StopIteration as end:
            outcome: _Outcome = end.value
            break
        solutions.extend(_solutions(block, sizes))
        if trace:
            moves.extend(_moves(block, sizes))
    return _result(timer, cover, outcome, solutions, moves)


def _result(
    timer: SolveTimer,
    cover: ExactCover,
    outcome: _Outcome,
    solutions: list[tuple[int, ...]],
    moves: list[tuple[Move, ...]],
) -> CoverResult:
    """The CoverResult of a finished run, with its statistics."""
    now = time.perf_counter()
    built = timer.built_at if timer.built_at is not None else now
    stats: dict[str, float] = {
        "nodes": outcome.nodes,
        "updates": outcome.updates,
        "cleansings": outcome.cleansings,
        "build_s": built - timer.start,
        "search_s": now - built,
        "items": cover.n_items,
        "options": cover.n_options,
    }
    return CoverResult(
        solutions, outcome.found, outcome.finished, outcome.nodes, outcome.updates, now - timer.start,
        outcome.cleansings, outcome.stopped, moves, stats,
    )  # fmt: skip


def count_cover(
    problem: ExactCoverProblem | ExactCover,
    limit: int | None = None,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    update_limit: int | None = None,
    keep: int = WITNESSES,
    rule: str = "knuth",
) -> CoverResult:
    """The number of exact covers (up to `limit`, None: all), keeping only the first `keep` as witnesses."""
    return solve_cover(
        problem, limit=search_limit(2**62 if limit is None else limit), time_limit=time_limit,
        node_limit=node_limit, update_limit=update_limit, keep=keep, rule=rule,
    )  # fmt: skip


def iter_cover(
    problem: ExactCoverProblem | ExactCover,
    *,
    limit: int | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    update_limit: int | None = None,
    rule: str = "knuth",
) -> Iterator[CoverSolution]:
    """The exact covers one by one as the search finds them (options and moves), up to `limit` (None: all)."""
    timer = SolveTimer()
    limit = search_limit(2**62 if limit is None else limit)
    run = _run(
        cover_of(problem), limit, limit, timer.deadline(time_limit), node_limit, update_limit, rule, ITERATOR_ROWS
    )
    for block, sizes in run:
        for options, moves in zip(_solutions(block, sizes), _moves(block, sizes), strict=True):
            yield CoverSolution(options, moves)


def solve_exact_cover(
    cover: ExactCover, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
) -> CoverResult:
    """Up to `limit` exact covers of `cover` (solve_cover with Knuth's rule); the first `keep` (None: all) returned."""
    return solve_cover(cover, limit=limit, time_limit=time_limit, keep=kept(limit, keep))


def warm_up() -> float:
    """Compile (or load from numba's cache) every kernel on small problems; returns the seconds it took."""
    start = time.perf_counter()
    options = [[2, 4], [0, 3, 6], [1, 2, 5], [0, 3, 5], [1, 6], [3, 4, 6]]
    solve_exact_cover(exact_cover(7, 0, options), limit=2, time_limit=10.0)
    solve_cover(exact_cover(2, 1, [[0, 2], [1, 2], [0], [1]], [[0, 1], [0, 1], [0], [0]], [(0, 2), (1, 1)]), limit=5)
    compiled = compile_puzzle(GridPuzzle(1, ((0,),), (0,)))
    _search(compiled.cover, 1, 1, None, lambda block, sizes: _grids(compiled, block, sizes))
    return time.perf_counter() - start


# ---- compiling a grid puzzle ---------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CompiledPuzzle:
    """A grid puzzle as an exact cover: option k fills cells[cell_start[k]:cell_start[k+1]] with the matching values."""

    cover: ExactCover
    cell_start: np.ndarray
    cells: np.ndarray
    values: np.ndarray
    givens: np.ndarray
    cell_item: np.ndarray
    unit_item: np.ndarray
    infeasible: bool


@dataclass(frozen=True)
class _Block:
    """Options of one width: items (options x width), and the cells and values each fills (options x cells)."""

    items: np.ndarray
    cells: np.ndarray
    values: np.ndarray


def compile_puzzle(puzzle: GridPuzzle, precover: bool = True) -> CompiledPuzzle:
    """The exact cover of `puzzle`, givens pre-covered (precover) or as the only option of their cell."""
    n, givens = puzzle.n, np.array(puzzle.givens, np.int32)
    structure = _structure(n, puzzle.units)
    blocked = _blocked(structure, givens, n) if precover else np.zeros((len(puzzle.units), n + 1), bool)
    cell_item, unit_item, n_primary, n_items = _number_items(structure, givens, blocked, precover)
    free = (givens == 0) | (not precover)
    for cage in puzzle.cages:
        free[[r * n + c for r, c in cage.cells]] = False
    hints = _hint_table(puzzle)
    blocks = _free_blocks(structure, free, cell_item, unit_item, givens, n, hints)
    infeasible = False
    for cage in puzzle.cages:
        block = _cage_block(n, cage, structure.cell_units, cell_item, unit_item, givens, precover, hints)
        infeasible |= block is None
        if block is not None and block.items.size:
            blocks.append(block)
    option_start, option_items = _csr([b.items for b in blocks])
    cell_start, cells = _csr([b.cells for b in blocks])
    values = np.concatenate([b.values.ravel() for b in blocks] or [np.zeros(0, np.int32)]).astype(np.int32)
    cover = ExactCover(n_primary, n_items - n_primary, option_start, option_items)
    return CompiledPuzzle(cover, cell_start, cells, values, givens, cell_item, unit_item, infeasible)


def _hint_table(puzzle: GridPuzzle) -> np.ndarray | None:
    """allowed[cell, value - 1]: the candidate hints of `puzzle` as a table (cells x n); None without hints."""
    if not puzzle.domains:
        return None
    masks = np.array(puzzle.domains, np.uint64)[:, None]
    return (masks >> np.arange(puzzle.n, dtype=np.uint64)[None, :]) & np.uint64(1) == 1


@dataclass(frozen=True, eq=False)
class _Structure:
    """What the units alone decide: each cell's units, unit cells (padded with n*n), full units, cells by degree."""

    cell_units: list[list[int]]
    unit_cells: np.ndarray
    full: np.ndarray
    by_degree: list[tuple[np.ndarray, np.ndarray]]


@lru_cache(maxsize=16)
def _structure(n: int, units: tuple[tuple[int, ...], ...]) -> _Structure:
    """The _Structure of an order-n grid with these units, remembered: most puzzles share a few unit sets."""
    cell_units: list[list[int]] = [[] for _ in range(n * n)]
    unit_cells = np.full((len(units), n), n * n, np.int64)
    for k, unit in enumerate(units):
        unit_cells[k, : len(unit)] = unit
        for i in unit:
            cell_units[i].append(k)
    full = np.array([len(u) == n for u in units], bool).reshape(len(units))
    degree = np.array([len(u) for u in cell_units], np.int64)
    by_degree = []
    for d in np.unique(degree):
        cells = np.flatnonzero(degree == d)
        by_degree.append((cells, np.array([cell_units[i] for i in cells], np.int64).reshape(len(cells), d)))
    return _Structure(cell_units, unit_cells, full, by_degree)


def _blocked(structure: _Structure, givens: np.ndarray, n: int) -> np.ndarray:
    """blocked[unit, value]: a given already puts `value` in `unit` (column 0, the empty value, stays False)."""
    values = np.append(givens, 0)[structure.unit_cells]
    blocked = np.zeros((len(values), n + 1), bool)
    blocked[np.arange(len(values))[:, None], values] = True
    blocked[:, 0] = False
    return blocked


def _number_items(
    structure: _Structure, givens: np.ndarray, blocked: np.ndarray, precover: bool
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Item numbers cell_item[cell] and unit_item[unit, value] (-1: pre-covered), primaries first; and the counts."""
    open_cells = (givens == 0) | (not precover)
    cell_item = np.where(open_cells, np.cumsum(open_cells) - 1, -1).astype(np.int32)
    next_item = int(open_cells.sum())
    unit_item = np.full(blocked.shape, -1, np.int32)
    counts = []
    for part in (structure.full, ~structure.full):
        rows = np.flatnonzero(part)
        wanted = ~blocked[rows, 1:]
        numbers = next_item + np.cumsum(wanted).reshape(wanted.shape) - 1
        unit_item[rows, 1:] = np.where(wanted, numbers, -1)
        next_item += int(wanted.sum())
        counts.append(next_item)
    return cell_item, unit_item, counts[0], counts[1]


def _free_blocks(
    structure: _Structure,
    free: np.ndarray,
    cell_item: np.ndarray,
    unit_item: np.ndarray,
    givens: np.ndarray,
    n: int,
    hints: np.ndarray | None = None,
) -> list[_Block]:
    """The options of the `free` cells (outside cages), one per cell and value its hints allow, a block per degree."""
    blocks = []
    values = np.arange(1, n + 1, dtype=np.int32)
    for all_cells, all_units in structure.by_degree:
        cells, units = all_cells[free[all_cells]], all_units[free[all_cells]]
        items = np.empty((len(cells), n, units.shape[1] + 1), np.int32)
        items[:, :, 0] = cell_item[cells][:, None]
        items[:, :, 1:] = unit_item[units[:, None, :], values[None, :, None]]
        g = givens[cells][:, None]
        allowed = (items >= 0).all(axis=2) & ((g == 0) | (g == values[None, :]))
        if hints is not None:  # candidate hints: the rows of other values are dropped
            allowed &= hints[cells]
        which, value_index = np.nonzero(allowed)
        blocks.append(_Block(items[allowed], cells[which][:, None].astype(np.int32), values[value_index][:, None]))
    return blocks


def _cage_block(
    n: int,
    cage: Cage,
    cell_units: list[list[int]],
    cell_item: np.ndarray,
    unit_item: np.ndarray,
    givens: np.ndarray,
    precover: bool,
    hints: np.ndarray | None = None,
) -> _Block | None:
    """One option per allowed tuple of `cage` agreeing with givens and hints; None if a full cage breaks its rule."""
    cells = [r * n + c for r, c in cage.cells]
    tuples = _tuples_for(cage.cells, cage.op, cage.target, n)
    if tuples is None:
        raise BackendUnavailableError(_too_many(cage))
    if hints is not None:
        tuples = tuples[hints[cells, tuples - 1].all(axis=1)]
    g = givens[cells]
    if g.any():
        tuples = tuples[((g == 0) | (tuples == g)).all(axis=1)]
    open_at = [j for j, v in enumerate(g.tolist()) if v == 0 or not precover]
    if not open_at:
        return None if not len(tuples) else _Block(*(np.zeros((0, 0), np.int32),) * 3)
    # Few numpy calls per cage (each costs microseconds): the cells' own items, then all (unit, value) items at once.
    at = [j for j in open_at for _ in cell_units[cells[j]]]
    units = [k for j in open_at for k in cell_units[cells[j]]]
    items = np.empty((len(tuples), len(open_at) + len(units)), np.int32)
    items[:, : len(open_at)] = cell_item[[cells[j] for j in open_at]]
    items[:, len(open_at) :] = unit_item[units, tuples[:, at]]
    ordered = np.sort(items, axis=1)
    keep = (items >= 0).all(axis=1) & (ordered[:, 1:] != ordered[:, :-1]).all(axis=1)
    kept = tuples[keep][:, open_at]
    return _Block(items[keep], np.broadcast_to(np.array([cells[j] for j in open_at], np.int32), kept.shape), kept)


@lru_cache(maxsize=4096)
def _tuples_for(cells: tuple[tuple[int, int], ...], op: str | None, target: int, n: int) -> np.ndarray | None:
    """cages.allowed_tuples as an array (tuples x cells), remembered per clash pattern; None above MAX_CAGE_OPTIONS."""
    pattern = _clash_pattern(cells)
    if pattern != cells:
        return _tuples_for(pattern, op, target, n)
    found = list(islice(cage_rules.iter_allowed_tuples(cells, op, target, n), MAX_CAGE_OPTIONS + 1))
    if len(found) > MAX_CAGE_OPTIONS:
        return None
    return np.array(found, np.int32).reshape(len(found), len(cells))


def _clash_pattern(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The cells relabelled by first appearance of their row and column: equal patterns allow equal tuples."""
    rows: dict[int, int] = {}
    cols: dict[int, int] = {}
    return tuple((rows.setdefault(r, len(rows)), cols.setdefault(c, len(cols))) for r, c in cells)


def _too_many(cage: Cage) -> str:
    """Why a cage is refused: it allows more than MAX_CAGE_OPTIONS value tuples."""
    return f"cage {cells_named(cage.cells)} ({cage.label()}) allows more than {MAX_CAGE_OPTIONS} value tuples"


def _csr(arrays: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The rows of every 2-D array in `arrays`, in order, as (start offsets, flat int32 entries)."""
    widths = [np.full(len(a), a.shape[1], np.int64) for a in arrays]
    start = np.zeros(sum(len(w) for w in widths) + 1, np.int64)
    if widths:
        np.cumsum(np.concatenate(widths), out=start[1:])
    flat = np.concatenate([a.ravel() for a in arrays] or [np.zeros(0, np.int32)]).astype(np.int32)
    return start, flat


def _grids(compiled: CompiledPuzzle, block: np.ndarray, sizes: np.ndarray) -> list[tuple[int, ...]]:
    """The row-major grids of the solutions in `block` (moves of each level, `sizes` levels each)."""
    kernel = _kernel()
    grids = kernel.decode(
        block, sizes, len(block), compiled.cell_start, compiled.cells, compiled.values, compiled.givens
    )
    return list(map(tuple, grids.tolist()))


# ---- the backend ---------------------------------------------------------------------------


class DlxBackend:
    """Exact cover by dancing links: every grid puzzle with its cages, counting exactly up to any limit."""

    name = "dlx"
    capabilities = Capabilities(cages=True, max_order=64, counting=True, time_limit=True)

    def can_solve(self, puzzle: GridPuzzle) -> str | None:
        """None if the exact cover of `puzzle` is within bounds, else why not (order, cage tuples, options, units)."""
        problem = capability_problem(self.capabilities, puzzle)
        if problem or unreachable_cage(puzzle):  # an unreachable target is answered "none" without a cover
            return problem
        n = puzzle.n
        options = n * (n * n - sum(len(c.cells) for c in puzzle.cages))
        for cage in puzzle.cages:
            tuples = _tuples_for(cage.cells, cage.op, cage.target, n)
            if tuples is None:
                return _too_many(cage)
            options += len(tuples)
        if options > MAX_OPTIONS:
            return f"its exact cover would have about {options} options, above {MAX_OPTIONS}"
        return _unitless_clash(puzzle)

    def solve(
        self, puzzle: GridPuzzle, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> SolveResult:
        """Up to `limit` solutions of `puzzle` by Algorithm X (the first `keep` kept), stopping at `time_limit` s."""
        timer = SolveTimer()
        if unreachable_cage(puzzle):
            return timer.finish(self.name, [], limit, True, {"nodes": 0, "updates": 0})
        compiled = compile_puzzle(puzzle)
        timer.built()
        cover = compiled.cover
        stats = {"nodes": 0, "updates": 0, "items": cover.n_items, "options": cover.n_options}
        if compiled.infeasible:
            return timer.finish(self.name, [], limit, True, stats)
        solutions: list[tuple[int, ...]] = []
        take = lambda b, sizes: solutions.extend(_grids(compiled, b, sizes))  # noqa: E731
        complete, found, nodes, updates = _search(cover, limit, kept(limit, keep), timer.deadline(time_limit), take)
        stats |= {"nodes": nodes, "updates": updates}
        return timer.finish(self.name, solutions, limit, complete, stats, found)

    def warm_up(self) -> float:
        """Compile the kernels (or load them from numba's cache); returns the seconds it took."""
        return warm_up()


def _unitless_clash(puzzle: GridPuzzle) -> str | None:
    """Why not, if two cells of a cage share a row or column that no unit holds (cage tuples assume it is a unit)."""
    n = puzzle.n
    owners = [set(units) for units in _structure(n, puzzle.units).cell_units]
    for cage in puzzle.cages:
        for a, (r1, c1) in enumerate(cage.cells):
            for r2, c2 in cage.cells[a + 1 :]:
                if (r1 == r2 or c1 == c2) and not owners[r1 * n + c1] & owners[r2 * n + c2]:
                    return f"cage {cells_named(cage.cells)} has two cells in a line that is not a unit"
    return None
