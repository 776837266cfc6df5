"""Exact cover in CP-SAT: a second engine for ExactCoverProblem, to cross-check dancing links (backends/dlx.py).

The model has one Boolean per option, chosen or not. A primary item's options sum to between its
bounds (exactly 1 by default, DLX3's lower..upper). A secondary item is met when at most one "use" of
it is made, a use being an option that names it without a colour, or a colour class: for each colour c
given to it, a Boolean y_c == max of the options giving it c (add_max_equality), and the uses' sum is at
most 1 (no constraint when there is one class and no colourless option). Each y_c is fixed by the
options, so every solution of the model is a distinct set of options, and solutions are enumerated with
one worker (several return duplicate and missing solutions while enumerating; backends/cpsat.py), in
cpsat.py's search thread so that Ctrl-C stops the search. Every solution kept passes
cover.cover_violation; stats are CP-SAT's ("nodes" its branches, "propagations", "conflicts"),
"build_s" and "search_s" (base.STAT_NAMES), and "items" and "options" as dlx gives them.
"""

from __future__ import annotations

import time
from collections import defaultdict

from ortools.sat.python import cp_model

from ..cover import ExactCoverProblem, cover_violation
from ..errors import CpModelsError
from .base import SolveTimer, search_limit
from .cpsat import COUNTERS, _run, _solver, _stats, _time_left
from .dlx import CoverResult, _default_keep


def build_cover_model(problem: ExactCoverProblem) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The CP-SAT model of `problem` and its option Booleans (variables 0..options-1, in order)."""
    model = cp_model.CpModel()
    chosen = [model.new_bool_var(f"o{k}") for k in range(len(problem.options))]
    uses: list[dict[str, list[int]]] = [defaultdict(list) for _ in problem.items]
    for k, option in enumerate(problem.options):
        colours = problem.colours[k] if problem.colours else ("",) * len(option)
        for i, colour in zip(option, colours, strict=True):
            uses[i][colour].append(k)
    for i in range(problem.n_primary):
        lower, upper = problem.bound(i)
        model.add_linear_constraint(cp_model.LinearExpr.sum([chosen[k] for k in uses[i][""]]), lower, upper)
    for i in range(problem.n_primary, len(problem.items)):
        _add_secondary(model, chosen, uses[i], problem.items[i])
    return model, chosen


def _add_secondary(
    model: cp_model.CpModel, chosen: list[cp_model.IntVar], by_colour: dict[str, list[int]], name: str
) -> None:
    """Allow at most one use of a secondary item: a colourless option, or a colour class (y == max of its options)."""
    plain = [chosen[k] for k in by_colour.get("", [])]
    classes = [ks for colour, ks in by_colour.items() if colour and ks]
    if len(plain) + len(classes) <= 1:
        return
    ys = []
    for ks in classes:
        if len(ks) == 1:  # a class of one option: its own Boolean is the class's
            ys.append(chosen[ks[0]])
            continue
        y = model.new_bool_var(f"{name}:{len(ys)}")
        model.add_max_equality(y, [chosen[k] for k in ks])
        ys.append(y)
    model.add_at_most_one(plain + ys)


class _CoverCollector(cp_model.CpSolverSolutionCallback):
    """Counts the option sets found, keeps the first `keep` as sorted option tuples, and stops at `limit`."""

    def __init__(self, chosen: list[cp_model.IntVar], limit: int, keep: int) -> None:
        super().__init__()
        self.chosen, self.limit, self.keep = chosen, limit, keep
        self.count = 0
        self.solutions: list[tuple[int, ...]] = []

    def on_solution_callback(self) -> None:
        if len(self.solutions) < self.keep:
            self.solutions.append(tuple(k for k, x in enumerate(self.chosen) if self.boolean_value(x)))
        self.count += 1
        if self.count >= self.limit:
            self.stop_search()


def solve_cover(
    problem: ExactCoverProblem, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
) -> CoverResult:
    """Up to `limit` exact covers of `problem` by CP-SAT, one worker; the first `keep` kept as dlx keeps them."""
    timer = SolveTimer()
    deadline = timer.deadline(time_limit)
    model, chosen = build_cover_model(problem)
    timer.built()
    limit = search_limit(limit)
    collector = _CoverCollector(chosen, limit, _default_keep(limit, keep))
    left = _time_left(deadline)
    stats: dict[str, float] = dict.fromkeys(COUNTERS, 0)
    if limit < 1:
        stopped: str | None = "limit"
    elif left is not None and left <= 0:
        stopped = "time"
    else:
        solver = _solver(left, 1)
        solver.parameters.enumerate_all_solutions = True
        status = _run(solver, model, collector)
        stats |= _stats(solver)
        finished = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and collector.count < limit
        stopped = None if finished else "limit" if collector.count >= limit else "time"
    _check(problem, collector.solutions)
    return _result(timer, problem, collector, stopped, stats)


def _check(problem: ExactCoverProblem, solutions: list[tuple[int, ...]]) -> None:
    """Raise CpModelsError if a solution is not an exact cover of `problem` (a bug of the model)."""
    for solution in solutions:
        why = cover_violation(problem, solution)
        if why:
            name = problem.name or f"{len(problem.items)} items, {len(problem.options)} options"
            raise CpModelsError(f"CP-SAT's model of {name!r} gave options {list(solution)}, not an exact cover: {why}")


def _result(
    timer: SolveTimer, problem: ExactCoverProblem, found: _CoverCollector, stopped: str | None, stats: dict[str, float]
) -> CoverResult:
    """The CoverResult of a finished search, with its times and the problem's size in its statistics."""
    now = time.perf_counter()
    built = now if timer.built_at is None else timer.built_at
    stats |= {"build_s": built - timer.start, "search_s": now - built}
    stats |= {"items": len(problem.items), "options": len(problem.options)}
    nodes = int(stats["nodes"])
    return CoverResult(
        found.solutions, found.count, stopped is None, nodes, 0, now - timer.start, 0, stopped, [], stats
    )
