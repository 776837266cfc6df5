"""Answering a block of puzzles of one shape in one call of the backtracking kernel (check, count).

`--backend backtrack` on a file hands the puzzles to backtrack.solve_many a block at a time
(batch.BLOCK entries), on `--jobs` threads, and answers each puzzle exactly as it would be answered
alone (answers.check_lines, answers.count_lines), in input order. The kernel keeps each puzzle's first
solution; a puzzle with two or more is solved again alone for its witness, as `check` prints two. A
search with a time limit per puzzle, `--stats` (per-puzzle statistics) and a single puzzle go one by
one, through answers.
"""

from __future__ import annotations

from .answers import check_lines, count_lines
from .backends import SolveResult
from .backends.base import status_for
from .crosscheck import compared
from .formats import Entry
from .grid import GridPuzzle
from .solve import solve

ENGINE = "backtrack"


def same_shape(puzzles: list[GridPuzzle]) -> bool:
    """Whether the puzzles share their order, units and cages (solve_many takes only such a block)."""
    first = puzzles[0]
    return all(p.n == first.n and p.units == first.units and p.cages == first.cages for p in puzzles)


def block_results(puzzles: list[GridPuzzle], limit: int, jobs: int) -> list[SolveResult]:
    """Each puzzle's result up to `limit` from one solve_many call; its first grid kept (checked there)."""
    from .backends.backtrack import solve_many

    found = solve_many(puzzles, limit=limit, jobs=jobs)
    share = found.wall_s / len(puzzles)
    results = []
    for k in range(len(puzzles)):
        count, complete = int(found.counts[k]), bool(found.complete[k])
        grids = [tuple(found.firsts[k].tobytes())] if count else []
        stats: dict[str, float] = {"nodes": int(found.nodes[k]), "backtracks": int(found.backtracks[k])}
        results.append(SolveResult(status_for(count, limit, complete), grids, count, complete, share, stats, ENGINE))
    return results


def check_block(entries: list[Entry], *, jobs: int, hide_operators: bool) -> list[tuple[str, str]] | None:
    """Check's (outcome, text) for each entry, on the backtracking kernel alone; None unless of one shape."""
    puzzles = [result_puzzle(entry) for entry in entries]
    if not same_shape(puzzles):
        return None
    answers = []
    for entry, result in zip(entries, block_results(puzzles, 2, jobs), strict=True):
        if result.status == "unique" and not hide_operators and _as_claimed(entry, result.solutions[0]):
            answers.append(("unique", ""))  # what check_lines says of it in a file: nothing
            continue
        if result.count >= 2:  # the witness: solved again alone, for both grids
            result = solve(result_puzzle(entry), backend=ENGINE, limit=2)
        answers.append(check_lines(entry, compared({ENGINE: result}, 2), False, False, hide_operators))
    return answers


def _as_claimed(entry: Entry, solution: tuple[int, ...]) -> bool:
    """Whether what the file records of a puzzle found unique agrees: no count but 1, no solution but this one."""
    return entry.claimed_count in (None, 1) and entry.claimed_solution in (None, solution)


def count_block(entries: list[Entry], *, limit: int, jobs: int) -> list[tuple[str, str]] | None:
    """Count's (outcome, text) for each entry up to `limit`, on the backtracking kernel; None unless of one shape."""
    puzzles = [result_puzzle(entry) for entry in entries]
    if not same_shape(puzzles):
        return None
    return [
        count_lines(entry, False, result, limit)
        for entry, result in zip(entries, block_results(puzzles, limit, jobs), strict=True)
    ]


def result_puzzle(entry: Entry) -> GridPuzzle:
    """The puzzle of an entry of a block (every entry of a block has one)."""
    assert entry.puzzle is not None
    return entry.puzzle
