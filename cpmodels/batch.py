"""Answering a file of puzzles one by one: outcomes and exit codes, the summary table, --output records, --resume.

Each puzzle ends in one outcome (SEVERITY, the worst first); a file's exit code is that of its worst puzzle's
outcome (EXIT). Each puzzle's answer is written as soon as it is known: on stdout (Printed) or, with
`--output FILE`, as a record (Records): its lines, then the end line `#> puzzle K (line L): OUTCOME`, after
the file's header line `#> cpmodels COMMAND: ...`. `--resume` keeps the complete records, cuts whatever
follows the last of them (a record torn by a kill, an old summary) and answers only the puzzles after it.
"""

from __future__ import annotations

import itertools
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from tqdm import tqdm

from .errors import CpModelsError, UsageError
from .formats import Entry
from .interrupts import SIGNALS

EXIT = {
    "unique": 0,
    "solved": 0,
    "multiple": 3,
    "none": 4,
    "timeout": 5,
    "bad input": 2,
    "disagree": 6,
    "mismatch": 7,
    "stuck": 8,
    "closed pipe": 141,
}
"""The exit code of each outcome (and of a closed output pipe)."""
SEVERITY = ["disagree", "mismatch", "bad input", "timeout", "stuck", "none", "multiple", "unique", "solved"]
"""The outcomes of a puzzle, the worst first: a file's exit code is its worst puzzle's."""
SUMMARY = ("unique", "multiple", "none", "timeout", "bad input", "disagree", "mismatch")
"""The rows of check's summary table."""
FSYNC_EVERY = 0.5
"""Seconds between two fsyncs of an --output file (each record is flushed at once)."""
RECORD_HEADER = "#> cpmodels {command}: one record per puzzle, each ending with `#> puzzle K (line L): OUTCOME`"
"""The first line of an --output file: which command's records it holds."""
_RECORD_HEADER = re.compile(r"#> cpmodels (\w+): .*\n")
RECORD_END = "#> puzzle {k} (line {line}): {outcome}"
"""The last line of puzzle K's record (K counts the input's puzzles from 1; L is the line it starts on)."""
_RECORD_END = re.compile(rf"#> puzzle (\d+) \(line (\d+)\): ({'|'.join(SEVERITY)})\n")

Answer = Callable[[Entry, bool], tuple[str, str]]
"""answer(entry, single) -> (outcome, the text to show): one puzzle's work for solve, count or check."""
AnswerBlock = Callable[[list[Entry]], "list[tuple[str, str]] | None"]
"""block(entries) -> answer's (outcome, text) for each of puzzles of a file, in one call; None if it cannot."""
BLOCK = 256
"""Entries read ahead and answered together when a command answers a block of puzzles in one call."""


def worst_exit_code(tally: Counter[str]) -> int:
    """The exit code of the most severe outcome counted (0 when there is none)."""
    seen = [outcome for outcome in SEVERITY if tally[outcome]]
    return EXIT[seen[0]] if seen else 0


def summary_table(tally: Counter[str]) -> str:
    """The table of outcome counts, then the total."""
    rows = [f"{'outcome':<10} {'puzzles':>8}"]
    rows += [f"{word:<10} {tally[word]:>8}" for word in SUMMARY]
    rows.append(f"{'total':<10} {sum(tally.values()):>8}")
    return "\n".join(rows)


