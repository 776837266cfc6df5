"""Mathdoku: a random Latin square cut into connected cages with operators, made unique, then pared down.

make_mathdoku, for a MathdokuSpec (mathdoku_spec validates the options once):
  1. solution: a random Latin square (latin.random_latin_square);
  2. cages: --singletons givens first, then Keen's partition (mathdoku_cages.keen_partition; the default:
     cages of 2 to 6 cells, about 80% dominoes at 9x9, no singletons) or, with size weights or a smallest
     size above 2, cages grown to weighted sizes (weighted_partition); connected always;
  3. operators of `ops` dealt round-robin, Keen's quality filters on unless `filters=False`
     (mathdoku_cages.choose_operators);
  4. uniqueness on the backtracking backend (its cage propagation: every cage as its allowed tuples);
     with two solutions, repair before rejecting: in a cage where the two differ, give it another
     operator the second solution does not meet, else split it in two connected parts within the cage
     sizes, else (when 1-cell cages are allowed) make one of its differing cells a given; then count
     again, up to REPAIRS times; a puzzle still not unique is dropped and a new one drawn;
  5. `merge`: adjacent cages merged while the puzzle stays unique (fewer, larger cages within the cage
     sizes; the merged cage keeps the operator of one of the two, its target recomputed), pass after
     pass until one merges nothing: the result is merge-minimal (minimality.py);
  6. `hide_operators`: "all" counts and repairs with every operator hidden and prints them hidden
     (unique so); "max" hides operators in random order while the puzzle stays unique, so every
     operator still shown is necessary (monotonicity: hiding more never removes solutions).
planted_mathdoku (any sizes 1..max_cage, no uniqueness) is the quick planted puzzle tests use.
mathdoku() is the API call; the package re-exports it, so `cpmodels.generate.mathdoku` is that function:
reach this module's other names with `from cpmodels.generate.mathdoku import ...` (or sys.modules).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from math import prod
from typing import Any

from .. import cages as cage_rules
from ..backends import get_backend
from ..errors import CpModelsError, SearchTimeoutError
from ..grid import Cage, Cell, GridPuzzle, latin_units
from ..mathdoku import canonical, mathdoku_puzzle
from ..minimality import SYMMETRIES as SYMMETRIES
from ..minimality import adjacent_cages, merged_cages
from ..minimality import is_symmetric as is_symmetric
from ..solve import solve
from .common import Made, Progress, past, seconds_left, stream
from .latin import random_latin_square
from .mathdoku_cages import (
    cage_with,
    choose_operators,
    keen_partition,
    meets,
    neighbours,
    operator_classes,
    weighted_partition,
)

MATHDOKU_ORDERS = (3, 12)
"""The smallest and largest order generated."""
KEEN_SIZES = (2, 6)
"""The default cage sizes: Keen's (MAXBLK 6, no singletons)."""
HIDE = ("none", "all", "max")
"""What hide_operators takes."""
OPERATOR_CHARACTERS = "+-*/"
REPAIRS = 2
"""Repairs tried on one drawn puzzle before it is dropped (each is one more count). Measured: 2 makes 6x6
puzzles 1.2-1.4x faster than 12 (long repair chains cost more counts than a fresh draw), 9x9 alike."""
TRIES = 1000
"""Puzzles drawn for one unique Mathdoku before giving up."""


@dataclass(frozen=True)
class MathdokuSpec:
    """What every Mathdoku of a run is asked to be, validated once by mathdoku_spec."""

    n: int
    ops: str
    sizes: tuple[int, int]
    weights: tuple[tuple[int, float], ...] | None
    singletons: int
    filters: bool
    hide: str
    merge: bool
    backend: str
    repair: bool = True


@dataclass(frozen=True)
class MadeMathdoku:
    """A generated Mathdoku: the puzzle, its one solution (row-major), the puzzles drawn and repairs made."""

    puzzle: GridPuzzle
    solution: tuple[int, ...]
    attempts: int
    repairs: int


