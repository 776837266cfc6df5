"""The `cp` scale: the weakest constraint propagation that solves a puzzle without search.

Levels, each adding to the one before (the same for every box shape, Latin squares and Mathdoku):
  singles        naked and hidden singles (forward checking of the all-different units), one-cell cages,
                 and forward checking of cages (cage-positions once a cage has one open cell);
  gac            generalised arc consistency of AllDifferent on every unit (Regin's matching filter) and of
                 every cage's table constraint (cage-positions);
  intersections  plus pointing and claiming (boxes) and a cage's digit forced into a line (cage-lines);
  sac            plus singleton arc consistency (shaving): a candidate whose placement makes the level
                 below fail is removed;
  search         none of them solves it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from . import cage_rules, intersections, singles
from .ratings import ScaleGrade
from .state import State, bits
from .steps import Pair

if TYPE_CHECKING:
    from ..grid import GridPuzzle

CP_LEVELS = ("singles", "gac", "intersections", "sac", "search")
VERSION = "cp-1"
Effect = tuple[list[Pair], list[Pair]]
Rule = Callable[[State], Effect | None]
Node = tuple[str, int]
"""A node of the matching graph: ("c", cell) or ("d", digit)."""


def _first(finder: Callable[[State], Iterator]) -> Rule:
    """A rule of a technique's finder: the placements and eliminations of its first step, or None."""

    def rule(state: State) -> Effect | None:
        step = next(finder(state), None)
        return None if step is None else (list(step.placements), list(step.eliminations))

    return rule


def _cage_forward(state: State) -> Effect | None:
    """Forward checking of cages: a cage with one open cell keeps only the values its layouts allow there."""
    for cage in state.cages:
        open_cells = [i for i in cage[0] if not state.values[i]]
        if len(open_cells) == 1:
            k = cage[0].index(open_cells[0])
            allowed = 0
            for t in cage_rules.layouts(state, cage):
                allowed |= 1 << (t[k] - 1)
            gone = [(open_cells[0], b + 1) for b in bits(state.cands[open_cells[0]] & ~allowed)]
            if gone:
                return [], gone
    return None


def alldifferent_gac(state: State) -> Effect | None:
    """Regin's filter on every unit: candidates that no maximum matching of the unit's cells to digits uses."""
    gone: list[Pair] = []
    for u, unit in enumerate(state.geo.units):
        cells = [i for i in unit if not state.values[i]]
        if not cells:
            continue
        digits = [d for d in range(1, state.n + 1) if not state.vcells[d] & state.geo.unit_masks[u]]
        graph = {i: [d for d in digits if state.cands[i] >> (d - 1) & 1] for i in cells}
        keep = _regin(graph, digits)
        if keep is None:
            return [], [(i, b + 1) for i in cells for b in bits(state.cands[i])]  # no matching: wipe out
        gone += [(i, d) for i in cells for d in graph[i] if (i, d) not in keep]
    return ([], sorted(set(gone))) if gone else None


def _regin(graph: dict[int, list[int]], digits: list[int]) -> set[Pair] | None:
    """The (cell, digit) edges on some maximum matching covering every cell, or None when none covers them."""
    match = _matching(graph)
    if len(match) < len(graph):
        return None
    owner = {d: i for i, d in match.items()}
    # directed graph: cell -> its matched digit, digit -> every other cell that has it
    succ: dict[Node, list[Node]] = {("c", i): [("d", match[i])] for i in graph}
    for i, ds in graph.items():
        for d in ds:
            if match[i] != d:
                succ.setdefault(("d", d), []).append(("c", i))
    free = [("d", d) for d in digits if d not in owner]
    reach = _reachable(succ, free)
    comp = _components(succ)
    keep = set(match.items())
    for i, ds in graph.items():
        for d in ds:
            if ("d", d) in reach or comp.get(("d", d)) == comp[("c", i)]:
                keep.add((i, d))
    return keep


