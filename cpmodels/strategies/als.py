"""Almost locked sets: ALS-XZ, Sue de Coq, aligned pair exclusion.

An almost locked set (ALS) is k open cells of one unit holding k+1 digits together: remove any one
digit and the rest are locked in it.
ALS-XZ: two ALS A and B share a digit x whose places in A and B all see each other (a restricted common:
x is in at most one of them), so one of A, B is locked without x; a second common digit z is then in A
or in B, and every cell that sees all z places of both loses z. With two restricted commons (doubly
linked) both sets are locked: every digit of A (other than the commons) leaves the cells that see all
its places in A, the same for B, and each common leaves the cells that see all its places in A and B.
Sue de Coq: in a box-line intersection, m >= 2 cells holding m+2 or more digits V; with cells A of the
rest of the line (digits Da) and cells B of the rest of the box (digits Db), Da and Db disjoint, and as
many cells as digits in V, Da and Db together, every digit sits once in the whole set: the line's other
cells lose Da and V minus Db, the box's other cells lose Db and V minus Da.
Aligned pair exclusion: two cells of one unit; a pair of digits (x in the first, y in the second) is
impossible when x = y, or when an ALS seen by both cells holds both x and y (it would be left with too
few digits). A digit of a cell with no possible partner in the other cell is removed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from .state import State, bits, popcount
from .steps import Step, make_step, removals


@dataclass(frozen=True)
class Als:
    """An almost locked set: its cells (a mask), its digits (a mask), the unit it lies in."""

    cells: int
    digits: int
    unit: int


def almost_locked_sets(state: State, max_size: int | None = None) -> list[Als]:
    """Every ALS of the state (one per cell set), up to `max_size` cells (default: 8 up to 9x9, 4 beyond)."""
    geo = state.geo
    limit = max_size if max_size is not None else (8 if state.n <= 9 else 4)
    out: dict[int, Als] = {}
    for u, unit in enumerate(geo.units):
        cells = [i for i in unit if state.cands[i]]
        top = min(limit, len(cells) - 1)
        for mask, digits in _grow(state, cells, top):
            out.setdefault(mask, Als(mask, digits, u))
    return list(out.values())


def _grow(state: State, cells: list[int], top: int) -> Iterator[tuple[int, int]]:
    """(cells, digits) of the subsets of `cells` of up to `top` cells holding one digit more than cells."""
    stack = [(0, 0, 0, 0)]  # (next index, cells mask, digits mask, size)
    while stack:
        start, mask, digits, size = stack.pop()
        if size and popcount(digits) == size + 1:
            yield mask, digits
        if size == top:
            continue
        for j in range(start, len(cells)):
            joined = digits | state.cands[cells[j]]
            if popcount(joined) <= top + 1:
                stack.append((j + 1, mask | 1 << cells[j], joined, size + 1))


def _places(state: State, cells: int, d: int) -> int:
    """The cells of `cells` holding digit d."""
    return state.dcells[d] & cells


def _seeing_all(state: State, cells: int) -> int:
    """The cells that see every cell of `cells` (not among them)."""
    seen = state.geo.all_cells
    for i in bits(cells):
        seen &= state.geo.peers[i]
    return seen & ~cells


def _restricted_commons(state: State, a: Als, b: Als) -> list[int]:
    """The digits common to A and B whose places in A all see their places in B (none in both)."""
    out = []
    for x in (k + 1 for k in bits(a.digits & b.digits)):
        pa, pb = _places(state, a.cells, x), _places(state, b.cells, x)
        if pa & b.cells or pb & a.cells:
            continue
        if all(state.geo.peers[i] & pb == pb for i in bits(pa)):
            out.append(x)
    return out


def als_xz(state: State) -> Iterator[Step]:
    """ALS-XZ, singly and doubly linked."""
    for a, b in _linked_pairs(state, almost_locked_sets(state)):
        commons = _restricted_commons(state, a, b)
        if len(commons) == 1:
            gone = _singly_linked(state, a, b, commons[0])
        elif len(commons) == 2:
            gone = _doubly_linked(state, a, b, commons)
        else:
            continue
        if gone:
            yield make_step(
                "als-xz",
                state,
                digits=commons,
                cells=list(bits(a.cells | b.cells)),
                units=[a.unit, b.unit],
                eliminations=gone,
                variant="doubly linked" if len(commons) == 2 else "",
            )


def _linked_pairs(state: State, sets: list[Als]) -> Iterator[tuple[Als, Als]]:
    """Disjoint pairs of ALS with two common digits, one of them possibly restricted (its places see each other)."""
    seen: set[tuple[int, int]] = set()
    for x in range(1, state.n + 1):
        having = [(s, state.dcells[x] & s.cells) for s in sets if s.digits >> (x - 1) & 1]
        reach = [_seeing_all(state, places) for _, places in having]
        for j, (a, _) in enumerate(having):
            for k in range(j + 1, len(having)):
                b, pb = having[k]
                if pb & ~reach[j] or a.cells & b.cells or popcount(a.digits & b.digits) < 2:
                    continue
                key = (a.cells, b.cells)
                if key not in seen:
                    seen.add(key)
                    yield a, b


def _singly_linked(state: State, a: Als, b: Als, x: int) -> set[tuple[int, int]]:
    """Each common digit z other than x leaves the cells seeing all its places in A and B."""
    gone: set[tuple[int, int]] = set()
    for z in (k + 1 for k in bits(a.digits & b.digits & ~(1 << (x - 1)))):
        where = _places(state, a.cells | b.cells, z)
        gone.update(removals(state, _seeing_all(state, where), 1 << (z - 1)))
    return gone


def _doubly_linked(state: State, a: Als, b: Als, commons: list[int]) -> set[tuple[int, int]]:
    """Both sets locked: their digits leave the cells seeing all their places; the commons across both."""
    gone: set[tuple[int, int]] = set()
    both = a.cells | b.cells
    for s in (a, b):
        for z in bits(s.digits):
            if z + 1 not in commons:
                seen = _seeing_all(state, _places(state, s.cells, z + 1)) & ~both
                gone.update(removals(state, seen, 1 << z))
    for x in commons:
        gone.update(removals(state, _seeing_all(state, _places(state, both, x)) & ~both, 1 << (x - 1)))
    return gone


def sue_de_coq(state: State) -> Iterator[Step]:
    """Sue de Coq on every box-line intersection."""
    geo = state.geo
    if not geo.has_boxes:
        return
    for box in geo.boxes:
        for line in (u for u in geo.rows + geo.cols if u >= 0):
            inter = geo.unit_masks[box] & geo.unit_masks[line]
            if popcount(inter) >= 2:
                yield from _sdc_at(state, box, line, inter)


def _subsets(state: State, cells: int, within: int) -> list[tuple[int, int]]:
    """(cells, digits) of the non-empty subsets of open `cells` whose cells each share a digit with `within`.

    Up to 9x9 every subset; beyond, subsets of up to two cells (the pairs of subsets grow too fast).
    """
    usable = [i for i in bits(cells) if state.cands[i] & within]
    out = []
    for k in range(1, (len(usable) if state.n <= 9 else min(2, len(usable))) + 1):
        for combo in combinations(usable, k):
            digits = 0
            for i in combo:
                digits |= state.cands[i]
            out.append((sum(1 << i for i in combo), digits))
    return out


def _sdc_at(state: State, box: int, line: int, inter: int) -> Iterator[Step]:
    """Sue de Coq steps whose core lies in the intersection `inter` of `box` and `line`."""
    geo = state.geo
    core_cells = [i for i in bits(inter) if state.cands[i]]
    line_rest = geo.unit_masks[line] & ~inter
    box_rest = geo.unit_masks[box] & ~inter
    for k in range(2, len(core_cells) + 1):
        for core in combinations(core_cells, k):
            v = 0
            for i in core:
                v |= state.cands[i]
            if popcount(v) < k + 2:
                continue
            core_mask = sum(1 << i for i in core)
            line_sets = _subsets(state, line_rest, v)
            box_sets = _subsets(state, box_rest, v)
            for a_cells, da in line_sets:
                for b_cells, db in box_sets:
                    if da & db or k + popcount(a_cells) + popcount(b_cells) != popcount(v | da | db):
                        continue
                    used = core_mask | a_cells | b_cells
                    gone = removals(state, geo.unit_masks[line] & ~used, da | (v & ~db))
                    gone += removals(state, geo.unit_masks[box] & ~used, db | (v & ~da))
                    if gone:
                        yield make_step(
                            "sue-de-coq",
                            state,
                            digits=[d + 1 for d in bits(v | da | db)],
                            cells=list(bits(used)),
                            units=[box, line],
                            eliminations=gone,
                        )


def aligned_pair_exclusion(state: State) -> Iterator[Step]:
    """Aligned pair exclusion over every two open cells of a unit, with ALS of up to three cells."""
    geo = state.geo
    sets = almost_locked_sets(state, max_size=3)
    done = set()
    for unit in geo.units:
        open_cells = [i for i in unit if state.cands[i]]
        for p, q in combinations(open_cells, 2):
            if (p, q) in done:
                continue
            done.add((p, q))
            common = geo.peers[p] & geo.peers[q]
            blockers = [s.digits for s in sets if s.cells & common == s.cells]
            gone = _excluded(state, p, q, blockers)
            if gone:
                yield make_step(
                    "aligned-pair-exclusion",
                    state,
                    digits=sorted({d for _, d in gone}),
                    cells=[p, q],
                    eliminations=gone,
                )


def _excluded(state: State, p: int, q: int, blockers: list[int]) -> list[tuple[int, int]]:
    """The digits of p or q with no partner digit in the other cell that no blocker ALS excludes."""
    fine_p, fine_q = 0, 0
    for x in bits(state.cands[p]):
        for y in bits(state.cands[q]):
            pair = 1 << x | 1 << y
            if x == y or any(digits & pair == pair for digits in blockers):
                continue
            fine_p |= 1 << x
            fine_q |= 1 << y
    return removals(state, 1 << p, state.cands[p] & ~fine_p) + removals(state, 1 << q, state.cands[q] & ~fine_q)
