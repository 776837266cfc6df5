"""Last resort: forcing chains, Nishio and dynamic forcing chains (trial and error made systematic).

Forcing chain (static): the implications of the links alone (aic.build_graph without groups): a true
candidate makes its weakly linked ones false, a false one makes its strongly linked one true.
  contradiction  assuming a candidate true leads to a candidate both true and false, a cell with no
                 candidate or a digit with no place in a unit: the candidate is false;
  verity         every candidate of a cell (cell forcing), every place of a digit in a unit (unit
                 forcing), or a candidate both true and false (digit forcing), lead to the same
                 conclusion: it holds.
Nishio: a candidate assumed true, and that digit alone followed (its hidden and naked singles), leaves a
cell or a unit without it: the candidate is false.
Dynamic forcing chain: the same contradictions and verities, but each assumption is followed on a copy of
the grid with naked and hidden singles and locked candidates; one level of nesting adds, when that
stalls, the static forcing-chain contradictions of the derived grid.
Every search counts its propagation passes against BUDGET (and, inside `with deadline(seconds)`, the
clock) and stops, with what it found so far, when either runs out (`timed_out()` then says so).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from .aic import Graph, build_graph
from .state import Geometry, State, bits, popcount
from .steps import Step, make_step

BUDGET = 400_000
"""Propagation passes (closures and grid passes) one search may spend."""

DEADLINE: list[float | None] = [None]
"""A time.perf_counter() instant after which every search stops (set by `deadline`), or None."""

_spent = [0, False]


def timed_out() -> bool:
    """Whether the last search stopped because it ran out of budget or time."""
    return bool(_spent[1])


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Within the block, searches also stop `seconds` from now (None: no time limit)."""
    saved = DEADLINE[0]
    DEADLINE[0] = None if seconds is None else time.perf_counter() + seconds
    try:
        yield
    finally:
        DEADLINE[0] = saved


def _charge(amount: int = 1) -> bool:
    """Spend budget; False (and the timed-out mark) once the budget or the time is exhausted."""
    _spent[0] += amount
    late = DEADLINE[0] is not None and _spent[0] % 256 == 1 and time.perf_counter() > DEADLINE[0]
    if _spent[0] > BUDGET or late:
        _spent[1] = True
    return not _spent[1]


def _reset() -> None:
    """A new search: a full budget."""
    _spent[0], _spent[1] = 0, False


# ---- static chains over the link graph ------------------------------------------------------------------


