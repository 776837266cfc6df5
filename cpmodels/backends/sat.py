"""SAT through python-sat (PySAT): the puzzle as CNF, CaDiCaL 1.9.5 by default, any PySAT solver by name.

The encoding (encoding version 1), exactly enough to regenerate it; certificates.py writes and checks it.

Variables. For an order-n puzzle with cells i = r*n + c (row-major, 0-based) and values v in 1..n, the
Boolean "cell i holds v" is variable var(i, v) = i*n + v, so variables 1..n**3 are the cells'. Every
auxiliary variable is numbered after them, n**3 + 1, n**3 + 2, ..., in the order the clauses below
create them. The DIMACS header is `p cnf V C`, V the last variable's number.

The units and cages are the puzzle's as cpmodels holds them: units are the n rows (cells left to
right), then the n columns (top to bottom), then a Sudoku's boxes (boxes left to right, top to bottom;
cells in a box row-major), each a cell list in that order; a Mathdoku's cages are sorted by their first
cell, and each cage's cells row-major (mathdoku.canonical); a single-cell cage is an `=` cage.

Clauses, in this order:
  1. Cells: for i = 0 .. n*n-1, the clause (var(i,1) ... var(i,n)), then AMO(var(i,1) .. var(i,n)).
  2. Units: for each unit of puzzle.units in order, for v = 1..n, with xs = var(i, v) for the unit's
     cells i in the unit's order: the clause (xs) if the unit has n cells (a shorter unit has none),
     then AMO(xs).
  3. Givens: for i = 0 .. n*n-1 with a given g, the unit clause (var(i, g)); then candidate hints
     (GridPuzzle.domains, only in a puzzle that has them): for i = 0 .. n*n-1 without a given, for each
     v = 1..n its hints leave out, the unit clause (-var(i, v)).
  4. Cages: for each cage of puzzle.cages in order, its allowed tuples t_1 .. t_m: every tuple of
     values 1..n for the cage's cells (in the cage's order) that meets its operator and target
     (cages.holds; a hidden operator allows any that fits) and repeats no value between two of its
     cells in one row or column, in lexicographic order (cages.allowed_tuples). One new variable a_j
     per tuple; for j = 1..m, for each cell k of the cage in order: (-a_j var(cell_k, t_j[k])); then
     the clause (a_1 ... a_m).
AMO(x_1 .. x_k), at most one of k literals: nothing when k <= 1; pairwise when k <= PAIRWISE_MAX (9),
the clauses (-x_a -x_b) for a < b in lexicographic order of (a, b); above, Sinz's sequential counter
with k - 1 new variables s_1 .. s_{k-1}: (-x_1 s_1), then for j = 2 .. k-1 the three clauses
(-x_j s_j) (-s_{j-1} s_j) (-x_j -s_{j-1}), then (-x_k -s_{k-1}).

A model is a grid: exactly one var(i, v) is true per cell, and the cage variables a_j are fixed by the
cells (the one tuple they make; a counter's s_j need not be). Counting forbids each grid found with the clause
(-var(i, grid[i]) for every cell i in row-major order) and solves again, so a count is of distinct grids.

Time limits: solvers with an interrupt (Glucose, MiniSat, Maple...) are interrupted by a
threading.Timer; CaDiCaL and Kissat have none in PySAT, so they search in slices of conflicts
(conf_budget, SLICE_CONFLICTS), the clock read between slices. Lingeling has neither: a backend on it
declares no time limit.

stats: "nodes" (the solver's decisions), "conflicts", "propagations", "build_s", "search_s"
(base.STAT_NAMES, from PySAT's accum_stats where the solver gives them), plus "variables" and "clauses"
of the CNF. PySAT is imported inside the functions that solve: this module's encoding needs none.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import Any

from .. import cages as cage_rules
from ..errors import CpModelsError
from ..grid import Cage, GridPuzzle, latin_units
from .base import Capabilities, SolveResult, SolveTimer, capability_problem, kept, unreachable_cage

ENCODING_VERSION = 1
"""The version of the encoding in the module docstring; certificates name it."""
DEFAULT_SOLVER = "cadical195"
PAIRWISE_MAX = 9
"""An at-most-one over at most this many literals is pairwise, over more a sequential counter.

