"""Cross-checking: several backends on one puzzle (or exact-cover problem), and whether their answers agree.

Each backend runs through solve(), so every grid it returns has passed the checker; a backend
that returns a wrong grid (or fails) is reported as failed, which is a disagreement. Answers are
compared where they are answers: a backend that timed out is reported, but its count and status
are not compared. What must hold between backends that did not time out: the same count up to
the limit and the same status. What must hold between any two backends: when one searched its
whole space (complete) and kept every grid it found, every solution the other found is among its
solutions, since that grid passed the checker and the complete search claims to know every
solution. No backend may return the same grid twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .backends import BACKENDS, SolveResult, Status, get_backend, refusal
from .backends.base import time_limit_or_none
from .cover import ExactCoverProblem
from .formats.sudoku import format_line
from .grid import GridPuzzle
from .solve import COVER_ENGINES, cover_as_solve_result, solve, solve_cover

CHECK_ENGINES = ("cpsat", "dlx", "backtrack")
"""The engines `check` cross-checks a puzzle with by default: independent, each fast enough for files of puzzles."""


@dataclass(frozen=True)
class CrossCheck:
    """Each backend's result on one puzzle, the backends skipped or failed and why, and whether all agree.

    verdict: the status the backends agree on ("timeout" if every one timed out); None if they
    disagree or none ran.
    """

    results: dict[str, SolveResult]
    limit: int
    skipped: dict[str, str]
    failed: dict[str, str]
    agree: bool
    disagreement: str | None
    verdict: Status | None

    def timed_out(self) -> list[str]:
        """The backends that reached the time limit before answering."""
        return [name for name, result in self.results.items() if is_timeout(result, self.limit)]

    def describe(self) -> str:
        """One line per backend (its answer, or why it was skipped or failed), then the agreement."""
        lines = [f"{name}: {_answer(r, self.limit)} in {r.wall_s:.3f} s" for name, r in self.results.items()]
        lines += [f"{name}: failed: {reason}" for name, reason in self.failed.items()]
        lines += [f"{name}: skipped: {reason}" for name, reason in self.skipped.items()]
        lines.append(f"agree: {self.verdict}" if self.agree else f"DISAGREE: {self.disagreement}")
        return "\n".join(lines)


def cross_check(
    puzzle: GridPuzzle, backends: Iterable[str] | None = None, *, limit: int = 2, time_limit: float | None = None
) -> CrossCheck:
    """Every named backend's (default: every registered one's) checked result on `puzzle`, and whether they agree.

    `time_limit` is for the puzzle, all engines together: they run one after another against one
    deadline, `time_limit` seconds after the start, and each engine gets an equal share of the time
    left, (deadline - now) / (engines still to run), so that the k-th of m engines gets at least
    time_limit / m seconds plus whatever the engines before it left unused. An engine whose share is
    gone when its turn comes (the ones before overshot) is reported as a timeout without running.
    The whole check takes about `time_limit` (plus each engine's overshoot, a few ms for CP-SAT, dlx
    and backtrack, about 0.2 s for the constraint backend's child process). Engines run one at a time,
    not concurrently: on two cores three engines would share the CPUs, and the numba dlx kernel
    holds the GIL, so their times would say little.

    A backend that raises any exception (a wrong grid caught by the checker, a crash in the engine)
    is reported as failed with the exception's type and message; an interruption (KeyboardInterrupt,
    errors.Interrupted from the CLI's signal handlers: BaseExceptions) propagates.
    """
    skipped: dict[str, str] = {}
    failed: dict[str, str] = {}
    seconds = time_limit_or_none(time_limit)
    running = []
    for name in list(BACKENDS) if backends is None else list(backends):
        engine = get_backend(name)
        try:
            reason = refusal(engine, puzzle, limit, seconds)
        except Exception as exc:  # noqa: BLE001 -- can_solve itself failed: that engine's failure
            _fail(failed, name, exc)
            continue
        if reason:
            skipped[name] = reason
        else:
            running.append(name)
    return _agreement(running, skipped, failed, seconds, limit, lambda name, share: _solve(puzzle, name, limit, share))


def cross_check_cover(
    problem: ExactCoverProblem,
    engines: Iterable[str] = COVER_ENGINES,
    *,
    limit: int = 2,
    time_limit: float | None = None,
) -> CrossCheck:
    """Every named exact-cover engine's checked result on `problem` (solutions as sorted options), and agreement.

    As cross_check, with COVER_ENGINES; an engine that does not solve exact cover is skipped, saying so.
    """
    running = [name for name in engines if name in COVER_ENGINES]
    skipped = {name: "it does not solve exact-cover problems" for name in engines if name not in COVER_ENGINES}

    def run(name: str, share: float | None) -> SolveResult:
        return cover_as_solve_result(solve_cover(problem, engine=name, limit=limit, time_limit=share), limit, name)

    return _agreement(running, skipped, {}, time_limit_or_none(time_limit), limit, run, _show_options)


def _solve(puzzle: GridPuzzle, name: str, limit: int, share: float | None) -> SolveResult:
    """solve() of `puzzle` by backend `name` in `share` seconds."""
    return solve(puzzle, backend=name, limit=limit, time_limit=share)


def _agreement(
    running: list[str],
    skipped: dict[str, str],
    failed: dict[str, str],
    seconds: float | None,
    limit: int,
    run: Callable[[str, float | None], SolveResult],
    show: Callable[[tuple[int, ...]], str] = format_line,
) -> CrossCheck:
    """Run each engine `run(name, share)` in turn against one deadline `seconds` away, and compare the results."""
    start = time.perf_counter()
    results: dict[str, SolveResult] = {}
    for k, name in enumerate(running):
        share = None
        if seconds is not None:
            share = (start + seconds - time.perf_counter()) / (len(running) - k)
            if share <= 0:
                results[name] = SolveResult("timeout", [], 0, False, 0.0, {}, name)
                continue
        try:
            results[name] = run(name, share)
        except Exception as exc:  # noqa: BLE001 -- a wrong answer caught by the checker, or a backend that crashed
            _fail(failed, name, exc)
    return compared(results, limit, skipped, failed, show)


def compared(
    results: dict[str, SolveResult],
    limit: int,
    skipped: dict[str, str] | None = None,
    failed: dict[str, str] | None = None,
    show: Callable[[tuple[int, ...]], str] = format_line,
) -> CrossCheck:
    """The CrossCheck of results already found (by solve or a batch), with the engines skipped and failed."""
    failed = failed or {}
    problems = [f"backend {name!r} failed ({reason})" for name, reason in failed.items()]
    problems += disagreements(results, limit, show)
    verdict = None if problems else _verdict(results, limit)
    return CrossCheck(results, limit, skipped or {}, failed, not problems, "; ".join(problems) or None, verdict)


def _show_options(options: tuple[int, ...]) -> str:
    """An exact cover's options, 1-based as Knuth's programs number them in their input."""
    return "options " + " ".join(str(k + 1) for k in options)


def _fail(failed: dict[str, str], name: str, exc: Exception) -> None:
    """Record `exc` as the failure of backend `name`."""
    message = str(exc)
    # the checker's own RuntimeError already says what went wrong; anything else is named by its type
    failed[name] = message if type(exc) is RuntimeError else f"{type(exc).__name__}: {message}"


def is_timeout(result: SolveResult, limit: int) -> bool:
    """Whether a search stopped at its time limit: status "timeout", or fewer than `limit` solutions and incomplete."""
    return result.status == "timeout" or (not result.complete and result.count < limit)


def disagreements(
    results: dict[str, SolveResult], limit: int, show: Callable[[tuple[int, ...]], str] = format_line
) -> list[str]:
    """Sentences naming the backends whose results contradict each other or themselves; empty if they agree."""
    problems = [
        f"{name} returned the same solution twice"
        for name, result in results.items()
        if len(set(result.solutions)) < len(result.solutions)
    ]
    answered = [(name, result) for name, result in results.items() if not is_timeout(result, limit)]
    for name, result in answered[1:]:
        problems += _answer_differs(answered[0], (name, result), limit)
    for name, result in results.items():
        if result.complete and len(result.solutions) == result.count:  # it knows, and returned, every solution
            problems += _missed_by(name, result, results, limit, show)
    return problems


def _answer_differs(first: tuple[str, SolveResult], other: tuple[str, SolveResult], limit: int) -> list[str]:
    """A sentence if two answered results differ in count up to `limit` or in status; empty otherwise."""
    (a, ra), (b, rb) = first, other
    if min(ra.count, limit) != min(rb.count, limit):
        return [f"{a} found {_answer(ra, limit)} but {b} found {_answer(rb, limit)}"]
    if ra.status != rb.status:
        return [f"{a} answers {ra.status!r} but {b} answers {rb.status!r} with {rb.count} solution(s)"]
    return []


def _missed_by(
    name: str,
    complete: SolveResult,
    results: dict[str, SolveResult],
    limit: int,
    show: Callable[[tuple[int, ...]], str],
) -> list[str]:
    """Sentences for each other backend that found a solution that `name`'s complete search does not have."""
    known = set(complete.solutions)
    problems = []
    for other, result in results.items():
        missed = [grid for grid in result.solutions if grid not in known]
        if other != name and missed:
            problems.append(
                f"{other} found the solution {show(missed[0])}, which {name}'s complete search "
                f"({_answer(complete, limit)}) does not have"
            )
    return problems


def _answer(result: SolveResult, limit: int) -> str:
    """A result in words: `no solution`, `exactly 1 solution`, `at least 2 solutions`, `timeout after 3`."""
    if is_timeout(result, limit):
        return f"timeout after {result.count} solution(s)"
    if not result.complete:
        return f"at least {result.count} solution(s)"
    if result.count == 0:
        return "no solution"
    return f"exactly {result.count} solution(s)"


def _verdict(results: dict[str, SolveResult], limit: int) -> Status | None:
    """The status of the results that did not time out (they agree), "timeout" if all did, None if there are none."""
    answered = [result.status for result in results.values() if not is_timeout(result, limit)]
    if answered:
        return answered[0]
    return "timeout" if results else None
