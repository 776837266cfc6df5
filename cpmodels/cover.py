"""Exact cover as a problem family: named items, primary and secondary, and options (Knuth's DLX1-DLX3).

An ExactCoverProblem is what Knuth's programs read (formats/dlx.py reads and writes his files); the
dlx backend searches it (backends/dlx.py: solve_cover, count_cover, iter_cover). `cover_violation` is
the solver-free checker of a solution: every answer the command prints passes through it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import CpModelsError

MAX_NAME = 8
"""Knuth's limit on the length of an item name, in bytes."""
MAX_BOUND = 2**31 - 1
"""The largest bound read (his programs keep bounds in an int)."""
BLANKS = " \t\n\v\f\r"
"""What C's isspace calls blank, so what separates names in his programs."""
_BLANK = re.compile(f"[{re.escape(BLANKS)}]")


@dataclass(frozen=True)
class ExactCoverProblem:
    """An exact-cover problem as DLX1-DLX3 read it: named items, the primary ones first, and options.

    items: the item names (1 to 8 bytes, Knuth's rule), the first n_primary of them primary.
    options: each option's items, as indices into items, in the order written.
    colours: () when no option gives a colour; else, per option, per entry, its colour or "" (DLX2).
    bounds: () when every primary item is covered exactly once; else (lower, upper) per primary item (DLX3).
    name: what the file's first comment line says (written back as that line).

    A solution takes each primary item between its bounds (once by default), each secondary item at
    most once, or any number of times in one colour. Validated on construction (CpModelsError).
    """

    items: tuple[str, ...]
    n_primary: int
    options: tuple[tuple[int, ...], ...]
    colours: tuple[tuple[str, ...], ...] = ()
    bounds: tuple[tuple[int, int], ...] = ()
    name: str = ""

    def __post_init__(self) -> None:
        if self.colours and not any(c for row in self.colours for c in row):
            object.__setattr__(self, "colours", ())
        if self.bounds and all(b == (1, 1) for b in self.bounds):
            object.__setattr__(self, "bounds", ())
        problem = _check_items(self) or _check_options(self) or _check_bounds(self)
        if problem:
            raise CpModelsError(problem)

    @property
    def primary(self) -> tuple[str, ...]:
        """The names of the primary items."""
        return self.items[: self.n_primary]

    @property
    def secondary(self) -> tuple[str, ...]:
        """The names of the secondary items."""
        return self.items[self.n_primary :]

    @property
    def dialect(self) -> str:
        """The first of Knuth's programs that reads it: DLX1, DLX2 (colours) or DLX3 (bounds)."""
        return "DLX3" if self.bounds else "DLX2" if self.colours else "DLX1"

    def entries(self, k: int) -> list[str]:
        """Option k's items as written: `name`, or `name:colour`."""
        colours = self.colours[k] if self.colours else ("",) * len(self.options[k])
        return [self.items[i] + (f":{c}" if c else "") for i, c in zip(self.options[k], colours, strict=True)]

    def bound(self, i: int) -> tuple[int, int]:
        """The (lower, upper) bounds of primary item i."""
        return self.bounds[i] if self.bounds else (1, 1)


def name_problem(name: str) -> str | None:
    """Why `name` cannot be an item name in Knuth's files (empty, too long, a blank, `:` or `|`), or None."""
    if not name:
        return "an item name is empty"
    if len(name.encode("utf-8")) > MAX_NAME:
        return f"item name {name!r}: at most {MAX_NAME} characters (bytes of UTF-8, as Knuth's programs count)"
    if not name.isprintable() or _BLANK.search(name):
        return f"item name {name!r}: a character that is not printable"
    if ":" in name or "|" in name:
        return f"item name {name!r}: no ':' or '|' in a name"
    return None


def _check_items(p: ExactCoverProblem) -> str | None:
    """Why the items are wrong (a bad or repeated name, no primary item), or None."""
    if not 1 <= p.n_primary <= len(p.items):
        return f"{p.n_primary} primary items of {len(p.items)}: at least one item must be primary"
    if "\n" in p.name or "\r" in p.name:
        return "the problem's name is one line (it is written as the file's first comment)"
    for name in p.items:
        problem = name_problem(name)
        if problem:
            return problem
    if len(set(p.items)) != len(p.items):
        twice = next(name for k, name in enumerate(p.items) if name in p.items[:k])
        return f"item {twice!r} is named twice"
    return None


def _check_options(p: ExactCoverProblem) -> str | None:
    """Why an option is wrong (an item outside the list or twice, no primary item, a bad colour), or None."""
    if p.colours and len(p.colours) != len(p.options):
        return f"{len(p.colours)} rows of colours for {len(p.options)} options"
    n = len(p.items)
    for k, option in enumerate(p.options):
        if not option or not all(0 <= i < n for i in option) or len(set(option)) != len(option):
            return f"option {k} must name distinct items 0..{n - 1}: {list(option)}"
        if min(option) >= p.n_primary:
            return f"option {k} ({' '.join(p.entries(k))}) has no primary item"
        if p.colours and _colour_problem(p, k):
            return _colour_problem(p, k)
    return None


def _colour_problem(p: ExactCoverProblem, k: int) -> str | None:
    """Why option k's colours are wrong (one per item, none on a primary item, no blank), or None."""
    colours = p.colours[k]
    if len(colours) != len(p.options[k]):
        return f"option {k}: {len(colours)} colours for {len(p.options[k])} items"
    for i, colour in zip(p.options[k], colours, strict=True):
        if colour and i < p.n_primary:
            return f"option {k}: primary item {p.items[i]!r} takes no colour"
        if any(ch in BLANKS for ch in colour) or not colour.isprintable():
            return f"option {k}: colour {colour!r} has a blank or a character that is not printable"
    return None


def _check_bounds(p: ExactCoverProblem) -> str | None:
    """Why the bounds are wrong (not one pair per primary item, a > b, b = 0), or None."""
    if p.bounds and len(p.bounds) != p.n_primary:
        return f"{len(p.bounds)} bounds for {p.n_primary} primary items"
    for name, (lower, upper) in zip(p.items, p.bounds, strict=False):
        if not 0 <= lower <= upper or not 1 <= upper <= MAX_BOUND:
            return f"item {name!r}: bounds {lower}:{upper} need 0 <= lower <= upper, 1 <= upper <= {MAX_BOUND}"
    return None


def cover_violation(problem: ExactCoverProblem, chosen: Sequence[int]) -> str | None:
    """Why the options `chosen` are not an exact cover of `problem` (an item's count or colours), or None."""
    if any(not 0 <= k < len(problem.options) for k in chosen) or len(set(chosen)) != len(chosen):
        return f"the options chosen must be distinct, 0..{len(problem.options) - 1}: {list(chosen)}"
    times: Counter[int] = Counter(i for k in chosen for i in problem.options[k])
    for i in range(problem.n_primary):
        lower, upper = problem.bound(i)
        if not lower <= times[i] <= upper:
            wanted = "once" if (lower, upper) == (1, 1) else f"{lower} to {upper} times"
            return f"primary item {problem.items[i]!r} is covered {times[i]} times, not {wanted}"
    colours: dict[int, set[str]] = {}
    for k in chosen:
        row = problem.colours[k] if problem.colours else ("",) * len(problem.options[k])
        for i, colour in zip(problem.options[k], row, strict=True):
            if i >= problem.n_primary:
                colours.setdefault(i, set()).add(colour)
    for i, seen in colours.items():
        if times[i] > 1 and (len(seen) > 1 or "" in seen):
            return f"secondary item {problem.items[i]!r} is covered {times[i]} times, not in one colour"
    return None