def planted_mathdoku(
    n: int, rng: random.Random, max_cage: int = 4, ops: Sequence[str] = ("+", "-", "*", "/")
) -> tuple[GridPuzzle, tuple[int, ...]]:
    """A planted order-n Mathdoku and its Latin square: connected cages of 1..max_cage cells, fitting operators."""
    unknown = set(ops) - set(cage_rules.ARITHMETIC)
    if unknown or max_cage < 1:
        raise CpModelsError(
            f"planted_mathdoku takes max_cage >= 1 and ops among + - * /, not {max_cage}, {sorted(ops)}"
        )
    square = random_latin_square(n, rng)
    cages: list[Cage] = []
    for cells in _random_partition(n, rng, max_cage):
        cages.extend(_planted_cages(cells, [square[r * n + c] for r, c in cells], rng, ops))
    return mathdoku_puzzle(n, cages), square


def _random_partition(n: int, rng: random.Random, max_cage: int) -> list[list[Cell]]:
    """The n x n cells split into orthogonally connected groups of 1..max_cage cells, at random."""
    free = {(r, c) for r in range(n) for c in range(n)}
    groups = []
    for start in rng.sample(sorted(free), len(free)):
        if start not in free:
            continue
        group, size = [start], rng.randint(1, max_cage)
        free.discard(start)
        while len(group) < size:
            frontier = sorted(
                {step for r, c in group for step in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))} & free
            )
            if not frontier:
                break
            group.append(rng.choice(frontier))
            free.discard(group[-1])
        groups.append(group)
    return groups


