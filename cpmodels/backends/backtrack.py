"""Backtracking over candidate bitmasks: naked and hidden singles, locked candidates, cage tuples, MRV branching.

The readable half: a GridPuzzle is compiled to flat numpy arrays (backtrack_kernel.STRUCTURE) and the
numba kernel searches them. The kernel runs in chunks of nodes and keeps its state in arrays between
chunks, so this module reads the clock between chunks and honours the time limit; chunks are sized
to last about CHUNK_SECONDS. Cages are filtered through their allowed tuples
(cages.allowed_tuples), so `/` is exact and hidden operators need nothing special.

stats: "nodes" (values tried), "backtracks" (values whose propagation failed), "build_s" (the
puzzle compiled to arrays, numba compilation excluded: see warm_up), "search_s" (base.STAT_NAMES).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from types import ModuleType

import numpy as np

from .. import cages as cage_rules
from ..errors import PuzzleError
from ..grid import Cage, GridPuzzle
from .base import (
    Capabilities,
    SolveResult,
    SolveTimer,
    capability_problem,
    kept,
    search_limit,
    time_limit_or_none,
    unreachable_cage,
)

_KERNEL: list[ModuleType] = []


def _kernel() -> ModuleType:
    """The numba kernel module, imported on first use so that `import cpmodels` does not load numba."""
    if not _KERNEL:
        from . import backtrack_kernel

        _KERNEL.append(backtrack_kernel)
    return _KERNEL[0]


MAX_CAGE_TUPLES = 1_000_000
"""A cage allowing more tuples than this is refused by can_solve (its table would be too large to filter)."""
CHUNK_SECONDS = 0.02
"""The time one kernel call aims to take, so that the clock is read often enough."""


@dataclass(frozen=True)
class CompiledPuzzle:
    """A grid puzzle as the kernel sees it: order, initial candidate masks, structure arrays, cage tuple bits."""

    n: int
    masks: np.ndarray  # uint64 per cell; value v is bit v-1
    structure: tuple[np.ndarray, ...]  # int64 arrays named by backtrack_kernel.STRUCTURE
    tuple_bits: np.ndarray  # uint64, one bit per cage cell per allowed tuple


def compile_puzzle(puzzle: GridPuzzle) -> CompiledPuzzle:
    """The arrays the kernel searches: masks from the givens, units and peers, cages and their tuples."""
    n = puzzle.n
    structure, tuple_bits = _structure(n, puzzle.units, puzzle.cages)
    return CompiledPuzzle(n, given_masks(np.array(puzzle.givens, np.int64), n), structure, tuple_bits)


_LAST_STRUCTURES: dict[tuple[int, int, int], tuple] = {}
"""Structures by (n, id(units), id(cages)), each kept with its units and cages so that the ids stay theirs."""


def _structure(n: int, units: tuple, cages: tuple) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """The structure tuple and tuple bits of these units and cages; found by identity first (hashing them is slow)."""
    key = (n, id(units), id(cages))
    hit = _LAST_STRUCTURES.get(key)
    if hit is not None and hit[0] is units and hit[1] is cages:
        return hit[2]
    cage_arrays = _cage_arrays(n, cages)
    found = ((*_unit_arrays(n, units), *cage_arrays[:-1], *_intersection_arrays(n, units)), cage_arrays[-1])
    if len(_LAST_STRUCTURES) >= 64:
        _LAST_STRUCTURES.clear()
    _LAST_STRUCTURES[key] = (units, cages, found)
    return found


def given_masks(givens: np.ndarray, n: int) -> np.ndarray:
    """Candidate masks for givens 0..n of any shape: every value 1..n where 0, else the given's bit alone."""
    return _mask_table(n)[givens]


@lru_cache(maxsize=64)
def _mask_table(n: int) -> np.ndarray:
    """The candidate mask of each given 0..n: the full mask for 0, bit v-1 for v."""
    return np.array([(1 << n) - 1] + [1 << (v - 1) for v in range(1, n + 1)], np.uint64)


def _flat(groups: list[list[int]] | tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, np.ndarray]:
    """Groups of ints as (offsets, flat values): group k is values[offsets[k]:offsets[k + 1]]."""
    offsets = np.zeros(len(groups) + 1, np.int64)
    offsets[1:] = np.cumsum([len(g) for g in groups])
    values = np.fromiter((x for g in groups for x in g), np.int64, count=int(offsets[-1]))
    return offsets, values


