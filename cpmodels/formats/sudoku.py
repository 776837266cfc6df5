"""Sudoku text formats: reading and writing givens of any order and box shape.

Read (detected with detect_layout, or forced with `fmt`):
  line     one puzzle per line, n*n symbols (`.` or `0` empty; 1-9 then A-Z for n <= 35), with the
           `puzzle:count:solution` fields of cpmodels' data and Gecode's `index:N:RxC:grid:...` lines,
           or n*n space-separated integers (any n);
  grid     a block of n lines, either symbols or space-separated integers (any n), decorated with
           `|`, `-`, `+` as pasted from web pages and books; blocks are separated by blank lines.
`#` starts a comment line. Written: one line, a boxed grid, JSON (read back by formats/mathdoku.py's json).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from functools import partial
from math import isqrt

from ..errors import CpModelsError, ParseError
from ..grid import GridPuzzle
from ..latin import is_latin_completion, latin_puzzle
from ..sudoku import box_of, is_sudoku, sudoku_puzzle
from .text import Entry, Token, content_lines, empty_input, entry_from, integer_of, tokens

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""Symbols for values 1..35 in one-character formats; value v is SYMBOLS[v - 1]."""
EMPTY = ".0"
DECORATION = "|-+=│─┼┃━╋"
FORMATS = ("line", "grid")
_GECODE = re.compile(r"^\s*[0-9]+:([0-9]+):([0-9]+)x([0-9]+):([^:]+)")
_ROW_TOKEN = r"[^\s" + re.escape(DECORATION) + r"]+"


# ---- reading -------------------------------------------------------------------------------


def read_text(text: str, path: str = "<input>", fmt: str = "auto", box: tuple[int, int] | None = None) -> list[Entry]:
    """Every puzzle in `text`, one Entry each, so one bad puzzle does not stop the rest."""
    content = content_lines(text)
    if not content:
        return empty_input(path)
    if fmt == "auto":
        fmt = detect_layout([ln.strip() for _, ln in content])
    if fmt == "line":
        return [entry_from(k, path, partial(_parse_line, ln, k, path, box)) for k, ln in content]
    if fmt == "grid":
        lines = list(enumerate(text.splitlines(), start=1))
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


def detect_layout(content: list[str]) -> str:
    """`line` or `grid`: the Sudoku format of the stripped content lines of a text.

    `line` for lines of one token each (unless they form one square block of rows), or for lines of
    k*k integers each (k*k more than the lines, as no grid has more columns than rows); `grid` otherwise.
    """
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
        shape = [integer_of(Token(m[g], path, k, m.start(g) + 1, line)) or 0 for g in (2, 3)]
        box = box or (shape[0], shape[1])
    elif len(line.split()) > 1:
        return _parse_integer_line(line, k, path, box)
    else:
        start = len(line) - len(line.lstrip())
        grid = line.strip().split(":")[0]
    where = Token(grid, path, k, start + 1, line)
    n = isqrt(len(grid))
    if n * n != len(grid) or n == 0:
        message = f"{len(grid)} symbols do not make a square grid (need n*n, such as 81 for 9x9)"
        raise where.part(len(grid) - 1).error(message)
    if n > len(SYMBOLS):
        raise ParseError(f"order {n} is too large for one-symbol cells; write rows of integers", path=path, line=k)
    values = []
    for j, ch in enumerate(grid):
        v = _symbol_value(ch, n)
        if v is None:
            raise where.part(j).error(
                f"{ch!r} is not a value of an order-{n} grid (use 1-{SYMBOLS[n - 1]}, '.' or '0' for empty)"
            )
        values.append(v)
    return sudoku_puzzle(values, box, name=f"{path}:{k}")


def _parse_integer_line(line: str, k: int, path: str, box: tuple[int, int] | None) -> GridPuzzle:
    """A puzzle from one line of n*n space-separated integers (`0` or `.` empty), for any order."""
    cells = tokens(path, k, line, hi=len(line.split(":")[0]))
    n = isqrt(len(cells))
    if n * n != len(cells):
        last = cells[-1]
        raise last.part(len(last.text) - 1).error(f"{len(cells)} cells do not make a square grid")
    return sudoku_puzzle([_value_of(tok, n) for tok in cells], box, name=f"{path}:{k}")


