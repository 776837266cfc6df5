"""Knuth's DLX1 exact-cover files: read, written, and written for a grid puzzle (its exact cover).

The format (`read_dlx`, `write_exact_cover`): lines starting with `|` are comments; the first other line
names the items, primary ones before a lone `|` and secondary ones after it; every later line is an
option, its item names separated by spaces. DLX2 colours (`item:colour`) are refused.

A grid puzzle's exact cover (`write_dlx`) is the one the dlx backend searches (backends/dlx.py), with
each given as its cell's only option, so that the file stands alone. Item names (at most 8 characters
up to order 64; rows, columns, values 1-based):

    p3_7    cell r3c7 holds a value
    r3v5    row 3 holds value 5            c7v5   column 7 holds value 5
    b2v5    the 2nd unit that is neither a row nor a column (a box, a region) holds value 5
    u12v5   unit 12 of puzzle.units holds 5 (a unit listed twice: its second listing)

The backend loads (with numpy) only when a puzzle is written or a file solved.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import CpModelsError, ParseError
from ..grid import GridPuzzle
from .text import Token, split_lines, tokens

if TYPE_CHECKING:
    from ..backends.dlx import CompiledPuzzle, CoverResult, ExactCover

MAX_NAME = 8
"""Knuth's DLX1 limit on the length of an item name."""


def item_names(puzzle: GridPuzzle, compiled: CompiledPuzzle) -> list[str]:
    """The DLX name of every item of `compiled`, in item order: p3_7, r3v5, c7v5, b2v5, u12v5 (module docstring)."""
    names = [""] * compiled.cover.n_items
    n = puzzle.n
    for cell, item in enumerate(compiled.cell_item.tolist()):
        if item >= 0:
            r, c = divmod(cell, n)
            names[item] = f"p{r + 1}_{c + 1}"
    for k, prefix in enumerate(_unit_prefixes(puzzle)):
        for v, item in enumerate(compiled.unit_item[k].tolist()):
            if item >= 0:
                names[item] = f"{prefix}v{v}"
    too_long = next((name for name in names if len(name) > MAX_NAME), None)
    if too_long:
        raise CpModelsError(f"item name {too_long!r} is longer than DLX's {MAX_NAME} characters")
    return names


