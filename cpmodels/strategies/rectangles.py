"""Zambon's `rectangle`: a digit followed around the four boxes at the corners of a rectangle.

Take a candidate d in cell X and four boxes at the corners of a rectangle: X's box B1, a box B2 in its
band, a box B4 in its stack, and B3 in B2's stack and B4's band. Suppose X holds d: d leaves X's row,
column and box. Going around B1 -> B2 -> B3 -> B4 (or the other way round), if the places left for d in
a box lie on one line that leads to the next box (a column from B2 to B3, a row from B3 to B4, ...),
d must be on that line there, so the next box loses d on it. When a box is left with no place for d,
X cannot hold d.

Example (9x9, d = 1, X = r2c3; B2 = box 2, B3 = box 5, B4 = box 4). The 1s of box 2 are r2c5 and
r3c4, those of box 5 r4c4 and r5c6, those of box 4 r5c1, r5c2 and r6c3. If r2c3 = 1, box 2 keeps only
r3c4: column 4 has its 1 in box 2, so box 5 keeps only r5c6: row 5 has its 1 in box 5, so box 4 keeps
neither r5c1 nor r5c2, and r6c3 shares column 3 with r2c3: box 4 has no place for 1. So r2c3 <> 1.
(tests/test_strategies_techniques.py builds this position.)
"""

from __future__ import annotations

from collections.abc import Iterator

from .state import State, bits
from .steps import Step, make_step


def _box_grid(state: State) -> dict[tuple[int, int], int]:
    """The boxes by (band, stack)."""
    geo, n = state.geo, state.n
    assert geo.box is not None
    return {(geo.units[b][0] // n // geo.box[0], geo.units[b][0] % n // geo.box[1]): b for b in geo.boxes}


def rectangles(state: State) -> Iterator[Step]:
    """Candidates that, followed around the corners of a rectangle of boxes, leave a box without their digit."""
    geo, n = state.geo, state.n
    if not geo.has_boxes or min(geo.rows) < 0 or min(geo.cols) < 0:
        return
    grid = _box_grid(state)
    where = {b: key for key, b in grid.items()}
    for d in range(1, n + 1):
        for x in bits(state.dcells[d]):
            band, stack = where[geo.box_of[x]]
            for route in _routes(grid, band, stack):
                boxes = _walk(state, d, x, route)
                if boxes:
                    yield make_step("rectangle", state, digits=[d], cells=[x], units=boxes, eliminations=[(x, d)])
                    break


def _routes(grid: dict[tuple[int, int], int], band: int, stack: int) -> Iterator[list[tuple[int, str]]]:
    """Each way round a rectangle of boxes from (band, stack): [(box, line that leads on from it)], both ways."""
    bands = sorted({k[0] for k in grid})
    stacks = sorted({k[1] for k in grid})
    for b2 in bands:
        for s2 in stacks:
            if b2 == band or s2 == stack:
                continue
            across, corner, down = grid[(band, s2)], grid[(b2, s2)], grid[(b2, stack)]
            yield [(across, "col"), (corner, "row"), (down, "col")]
            yield [(down, "row"), (corner, "col"), (across, "row")]


def _walk(state: State, d: int, x: int, route: list[tuple[int, str]]) -> list[int]:
    """The boxes walked when X = d empties one of them (the last is the empty one), else []."""
    geo, n = state.geo, state.n
    gone = geo.peers[x]
    walked = [geo.box_of[x]]
    for box, lead in route:
        walked.append(box)
        if state.vcells[d] & geo.unit_masks[box]:
            return []  # d is placed there already: the box says nothing
        left = state.dcells[d] & geo.unit_masks[box] & ~gone
        if not left:
            return walked
        lines = {i % n for i in bits(left)} if lead == "col" else {i // n for i in bits(left)}
        if len(lines) != 1:
            return []
        line = lines.pop()
        gone |= geo.unit_masks[geo.cols[line] if lead == "col" else geo.rows[line]]
    return []
