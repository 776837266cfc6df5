"""Sudoku text formats: reading and writing givens of any order and box shape.

Read (detected with detect_layout, or forced with `fmt`):
  line     one puzzle per line: n*n one-character cells, optionally followed by the `:count:solution`
           fields of cpmodels' data (Entry.claimed_count, Entry.claimed_solution); Gecode's
           `index:N:RxC:grid[:count:solution]` lines; or n*n space-separated integers (any order);
  grid     blocks of n rows, a row being n one-character cells (spaces between them optional: `003020600`
           or `0 0 3 0 2 0 6 0 0`) or n space-separated integers, decorated with `|`, `+`, `-` and
           box-drawing lines as pasted from web pages and books. Blocks are separated by blank lines or
           by a label line (`Grid 01`, `Puzzle 3`: a line that starts with a word), which names the puzzle.
Cells: the symbols 1-9 then A-Z (value v is SYMBOLS[v - 1]), or the alphabet given as `symbols` (parse_symbols
reads an option such as `0-9A-F`); `.`, `-`, and `0` when it is not a symbol, are empty. A 16x16 that writes
`0`, no `G`, and `.` or `-` for empty cells is hexadecimal (HEX, 0-F); one that writes `0` and no `G` but no
`.` or `-` could be either, and is read in 1-9A-G with `0` empty and a warning (Entry.warning).
`#` starts a comment line. Written: one line, a boxed grid, in the symbols given (default 1-9A-Z), and
JSON (read back by formats/mathdoku.py's json).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from math import isqrt
from typing import cast

from ..errors import CpModelsError, ParseError
from ..grid import GridPuzzle
from ..latin import is_latin_completion, latin_puzzle
from ..sudoku import box_of, is_sudoku, sudoku_puzzle
from .text import (
    Entry,
    Token,
    content_lines,
    empty_input,
    entry_from,
    fields,
    integer_of,
    order_error,
    solution_values,
    split_lines,
    tokens,
)

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""Symbols for values 1..35 in one-character formats; value v is SYMBOLS[v - 1]."""
HEX = "0123456789ABCDEF"
"""The hexadecimal symbols of a 16x16: value v is HEX[v - 1], so 0 stands for 1."""
EMPTY = ".-"
"""Empty cells in one-character formats; `0` is empty too when it is not a symbol."""
FORMATS = ("line", "grid")
_GECODE = re.compile(r"^\s*[0-9]+:([0-9]+):([0-9]+)x([0-9]+):([^:]+)")
_BOX_CHARS = "\u2500-\u257f"  # box drawing: with | + = -, the decoration of pasted grids
_ROW_TOKEN = rf"[^\s|+={_BOX_CHARS}]+"
_BARS = re.compile(rf"[|{_BOX_CHARS}]")
_DECORATION_LINE = re.compile(rf"[\s|+={_BOX_CHARS}-]*")
_RULE = re.compile(rf"--|[+={_BOX_CHARS}]")
_LABEL = re.compile(r"(?=[A-Za-z]{2})(?=[A-Za-z]{0,19}[a-z])[A-Za-z]{2,20}(?![\w.*?-])|[A-Z]{2,20}\s+[0-9]+$")
_FOREIGN = re.compile(r"""[{}\[\]<>,;"'@$%&^~`\\+/=]""")
_INTEGER_CELL = re.compile(r"[0-9]+|[.-]")

DETECT_LINES = 3600
"""How many content lines detection looks at: a sample, so a long file is not scanned twice; a multiple of
every common order (4, 6, 8, 9, 12, 16, 25, 36) so a file of grids keeps its shape."""


# ---- detection -----------------------------------------------------------------------------


