# mypy: disable-error-code="call-arg, var-annotated, call-overload"
"""The hot path of the backtrack backend: candidate-mask propagation and an iterative, resumable search.

One native function, `search(args)`, compiled by numba as a C function (`cfunc`) whose only
argument is the address of an int64 block (backtrack.A_*): the addresses of the structure, the
givens, the workspaces, the solution buffer and the results, then the limits and options. The
backtrack module calls it through ctypes, from numba's in-process compilation the first time and
afterwards from the object code it saved (backtrack.native_search): a warm start imports llvmlite
only, never numba, and a call costs one ctypes argument. ctypes releases the GIL during the call,
so threads search slices of a batch at once.

Arrays are raw pointers indexed by offsets (numba arrays would need its reference-counting runtime,
which a standalone object cannot link); every offset comes from the structure's header (S_*) or the
workspace's (W_*). The layout is defined at the top of this module, which imports numba only inside
compile_search: backtrack.py imports the layout, fills the arrays and loads the compiled object
without numba. Value v of a cell is bit v-1 of its uint64 candidate mask (orders up to 64).

The search is iterative with an explicit stack of levels and a trail of (cell, old mask): a
recursive njit function with cache=True has segfaulted when loaded from numba's cache. All its
state lives in the workspace the caller keeps, so `search` can stop after `max_nodes` values tried
and be called again: the caller reads the clock between calls.

Every propagation goes through one call site (`_propagate` is inlined once): the state machine's
phases (START, DESCEND, NEXT, DONE, and probing inside DESCEND) set what to try, the propagation
runs, and its outcome is read by the phase that asked.

Measured while choosing the rules (perf on forum_hardest): about a third of the time goes to naked
singles (the peer loop), a fifth to the unit scans (hidden singles, then the values of each part for
locked candidates), the rest to trail, branching choice and undo. Locked candidates were first a
queue of dirty intersections, each read cell by cell: the unit scan costs half as much per node.
Later (perf on forum_hardest, samples mapped to the saved object's code): the peer loop of naked
singles and the dirty-unit marking of `_change` were a third of the time, mostly mispredicted
branches on which peer holds the value and which unit is already dirty; both are now branch-free
(the peers holding the value are gathered first, a unit is appended and counted only if its flag was
clear): 3-20% less kernel time on the 9x9 sets. Then the dirty units of a shape with at most
SMALL_UNITS units (9x9: 27, 16x16: 48, Latin squares and Mathdoku up to order 31) became the bits of
one word, marked with one OR per change and taken lowest first: another 7-22% (the list's flag was
read right after the previous change wrote it, a chain through memory). Tried and not kept (no gain
beyond the noise, or a loss): the same gathering for locked candidates and a branch-free queue push;
reading a unit's values in the scan of its first group of parts; naked subsets inside intersections
(tdoku's naked triads: 4-14% fewer values tried, 10-18% more time on forum_hardest). Also tried and not
kept (thread CPU time against this kernel in the same run, same node counts): per (unit, value) position
bitsets kept incrementally, so that naked singles, hidden singles, a value with no position and locked
candidates read positions instead of scanning cells: 1.25-1.44x the time on the 9x9 sets, 1.48x on
16x16, 1.10x on Mathdoku 7x7 (each removed value costs a position update per unit of its cell, and again
when undone, where the scan reads all of a unit's values in parallel in one pass over its cells); taking
dirty units in turn rather than lowest first (0.94-1.18x); deferring locked candidates until the singles
are quiet (0.86-1.21x); `_propagate` as a function of its own rather than inlined (1.05-1.14x).
"""

from __future__ import annotations

from typing import Any

import numpy as np

# ---- the layout (backtrack.py fills the arrays, the kernel reads them) -------------------------------

# The argument block (int64): addresses of the arrays, then integers.
(
    A_ST,
    A_TUPLES,
    A_GIVENS,
    A_PUZZLES,
    A_WS,
    A_WM,
    A_BUFFER,
    A_RESULTS,
    A_LIMIT,
    A_KEEP,
    A_MAX_NODES,
    A_OPTIONS,
    A_ROWS,
) = range(13)
ARGS_SIZE = 13

