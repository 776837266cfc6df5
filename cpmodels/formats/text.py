"""Located text: the primitives every reader uses, so that every error points at its culprit.

Bytes decoded into text (invalid UTF-8 and NUL bytes refused where they are), the Entry a reader yields
per puzzle, the one line splitter and content lines, the Token (a piece of text that knows where it is),
the Locator of character offsets, the one bounded integer parser and the largest order read. A leaf
module: it imports only errors and grid (and, for type checking only, formats.dlx).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import CpModelsError, ParseError
from ..grid import GridPuzzle

if TYPE_CHECKING:
    from ..cover import ExactCoverProblem

MAX_DIGITS = 18
"""The longest number a reader takes, in digits: more is an error, never a traceback (int() refuses 4,300)."""
_DIGITS = re.compile(r"[0-9]+")
MAX_ORDER = 100
"""The largest order a reader takes (Gomes' QWH files go up to 100; the backends solve up to 64): a larger
one is refused, located, before its cells are read, so that no text makes a reader build a huge grid."""
SEPARATOR = "---"
"""The line between two puzzles of a format that holds one puzzle a file (cagelist, pls, ...) in a stream."""
LINE_BREAK = re.compile(r"\r\n|\r|\n")
"""Where lines end, as an editor counts them: \\n, \\r\\n or a lone \\r (never \\f, \\v or U+2028)."""


def decode_text(data: bytes, path: str) -> str:
    """`data` as UTF-8 text without a byte-order mark; a located ParseError for invalid UTF-8 or a NUL byte."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        message = f"invalid UTF-8 (byte 0x{data[e.start]:02x}); save the file as UTF-8"
        raise _byte_error(message, data, e.start, path) from None
    nul = data.find(b"\0")
    if nul >= 0:
        raise _byte_error("a NUL byte: this looks like a binary file, not text", data, nul, path)
    return text


def _byte_error(message: str, data: bytes, offset: int, path: str) -> ParseError:
    """A ParseError at byte `offset` of `data`, located by line and column (columns count bytes)."""
    start, end = data.rfind(b"\n", 0, offset) + 1, data.find(b"\n", offset)
    line = data[start : end if end >= 0 else len(data)]
    text = line.decode("utf-8", "replace").replace("\0", " ")
    return ParseError(message, path=path, line=data.count(b"\n", 0, offset) + 1, column=offset - start + 1, text=text)


@dataclass(frozen=True)
class Entry:
    """One puzzle read from text, or the error that stopped it; `line` is where it starts (1-based).

    Exactly one of puzzle, cover (an exact-cover problem, from a DLX file) and error is set.
    """

    line: int
    puzzle: GridPuzzle | None = None
    error: CpModelsError | None = None
    claimed_count: int | None = None
    """The number of solutions the text itself records for the puzzle (`puzzle:count:solution`), if any."""
    claimed_solution: tuple[int, ...] | None = None
    """The solution the text itself records, row-major values 1..n, if any."""
    warning: str | None = None
    """A doubt about how the text was read (`path:line: ...`), for the user; the puzzle was read all the same."""
    fmt: str = ""
    """The name of the format it was read in (formats.read_text fills it)."""
    symbols: str = ""
    """The one-character symbols its cells were written in, symbols[v - 1] for value v; "" for the default 1-9A-Z."""
    cover: ExactCoverProblem | None = None
    """An exact-cover problem read from a DLX file (formats.dlx.read_entries), which has no puzzle: then
    `puzzle` is None and so is `error`."""
    where: str = ""
    """`path:line` of an exact-cover problem (a puzzle carries its own, GridPuzzle.name)."""
    ordinal: int = 0
    """Its place among the puzzles of its input, from 1, where the reader or the command counts them (0: not)."""

    @property
    def label(self) -> str:
        """What the command calls it: the puzzle's name, or the exact-cover problem's `path:line`."""
        return self.puzzle.name if self.puzzle is not None else self.where

    @property
    def solvable(self) -> bool:
        """Whether it holds something to solve: a puzzle or an exact-cover problem."""
        return self.puzzle is not None or self.cover is not None


def entry_from(line: int, path: str, parse: Callable[[], GridPuzzle | Entry]) -> Entry:
    """Run one puzzle's parser (a puzzle or a whole Entry), turning a user error into an Entry that carries it."""
    try:
        found = parse()
        return found if isinstance(found, Entry) else Entry(line, puzzle=found)
    except ParseError as e:
        return Entry(line, error=e)
    except CpModelsError as e:
        return Entry(line, error=ParseError(str(e), path=path, line=line))


def empty_input(path: str, what: str = "puzzle") -> list[Entry]:
    """The single Entry of a text without content: `no puzzle found (the input is empty)` at line 1."""
    return [Entry(1, error=ParseError(f"no {what} found (the input is empty)", path=path, line=1))]


def split_lines(text: str) -> list[str]:
    """The lines of `text` without their ends, broken at LINE_BREAK only; a final line break ends the last line."""
    lines = LINE_BREAK.split(text)
    return lines[:-1] if lines[-1] == "" else lines


FIELDS = re.compile(r"\t[ \t]*[A-Za-z][\w-]*=\S*(?:[ \t]+[A-Za-z][\w-]*=\S*)*[ \t]*$")
"""The tab-separated `key=value` fields `cpmodels generate` writes after a one-line puzzle (`\tseed=1:0 clues=24`)."""


def without_fields(line: str) -> str:
    """`line` without the trailing FIELDS of a generated puzzle (a tab, then `key=value` words), if it has them."""
    if "\t" not in line:
        return line
    found = FIELDS.search(line)
    return line[: found.start()] if found else line


def content_lines(text: str) -> list[tuple[int, str]]:
    """The (1-based line number, line) pairs of `text` that are neither blank nor `#` comments, FIELDS cut off."""
    return [
        (k, without_fields(ln))
        for k, ln in enumerate(split_lines(text), start=1)
        if ln.strip() and not ln.lstrip().startswith("#")
    ]


def sections(lines: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    """Numbered lines cut at SEPARATOR lines into the non-empty runs between them, one puzzle each."""
    runs: list[list[tuple[int, str]]] = [[]]
    for k, ln in lines:
        if ln.strip() == SEPARATOR:
            runs.append([])
        else:
            runs[-1].append((k, ln))
    return [run for run in runs if run]


@dataclass(frozen=True)
class Token:
    """A piece of input text and where it starts: file, 1-based line and column, and its whole line (`source`)."""

    text: str
    path: str
    line: int
    column: int
    source: str

    def error(self, message: str) -> ParseError:
        """A ParseError located at this token: `path:line:column: message`, the line, and a caret."""
        return ParseError(message, path=self.path, line=self.line, column=self.column, text=self.source)

    def part(self, start: int, stop: int | None = None) -> Token:
        """The token of text[start:stop], located where that piece starts."""
        return Token(self.text[start:stop], self.path, self.line, self.column + start, self.source)

    def end(self) -> Token:
        """An empty token just after this one, to blame what is missing."""
        return self.part(len(self.text))

    def with_text(self, text: str) -> Token:
        """A token at the same place that stands for `text` (a value decoded from what is written there)."""
        return Token(text, self.path, self.line, self.column, self.source)


def line_token(path: str, k: int, line: str) -> Token:
    """The whole of line k as one token, at column 1."""
    return Token(line, path, k, 1, line)


def tokens(path: str, k: int, line: str, pattern: str = r"\S+", lo: int = 0, hi: int | None = None) -> list[Token]:
    """The tokens matching `pattern` in line[lo:hi] of line number k."""
    found = re.compile(pattern).finditer(line, lo, len(line) if hi is None else hi)
    return [Token(m[0], path, k, m.start() + 1, line) for m in found]


class Locator:
    """Line and column of character offsets in one whole text, each found in logarithmic time."""

    def __init__(self, text: str, path: str) -> None:
        self.text, self.path = text, path
        self.starts = [0] + [m.end() for m in LINE_BREAK.finditer(text)]

    def token(self, offset: int) -> Token:
        """An empty token at character `offset`, located by line and column, its line as the source."""
        line = bisect_right(self.starts, offset)
        start = self.starts[line - 1]
        end = LINE_BREAK.search(self.text, start)
        return Token("", self.path, line, offset - start + 1, self.text[start : end.start() if end else None])


def order_error(token: Token, n: int) -> ParseError | None:
    """The error for an order n above MAX_ORDER, at `token`; None for an order that is read."""
    if n <= MAX_ORDER:
        return None
    return token.error(f"order {n} is above {MAX_ORDER}, the largest order cpmodels reads")


def integer_of(token: Token, *, signed: bool = False, top: int | None = None) -> int | None:
    """The integer `token` writes in ASCII digits (after one `-` if `signed`), or None if it writes none.

    Given `top`, a number above it (or too long to read) is None too; without `top`, more than MAX_DIGITS
    digits is a located ParseError `number too long`.
    """
    digits = token.text[1:] if signed and token.text.startswith("-") else token.text
    if not _DIGITS.fullmatch(digits):
        return None
    if len(digits) > MAX_DIGITS:
        if top is not None:
            return None  # out of range, whatever its value
        raise number_too_long(token, len(digits))
    value = int(token.text)
    return None if top is not None and value > top else value


def number_too_long(token: Token, digits: int) -> ParseError:
    """The error for a number of `digits` digits, more than MAX_DIGITS, at `token`."""
    return token.error(f"number too long: {digits} digits, at most {MAX_DIGITS}")


def fields(path: str, k: int, line: str, start: int = 0) -> list[Token]:
    """The colon-separated fields of line[start:] (line number k) as tokens, each stripped, at its first character."""
    out = []
    for part in line[start:].split(":"):
        lead = len(part) - len(part.lstrip())
        out.append(Token(part.strip(), path, k, start + lead + 1, line))
        start += len(part) + 1
    return out


def solution_values(
    token: Token, n: int, symbol: Callable[[Token], int | None] | None = None, base: int = 1, what: str = "digits"
) -> tuple[int, ...]:
    """A solution the text records at `token`, as row-major values 1..n.

    Written as n*n integers separated by commas or spaces (the symbols base..base+n-1), or else as n*n
    one-character cells, each read by `symbol` (a digit without it); a located ParseError otherwise.
    """
    separated = re.search(r"[,\s]", token.text) is not None
    lo = token.column - 1
    cells = tokens(token.path, token.line, token.source, r"[^,\s]+" if separated else r".", lo, lo + len(token.text))
    if len(cells) != n * n:
        raise token.error(f"the solution has {len(cells)} values, but an order-{n} grid has {n * n} cells")
    read = symbol if symbol and not separated else lambda cell: _shifted(integer_of(cell, top=n + base), base)
    values = [read(cell) for cell in cells]
    for cell, v in zip(cells, values, strict=True):
        if v is None or not 1 <= v <= n:
            raise cell.error(
                f"the solution must be n*n {what} or comma-separated integers, each a value of the order-{n} grid,"
                f" not {cell.text!r}"
            )
    return tuple(v for v in values if v is not None)


def _shifted(value: int | None, base: int) -> int | None:
    """A symbol numbered from `base` as a value numbered from 1."""
    return None if value is None else value - base + 1