def detect_layout(content: list[str]) -> str | None:
    """`line`, `grid`, or None (no Sudoku): the Sudoku format of the stripped content lines of a text.

    None when no line is a row of cells (only words) or most lines hold characters no row has (`{`, `,`, `+`).
    `grid` for labels (`Grid 01`), bars or decoration lines, and for lines most of which cannot be a
    puzzle by themselves (`530070000` is no puzzle of order 3: 5 is above 3) or that come in square
    blocks; `line` for a single line, or lines most of which are each a whole puzzle.
    """
    if content and all(map(_is_long_line, content)):  # the common file, decided without a look at each cell
        return "line"
    rows = [ln for ln in content if not _is_label(ln) and not _is_decoration(ln)]
    if not rows:
        return "grid" if any(map(_is_decoration, content)) else None
    if 2 * sum(1 for ln in rows if _FOREIGN.search(ln.split(":")[0])) > len(rows):
        return None
    if len(rows) < len(content) or any(_BARS.search(ln) for ln in rows):
        return "grid"
    fits = [_is_puzzle_line(ln) for ln in rows]
    if len(rows) == 1 or all(fits):
        return "line"
    widths = {_width(ln) for ln in rows}
    if not any(fits) or (len(widths) == 1 and len(rows) % widths.pop() == 0):
        return "grid"
    return "line" if 2 * sum(fits) >= len(rows) else "grid"


def _is_long_line(line: str) -> bool:
    """Whether detect_layout takes a stripped line for a puzzle line at once, without a look at each cell.

    Before any colon, more one-character cells (letters, digits, `.` and `-`) than a row can hold, not all
    `-` (that is decoration); after it, no bar. Such a line is no label, decoration or row, and a puzzle line.
    """
    field, _, rest = line.partition(":")
    letters = field.replace(".", "").replace("-", "")
    return (
        len(field) > len(SYMBOLS)
        and (not letters or (letters.isascii() and letters.isalnum()))
        and bool(field.strip("-"))
        and ((rest.isascii() and "|" not in rest) or not _BARS.search(rest))
    )


def _is_label(line: str) -> bool:
    """Whether a line names the grid after it: it starts with a word (`Grid 01`, `Puzzle 3`, `GRID 7`)."""
    return _LABEL.match(line.strip()) is not None


def _is_decoration(line: str) -> bool:
    """Whether a line is only grid decoration (`------+------`, `|   |`), not a row of `-` empty cells."""
    text = line.strip()
    return bool(text) and _DECORATION_LINE.fullmatch(text) is not None and ("-" not in text or bool(_RULE.search(text)))


def _is_puzzle_line(line: str) -> bool:
    """Whether a stripped line can be a whole puzzle of order 4 or more by itself.

    A Gecode line, n*n integers or one-character cells none above n, or more cells than a row of
    one-character cells can hold.
    """
    if _GECODE.match(line):
        return True
    cells = line.split(":")[0].split()
    if not _is_integer_line(cells):
        if sum(map(len, cells)) > len(SYMBOLS):
            return True
        cells = list("".join(cells))
    m = isqrt(len(cells))
    return m >= 4 and m * m == len(cells) and all(_plain_value(cell) <= m for cell in cells)


def _is_integer_line(cells: list[str]) -> bool:
    """Whether the whitespace-separated cells of a line are integers: several, most of them integers (or empty)."""
    return len(cells) > 1 and 2 * sum(1 for c in cells if _INTEGER_CELL.fullmatch(c)) > len(cells)


def _plain_value(cell: str) -> int:
    """The value of a cell in the default symbols or as an integer; 0 for an empty or unknown cell."""
    if cell.isascii() and cell.isdigit():
        return int(cell) if len(cell) < 6 else 10**6
    return SYMBOLS.find(cell.upper()) + 1 if len(cell) == 1 and cell.isascii() else 0


def _width(line: str) -> int:
    """The cells of a line: its integers if it has several tokens, else its characters."""
    cells = line.split()
    return len(cells) if len(cells) > 1 else len(line)


# ---- reading -------------------------------------------------------------------------------


