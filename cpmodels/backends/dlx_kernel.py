"""The hot path of the dlx backend: Knuth's DLX1, DLX2 (colours) and DLX3 (bounds) as numba searches.

The layout is Knuth's (TAOCP Vol 4B, section 7.2.2.1, and his programs DLX1-DLX3), in parallel int32 arrays:

- items 1..N (0 is the root): llink/rlink link the active primary items 1..n_primary in a circular list
  through the root 0, and the secondary items in a second list through the head N+1; length[i] counts
  the options in i's list; bound[i] is how many more options may cover primary item i, slack[i] its
  upper bound minus its lower bound (DLX3).
- nodes: 0..N are the item headers (ulink/dlink head each item's vertical list); then the options follow
  in order, each preceded by a spacer node. An option node has top = its item; a spacer has top <= 0,
  ulink = the first node of the option before it and dlink = the last node of the option after it.
  colour is 0 (none), a colour number > 0, or -1 once Knuth's `purify` has found it compatible;
  option_of[p] is the 0-based option of node p (-1 elsewhere).

`build_links` builds every array; `build_links1` only DLX1's, for a cover whose items are all primary.

Two searches, each following Knuth's program step for step, so that `nodes` and `updates` are his:

- `search`: DLX1, every primary item exactly once, no colours. It branches on an item with the fewest
  options: RULE_KNUTH the leftmost such, the scan stopping only at an item with none, as DLX1's does;
  RULE_FIRST_SINGLE stops the scan at the first item with one option too (what the grid backend has
  always done: fewer items scanned, other ties, other counts). It keeps the shape of the grid backend's
  kernel before colours and bounds came (one array per field, DLX1's loops written out): the grid path
  must not slow down, and variants that folded DLX2 or DLX3 into it, or packed a node's fields together,
  measured 3-8% slower per Sudoku (though 12% faster on the pentomino packings, for the packed nodes).
- `search_general`: DLX3 (bounds on primary items), which is DLX2 when every bound is 1 (`bounded` 0;
  DLX2's one more update for covering an item with no option left is then counted). Items are scored
  length + min(slack, bound) - bound + 1, ties to the smaller slack, then the longer list, then the
  leftmost; an item with bound > 1 or slack is `tweaked` rather than covered, and a level may make a
  `null` move (DLX3 prints `null NAME`). Colours are purified and unpurified as DLX2 does.

`updates` counts, as Knuth's do, one per item covered and one per node removed from a list (by
covering, purifying or tweaking); `cleansings` counts DLX2's: one per purification and one per
option found compatible by it. A search node is counted on entering a level (a solution is one).

The searches are iterative (a recursive njit function with cache=True has segfaulted when loaded from
the cache): levels are an explicit stack in `levels` (rows CHOICE: the node tried, BEST: the item
branched on, FIRST_TWEAK, SCORE: the branching degree, POSITION: how many were tried before), and
`state` holds the level, the step to resume at and the counters, so that a caller can run them in
chunks of a work budget and look at the clock between chunks. Each solution recorded is its moves:
per level the option (-1 for a null move), the item branched on, the position and the degree.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Steps of the search (Knuth's labels in DLX3: forward, advance, backup, backdown) and the end.
FORWARD, ADVANCE, BACKUP, BACKDOWN, DONE = 0, 1, 2, 3, 4
# Fields of the `state` array.
LEVEL, STEP, NODES, UPDATES, CLEANSINGS = 0, 1, 2, 3, 4
STATE_SIZE = 5
# Rows of `levels`.
CHOICE, BEST, FIRST_TWEAK, SCORE, POSITION = 0, 1, 2, 3, 4
# Fields of a recorded move (solutions[row, level, field]).
MOVE_OPTION, MOVE_ITEM, MOVE_POSITION, MOVE_DEGREE = 0, 1, 2, 3
MOVE_FIELDS = 4
# Branching rules.
RULE_KNUTH, RULE_FIRST_SINGLE = 0, 1
INFINITY = 1 << 62


@njit(cache=True)
def build_links(n_primary, n_items, option_start, option_items, option_colours, lower, upper):  # pragma: no cover
    """Knuth's arrays (llink, rlink, length, bound, slack; ulink, dlink, top, colour, option_of) of CSR options.

    option_colours: a colour number per entry (0 none), or an empty array for none at all; lower and
    upper: the bounds of the primary items, or empty arrays for exactly once each.
    """
    n_options = option_start.shape[0] - 1
    n_nodes = n_items + 1 + option_items.shape[0] + n_options + 1
    llink = np.zeros(n_items + 2, np.int32)
    rlink = np.zeros(n_items + 2, np.int32)
    length = np.zeros(n_items + 2, np.int32)
    bound = np.zeros(n_items + 2, np.int32)
    slack = np.zeros(n_items + 2, np.int32)
    ulink = np.zeros(n_nodes, np.int32)
    dlink = np.zeros(n_nodes, np.int32)
    top = np.zeros(n_nodes, np.int32)
    colour = np.zeros(n_nodes, np.int32)
    option_of = np.full(n_nodes, -1, np.int32)
    # 1. The primary items in a circular list through the root 0, with their bounds (default 1..1).
    for i in range(n_primary + 1):
        rlink[i] = i + 1
        llink[i] = i - 1
    rlink[n_primary] = 0
    llink[0] = n_primary
    for i in range(1, n_primary + 1):
        bound[i] = 1 if upper.shape[0] == 0 else upper[i - 1]
        slack[i] = 0 if upper.shape[0] == 0 else upper[i - 1] - lower[i - 1]
    # 2. The secondary items in a circular list through the head N + 1 (empty: the head alone).
    head = n_items + 1
    prev = head
    for i in range(n_primary + 1, n_items + 1):
        rlink[prev] = i
        llink[i] = prev
        prev = i
    rlink[prev] = head
    llink[head] = prev
    # 3. Every item header starts as an empty vertical list.
    for i in range(n_items + 1):
        ulink[i] = i
        dlink[i] = i
    # 4. The options, each appended at the bottom of its items' lists, spacers between them.
    p = n_items + 1
    spacer = p
    for o in range(n_options):
        first = p + 1
        for k in range(option_start[o], option_start[o + 1]):
            p += 1
            item = option_items[k] + 1
            top[p] = item
            option_of[p] = o
            if option_colours.shape[0]:
                colour[p] = option_colours[k]
            length[item] += 1
            last = ulink[item]
            ulink[p] = last
            dlink[last] = p
            dlink[p] = item
            ulink[item] = p
        dlink[spacer] = p
        p += 1
        spacer = p
        top[spacer] = -(o + 1)
        ulink[spacer] = first
    return llink, rlink, length, bound, slack, ulink, dlink, top, colour, option_of


@njit(cache=True)
def build_links1(n_items, option_start, option_items):  # pragma: no cover - compiled
    """DLX1's arrays (llink, rlink, length, ulink, dlink, top, option_of) when every item is primary.

    What `search` takes, without build_links' colours and bounds: 3 arrays fewer to return saves a grid solve
    some microseconds, and the grid path must not slow down.
    """
    n_options = option_start.shape[0] - 1
    n_nodes = n_items + 1 + option_items.shape[0] + n_options + 1
    llink = np.empty(n_items + 2, np.int32)
    rlink = np.empty(n_items + 2, np.int32)
    length = np.zeros(n_items + 2, np.int32)
    ulink = np.empty(n_nodes, np.int32)
    dlink = np.empty(n_nodes, np.int32)
    top = np.zeros(n_nodes, np.int32)
    option_of = np.full(n_nodes, -1, np.int32)
    for i in range(n_items + 1):
        rlink[i] = i + 1
        llink[i] = i - 1
        ulink[i] = i
        dlink[i] = i
    rlink[n_items] = 0
    llink[0] = n_items
    p = n_items + 1
    spacer = p
    ulink[spacer] = 0
    for o in range(n_options):
        first = p + 1
        for k in range(option_start[o], option_start[o + 1]):
            p += 1
            item = option_items[k] + 1
            top[p] = item
            option_of[p] = o
            length[item] += 1
            last = ulink[item]
            ulink[p] = last
            dlink[last] = p
            dlink[p] = item
            ulink[item] = p
        dlink[spacer] = p
        p += 1
        spacer = p
        top[spacer] = -(o + 1)
        ulink[spacer] = first
    dlink[spacer] = 0
    return llink, rlink, length, ulink, dlink, top, option_of


@njit(cache=True)
def _hide(p, ulink, dlink, top, length):  # pragma: no cover - compiled
    """DLX1: unlink every other node of p's option from its item's list; returns the number of updates."""
    updates = 0
    q = p + 1
    while q != p:
        x = top[q]
        if x <= 0:
            q = ulink[q]
        else:
            u = ulink[q]
            d = dlink[q]
            dlink[u] = d
            ulink[d] = u
            length[x] -= 1
            updates += 1
            q += 1
    return updates


@njit(cache=True)
def _unhide(p, ulink, dlink, top, length):  # pragma: no cover - compiled
    """DLX1: relink the other nodes of p's option, in the reverse order of _hide."""
    q = p - 1
    while q != p:
        x = top[q]
        if x <= 0:
            q = dlink[q]
        else:
            u = ulink[q]
            d = dlink[q]
            dlink[u] = q
            ulink[d] = q
            length[x] += 1
            q -= 1


