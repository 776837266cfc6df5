"""Level 0: full house, hidden single (box and line told apart) and naked single."""

from __future__ import annotations

from collections.abc import Iterator

from .state import State
from .steps import Step, make_step


def full_houses(state: State) -> Iterator[Step]:
    """A unit with one open cell: the digit it lacks goes there."""
    geo, full = state.geo, (1 << state.n) - 1
    for u in geo.full_units:
        open_cells = state.vcells[0] & geo.unit_masks[u]
        if not open_cells or open_cells & (open_cells - 1):
            continue
        i = open_cells.bit_length() - 1
        missing = full & ~state.placed_in(u)
        if missing & state.cands[i] and missing & (missing - 1) == 0:
            d = missing.bit_length()
            yield make_step("full-house", state, digits=[d], cells=[i], units=[u], placements=[(i, d)])


def hidden_singles(state: State) -> Iterator[Step]:
    """A digit with one place left in a unit: boxes first, then rows, columns and other units."""
    geo, dcells = state.geo, state.dcells
    for u in geo.single_order:
        mask = geo.unit_masks[u]
        for d in range(1, state.n + 1):
            where = dcells[d] & mask
            if where and where & (where - 1) == 0:
                i = where.bit_length() - 1
                variant = {"col": "column"}.get(geo.kinds[u], geo.kinds[u])
                yield make_step(
                    "hidden-single", state, digits=[d], cells=[i], units=[u], placements=[(i, d)], variant=variant
                )


def naked_singles(state: State) -> Iterator[Step]:
    """An open cell with one candidate left."""
    for i, m in enumerate(state.cands):
        if m and m & (m - 1) == 0:
            d = m.bit_length()
            yield make_step("naked-single", state, digits=[d], cells=[i], placements=[(i, d)])
