"""Explanations and grades: a puzzle solved step by step by a policy, guessing shown where it was needed.

Grades (SCALES): `zambon` (highest level used, 4 with a guess), `se` (ER/EP/ED of the `se` policy's steps),
`hodoku` (score and level of the `hodoku` policy's steps), `keen` (the weakest Keen level that solves it:
Mathdoku and Latin squares) and `cp` (the weakest constraint propagation that solves it, propagation.py).
Every scale's grade records its policy, the rating table's version and the techniques enabled.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..grid import GridPuzzle, cell_name
from . import forcing
from .catalogue import BY_KEY
from .notation import digits_text, format_step
from .policies import KEEN_NAMES, VERSIONS, Plan, keen_level, next_step, plan
from .ratings import HODOKU, SE_STUCK, ScaleGrade, hodoku_level, se_complexity, se_rating
from .state import State, digits_of, popcount
from .steps import Step

RATING_VERSION = "zambon-1"
"""The version of the level table the `zambon` grades use (catalogue.py)."""
SCALES = ("zambon", "se", "hodoku", "keen", "cp")


@dataclass
class Explanation:
    """A puzzle explained: its steps, start and final states, whether it got stuck or timed out, and its grades."""

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
    timeout: bool = False
    version: str = RATING_VERSION

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

    @property
    def lower_bound(self) -> bool:
        """Whether the grades are lower bounds: the explanation stopped (time limit) before the end."""
        return self.timeout

    def se(self) -> dict[str, Any]:
        """SE's ER (hardest step), EP (hardest up to the first placement), ED (the first step); 20.0 when stuck."""
        rated = [s.ratings.get("se", 0.0) for s in self.steps]
        er = max(rated, default=0.0)
        first_placement = next((k for k, s in enumerate(self.steps) if s.placements), len(rated) - 1)
        ep = max(rated[: first_placement + 1], default=0.0)
        ed = rated[0] if rated else 0.0
        if self.stuck and not self.contradiction and not self.timeout:
            er = SE_STUCK
            ep = ep if any(s.placements for s in self.steps) else SE_STUCK
        return {"er": er, "ep": ep, "ed": ed, "lower_bound": self.timeout}

    def hodoku(self) -> dict[str, Any]:
        """HoDoKu's score (sum of the steps' base scores) and level (raised by the score's thresholds)."""
        score = sum(int(s.ratings.get("hodoku", 0)) for s in self.steps)
        levels = [HODOKU[s.technique].level for s in self.steps if s.technique in HODOKU]
        level = hodoku_level(levels, score)
        return {"level": level, "score": score, "lower_bound": self.timeout or (self.stuck and not self.contradiction)}

    def states(self) -> list[State]:
        """The state before each step, then the final state (one more than there are steps)."""
        out = [self.start]
        for step in self.steps:
            out.append(step.apply(out[-1]))
        return out

    def summary(self) -> list[str]:
        """The closing lines: stuck or broken, guesses, strategies used with counts, codes and grades."""
        lines = []
        if self.contradiction:
            lines.append(f"no solution: {self.contradiction}")
        elif self.timeout:
            lines.append(f"timeout after {len(self.steps)} steps: the grades are lower bounds")
        elif self.stuck:
            lines.append(f"stuck after {len(self.steps)} steps: {self.final.pencilmarks()}")
        if self.guesses:
            lines.append(f"guessed at {', '.join(self.guesses)}")
        used = ", ".join(f"{name} ({k})" for name, k in self.counts.items())
        lines.append(f"Strategies used {len(self.counts)}: {used}")
        lines.append(f"codes: {' '.join(map(str, self.strats_used))}; grade {self.grade}{self._policy_grade()}")
        return lines

    def _policy_grade(self) -> str:
        """The grade on the policy's own scale, for `se` and `hodoku` (`; ER/EP/ED 7.1/1.2/1.2`)."""
        at_least = ">= " if self.lower_bound else ""
        if self.policy == "se":
            se = self.se()
            return f"; ER/EP/ED {at_least}{se['er']:.1f}/{se['ep']:.1f}/{se['ed']:.1f}"
        if self.policy == "hodoku":
            ho = self.hodoku()
            return f"; HoDoKu {at_least}{ho['level']} ({ho['score']})"
        if self.policy == "keen":
            level = max((keen_level(s.technique) for s in self.steps), default=0)
            return f"; Keen {at_least}{KEEN_NAMES[level]}"
        return ""

    def text(self) -> str:
        """One line per step, then the summary (stuck, guesses, strategies used, grade)."""
        lines = [f"placed at start: {self.placed_at_start} of {self.start.n * self.start.n}"]
        lines += [step_line(s, self.policy) for s in self.steps]
        return "\n".join(lines + self.summary())

    def to_json(self) -> dict[str, Any]:
        """The explanation as a JSON-ready dict."""
        return {
            "policy": self.policy,
            "version": self.version,
            "techniques": self.techniques,
            "steps": [s.to_json() for s in self.steps],
            "start": self.start.to_json(),
            "final": self.final.to_json(),
            "stuck": self.stuck,
            "solved": self.solved,
            "timeout": self.timeout,
            "contradiction": self.contradiction,
            "guesses": self.guesses,
            "grade": self.grade,
            "strats_used": self.strats_used,
            "counts": self.counts,
            "seconds": self.seconds,
        }


