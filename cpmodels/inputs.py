"""The PUZZLE_OR_FILE argument of the command: standard input, a file, or puzzles written inline.

`-` is standard input; an argument that names an existing file is that file's text; any other argument is
the text of its puzzles (decided without touching the file system when it cannot be a file name: several
lines, a NUL, a part longer than a file name may be). An argument that is neither a puzzle nor a file but
looks like a file name (`top95`, `data/x.txt`) is refused as `no such file` rather than as a bad puzzle.
Bytes become text through formats.text.decode_text, so invalid UTF-8 and NUL bytes are located errors.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from . import formats
from .errors import CpModelsError, ParseError
from .formats import Entry
from .formats.text import decode_text


def read_argument(
    argument: str, fmt: str = "auto", box: tuple[int, int] | None = None, symbols: str = ""
) -> Iterator[Entry]:
    """The puzzles of a PUZZLE_OR_FILE argument in order, each parsed when reached; `no puzzle found` if none."""
    text, where, is_file = argument_text(argument)
    entries: Iterable[Entry] = formats.iter_entries(text, where, fmt, box, symbols)
    del text  # the entries (or a lazy reader) keep what they need: not the whole text while puzzles are solved
    if not is_file:
        entries = list(entries)
        if all(e.error for e in entries) and looks_like_path(argument):
            raise CpModelsError(f"{argument}: no such file, and not a puzzle either")
    found = False
    for entry in entries:
        found = True
        yield entry
    if not found:
        yield Entry(1, error=ParseError("no puzzle found (nothing but comments and decoration)", path=where, line=1))


def argument_text(argument: str) -> tuple[str, str, bool]:
    """(text, where it came from, whether it is a file's) for the PUZZLE_OR_FILE argument: `-`, a file, or inline."""
    if argument == "-":
        return decode_text(sys.stdin.buffer.read(), "<stdin>"), "<stdin>", True
    path = Path(argument)
    try:
        if not could_be_path(argument) or not path.exists():
            return decode_text(argument.encode("utf-8", "surrogateescape"), "<argument>"), "<argument>", False
        if path.is_dir():
            raise CpModelsError(f"{argument}: is a directory; give a file of puzzles")
        return decode_text(path.read_bytes(), argument), argument, True
    except OSError as e:
        raise CpModelsError(f"{argument}: cannot read it: {e.strerror or e}") from None


def could_be_path(text: str) -> bool:
    """Whether `text` can name a file at all (one line, no NUL, no part longer than a file name may be)."""
    return "\n" not in text and "\0" not in text and len(text) < 4096 and all(len(p) <= 255 for p in text.split("/"))


def looks_like_path(text: str) -> bool:
    """Whether an argument that is neither a file nor a puzzle was probably meant as a file name (`top95`, `a/b`)."""
    if "\n" in text or ":" in text or not could_be_path(text):
        return False
    return bool(
        re.search(r"[/\\]|\.[A-Za-z][A-Za-z0-9]{0,5}$", text)
        or (re.fullmatch(r"[\w.~-]+", text) and re.search("[a-z]{2}", text))
    )


def with_single(entries: Iterator[Entry]) -> tuple[Iterator[Entry], bool]:
    """`entries` unchanged, and whether they are a single puzzle (read ahead by two)."""
    ahead = list(itertools.islice(entries, 2))
    return itertools.chain(ahead, entries), len(ahead) == 1