# The structure's header: order and counts, then where each named array starts (and, last, where they end).
S_N, S_CELLS, S_UNITS, S_CAGES, S_INTERS = range(5)
S_ARRAYS = 5
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
    "unit_group_start",  # unit u's groups of disjoint intersections: unit_group_start[u]..unit_group_start[u + 1]
    "group_part_start",  # group G's parts (its intersections, then the rest of u): group_part_start[G]..[G + 1]
    "part_inter",  # part p is intersection part_inter[p] (-1: the cells of u in none of the group's intersections)
    "part_side",  # u is unit part_side[p] (0 or 1) of that intersection
    "part_cell_start",  # the cells of part p are part_cells[part_cell_start[p]:part_cell_start[p + 1]]
    "part_cells",
    "cell_unit_bits",  # with at most SMALL_UNITS units: bit u of cell i's entry is set if unit u holds it
)
"""The int64 arrays of the structure, in order; st[S_ARRAYS + k] is where array k starts in `st`."""

# The int64 workspace `ws`: the search state that survives between calls, then where each region starts
# (ws[W_REGIONS + k], in `ws` for WS_REGIONS, in `wm` for WM_REGIONS).
PHASE, DEPTH, TRAIL, NODES, BACKTRACKS, COUNT, BUFFERED, PUZZLE, COMPLETE, PROBES, GENERATION, GUESSES = range(12)
W_REGIONS = 12
WS_REGIONS = (
    "level_cell",  # per depth: the cell branched on
    "level_mark",  # per depth: the trail's length before its value
    "trail_cell",  # per trail entry: the cell whose old mask trail_mask keeps
    "queue",  # cells that became single, for naked singles
    "dirty_units",  # units, cages, intersections to look at, each with its flag
    "unit_flag",
    "dirty_cages",
    "cage_flag",
    "buffer_puzzle",  # per buffered solution: its puzzle's index in the call
    "probe_cells",  # the cells probed at the current node
    "lone_stamp",  # per (intersection, side): the propagation that last removed lone_done from the other unit
    "changed",  # the peers a new single changes, gathered before any is changed
)
WM_REGIONS = ("masks", "trail_mask", "level_todo", "union", "part_or", "lone_done")
"""uint64 regions: candidate masks, old masks of the trail, values left per depth, a cage's union per cell,
the values of each part (of a unit being looked at)."""
# Phases of the current puzzle: propagate its givens, choose a branching cell, try the next value, finished.
START, DESCEND, NEXT, DONE = 0, 1, 2, 3
# What the kernel returns: every puzzle finished, out of nodes for this call, solution buffer full.
FINISHED, PAUSED, BUFFER_FULL = 0, 1, 2
# Columns of the results (one row per puzzle; COMPLETE: 1 if the search was exhausted; GUESSES: values tried
# while another value of their cell was still left, one per binary branch as tdoku counts its guesses).
R_COUNT, R_NODES, R_BACKTRACKS, R_COMPLETE, R_PROBES, R_GUESSES = range(6)
R_COLUMNS = 6
# Options: locked candidates on, up to (options >> PROBE_CELLS_SHIFT) & 255 cells probed at each branching
# point (fewer than 2: none), at depths below (options >> PROBE_DEPTH_SHIFT) & 0xFFFF.
OPT_LOCKED = 1
PROBE_CELLS_SHIFT = 8
PROBE_DEPTH_SHIFT = 16
BUFFER_ROWS = 256
SMALL_UNITS = 63
"""Shapes with at most this many units keep their dirty units as the bits of one word (cell_unit_bits), not a list."""
"""Solution rows the kernel fills at most before handing them back (BUFFER_FULL)."""

LAYOUT = (
    ARGS_SIZE, S_ARRAYS, STRUCTURE, W_REGIONS, WS_REGIONS, WM_REGIONS, (START, DESCEND, NEXT, DONE),
    (FINISHED, PAUSED, BUFFER_FULL), R_COLUMNS, (OPT_LOCKED, PROBE_CELLS_SHIFT, PROBE_DEPTH_SHIFT), SMALL_UNITS,
)  # fmt: skip
"""Everything the kernel's object code depends on besides its source: part of its cache key."""


