"""The grid puzzle every family builds and every backend compiles, and the solver-free checker.

Glossary (the words used throughout the package):
  n          the order: an n x n grid whose cells hold the values 1..n.
  r x c box  a box of r rows by c columns, r * c = n (a 9x9 Sudoku has 3x3 boxes, a 6x6 one 2x3).
  cell       (r, c), 0-based in code; `cell = r*n + c` is its row-major index in hot code; `r3c7` names
             it in messages, 1-based (row 3, column 7).
  unit       cells that hold different values: a row, a column, a box, or any region a puzzle adds.
  peer       a cell that shares a unit with a given cell, so it cannot hold the same value.
  cage       cells whose values must make a target under an operator (+ - * / =, or hidden).
  given      a value fixed in advance (0 in `givens` means the cell is empty).
  candidate  a value a cell may still hold while a puzzle is being solved.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter
from typing import Any

from . import cages as cage_rules
from .errors import PuzzleError

Cell = tuple[int, int]


def cell_name(r: int, c: int) -> str:
    """The 1-based name of the 0-based cell (r, c), as `r3c7`."""
    return f"r{r + 1}c{c + 1}"


def cells_named(cells: Sequence[Cell]) -> str:
    """Space-separated 1-based names of `cells`."""
    return " ".join(cell_name(r, c) for r, c in cells)


def cage_name(k: int, cells: Sequence[Cell]) -> str:
    """Cage number k with its cells, as messages name a cage: `cage 3 (r1c1 r1c2)`."""
    return f"cage {k} ({cells_named(cells)})"


@dataclass(frozen=True)
class Cage:
    """Cells whose values must meet `op` and `target`; op is + - * / = or None (hidden operator)."""

    cells: tuple[Cell, ...]
    op: str | None
    target: int

    def label(self) -> str:
        """The clue as printed in a puzzle: `12+`, `3` for a given, `7` alone for a hidden operator."""
        if self.op in (None, "="):
            return str(self.target)
        return f"{self.target}{self.op}"


@dataclass(frozen=True)
class GridPuzzle:
    """An n x n grid of values 1..n with all-different units, cages and givens (0 = empty), validated."""

    n: int
    units: tuple[tuple[int, ...], ...]
    givens: tuple[int, ...]
    cages: tuple[Cage, ...] = ()
    name: str = field(default="", compare=False)
    domains: tuple[int, ...] = ()
    """Candidate hints: per cell (row-major) the mask of the values it may hold (bit v-1 for v); () for none.

    Stored only when some cell is restricted (all-full masks become ()), so equal puzzles compare equal."""

    def __post_init__(self) -> None:
        _check_shape(self)
        _check_units(self)
        _check_cages(self)
        if self.domains:
            _check_domains(self)
        elif type(self.domains) is not tuple:  # an empty list or the like: no hints, stored as ()
            object.__setattr__(self, "domains", ())

    def cell(self, index: int) -> Cell:
        """The (row, column) of a row-major cell index."""
        return divmod(index, self.n)

    def with_givens(self, givens: Sequence[int]) -> GridPuzzle:
        """The same puzzle with other givens."""
        return GridPuzzle(self.n, self.units, tuple(givens), self.cages, self.name, self.domains)

    def allows(self, index: int, value: int) -> bool:
        """Whether the cell of row-major `index` may hold `value` as far as its candidate hints say."""
        return not self.domains or bool(self.domains[index] >> (value - 1) & 1)


@lru_cache(maxsize=64)
def latin_units(n: int) -> tuple[tuple[int, ...], ...]:
    """The n rows then the n columns of an n x n grid, as row-major cell indices (one shared tuple per n)."""
    rows = tuple(tuple(r * n + c for c in range(n)) for r in range(n))
    cols = tuple(tuple(r * n + c for r in range(n)) for c in range(n))
    return rows + cols


def unit_name(puzzle: GridPuzzle, unit: Sequence[int]) -> str:
    """`row 3`, `column 7`, or `the unit r1c1..r3c3` for a unit given by cell indices."""
    rows = {i // puzzle.n for i in unit}
    cols = {i % puzzle.n for i in unit}
    if len(rows) == 1 and len(unit) == puzzle.n:
        return f"row {rows.pop() + 1}"
    if len(cols) == 1 and len(unit) == puzzle.n:
        return f"column {cols.pop() + 1}"
    first, last = puzzle.cell(min(unit)), puzzle.cell(max(unit))
    if len(rows) * len(cols) == len(unit):
        return f"the box {cell_name(*first)}..{cell_name(*last)}"
    return f"the unit {cell_name(*first)}..{cell_name(*last)}"


def _check_shape(p: GridPuzzle) -> None:
    """Raise PuzzleError unless n, the givens and their values fit an n x n grid."""
    if p.n < 1:
        raise PuzzleError(f"order must be at least 1, not {p.n}")
    if len(p.givens) != p.n * p.n:
        raise PuzzleError(f"an order-{p.n} grid has {p.n * p.n} cells, not {len(p.givens)}")
    if min(p.givens) >= 0 and max(p.givens) <= p.n:
        return
    for i, v in enumerate(p.givens):
        if not 0 <= v <= p.n:
            raise PuzzleError(f"given {v} at {cell_name(*p.cell(i))} is outside 1..{p.n}")


_SOUND_UNITS: list[tuple[int, tuple[tuple[int, ...], ...], itemgetter, tuple[int, ...]]] = []
"""The last few (n, units, cells) found sound by _sound_units, compared by identity, so that shared unit
tuples (sudoku_units, latin_units) are checked once, not once per puzzle read. `cells`: a getter of every
unit's cells' values in turn and, for each, a key offset that tells the units apart (unit k: k * (n + 1))."""


def _sound_units(p: GridPuzzle) -> tuple[itemgetter, tuple[int, ...]]:
    """Raise PuzzleError for a unit with cells outside the grid or repeated, or more cells than values.

    Returns a getter of the values of every unit's cells in turn, and the offset of each one's unit.
    """
    for n, units, cells, offsets in _SOUND_UNITS:
        if n == p.n and units is p.units:
            return cells, offsets
    for unit in p.units:
        if len(set(unit)) != len(unit) or not all(0 <= i < p.n * p.n for i in unit):
            raise PuzzleError(f"a unit has repeated cells or cells outside the grid: {unit}")
        if len(unit) > p.n:
            raise PuzzleError(f"a unit of {len(unit)} cells cannot hold different values 1..{p.n}")
    cells = itemgetter(0, 0, *(i for unit in p.units for i in unit))  # two more: a tuple whatever the units
    offsets = (0, 0, *(k * (p.n + 1) for k, unit in enumerate(p.units) for _ in unit))
    _SOUND_UNITS[:] = [(p.n, p.units, cells, offsets), *_SOUND_UNITS[:7]]
    return cells, offsets


def _check_units(p: GridPuzzle) -> None:
    """Raise PuzzleError for an unsound unit (_sound_units), or a given repeated in a unit."""
    cells, offsets = _sound_units(p)
    values = cells(p.givens)[2:]
    placed = {offset + v for offset, v in zip(offsets[2:], values, strict=True) if v}  # (unit, value) pairs
    if len(placed) == len(values) - values.count(0):
        return
    for unit in p.units:
        seen: dict[int, int] = {}
        for i in unit:
            v = p.givens[i]
            if v and v in seen:
                first = cell_name(*p.cell(seen[v]))
                raise PuzzleError(
                    f"given {v} at {cell_name(*p.cell(i))} repeats in {unit_name(p, unit)} (also at {first})"
                )
            seen.setdefault(v, i)


def _check_domains(p: GridPuzzle) -> None:
    """Raise PuzzleError for domains that are not one mask of values 1..n per cell, empty, or without a given."""
    full = (1 << p.n) - 1
    object.__setattr__(p, "domains", tuple(p.domains))
    if len(p.domains) != p.n * p.n:
        raise PuzzleError(f"an order-{p.n} grid has {p.n * p.n} cells, but {len(p.domains)} candidate hints")
    for i, mask in enumerate(p.domains):
        if not 0 < mask <= full:
            raise PuzzleError(f"{cell_name(*p.cell(i))}: candidate hints must be some of 1..{p.n}, not mask {mask}")
        if p.givens[i] and not mask >> (p.givens[i] - 1) & 1:
            raise PuzzleError(
                f"given {p.givens[i]} at {cell_name(*p.cell(i))} is not among its candidates {values_named(mask)}"
            )
    if all(mask == full for mask in p.domains):
        object.__setattr__(p, "domains", ())  # no cell restricted: stored as none, so that equal puzzles are equal


def values_named(mask: int) -> str:
    """The values of a candidate mask as a set in braces, `{1,3,9}`."""
    return "{" + ",".join(str(v + 1) for v in range(mask.bit_length()) if mask >> v & 1) + "}"


def domain_violation(puzzle: GridPuzzle, grid: Sequence[int]) -> str | None:
    """The first cell of `grid` holding a value outside its candidate hints, as a sentence; None if there is none."""
    for i, mask in enumerate(puzzle.domains):
        v = grid[i]
        if 1 <= v <= puzzle.n and not mask >> (v - 1) & 1:
            return f"{cell_name(*puzzle.cell(i))} holds {v}, outside its candidates {values_named(mask)}"
    return None


def _check_cages(p: GridPuzzle) -> None:
    """Raise PuzzleError for a cage cell outside the grid, a cell in two cages, or a malformed cage."""
    owner: dict[Cell, int] = {}
    if p.cages:
        _check_cage_lines(p)
    for k, cage in enumerate(p.cages, start=1):
        if not cage.cells:
            raise PuzzleError(f"cage {k} has no cells")
        if cage.op not in cage_rules.OPERATORS and cage.op is not None:
            raise PuzzleError(f"cage {k}: unknown operator {cage.op!r}")
        problem = cage_rules.size_problem(cage.op, len(cage.cells))
        if problem:
            raise PuzzleError(f"{cage_name(k, cage.cells)}: {problem}")
        for r, c in cage.cells:
            if not (0 <= r < p.n and 0 <= c < p.n):
                raise PuzzleError(f"cage {k}: cell {cell_name(r, c)} is outside the {p.n}x{p.n} grid")
            if (r, c) in owner:
                raise PuzzleError(f"{cell_name(r, c)} is in cages {owner[(r, c)]} and {k}")
            owner[(r, c)] = k


def _check_cage_lines(p: GridPuzzle) -> None:
    """Raise PuzzleError for two cells of a cage in one row or column that no unit holds together.

    Cage semantics (cages.allowed_tuples) take such cells to differ, as they do in every family with
    cages, where rows and columns are units.
    """
    units_of: dict[int, set[int]] = {}
    for u, unit in enumerate(p.units):
        for i in unit:
            units_of.setdefault(i, set()).add(u)
    for k, cage in enumerate(p.cages, start=1):
        for a, (r1, c1) in enumerate(cage.cells):
            for r2, c2 in cage.cells[:a]:
                together = units_of.get(r1 * p.n + c1, set()) & units_of.get(r2 * p.n + c2, set())
                if (r1 == r2 or c1 == c2) and not together and 0 <= min(r1, r2, c1, c2) and max(r1, r2, c1, c2) < p.n:
                    line = f"row {r1 + 1}" if r1 == r2 else f"column {c1 + 1}"
                    raise PuzzleError(
                        f"{cage_name(k, cage.cells)}: {cell_name(r1, c1)} and {cell_name(r2, c2)} share {line}, "
                        "which is not a unit; cages need the rows and columns they cross to be units"
                    )


def explain_violation(puzzle: GridPuzzle, grid: Sequence[int]) -> str | None:
    """The first rule a row-major `grid` breaks as a sentence in 1-based words, or None if it solves `puzzle`.

    A vectorised test (_holds_everywhere) answers most grids, the right ones; a grid it does not
    pass is read cell by cell, unit by unit and cage by cage for the first rule broken.
    """
    n = puzzle.n
    if len(grid) != n * n:
        return f"the grid has {len(grid)} cells, not {n * n}"
    if puzzle.domains and (outside := domain_violation(puzzle, grid)):
        return outside
    if _holds_everywhere(puzzle, grid):
        return None
    for i, v in enumerate(grid):
        if not 1 <= v <= n:
            return f"{cell_name(*puzzle.cell(i))} holds {v}, outside 1..{n}"
        if puzzle.givens[i] and puzzle.givens[i] != v:
            return f"{cell_name(*puzzle.cell(i))} holds {v}, but the given is {puzzle.givens[i]}"
    for unit in puzzle.units:
        values = [grid[i] for i in unit]
        if len(set(values)) != len(values):
            return f"{unit_name(puzzle, unit)} repeats a value: {values}"
    for k, cage in enumerate(puzzle.cages, start=1):
        values = [grid[r * n + c] for r, c in cage.cells]
        if not cage_rules.holds(cage.op, cage.target, values):
            return f"{cage_name(k, cage.cells)} holds {values}, which does not make {cage.label()}"
    return None


def is_solution(puzzle: GridPuzzle, grid: Sequence[int]) -> bool:
    """Whether a row-major `grid` meets every given, unit and cage of `puzzle`."""
    return explain_violation(puzzle, grid) is None


def _holds_everywhere(puzzle: GridPuzzle, grid: Sequence[int]) -> bool:
    """True only if `grid` (n*n cells) meets every rule of `puzzle`, tested with numpy; False may be either.

    Values in range and givens kept are tested on the grid's bytes, every unit at once by the sums of
    its values' bits (1 << (v-1)): n distinct values in 1..n sum to 2**n - 1 and to nothing else, and
    k distinct ones to a number of k set bits, while a repeat carries (fewer bits). Cages go through
    cages.holds. Orders above 64, and grids that are not lists or tuples of small ints, are left to
    the cell-by-cell reading.
    """
    n = puzzle.n
    if n > 64 or type(grid) not in (tuple, list):
        return False
    try:
        cells = bytes(grid)
    except (ValueError, TypeError):
        return False
    if cells.translate(None, _VALUES[n]):  # a value outside 1..n
        return False
    _, _, kept, given = _givens(puzzle.givens)
    if int.from_bytes(cells, "little") & kept != given:
        return False
    check = _unit_check(n, puzzle.units)
    if check is None:
        return False
    np, bits, dense, expected, groups = check
    if dense is not None:  # every unit full, n <= 16: one matrix product gives every unit's sum
        if dense.dot(bits.take(np.frombuffer(cells, np.uint8))).tobytes() != expected:
            return False
    else:
        values = bits.take(np.frombuffer(cells, np.uint8))
        for index, full in groups:
            sums = values[index].sum(axis=1)
            if not ((sums == full).all() if full else (np.bitwise_count(sums) == index.shape[1]).all()):
                return False
    return not puzzle.cages or all(
        cage_rules.holds(cage.op, cage.target, [grid[r * n + c] for r, c in cage.cells]) for cage in puzzle.cages
    )


def givens_bytes(puzzle: GridPuzzle) -> bytes:
    """The puzzle's givens as bytes, one a cell (0: empty), for orders up to 255; kept for the next call."""
    return _givens(puzzle.givens)[1]


