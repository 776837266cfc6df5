"""python-constraint (`python-constraint2` on PyPI, imported as `constraint`): backtracking with forward checking.

Model: one variable per empty cell, its domain 1..n without the givens of its peers (givens are
fixed values, not variables); an AllDifferentConstraint over the empty cells of each unit; each
cage a FunctionConstraint accepting exactly the tuples of cages.allowed_tuples that fit the givens,
projected onto its empty cells (whose domains shrink to the values some tuple uses). A cage whose
candidate tuples would number more than TABLE_LIMIT is checked on full assignments instead (plus the
library's ExactSumConstraint for `+`, which means the same sum). A Constraint subclass that also
hid values no remaining tuple supports was measured no faster on the arithmatrix 5x5-7x7 sets
(medians 7/44/129 ms against 4/36/103 ms for FunctionConstraint; CP-SAT 2.5/9/11 ms), so the simple
form stays.

Solvers (`solver=`): the library's default, OptimizedBacktrackingSolver, orders variables once;
BacktrackingSolver re-orders them at every node (most constraints, then fewest values), which is
what a Sudoku needs. On the 11 puzzles of norvig_hardest.txt, proving uniqueness (limit 2), median
and max ms: backtracking 34/258, recursive 56/400, optimized 216/3775; CP-SAT 10/43 in the same run.
BacktrackingSolver is the default here.

Time limit: the library has none and one search can run for minutes, so a search with a time limit
runs in a child process (a plain subprocess: no multiprocessing re-import of the caller's main
module, and nothing left running) that gets the model pickled on stdin and writes each solution it
keeps as a JSON line as it is found, and its count every COUNT_EVERY seconds; at the deadline the
child is killed and reaped, and the solutions read so far come back with status "timeout". The
limit counts from the moment the child has read its model; starting it costs about 0.2 s
(stats["spawn_s"]). Without a time limit the search runs here. The child never outlives its search:
whatever stops the parent's wait (the deadline, an error, Ctrl-C, the CLI's SIGTERM handler) kills
and reaps it, and on Linux it asks the kernel to kill it when its parent dies (PR_SET_PDEATHSIG), so
even a parent killed by SIGKILL leaves nothing searching.

stats: "build_s", "search_s" (base.STAT_NAMES; the library counts nothing comparable), and the
backend's own: "variables" and "constraints" (the model's size), "spawn_s" (starting the child).
"""

from __future__ import annotations

import json
import os
import pickle
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import IO, Any, TextIO

from .. import cages as cage_rules
from ..errors import BackendUnavailableError, CpModelsError
from ..grid import GridPuzzle
from .base import Capabilities, SolveResult, SolveTimer, capability_problem, kept, time_limit_or_none, unreachable_cage

PACKAGE = "python-constraint2"
SOLVERS = ("backtracking", "optimized", "recursive")
"""The library's exact solvers: BacktrackingSolver, OptimizedBacktrackingSolver, RecursiveBacktrackingSolver."""
TABLE_LIMIT = 10**6
"""A cage becomes a check on full assignments when n ** (its empty cells) exceeds this."""

Grid = tuple[int, ...]


@dataclass(frozen=True)
class CageCheck:
    """A cage too large for a table: the positions of its empty cells, the given values, op and target."""

    cells: tuple[tuple[int, int], ...]
    givens: tuple[int, ...]
    op: str | None
    target: int

    def __call__(self, *values: int) -> bool:
        """Whether the empty cells' `values`, with the givens, are an allowed tuple of the cage."""
        it = iter(values)
        full = [g or next(it) for g in self.givens]
        clash = cage_rules.conflicts(self.cells)
        repeats = any(full[j] == full[i] for i, before in enumerate(clash) for j in before)
        return not repeats and cage_rules.holds(self.op, self.target, full)


@dataclass(frozen=True)
class ConstraintModel:
    """A puzzle as plain data for the library: domains of the empty cells, all-different groups and cages."""

    n: int
    givens: Grid
    domains: dict[int, tuple[int, ...]]
    groups: tuple[tuple[int, ...], ...]
    tables: tuple[tuple[tuple[int, ...], frozenset[Grid]], ...]
    checks: tuple[tuple[tuple[int, ...], CageCheck], ...]
    feasible: bool

    def size(self) -> int:
        """The number of constraints the model gives the library."""
        return len(self.groups) + len(self.tables) + len(self.checks)