Measured (CaDiCaL 1.9.5, uniqueness, one loaded run): 9x9 pairwise, 12,011 clauses; 16x16 with the
counter 46,186 clauses and 84 ms median over 9 puzzles, pairwise 124,010 clauses and 92-151 ms;
25x25 with the counter 180,295 clauses, pairwise 752,795 and slower."""
MAX_CAGE_TUPLES = 200_000
"""A cage allowing more value tuples than this is refused (one variable and clauses per tuple)."""
SLICE_CONFLICTS = 2_000
"""Conflicts per slice of a time-limited search on a solver without an interrupt (CaDiCaL, Kissat)."""
NO_TIME_LIMIT = frozenset({"lingeling"})
"""PySAT solvers with neither an interrupt nor a conflict budget (python-sat 1.9)."""


# ---- the encoding ------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Cnf:
    """A puzzle's CNF (module docstring): its variables and clauses; `empty_cage`: why, if a cage allows no tuple."""

    n: int
    variables: int
    clauses: list[Sequence[int]]
    empty_cage: str | None = None


def cell_var(n: int, cell: int, value: int) -> int:
    """var(cell, value) = cell*n + value: the variable of "row-major `cell` holds `value`" (1-based value)."""
    return cell * n + value


def _at_most_one(xs: Sequence[int], next_var: int, out: list[list[int]]) -> int:
    """Append AMO(xs) to `out` (module docstring), its auxiliaries numbered from `next_var`; the next free number."""
    k = len(xs)
    if k <= 1:
        return next_var
    if k <= PAIRWISE_MAX:
        out.extend([-xs[a], -xs[b]] for a in range(k) for b in range(a + 1, k))
        return next_var
    s = list(range(next_var, next_var + k - 1))
    out.append([-xs[0], s[0]])
    for j in range(1, k - 1):
        out.extend(([-xs[j], s[j]], [-s[j - 1], s[j]], [-xs[j], -s[j - 1]]))
    out.append([-xs[k - 1], -s[k - 2]])
    return next_var + k - 1


@lru_cache(maxsize=16)
def _structure(n: int, units: tuple[tuple[int, ...], ...]) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The clauses 1 and 2 of an order-n grid with these units (as tuples, shared), and the next free variable."""
    out: list[list[int]] = []
    next_var = n**3 + 1
    for i in range(n * n):
        xs = [i * n + v for v in range(1, n + 1)]
        out.append(xs)
        next_var = _at_most_one(xs, next_var, out)
    for unit in units:
        for v in range(1, n + 1):
            xs = [i * n + v for i in unit]
            if len(unit) == n:
                out.append(xs)
            next_var = _at_most_one(xs, next_var, out)
    return tuple(map(tuple, out)), next_var


def _clash_pattern(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The cells relabelled by first appearance of their row and column: equal patterns allow equal tuples."""
    rows: dict[int, int] = {}
    cols: dict[int, int] = {}
    return tuple((rows.setdefault(r, len(rows)), cols.setdefault(c, len(cols))) for r, c in cells)


@lru_cache(maxsize=4096)
def _tuples(pattern: tuple[tuple[int, int], ...], op: str | None, target: int, n: int) -> tuple[tuple[int, ...], ...]:
    """cages.allowed_tuples of a clash pattern, up to MAX_CAGE_TUPLES + 1 of them, remembered."""
    return tuple(islice(cage_rules.iter_allowed_tuples(pattern, op, target, n), MAX_CAGE_TUPLES + 1))


def cage_tuples(cage: Cage, n: int) -> tuple[tuple[int, ...], ...]:
    """The allowed tuples of `cage` in lexicographic order (cages.allowed_tuples), at most MAX_CAGE_TUPLES + 1."""
    return _tuples(_clash_pattern(cage.cells), cage.op, cage.target, n)


def too_many_tuples(puzzle: GridPuzzle) -> str | None:
    """Why not, if a cage of `puzzle` allows more than MAX_CAGE_TUPLES tuples; else None."""
    for k, cage in enumerate(puzzle.cages, start=1):
        if len(cage_tuples(cage, puzzle.n)) > MAX_CAGE_TUPLES:
            return f"cage {k} ({cage.label()}) allows more than {MAX_CAGE_TUPLES} value tuples"
    return None