def _givens(givens: tuple[int, ...]) -> tuple[tuple[int, ...], bytes, int, int]:
    """(givens, their bytes, the mask of their nonzero bytes and the bytes as little-endian ints), the last kept.

    A solve() reads a puzzle's givens twice (the engine, then the checker): the second time costs nothing.
    """
    last = _LAST_GIVENS[0]
    if last[0] is not givens:
        data = bytes(givens)
        last = (givens, data, int.from_bytes(data.translate(_NONZERO), "little"), int.from_bytes(data, "little"))
        _LAST_GIVENS[0] = last
    return last


def grids_hold(puzzle: GridPuzzle, givens: Any, grids: Any) -> Any:
    """For rows of grids (one row-major grid each) and their givens: True where the grid meets every rule.

    The batch form of explain_violation's test, for puzzles of `puzzle`'s shape (its units and cages,
    each row's givens): False means "read it with explain_violation", which says what is wrong. Numpy
    over the whole block, the grids along the fast axis: values in 1..n and givens kept, then every
    unit by the OR of its cells' bits 1 << (v - 1): a unit of n cells holds n different values exactly
    when the OR has all n bits, a unit of k cells when it has k. Cages go through cages.holds.
    """
    import numpy as np

    grids = np.asarray(grids)
    n = puzzle.n
    if n > 64 or not len(grids) or puzzle.domains or grids.shape[1:] != (n * n,):  # hints: explain_violation
        return np.zeros(len(grids), bool)
    ok = ((grids >= 1) & (grids <= n) & ((givens == 0) | (givens == grids))).all(axis=1)
    bits, groups = _unit_groups(n, puzzle.units)
    by_cell = bits.take(grids.T, mode="clip")  # one row per cell (values outside 0..255 have no bit)
    for index, full in groups:
        ors = np.bitwise_or.reduce(by_cell[index.ravel()].reshape(*index.shape, len(grids)), axis=1)
        if full:
            ok &= (ors == full).all(axis=0)
        elif hasattr(np, "bitwise_count"):
            ok &= (np.bitwise_count(ors) == index.shape[1]).all(axis=0)
        else:  # numpy < 2.0: explain_violation reads them
            ok[:] = False
    for cage in puzzle.cages:
        cells = [r * n + c for r, c in cage.cells]
        for k in np.flatnonzero(ok):
            ok[k] = cage_rules.holds(cage.op, cage.target, grids[k, cells].tolist())
    return ok


