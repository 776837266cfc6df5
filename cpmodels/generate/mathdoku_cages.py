"""Mathdoku cage layouts: the grid cut into connected cages, and an operator and target for each cage.

Partitions (lists of cages, each a list of (r, c) cells, orthogonally connected):
  keen_partition      Simon Tatham's Keen (keen.c, new_game_desc): the cells in row-major order each
                      pair with their free neighbour first in a random order, a domino kept with
                      probability 3/4; then every cell left alone joins the neighbouring cage first in
                      that order among those below the largest size. Cages of 2 to `largest` cells, most
                      of them dominoes (about 80% at 9x9 with largest 6).
  weighted_partition  cages grown from random free cells to a size drawn from weights, each from
                      random frontier cells; pieces below the smallest size join a neighbouring cage.
Givens (`fixed` cells, --singletons) are 1-cell cages placed before either.

Operators (choose_operators), as Keen chooses them: each cage's good and poor operators among `ops`
(- and / on 2 cells only, / only with an exact quotient); Keen's quality filters (`filters`) make 2-cell
sums of 3, 4, 2n-1 and 2n-2 poor (they leave one pair of values) and rule out a difference of n-1 and
a quotient above n/2 while another operator fits; then the operators are dealt round-robin over the
cages in random order (/, -, *, +: each takes the first cage it suits well, else the first it suits
poorly), so that their counts stay balanced. A cage no operator of `ops` fits becomes givens.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import prod

from ..cages import holds, is_connected, operators_for
from ..grid import Cage, Cell

KEEP_DOMINO = 0.75
"""Keen's probability of keeping a domino found in its first pass."""
DEAL_ORDER = ("/", "-", "*", "+")
"""The order operators are dealt in, each round (Keen's: the rarest-fitting first)."""


def neighbours(n: int, cell: Cell) -> list[Cell]:
    """The orthogonal neighbours of `cell` inside the n x n grid."""
    r, c = cell
    steps = ((r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c))
    return [(rr, cc) for rr, cc in steps if 0 <= rr < n and 0 <= cc < n]


class _Groups:
    """Disjoint sets of cells (union-find with sizes), as Keen's dsf."""

    def __init__(self, cells: Sequence[Cell]) -> None:
        self.parent = {cell: cell for cell in cells}
        self.size = dict.fromkeys(cells, 1)

    def find(self, cell: Cell) -> Cell:
        """The representative of the cell's group."""
        while self.parent[cell] != cell:
            self.parent[cell] = self.parent[self.parent[cell]]
            cell = self.parent[cell]
        return cell

    def join(self, a: Cell, b: Cell) -> None:
        """Merge the groups of a and b."""
        a, b = self.find(a), self.find(b)
        if a != b:
            self.parent[b] = a
            self.size[a] += self.size.pop(b)

    def groups(self) -> list[list[Cell]]:
        """The groups, each as its cells in row-major order, ordered by their first cell."""
        found: dict[Cell, list[Cell]] = {}
        for cell in sorted(self.parent):
            found.setdefault(self.find(cell), []).append(cell)
        return list(found.values())


def keen_partition(n: int, rng: random.Random, largest: int, fixed: frozenset[Cell] = frozenset()) -> list[list[Cell]]:
    """Keen's cages of 2..largest cells over the cells not in `fixed` (see the module docstring); lone cells stay alone.

    A cell no cage below `largest` touches is left as a 1-cell group (Keen starts again then).
    """
    cells = [(r, c) for r in range(n) for c in range(n) if (r, c) not in fixed]
    rank = {cell: k for k, cell in enumerate(rng.sample(cells, len(cells)))}
    groups = _Groups(cells)
    alone = set(cells)
    for cell in cells:
        if cell in alone:
            free = [m for m in neighbours(n, cell) if m in alone]
            if free and rng.random() < KEEP_DOMINO:
                mate = min(free, key=rank.__getitem__)
                groups.join(cell, mate)
                alone -= {cell, mate}
    for cell in cells:
        if cell in alone:
            room = [m for m in neighbours(n, cell) if m in rank and groups.size[groups.find(m)] < largest]
            if room:
                mate = min(room, key=rank.__getitem__)
                groups.join(cell, mate)
                alone -= {cell, mate}
    return groups.groups()


def weighted_partition(
    n: int, rng: random.Random, weights: dict[int, float], fixed: frozenset[Cell] = frozenset()
) -> list[list[Cell]]:
    """Cages over the cells not in `fixed`, each grown at random to a size drawn from `weights` (size: weight).

    Each cage starts from a free cell with the fewest free neighbours (ties at random), so that few cells
    are cut off. A cage that cannot grow to the smallest weighted size takes cells from neighbouring cages
    above that size (cells whose cage stays connected), else joins a neighbouring cage within the largest
    size; one that can do neither stays short (the caller draws again).
    """
    sizes, chances = zip(*sorted(weights.items()), strict=True)
    free = {(r, c) for r in range(n) for c in range(n)} - fixed
    owner: dict[Cell, int] = {}
    cages: list[list[Cell]] = []
    while free:
        degree = {cell: sum(m in free for m in neighbours(n, cell)) for cell in free}
        least = min(degree.values())
        start = rng.choice(sorted(cell for cell, d in degree.items() if d == least))
        cage = _grown(n, rng, start, rng.choices(sizes, chances)[0], free)
        for cell in cage:
            owner[cell] = len(cages)
        cages.append(cage)
    for k in range(len(cages)):
        while 0 < len(cages[k]) < sizes[0] and _take_cell(n, cages, owner, k, sizes[0]):
            pass
        if 0 < len(cages[k]) < sizes[0]:
            _join_short(n, cages, owner, k, sizes[-1])
    return [sorted(cage) for cage in cages if cage]