class Links:
    """The link graph of a state with the node masks of each cell and of each digit in each unit."""

    def __init__(self, state: State) -> None:
        self.graph: Graph = build_graph(state, grouped=False)
        g = self.graph
        groups: dict[tuple[str, int, int], int] = {}
        for x in range(g.singles):
            cell, d = g.cell_of[x], g.nodes[x][1]
            groups[("cell", cell, 0)] = groups.get(("cell", cell, 0), 0) | 1 << x
            for u in state.geo.cell_units[cell]:
                groups[("unit", u, d)] = groups.get(("unit", u, d), 0) | 1 << x
        self.groups = groups
        self.by_node: list[list[int]] = [[] for _ in range(g.singles)]
        """The group masks (cell, digit in a unit) each node belongs to."""
        for mask in groups.values():
            for x in bits(mask):
                self.by_node[x].append(mask)

    def closure(self, on: int, off: int) -> tuple[int, int] | None:
        """The (true, false) node masks implied by `on` true and `off` false, or None on a contradiction."""
        g = self.graph
        front_on, front_off = on, off
        while front_on or front_off:
            if not _charge():
                return None
            new_off = 0
            for x in bits(front_on):
                new_off |= g.weak[x]
            new_on = 0
            for x in bits(front_off):
                new_on |= g.strong[x]
            front_on, front_off = new_on & ~on, new_off & ~off
            on, off = on | new_on, off | new_off
            if on & off:
                return None
        for x in bits(off):
            for mask in self.by_node[x]:
                if mask & off == mask:
                    return None
        return on, off

    def effect(self, on: int, off: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """(placements, eliminations) of true and false node masks."""
        return self.graph.candidates(on), self.graph.candidates(off)


def forcing_chains(state: State) -> Iterator[Step]:
    """Static forcing chains: contradictions, then cell, unit and digit verities."""
    _reset()
    links = Links(state)
    g = links.graph
    results: dict[int, tuple[int, int] | None] = {}
    for x in range(g.singles):
        results[x] = links.closure(1 << x, 0)
        if results[x] is None and not timed_out():
            cell, d = g.cell_of[x], g.nodes[x][1]
            yield make_step(
                "forcing-chain", state, digits=[d], cells=[cell], eliminations=[(cell, d)], variant="contradiction"
            )
    if timed_out():
        return
    yield from _verities(state, "forcing-chain", links, results)
    for x in range(g.singles):
        off = links.closure(0, 1 << x)
        if timed_out():
            return
        cell, d = g.cell_of[x], g.nodes[x][1]
        if off is None:
            yield make_step(
                "forcing-chain", state, digits=[d], cells=[cell], placements=[(cell, d)], variant="contradiction"
            )
        elif results[x] is not None:
            yield from _common(state, "forcing-chain", links, [results[x], off], [x], "digit forcing")


def _verities(state: State, key: str, links: Links, results: dict) -> Iterator[Step]:
    """Cell and unit forcing: every alternative of a cell, or of a digit's places in a unit, agrees."""
    for (kind, _, _), mask in links.groups.items():
        ids = list(bits(mask))
        if len(ids) < 2:
            continue
        outcomes = [results[x] for x in ids if results[x] is not None]
        yield from _common(state, key, links, outcomes, ids, f"{kind} forcing")


def _common(state: State, key: str, links: Links, outcomes: list, ids: list[int], variant: str) -> Iterator[Step]:
    """The step of what every outcome (true, false masks) agrees on, beyond the assumptions themselves."""
    if not outcomes:
        return
    on, off = outcomes[0]
    for o_on, o_off in outcomes[1:]:
        on, off = on & o_on, off & o_off
    placements, eliminations = links.effect(on, off)
    placements = [(c, d) for c, d in placements if not state.values[c]]
    if placements or eliminations:
        g = links.graph
        yield make_step(
            key,
            state,
            digits=sorted({g.nodes[x][1] for x in ids}),
            cells=sorted({g.cell_of[x] for x in ids}),
            placements=placements,
            eliminations=eliminations,
            variant=variant,
        )


# ---- propagation on a copy of the grid ------------------------------------------------------------------


class Grid:
    """A mutable copy of the candidates for trial propagation: per-cell masks and per-digit cell masks."""

    def __init__(self, state: State) -> None:
        self.geo, self.n = state.geo, state.n
        self.cands = list(state.cands)
        self.dcells = list(state.dcells)
        self.placed = list(state.vcells)

    def copy(self) -> Grid:
        """An independent copy."""
        other = Grid.__new__(Grid)
        other.geo, other.n = self.geo, self.n
        other.cands, other.dcells, other.placed = list(self.cands), list(self.dcells), list(self.placed)
        return other

    def place(self, i: int, d: int) -> None:
        """Place d in cell i and remove it from the peers."""
        for e in bits(self.cands[i]):
            self.dcells[e + 1] &= ~(1 << i)
        self.cands[i] = 0
        self.placed[d] |= 1 << i
        bit = ~(1 << (d - 1))
        for j in bits(self.dcells[d] & self.geo.peers[i]):
            self.cands[j] &= bit
        self.dcells[d] &= ~self.geo.peers[i]

    def remove(self, i: int, d: int) -> None:
        """Remove candidate d from cell i."""
        self.cands[i] &= ~(1 << (d - 1))
        self.dcells[d] &= ~(1 << i)

    def broken(self) -> bool:
        """Whether an open cell has no candidate or a digit has no place in a unit."""
        placed = 0
        for p in self.placed[1:]:
            placed |= p
        if any(not m and not placed >> i & 1 for i, m in enumerate(self.cands)):
            return True
        for d in range(1, self.n + 1):
            have = self.dcells[d] | self.placed[d]
            if any(not have & m for m in self.geo.unit_masks):
                return True
        return False

    def singles(self, digits: list[int] | None = None) -> bool:
        """One pass of naked and hidden singles (on `digits` only when given); False on a contradiction."""
        geo, changed = self.geo, True
        only = None if digits is None else sum(1 << (d - 1) for d in digits)
        while changed:
            if not _charge():
                return True
            changed = False
            for i, m in enumerate(self.cands):
                if m and m & (m - 1) == 0 and (only is None or m & only):
                    self.place(i, m.bit_length())
                    changed = True
            for d in range(1, self.n + 1) if digits is None else digits:
                for umask in geo.unit_masks:
                    where = self.dcells[d] & umask
                    if where and where & (where - 1) == 0 and not self.placed[d] & umask:
                        self.place(where.bit_length() - 1, d)
                        changed = True
            if self.broken():
                return False
        return True

    def locked(self) -> bool:
        """Pointing and claiming once over every box and line; whether it removed something."""
        geo, masks, changed = self.geo, self.geo.unit_masks, False
        for d in range(1, self.n + 1):
            for u, crossing in _crossings(geo):
                where = self.dcells[d] & masks[u]
                if where & (where - 1) == 0:
                    continue
                for t in crossing:
                    rest = self.dcells[d] & masks[t] & ~where
                    if where & masks[t] == where and rest:
                        for j in bits(rest):
                            self.remove(j, d)
                        changed = True
        return changed


@lru_cache(maxsize=32)
def _crossings(geo: Geometry) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Each box with the lines that cross it, and each line with the boxes it crosses."""
    masks = geo.unit_masks
    lines = [u for u in geo.rows + geo.cols if u >= 0]
    out = [(b, tuple(t for t in lines if masks[b] & masks[t])) for b in geo.boxes]
    out += [(t, tuple(b for b in geo.boxes if masks[b] & masks[t])) for t in lines]
    return tuple(out)


def _diff(base: State, grid: Grid) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """(placements, eliminations) the grid holds beyond `base`."""
    placed = {(i, d) for d in range(1, base.n + 1) for i in bits(grid.placed[d] & ~base.vcells[d])}
    gone: set[tuple[int, int]] = set()
    for i, m in enumerate(base.cands):
        lost = m & ~grid.cands[i]
        gone.update((i, b + 1) for b in bits(lost) if (i, b + 1) not in placed)
    return placed, gone


def _follow(grid: Grid, nested: bool) -> Grid | None:
    """Propagate with singles and locked candidates (and nested static contradictions): None if broken."""
    while True:
        if not grid.singles():
            return None
        if grid.locked():
            continue
        if not nested or timed_out():
            return grid
        state = State(grid.geo, grid.cands, _values(grid))
        links = Links(state)
        found = False
        for x in range(links.graph.singles):
            if links.closure(1 << x, 0) is None and not timed_out():
                grid.remove(links.graph.cell_of[x], links.graph.nodes[x][1])
                found = True
        if grid.broken():
            return None
        if not found:
            return grid


def _values(grid: Grid) -> list[int]:
    """The placed values of a trial grid."""
    values = [0] * (grid.n * grid.n)
    for d in range(1, grid.n + 1):
        for i in bits(grid.placed[d]):
            values[i] = d
    return values


def nishio(state: State) -> Iterator[Step]:
    """Candidates whose digit, placed there and followed alone through its singles, runs out somewhere."""
    _reset()
    base = Grid(state)
    for i, m in enumerate(state.cands):
        for d in (b + 1 for b in bits(m)):
            trial = base.copy()
            trial.place(i, d)
            if timed_out():
                return
            if trial.broken() or not trial.singles([d]):
                if not timed_out():
                    yield make_step("nishio", state, digits=[d], cells=[i], eliminations=[(i, d)])


def dynamic_forcing_chains(state: State) -> Iterator[Step]:
    """Dynamic forcing chains, plain first, then with one level of nesting."""
    _reset()
    for nested in (False, True):
        found = False
        for step in _dynamic(state, nested):
            found = True
            yield step
        if found or timed_out():
            return


def _dynamic(state: State, nested: bool) -> Iterator[Step]:
    """Dynamic contradictions, then cell, unit and digit verities, following each assumption on the grid."""
    base = Grid(state)
    geo = state.geo
    outcome: dict[tuple[int, int], tuple[set, set] | None] = {}
    variant = "nested " if nested else ""
    for i, m in enumerate(state.cands):
        for d in (b + 1 for b in bits(m)):
            trial = base.copy()
            trial.place(i, d)
            done = None if trial.broken() else _follow(trial, nested)
            if timed_out():
                return
            outcome[(i, d)] = None if done is None else _diff(state, done)
            if done is None:
                yield make_step(
                    "dynamic-forcing-chain",
                    state,
                    digits=[d],
                    cells=[i],
                    eliminations=[(i, d)],
                    variant=variant + "contradiction",
                )
    for i, m in enumerate(state.cands):
        if popcount(m) >= 2:
            yield from _agree(state, [outcome[(i, b + 1)] for b in bits(m)], [i], variant + "cell forcing")
    for u in range(len(geo.units)):
        for d in range(1, state.n + 1):
            where = state.where(u, d)
            if popcount(where) >= 2:
                yield from _agree(
                    state, [outcome[(j, d)] for j in bits(where)], list(bits(where)), variant + "unit forcing"
                )
    for (i, d), on in outcome.items():
        if on is None:
            continue
        trial = base.copy()
        trial.remove(i, d)
        done = _follow(trial, nested)
        if timed_out():
            return
        if done is not None:
            yield from _agree(state, [on, _diff(state, done)], [i], variant + "digit forcing")


def _agree(state: State, outcomes: list, cells: list[int], variant: str) -> Iterator[Step]:
    """The step of what every (placements, eliminations) outcome agrees on (broken ones left out)."""
    kept = [o for o in outcomes if o is not None]
    if not kept:
        return
    placed, gone = set(kept[0][0]), set(kept[0][1])
    for p, g in kept[1:]:
        placed &= p
        gone &= g
    if placed or gone:
        yield make_step(
            "dynamic-forcing-chain",
            state,
            cells=cells,
            digits=sorted({d for _, d in placed | gone}),
            placements=sorted(placed),
            eliminations=sorted(gone),
            variant=variant,
        )