def read_text(
    text: str, path: str = "<input>", fmt: str = "auto", box: tuple[int, int] | None = None, symbols: str = ""
) -> list[Entry]:
    """Every puzzle in `text`, one Entry each, so one bad puzzle does not stop the rest (iter_text, as a list)."""
    return list(iter_text(text, path, fmt, box, symbols))


def iter_text(
    text: str, path: str = "<input>", fmt: str = "auto", box: tuple[int, int] | None = None, symbols: str = ""
) -> Iterator[Entry]:
    """Every puzzle in `text`, one Entry each, each parsed only when it is reached.

    `box` forces a box shape, `symbols` the one-character symbols (symbols[v - 1] for value v).
    """
    content = content_lines(text)
    if not content:
        yield from empty_input(path)
        return
    if fmt == "auto":
        fmt = detect_layout([ln.strip() for _, ln in content[:DETECT_LINES]]) or "grid"
    if fmt == "line":
        yield from (entry_from(k, path, partial(_parse_line, ln, k, path, box, symbols)) for k, ln in content)
    elif fmt == "grid":
        found = False
        for block in _blocks(text):
            found = True
            yield entry_from(block.start, path, partial(_parse_block, block, path, box, symbols))
        if not found:
            yield _no_rows(path, content[0][0])
    else:
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


def parse_symbols(text: str) -> str:
    """The symbols an option such as `0-9A-F`, `0-F`, `1-G` or `123456789ABCDEFG` names, symbols[v - 1] for value v.

    Single ASCII letters and digits, and ranges along 0-9 then A-Z (or a-z), each symbol once;
    CpModelsError saying why otherwise.
    """
    found: list[str] = []
    i = 0
    while i < len(text):
        step = 3 if text[i + 1 : i + 2] == "-" and i + 2 < len(text) else 1
        run = _symbol_range(text[i], text[i + step - 1])
        if not run:
            raise _symbols_error(text, f"{text[i : i + step]!r} is not an ASCII letter or digit, nor a range of them")
        found += run
        i += step
    repeated = next((ch for ch in found if found.count(ch) > 1), None)
    if not found or repeated:
        raise _symbols_error(text, f"{repeated!r} is named twice" if repeated else "no symbols")
    return "".join(found)


def _symbol_range(first: str, last: str) -> str:
    """The symbols from `first` to `last` along 0-9 then A-Z (or 0-9 then a-z); "" if that is no range."""
    for order in (HEX[:10] + SYMBOLS[9:], HEX[:10] + SYMBOLS[9:].lower()):
        if first in order and last in order and order.index(first) <= order.index(last):
            return order[order.index(first) : order.index(last) + 1]
    return ""


def _symbols_error(text: str, why: str) -> CpModelsError:
    """The error for an option value that names no symbols."""
    return CpModelsError(f"symbols {text!r}: {why}; write ranges (0-9A-F, 1-G) or each symbol (123456789ABCDEFG)")


def _alphabet(cells: str, n: int, symbols: str, where: Token) -> tuple[str, str | None]:
    """The symbols to read the one-character cells of an order-n grid in, and a warning if they read two ways."""
    if symbols:
        return symbols, None
    if n != 16 or "0" not in cells or "G" in cells or "g" in cells:
        return SYMBOLS, None
    if "." in cells or "-" in cells:
        return HEX, None
    warning = "a 16x16 grid with '0' and no 'G' could be written 0-F or 1-9A-G; read as 1-9A-G with '0' empty"
    return SYMBOLS, f"{where.path}:{where.line}: {warning} (read it with --symbols 0-F if it is written 0-F)"


def _symbol_value(ch: str, alphabet: str, n: int) -> int | None:
    """The value of a one-character cell in an order-n grid (0 for empty), or None if it is none."""
    v = alphabet.find(ch) + 1
    if not v and "a" <= ch <= "z":
        v = alphabet.find(ch.upper()) + 1
    if 1 <= v <= n:
        return v
    return 0 if ch in EMPTY or (ch == "0" and "0" not in alphabet) else None


