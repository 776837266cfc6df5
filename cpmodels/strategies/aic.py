"""Alternating inference chains, nice loops and X-cycles, over candidates and (where boxes exist) grouped nodes.

A node is a digit in one cell, or in a group: the cells of a box-line intersection that hold it (then it
means "one of them holds it"). A strong link X = Y: X false makes Y true (the digit's only two places in a
unit, or a cell's only two digits); a weak link X - Y: X true makes Y false (same digit in one unit, or two
digits of one cell). An AIC alternates them, strong first and last: "A false => ... => B true", so A or
B holds, and every candidate weakly linked to both (it sees both, or shares a cell with one and the
digit with the other) is false. The search walks from each start A, breadth first, to every B it
reaches (shortest chains).
Nice loops (HoDoKu's kinds): discontinuous, when a candidate X is weakly linked to both ends of an AIC
(the loop X - A = ... = B - X: X is false) or when the chain returns to its own start (A false => A true:
the cell loses its other digits); continuous, when the ends A and B are themselves weakly linked: every
weak link of the loop then holds exactly one true end, so the candidates weakly linked to both of its
ends are false. An X-cycle is a nice loop on one digit without groups.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .state import State, bits, popcount
from .steps import Step, make_step

MAX_LINKS = 24
"""The longest chain (in links) the search follows."""


@dataclass
class Graph:
    """Nodes (cells mask, digit) with their strong and weak neighbours as masks of node ids."""

    nodes: list[tuple[int, int]]
    strong: list[int]
    weak: list[int]
    singles: int  # nodes below this id are single candidates: node id -> (cell, digit) in `cell_of`
    cell_of: list[int]

    def candidates(self, mask: int) -> list[tuple[int, int]]:
        """(cell, digit) of the single-candidate nodes of a node mask."""
        mask &= (1 << self.singles) - 1
        return [(self.cell_of[x], self.nodes[x][1]) for x in bits(mask)]


def build_graph(state: State, grouped: bool, digit: int | None = None) -> Graph:
    """The link graph of `state` (only `digit` and no in-cell links when given; groups when `grouped`)."""
    geo, n = state.geo, state.n
    digits = range(1, n + 1) if digit is None else [digit]
    nodes: list[tuple[int, int]] = []
    cell_of: list[int] = []
    for i, m in enumerate(state.cands):
        for d in digits:
            if m >> (d - 1) & 1:
                nodes.append((1 << i, d))
                cell_of.append(i)
    singles = len(nodes)
    if grouped and geo.has_boxes:
        nodes += _groups(state, digits)
    strong, weak = [0] * len(nodes), [0] * len(nodes)
    by_digit: dict[int, list[int]] = {}
    for x, (_, d) in enumerate(nodes):
        by_digit.setdefault(d, []).append(x)
    for d, ids in by_digit.items():
        for umask in geo.unit_masks:
            inside = [x for x in ids if nodes[x][0] & umask == nodes[x][0]]
            places = state.dcells[d] & umask
            _link_unit(nodes, inside, places, strong, weak)
    if digit is None:
        _link_cells(state, nodes, singles, cell_of, strong, weak)
    return Graph(nodes, strong, weak, singles, cell_of)


def _groups(state: State, digits) -> list[tuple[int, int]]:
    """Group nodes: a digit's places in a box-line intersection, when there are two or more."""
    geo, out = state.geo, []
    lines = [u for u in geo.rows + geo.cols if u >= 0]
    for d in digits:
        for box in geo.boxes:
            for line in lines:
                cells = state.dcells[d] & geo.unit_masks[box] & geo.unit_masks[line]
                if popcount(cells) >= 2:
                    out.append((cells, d))
    return out


def _link_unit(nodes, inside: list[int], places: int, strong: list[int], weak: list[int]) -> None:
    """Weak links between disjoint nodes of one unit and digit; strong where the two cover all its places."""
    for k, x in enumerate(inside):
        for y in inside[k + 1 :]:
            cx, cy = nodes[x][0], nodes[y][0]
            if cx & cy:
                continue
            weak[x] |= 1 << y
            weak[y] |= 1 << x
            if cx | cy == places:
                strong[x] |= 1 << y
                strong[y] |= 1 << x


def _link_cells(state: State, nodes, singles: int, cell_of: list[int], strong: list[int], weak: list[int]) -> None:
    """Weak links between the digits of one cell; strong where the cell has exactly two."""
    by_cell: dict[int, list[int]] = {}
    for x in range(singles):
        by_cell.setdefault(cell_of[x], []).append(x)
    for ids in by_cell.values():
        for k, x in enumerate(ids):
            for y in ids[k + 1 :]:
                weak[x] |= 1 << y
                weak[y] |= 1 << x
                if len(ids) == 2:
                    strong[x] |= 1 << y
                    strong[y] |= 1 << x


