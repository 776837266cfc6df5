"""OR-Tools CP-SAT: the declarative model, one AllDifferent per unit, cages as tables or arithmetic.

Counting enumerates with one worker: with several, CP-SAT returns duplicate and missing solutions
while reporting a complete search. `method="forbid"` instead solves, forbids the solution found and
solves again, which stays exact with any number of workers.

Building is tuned (numbers in benchmarks/RESULTS.md): the cell variables and AllDifferents of a unit
structure are built once per (n, units) and copied as a proto, and models skip the deprecated
CamelCase aliases OR-Tools attaches to every CpModel (about 0.4 ms each), so a 9x9 Sudoku model
costs about 0.2 ms instead of 1 ms, while CP-SAT takes 4-16 ms to solve one.

Cage encodings (`encoding=`): "table" gives every cage its allowed tuples (add_allowed_assignments
over cages.allowed_tuples, remembered per clash pattern, operator, target and n); "arith" uses a sum,
a product chain, an absolute difference and an exact quotient (x == t*y or y == t*x, chosen by a
Boolean; never add_division_equality, which truncates). Hidden-operator cages are tables in both,
and a + or * cage whose table could exceed TABLE_LIMIT tuples is arithmetic in both. "auto" (the
default) makes sums and givens arithmetic and the rest tables, which measured fastest (Kenken
uniqueness proofs, CP-SAT 9.15, 1 worker, median ms per puzzle; benchmarks/RESULTS.md):

    order            table   arith   auto     cold build table / arith / auto
    4 (1000 puzzles)  1.01    2.16    1.06     0.90 / 0.50 / 0.87
    6 (1000)          2.91    4.82    2.81     4.23 / 0.94 / 1.99
    7 (1000)          8.17    8.60    6.29    10.61 / 1.40 / 2.70
    9 (4 handmade)    7.14   15.08    6.07    15.01 / 2.14 / 6.05

Arithmetic products (a chain of multiplication_equality) made CP-SAT 2x slower on 9x9; tables of
big sums cost the most to generate and gain nothing over a linear sum.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

from ortools.sat.python import cp_model
from ortools.util.python.sorted_interval_list import Domain

from .. import cages as cage_rules
from ..cages import OPERATORS
from ..errors import CpModelsError
from ..grid import Cage, GridPuzzle
from .base import SolveResult, status_for

try:
    from ortools.sat.python.cp_model_helper import CpBaseModel
except ImportError:  # older OR-Tools: a pure-Python CpModel, built call by call as before
    CpBaseModel = None  # type: ignore[assignment,misc]

TABLE_LIMIT = 20_000
"""A + or * cage becomes arithmetic when n ** (its size) exceeds this, whatever the encoding."""
ENCODINGS = ("auto", "table", "arith")
AUTO_ARITHMETIC = frozenset({"+", "="})
"""The operators "auto" encodes as arithmetic; measured on the Kenken benchmark (benchmarks/RESULTS.md)."""
_ARITHMETIC_OPS = {"table": frozenset(), "arith": frozenset(OPERATORS), "auto": AUTO_ARITHMETIC}


@dataclass
class CpsatModel:
    """A compiled puzzle: the CpModel and the cell variables, row-major, for users to extend."""

    model: cp_model.CpModel
    cells: list[cp_model.IntVar]


class _LeanCpModel(cp_model.CpModel):
    """A CpModel without the deprecated CamelCase method aliases, which cost 0.4 ms per model to attach."""

    def __init__(self) -> None:
        CpBaseModel.__init__(self, None)


def _add_grid(model: cp_model.CpModel, n: int, units, givens) -> list[cp_model.IntVar]:
    """Add named cell variables (a given as a fixed domain, 0 meaning 1..n) and one AllDifferent per unit."""
    cells = [model.new_int_var(g or 1, g or n, f"r{i // n + 1}c{i % n + 1}") for i, g in enumerate(givens)]
    for unit in units:
        model.add_all_different([cells[i] for i in unit])
    return cells


@lru_cache(maxsize=16)
def _unit_template(n: int, units: tuple[tuple[int, ...], ...]) -> cp_model.CpModel:
    """The model of an empty grid with these units, to be copied: building it call by call is the slow part."""
    model = _LeanCpModel()
    _add_grid(model, n, units, [0] * (n * n))
    return model


def _grid_model(puzzle: GridPuzzle) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """A model with the cells and units of `puzzle`, copied from its template, and the givens fixed."""
    if CpBaseModel is None:
        model = cp_model.CpModel()
        return model, _add_grid(model, puzzle.n, puzzle.units, puzzle.givens)
    model = _LeanCpModel()
    model.proto.copy_from(_unit_template(puzzle.n, puzzle.units).proto)
    proto = model.proto
    cells = [cp_model.IntVar(proto, i) for i in range(puzzle.n * puzzle.n)]
    for x, g in zip(cells, puzzle.givens):
        if g:
            x.with_domain(Domain(g, g))
    return model, cells


def clear_caches() -> None:
    """Forget the remembered unit templates and cage tables, so that the next build pays for them (benchmarks)."""
    _unit_template.cache_clear()
    _tuples.cache_clear()


def build_model(puzzle: GridPuzzle, encoding: str = "auto") -> CpsatModel:
    """The CP-SAT model of `puzzle`: a variable per cell (givens as fixed domains), units, cages."""
    if encoding not in ENCODINGS:
        raise CpModelsError(f"unknown cage encoding {encoding!r}; choose one of: {', '.join(ENCODINGS)}")
    model, cells = _grid_model(puzzle)
    arithmetic = _ARITHMETIC_OPS[encoding]
    n = puzzle.n
    for cage in puzzle.cages:
        _add_cage(model, [cells[r * n + c] for r, c in cage.cells], cage, n, cage.op in arithmetic)
    return CpsatModel(model, cells)


def _add_cage(model: cp_model.CpModel, xs: list[cp_model.IntVar], cage: Cage, n: int, arith: bool) -> None:
    """Constrain `xs` to the cage: arithmetic when asked for (or when a table could be huge), else a table."""
    huge = cage.op in ("+", "*") and n ** len(xs) > TABLE_LIMIT
    if cage.op in _ARITHMETIC and (arith or huge):
        _ARITHMETIC[cage.op](model, xs, cage.target)
    else:
        model.add_allowed_assignments(xs, _tuples(_clash_pattern(cage.cells), cage.op, cage.target, n))


def _clash_pattern(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The cells relabelled by first appearance of their row and column: equal patterns allow equal tuples."""
    rows: dict[int, int] = {}
    cols: dict[int, int] = {}
    return tuple((rows.setdefault(r, len(rows)), cols.setdefault(c, len(cols))) for r, c in cells)


