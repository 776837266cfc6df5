"""Chains: remote pair, X-chain (one digit) and XY-chain (two-candidate cells).

Each chain is an implication "if its first node is false, its last node is true": so whatever sees both
ends cannot hold the digit. Walks are found breadth first, so the chain shown is a shortest one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from .links import conjugates
from .state import State, bits, popcount
from .steps import Step, make_step, removals

MAX_REMOTE_PATHS = 2000
"""How many remote-pair paths one search walks at most (the bivalue graph can hold very many)."""


def remote_pairs(state: State) -> Iterator[Step]:
    """Paths of 4 or more {x,y} cells, each seeing the next: cells an odd distance apart differ (x and y go)."""
    geo, cands = state.geo, state.cands
    by_pair: dict[int, list[int]] = {}
    for i, m in enumerate(cands):
        if popcount(m) == 2:
            by_pair.setdefault(m, []).append(i)
    for pair, cells in sorted(by_pair.items()):
        if len(cells) < 4:
            continue
        digits = [b + 1 for b in bits(pair)]
        seen: set[tuple[tuple[int, int], ...]] = set()
        for path in _paths(geo.peers, cells):
            gone = _remote_removals(state, path, pair)
            key = tuple(sorted(gone))
            if gone and key not in seen:
                seen.add(key)
                yield make_step(
                    "remote-pair", state, digits=digits, cells=path, links=[(c, 0) for c in path], eliminations=gone
                )


def _paths(peers: list[int], cells: list[int]) -> Iterator[list[int]]:
    """Simple paths of 4 or more of `cells`, consecutive ones peers (at most MAX_REMOTE_PATHS are walked)."""
    budget = [MAX_REMOTE_PATHS]
    members = sum(1 << c for c in cells)

    def walk(path: list[int], used: int) -> Iterator[list[int]]:
        if budget[0] <= 0:
            return
        budget[0] -= 1
        if len(path) >= 4:
            yield list(path)
        for nxt in bits(peers[path[-1]] & members & ~used):
            path.append(nxt)
            yield from walk(path, used | 1 << nxt)
            path.pop()

    for start in cells:
        yield from walk([start], 1 << start)


def _remote_removals(state: State, path: list[int], pair: int) -> list[tuple[int, int]]:
    """The pair's digits from every cell (off the path) that sees two path cells an odd number (3 or more) apart."""
    geo = state.geo
    on_path = sum(1 << c for c in path)
    seen = 0
    for a in range(len(path)):
        for b in range(a + 3, len(path), 2):
            seen |= geo.peers[path[a]] & geo.peers[path[b]]
    return removals(state, seen & ~on_path, pair)


def x_chains(state: State) -> Iterator[Step]:
    """X-chains, shortest first."""
    yield from sorted(_x_chains(state), key=lambda step: len(step.links))


def xy_chains(state: State) -> Iterator[Step]:
    """XY-chains, shortest first."""
    yield from sorted(_xy_chains(state), key=lambda step: len(step.links))


def _x_chains(state: State) -> Iterator[Step]:
    """One digit, links strong, weak, ..., strong: whatever sees both ends loses the digit."""
    geo = state.geo
    for d in range(1, state.n + 1):
        strong = conjugates(state, d)
        having = state.digit_cells(d)
        for start in sorted(strong):
            parents = _x_walk(geo.peers, strong, having, start)
            for end, last_strong in parents:
                if not last_strong or end == start:
                    continue
                gone = removals(state, geo.peers[start] & geo.peers[end] & ~(1 << start | 1 << end), 1 << (d - 1))
                if gone and start < end:
                    path = _unwind(parents, (end, True))
                    yield make_step(
                        "x-chain",
                        state,
                        digits=[d],
                        cells=[start, end],
                        links=[(c, d) for c in path],
                        eliminations=gone,
                    )


def _x_walk(
    peers: list[int], strong: dict[int, set[int]], having: int, start: int
) -> dict[tuple[int, bool], tuple[int, bool] | None]:
    """Breadth-first walk from `start` along a strong link, then weak, strong, ...: parent of each (cell, strong?)."""
    parents: dict[tuple[int, bool], tuple[int, bool] | None] = {(start, False): None}
    todo = deque([(start, False)])
    while todo:
        node = todo.popleft()
        cell, last_strong = node
        nexts = bits(peers[cell] & having) if last_strong else iter(sorted(strong.get(cell, ())))
        for nxt in nexts:
            state = (nxt, not last_strong)
            if state not in parents:
                parents[state] = node
                todo.append(state)
    return parents


def _unwind(parents: dict, node: tuple) -> list[int]:
    """The cells from the walk's start to `node`, following parents back."""
    path = []
    step: tuple | None = node
    while step is not None:
        path.append(step[0])
        step = parents[step]
    return path[::-1]


def _xy_chains(state: State) -> Iterator[Step]:
    """Two-candidate cells, each seeing the next: first not z => last is z, so their common peers lose z."""
    geo, cands = state.geo, state.cands
    bivalues = [i for i, m in enumerate(cands) if popcount(m) == 2]
    members = sum(1 << c for c in bivalues)
    for start in bivalues:
        for z in (b + 1 for b in bits(cands[start])):
            parents = _xy_walk(state, members, start, z)
            for end, true_digit in parents:
                if true_digit != z or end == start:
                    continue
                gone = removals(state, geo.peers[start] & geo.peers[end], 1 << (z - 1))
                if gone and start < end:
                    path = _unwind_pairs(parents, (end, z))
                    yield make_step("xy-chain", state, digits=[z], cells=[start, end], links=path, eliminations=gone)


def _xy_walk(state: State, members: int, start: int, z: int) -> dict[tuple[int, int], tuple[int, int] | None]:
    """Breadth-first walk over (cell, digit it holds if `start` is not z): parent of each."""
    cands, peers = state.cands, state.geo.peers
    first = (start, (cands[start] & ~(1 << (z - 1))).bit_length())
    parents: dict[tuple[int, int], tuple[int, int] | None] = {first: None}
    todo = deque([first])
    while todo:
        node = todo.popleft()
        cell, true_digit = node
        bit = 1 << (true_digit - 1)
        for nxt in bits(peers[cell] & members):
            if cands[nxt] & bit:
                state_ = (nxt, (cands[nxt] & ~bit).bit_length())
                if state_ not in parents:
                    parents[state_] = node
                    todo.append(state_)
    return parents


def _unwind_pairs(parents: dict, node: tuple) -> list[tuple[int, int]]:
    """The (cell, digit) nodes from the walk's start to `node`."""
    path = []
    step: tuple | None = node
    while step is not None:
        path.append(step)
        step = parents[step]
    return path[::-1]