def answer_all(
    entries: Iterator[Entry],
    single: bool,
    answer: Answer,
    results: Printed | Records,
    tally: Counter[str],
    before_first_puzzle: Callable[[Entry], None],
    block: AnswerBlock | None = None,
) -> None:
    """Answer every entry in input order, each written and counted in `tally` at once; skip those `results` hold.

    `before_first_puzzle(entry)` runs once, before the first puzzle (or exact cover) answered, not for an error.
    `block(puzzles)`, if given, answers the puzzles of BLOCK entries at a time in one call where it can
    (the same answers as `answer`, faster), else says None and each is answered alone.
    """
    waiting = True
    numbered = enumerate(_progress(entries, single), start=1)
    while chunk := list(itertools.islice(numbered, BLOCK if block and not single else 1)):
        todo = [(k, entry) for k, entry in chunk if not results.answered(k, entry.line)]
        first = next((entry for _, entry in todo if entry.solvable), None)
        if first is not None and waiting:
            before_first_puzzle(first)
            waiting = False
        puzzles = [entry for _, entry in todo if entry.puzzle is not None]
        answered = iter(_in_one_call(block, puzzles) or ())
        for k, entry in todo:
            known = next(answered, None) if entry.puzzle is not None else None
            outcome, text = known or _answered(entry, single, answer)
            with SIGNALS.held():
                results.write(k, entry.line, outcome, text)
                tally[outcome] += 1


def _in_one_call(block: AnswerBlock | None, puzzles: list[Entry]) -> list[tuple[str, str]] | None:
    """`block`'s answers for the puzzles, or None: no block, fewer than two, or a puzzle it cannot take."""
    if block is None or len(puzzles) < 2:
        return None
    try:
        return block(puzzles)
    except (CpModelsError, RuntimeError):  # answered one by one instead, each saying what is wrong with it
        return None


def _progress(entries: Iterator[Entry], single: bool) -> Iterable[Entry]:
    """`entries` behind a progress bar on stderr that shows after a second (on a terminal, for a file)."""
    if single:
        return entries
    return tqdm(entries, desc="puzzles", unit="puzzle", delay=1.0, disable=None, file=sys.stderr)


def _answered(entry: Entry, single: bool, answer: Answer) -> tuple[str, str]:
    """(outcome, text) for one entry: `answer`'s, or `bad input` with its one-line message on stderr."""
    error = entry.error
    if entry.solvable:
        try:
            return answer(entry, single)
        except UsageError:  # not this puzzle's fault: the command stops, saying it once
            raise
        except CpModelsError as e:  # a backend that cannot take this puzzle, a format that cannot carry it
            error = e
    tqdm.write(f"cpmodels: {error}", file=sys.stderr)
    return "bad input", ""


@contextmanager
def results(output: Path | None, command: str, resume: bool, tally: Counter[str]) -> Iterator[Printed | Records]:
    """Where the answers go: `output`'s records (an earlier run's outcomes added to `tally`), else stdout."""
    if not output:
        yield Printed()
        return
    records = Records(output, command, resume)
    tally.update(records.earlier)
    try:
        yield records
    finally:
        records.close()


class Printed:
    """Where a batch's answers go without --output: stdout, flushed after each puzzle."""

    def answered(self, k: int, line: int) -> bool:
        """Never: stdout keeps no earlier run."""
        return False

    def write(self, k: int, line: int, outcome: str, text: str) -> None:
        """`text` on stdout (above the progress bar), flushed."""
        if text:
            tqdm.write(text)
        sys.stdout.flush()

    def write_many(self, first: int, lines: list[int], outcomes: list[str], texts: list[str] | None) -> None:
        """write() of puzzles first, first + 1, ... (`texts` None: nothing to show), at once."""
        shown = "\n".join(filter(None, texts or ()))
        if shown:
            tqdm.write(shown)
        sys.stdout.flush()

    def write_summary(self, text: str) -> None:
        """The summary on stdout."""
        print(text, flush=True)


