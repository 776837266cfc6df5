"""Every cage rule, defined once, and nowhere else.

Which value tuples a cage allows in an order-n grid, how many cells each operator takes, which operators
suit which sizes, whether a target can be reached, and whether a cage's cells are connected.
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

SEARCH_LIMIT = 10**8
"""Cages with more candidate tuples than this (n ** cells) are taken as reachable without a search."""


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


def is_reachable(cells: Sequence[tuple[int, int]], op: str | None, target: int, n: int) -> bool:
    """Whether the cage allows some tuple; taken as so for cages too large to search (n ** cells > SEARCH_LIMIT)."""
    return n ** len(cells) > SEARCH_LIMIT or has_allowed_tuple(cells, op, target, n)


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


def has_allowed_tuple(cells: Sequence[tuple[int, int]], op: str | None, target: int, n: int) -> bool:
    """Whether the cage allows at least one tuple (a search that stops at the first)."""
    return next(iter_allowed_tuples(cells, op, target, n), None) is not None


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
