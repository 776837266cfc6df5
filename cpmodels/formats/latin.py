"""QWH (Latin square completion) text formats, read and written, symbols 0..n-1.

Formats:
  pls   `order n`, then n rows of entries, -1 a hole (Gomes' lsencode files); several in one text are
        separated by a `---` line (text.SEPARATOR)
  qwh   one instance per line, `name:n:holes:e,e,...:status:solution` (cpmodels' data files): status
        SAT with the solution (Entry.claimed_solution), UNSAT (Entry.claimed_count 0) or UNKNOWN
Every message and every text written keeps the files' symbols 0..n-1 (cpmodels' values are 1..n inside).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import partial

from ..errors import CpModelsError, ParseError
from ..grid import GridPuzzle, cell_name
from ..latin import is_latin_completion, latin_puzzle
from .text import (
    Entry,
    Token,
    content_lines,
    empty_input,
    entry_from,
    fields,
    integer_of,
    line_token,
    order_error,
    sections,
    solution_values,
    tokens,
)

FORMATS = ("pls", "qwh")
_ORDER_LINE = re.compile(r"\s*order\s+([0-9]+)\s*")
_QWH_LINE = re.compile(r"^\s*([^:\s]+):([0-9]+):([0-9]+):(-?[0-9]+(?:,-?[0-9]+)*)")
_STATUS = {"SAT": None, "UNSAT": 0, "UNKNOWN": None}


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
    """Every QWH instance in `text`, one Entry each (iter_text, as a list)."""
    return list(iter_text(text, path, fmt))


def iter_text(text: str, path: str = "<input>", fmt: str = "auto") -> Iterator[Entry]:
    """Every QWH instance in `text` (one a `---` section for pls, one a line for qwh), each parsed when reached."""
    fmt = detect(text) or "qwh" if fmt == "auto" else fmt
    lines = content_lines(text)
    if fmt not in FORMATS:
        raise CpModelsError(f"unknown QWH format {fmt!r}; choose one of: auto, {', '.join(FORMATS)}")
    parts = sections(lines) if fmt == "pls" else []
    if not lines or (fmt == "pls" and not parts):
        yield from empty_input(path)
    elif fmt == "pls":
        yield from (entry_from(part[0][0], path, partial(_read_pls, part, path)) for part in parts)
    else:
        yield from (entry_from(k, path, partial(_read_qwh_line, ln, k, path)) for k, ln in lines)


def _entry_value(tok: Token, n: int) -> int:
    """A file entry (-1 a hole, else a symbol 0..n-1) as a cpmodels value (0 empty, else 1..n)."""
    v = integer_of(tok, signed=True, top=n - 1)
    if v is None or v < -1:
        raise tok.error(f"{tok.text!r} is not -1 (a hole) or a symbol 0..{n - 1}")
    return v + 1


def _order(tok: Token) -> int:
    """The order written by `tok` (digits, bounded in length), refused above MAX_ORDER."""
    n = integer_of(tok) or 0
    error = order_error(tok, n)
    if error:
        raise error
    return n


def _read_pls(lines: list[tuple[int, str]], path: str) -> GridPuzzle:
    """A puzzle from the lines of a pls file: `order n`, then n rows of n entries."""
    k0, first = lines[0]
    m = _ORDER_LINE.fullmatch(first)
    n = _order(Token(m[1], path, k0, m.start(1) + 1, first)) if m else 0
    if n < 1:
        raise line_token(path, k0, first).error("a pls file starts with a line `order n`")
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
    return _latin(values, n, path, k0, f"{path}:{k0}")


def _read_qwh_line(line: str, k: int, path: str) -> Entry:
    """A puzzle from one `name:n:holes:entries[:status:solution]` line, the status and solution as claims."""
    m = _QWH_LINE.match(line)
    if not m:
        raise line_token(path, k, line).error("expected name:n:holes:e,e,... (entries -1 or 0..n-1)")
    n, holes = (
        _order(Token(m[2], path, k, m.start(2) + 1, line)),
        integer_of(Token(m[3], path, k, m.start(3) + 1, line)),
    )
    entries = tokens(path, k, line, r"[^,]+", m.start(4), m.end(4))
    if len(entries) != n * n:
        raise Token("", path, k, m.end(4), line).error(f"{len(entries)} entries, not {n * n} for order {n}")
    values = [_entry_value(tok, n) for tok in entries]
    if values.count(0) != holes:
        where = Token(m[3], path, k, m.start(3) + 1, line)
        raise where.error(f"{values.count(0)} holes, not {m[3]} as stated")
    puzzle = _latin(values, n, path, k, f"{path}:{k} {m[1]}")
    count, solution = _qwh_claims(fields(path, k, line, m.end(4))[1:], n)
    return Entry(k, puzzle, claimed_count=count, claimed_solution=solution)


def _qwh_claims(found: list[Token], n: int) -> tuple[int | None, tuple[int, ...] | None]:
    """The claims of the fields after the entries: status SAT, UNSAT or UNKNOWN, then the solution (symbols 0..n-1)."""
    status = found[0] if found and found[0].text else None
    if status and status.text not in _STATUS:
        raise status.error(f"expected the status SAT, UNSAT or UNKNOWN, found {status.text!r}")
    solution = solution_values(found[1], n, base=0) if len(found) > 1 and found[1].text else None
    return (_STATUS[status.text] if status else None), solution


def _latin(values: list[int], n: int, path: str, line: int, name: str) -> GridPuzzle:
    """The completion puzzle of `values`; a ParseError at `line` for a given repeated in a row or column."""
    repeated = _repeated_given(values, n)
    if repeated:
        raise ParseError(repeated, path=path, line=line)
    return latin_puzzle(values, name=name)


def _repeated_given(values: list[int], n: int) -> str | None:
    """The first given repeated in a row, else in a column, in words with its symbol as written (0..n-1)."""
    for what, line_of in (("row", lambda i: i // n), ("column", lambda i: i % n)):
        seen: dict[tuple[int, int], int] = {}
        for i, v in enumerate(values):
            first = seen.setdefault((line_of(i), v), i) if v else i
            if first != i:
                cells = cell_name(*divmod(i, n)), cell_name(*divmod(first, n))
                return f"given {v - 1} at {cells[0]} repeats in {what} {line_of(i) + 1} (also at {cells[1]})"
    return None


def write_pls(puzzle: GridPuzzle) -> str:
    """A Latin square completion puzzle in pls format (symbols 0..n-1, -1 for a hole)."""
    _check_latin(puzzle)
    return format_pls(puzzle.givens)


def format_pls(grid: Sequence[int]) -> str:
    """A row-major grid of values 1..n (0 empty) as a pls file: `order n`, rows of symbols 0..n-1, -1 for empty."""
    n = round(len(grid) ** 0.5)
    width = len(str(n - 1)) + 2
    rows = ["".join(str(v - 1).rjust(width) for v in grid[r * n : (r + 1) * n]) for r in range(n)]
    return "\n".join([f"order {n}", *rows])


def write_qwh(puzzle: GridPuzzle, name: str | None = None, solution: Sequence[int] | None = None) -> str:
    """A Latin square completion puzzle as one line of the qwh data format, `:SAT:solution` after it if given.

    It is named `name`, else by the instance name it was read with (`path:line name`), else `puzzle`.
    """
    _check_latin(puzzle)
    name = name or (puzzle.name.split(" ")[-1] if " " in puzzle.name else "puzzle")
    entries = ",".join(str(v - 1) for v in puzzle.givens)
    line = f"{name}:{puzzle.n}:{puzzle.givens.count(0)}:{entries}"
    return line + (f":SAT:{','.join(str(v - 1) for v in solution)}" if solution is not None else "")


def _check_latin(puzzle: GridPuzzle) -> None:
    """Raise CpModelsError unless `puzzle` is plain Latin square completion (rows and columns, no cages)."""
    if not is_latin_completion(puzzle):
        raise CpModelsError("pls and qwh files hold Latin square completion only (no boxes, no cages)")
