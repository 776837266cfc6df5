"""Answering a file of puzzles (check, count, grade) or generating puzzles on a Dask cluster, in input order.

`--cluster ADDRESS` (a Dask scheduler) or `--cluster local:N` (a LocalCluster of N one-thread worker processes):
the client reads the input, cuts the puzzles into chunks and submits each chunk to a worker, which answers it
with batch.answer_all, the very code one machine runs, so each puzzle's (outcome, text) is the same by
construction; generate's chunks are ranges of indices, puzzle i made from its own (seed, i) stream. A chunk
is sized to take about CHUNK_SECONDS by the per-puzzle cost the chunks answered so far measured (PROBE
puzzles until the first returns). At most a few chunks per worker thread are in flight; the client writes
the answers in input order as they arrive, what each puzzle said on the worker's stderr just before it.

With `--output FILE`, every finished chunk is appended to the journal FILE.journal (JSON lines, fsynced every
half second) as soon as it arrives, whatever its place; `--resume` skips the puzzles FILE's records hold
(batch.Records) and takes the journal's answers for those after them, so a client, scheduler or worker
killed at any point loses no finished chunk and no puzzle is answered twice. The journal is removed once
the run is complete. A worker that dies has its chunk run again by Dask (the scheduler's allowed-failures).
Dask is optional (`pip install 'cpmodels[cluster]'`) and loads only with --cluster.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from tqdm import tqdm

from . import batch
from .backends import BACKENDS
from .batch import Answer, AnswerBlock, Printed, Records
from .errors import CpModelsError, UsageError
from .formats import Entry
from .interrupts import SIGNALS

CHUNK_SECONDS = 2.0
"""The time a chunk should take on a worker: long beside the per-chunk overhead, short for balance and resume."""
CHUNKS_PER_SECOND = 25
"""The most chunks a second the whole cluster should finish: Dask's scheduler spends about a millisecond on a
task, so with many workers a chunk takes longer than CHUNK_SECONDS (100 workers: 4 s)."""
PROBE = 16
"""The puzzles of a chunk before any chunk has returned with its cost (generate: PROBE // 4)."""
MOST = 5000
"""The most puzzles in a chunk."""
IN_FLIGHT = 2
"""Chunks in flight per worker thread (one running, one waiting), plus one."""
FSYNC_EVERY = batch.FSYNC_EVERY
"""Seconds between two fsyncs of the journal."""
CONNECT_SECONDS = 30
"""How long the client tries to reach a scheduler."""
INSTALL = "--cluster needs Dask: pip install 'cpmodels[cluster]' (or 'dask[distributed]')"
"""What --cluster says without Dask."""
JOURNAL_HEADER = "cpmodels-journal"
"""The `kind` of a journal's first line."""
_LOCAL = re.compile(r"local:([0-9]{1,4})")

Said = tuple[str, str, str, dict[str, dict[str, int]]]
"""One puzzle's answer from a worker: (outcome, text, what it said on stderr, its counts per Counter option)."""


def address(text: str) -> str:
    """--cluster ADDRESS: `local:N` (1..1024 workers) or a scheduler's address; ValueError otherwise."""
    found = _LOCAL.fullmatch(text)
    if text.startswith("local") and not (found and 1 <= int(found[1]) <= 1024):
        raise ValueError(f"expected local:N with N workers in 1..1024, not {text[:20]!r}")
    if not text.strip():
        raise ValueError("expected a Dask scheduler's address (tcp://HOST:PORT) or local:N")
    return text


@contextmanager
def connected(where: str) -> Iterator[Any]:
    """A Dask Client of the scheduler at `where`, or of a new LocalCluster (`local:N`); UsageError without Dask."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise UsageError(INSTALL) from None
    _quiet("distributed")  # a lost connection is said once, in one line, by _result
    found = _LOCAL.fullmatch(where)
    if found:
        quiet = {"dashboard_address": ":0", "silence_logs": logging.ERROR}
        with LocalCluster(n_workers=int(found[1]), threads_per_worker=1, processes=True, **quiet) as local:
            with Client(local) as client:
                yield client
        return
    try:
        client = Client(where, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as e:
        raise CpModelsError(f"--cluster {where}: no Dask scheduler answers there ({e})") from None
    with client:
        yield client


def _quiet(name: str) -> None:
    """Logger `name` and those below it say only critical things (their errors are ours to say)."""
    for logger in (name, *(other for other in logging.root.manager.loggerDict if other.startswith(name + "."))):
        logging.getLogger(logger).setLevel(logging.CRITICAL)


def worker_threads(client: Any) -> int:
    """The worker threads of the cluster now (at least 1)."""
    return max(1, sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values()))


# ---- on a worker -----------------------------------------------------------------------------


class _ThreadStderr(io.TextIOBase):
    """sys.stderr on a worker: what a thread answering a chunk writes goes to that thread's buffer."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.local = threading.local()

    def write(self, text: str) -> int:
        """`text` into the thread's buffer if it has one, else to the real stderr."""
        buffer = getattr(self.local, "buffer", None)
        return (buffer if buffer is not None else self.real).write(text)

    def flush(self) -> None:
        """Flush the real stderr."""
        self.real.flush()

    def isatty(self) -> bool:
        """Never a terminal: no progress bar on a worker."""
        return False

    def take(self) -> str:
        """What this thread said since the last take."""
        said = self.local.buffer.getvalue()
        self.local.buffer.seek(0)
        self.local.buffer.truncate()
        return said


_STDERR_LOCK = threading.Lock()


@contextmanager
def _captured() -> Iterator[_ThreadStderr]:
    """Within the block, what this thread writes to sys.stderr is kept for _ThreadStderr.take()."""
    with _STDERR_LOCK:
        if not isinstance(sys.stderr, _ThreadStderr):
            sys.stderr = _ThreadStderr(sys.stderr)
        stderr = sys.stderr
    stderr.local.buffer = io.StringIO()
    try:
        yield stderr
    finally:
        stderr.local.buffer = None


@dataclass
class _Collected:
    """batch.answer_all's `results` on a worker: each puzzle's answer kept, with what was said and counted."""

    stderr: _ThreadStderr
    counters: dict[str, Counter[str]]
    said: list[Said] = field(default_factory=list)

    def answered(self, k: int, line: int) -> bool:
        """Never: the client sends only puzzles to answer."""
        return False

    def write(self, k: int, line: int, outcome: str, text: str) -> None:
        """Keep puzzle k's answer, what it said and counted (the counters start again from 0)."""
        self.said.append((outcome, text, self.stderr.take(), _taken(self.counters)))


def _taken(counters: dict[str, Counter[str]]) -> dict[str, dict[str, int]]:
    """The counts of each Counter, which are then cleared."""
    counts = {name: dict(counter) for name, counter in counters.items() if counter}
    for counter in counters.values():
        counter.clear()
    return counts


def _fresh(answer: Any) -> tuple[Any, dict[str, Counter[str]]]:
    """`answer` (a partial) with a new Counter for each of its Counter options, and those Counters by name."""
    if not isinstance(answer, partial):
        return answer, {}
    counters: dict[str, Counter[str]] = {k: Counter() for k, v in answer.keywords.items() if isinstance(v, Counter)}
    return partial(answer.func, *answer.args, **{**answer.keywords, **counters}), counters


_LOADED: set[str] = set()
"""The engines loaded in this process."""


def warm_up(engines: Iterable[str]) -> None:
    """Load each engine (library, numba kernels) once in this process: a worker's first chunk does."""
    for name in engines:
        if name not in _LOADED:
            BACKENDS[name].warm_up()
            _LOADED.add(name)


def answer_chunk(
    entries: list[Entry], single: bool, answer: Answer, block: AnswerBlock | None, engines: tuple[str, ...]
) -> tuple[list[Said], float]:
    """Each entry's answer as batch.answer_all gives it on one machine, and the seconds answering took."""
    warm_up(engines)
    fresh, counters = _fresh(answer)
    with _captured() as stderr:
        collected = _Collected(stderr, counters)
        results: Any = collected  # what batch.answer_all asks of its results: answered() and write()
        start = time.perf_counter()
        batch.answer_all(iter(entries), single, fresh, results, Counter(), lambda entry: None, block)
        return collected.said, time.perf_counter() - start


def generate_chunk(make: Callable[..., Iterator[Any]], start: int, count: int) -> tuple[list[Any], float]:
    """make(start, count, tally)'s puzzles, each with what was said and counted before it; the seconds it took."""
    tally: Counter[str] = Counter()
    made = []
    with _captured() as stderr:
        begun = time.perf_counter()
        for puzzle in make(start, count, tally):
            made.append((puzzle, stderr.take(), _taken({"tally": tally})))
        made.append((None, stderr.take(), _taken({"tally": tally})))
        return made, time.perf_counter() - begun


# ---- on the client ---------------------------------------------------------------------------


@dataclass
class _Slot:
    """A run of consecutive puzzles (k, line) and their answers once known; `future` while in flight."""

    keys: list[tuple[int, int]]
    said: list[Any] | None = None
    future: Any = None


class Chunks:
    """Puzzles cut into chunks sized by their measured cost, in flight on the cluster, returned in order."""

    def __init__(
        self, client: Any, task: Callable[..., Any], probe: int, size: int | None, journal: Journal | None = None
    ) -> None:
        from distributed import as_completed

        self.client, self.task, self.size = client, task, size
        self.probe = size or probe
        threads = worker_threads(client)
        self.window = IN_FLIGHT * threads + 1
        self.chunk_seconds = max(CHUNK_SECONDS, threads / CHUNKS_PER_SECOND)
        self.done = as_completed()
        self.slots: deque[_Slot] = deque()
        self.seconds, self.measured, self.last = 0.0, 0, self.probe
        self.journal = journal

    def chunk_size(self) -> int:
        """Puzzles in the next chunk: --chunk, else about chunk_seconds' work at the cost measured so far.

        Chunks grow at most twofold from one to the next, so that the first puzzles spread over the workers.
        """
        if self.size:
            return self.size
        if not self.measured:
            return self.probe
        measured = round(self.chunk_seconds * self.measured / max(self.seconds, 1e-9))
        return max(1, min(MOST, 2 * self.last, measured))

    def submit(self, keys: list[tuple[int, int]], *arguments: Any) -> None:
        """Send a chunk (its puzzles' keys, the task's arguments) to the cluster."""
        future = self.client.submit(self.task, *arguments, pure=False)
        self.last = len(keys)
        self.done.add(future)
        self.slots.append(_Slot(keys, future=future))

    def ready(self, keys: list[tuple[int, int]], said: list[Any]) -> None:
        """Puzzles answered already (by the journal, or on the client), in their place."""
        self.slots.append(_Slot(keys, said))

    def finished(self, wait: bool) -> Iterator[_Slot]:
        """The slots at the head whose answers are known, in order; with `wait`, after one more chunk returns."""
        if wait and not self.done.is_empty():
            self._arrived(next(self.done))
        while self.done.has_ready():
            self._arrived(next(self.done))
        while self.slots and self.slots[0].said is not None:
            yield self.slots.popleft()

    def busy(self) -> bool:
        """Whether as many chunks are in flight as the cluster should hold."""
        return self.done.count() >= self.window

    def _arrived(self, future: Any) -> None:
        """Take a returned chunk's answers (raising what it raised), measure it, journal it."""
        slot = next(s for s in self.slots if s.future is future)
        said, seconds = _result(future)
        slot.said, slot.future = said, None
        self.seconds += seconds
        self.measured += len(slot.keys)
        if self.journal:
            self.journal.record(slot.keys, said)


def _result(future: Any) -> Any:
    """What a chunk returned (or raised); CpModelsError when the cluster lost it (workers killed, scheduler gone)."""
    from distributed import KilledWorker
    from distributed.client import FutureCancelledError

    try:
        return future.result()
    except KilledWorker as e:
        raise CpModelsError(f"a chunk of puzzles killed every worker it ran on: {e}") from None
    except (FutureCancelledError, OSError, TimeoutError) as e:  # the scheduler went away
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise CpModelsError(
            f"the cluster lost a chunk ({why}); what finished is kept: run again with --resume"
        ) from None


def answer_all(
    where: str,
    entries: Iterator[Entry],
    single: bool,
    answer: Answer,
    results: Printed | Records,
    tally: Counter[str],
    engines_for: Callable[[Entry], tuple[str, ...]],
    block: AnswerBlock | None = None,
    size: int | None = None,
    resume: bool = False,
) -> None:
    """batch.answer_all on the cluster at `where`: the same answers written in input order, chunk by chunk.

    `engines_for(entry)` names the engines the workers load before the first puzzle; `size` fixes the puzzles
    of a chunk (default: measured); `resume` takes the answers of the journal beside an --output file.
    """
    with connected(where) as client, _journal(results, resume) as journal, _bar(single) as bar:
        chunks = Chunks(client, answer_chunk, PROBE, size, journal)
        feed = _Feed(chunks, single, answer, block, engines_for)
        write = partial(_write_finished, chunks, results, tally, answer, bar)
        for k, entry in enumerate(entries, start=1):
            if not results.answered(k, entry.line):
                feed.take(k, entry, journal.found(k, entry.line) if journal else None)
            write(wait=False)
            while chunks.busy():
                write(wait=True)
        feed.send()
        while chunks.slots:
            write(wait=True)
        if journal:
            journal.complete = True


class _Feed:
    """The puzzles to answer, gathered into chunks and sent; those known already put in their place between."""

    def __init__(
        self,
        chunks: Chunks,
        single: bool,
        answer: Answer,
        block: AnswerBlock | None,
        engines_for: Callable[[Entry], tuple[str, ...]],
    ) -> None:
        self.chunks, self.single, self.answer, self.block, self.engines_for = chunks, single, answer, block, engines_for
        self.engines: tuple[str, ...] | None = None
        self.todo: list[tuple[int, Entry]] = []

    def take(self, k: int, entry: Entry, known: Said | None) -> None:
        """Puzzle k: into the next chunk, or in its place answered (by the journal, or here if it is bad input)."""
        if self.engines is None and entry.solvable:
            self.engines = self.engines_for(entry)
        if known is None and entry.solvable:
            self.todo.append((k, entry))
            if len(self.todo) >= self.chunks.chunk_size():
                self.send()
            return
        self.send()  # the puzzles before it go first
        said = [known] if known else answer_chunk([entry], self.single, self.answer, None, ())[0]
        self.chunks.ready([(k, entry.line)], said)

    def send(self) -> None:
        """Submit the puzzles gathered (if any) as one chunk."""
        if self.todo:
            keys = [(k, entry.line) for k, entry in self.todo]
            entries = [entry for _, entry in self.todo]
            self.chunks.submit(keys, entries, self.single, self.answer, self.block, self.engines or ())
            self.todo = []


def _write_finished(
    chunks: Chunks, results: Printed | Records, tally: Counter[str], answer: Answer, bar: Any, wait: bool
) -> None:
    """Write the answers of the chunks finished at the head, in order (after one more returns, with `wait`)."""
    counters = answer.keywords if isinstance(answer, partial) else {}
    for slot in chunks.finished(wait):
        for (k, line), (outcome, text, said, counts) in zip(slot.keys, slot.said or (), strict=True):
            if said:
                tqdm.write(said.rstrip("\n"), file=sys.stderr)
            with SIGNALS.held():
                results.write(k, line, outcome, text)
                tally[outcome] += 1
            for name, count in counts.items():
                counters[name].update(count)
            bar.update()


@contextmanager
def _bar(single: bool) -> Iterator[Any]:
    """A progress bar of puzzles written on stderr, shown after a second on a terminal (none for one puzzle)."""
    with tqdm(desc="puzzles", unit="puzzle", delay=1.0, disable=True if single else None, file=sys.stderr) as bar:
        yield bar


def generate(
    where: str, make: Callable[..., Iterator[Any]], start: int, count: int, tally: Counter[str], size: int | None
) -> Iterator[Any]:
    """Puzzles start .. start+count-1 made by make(start, n, tally) on the cluster, in order; what each said first."""
    with connected(where) as client:
        chunks = Chunks(client, generate_chunk, max(1, PROBE // 4), size)
        index, end = start, start + count
        while index < end or chunks.slots:
            while index < end and not chunks.busy():
                n = min(chunks.chunk_size(), end - index)
                chunks.submit([(i, i) for i in range(index, index + n)], make, index, n)
                index += n
            for slot in chunks.finished(wait=True):
                yield from _made(slot.said or [], tally)


def _made(said: list[Any], tally: Counter[str]) -> Iterator[Any]:
    """The puzzles of a returned generate chunk, each after what was said before it, counting its tally."""
    for puzzle, text, counts in said:
        if text:
            tqdm.write(text.rstrip("\n"), file=sys.stderr)
        tally.update(counts.get("tally", {}))
        if puzzle is not None:
            yield puzzle


# ---- the journal -----------------------------------------------------------------------------


def journal_path(output: Path) -> Path:
    """The journal beside an --output FILE: FILE.journal."""
    return output.with_name(output.name + ".journal")


@contextmanager
def _journal(results: Printed | Records, resume: bool) -> Iterator[Journal | None]:
    """The journal of an --output run (None on stdout), removed once the run is complete."""
    if not isinstance(results, Records):
        yield None
        return
    journal = Journal(journal_path(results.path), results.command, resume, results.done)
    try:
        yield journal
    finally:
        journal.close()


class Journal:
    """FILE.journal: a header line, then one JSON line per finished chunk (its puzzles' keys and answers)."""

    def __init__(self, path: Path, command: str, resume: bool, done: int) -> None:
        self.path, self.command, self.complete = path, command, False
        self.known: dict[int, tuple[int, Said]] = self._read(done) if resume else {}
        try:
            self.file = path.open("a" if resume and self.known else "w", encoding="utf-8")
        except OSError as e:
            raise CpModelsError(f"{path}: cannot write it: {e.strerror or e}") from None
        if not (resume and self.known):
            self._append({"kind": JOURNAL_HEADER, "command": command})
        self.synced = time.monotonic()

    def found(self, k: int, line: int) -> Said | None:
        """The journal's answer of puzzle k, if it has one; CpModelsError if it is of another input."""
        if k not in self.known:
            return None
        known_line, said = self.known.pop(k)
        if known_line != line:
            raise CpModelsError(
                f"{self.path}: its chunks are of another input: puzzle {k} is at line {known_line} there, "
                f"at line {line} here; leave out --resume to start again"
            )
        return said

    def record(self, keys: list[tuple[int, int]], said: list[Said]) -> None:
        """Append a finished chunk: its puzzles' numbers and lines, and their answers."""
        self._append({"keys": keys, "said": said})

    def close(self) -> None:
        """Close the journal; remove it when the run is complete (FILE has every record)."""
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()
        if self.complete:
            self.path.unlink(missing_ok=True)

    def _append(self, record: dict[str, Any]) -> None:
        """One JSON line, flushed at once, fsynced every FSYNC_EVERY seconds."""
        self.file.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.file.flush()
        if time.monotonic() - getattr(self, "synced", 0.0) >= FSYNC_EVERY:
            os.fsync(self.file.fileno())
            self.synced = time.monotonic()

    def _read(self, done: int) -> dict[int, tuple[int, Said]]:
        """The answers of the puzzles after the first `done` in the journal (none if there is no journal).

        A torn last line (a kill mid-write) is cut; a journal of another command is refused.
        """
        known: dict[int, tuple[int, Said]] = {}
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines(keepends=True)
        except FileNotFoundError:
            return known
        except (OSError, UnicodeDecodeError) as e:
            raise CpModelsError(f"{self.path}: cannot read it: {e}") from None
        kept = 0
        for number, text in enumerate(lines, start=1):
            try:
                record = json.loads(text) if text.endswith("\n") else None
            except json.JSONDecodeError:
                record = None
            if record is None:  # torn by a kill: the rest is cut
                break
            if number == 1:
                self._check_header(record)
            else:
                for (k, line), said in zip(record["keys"], record["said"], strict=True):
                    if k > done:
                        known[k] = (line, (*said,))
            kept += len(text.encode("utf-8"))
        with self.path.open("r+b") as f:
            f.truncate(kept)
        return known if kept else {}

    def _check_header(self, record: dict[str, Any]) -> None:
        """CpModelsError unless `record` is the header of a journal of this command."""
        if record.get("kind") != JOURNAL_HEADER:
            raise CpModelsError(f"{self.path}: not a cpmodels journal (no header line); remove it to start again")
        if record.get("command") != self.command:
            raise CpModelsError(f"{self.path} is the journal of `cpmodels {record.get('command')}`, not {self.command}")
