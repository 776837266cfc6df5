"""Steps proved by CP-SAT from the state before them (`explain --verify`), independently of the techniques.

The model: one Boolean per candidate (and per placed value) of the state, exactly one per cell, each digit
at most once per unit (exactly once in a unit of n cells), and each cage's allowed tuples
(cpmodels.cages). A step that does not rest on uniqueness is proved when the model with "some elimination
is false or some placement's alternative holds" added is infeasible: no completion consistent with the
candidates escapes the step. A uniqueness step (unique rectangles, hidden rectangle, BUG+1) is proved when
forcing each removed candidate (or a placement's alternative) leaves no solution or at least two.
"""

from __future__ import annotations

from typing import Any

from .catalogue import BY_KEY
from .state import State, bits
from .steps import Step

PROOF_SECONDS = 20.0
"""CP-SAT's time limit per proof; a proof that runs out is reported as unproved, never as proved."""


def prove_step(state: State, step: Step, time_limit: float = PROOF_SECONDS) -> str | None:
    """None when CP-SAT proves `step` from `state`; otherwise why it is not proved (`r3c4=5 escapes it`)."""
    if step.technique == "guess":
        return None if _completes(state, step, time_limit) else "the guess leads to no solution"
    for i, d in step.eliminations:
        if state.values[i] or not state.cands[i] >> (d - 1) & 1:
            return f"{_name(state, i)}<>{d}: not a candidate"
    for i, d in step.placements:
        if state.values[i] or not state.cands[i] >> (d - 1) & 1:
            return f"{_name(state, i)}={d}: not a candidate"
    if getattr(BY_KEY.get(step.technique), "unique", False):
        return _prove_by_uniqueness(state, step, time_limit)
    model, x = _model(state)
    escapes = [x[e] for e in step.eliminations] + [x[p].Not() for p in step.placements]
    model.add_bool_or(escapes)
    status, witness = _solve(model, x, time_limit)
    if status == "infeasible":
        return None
    if status == "unknown":
        return f"not proved within {time_limit:g} s"
    return f"a completion escapes it: {_witness_text(state, step, witness)}"


def _prove_by_uniqueness(state: State, step: Step, time_limit: float) -> str | None:
    """A uniqueness step: forcing each removed candidate (a placement's alternative) gives no solution or two."""
    forced = [(e, True) for e in step.eliminations] + [(p, False) for p in step.placements]
    for (i, d), value in forced:
        model, x = _model(state)
        model.add(x[(i, d)] == int(value))
        count = _count(model, x, time_limit)
        if count == 1:
            what = f"{_name(state, i)}{'=' if value else '<>'}{d}"
            return f"forcing {what} leaves exactly one solution"
        if count is None:
            return f"not proved within {time_limit:g} s"
    return None


def _model(state: State) -> tuple[Any, dict[tuple[int, int], Any]]:
    """The CP-SAT model of the state's completions: x[(cell, digit)] for every candidate or placed value."""
    from ortools.sat.python import cp_model

    from .cage_rules import layouts

    model = cp_model.CpModel()
    n, x = state.n, {}
    for i in range(n * n):
        digits = [state.values[i]] if state.values[i] else [b + 1 for b in bits(state.cands[i])]
        for d in digits:
            x[(i, d)] = model.new_bool_var(f"x{i}_{d}")
        model.add_exactly_one([x[(i, d)] for d in digits])
    for unit in state.geo.units:
        for d in range(1, n + 1):
            here = [x[(i, d)] for i in unit if (i, d) in x]
            (model.add_exactly_one if len(unit) == n else model.add_at_most_one)(here)
    for cage in state.cages:
        values = [sum(d * x[(i, d)] for d in range(1, n + 1) if (i, d) in x) for i in cage[0]]
        ints = [model.new_int_var(1, n, f"v{i}") for i in cage[0]]
        for v, expr in zip(ints, values, strict=True):
            model.add(v == expr)
        model.add_allowed_assignments(ints, layouts(state, cage))
    return model, x


def _solve(model: Any, x: dict, time_limit: float) -> tuple[str, dict[tuple[int, int], bool]]:
    """(`infeasible`, `feasible` or `unknown`, the witness's true literals)."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = 1
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return "infeasible", {}
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "feasible", {k: bool(solver.value(v)) for k, v in x.items()}
    return "unknown", {}


def _count(model: Any, x: dict, time_limit: float) -> int | None:
    """The number of solutions of the model, up to 2 (None when the time limit stopped the count)."""
    from ortools.sat.python import cp_model

    class Stop(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.found = 0

        def on_solution_callback(self) -> None:
            self.found += 1
            if self.found >= 2:
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    counter = Stop()
    status = solver.solve(model, counter)
    if counter.found >= 2 or status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        return min(counter.found, 2)
    return None


def _witness_text(state: State, step: Step, witness: dict[tuple[int, int], bool]) -> str:
    """The effects a completion contradicts: `r3c4=5` for an elimination it keeps, `r1c1=2` for a placement."""
    kept = [f"{_name(state, i)}={d}" for i, d in step.eliminations if witness.get((i, d))]
    other = [
        f"{_name(state, i)}={e}" for i, d in step.placements for (j, e), v in witness.items() if j == i and v and e != d
    ]
    return ", ".join(kept + other)


def _completes(state: State, step: Step, time_limit: float) -> bool:
    """Whether the state with the step's placements still has a completion."""
    model, x = _model(state)
    for p in step.placements:
        model.add(x[p] == 1)
    return _solve(model, x, time_limit)[0] == "feasible"


def _name(state: State, i: int) -> str:
    """`r3c4` for cell i."""
    return f"r{i // state.n + 1}c{i % state.n + 1}"


def verify(states: list[State], steps: list[Step], time_limit: float = PROOF_SECONDS) -> list[tuple[int, str]]:
    """(step number, why) for every step CP-SAT does not prove from the state before it; empty when all hold."""
    return [(k + 1, why) for k, step in enumerate(steps) if (why := prove_step(states[k], step, time_limit))]
