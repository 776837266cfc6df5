"""Single-digit patterns: skyscraper, 2-string kite and turbot fish (two strong links), empty rectangle.

Turbot fish: strong link a=b, b sees c, strong link c=d: a or d holds the digit, so their common peers
lose it (skyscraper and 2-string kite are the turbot fish whose middle link lies in a line or a box).
Empty rectangle: a box whose places for the digit all lie in one row R and one column C of it (an L or
a cross), and a strong link (R, c) = (r, c) in a column c outside the box. If (r, C) held the digit,
(r, c) would not, so (R, c) would, and the box would have no place left: (R, c) sees its places on row R,
(r, C) those on column C. So (r, C) loses the digit; the same with rows and columns swapped.
"""

from __future__ import annotations

from collections.abc import Iterator

from .links import strong_links
from .state import State, bits
from .steps import Step, make_step, removals


def skyscrapers(state: State) -> Iterator[Step]:
    """Two parallel strong links with one end of each in a common cross line: the other ends' common peers lose d."""
    geo, n = state.geo, state.n
    for d in range(1, n + 1):
        links = strong_links(state, d)
        for kind, across in (("row", lambda i: i % n), ("col", lambda i: i // n)):
            lines = [(u, s1, s2) for u, s1, s2 in links if geo.kinds[u] == kind]
            for j, (u1, a1, b1) in enumerate(lines):
                for u2, a2, b2 in lines[j + 1 :]:
                    for base1, top1 in ((a1, b1), (b1, a1)):
                        for base2, top2 in ((a2, b2), (b2, a2)):
                            if across(base1) != across(base2) or across(top1) == across(top2):
                                continue
                            gone = removals(state, geo.peers[top1] & geo.peers[top2], 1 << (d - 1))
                            if gone:
                                yield make_step(
                                    "skyscraper",
                                    state,
                                    digits=[d],
                                    cells=[top1, top2, base1, base2],
                                    units=[u1, u2],
                                    eliminations=gone,
                                )


def two_string_kites(state: State) -> Iterator[Step]:
    """A row and a column strong link with an end of each in one box: the far ends' common peers lose d."""
    geo, n = state.geo, state.n
    if not geo.has_boxes:
        return
    for d in range(1, n + 1):
        links = strong_links(state, d)
        rows = [x for x in links if geo.kinds[x[0]] == "row"]
        cols = [x for x in links if geo.kinds[x[0]] == "col"]
        for ur, a1, b1 in rows:
            for uc, a2, b2 in cols:
                for near1, far1 in ((a1, b1), (b1, a1)):
                    for near2, far2 in ((a2, b2), (b2, a2)):
                        if len({near1, far1, near2, far2}) < 4 or geo.box_of[near1] != geo.box_of[near2]:
                            continue
                        if geo.box_of[far1] == geo.box_of[near1] or geo.box_of[far2] == geo.box_of[near1]:
                            continue
                        gone = removals(state, geo.peers[far1] & geo.peers[far2], 1 << (d - 1))
                        if gone:
                            yield make_step(
                                "two-string-kite",
                                state,
                                digits=[d],
                                cells=[far1, far2, near1, near2],
                                units=[ur, uc, geo.box_of[near1]],
                                eliminations=gone,
                            )


def turbot_fish(state: State) -> Iterator[Step]:
    """Strong link a=b, weak link b-c (b sees c), strong link c=d: the common peers of a and d lose the digit."""
    geo = state.geo
    for d in range(1, state.n + 1):
        links = strong_links(state, d)
        ends = [(u, a, b) for u, s1, s2 in links for a, b in ((s1, s2), (s2, s1))]
        for u1, a, b in ends:
            for u2, c, e in ends:
                if len({a, b, c, e}) < 4 or not geo.peers[b] >> c & 1 or a > e:
                    continue
                gone = removals(state, geo.peers[a] & geo.peers[e], 1 << (d - 1))
                if gone:
                    yield make_step(
                        "turbot-fish",
                        state,
                        digits=[d],
                        cells=[a, b, c, e],
                        units=[u1, u2],
                        links=[(a, d), (b, d), (c, d), (e, d)],
                        eliminations=gone,
                    )


def empty_rectangles(state: State) -> Iterator[Step]:
    """Empty rectangles: a box's places on one row and one column of it, and a strong link across that row/column."""
    geo, n = state.geo, state.n
    if not geo.has_boxes:
        return
    for d in range(1, n + 1):
        links = strong_links(state, d)
        for box in geo.boxes:
            where = state.where(box, d)
            for row, col in _crosses(state, box, where):
                for line, far_line in ((row, col), (col, row)):
                    yield from _er_steps(state, d, box, where, line, far_line, links)


def _crosses(state: State, box: int, where: int) -> Iterator[tuple[int, int]]:
    """(row, column) units through the box holding all of `where`, with places off the crossing in each."""
    geo, n = state.geo, state.n
    rows = {geo.rows[i // n] for i in geo.units[box]}
    cols = {geo.cols[i % n] for i in geo.units[box]}
    masks = geo.unit_masks
    for row in sorted(rows):
        for col in sorted(cols):
            if where & ~(masks[row] | masks[col]):
                continue
            if where & masks[row] & ~masks[col] and where & masks[col] & ~masks[row]:
                yield row, col


def _er_steps(
    state: State, d: int, box: int, where: int, line: int, far_line: int, links: list[tuple[int, int, int]]
) -> Iterator[Step]:
    """Strong links (outside the box) with one end on `line` (the ER's row or column): the far end's cross loses d."""
    geo, n = state.geo, state.n
    masks = geo.unit_masks
    kind = geo.kinds[line]
    for u, s1, s2 in links:
        if geo.kinds[u] == kind or geo.kinds[u] == "box" or masks[u] & masks[box]:
            continue
        for near, far in ((s1, s2), (s2, s1)):
            if not masks[line] >> near & 1 or masks[box] >> far & 1:
                continue
            across = geo.rows[far // n] if kind == "row" else geo.cols[far % n]
            target = masks[across] & masks[far_line] & ~masks[box]
            gone = removals(state, target, 1 << (d - 1))
            if gone:
                yield make_step(
                    "empty-rectangle",
                    state,
                    digits=[d],
                    cells=list(bits(where)) + [near, far],
                    units=[box, u],
                    eliminations=gone,
                )