def _planted_cages(cells: list[Cell], values: list[int], rng: random.Random, ops: Sequence[str]) -> list[Cage]:
    """A cage over `cells` with a random operator in `ops` that fits `values`; single givens if none fits."""
    low, high = min(values), max(values)
    targets = {"+": sum(values), "*": prod(values), "-": high - low, "/": high // low}
    fits = [op for op in ops if op in cage_rules.operators_for(len(cells)) and (op != "/" or high % low == 0)]
    if not fits:
        return [Cage((cell,), "=", v) for cell, v in zip(cells, values, strict=True)]
    op = rng.choice(fits)
    return [Cage(tuple(cells), op, targets[op])]


# ---- the options of a run ------------------------------------------------------------------------


def mathdoku_spec(
    *,
    order: int | None = None,
    ops: str = OPERATOR_CHARACTERS,
    cage_sizes: tuple[int, int] | None = None,
    size_weights: dict[int, float] | None = None,
    singletons: int = 0,
    filters: bool = True,
    hide_operators: str = "none",
    merge: bool = False,
    backend: str = "backtrack",
    repair: bool = True,
    max_cage: int | None = None,
    **ignored: Any,
) -> MathdokuSpec:
    """The validated options of a Mathdoku run; CpModelsError with one clear message for a bad one.

    order 3..12 (default 6); ops: any of + - * /; cage_sizes (lo, hi), default (2, 6), or from the
    weights' sizes; max_cage K: cage sizes (min(2, K), K); size_weights {size: weight}, sizes inside
    cage_sizes; singletons: that many 1-cell cages (givens) placed first; filters: Keen's quality
    filters; hide_operators: none, all or max; merge: merge cages while unique. Sudoku and QWH options
    are ignored.
    """
    n = _order(order)
    ops = _operators(ops)
    sizes = _sizes(cage_sizes, size_weights, max_cage, n)
    weights = _weights(size_weights, sizes)
    if sizes[0] > 2 and not set(ops) & {"+", "*"}:
        raise CpModelsError(f"ops {ops} need 2-cell cages, but cage sizes {sizes[0]}-{sizes[1]} exclude them")
    if not isinstance(singletons, int) or isinstance(singletons, bool) or not 0 <= singletons <= n * n:
        raise CpModelsError(
            f"singletons must lie in 0..{n * n} (an order-{n} grid has {n * n} cells), not {singletons}"
        )
    if hide_operators not in HIDE:
        raise CpModelsError(f"unknown hide_operators {hide_operators!r}; choose one of: {', '.join(HIDE)}")
    return MathdokuSpec(n, ops, sizes, weights, singletons, bool(filters), hide_operators, bool(merge), backend, repair)


def _order(order: int | None) -> int:
    """The order asked for (6 by default); CpModelsError outside MATHDOKU_ORDERS."""
    n = 6 if order is None else order
    low, high = MATHDOKU_ORDERS
    if not isinstance(n, int) or isinstance(n, bool) or not low <= n <= high:
        raise CpModelsError(f"a Mathdoku order lies in {low}..{high}, not {order}")
    return n


def _operators(ops: str) -> str:
    """The operators of `ops` in the order + - * /; CpModelsError for another character or none."""
    text = "".join(ops) if not isinstance(ops, str) else ops
    bad = sorted(set(text) - set(OPERATOR_CHARACTERS))
    if bad or not text:
        shown = "".join(bad) if bad else ""
        raise CpModelsError(f"ops takes one or more of the characters +-*/, not {shown!r}")
    return "".join(op for op in OPERATOR_CHARACTERS if op in text)


def _sizes(
    cage_sizes: tuple[int, int] | None, weights: dict[int, float] | None, max_cage: int | None, n: int
) -> tuple[int, int]:
    """The cage sizes (lo, hi) asked for, from cage_sizes, else max_cage, else the weights, else KEEN_SIZES."""
    if cage_sizes is not None:
        pair = tuple(cage_sizes)
    elif max_cage is not None:
        pair = (min(2, max_cage), max_cage)
    elif weights:
        pair = (min(weights), max(weights))
    else:
        return KEEN_SIZES if n * n >= KEEN_SIZES[1] else (2, n * n)
    if len(pair) != 2 or not all(isinstance(k, int) and not isinstance(k, bool) for k in pair):
        raise CpModelsError(f"cage sizes must be a range (lo, hi) of integers, not {cage_sizes!r}")
    lo, hi = pair
    if not 1 <= lo <= hi <= n * n:
        raise CpModelsError(f"cage sizes must satisfy 1 <= lo <= hi <= {n * n} on an order-{n} grid, not {lo}-{hi}")
    return lo, hi


def _weights(weights: dict[int, float] | None, sizes: tuple[int, int]) -> tuple[tuple[int, float], ...] | None:
    """The size weights as sorted (size, weight) pairs, each size inside `sizes` and weights not all 0."""
    if weights is None:
        return None
    pairs = tuple(sorted(weights.items()))
    for size, weight in pairs:
        if not sizes[0] <= size <= sizes[1]:
            raise CpModelsError(
                f"size weight {size}:{weight} is for a size outside the cage sizes {sizes[0]}-{sizes[1]}"
            )
        if not weight >= 0:
            raise CpModelsError(f"size weight {size}:{weight} is negative")
    if not pairs or sum(w for _, w in pairs) <= 0:
        raise CpModelsError("size weights need a size of positive weight")
    return pairs


# ---- one puzzle ----------------------------------------------------------------------------------


def make_mathdoku(
    spec: MathdokuSpec,
    rng: random.Random,
    *,
    deadline: float | None = None,
    progress: Progress | None = None,
    tries: int = TRIES,
) -> MadeMathdoku:
    """A unique Mathdoku as `spec` asks (module docstring) from `rng`; SearchTimeoutError past `deadline`.

    CpModelsError after `tries` puzzles drawn without a unique one.
    """
    repairs = 0
    for attempt in range(1, tries + 1):
        if past(deadline):
            raise SearchTimeoutError(f"no unique order-{spec.n} Mathdoku within the time limit ({attempt - 1} tried)")
        square = random_latin_square(spec.n, rng)
        cages = _drawn_cages(spec, square, rng)
        if cages is not None:
            found = _made_unique(spec, cages, square, rng, deadline)
            if found is not None:
                cages, fixes = found
                return MadeMathdoku(_finished(spec, cages, square, rng, deadline), square, attempt, repairs + fixes)
        if progress:
            progress(attempt, tries)
    raise CpModelsError(f"no unique order-{spec.n} Mathdoku in {tries} tries; allow other cage sizes or operators")


def _drawn_cages(spec: MathdokuSpec, square: Sequence[int], rng: random.Random) -> list[Cage] | None:
    """Cages over the grid with operators, as the spec asks; None when the partition left a cage too small."""
    n, (lo, hi) = spec.n, spec.sizes
    fixed = frozenset(rng.sample([(r, c) for r in range(n) for c in range(n)], spec.singletons))
    if not set(spec.ops) & {"+", "*"}:  # only - and /: dominoes, and givens where none fits
        lo, hi = 1, 2
    if spec.weights is None and lo <= 2 <= hi:
        groups = keen_partition(n, rng, hi, fixed)
    else:
        weights = dict(spec.weights) if spec.weights else {size: 1.0 for size in range(lo, hi + 1)}
        groups = weighted_partition(n, rng, weights, fixed)
    if any(len(group) < lo for group in groups):
        return None
    givens = [Cage((cell,), "=", square[cell[0] * n + cell[1]]) for cell in sorted(fixed)]
    return givens + choose_operators(groups, square, n, spec.ops, spec.filters, rng)


def _finished(
    spec: MathdokuSpec, cages: list[Cage], square: Sequence[int], rng: random.Random, deadline: float | None
) -> GridPuzzle:
    """The unique puzzle of `cages` merged (spec.merge) and with operators hidden as the spec asks.

    Merging and hiding take turns until a turn changes nothing, so that the puzzle is both merge-minimal
    and operator-necessary (hiding an operator can make a merge keep uniqueness, and the other way round).
    """
    while spec.merge or spec.hide == "max":
        before = cages
        if spec.merge:
            cages = _merged(spec, cages, square, rng, deadline)
        if spec.hide == "max":
            cages = _hidden_most(spec, cages, rng, deadline)
        if cages == before:
            break
    return canonical(spec.n, _as_shown(spec, cages))


def _as_shown(spec: MathdokuSpec, cages: Sequence[Cage]) -> list[Cage]:
    """The cages as the puzzle shows them: every operator of 2+ cells hidden when spec.hide is `all`."""
    if spec.hide != "all":
        return list(cages)
    return [Cage(c.cells, None, c.target) if len(c.cells) > 1 else c for c in cages]


def _solutions(spec: MathdokuSpec, cages: Sequence[Cage], deadline: float | None) -> list[tuple[int, ...]]:
    """Up to two solutions of the puzzle of `cages` (as shown) on spec.backend; SearchTimeoutError past deadline."""
    puzzle = _trial(spec.n, _as_shown(spec, cages))
    left = seconds_left(deadline)
    if spec.backend == "backtrack":
        found = get_backend("backtrack").solve(puzzle, limit=2, keep=2, time_limit=left)
    else:
        found = solve(puzzle, backend=spec.backend, limit=2, keep=2, time_limit=left)
    if found.status == "timeout":
        raise SearchTimeoutError(f"no unique order-{spec.n} Mathdoku within the time limit")
    return [tuple(grid) for grid in found.solutions]


@lru_cache(maxsize=32)
def _empty(n: int) -> GridPuzzle:
    """The order-n Latin square with no cages and no givens: the template of every trial."""
    return GridPuzzle(n, latin_units(n), (0,) * (n * n))


def _trial(n: int, cages: Sequence[Cage]) -> GridPuzzle:
    """The order-n Mathdoku of `cages`, built without GridPuzzle's validation.

    Only for cages cut from one Latin square (connected, disjoint, covering, targets met by it): checking
    them again on every count was a fifth of the time. What is returned to the caller is canonical().
    """
    puzzle = object.__new__(GridPuzzle)
    puzzle.__dict__.update(_empty(n).__dict__)
    puzzle.__dict__["cages"] = tuple(cages)
    return puzzle


def _is_unique(spec: MathdokuSpec, cages: Sequence[Cage], deadline: float | None) -> bool:
    """Whether the puzzle of `cages` (as shown) has exactly one solution."""
    return len(_solutions(spec, cages, deadline)) == 1


# ---- uniqueness and repair -----------------------------------------------------------------------


def _made_unique(
    spec: MathdokuSpec, cages: list[Cage], square: Sequence[int], rng: random.Random, deadline: float | None
) -> tuple[list[Cage], int] | None:
    """The cages, repaired until the puzzle has `square` as its one solution, and the repairs made; None if not."""
    for fixes in range(REPAIRS + 1 if spec.repair else 1):
        grids = _solutions(spec, cages, deadline)
        if len(grids) == 1:
            if grids[0] != tuple(square):
                raise RuntimeError("the planted Mathdoku has one solution, not the square it was planted from")
            return cages, fixes
        other = next(grid for grid in grids if grid != tuple(square))
        repaired = _repaired(spec, cages, square, other, rng)
        if repaired is None:
            return None
        cages = repaired
    return None


def _repaired(
    spec: MathdokuSpec, cages: list[Cage], square: Sequence[int], other: Sequence[int], rng: random.Random
) -> list[Cage] | None:
    """The cages changed so that `other` no longer meets them, or None when no allowed change does.

    One cage where `square` and `other` differ is re-operated, else split in two, else (1-cell cages
    allowed) given a given, else dissolved into its neighbouring cages.
    """
    n = spec.n
    apart = [k for k, cage in enumerate(cages) if any(square[r * n + c] != other[r * n + c] for r, c in cage.cells)]
    rng.shuffle(apart)
    for fix in (_reoperated, _split, _given):
        for k in apart:
            new = fix(spec, cages[k], square, other, rng)
            if new:
                return cages[:k] + new + cages[k + 1 :]
    for k in apart:
        dissolved = _dissolved(spec, cages, k, square, other, rng)
        if dissolved:
            return dissolved
    return None


def _ops_for(spec: MathdokuSpec, cells: Sequence[Cell], square: Sequence[int], rng: random.Random) -> list[str]:
    """The operators of spec.ops fitting a cage over `cells`: good ones (random order), then poor, then ruled out."""
    values = [square[r * spec.n + c] for r, c in cells]
    if len(values) == 1:
        return ["="]
    return [
        op for group in operator_classes(values, spec.n, spec.ops, spec.filters) for op in rng.sample(group, len(group))
    ]


def _reoperated(
    spec: MathdokuSpec, cage: Cage, square: Sequence[int], other: Sequence[int], rng: random.Random
) -> list[Cage] | None:
    """The cage with another operator that `other` does not meet, or None.

    None at once when `other` only permutes the cage's values: every operator is blind to the order.
    """
    hidden = spec.hide == "all"
    n = spec.n
    if sorted(square[r * n + c] for r, c in cage.cells) == sorted(other[r * n + c] for r, c in cage.cells):
        return None
    for op in _ops_for(spec, cage.cells, square, rng):
        new = cage_with(cage.cells, op, square, spec.n)
        if op != cage.op and not meets(new, other, spec.n, hidden):
            return [new]
    return None


def _split(
    spec: MathdokuSpec, cage: Cage, square: Sequence[int], other: Sequence[int], rng: random.Random, tries: int = 8
) -> list[Cage] | None:
    """The cage split into two connected cages within the cage sizes, one of which `other` does not meet, or None."""
    least = max(spec.sizes[0], 1)
    size = len(cage.cells)
    if size < 2 * least:
        return None
    for _ in range(tries):
        part = _connected_part(cage.cells, rng, rng.randint(least, size - least))
        rest = [cell for cell in cage.cells if cell not in part]
        if not cage_rules.is_connected(rest):
            continue
        pieces = [_operated(spec, cells, square, rng, other) for cells in (part, rest)]
        if all(pieces) and any(not meets(p, other, spec.n, spec.hide == "all") for p in pieces if p):
            return [p for p in pieces if p]
    return None


def _connected_part(cells: Sequence[Cell], rng: random.Random, size: int) -> list[Cell]:
    """`size` connected cells of `cells`, grown from a random one by random neighbours."""
    members = set(cells)
    part = [rng.choice(sorted(members))]
    while len(part) < size:
        frontier = sorted(
            {(r + dr, c + dc) for r, c in part for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))} & members - set(part)
        )
        part.append(rng.choice(frontier))
    return part


