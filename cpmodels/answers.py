"""One puzzle's answer to `solve`, `count`, `check` and `draw`: its outcome word and the text the command shows.

Each function takes the Entry (with what the file records about the puzzle) and whether it is the only
puzzle of its input (a single puzzle is shown in full; in a batch only what is worth a look), and returns
(outcome, text) for batch.answer_all; the outcome words are batch.SEVERITY's.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from tqdm import tqdm

from . import formats, mathdoku
from .backends import SolveResult, format_stats
from .backends.base import status_for
from .cover import ExactCoverProblem
from .crosscheck import CHECK_ENGINES, CrossCheck, cross_check, cross_check_cover
from .errors import CpModelsError, UsageError
from .formats import Entry
from .formats.dlx import format_solution
from .grid import GridPuzzle, cells_named, explain_violation
from .solve import COVER_ENGINES, DEFAULT_BACKEND, cover_as_solve_result, solve, solve_cover

COVER_FORMATS = ("knuth",)
"""How `solve --format` prints an exact cover besides its default (each option's items, as written)."""
COUNT_LIMIT = 1000
"""The limit of `count` on a puzzle without --limit."""
COUNT_ALL = 2**62
"""The limit of `count` on an exact-cover problem without --limit: every solution."""


def solve_answer(
    entry: Entry,
    single: bool,
    *,
    backend: str | None,
    limit: int,
    time_limit: float | None,
    fmt: str | None,
    stats: bool,
) -> tuple[str, str]:
    """The status and time, the solution (a second one when not unique) in `fmt` (None: the input's), the stats."""
    if entry.cover is not None:
        return _solve_cover_answer(entry, entry.cover, _cover_engine(entry, backend), limit, time_limit, fmt, stats)
    puzzle = _puzzle(entry)
    if fmt in COVER_FORMATS:
        raise CpModelsError(f"--format {fmt} prints exact-cover solutions (DLX files); {puzzle.name} is a grid puzzle")
    backend = backend or DEFAULT_BACKEND
    result = solve(puzzle, backend=backend, limit=limit, time_limit=time_limit)
    fmt = fmt or formats.solution_format(entry.fmt)
    said = f"{result.status} ({result.wall_s * 1000:.1f} ms, {backend})"
    if fmt == "pseudocoup":  # Fowler's comment line: the ordinal, and the line where it differs
        lines = [""] * (entry.ordinal > 1) + [formats.pseudocoup.header(entry.ordinal, entry.line, said)]
    else:
        lines = [f"# {puzzle.name}: {said}"]
    for k, grid in enumerate(result.solutions):
        if k == 1:
            lines.append("# a second solution:")
        lines.append(formats.write_solution(puzzle, grid, fmt, entry.symbols))
    if stats:
        lines.append(f"# stats {backend}: {format_stats(result.stats)}")
    return result.status, "\n".join(lines)


def _solve_cover_answer(
    entry: Entry,
    problem: ExactCoverProblem,
    engine: str,
    limit: int,
    time_limit: float | None,
    fmt: str | None,
    stats: bool,
) -> tuple[str, str]:
    """solve_answer for an exact cover: each solution as its options' items, or with Knuth's moves (`knuth`)."""
    if fmt not in (None, *COVER_FORMATS):
        raise CpModelsError(f"{entry.label}: an exact cover prints as its options (the default) or --format knuth")
    if fmt == "knuth" and engine != "dlx":
        raise CpModelsError(f"{entry.label}: --format knuth prints Knuth's moves, which dlx records, not {engine}")
    result = solve_cover(problem, engine=engine, limit=limit, time_limit=time_limit, trace=fmt == "knuth")
    status = status_for(result.count, limit, result.complete)
    lines = [f"# {entry.label}: {status} ({result.wall_s * 1000:.1f} ms, {engine})"]
    for k, options in enumerate(result.solutions):
        if fmt == "knuth":  # numbered, with the moves, as DLX1 prints them
            lines.append(format_solution(problem, options, result.moves[k], number=k + 1).rstrip("\n"))
            continue
        if k == 1:
            lines.append("# a second solution:")
        lines.append(format_solution(problem, options).rstrip("\n"))
    if stats:
        lines.append(f"# stats {engine}: {format_stats(result.stats)}")
    return status, "\n".join(lines)


def count_answer(
    entry: Entry, single: bool, *, backend: str | None, limit: int | None, time_limit: float | None
) -> tuple[str, str]:
    """The count up to `limit`: `N`, `>=N`, or `>=N (time limit reached)`; named by the puzzle in a batch.

    `limit` None: 1000 for a puzzle, every solution of an exact cover (with a progress line on stderr).
    """
    if entry.cover is not None:
        limit = limit or COUNT_ALL
        result = _cover_count(entry, _cover_engine(entry, backend), limit, time_limit)
    else:
        limit = limit or COUNT_LIMIT
        result = solve(_puzzle(entry), backend=backend or DEFAULT_BACKEND, limit=limit, time_limit=time_limit)
    return count_lines(entry, single, result, limit)


def count_lines(entry: Entry, single: bool, result: SolveResult, limit: int) -> tuple[str, str]:
    """What count says of a puzzle counted up to `limit` (`result`): its outcome and the line to show."""
    shown = str(result.count) if result.complete else f">={result.count}"
    if not result.complete and result.count < limit:
        shown += " (time limit reached)"
        outcome = "timeout"
    else:
        outcome = status_of_count(result.count)
    return outcome, shown if single else f"{entry.label}: {shown}"


def _cover_engine(entry: Entry, backend: str | None) -> str:
    """The engine that solves the exact cover of `entry`: `backend` (None: the default) if it can."""
    if backend is None or backend in COVER_ENGINES:
        return backend or COVER_ENGINES[0]
    engines = ", ".join(COVER_ENGINES)
    raise CpModelsError(
        f"{entry.label}: backend {backend!r} does not solve exact-cover problems; use one of: {engines}"
    )


def _cover_count(entry: Entry, engine: str, limit: int, time_limit: float | None) -> SolveResult:
    """The exact covers of `entry` counted up to `limit`, two kept, with a progress line on stderr after a second."""
    assert entry.cover is not None
    with tqdm(desc="counting", unit=" solutions", delay=1.0, disable=None, file=sys.stderr) as bar:

        def progress(found: int, nodes: int) -> None:
            bar.update(found - bar.n)
            bar.set_postfix_str(f"{nodes:,} nodes", refresh=False)

        found = solve_cover(
            entry.cover, engine=engine, limit=limit, time_limit=time_limit, keep=2,
            progress=progress if engine == "dlx" else None,
        )  # fmt: skip
    return cover_as_solve_result(found, limit, engine)


def check_answer(
    entry: Entry,
    single: bool,
    *,
    engines: tuple[str, ...] | None,
    time_limit: float | None,
    stats: bool,
    hide_operators: bool,
    certify: Path | None = None,
) -> tuple[str, str]:
    """The puzzle cross-checked by `engines` (None: the defaults): its outcome (`mismatch`: wrong claims), the lines.

    With `certify` (a directory), a unique puzzle also gets a certificate there (certificates.certify).
    """
    if entry.cover is not None:
        return _check_cover_answer(entry, entry.cover, engines or COVER_ENGINES, time_limit, stats, single)
    check = cross_check(_puzzle(entry), engines or CHECK_ENGINES, limit=2, time_limit=time_limit)
    outcome, text = check_lines(entry, check, single, stats, hide_operators)
    if certify is not None and outcome == "unique":
        text = "\n".join(filter(None, (text, _certificate_line(_puzzle(entry), certify))))
    return outcome, text


def _certificate_line(puzzle: GridPuzzle, directory: Path) -> str:
    """Write the certificate of a unique puzzle into `directory`; the line that says where it is."""
    from .certificates import certify, safe_name

    made = certify(puzzle, directory, safe_name(Path(puzzle.name).name))
    return f"  certificate: {directory / made.name}.{{puzzle,sol,cnf,drat}} ({made.proof_bytes:,} bytes of proof)"


def check_lines(entry: Entry, check: CrossCheck, single: bool, stats: bool, hide_operators: bool) -> tuple[str, str]:
    """What check says of a puzzle the engines have answered (`check`): its outcome and the lines to show."""
    puzzle = _puzzle(entry)
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


def _check_cover_answer(
    entry: Entry,
    problem: ExactCoverProblem,
    engines: tuple[str, ...],
    time_limit: float | None,
    stats: bool,
    single: bool,
) -> tuple[str, str]:
    """check_answer for an exact cover: the engines' agreement and, for a single problem, its solutions."""
    check = cross_check_cover(problem, engines, limit=2, time_limit=time_limit)
    outcome = check_outcome(check)
    lines = []
    if single or outcome != "unique" or stats:
        lines.append(f"{entry.label}: {outcome}")
        if single or outcome == "disagree" or not check.results:
            lines.append(_indented(check.describe()))
        if check.results and single:
            for k, options in enumerate(_fullest(check).solutions):
                lines.append("a second solution, the witness:" if k else "solution:")
                lines.append(format_solution(problem, options).rstrip("\n"))
    if stats:
        lines += [f"  stats {name}: {format_stats(result.stats)}" for name, result in check.results.items()]
    return outcome, "\n".join(lines)


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


def draw_answer(
    entry: Entry, single: bool, *, out: Path | None, size: int, with_solution: bool, number: Iterator[int]
) -> tuple[str, str]:
    """The puzzle drawn (with its solution, if asked) to `out` (NAME-001.svg ... for a file), or as SVG text."""
    from . import draw  # matplotlib loads with it

    puzzle = _puzzle(entry)
    solution = None
    outcome = "solved"
    if with_solution:
        found = solve(puzzle, backend="backtrack", limit=2)
        outcome = found.status
        solution = found.solutions[0] if found.solutions else None
    if out is None:
        if not single:
            raise UsageError("a file of puzzles draws to files, one a puzzle: give --out NAME.svg or NAME.png")
        return outcome, draw.svg(puzzle, solution, size, symbols=entry.symbols).rstrip("\n")
    path = out if single else out.with_name(f"{out.stem}-{next(number):03d}{out.suffix}")
    draw.save(puzzle, path, solution, size, symbols=entry.symbols)
    return outcome, f"{puzzle.name}: {path}"


def minimal_answer(
    entry: Entry,
    single: bool,
    *,
    orbits: str | None,
    time_limit: float | None,
    kinds: Counter[str],
    merge: bool = False,
    max_cage: int | None = None,
) -> tuple[str, str]:
    """Whether the puzzle is minimal (every clue, or orbit, operator and given needed), its redundant ones if not.

    With `merge`, no two adjacent cages mergeable (into at most `max_cage` cells) either. `kinds` counts the
    puzzles minimal, not minimal and not unique, for the summary.
    """
    from .minimality import format_redundant, minimality

    puzzle = _puzzle(entry)
    found = minimality(puzzle, orbits, time_limit=time_limit, merge=merge, max_cage=max_cage)
    if not found.valid:
        kinds["not unique"] += 1
        status = status_of_count(found.count)
        return status, f"{puzzle.name}: not unique ({_found(status)})"
    kinds["minimal" if found.minimal else "not minimal"] += 1
    if found.minimal:
        return "solved", f"{puzzle.name}: minimal"
    return "solved", f"{puzzle.name}: not minimal: redundant {format_redundant(found)}"


def minimal_table(kinds: Counter[str]) -> str:
    """The summary of check --minimal: puzzles minimal, not minimal and not unique, then the total."""
    rows = [f"{'puzzles':<12} {'count':>8}"]
    rows += [f"{kind:<12} {kinds[kind]:>8}" for kind in ("minimal", "not minimal", "not unique")]
    rows.append(f"{'total':<12} {sum(kinds.values()):>8}")
    return "\n".join(rows)
