"""Every cage rule, defined once, and nowhere else.

Which value tuples a cage allows in an order-n grid, how many cells each operator takes, which operators
suit which sizes, whether a target can be reached, and whether a cage's cells are connected.

Reachability (is_reachable) never enumerates all n ** cells tuples: bounds on sums and products of values
that differ within each row and column refuse most unreachable targets at once, and a search guided by
those bounds settles the rest within REACH_NODES nodes; a cage still undecided then is taken as reachable,
so a reachable cage is never refused.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import prod

OPERATORS = ("+", "-", "*", "/", "=")
"""Cage operators: sum, absolute difference, product, exact quotient, a given single value."""

OPERATOR_WORDS = {"+": "sum", "-": "difference", "*": "product", "/": "quotient", "=": "value"}

ARITHMETIC = ("+", "-", "*", "/")
"""The operators of cages of two or more cells."""

CELLS_NEEDED = {"-": 2, "/": 2, "=": 1}
"""The operators that take an exact number of cells, and that number; + * and hidden take any."""

REACH_NODES = 20_000
"""The most steps (a value tried, or a cell given up) of is_reachable's search: more than any cage of up to
4 cells of order up to 9 needs (9 + 9**2 + 9**3 + 9**4 values tried, and as many cells given up)."""

Cell = tuple[int, int]


def size_problem(op: str | None, size: int) -> str | None:
    """Why a cage of `size` cells cannot carry `op` (`'-' needs exactly 2 cells`), or None when it can."""
    need = CELLS_NEEDED.get(op or "")
    if need is None or need == size:
        return None
    return f"'{op}' needs exactly {need} cell{'s' if need > 1 else ''}"


def operators_for(size: int) -> tuple[str, ...]:
    """The arithmetic operators a cage of `size` cells may carry: all four for 2 cells, + and * above, none for 1."""
    return () if size == 1 else ARITHMETIC if size == 2 else ("+", "*")


def holds(op: str | None, target: int, values: Sequence[int]) -> bool:
    """Whether `values` meet a cage's `op` and `target`; op None (hidden) accepts any operator that fits."""
    if op is None:
        return any(holds(o, target, values) for o in operators_for(len(values)) or ("=",))
    if op == "=":
        return len(values) == 1 and values[0] == target
    if op == "+":
        return sum(values) == target
    if op == "*":
        return prod(values) == target
    if len(values) != 2:
        return False
    low, high = sorted(values)
    if op == "-":
        return high - low == target
    return high == low * target  # "/": exact, never truncated


def is_reachable(cells: Sequence[Cell], op: str | None, target: int, n: int) -> bool:
    """Whether some values 1..n, different within each row and column, meet the cage (see the module docstring).

    Exact whenever the search settles within REACH_NODES; otherwise True unless the bounds refuse the target.
    """
    if op is None:
        return any(is_reachable(cells, o, target, n) for o in operators_for(len(cells)) or ("=",))
    k = len(cells)
    if op == "=":
        return k == 1 and 1 <= target <= n
    if op in ("-", "/"):
        return k == 2 and _pair_reachable(op, target, n, _share_line(cells[0], cells[1]))
    if op == "*" and not _factors_fit(target, n, k):
        return False
    return op in ("+", "*") and k > 0 and _search(cells, op == "+", target, n) is not False


def _share_line(a: Cell, b: Cell) -> bool:
    """Whether two cells are in one row or one column, so that their values differ."""
    return a[0] == b[0] or a[1] == b[1]


def _pair_reachable(op: str, target: int, n: int, distinct: bool) -> bool:
    """Whether two values 1..n (different if `distinct`) have difference (`-`) or exact quotient (`/`) `target`."""
    low = 1 if op == "-" else 2  # the least target of two different values
    return (low - (not distinct)) <= target <= (n - 1 if op == "-" else n)


def _factors_fit(target: int, n: int, k: int) -> bool:
    """Whether `target` is a product of k values 1..n as far as its primes tell.

    None of its primes is above n, and at most k are above n/2 (each of those needs a cell of its own).
    """
    if target < 1:
        return False
    alone = 0
    for p in range(2, n + 1):
        while target % p == 0:
            target //= p
            alone += 2 * p > n
    return target == 1 and alone <= k


def _suffix_bounds(cells: Sequence[Cell], add: bool, n: int, cap: int) -> tuple[list[int], list[int]]:
    """The least and greatest sum (add) or product of the values of cells[d:], for each d.

    Values differ within each row and column, so the m-th cell of a line is at least m and at most n - m + 1.
    Products are capped at `cap` (above the target, any larger bound decides the same).
    """
    k = len(cells)
    unit = 0 if add else 1
    lo, hi = [unit] * (k + 1), [unit] * (k + 1)
    seen: dict[tuple[int, int], int] = {}
    line_lo, line_hi = [unit, unit], [unit, unit]  # by rows, by columns
    for d in range(k - 1, -1, -1):
        for axis in (0, 1):
            m = seen[(axis, cells[d][axis])] = seen.get((axis, cells[d][axis]), 0) + 1
            small, large = m, max(n - m + 1, 0)
            line_lo[axis] = line_lo[axis] + small if add else min(line_lo[axis] * small, cap)
            line_hi[axis] = line_hi[axis] + large if add else min(line_hi[axis] * large, cap)
        lo[d], hi[d] = max(line_lo), min(line_hi)
    return lo, hi