@njit(cache=True)
def _cover1(i, llink, rlink, ulink, dlink, top, length):  # pragma: no cover - compiled
    """DLX1's cover(i): hide every option of item i and unlink i from its list; the updates (1 + nodes)."""
    updates = 1
    p = dlink[i]
    while p != i:
        updates += _hide(p, ulink, dlink, top, length)
        p = dlink[p]
    left = llink[i]
    right = rlink[i]
    rlink[left] = right
    llink[right] = left
    return updates


@njit(cache=True)
def _uncover1(i, llink, rlink, ulink, dlink, top, length):  # pragma: no cover - compiled
    """Undo _cover1(i): relink i into its list and unhide its options bottom-up (any order would do, Knuth notes)."""
    left = llink[i]
    right = rlink[i]
    rlink[left] = i
    llink[right] = i
    p = ulink[i]
    while p != i:
        _unhide(p, ulink, dlink, top, length)
        p = ulink[p]


@njit(cache=True)
def search(
    llink,
    rlink,
    length,
    ulink,
    dlink,
    top,
    option_of,
    levels,
    state,
    solutions,
    sizes,
    limit,
    record,
    budget,
    node_cap,
    update_cap,
    rule,
):  # pragma: no cover - compiled
    """DLX1: resume from `state` until `limit` more solutions, `budget` more nodes + updates, or a cap.

    The first `record` solutions of this call are written to rows 0.. of `solutions` (each level's move:
    option, item branched on, position, degree; `sizes` the number of levels), the rest only counted;
    the call pauses when the buffer is full while more are to be recorded, and stops when `node_cap`
    nodes or `update_cap` updates are reached in all. Returns (solutions found, solutions written,
    whether the search has finished). `state` and the arrays keep everything needed to resume.
    """
    choice, best_of, score_of, position = levels[CHOICE], levels[BEST], levels[SCORE], levels[POSITION]
    level = state[LEVEL]
    step = state[STEP]
    nodes = state[NODES]
    updates = state[UPDATES]
    stop_at = nodes + updates + budget
    stop = 1 if rule == RULE_FIRST_SINGLE else 0
    rows = solutions.shape[0]
    found = 0
    written = 0
    while step != DONE:
        if step == FORWARD:
            # 1. (X2) Enter a level: pause here when the budget, a cap or the buffer says so, nothing half done.
            if (
                nodes + updates >= stop_at
                or nodes >= node_cap
                or updates >= update_cap
                or (written == rows and written < record)
            ):
                break
            nodes += 1
            if rlink[0] == 0:
                # 2. Every primary item is covered: record the moves of levels 0..level-1, then back up.
                if written < record:
                    _record(solutions, sizes, written, level, choice, best_of, position, score_of, option_of)
                    written += 1
                found += 1
                step = BACKDOWN
                if found >= limit:
                    break
                continue
            # 3. (X3) The item with the fewest options, the leftmost of those (Knuth's MRV). His scan stops at
            #    an item with none; RULE_FIRST_SINGLE's at one with one.
            best = rlink[0]
            fewest = length[best]
            i = rlink[best]
            while i != 0 and fewest > stop:
                if length[i] < fewest:
                    best = i
                    fewest = length[i]
                i = rlink[i]
            # 4. (X4) Cover it and start with its first option.
            updates += _cover1(best, llink, rlink, ulink, dlink, top, length)
            best_of[level] = best
            score_of[level] = fewest
            position[level] = 0
            choice[level] = dlink[best]
            step = ADVANCE
        elif step == ADVANCE:
            # 5. (X5) Try choice[level]: back at the header means every option failed (X7: uncover, leave).
            p = choice[level]
            i = best_of[level]
            if p == i:
                _uncover1(i, llink, rlink, ulink, dlink, top, length)
                step = BACKDOWN
                continue
            # 6. Cover the option's other items, left to right, and go one level deeper.
            q = p + 1
            while q != p:
                j = top[q]
                if j <= 0:
                    q = ulink[q]
                else:
                    updates += _cover1(j, llink, rlink, ulink, dlink, top, length)
                    q += 1
            level += 1
            step = FORWARD
        else:
            # 7. (X8, X6) Leave the level: the search ends at level 0; else uncover the items of the option
            #    below right to left, and try the next one.
            if level == 0:
                step = DONE
                continue
            level -= 1
            p = choice[level]
            q = p - 1
            while q != p:
                j = top[q]
                if j <= 0:
                    q = dlink[q]
                else:
                    _uncover1(j, llink, rlink, ulink, dlink, top, length)
                    q -= 1
            choice[level] = dlink[p]
            position[level] += 1
            step = ADVANCE
    state[LEVEL] = level
    state[STEP] = step
    state[NODES] = nodes
    state[UPDATES] = updates
    return found, written, step == DONE