def walk(graph: Graph, start: int) -> dict[int, list[int]]:
    """Each node B that `start` false makes true, with a shortest chain start = ... = B (node ids)."""
    off_parent: dict[int, int | None] = {start: None}
    on_parent: dict[int, int] = {}
    off_seen, on_seen = 1 << start, 0
    frontier = [start]
    for _ in range(0, MAX_LINKS, 2):
        reached = []
        for x in frontier:
            new = graph.strong[x] & ~on_seen
            on_seen |= new
            for y in bits(new):
                on_parent[y] = x
                reached.append(y)
        frontier = []
        for y in reached:
            new = graph.weak[y] & ~off_seen
            off_seen |= new
            for z in bits(new):
                off_parent[z] = y
                frontier.append(z)
        if not frontier:
            break
    chains: dict[int, list[int]] = {}
    for end in on_parent:
        path: list[int] = []
        node: int | None = end
        on = True
        while node is not None:
            path.append(node)
            node = on_parent[node] if on else off_parent[node]
            on = not on
        chains[end] = path[::-1]
    return chains


def _chains(graph: Graph) -> Iterator[tuple[int, int, list[int]]]:
    """(A, B, chain) for every AIC of the graph (A == B when the chain returns to its start)."""
    for a in range(len(graph.nodes)):
        if graph.strong[a]:
            for b, path in walk(graph, a).items():
                yield a, b, path


def _links(graph: Graph, path: list[int]) -> list[tuple[int, int]]:
    """The chain as (cell, digit) pairs: a group shows as its first cell (its cells are in the step's cells)."""
    return [((graph.nodes[x][0] & -graph.nodes[x][0]).bit_length() - 1, graph.nodes[x][1]) for x in path]


def _make(key: str, state: State, graph: Graph, path: list[int], gone, variant: str) -> Step:
    """A chain step: its digits, the cells of its nodes, the chain and what it removes."""
    cells: list[int] = []
    for x in path:
        cells += [c for c in bits(graph.nodes[x][0]) if c not in cells]
    digits = sorted({graph.nodes[x][1] for x in path})
    return make_step(
        key, state, digits=digits, cells=cells, links=_links(graph, path), eliminations=gone, variant=variant
    )


def _unique_by_effect(steps: list[Step]) -> Iterator[Step]:
    """The steps, shortest chain first, one per effect."""
    seen = set()
    for step in sorted(steps, key=lambda s: len(s.links)):
        if step.effect() not in seen:
            seen.add(step.effect())
            yield step


def aics(state: State) -> Iterator[Step]:
    """AICs (grouped where boxes exist) with a candidate weakly linked to both ends, shortest first."""
    graph = build_graph(state, grouped=True)
    found: list[Step] = []
    for a, b, path in _chains(graph):
        if a < b:
            gone = graph.candidates(graph.weak[a] & graph.weak[b])
            if gone:
                found.append(_make("aic", state, graph, path, gone, "grouped" if _grouped(graph, path) else ""))
    yield from _unique_by_effect(found)


def _grouped(graph: Graph, path: list[int]) -> bool:
    """Whether the chain uses a group node."""
    return any(x >= graph.singles for x in path)


def nice_loops(state: State) -> Iterator[Step]:
    """Nice loops, without groups first, then with them where boxes exist."""
    found = list(_loops(state, "nice-loop", build_graph(state, grouped=False)))
    if state.geo.has_boxes:
        found += _loops(state, "nice-loop", build_graph(state, grouped=True))
    yield from _unique_by_effect(found)


def x_cycles(state: State) -> Iterator[Step]:
    """Nice loops on one digit, without groups."""
    found: list[Step] = []
    for d in range(1, state.n + 1):
        found += _loops(state, "x-cycle", build_graph(state, grouped=False, digit=d))
    yield from _unique_by_effect(found)


def _loops(state: State, key: str, graph: Graph) -> Iterator[Step]:
    """Continuous and discontinuous nice loops of the graph."""
    for a, b, path in _chains(graph):
        if a == b:
            if a < graph.singles:
                cell = graph.cell_of[a]
                rest = state.cands[cell] & ~(1 << (graph.nodes[a][1] - 1))
                gone = [(cell, d + 1) for d in bits(rest)]
                if gone:
                    yield _make(key, state, graph, path, gone, "discontinuous")
            continue
        if a > b:
            continue
        if graph.weak[b] >> a & 1 and len(path) >= 4:
            gone = _continuous_removals(graph, [*path, a])
            if gone:
                yield _make(key, state, graph, path, gone, "continuous")
        for target in graph.candidates(graph.weak[a] & graph.weak[b]):
            yield _make(key, state, graph, path, [target], "discontinuous")


def _continuous_removals(graph: Graph, loop: list[int]) -> list[tuple[int, int]]:
    """Candidates weakly linked to both ends of a weak link of the loop (odd positions: weak links).

    As HoDoKu reports them: a weak link between two cells clears cells off the loop only.
    """
    on_loop, loop_cells = 0, 0
    for x in loop:
        on_loop |= 1 << x
        loop_cells |= graph.nodes[x][0]
    out: set[tuple[int, int]] = set()
    for k in range(1, len(loop) - 1, 2):
        x, y = loop[k], loop[k + 1]
        found = graph.candidates(graph.weak[x] & graph.weak[y] & ~on_loop)
        if graph.nodes[x][0] != graph.nodes[y][0]:
            found = [(c, d) for c, d in found if not loop_cells >> c & 1]
        out.update(found)
    return sorted(out)
