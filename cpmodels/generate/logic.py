"""Solving by singles alone, search-free, for `--method logic:singles`: the way to 36x36..64x64 puzzles.

A puzzle is solved by singles when repeating the two simplest deductions fills every cell: a naked
single (a cell with one candidate left) and a hidden single (a value with one cell left in a unit). The
cells those deductions reach from a set of givens (their closure) grow with the givens, so a puzzle with
a clue removed is still solved by singles exactly when the closure of the rest reaches that clue again.

The check runs as one numba function over many rows of givens (compiled on first use and cached like
numba's other kernels), with per-(unit, value) counts of the cells left, kept as candidates go, so a
hidden single is found when its count falls to 1, without scanning units. A row solved by singles has
one solution, which must be the grid its givens came from: it is compared (RuntimeError otherwise).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from ..grid import GridPuzzle

LEVELS = ("singles",)
"""The propagation levels `logic:LEVEL` takes."""


@lru_cache(maxsize=1)
def _kernel() -> Any:
    """The numba-compiled singles closure over rows of givens (compiled on first use, cached on disk)."""
    from numba import njit

    @njit(cache=True, nogil=True)
    def closure(givens, n, cell_units, units, peers, out, marks):  # pragma: no cover - runs compiled
        rows, ncells = givens.shape
        nunits = units.shape[0]
        full = np.uint64((1 << n) - 1) if n < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
        cand = np.empty(ncells, np.uint64)
        value = np.empty(ncells, np.int64)
        count = np.empty((nunits, n + 1), np.int64)
        placed = np.empty((nunits, n + 1), np.uint8)
        stack_cell = np.empty(2 * ncells + nunits * (n + 1), np.int64)
        stack_value = np.empty(2 * ncells + nunits * (n + 1), np.int64)
        one = np.uint64(1)
        for r in range(rows):
            cand[:] = full
            value[:] = 0
            count[:, :] = n
            placed[:, :] = 0
            top = 0
            for i in range(ncells):
                if givens[r, i]:
                    stack_cell[top] = i
                    stack_value[top] = givens[r, i]
                    top += 1
            filled = 0
            ok = True
            while top > 0 and ok:
                top -= 1
                i = stack_cell[top]
                v = stack_value[top]
                if v < 0:  # a hidden single: unit -v-1... encoded as (unit, value) in (cell, -value-1)
                    u = i
                    w = -v - 1
                    if placed[u, w]:
                        continue
                    i = -1
                    for k in range(n):
                        c = units[u, k]
                        if cand[c] & (one << np.uint64(w - 1)):
                            i = c
                            break
                    if i < 0:
                        ok = False
                        break
                    v = w
                elif v == 0:  # a naked single: its one candidate
                    if value[i]:
                        continue
                    m = cand[i]
                    v = 1
                    while not (m & one):
                        m >>= one
                        v += 1
                if value[i] == v:
                    continue
                bit = one << np.uint64(v - 1)
                if value[i] or not (cand[i] & bit):
                    ok = False
                    break
                value[i] = v
                filled += 1
                for k in range(cell_units.shape[1]):
                    u = cell_units[i, k]
                    if placed[u, v]:
                        ok = False
                    placed[u, v] = 1
                # every other value of cell i goes, then v from every peer
                for w in range(1, n + 1):
                    if w == v or not (cand[i] & (one << np.uint64(w - 1))):
                        continue
                    cand[i] &= ~(one << np.uint64(w - 1))
                    for k in range(cell_units.shape[1]):
                        u = cell_units[i, k]
                        count[u, w] -= 1
                        if count[u, w] == 1 and not placed[u, w]:
                            stack_cell[top] = u
                            stack_value[top] = -w - 1
                            top += 1
                        elif count[u, w] == 0 and not placed[u, w]:
                            ok = False
                for k in range(peers.shape[1]):
                    j = peers[i, k]
                    if not (cand[j] & bit):
                        continue
                    if value[j]:
                        ok = False
                        continue
                    cand[j] &= ~bit
                    for kk in range(cell_units.shape[1]):
                        u = cell_units[j, kk]
                        count[u, v] -= 1
                        if count[u, v] == 1 and not placed[u, v]:
                            stack_cell[top] = u
                            stack_value[top] = -v - 1
                            top += 1
                    m = cand[j]
                    if m == 0:
                        ok = False
                    elif not (m & (m - one)):
                        stack_cell[top] = j
                        stack_value[top] = 0
                        top += 1
            if ok and filled == ncells:
                out[r, :] = value
            else:
                out[r, :] = 0
            if marks.shape[0] > r and ok:
                marks[r, :] = cand
            elif marks.shape[0] > r:
                marks[r, :] = 0

    return closure


@lru_cache(maxsize=16)
def _shape(template: GridPuzzle) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The template's units of a cell, cells of a unit and peers of a cell, as rectangular int64 arrays."""
    n = template.n
    ncells = n * n
    of: list[list[int]] = [[] for _ in range(ncells)]
    for u, unit in enumerate(template.units):
        for i in unit:
            of[i].append(u)
    peers = [sorted({j for u in of[i] for j in template.units[u]} - {i}) for i in range(ncells)]
    if len({len(x) for x in of}) != 1 or len({len(p) for p in peers}) != 1 or {len(u) for u in template.units} != {n}:
        raise ValueError("solving by singles takes puzzles whose cells lie in as many full units each (Sudoku)")
    return (np.array(of, np.int64), np.array(template.units, np.int64), np.array(peers, np.int64))


def singles_rows(template: GridPuzzle, solutions: Sequence[bytes], rows: Sequence[bytes]) -> list[bool]:
    """Whether each row of givens (bytes, 0 empty), with the units of `template`, is solved by singles alone.

    Each row is a subset of its solution (solutions[k]): a row solved must give that grid (RuntimeError otherwise).
    """
    if not rows:
        return []
    cell_units, units, peers = _shape(template)
    ncells = len(rows[0])
    givens = np.frombuffer(b"".join(rows), np.uint8).reshape(-1, ncells)
    out = np.zeros(givens.shape, np.int64)
    _kernel()(givens, template.n, cell_units, units, peers, out, np.zeros((0, ncells), np.uint64))
    solved = np.asarray(out.all(axis=1), bool)
    expected = np.frombuffer(b"".join(solutions), np.uint8).reshape(-1, ncells)
    if bool((solved & (out != expected).any(axis=1)).any()):
        raise RuntimeError("solving by singles gave a grid other than the one the givens came from")
    return [bool(x) for x in solved.tolist()]


def singles_marks(template: GridPuzzle, givens: bytes) -> list[int]:
    """Every cell's candidates (bit v-1 for value v) once singles are applied to `givens`; 0s on a contradiction."""
    cell_units, units, peers = _shape(template)
    row = np.frombuffer(givens, np.uint8).reshape(1, -1)
    out = np.zeros(row.shape, np.int64)
    marks = np.zeros(row.shape, np.uint64)
    _kernel()(row, template.n, cell_units, units, peers, out, marks)
    return [int(m) for m in marks[0].tolist()]