@lru_cache(maxsize=64)
def _symbol_table(alphabet: str, n: int) -> dict[str, int]:
    """_symbol_value for every character that has one (0 for empty), as a dictionary."""
    chars = {*alphabet, *alphabet.lower(), *EMPTY, "0"}
    return {ch: v for ch in chars if (v := _symbol_value(ch, alphabet, n)) is not None}


def _cell_values(where: Token, alphabet: str, n: int) -> list[int]:
    """The values of a token of one-character cells; a ParseError at the first cell that is none."""
    table = _symbol_table(alphabet, n)
    values = list(map(table.get, where.text))
    if None in values:  # located, cell by cell
        return [_cell_value(where.part(j, j + 1), alphabet, n) for j in range(len(where.text))]
    return cast("list[int]", values)


def _cell_value(tok: Token, alphabet: str, n: int) -> int:
    """The value of a one-character cell token; a ParseError at the token if it is none."""
    v = _symbol_value(tok.text, alphabet, n)
    if v is None:
        empty = "'.', '-' or '0'" if "0" not in alphabet else "'.' or '-'"
        raise tok.error(
            f"{tok.text!r} is not a value of an order-{n} grid (use {_ranges(alphabet[:n])}, {empty} for empty)"
        )
    return v


def _ranges(symbols: str) -> str:
    """Symbols written short, runs of consecutive characters as ranges: `1-9A-G`."""
    out, i = [], 0
    while i < len(symbols):
        j = i
        while j + 1 < len(symbols) and ord(symbols[j + 1]) == ord(symbols[j]) + 1:
            j += 1
        out.append(symbols[i] if i == j else f"{symbols[i]}-{symbols[j]}")
        i = j + 1
    return "".join(out)


def _value_of(tok: Token, n: int) -> int:
    """The value of an integer token (`.` or `-` is 0) in an order-n grid; a ParseError at the token otherwise."""
    v = 0 if tok.text in EMPTY else integer_of(tok, top=n)
    if v is None:
        raise tok.error(f"{tok.text!r} is not a value of an order-{n} grid")
    return v


# ---- reading: lines ------------------------------------------------------------------------


def _parse_line(line: str, k: int, path: str, box: tuple[int, int] | None, symbols: str) -> Entry:
    """A puzzle from one line: one-character cells (then `:count:solution`), Gecode's `i:N:RxC:grid...`, or integers."""
    gecode = _GECODE.match(line)
    if gecode:
        where = Token(gecode[4], path, k, gecode.start(4) + 1, line)
        box = box or _gecode_box(gecode, path, k)
    else:
        field = line.split(":")[0]
        if _is_integer_line(field.split()):
            return _parse_integer_line(line, k, path, box, tokens(path, k, line, hi=len(field)))
        where = Token(field.strip(), path, k, len(field) - len(field.lstrip()) + 1, line)
        gap = re.search(r"\s", where.text)
        if gap:
            raise where.part(gap.start()).error(f"{gap[0]!r} inside the puzzle: write its n*n cells without spaces")
    alphabet, warning = _alphabet(where.text, isqrt(len(where.text)), symbols, where)
    n = _line_order(where, alphabet, symbols)
    if gecode:
        _check_gecode_order(Token(gecode[1], path, k, gecode.start(1) + 1, line), n, len(where.text))
    values = _cell_values(where, alphabet, n)
    puzzle = sudoku_puzzle(values, box, name=f"{path}:{k}")
    count, solution = _claims(line, k, path, where.column - 1 + len(where.text), n, alphabet)
    return Entry(
        k, puzzle, claimed_count=count, claimed_solution=solution, warning=warning, symbols=_given(alphabet), fmt="line"
    )


def _given(alphabet: str) -> str:
    """Entry.symbols for cells read in `alphabet`: "" for the default."""
    return "" if alphabet == SYMBOLS else alphabet


