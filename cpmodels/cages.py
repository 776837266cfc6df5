"""Cage semantics, defined once: which value tuples a cage allows in an order-n grid."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import prod

OPERATORS = ("+", "-", "*", "/", "=")
"""Cage operators: sum, absolute difference, product, exact quotient, a given single value."""

OPERATOR_WORDS = {"+": "sum", "-": "difference", "*": "product", "/": "quotient", "=": "value"}

ARITHMETIC = ("+", "-", "*", "/")
"""The operators of cages of two or more cells."""


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