@lru_cache(maxsize=16)
def _unit_arrays(n: int, units: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, ...]:
    """unit_start, unit_cells, peer_start, peers, cell_unit_start, cell_units for these units (remembered)."""
    cell_units: list[list[int]] = [[] for _ in range(n * n)]
    for u, unit in enumerate(units):
        for cell in unit:
            cell_units[cell].append(u)
    peers = [sorted({p for u in cell_units[cell] for p in units[u]} - {cell}) for cell in range(n * n)]
    return (*_flat(units), *_flat(peers), *_flat(cell_units))


@lru_cache(maxsize=16)
def _intersection_arrays(n: int, units: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, ...]:
    """inter_start, inter_cells, inter_units, rest_start, rest_cells, unit_inter_start, unit_inters (remembered).

    An intersection is two units sharing 2+ cells where a full unit (n cells) could lock a value
    inside it and so remove it from cells of the other unit: the locked candidates rule.
    """
    sets = [frozenset(unit) for unit in units]
    cell_units: list[list[int]] = [[] for _ in range(n * n)]
    for u, unit in enumerate(units):
        for cell in unit:
            cell_units[cell].append(u)
    pairs = sorted({(a, b) for us in cell_units for a in us for b in us if a < b})
    inters: list[list[int]] = []
    pair_units: list[tuple[int, int]] = []
    rests: list[list[int]] = []
    unit_inters: list[list[int]] = [[] for _ in units]
    for a, b in pairs:
        shared = sets[a] & sets[b]
        rest_a = [c for c in units[a] if c not in shared]
        rest_b = [c for c in units[b] if c not in shared]
        useful = (len(units[a]) == n and rest_b) or (len(units[b]) == n and rest_a)
        if len(shared) < 2 or not useful:
            continue
        unit_inters[a].append(len(inters))
        unit_inters[b].append(len(inters))
        inters.append(sorted(shared))
        pair_units.append((a, b))
        rests += [rest_a, rest_b]
    inter_units = np.array(pair_units, np.int64).reshape(-1)
    return (*_flat(inters), inter_units, *_flat(rests), *_flat(unit_inters))


@lru_cache(maxsize=1024)
def _cage_arrays(n: int, cages: tuple[Cage, ...]) -> tuple[np.ndarray, ...]:
    """cell_cage, cage_start, cage_cells, tuple_start (int64) and tuple_bits (uint64) for these cages (remembered)."""
    cell_cage = np.full(n * n, -1, np.int64)
    for g, cage in enumerate(cages):
        for r, c in cage.cells:
            cell_cage[r * n + c] = g
    cage_start, cage_cells = _flat([[r * n + c for r, c in cage.cells] for cage in cages])
    bits = [_tuple_bits(_clash_pattern(cage.cells), cage.op, cage.target, n) for cage in cages]
    tuple_start = np.zeros(len(cages) + 1, np.int64)
    tuple_start[1:] = np.cumsum([b.size for b in bits])
    tuple_bits = np.concatenate(bits) if bits else np.zeros(0, np.uint64)
    return cell_cage, cage_start, cage_cells, tuple_start, tuple_bits


