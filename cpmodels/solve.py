"""The entry points: solve, count_solutions, is_unique, dispatched through the backend registry."""

from __future__ import annotations

import random

from .backends import SolveResult, get_backend
from .errors import BackendUnavailableError, CpModelsError, SearchTimeoutError
from .grid import GridPuzzle, explain_violation

DEFAULT_BACKEND = "cpsat"


def solve(
    puzzle: GridPuzzle, *, backend: str = DEFAULT_BACKEND, limit: int = 1, time_limit: float | None = None
) -> SolveResult:
    """Up to `limit` solutions of `puzzle` from the named backend, each verified by the checker."""
    if limit < 1:
        raise CpModelsError(f"limit must be at least 1, not {limit}")
    engine = get_backend(backend)
    reason = engine.can_solve(puzzle)
    if reason:
        raise BackendUnavailableError(f"backend {backend!r} cannot solve {puzzle.name or 'this puzzle'}: {reason}")
    result = engine.solve(puzzle, limit=limit, time_limit=time_limit)
    for grid in result.solutions:
        problem = explain_violation(puzzle, grid)
        if problem:
            raise RuntimeError(f"backend {backend!r} returned a wrong solution: {problem}")
    return result


def count_solutions(
    puzzle: GridPuzzle, limit: int = 2, *, backend: str = DEFAULT_BACKEND, time_limit: float | None = None
) -> int:
    """The number of solutions of `puzzle`, counted up to `limit` (a result of `limit` means `limit` or more)."""
    result = solve(puzzle, backend=backend, limit=limit, time_limit=time_limit)
    if result.status == "timeout" or (not result.complete and result.count < limit):
        raise SearchTimeoutError(f"time limit of {time_limit} s reached after {result.count} solution(s)")
    return result.count


def is_unique(puzzle: GridPuzzle, *, backend: str = DEFAULT_BACKEND, time_limit: float | None = None) -> bool:
    """Whether `puzzle` has exactly one solution."""
    return count_solutions(puzzle, 2, backend=backend, time_limit=time_limit) == 1


def punch_while_unique(
    puzzle: GridPuzzle, rng: random.Random, *, backend: str = "backtrack", holes: int | None = None
) -> GridPuzzle:
    """`puzzle` (unique) with givens emptied one at a time in random order, each kept empty only while the
    puzzle stays unique; stops after `holes` holes, or when no given can go (a minimal puzzle)."""
    givens = list(puzzle.givens)
    for i in rng.sample(range(len(givens)), len(givens)):
        if holes is not None and givens.count(0) >= holes:
            break
        if givens[i]:
            value, givens[i] = givens[i], 0
            if count_solutions(puzzle.with_givens(givens), 2, backend=backend) != 1:
                givens[i] = value
    return puzzle.with_givens(givens)


def unique_mathdoku(n: int, rng: random.Random, *, backend: str = "cpsat", max_cage: int = 4, tries: int = 200):
    """A planted order-n Mathdoku with exactly one solution (the first of up to `tries` random ones), and it."""
    from .mathdoku import random_puzzle

    for _ in range(tries):
        puzzle, square = random_puzzle(n, rng, max_cage)
        if count_solutions(puzzle, 2, backend=backend) == 1:
            return puzzle, square
    raise CpModelsError(f"no unique order-{n} Mathdoku in {tries} tries; allow smaller cages (max_cage)")
