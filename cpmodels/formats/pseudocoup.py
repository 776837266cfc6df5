"""pseudocoup's input language (Glenn Fowler, AT&T Research): Sudoku and Latin squares (QWH) of orders 4 to 64.

The language, as the program's manual (INPUT FORMAT) gives it: cells fill the grid left to right, top to
bottom, in a stream that may break lines anywhere; `#...` and `//...` to the end of the line, `"..."`,
`[...]` and `<...>` (which may span lines) are comments; a cell is a single symbol (`1-9`, then `A-Z`,
`a-z`, `_ @ $` for values 10 to 64: Fowler's symbols), a space-separated number (above order 9), or a
candidate hint, `{...}` or a digit string between spaces, that restricts the cell to those values; any
other character that is not white space or one of `| * + -` is an empty cell (`.`, `0`, a letter above
the order). After each puzzle come zero or more edits, `[R,C]=V` (the cell at row R, column C, 1-based,
holds V) and `[R,C]={ABC}` (its candidates are cut to A, B, C).

Fowler compiles each program for one order and family. Here they come, for the puzzles that follow,
from a comment `[cpmodels: order 9, sudoku 3x3]` or `[cpmodels: order 9, qwh]` (what the writer puts
before each puzzle; a bracketed comment to Fowler's program), else from `--box RxC` (read option `box`),
else from the first line of cells: their count is one row (the order), or a whole puzzle (its square)
when the count is above 64, or a square whose root no clue of the line exceeds. A square order is a
Sudoku with square boxes (as pseudocoup), any other a Latin square (QWH).

Where this reader differs from Fowler's source (the sudocoup/pseudocoup programs of 2007-2011):
  - hints are constraints (GridPuzzle.domains), kept by every backend; sudocoup skips a hint's
    candidates and reads it as an empty cell;
  - a line's words are its cells one word each when they number a multiple of the order (`5 3 12 . 7`,
    a digit string of distinct digits 1..n a hint up to order 9, a number a clue above it), else one
    character each when the characters do (`530070000`, `53. .7. ...`); sudocoup decides from the
    first word of several characters it meets;
  - a digit above the order is an error, not an empty cell (pseudocoup) or `invalid cell` (sudocoup);
  - `{...}` closes on its own line, and its values may be separated by spaces or commas (`{10 12}`);
  - an edit's value is one symbol or a number; an edit before its puzzle's last cell is an error
    (Fowler reads `[R,C]` there as a comment), and so is one that contradicts a clue, a hint or itself;
  - a bad puzzle is one located ParseError entry (puzzle, line and column) and the next puzzles are read;
    Fowler prints `puzzle:line invalid cell [r,c]=v` and goes on too. An unbalanced bracket (a comment
    that never closes, named where it opened) ends the reading there: the puzzles before it are read, and
    the one it falls in carries the error; a hint `{` not closed on its line is a failed cell up to the next
    space, so only its puzzle fails and reading goes on (Fowler reads an open `{` or `<` to the end of its line, an open
    `"` or `[` to the end of the input).

Written (`write`): the shape comment, then a row a line, cells separated by spaces (`.` empty, a hint
in braces), which Fowler's program reads as well. `format_solution` writes a solution as Fowler's
program prints one: values (two digits above order 9) separated by spaces, boxes apart by a space
and bands by a blank line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from math import isqrt

from ..errors import CpModelsError, ParseError, PuzzleError
from ..grid import GridPuzzle, latin_units
from ..latin import is_latin_completion
from ..sudoku import box_of, is_sudoku, sudoku_units
from .text import Entry, Locator, Token, content_lines, empty_input

ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_@$"
"""Fowler's one-character symbols: value v is ALPHABET[v - 1], for orders up to 64."""
MIN_ORDER, MAX_ORDER = 4, 64
_SCAN = re.compile(
    r"""(?P<space>(?:[|*+-]|[^\S\r\n])+)
    |(?P<newline>\r\n|\r|\n)
    |(?P<comment>\#[^\r\n]*|//[^\r\n]*)
    |(?P<shape>\[\s*cpmodels:[^\]]*\])
    |(?P<edit>\[\s*[0-9]+\s*,\s*[0-9]+\s*\]\s*=)
    |(?P<open>["\[<{])
    |(?P<word>(?:[^\s|*+\-"\[<{\#/]|/(?!/))+)
    |(?P<slash>/)""",
    re.VERBOSE,
)
_CLOSER = {'"': '"', "[": "]", "<": ">", "{": "}"}
_SHAPE = re.compile(r"\[\s*cpmodels:\s*order\s+([0-9]{1,3})\s*,\s*(?:(qwh)|sudoku\s+([0-9]{1,2})x([0-9]{1,2}))\s*\]")
_EDIT = re.compile(r"\[\s*([0-9]{1,9})\s*,\s*([0-9]{1,9})\s*\]\s*=")
_VALUE = re.compile(r"[ \t]*(\{[^{}\r\n]*\}|[0-9]+|[^\s{}\[\]<>\"#])")
_SNIFF = re.compile(r"""\[\s*cpmodels:|^\[\s*[0-9]+\s*,\s*[0-9]+\s*\]\s*=|\{[0-9A-Za-z_@$]*\}|\{[0-9, ]+\}|^//|^["<]""")


