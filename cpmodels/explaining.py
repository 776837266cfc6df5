"""One puzzle's answer to `explain` and `grade`: the steps a person takes (strategies/), and the grades.

Each function has answers.py's shape, (entry, single) -> (outcome, text), for batch.answer_all. The
strategies package loads on first use, so that the command's other subcommands do not pay for it.
Both prove the puzzle unique first (backtrack): the uniqueness techniques run only on a unique puzzle.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import CpModelsError
from .formats import Entry
from .formats.sudoku import format_line
from .grid import GridPuzzle
from .solve import solve

if TYPE_CHECKING:
    from .strategies import Explanation, Grade, State

LEVELS = {
    "zambon": ("0", "1", "2", "3", "4"),
    "se": ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", ">=12"),
    "hodoku": ("Easy", "Medium", "Hard", "Unfair", "Extreme"),
    "keen": ("Easy", "Normal", "Hard", "Extreme", "Unreasonable", "n/a"),
    "cp": ("singles", "gac", "intersections", "sac", "search"),
}
"""The rows of the closing table per scale: Zambon's levels (0 singles .. 3, 4 a guess), SE ratings by their
whole part (ER 7.1 counts under 7; 20.0, its techniques ran out, under >=12), HoDoKu's and Keen's levels,
the CP levels."""
SAID = {"none": "no solution", "multiple": "multiple solutions"}


@dataclass(frozen=True)
class ExplainOptions:
    """What `explain` prints: policy, techniques, format and its switches (--log, --trace, --verify, --every)."""

    policy: str = "zambon"
    techniques: Sequence[str] | None = None
    max_level: int | None = None
    fmt: str = "text"
    quiet: bool = False
    hint: bool = False
    log: Sequence[str] | None = None
    trace: bool = False
    verify: bool = False
    time_limit: float | None = None
    every: int = 1


def explain_answer(entry: Entry, single: bool, *, options: ExplainOptions) -> tuple[str, str]:
    """The puzzle explained step by step, as text (text, grid) or JSON lines (jsonl), and its outcome.

    Outcomes: `solved`, `stuck`, `none` (a contradiction), `timeout`, `mismatch` (--verify found a step that
    CP-SAT does not prove).
    """
    puzzle = _puzzle(entry)
    unique, note = _uniqueness(puzzle, options.time_limit)
    if options.hint:
        return _hint(puzzle, options, unique)
    done = _explained(puzzle, options, unique)
    note = "; ".join(filter(None, [note, _misfits(done.start, options.techniques)]))
    outcome = "none" if done.contradiction else "timeout" if done.timeout else "stuck" if done.stuck else "solved"
    failures = _verified(done, options)
    if failures:
        outcome = "mismatch"
    if options.fmt == "jsonl":
        return outcome, _jsonl(puzzle, done, failures, note)
    head = f"# {puzzle.name}: {outcome}, grade {done.grade} ({done.seconds * 1000:.1f} ms, {len(done.steps)} steps)"
    head += f", policy {done.policy}" if done.policy != "zambon" else ""
    lines = [head + (f"; {note}" if note else "")]
    if not options.quiet:
        lines += _step_lines(done, options)
    lines += [f"verify: step {k} not proved: {why}" for k, why in failures]
    if options.verify and not failures:
        lines.append(f"verified: all {len(done.steps)} steps proved by CP-SAT from the state before them")
    lines += done.summary()
    if options.fmt == "grid":
        lines += [_board(done.final), f"display: {done.final.line()}"]
    lines.append(f"final: {format_line(done.final.values)}")
    return outcome, "\n".join(lines)


def _step_lines(done: Explanation, options: ExplainOptions) -> list[str]:
    """The step lines: with the board before each K-th step (grid), the techniques tried (trace), only --log's."""
    from .strategies.explain import step_line
    from .strategies.policies import plan, tried_before

    logged = None if options.log is None else set(_keys(options.log))
    order = plan(done.policy, options.techniques, options.max_level).order
    lines = [f"placed at start: {done.placed_at_start} of {done.start.n * done.start.n}"]
    for k, (state, step) in enumerate(zip(done.states(), done.steps, strict=False)):
        if options.fmt == "grid" and k % options.every == 0:
            lines.append(_board(state))
        if options.trace:
            tried = [f"{key} -" for key in tried_before(state, step, order)] + [f"{step.technique} +"]
            lines.append("  tried: " + ", ".join(tried))
        if logged is None or step.technique in logged:
            lines.append(step_line(step, done.policy))
    return lines