def _take_cell(n: int, cages: list[list[Cell]], owner: dict[Cell, int], k: int, least: int) -> bool:
    """Move into cage k a neighbouring cell whose cage has more than `least` cells and stays connected."""
    beside = sorted({m for cell in cages[k] for m in neighbours(n, cell) if m in owner and owner[m] != k})
    for cell in beside:
        j = owner[cell]
        rest = [x for x in cages[j] if x != cell]
        if len(cages[j]) > least and is_connected(rest):
            cages[j] = rest
            cages[k].append(cell)
            owner[cell] = k
            return True
    return False


def _grown(n: int, rng: random.Random, start: Cell, size: int, free: set[Cell]) -> list[Cell]:
    """A connected cage of up to `size` free cells grown from `start` by random frontier cells (taken from `free`)."""
    cage = [start]
    free.discard(start)
    while len(cage) < size:
        frontier = sorted({m for cell in cage for m in neighbours(n, cell)} & free)
        if not frontier:
            break
        cage.append(rng.choice(frontier))
        free.discard(cage[-1])
    return cage


def _join_short(n: int, cages: list[list[Cell]], owner: dict[Cell, int], k: int, largest: int) -> None:
    """Move short cage k into its smallest neighbouring cage that stays within `largest` cells, if any."""
    beside = {owner[m] for cell in cages[k] for m in neighbours(n, cell) if m in owner} - {k}
    fits = sorted((len(cages[j]), j) for j in beside if len(cages[j]) + len(cages[k]) <= largest)
    if fits:
        j = fits[0][1]
        for cell in cages[k]:
            owner[cell] = j
        cages[j] += cages[k]
        cages[k] = []


# ---- operators ----------------------------------------------------------------------------------


def target_of(op: str, values: Sequence[int]) -> int:
    """The target of `values` under `op`: sum, product, difference, quotient (exact or not), or the value (=)."""
    if op == "+":
        return sum(values)
    if op == "*":
        return prod(values)
    if op == "=":
        return values[0]
    low, high = min(values), max(values)
    return high - low if op == "-" else high // low


def operator_classes(values: Sequence[int], n: int, ops: str, filters: bool) -> tuple[list[str], list[str], list[str]]:
    """The operators of `ops` that fit a cage holding `values`: good, poor, and ruled out by the filters.

    - and / on 2 cells only, / only when the quotient is exact; with `filters`, Keen's: sums of two
    cells 3, 4, 2n-1, 2n-2 poor; a difference of n-1 and a quotient above n/2 ruled out.
    """
    fits = [op for op in operators_for(len(values)) if op in ops]
    good, poor, ruled = [], [], []
    low, high = min(values), max(values)
    for op in fits:
        if op == "/" and high % low:
            continue
        if filters and len(values) == 2 and op == "+" and sum(values) in (3, 4, 2 * n - 1, 2 * n - 2):
            poor.append(op)
        elif filters and op == "-" and high - low == n - 1 or filters and op == "/" and 2 * (high // low) > n:
            ruled.append(op)
        else:
            good.append(op)
    return good, poor, ruled


def choose_operators(
    groups: Sequence[Sequence[Cell]], square: Sequence[int], n: int, ops: str, filters: bool, rng: random.Random
) -> list[Cage]:
    """A cage for each group with an operator of `ops` dealt round-robin (module docstring); givens where none fits."""
    values = [[square[r * n + c] for r, c in cells] for cells in groups]
    classes = [operator_classes(v, n, ops, filters) if len(v) > 1 else ([], [], []) for v in values]
    chosen: dict[int, str] = {}
    order = rng.sample(range(len(groups)), len(groups))
    dealt = True
    while dealt:
        dealt = False
        for op in DEAL_ORDER:
            for rank in (0, 1):
                k = next((k for k in order if k not in chosen and op in classes[k][rank]), None)
                if k is not None:
                    chosen[k], dealt = op, True
                    break
    cages = []
    for k, cells in enumerate(groups):
        taken = chosen.get(k) or (rng.choice(classes[k][2]) if classes[k][2] else None)
        if taken is None:
            cages += [Cage((cell,), "=", v) for cell, v in zip(cells, values[k], strict=True)]
        else:
            cages.append(Cage(tuple(cells), taken, target_of(taken, values[k])))
    return cages


def cage_with(cells: Sequence[Cell], op: str, square: Sequence[int], n: int) -> Cage:
    """The cage over `cells` with `op` and its target from the solution `square`."""
    return Cage(tuple(sorted(cells)), op, target_of(op, [square[r * n + c] for r, c in cells]))


def meets(cage: Cage, grid: Sequence[int], n: int, hidden: bool) -> bool:
    """Whether `grid` meets the cage (with its operator hidden if `hidden`)."""
    op = None if hidden and len(cage.cells) > 1 else cage.op
    return holds(op, cage.target, [grid[r * n + c] for r, c in cage.cells])