def _gecode_box(m: re.Match, path: str, k: int) -> tuple[int, int]:
    """The box shape of a Gecode line's `RxC` field."""
    rows, cols = (integer_of(Token(m[g], path, k, m.start(g) + 1, m.string)) or 0 for g in (2, 3))
    return rows, cols


def _check_gecode_order(order: Token, n: int, size: int) -> None:
    """Raise a ParseError at Gecode's order field N unless it is n, the order of the `size` cells that follow."""
    stated = integer_of(order)
    if stated != n:
        raise order.error(f"the order field says {stated}, but the grid has {size} cells, order {n}")


def _line_order(where: Token, alphabet: str, symbols: str) -> int:
    """The order of a line of one-character cells: its length must be n*n, n at most MAX_ORDER and the symbols'."""
    size = len(where.text)
    n = isqrt(size)
    if n * n != size or n == 0:
        message = f"{size} symbols do not make a square grid (need n*n, such as 81 for 9x9)"
        raise where.part(max(size - 1, 0)).error(message)
    error = order_error(where, n)
    if error:
        raise error
    if n > len(alphabet):
        why = f"{len(alphabet)} symbols are given" if symbols else "write rows of integers"
        raise ParseError(f"order {n} is too large for one-symbol cells; {why}", path=where.path, line=where.line)
    return n


def _parse_integer_line(line: str, k: int, path: str, box: tuple[int, int] | None, cells: list[Token]) -> Entry:
    """A puzzle from one line of n*n space-separated integers (`0`, `.` or `-` empty), then `:count:solution`."""
    n = isqrt(len(cells))
    if n * n != len(cells):
        last = cells[-1]
        raise last.part(len(last.text) - 1).error(f"{len(cells)} cells do not make a square grid")
    error = order_error(cells[0], n)
    if error:
        raise error
    puzzle = sudoku_puzzle([_value_of(tok, n) for tok in cells], box, name=f"{path}:{k}")
    count, solution = _claims(line, k, path, len(line.split(":")[0]), n, None)
    return Entry(k, puzzle, claimed_count=count, claimed_solution=solution)


def _claimed_cell(alphabet: str, n: int, tok: Token) -> int | None:
    """A cell of a recorded solution in the puzzle's symbols; None for an empty or unknown one."""
    return _symbol_value(tok.text, alphabet, n) or None


def _claims(
    line: str, k: int, path: str, start: int, n: int, alphabet: str | None
) -> tuple[int | None, tuple[int, ...] | None]:
    """The `:count:solution` fields after the puzzle (from line[start:]): the count, the solution as values 1..n.

    `alphabet`: the symbols of a solution of one-character cells; None for integers.
    """
    found = fields(path, k, line, start)[1:]
    count = integer_of(found[0]) if found and found[0].text else None
    if found and found[0].text and count is None:
        raise found[0].error(f"expected a solution count, found {found[0].text!r}")
    if len(found) < 2 or not found[1].text:
        return count, None
    if alphabet is not None and len(found[1].text) == n * n:  # a plain line of symbols, each a value
        table = _symbol_table(alphabet, n)
        values = tuple(map(table.get, found[1].text))
        if None not in values and 0 not in values:
            return count, cast("tuple[int, ...]", values)
    symbol = partial(_claimed_cell, alphabet, n) if alphabet is not None else None
    return count, solution_values(found[1], n, symbol, what="symbols")


# ---- reading: grids ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Block:
    """The numbered rows of one grid and its label line (number, text), if one came before it."""

    rows: list[tuple[int, str]]
    label: tuple[int, str] | None

    @property
    def start(self) -> int:
        """The line the puzzle starts on: its label's, else its first row's."""
        return self.label[0] if self.label else self.rows[0][0]


