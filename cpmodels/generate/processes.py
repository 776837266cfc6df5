"""Generation in worker processes: chunks of a run's indices, each made by a process that owns its kernel.

Puzzle i depends on (seed, i) alone, so a chunk made anywhere is the chunk made here: the records come back
in index order, each chunk as soon as it and every chunk before it are done, whatever the number of
processes. Workers are started with `spawn` (a fresh interpreter each, which loads the kernel from its
on-disk cache) and each makes its chunk in lockstep, like a run in one process.
"""

from __future__ import annotations

import multiprocessing
import warnings
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor

from ..errors import SearchTimeoutError
from .common import Made, Progress, Tally, TimeLimitWarning

CHUNK = 128
"""The most indices a chunk holds (fewer when the run is short, so that every process has work)."""


def in_processes(
    make: Callable[..., Iterator[Made]],
    family: str,
    seed: int,
    indices: range,
    processes: int,
    deadline: float | None,
    progress: Progress | None,
    tally: Tally | None,
    options: dict,
) -> Iterator[Made]:
    """The records of `indices`, in order, made by `processes` worker processes, chunk by chunk.

    Each chunk is make(family, seed, count, start=..., deadline=..., tally=..., **options) in a worker:
    generate_records, passed in (by reference, as the workers import it) so that this module needs no
    import of the package.

    At most two chunks per process are under way at once. A chunk stopped by the deadline gives its
    records and then the run stops with SearchTimeoutError, as in one process; so does Ctrl-C
    (KeyboardInterrupt), after the records of every chunk finished before it.
    """
    size = max(1, min(CHUNK, -(-len(indices) // (4 * processes))))
    chunks = deque(range(lo, min(lo + size, indices.stop)) for lo in range(indices.start, indices.stop, size))
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(processes, mp_context=context)
    running: deque[Future] = deque()
    done = 0
    try:
        while chunks or running:
            while chunks and len(running) < 2 * processes:
                part = chunks.popleft()
                running.append(pool.submit(_chunk, make, family, seed, part.start, len(part), deadline, options))
            made, attempts, caught, stopped = running.popleft().result()
            for message in caught:
                warnings.warn(message, TimeLimitWarning, stacklevel=2)
            if tally is not None:
                tally.attempts += attempts
            for record in made:
                done += 1
                yield record
                if progress:
                    progress(done, len(indices))
            if stopped is not None:
                raise SearchTimeoutError(stopped if "puzzles made" not in stopped else _short(done, len(indices)))
    finally:
        for future in running:
            future.cancel()
        pool.shutdown(wait=False, cancel_futures=True)


def _short(done: int, count: int) -> str:
    """The message of a run the deadline stopped short."""
    return f"time limit reached: {done} of {count} puzzles made"


def _chunk(
    make: Callable[..., Iterator[Made]],
    family: str,
    seed: int,
    start: int,
    count: int,
    deadline: float | None,
    options: dict,
) -> tuple[list[Made], int, list[str], str | None]:
    """In a worker: the records of puzzles start .. start+count-1, attempts taken, time-limit warnings, stop message."""
    tally = Tally()
    made: list[Made] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", TimeLimitWarning)
        try:
            for record in make(family, seed, count, start=start, deadline=deadline, tally=tally, **options):
                made.append(record)
        except SearchTimeoutError as e:
            return made, tally.attempts, [str(w.message) for w in caught], str(e)
    return made, tally.attempts, [str(w.message) for w in caught], None