@njit(cache=True)
def _hide_option(rr, ulink, dlink, top, colour, length, coloured):  # pragma: no cover - compiled
    """Unlink the nodes of rr's option other than rr (not those purified away); returns the updates."""
    updates = 0
    nn = rr + 1
    while nn != rr:
        if coloured and colour[nn] < 0:
            nn += 1
            continue
        cc = top[nn]
        if cc <= 0:
            nn = ulink[nn]
            continue
        u = ulink[nn]
        d = dlink[nn]
        dlink[u] = d
        ulink[d] = u
        length[cc] -= 1
        updates += 1
        nn += 1
    return updates


@njit(cache=True)
def _unhide_option(rr, ulink, dlink, top, colour, length, coloured):  # pragma: no cover - compiled
    """Relink the nodes of rr's option other than rr, left to right (as DLX1's uncover does)."""
    nn = rr + 1
    while nn != rr:
        if coloured and colour[nn] < 0:
            nn += 1
            continue
        cc = top[nn]
        if cc <= 0:
            nn = ulink[nn]
            continue
        dlink[ulink[nn]] = nn
        ulink[dlink[nn]] = nn
        length[cc] += 1
        nn += 1


@njit(cache=True)
def _unhide_option_leftward(rr, ulink, dlink, top, colour, length):  # pragma: no cover - compiled
    """Relink the nodes of rr's option other than rr, right to left (as DLX2's unpurify does)."""
    nn = rr - 1
    while nn != rr:
        if colour[nn] < 0:
            nn -= 1
            continue
        cc = top[nn]
        if cc <= 0:
            nn = dlink[nn]
            continue
        dlink[ulink[nn]] = nn
        ulink[dlink[nn]] = nn
        length[cc] += 1
        nn -= 1


