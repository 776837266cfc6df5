"""QWH (Latin square completion) text formats, read and written, symbols 0..n-1.

Formats:
  pls   `order n`, then n rows of entries, -1 a hole (Gomes' lsencode files)
  qwh   one instance per line, `name:n:holes:e,e,...:status:solution` (cpmodels' data files)
"""

from __future__ import annotations

import re
from functools import partial

from ..errors import CpModelsError, ParseError
from ..grid import GridPuzzle
from ..latin import is_latin_completion, latin_puzzle
from .text import Entry, Token, content_lines, empty_input, entry_from, integer_of, line_token, tokens

FORMATS = ("pls", "qwh")
_ORDER_LINE = re.compile(r"\s*order\s+([0-9]+)\s*")
_QWH_LINE = re.compile(r"^\s*([^:\s]+):([0-9]+):([0-9]+):(-?[0-9]+(?:,-?[0-9]+)*)")


def sniff_pls(lines: list[str]) -> bool:
    """Whether the content lines start with `order n`."""
    return bool(lines) and bool(_ORDER_LINE.fullmatch(lines[0]))


def sniff_qwh(lines: list[str]) -> bool:
    """Whether every content line is a `name:n:holes:entries` line."""
    return bool(lines) and all(_QWH_LINE.match(ln) for ln in lines)


def detect(text: str) -> str | None:
    """`pls` for an `order n` file, `qwh` for lines of the data format, None for anything else."""
    lines = [ln for _, ln in content_lines(text)]
    return "pls" if sniff_pls(lines) else "qwh" if sniff_qwh(lines) else None


def read_text(text: str, path: str = "<input>", fmt: str = "auto") -> list[Entry]:
    """Every QWH instance in `text` (one for pls, one per line for qwh), one Entry each."""
    fmt = detect(text) or "qwh" if fmt == "auto" else fmt
    lines = content_lines(text)
    if not lines:
        return empty_input(path)
    if fmt == "pls":
        return [entry_from(lines[0][0], path, partial(_read_pls, lines, path))]
    if fmt == "qwh":
        return [entry_from(k, path, partial(_read_qwh_line, ln, k, path)) for k, ln in lines]
    raise CpModelsError(f"unknown QWH format {fmt!r}; choose one of: auto, {', '.join(FORMATS)}")


def _entry_value(tok: Token, n: int) -> int:
    """A file entry (-1 a hole, else a symbol 0..n-1) as a cpmodels value (0 empty, else 1..n)."""
    v = integer_of(tok, signed=True, top=n - 1)
    if v is None or v < -1:
        raise tok.error(f"{tok.text!r} is not -1 (a hole) or a symbol 0..{n - 1}")
    return v + 1


def _number(m: re.Match, group: int, path: str, k: int) -> int:
    """The number in a regex group of line k, bounded in length."""
    return integer_of(Token(m[group], path, k, m.start(group) + 1, m.string)) or 0


def _read_pls(lines: list[tuple[int, str]], path: str) -> GridPuzzle:
    """A puzzle from the lines of a pls file: `order n`, then n rows of n entries."""
    k0, first = lines[0]
    m = _ORDER_LINE.fullmatch(first)
    if not m or _number(m, 1, path, k0) < 1:
        raise line_token(path, k0, first).error("a pls file starts with a line `order n`")
    n = _number(m, 1, path, k0)
    rows = lines[1:]
    if len(rows) != n:
        where = rows[-1][0] if rows else k0
        raise ParseError(f"an order-{n} square has {n} rows, not {len(rows)}", path=path, line=where)
    values = []
    for k, line in rows:
        row = tokens(path, k, line)
        if len(row) != n:
            raise Token("", path, k, len(line), line).error(f"row has {len(row)} entries, not {n}")
        values += [_entry_value(tok, n) for tok in row]
    return latin_puzzle(values, name=f"{path}:{k0}")


def _read_qwh_line(line: str, k: int, path: str) -> GridPuzzle:
    """A puzzle from one `name:n:holes:entries[:status:solution]` line."""
    m = _QWH_LINE.match(line)
    if not m:
        raise line_token(path, k, line).error("expected name:n:holes:e,e,... (entries -1 or 0..n-1)")
    n, holes = _number(m, 2, path, k), _number(m, 3, path, k)
    entries = tokens(path, k, line, r"[^,]+", m.start(4), m.end(4))
    if len(entries) != n * n:
        raise Token("", path, k, m.end(4), line).error(f"{len(entries)} entries, not {n * n} for order {n}")
    values = [_entry_value(tok, n) for tok in entries]
    if values.count(0) != holes:
        where = Token(m[3], path, k, m.start(3) + 1, line)
        raise where.error(f"{values.count(0)} holes, not {m[3]} as stated")
    return latin_puzzle(values, name=f"{path}:{k} {m[1]}")


def write_pls(puzzle: GridPuzzle) -> str:
    """A Latin square completion puzzle in pls format (symbols 0..n-1, -1 for a hole)."""
    _check_latin(puzzle)
    n = puzzle.n
    width = len(str(n - 1)) + 2
    rows = ["".join(str(v - 1).rjust(width) for v in puzzle.givens[r * n : (r + 1) * n]) for r in range(n)]
    return "\n".join([f"order {n}", *rows])


def write_qwh(puzzle: GridPuzzle, name: str | None = None) -> str:
    """A Latin square completion puzzle as one line of the qwh data format (no status field).

    It is named `name`, else by the instance name it was read with (`path:line name`), else `puzzle`.
    """
    _check_latin(puzzle)
    name = name or (puzzle.name.split(" ")[-1] if " " in puzzle.name else "puzzle")
    entries = ",".join(str(v - 1) for v in puzzle.givens)
    return f"{name}:{puzzle.n}:{puzzle.givens.count(0)}:{entries}"


def _check_latin(puzzle: GridPuzzle) -> None:
    """Raise CpModelsError unless `puzzle` is plain Latin square completion (rows and columns, no cages)."""
    if not is_latin_completion(puzzle):
        raise CpModelsError("pls and qwh files hold Latin square completion only (no boxes, no cages)")