def sniff(lines: list[str]) -> bool:
    """Whether the first two stripped content lines use what only pseudocoup has.

    A shape comment, an edit, a hint `{...}`, or a line that starts a comment `//`, `"..."` or `<...>`.
    """
    return any(_SNIFF.search(lines[k]) for k in range(min(2, len(lines))))


@dataclass
class _Item:
    """A piece of the text: a word of cells, a hint in braces, an edit, or a shape comment, and where it is."""

    kind: str
    token: Token
    value: Token | None = None


@dataclass
class _Puzzle:
    """A puzzle being read: its cells' values (0 empty), hints as masks, where it starts, and its first error."""

    n: int
    box: tuple[int, int] | None
    start: Token
    ordinal: int
    values: list[int] = field(default_factory=list)
    hints: dict[int, int] = field(default_factory=dict)
    error: ParseError | None = None

    def fail(self, error: ParseError) -> None:
        """Keep the first error met."""
        self.error = self.error or error

    @property
    def full(self) -> bool:
        """Whether all n*n cells are read."""
        return len(self.values) >= self.n * self.n


def read(
    text: str, path: str = "<input>", box: tuple[int, int] | None = None, symbols: str = "", **_: object
) -> Iterator[Entry]:
    """Every puzzle of a pseudocoup text, one Entry each (a located error for a bad one), in order."""
    if not content_lines(text):
        yield from empty_input(path)
        return
    reader = _Reader(path, box)
    found = False
    for item in _items(text, path, reader):
        for entry in reader.take(item):
            found = True
            yield entry
    for entry in reader.finish():
        found = True
        yield entry
    if not found:  # comments and decoration only
        yield from empty_input(path)


def _items(text: str, path: str, reader: _Reader) -> Iterator[_Item]:
    """The words, hints, edits and shape comments of `text`; an unbalanced bracket stops it, told to `reader`."""
    where = Locator(text, path)
    pos = 0
    while pos < len(text):
        m = _SCAN.match(text, pos)
        assert m is not None  # the alternatives cover every character
        kind, pos = m.lastgroup or "", m.end()
        token = where.token(m.start()).with_text(m[0])
        if kind in ("word", "slash"):
            yield _Item("word", token)
        elif kind == "shape":
            yield _Item("shape", token)
        elif kind == "edit":
            value = _VALUE.match(text, pos)
            if value is None:
                reader.fatal(token.end().error(f"the edit {token.text.strip()} has no value after '='"))
                return
            pos = value.end()
            yield _Item("edit", token, where.token(value.start(1)).with_text(value[1]))
        elif kind == "open":
            end = _closing(text, m.start(), m[0])
            if end < 0 and m[0] == "{":  # a hint closes on its line: this one is a failed cell to the next space
                yield _Item("open-hint", token)
                pos = re.compile(r"\S*").match(text, pos).end()  # type: ignore[union-attr]
                continue
            if end < 0:
                reader.fatal(token.error(f"unbalanced {m[0]!r}: opened here and never closed"))
                return
            if m[0] == "{":
                yield _Item("hint", token.with_text(text[m.start() : end + 1]))
            pos = end + 1