def _matching(graph: dict[int, list[int]]) -> dict[int, int]:
    """A maximum matching of cells to digits (augmenting paths): cell -> digit."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for d in graph[i]:
            if d not in seen:
                seen.add(d)
                if d not in owner or augment(owner[d], seen):
                    owner[d] = i
                    return True
        return False

    for i in graph:
        augment(i, set())
    return {i: d for d, i in owner.items()}


def _reachable(succ: dict[Node, list[Node]], sources: list[Node]) -> set[Node]:
    """The nodes reachable from `sources` (themselves included)."""
    seen, todo = set(sources), list(sources)
    while todo:
        for nxt in succ.get(todo.pop(), []):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _components(succ: dict[Node, list[Node]]) -> dict[Node, int]:
    """Strongly connected components (Kosaraju, iterative): node -> component number."""
    nodes = set(succ) | {m for ms in succ.values() for m in ms}
    order: list[Node] = []
    seen: set[Node] = set()
    for start in nodes:
        if start in seen:
            continue
        seen.add(start)
        stack = [(start, iter(succ.get(start, [])))]
        while stack:
            node, it = stack[-1]
            nxt = next((m for m in it if m not in seen), None)
            if nxt is None:
                order.append(node)
                stack.pop()
            else:
                seen.add(nxt)
                stack.append((nxt, iter(succ.get(nxt, []))))
    pred: dict[Node, list[Node]] = {}
    for a, bs in succ.items():
        for b in bs:
            pred.setdefault(b, []).append(a)
    comp: dict[Node, int] = {}
    for k, root in enumerate(reversed(order)):
        if root in comp:
            continue
        comp[root] = k
        todo = [root]
        while todo:
            for y in pred.get(todo.pop(), []):
                if y not in comp:
                    comp[y] = k
                    todo.append(y)
    return comp


RULES: dict[str, list[Rule]] = {
    "singles": [
        _cage_forward,
        _first(cage_rules.cage_givens),
        _first(singles.naked_singles),
        _first(singles.hidden_singles),
    ],
    "gac": [alldifferent_gac, _first(cage_rules.cage_positions)],
    "intersections": [_first(intersections.pointing), _first(intersections.claiming), _first(cage_rules.cage_lines)],
}


def propagate(state: State, level: str) -> State | None:
    """The fixpoint of the level's rules (and those below) from `state`, or None when one fails (a wipe-out)."""
    rules = [r for name in CP_LEVELS[: CP_LEVELS.index(level) + 1] for r in RULES.get(name, [])]
    while True:
        if state.broken() or any(not cage_rules.layouts(state, cage) for cage in state.cages):
            return None
        if state.solved():
            return state
        for rule in rules:
            effect = rule(state)
            if effect is not None:
                state = state.apply(*effect)
                break
        else:
            return state


def shave(state: State) -> State | None:
    """Singleton arc consistency: candidates whose placement fails under `intersections` removed, to a fixpoint."""
    current = propagate(state, "intersections")
    while current is not None and not current.solved():
        gone = [
            (i, b + 1)
            for i in current.open_cells()
            for b in bits(current.cands[i])
            if propagate(current.apply([(i, b + 1)], []), "intersections") is None
        ]
        if not gone:
            return current
        current = propagate(current.apply([], gone), "intersections")
    return current


def cp_level(state: State) -> tuple[str, State | None]:
    """The weakest level that solves `state` without search, and the state it reaches (None: no solution)."""
    reached: State | None = state
    for level in CP_LEVELS[:3]:
        reached = propagate(state, level)
        if reached is None or reached.solved():
            return level, reached
    reached = shave(state)
    if reached is None or reached.solved():
        return "sac", reached
    return "search", reached


def cp_grade(puzzle: GridPuzzle | State) -> ScaleGrade:
    """The puzzle's grade on the `cp` scale, with the open cells left at the strongest level tried."""
    start = puzzle if isinstance(puzzle, State) else State.from_puzzle(puzzle)
    level, reached = cp_level(start)
    value = "no solution" if reached is None else level
    detail = {"open": None if reached is None else reached.values.count(0)}
    return ScaleGrade("cp", value, detail, "cp", VERSION, CP_LEVELS[:4])
