"""The entry points: solve, count_solutions, is_unique, dispatched through the backend registry."""

from __future__ import annotations

from .backends import SolveResult, get_backend, refusal
from .backends.base import KEEP_ALL, WITNESSES
from .errors import BackendUnavailableError, CpModelsError, SearchTimeoutError
from .grid import GridPuzzle, explain_violation

DEFAULT_BACKEND = "cpsat"


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
