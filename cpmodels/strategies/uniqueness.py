"""Uniqueness techniques: unique rectangles types 1-4, hidden rectangle, BUG+1 (only on a puzzle proved unique).

A unique rectangle: four open cells at the corners of a rectangle, in two rows, two columns and two boxes,
all holding digits a and b. If the four held only a and b, a and b could be swapped between them: two
solutions. So in a puzzle with one solution the corners' other candidates cannot all be false:
  type 1  one corner has extra digits: it loses a and b;
  type 2  two corners (the roof, seeing each other) have the same one extra digit x: x is in the roof, so
          the cells that see both roof cells lose it;
  type 3  the roof's extra digits act as one cell: with m other cells of a unit the roof shares, holding
          m+1 digits in all, they form a naked subset that clears the rest of the unit;
  type 4  in a unit the roof shares, a lies only on the roof: one roof cell is a, so neither can be b;
  hidden  a corner X holds only a and b; at the opposite corner Z, a lies in Z's row and in Z's column
          only on the rectangle: Z = b would force the deadly pattern, so Z loses b.
BUG+1: every open cell has two candidates but one, which has three; every digit appears twice in every
unit but one digit of that cell, three times in each of its units. Without it the grid would be a
bivalue universal grave (no solution or several), so the cell is that digit: it loses its other two
(HoDoKu's form of the step; the naked single follows).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from .state import State, bits, popcount
from .steps import Step, make_step, removals

Rect = tuple[int, int, tuple[int, int, int, int]]


def rectangles(state: State) -> Iterator[Rect]:
    """(a, b, corners) for every rectangle of open cells in two boxes holding digits a and b (corners i, j, k, l)."""
    geo, n = state.geo, state.n
    if not geo.has_boxes:
        return
    for a in range(1, n + 1):
        for b in range(a + 1, n + 1):
            both = state.dcells[a] & state.dcells[b]
            cells = list(bits(both))
            for x, i in enumerate(cells):
                for j in cells[x + 1 :]:
                    if j // n != i // n:
                        break
                    for r2 in range(i // n + 1, n):
                        k, m = r2 * n + i % n, r2 * n + j % n
                        if both >> k & 1 and both >> m & 1:
                            if len({geo.box_of[c] for c in (i, j, k, m)}) == 2:
                                yield a, b, (i, j, k, m)


def _extras(state: State, a: int, b: int, corners: tuple[int, ...]) -> list[int]:
    """Each corner's candidates beyond a and b, as masks."""
    ab = 1 << (a - 1) | 1 << (b - 1)
    return [state.cands[c] & ~ab for c in corners]


def _roof(corners: tuple[int, ...], extras: list[int]) -> tuple[int, int] | None:
    """The two corners with extra digits when exactly two have them, else None."""
    roof = [c for c, e in zip(corners, extras, strict=True) if e]
    return (roof[0], roof[1]) if len(roof) == 2 else None


def _roofed(state: State) -> Iterator[tuple[int, int, tuple[int, ...], list[int], int, int]]:
    """The rectangles with exactly two corners holding extra digits: (a, b, corners, extras, roof p, roof q)."""
    for a, b, corners in rectangles(state):
        extras = _extras(state, a, b, corners)
        roof = _roof(corners, extras)
        if roof is not None:
            yield a, b, corners, extras, roof[0], roof[1]


def _shared_units(state: State, p: int, q: int) -> list[int]:
    """The units that hold both cells."""
    return [u for u in state.geo.cell_units[p] if state.geo.unit_masks[u] >> q & 1]


def _step(key: str, state: State, a: int, b: int, corners: tuple[int, ...], **kw) -> Step:
    """A uniqueness step on the rectangle (digits a, b first)."""
    digits = kw.pop("digits", [a, b])
    return make_step(key, state, digits=digits, cells=list(corners), **kw)


def ur_type1(state: State) -> Iterator[Step]:
    """Three corners hold only a and b: the fourth loses a and b."""
    for a, b, corners in rectangles(state):
        extras = _extras(state, a, b, corners)
        if sum(1 for e in extras if e) == 1:
            corner = corners[next(k for k, e in enumerate(extras) if e)]
            gone = removals(state, 1 << corner, 1 << (a - 1) | 1 << (b - 1))
            yield _step("unique-rectangle-1", state, a, b, corners, eliminations=gone)


def ur_type2(state: State) -> Iterator[Step]:
    """Two corners seeing each other with the same one extra digit x: the cells seeing both lose x."""
    geo = state.geo
    for a, b, corners, extras, p, q in _roofed(state):
        x = state.cands[p] & state.cands[q] & ~(1 << (a - 1) | 1 << (b - 1))
        if popcount(x) != 1 or extras[corners.index(p)] != x or extras[corners.index(q)] != x:
            continue
        if not geo.peers[p] >> q & 1:
            continue
        gone = removals(state, geo.peers[p] & geo.peers[q], x)
        if gone:
            yield _step("unique-rectangle-2", state, a, b, corners, digits=[a, b, x.bit_length()], eliminations=gone)