def puzzle_cnf(puzzle: GridPuzzle) -> Cnf:
    """The CNF of `puzzle`, exactly as the module docstring writes it (CpModelsError for a cage too big)."""
    problem = too_many_tuples(puzzle)
    if problem:
        raise CpModelsError(f"no CNF: {problem}")
    n = puzzle.n
    shared, next_var = _structure(n, puzzle.units)
    clauses: list[Sequence[int]] = list(shared)  # the shared clauses are tuples, never copied
    clauses.extend([i * n + g] for i, g in enumerate(puzzle.givens) if g)
    for i, mask in enumerate(puzzle.domains):  # candidate hints: the values left out, as unit clauses
        if not puzzle.givens[i]:
            clauses.extend([-(i * n + v)] for v in range(1, n + 1) if not mask >> (v - 1) & 1)
    empty = None
    for k, cage in enumerate(puzzle.cages, start=1):
        cells = [r * n + c for r, c in cage.cells]
        tuples = cage_tuples(cage, n)
        aux = list(range(next_var, next_var + len(tuples)))
        next_var += len(tuples)
        for a, values in zip(aux, tuples, strict=True):
            clauses.extend([-a, i * n + v] for i, v in zip(cells, values, strict=True))
        clauses.append(aux)
        if not tuples and empty is None:
            empty = f"cage {k} ({cage.label()}) allows no value tuple"
    return Cnf(n, next_var - 1, clauses, empty)


def forbidding_clause(n: int, grid: Sequence[int]) -> list[int]:
    """The clause that forbids `grid`: -var(i, grid[i]) for every cell i, row-major."""
    return [-(i * n + v) for i, v in enumerate(grid)]


def decode(model: Sequence[int], n: int) -> tuple[int, ...]:
    """The row-major grid of a model (signed literals of variables 1, 2, ... in order)."""
    positive = [lit for lit in islice(model, n**3) if lit > 0]
    if len(positive) != n * n:
        raise RuntimeError(f"a SAT model sets {len(positive)} cell variables true, not {n * n}")
    return tuple((lit - 1) % n + 1 for lit in positive)


def dimacs(cnf: Cnf, extra: Sequence[Sequence[int]] = (), comments: Sequence[str] = ()) -> str:
    """The DIMACS text of `cnf` with the clauses `extra` after its own: `c` comments, `p cnf V C`, a clause a line."""
    clauses = [*cnf.clauses, *extra]
    head = [f"c {line}" for line in comments] + [f"p cnf {cnf.variables} {len(clauses)}"]
    return "\n".join([*head, *(" ".join(map(str, c)) + " 0" for c in clauses)]) + "\n"


# ---- solving -----------------------------------------------------------------------------------


def solver_name(name: str) -> str:
    """The canonical PySAT name of solver `name` (an alias such as "cd19" or "g4" too); CpModelsError if unknown."""
    try:
        from pysat.solvers import SolverNames
    except ImportError:
        raise CpModelsError("the sat backend needs the package python-sat") from None
    for canonical, aliases in vars(SolverNames).items():
        if not canonical.startswith("_") and (name == canonical or name in aliases):
            return canonical
    known = sorted(k for k in vars(SolverNames) if not k.startswith("_"))
    raise CpModelsError(f"unknown PySAT solver {name!r}; choose one of: {', '.join(known)}")


def new_solver(name: str, clauses: Sequence[Sequence[int]], with_proof: bool = False) -> Any:
    """A PySAT solver called `name` holding `clauses` (with DRAT proof logging if `with_proof`)."""
    from pysat.solvers import Solver

    solver = Solver(name=name, with_proof=with_proof)
    solver.append_formula(clauses)
    return solver


@lru_cache(maxsize=64)
def _can_interrupt(name: str) -> bool:
    """Whether PySAT's solver `name` has an interrupt (clear_interrupt does not raise NotImplementedError)."""
    solver = new_solver(name, [])
    try:
        solver.clear_interrupt()
    except NotImplementedError:
        return False
    finally:
        solver.delete()
    return True