def _operated(
    spec: MathdokuSpec,
    cells: Sequence[Cell],
    square: Sequence[int],
    rng: random.Random,
    other: Sequence[int] | None = None,
) -> Cage | None:
    """A cage over `cells` with the first operator of _ops_for that `other` fails (if any does, else the first).

    None if no operator fits.
    """
    made = [cage_with(cells, op, square, spec.n) for op in _ops_for(spec, cells, square, rng)]
    failed = [cage for cage in made if other is not None and not meets(cage, other, spec.n, spec.hide == "all")]
    return (failed or made)[0] if made else None


def _given(
    spec: MathdokuSpec, cage: Cage, square: Sequence[int], other: Sequence[int], rng: random.Random
) -> list[Cage] | None:
    """The cage as a given where `square` and `other` differ and the rest's connected pieces; None if not allowed.

    Allowed when 1-cell cages are (cage sizes from 1, or only - and / asked) and every piece gets an operator.
    """
    n = spec.n
    if spec.sizes[0] > 1 and set(spec.ops) & {"+", "*"} or len(cage.cells) < 2:
        return None
    cell = rng.choice([(r, c) for r, c in cage.cells if square[r * n + c] != other[r * n + c]])
    pieces = [_operated(spec, part, square, rng) for part in _components([x for x in cage.cells if x != cell])]
    if not all(pieces):
        return None
    return [Cage((cell,), "=", square[cell[0] * n + cell[1]]), *(p for p in pieces if p)]


