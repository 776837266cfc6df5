"""Latin squares and quasigroup-with-holes (QWH): the completion puzzle and its file formats.

A QWH instance is a Latin square of order n with some cells emptied ("holes"); completing it is
Latin square completion. Its generators (uniform squares, uniform and balanced holes) are in generate.py.

Read and written:
  pls   `order n`, then n rows of entries, -1 a hole, symbols 0..n-1 (Gomes' lsencode files)
  qwh   one instance per line, `name:n:holes:e,e,...:status:solution` (cpmodels' data files), symbols 0..n-1
"""

from __future__ import annotations

import re
from functools import partial

from .errors import CpModelsError, ParseError
from .formats import Entry, content_lines, entry_from
from .grid import GridPuzzle, latin_units

FORMATS = ("pls", "qwh")
_QWH_LINE = re.compile(r"^\s*([^:\s]+):(\d+):(\d+):(-?\d+(?:,-?\d+)*)")


def latin_puzzle(givens: tuple[int, ...] | list[int], name: str = "") -> GridPuzzle:
    """The Latin square completion puzzle (rows and columns all-different) with these row-major givens."""
    n = round(len(givens) ** 0.5)
    return GridPuzzle(n, latin_units(n), tuple(givens), name=name)


# ---- reading and writing -------------------------------------------------------------------


def detect(text: str) -> str | None:
    """`pls` for an `order n` file, `qwh` for lines of the data format, None for anything else."""
    lines = [ln for _, ln in content_lines(text)]
    if lines and re.fullmatch(r"\s*order\s+\d+\s*", lines[0]):
        return "pls"
    if lines and all(_QWH_LINE.match(ln) for ln in lines):
        return "qwh"
    return None


def read_text(text: str, path: str = "<input>", fmt: str = "auto") -> list[Entry]:
    """Every QWH instance in `text` (one for pls, one per line for qwh), one Entry each."""
    fmt = detect(text) or "qwh" if fmt == "auto" else fmt
    lines = content_lines(text)
    if not lines:
        return [Entry(1, error=ParseError("no puzzle found (the input is empty)", path=path, line=1))]
    if fmt == "pls":
        return [entry_from(lines[0][0], path, partial(_read_pls, lines, path))]
    if fmt == "qwh":
        return [entry_from(k, path, partial(_read_qwh_line, ln, k, path)) for k, ln in lines]
    raise CpModelsError(f"unknown QWH format {fmt!r}; choose one of: auto, {', '.join(FORMATS)}")


def _entries_value(token: str, n: int, path: str, k: int, column: int, line: str) -> int:
    """A file entry (-1 a hole, else a symbol 0..n-1) as a cpmodels value (0 empty, else 1..n)."""
    if not re.fullmatch(r"-?\d+", token) or not -1 <= int(token) < n:
        raise ParseError(
            f"{token!r} is not -1 (a hole) or a symbol 0..{n - 1}", path=path, line=k, column=column, text=line
        )
    return int(token) + 1


def _read_pls(lines: list[tuple[int, str]], path: str) -> GridPuzzle:
    """A puzzle from the lines of a pls file: `order n`, then n rows of n entries."""
    k0, first = lines[0]
    m = re.fullmatch(r"\s*order\s+(\d+)\s*", first)
    if not m or int(m[1]) < 1:
        raise ParseError("a pls file starts with a line `order n`", path=path, line=k0, column=1, text=first)
    n = int(m[1])
    rows = lines[1:]
    if len(rows) != n:
        where = rows[-1][0] if rows else k0
        raise ParseError(f"an order-{n} square has {n} rows, not {len(rows)}", path=path, line=where)
    values = []
    for k, line in rows:
        tokens = list(re.finditer(r"\S+", line))
        if len(tokens) != n:
            raise ParseError(f"row has {len(tokens)} entries, not {n}", path=path, line=k, column=len(line), text=line)
        values += [_entries_value(t[0], n, path, k, t.start() + 1, line) for t in tokens]
    return latin_puzzle(values, name=f"{path}:{k0}")


def _read_qwh_line(line: str, k: int, path: str) -> GridPuzzle:
    """A puzzle from one `name:n:holes:entries[:status:solution]` line."""
    m = _QWH_LINE.match(line)
    if not m:
        raise ParseError("expected name:n:holes:e,e,... (entries -1 or 0..n-1)", path=path, line=k, column=1, text=line)
    n, start = int(m[2]), m.start(4)
    tokens = m[4].split(",")
    if len(tokens) != n * n:
        raise ParseError(
            f"{len(tokens)} entries, not {n * n} for order {n}", path=path, line=k, column=m.end(4), text=line
        )
    values, column = [], start + 1
    for t in tokens:
        values.append(_entries_value(t, n, path, k, column, line))
        column += len(t) + 1
    if values.count(0) != int(m[3]):
        raise ParseError(
            f"{values.count(0)} holes, not {m[3]} as stated", path=path, line=k, column=m.start(3) + 1, text=line
        )
    return latin_puzzle(values, name=f"{path}:{k} {m[1]}")


def write_pls(puzzle: GridPuzzle) -> str:
    """A Latin square completion puzzle in pls format (symbols 0..n-1, -1 for a hole)."""
    _check_latin(puzzle)
    n = puzzle.n
    width = len(str(n - 1)) + 2
    rows = ["".join(str(v - 1).rjust(width) for v in puzzle.givens[r * n : (r + 1) * n]) for r in range(n)]
    return "\n".join([f"order {n}", *rows])


def write_qwh(puzzle: GridPuzzle, name: str | None = None) -> str:
    """A Latin square completion puzzle as one line of the qwh data format (no status field), named
    `name`, else by the instance name it was read with (`path:line name`), else `puzzle`."""
    _check_latin(puzzle)
    name = name or (puzzle.name.split(" ")[-1] if " " in puzzle.name else "puzzle")
    entries = ",".join(str(v - 1) for v in puzzle.givens)
    return f"{name}:{puzzle.n}:{puzzle.givens.count(0)}:{entries}"


def _check_latin(puzzle: GridPuzzle) -> None:
    """Raise CpModelsError unless `puzzle` is plain Latin square completion (rows and columns, no cages)."""
    if puzzle.units != latin_units(puzzle.n) or puzzle.cages:
        raise CpModelsError("pls and qwh files hold Latin square completion only (no boxes, no cages)")