def library() -> ModuleType | None:
    """The python-constraint2 module, or None if it is not installed (another `constraint` does not count)."""
    try:
        import constraint  # absolute: the top-level package, never this module
    except ImportError:
        return None
    return constraint if hasattr(constraint, "BacktrackingSolver") else None


# ---- compiling -----------------------------------------------------------------------------


def build_model(puzzle: GridPuzzle) -> ConstraintModel:
    """The library's model of `puzzle`: domains without peers' givens, unit groups, cage tables and checks."""
    n, givens = puzzle.n, puzzle.givens
    domains = _domains(puzzle)
    groups = tuple(g for g in (tuple(i for i in unit if not givens[i]) for unit in puzzle.units) if len(g) > 1)
    tables, checks, feasible = [], [], all(domains.values())
    for cage in puzzle.cages:
        cells = tuple(r * n + c for r, c in cage.cells)
        empty = tuple(i for i in cells if not givens[i])
        if n ** len(empty) > TABLE_LIMIT:
            checks.append((empty, CageCheck(cage.cells, tuple(givens[i] for i in cells), cage.op, cage.target)))
            continue
        rows = _table(puzzle, cage.cells, cage.op, cage.target, domains)
        feasible = feasible and bool(rows)
        for k, i in enumerate(empty):
            supported = {row[k] for row in rows}
            domains[i] = tuple(v for v in domains[i] if v in supported)
        if len(empty) > 1:
            tables.append((empty, rows))
    feasible = feasible and all(domains.values())
    return ConstraintModel(n, givens, domains, groups, tuple(tables), tuple(checks), feasible)


def _domains(puzzle: GridPuzzle) -> dict[int, tuple[int, ...]]:
    """For each empty cell, the values 1..n its candidate hints allow that no given in one of its units holds."""
    taken: dict[int, set[int]] = {i: set() for i, g in enumerate(puzzle.givens) if not g}
    for unit in puzzle.units:
        values = {puzzle.givens[i] for i in unit} - {0}
        for i in unit:
            if i in taken:
                taken[i] |= values
    return {
        i: tuple(v for v in range(1, puzzle.n + 1) if v not in used and puzzle.allows(i, v))
        for i, used in taken.items()
    }


def _table(
    puzzle: GridPuzzle,
    cells: Sequence[tuple[int, int]],
    op: str | None,
    target: int,
    domains: Mapping[int, Sequence[int]],
) -> frozenset[Grid]:
    """The cage's allowed tuples that agree with the givens and the domains, projected onto its empty cells."""
    n, givens = puzzle.n, puzzle.givens
    allowed = [(givens[r * n + c],) if givens[r * n + c] else domains[r * n + c] for r, c in cells]
    empty = [k for k, (r, c) in enumerate(cells) if not givens[r * n + c]]
    rows = cage_rules.iter_allowed_tuples(cells, op, target, n)
    return frozenset(
        tuple(row[k] for k in empty) for row in rows if all(v in a for v, a in zip(row, allowed, strict=True))
    )


def _in_table(rows: frozenset[Grid]) -> Callable[..., bool]:
    """A predicate on a cage's empty-cell values: whether they form one of `rows`."""

    def holds(*values: int) -> bool:
        return values in rows

    return holds


def _problem(model: ConstraintModel, solver: str) -> Any:
    """The library Problem of a feasible model with at least one variable, searched by the named solver."""
    lib = library()
    if lib is None:
        raise BackendUnavailableError(f"backend 'constraint' needs the package {PACKAGE}")
    kinds = {"backtracking": lib.BacktrackingSolver, "optimized": lib.OptimizedBacktrackingSolver}
    kinds["recursive"] = lib.RecursiveBacktrackingSolver
    problem = lib.Problem(kinds[solver]())
    for cell, domain in model.domains.items():
        problem.addVariable(cell, list(domain))
    for group in model.groups:
        problem.addConstraint(lib.AllDifferentConstraint(), list(group))
    for cells, rows in model.tables:
        problem.addConstraint(lib.FunctionConstraint(_in_table(rows)), list(cells))
    for cells, check in model.checks:
        problem.addConstraint(lib.FunctionConstraint(check), list(cells))
        if check.op == "+":
            problem.addConstraint(lib.ExactSumConstraint(check.target - sum(check.givens)), list(cells))
    return problem


# ---- searching -----------------------------------------------------------------------------


