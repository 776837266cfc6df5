"""Minimality: which clues of a puzzle are needed, defined once for the generators and the checker alike.

Definitions (issue 21, item 1):
  valid            exactly one solution.
  clue-minimal     valid, and removing any single clue (a given) gives several solutions. A clue
                   whose removal alone keeps the puzzle unique is *redundant*.
  orbit            a cell with its images under a symmetry of positions (SYMMETRIES: rot180, rot90,
                   mirror, flip, diagonal, antidiagonal, dihedral; only positions move, values do not,
                   so every box shape takes every symmetry of its n x n square).
  orbit-minimal    valid, and removing any whole orbit (every clue on it) gives several solutions.
                   A symmetric minimal puzzle is orbit-minimal; `strict` asks clue-minimal as well.
  Mathdoku:
  operator-necessary  hiding that cage's operator (op None: every operator that reaches its target is
                   allowed, cages.holds) gives several solutions; otherwise the operator is redundant.
  given-necessary  for a 1-cell cage (a given, op `=`): removing the cage, so that the cell is held only
                   by its row and column, gives several solutions; otherwise the given is redundant.
  merge-minimal    no two adjacent cages can be merged without losing uniqueness: the merged cage keeps
                   the operator of one of the two (one that fits its size: + or *; a hidden one stays
                   hidden, taken as each operator its cage's values meet), its target recomputed from
                   the solution (merged_cages); checked with merge=True, for merged cages of up to
                   `max_cage` cells.

Monotonicity: removing clues never removes solutions, so a clue found necessary stays necessary in
every puzzle with fewer clues; one pass that removes each clue (or orbit) while the puzzle stays unique
therefore ends minimal, with no re-check.

minimality(puzzle) costs one uniqueness check per clue (per orbit, per operator): the one-clue-removed
Sudoku share one shape, so they go to the backtracking kernel as one batch (backtrack.solve_givens);
minimality_many puts the removals of many puzzles of one shape in one batch. A removal found unique must
have the puzzle's own solution as its one solution, which is checked (the kernel's grid is compared).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from math import prod

from .backends import get_backend
from .cages import holds, operators_for
from .errors import CpModelsError, SearchTimeoutError
from .grid import Cage, GridPuzzle, cell_name
from .solve import solve as solve_puzzle

SYMMETRIES = ("none", "rot180", "rot90", "mirror", "flip", "diagonal", "antidiagonal", "dihedral")
"""The symmetries of positions a generator or the checker takes (`none`: every cell is its own orbit)."""

Clue = tuple[int, int]
"""A clue as (row-major cell index, value)."""

BATCH_FROM = 12
"""Rows checked at once: from this many on through backtrack.solve_givens (one kernel call), fewer one by one.

A batch call costs about as much as 6-8 single searches of a 9x9 before its first puzzle (it sets up its
workspace), then less per puzzle than a single search."""


def check_symmetry(symmetry: str | None) -> str:
    """The symmetry name (None is `none`); CpModelsError listing the valid ones for any other."""
    name = "none" if symmetry is None else symmetry
    if name not in SYMMETRIES:
        raise CpModelsError(f"unknown symmetry {symmetry!r}; choose one of: {', '.join(SYMMETRIES)}")
    return name


def _images(n: int, symmetry: str, r: int, c: int) -> list[tuple[int, int]]:
    """The images of (r, c) under the generators of `symmetry` on an n x n grid."""
    m = n - 1
    moves = {
        "none": [],
        "rot180": [(m - r, m - c)],
        "rot90": [(c, m - r)],
        "mirror": [(r, m - c)],
        "flip": [(m - r, c)],
        "diagonal": [(c, r)],
        "antidiagonal": [(m - c, m - r)],
        "dihedral": [(c, m - r), (r, m - c)],
    }
    return moves[symmetry]


@lru_cache(maxsize=64)
def orbits(n: int, symmetry: str = "none") -> tuple[tuple[int, ...], ...]:
    """The orbits of the n x n cells under `symmetry`, as sorted row-major indices, ordered by their first cell."""
    symmetry = check_symmetry(symmetry)
    seen: set[int] = set()
    found = []
    for start in range(n * n):
        if start in seen:
            continue
        orbit, todo = {start}, [start]
        while todo:
            r, c = divmod(todo.pop(), n)
            for rr, cc in _images(n, symmetry, r, c):
                i = rr * n + cc
                if i not in orbit:
                    orbit.add(i)
                    todo.append(i)
        seen |= orbit
        found.append(tuple(sorted(orbit)))
    return tuple(found)


def is_symmetric(puzzle: GridPuzzle, symmetry: str) -> bool:
    """Whether the puzzle's pattern of givens (which cells hold one, not their values) is invariant under `symmetry`."""
    return all(len({bool(puzzle.givens[i]) for i in orbit}) == 1 for orbit in orbits(puzzle.n, symmetry))


