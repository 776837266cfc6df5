"""Ctrl-C and SIGTERM as interruptions: an Interrupted exception (exit 130 and 143) instead of a killed process.

The command catches Interrupted and reports what finished. A batch writes each puzzle's answer and counts it
inside `SIGNALS.held()`, so a signal never separates the two: it waits for the end of the block.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from .errors import Interrupted


class Signals:
    """Ctrl-C and SIGTERM as Interrupted: raised at once, or at the end of a held() block."""

    def __init__(self) -> None:
        self.holding = False
        self.pending: Interrupted | None = None

    def stop(self, signum: int, _frame: object) -> None:
        """The signal handler: raise Interrupted (exit 128 + signum), or keep it until the held block ends."""
        stop = Interrupted(128 + signum, "interrupted" if signum == signal.SIGINT else "terminated")
        if not self.holding:
            raise stop
        self.pending = stop

    @contextmanager
    def held(self) -> Iterator[None]:
        """Within the block no Interrupted is raised (one that arrives waits for its end)."""
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
        if self.pending:
            stop, self.pending = self.pending, None
            raise stop


SIGNALS = Signals()
"""The one handler of Ctrl-C and SIGTERM; `with SIGNALS.held():` writes a puzzle's answer and counts it, or neither."""


@contextmanager
def signals_interrupt() -> Iterator[None]:
    """Within the block, Ctrl-C and SIGTERM raise Interrupted (exit 130 and 143) instead of killing the process."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    SIGNALS.pending = None
    previous = {s: signal.signal(s, SIGNALS.stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
