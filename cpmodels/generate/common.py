"""What every generator shares: progress callbacks, deadlines, the time-limit warning, seeds per puzzle, records."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import CpModelsError
from ..grid import GridPuzzle
from ..minimality import SYMMETRIES as SYMMETRIES
from ..minimality import is_symmetric as is_symmetric

Progress = Callable[[int, int], None]
"""progress(done, total): called after each step of a long generation (a given tried, a Mathdoku tried)."""


class TimeLimitWarning(UserWarning):
    """The deadline passed while punching: the puzzle returned is unique but perhaps not minimal."""


def past(deadline: float | None) -> bool:
    """Whether `deadline` (a time.monotonic() value) has passed; never without one."""
    return deadline is not None and time.monotonic() >= deadline


def seconds_left(deadline: float | None) -> float | None:
    """The seconds until `deadline` (a time.monotonic() value), at least 0; None without a deadline."""
    return None if deadline is None else max(0.0, deadline - time.monotonic())


def stream(seed: int, index: int) -> random.Random:
    """The random stream of puzzle `index` of a run with `seed`: numpy's SeedSequence(seed).spawn(...)[index].

    SeedSequence(seed, spawn_key=(index,)) is that child without spawning the ones before it; its
    256 bits seed a random.Random. Each puzzle depends on (seed, index) alone: not on the order the
    puzzles are made in, how many are made at once, or the machine.
    """
    check_seed(seed, index)
    state = np.random.SeedSequence(int(seed), spawn_key=(int(index),)).generate_state(8, np.uint32)
    return random.Random(int.from_bytes(state.astype("<u4").tobytes(), "little"))


def check_seed(seed: object, index: object) -> None:
    """CpModelsError unless `seed` and `index` are integers of at least 0."""
    for name, value in (("seed", seed), ("index", index)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 0:
            raise CpModelsError(f"the {name} must be an integer of at least 0, not {value!r}")


@dataclass
class Tally:
    """Counts shared by the jobs of a run: attempts started (a complete grid or a local step each)."""

    attempts: int = 0


@dataclass(frozen=True)
class Made:
    """A generated puzzle with what is known about it: its solution, where it came from, how it was made.

    seed, index: its stream (None when made from a stream of its own); method, symmetry: how it was
    reduced; attempts: how many it took; fields: what was measured on the way (nodes, grade, weight).
    """

    puzzle: GridPuzzle
    solution: tuple[int, ...] | None = None
    seed: int | None = None
    index: int | None = None
    method: str | None = None
    symmetry: str | None = None
    attempts: int = 1
    fields: dict[str, Any] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        """Its fields in output order: seed (S:i), clues, method, symmetry, then attempts and those measured."""
        out: dict[str, Any] = {}
        if self.seed is not None:
            out["seed"] = f"{self.seed}:{self.index}"
        if self.method is not None:
            out["clues"] = sum(1 for v in self.puzzle.givens if v)
            out["method"] = self.method
            out["symmetry"] = self.symmetry
        for key in ("attempts", "nodes", "grade", "weight", "undecided"):
            if key == "attempts" and self.attempts > 1:
                out[key] = self.attempts
            elif key in self.fields:
                value = self.fields[key]
                out[key] = float(f"{value:.6g}") if isinstance(value, float) else value
        return out

    def fields_text(self) -> str:
        """record() as the tab and `key=value` words written after a one-line puzzle (formats.text.FIELDS)."""
        return "\t" + " ".join(f"{key}={value}" for key, value in self.record().items())
