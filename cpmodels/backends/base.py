"""The backend contract: what a backend declares (Capabilities), offers (Backend) and returns (SolveResult).

Statistics (SolveResult.stats) use one set of names, STAT_NAMES; each backend fills those it measures:

    nodes         search nodes: CP-SAT's branches, values tried (backtrack), options chosen (dlx)
    backtracks    nodes whose propagation failed (backtrack)
    propagations  CP-SAT's Boolean and integer propagations
    conflicts     CP-SAT's conflicts
    build_s       seconds spent compiling the puzzle into the backend's own form
    search_s      seconds spent searching it, after build_s

Counts are ints, the *_s values floats. A backend may add keys of its own (its module docstring
lists them); a key is there only when the backend really measures it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, Protocol, get_args

from .. import cages as cage_rules
from ..grid import GridPuzzle

Status = Literal["unique", "multiple", "solved", "none", "timeout"]
STATUSES: tuple[Status, ...] = get_args(Status)
STAT_NAMES = ("nodes", "backtracks", "propagations", "conflicts", "build_s", "search_s")
"""The statistics every backend names alike, in the order they are printed (module docstring)."""
MAX_COUNT = 2**62
"""The largest limit a search is given: a count never gets there, and it fits the native kernels' int64."""
MAX_SECONDS = 366 * 86400.0
"""The longest time limit: a year. A longer one, inf or nan is no limit at all (time_limit_or_none)."""
KEEP_ALL = 1000
"""cpmodels.solve keeps every grid a search finds when its limit is at most this, else WITNESSES of them."""
WITNESSES = 2
"""The grids a big count keeps (solve's default above KEEP_ALL, count_solutions always): proof of "multiple"."""


@dataclass
class SolveResult:
    """The outcome of one search: status, solutions found, the count and the backend's statistics.

    status: "unique" or "multiple" when at least two solutions were asked for, "solved" when one was,
    "none" when the puzzle has no solution, "timeout" when the time limit came before the answer
    (before `limit` solutions, or before the search space was exhausted).
    count: solutions found; exact when `complete`, otherwise a lower bound (the search stopped at the
    limit asked for, or at the time limit).
    stats: named as in STAT_NAMES (module docstring), plus the backend's own.
    """

    status: Status
    solutions: list[tuple[int, ...]]
    count: int
    complete: bool
    wall_s: float
    stats: dict[str, float] = field(default_factory=dict)
    backend: str = ""


def status_for(count: int, limit: int, complete: bool) -> Status:
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


def format_stats(stats: Mapping[str, float]) -> str:
    """`name=value` pairs, the STAT_NAMES first in their order, then the backend's own keys; floats to 3 digits."""
    names = [k for k in STAT_NAMES if k in stats] + [k for k in stats if k not in STAT_NAMES]
    return " ".join(f"{k}={stats[k]:.3g}" if isinstance(stats[k], float) else f"{k}={stats[k]}" for k in names)


def time_limit_or_none(time_limit: float | None) -> float | None:
    """`time_limit` as seconds, or None (no limit) when it is None, not finite or above MAX_SECONDS.

    Every backend reads its time limit through this (SolveTimer.deadline does), so that inf or 1e308
    never reaches a clock, a queue timeout or a solver parameter that cannot hold it.
    """
    if time_limit is None or not math.isfinite(time_limit) or time_limit > MAX_SECONDS:
        return None
    return float(time_limit)


def search_limit(limit: int) -> int:
    """`limit` clamped to MAX_COUNT: what a native kernel's int64 counters are given."""
    return min(limit, MAX_COUNT)


def kept(limit: int, keep: int | None) -> int:
    """How many grids a search for `limit` solutions keeps when asked to keep `keep` (None: all, up to limit)."""
    return search_limit(limit) if keep is None else max(0, min(keep, search_limit(limit)))