@dataclass(frozen=True)
class Minimality:
    """What minimality() found.

    n: the puzzle's order; symmetry: the symmetry whose orbits were checked, None for clue by clue;
    count: solutions counted up to 2 (2 means two or more); redundancy is looked for only when it is 1.
    clues: the redundant clues as (cell index, value), when checked clue by clue (symmetry None);
    orbits: the redundant orbits, each as its clues, when checked by orbits (symmetry set);
    operators: 0-based indices in puzzle.cages of cages whose operator is redundant;
    givens: 0-based indices in puzzle.cages of 1-cell cages (givens) that are redundant;
    merges: pairs (0-based indices in puzzle.cages) of adjacent cages that merge keeping uniqueness;
    cages: the puzzle's cages, which operators, givens and merges index (format_redundant names them);
    checks: the uniqueness checks made (the first count included).
    """

    n: int
    count: int
    symmetry: str | None = None
    clues: tuple[Clue, ...] = ()
    orbits: tuple[tuple[Clue, ...], ...] = ()
    operators: tuple[int, ...] = ()
    givens: tuple[int, ...] = ()
    merges: tuple[tuple[int, int], ...] = ()
    cages: tuple[Cage, ...] = ()
    checks: int = 0

    @property
    def valid(self) -> bool:
        """Exactly one solution."""
        return self.count == 1

    @property
    def minimal(self) -> bool:
        """Valid, and nothing checked was redundant (clue-, orbit-, operator- and given-minimal as checked)."""
        return self.valid and not (self.clues or self.orbits or self.operators or self.givens or self.merges)


def format_redundant(result: Minimality) -> str:
    """The redundant items of `result`, space-separated, with 1-based cell names.

    A clue `r3c7=5`; an orbit as its clues joined by commas (`r1c1=5,r9c9=3`); a given (1-cell cage) as a
    clue; a redundant operator as its cage's cells and clue (`r1c1,r1c2:12+`); a pair of cages that merge
    as `merge(r1c1,r1c2:3-;r1c3,r2c3:12+)`.
    """
    items = [_clue_text(result.n, clue) for clue in result.clues]
    items += [",".join(_clue_text(result.n, clue) for clue in orbit) for orbit in result.orbits]
    for k in result.givens:
        cage = result.cages[k]
        items.append(f"{cell_name(*cage.cells[0])}={cage.target}")
    for k in result.operators:
        cage = result.cages[k]
        items.append(_cage_text(cage))
    items += [f"merge({_cage_text(result.cages[a])};{_cage_text(result.cages[b])})" for a, b in result.merges]
    return " ".join(items)


def _cage_text(cage: Cage) -> str:
    """A cage as its cells and clue: `r1c1,r1c2:12+`."""
    return f"{','.join(cell_name(r, c) for r, c in cage.cells)}:{cage.label()}"


def _clue_text(n: int, clue: Clue) -> str:
    """`r3c7=5` for the clue (cell index, value) of an order-n grid."""
    return f"{cell_name(*divmod(clue[0], n))}={clue[1]}"