def _dissolved(
    spec: MathdokuSpec, cages: list[Cage], k: int, square: Sequence[int], other: Sequence[int], rng: random.Random
) -> list[Cage] | None:
    """The cages with cage k gone, each of its cells joined to its smallest neighbouring cage with room, or None.

    The cages joined are re-operated; None unless every cell finds one (not a given) and `other` fails one.
    """
    n, largest = spec.n, spec.sizes[1]
    owner = {cell: j for j, cage in enumerate(cages) if j != k for cell in cage.cells}
    grown: dict[int, list[Cell]] = {}
    for cell in rng.sample(cages[k].cells, len(cages[k].cells)):
        beside = sorted({owner[m] for m in neighbours(n, cell) if m in owner})
        room = [j for j in beside if 1 < len(cages[j].cells) < largest - len(grown.get(j, []))]
        if not room:
            return None
        least = min(len(cages[j].cells) + len(grown.get(j, [])) for j in room)
        smallest = [j for j in room if len(cages[j].cells) + len(grown.get(j, [])) == least]
        grown.setdefault(rng.choice(smallest), []).append(cell)
    changed = {j: _operated(spec, [*cages[j].cells, *cells], square, rng, other) for j, cells in grown.items()}
    if not all(changed.values()) or all(meets(c, other, n, spec.hide == "all") for c in changed.values() if c):
        return None
    return [changed.get(j) or cage for j, cage in enumerate(cages) if j != k]


