"""Sudoku of any r x c box shape: units, box shapes, and the text formats puzzles come in.

Read (auto-detected, or forced with `fmt`):
  line     one puzzle per line, n*n symbols (`.` or `0` empty; 1-9 then A-Z for n <= 35), with the
           `puzzle:count:solution` fields of cpmodels' data and Gecode's `index:N:RxC:grid:...` lines;
  grid     a block of n lines, either symbols or space-separated integers (any n), decorated with
           `|`, `-`, `+` as pasted from web pages and books; blocks are separated by blank lines.
`#` starts a comment line. Written: one line, a boxed grid, JSON.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from functools import partial
from math import isqrt

from .errors import CpModelsError, ParseError, PuzzleError
from .formats import Entry, content_lines, entry_from
from .grid import GridPuzzle, latin_units

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""Symbols for values 1..35 in one-character formats; value v is SYMBOLS[v - 1]."""
EMPTY = ".0"
DECORATION = "|-+=│─┼┃━╋"
FORMATS = ("line", "grid")
_GECODE = re.compile(r"^\s*\d+:(\d+):(\d+)x(\d+):([^:]+)")


def default_box(n: int) -> tuple[int, int]:
    """The most square box shape r x c = n with r <= c (6 -> 2x3, 8 -> 2x4, 12 -> 3x4)."""
    r = max(d for d in range(1, isqrt(n) + 1) if n % d == 0)
    if r == 1 and n > 3:
        raise PuzzleError(f"order {n} is prime: it has no box shape (only 1x{n}, a Latin square)")
    return r, n // r


def parse_box(text: str) -> tuple[int, int]:
    """A box shape from `RxC` text, as (rows, columns)."""
    m = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text)
    if not m or int(m[1]) < 1 or int(m[2]) < 1:
        raise PuzzleError(f"box shape {text!r} is not of the form RxC, such as 2x3")
    return int(m[1]), int(m[2])


def sudoku_units(n: int, box: tuple[int, int]) -> tuple[tuple[int, ...], ...]:
    """Rows, columns and boxes of box[0] rows by box[1] columns, as row-major cell indices."""
    br, bc = box
    if br * bc != n:
        raise PuzzleError(f"a {br}x{bc} box holds {br * bc} cells, but the grid has order {n}")
    boxes = tuple(
        tuple((top + r) * n + left + c for r in range(br) for c in range(bc))
        for top in range(0, n, br)
        for left in range(0, n, bc)
    )
    return latin_units(n) + boxes


def sudoku_puzzle(givens: Sequence[int], box: tuple[int, int] | None = None, name: str = "") -> GridPuzzle:
    """The Sudoku with these row-major givens (0 = empty) and box shape (default: default_box(n))."""
    n = isqrt(len(givens))
    if n * n != len(givens) or n == 0:
        raise PuzzleError(f"{len(givens)} cells do not make a square grid")
    return GridPuzzle(n, sudoku_units(n, box or default_box(n)), tuple(givens), name=name)