def ur_type3(state: State) -> Iterator[Step]:
    """The roof's extra digits and m cells of a unit it shares hold m+1 digits: the rest of the unit loses them.

    When the roof shares a line and a box, subsets of the same digits in both units also make one step.
    """
    for a, b, corners, extras, p, q in _roofed(state):
        virtual = extras[corners.index(p)] | extras[corners.index(q)]
        found: dict[int, list[tuple[int, list[tuple[int, int]]]]] = {}
        for u in _shared_units(state, p, q):
            for union, gone in _virtual_subsets(state, u, (p, q), virtual):
                found.setdefault(union, []).append((u, gone))
                yield _type3_step(state, a, b, corners, union, [u], gone)
        for union, hits in found.items():
            for (u1, gone1), (u2, gone2) in combinations(hits, 2):
                if u1 != u2:
                    yield _type3_step(state, a, b, corners, union, [u1, u2], sorted(set(gone1) | set(gone2)))


def _virtual_subsets(
    state: State, u: int, roof: tuple[int, int], virtual: int
) -> Iterator[tuple[int, list[tuple[int, int]]]]:
    """(digits, removals) of each naked subset of unit u made of the roof's extras (one cell) and m other cells."""
    others = [i for i in state.geo.units[u] if state.cands[i] and i not in roof]
    for m in range(1, len(others)):
        for subset in combinations(others, m):
            union = virtual
            for i in subset:
                union |= state.cands[i]
            if popcount(union) == m + 1:
                gone = removals(state, sum(1 << i for i in others if i not in subset), union)
                if gone:
                    yield union, gone


def _type3_step(
    state: State, a: int, b: int, corners: tuple[int, ...], union: int, units: list[int], gone: list
) -> Step:
    """A type 3 step: the rectangle, the subset's digits, its units and removals."""
    digits = [a, b, *(d + 1 for d in bits(union))]
    return _step("unique-rectangle-3", state, a, b, corners, digits=digits, units=units, eliminations=gone)


def ur_type4(state: State) -> Iterator[Step]:
    """In a unit the roof shares, a lies only on the roof: both roof cells lose b."""
    for a, b, corners, _, p, q in _roofed(state):
        for u in _shared_units(state, p, q):
            for x, y in ((a, b), (b, a)):
                if state.where(u, x) == 1 << p | 1 << q:
                    gone = removals(state, 1 << p | 1 << q, 1 << (y - 1))
                    if gone:
                        yield _step("unique-rectangle-4", state, x, y, corners, units=[u], eliminations=gone)


def hidden_rectangles(state: State) -> Iterator[Step]:
    """Corner {a,b}; a only on the rectangle in both lines through the opposite corner: that corner loses b."""
    geo, n = state.geo, state.n
    for a, b, corners in rectangles(state):
        i, j, k, m = corners
        for x, z, y1, y2 in ((i, m, k, j), (j, k, m, i), (k, j, i, m), (m, i, j, k)):
            if popcount(state.cands[x]) != 2:
                continue
            row, col = geo.rows[z // n], geo.cols[z % n]
            for da, db in ((a, b), (b, a)):
                if state.where(row, da) == 1 << z | 1 << y1 and state.where(col, da) == 1 << z | 1 << y2:
                    gone = removals(state, 1 << z, 1 << (db - 1))
                    if gone:
                        yield _step("hidden-rectangle", state, da, db, corners, units=[row, col], eliminations=gone)


def bug_plus_1(state: State) -> Iterator[Step]:
    """Every open cell bivalue but one with three candidates: the digit there three times in each unit is placed."""
    open_cells = [i for i, m in enumerate(state.cands) if m]
    triples = [i for i in open_cells if popcount(state.cands[i]) == 3]
    if len(triples) != 1 or any(popcount(state.cands[i]) != 2 for i in open_cells if i != triples[0]):
        return
    cell = triples[0]
    for d in (b + 1 for b in bits(state.cands[cell])):
        if _bug_counts_hold(state, cell, d):
            others = removals(state, 1 << cell, state.cands[cell] & ~(1 << (d - 1)))
            yield make_step("bug-plus-1", state, digits=[d], cells=[cell], eliminations=others)
            return


def _bug_counts_hold(state: State, cell: int, x: int) -> bool:
    """Whether every digit has 0 or 2 places in every unit, except x in the cell's units, which has 3."""
    geo = state.geo
    for u in range(len(geo.units)):
        for d in range(1, state.n + 1):
            count = popcount(state.where(u, d))
            wanted = 3 if d == x and geo.unit_masks[u] >> cell & 1 else None
            if (wanted is None and count not in (0, 2)) or (wanted is not None and count != wanted):
                return False
    return True