class Records:
    """--output FILE: a header line, then each puzzle's text and end line, flushed at once, fsynced now and then."""

    def __init__(self, path: Path, command: str, resume: bool) -> None:
        self.path, self.command = path, command
        self.done, self.last_line, keep, self.earlier = finished_records(path, command) if resume else NO_RECORDS
        try:
            with path.open("ab") as f:
                f.truncate(keep)
            self.file = path.open("a", encoding="utf-8")
        except OSError as e:
            raise CpModelsError(f"{path}: cannot write it: {e.strerror or e}") from None
        if not keep:
            self.file.write(RECORD_HEADER.format(command=command) + "\n")
        self.synced = time.monotonic()

    def answered(self, k: int, line: int) -> bool:
        """Whether FILE has puzzle k's record; CpModelsError if its last record is of another input."""
        if k == self.done and line != self.last_line:
            raise CpModelsError(
                f"{self.path}: its records are of another input: puzzle {k} is at line {self.last_line} there, "
                f"at line {line} here; leave out --resume to start again"
            )
        return k <= self.done

    def write(self, k: int, line: int, outcome: str, text: str) -> None:
        """Puzzle k's record, in one write: its text, then its end line."""
        block = f"{text}\n" if text else ""
        self.file.write(block + RECORD_END.format(k=k, line=line, outcome=outcome) + "\n")
        self.file.flush()
        if time.monotonic() - self.synced >= FSYNC_EVERY:
            os.fsync(self.file.fileno())
            self.synced = time.monotonic()

    def write_many(self, first: int, lines: list[int], outcomes: list[str], texts: list[str] | None) -> None:
        """write() of puzzles first, first + 1, ... at `lines` (`texts` None: no text), in one write."""
        ends = [RECORD_END.format(k=k, line=line, outcome=o) + "\n" for k, line, o in zip(
            range(first, first + len(lines)), lines, outcomes, strict=True)]  # fmt: skip
        if texts:
            ends = [f"{text}\n{end}" if text else end for text, end in zip(texts, ends, strict=True)]
        self.file.write("".join(ends))
        self.file.flush()
        if time.monotonic() - self.synced >= FSYNC_EVERY:
            os.fsync(self.file.fileno())
            self.synced = time.monotonic()

    def write_summary(self, text: str) -> None:
        """The summary on stdout, and after FILE's records (a resumed run cuts it and writes its own)."""
        self.file.write(text + "\n")
        print(text, flush=True)

    def close(self) -> None:
        """Flush, fsync and close FILE."""
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()


NO_RECORDS: tuple[int, int, int, Counter[str]] = (0, 0, 0, Counter())
"""What finished_records finds in a file without a header: no records, nothing to keep."""


def finished_records(path: Path, command: str) -> tuple[int, int, int, Counter[str]]:
    """(records, input line of the last, byte offset after it, outcome counts) of FILE; NO_RECORDS if no header."""
    done, last_line, keep, tally = 0, 0, 0, Counter[str]()
    offset = 0
    try:
        with path.open("rb") as f:
            for k, raw in enumerate(f, start=1):
                offset += len(raw)
                text = raw.decode("utf-8", "replace")
                if k == 1:
                    if not _is_record_header(path, text, command):
                        return NO_RECORDS
                    keep = offset
                elif found := _RECORD_END.fullmatch(text):
                    if int(found[1]) != done + 1:
                        raise CpModelsError(f"{path}:{k}: record {found[1]} follows record {done}: not one run's")
                    done, last_line, keep = done + 1, int(found[2]), offset
                    tally[found[3]] += 1
    except FileNotFoundError:
        return NO_RECORDS
    except OSError as e:
        raise CpModelsError(f"{path}: cannot read it: {e.strerror or e}") from None
    return done, last_line, keep, tally


def _is_record_header(path: Path, first_line: str, command: str) -> bool:
    """Whether `first_line` is a whole header of `command`'s records; False if torn; CpModelsError if foreign."""
    found = _RECORD_HEADER.fullmatch(first_line)
    if not first_line.endswith("\n") and first_line.startswith("#> cpmodels"):
        return False
    if not found:
        raise CpModelsError(f"{path}: not a cpmodels --output file (no `#> cpmodels COMMAND:` first line) to resume")
    if found[1] != command:
        raise CpModelsError(f"{path} holds the records of `cpmodels {found[1]}`: resume it with that command")
    return True