@lru_cache(maxsize=32)
def _unit_groups(n: int, units: tuple[tuple[int, ...], ...]) -> tuple[Any, list[tuple[Any, int]]]:
    """grids_hold's arrays: each value's bit (0..255; in the smallest unsigned type of n bits), the units by length.

    Each group of units of one length is an index array, with the OR of a full unit's bits (0 if shorter).
    """
    import numpy as np

    dtype = next(t for t in (np.uint8, np.uint16, np.uint32, np.uint64) if np.iinfo(t).bits >= n)
    bits = np.zeros(256, dtype)
    bits[1 : n + 1] = [1 << v for v in range(n)]
    by_length: dict[int, list[tuple[int, ...]]] = {}
    for unit in units:
        by_length.setdefault(len(unit), []).append(unit)
    full = (1 << n) - 1
    return bits, [(np.array(same, np.intp), full if length == n else 0) for length, same in by_length.items()]


_VALUES = [bytes(range(1, k + 1)) for k in range(65)]
"""The bytes 1..k, deleted from a grid's bytes to find a value outside them."""
_NONZERO = bytes([0] + [255] * 255)
"""A translation table keeping the bytes of the givens (0 stays 0)."""
_LAST_GIVENS: list[tuple[tuple[int, ...], bytes, int, int]] = [((), b"", 0, 0)]
"""The last givens _givens read, compared by identity (the tuple is kept, so its id is not reused)."""
_LAST_UNITS: list[tuple] = [(None, None, None)]
"""The last (n, units, check) of _unit_check: a run of puzzles of one shape compares units, never hashes them."""