def _closing(text: str, start: int, opener: str) -> int:
    """The offset of the bracket closing the one at `start` (`{` on its own line), or -1."""
    end = text.find(_CLOSER[opener], start + 1)
    if opener == "{":
        return end if 0 <= end < _line_end(text, start) else -1
    return end


def _line_end(text: str, start: int) -> int:
    """The offset of the end of the line holding offset `start` (its newline, or the end of the text)."""
    return min((k for k in (text.find("\n", start), text.find("\r", start)) if k >= 0), default=len(text))


class _Reader:
    """Puzzles from the items of a text: the shape in force, the puzzle being read and the one taking edits."""

    def __init__(self, path: str, box: tuple[int, int] | None) -> None:
        self.path, self.box = path, box
        self.shape: tuple[int, tuple[int, int] | None] | None = None
        self.current: _Puzzle | None = None
        self.done: _Puzzle | None = None  # complete, taking edits until the next cell
        self.ordinal = 0
        self.line: list[_Item] = []
        self.stopped: ParseError | None = None

    def take(self, item: _Item) -> Iterator[Entry]:
        """Read one item; yields the puzzles it completes (a line of cells is read when the next line starts)."""
        if self.line and (item.kind not in ("word", "hint", "open-hint") or item.token.line != self.line[0].token.line):
            yield from self._cells(self.line)
            self.line = []
        if item.kind in ("word", "hint", "open-hint"):
            self.line.append(item)
            return
        try:
            if item.kind == "edit":
                self._edit(item)
            else:
                self._shape(item.token)
        except ParseError as e:  # an edit or shape comment outside any puzzle
            yield Entry(item.token.line, error=e, fmt="pseudocoup")

    def fatal(self, error: ParseError) -> None:
        """An error that ends the text (an unbalanced bracket): the puzzle being read, or the next, carries it."""
        self.stopped = error

    def finish(self) -> Iterator[Entry]:
        """The puzzles left at the end of the text: the last complete one, and an unfinished one as an error."""
        if self.line:
            yield from self._cells(self.line)
        if self.done is not None:
            yield self._entry(self.done)
        puzzle = self.current
        if self.stopped is not None:
            stopped = self.stopped
            if puzzle is None:
                self.ordinal += 1
                puzzle = _Puzzle(0, None, Token("", self.path, stopped.line or 1, 1, ""), self.ordinal)
            puzzle.fail(stopped)
            yield self._entry(puzzle)
        elif puzzle is not None and puzzle.values:
            cells = puzzle.n * puzzle.n
            puzzle.fail(puzzle.start.error(f"the puzzle ends after {len(puzzle.values)} of its {cells} cells"))
            yield self._entry(puzzle)

    def _shape(self, token: Token) -> None:
        """A `[cpmodels: order N, ...]` comment: the shape of the puzzles after it."""
        m = _SHAPE.fullmatch(token.text)
        if m is None:
            raise token.error("a shape comment is `[cpmodels: order N, sudoku RxC]` or `[cpmodels: order N, qwh]`")
        n = int(m[1])
        box = None if m[2] else (int(m[3]), int(m[4]))
        problem = _order_problem(n) or (box and box[0] * box[1] != n and f"a {box[0]}x{box[1]} box is not order {n}")
        if problem:
            raise token.error(problem)
        if self.current is not None and self.current.values:
            self.current.fail(token.error("a shape comment inside a puzzle: put it before the puzzle's first cell"))
        self.shape = (n, box)

    def _edit(self, item: _Item) -> None:
        """Apply an edit to the complete puzzle before it; an error when there is none or it cannot hold."""
        puzzle, token = self.done, item.token
        if self.current is not None and self.current.values:
            have, cells = len(self.current.values), self.current.n * self.current.n
            self.current.fail(
                token.error(f"an edit inside a puzzle (after {have} of its {cells} cells): edits follow it")
            )
            return
        if puzzle is None:
            raise token.error("an edit before any puzzle: edits follow the puzzle they change")
        assert item.value is not None
        try:
            _apply(puzzle, token, item.value)
        except ParseError as e:
            puzzle.fail(e)

    def _cells(self, line: list[_Item]) -> Iterator[Entry]:
        """Read one line's words and hints as cells, completing puzzles (yielded once their edits are over)."""
        if self.done is not None:
            yield self._entry(self.done)
            self.done = None
        if self.shape is None and self.box is None:
            try:
                self.shape = _infer_shape(line)
            except ParseError as e:
                self.ordinal += 1
                yield Entry(line[0].token.line, error=e)
                return
        n = self.box[0] * self.box[1] if self.box else self.shape[0]  # type: ignore[index]
        for value, token, hint in _line_cells(line, n):
            puzzle = self.current
            if puzzle is None:
                self.ordinal += 1
                shape_box = self.box or (self.shape[1] if self.shape else None)
                puzzle = self.current = _Puzzle(n, shape_box, token, self.ordinal)
            if isinstance(value, ParseError):
                puzzle.fail(value)
                value = 0
            if hint:
                puzzle.hints[len(puzzle.values)] = hint
            puzzle.values.append(value)
            if puzzle.full:
                if self.done is not None:
                    yield self._entry(self.done)
                self.done, self.current = puzzle, None

    def _entry(self, puzzle: _Puzzle) -> Entry:
        """The Entry of a puzzle read: its GridPuzzle, or its first error naming the puzzle by its ordinal."""
        error = puzzle.error
        if error is None and puzzle.n:
            try:
                built = _build(puzzle, f"{self.path}:{puzzle.start.line}")
                return Entry(puzzle.start.line, built, fmt="pseudocoup", ordinal=puzzle.ordinal)
            except PuzzleError as e:
                error = ParseError(str(e), path=self.path, line=puzzle.start.line)
        assert error is not None
        named = ParseError(
            f"puzzle {puzzle.ordinal}: {error.message}", path=error.path, line=error.line, column=error.column,
            text=error.text,
        )  # fmt: skip
        return Entry(puzzle.start.line, error=named, fmt="pseudocoup", ordinal=puzzle.ordinal)


