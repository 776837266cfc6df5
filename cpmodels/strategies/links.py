"""Strong links (a digit with exactly two places in a unit) and the graphs chains and colouring walk."""

from __future__ import annotations

from .state import State, bits, popcount


def strong_links(state: State, d: int) -> list[tuple[int, int, int]]:
    """(unit, cell, cell) for every unit where digit d has exactly two places."""
    out = []
    for u in range(len(state.geo.units)):
        where = state.where(u, d)
        if popcount(where) == 2:
            s1, s2 = bits(where)
            out.append((u, s1, s2))
    return out


def conjugates(state: State, d: int) -> dict[int, set[int]]:
    """For digit d, each cell's strong-link partners."""
    graph: dict[int, set[int]] = {}
    for _, s1, s2 in strong_links(state, d):
        graph.setdefault(s1, set()).add(s2)
        graph.setdefault(s2, set()).add(s1)
    return graph
