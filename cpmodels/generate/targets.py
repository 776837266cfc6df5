"""Targets a generated Sudoku can be asked to meet: search effort (`--nodes`) and difficulty (`--difficulty`).

Search effort: the backtracking kernel's nodes (values tried) proving the puzzle unique, averaged over
`evals` random relabellings of it (an element of the grid's symmetry group each: digits, rows in bands,
columns in stacks, bands, stacks), since one labelling's count depends on the order the search meets the
values in; tdoku rates its puzzles the same way, by guesses.
Difficulty: `POLICY:LEVEL` through cpmodels.strategies.grade, the puzzle graded exactly LEVEL (solved at
that level and not at the one below), as Solo and Keen aim at a level.
"""

from __future__ import annotations

import random
from statistics import fmean
from typing import Any

import numpy as np

from ..errors import CpModelsError
from ..grid import GridPuzzle
from .grids import shuffle_grid

PLANNED_SCALES = ("se", "hodoku", "keen", "cp")
"""Difficulty scales the grading issue (20) adds; named in the message while they are not there yet."""
ZAMBON_LEVELS = ("0", "1", "2", "3", "4")
"""Zambon's levels: 0 singles, 1 pairs and locked sets, 2 triples to wings, 3 fish and chains, 4 a guess."""


def check_range(value: Any, name: str) -> tuple[int, int] | None:
    """`value` (K or (lo, hi)) as (lo, hi) of integers from 0 with lo <= hi; None for None; CpModelsError otherwise."""
    if value is None:
        return None
    pair = [value, value] if isinstance(value, int) else list(value)
    if len(pair) != 2 or not all(isinstance(k, int) and not isinstance(k, bool) for k in pair):
        raise CpModelsError(f"{name} must be a count K or a range (lo, hi), not {value!r}")
    if not 0 <= pair[0] <= pair[1]:
        raise CpModelsError(f"{name} must satisfy 0 <= lo <= hi, not {pair[0]}-{pair[1]}")
    return pair[0], pair[1]


def _scales() -> tuple[str, ...]:
    """The scales cpmodels.strategies.grade takes today."""
    from importlib import import_module

    return tuple(getattr(import_module("cpmodels.strategies.explain"), "SCALES", ("zambon",)))


def check_difficulty(text: str | None) -> tuple[str, str] | None:
    """`POLICY:LEVEL` as (policy, level), the policy one grade takes; None for None; CpModelsError otherwise."""
    if text is None:
        return None
    policy, colon, level = text.partition(":")
    scales = _scales()
    if not colon or not policy or not level:
        raise CpModelsError(f"a difficulty is POLICY:LEVEL, such as zambon:2, not {text!r}")
    if policy not in scales:
        later = [s for s in PLANNED_SCALES if s not in scales]
        note = f" ({', '.join(later)}: not there yet, issue 20 'Human strategies and grading')" if later else ""
        raise CpModelsError(f"unknown difficulty policy {policy!r}; choose one of: {', '.join(scales)}{note}")
    if policy == "zambon" and level not in ZAMBON_LEVELS:
        raise CpModelsError(f"unknown zambon level {level!r}; choose one of: {', '.join(ZAMBON_LEVELS)}")
    return policy, level


def difficulty_of(puzzle: GridPuzzle, policy: str) -> object:
    """The puzzle's level on the scale `policy`, as cpmodels.strategies.grade rates it (the scale's value)."""
    from ..strategies import grade

    graded = grade(puzzle, (policy,))
    scales = getattr(graded, "scales", None)
    return scales[policy].value if isinstance(scales, dict) and policy in scales else getattr(graded, policy)


def mean_nodes(
    template: GridPuzzle, givens: bytes | bytearray, evals: int, rng: random.Random, box: tuple[int, int]
) -> float:
    """The backtracking kernel's nodes proving `givens` unique, the mean over `evals` random relabellings."""
    from ..backends.backtrack import solve_givens

    rows = np.array([shuffle_grid(givens, box, rng) for _ in range(evals)], np.uint8)
    return fmean(solve_givens(template, rows, limit=2).nodes.tolist())