def minimality(
    puzzle: GridPuzzle,
    orbits: str | None = None,
    *,
    backend: str = "backtrack",
    time_limit: float | None = None,
    merge: bool = False,
    max_cage: int | None = None,
) -> Minimality:
    """Whether `puzzle` is valid, and which of its clues (orbits), operators and givens are redundant.

    Redundant: removing that one alone (that orbit's clues, with a symmetry name other than `none`;
    hiding an operator) keeps exactly one solution.
    Any puzzle is taken: givens are clues (Sudoku, Latin squares), cages of 2+ cells with a shown operator are
    checked for that operator, 1-cell cages as givens; with `merge`, every pair of adjacent cages merged into
    at most `max_cage` cells (None: any), each way merged_cages gives. About one uniqueness check per item;
    `time_limit` (seconds) bounds the whole check, SearchTimeoutError past it.
    """
    symmetry = None if orbits in (None, "none") else check_symmetry(orbits)
    deadline = None if time_limit is None else _now() + time_limit
    first = solve_puzzle(puzzle, backend=backend, limit=2, keep=1, time_limit=_left(deadline))
    if first.status == "timeout":
        raise SearchTimeoutError(f"time limit of {time_limit} s reached while counting the solutions")
    if first.count != 1:
        return Minimality(puzzle.n, first.count, symmetry, cages=puzzle.cages, checks=1)
    rows = _removal_rows(puzzle, symmetry)
    unique = unique_rows(puzzle, [bytes(first.solutions[0])] * len(rows), rows, backend=backend, deadline=deadline)
    if unique is None:
        raise SearchTimeoutError(f"time limit of {time_limit} s reached while removing clues")
    found = _found(puzzle, symmetry, unique, backend, deadline, time_limit)
    if not merge:
        return found
    return _with_merges(puzzle, found, first.solutions[0], max_cage, backend, deadline, time_limit)


def minimality_many(
    puzzles: Sequence[GridPuzzle],
    orbits: str | None = None,
    *,
    backend: str = "backtrack",
    time_limit: float | None = None,
    chunk: int = 256,
) -> list[Minimality]:
    """minimality() of each puzzle, in order, with the puzzles of one shape checked together.

    On the backtracking backend the puzzles without cages that share a shape go to the kernel `chunk`
    at a time: their counts as one batch, then all their one-clue-removed givens as another.
    `time_limit` (seconds) is for them all.
    """
    symmetry = None if orbits in (None, "none") else check_symmetry(orbits)
    deadline = None if time_limit is None else _now() + time_limit
    if backend != "backtrack":
        return [minimality(p, orbits, backend=backend, time_limit=_left(deadline)) for p in puzzles]
    from .backends.backtrack import solve_many

    results: list[Minimality | None] = [None] * len(puzzles)
    shapes: dict[tuple, list[int]] = {}
    for k, puzzle in enumerate(puzzles):
        if puzzle.cages:
            results[k] = minimality(puzzle, orbits, backend=backend, time_limit=_left(deadline))
        else:
            shapes.setdefault((puzzle.n, puzzle.units), []).append(k)
    for members in shapes.values():
        for at in range(0, len(members), chunk):
            some = members[at : at + chunk]
            counted = solve_many([puzzles[k] for k in some], limit=2, time_limit=_left(deadline))
            if not bool(counted.complete[counted.counts < 2].all()):
                raise SearchTimeoutError(f"time limit of {time_limit} s reached while counting the solutions")
            rows: list[bytes] = []
            solutions: list[bytes] = []
            spans = []
            for k, count, first in zip(some, counted.counts.tolist(), counted.firsts, strict=True):
                if count != 1:
                    results[k] = Minimality(puzzles[k].n, count, symmetry, checks=1)
                    continue
                mine = _removal_rows(puzzles[k], symmetry)
                spans.append((k, len(rows), len(mine)))
                rows += mine
                solutions += [first.tobytes()] * len(mine)
            unique = unique_rows(puzzles[some[0]], solutions, rows, backend=backend, deadline=deadline)
            if unique is None:
                raise SearchTimeoutError(f"time limit of {time_limit} s reached while removing clues")
            for k, start, size in spans:
                results[k] = _found(puzzles[k], symmetry, unique[start : start + size], backend, deadline, time_limit)
    return [result for result in results if result is not None]


def _removal_rows(puzzle: GridPuzzle, symmetry: str | None) -> list[bytes]:
    """The puzzle's givens with each clue (each orbit's clues) removed, in _clue_groups order."""
    rows = []
    for group in _clue_groups(puzzle, symmetry):
        row = bytearray(puzzle.givens)
        for i in group:
            row[i] = 0
        rows.append(bytes(row))
    return rows


