"""One puzzle's answer to `explain` and `grade`: the steps a person takes (strategies/), and the grade.

Each function has answers.py's shape, (entry, single) -> (outcome, text), for batch.answer_all. The
strategies package loads on first use, so that the command's other subcommands do not pay for it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .errors import CpModelsError
from .formats import Entry
from .formats.sudoku import format_line
from .grid import GridPuzzle
from .solve import solve

if TYPE_CHECKING:
    from .strategies import Explanation

LEVELS = ("0", "1", "2", "3", "4")
"""Zambon's levels: 0 singles, 1 pairs and intersections, 2 triples, quads, X-wing, XY-wing, 3 the rest;
4 needed a guess."""


def explain_answer(
    entry: Entry,
    single: bool,
    *,
    techniques: Sequence[str] | None,
    max_level: int | None,
    fmt: str,
    quiet: bool,
    hint: bool = False,
) -> tuple[str, str]:
    """The puzzle explained step by step: `solved`, `stuck` or `none` (a contradiction), and its text or JSON.

    `hint`: only the next step a person takes from the puzzle as given.
    """
    puzzle = _puzzle(entry)
    if hint:
        return _hint(puzzle, techniques, max_level)
    done = _explained(puzzle, techniques, max_level)
    outcome = "none" if done.contradiction else "stuck" if done.stuck else "solved"
    if fmt == "jsonl":
        return outcome, json.dumps({"puzzle": puzzle.name, **done.to_json()})
    text = done.text()
    if quiet:
        text = "\n".join(text.splitlines()[len(done.steps) + 1 :])
    head = f"# {puzzle.name}: {outcome}, grade {done.grade} ({done.seconds * 1000:.1f} ms, {len(done.steps)} steps)"
    return outcome, f"{head}\n{text}\nfinal: {format_line(done.final.values)}"


def grade_answer(entry: Entry, single: bool, *, fmt: str, levels: Counter[str]) -> tuple[str, str]:
    """One line (tsv or JSON) with the puzzle's Zambon grade, after proving it unique; `levels` counts grades."""
    puzzle = _puzzle(entry)
    proof = solve(puzzle, backend="backtrack", limit=2)
    if proof.status != "unique":
        said = {"none": "no solution", "multiple": "multiple solutions"}.get(proof.status, proof.status)
        return proof.status, f"{puzzle.name}\t{said}" if fmt == "tsv" else json.dumps(
            {"puzzle": puzzle.name, "status": said}
        )
    done = _explained(puzzle, None, None)
    hardest = max(done.steps, key=lambda s: (s.level, s.code)).name if done.steps else "none"
    levels[str(done.grade)] += 1
    fields = {
        "puzzle": puzzle.name,
        "zambon": done.grade,
        "hardest": hardest,
        "codes": done.strats_used,
        "steps": len(done.steps),
        "seconds": round(done.seconds, 4),
    }
    if fmt == "json":
        return "solved", json.dumps(fields)
    codes = ",".join(map(str, done.strats_used))
    return (
        "solved",
        f"{puzzle.name}\tzambon={done.grade}\thardest={hardest}\tcodes={codes}\tsteps={len(done.steps)}\t{done.seconds:.4f}s",
    )


def levels_table(levels: Counter[str]) -> str:
    """The number of puzzles graded at each Zambon level, then the total."""
    rows = [f"{'zambon':<10} {'puzzles':>8}"]
    rows += [f"{level:<10} {levels[level]:>8}" for level in LEVELS]
    rows.append(f"{'total':<10} {sum(levels.values()):>8}")
    return "\n".join(rows)


def techniques_table() -> str:
    """Every technique: key, Zambon level and code, where it applies, aliases."""
    from .strategies import techniques

    rows = [f"{'technique':<18} {'level':>5} {'code':>5}  {'where':<6} aliases"]
    rows += [
        f"{t['key']:<18} {t['level']:>5} {t['code']:>5}  {t['where']:<6} {', '.join(t['aliases'])}"
        for t in techniques()
    ]
    return "\n".join(rows)


def _hint(puzzle: GridPuzzle, techniques: Sequence[str] | None, max_level: int | None) -> tuple[str, str]:
    """The first step of the puzzle's explanation, or `stuck` when the techniques allowed find none."""
    from .strategies import State, format_step, next_step
    from .strategies.policies import chosen

    try:
        order, _ = chosen(techniques, max_level)
    except ValueError as e:
        raise CpModelsError(f"{puzzle.name}: {e}") from None
    step = next_step(State.from_puzzle(puzzle), order)
    if step is None:
        return "stuck", f"{puzzle.name}: no step with the techniques allowed (a guess is next)"
    return "solved", f"{puzzle.name}: {format_step(step)}"


def _explained(puzzle: GridPuzzle, techniques: Sequence[str] | None, max_level: int | None) -> Explanation:
    """strategies.explain, with its refusals (a Mathdoku, an unknown technique) as CpModelsError."""
    from .strategies import explain

    try:
        return explain(puzzle, techniques=techniques, max_level=max_level)
    except ValueError as e:
        raise CpModelsError(f"{puzzle.name}: {e}") from None


def _puzzle(entry: Entry) -> GridPuzzle:
    """The puzzle of an entry (an exact cover has no steps a person takes)."""
    if entry.puzzle is None:
        raise CpModelsError(f"{entry.label}: an exact-cover problem has no human-style explanation")
    return entry.puzzle
