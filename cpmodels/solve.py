"""The entry points: solve, count_solutions, is_unique, dispatched through the backend registry; solve_cover.

Exact-cover problems (cover.ExactCoverProblem, from Knuth's DLX files) have engines of their own,
COVER_ENGINES: dancing links (backends/dlx.py, Knuth's algorithm and counters) and a CP-SAT model
(backends/cpsat_cover.py); solve_cover checks every solution either returns with cover.cover_violation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .backends import SolveResult, get_backend, refusal
from .backends.base import KEEP_ALL, WITNESSES, status_for
from .cover import ExactCoverProblem, cover_violation
from .errors import BackendUnavailableError, CpModelsError, SearchTimeoutError
from .grid import GridPuzzle, explain_violation

if TYPE_CHECKING:
    from .backends.dlx import CoverResult

DEFAULT_BACKEND = "cpsat"
COVER_ENGINES = ("dlx", "cpsat")
"""The engines that solve exact-cover problems; the first is the default."""


def solve(
    puzzle: GridPuzzle,
    *,
    backend: str = DEFAULT_BACKEND,
    limit: int = 1,
    time_limit: float | None = None,
    keep: int | None = None,
) -> SolveResult:
    """Up to `limit` solutions of `puzzle` from the named backend, each verified by the checker.

    `keep`: how many of the grids found to return (and check); the count goes up to `limit` whatever
    it is. None keeps every grid when `limit` is at most KEEP_ALL (1000), else the first WITNESSES (2),
    so that a big count stores, checks and returns two grids, not millions.
    """
    if limit < 1:
        raise CpModelsError(f"limit must be at least 1, not {limit}")
    if keep is None:
        keep = limit if limit <= KEEP_ALL else WITNESSES
    engine = get_backend(backend)
    reason = refusal(engine, puzzle, limit, time_limit)
    if reason:
        raise BackendUnavailableError(f"backend {backend!r} cannot solve {puzzle.name or 'this puzzle'}: {reason}")
    if keep < limit:
        result = engine.solve(puzzle, limit=limit, time_limit=time_limit, keep=keep)
        del result.solutions[keep:]
    else:  # every grid found is kept: a backend written before `keep` existed is asked the same
        result = engine.solve(puzzle, limit=limit, time_limit=time_limit)
    for grid in result.solutions:
        problem = explain_violation(puzzle, grid)
        if problem:
            raise RuntimeError(f"backend {backend!r} returned a wrong solution: {problem}")
    return result


def count_solutions(
    puzzle: GridPuzzle, limit: int = 2, *, backend: str = DEFAULT_BACKEND, time_limit: float | None = None
) -> int:
    """The number of solutions of `puzzle`, counted up to `limit` (a result of `limit` means `limit` or more).

    Only WITNESSES (2) grids are kept and checked, whatever the limit.
    """
    result = solve(puzzle, backend=backend, limit=limit, time_limit=time_limit, keep=WITNESSES)
    if result.status == "timeout" or (not result.complete and result.count < limit):
        raise SearchTimeoutError(f"time limit of {time_limit} s reached after {result.count} solution(s)")
    return result.count


def is_unique(puzzle: GridPuzzle, *, backend: str = DEFAULT_BACKEND, time_limit: float | None = None) -> bool:
    """Whether `puzzle` has exactly one solution."""
    return count_solutions(puzzle, 2, backend=backend, time_limit=time_limit) == 1


def solve_cover(
    problem: ExactCoverProblem,
    *,
    engine: str = COVER_ENGINES[0],
    limit: int = 1,
    time_limit: float | None = None,
    keep: int | None = None,
    trace: bool = False,
    progress: Callable[[int, int], object] | None = None,
) -> CoverResult:
    """Up to `limit` exact covers of `problem` from `engine` (COVER_ENGINES), each verified by cover_violation.

    `keep` as in solve (None: all up to KEEP_ALL, else WITNESSES); dlx only: `trace` records Knuth's moves,
    `progress(solutions, nodes)` is told how far the search is, about every 20 ms.
    """
    if limit < 1:
        raise CpModelsError(f"limit must be at least 1, not {limit}")
    keep = keep if keep is not None else limit if limit <= KEEP_ALL else WITNESSES
    if engine == "dlx":
        from .backends.dlx import solve_cover as dancing_links

        result = dancing_links(problem, limit=limit, time_limit=time_limit, keep=keep, trace=trace, progress=progress)
    elif engine == "cpsat":
        from .backends.cpsat_cover import solve_cover as cp_sat

        result = cp_sat(problem, limit=limit, time_limit=time_limit, keep=keep)
    else:
        engines = ", ".join(COVER_ENGINES)
        raise BackendUnavailableError(f"backend {engine!r} does not solve exact-cover problems; use one of: {engines}")
    for options in result.solutions:
        wrong = cover_violation(problem, options)
        if wrong:
            raise RuntimeError(f"backend {engine!r} returned a wrong exact cover: {wrong}")
    return result


def cover_as_solve_result(result: CoverResult, limit: int, engine: str) -> SolveResult:
    """A CoverResult as a SolveResult: each solution its options sorted, the status for `limit`."""
    solutions = [tuple(sorted(options)) for options in result.solutions]
    status = status_for(result.count, limit, result.complete)
    return SolveResult(status, solutions, result.count, result.complete, result.wall_s, dict(result.stats), engine)
