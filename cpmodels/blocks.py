"""Answering many puzzles of one shape in one call of the backtracking kernel (check, count).

`--backend backtrack` on a file hands the puzzles to backtrack.solve_givens a block at a time, on
`--jobs` threads, and answers each puzzle exactly as it would be answered alone (answers.check_lines,
answers.count_lines), in input order. A file of plain lines (formats/plain_lines.py) goes through
answer_plain_lines: read into one array of givens, answered in chunks of thousands, every grid found
checked at once by grid.grids_hold, and written without Python work per puzzle where the answer is the
common one (check says nothing of a unique puzzle whose file agrees; count writes each count); every
other puzzle goes through the one-puzzle functions. Other files go through check_block and count_block,
BLOCK entries at a time. The kernel keeps each puzzle's first solution; a puzzle with two or more is
solved again alone for its witness, as `check` prints two. A search with a time limit per puzzle,
`--stats` (per-puzzle statistics) and a single puzzle go one by one, through answers.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from tqdm import tqdm

from . import formats
from .answers import check_lines, count_lines, status_of_count
from .backends import SolveResult
from .backends.base import status_for
from .batch import Answer, Printed, Records, _answered
from .crosscheck import compared
from .formats import Entry
from .formats.plain_lines import NO_COUNT, PlainLines, long_plain_sample, read_plain_lines, sample_lines
from .grid import GridPuzzle, explain_violation, grids_hold
from .inputs import argument_text, could_be_path
from .interrupts import SIGNALS
from .solve import solve

if TYPE_CHECKING:
    from .backends.backtrack import BatchResult

ENGINE = "backtrack"
FIRST_CHUNK = 1024
"""Plain lines answered in the first chunk of a file; later chunks are sized to take about CHUNK_SECONDS."""
CHUNK_SECONDS = 0.25
"""The time a chunk of plain lines aims to take: answers come out at least this often, and Ctrl-C waits no longer."""
MAX_CHUNK = 1 << 16
"""The most plain lines answered in one chunk."""


def same_shape(puzzles: list[GridPuzzle]) -> bool:
    """Whether the puzzles share their order, units and cages (solve_many takes only such a block)."""
    first = puzzles[0]
    return all(p.n == first.n and p.units == first.units and p.cages == first.cages for p in puzzles)


def block_results(puzzles: list[GridPuzzle], limit: int, jobs: int) -> list[SolveResult]:
    """Each puzzle's result up to `limit` from one solve_many call; its first grid kept (checked there)."""
    from .backends.backtrack import solve_many

    found = solve_many(puzzles, limit=limit, jobs=jobs)
    return [_result(found, k, limit) for k in range(len(puzzles))]


def _result(found: BatchResult, k: int, limit: int) -> SolveResult:
    """Puzzle k's SolveResult in a batch searched up to `limit`: its count, its first grid, its share of the time."""
    count, complete = int(found.counts[k]), bool(found.complete[k])
    grids = [tuple(found.firsts[k].tolist())] if count else []
    stats: dict[str, float] = {"nodes": int(found.nodes[k]), "backtracks": int(found.backtracks[k])}
    share = found.wall_s / len(found.counts)
    return SolveResult(status_for(count, limit, complete), grids, count, complete, share, stats, ENGINE)


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
        answers.append(_checked_alone(entry, result, hide_operators))
    return answers


def _checked_alone(entry: Entry, result: SolveResult, hide_operators: bool) -> tuple[str, str]:
    """What check says of a puzzle of a block (its result up to 2), its witness found alone if it has two."""
    if result.count >= 2:  # the witness: solved again alone, for both grids
        result = solve(result_puzzle(entry), backend=ENGINE, limit=2)
    return check_lines(entry, compared({ENGINE: result}, 2), False, False, hide_operators)


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


# ---- files of plain lines -------------------------------------------------------------------------


def plain_file(argument: str, fmt: str, box: tuple[int, int] | None, symbols: str) -> PlainLines | None:
    """The file `argument` names as plain lines, if it holds two puzzles or more in format `line`; else None."""
    if fmt not in ("auto", "line") or argument == "-" or not could_be_path(argument) or not Path(argument).is_file():
        return None
    text, where, _ = argument_text(argument)
    lines = read_plain_lines(text, where, box, symbols)
    if len(lines) < 2:
        return None
    known = {"line": True} if long_plain_sample(lines) else {}
    if fmt == "auto" and formats.detect_lines(sample_lines(lines), where, known) != "line":
        return None
    return lines


def answer_plain_lines(
    lines: PlainLines,
    answer: Answer,
    prepare: Callable[[Entry], Entry],
    results: Printed | Records,
    tally: Counter[str],
    before_first_puzzle: Callable[[Entry], None],
    *,
    limit: int | None,
    jobs: int,
) -> None:
    """Answer every puzzle of `lines` in order, as batch.answer_all does one by one: check (`limit` None), or count.

    The plain lines go to the kernel in chunks; every other line is read (`prepare` says its warnings) and
    answered by `answer` when it is reached. `before_first_puzzle(entry)` runs once, before the first puzzle.
    """
    start = 0
    while start < len(lines) and results.answered(start + 1, int(lines.line[start])):
        start += 1
    size = FIRST_CHUNK
    first: Callable[[Entry], None] | None = before_first_puzzle
    progress = {"desc": "puzzles", "unit": "puzzle", "delay": 1.0, "disable": None, "file": sys.stderr}
    with tqdm(total=len(lines), initial=start, **progress) as bar:
        while start < len(lines):
            stop = min(start + size, len(lines))
            began = time.perf_counter()
            if _Chunk(lines, start, stop, results, tally).answer(answer, prepare, first, limit, jobs):
                first = None
            bar.update(stop - start)
            size = _next_size(size, stop - start, time.perf_counter() - began)
            start = stop


