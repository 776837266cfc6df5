"""Single-digit patterns built from two strong links: skyscraper and 2-string kite."""

from __future__ import annotations

from collections.abc import Iterator

from .links import strong_links
from .state import State
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