def _board(state: State) -> str:
    """Zambon's board of a state (notation.board)."""
    from .strategies.notation import board

    return board(state)


def _jsonl(puzzle: GridPuzzle, done: Explanation, failures: list[tuple[int, str]], note: str) -> str:
    """One JSON object per step (with the state before it), then the explanation's summary object."""
    lines = []
    for k, (state, step) in enumerate(zip(done.states(), done.steps, strict=False)):
        lines.append(json.dumps({"puzzle": puzzle.name, "step": k + 1, **step.to_json(), "before": state.to_json()}))
    summary = {key: value for key, value in done.to_json().items() if key != "steps"}
    summary.update({"puzzle": puzzle.name, "summary": True, "note": note, "unproved": failures})
    lines.append(json.dumps(summary))
    return "\n".join(lines)


def _verified(done: Explanation, options: ExplainOptions) -> list[tuple[int, str]]:
    """With --verify: (step number, why) for each step CP-SAT does not prove from the state before it."""
    if not options.verify:
        return []
    from .strategies.proofs import verify

    return verify(done.states(), done.steps)


def grade_answer(
    entry: Entry,
    single: bool,
    *,
    fmt: str,
    levels: Counter[str],
    scales: Sequence[str] = ("zambon",),
    time_limit: float | None = None,
) -> tuple[str, str]:
    """One line (tsv or JSON) with the puzzle's grades on `scales`, after proving it unique; `levels` counts them."""
    puzzle = _puzzle(entry)
    proof = solve(puzzle, backend="backtrack", limit=2, time_limit=time_limit)
    if proof.status != "unique":
        said = SAID.get(proof.status, proof.status)
        text = f"{puzzle.name}\t{said}" if fmt == "tsv" else json.dumps({"puzzle": puzzle.name, "status": said})
        return proof.status, text
    rated = _graded(puzzle, scales, time_limit)
    for scale, g in rated.scales.items():
        levels[f"{scale}:{_row(scale, g.value)}"] += 1
    outcome = "timeout" if rated.lower_bound else "solved"
    if fmt == "json":
        record = {"puzzle": puzzle.name, **rated.to_json(), "hardest": rated.hardest, "seconds": rated.seconds}
        return outcome, json.dumps(record)
    fields = [puzzle.name] + [f"{scale}={g.text()}" for scale, g in rated.scales.items()]
    versions = ",".join(g.version for g in rated.scales.values())
    fields += [f"hardest={rated.hardest}", f"rated={versions}", f"{rated.seconds:.4f}s"]
    return outcome, "\t".join(fields)


def _row(scale: str, value: object) -> str:
    """The row of the closing table a grade counts under."""
    if scale == "se" and isinstance(value, float):
        return ">=12" if value >= 12 else str(int(value))
    return str(value)


def levels_table(levels: Counter[str], scales: Sequence[str] = ("zambon",)) -> str:
    """The number of puzzles graded at each level of each scale, then the total."""
    rows = []
    for scale in scales:
        rows.append(f"{scale:<14} {'puzzles':>8}")
        names = list(LEVELS[scale]) + [
            key.split(":", 1)[1]
            for key in levels
            if key.startswith(scale + ":") and key.split(":", 1)[1] not in LEVELS[scale]
        ]
        rows += [f"{name:<14} {levels[f'{scale}:{name}']:>8}" for name in names]
        rows.append(f"{'total':<14} {sum(v for k, v in levels.items() if k.startswith(scale + ':')):>8}")
    return "\n".join(rows)


def techniques_table(shape: str | None = None) -> str:
    """Every technique: key, Zambon level and code, SE rating, HoDoKu level and score, where it applies, aliases."""
    from .strategies import techniques
    from .strategies.ratings import HODOKU, SE

    rows = [f"{'technique':<24} {'level':>5} {'code':>5} {'SE':>5} {'HoDoKu':>15}  {'where':<6} aliases"]
    for t in techniques():
        if shape is not None and not _shape_fits(t["where"], shape):
            continue
        se = SE.get(t["key"])
        ho = HODOKU.get(t["key"])
        se_text = "-" if se is None else f"{se.base:.1f}" + ("" if se.native else "*")
        ho_text = "-" if ho is None else f"{ho.level} {ho.score}" + ("" if ho.native else "*")
        aliases = ", ".join(t["aliases"])
        rows.append(
            f"{t['key']:<24} {t['level']:>5} {t['code']:>5} {se_text:>5} {ho_text:>15}  {t['where']:<6} {aliases}"
        )
    rows.append("* not in that program: rated as the pattern it finds it as (off by default in its policy)")
    return "\n".join(rows)