@njit(cache=True)
def _cover(c, llink, rlink, ulink, dlink, top, colour, length, coloured):  # pragma: no cover - compiled
    """Knuth's cover(c): unlink item c from its list and hide its options; returns the updates (1 + nodes)."""
    left = llink[c]
    right = rlink[c]
    rlink[left] = right
    llink[right] = left
    updates = 1
    rr = dlink[c]
    while rr != c:
        updates += _hide_option(rr, ulink, dlink, top, colour, length, coloured)
        rr = dlink[rr]
    return updates


@njit(cache=True)
def _uncover(c, llink, rlink, ulink, dlink, top, colour, length, coloured, react):  # pragma: no cover - compiled
    """Knuth's uncover(c): unhide c's options, top to bottom as DLX1 does, and relink c if `react`."""
    rr = dlink[c]
    while rr != c:
        _unhide_option(rr, ulink, dlink, top, colour, length, coloured)
        rr = dlink[rr]
    if react:
        rlink[llink[c]] = c
        llink[rlink[c]] = c


@njit(cache=True)
def _purify(p, ulink, dlink, top, colour, length, state):  # pragma: no cover - compiled
    """DLX2's purify(p): hide the options that give p's item another colour (or none); mark the others -1."""
    c = top[p]
    x = colour[p]
    state[CLEANSINGS] += 1
    rr = dlink[c]
    while rr != c:
        if colour[rr] != x:
            state[UPDATES] += _hide_option(rr, ulink, dlink, top, colour, length, True)
        elif rr != p:
            state[CLEANSINGS] += 1
            colour[rr] = -1
        rr = dlink[rr]