_S = {name: S_ARRAYS + k for k, name in enumerate(STRUCTURE)}
_W = {name: W_REGIONS + k for k, name in enumerate(WS_REGIONS + WM_REGIONS)}
# Header slots of the named structure arrays and workspace regions, as compile-time constants.
US, UC, PS, PE, CUS, CU, CC, GS, GC, TS, XS, XC, XU, RS, RC, UGS, GPS, PI, PSD, PCS, PCC, CUB = (
    _S[name] for name in STRUCTURE
)
LC, LM, TC, Q, DU, UF, DC, CF, BP, PC, LS, CH = (_W[name] for name in WS_REGIONS)
M, TM, LT, UN, POR, LD = (_W[name] for name in WM_REGIONS)


def compile_search() -> Any:
    """The numba C function `search(args) -> code`, compiled now (seconds): see backtrack.native_search.

    numba is imported here only: loading the saved object code needs none of this module but the layout.
    """
    from llvmlite import ir
    from numba import cfunc, njit, types
    from numba.core.extending import intrinsic

    INLINE = {"inline": "always", "_nrt": False, "error_model": "numpy"}
    """Options of every helper: inlined into `search` at numba's IR level, no reference counting, no exceptions."""

    def _pointer_to(dtype: types.Type):
        """An intrinsic turning an int64 address into a numba pointer to `dtype` (indexable like an array)."""

        @intrinsic
        def to_pointer(typingctx, address):
            pointer = types.CPointer(dtype)

            def codegen(context, builder, signature, args):
                return builder.inttoptr(args[0], context.get_value_type(pointer))

            return pointer(types.int64), codegen

        return to_pointer

    _int64s = _pointer_to(types.int64)
    _uint64s = _pointer_to(types.uint64)
    _uint8s = _pointer_to(types.uint8)

    @intrinsic
    def popcount(typingctx, x):
        """The number of set bits of a uint64: LLVM's ctpop, one instruction where the CPU has it."""

        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])

        return types.int64(types.uint64), codegen

    @intrinsic
    def lowest_bit_index(typingctx, x):
        """The index of the lowest set bit of a nonzero uint64 (LLVM's cttz)."""

        def codegen(context, builder, signature, args):
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

        return types.int64(types.uint64), codegen

    @njit(**INLINE)
    def _change(st, ws, wm, o, cell, new, trail, qtail, ndu, ndc):
        """Narrow masks[cell] to the nonzero `new`: trail the old mask, queue a new single, mark its units, cage dirty.

        `o` holds the offsets used here; returns the new trail length, queue tail and dirty counts. With
        few units (`small`), `ndu` is the set of dirty units as bits, else the length of their list.
        """
        cus, cu, cc, tc, tm, q, du, uf, dc, cf, m, cub, small = o
        ws[tc + trail] = cell
        wm[tm + trail] = wm[m + cell]
        trail += 1
        wm[m + cell] = new
        if new & (new - np.uint64(1)) == 0:
            ws[q + qtail] = cell
            qtail += 1
        if small:
            ndu |= st[cub + cell]
        else:
            for k in range(st[cus + cell], st[cus + cell + 1]):  # without a branch: the list has room for one more
                u = st[cu + k]
                ws[du + ndu] = u
                ndu += 1 - ws[uf + u]
                ws[uf + u] = 1
        g = st[cc + cell]
        if g >= 0 and ws[cf + g] == 0:
            ws[cf + g] = 1
            ws[dc + ndc] = g
            ndc += 1
        return trail, qtail, ndu, ndc

    @njit(**INLINE)
    def _propagate(st, tb, ws, wm, o, p, n, full, trail, qtail, ndu, ndc, locked, generation):
        """Naked singles, hidden singles, locked candidates and cage filtering to a fixpoint.

        The queue holds `qtail` new singles and the dirty lists `ndu` units and `ndc` cages. Returns
        (consistent, trail length, cells placed: the queue's length at the end). On a contradiction
        the flags of what stays dirty are cleared, so every flag is 0 between propagations.
        `generation` numbers this propagation: values removed from the rest of a unit by locked
        candidates are not looked for again in the same propagation (masks only shrink inside one).
        """
        us, uc, ps, pe, gs, gc, ts, rs, rc, ugs, gps, pi, psd, pcs, pcc = p
        cus, cu, cc, tc, tm, q, du, uf, dc, cf, m, cub, small = o
        un = ws[UN]
        por = ws[POR]
        ls = ws[LS]
        ld = ws[LD]
        ch = ws[CH]
        one = np.uint64(1)
        zero = np.uint64(0)
        qhead = 0
        ok = True
        while ok:
            # 1. Naked singles: a cell down to one value removes it from every peer. The peers holding it
            #    are gathered first, without a branch (which peers hold it is what a branch mispredicts).
            while qhead < qtail:
                cell = ws[q + qhead]
                qhead += 1
                bit = wm[m + cell]
                nch = 0
                for k in range(st[ps + cell], st[ps + cell + 1]):
                    peer = st[pe + k]
                    ws[ch + nch] = peer
                    nch += (wm[m + peer] & bit) != zero
                for k in range(nch):
                    peer = ws[ch + k]
                    new = wm[m + peer] & ~bit
                    if new == zero:
                        ok = False
                        break
                    trail, qtail, ndu, ndc = _change(st, ws, wm, o, peer, new, trail, qtail, ndu, ndc)
                if not ok:
                    break
            if not ok:
                break
            # 2. One dirty unit, then back to 1. A full unit must still cover 1..n and places its hidden
            #    singles (values with one possible cell, not yet placed); a unit of k < n cells must still
            #    offer k values. Then locked candidates, in the same scan: in each group of the unit's
            #    disjoint intersections, a value (not placed) found in one part only, an intersection with
            #    unit b, is removed from the rest of b.
            if ndu != 0:
                if small:  # the lowest dirty unit
                    u = lowest_bit_index(np.uint64(ndu))
                    ndu &= ndu - 1
                else:
                    ndu -= 1
                    u = ws[du + ndu]
                    ws[uf + u] = 0
                lo = st[us + u]
                hi = st[us + u + 1]
                g0 = st[ugs + u]
                g1 = st[ugs + u + 1]
                once = zero
                twice = zero
                placed = zero
                for k in range(lo, hi):
                    mk = wm[m + st[uc + k]]
                    twice |= once & mk
                    once |= mk
                    if mk & (mk - one) == zero:
                        placed |= mk
                if hi - lo < n:
                    if popcount(once) < hi - lo:
                        ok = False
                    continue
                if once != full:
                    ok = False
                    continue
                hidden = once & ~twice & ~placed
                if hidden:
                    while hidden:
                        bit = hidden & (~hidden + one)
                        hidden ^= bit
                        found = -1
                        for k in range(lo, hi):
                            if wm[m + st[uc + k]] & bit:
                                found = st[uc + k]
                                break
                        if found < 0:  # the one cell that could hold it took another hidden single
                            ok = False
                            break
                        trail, qtail, ndu, ndc = _change(st, ws, wm, o, found, bit, trail, qtail, ndu, ndc)
                    continue  # the unit is dirty again: locked candidates wait for its next scan
                if not locked:
                    continue
                for g in range(g0, g1):  # only full units have groups
                    p0 = st[gps + g]
                    p1 = st[gps + g + 1]
                    in_one = zero
                    in_two = zero
                    for pp in range(p0, p1):
                        v = zero
                        for k in range(st[pcs + pp], st[pcs + pp + 1]):
                            v |= wm[m + st[pcc + k]]
                        wm[por + pp] = v
                        in_two |= in_one & v
                        in_one |= v
                    unique = in_one & ~in_two & ~placed
                    if unique == zero:
                        continue
                    for pp in range(p0, p1):
                        x = st[pi + pp]
                        lone = wm[por + pp] & unique
                        if x < 0 or lone == zero:
                            continue
                        other = 2 * x + 1 - st[psd + pp]
                        if ws[ls + other] == generation:
                            if lone & ~wm[ld + other] == zero:
                                continue
                            wm[ld + other] |= lone
                        else:
                            ws[ls + other] = generation
                            wm[ld + other] = lone
                        for k in range(st[rs + other], st[rs + other + 1]):
                            cell = st[rc + k]
                            mk = wm[m + cell]
                            if mk & lone:
                                new = mk & ~lone
                                if new == zero:
                                    ok = False
                                    break
                                trail, qtail, ndu, ndc = _change(st, ws, wm, o, cell, new, trail, qtail, ndu, ndc)
                        if not ok:
                            break
                    if not ok:
                        break
                continue
            # 3. One dirty cage, once the cheaper rules are quiet: keep the tuples that fit the masks, and
            #    narrow each cage cell to the values those tuples give it.
            if ndc > 0:
                ndc -= 1
                g = ws[dc + ndc]
                ws[cf + g] = 0
                lo = st[gs + g]
                size = st[gs + g + 1] - lo
                for i in range(size):
                    wm[un + i] = zero
                base = st[ts + g]
                while base < st[ts + g + 1]:  # (a range with a variable step could raise: this cannot)
                    fits = True
                    for i in range(size):
                        if wm[m + st[gc + lo + i]] & tb[base + i] == zero:
                            fits = False
                            break
                    if fits:
                        for i in range(size):
                            wm[un + i] |= tb[base + i]
                    base += size
                for i in range(size):
                    cell = st[gc + lo + i]
                    new = wm[m + cell] & wm[un + i]
                    if new == zero:
                        ok = False
                        break
                    if new != wm[m + cell]:
                        trail, qtail, ndu, ndc = _change(st, ws, wm, o, cell, new, trail, qtail, ndu, ndc)
                continue
            return True, trail, qtail
        # A contradiction: clear the flags of whatever is still dirty.
        if not small:
            for k in range(ndu):
                ws[uf + ws[du + k]] = 0
        for k in range(ndc):
            ws[cf + ws[dc + k]] = 0
        return False, trail, qtail

    @njit(**INLINE)
    def _search(args):
        """Search the puzzles of the argument block one after another, from the workspace's state on.

        Each puzzle is counted up to `limit` solutions; its first `keep` solutions go to the buffer
        (values 1..n, the puzzle's index in buffer_puzzle) and its count, nodes, backtracks, probes,
        exhaustion and guesses to its row of the results. Returns FINISHED once every puzzle is, PAUSED after
        `max_nodes` values tried in this call, BUFFER_FULL when the caller must empty the buffer (and
        zero ws[BUFFERED]); call again to resume.
        """
        st = _int64s(args[A_ST])
        tb = _uint64s(args[A_TUPLES])
        givens = _uint8s(args[A_GIVENS])
        puzzles = args[A_PUZZLES]
        ws = _int64s(args[A_WS])
        wm = _uint64s(args[A_WM])
        buffer = _uint8s(args[A_BUFFER])
        results = _int64s(args[A_RESULTS])
        limit = args[A_LIMIT]
        keep = args[A_KEEP]
        max_nodes = args[A_MAX_NODES]
        options = args[A_OPTIONS]
        locked = (options & OPT_LOCKED) != 0
        probe_cells = (options >> PROBE_CELLS_SHIFT) & 0xFF
        probe_depth = (options >> PROBE_DEPTH_SHIFT) & 0xFFFF
        rows = args[A_ROWS]

        n = st[S_N]
        ncells = st[S_CELLS]
        nunits = st[S_UNITS]
        ncages = st[S_CAGES]
        ninters = st[S_INTERS]
        ls = ws[LS]
        p = (
            st[US],
            st[UC],
            st[PS],
            st[PE],
            st[GS],
            st[GC],
            st[TS],
            st[RS],
            st[RC],
            st[UGS],
            st[GPS],
            st[PI],
            st[PSD],
            st[PCS],
            st[PCC],
        )
        ps, pe = st[PS], st[PE]
        small = 1 if nunits <= SMALL_UNITS else 0
        o = (st[CUS], st[CU], st[CC], ws[TC], ws[TM], ws[Q], ws[DU], ws[UF], ws[DC], ws[CF], ws[M], st[CUB], small)
        m = ws[M]
        tc = ws[TC]
        tm = ws[TM]
        q = ws[Q]
        du = ws[DU]
        uf = ws[UF]
        dc = ws[DC]
        cf = ws[CF]
        lc = ws[LC]
        lm = ws[LM]
        lt = ws[LT]
        bp = ws[BP]
        pc = ws[PC]
        one = np.uint64(1)
        zero = np.uint64(0)
        full = ~zero if n >= 64 else (one << np.uint64(n)) - one

        phase = ws[PHASE]
        depth = ws[DEPTH]
        trail = ws[TRAIL]
        nodes = ws[NODES]
        backtracks = ws[BACKTRACKS]
        count = ws[COUNT]
        buffered = ws[BUFFERED]
        puzzle = ws[PUZZLE]
        complete = ws[COMPLETE]
        probes = ws[PROBES]
        generation = ws[GENERATION]
        guesses = ws[GUESSES]
        spent = 0  # values tried and probes in this call
        code = FINISHED
        # What the pending propagation was for, and the probing in progress at this node.
        ROOT, BRANCH, PROBE, ELIMINATE = 0, 1, 2, 3
        pending = -1
        qtail = 0
        ndu = 0
        ndc = 0
        nprobe = 0  # cells to probe at this node, in ws[pc:pc + nprobe]
        probe_i = 0
        probe_todo = zero
        probe_bit = zero
        probe_mark = 0
        probe_worst = 0  # fewest cells placed by a value of the cell being probed
        best_cell = -1
        best_score = -1
        probing = False
        skip_probe = False
        while puzzle < puzzles:
            if not probing:
                if phase == START:
                    # 1. A puzzle's root: masks from its givens, every single queued, every unit and cage dirty.
                    row = puzzle * ncells
                    qtail = 0
                    for i in range(ncells):
                        v = givens[row + i]
                        if v == 0:
                            wm[m + i] = full
                        else:
                            wm[m + i] = one << np.uint64(v - 1)
                            ws[q + qtail] = i
                            qtail += 1
                    if small:
                        ndu = (1 << nunits) - 1
                    else:
                        for u in range(nunits):
                            ws[du + u] = u
                            ws[uf + u] = 1
                        ndu = nunits
                    for g in range(ncages):
                        ws[dc + g] = g
                        ws[cf + g] = 1
                    ndc = ncages
                    depth = trail = nodes = backtracks = count = probes = generation = guesses = 0
                    for k in range(2 * ninters + 1):
                        ws[ls + k] = 0
                    complete = 0
                    probing = False
                    pending = ROOT
                elif phase == DESCEND:
                    # 2. After a consistent propagation: the fewest candidates (MRV); among bivalue cells, the
                    #    most undecided peers (degree). With probing, a few of the fewest-candidate cells are
                    #    tried value by value first (see PROBE).
                    cell = -1
                    fewest = 65
                    degree = -1
                    for i in range(ncells):
                        mi = wm[m + i]
                        if mi & (mi - one):
                            c = popcount(mi)
                            if c < fewest or c == fewest == 2:
                                open_peers = 0
                                if c == 2:  # degrees of bivalue cells only: a scan of every peer costs
                                    for k in range(st[ps + i], st[ps + i + 1]):
                                        pm = wm[m + st[pe + k]]
                                        open_peers += (pm & (pm - one)) != zero
                                if c < fewest or open_peers > degree:
                                    cell, fewest, degree = i, c, open_peers
                    if cell < 0:
                        # 3. Every cell is single: a solution. Recorded while fewer than `keep` are, and counted.
                        if count < keep:
                            if buffered == rows:
                                code = BUFFER_FULL  # resumes here, in DESCEND, once the caller has emptied it
                                break
                            base = buffered * ncells
                            for i in range(ncells):
                                buffer[base + i] = lowest_bit_index(wm[m + i]) + 1
                            ws[bp + buffered] = puzzle
                            buffered += 1
                        count += 1
                        phase = DONE if count >= limit else NEXT
                        continue
                    nprobe = 0
                    if probe_cells > 1 and depth < probe_depth and not skip_probe:
                        for i in range(ncells):
                            mi = wm[m + i]
                            if mi & (mi - one) and popcount(mi) == fewest:
                                ws[pc + nprobe] = i
                                nprobe += 1
                                if nprobe == probe_cells:
                                    break
                    skip_probe = False
                    if nprobe < 2:
                        depth += 1
                        ws[lc + depth] = cell
                        wm[lt + depth] = wm[m + cell]
                        ws[lm + depth] = trail
                        phase = NEXT
                        continue
                    probing = True
                    probe_i = 0
                    probe_todo = wm[m + ws[pc]]
                    probe_worst = ncells + 1
                    best_cell = -1
                    best_score = -1
                    continue
                elif phase == NEXT:
                    # 4. Undo the value tried last at this depth (restore the trail to the level's mark).
                    if depth == 0:
                        phase = DONE
                        complete = 1
                        continue
                    mark = ws[lm + depth]
                    while trail > mark:
                        trail -= 1
                        wm[m + ws[tc + trail]] = wm[tm + trail]
                    todo = wm[lt + depth]
                    if todo == zero:
                        depth -= 1  # 5. every value of this level is done: backtrack one level
                        continue
                    if spent >= max_nodes:
                        code = PAUSED
                        break
                    # 6. Try the next value in increasing order; failure stays in NEXT, success descends.
                    bit = todo & (~todo + one)
                    wm[lt + depth] = todo ^ bit
                    nodes += 1
                    guesses += todo != bit  # not the cell's last value: a guess, as tdoku counts them
                    spent += 1
                    qtail = ndu = ndc = 0
                    trail, qtail, ndu, ndc = _change(st, ws, wm, o, ws[lc + depth], bit, trail, qtail, ndu, ndc)
                    pending = BRANCH
                else:
                    # 7. DONE: report the puzzle and reset the state for the next one.
                    r = puzzle * R_COLUMNS
                    results[r + R_COUNT] = count
                    results[r + R_NODES] = nodes
                    results[r + R_BACKTRACKS] = backtracks
                    results[r + R_COMPLETE] = complete
                    results[r + R_PROBES] = probes
                    results[r + R_GUESSES] = guesses
                    puzzle += 1
                    phase = START
                    continue
            if probing:
                # PROBE: try the next value of the next probe cell, with propagation, and undo it. A value that
                # fails is removed from the cell for good (at this node); the others score the cell by the
                # fewest cells any of its values places. Then branch on the best-scored cell.
                if probe_todo == zero:
                    cell = ws[pc + probe_i]
                    if probe_worst > best_score and probe_worst <= ncells:
                        best_cell, best_score = cell, probe_worst
                    probe_i += 1
                    if probe_i == nprobe:
                        probing = False
                        if best_cell < 0 or wm[m + best_cell] & (wm[m + best_cell] - one) == zero:
                            skip_probe = True  # eliminations changed the node: choose again, without probing
                            phase = DESCEND
                            continue
                        depth += 1
                        ws[lc + depth] = best_cell
                        wm[lt + depth] = wm[m + best_cell]
                        ws[lm + depth] = trail
                        phase = NEXT
                        continue
                    probe_todo = wm[m + ws[pc + probe_i]]
                    probe_worst = ncells + 1
                probe_bit = probe_todo & (~probe_todo + one)
                probe_todo ^= probe_bit
                probe_mark = trail
                probes += 1
                spent += 1
                qtail = ndu = ndc = 0
                trail, qtail, ndu, ndc = _change(st, ws, wm, o, ws[pc + probe_i], probe_bit, trail, qtail, ndu, ndc)
                pending = PROBE
            while pending >= 0:  # the one place every propagation runs; a failed probe asks for another
                generation += 1
                ok, trail, placed = _propagate(
                    st, tb, ws, wm, o, p, n, full, trail, qtail, ndu, ndc, locked, generation
                )
                kind = pending
                pending = -1
                if kind == ROOT:
                    phase = DESCEND if ok else DONE
                    complete = 0 if ok else 1
                elif kind == BRANCH:
                    if ok:
                        phase = DESCEND
                    else:
                        backtracks += 1
                elif kind == PROBE:
                    while trail > probe_mark:
                        trail -= 1
                        wm[m + ws[tc + trail]] = wm[tm + trail]
                    if ok:
                        probe_worst = min(probe_worst, placed)
                        continue
                    cell = ws[pc + probe_i]
                    new = wm[m + cell] & ~probe_bit
                    if new == zero:  # no value of this cell survives: the node fails
                        probing = False
                        backtracks += 1
                        phase = NEXT
                        continue
                    # the cell is not scored (its values changed); probing goes on with the next one
                    probe_todo = zero
                    probe_worst = ncells + 1
                    qtail = ndu = ndc = 0
                    trail, qtail, ndu, ndc = _change(st, ws, wm, o, cell, new, trail, qtail, ndu, ndc)
                    pending = ELIMINATE
                else:  # ELIMINATE: the node's state once a failed probe's value is removed
                    if not ok:
                        probing = False
                        backtracks += 1
                        phase = NEXT
        ws[PHASE] = phase
        ws[DEPTH] = depth
        ws[TRAIL] = trail
        ws[NODES] = nodes
        ws[BACKTRACKS] = backtracks
        ws[COUNT] = count
        ws[BUFFERED] = buffered
        ws[PUZZLE] = puzzle
        ws[COMPLETE] = complete
        ws[PROBES] = probes
        ws[GENERATION] = generation
        ws[GUESSES] = guesses
        return code

    @cfunc(types.int64(types.CPointer(types.int64)), nopython=True, _nrt=False, error_model="numpy")
    def search(args):
        return _search(args)

    return search