def iter_solutions(model: ConstraintModel, solver: str = "backtracking") -> Iterator[Grid]:
    """Every solution of the model as a row-major grid, lazily, in the library's order."""
    if not model.feasible:
        return
    if not model.domains:
        yield model.givens
        return
    for assignment in _problem(model, solver).getSolutionIter():
        grid = list(model.givens)
        for cell, value in assignment.items():
            grid[cell] = value
        yield tuple(grid)


def _search(model: ConstraintModel, limit: int, keep: int, solver: str) -> tuple[list[Grid], int, bool]:
    """The first `keep` of up to `limit` solutions found in this process, their count, and whether it was exhausted."""
    solutions: list[Grid] = []
    count = 0
    for grid in iter_solutions(model, solver):
        count += 1
        if count <= keep:
            solutions.append(grid)
        if count >= limit:
            return solutions, count, False
    return solutions, count, True


_CHILD_PROGRAM = """
import os, sys, types
if sys.platform.startswith("linux"):
    try:  # PR_SET_PDEATHSIG (1): the kernel kills this process when its parent dies, even by SIGKILL
        import ctypes, signal
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
if os.getppid() != {parent}:
    sys.exit(1)  # the parent died before the line above took effect
if sys.path and sys.path[0] in ("", "."):
    del sys.path[0]  # the working directory: a constraint.py there must not shadow the library
for name, path in {packages!r}:
    package = types.ModuleType(name)
    package.__path__ = [path]
    sys.modules[name] = package
from {module} import child_main
child_main()
"""
"""The child's program: stub packages skip cpmodels/__init__ and the registry, which the search does not need."""
STARTUP_LIMIT = 60.0
"""Seconds a child may take to start and read its model before it is taken as failed."""
COUNT_EVERY = 0.02
"""Seconds between the child's count messages once it keeps no more grids: the count lost at a kill."""


def child_main() -> None:
    """In the child process: read a pickled (model, limit, keep, solver) from stdin, write JSON lines to stdout.

    Messages: ["ready", null]; ["solution", grid] for each of the first `keep`; ["count", found] at
    most every COUNT_EVERY seconds after those; ["done", [exhausted, found]]; or ["error", text].
    """
    out = sys.stdout
    try:
        model, limit, keep, solver = pickle.load(sys.stdin.buffer)
        _send(out, "ready", None)
        found, told = 0, time.perf_counter()
        for grid in iter_solutions(model, solver):
            found += 1
            if found <= keep:
                _send(out, "solution", grid)
            elif time.perf_counter() - told >= COUNT_EVERY:
                _send(out, "count", found)
                told = time.perf_counter()
            if found >= limit:
                _send(out, "done", [False, found])
                return
        _send(out, "done", [True, found])
    except Exception as exc:  # noqa: BLE001 -- any failure goes to the parent, which raises it there
        _send(out, "error", f"{type(exc).__name__}: {exc}")


def _send(out: TextIO, kind: str, payload: object) -> None:
    """Write one message as a JSON line and flush it, so the parent sees each solution as it is found."""
    out.write(json.dumps([kind, payload]) + "\n")
    out.flush()


def _child_command() -> list[str]:
    """The command that runs child_main in a fresh interpreter."""
    root = __name__.split(".")[0]
    packages = [(name, next(iter(sys.modules[name].__path__))) for name in (root, __package__)]
    program = _CHILD_PROGRAM.format(packages=packages, module=__name__, parent=os.getpid())
    return [sys.executable, "-c", program]