@njit(cache=True)
def _unpurify(p, ulink, dlink, top, colour, length):  # pragma: no cover - compiled
    """Undo _purify(p), bottom to top: the marked options get p's colour back, the others are unhidden."""
    c = top[p]
    x = colour[p]
    rr = ulink[c]
    while rr != c:
        if colour[rr] < 0:
            colour[rr] = x
        elif rr != p:
            _unhide_option_leftward(rr, ulink, dlink, top, colour, length)
        rr = ulink[rr]


@njit(cache=True)
def _cover_others(
    p, n_primary, llink, rlink, ulink, dlink, top, colour, length, bound, coloured, state
):  # pragma: no cover
    """Cover the items of p's option other than p, left to right (DLX3: count a primary item's bound down).

    A primary item is covered (DLX3: when its bound reaches 0), a secondary one without a colour too; a
    secondary one with a colour is purified (DLX2).
    """
    q = p + 1
    while q != p:
        c = top[q]
        if c <= 0:
            q = ulink[q]
            continue
        if c <= n_primary:
            bound[c] -= 1
            if bound[c] == 0:
                state[UPDATES] += _cover(c, llink, rlink, ulink, dlink, top, colour, length, coloured)
        elif not coloured or colour[q] == 0:
            state[UPDATES] += _cover(c, llink, rlink, ulink, dlink, top, colour, length, coloured)
        elif colour[q] > 0:
            _purify(q, ulink, dlink, top, colour, length, state)
        q += 1


@njit(cache=True)
def _uncover_others(p, n_primary, llink, rlink, ulink, dlink, top, colour, length, bound, coloured):  # pragma: no cover
    """Undo _cover_others(p): the items of p's option from right to left."""
    q = p - 1
    while q != p:
        c = top[q]
        if c <= 0:
            q = dlink[q]
            continue
        if c <= n_primary:
            if bound[c] == 0:
                _uncover(c, llink, rlink, ulink, dlink, top, colour, length, coloured, True)
            bound[c] += 1
        elif not coloured or colour[q] == 0:
            _uncover(c, llink, rlink, ulink, dlink, top, colour, length, coloured, True)
        elif colour[q] > 0:
            _unpurify(q, ulink, dlink, top, colour, length)
        q -= 1


