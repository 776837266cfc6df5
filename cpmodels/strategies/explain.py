"""Explanations and grades: a puzzle solved step by step by a policy, guessing shown where it was needed."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..grid import GridPuzzle, cell_name
from .catalogue import BY_KEY
from .notation import digits_text, format_step
from .policies import check_policy, chosen, next_step
from .registry import Technique
from .state import State, digits_of, popcount
from .steps import Step

RATING_VERSION = "zambon-1"
"""The version of the level table the grades use (catalogue.py)."""
SCALES = ("zambon",)


@dataclass
class Explanation:
    """A puzzle explained: its steps, start and final states, whether it got stuck, and its Zambon grade."""

    steps: list[Step]
    start: State
    final: State
    stuck: bool
    solved: bool
    policy: str
    techniques: list[str]
    seconds: float = 0.0
    contradiction: str | None = None
    guesses: list[str] = field(default_factory=list)

    @property
    def grade(self) -> int:
        """Zambon's grade: the highest level used, 0-3, or 4 when it guessed (a lower bound when stuck)."""
        return max((s.level for s in self.steps), default=0)

    @property
    def strats_used(self) -> list[int]:
        """The codes of the strategies used (level*10 + index, 40 for guessing), ascending."""
        return sorted({s.code for s in self.steps})

    @property
    def counts(self) -> dict[str, int]:
        """How many steps each strategy took, by name, in the order first used."""
        return dict(Counter(s.name for s in self.steps))

    @property
    def placed_at_start(self) -> int:
        """How many cells were placed before the first step (givens, or placed cells of pencil marks)."""
        return sum(1 for v in self.start.values if v)

    def states(self) -> list[State]:
        """The state before each step, then the final state (one more than there are steps)."""
        out = [self.start]
        for step in self.steps:
            out.append(step.apply(out[-1]))
        return out

    def text(self) -> str:
        """One line per step, then the summary (stuck, guesses, strategies used, grade)."""
        lines = [f"placed at start: {self.placed_at_start} of {self.start.n * self.start.n}"]
        lines += [format_step(s) for s in self.steps]
        if self.contradiction:
            lines.append(f"no solution: {self.contradiction}")
        elif self.stuck:
            lines.append(f"stuck after {len(self.steps)} steps: {self.final.pencilmarks()}")
        if self.guesses:
            lines.append(f"guessed at {', '.join(self.guesses)}")
        used = ", ".join(f"{name} ({k})" for name, k in self.counts.items())
        lines.append(f"Strategies used {len(self.counts)}: {used}")
        lines.append(f"codes: {' '.join(map(str, self.strats_used))}; grade {self.grade}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The explanation as a JSON-ready dict."""
        return {
            "policy": self.policy,
            "techniques": self.techniques,
            "steps": [s.to_json() for s in self.steps],
            "start": self.start.to_json(),
            "final": self.final.to_json(),
            "stuck": self.stuck,
            "solved": self.solved,
            "contradiction": self.contradiction,
            "guesses": self.guesses,
            "grade": self.grade,
            "strats_used": self.strats_used,
            "counts": self.counts,
            "seconds": self.seconds,
        }


@dataclass(frozen=True)
class Grade:
    """A puzzle's grade on the `zambon` scale, with how it was rated (policy, table version, techniques)."""

    zambon: int
    strats_used: tuple[int, ...]
    counts: dict[str, int]
    solved: bool
    stuck: bool
    guessed: bool
    policy: str = "zambon"
    version: str = RATING_VERSION
    techniques: tuple[str, ...] = ()
    seconds: float = 0.0


def explain(
    puzzle: GridPuzzle | State,
    policy: str = "zambon",
    techniques: Sequence[str] | None = None,
    max_level: int | None = None,
) -> Explanation:
    """Solve `puzzle` (or a pencil-mark state) step by step with `policy`; stuck when the techniques run out.

    `techniques`: names or aliases to enable (default all); `max_level`: only levels up to it (4 or more
    allows guessing, which is on by default and never hidden: its steps say where it guessed).
    """
    check_policy(policy)
    if isinstance(puzzle, GridPuzzle) and puzzle.cages:
        raise ValueError("puzzles with cages (Mathdoku) are not explained yet: cage deductions come later")
    order, guess = chosen(techniques, max_level)
    start = puzzle if isinstance(puzzle, State) else State.from_puzzle(puzzle)
    began = time.perf_counter()
    steps, final, problem = _run(start, order, guess)
    return Explanation(
        steps,
        start,
        final,
        stuck=not final.solved(),
        solved=final.solved(),
        policy=policy,
        techniques=[t.key for t in order] + (["guess"] if guess else []),
        seconds=time.perf_counter() - began,
        contradiction=problem,
        guesses=[cell_name(*divmod(s.cells[0], s.n)) for s in steps if s.technique == "guess"],
    )


def _run(state: State, order: Sequence[Technique], guess: bool) -> tuple[list[Step], State, str | None]:
    """Steps from `state` until solved, stuck or broken: (steps, final state, why it is broken or None)."""
    steps: list[Step] = []
    while not state.solved():
        problem = state.broken()
        if problem:
            return steps, state, problem
        step = next_step(state, order)
        if step is None:
            if not guess:
                return steps, state, None
            return _guess(state, order, steps)
        steps.append(step)
        state = step.apply(state)
    return steps, state, None


def _guess(state: State, order: Sequence[Technique], steps: list[Step]) -> tuple[list[Step], State, str | None]:
    """Guess at the first open cell with fewest candidates: the first digit whose run solves is kept."""
    cell = min(state.open_cells(), key=lambda i: (popcount(state.cands[i]), i))
    options = digits_of(state.cands[cell])
    failed: list[int] = []
    for d in options:
        trial = state.apply([(cell, d)], [])
        more, final, problem = _run(trial, order, True)
        if final.solved():
            note = f"one of {digits_text(options)}"
            if failed:
                note += f"; {digits_text(failed)} led to a contradiction"
            info = BY_KEY["guess"]
            step = Step(
                "guess", info.name, info.code, info.level, state.n, (d,), (cell,), (), ((cell, d),), variant=note
            )
            return [*steps, step, *more], final, None
        failed.append(d)
    return steps, state, f"every candidate of {cell_name(*divmod(cell, state.n))} leads to a contradiction"


def grade(puzzle: GridPuzzle | State, scales: Sequence[str] = ("zambon",)) -> Grade:
    """The puzzle's grade on the given scales (only `zambon` so far)."""
    for scale in scales:
        if scale not in SCALES:
            raise ValueError(f"unknown scale {scale!r}; valid scales: {', '.join(SCALES)}")
    done = explain(puzzle)
    return Grade(
        done.grade,
        tuple(done.strats_used),
        done.counts,
        done.solved,
        done.stuck,
        bool(done.guesses),
        techniques=tuple(done.techniques),
        seconds=done.seconds,
    )
