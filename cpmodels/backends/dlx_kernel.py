"""The hot path of the dlx backend: Knuth's Algorithm X with dancing links (DLX1) as numba kernels.

The layout is Knuth's (TAOCP Vol 4B, section 7.2.2.1, and his program DLX1), in parallel int arrays:

- items 1..N (0 is the root): `llink`/`rlink` link the active primary items 1..n_primary in a circular
  list through the root 0, and the secondary items in a second circular list through the head N+1;
- nodes: 0..N are the item headers (`ulink`/`dlink` head each item's vertical list, `length[i]` counts
  its options); then the options follow in order, each preceded by a spacer node. An option node has
  `top` = its item; a spacer has `top` <= 0 (minus the number of the option before it), `ulink` = the
  first node of the option before it and `dlink` = the last node of the option after it.
- `option_of[node]` is the 0-based option of an option node (-1 for headers and spacers), so that a
  solution is reported as option numbers without walking to the spacers.

The search is iterative (a recursive njit function with cache=True has segfaulted when loaded from
the cache): levels are an explicit stack `x[level]` (the node of the option tried) and `chosen[level]`
(the item branched on), and `state` holds the level, the step to resume at and the counters, so a
caller can run it in chunks of a node budget and look at the clock between chunks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Steps of Algorithm X a search can be at (Knuth's X2, X5, X6, X8) and the end.
ENTER, TRY, TRY_AGAIN, LEAVE, DONE = 0, 1, 2, 3, 4
# Fields of the `state` array.
LEVEL, STEP, NODES, UPDATES = 0, 1, 2, 3
STATE_SIZE = 4


@njit(cache=True)
def build_links(n_primary, n_items, option_start, option_items):  # pragma: no cover - compiled
    """Knuth's arrays (llink, rlink, ulink, dlink, top, length, option_of) of options given as CSR rows of items."""
    n_options = option_start.shape[0] - 1
    n_nodes = n_items + 1 + option_items.shape[0] + n_options + 1
    llink = np.empty(n_items + 2, np.int32)
    rlink = np.empty(n_items + 2, np.int32)
    ulink = np.empty(n_nodes, np.int32)
    dlink = np.empty(n_nodes, np.int32)
    top = np.zeros(n_nodes, np.int32)
    length = np.zeros(n_items + 1, np.int32)
    option_of = np.full(n_nodes, -1, np.int32)
    # 1. The primary items in a circular list through the root 0.
    for i in range(n_primary + 1):
        rlink[i] = i + 1
        llink[i] = i - 1
    rlink[n_primary] = 0
    llink[0] = n_primary
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
    return llink, rlink, ulink, dlink, top, length, option_of


@njit(cache=True)
def _hide(p, ulink, dlink, top, length):  # pragma: no cover - compiled
    """Unlink every other node of p's option from its item's list; returns the number of updates."""
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
    """Relink the other nodes of p's option, in the reverse order of _hide."""
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
def _cover(i, llink, rlink, ulink, dlink, top, length):  # pragma: no cover - compiled
    """Hide every option of item i and unlink i from its item list; returns the number of updates."""
    updates = 0
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
def _uncover(i, llink, rlink, ulink, dlink, top, length):  # pragma: no cover - compiled
    """Undo _cover(i): relink i into its item list and unhide its options bottom-up."""
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
    llink, rlink, ulink, dlink, top, length, option_of, x, chosen, state, solutions, limit, record, budget
):  # pragma: no cover - compiled
    """Resume Algorithm X from `state` until `limit` more solutions or `budget` more nodes + updates.

    The first `record` solutions of this call are written to rows 0.. of `solutions` (0-based option
    numbers padded with -1), the rest only counted; the call pauses when the buffer is full while
    more are to be recorded. Returns (solutions found, solutions written, nodes so far, updates so
    far, whether the search has finished). `state` and the link arrays keep everything needed to
    resume with another call.
    """
    level = state[LEVEL]
    step = state[STEP]
    nodes = state[NODES]
    updates = state[UPDATES]
    stop_at = nodes + updates + budget
    rows = solutions.shape[0]
    found = 0
    written = 0
    while step != DONE:
        if step == ENTER:
            # 1. (X2) Enter a level: pause here when the budget is spent, nothing half done.
            if nodes + updates >= stop_at or found >= limit or (written == rows and written < record):
                break
            nodes += 1
            if rlink[0] == 0:
                # 2. Every primary item is covered: record x[0..level) as a solution, then backtrack.
                if written < record:
                    for k in range(level):
                        solutions[written, k] = option_of[x[k]]
                    for k in range(level, solutions.shape[1]):
                        solutions[written, k] = -1
                    written += 1
                found += 1
                step = LEAVE
                continue
            # 3. (X3) Choose the active primary item with the fewest remaining options (MRV). The scan
            #    stops at an item with at most one: only an item with none beats it, found a level later.
            best = rlink[0]
            fewest = length[best]
            i = rlink[best]
            while i != 0 and fewest > 1:
                if length[i] < fewest:
                    best = i
                    fewest = length[i]
                i = rlink[i]
            # 4. (X4) Cover it and start with its first option.
            updates += _cover(best, llink, rlink, ulink, dlink, top, length)
            chosen[level] = best
            x[level] = dlink[best]
            step = TRY
        elif step == TRY:
            # 5. (X5) Try x[level]: back at the header means every option failed (X7: uncover, leave).
            p = x[level]
            i = chosen[level]
            if p == i:
                _uncover(i, llink, rlink, ulink, dlink, top, length)
                step = LEAVE
                continue
            # 6. Cover the option's other items, left to right, and go one level deeper.
            q = p + 1
            while q != p:
                j = top[q]
                if j <= 0:
                    q = ulink[q]
                else:
                    updates += _cover(j, llink, rlink, ulink, dlink, top, length)
                    q += 1
            level += 1
            step = ENTER
        elif step == TRY_AGAIN:
            # 7. (X6) Uncover the other items of x[level] right to left, then try the next option.
            p = x[level]
            q = p - 1
            while q != p:
                j = top[q]
                if j <= 0:
                    q = dlink[q]
                else:
                    _uncover(j, llink, rlink, ulink, dlink, top, length)
                    q -= 1
            x[level] = dlink[p]
            step = TRY
        else:
            # 8. (X8) Leave the level: the search ends when level 0 is left.
            if level == 0:
                step = DONE
            else:
                level -= 1
                step = TRY_AGAIN
    state[LEVEL] = level
    state[STEP] = step
    state[NODES] = nodes
    state[UPDATES] = updates
    return found, written, nodes, updates, step == DONE


@njit(cache=True)
def decode(solutions, count, cell_start, cells, values, givens):  # pragma: no cover - compiled
    """The row-major grids of the first `count` solutions: givens, then each chosen option's (cell, value) pairs."""
    grids = np.empty((count, givens.shape[0]), np.int32)
    for s in range(count):
        for c in range(givens.shape[0]):
            grids[s, c] = givens[c]
        for k in range(solutions.shape[1]):
            o = solutions[s, k]
            if o < 0:
                break
            for j in range(cell_start[o], cell_start[o + 1]):
                grids[s, cells[j]] = values[j]
    return grids