def step_line(step: Step, policy: str) -> str:
    """A step's text, with its rating on the policy's scale (`[3.0]` for se, `[60]` for hodoku)."""
    if policy == "se" and "se" in step.ratings:
        return f"{format_step(step)} [{step.ratings['se']:.1f}]"
    if policy == "hodoku" and "hodoku" in step.ratings:
        return f"{format_step(step)} [{step.ratings['hodoku']:.0f}]"
    return format_step(step)


@dataclass(frozen=True)
class Grade:
    """A puzzle's grades on the scales asked for, each recording how it was rated."""

    scales: dict[str, ScaleGrade]
    solved: bool
    seconds: float = 0.0
    hardest: str = "none"

    @property
    def zambon(self) -> int:
        """Zambon's level (0-3, 4 with a guess)."""
        return int(self.scales["zambon"].value)

    @property
    def strats_used(self) -> tuple[int, ...]:
        """The Zambon codes of the strategies used."""
        return tuple(self.scales["zambon"].detail["codes"])

    @property
    def lower_bound(self) -> bool:
        """Whether any grade is a lower bound (a time limit stopped its explanation)."""
        return any(g.lower_bound for g in self.scales.values())

    def to_json(self) -> dict[str, Any]:
        """The grades as a JSON-ready dict: per scale its value, details, policy, version and techniques."""
        return {
            name: {
                "value": g.value,
                **g.detail,
                "lower_bound": g.lower_bound,
                "policy": g.policy,
                "version": g.version,
                "techniques": list(g.techniques),
            }
            for name, g in self.scales.items()
        }


def explain(
    puzzle: GridPuzzle | State,
    policy: str = "zambon",
    techniques: Sequence[str] | None = None,
    max_level: int | None = None,
    time_limit: float | None = None,
    unique: bool | None = None,
) -> Explanation:
    """Solve `puzzle` (or a pencil-mark state) step by step with `policy`; stuck when the techniques run out.

    `techniques`: names or aliases to enable (default: the policy's set); `max_level`: only Zambon levels up
    to it (4 or more allows guessing, which is never hidden: its steps say where it guessed).
    `time_limit`: seconds, checked between steps: the explanation stops there, marked `timeout`.
    `unique`: the puzzle is known to have one solution (enables the uniqueness techniques).
    """
    chosen = plan(policy, techniques, max_level)
    start = puzzle if isinstance(puzzle, State) else State.from_puzzle(puzzle)
    if policy in ("se", "hodoku") and start.cages:
        raise ValueError(f"the {policy} policy explains Sudoku and Latin squares: a Mathdoku takes zambon or keen")
    if unique is not None:
        start = start.proved_unique(unique)
    began = time.perf_counter()
    deadline = None if time_limit is None else began + time_limit
    steps, final, problem, timed_out = _Runner(chosen, deadline).run(start)
    return Explanation(
        steps,
        start,
        final,
        stuck=not final.solved(),
        solved=final.solved(),
        policy=policy,
        techniques=chosen.keys(),
        seconds=time.perf_counter() - began,
        contradiction=problem,
        guesses=[cell_name(*divmod(s.cells[0], s.n)) for s in steps if s.technique == "guess"],
        timeout=timed_out,
        version=chosen.version,
    )


class _Runner:
    """Steps of one plan until solved, stuck, broken or out of time; guessing where the plan allows it."""

    def __init__(self, chosen: Plan, deadline: float | None) -> None:
        self.plan = chosen
        self.deadline = deadline
        self.timed_out = False

    def run(self, state: State) -> tuple[list[Step], State, str | None, bool]:
        """(steps, final state, why it is broken or None, whether time ran out) from `state`."""
        steps, final, problem = self._run(state)
        return steps, final, problem, self.timed_out

    def _run(self, state: State) -> tuple[list[Step], State, str | None]:
        """Steps from `state` until solved, stuck, broken or out of time."""
        steps: list[Step] = []
        while not state.solved():
            problem = state.broken()
            if problem:
                return steps, state, problem
            left = None if self.deadline is None else self.deadline - time.perf_counter()
            if left is not None and left <= 0:
                self.timed_out = True
                return steps, state, None
            with forcing.deadline(left):  # the forcing chains' own searches stop there too
                step = next_step(state, self.plan.order, self.plan.policy)
            if step is None and left is not None and forcing.timed_out():
                self.timed_out = True  # stuck only because a search ran out of time: not conclusive
                return steps, state, None
            if step is None:
                return self._guess(state, steps) if self.plan.guess else (steps, state, None)
            rate(step)
            steps.append(step)
            state = step.apply(state)
        return steps, state, None

    def _guess(self, state: State, steps: list[Step]) -> tuple[list[Step], State, str | None]:
        """Guess at the first open cell with fewest candidates: the first digit whose run solves is kept."""
        cell = min(state.open_cells(), key=lambda i: (popcount(state.cands[i]), i))
        options = digits_of(state.cands[cell])
        failed: list[int] = []
        for d in options:
            more, final, _ = self._run(state.apply([(cell, d)], []))
            if final.solved() or self.timed_out:
                step = _guess_step(state, cell, d, options, failed)
                return [*steps, step, *more], final, None
            failed.append(d)
        return steps, state, f"every candidate of {cell_name(*divmod(cell, state.n))} leads to a contradiction"


