"""The hot path of the backtrack backend: candidate-mask propagation and an iterative, resumable search.

Arrays in, arrays and ints out; no Python object per node. Value v of a cell is bit v-1 of its
uint64 candidate mask (orders up to 64). The puzzle arrives as `structure`, a tuple of flat int64
arrays with offsets (see STRUCTURE), and `tuple_bits`, every cage tuple as one bit per cell.

The search is iterative with an explicit stack of levels and a trail of (cell, old mask): a
recursive njit function with cache=True has segfaulted when loaded from the cache. All its state
lives in arrays the caller keeps (see new_search), so `run_search` can stop after `max_nodes` and
be called again: the caller reads the clock between calls (numba cannot read one cheaply).

Compilation and speed (measured, see the backend's report): every kernel is compiled with
`_nrt=False` (no reference counting: all arrays are allocated by the caller, and numba's atomic
increments and decrements of array references took about half the time of a node) and `_change`
is inlined at numba's IR level (a call per mask change cost about a third more). Functions are few
on purpose: numba compiles each njit function and signature on its own, at seconds apiece on a
loaded machine.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

KERNEL: dict[str, Any] = {"cache": True, "_nrt": False}
"""njit options of every kernel: cached on disk, and no reference counting (numba's private `_nrt` flag)."""

STRUCTURE = (
    "unit_start",  # unit u is unit_cells[unit_start[u]:unit_start[u + 1]]
    "unit_cells",
    "peer_start",  # the peers of cell i (cells sharing a unit, i excluded) are peers[peer_start[i]:peer_start[i + 1]]
    "peers",
    "cell_unit_start",  # the units holding cell i are cell_units[cell_unit_start[i]:cell_unit_start[i + 1]]
    "cell_units",
    "cell_cage",  # the cage holding cell i, or -1
    "cage_start",  # cage g is cage_cells[cage_start[g]:cage_start[g + 1]]
    "cage_cells",
    "tuple_start",  # cage g's tuples are tuple_bits[tuple_start[g]:tuple_start[g + 1]], one bit per cage cell
    "inter_start",  # intersection x (of two units, 2+ cells) is inter_cells[inter_start[x]:inter_start[x + 1]]
    "inter_cells",
    "inter_units",  # its units a and b are inter_units[2x] and inter_units[2x + 1]
    "rest_start",  # the cells of a outside x are rest_cells[rest_start[2x]:rest_start[2x + 1]], then those of b
    "rest_cells",
    "unit_inter_start",  # the intersections of unit u are unit_inters[unit_inter_start[u]:unit_inter_start[u + 1]]
    "unit_inters",
)
"""The names, in order, of the int64 arrays in the `structure` tuple every kernel takes."""

# Slots of the int64 `state` array that survives between calls of run_search.
PHASE, DEPTH, TRAIL, NODES, BACKTRACKS, COUNT, BUFFERED, PUZZLE, COMPLETE = range(9)
STATE_SIZE = 9
# Phases of the current puzzle: propagate its givens, choose a branching cell, try the next value, finished.
START, DESCEND, NEXT, DONE = 0, 1, 2, 3
# What run_search returns: every puzzle finished, out of nodes for this call, solution buffer full.
FINISHED, PAUSED, BUFFER_FULL = 0, 1, 2
# Columns of the `results` array, one row per puzzle (COMPLETE: 1 if the search was exhausted).
R_COUNT, R_NODES, R_BACKTRACKS, R_COMPLETE = 0, 1, 2, 3
# Slots of the int64 `work` array: the naked-single queue's head and tail, dirty unit, cage and intersection counts.
QHEAD, QTAIL, NDIRTY_UNITS, NDIRTY_CAGES, NDIRTY_INTERS = 0, 1, 2, 3, 4
WORK_SIZE = 5
BUFFER_ROWS = 256
"""Solution rows the kernel fills at most before handing them back (BUFFER_FULL)."""


def new_search(starts: np.ndarray, n: int, nunits: int, ncages: int, ninters: int, buffer_rows: int) -> tuple:
    """Fresh search arrays for puzzles whose initial masks are the rows of `starts`, for run_search(*search).

    In order: masks, trail cells and old masks, state, level cell/values left/trail mark, the solution
    buffer and each buffered row's puzzle, results (one row per puzzle), then propagation scratch: the
    tuple (naked-single queue, dirty unit list, unit flags, dirty cage list, cage flags, dirty intersection
    list, intersection flags), `work` counters and a cage union per cell. The trail holds at most
    ncells*n entries: along one path every entry removes at least one candidate. The arrays can serve
    another search once `state` is zeroed: a puzzle's START resets the rest.
    """
    ncells = starts.shape[1]
    scratch = tuple(np.zeros(size, np.int64) for size in (ncells, nunits, nunits, ncages, ncages, ninters, ninters))
    return (
        np.zeros(ncells, np.uint64),
        np.zeros(ncells * n + 1, np.int64),
        np.zeros(ncells * n + 1, np.uint64),
        np.zeros(STATE_SIZE, np.int64),
        np.zeros(ncells + 1, np.int64),
        np.zeros(ncells + 1, np.uint64),
        np.zeros(ncells + 1, np.int64),
        np.zeros((max(1, buffer_rows), ncells), np.uint8),
        np.zeros(max(1, buffer_rows), np.int64),
        np.zeros((starts.shape[0], 4), np.int64),
        scratch,
        np.zeros(WORK_SIZE, np.int64),
        np.zeros(ncells, np.uint64),
    )


@njit(**KERNEL)
def popcount(x: np.uint64) -> np.int64:
    """The number of set bits of a uint64 (SWAR: pairs, nibbles, bytes, then one multiply)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(**KERNEL)
def _clear(dirty_units, unit_flag, dirty_cages, cage_flag, dirty_inters, inter_flag, work) -> None:
    """Empty the naked-single queue and the dirty lists, clearing the flags of what they held."""
    for k in range(work[NDIRTY_UNITS]):
        unit_flag[dirty_units[k]] = 0
    for k in range(work[NDIRTY_CAGES]):
        cage_flag[dirty_cages[k]] = 0
    for k in range(work[NDIRTY_INTERS]):
        inter_flag[dirty_inters[k]] = 0
    for k in range(WORK_SIZE):
        work[k] = 0


@njit(**KERNEL, inline="always")
def _change(
    cell, new, masks, trail_cell, trail_mask, state, cell_unit_start, cell_units, cell_cage,
    queue, dirty_units, unit_flag, dirty_cages, cage_flag, work,
) -> None:  # fmt: skip
    """Narrow masks[cell] to the nonzero `new`: trail the old mask, queue a new single, mark its units and cage dirty."""
    t = state[TRAIL]
    trail_cell[t] = cell
    trail_mask[t] = masks[cell]
    state[TRAIL] = t + 1
    masks[cell] = new
    if new & (new - np.uint64(1)) == 0:
        queue[work[QTAIL]] = cell
        work[QTAIL] += 1
    for k in range(cell_unit_start[cell], cell_unit_start[cell + 1]):
        u = cell_units[k]
        if unit_flag[u] == 0:
            unit_flag[u] = 1
            dirty_units[work[NDIRTY_UNITS]] = u
            work[NDIRTY_UNITS] += 1
    g = cell_cage[cell]
    if g >= 0 and cage_flag[g] == 0:
        cage_flag[g] = 1
        dirty_cages[work[NDIRTY_CAGES]] = g
        work[NDIRTY_CAGES] += 1


@njit(**KERNEL)
def propagate(
    n, full, masks, trail_cell, trail_mask, state,
    unit_start, unit_cells, peer_start, peers, cell_unit_start, cell_units, cell_cage, cage_start, cage_cells,
    tuple_start, tuple_bits, queue, dirty_units, unit_flag, dirty_cages, cage_flag, work, union,
    inter_start, inter_cells, inter_units, rest_start, rest_cells, unit_inter_start, unit_inters, dirty_inters, inter_flag,
) -> bool:  # fmt: skip
    """Run naked singles, hidden singles, locked candidates and cage filtering to a fixpoint; False on a contradiction.

    Takes the structure and scratch arrays one by one, unpacked once per run_search call.
    """
    one = np.uint64(1)
    while True:
        # 1. Naked singles: a cell down to one value removes it from every peer.
        while work[QHEAD] < work[QTAIL]:
            cell = queue[work[QHEAD]]
            work[QHEAD] += 1
            bit = masks[cell]
            for k in range(peer_start[cell], peer_start[cell + 1]):
                p = peers[k]
                if masks[p] & bit:
                    new = masks[p] & ~bit
                    if new == 0:
                        return False
                    _change(
                        p,
                        new,
                        masks,
                        trail_cell,
                        trail_mask,
                        state,
                        cell_unit_start,
                        cell_units,
                        cell_cage,
                        queue,
                        dirty_units,
                        unit_flag,
                        dirty_cages,
                        cage_flag,
                        work,
                    )
        # 2. One dirty unit, then back to 1: a full unit must still cover 1..n and places its hidden singles
        #    (values with one possible cell); a partial unit of k cells must still offer k values. Its
        #    intersections with other units become dirty for 3.
        if work[NDIRTY_UNITS] > 0:
            work[NDIRTY_UNITS] -= 1
            u = dirty_units[work[NDIRTY_UNITS]]
            unit_flag[u] = 0
            for k in range(unit_inter_start[u], unit_inter_start[u + 1]):
                x = unit_inters[k]
                if inter_flag[x] == 0:
                    inter_flag[x] = 1
                    dirty_inters[work[NDIRTY_INTERS]] = x
                    work[NDIRTY_INTERS] += 1
            lo, hi = unit_start[u], unit_start[u + 1]
            once = np.uint64(0)
            twice = np.uint64(0)
            for k in range(lo, hi):
                m = masks[unit_cells[k]]
                twice |= once & m
                once |= m
            if hi - lo < n:
                if popcount(once) < hi - lo:
                    return False
                continue
            if once != full:
                return False
            hidden = once & ~twice
            while hidden:
                bit = hidden & (~hidden + one)
                hidden ^= bit
                found = -1
                for k in range(lo, hi):
                    if masks[unit_cells[k]] & bit:
                        found = unit_cells[k]
                        break
                if found < 0:  # the one cell that could hold it took another hidden single
                    return False
                if masks[found] != bit:
                    _change(
                        found,
                        bit,
                        masks,
                        trail_cell,
                        trail_mask,
                        state,
                        cell_unit_start,
                        cell_units,
                        cell_cage,
                        queue,
                        dirty_units,
                        unit_flag,
                        dirty_cages,
                        cage_flag,
                        work,
                    )
            continue
        # 3. One dirty intersection x of units a and b, once singles are quiet (locked candidates): a value
        #    that full unit a can place only inside x is removed from the rest of b, and the other way round.
        if work[NDIRTY_INTERS] > 0:
            work[NDIRTY_INTERS] -= 1
            x = dirty_inters[work[NDIRTY_INTERS]]
            inter_flag[x] = 0
            inside = np.uint64(0)  # the values of x's undecided cells: naked singles dealt with the others
            for k in range(inter_start[x], inter_start[x + 1]):
                m = masks[inter_cells[k]]
                if m & (m - one):
                    inside |= m
            if inside == 0:
                continue
            for side in range(2):
                u = inter_units[2 * x + side]
                if unit_start[u + 1] - unit_start[u] < n:
                    continue
                # the values of x that the rest of u lacks (the scan stops once it lacks none)
                lone = inside
                for k in range(rest_start[2 * x + side], rest_start[2 * x + side + 1]):
                    lone &= ~masks[rest_cells[k]]
                    if lone == 0:
                        break
                if lone == 0:
                    continue
                other = 2 * x + 1 - side
                for k in range(rest_start[other], rest_start[other + 1]):
                    cell = rest_cells[k]
                    if masks[cell] & lone:
                        new = masks[cell] & ~lone
                        if new == 0:
                            return False
                        _change(
                            cell,
                            new,
                            masks,
                            trail_cell,
                            trail_mask,
                            state,
                            cell_unit_start,
                            cell_units,
                            cell_cage,
                            queue,
                            dirty_units,
                            unit_flag,
                            dirty_cages,
                            cage_flag,
                            work,
                        )
            continue
        # 4. One dirty cage, once the cheaper rules are quiet: keep the tuples that fit the masks, and
        #    narrow each cage cell to the values those tuples give it.
        if work[NDIRTY_CAGES] > 0:
            work[NDIRTY_CAGES] -= 1
            g = dirty_cages[work[NDIRTY_CAGES]]
            cage_flag[g] = 0
            lo, hi = cage_start[g], cage_start[g + 1]
            size = hi - lo
            for i in range(size):
                union[i] = 0
            for base in range(tuple_start[g], tuple_start[g + 1], size):
                fits = True
                for i in range(size):
                    if masks[cage_cells[lo + i]] & tuple_bits[base + i] == 0:
                        fits = False
                        break
                if fits:
                    for i in range(size):
                        union[i] |= tuple_bits[base + i]
            for i in range(size):
                cell = cage_cells[lo + i]
                new = masks[cell] & union[i]
                if new == 0:
                    return False
                if new != masks[cell]:
                    _change(
                        cell,
                        new,
                        masks,
                        trail_cell,
                        trail_mask,
                        state,
                        cell_unit_start,
                        cell_units,
                        cell_cage,
                        queue,
                        dirty_units,
                        unit_flag,
                        dirty_cages,
                        cage_flag,
                        work,
                    )
            continue
        return True


@njit(**KERNEL, nogil=True)
def run_search(
    n, structure, tuple_bits, starts, masks, trail_cell, trail_mask, state, level_cell, level_todo, level_mark,
    buffer, buffer_puzzle, results, scratch, work, union, limit, keep, max_nodes,
) -> int:  # fmt: skip
    """Search the puzzles whose initial masks are the rows of `starts`, one after another, from `state` on.

    Each puzzle is counted up to `limit` solutions; its first `keep` solutions go to `buffer` (values
    1..n, the puzzle's index in `buffer_puzzle`) and its count, nodes, backtracks and exhaustion to
    its row of `results`. Returns FINISHED once every puzzle is, PAUSED after `max_nodes` nodes in this
    call, BUFFER_FULL when the caller must empty the buffer (reset state[BUFFERED]); call again to resume.
    Releases the GIL, so threads can search slices of a batch at once.
    """
    ncells = masks.shape[0]
    nunits = structure[0].shape[0] - 1
    ncages = structure[7].shape[0] - 1
    unit_start, unit_cells, peer_start, peers, cell_unit_start, cell_units, cell_cage = structure[:7]
    cage_start, cage_cells, tuple_start = structure[7:10]
    inter_start, inter_cells, inter_units, rest_start, rest_cells, unit_inter_start, unit_inters = structure[10:]
    queue, dirty_units, unit_flag, dirty_cages, cage_flag, dirty_inters, inter_flag = scratch
    one = np.uint64(1)
    full = ~np.uint64(0) if n >= 64 else (one << np.uint64(n)) - one
    spent = 0  # nodes in this call
    while state[PUZZLE] < starts.shape[0]:
        phase = state[PHASE]
        if phase == START:
            # 1. A puzzle's root: load its masks, queue every single, mark every unit and cage dirty, propagate.
            for i in range(ncells):
                masks[i] = starts[state[PUZZLE], i]
            for x in range(inter_flag.shape[0]):  # a search cut short by its deadline may have left these set
                inter_flag[x] = 0
            work[QHEAD] = work[QTAIL] = work[NDIRTY_INTERS] = 0
            ok = True
            for cell in range(ncells):
                m = masks[cell]
                ok = ok and m != 0
                if m != 0 and m & (m - one) == 0:
                    queue[work[QTAIL]] = cell
                    work[QTAIL] += 1
            for u in range(nunits):
                dirty_units[u] = u
                unit_flag[u] = 1
            for g in range(ncages):
                dirty_cages[g] = g
                cage_flag[g] = 1
            work[NDIRTY_UNITS] = nunits
            work[NDIRTY_CAGES] = ncages
            ok = ok and propagate(
                n, full, masks, trail_cell, trail_mask, state,
                unit_start, unit_cells, peer_start, peers, cell_unit_start, cell_units, cell_cage, cage_start,
                cage_cells, tuple_start, tuple_bits, queue, dirty_units, unit_flag, dirty_cages, cage_flag, work, union,
                inter_start, inter_cells, inter_units, rest_start, rest_cells, unit_inter_start, unit_inters,
                dirty_inters, inter_flag,
            )  # fmt: skip
            state[PHASE] = DESCEND if ok else DONE
            state[COMPLETE] = 0 if ok else 1
        elif phase == DESCEND:
            # 2. After a consistent propagation: branch on a cell with the fewest candidates (MRV); among
            #    bivalue cells, the one with the most undecided peers (degree: its choice constrains most).
            cell = -1
            fewest = 65
            degree = -1
            for i in range(ncells):
                m = masks[i]
                if m & (m - one):
                    count = popcount(m)
                    if count < fewest or count == fewest == 2:
                        open_peers = 0
                        if count == 2:  # degrees of bivalue cells only: a scan of every peer costs
                            for k in range(peer_start[i], peer_start[i + 1]):
                                pm = masks[peers[k]]
                                open_peers += (pm & (pm - one)) != 0
                        if count < fewest or open_peers > degree:
                            cell, fewest, degree = i, count, open_peers
            if cell >= 0:
                d = state[DEPTH] + 1
                state[DEPTH] = d
                level_cell[d] = cell
                level_todo[d] = masks[cell]
                level_mark[d] = state[TRAIL]
                state[PHASE] = NEXT
                continue
            # 3. Every cell is single: a solution. Record it while fewer than `keep` are, and count it.
            if state[COUNT] < keep:
                if state[BUFFERED] == buffer.shape[0]:
                    return BUFFER_FULL  # resumes here, in DESCEND, once the caller has emptied the buffer
                for i in range(ncells):
                    buffer[state[BUFFERED], i] = popcount(masks[i] - one) + 1
                buffer_puzzle[state[BUFFERED]] = state[PUZZLE]
                state[BUFFERED] += 1
            state[COUNT] += 1
            state[PHASE] = DONE if state[COUNT] >= limit else NEXT
        elif phase == NEXT:
            # 4. Undo the value tried last at this depth (restore the trail to the level's mark).
            d = state[DEPTH]
            if d == 0:
                state[PHASE] = DONE
                state[COMPLETE] = 1
                continue
            t = state[TRAIL]
            while t > level_mark[d]:
                t -= 1
                masks[trail_cell[t]] = trail_mask[t]
            state[TRAIL] = t
            todo = level_todo[d]
            if todo == 0:
                state[DEPTH] = d - 1  # 5. every value of this level is done: backtrack one level
                continue
            if spent >= max_nodes:
                return PAUSED
            # 6. Try the next value in increasing order; failure stays in NEXT, success descends.
            bit = todo & (~todo + one)
            level_todo[d] = todo ^ bit
            state[NODES] += 1
            spent += 1
            # what a failed propagation left behind
            _clear(dirty_units, unit_flag, dirty_cages, cage_flag, dirty_inters, inter_flag, work)
            _change(
                level_cell[d],
                bit,
                masks,
                trail_cell,
                trail_mask,
                state,
                cell_unit_start,
                cell_units,
                cell_cage,
                queue,
                dirty_units,
                unit_flag,
                dirty_cages,
                cage_flag,
                work,
            )
            if propagate(
                n, full, masks, trail_cell, trail_mask, state,
                unit_start, unit_cells, peer_start, peers, cell_unit_start, cell_units, cell_cage, cage_start,
                cage_cells, tuple_start, tuple_bits, queue, dirty_units, unit_flag, dirty_cages, cage_flag, work, union,
                inter_start, inter_cells, inter_units, rest_start, rest_cells, unit_inter_start, unit_inters,
                dirty_inters, inter_flag,
            ):  # fmt: skip
                state[PHASE] = DESCEND
            else:
                state[BACKTRACKS] += 1
        else:
            # 7. DONE: report the puzzle and reset the state for the next one.
            p = state[PUZZLE]
            results[p, R_COUNT] = state[COUNT]
            results[p, R_NODES] = state[NODES]
            results[p, R_BACKTRACKS] = state[BACKTRACKS]
            results[p, R_COMPLETE] = state[COMPLETE]
            state[PUZZLE] = p + 1
            state[PHASE] = START
            state[DEPTH] = state[TRAIL] = state[NODES] = state[BACKTRACKS] = state[COUNT] = 0
            _clear(dirty_units, unit_flag, dirty_cages, cage_flag, dirty_inters, inter_flag, work)
    return FINISHED
