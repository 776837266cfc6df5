"""Locked candidates: pointing (a box's digit held in one line) and claiming (a line's digit held in one box)."""

from __future__ import annotations

from collections.abc import Iterator

from .state import State
from .steps import Step, make_step, removals


def _confined(state: State, sources: list[int], targets: list[int], key: str) -> Iterator[Step]:
    """Digits whose places in a source unit all lie in one target unit: removed from the target's other cells."""
    geo = state.geo
    for u in sources:
        if u < 0:
            continue
        for d in range(1, state.n + 1):
            where = state.where(u, d)
            if not where or where & (where - 1) == 0:
                continue
            for t in targets:
                if t >= 0 and where & geo.unit_masks[t] == where:
                    gone = removals(state, geo.unit_masks[t] & ~where, 1 << (d - 1))
                    if gone:
                        cells = [i for i in geo.units[u] if where >> i & 1]
                        yield make_step(key, state, digits=[d], cells=cells, units=[u, t], eliminations=gone)


def pointing(state: State) -> Iterator[Step]:
    """A digit confined to one row or column inside a box leaves the rest of that line."""
    geo = state.geo
    yield from _confined(state, geo.boxes, geo.rows + geo.cols, "pointing")


def claiming(state: State) -> Iterator[Step]:
    """A digit confined to one box inside a row or column leaves the rest of that box."""
    geo = state.geo
    yield from _confined(state, geo.rows + geo.cols, geo.boxes, "claiming")