def _search(cells: Sequence[Cell], add: bool, target: int, n: int) -> bool | None:
    """Whether values 1..n, different within each row and column, have sum (add) or product `target`.

    Depth-first, iterative, each value within the bounds; None when REACH_NODES steps did not settle it.
    """
    lo, hi = _suffix_bounds(cells, add, n, max(target, 0) + 1)
    if not lo[0] <= target <= hi[0]:
        return False
    used: dict[tuple[int, int], set[int]] = {}
    chosen: list[int]
    rests, chosen = [target], []  # the target left before each chosen value, and the values chosen
    stack = [_candidates(add, target, n, lo[1], hi[1])]
    for _ in range(REACH_NODES):
        value = next(stack[-1], None)
        d = len(chosen)
        if value is None:
            stack.pop()
            if not stack:
                return False
            _mark(used, cells[d - 1], chosen.pop(), False)
            rests.pop()
            continue
        if _is_used(used, cells[d], value):
            continue
        if d + 1 == len(cells):
            return True
        rest = rests[-1] - value if add else rests[-1] // value
        _mark(used, cells[d], value, True)
        chosen.append(value)
        rests.append(rest)
        stack.append(_candidates(add, rest, n, lo[d + 2], hi[d + 2]))
    return None


def _candidates(add: bool, rest: int, n: int, lo: int, hi: int) -> Iterator[int]:
    """The values v in 1..n that leave for the later cells a sum (rest - v) or product (rest / v) in lo..hi."""
    if add:
        return iter(range(max(1, rest - hi), min(n, rest - lo) + 1))
    return (v for v in range(min(n, rest), 0, -1) if rest % v == 0 and lo <= rest // v <= hi)


def _is_used(used: dict[tuple[int, int], set[int]], cell: Cell, value: int) -> bool:
    """Whether `value` is already chosen in the cell's row or column."""
    return value in used.get((0, cell[0]), ()) or value in used.get((1, cell[1]), ())


def _mark(used: dict[tuple[int, int], set[int]], cell: Cell, value: int, on: bool) -> None:
    """Record (on) or forget `value` as chosen in the cell's row and column."""
    for line in ((0, cell[0]), (1, cell[1])):
        if on:
            used.setdefault(line, set()).add(value)
        else:
            used[line].discard(value)


def unreachable_reason(cells: Sequence[tuple[int, int]], op: str | None, target: int, n: int) -> str | None:
    """Why no values 1..n meet the cage (`no two values in 1..6 have quotient 7`), or None when some can."""
    if is_reachable(cells, op, target, n):
        return None
    if op == "=":
        return f"{target} is not a value in 1..{n}"
    count = "two" if len(cells) == 2 else str(len(cells))
    if op is None:
        return f"no {count} values in 1..{n} make {target} with any operator"
    return f"no {count} values in 1..{n} have {OPERATOR_WORDS[op]} {target}"


def is_connected(cells: Sequence[tuple[int, int]]) -> bool:
    """Whether `cells` form one orthogonally connected region."""
    todo, seen = [cells[0]], {cells[0]}
    members = set(cells)
    while todo:
        r, c = todo.pop()
        for step in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if step in members and step not in seen:
                seen.add(step)
                todo.append(step)
    return len(seen) == len(members)


def conflicts(cells: Sequence[tuple[int, int]]) -> list[list[int]]:
    """For each position i in `cells`, the earlier positions j < i sharing its row or column."""
    return [
        [j for j in range(i) if cells[j][0] == cells[i][0] or cells[j][1] == cells[i][1]] for i in range(len(cells))
    ]


def allowed_tuples(cells: Sequence[tuple[int, int]], op: str | None, target: int, n: int) -> list[tuple[int, ...]]:
    """Every tuple of values 1..n for `cells` that meets the cage and repeats no value in a row or column."""
    return list(iter_allowed_tuples(cells, op, target, n))


def iter_allowed_tuples(
    cells: Sequence[tuple[int, int]], op: str | None, target: int, n: int
) -> Iterator[tuple[int, ...]]:
    """The tuples of allowed_tuples, lazily, depth-first, pruning partial sums and products off target."""
    clash = conflicts(cells)
    k = len(cells)
    partial: list[int] = []

    def feasible(depth: int) -> bool:
        left = k - depth
        if op == "+":
            s = sum(partial)
            return s + left <= target <= s + left * n
        if op == "*":
            return target % prod(partial) == 0 if partial else True
        return True

    def extend(depth: int) -> Iterator[tuple[int, ...]]:
        if depth == k:
            if holds(op, target, partial):
                yield tuple(partial)
            return
        for value in range(1, n + 1):
            if any(partial[j] == value for j in clash[depth]):
                continue
            partial.append(value)
            if feasible(depth + 1):
                yield from extend(depth + 1)
            partial.pop()

    yield from extend(0)
