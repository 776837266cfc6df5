"""Basic fish of size k: X-wing (2), swordfish (3), jellyfish (4), and larger up to n/2.

For a digit, k base rows whose places lie in k columns together: one of the base cells in each cover
column holds it, so it leaves the cover columns' other cells. The same with rows and columns swapped.
"""

from __future__ import annotations

from collections.abc import Iterator

from .state import State, bits, popcount
from .steps import Step, make_step, removals


def fish(state: State, k: int, key: str) -> Iterator[Step]:
    """Basic fish of size k, rows as base then columns as base, that remove something."""
    geo, n = state.geo, state.n
    if min(geo.rows) < 0 or min(geo.cols) < 0:
        return
    for d in range(1, n + 1):
        digit_mask = state.digit_cells(d)
        for base_lines, cover_lines, across in ((geo.rows, geo.cols, _col_of), (geo.cols, geo.rows, _row_of)):
            lines = []
            for u in base_lines:
                where = digit_mask & geo.unit_masks[u]
                positions = sum(1 << across(i, n) for i in bits(where))
                if 2 <= popcount(positions) <= k:
                    lines.append((u, positions))
            yield from _fish_sets(state, d, k, key, lines, cover_lines)


def _fish_sets(
    state: State, d: int, k: int, key: str, lines: list[tuple[int, int]], cover_lines: list[int]
) -> Iterator[Step]:
    """The fish of digit d among base `lines` ((unit, positions) pairs) covered by k of `cover_lines`."""
    geo = state.geo
    chosen: list[int] = []

    def walk(start: int, union: int) -> Iterator[Step]:
        if len(chosen) == k:
            if popcount(union) != k:
                return
            base = sum(geo.unit_masks[u] for u in chosen)
            covers = [cover_lines[p] for p in bits(union)]
            cover = sum(geo.unit_masks[u] for u in covers)
            gone = removals(state, cover & ~base, 1 << (d - 1))
            if gone:
                cells = list(bits(base & cover & state.digit_cells(d)))
                yield make_step(key, state, digits=[d], cells=cells, units=[*chosen, *covers], eliminations=gone)
            return
        for j in range(start, len(lines) - (k - len(chosen)) + 1):
            u, positions = lines[j]
            joined = union | positions
            if popcount(joined) <= k:
                chosen.append(u)
                yield from walk(j + 1, joined)
                chosen.pop()

    yield from walk(0, 0)


def fish_range(state: State, low: int, high: int, key: str) -> Iterator[Step]:
    """Basic fish of sizes low..high (up to n/2)."""
    for k in range(low, min(high, state.n // 2) + 1):
        yield from fish(state, k, key)


def _col_of(i: int, n: int) -> int:
    """The column of cell i."""
    return i % n


def _row_of(i: int, n: int) -> int:
    """The row of cell i."""
    return i // n