def _order_problem(n: int) -> str | None:
    """Why pseudocoup cannot hold order n, or None."""
    if MIN_ORDER <= n <= MAX_ORDER:
        return None
    return f"order {n} is outside pseudocoup's orders {MIN_ORDER} to {MAX_ORDER}"


def _infer_shape(line: list[_Item]) -> tuple[int, tuple[int, int] | None]:
    """The order and box (None: a Latin square) told by the first line of cells (module docstring)."""
    words = [item.token.text for item in line]
    runs = [w for w in words if not w.startswith("{")]
    spaced, packed = len(words), sum(map(len, runs)) + len(words) - len(runs)
    count = spaced if _plausible(spaced) else packed  # a word a cell, else a character a cell
    root = isqrt(count)
    clues = [_raw_value(w) for w in (runs if count == spaced else "".join(runs))]
    whole = root * root == count and root >= MIN_ORDER and (count > MAX_ORDER or max(clues, default=0) <= root)
    n = root if whole else count
    if _order_problem(n):
        raise line[0].token.error(
            f"the first line's {count} cells are neither a row nor a whole puzzle of order {MIN_ORDER} to "
            f"{MAX_ORDER}: give the shape with --box RxC or a `[cpmodels: order N, sudoku RxC]` or "
            "`[cpmodels: order N, qwh]` comment"
        )
    side = isqrt(n)
    return n, (side, side) if side * side == n else None


def _is_number(text: str) -> bool:
    """Whether `text` is ASCII digits only (str.isdigit takes other scripts' digits too)."""
    return text.isascii() and text.isdigit()


def _plausible(count: int) -> bool:
    """Whether a line of `count` cells can be a row or a whole puzzle of an order pseudocoup holds."""
    root = isqrt(count)
    return MIN_ORDER <= count <= MAX_ORDER or (root * root == count and MIN_ORDER <= root <= MAX_ORDER)


def _raw_value(word: str) -> int:
    """The value a word or character names whatever the order: a number, a symbol's, or 0."""
    if _is_number(word):
        return int(word[:3])
    return ALPHABET.find(word) + 1 if len(word) == 1 else 0


