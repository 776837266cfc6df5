"""Exact cover with dancing links (Knuth's Algorithm X): a grid puzzle compiled to items and options.

The compilation, for any grid puzzle (no family is assumed):

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

Knuth's DLX1 files (reading them, writing a puzzle's exact cover, item names) are in formats/dlx.py.

The search (dlx_kernel.py) is Knuth's DLX1 in numba with the minimum-remaining-values rule, run in
chunks of a work budget with the clock read between chunks, so that the time limit is honoured.

stats: "nodes" (options tried), "build_s", "search_s" (base.STAT_NAMES), and the backend's own:
"updates" (link updates), "items" and "options" (the size of the exact cover).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from types import ModuleType

import numpy as np

from .. import cages as cage_rules
from ..errors import BackendUnavailableError, CpModelsError
from ..grid import Cage, GridPuzzle, cells_named
from .base import Capabilities, SolveResult, SolveTimer, capability_problem, kept, search_limit, unreachable_cage

MAX_CAGE_OPTIONS = 200_000
"""A cage allowing more value tuples than this is refused (can_solve says so)."""
MAX_OPTIONS = 5_000_000
"""A puzzle whose exact cover would have more options than this is refused."""
BUFFER_CELLS = 1 << 22
"""Solutions are handed out of the kernel in buffers of at most this many option numbers."""
FIRST_CHUNK = 50_000
"""The work budget (nodes + updates) of the first kernel call of a timed search, before it has a rate."""
CHUNK_SECONDS = 0.02
"""A search aims at kernel calls this long (timed or not), so that it overshoots its time limit by about this
much and a signal handler (Ctrl-C) runs between two calls."""


# ---- the exact-cover problem ---------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ExactCover:
    """Items 0..n_primary-1 primary, the rest secondary; options as CSR rows of items (option_start, option_items)."""

    n_primary: int
    n_secondary: int
    option_start: np.ndarray
    option_items: np.ndarray

    def __post_init__(self) -> None:
        sizes = np.diff(self.option_start)
        if len(self.option_items) and not (0 <= self.option_items.min() and self.option_items.max() < self.n_items):
            raise CpModelsError(f"an option names an item outside 0..{self.n_items - 1}")
        if (sizes < 1).any():
            raise CpModelsError(f"option {int(np.argmin(sizes))} covers no item")

    @property
    def n_items(self) -> int:
        """The number of items, primary and secondary."""
        return self.n_primary + self.n_secondary

    @property
    def n_options(self) -> int:
        """The number of options."""
        return len(self.option_start) - 1

    def option(self, k: int) -> list[int]:
        """The items of option k, 0-based."""
        return self.option_items[self.option_start[k] : self.option_start[k + 1]].tolist()


def exact_cover(n_primary: int, n_secondary: int, options: Sequence[Sequence[int]]) -> ExactCover:
    """The ExactCover with these counts of items and options given as lists of 0-based items."""
    start = np.zeros(len(options) + 1, np.int64)
    start[1:] = np.cumsum([len(o) for o in options])
    items = np.fromiter((i for o in options for i in o), np.int32, int(start[-1]))
    for k, o in enumerate(options):
        if len(set(o)) != len(o):
            raise CpModelsError(f"option {k} names an item twice: {list(o)}")
    return ExactCover(n_primary, n_secondary, start, items)


@dataclass
class CoverResult:
    """The outcome of an exact-cover search: solutions as sorted 0-based option numbers, and counters."""

    solutions: list[tuple[int, ...]]
    count: int
    complete: bool
    nodes: int
    updates: int
    wall_s: float


# ---- the search driver ---------------------------------------------------------------------


def _kernel() -> ModuleType:
    """The numba kernels, imported on first use so that `import cpmodels` does not pay for importing numba."""
    from . import dlx_kernel

    return dlx_kernel


def _search(
    cover: ExactCover, limit: int, keep: int, deadline: float | None, take: Callable[[np.ndarray], object]
) -> tuple[bool, int, int, int]:
    """Algorithm X up to `limit` solutions or `deadline`; `take` gets the first `keep` in blocks.

    Returns (complete, solutions found, nodes, updates). The kernel runs in calls of about
    CHUNK_SECONDS of work, with or without a deadline, so that the clock is read and a signal
    handler can run between calls; solutions past `keep` are only counted, never stored.
    """
    kernel = _kernel()
    limit, keep = search_limit(limit), min(keep, search_limit(limit))
    links = kernel.build_links(cover.n_primary, cover.n_items, cover.option_start, cover.option_items)
    depth = cover.n_primary + 1
    x = np.zeros(depth, np.int32)
    chosen = np.zeros(depth, np.int32)
    state = np.zeros(kernel.STATE_SIZE, np.int64)
    buffer = np.empty((max(1, min(keep, BUFFER_CELLS // depth)), depth), np.int32)
    found, stored, budget = 0, 0, FIRST_CHUNK
    while True:
        began = time.perf_counter()
        work = int(state[kernel.NODES] + state[kernel.UPDATES])
        k, w, nodes, updates, finished = kernel.search(
            *links, x, chosen, state, buffer, limit - found, keep - stored, budget
        )
        if w:
            take(buffer[:w])
            stored += w
        found += k
        now = time.perf_counter()
        if finished or found >= limit or (deadline is not None and now >= deadline):
            return bool(finished), found, int(nodes), int(updates)
        left = None if deadline is None else deadline - now
        budget = _next_budget(int(nodes + updates) - work, now - began, left)


def _next_budget(work: int, seconds: float, left: float | None) -> int:
    """The work budget of the next kernel call: about CHUNK_SECONDS at the rate just seen, never past the deadline."""
    rate = work / max(seconds, 1e-6)
    return max(1_000, int(rate * (CHUNK_SECONDS if left is None else min(CHUNK_SECONDS, left))))


def solve_exact_cover(
    cover: ExactCover, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
) -> CoverResult:
    """Up to `limit` exact covers: sets of options covering each primary item once and each secondary at most once.

    The first `keep` (None: all) are returned; `count` counts every one found.
    """
    timer = SolveTimer()
    solutions: list[tuple[int, ...]] = []
    take = lambda block: solutions.extend(_option_sets(block))  # noqa: E731
    complete, found, nodes, updates = _search(cover, limit, kept(limit, keep), timer.deadline(time_limit), take)
    return CoverResult(solutions, found, complete, nodes, updates, time.perf_counter() - timer.start)


def _option_sets(block: np.ndarray) -> list[tuple[int, ...]]:
    """The rows of a block of solutions as sorted tuples of option numbers (the -1 padding dropped)."""
    return [tuple(sorted(o for o in row if o >= 0)) for row in block.tolist()]


def warm_up() -> float:
    """Compile (or load from numba's cache) every kernel on Knuth's small example; returns the seconds it took."""
    start = time.perf_counter()
    options = [[2, 4], [0, 3, 6], [1, 2, 5], [0, 3, 5], [1, 6], [3, 4, 6]]
    solve_exact_cover(exact_cover(7, 0, options), limit=2, time_limit=10.0)
    compiled = compile_puzzle(GridPuzzle(1, ((0,),), (0,)))
    _search(compiled.cover, 1, 1, None, lambda block: _grids(compiled, block))
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
    blocks = _free_blocks(structure, free, cell_item, unit_item, givens, n)
    infeasible = False
    for cage in puzzle.cages:
        block = _cage_block(n, cage, structure.cell_units, cell_item, unit_item, givens, precover)
        infeasible |= block is None
        if block is not None and block.items.size:
            blocks.append(block)
    option_start, option_items = _csr([b.items for b in blocks])
    cell_start, cells = _csr([b.cells for b in blocks])
    values = np.concatenate([b.values.ravel() for b in blocks] or [np.zeros(0, np.int32)]).astype(np.int32)
    cover = ExactCover(n_primary, n_items - n_primary, option_start, option_items)
    return CompiledPuzzle(cover, cell_start, cells, values, givens, cell_item, unit_item, infeasible)


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
    structure: _Structure, free: np.ndarray, cell_item: np.ndarray, unit_item: np.ndarray, givens: np.ndarray, n: int
) -> list[_Block]:
    """The options of the `free` cells (outside cages), one per cell and value, a block per count of units of a cell."""
    blocks = []
    values = np.arange(1, n + 1, dtype=np.int32)
    for all_cells, all_units in structure.by_degree:
        cells, units = all_cells[free[all_cells]], all_units[free[all_cells]]
        items = np.empty((len(cells), n, units.shape[1] + 1), np.int32)
        items[:, :, 0] = cell_item[cells][:, None]
        items[:, :, 1:] = unit_item[units[:, None, :], values[None, :, None]]
        g = givens[cells][:, None]
        allowed = (items >= 0).all(axis=2) & ((g == 0) | (g == values[None, :]))
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
) -> _Block | None:
    """One option per allowed tuple of `cage` agreeing with the givens; None if a fully given cage breaks its rule."""
    cells = [r * n + c for r, c in cage.cells]
    tuples = _tuples_for(cage.cells, cage.op, cage.target, n)
    if tuples is None:
        raise BackendUnavailableError(_too_many(cage))
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


def _grids(compiled: CompiledPuzzle, block: np.ndarray) -> list[tuple[int, ...]]:
    """The row-major grids of the solutions in `block` (rows of option numbers)."""
    grids = _kernel().decode(block, len(block), compiled.cell_start, compiled.cells, compiled.values, compiled.givens)
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
        take = lambda b: solutions.extend(_grids(compiled, b))  # noqa: E731
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
