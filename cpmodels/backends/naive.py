"""The plainest depth-first search, as the lecture notes on Sudoku and Mathdoku (Ting) write it: slow on purpose.

The baseline the notebooks measure propagation (backtrack), dancing links (dlx) and CP-SAT from: no
candidates, no propagation, no choice of cell or value. The empty cells are filled in row-major order,
each with the values 1..n in turn; a placement is kept when the cell's candidate hints (if any) allow
the value, no unit holding the cell (row, column, box, or any unit of puzzle.units) already holds it,
and, if the cell is the last empty cell of
a cage (in that order), when the cage's values meet its operator and target (cages.holds, which
accepts any operator that fits for a hidden one). A value that fails is followed by the next; a cell
whose values run out sends the search back to the cell before it. The search is written with an
explicit stack (the value placed at each depth), in plain Python: about three million placements
a second, so a hard 9x9 Sudoku can take millions of nodes and seconds, where backtrack takes a few
dozen nodes (or none) and a fraction of a millisecond. can_solve refuses what would take too long
(SPARSE_LIMIT, MAX_ORDER), unless the backend has a node limit.

It never runs away: a `node_limit` (NaiveBackend(node_limit=...)) and the time limit, the clock read
every CHECK_EVERY nodes, end the search incomplete (status "timeout" unless the limit of solutions was
reached).

stats: "nodes" (placements tried: every value tested at a cell, kept or not), "backtracks" (cells
whose values ran out, sending the search back to the cell before; the first cell's ends the search),
"build_s", "search_s" (base.STAT_NAMES). The backend's own: "cells" (the empty cells the search fills).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from .. import cages as cage_rules
from ..grid import Cage, GridPuzzle, latin_units
from .base import MAX_COUNT, Capabilities, SolveResult, SolveTimer, capability_problem, kept, unreachable_cage

CHECK_EVERY = 4096
"""Nodes between two readings of the clock (and of the node limit's budget)."""
MAX_ORDER = 16
"""The largest order taken: the search is plain Python, and a 25x25 grid would never finish."""
SPARSE_LIMIT = 56
"""can_solve refuses a puzzle with givens or cages and more than this many empty cells (25 givens of a 9x9
Sudoku), unless DEAD_END_NODES, or unless the backend has a node limit (it cannot run away then).

Measured (limit 2): row-major search fills a grid without givens or cages nearly without going back
(an empty 16x16 Sudoku in about 2,000 placements); the 9x9 Sudokus of norvig_easy50 and norvig_hardest
with 45 to 57 empty cells take at most 3.6 million placements (1.2 s); but with 58 to 64 empty cells
a third of emerentius_hard and half of the magictour_top1465 sample take more than 6 million, 17-clue
Sudokus without a solution (tdoku's sample) 13 million or more, a half-punched 16x16 more than 20
million, and an 8x8 Mathdoku without givens ten million. A time or node limit bounds any search; this
refusal keeps a caller who set none from waiting for hours."""
DEAD_END_NODES = 10**6
"""A sparse puzzle is taken all the same when the givens leave an empty cell no value and the search
before that cell is bounded by this many placements (dead_end_bound): it ends there, whatever follows."""


CageCheck = tuple[tuple[int, ...], str | None, int]
"""A cage as the search checks it: its cells (row-major indices), its operator (None: hidden) and target."""


@dataclass(frozen=True)
class NaiveSearch:
    """A puzzle as the search reads it: the empty cells in order, each one's units, the cages each completes."""

    n: int
    givens: tuple[int, ...]
    order: tuple[int, ...]
    units_of: tuple[tuple[int, ...], ...]
    """Per empty cell of `order`, the units (indices into puzzle.units) that hold it."""
    checks: tuple[tuple[CageCheck, ...], ...]
    """Per empty cell of `order`, the cages it is the last empty cell of, checked once it is filled."""
    unit_masks: tuple[int, ...]
    """Per unit, the bits (1 << v) of the values its givens hold."""
    feasible: bool
    """False when a cage without empty cells does not meet its target: no grid solves the puzzle."""
    allowed: tuple[int, ...] = ()
    """Per empty cell of `order`, the bits (1 << v) of the values its candidate hints allow; () without hints."""


def compile_puzzle(puzzle: GridPuzzle) -> NaiveSearch:
    """The empty cells in row-major order, the units of each, the cages checked at each, the givens' unit masks."""
    n, givens = puzzle.n, puzzle.givens
    order = tuple(i for i, g in enumerate(givens) if not g)
    depth = {i: d for d, i in enumerate(order)}
    units_of: list[list[int]] = [[] for _ in order]
    masks = []
    for u, unit in enumerate(puzzle.units):
        mask = 0
        for i in unit:
            if givens[i]:
                mask |= 1 << givens[i]
            else:
                units_of[depth[i]].append(u)
        masks.append(mask)
    checks: list[list[CageCheck]] = [[] for _ in order]
    feasible = True
    for cage in puzzle.cages:
        cells = tuple(r * n + c for r, c in cage.cells)
        empty = [i for i in cells if not givens[i]]
        if empty:
            checks[depth[max(empty)]].append((cells, cage.op, cage.target))
        elif not cage_rules.holds(cage.op, cage.target, [givens[i] for i in cells]):
            feasible = False
    return NaiveSearch(
        n,
        givens,
        order,
        tuple(tuple(units) for units in units_of),
        tuple(tuple(c) for c in checks),
        tuple(masks),
        feasible,
        tuple(_allowed(puzzle, i) for i in order) if puzzle.domains else (),
    )


def _allowed(puzzle: GridPuzzle, i: int) -> int:
    """The bits (1 << v) of the values 1..n cell i may hold: its candidate hints, or every value."""
    return (puzzle.domains[i] if puzzle.domains else (1 << puzzle.n) - 1) << 1


def dead_end_bound(puzzle: GridPuzzle) -> int | None:
    """The most placements the search can try when the givens leave some empty cell no value; None if they don't.

    The first such cell (in row-major order) fails whatever comes before it, so the search never goes
    past it: at most n values are tried at each node of the tree of the empty cells before it, each
    cell with the values its units' givens leave (c_0, c_1, ...): n * (1 + c_0 + c_0 c_1 + ...).
    """
    n, givens = puzzle.n, puzzle.givens
    taken = [0] * len(givens)
    for unit in puzzle.units:
        mask = 0
        for i in unit:
            if givens[i]:
                mask |= 1 << givens[i]
        for i in unit:
            taken[i] |= mask
    nodes = paths = 1
    for i, g in enumerate(givens):
        if g:
            continue
        left = (_allowed(puzzle, i) & ~taken[i]).bit_count()
        if not left:
            return n * nodes
        paths *= left
        nodes += paths
        if nodes > MAX_COUNT:
            break
    return None


def search(
    compiled: NaiveSearch, limit: int, keep: int, deadline: float | None, node_limit: int | None = None
) -> tuple[list[tuple[int, ...]], int, bool, dict[str, float]]:
    """The first `keep` of up to `limit` solutions, their count, whether the space was exhausted, and statistics.

    Depth-first over compiled.order with an explicit stack: values[d] is the value placed at depth d
    (0: none yet). Stops, incomplete, at the `limit`-th solution, after `node_limit` nodes, or at
    `deadline` (perf_counter time), the clock read every CHECK_EVERY nodes.
    """
    n, order, units_of, checks = compiled.n, compiled.order, compiled.units_of, compiled.checks
    allowed = compiled.allowed or (((1 << n) - 1) << 1,) * len(order)
    stats: dict[str, float] = {"nodes": 0, "backtracks": 0, "cells": len(order)}
    if not compiled.feasible:
        return [], 0, True, stats
    grid = list(compiled.givens)
    used = list(compiled.unit_masks)
    m = len(order)
    values = [0] * m
    solutions: list[tuple[int, ...]] = []
    count = nodes = backtracks = 0
    most_nodes = MAX_COUNT if node_limit is None else node_limit
    budget = 0  # the node count at which the clock and the node limit are next looked at
    complete = stopped = False
    d = 0
    while True:
        if d == m:  # every cell filled: a solution
            count += 1
            if len(solutions) < keep:
                solutions.append(tuple(grid))
            if count >= limit:
                break
            d -= 1
        if d < 0:
            complete = True
            break
        i = order[d]
        units = units_of[d]
        hints = allowed[d]
        v = values[d]
        if v:  # take back the value placed here, to try the next one
            bit = 1 << v
            for u in units:
                used[u] ^= bit
            grid[i] = 0
        placed = False
        while v < n:
            if nodes >= budget:
                if nodes >= most_nodes or (deadline is not None and time.perf_counter() >= deadline):
                    stopped = True
                    break
                budget = min(nodes + CHECK_EVERY, most_nodes)
            nodes += 1
            v += 1
            bit = 1 << v
            if not hints & bit:  # outside the cell's candidate hints: checked like a unit
                continue
            for u in units:
                if used[u] & bit:
                    break
            else:
                grid[i] = v
                if not checks[d] or all(_holds(grid, cage) for cage in checks[d]):
                    placed = True
                    break
                grid[i] = 0
        if stopped:
            break
        if not placed:  # the values ran out: back to the cell before
            values[d] = 0
            backtracks += 1
            d -= 1
            continue
        for u in units:
            used[u] |= bit
        values[d] = v
        d += 1
    stats.update(nodes=nodes, backtracks=backtracks)
    return solutions, count, complete, stats


def _holds(grid: Sequence[int], cage: CageCheck) -> bool:
    """Whether the values of a filled cage meet its operator and target (cages.holds)."""
    cells, op, target = cage
    return cage_rules.holds(op, target, [grid[j] for j in cells])


def warm_up() -> float:
    """Solve an empty 2x2 Latin square with a cage; the seconds it took (there is nothing to load or compile)."""
    start = time.perf_counter()
    tiny = GridPuzzle(2, latin_units(2), (0, 0, 0, 0), (Cage(((0, 0), (0, 1)), "+", 3),))
    NaiveBackend().solve(tiny, limit=2)
    return time.perf_counter() - start


class NaiveBackend:
    """Plain row-major depth-first search, values 1..n, checked on placement (module docstring): the slow baseline.

    `node_limit`: the most placements one solve tries (None: no limit) before it stops incomplete.
    """

    name = "naive"
    capabilities = Capabilities(cages=True, max_order=MAX_ORDER, counting=True, time_limit=True)

    def __init__(self, node_limit: int | None = None) -> None:
        if node_limit is not None and node_limit < 0:
            raise ValueError(f"node_limit must be at least 0, not {node_limit}")
        self.node_limit = node_limit

    def can_solve(self, puzzle: GridPuzzle) -> str | None:
        """None for orders up to MAX_ORDER, unless the puzzle is too sparse for the plain search (SPARSE_LIMIT).

        A backend with a node limit takes every puzzle up to MAX_ORDER: its search cannot run away.
        """
        problem = capability_problem(self.capabilities, puzzle)
        if problem:
            return f"{problem}, too large for the plain search"
        if self.node_limit is not None or unreachable_cage(puzzle):  # bounded, or answered "none" unsearched
            return None
        empty = puzzle.givens.count(0)
        if empty <= SPARSE_LIMIT or (empty == len(puzzle.givens) and not puzzle.cages):
            return None
        bound = dead_end_bound(puzzle)
        if bound is not None and bound <= DEAD_END_NODES:
            return None
        return f"{empty} empty cells (above {SPARSE_LIMIT}) could take the plain search billions of placements"

    def warm_up(self) -> float:
        """Solve a tiny puzzle (nothing to import or compile); the seconds it took."""
        return warm_up()

    def solve(
        self, puzzle: GridPuzzle, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> SolveResult:
        """Up to `limit` solutions in row-major order (the first `keep` kept), stopping at `time_limit` s or node_limit.

        A cage whose target is out of its operator's range (base.unreachable_cage) answers "none" unsearched.
        """
        timer = SolveTimer()
        if unreachable_cage(puzzle):
            return timer.finish(self.name, [], limit, True, {"nodes": 0, "backtracks": 0, "cells": 0})
        compiled = compile_puzzle(puzzle)
        timer.built()
        solutions, count, complete, stats = search(
            compiled, limit, kept(limit, keep), timer.deadline(time_limit), self.node_limit
        )
        return timer.finish(self.name, solutions, limit, complete, stats, count)