def _solve(solver: Any, name: str, deadline: float | None, slice_conflicts: list[int]) -> bool | None:
    """One SAT call: True (a model), False (none) or None (the deadline came first)."""
    if deadline is None:
        return bool(solver.solve())
    if _can_interrupt(name):
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        solver.clear_interrupt()
        timer = threading.Timer(left, solver.interrupt)
        timer.start()
        try:
            return solver.solve_limited(expect_interrupt=True)
        finally:
            timer.cancel()
            timer.join()  # never an interrupt reaching a solver deleted after this call
    while True:  # no interrupt: slices of conflicts, the clock read between them
        start = time.perf_counter()
        if start >= deadline:
            return None
        solver.conf_budget(slice_conflicts[0])
        status = solver.solve_limited()
        if status is not None:
            return bool(status)
        took = time.perf_counter() - start
        if took < 0.01:
            slice_conflicts[0] = min(slice_conflicts[0] * 2, 1_000_000)
        elif took > 0.05:
            slice_conflicts[0] = max(slice_conflicts[0] // 2, 100)


def search(
    cnf: Cnf, name: str, limit: int, keep: int, deadline: float | None
) -> tuple[list[tuple[int, ...]], int, bool, dict[str, float]]:
    """The first `keep` of up to `limit` grids, their count, whether the space was exhausted, and statistics."""
    stats: dict[str, float] = {"variables": cnf.variables, "clauses": len(cnf.clauses)}
    if cnf.empty_cage:
        return [], 0, True, stats
    solver = new_solver(name, cnf.clauses)
    solutions: list[tuple[int, ...]] = []
    count, complete, slices = 0, False, [SLICE_CONFLICTS]
    try:
        while count < limit:
            status = _solve(solver, name, deadline, slices)
            if status is None:
                break
            if not status:
                complete = True
                break
            grid = decode(solver.get_model(), cnf.n)
            count += 1
            if len(solutions) < keep:
                solutions.append(grid)
            if count < limit:
                solver.add_clause(forbidding_clause(cnf.n, grid))
        stats |= _solver_stats(solver)
    finally:
        solver.delete()
    return solutions, count, complete, stats


def _solver_stats(solver: Any) -> dict[str, float]:
    """The statistics PySAT's accum_stats gives: decisions as nodes, conflicts and propagations."""
    try:
        found = solver.accum_stats() or {}
    except NotImplementedError:
        return {}
    names = {"decisions": "nodes", "conflicts": "conflicts", "propagations": "propagations"}
    return {ours: int(found[theirs]) for theirs, ours in names.items() if theirs in found}


class SatBackend:
    """A PySAT solver (CaDiCaL 1.9.5 by default) on the CNF of the module docstring, counting by forbidding grids."""

    name = "sat"

    def __init__(self, solver: str = DEFAULT_SOLVER) -> None:
        self.solver = solver if solver == DEFAULT_SOLVER else solver_name(solver)
        self.capabilities = Capabilities(
            cages=True, max_order=64, counting=True, time_limit=self.solver not in NO_TIME_LIMIT
        )

    def can_solve(self, puzzle: GridPuzzle) -> str | None:
        """None up to order 64 with python-sat installed, unless a cage allows more than MAX_CAGE_TUPLES tuples."""
        problem = capability_problem(self.capabilities, puzzle)
        if problem or unreachable_cage(puzzle):  # an unreachable target is answered "none" without a CNF
            return problem
        try:
            import pysat  # noqa: F401
        except ImportError:
            return "backend 'sat' needs the package python-sat"
        return too_many_tuples(puzzle)

    def warm_up(self) -> float:
        """Import PySAT and solve an empty 4x4 Latin square to two solutions; the seconds it took."""
        start = time.perf_counter()
        self.solve(GridPuzzle(4, latin_units(4), (0,) * 16), limit=2)
        return time.perf_counter() - start

    def solve(
        self, puzzle: GridPuzzle, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> SolveResult:
        """Up to `limit` grids of `puzzle` (the first `keep` kept), stopping at `time_limit` seconds.

        A cage whose target is out of its operator's range (base.unreachable_cage) answers "none" unbuilt.
        """
        timer = SolveTimer()
        deadline = timer.deadline(time_limit)
        if unreachable_cage(puzzle):
            return timer.finish(self.name, [], limit, True, {})
        cnf = puzzle_cnf(puzzle)
        timer.built()
        solutions, count, complete, stats = search(cnf, self.solver, limit, kept(limit, keep), deadline)
        return timer.finish(self.name, solutions, limit, complete, stats, count)
