"""What every backend returns and the interface it offers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ..grid import GridPuzzle

STATUSES = ("unique", "multiple", "solved", "none", "timeout")


@dataclass
class SolveResult:
    """The outcome of one search: status, solutions found, the count and the backend's statistics.

    status: "unique" or "multiple" when at least two solutions were asked for, "solved" when one was,
    "none" when the puzzle has no solution, "timeout" when the time limit came before the answer
    (before `limit` solutions, or before the search space was exhausted).
    count: solutions found; exact when `complete`, otherwise a lower bound (the search stopped at the
    limit asked for, or at the time limit).
    """

    status: str
    solutions: list[tuple[int, ...]]
    count: int
    complete: bool
    wall_s: float
    stats: dict[str, int] = field(default_factory=dict)
    backend: str = ""


def status_for(count: int, limit: int, complete: bool) -> str:
    """The status word for a search that found `count` solutions of the `limit` asked for.

    A search that stopped before both the limit and the end of its space stopped at its time limit.
    """
    if not complete and count < limit:
        return "timeout"
    if count == 0:
        return "none"
    if limit == 1:
        return "solved"
    return "multiple" if count >= 2 else "unique"


class Backend(Protocol):
    """A solver that compiles a GridPuzzle to its own form and searches it."""

    name: str
    supports_cages: bool
    max_order: int

    def can_solve(self, puzzle: GridPuzzle) -> str | None:
        """None if this backend can search `puzzle`, otherwise the reason it cannot."""
        ...

    def solve(self, puzzle: GridPuzzle, *, limit: int = 1, time_limit: float | None = None) -> SolveResult:
        """Up to `limit` solutions of `puzzle`, stopping at `time_limit` seconds."""
        ...

    def warm_up(self) -> float:
        """Prepare what the first search would (compile or load native kernels); the seconds it took."""
        ...