def box_of(puzzle: GridPuzzle) -> tuple[int, int] | None:
    """The box shape of a Sudoku, read off its units; None if the puzzle has no rectangular boxes."""
    n = puzzle.n
    for unit in puzzle.units[2 * n :]:
        rows = {i // n for i in unit}
        cols = {i % n for i in unit}
        if len(rows) * len(cols) == len(unit) == n and len(rows) > 1 and len(cols) > 1:
            return len(rows), len(cols)
    return None


# ---- reading -------------------------------------------------------------------------------


def read_text(text: str, path: str = "<input>", fmt: str = "auto", box: tuple[int, int] | None = None) -> list[Entry]:
    """Every puzzle in `text`, one Entry each, so one bad puzzle does not stop the rest."""
    lines = list(enumerate(text.splitlines(), start=1))
    content = content_lines(text)
    if not content:
        return [Entry(1, error=ParseError("no puzzle found (the input is empty)", path=path, line=1))]
    if fmt == "auto":
        fmt = _detect([ln.strip() for _, ln in content])
    if fmt == "line":
        return [entry_from(k, path, partial(_parse_line, ln, k, path, box)) for k, ln in content]
    if fmt == "grid":
        return [entry_from(b[0][0], path, partial(_parse_block, b, path, box)) for b in _blocks(lines)]
    raise CpModelsError(f"unknown Sudoku format {fmt!r}; choose one of: auto, {', '.join(FORMATS)}")


def read_puzzle(text: str, path: str = "<input>", fmt: str = "auto", box: tuple[int, int] | None = None) -> GridPuzzle:
    """The single puzzle in `text`; raises the first error, or if the text holds several puzzles."""
    entries = read_text(text, path, fmt, box)
    if entries[0].error:
        raise entries[0].error
    if len(entries) > 1:
        raise ParseError(f"expected one puzzle, found {len(entries)}", path=path, line=entries[1].line)
    assert entries[0].puzzle is not None
    return entries[0].puzzle


def _detect(content: list[str]) -> str:
    """`line` for lines of one token each (unless they form one square block of rows), or for lines of
    k*k integers each (k*k more than the lines, as no grid has more columns than rows); `grid` otherwise."""
    if any(set(ln) & set(DECORATION) for ln in content):
        return "grid"
    counts = {len(ln.split(":")[0].split()) for ln in content}
    if counts == {1}:
        widths = {len(ln) for ln in content}
        return "grid" if widths == {len(content)} and ":" not in content[0] else "line"
    k = counts.pop() if len(counts) == 1 else 0
    return "line" if k >= 16 and isqrt(k) ** 2 == k and k > len(content) else "grid"


def _symbol_value(ch: str, n: int) -> int | None:
    """The value of a one-character symbol in an order-n grid (0 for empty), or None if invalid."""
    if ch in EMPTY:
        return 0
    v = SYMBOLS.find(ch.upper()) + 1
    return v if 1 <= v <= n else None


def _parse_line(line: str, k: int, path: str, box: tuple[int, int] | None) -> GridPuzzle:
    """A puzzle from one line of symbols (optionally `:count:solution`, or Gecode's `i:N:RxC:grid`)."""
    m = _GECODE.match(line)
    if m:
        start, grid = m.start(4), m[4]
        box = box or (int(m[2]), int(m[3]))
    elif len(line.split()) > 1:
        return _parse_integer_line(line, k, path, box)
    else:
        start = len(line) - len(line.lstrip())
        grid = line.strip().split(":")[0]
    n = isqrt(len(grid))
    if n * n != len(grid) or n == 0:
        raise ParseError(
            f"{len(grid)} symbols do not make a square grid (need n*n, such as 81 for 9x9)",
            path=path,
            line=k,
            column=start + len(grid),
            text=line,
        )
    if n > len(SYMBOLS):
        raise ParseError(f"order {n} is too large for one-symbol cells; write rows of integers", path=path, line=k)
    values = []
    for j, ch in enumerate(grid):
        v = _symbol_value(ch, n)
        if v is None:
            raise ParseError(
                f"{ch!r} is not a value of an order-{n} grid (use 1-{SYMBOLS[n - 1]}, '.' or '0' for empty)",
                path=path,
                line=k,
                column=start + j + 1,
                text=line,
            )
        values.append(v)
    return sudoku_puzzle(values, box, name=f"{path}:{k}")


def _parse_integer_line(line: str, k: int, path: str, box: tuple[int, int] | None) -> GridPuzzle:
    """A puzzle from one line of n*n space-separated integers (`0` or `.` empty), for any order."""
    tokens = list(re.finditer(r"\S+", line.split(":")[0]))
    n = isqrt(len(tokens))
    if n * n != len(tokens):
        raise ParseError(
            f"{len(tokens)} cells do not make a square grid", path=path, line=k, column=tokens[-1].end(), text=line
        )
    values = [_integer_value(m[0], n, path, k, m.start() + 1, line) for m in tokens]
    return sudoku_puzzle(values, box, name=f"{path}:{k}")


def _integer_value(token: str, n: int, path: str, k: int, column: int, line: str) -> int:
    """The value of an integer token (`.` is 0) in an order-n grid; ParseError at `column` otherwise."""
    v = 0 if token == "." else int(token) if token.isdigit() else -1
    if not 0 <= v <= n:
        raise ParseError(f"{token!r} is not a value of an order-{n} grid", path=path, line=k, column=column, text=line)
    return v


def _blocks(lines: list[tuple[int, str]]) -> Iterator[list[tuple[int, str]]]:
    """Runs of non-blank lines, without comment lines and pure decoration lines such as `------+-----`."""
    block: list[tuple[int, str]] = []
    for k, ln in lines + [(len(lines) + 1, "")]:
        if ln.lstrip().startswith("#"):
            continue
        if not ln.strip():
            if block:
                yield block
            block = []
        elif ln.strip(DECORATION + " \t"):
            block.append((k, ln))


def _row_values(k: int, line: str, path: str, n: int) -> list[int]:
    """The values in one row of a grid block: integer tokens, or one symbol per character."""
    tokens = [(m.start(), m[0]) for m in re.finditer(r"[^\s" + re.escape(DECORATION) + r"]+", line)]
    as_integers = any(len(t) > 1 and t.isdigit() for _, t in tokens)
    cells = tokens if as_integers else [(col + j, ch) for col, t in tokens for j, ch in enumerate(t)]
    values = []
    for col, t in cells:
        v = _integer_value(t, n, path, k, col + 1, line) if as_integers else _symbol_value(t, n)
        if v is None:
            raise ParseError(f"{t!r} is not a value of an order-{n} grid", path=path, line=k, column=col + 1, text=line)
        values.append(v)
    if len(values) != n:
        raise ParseError(
            f"row has {len(values)} cells, but the grid has {n} rows",
            path=path,
            line=k,
            column=len(line.rstrip()),
            text=line,
        )
    return values


def _parse_block(block: list[tuple[int, str]], path: str, box: tuple[int, int] | None) -> GridPuzzle:
    """A puzzle from a block of n rows."""
    n = len(block)
    values = [v for k, ln in block for v in _row_values(k, ln, path, n)]
    return sudoku_puzzle(values, box, name=f"{path}:{block[0][0]}")


# ---- writing -------------------------------------------------------------------------------


def format_line(grid: Sequence[int]) -> str:
    """A row-major grid as one line: symbols for n <= 35 ('.' for empty), else space-separated integers."""
    n = isqrt(len(grid))
    if n <= len(SYMBOLS):
        return "".join(SYMBOLS[v - 1] if v else "." for v in grid)
    return " ".join(str(v) for v in grid)


def format_grid(grid: Sequence[int], box: tuple[int, int] | None = None) -> str:
    """A row-major grid as rows with `|` and `-` between boxes ('.' for empty)."""
    n = isqrt(len(grid))
    br, bc = box or (n, n)
    width = 1 if n <= len(SYMBOLS) else len(str(n))
    cell = (lambda v: SYMBOLS[v - 1] if v else ".") if width == 1 else (lambda v: str(v or ".").rjust(width))
    rows = []
    for r in range(n):
        groups = [" ".join(cell(grid[r * n + c]) for c in range(g, g + bc)) for g in range(0, n, bc)]
        rows.append(" | ".join(groups))
        if (r + 1) % br == 0 and r + 1 < n:
            rows.append("-+-".join("-" * len(g) for g in groups))
    return "\n".join(rows)


def format_json(grid: Sequence[int], box: tuple[int, int] | None = None) -> str:
    """A row-major grid as JSON: {"n", "box", "grid": rows of integers, 0 for empty}."""
    n = isqrt(len(grid))
    rows = [list(grid[r * n : (r + 1) * n]) for r in range(n)]
    return json.dumps({"n": n, "box": list(box) if box else None, "grid": rows})