def _unit_check(n: int, units: tuple[tuple[int, ...], ...]) -> tuple | None:
    """_unit_check_of(n, units), the last one kept: found by identity or equality, without hashing the units."""
    last_n, last_units, check = _LAST_UNITS[0]
    if last_units is not units and (last_n != n or last_units != units):
        check = _unit_check_of(n, units)
        _LAST_UNITS[0] = (n, units, check)
    return check


@lru_cache(maxsize=32)
def _unit_check_of(n: int, units: tuple[tuple[int, ...], ...]) -> tuple | None:
    """The arrays of the numpy test for these units, built once per (n, units); None without numpy's bitwise_count.

    (numpy, bits, dense, expected, groups): when every unit is full and n <= 16, `dense` is the
    unit-by-cell incidence matrix and `expected` the bytes of its product with a solution's bits
    (float64: sums below 2**53 are exact); otherwise `bits` are uint64 and `groups` the units by
    length as index arrays, with the full units' sum (0 for partial units: their sums' bits are counted).
    """
    import numpy as np

    if not hasattr(np, "bitwise_count"):  # numpy < 2.0: the cell-by-cell reading decides
        return None
    full = (1 << n) - 1
    if n <= 16 and all(len(unit) == n for unit in units):
        bits = np.zeros(256)
        bits[1 : n + 1] = [float(1 << (v - 1)) for v in range(1, n + 1)]
        dense = np.zeros((len(units), n * n))
        for u, unit in enumerate(units):
            dense[u, list(unit)] = 1.0
        return np, bits, dense, np.full(len(units), float(full)).tobytes(), []
    bits = np.zeros(256, np.uint64)
    bits[1 : n + 1] = [1 << (v - 1) for v in range(1, n + 1)]
    by_length: dict[int, list[tuple[int, ...]]] = {}
    for unit in units:
        by_length.setdefault(len(unit), []).append(unit)
    groups = [(np.array(same, np.intp), full if length == n else 0) for length, same in by_length.items()]
    return np, bits, None, b"", groups
