"""Knuth's exact-cover exports of a Sudoku, byte for byte: SUDOKU-DLX (for DLX1) and SUDOKU (2005, for DANCE).

Both are written from a GridPuzzle that is a plain Sudoku (the registry's `sudoku-dlx` and `dance`
writers), or from his programs' own input, nine lines of nine characters (`sudoku_dlx_from_text`,
`dance_from_text`), with his programs' input errors as located ParseErrors.

SUDOKU-DLX (sudoku-dlx.w), for a 9x9 grid:

    |sudoku!..3.2.6..!9..3.5..1!...           the comment line: the puzzle's rows, `.` for an open cell
    p00 p01 ... r01 ... c01 ... b01 ...       the items, each followed by a blank: pRC for each open cell
                                              (row-major), then rRD, cCD, bBD for each row, column, box and
                                              digit the givens leave open (rows, columns, boxes 0-based,
                                              digits 1-based), all rows first, then columns, then boxes
    p00 r04 c04 b04                           one option per candidate placement: cells row by row,
                                              digits upward

SUDOKU for DANCE (sudoku.w, 2005), for a 9x9 grid:

     p00 p01 ... r01 c01 b01 r02 ...          the items, each preceded by a blank: pRC for each open cell
                                              (row-major), then for k = 0..8 and d = 1..9 the open ones of
                                              rKD, cKD, bKD, in that order (row k, column k, box k)
    p00 r04 c04 b04                           one option per candidate placement: cells column by column,
                                              digits upward

(The issue that asked for this export spells the row items `x<k><d>`; Knuth's sudoku.w writes `r<k><d>`,
which is what is written here.)

Other orders, any box shape r x c: the same items and options, every number of a name in base 36 (0-9 then
a-z) and all numbers of a name written with the same number of digits, w = the digits of the order n in
base 36 (w = 1 up to order 35: p0a is row 0, column 10; w = 2 from order 36), so that names stay within
Knuth's 8 characters (p + 2w); boxes are numbered row-major, box (R // r) * (n // c) + C // c. SUDOKU-DLX's
comment line shows a given as its value in base 36 (w digits) and an open cell as w dots. For order 9 this
is exactly Knuth's output.

Input (Knuth's programs as functions, 9x9 only):

- SUDOKU-DLX: the first nine lines; a character 1-9 among a line's first nine is a given, anything else an
  open cell. Errors: "There are fewer than nine lines of input!"; "digit D appears in columns A and B of
  row R!", "... in rows A and B of column C!", "... in rows A and B of box X!" (his 0-based numbers),
  located at the second place. (His program reads at most 15 characters a line and keeps stale characters
  past the end of a short line; here a short line's missing cells are open.)
- SUDOKU (for DANCE): nine lines of exactly nine characters, `.` or 1-9. Errors: "Input line should have 9
  characters exactly!", "Illegal character in input!", "Two identical digits in a row!" (a column!, a
  box!), located, the other place named. (A missing line is the first error here; his program, reading
  the previous line again, would report two identical digits instead.)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import CpModelsError, ParseError
from ..grid import GridPuzzle, cell_name
from ..sudoku import box_of, is_sudoku
from .text import split_lines

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
"""Base 36, the digits of every number in an item name."""


class _Grid:
    """A Sudoku's givens and what they leave open: filled[unit kind][index][digit] (rows, columns, boxes)."""

    def __init__(self, n: int, box: tuple[int, int], givens: Sequence[int]) -> None:
        self.n, self.box, self.givens = n, box, list(givens)
        self.width = len(_base36(n, 1))
        self.used = [[[False] * (n + 1) for _ in range(n)] for _ in range(3)]
        for cell, v in enumerate(self.givens):
            if v:
                r, c = divmod(cell, n)
                for kind, k in enumerate((r, c, self.box_index(r, c))):
                    self.used[kind][k][v] = True

    def box_index(self, r: int, c: int) -> int:
        """The box of cell (r, c), boxes numbered row-major."""
        br, bc = self.box
        return (r // br) * (self.n // bc) + c // bc

    def name(self, prefix: str, a: int, b: int) -> str:
        """An item name: the prefix, then a and b in base 36, each `width` digits."""
        return prefix + _base36(a, self.width) + _base36(b, self.width)

    def allowed(self, r: int, c: int, d: int) -> bool:
        """Whether digit d may go into open cell (r, c): no given d in its row, column or box."""
        return not (self.used[0][r][d] or self.used[1][c][d] or self.used[2][self.box_index(r, c)][d])

    def option(self, r: int, c: int, d: int) -> str:
        """The option placing d at (r, c): `pRC rRD cCD bBD`."""
        x = self.box_index(r, c)
        return f"{self.name('p', r, c)} {self.name('r', r, d)} {self.name('c', c, d)} {self.name('b', x, d)}\n"

    def open_cells(self) -> list[tuple[int, int]]:
        """The open cells, row-major."""
        return [divmod(cell, self.n) for cell, v in enumerate(self.givens) if not v]


def _base36(x: int, width: int) -> str:
    """The number x in base 36, at least `width` digits."""
    digits = ""
    while True:
        x, d = divmod(x, 36)
        digits = DIGITS[d] + digits
        if not x:
            return digits.rjust(width, "0")


def sudoku_dlx(grid: _Grid) -> str:
    """What SUDOKU-DLX writes for the grid: the comment line, the item line, the options."""
    n, w = grid.n, grid.width
    rows = ["".join(_base36(v, w) if v else "." * w for v in grid.givens[r * n : (r + 1) * n]) for r in range(n)]
    out = ["|sudoku" + "".join("!" + row for row in rows) + "\n"]
    items = [grid.name("p", r, c) for r, c in grid.open_cells()]
    for kind, prefix in enumerate("rcb"):
        items += [grid.name(prefix, k, d) for k in range(n) for d in range(1, n + 1) if not grid.used[kind][k][d]]
    out.append("".join(name + " " for name in items) + "\n")
    out += [grid.option(r, c, d) for r, c in grid.open_cells() for d in range(1, n + 1) if grid.allowed(r, c, d)]
    return "".join(out)


def dance(grid: _Grid) -> str:
    """What Knuth's SUDOKU (2005) writes for DANCE: the item line, then the options, cells column by column."""
    n = grid.n
    items = [grid.name("p", r, c) for r, c in grid.open_cells()]
    for k in range(n):
        for d in range(1, n + 1):
            items += [grid.name(prefix, k, d) for kind, prefix in enumerate("rcb") if not grid.used[kind][k][d]]
    out = ["".join(" " + name for name in items) + "\n"]
    for c in range(n):
        for r in range(n):
            if not grid.givens[r * n + c]:
                out += [grid.option(r, c, d) for d in range(1, n + 1) if grid.allowed(r, c, d)]
    return "".join(out)


def _grid_of(puzzle: GridPuzzle, fmt: str) -> _Grid:
    """The _Grid of a plain Sudoku; CpModelsError naming the format for anything else."""
    box = box_of(puzzle)
    if not is_sudoku(puzzle) or box is None:
        kind = "cages" if puzzle.cages else "other units than rows, columns and boxes"
        raise CpModelsError(f"the {fmt} format holds a plain Sudoku (rows, columns, boxes); this puzzle has {kind}")
    return _Grid(puzzle.n, box, puzzle.givens)


def write_sudoku_dlx(puzzle: GridPuzzle) -> str:
    """The SUDOKU-DLX text of a plain Sudoku (module docstring), Knuth's bytes for a 9x9."""
    return sudoku_dlx(_grid_of(puzzle, "sudoku-dlx"))


def write_dance(puzzle: GridPuzzle) -> str:
    """The text Knuth's SUDOKU writes for DANCE, of a plain Sudoku (module docstring), his bytes for a 9x9."""
    return dance(_grid_of(puzzle, "dance"))


# ---- his programs' own input ---------------------------------------------------------------------


def sudoku_dlx_from_text(text: str, path: str = "<input>") -> str:
    """What SUDOKU-DLX writes for its input `text` (nine lines), or its input error as a located ParseError."""
    lines = split_lines(text)
    if len(lines) < 9:
        raise ParseError("There are fewer than nine lines of input!", path=path, line=max(1, len(lines)))
    seen: dict[tuple[int, int, int], int] = {}
    givens = [0] * 81
    for j in range(9):
        for k, ch in enumerate(lines[j][:9]):
            if "1" <= ch <= "9":
                givens[j * 9 + k] = _sudoku_dlx_digit(int(ch), j, k, seen, ParseError("", path=path, text=lines[j]))
    return sudoku_dlx(_Grid(9, (3, 3), givens))


def _sudoku_dlx_digit(d: int, j: int, k: int, seen: dict[tuple[int, int, int], int], where: ParseError) -> int:
    """Digit d at row j, column k, checked as SUDOKU-DLX checks it (row, column, box), with its messages."""
    x = (j // 3) * 3 + k // 3
    for key, at, message in (
        ((0, j, d), k, "digit {d} appears in columns {a} and {b} of row {u}!"),
        ((1, k, d), j, "digit {d} appears in rows {a} and {b} of column {u}!"),
        ((2, x, d), j, "digit {d} appears in rows {a} and {b} of box {u}!"),
    ):
        if key in seen:
            text = message.format(d=d, a=seen[key], b=at, u=key[1])
            raise ParseError(text, path=where.path, line=j + 1, column=k + 1, text=where.text)
        seen[key] = at
    return d


def dance_from_text(text: str, path: str = "<input>") -> str:
    """What Knuth's SUDOKU (2005) writes for DANCE for its input `text`, or its input error as a ParseError."""
    lines = split_lines(text)
    givens = [0] * 81
    seen: dict[tuple[int, int, int], int] = {}
    for k in range(9):
        if k >= len(lines) or len(lines[k]) != 9:
            raise _dance_line_error(lines, k, path)
        for j, ch in enumerate(lines[k]):
            if ch != ".":
                givens[k * 9 + j] = _dance_digit(ch, k, j, seen, ParseError("", path=path, text=lines[k]))
    return dance(_Grid(9, (3, 3), givens))


def _dance_line_error(lines: list[str], k: int, path: str) -> ParseError:
    """SUDOKU's error for line k (0-based), missing or not 9 characters long."""
    message = "Input line should have 9 characters exactly!"
    if k >= len(lines):
        return ParseError(f"{message} (line {k + 1} is missing)", path=path, line=max(1, len(lines)))
    line = lines[k]
    return ParseError(message, path=path, line=k + 1, column=min(len(line), 9) + 1, text=line)


def _dance_digit(ch: str, k: int, j: int, seen: dict[tuple[int, int, int], int], where: ParseError) -> int:
    """The digit `ch` at row k, column j, checked as SUDOKU checks it: a character 1-9, new in its row, column, box."""
    if not "1" <= ch <= "9":
        raise ParseError("Illegal character in input!", path=where.path, line=k + 1, column=j + 1, text=where.text)
    d = int(ch)
    for unit, key in (("row", (0, k, d)), ("column", (1, j, d)), ("box", (2, (k // 3) * 3 + j // 3, d))):
        if key in seen:
            other = cell_name(*divmod(seen[key], 9))
            message = f"Two identical digits in a {unit}! (also at {other})"
            raise ParseError(message, path=where.path, line=k + 1, column=j + 1, text=where.text)
        seen[key] = k * 9 + j
    return d