def _value_of(tok: Token, n: int) -> int:
    """The value of an integer token (`.` is 0) in an order-n grid; a ParseError at the token otherwise."""
    v = 0 if tok.text == "." else integer_of(tok, top=n)
    if v is None:
        raise tok.error(f"{tok.text!r} is not a value of an order-{n} grid")
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
    found = tokens(path, k, line, _ROW_TOKEN)
    as_integers = any(len(tok.text) > 1 and tok.text.isdigit() for tok in found)
    cells = found if as_integers else [tok.part(j, j + 1) for tok in found for j in range(len(tok.text))]
    values = []
    for tok in cells:
        v = _value_of(tok, n) if as_integers else _symbol_value(tok.text, n)
        if v is None:
            raise tok.error(f"{tok.text!r} is not a value of an order-{n} grid")
        values.append(v)
    if len(values) != n:
        end = Token("", path, k, len(line.rstrip()), line)
        raise end.error(f"row has {len(values)} cells, but the grid has {n} rows")
    return values


def _parse_block(block: list[tuple[int, str]], path: str, box: tuple[int, int] | None) -> GridPuzzle:
    """A puzzle from a block of n rows."""
    n = len(block)
    values = [v for k, ln in block for v in _row_values(k, ln, path, n)]
    return sudoku_puzzle(values, box, name=f"{path}:{block[0][0]}")


def sniff_json_grid(lines: list[str]) -> bool:
    """Whether the content lines are a JSON object with a "grid" key, as format_json writes."""
    return bool(lines) and lines[0].startswith("{") and any('"grid"' in ln for ln in lines)


def puzzle_from_json(data: dict, where: Token, name: str) -> GridPuzzle:
    """The puzzle of {"n": n, "box": [r, c] or null, "grid": n rows of n integers, 0 empty}.

    That is what format_json writes: a Sudoku with those boxes, or Latin square completion when box is null.
    """
    n, box, rows = data.get("n"), data.get("box"), data.get("grid")
    if type(n) is not int or n < 1:
        raise where.error(f'"n" must be a positive integer, not {json.dumps(n)}')
    if not (isinstance(rows, list) and len(rows) == n and all(_is_int_row(row, n) for row in rows)):
        raise where.error(f'"grid" must be {n} rows of {n} integers (0 for empty)')
    givens = [v for row in rows for v in row]
    if box is None:
        return latin_puzzle(givens, name=name)
    if not _is_int_row(box, 2):
        raise where.error(f'"box" must be [rows, columns] or null, not {json.dumps(box)}')
    return sudoku_puzzle(givens, (box[0], box[1]), name=name)


def _is_int_row(row: object, length: int) -> bool:
    """Whether `row` is a JSON list of `length` integers."""
    return isinstance(row, list) and len(row) == length and all(type(v) is int for v in row)


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


def write_line(puzzle: GridPuzzle) -> str:
    """A plain Sudoku's givens as one line; CpModelsError for any other puzzle (the line would lose it)."""
    _check_sudoku(puzzle, "line")
    return format_line(puzzle.givens)


def write_grid(puzzle: GridPuzzle) -> str:
    """A plain Sudoku's givens as rows with box borders; CpModelsError for any other puzzle."""
    _check_sudoku(puzzle, "grid")
    return format_grid(puzzle.givens, box_of(puzzle))


def write_json_grid(puzzle: GridPuzzle) -> str:
    """A plain Sudoku (its box) or Latin square completion (box null) as JSON; CpModelsError for others."""
    if not (is_sudoku(puzzle) or is_latin_completion(puzzle)):
        raise CpModelsError("JSON holds a Mathdoku, a plain Sudoku or a Latin square; this puzzle has other units")
    return format_json(puzzle.givens, box_of(puzzle))


def _check_sudoku(puzzle: GridPuzzle, fmt: str) -> None:
    """Raise CpModelsError unless `puzzle` is a plain Sudoku, the only puzzle format `fmt` holds."""
    if not is_sudoku(puzzle):
        kind = "cages" if puzzle.cages else "no boxes" if box_of(puzzle) is None else "other units"
        raise CpModelsError(f"the {fmt} format holds a plain Sudoku (rows, columns, boxes); this puzzle has {kind}")