@njit(cache=True)
def _tweak(n, block, ulink, dlink, top, colour, length, coloured):  # pragma: no cover - compiled
    """DLX3's tweak(n): hide the option of n (all of it if `block`, else only n from its list); the updates."""
    updates = 0
    nn = n + 1 if block else n
    while True:
        if not (coloured and colour[nn] < 0):
            cc = top[nn]
            if cc <= 0:
                nn = ulink[nn]
                continue
            u = ulink[nn]
            d = dlink[nn]
            dlink[u] = d
            ulink[d] = u
            length[cc] -= 1
            updates += 1
        if nn == n:
            break
        nn += 1
    return updates


@njit(cache=True)
def _untweak(c, x, unblock, llink, rlink, ulink, dlink, top, colour, length, coloured):  # pragma: no cover
    """DLX3's untweak(c, x): restore item c's list from its first tweaked node x, and what the tweaks hid."""
    z = dlink[c]
    dlink[c] = x
    rr = x
    qq = c
    k = 0
    while rr != z:
        ulink[rr] = qq
        k += 1
        if unblock:
            _unhide_option(rr, ulink, dlink, top, colour, length, coloured)
        qq = rr
        rr = dlink[rr]
    ulink[rr] = qq
    length[c] += k
    if not unblock:
        _uncover(c, llink, rlink, ulink, dlink, top, colour, length, coloured, False)


@njit(cache=True)
def _choose(rlink, length, bound, slack, rule):  # pragma: no cover - compiled
    """DLX3's item to branch on and its degree (INFINITY: no active item is left, a solution).

    The score is l + s - b + 1 (l the list's length, b the bound, s = min(slack, b)); ties go to the smaller
    s, then the longer list, then the leftmost. The scan stops at a score of 0 (the level fails whichever
    such item is taken) or, RULE_FIRST_SINGLE, of 1.
    """
    stop = 1 if rule == RULE_FIRST_SINGLE else 0
    best = 0
    score = INFINITY
    best_s = 0
    best_l = 0
    k = rlink[0]
    while k != 0 and score > stop:
        s = min(slack[k], bound[k])
        t = length[k] + s - bound[k] + 1
        if t < score or (t == score and (s < best_s or (s == best_s and length[k] > best_l))):
            best = k
            score = t
            best_s = s
            best_l = length[k]
        k = rlink[k]
    return best, score


@njit(cache=True)
def _record(solutions, sizes, row, level, choice, best_of, position, score_of, option_of):  # pragma: no cover
    """Write the moves of levels 0..level-1 to solutions[row] (option, item, position, degree; 0-based)."""
    for k in range(level):
        solutions[row, k, MOVE_OPTION] = option_of[choice[k]]
        solutions[row, k, MOVE_ITEM] = best_of[k] - 1
        solutions[row, k, MOVE_POSITION] = position[k] + 1
        solutions[row, k, MOVE_DEGREE] = score_of[k]
    sizes[row] = level