def _found(
    puzzle: GridPuzzle,
    symmetry: str | None,
    unique: Sequence[bool],
    backend: str,
    deadline: float | None,
    time_limit: float | None,
) -> Minimality:
    """The Minimality of a valid puzzle whose clue removals (_removal_rows) gave `unique`; its cage clues checked."""
    groups = _clue_groups(puzzle, symmetry)
    found = [tuple((i, puzzle.givens[i]) for i in group) for group, keep in zip(groups, unique, strict=True) if keep]
    operators: list[int] = []
    givens: list[int] = []
    checks = 1 + len(groups)
    for k, cage in enumerate(puzzle.cages):
        variant = _without_cage_clue(puzzle, k)
        if variant is None:
            continue
        checks += 1
        result = solve_puzzle(variant, backend=backend, limit=2, keep=1, time_limit=_left(deadline))
        if result.status == "timeout":
            raise SearchTimeoutError(f"time limit of {time_limit} s reached while removing cage clues")
        if result.count == 1:
            (givens if len(cage.cells) == 1 else operators).append(k)
    return Minimality(
        puzzle.n,
        1,
        symmetry,
        clues=tuple(clue for group in found for clue in group) if symmetry is None else (),
        orbits=tuple(found) if symmetry is not None else (),
        operators=tuple(operators),
        givens=tuple(givens),
        cages=puzzle.cages,
        checks=checks,
    )


def _clue_groups(puzzle: GridPuzzle, symmetry: str | None) -> list[tuple[int, ...]]:
    """The clue cells removed together: each clue alone, or the clues of each orbit holding any."""
    if symmetry is None:
        return [(i,) for i, v in enumerate(puzzle.givens) if v]
    groups = [tuple(i for i in orbit if puzzle.givens[i]) for orbit in orbits(puzzle.n, symmetry)]
    return [group for group in groups if group]


def _without_cage_clue(puzzle: GridPuzzle, k: int) -> GridPuzzle | None:
    """The puzzle with cage k's operator hidden, or without cage k if it has one cell; None if nothing to remove.

    Nothing to remove: a cage of 2+ cells whose operator is hidden already.
    """
    cage = puzzle.cages[k]
    if len(cage.cells) == 1:
        cages = puzzle.cages[:k] + puzzle.cages[k + 1 :]
    elif cage.op is not None:
        cages = (*puzzle.cages[:k], Cage(cage.cells, None, cage.target), *puzzle.cages[k + 1 :])
    else:
        return None
    return GridPuzzle(puzzle.n, puzzle.units, puzzle.givens, cages, puzzle.name)


# ---- merging Mathdoku cages ---------------------------------------------------------------------------


def adjacent_cages(n: int, cages: Sequence[Cage]) -> list[tuple[Cage, Cage]]:
    """The pairs of cages of an order-n grid that share an edge, each once, in the order of their cage indices."""
    owner = {cell: k for k, cage in enumerate(cages) for cell in cage.cells}
    pairs = set()
    for (r, c), k in owner.items():
        for step in ((r + 1, c), (r, c + 1)):
            j = owner.get(step)
            if j is not None and j != k:
                pairs.add((min(j, k), max(j, k)))
    return [(cages[a], cages[b]) for a, b in sorted(pairs)]


def merged_cages(a: Cage, b: Cage, solution: Sequence[int], n: int) -> list[Cage]:
    """The cages a and b merge into: each keeping an operator of a or b that fits, its target from `solution`.

    A hidden operator (None) stays hidden, standing for each operator its cage's values meet; - / = never fit
    the merged cage (it has 3 or more cells, or is two givens).
    """
    cells = tuple(sorted(a.cells + b.cells))
    values = [solution[r * n + c] for r, c in cells]
    found: list[Cage] = []
    for cage in (a, b):
        own = [solution[r * n + c] for r, c in cage.cells]
        ops = [cage.op] if cage.op is not None else [op for op in ("+", "*") if holds(op, cage.target, own)]
        for op in ops:
            if op in ("+", "*") and op in operators_for(len(cells)):
                new = Cage(cells, op if cage.op else None, sum(values) if op == "+" else prod(values))
                if new not in found:
                    found.append(new)
    return found


def _with_merges(
    puzzle: GridPuzzle,
    found: Minimality,
    solution: Sequence[int],
    max_cage: int | None,
    backend: str,
    deadline: float | None,
    time_limit: float | None,
) -> Minimality:
    """`found` with the pairs of adjacent cages that merge (into at most max_cage cells) keeping uniqueness.

    A merged cage the backend cannot take (too many tuples) is not tried.
    """
    index = {cage: k for k, cage in enumerate(puzzle.cages)}
    engine = get_backend(backend)
    merges, checks = [], 0
    for a, b in adjacent_cages(puzzle.n, puzzle.cages):
        if max_cage is not None and len(a.cells) + len(b.cells) > max_cage:
            continue
        for cage in merged_cages(a, b, solution, puzzle.n):
            rest = tuple(c for c in puzzle.cages if c is not a and c is not b)
            variant = GridPuzzle(puzzle.n, puzzle.units, puzzle.givens, (*rest, cage), puzzle.name)
            if engine.can_solve(variant) is not None:
                continue
            checks += 1
            result = solve_puzzle(variant, backend=backend, limit=2, keep=1, time_limit=_left(deadline))
            if result.status == "timeout":
                raise SearchTimeoutError(f"time limit of {time_limit} s reached while merging cages")
            if result.count == 1:
                merges.append((index[a], index[b]))
                break
    return replace(found, merges=tuple(merges), checks=found.checks + checks)