@lru_cache(maxsize=4096)
def _tuples(cells: tuple[tuple[int, int], ...], op: str | None, target: int, n: int) -> list[tuple[int, ...]]:
    """cages.allowed_tuples, remembered: generating a table in Python costs up to tens of ms."""
    return cage_rules.allowed_tuples(cells, op, target, n)


def _add_sum(model: cp_model.CpModel, xs: list[cp_model.IntVar], target: int) -> None:
    """Constrain the sum of `xs` to `target`."""
    model.add(sum(xs) == target)


def _add_product(model: cp_model.CpModel, xs: list[cp_model.IntVar], target: int) -> None:
    """Constrain the product of `xs` to `target` through a chain of partial products, each dividing it."""
    acc: cp_model.LinearExprT = xs[0]
    for x in xs[1:]:
        partial = model.new_int_var(1, target, "")
        model.add_multiplication_equality(partial, [acc, x])
        model.add_modulo_equality(0, target, partial)
        acc = partial
    model.add(acc == target)


def _add_difference(model: cp_model.CpModel, xs: list[cp_model.IntVar], target: int) -> None:
    """Constrain |x - y| to `target`."""
    model.add_abs_equality(target, xs[0] - xs[1])


def _add_quotient(model: cp_model.CpModel, xs: list[cp_model.IntVar], target: int) -> None:
    """Constrain max/min of two cells to `target` exactly: x == t*y if b, else y == t*x."""
    x, y = xs
    b = model.new_bool_var("")
    model.add(x == target * y).only_enforce_if(b)
    model.add(y == target * x).only_enforce_if(~b)


def _add_value(model: cp_model.CpModel, xs: list[cp_model.IntVar], target: int) -> None:
    """Constrain a single cell to `target`."""
    model.add(xs[0] == target)


_ARITHMETIC = {"+": _add_sum, "*": _add_product, "-": _add_difference, "/": _add_quotient, "=": _add_value}


class CpsatBackend:
    """The CP-SAT backend; `workers` > 1 is only used for first solutions and `method="forbid"`."""

    name = "cpsat"
    supports_cages = True
    max_order = 64

    def __init__(self, method: str = "enumerate", workers: int = 1, encoding: str = "auto") -> None:
        if encoding not in ENCODINGS:
            raise CpModelsError(f"unknown cage encoding {encoding!r}; choose one of: {', '.join(ENCODINGS)}")
        self.method, self.workers, self.encoding = method, workers, encoding

    def can_solve(self, puzzle: GridPuzzle) -> str | None:
        """None: CP-SAT takes every grid puzzle up to order 64."""
        return None if puzzle.n <= self.max_order else f"order {puzzle.n} is above {self.max_order}"

    def warm_up(self) -> float:
        """Nothing to compile: 0.0 seconds (the method exists so callers treat every backend alike)."""
        return 0.0

    def solve(self, puzzle: GridPuzzle, *, limit: int = 1, time_limit: float | None = None) -> SolveResult:
        """Up to `limit` solutions, by one-worker enumeration or by repeated solve-and-forbid."""
        start = time.perf_counter()
        compiled = build_model(puzzle, self.encoding)
        build_us = int((time.perf_counter() - start) * 1e6)
        result = solve_model(
            compiled, puzzle, limit=limit, time_limit=time_limit, method=self.method, workers=self.workers
        )
        result.stats["build_us"] = build_us
        result.wall_s = time.perf_counter() - start
        return result


def solve_model(
    compiled: CpsatModel,
    puzzle: GridPuzzle,
    *,
    limit: int = 1,
    time_limit: float | None = None,
    method: str = "enumerate",
    workers: int = 1,
) -> SolveResult:
    """Up to `limit` solutions of a compiled (perhaps user-extended) model of `puzzle`, counted exactly:
    one-worker enumeration, or solve-and-forbid (`method="forbid"`, exact with several workers)."""
    start = time.perf_counter()
    if method == "forbid" or limit == 1:
        solutions, complete, stats = _solve_and_forbid(compiled, puzzle, limit, time_limit, workers)
    else:
        solutions, complete, stats = _enumerate(compiled, limit, time_limit)
    status = status_for(len(solutions), limit, complete)
    return SolveResult(status, solutions, len(solutions), complete, time.perf_counter() - start, stats, "cpsat")


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
        self.cells, self.limit = cells, limit
        self.solutions: list[tuple[int, ...]] = []

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