def _components(cells: Sequence[Cell]) -> list[list[Cell]]:
    """The orthogonally connected pieces of `cells`."""
    left, pieces = set(cells), []
    while left:
        todo = [min(left)]
        piece = []
        left.discard(todo[0])
        while todo:
            r, c = todo.pop()
            piece.append((r, c))
            for step in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if step in left:
                    left.discard(step)
                    todo.append(step)
        pieces.append(sorted(piece))
    return pieces


# ---- paring down: merging cages, hiding operators ------------------------------------------------


def _merged(
    spec: MathdokuSpec, cages: list[Cage], square: Sequence[int], rng: random.Random, deadline: float | None
) -> list[Cage]:
    """The cages with adjacent ones merged while unique, pass after pass until a pass merges none (merge-minimal)."""
    merged = True
    while merged:
        merged = False
        pairs = adjacent_cages(spec.n, cages)
        rng.shuffle(pairs)
        gone: set[Cage] = set()
        for a, b in pairs:
            if a in gone or b in gone or len(a.cells) + len(b.cells) > spec.sizes[1]:
                continue
            one, two = _as_shown(spec, [a, b])  # merged as the checker merges them
            ways = merged_cages(one, two, square, spec.n)
            for new in rng.sample(ways, len(ways)):
                trial = [c for c in cages if c is not a and c is not b] + [new]
                if _is_unique(spec, trial, deadline):
                    cages, merged = trial, True
                    gone |= {a, b}
                    break
    return cages