# ---- uniqueness of many givens of one shape ----------------------------------------------------------


def unchecked(template: GridPuzzle, givens: bytes | Sequence[int]) -> GridPuzzle:
    """`template` with other givens, built without GridPuzzle's validation.

    Only for givens known to fit: a subset of a solution's values (what removal makes), so no unit
    can repeat a value; validating them again on every trial was half of generation's time.
    """
    puzzle = object.__new__(GridPuzzle)
    puzzle.__dict__.update(template.__dict__)
    puzzle.__dict__["givens"] = tuple(givens)
    return puzzle


UNDECIDED: list[int] = []
"""The rows of the last unique_rows call answered False because their `trial_seconds` ran out (indices)."""


def unique_rows(
    template: GridPuzzle,
    solutions: Sequence[bytes],
    rows: Sequence[bytes],
    *,
    backend: str = "backtrack",
    deadline: float | None = None,
    threads: int = 1,
    trial_seconds: float | None = None,
) -> list[bool] | None:
    """Whether each row of givens (bytes, 0 = empty), with the units and cages of `template`, has one solution.

    `trial_seconds`: at most that long for each row, searched one by one; a row not decided by then is
    answered False (not known to be unique) and listed in UNDECIDED.

    Each row is a subset of the values of its solution (solutions[k], bytes), so it has that one: a row
    found unique must have that grid as its solution, which is checked (RuntimeError otherwise), and
    stands in for checking the grid against the rules. `deadline` (time.monotonic()): None if it passes
    before every row is answered. On the backtracking backend, from BATCH_FROM rows on, one kernel batch
    (backtrack.solve_givens, on `threads` threads); fewer rows, or another backend, one search each.
    """
    UNDECIDED.clear()
    if not rows:
        return []
    if deadline is not None and _now() >= deadline:
        return None
    if backend == "backtrack" and len(rows) >= BATCH_FROM and trial_seconds is None:
        import numpy as np

        from .backends.backtrack import solve_givens

        cells = len(rows[0])
        givens = np.frombuffer(b"".join(rows), np.uint8).reshape(-1, cells)
        result = solve_givens(template, givens, limit=2, time_limit=_left(deadline), jobs=threads)
        if not bool(result.complete[result.counts < 2].all()):
            return None
        unique = result.counts == 1
        expected = np.frombuffer(b"".join(solutions), np.uint8).reshape(-1, cells)
        if bool((unique & (result.firsts != expected).any(axis=1)).any()):
            raise RuntimeError("backend 'backtrack' found one solution, not the grid the givens came from")
        return unique.tolist()
    engine = get_backend(backend) if backend == "backtrack" else None
    answers: list[bool] = []
    for row, solution in zip(rows, solutions, strict=True):
        puzzle = unchecked(template, row)
        left = _left(deadline)
        if trial_seconds is not None:
            left = trial_seconds if left is None else min(left, trial_seconds)
        if engine is not None:  # the grid is compared with `solution` below: no need for solve()'s check
            found = engine.solve(puzzle, limit=2, keep=1, time_limit=left)
        else:
            found = solve_puzzle(puzzle, backend=backend, limit=2, keep=1, time_limit=left)
        if found.status == "timeout" and (trial_seconds is None or (deadline is not None and _now() >= deadline)):
            return None
        if found.status == "timeout":
            UNDECIDED.append(len(answers))
            answers.append(False)
            continue
        if found.count == 1 and bytes(found.solutions[0]) != solution:
            raise RuntimeError(f"backend {backend!r} found one solution, not the grid the givens came from")
        answers.append(found.count == 1)
    return answers


def _now() -> float:
    """time.monotonic(), the clock of every deadline here."""
    return time.monotonic()


def _left(deadline: float | None) -> float | None:
    """Seconds until `deadline`, at least a millisecond; None without one."""
    return None if deadline is None else max(0.001, deadline - _now())