def _clash_pattern(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The cells relabelled by first appearance of their row and column: equal patterns allow equal tuples."""
    rows: dict[int, int] = {}
    cols: dict[int, int] = {}
    return tuple((rows.setdefault(r, len(rows)), cols.setdefault(c, len(cols))) for r, c in cells)


@lru_cache(maxsize=4096)
def _tuple_table(cells: tuple[tuple[int, int], ...], op: str | None, target: int, n: int) -> np.ndarray:
    """The cage's allowed tuples as a 2-D int array, one row per tuple (remembered per clash pattern)."""
    tuples = cage_rules.allowed_tuples(cells, op, target, n)
    return np.array(tuples, np.int64).reshape(len(tuples), len(cells))


@lru_cache(maxsize=4096)
def _tuple_bits(cells: tuple[tuple[int, int], ...], op: str | None, target: int, n: int) -> np.ndarray:
    """The allowed tuples flattened row by row, each value v as the mask bit v-1 (remembered)."""
    table = _tuple_table(cells, op, target, n)
    return np.left_shift(np.uint64(1), (table.ravel() - 1).astype(np.uint64))


def _too_many_tuples(cage: Cage, n: int) -> bool:
    """Whether the cage allows more than MAX_CAGE_TUPLES tuples (counting stops just past the limit)."""
    if n ** len(cage.cells) <= MAX_CAGE_TUPLES:  # n**k bounds the tuples of any k-cell cage
        return False
    found = cage_rules.iter_allowed_tuples(_clash_pattern(cage.cells), cage.op, cage.target, n)
    return sum(1 for _ in islice(found, MAX_CAGE_TUPLES + 1)) > MAX_CAGE_TUPLES


class BacktrackBackend:
    """The numba backtracking backend; `keep` caps how many solutions are returned as grids (None: all)."""

    name = "backtrack"
    capabilities = Capabilities(cages=True, max_order=64, counting=True, time_limit=True)

    def __init__(self, keep: int | None = None) -> None:
        self.keep = keep

    def can_solve(self, puzzle: GridPuzzle) -> str | None:
        """None if the puzzle fits: order at most 64 (one 64-bit mask per cell), no cage above MAX_CAGE_TUPLES tuples."""
        problem = capability_problem(self.capabilities, puzzle)
        if problem or unreachable_cage(puzzle):  # an unreachable target is answered "none" without tuples
            return problem
        for k, cage in enumerate(puzzle.cages, start=1):
            if _too_many_tuples(cage, puzzle.n):
                return f"cage {k} ({cage.label()}) allows more than {MAX_CAGE_TUPLES} tuples"
        return None

    def solve(
        self, puzzle: GridPuzzle, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> SolveResult:
        """Up to `limit` solutions by propagation and MRV branching, stopping at `time_limit` seconds.

        The first `keep` are kept (None: all), and never more than the backend's own `keep`.
        """
        timer = SolveTimer()
        if unreachable_cage(puzzle):
            return timer.finish(self.name, [], limit, True, {"nodes": 0, "backtracks": 0})
        compiled = compile_puzzle(puzzle)
        timer.built()
        keep = kept(limit, keep) if self.keep is None else min(self.keep, kept(limit, keep))
        solutions: list[tuple[int, ...]] = []

        def take(rows: np.ndarray, _: np.ndarray) -> None:
            solutions.extend(map(tuple, rows.tolist()))

        results = _drive(compiled, compiled.masks[None, :], limit, keep, timer.deadline(time_limit), take)
        count, nodes, backtracks, complete = (int(x) for x in results[0])
        stats = {"nodes": nodes, "backtracks": backtracks}
        return timer.finish(self.name, solutions, limit, bool(complete), stats, count)

    def warm_up(self) -> float:
        """Compile (or load from numba's cache) the kernel on a tiny caged puzzle; returns the seconds it took."""
        start = time.perf_counter()
        tiny = GridPuzzle(2, ((0, 1), (2, 3), (0, 2), (1, 3)), (0, 0, 0, 0), (Cage(((0, 0), (0, 1)), "+", 3),))
        self.solve(tiny, limit=2)
        return time.perf_counter() - start


Take = Callable[[np.ndarray, np.ndarray], None]
"""Receives buffered solutions: rows of values, and for each row the index of its puzzle."""


def _drive(
    compiled: CompiledPuzzle, starts: np.ndarray, limit: int, keep: int, deadline: float | None, take: Take
) -> np.ndarray:
    """Run the kernel on the rows of `starts` in chunks until done or past `deadline`; the results array.

    Each call gets a node budget sized to last about CHUNK_SECONDS (never past the deadline) at the
    rate of the call before; solutions go to `take` whenever the kernel returns. A puzzle cut short
    by the deadline gets its partial counts in `results` and complete 0.
    """
    kernel = _kernel()
    limit, keep = search_limit(limit), search_limit(keep)
    rows = min(keep * starts.shape[0], kernel.BUFFER_ROWS)
    search = _search_arrays(kernel, compiled, starts, rows)
    state, buffer, buffer_puzzle, results = search[3], search[7], search[8], search[9]
    chunk = max(16, (1 << 18) // (starts.shape[1] * compiled.n))  # a node costs about ncells*n bit operations
    while True:
        began = time.perf_counter()
        code = kernel.run_search(
            compiled.n, compiled.structure, compiled.tuple_bits, starts, *search, limit, keep, chunk
        )
        if state[kernel.BUFFERED]:
            take(buffer[: state[kernel.BUFFERED]], buffer_puzzle[: state[kernel.BUFFERED]])
            state[kernel.BUFFERED] = 0
        if code == kernel.FINISHED:
            return results
        now = time.perf_counter()
        if deadline is not None and now >= deadline:
            p = state[kernel.PUZZLE]
            results[p] = (state[kernel.COUNT], state[kernel.NODES], state[kernel.BACKTRACKS], 0)
            return results
        if code == kernel.PAUSED:
            chunk = _next_chunk(chunk, now - began, None if deadline is None else deadline - now)


_REUSED = threading.local()
"""Per thread, the search arrays of the last one-puzzle search, by their shape: solve() reuses them."""


def _search_arrays(kernel: ModuleType, compiled: CompiledPuzzle, starts: np.ndarray, rows: int) -> tuple:
    """kernel.new_search arrays for `starts`; those of one puzzle are reused per thread, their state zeroed."""
    s = compiled.structure
    shape = (starts.shape[1], compiled.n, len(s[0]) - 1, len(s[7]) - 1, len(s[10]) - 1, rows)
    if starts.shape[0] != 1:
        return kernel.new_search(starts, *shape[1:])
    cached = getattr(_REUSED, "search", None)
    if cached is not None and cached[0] == shape:
        search = cached[1]
        search[3][:] = 0
        return search
    search = kernel.new_search(starts, *shape[1:])
    _REUSED.search = (shape, search)
    return search


def _next_chunk(chunk: int, elapsed: float, left: float | None) -> int:
    """Nodes for the next kernel call: about CHUNK_SECONDS (or the time left) at the last call's rate, growing at most 4x."""
    target = CHUNK_SECONDS if left is None else min(CHUNK_SECONDS, left)
    wanted = chunk * target / max(elapsed, 1e-6)
    return int(min(max(wanted, 16), 4 * chunk, 1 << 24))


@dataclass(frozen=True)
class BatchResult:
    """Per puzzle of a batch: solutions counted up to the limit, the first one, nodes, backtracks, exhausted or not."""

    counts: np.ndarray  # int64
    firsts: np.ndarray  # uint8, the first solution found as a row-major grid; zeros if none
    nodes: np.ndarray  # int64
    backtracks: np.ndarray  # int64
    complete: np.ndarray  # bool: the count is exact (for counts below the limit)
    wall_s: float


def solve_batch(
    template: GridPuzzle,
    givens: np.ndarray,
    *,
    limit: int = 2,
    time_limit: float | None = None,
    threads: int | None = None,
) -> BatchResult:
    """Count each row of `givens` (0 = empty) with the units and cages of `template`, up to `limit`, across threads.

    Each thread searches a contiguous slice of the rows in one kernel call per chunk of nodes (the
    kernel releases the GIL). Givens are checked for range only: a repeated given has no solution.
    Puzzles the time limit cuts short, or never reaches, have complete False.
    """
    start = time.perf_counter()
    seconds = time_limit_or_none(time_limit)
    deadline = None if seconds is None else start + seconds
    n = template.n
    givens = np.asarray(givens, np.int64).reshape(-1, n * n)
    if givens.size and (givens.min() < 0 or givens.max() > n):
        raise PuzzleError(f"givens of an order-{n} batch must lie in 0..{n}")
    compiled = compile_puzzle(template)
    starts = given_masks(givens, n)
    firsts = np.zeros(givens.shape, np.uint8)
    threads = max(1, min(threads or os.cpu_count() or 1, len(givens)))
    bounds = [len(givens) * k // threads for k in range(threads + 1)]

    def run(lo: int, hi: int) -> np.ndarray:
        def take(rows: np.ndarray, puzzles: np.ndarray) -> None:
            firsts[lo + puzzles] = rows

        return _drive(compiled, starts[lo:hi], limit, 1, deadline, take)

    with ThreadPoolExecutor(threads) as pool:
        parts = list(pool.map(run, bounds[:-1], bounds[1:]))
    results = np.concatenate(parts) if parts else np.zeros((0, 4), np.int64)
    kernel = _kernel()
    columns = (results[:, k] for k in (kernel.R_COUNT, kernel.R_NODES, kernel.R_BACKTRACKS))
    complete = results[:, kernel.R_COMPLETE].astype(bool)
    counts, nodes, backtracks = columns
    return BatchResult(counts, firsts, nodes, backtracks, complete, time.perf_counter() - start)