SHAPES = ("sudoku", "latin", "mathdoku")


def _shape_fits(where: str, shape: str) -> bool:
    """Whether a technique valid `where` (any, boxes, cages) applies to `shape` (sudoku, latin, mathdoku)."""
    return where == "any" or (where == "boxes" and shape == "sudoku") or (where == "cages" and shape == "mathdoku")


def _uniqueness(puzzle: GridPuzzle, time_limit: float | None) -> tuple[bool, str]:
    """Whether backtrack proves the puzzle unique, and the note said when not (the uniqueness techniques are off)."""
    proof = solve(puzzle, backend="backtrack", limit=2, time_limit=time_limit)
    if proof.status == "unique":
        return True, ""
    return False, f"uniqueness techniques off: {SAID.get(proof.status, 'uniqueness not proved')}"


def _misfits(state: State, names: Sequence[str] | None) -> str:
    """The named techniques that do not apply to the puzzle's shape (`empty-rectangle needs boxes`), or ``."""
    from .strategies import get_technique

    needs = {"boxes": state.geo.has_boxes, "cages": bool(state.cages)}
    misfits = [key for key in _keys(names or ()) if not needs.get(get_technique(key).info.where, True)]
    where = {key: get_technique(key).info.where for key in misfits}
    return ", ".join(f"{key} does not apply here (needs {where[key]})" for key in misfits)


def _hint(puzzle: GridPuzzle, options: ExplainOptions, unique: bool) -> tuple[str, str]:
    """The first step of the puzzle's explanation, or `stuck` when the techniques allowed find none."""
    from .strategies import State, format_step, next_step
    from .strategies.policies import plan

    try:
        chosen = plan(options.policy, options.techniques, options.max_level)
    except ValueError as e:
        raise CpModelsError(f"{puzzle.name}: {e}") from None
    step = next_step(State.from_puzzle(puzzle).proved_unique(unique), chosen.order, chosen.policy)
    if step is None:
        return "stuck", f"{puzzle.name}: no step with the techniques allowed (a guess is next)"
    return "solved", f"{puzzle.name}: {format_step(step)}"


def _explained(puzzle: GridPuzzle, options: ExplainOptions, unique: bool) -> Explanation:
    """strategies.explain, with its refusals (an unknown technique or policy) as CpModelsError."""
    from .strategies import explain

    try:
        return explain(
            puzzle,
            policy=options.policy,
            techniques=options.techniques,
            max_level=options.max_level,
            time_limit=options.time_limit,
            unique=unique,
        )
    except ValueError as e:
        raise CpModelsError(f"{puzzle.name}: {e}") from None


def _graded(puzzle: GridPuzzle, scales: Sequence[str], time_limit: float | None) -> Grade:
    """strategies.grade of a puzzle proved unique, with its refusals as CpModelsError."""
    from .strategies import grade

    try:
        return grade(puzzle, scales, time_limit=time_limit, unique=True)
    except ValueError as e:
        raise CpModelsError(f"{puzzle.name}: {e}") from None


def _keys(names: Sequence[str]) -> list[str]:
    """The technique keys of names or aliases (ValueError lists the valid names)."""
    from .strategies import resolve

    return [resolve(name).key for name in names]


def check_names(options: ExplainOptions) -> None:
    """Raise CpModelsError for an unknown policy, technique or --log name, listing the valid ones."""
    from .strategies.policies import plan

    try:
        plan(options.policy, options.techniques, options.max_level)
        _keys(options.log or ())
    except ValueError as e:
        raise CpModelsError(str(e)) from None


def check_scales(scales: Sequence[str]) -> None:
    """Raise CpModelsError for an unknown scale, listing the valid ones."""
    from .strategies.explain import check_scales as check

    try:
        check(scales)
    except ValueError as e:
        raise CpModelsError(str(e)) from None


def _puzzle(entry: Entry) -> GridPuzzle:
    """The puzzle of an entry (an exact cover has no steps a person takes)."""
    if entry.puzzle is None:
        raise CpModelsError(f"{entry.label}: an exact-cover problem has no human-style explanation")
    return entry.puzzle