def _next_size(size: int, done: int, elapsed: float) -> int:
    """The next chunk's lines: about CHUNK_SECONDS at this chunk's rate, at most 4 times as many, MAX_CHUNK."""
    wanted = done * CHUNK_SECONDS / max(elapsed, 1e-6)
    return int(min(max(wanted, 64), 4 * size, MAX_CHUNK))


class _Chunk:
    """Content lines lo..hi-1 of a file of plain lines, answered together and written in input order."""

    def __init__(self, lines: PlainLines, lo: int, hi: int, results: Printed | Records, tally: Counter[str]) -> None:
        self.lines, self.lo, self.hi, self.results, self.tally = lines, lo, hi, results, tally
        rows = lines.row[lo:hi]
        self.plain = np.flatnonzero(rows >= 0)  # positions in the chunk
        self.rows = rows[self.plain]
        self.written = 0  # positions before it are written

    def answer(
        self,
        answer: Answer,
        prepare: Callable[[Entry], Entry],
        before_first_puzzle: Callable[[Entry], None] | None,
        limit: int | None,
        jobs: int,
    ) -> bool:
        """Solve the plain lines at once, then write every answer in order, reading the other lines as they come.

        `before_first_puzzle(entry)`, if given, runs before the chunk's first puzzle; whether it ran.
        """
        lo = self.lo
        others = {x: self.lines.entry(lo + x) for x in np.flatnonzero(self.lines.row[lo : self.hi] < 0).tolist()}
        first = min([x for x, entry in others.items() if entry.solvable] + self.plain[:1].tolist(), default=None)
        if before_first_puzzle is not None and first is not None:
            before_first_puzzle(others[first] if first in others else self.lines.entry(lo + first))
        found = self._solved(2 if limit is None else limit, jobs) if len(self.rows) else None
        outcomes, texts, special = _common_answers(self.lines, lo + self.plain, self.rows, found, limit)
        for x in sorted([*others, *self.plain[special].tolist()]):
            self._write_common(x, outcomes, texts)
            entry = others.get(x)
            if entry is None:  # a plain line whose answer is not the common one
                assert found is not None
                entry = self.lines.entry(self.lo + x)
                k = int(np.searchsorted(self.plain, x))
                result = _result(found, k, 2 if limit is None else limit)
                if limit is None:
                    known = _checked_alone(entry, result, False)
                else:
                    known = count_lines(entry, False, result, limit)
            else:
                known = _answered(prepare(entry), False, answer)
            self._write(x, *known)
        self._write_common(self.hi - lo, outcomes, texts)
        return first is not None

    def _solved(self, limit: int, jobs: int) -> BatchResult:
        """The plain lines' counts up to `limit` and first grids, every grid checked (RuntimeError if one is wrong)."""
        from .backends.backtrack import solve_givens

        template = self.lines.template
        assert template is not None  # there is a plain line
        givens = self.lines.givens[self.rows]
        found = solve_givens(template, givens, limit=limit, jobs=jobs)
        doubtful = (found.counts > 0) & ~grids_hold(template, givens, found.firsts)
        for k in np.flatnonzero(doubtful).tolist():  # grids_hold could not vouch for them: read each
            problem = explain_violation(template.with_givens(givens[k].tolist()), tuple(found.firsts[k].tolist()))
            if problem:
                raise RuntimeError(f"backend {ENGINE!r} returned a wrong solution: {problem}")
        return found

    def _write_common(self, stop: int, outcomes: list[str], texts: list[str] | None) -> None:
        """Write the answers of positions written..stop-1, all plain lines with the common answer, at once."""
        lo, hi = self.written, stop
        if hi > lo:
            k = np.searchsorted(self.plain, [lo, hi])
            first = self.lo + lo + 1
            numbers = self.lines.line[self.lo + lo : self.lo + hi].tolist()
            with SIGNALS.held():
                self.results.write_many(first, numbers, outcomes[k[0] : k[1]], texts and texts[k[0] : k[1]])
                self.tally.update(outcomes[k[0] : k[1]])
        self.written = stop

    def _write(self, x: int, outcome: str, text: str) -> None:
        """Write the answer of position x."""
        with SIGNALS.held():
            self.results.write(self.lo + x + 1, int(self.lines.line[self.lo + x]), outcome, text)
            self.tally[outcome] += 1
        self.written = x + 1


def _common_answers(
    lines: PlainLines, content: np.ndarray, rows: np.ndarray, found: BatchResult | None, limit: int | None
) -> tuple[list[str], list[str] | None, np.ndarray]:
    """Per plain line: its outcome and text (None: no text) when the answer is the common one, and which are not.

    `content`: the plain lines' positions in `lines`, `rows` their rows of givens. Check (`limit` None):
    unique, as the file records, says nothing. Count: `path:line: N` (`>=N` at the limit).
    """
    if found is None:  # no plain line
        return [], None, np.zeros(0, bool)
    counts, complete = found.counts, found.complete
    if limit is None:
        claimed, solutions = lines.counts[rows], lines.solutions[rows]
        agree = (claimed == NO_COUNT) | (claimed == 1)
        agree &= ~solutions.any(axis=1) | (solutions == found.firsts).all(axis=1)
        return ["unique"] * len(rows), None, ~((counts == 1) & complete & agree)
    shown = [str(c) if done else f">={c}" for c, done in zip(counts.tolist(), complete.tolist(), strict=True)]
    path = lines.path
    texts = [f"{path}:{line}: {text}" for line, text in zip(lines.line[content].tolist(), shown, strict=True)]
    return [status_of_count(c) for c in counts.tolist()], texts, ~complete & (counts < limit)
