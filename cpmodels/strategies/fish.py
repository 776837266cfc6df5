"""Basic fish of size k: X-wing (2), swordfish (3), jellyfish (4), and larger up to n/2; finned and sashimi fish.

For a digit, k base rows whose places lie in k columns together: one of the base cells in each cover
column holds it, so it leaves the cover columns' other cells. The same with rows and columns swapped.
A finned fish has extra base cells (fins) outside the cover columns, all in one box: either a fin holds
the digit or the fish is there, so only cover cells that see every fin lose it. It is sashimi when some
base line keeps at most one cell inside the covers (without the fins it would not be a fish at all).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

from .notation import cells_text
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


def finned(state: State, k: int, key: str, sashimi: bool) -> Iterator[Step]:
    """Finned (or sashimi) fish of size k, rows as base then columns as base, that remove something."""
    for is_sashimi, d, base, covers, fins, body, gone in _finned_fish(state, k):
        if is_sashimi == sashimi:
            yield make_step(
                key,
                state,
                digits=[d],
                cells=list(bits(body)),
                units=[*base, *covers],
                eliminations=gone,
                variant=f"fins {cells_text(bits(fins), state.n)}",
            )


FinnedFish = tuple[bool, int, list[int], list[int], int, int, list[tuple[int, int]]]


@lru_cache(maxsize=16)
def _finned_fish(state: State, k: int) -> list[FinnedFish]:
    """(sashimi?, digit, base, covers, fins, base cells, removals) of every finned fish of size k."""
    geo, n = state.geo, state.n
    if not geo.box or min(geo.rows) < 0 or min(geo.cols) < 0:
        return []
    out = []
    for d in range(1, n + 1):
        digit_mask = state.digit_cells(d)
        for base_lines, cover_lines, across, width in (
            (geo.rows, geo.cols, _col_of, geo.box[1]),
            (geo.cols, geo.rows, _row_of, geo.box[0]),
        ):
            lines = []
            for u in base_lines:
                positions = sum(1 << across(i, n) for i in bits(digit_mask & geo.unit_masks[u]))
                if 1 <= popcount(positions) <= k + width:
                    lines.append((u, positions))
            for chosen, union in _line_sets(lines, k, k + width):
                for covers in _cover_sets(union, k, width, n):
                    fish = _finned_at(state, d, chosen, [cover_lines[p] for p in covers])
                    if fish is not None:
                        out.append(fish)
    return out


def _cover_sets(union: int, k: int, width: int, n: int) -> Iterator[tuple[int, ...]]:
    """Cover sets of k positions of `union`; the positions left out (the fins) lie in one stack of `width`."""
    for start in range(0, n, width):
        stack = ((1 << width) - 1) << start
        outside, inside = union & ~stack, union & stack
        need = k - popcount(outside)
        if 0 <= need < popcount(inside):
            for extra in combinations(list(bits(inside)), need):
                yield tuple(sorted([*bits(outside), *extra]))


def _line_sets(lines: list[tuple[int, int]], k: int, limit: int) -> Iterator[tuple[list[int], int]]:
    """Sets of k (unit, positions) `lines` whose positions number k..limit together: (units, union)."""
    for combo in combinations(lines, k):
        union = 0
        for _, positions in combo:
            union |= positions
        if k <= popcount(union) <= limit:
            yield [u for u, _ in combo], union


def _finned_at(state: State, d: int, base: list[int], covers: list[int]) -> FinnedFish | None:
    """The finned fish on these base and cover lines, if its fins share a box and it removes something."""
    geo = state.geo
    having = state.digit_cells(d)
    base_cells = sum(geo.unit_masks[u] for u in base) & having
    cover = sum(geo.unit_masks[u] for u in covers)
    fins = base_cells & ~cover
    if not fins or len({geo.box_of[i] for i in bits(fins)}) != 1:
        return None
    seen = cover & ~base_cells
    for f in bits(fins):
        seen &= geo.peers[f]
    gone = removals(state, seen, 1 << (d - 1))
    if not gone:
        return None
    sashimi = any(popcount(geo.unit_masks[u] & cover & having) <= 1 for u in base)
    return sashimi, d, base, covers, fins, base_cells, gone


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
