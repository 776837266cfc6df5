"""Naked and hidden subsets of any size k (pairs to quads, and up to n/2 on bigger grids), locked pairs and triples.

A naked subset: k cells of a unit whose candidates together are k digits; those digits leave the unit's
other cells. A hidden subset: k digits of a unit that together fit only k cells; those cells lose every
other digit. A locked pair or triple is a naked one inside a box and a line at once: it clears both.
"""

from __future__ import annotations

from collections.abc import Iterator

from .state import State, bits, popcount
from .steps import Step, make_step, removals

NAKED = {2: "naked-pair", 3: "naked-triple", 4: "naked-quad"}
HIDDEN = {2: "hidden-pair", 3: "hidden-triple", 4: "hidden-quad"}


def _combos(items: list[tuple[int, int]], k: int, limit: int) -> Iterator[tuple[list[int], int]]:
    """k-combinations of (id, mask) items whose masks' union has at most `limit` bits: (ids, union)."""
    chosen: list[int] = []

    def walk(start: int, union: int) -> Iterator[tuple[list[int], int]]:
        if len(chosen) == k:
            yield list(chosen), union
            return
        for j in range(start, len(items) - (k - len(chosen)) + 1):
            ident, mask = items[j]
            joined = union | mask
            if popcount(joined) <= limit:
                chosen.append(ident)
                yield from walk(j + 1, joined)
                chosen.pop()

    yield from walk(0, 0)


def naked_subsets(state: State, k: int, key: str, units: list[int] | None = None) -> Iterator[tuple[Step, int]]:
    """Naked subsets of size k in every unit (or `units`): (step, cells mask)."""
    geo = state.geo
    for u in range(len(geo.units)) if units is None else units:
        cells = [(i, state.cands[i]) for i in geo.units[u] if 2 <= popcount(state.cands[i]) <= k]
        if len(cells) < k:
            continue
        rest_all = sum(1 << i for i in geo.units[u] if state.cands[i])
        for ids, union in _combos(cells, k, k):
            mask = sum(1 << i for i in ids)
            gone = removals(state, rest_all & ~mask, union)
            step = make_step(key, state, digits=[b + 1 for b in bits(union)], cells=ids, units=[u], eliminations=gone)
            yield step, mask


def naked(state: State, k: int, key: str) -> Iterator[Step]:
    """Naked subsets of size k that remove something."""
    for step, _ in naked_subsets(state, k, key):
        if step.eliminations:
            yield step


def naked_range(state: State, low: int, high: int, key: str) -> Iterator[Step]:
    """Naked subsets of sizes low..high (up to n/2) that remove something."""
    for k in range(low, min(high, state.n // 2) + 1):
        yield from naked(state, k, key)


def hidden(state: State, k: int, key: str) -> Iterator[Step]:
    """Hidden subsets of size k that remove something."""
    geo = state.geo
    for u, unit in enumerate(geo.units):
        if len(unit) != state.n:
            continue
        places = [(d, state.where(u, d)) for d in range(1, state.n + 1)]
        places = [(d, w) for d, w in places if w and popcount(w) <= k]
        if len(places) < k:
            continue
        for digits, cells in _combos(places, k, k):
            if popcount(cells) != k:
                continue
            keep = sum(1 << (d - 1) for d in digits)
            gone = removals(state, cells, ((1 << state.n) - 1) & ~keep)
            if gone:
                yield make_step(key, state, digits=digits, cells=list(bits(cells)), units=[u], eliminations=gone)


def hidden_range(state: State, low: int, high: int, key: str) -> Iterator[Step]:
    """Hidden subsets of sizes low..high (up to n/2) that remove something."""
    for k in range(low, min(high, state.n // 2) + 1):
        yield from hidden(state, k, key)


def locked(state: State, k: int, key: str) -> Iterator[Step]:
    """Naked subsets of size k in a box whose cells share a line: the digits leave both the box and the line."""
    geo = state.geo
    for step, mask in naked_subsets(state, k, key, geo.boxes):
        box = geo.box_of[step.cells[0]]
        for line in geo.rows + geo.cols:
            if line >= 0 and mask & geo.unit_masks[line] == mask:
                others = (geo.unit_masks[box] | geo.unit_masks[line]) & ~mask
                union = sum(1 << (d - 1) for d in step.digits)
                gone = removals(state, others, union)
                if gone:
                    yield make_step(
                        key, state, digits=step.digits, cells=step.cells, units=[box, line], eliminations=gone
                    )