def _guess_step(state: State, cell: int, d: int, options: list[int], failed: list[int]) -> Step:
    """The step of a guess of d at `cell`, saying what the other candidates led to."""
    note = f"one of {digits_text(options)}"
    if failed:
        note += f"; {digits_text(failed)} led to a contradiction"
    info = BY_KEY["guess"]
    step = Step("guess", info.name, info.code, info.level, state.n, (d,), (cell,), (), ((cell, d),), variant=note)
    rate(step)
    return step


def rate(step: Step) -> None:
    """Record the step's SE 1.2.1 rating and HoDoKu 2.2 base score (where those programs rate its technique)."""
    se = se_rating(step.technique, step.variant, se_complexity(len(step.links), step.variant))
    if se is not None:
        step.ratings["se"] = se
    if step.technique in HODOKU:
        step.ratings["hodoku"] = HODOKU[step.technique].score


def grade(
    puzzle: GridPuzzle | State,
    scales: Sequence[str] = ("zambon",),
    time_limit: float | None = None,
    unique: bool | None = None,
) -> Grade:
    """The puzzle's grades on the given scales (SCALES), each from its own policy's explanation."""
    check_scales(scales)
    began = time.perf_counter()
    out: dict[str, ScaleGrade] = {}
    solved, hardest = True, "none"
    for scale in scales:
        out[scale], done = _grade_on(puzzle, scale, time_limit, unique)
        if done is not None:
            solved = solved and done.solved
            if scale == scales[0] and done.steps:
                hardest = max(done.steps, key=lambda s: (s.level, s.ratings.get("se", 0.0))).name
    return Grade(out, solved, time.perf_counter() - began, hardest)


def check_scales(scales: Sequence[str]) -> None:
    """Raise ValueError for a scale this package does not have, listing the valid ones."""
    for scale in scales:
        if scale not in SCALES:
            raise ValueError(f"unknown scale {scale!r}; valid scales: {', '.join(SCALES)}")


def _grade_on(
    puzzle: GridPuzzle | State, scale: str, time_limit: float | None, unique: bool | None
) -> tuple[ScaleGrade, Explanation | None]:
    """One scale's grade, and the explanation it came from (None for `keen` and `cp`, which run their own)."""
    if scale == "keen":
        return keen_grade(puzzle, time_limit, unique), None
    if scale == "cp":
        from .propagation import cp_grade

        return cp_grade(puzzle), None
    if scale in ("se", "hodoku") and (puzzle.cages if isinstance(puzzle, GridPuzzle) else puzzle.cages):
        reason = {"reason": f"{scale} rates Sudoku and Latin squares, not cages"}
        return ScaleGrade(scale, "n/a", reason, scale, VERSIONS[scale], ()), None
    done = explain(puzzle, policy=scale, time_limit=time_limit, unique=unique)
    common = (scale, done.version, tuple(done.techniques))
    if scale == "se":
        se = done.se()
        return ScaleGrade(scale, se["er"], se, *common, lower_bound=done.timeout), done
    if scale == "hodoku":
        ho = done.hodoku()
        return ScaleGrade(scale, ho["level"], ho, *common, lower_bound=ho["lower_bound"]), done
    detail = {"codes": done.strats_used, "counts": done.counts, "guessed": bool(done.guesses)}
    return ScaleGrade(scale, done.grade, detail, *common, lower_bound=done.timeout or done.stuck), done


def keen_grade(puzzle: GridPuzzle | State, time_limit: float | None = None, unique: bool | None = None) -> ScaleGrade:
    """Keen's level: the weakest of Easy, Normal, Hard, Extreme whose techniques solve it, else Unreasonable."""
    start = puzzle if isinstance(puzzle, State) else State.from_puzzle(puzzle)
    if start.geo.has_boxes:
        return ScaleGrade("keen", "n/a", {"reason": "Keen grades Mathdoku and Latin squares"}, "keen", "keen-1", ())
    began = time.perf_counter()
    everything = plan("keen")
    for level in range(4):
        names = [t.key for t in everything.order if keen_level(t.key) <= level]
        left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - began))
        done = explain(start, "keen", names, time_limit=left, unique=unique)
        if done.solved or done.contradiction or done.timeout:
            name = "no solution" if done.contradiction else KEEN_NAMES[level]
            detail = {"level": level, "steps": len(done.steps)}
            return ScaleGrade("keen", name, detail, "keen", done.version, tuple(names), lower_bound=done.timeout)
    return ScaleGrade("keen", KEEN_NAMES[4], {"level": 4}, "keen", everything.version, tuple(everything.keys()))
