"""Located text: the primitives every reader uses, so that every error points at its culprit.

The Entry a reader yields per puzzle, content lines, the Token (a piece of text that knows where it is)
and the one bounded integer parser. A leaf module: it imports only errors and grid.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..errors import CpModelsError, ParseError
from ..grid import GridPuzzle

MAX_DIGITS = 18
"""The longest number a reader takes, in digits: more is an error, never a traceback (int() refuses 4,300)."""
_DIGITS = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class Entry:
    """One puzzle read from text, or the error that stopped it; `line` is where it starts (1-based)."""

    line: int
    puzzle: GridPuzzle | None = None
    error: CpModelsError | None = None


def entry_from(line: int, path: str, parse: Callable[[], GridPuzzle]) -> Entry:
    """Run one puzzle's parser, turning a user error into an Entry that carries it, located."""
    try:
        return Entry(line, puzzle=parse())
    except ParseError as e:
        return Entry(line, error=e)
    except CpModelsError as e:
        return Entry(line, error=ParseError(str(e), path=path, line=line))


def empty_input(path: str, what: str = "puzzle") -> list[Entry]:
    """The single Entry of a text without content: `no puzzle found (the input is empty)` at line 1."""
    return [Entry(1, error=ParseError(f"no {what} found (the input is empty)", path=path, line=1))]


def content_lines(text: str) -> list[tuple[int, str]]:
    """The (1-based line number, line) pairs of `text` that are neither blank nor `#` comments."""
    return [
        (k, ln) for k, ln in enumerate(text.splitlines(), start=1) if ln.strip() and not ln.lstrip().startswith("#")
    ]


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
        return replace(self, text=self.text[start:stop], column=self.column + start)

    def end(self) -> Token:
        """An empty token just after this one, to blame what is missing."""
        return self.part(len(self.text))

    def with_text(self, text: str) -> Token:
        """A token at the same place that stands for `text` (a value decoded from what is written there)."""
        return replace(self, text=text)


def line_token(path: str, k: int, line: str) -> Token:
    """The whole of line k as one token, at column 1."""
    return Token(line, path, k, 1, line)


def tokens(path: str, k: int, line: str, pattern: str = r"\S+", lo: int = 0, hi: int | None = None) -> list[Token]:
    """The tokens matching `pattern` in line[lo:hi] of line number k."""
    found = re.compile(pattern).finditer(line, lo, len(line) if hi is None else hi)
    return [Token(m[0], path, k, m.start() + 1, line) for m in found]


def token_at(text: str, path: str, offset: int) -> Token:
    """An empty token at a character offset of a whole text, located by line and column."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return Token("", path, text.count("\n", 0, offset) + 1, offset - start + 1, text[start : end if end >= 0 else None])


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