def _blocks(text: str) -> list[_Block]:
    """The grids of a text: runs of rows ended by a blank or label line; comments and decoration skipped."""
    blocks: list[_Block] = []
    rows: list[tuple[int, str]] = []
    label = None
    for k, line in enumerate([*split_lines(text), ""], start=1):
        stripped = line.strip()
        if stripped.startswith("#") or _is_decoration(line):
            continue
        if stripped and not _is_label(stripped):
            rows.append((k, line))
            continue
        if rows:
            blocks.append(_Block(rows, label))
            rows, label = [], None
        label = (k, stripped) if stripped else label
    return blocks


def _no_rows(path: str, line: int) -> Entry:
    """The Entry of a text with no row of cells: only decoration or label lines."""
    message = "no puzzle found: no row of cells, only grid decoration or labels"
    return Entry(line, error=ParseError(message, path=path, line=line))


def _parse_block(block: _Block, path: str, box: tuple[int, int] | None, symbols: str) -> Entry:
    """A puzzle from a block of n rows, named by its label if it has one."""
    n, first = len(block.rows), tokens(path, *block.rows[0])[0]
    error = order_error(first, n)
    if error:
        raise error
    rows = [_row_cells(k, line, path, n) for k, line in block.rows]
    alphabet, warning = _alphabet("".join(t.text for row, one in rows if one for t in row), n, symbols, first)
    values = [_cell_value(t, alphabet, n) if one else _value_of(t, n) for row, one in rows for t in row]
    name = f"{path}:{block.start}" + (f" {block.label[1]}" if block.label else "")
    return Entry(block.start, sudoku_puzzle(values, box, name=name), warning=warning, symbols=_given(alphabet))


def _row_cells(k: int, line: str, path: str, n: int) -> tuple[list[Token], bool]:
    """The n cells of a grid row, and whether they are one-character cells (else integers)."""
    found = tokens(path, k, line, _ROW_TOKEN)
    chars = sum(len(tok.text) for tok in found)
    if chars == n:
        return [tok.part(j, j + 1) for tok in found for j in range(len(tok.text))], True
    if len(found) == n:
        return found, False
    count = chars if n <= 9 or len(found) == 1 or chars == len(found) else len(found)
    end = Token("", path, k, len(line.rstrip()), line)
    raise end.error(f"row has {count} cells, but the grid has {n} rows")


# ---- reading: JSON grids -------------------------------------------------------------------


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
    error = order_error(where, n)
    if error:
        raise error
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


def format_line(grid: Sequence[int], symbols: str = "") -> str:
    """A row-major grid as one line: one-character cells in `symbols` (default 1-9A-Z), '.' for empty.

    Space-separated integers when the symbols are fewer than the order.
    """
    n, alphabet = isqrt(len(grid)), symbols or SYMBOLS
    if n <= len(alphabet):
        return "".join(alphabet[v - 1] if v else "." for v in grid)
    return " ".join(str(v) for v in grid)


def format_grid(grid: Sequence[int], box: tuple[int, int] | None = None, symbols: str = "") -> str:
    """A row-major grid as rows with `|` and `-` between boxes ('.' for empty), cells as format_line writes them."""
    n, alphabet = isqrt(len(grid)), symbols or SYMBOLS
    br, bc = box or (n, n)
    width = 1 if n <= len(alphabet) else len(str(n))
    cell = (lambda v: alphabet[v - 1] if v else ".") if width == 1 else (lambda v: str(v or ".").rjust(width))
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


def write_line(puzzle: GridPuzzle, symbols: str = "") -> str:
    """A plain Sudoku's givens as one line; CpModelsError for any other puzzle (the line would lose it)."""
    _check_sudoku(puzzle, "line")
    return format_line(puzzle.givens, symbols)


def write_grid(puzzle: GridPuzzle, symbols: str = "") -> str:
    """A plain Sudoku's givens as rows with box borders; CpModelsError for any other puzzle."""
    _check_sudoku(puzzle, "grid")
    return format_grid(puzzle.givens, box_of(puzzle), symbols)


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