def _search_in_child(
    model: ConstraintModel, limit: int, keep: int, solver: str, time_limit: float, stats: dict[str, float]
) -> tuple[list[Grid], int, bool]:
    """The first `keep` of up to `limit` solutions from a child killed `time_limit` s into its search.

    Returns them, their count, and whether the child exhausted its space. The child is killed and
    reaped on any way out of here.
    """
    started = time.perf_counter()
    child = subprocess.Popen(_child_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    reader = None
    try:
        lines: queue.Queue[bytes | None] = queue.Queue()
        reader = threading.Thread(target=_read_lines, args=(child.stdout, lines), daemon=True)
        reader.start()
        _write_model(child, (model, limit, keep, solver))
        _expect_ready(lines, started + STARTUP_LIMIT)
        stats["spawn_s"] = time.perf_counter() - started
        return _receive(lines, time.perf_counter() + time_limit)
    finally:  # KeyboardInterrupt, the CLI's Interrupted and SystemExit too: the child must not search on
        _stop(child)
        if reader is not None:
            reader.join()  # it ends at the end of the killed child's output
        if child.stdout is not None:
            child.stdout.close()


def _read_lines(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    """Put each line of `stream` on the queue, then None at its end (a thread: pipes cannot be polled portably)."""
    for line in stream:
        lines.put(line)
    lines.put(None)


def _write_model(child: subprocess.Popen[bytes], message: object) -> None:
    """Send the pickled message to the child's stdin and close it; a child that died first is reported later."""
    assert child.stdin is not None
    try:
        child.stdin.write(pickle.dumps(message))
        child.stdin.close()
    except BrokenPipeError:
        pass


def _next(lines: queue.Queue[bytes | None], deadline: float) -> tuple[str, Any] | None:
    """The child's next message, or None when `deadline` passes first; RuntimeError if it ended or failed."""
    try:
        line = lines.get(timeout=max(0.0, deadline - time.perf_counter()))
    except queue.Empty:
        return None
    if line is None:
        raise RuntimeError("the python-constraint search process ended without an answer")
    kind, payload = json.loads(line)
    if kind == "error":
        raise RuntimeError(f"the python-constraint search failed: {payload}")
    return kind, payload


def _expect_ready(lines: queue.Queue[bytes | None], deadline: float) -> None:
    """Wait for the child to say it has read its model; RuntimeError if it does not by `deadline`."""
    if _next(lines, deadline) is None:
        raise RuntimeError(f"the python-constraint search process did not start within {STARTUP_LIMIT:.0f} s")


def _receive(lines: queue.Queue[bytes | None], deadline: float) -> tuple[list[Grid], int, bool]:
    """The solutions the child sends until it is done or `deadline` passes, its count, and whether it is exhausted."""
    solutions: list[Grid] = []
    count = 0
    while (message := _next(lines, deadline)) is not None:
        kind, payload = message
        if kind == "done":
            return solutions, max(count, payload[1]), payload[0]
        if kind == "count":
            count = max(count, payload)
        else:
            solutions.append(tuple(payload))
            count += 1
    return solutions, count, False


def _stop(child: subprocess.Popen[bytes]) -> None:
    """Kill the child if it still runs and reap it, so that no zombie is left.

    Killing comes first: an exception arriving during the rest (a second Ctrl-C) leaves nothing searching.
    """
    if child.poll() is None:
        child.kill()
    child.wait()
    if child.stdin is not None and not child.stdin.closed:
        try:
            child.stdin.close()
        except OSError:  # BrokenPipeError flushing what the dead child never read
            pass


class ConstraintBackend:
    """The python-constraint backend; `solver` names one of SOLVERS (default: BacktrackingSolver)."""

    name = "constraint"
    capabilities = Capabilities(cages=True, max_order=16, counting=True, time_limit=True)

    def __init__(self, solver: str = "backtracking") -> None:
        if solver not in SOLVERS:
            raise CpModelsError(f"unknown python-constraint solver {solver!r}; choose one of: {', '.join(SOLVERS)}")
        self.solver = solver

    def can_solve(self, puzzle: GridPuzzle) -> str | None:
        """None if the order is at most 16 (capability_problem) and python-constraint2 is installed, else the reason."""
        problem = capability_problem(self.capabilities, puzzle)
        if problem:
            return f"{problem}, too large for plain backtracking"
        if library() is None:
            return f"backend 'constraint' needs the package {PACKAGE}"
        return None

    def warm_up(self) -> float:
        """Import python-constraint2 (if installed), which the first search would; the seconds it took."""
        start = time.perf_counter()
        library()
        return time.perf_counter() - start

    def solve(
        self, puzzle: GridPuzzle, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> SolveResult:
        """Up to `limit` solutions (the first `keep` kept); with a time limit, searched in a child stopped then."""
        timer = SolveTimer()
        if unreachable_cage(puzzle):
            return timer.finish(self.name, [], limit, True, {})
        model = build_model(puzzle)
        timer.built()
        stats: dict[str, float] = {"variables": len(model.domains), "constraints": model.size()}
        decided = not model.feasible or not model.domains
        seconds = time_limit_or_none(time_limit)
        if seconds is None or decided:
            solutions, count, exhausted = _search(model, limit, kept(limit, keep), self.solver)
        else:
            solutions, count, exhausted = _search_in_child(model, limit, kept(limit, keep), self.solver, seconds, stats)
        return timer.finish(self.name, solutions, limit, exhausted, stats, count)
