"""Simple colours: the cells of a digit joined by strong links, coloured alternately; one colour is true.

Trap: a cell that sees both colours loses the digit. Wrap: two cells of one colour see each other, so
that colour is false everywhere.
"""

from __future__ import annotations

from collections.abc import Iterator

from .links import conjugates
from .state import State
from .steps import Step, make_step, removals


def _components(graph: dict[int, set[int]]) -> Iterator[tuple[list[int], list[int]]]:
    """The two-coloured connected components of a strong-link graph (skipping any that is not bipartite)."""
    colour: dict[int, int] = {}
    for start in sorted(graph):
        if start in colour:
            continue
        colour[start] = 0
        todo, members, ok = [start], [start], True
        while todo:
            c = todo.pop()
            for p in sorted(graph[c]):
                if p not in colour:
                    colour[p] = 1 - colour[c]
                    members.append(p)
                    todo.append(p)
                elif colour[p] == colour[c]:
                    ok = False
        if ok:
            yield sorted(c for c in members if colour[c] == 0), sorted(c for c in members if colour[c] == 1)


def simple_colors(state: State) -> Iterator[Step]:
    """Colour traps and colour wraps, digit by digit."""
    geo = state.geo
    for d in range(1, state.n + 1):
        bit = 1 << (d - 1)
        for on, off in _components(conjugates(state, d)):
            links = [(c, 0) for c in on] + [(c, 1) for c in off]
            for same in (on, off):
                mask = sum(1 << c for c in same)
                if any(geo.peers[c] & mask for c in same):
                    gone = removals(state, mask, bit)
                    yield make_step(
                        "simple-colors",
                        state,
                        digits=[d],
                        cells=on + off,
                        links=links,
                        variant="wrap",
                        eliminations=gone,
                    )
            seen_on = seen_off = 0
            for c in on:
                seen_on |= geo.peers[c]
            for c in off:
                seen_off |= geo.peers[c]
            members = sum(1 << c for c in on + off)
            gone = removals(state, seen_on & seen_off & ~members, bit)
            if gone:
                yield make_step(
                    "simple-colors", state, digits=[d], cells=on + off, links=links, variant="trap", eliminations=gone
                )