def _line_cells(line: list[_Item], n: int) -> Iterator[tuple[int | ParseError, Token, int]]:
    """The cells of one line in order: (value or the error at it, its token, its hint mask or 0)."""
    runs = [item.token.text for item in line if item.kind == "word"]
    words, chars = len(line), sum(map(len, runs)) + len(line) - len(runs)
    each_word = all(len(w) == 1 for w in runs) or words % n == 0 or chars % n != 0
    for item in line:
        token = item.token
        if item.kind == "hint":
            yield _braced(token, n)
        elif item.kind == "open-hint":
            yield token.error("unbalanced '{': opened here and never closed on its line"), token, 0
        elif each_word and _is_number(token.text) and len(token.text) > 1 and (n > 9 or _is_hint(token.text, n)):
            yield _number(token, n) if n > 9 else _digit_string(token, n)
        else:
            for k in range(len(token.text)):
                yield _symbol(token.part(k, k + 1), n), token.part(k, k + 1), 0


def _is_hint(digits: str, n: int) -> bool:
    """Whether a digit string between spaces is a hint: at most n distinct digits, none 0 (others are cells)."""
    return len(set(digits)) == len(digits) <= n and "0" not in digits


def _symbol(token: Token, n: int) -> int | ParseError:
    """The value of a one-character cell: a symbol's value, 0 for any other character; a digit above n is an error."""
    v = ALPHABET.find(token.text) + 1
    if v > n and _is_number(token.text):
        return token.error(f"clue {token.text} is outside 1..{n}")
    return v if v <= n else 0


def _number(token: Token, n: int) -> tuple[int | ParseError, Token, int]:
    """A space-separated number above order 9: a clue (0 empty)."""
    v = int(token.text) if len(token.text) <= 6 else n + 1
    return (v if v <= n else token.error(f"clue {token.text} is outside 1..{n}")), token, 0


def _digit_string(token: Token, n: int) -> tuple[int | ParseError, Token, int]:
    """A digit string between spaces, up to order 9: a hint of distinct digits 1..n, else its characters' error."""
    mask = 0
    for k, ch in enumerate(token.text):
        v = int(ch)
        if not 1 <= v <= n:
            return token.part(k, k + 1).error(f"hint value {v} is outside 1..{n}"), token, 0
        mask |= 1 << (v - 1)
    return 0, token, mask


def _braced(token: Token, n: int) -> tuple[int | ParseError, Token, int]:
    """A hint `{...}`: its values (symbols, or numbers separated by spaces or commas) as a mask."""
    try:
        return 0, token, _mask(token.part(1, len(token.text) - 1), n, token)
    except ParseError as e:
        return e, token, 0


def _mask(inner: Token, n: int, whole: Token) -> int:
    """The candidate mask written by the inside of braces; a located ParseError for a bad or empty one."""
    separated = re.search(r"[\s,]", inner.text) is not None
    parts = [m for m in re.finditer(r"[^\s,]+" if separated else r"\S", inner.text)]
    if not parts:
        raise whole.error(f"an empty hint {whole.text}: a cell needs at least one candidate")
    mask = 0
    for m in parts:
        at = inner.part(m.start(), m.end())
        v = int(m[0]) if _is_number(m[0]) and len(m[0]) <= 6 else (ALPHABET.find(m[0]) + 1 if len(m[0]) == 1 else -1)
        if not 1 <= v <= n:
            raise at.error(f"hint value {m[0]!r} is outside 1..{n}")
        mask |= 1 << (v - 1)
    return mask


def _apply(puzzle: _Puzzle, token: Token, value: Token) -> None:
    """Apply the edit at `token` (its value at `value`) to a complete puzzle; a located ParseError if it cannot hold."""
    m = _EDIT.match(token.text)
    assert m is not None
    r, c, n = int(m[1]), int(m[2]), puzzle.n
    edit = f"the edit [{m[1]},{m[2]}]={value.text}"
    for what, k in (("row", r), ("column", c)):
        if not 1 <= k <= n:
            raise token.error(f"{edit}: {what} {k} is outside the {n}x{n} grid")
    i = (r - 1) * n + c - 1
    full = (1 << n) - 1
    have = puzzle.hints.get(i, full)
    given = puzzle.values[i]
    if value.text.startswith("{"):
        mask = _mask(value.part(1, len(value.text) - 1), n, value)
        if given and not mask >> (given - 1) & 1:
            raise value.error(f"{edit} contradicts the clue {given} at r{r}c{c}")
        if not mask & have:
            raise value.error(f"{edit} leaves r{r}c{c} no candidate (its hint allows {_named(have)})")
        if not given:
            puzzle.hints[i] = mask & have
        return
    v = _raw_value(value.text)
    if not 1 <= v <= n:
        raise value.error(f"{edit}: {value.text!r} is not a value 1..{n}")
    if given and given != v:
        raise value.error(f"{edit} contradicts the clue {given} at r{r}c{c}")
    if not have >> (v - 1) & 1:
        raise value.error(f"{edit} contradicts the hint {_named(have)} at r{r}c{c}")
    puzzle.values[i] = v