@njit(cache=True)
def search_general(
    llink,
    rlink,
    length,
    bound,
    slack,
    ulink,
    dlink,
    top,
    colour,
    option_of,
    levels,
    state,
    solutions,
    sizes,
    n_primary,
    limit,
    record,
    budget,
    node_cap,
    update_cap,
    bounded,
    coloured,
    rule,
):  # pragma: no cover - compiled
    """DLX3 (`bounded`), else DLX2: as `search`, with colours, following DLX3's steps and DLX2's or DLX3's counters."""
    choice, best_of, first_tweak, score_of, position = (
        levels[CHOICE],
        levels[BEST],
        levels[FIRST_TWEAK],
        levels[SCORE],
        levels[POSITION],
    )
    n_items = llink.shape[0] - 2
    level = state[LEVEL]
    step = state[STEP]
    stop_at = state[NODES] + state[UPDATES] + budget
    rows = solutions.shape[0]
    found = 0
    written = 0
    while step != DONE:
        if step == FORWARD:
            # 1. Enter a level: pause here when the budget, a cap or the buffer says so, nothing half done.
            if (
                state[NODES] + state[UPDATES] >= stop_at
                or state[NODES] >= node_cap
                or state[UPDATES] >= update_cap
                or (written == rows and written < record)
            ):
                break
            state[NODES] += 1
            best, score = _choose(rlink, length, bound, slack, rule)
            if score <= 0:
                # 2. Some item can no longer get enough options: back down (DLX2 covers it first: 1 update).
                if not bounded:
                    state[UPDATES] += 1
                step = BACKDOWN
                continue
            if score == INFINITY:
                # 3. No active primary item is left: record the moves of levels 0..level-1, then back down.
                if written < record:
                    _record(solutions, sizes, written, level, choice, best_of, position, score_of, option_of)
                    written += 1
                found += 1
                step = BACKDOWN
                if found >= limit:
                    break
                continue
            # 4. Branch on `best`: count its bound down; cover it when no option may be added any more,
            #    else remember where its list started (its options will be tweaked away one by one).
            best_of[level] = best
            score_of[level] = score
            first_tweak[level] = 0
            position[level] = 0
            choice[level] = dlink[best]
            bound[best] -= 1
            if bound[best] == 0 and slack[best] == 0:
                state[UPDATES] += _cover(best, llink, rlink, ulink, dlink, top, colour, length, coloured)
            else:
                first_tweak[level] = choice[level]
                if bound[best] == 0:
                    state[UPDATES] += _cover(best, llink, rlink, ulink, dlink, top, colour, length, coloured)
            step = ADVANCE
        elif step == ADVANCE:
            # 5. Try choice[level]; back up when the item's options are exhausted or too few are left.
            best = best_of[level]
            p = choice[level]
            if bound[best] == 0 and slack[best] == 0:
                if p == best:
                    step = BACKUP
                    continue
            elif length[best] <= bound[best] - slack[best]:
                step = BACKUP
                continue
            elif p != best:
                state[UPDATES] += _tweak(p, bound[best] != 0, ulink, dlink, top, colour, length, coloured)
            elif bound[best] != 0:
                rlink[llink[best]] = rlink[best]
                llink[rlink[best]] = llink[best]
            # 6. Cover or count down the option's other items (a null move, p the header, has none); deeper.
            if p > n_items:
                _cover_others(p, n_primary, llink, rlink, ulink, dlink, top, colour, length, bound, coloured, state)
            level += 1
            step = FORWARD
        elif step == BACKUP:
            # 7. The item's options are done: restore it (uncover, or untweak) and its bound.
            best = best_of[level]
            if bound[best] == 0 and slack[best] == 0:
                _uncover(best, llink, rlink, ulink, dlink, top, colour, length, coloured, True)
            else:
                _untweak(
                    best,
                    first_tweak[level],
                    bound[best] != 0,
                    llink,
                    rlink,
                    ulink,
                    dlink,
                    top,
                    colour,
                    length,
                    coloured,
                )
            bound[best] += 1
            step = BACKDOWN
        else:
            # 8. Leave the level: undo its move and try the next option (the search ends when level 0 is left).
            if level == 0:
                step = DONE
                continue
            level -= 1
            p = choice[level]
            best = best_of[level]
            if p <= n_items:
                rlink[llink[best]] = best
                llink[rlink[best]] = best
                step = BACKUP
                continue
            _uncover_others(p, n_primary, llink, rlink, ulink, dlink, top, colour, length, bound, coloured)
            choice[level] = dlink[p]
            position[level] += 1
            step = ADVANCE
    state[LEVEL] = level
    state[STEP] = step
    return found, written, step == DONE


@njit(cache=True)
def decode(solutions, sizes, count, cell_start, cells, values, givens):  # pragma: no cover - compiled
    """The row-major grids of the first `count` solutions: givens, then each chosen option's (cell, value) pairs."""
    grids = np.empty((count, givens.shape[0]), np.int32)
    for s in range(count):
        for c in range(givens.shape[0]):
            grids[s, c] = givens[c]
        for k in range(sizes[s]):
            o = solutions[s, k, MOVE_OPTION]
            for j in range(cell_start[o], cell_start[o + 1]):
                grids[s, cells[j]] = values[j]
    return grids
