"""OR-Tools CP-SAT: the declarative model, one AllDifferent per unit, cages as tables or arithmetic.

Counting enumerates with one worker: with several, CP-SAT returns duplicate and missing solutions
while reporting a complete search. `method="forbid"` instead solves, forbids the solution found and
solves again, which stays exact with any number of workers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from .. import cages as cage_rules
from ..grid import Cage, GridPuzzle
from .base import SolveResult, status_for

TABLE_LIMIT = 20_000
"""A cage becomes a table of allowed tuples when it has at most this many; arithmetic otherwise."""


@dataclass
class CpsatModel:
    """A compiled puzzle: the CpModel and the cell variables, row-major, for users to extend."""

    model: cp_model.CpModel
    cells: list[cp_model.IntVar]


def build_model(puzzle: GridPuzzle) -> CpsatModel:
    """The CP-SAT model of `puzzle`: a variable per cell (givens as fixed domains), units, cages."""
    model = cp_model.CpModel()
    n = puzzle.n
    cells = [
        model.new_int_var(g or 1, g or n, f"r{i // n + 1}c{i % n + 1}") for i, g in enumerate(puzzle.givens)
    ]
    for unit in puzzle.units:
        model.add_all_different([cells[i] for i in unit])
    for cage in puzzle.cages:
        _add_cage(model, [cells[r * n + c] for r, c in cage.cells], cage, n)
    return CpsatModel(model, cells)


def _add_cage(model: cp_model.CpModel, xs: list[cp_model.IntVar], cage: Cage, n: int) -> None:
    """Constrain `xs` to the cage: a table of its allowed tuples, or + and * as arithmetic when large."""
    if cage.op == "+" and _table_size(cage, n) > TABLE_LIMIT:
        model.add(sum(xs) == cage.target)
    elif cage.op == "*" and _table_size(cage, n) > TABLE_LIMIT:
        _add_product(model, xs, cage.target)
    else:
        model.add_allowed_assignments(xs, cage_rules.allowed_tuples(cage.cells, cage.op, cage.target, n))


def _table_size(cage: Cage, n: int) -> int:
    """An upper bound on the number of allowed tuples of a cage, cheap to compute."""
    return n ** len(cage.cells)


def _add_product(model: cp_model.CpModel, xs: list[cp_model.IntVar], target: int) -> None:
    """Constrain the product of `xs` to `target` through a chain of partial products."""
    acc: cp_model.LinearExprT = xs[0]
    for k, x in enumerate(xs[1:], start=2):
        partial = model.new_int_var(1, target, "")
        model.add_multiplication_equality(partial, [acc, x])
        model.add_modulo_equality(0, target, partial)
        acc = partial
    model.add(acc == target)


class CpsatBackend:
    """The CP-SAT backend; `workers` > 1 is only used for first solutions and `method="forbid"`."""

    name = "cpsat"
    supports_cages = True
    max_order = 64

    def __init__(self, method: str = "enumerate", workers: int = 1) -> None:
        self.method, self.workers = method, workers

    def can_solve(self, puzzle: GridPuzzle) -> str | None:
        """None: CP-SAT takes every grid puzzle up to order 64."""
        return None if puzzle.n <= self.max_order else f"order {puzzle.n} is above {self.max_order}"

    def solve(self, puzzle: GridPuzzle, *, limit: int = 1, time_limit: float | None = None) -> SolveResult:
        """Up to `limit` solutions, by one-worker enumeration or by repeated solve-and-forbid."""
        start = time.perf_counter()
        compiled = build_model(puzzle)
        build_s = time.perf_counter() - start
        if self.method == "forbid" or limit == 1:
            solutions, complete, stats = _solve_and_forbid(compiled, puzzle, limit, time_limit, self.workers)
        else:
            solutions, complete, stats = _enumerate(compiled, limit, time_limit)
        stats["build_us"] = int(build_s * 1e6)
        status = status_for(len(solutions), limit, complete)
        return SolveResult(status, solutions, len(solutions), complete, time.perf_counter() - start, stats, self.name)


def _solver(time_limit: float | None, workers: int) -> cp_model.CpSolver:
    """A CpSolver with the given time limit (None: unlimited) and worker count."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(time_limit, 1e-3)
    return solver


class _Collector(cp_model.CpSolverSolutionCallback):
    """Records each solution's grid and stops the search once `limit` are found."""

    def __init__(self, cells: list[cp_model.IntVar], limit: int) -> None:
        super().__init__()
        self.cells, self.limit, self.solutions = cells, limit, []

    def on_solution_callback(self) -> None:
        self.solutions.append(tuple(self.value(x) for x in self.cells))
        if len(self.solutions) >= self.limit:
            self.stop_search()


def _enumerate(compiled: CpsatModel, limit: int, time_limit: float | None):
    """Enumerate up to `limit` solutions with one worker; returns (solutions, complete, stats)."""
    solver = _solver(time_limit, 1)
    solver.parameters.enumerate_all_solutions = True
    collector = _Collector(compiled.cells, limit)
    status = solver.solve(compiled.model, collector)
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    return collector.solutions, complete, _stats(solver)


def _solve_and_forbid(compiled: CpsatModel, puzzle: GridPuzzle, limit: int, time_limit: float | None, workers: int):
    """Solve, forbid the solution found and solve again, up to `limit` times; (solutions, complete, stats)."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    solutions: list[tuple[int, ...]] = []
    totals = {"branches": 0, "conflicts": 0}
    while len(solutions) < limit:
        if solutions:
            _forbid(compiled, puzzle, solutions[-1])
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            return solutions, False, totals
        solver = _solver(left, workers)
        status = solver.solve(compiled.model)
        for key, value in _stats(solver).items():
            totals[key] += value
        if status == cp_model.INFEASIBLE:
            return solutions, True, totals
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return solutions, False, totals
        solutions.append(tuple(solver.value(x) for x in compiled.cells))
    return solutions, False, totals


def _forbid(compiled: CpsatModel, puzzle: GridPuzzle, grid: tuple[int, ...]) -> None:
    """Add a clause that some empty cell differs from `grid`."""
    model, differs = compiled.model, []
    for i, x in enumerate(compiled.cells):
        if not puzzle.givens[i]:
            b = model.new_bool_var("")
            model.add(x != grid[i]).only_enforce_if(b)
            differs.append(b)
    model.add_bool_or(differs)


def _stats(solver: cp_model.CpSolver) -> dict[str, int]:
    """Search statistics of a finished solve."""
    return {"branches": solver.num_branches, "conflicts": solver.num_conflicts}
