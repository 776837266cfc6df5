"""A backend to copy: it declares its capabilities, refuses every puzzle, and shows where the work goes.

To write a backend: copy this file to backends/<name>.py, rename TemplateBackend and `name`, fill
`compile_puzzle` (the puzzle in your solver's own form) and `search` (solutions, completeness,
statistics), make `can_solve` return None for the puzzles you take, set `capabilities` to what the
search really does, and add one line to BACKENDS in backends/__init__.py: "<name>": ".<name>:YourBackend".
Import your solver library inside the functions that use it (or in a module the registry imports on
first use), never at the top of a module `import cpmodels` loads. tests/test_backends.py then runs
every registered backend on the same puzzles.
"""

from __future__ import annotations

import time
from typing import Any

from ..grid import GridPuzzle
from .base import Capabilities, SolveResult, SolveTimer, capability_problem, kept

NOT_WRITTEN = "the template backend solves nothing: copy it to write a backend"


def compile_puzzle(puzzle: GridPuzzle) -> Any:
    """The puzzle in the solver's own form: here, the puzzle itself (fill this in)."""
    return puzzle


def search(
    compiled: Any, limit: int, keep: int, deadline: float | None
) -> tuple[list[tuple[int, ...]], int, bool, dict[str, float]]:
    """The first `keep` of up to `limit` solutions, their count, completeness and statistics (fill this in).

    Returns the grids (row-major), how many were found, whether the search space was exhausted, and
    the statistics named as in base.STAT_NAMES (nodes, backtracks, ...). Stop at `deadline`
    (perf_counter time) if given, checking the clock often (a native kernel: between chunks of work,
    which also lets Ctrl-C through). Store no grid past `keep`: a count of millions keeps two.
    Here: nothing found, nothing searched.
    """
    return [], 0, False, {"nodes": 0}


class TemplateBackend:
    """A backend that takes no puzzle: the shape every backend has (base.Backend), to copy."""

    name = "template"
    capabilities = Capabilities(cages=True, max_order=64, counting=False, time_limit=False)
    """cages: takes cage constraints; max_order: the largest order; counting: counts exactly up to a limit;
    time_limit: solve() stops at its time limit. Declare what your search really does."""

    def can_solve(self, puzzle: GridPuzzle) -> str | None:
        """The capability problem if any, then this backend's own reason: it solves nothing."""
        return capability_problem(self.capabilities, puzzle) or NOT_WRITTEN

    def warm_up(self) -> float:
        """Prepare what the first search would (import the library, compile kernels); the seconds it took."""
        start = time.perf_counter()
        return time.perf_counter() - start

    def solve(
        self, puzzle: GridPuzzle, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> SolveResult:
        """Up to `limit` solutions of `puzzle` (the first `keep` kept), stopping at `time_limit` seconds.

        Compile, search, finish. base.search_limit clamps a limit for an int64 counter; timer.deadline
        reads inf or a huge time limit as none (base.time_limit_or_none); base.unreachable_cage says
        when a cage's target alone makes the puzzle unsolvable.
        """
        timer = SolveTimer()
        compiled = compile_puzzle(puzzle)
        timer.built()
        solutions, count, complete, stats = search(compiled, limit, kept(limit, keep), timer.deadline(time_limit))
        return timer.finish(self.name, solutions, limit, complete, stats, count)
