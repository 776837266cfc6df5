"""The candidate state: one bitmask of candidates per cell over a geometry of units, immutable.

A digit d (1..n) is the bit 1 << (d - 1) of a cell's mask; a placed cell has the mask 0 and its value in
`values`. Sets of cells are Python ints too (bit i = cell i), so "the cells that see both" is one `&`.
Orders up to 64 fit a 64-bit word (the numba kernels to come); Python ints have no limit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

from ..errors import PuzzleError
from ..grid import GridPuzzle, cell_name, latin_units
from ..sudoku import default_box, sudoku_units

CageSpec = tuple[tuple[int, ...], str | None, int]
"""A cage in a state: its cells (row-major indices), operator (None when hidden) and target."""


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def digits_of(mask: int) -> list[int]:
    """The digits (1-based) of a candidate mask."""
    return [b + 1 for b in bits(mask)]


def popcount(mask: int) -> int:
    """The number of set bits of `mask`."""
    return mask.bit_count()


class Geometry:
    """The units of an n x n grid, each a row, column, box or other unit, with per-cell tables."""

    def __init__(self, n: int, units: tuple[tuple[int, ...], ...]) -> None:
        self.n = n
        self.units = units
        self.kinds: list[str] = []
        self.numbers: list[int] = []
        self.rows: list[int] = [-1] * n
        self.cols: list[int] = [-1] * n
        self.boxes: list[int] = []
        self.box: tuple[int, int] | None = None
        for u, unit in enumerate(units):
            self._classify(u, unit)
        self.unit_masks = [sum(1 << i for i in unit) for unit in units]
        cell_units: list[list[int]] = [[] for _ in range(n * n)]
        for u, unit in enumerate(units):
            for i in unit:
                cell_units[i].append(u)
        self.cell_units = [tuple(us) for us in cell_units]
        self.box_of = [next((u for u in us if self.kinds[u] == "box"), -1) for us in self.cell_units]
        self.peers = [_union(self.unit_masks[u] for u in us) & ~(1 << i) for i, us in enumerate(self.cell_units)]
        self.has_boxes = bool(self.boxes)
        self.all_cells = (1 << (n * n)) - 1
        rank = {"box": 0, "row": 1, "col": 2, "unit": 3}
        self.single_order = sorted(
            (u for u in range(len(units)) if len(units[u]) == n), key=lambda u: rank[self.kinds[u]]
        )
        self.full_units = [u for u in range(len(units)) if len(units[u]) == n]

    def _classify(self, u: int, unit: Sequence[int]) -> None:
        """Record unit u as a row, column, box (r x c with r, c >= 2) or other unit, numbered 1-based."""
        n = self.n
        rows = {i // n for i in unit}
        cols = {i % n for i in unit}
        if len(rows) == 1 and len(unit) == n and self.rows[next(iter(rows))] < 0:
            kind, number = "row", rows.pop() + 1
            self.rows[number - 1] = u
        elif len(cols) == 1 and len(unit) == n and self.cols[next(iter(cols))] < 0:
            kind, number = "col", cols.pop() + 1
            self.cols[number - 1] = u
        elif len(rows) * len(cols) == len(unit) == n and len(rows) > 1 and len(cols) > 1:
            kind = "box"
            self.boxes.append(u)
            number = len(self.boxes)
            self.box = (len(rows), len(cols))
        else:
            kind, number = "unit", u + 1
        self.kinds.append(kind)
        self.numbers.append(number)

    def label(self, u: int) -> str:
        """The short name of unit u: `r4`, `c6`, `b8`, or `u20` for another unit."""
        return {"row": "r", "col": "c", "box": "b"}.get(self.kinds[u], "u") + str(self.numbers[u])

    def is_latin(self) -> bool:
        """Whether the units are exactly the rows and columns."""
        return not self.boxes and all(k in ("row", "col") for k in self.kinds)


def _union(masks: Iterator[int]) -> int:
    """The bitwise or of `masks`."""
    out = 0
    for m in masks:
        out |= m
    return out


@lru_cache(maxsize=32)
def geometry(n: int, units: tuple[tuple[int, ...], ...]) -> Geometry:
    """The geometry of these units, built once per (n, units)."""
    return Geometry(n, units)


class State:
    """Pencil marks: candidates per cell (0 once placed) and placed values (0 = open), over a geometry."""

    __slots__ = ("geo", "cands", "values", "dcells", "vcells", "unique", "cages")

    def __init__(
        self,
        geo: Geometry,
        cands: Sequence[int],
        values: Sequence[int],
        unique: bool = False,
        cages: tuple[CageSpec, ...] = (),
    ) -> None:
        self.geo = geo
        self.cages = cages
        """The cages (Mathdoku): (cells as row-major indices, operator or None when hidden, target) each."""
        self.cands = tuple(cands)
        self.values = tuple(values)
        self.unique = unique
        """Whether the puzzle is known to have exactly one solution (the uniqueness techniques need it)."""
        self.dcells = [0] * (geo.n + 1)
        """dcells[d]: the cells (a mask) that hold digit d as a candidate."""
        self.vcells = [0] * (geo.n + 1)
        """vcells[d]: the cells (a mask) where digit d is placed (vcells[0]: the open cells)."""
        for i, m in enumerate(self.cands):
            self.vcells[self.values[i]] |= 1 << i
            while m:
                low = m & -m
                self.dcells[low.bit_length()] |= 1 << i
                m ^= low

    @property
    def n(self) -> int:
        """The order of the grid."""
        return self.geo.n

    @classmethod
    def from_puzzle(cls, puzzle: GridPuzzle) -> State:
        """The state of a puzzle: each cell's hinted digits (all without hints) candidates, then cleanup.

        Cleanup removes each given from its units; a cell's candidate hints (GridPuzzle.domains) are its
        candidates from the start, so they are constraints here as they are to every backend.
        """
        geo = geometry(puzzle.n, puzzle.units)
        full = (1 << puzzle.n) - 1
        allowed = puzzle.domains or (full,) * len(puzzle.givens)
        cands = [0 if v else mask for v, mask in zip(puzzle.givens, allowed, strict=True)]
        values = list(puzzle.givens)
        _cleanup(geo, cands, values)
        n = puzzle.n
        cages = tuple((tuple(r * n + c for r, c in cage.cells), cage.op, cage.target) for cage in puzzle.cages)
        return cls(geo, cands, values, cages=cages)

    @classmethod
    def from_pencilmarks(cls, text: str, box: tuple[int, int] | None = None, latin: bool = False) -> State:
        """Pencil marks: 729 characters for 9x9 (`.` or `0` absent), or `{...}` groups, a bare symbol a placed cell."""
        cells = _read_marks(text)
        n = round(len(cells) ** 0.5)
        if n * n != len(cells) or n < 1 or n > 64:
            raise PuzzleError(f"{len(cells)} cells of pencil marks do not make a square grid of order up to 64")
        units = latin_units(n) if latin else sudoku_units(n, box or default_box(n))
        geo = geometry(n, units)
        cands, values = [0] * (n * n), [0] * (n * n)
        for i, (placed, digits) in enumerate(cells):
            if any(not 1 <= d <= n for d in digits):
                raise PuzzleError(f"{cell_name(*divmod(i, n))}: a candidate outside 1..{n}")
            if not digits:
                raise PuzzleError(f"{cell_name(*divmod(i, n))} has no candidate")
            if placed:
                values[i] = digits[0]
            else:
                cands[i] = sum(1 << (d - 1) for d in digits)
        _check_placed(geo, cands, values)
        return cls(geo, cands, values)

    def digit_cells(self, d: int) -> int:
        """The cells (as a mask) that hold digit d as a candidate."""
        return self.dcells[d]

    def where(self, u: int, d: int) -> int:
        """The cells of unit u (as a mask) that hold digit d as a candidate."""
        return self.dcells[d] & self.geo.unit_masks[u]

    def placed_in(self, u: int) -> int:
        """The digits placed in unit u, as a mask."""
        mask = self.geo.unit_masks[u]
        return sum(1 << (d - 1) for d in range(1, self.n + 1) if self.vcells[d] & mask)

    def open_cells(self) -> list[int]:
        """The cells not yet placed."""
        return [i for i, v in enumerate(self.values) if not v]

    def solved(self) -> bool:
        """Whether every cell is placed."""
        return all(self.values)

    def broken(self) -> str | None:
        """Why the state has no completion (an open cell without candidates, a digit with no place), or None."""
        covered = 0
        for m in self.dcells:
            covered |= m
        empty = self.vcells[0] & ~covered
        if empty:
            return f"{cell_name(*divmod(next(bits(empty)), self.n))} has no candidate"
        masks = self.geo.unit_masks
        for d in range(1, self.n + 1):
            have = self.dcells[d] | self.vcells[d]
            for u in self.geo.full_units:
                if not have & masks[u]:
                    return f"{d} has no place in {self.geo.label(u)}"
        return None

    def apply(self, placements: Sequence[tuple[int, int]], eliminations: Sequence[tuple[int, int]]) -> State:
        """The next state: eliminations removed, then each placement made and removed from its units."""
        cands, values = list(self.cands), list(self.values)
        for i, d in eliminations:
            cands[i] &= ~(1 << (d - 1))
        for i, d in placements:
            values[i] = d
            cands[i] = 0
            bit = ~(1 << (d - 1))
            for j in bits(self.geo.peers[i]):
                cands[j] &= bit
        return State(self.geo, cands, values, self.unique, self.cages)

    def proved_unique(self, unique: bool = True) -> State:
        """The same candidates, marked as proved to have one solution (or not): uniqueness techniques need it."""
        return State(self.geo, self.cands, self.values, unique, self.cages)

    def line(self) -> str:
        """The placed values as one n*n-character line, `0` for an open cell (Zambon's display_string)."""
        return "".join(_symbol(v, self.n) for v in self.values)

    def pencilmarks(self) -> str:
        """The state as `{...}` groups, a placed cell as its bare symbol (read back by from_pencilmarks)."""
        out = []
        for i, v in enumerate(self.values):
            out.append(_symbol(v, self.n) if v else "{" + _digits_text(digits_of(self.cands[i]), self.n) + "}")
        return "".join(out)

    def to_json(self) -> dict[str, Any]:
        """The state as a JSON-ready dict: order, units (as shape or cell lists), values and candidate masks."""
        geo = self.geo
        if geo.box and geo.units == sudoku_units(geo.n, geo.box):
            shape: Any = f"{geo.box[0]}x{geo.box[1]}"
        elif geo.units == latin_units(geo.n):
            shape = "latin"
        else:
            shape = [list(u) for u in geo.units]
        return {
            "n": geo.n,
            "shape": shape,
            "values": list(self.values),
            "candidates": list(self.cands),
            "unique": self.unique,
            "cages": [[list(cells), op, target] for cells, op, target in self.cages],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        """The state of a to_json dict."""
        n, shape = data["n"], data["shape"]
        if shape == "latin":
            units = latin_units(n)
        elif isinstance(shape, str):
            r, c = (int(x) for x in shape.split("x"))
            units = sudoku_units(n, (r, c))
        else:
            units = tuple(tuple(u) for u in shape)
        cages = tuple((tuple(cells), op, target) for cells, op, target in data.get("cages", []))
        return cls(geometry(n, units), data["candidates"], data["values"], data.get("unique", False), cages)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and self.geo.units == other.geo.units
            and self.cands == other.cands
            and self.values == other.values
        )

    def __hash__(self) -> int:
        return hash((self.cands, self.values))

    def __repr__(self) -> str:
        return f"State(n={self.n}, open={self.values.count(0)})"


def _cleanup(geo: Geometry, cands: list[int], values: Sequence[int]) -> None:
    """Remove every placed digit from the candidates of its peers (Zambon's cleanup)."""
    for i, v in enumerate(values):
        if v:
            bit = ~(1 << (v - 1))
            for j in bits(geo.peers[i]):
                cands[j] &= bit


def _check_placed(geo: Geometry, cands: Sequence[int], values: Sequence[int]) -> None:
    """Raise PuzzleError for two equal placed digits in a unit or a placed digit still a peer's candidate."""
    for i, v in enumerate(values):
        if not v:
            continue
        for j in bits(geo.peers[i]):
            if values[j] == v and j < i:
                raise PuzzleError(f"{cell_name(*divmod(j, geo.n))} and {cell_name(*divmod(i, geo.n))} are both {v}")
            if cands[j] >> (v - 1) & 1:
                raise PuzzleError(
                    f"{cell_name(*divmod(i, geo.n))} is {v}, but {v} is still a candidate of "
                    f"{cell_name(*divmod(j, geo.n))}"
                )


SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_GROUP = re.compile(r"\{([^{}]*)\}|([0-9A-Za-z.])")


def _symbol(v: int, n: int) -> str:
    """One character for a value (`0` when open) in orders up to 35; the number in braces beyond."""
    if not v:
        return "0"
    return SYMBOLS[v - 1] if n <= len(SYMBOLS) else "{" + str(v) + "}"


def _digits_text(digits: Sequence[int], n: int) -> str:
    """Digits as symbols run together (orders up to 35), or as numbers joined by commas."""
    return "".join(SYMBOLS[d - 1] for d in digits) if n <= len(SYMBOLS) else ",".join(map(str, digits))


def _read_marks(text: str) -> list[tuple[bool, list[int]]]:
    """(placed, digits) per cell of pencil-mark text: 729 characters, or `{...}` groups and bare symbols."""
    compact = re.sub(r"[\s|+\-=]", "", text)
    if "{" not in compact and len(compact) == 729:
        return [(False, [k + 1 for k, ch in enumerate(compact[i : i + 9]) if ch not in ".0"]) for i in range(0, 729, 9)]
    cells: list[tuple[bool, list[int]]] = []
    pos = 0
    for m in _GROUP.finditer(compact):
        if m.start() != pos:
            raise PuzzleError(f"pencil marks: unexpected {compact[pos : m.start()]!r} at character {pos + 1}")
        pos = m.end()
        if m[1] is not None:
            cells.append((False, _group_digits(m[1])))
        elif m[2] in ".0":
            raise PuzzleError(
                f"pencil marks: cell {len(cells) + 1} is empty ({m[2]!r}): write its candidates in braces"
            )
        else:
            cells.append((True, [SYMBOLS.index(m[2].upper()) + 1]))
    if pos != len(compact):
        raise PuzzleError(f"pencil marks: unexpected {compact[pos:]!r} at character {pos + 1}")
    return cells


def _group_digits(text: str) -> list[int]:
    """The digits of one `{...}` group: numbers separated by commas, or symbols run together."""
    if "," in text:
        return sorted({int(t) for t in text.split(",") if t.strip()})
    return sorted({SYMBOLS.index(ch.upper()) + 1 for ch in text if ch.upper() in SYMBOLS})