def _unit_prefixes(puzzle: GridPuzzle) -> list[str]:
    """r3 for row 3, c7 for column 7, b2 for the 2nd other unit; u12 for unit 12 when its name is taken."""
    n, seen, others = puzzle.n, set(), 0
    prefixes = []
    for k, unit in enumerate(puzzle.units, start=1):
        rows, cols = {i // n for i in unit}, {i % n for i in unit}
        if len(unit) == n and len(rows) == 1:
            prefix = f"r{rows.pop() + 1}"
        elif len(unit) == n and len(cols) == 1:
            prefix = f"c{cols.pop() + 1}"
        else:
            others += 1
            prefix = f"b{others}"
        prefix = f"u{k}" if prefix in seen else prefix
        seen.add(prefix)
        prefixes.append(prefix)
    return prefixes


def write_exact_cover(
    primary: Sequence[str], secondary: Sequence[str], options: Sequence[Sequence[str]], comments: Sequence[str] = ()
) -> str:
    """The DLX1 text of an exact-cover problem: `|` comment lines, the item line, one line per option."""
    head = " ".join(primary) + (" | " + " ".join(secondary) if secondary else "")
    lines = [f"| {c}" if c else "|" for c in comments] + [head] + [" ".join(o) for o in options]
    return "\n".join(lines) + "\n"


def write_dlx(puzzle: GridPuzzle) -> str:
    """The DLX1 text of `puzzle`'s exact cover, givens as their cells' only options (options in compile order).

    A puzzle the dlx backend cannot compile is refused with a CpModelsError saying why.
    """
    from ..backends.dlx import DlxBackend, compile_puzzle

    reason = DlxBackend().can_solve(puzzle)
    if reason:
        raise CpModelsError(f"cannot write its exact cover: {reason}")
    compiled = compile_puzzle(puzzle, precover=False)
    names = item_names(puzzle, compiled)
    cover = compiled.cover
    options = [[names[i] for i in cover.option(k)] for k in range(cover.n_options)]
    givens = sum(1 for g in puzzle.givens if g)
    comments = [
        f"cpmodels exact cover of {puzzle.name or 'a grid puzzle'}: order {puzzle.n}, "
        + f"{len(puzzle.units)} units, {len(puzzle.cages)} cages, {givens} givens",
        "items: pR_C cell rRcC holds a value; rRvV cCvV bKvV uKvV: row R, column C, other unit K, unit K holds V",
        "after the bar: units of fewer cells than the order (each value at most once)",
        "options: one per empty cell and value, one per allowed tuple of a cage; a given is its cell's only option",
    ]
    return write_exact_cover(names[: cover.n_primary], names[cover.n_primary :], options, comments)


def read_dlx(text: str, path: str = "<input>") -> tuple[list[str], list[str], list[list[str]]]:
    """The primary items, secondary items and options (lists of item names) of DLX1 text."""
    primary: list[str] = []
    secondary: list[str] = []
    options: list[list[str]] = []
    known: dict[str, int] = {}
    for k, line in enumerate(split_lines(text), start=1):
        if line.startswith("|") or not line.strip():
            continue
        names = tokens(path, k, line)
        if not known and not primary:
            primary, secondary = _item_line(names)
            known = {name: i for i, name in enumerate(primary + secondary)}
        else:
            options.append(_option_line(names, known))
    if not primary:
        message = "no item line: the first line that is not a | comment names the items"
        raise ParseError(message, path=path, line=1)
    return primary, secondary, options


def _item_line(names: list[Token]) -> tuple[list[str], list[str]]:
    """The primary and secondary item names of the item line, checked."""
    primary: list[str] = []
    secondary: list[str] = []
    current, seen = primary, set()
    for tok in names:
        name = tok.text
        if name == "|":
            if current is secondary:
                raise tok.error("a second '|' in the item line")
            current = secondary
        elif len(name) > MAX_NAME or ":" in name or "|" in name:
            raise tok.error(f"item name {name!r}: at most {MAX_NAME} characters, no ':' or '|'")
        elif name in seen:
            raise tok.error(f"item {name!r} is named twice")
        else:
            seen.add(name)
            current.append(name)
    if not primary:
        raise Token("", names[0].path, names[0].line, 1, names[0].source).error("no primary item before the '|'")
    return primary, secondary


def _option_line(names: list[Token], known: dict[str, int]) -> list[str]:
    """The item names of an option line, each known and named once; DLX2 colours are refused."""
    found: list[str] = []
    for tok in names:
        name = tok.text
        if ":" in name:
            raise tok.error(f"{name!r} has a DLX2 colour; this solver reads DLX1 (no colours)")
        if name not in known:
            raise tok.error(f"unknown item {name!r}")
        if name in found:
            raise tok.error(f"item {name!r} appears twice in this option")
        found.append(name)
    return found


def cover_from_names(primary: Sequence[str], secondary: Sequence[str], options: Sequence[Sequence[str]]) -> ExactCover:
    """The ExactCover of named items and options, as read_dlx returns them (items numbered in order)."""
    from ..backends.dlx import exact_cover

    number = {name: i for i, name in enumerate([*primary, *secondary])}
    return exact_cover(len(primary), len(secondary), [[number[name] for name in o] for o in options])


def solve_dlx(
    text: str, *, limit: int = 1, time_limit: float | None = None, path: str = "<input>"
) -> tuple[CoverResult, list[list[str]]]:
    """Up to `limit` solutions of the exact-cover problem in DLX1 text, and its options (to name a solution's)."""
    from ..backends.dlx import solve_exact_cover

    primary, secondary, options = read_dlx(text, path)
    return solve_exact_cover(cover_from_names(primary, secondary, options), limit=limit, time_limit=time_limit), options