def _named(mask: int) -> str:
    """A candidate mask as braces of values: `{1,3}`."""
    return "{" + ",".join(str(v + 1) for v in range(mask.bit_length()) if mask >> v & 1) + "}"


def _build(puzzle: _Puzzle, name: str) -> GridPuzzle:
    """The GridPuzzle of a puzzle read: a Sudoku with its box, or a Latin square; hints as its domains."""
    n = puzzle.n
    units = sudoku_units(n, puzzle.box) if puzzle.box else latin_units(n)
    full = (1 << n) - 1
    domains = tuple(puzzle.hints.get(i, full) for i in range(n * n)) if puzzle.hints else ()
    return GridPuzzle(n, units, tuple(puzzle.values[: n * n]), name=name, domains=domains)


# ---- writing --------------------------------------------------------------------------------------


def shape_of(puzzle: GridPuzzle) -> tuple[int, int] | None:
    """The box of a plain Sudoku, None for a Latin square; CpModelsError for what pseudocoup cannot carry."""
    problem = _order_problem(puzzle.n)
    if problem:
        raise CpModelsError(f"the pseudocoup format holds orders {MIN_ORDER} to {MAX_ORDER}: {problem}")
    if puzzle.cages:
        raise CpModelsError("the pseudocoup format holds Sudoku and Latin squares (QWH); this puzzle has cages")
    if is_latin_completion(puzzle):
        return None
    if is_sudoku(puzzle):
        return box_of(puzzle)
    raise CpModelsError("the pseudocoup format holds Sudoku and Latin squares (QWH); this puzzle has other units")


def write(puzzle: GridPuzzle) -> str:
    """A Sudoku or Latin square as its shape comment, then a row a line (`.` empty, hints in braces)."""
    box = shape_of(puzzle)
    n = puzzle.n
    kind = f"sudoku {box[0]}x{box[1]}" if box else "qwh"
    rows = [f"[cpmodels: order {n}, {kind}]"]
    for r in range(n):
        rows.append(" ".join(_written_cell(puzzle, r * n + c) for c in range(n)))
    return "\n".join(rows) + "\n"


def _written_cell(puzzle: GridPuzzle, i: int) -> str:
    """One cell as written: its given, `.`, or its hint in braces (numbers with spaces above order 9)."""
    v, n = puzzle.givens[i], puzzle.n
    if v:
        return str(v) if n > 9 else ALPHABET[v - 1]
    mask = puzzle.domains[i] if puzzle.domains else (1 << n) - 1
    if mask == (1 << n) - 1:
        return "."
    values = [v + 1 for v in range(n) if mask >> v & 1]
    return "{" + (" ".join(map(str, values)) if n > 9 else "".join(ALPHABET[v - 1] for v in values)) + "}"


def format_solution(grid: Sequence[int], box: tuple[int, int] | None) -> str:
    """A grid as Fowler's program prints a solution: values (two digits above 9) by spaces, boxes and bands apart."""
    n = isqrt(len(grid))
    width = 1 if n <= 9 else 2
    rows = []
    for r in range(n):
        cells = [str(grid[r * n + c]).rjust(width, "0") for c in range(n)]
        if box:
            cells = ["  ".join(" ".join(cells[g : g + box[1]]) for g in range(0, n, box[1]))]
        rows.append(" ".join(cells))
        if box and (r + 1) % box[0] == 0 and r + 1 < n:
            rows.append("")
    return "\n".join(rows)


def header(ordinal: int, line: int, status: str) -> str:
    """Fowler's comment line before a solution: the puzzle's ordinal, `:line` where that differs, and the outcome."""
    where = f"{ordinal}" if line == ordinal or not line else f"{ordinal}:{line}"
    return f"#   {where} {status}"