def unreachable_cage(puzzle: GridPuzzle) -> str | None:
    """Why no grid can meet some cage of `puzzle`, judged by its target's range alone (no search), or None.

    A target outside what its operator can make from its number of cells in 1..n (a `*` of 0, a `+`
    above n per cell, a `-` of n or a `=` of 2**63) means the puzzle has no solution: every backend
    answers "none", complete, without building a model (CP-SAT's could not even hold such a number).
    Targets inside the range are left to the search, which decides them exactly.
    """
    n = puzzle.n
    for k, cage in enumerate(puzzle.cages, start=1):
        size = len(cage.cells)
        ops = (cage.op,) if cage.op is not None else cage_rules.operators_for(size) or ("=",)
        if not any(_in_range(op, cage.target, size, n) for op in ops):
            return f"cage {k} ({cage.label()}): no {size} value(s) in 1..{n} make {cage.target}"
    return None


def _in_range(op: str, target: int, size: int, n: int) -> bool:
    """Whether `target` lies between the least and the greatest value `op` makes from `size` values in 1..n."""
    if op == "+":
        return size <= target <= size * n
    if op == "*":
        return 1 <= target <= n**size
    if op == "-":
        return 0 <= target <= n - 1
    return 1 <= target <= n  # "/" and "="


@dataclass(frozen=True)
class Capabilities:
    """What a backend takes and does, declared by its class and read by can_solve and by the callers of solve.

    cages: it takes cage constraints (Mathdoku); max_order: the largest order it takes;
    counting: it counts solutions exactly up to any limit (not only finds one);
    time_limit: its solve() returns, incomplete, once `time_limit` seconds have passed.
    """

    cages: bool
    max_order: int
    counting: bool
    time_limit: bool


def capability_problem(capabilities: Capabilities, puzzle: GridPuzzle) -> str | None:
    """Why a backend with these capabilities cannot take `puzzle` (cages, order), or None if it can."""
    if puzzle.cages and not capabilities.cages:
        return "it takes no cage constraints"
    if puzzle.n > capabilities.max_order:
        return f"order {puzzle.n} is above {capabilities.max_order}"
    return None


def refusal(backend: Backend, puzzle: GridPuzzle, limit: int, time_limit: float | None) -> str | None:
    """Why `backend` cannot search `puzzle` for up to `limit` solutions within `time_limit`, or None if it can."""
    reason = backend.can_solve(puzzle)
    if reason:
        return reason
    if limit > 1 and not backend.capabilities.counting:
        return f"it cannot count solutions (limit {limit})"
    if time_limit is not None and not backend.capabilities.time_limit:
        return "it cannot stop at a time limit"
    return None


class SolveTimer:
    """Times one solve(): build_s from its creation to built(), search_s from there to finish()."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.built_at: float | None = None

    def deadline(self, time_limit: float | None) -> float | None:
        """The perf_counter() time `time_limit` seconds after the start (None: no limit; see time_limit_or_none)."""
        seconds = time_limit_or_none(time_limit)
        return None if seconds is None else self.start + seconds

    def built(self) -> None:
        """Mark the end of compiling, the start of searching."""
        self.built_at = time.perf_counter()

    def finish(
        self,
        backend: str,
        solutions: list[tuple[int, ...]],
        limit: int,
        complete: bool,
        stats: Mapping[str, float],
        count: int | None = None,
    ) -> SolveResult:
        """The SolveResult of a search that found `count` (default: len(solutions)) of `limit`, with its times."""
        now = time.perf_counter()
        built = now if self.built_at is None else self.built_at
        count = len(solutions) if count is None else count
        stats = {**stats, "build_s": built - self.start, "search_s": now - built}
        return SolveResult(
            status_for(count, limit, complete), solutions, count, complete, now - self.start, stats, backend
        )


class Backend(Protocol):
    """A solver that compiles a GridPuzzle to its own form and searches it."""

    name: str
    capabilities: Capabilities

    def can_solve(self, puzzle: GridPuzzle) -> str | None:
        """None if this backend can search `puzzle`, otherwise the reason it cannot (capability_problem first)."""
        ...

    def solve(
        self, puzzle: GridPuzzle, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> SolveResult:
        """Up to `limit` solutions of `puzzle`, stopping at `time_limit` seconds.

        The count goes up to `limit`; the grids returned are the first `keep` found (None: all of them,
        kept(limit, keep)), so that a big count stores no more than it returns. A limit above
        MAX_COUNT, or a time limit that is not finite or above MAX_SECONDS, is no limit.
        """
        ...

    def warm_up(self) -> float:
        """Prepare what the first search would (import the solver library, compile kernels); the seconds it took."""
        ...