def _hidden_most(spec: MathdokuSpec, cages: list[Cage], rng: random.Random, deadline: float | None) -> list[Cage]:
    """The cages with operators hidden one by one in random order while the puzzle stays unique."""
    cages = list(cages)
    for k in rng.sample(range(len(cages)), len(cages)):
        if len(cages[k].cells) > 1 and cages[k].op is not None:
            trial = [*cages[:k], replace(cages[k], op=None), *cages[k + 1 :]]
            if _is_unique(spec, trial, deadline):
                cages = trial
    return cages


# ---- the functions generate() and the API call ---------------------------------------------------


def unique_mathdoku(
    n: int,
    rng: random.Random,
    *,
    backend: str = "backtrack",
    deadline: float | None = None,
    progress: Progress | None = None,
    tries: int = TRIES,
    **options: Any,
) -> tuple[GridPuzzle, tuple[int, ...]]:
    """A unique order-n Mathdoku as `options` ask (mathdoku_spec), and its solution; SearchTimeoutError at deadline."""
    spec = mathdoku_spec(order=n, backend=backend, **options)
    made = make_mathdoku(spec, rng, deadline=deadline, progress=progress, tries=tries)
    return made.puzzle, made.solution


def made_mathdoku(
    rng: random.Random,
    *,
    key: tuple[int, int] | None = None,
    deadline: float | None = None,
    progress: Progress | None = None,
    **options: Any,
) -> Made:
    """One unique Mathdoku as `options` ask (mathdoku_spec) as a Made record; `key`: its (seed, index).

    Its fields: cages (how many), hidden (operators hidden), repairs (made to the drawn puzzle kept).
    """
    made = make_mathdoku(mathdoku_spec(**options), rng, deadline=deadline, progress=progress)
    seed, index = key or (None, None)
    cages = made.puzzle.cages
    fields = {"cages": len(cages), "hidden": sum(c.op is None for c in cages), "repairs": made.repairs}
    return Made(made.puzzle, made.solution, seed, index, attempts=made.attempts, fields=fields)


def mathdoku(
    order: int = 6,
    ops: str = OPERATOR_CHARACTERS,
    cage_sizes: tuple[int, int] | None = None,
    hide_operators: str = "none",
    seed: int | None = None,
    index: int = 0,
    **options: Any,
) -> Made:
    """Puzzle `index` of the run with `seed` (drawn when None) as `cpmodels generate mathdoku` makes it.

    A Made record: the puzzle, its solution, seed, index, attempts and fields. Further options as
    mathdoku_spec takes them: size_weights, singletons, filters, merge, backend, repair, max_cage.
    """
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    options.update(order=order, ops=ops, cage_sizes=cage_sizes, hide_operators=hide_operators)
    return made_mathdoku(stream(seed, index), key=(seed, index), **options)
