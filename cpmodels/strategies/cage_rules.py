"""Cage deductions for Mathdoku (KenKen): layouts, positions, lines, innies and outies, one-cell cages.

A cage's *layouts* are the value tuples its rule allows (cpmodels.cages.allowed_tuples: no value repeated
in a row or column), kept only when every value is still a candidate of (or placed in) its cell. Simon
Tatham's Keen grades its cage reasoning in three levels, which these techniques follow:
  cage-layouts    (Keen Easy)   a digit that no consistent layout uses leaves every cell of the cage;
  cage-positions  (Keen Normal) a digit that no consistent layout puts in a cell leaves that cell;
  cage-lines      (Keen Hard)   a digit every consistent layout puts in the cage's part of one row (column)
                                leaves the rest of that row (column);
  innies-outies   a row or column sums to n(n+1)/2: the cells of it outside its whole `+` cages sum to
                  the rest (innies), and the cells of its `+` cages that stick out of it sum to the
                  excess (outies); candidates that no sum within the others' bounds reaches leave;
  cage-given      a one-cell cage is a given: its target goes there.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

from ..cages import allowed_tuples
from .state import CageSpec, State, bits
from .steps import Pair, Step, make_step


@lru_cache(maxsize=4096)
def _tuples(cells: tuple[int, ...], op: str | None, target: int, n: int) -> tuple[tuple[int, ...], ...]:
    """The value tuples a cage allows in an order-n grid (its cells row-major indices), computed once."""
    return tuple(allowed_tuples([divmod(i, n) for i in cells], op, target, n))


def layouts(state: State, cage: CageSpec) -> list[tuple[int, ...]]:
    """The cage's layouts still consistent with the state: each value a candidate of, or placed in, its cell."""
    cells = cage[0]
    allowed = tuple(state.cands[i] | (1 << (state.values[i] - 1) if state.values[i] else 0) for i in cells)
    return list(_consistent(cage, allowed, state.n))


@lru_cache(maxsize=65536)
def _consistent(cage: CageSpec, allowed: tuple[int, ...], n: int) -> tuple[tuple[int, ...], ...]:
    """The cage's tuples whose every value is allowed (a mask per cell), computed once per cage and masks."""
    cells, op, target = cage
    return tuple(t for t in _tuples(cells, op, target, n) if all(allowed[k] >> (v - 1) & 1 for k, v in enumerate(t)))


def _open_cages(state: State) -> Iterator[tuple[int, CageSpec, list[tuple[int, ...]]]]:
    """(index, cage, consistent layouts) for every cage with an open cell."""
    for k, cage in enumerate(state.cages):
        if any(not state.values[i] for i in cage[0]):
            yield k, cage, layouts(state, cage)


def _step(
    key: str, state: State, cage: CageSpec, gone: Sequence[Pair], digits: Sequence[int] = (), units: Sequence[int] = ()
) -> Step:
    """A cage step: the cage's cells as its pattern, its label (`cage 3: 7+`) as the variant."""
    cells, op, target = cage
    return make_step(
        key,
        state,
        digits=sorted(digits),
        cells=cells,
        units=list(units),
        eliminations=list(gone),
        variant=f"cage {target}{op or ''}",
    )


def cage_givens(state: State) -> Iterator[Step]:
    """A one-cell cage whose cell is open: its target is placed there."""
    for cells, _, target in state.cages:
        (i,) = cells if len(cells) == 1 else (-1,)
        if i >= 0 and not state.values[i] and state.cands[i] >> (target - 1) & 1:
            yield make_step("cage-given", state, digits=[target], cells=[i], placements=[(i, target)])


def cage_layouts(state: State) -> Iterator[Step]:
    """Keen Easy: digits that no consistent layout of a cage uses leave every open cell of the cage."""
    for _, cage, ways in _open_cages(state):
        used = 0
        for t in ways:
            for v in t:
                used |= 1 << (v - 1)
        gone = [(i, b + 1) for i in cage[0] for b in bits(state.cands[i] & ~used)]
        if gone:
            yield _step("cage-layouts", state, cage, gone, [b + 1 for b in bits(used)])


def cage_positions(state: State) -> Iterator[Step]:
    """Keen Normal: a digit that no consistent layout puts in a cell of the cage leaves that cell."""
    for _, cage, ways in _open_cages(state):
        gone = []
        for k, i in enumerate(cage[0]):
            here = 0
            for t in ways:
                here |= 1 << (t[k] - 1)
            gone += [(i, b + 1) for b in bits(state.cands[i] & ~here)]
        if gone:
            yield _step("cage-positions", state, cage, gone)


def cage_lines(state: State) -> Iterator[Step]:
    """Keen Hard: a digit that every consistent layout puts in the cage's part of a line leaves the line's rest."""
    geo = state.geo
    for _, cage, ways in _open_cages(state):
        cells = cage[0]
        if not ways or len(cells) == 1:  # a one-cell cage is a given (cage-given)
            continue
        for line in geo.rows + geo.cols:
            part = [k for k, i in enumerate(cells) if geo.unit_masks[line] >> i & 1]
            if not part or len(part) == len(cells) and len(cells) == state.n:
                continue
            inside = sum(1 << i for i in cells)
            for d in range(1, state.n + 1):
                if all(any(t[k] == d for k in part) for t in ways):
                    gone = [(j, d) for j in bits(state.where(line, d) & ~inside)]
                    if gone:
                        yield _step("cage-lines", state, cage, gone, [d], [line])


def innies_outies(state: State) -> Iterator[Step]:
    """Innies (a line's cells outside its whole `+` cages) and outies (its `+` cages' cells outside it) sum rules."""
    geo, n = state.geo, state.n
    line_sum = n * (n + 1) // 2
    for line in geo.rows + geo.cols:
        mask = geo.unit_masks[line]
        touching = [c for c in state.cages if any(mask >> i & 1 for i in c[0])]
        inner = [c for c in touching if all(mask >> i & 1 for i in c[0]) and c[1] == "+"]
        covered = sum(1 << i for c in inner for i in c[0])
        rest = [i for i in bits(mask & ~covered)]
        yield from _sum_rule(state, rest, line_sum - sum(c[2] for c in inner), line, "innies")
        if all(c[1] == "+" for c in touching) and len(touching) > len(inner):
            outside = [i for c in touching for i in c[0] if not mask >> i & 1]
            yield from _sum_rule(state, outside, sum(c[2] for c in touching) - line_sum, line, "outies")


def _sum_rule(state: State, cells: list[int], total: int, line: int, variant: str) -> Iterator[Step]:
    """Cells summing to `total`: a candidate leaves when the other cells' smallest and largest sums cannot fit it."""
    placed = sum(state.values[i] for i in cells)
    open_cells = [i for i in cells if not state.values[i]]
    if not open_cells or len(open_cells) == len(cells) == state.n:
        return
    need = total - placed
    low = {i: min(bits(state.cands[i]), default=0) + 1 for i in open_cells}
    high = {i: max(bits(state.cands[i]), default=0) + 1 for i in open_cells}
    low_all, high_all = sum(low.values()), sum(high.values())
    gone = []
    for i in open_cells:
        for b in bits(state.cands[i]):
            rest = need - (b + 1)
            if not low_all - low[i] <= rest <= high_all - high[i]:
                gone.append((i, b + 1))
    if gone:
        yield make_step(
            "innies-outies",
            state,
            cells=cells,
            units=[line],
            eliminations=gone,
            variant=f"{variant} sum to {total}",
        )
