"""One puzzle's answer to `solve`, `count` and `check`: its outcome word and the text the command shows.

Each function takes the Entry (with what the file records about the puzzle) and whether it is the only
puzzle of its input (a single puzzle is shown in full; in a batch only what is worth a look), and returns
(outcome, text) for batch.answer_all; the outcome words are batch.SEVERITY's.
"""

from __future__ import annotations

from . import formats, mathdoku
from .backends import SolveResult, format_stats
from .crosscheck import CrossCheck, cross_check
from .formats import Entry
from .grid import GridPuzzle, cells_named, explain_violation
from .solve import solve


def solve_answer(
    entry: Entry, single: bool, *, backend: str, limit: int, time_limit: float | None, fmt: str | None, stats: bool
) -> tuple[str, str]:
    """The status and time, the solution (a second one when not unique) in `fmt` (None: the input's), the stats."""
    puzzle = _puzzle(entry)
    result = solve(puzzle, backend=backend, limit=limit, time_limit=time_limit)
    fmt = fmt or formats.solution_format(entry.fmt)
    lines = [f"# {puzzle.name}: {result.status} ({result.wall_s * 1000:.1f} ms, {backend})"]
    for k, grid in enumerate(result.solutions):
        if k == 1:
            lines.append("# a second solution:")
        lines.append(formats.write_solution(puzzle, grid, fmt, entry.symbols))
    if stats:
        lines.append(f"# stats {backend}: {format_stats(result.stats)}")
    return result.status, "\n".join(lines)


def count_answer(entry: Entry, single: bool, *, backend: str, limit: int, time_limit: float | None) -> tuple[str, str]:
    """The count up to `limit`: `N`, `>=N`, or `>=N (time limit reached)`; named by the puzzle in a batch."""
    puzzle = _puzzle(entry)
    result = solve(puzzle, backend=backend, limit=limit, time_limit=time_limit)
    shown = str(result.count) if result.complete else f">={result.count}"
    if not result.complete and result.count < limit:
        shown += " (time limit reached)"
        outcome = "timeout"
    else:
        outcome = status_of_count(result.count)
    return outcome, shown if single else f"{puzzle.name}: {shown}"


def check_answer(
    entry: Entry, single: bool, *, engines: tuple[str, ...], time_limit: float | None, stats: bool, hide_operators: bool
) -> tuple[str, str]:
    """The puzzle cross-checked by `engines`: its outcome (`mismatch` if the file's claims are wrong), the lines."""
    puzzle = _puzzle(entry)
    check = cross_check(puzzle, engines, limit=2, time_limit=time_limit)
    outcome = check_outcome(check)
    wrong = wrong_claims(entry, check) if outcome in ("unique", "multiple", "none") else None
    lines = []
    if single or outcome != "unique" or wrong or stats:
        lines.append(f"{puzzle.name}: mismatch: {wrong}" if wrong else f"{puzzle.name}: {outcome}")
        if single or outcome == "disagree" or not check.results:
            lines.append(_indented(check.describe()))
        if check.results:
            lines += _solution_lines(puzzle, _fullest(check), single)
    if stats:
        lines += [f"  stats {name}: {format_stats(result.stats)}" for name, result in check.results.items()]
    if hide_operators:
        lines += _ambiguous_lines(puzzle)
    return "mismatch" if wrong else outcome, "\n".join(lines)


def _puzzle(entry: Entry) -> GridPuzzle:
    """The puzzle of an entry that has one."""
    assert entry.puzzle is not None  # batch.answer_all answers only entries with a puzzle
    return entry.puzzle


def status_of_count(count: int) -> str:
    """The outcome word for a number of solutions: none, unique or multiple."""
    return {0: "none", 1: "unique"}.get(count, "multiple")


def check_outcome(check: CrossCheck) -> str:
    """The outcome word of a cross-check: the agreed status, `disagree`, or `bad input` if no engine could run."""
    if not check.results and not check.failed:
        return "bad input"
    return check.verdict if check.agree and check.verdict else "disagree"


def wrong_claims(entry: Entry, check: CrossCheck) -> str | None:
    """What the engines' agreed answer contradicts in the file's claimed count and solution; None if nothing."""
    verdict = str(check.verdict)
    wrong = []
    if entry.claimed_count is not None and status_of_count(min(entry.claimed_count, check.limit)) != verdict:
        wrong.append(f"the file records {entry.claimed_count} solution(s), the engines find {_found(verdict)}")
    claimed = tuple(entry.claimed_solution or ())
    if claimed and claimed not in _fullest(check).solutions:  # the solutions found passed the checker already
        problem = explain_violation(_puzzle(entry), claimed)
        if problem:
            wrong.append(f"the file's solution is not a solution: {problem}")
        elif verdict != "multiple":
            wrong.append("the file's solution solves the puzzle, but the engines did not find it")
    return "; ".join(wrong) or None


def _found(verdict: str) -> str:
    """The engines' verdict in words: no solution, exactly 1, at least 2."""
    return {"none": "no solution", "unique": "exactly 1"}.get(verdict, "at least 2")


def _fullest(check: CrossCheck) -> SolveResult:
    """The result with the most solutions (a witness, when there is one)."""
    return max(check.results.values(), key=lambda result: len(result.solutions))


def _indented(text: str) -> str:
    """`text` with every line indented by two spaces."""
    return "\n".join(f"  {line}" for line in text.splitlines())


def _solution_lines(puzzle: GridPuzzle, result: SolveResult, single: bool) -> list[str]:
    """The solutions behind a verdict: full grids for a single puzzle, else two lines when there are several."""
    if single:
        lines = []
        for k, grid in enumerate(result.solutions):
            lines.append("a second solution, the witness:" if k else "solution:")
            lines.append(formats.write_solution(puzzle, grid, "grid"))
        return lines
    if result.status == "multiple":
        return [
            f"  two solutions: {formats.sudoku.format_line(result.solutions[0])}",
            f"                 {formats.sudoku.format_line(result.solutions[1])}",
        ]
    return []


def _ambiguous_lines(puzzle: GridPuzzle) -> list[str]:
    """The cages whose target fits more than one operator once operators are hidden, one line each."""
    return [
        f"  cage {k} ({cells_named(puzzle.cages[k - 1].cells)}) target {puzzle.cages[k - 1].target}: "
        f"operator could be {' or '.join(ops)}"
        for k, ops in mathdoku.ambiguous_cages(puzzle)
    ]
