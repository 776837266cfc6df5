"""Mathdoku / KenKen text formats: six cage-file formats read and written, and the bordered drawing.

Formats (names in FORMATS; read with read_text / read_puzzle, detected with detect, written with write):
  cagelist    `n`, then one cage a line `op target count cell...`, cells 1..n*n row-major, optional `$` to end
  lettergrid  kenken-rs `.ken`: n rows of cage letters (a digit is a given), then legend lines `a: 12*`
  indexgrid   mathdoku-solver: `n k`, n rows of cage indices 0..k-1, then `index op target` lines
  oneline     cpmodels data, one puzzle a line: `<id>:<n>:<difficulty>:<cages>[:<count>[:<solution>]]`,
              cages as `<target><op>@<cell>,<cell>,...` with 0-based cells r*n + c
  cellnames   `n`, then one cage a line `target op A1 B1 ...` (column letter, row number)
  json        {"size": n, "cages": [{"cells": [[r, c], ...], "op": "+", "target": 11}, ...]}, 0-based;
              also a grid {"n": n, "box": [r, c] or null, "grid": rows}, as formats/sudoku.py writes it
`#` starts a comment line; blank lines are ignored. Operators read: + - * / = and the aliases x × ÷.
Many puzzles in one text: oneline holds one a line; json one object after another (JSON Lines too); the
other formats one a section, sections separated by a `---` line (text.SEPARATOR).
Hidden operators (op None) are written by json (null), oneline and lettergrid (the operator left out).
Every puzzle read is canonical (mathdoku.canonical), so read(write(p)) == p for every format.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial

from ..cages import OPERATORS
from ..errors import CpModelsError, ParseError
from ..grid import Cage, Cell, GridPuzzle, cell_name, latin_units
from ..mathdoku import as_given, canonical, first_uncovered, size_problem, target_problem
from .sudoku import puzzle_from_json
from .text import (
    LINE_BREAK,
    MAX_DIGITS,
    Entry,
    Locator,
    Token,
    content_lines,
    empty_input,
    entry_from,
    fields,
    integer_of,
    line_token,
    number_too_long,
    order_error,
    sections,
    solution_values,
    tokens,
)

Lines = list[tuple[int, str]]
"""The numbered content lines of one puzzle."""

FORMATS = ("cagelist", "lettergrid", "indexgrid", "oneline", "cellnames", "json")
"""The Mathdoku text formats, by name."""
OPERATOR_ALIASES = {"x": "*", "X": "*", "×": "*", "÷": "/", "−": "-"}
"""Other spellings of operators accepted on reading."""
LETTERS = string.ascii_lowercase + string.ascii_uppercase
"""Cage letters of the lettergrid format, in the order the writer assigns them."""
HIDDEN_CAPABLE = ("json", "oneline", "lettergrid")


# ---- reading: shared machinery -------------------------------------------------------------


@dataclass
class _Spec:
    """A cage as read, with the tokens to blame for its operator, its target and each of its cells."""

    op: str | None
    target: int
    op_tok: Token
    target_tok: Token
    cells: list[Cell] = field(default_factory=list)
    cell_toks: list[Token] = field(default_factory=list)


def _content(lines: Lines, path: str) -> list[list[Token]]:
    """The whitespace-separated tokens of each content line."""
    return [tokens(path, k, line) for k, line in lines]


def _integer(tok: Token, what: str) -> int:
    """The non-negative integer written by `tok`, or a ParseError naming `what` was expected."""
    v = integer_of(tok)
    if v is None:
        raise tok.error(f"expected {what}, found {tok.text!r}" if tok.text else f"expected {what}")
    return v


def _order(tok: Token) -> int:
    """The order n written by `tok`, at least 1 and at most MAX_ORDER."""
    n = _integer(tok, "the order n (a positive integer)")
    if n < 1:
        raise tok.error(f"the order must be at least 1, not {n}")
    error = order_error(tok, n)
    if error:
        raise error
    return n


def _operator(tok: Token) -> str:
    """The operator written by `tok`, aliases resolved."""
    op = OPERATOR_ALIASES.get(tok.text, tok.text)
    if op not in OPERATORS:
        raise tok.error(f"unknown operator {tok.text!r} (use + - * / =, or x × ÷)")
    return op


def _only(toks: list[Token], what: str) -> Token:
    """The single token of a line that should hold only `what`."""
    if len(toks) > 1:
        raise toks[1].error(f"expected only {what} on this line, found {toks[1].text!r}")
    return toks[0]


def _cell_index(tok: Token, n: int, base: int) -> Cell:
    """The cell of a row-major index numbered from `base` (0 or 1)."""
    v = _integer(tok, "a cell number")
    if not base <= v < n * n + base:
        raise tok.error(f"cell {v} is outside {base}..{n * n - 1 + base}")
    return divmod(v - base, n)


def _assemble(n: int, specs: list[_Spec], order_tok: Token, name: str) -> GridPuzzle:
    """The canonical puzzle of `specs`, every problem blamed on the token that caused it."""
    owner: dict[Cell, int] = {}
    cages = []
    for k, spec in enumerate(specs, start=1):
        for cell, tok in zip(spec.cells, spec.cell_toks, strict=True):
            if cell in owner:
                where = f"appears twice in cage {k}" if owner[cell] == k else f"is in cages {owner[cell]} and {k}"
                raise tok.error(f"{cell_name(*cell)} {where}")
            owner[cell] = k
        cage = as_given(Cage(tuple(spec.cells), spec.op, spec.target))
        problem = size_problem(k, cage)
        if problem:
            raise spec.op_tok.error(problem)
        problem = target_problem(k, cage, n)
        if problem:
            raise spec.target_tok.error(problem)
        cages.append(cage)
    missing = first_uncovered(n, set(owner))
    if missing:
        raise order_tok.error(f"{cell_name(*missing)} is in no cage")
    return canonical(n, cages, name)


# ---- reading: cagelist ---------------------------------------------------------------------


def _read_cagelist(numbered: Lines, path: str) -> GridPuzzle:
    """A puzzle from `n` and `op target count cell...` lines (cells 1..n*n), optionally ended by `$`."""
    lines = _content(numbered, path)
    order_tok = _only(lines[0], "the order n")
    n = _order(order_tok)
    specs = []
    for i, toks in enumerate(lines[1:], start=1):
        if toks[0].text == "$":
            after = toks[1:] or (lines[i + 1] if i + 1 < len(lines) else [])
            if after:
                raise after[0].error("text after the closing `$`")
            break
        specs.append(_cagelist_spec(toks, n))
    return _assemble(n, specs, order_tok, f"{path}:{order_tok.line}")


def _cagelist_spec(toks: list[Token], n: int) -> _Spec:
    """One cage from `op target count cell cell ...`."""
    if len(toks) < 4:
        raise toks[-1].end().error("expected `op target count cell...`, such as `+ 11 2 1 7`")
    op_tok, target_tok, count_tok, *cell_toks = toks
    spec = _Spec(_operator(op_tok), _integer(target_tok, "a target"), op_tok, target_tok)
    count = _integer(count_tok, "a cell count")
    spec.cells = [_cell_index(tok, n, 1) for tok in cell_toks]
    spec.cell_toks = cell_toks
    if count != len(cell_toks):
        raise count_tok.error(f"the count says {count} cells, but {len(cell_toks)} follow")
    return spec


# ---- reading: lettergrid -------------------------------------------------------------------

_LEGEND = re.compile(r"\s*(\S+?)\s*:\s*([0-9]*)\s*(\S*)\s*")
_Legend = dict[str, tuple[Token, Token, str | None]]


def _read_lettergrid(lines: Lines, path: str) -> GridPuzzle:
    """A puzzle from n rows of n cage letters (a digit is a given) and `a: 12*` legend lines."""
    n = len(re.findall(r"\S", lines[0][1]))  # one character a cell; spaces between them are allowed
    order_tok = tokens(path, *lines[0])[0]
    error = order_error(order_tok, n)
    if error:
        raise error
    groups: dict[str, list[tuple[Cell, Token]]] = {}
    for r in range(n):
        if r >= len(lines) or ":" in lines[r][1]:
            k, line = lines[min(r, len(lines) - 1)]
            raise line_token(path, k, line).error(f"the grid has {r} rows, but its first row has {n} cells")
        for c, tok in enumerate(_grid_row(path, *lines[r], n, r)):
            key = tok.text if tok.text in LETTERS else f"{r},{c}"
            groups.setdefault(key, []).append(((r, c), tok))
    legend = _legend(path, lines[n:], groups)
    specs = [_letter_spec(key, cells, legend) for key, cells in groups.items()]
    return _assemble(n, specs, order_tok, f"{path}:{order_tok.line}")


def _grid_row(path: str, k: int, line: str, n: int, r: int) -> list[Token]:
    """The n one-character tokens of grid row r, each a cage letter or a digit."""
    toks = tokens(path, k, line, r"\S")
    if len(toks) != n:
        culprit = toks[n] if len(toks) > n else toks[-1].end()
        raise culprit.error(f"grid row {r + 1} has {len(toks)} cells, but the first row has {n}")
    for tok in toks:
        if tok.text not in LETTERS and tok.text not in string.digits:
            raise tok.error(f"{tok.text!r} is not a cage letter (use a-z, A-Z, or a digit for a given)")
    return toks


def _legend(path: str, lines: list[tuple[int, str]], groups: dict[str, list[tuple[Cell, Token]]]) -> _Legend:
    """Each legend letter's (target token, operator token, operator) from `a: 12*` lines."""
    legend: _Legend = {}
    for k, line in lines:
        m = _LEGEND.fullmatch(line)
        if not m:
            raise line_token(path, k, line).error("expected a legend line such as `a: 12*`")
        key, target, op = (Token(m[g], path, k, m.start(g) + 1, line) for g in (1, 2, 3))
        if len(key.text) != 1 or key.text not in LETTERS:
            raise key.error(f"legend key {key.text!r} is not a single letter")
        if key.text not in groups:
            raise key.error(f"legend letter {key.text!r} is not used in the grid")
        if key.text in legend:
            raise key.error(f"legend letter {key.text!r} is defined twice (first on line {legend[key.text][0].line})")
        _integer(target, "a target after ':'")
        legend[key.text] = (target, op, _operator(op) if op.text else None)
    return legend


def _letter_spec(key: str, cells: list[tuple[Cell, Token]], legend: _Legend) -> _Spec:
    """The cage of one grid letter with its legend entry, or of one digit given."""
    (first_cell, first), toks = cells[0], [tok for _, tok in cells]
    if first.text in string.digits:
        spec = _Spec("=", int(first.text), first, first)
    elif key not in legend:
        where = cell_name(*first_cell)
        raise first.error(f"cage letter {key!r} (first at {where}) has no legend line such as `{key}: 12+`")
    else:
        target_tok, op_tok, op = legend[key]
        spec = _Spec(op, int(target_tok.text), op_tok if op_tok.text else target_tok, target_tok)
    spec.cells, spec.cell_toks = [cell for cell, _ in cells], toks
    return spec


# ---- reading: indexgrid --------------------------------------------------------------------


def _read_indexgrid(numbered: Lines, path: str) -> GridPuzzle:
    """A puzzle from `n k`, n rows of cage indices 0..k-1 and `index op target` lines (mathdoku-solver)."""
    lines = _content(numbered, path)
    head = lines[0]
    if len(head) != 2:
        raise (head[2] if len(head) > 2 else head[0].end()).error("expected `n k`: the order and the number of cages")
    n, k = _order(head[0]), _integer(head[1], "the number of cages")
    if k < 1:
        raise head[1].error("the number of cages must be at least 1")
    if len(lines) < n + 1:
        raise lines[-1][-1].end().error(f"the grid has {len(lines) - 1} rows, but the order is {n}")
    cells: dict[int, list[tuple[Cell, Token]]] = {}
    for r, toks in enumerate(lines[1 : n + 1]):
        for c, tok in enumerate(_index_row(toks, n, k, r)):
            cells.setdefault(int(tok.text), []).append(((r, c), tok))
    defs = _index_definitions(lines[n + 1 :], k)
    specs = [_index_spec(i, cells.get(i, []), defs, head[1]) for i in range(k)]
    return _assemble(n, specs, head[0], f"{path}:{head[0].line}")


def _index_row(toks: list[Token], n: int, k: int, r: int) -> list[Token]:
    """The n cage-index tokens of grid row r, each checked to be in 0..k-1."""
    if len(toks) != n:
        culprit = toks[n] if len(toks) > n else toks[-1].end()
        raise culprit.error(f"grid row {r + 1} has {len(toks)} cells, but the order is {n}")
    for tok in toks:
        if _integer(tok, f"a cage index 0..{k - 1}") >= k:
            raise tok.error(f"cage index {tok.text} is outside 0..{k - 1} (the first line says {k} cages)")
    return toks


def _index_definitions(lines: list[list[Token]], k: int) -> dict[int, tuple[Token, Token, Token]]:
    """The (index, operator, target) tokens of each `index op target` line, by cage index."""
    defs: dict[int, tuple[Token, Token, Token]] = {}
    for toks in lines:
        if len(toks) != 3:
            raise (toks[3] if len(toks) > 3 else toks[-1].end()).error("expected `index op target`, such as `0 + 11`")
        index = _integer(toks[0], f"a cage index 0..{k - 1}")
        if index >= k:
            raise toks[0].error(f"cage index {index} is outside 0..{k - 1} (the first line says {k} cages)")
        if index in defs:
            raise toks[0].error(f"cage index {index} is defined twice (first on line {defs[index][0].line})")
        _operator(toks[1])
        _integer(toks[2], "a target")
        defs[index] = (toks[0], toks[1], toks[2])
    return defs


def _index_spec(
    i: int, cells: list[tuple[Cell, Token]], defs: dict[int, tuple[Token, Token, Token]], k_tok: Token
) -> _Spec:
    """Cage index i from its cells and definition; one cell is a given whatever its operator, as in mathdoku-solver."""
    if i not in defs:
        if cells:
            (cell, tok) = cells[0]
            raise tok.error(f"cage index {i} (first at {cell_name(*cell)}) has no `{i} op target` line")
        raise k_tok.error(f"the first line says {k_tok.text} cages, but cage index {i} is not used")
    index_tok, op_tok, target_tok = defs[i]
    if not cells:
        raise index_tok.error(f"cage index {i} has no cells in the grid")
    op = "=" if len(cells) == 1 else _operator(op_tok)
    return _Spec(op, int(target_tok.text), op_tok, target_tok, [c for c, _ in cells], [t for _, t in cells])


# ---- reading: cellnames --------------------------------------------------------------------

_CELL_NAME = re.compile(r"([A-Za-z])([0-9]+)")


def _read_cellnames(numbered: Lines, path: str) -> GridPuzzle:
    """A puzzle from `n` and `target op A1 B1 ...` lines (column letter A.., row number 1..n)."""
    lines = _content(numbered, path)
    order_tok = _only(lines[0], "the order n")
    n = _order(order_tok)
    if n > 26:
        raise order_tok.error(f"cell names use one column letter A-Z, so the order is at most 26, not {n}")
    specs = [_cellnames_spec(toks, n) for toks in lines[1:]]
    return _assemble(n, specs, order_tok, f"{path}:{order_tok.line}")


def _cellnames_spec(toks: list[Token], n: int) -> _Spec:
    """One cage from `target op cell...`, or `target+ cell...` with the operator stuck to the target."""
    digits = len(toks[0].text) - len(toks[0].text.lstrip(string.digits))
    target_tok = toks[0].part(0, digits)
    if toks[0].text[digits:]:
        op_tok, cell_toks = toks[0].part(digits), toks[1:]
    elif len(toks) > 1:
        op_tok, cell_toks = toks[1], toks[2:]
    else:
        raise toks[0].end().error("expected `target op cell...`, such as `11 + A1 A2`")
    spec = _Spec(_operator(op_tok), _integer(target_tok, "a target"), op_tok, target_tok)
    if not cell_toks:
        raise op_tok.end().error("expected the cage's cells, such as A1 A2")
    spec.cells, spec.cell_toks = [_named_cell(tok, n) for tok in cell_toks], cell_toks
    return spec


def _named_cell(tok: Token, n: int) -> Cell:
    """The cell written as column letter and row number, such as `B3` for (2, 1)."""
    m = _CELL_NAME.fullmatch(tok.text)
    r, c = ((integer_of(tok.part(1)) or 0) - 1, ord(m[1].upper()) - ord("A")) if m else (-1, -1)
    if not (0 <= r < n and 0 <= c < n):
        raise tok.error(f"{tok.text!r} is not a cell of the {n}x{n} grid (column A-{chr(64 + n)}, row 1-{n})")
    return r, c


# ---- reading: json -------------------------------------------------------------------------

MAX_JSON_DEPTH = 8
"""The deepest nesting of arrays and objects read: a cage file needs 5 ({"cages": [{"cells": [[r, c]]}]})."""
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
_JSON_SPACE = re.compile(r"\s*")
_LINES_AND_ENDS = re.compile(f"({LINE_BREAK.pattern})")


def _read_json_stream(text: str, path: str) -> list[Entry]:
    """Every JSON value in `text`, one after another (a cage file or a grid each), one Entry each.

    `#` comment lines are blanked first (offsets kept), and nesting deeper than MAX_JSON_DEPTH is refused
    before decoding, so that json never recurses past it. Linear in the length of the text.
    """
    text = _blank_comments(text)
    where = Locator(text, path)
    deep = _too_deep(text)
    if deep is not None:
        culprit = where.token(deep)
        message = f"JSON nested more than {MAX_JSON_DEPTH} deep; a puzzle needs at most 5"
        return [Entry(culprit.line, error=culprit.error(message))]
    entries: list[Entry] = []
    decoder = json.JSONDecoder(parse_int=_bounded_int)
    i = _JSON_SPACE.match(text).end()  # type: ignore[union-attr]
    while i < len(text):
        start = where.token(i)
        try:
            data, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError as e:
            return [*entries, Entry(where.token(e.pos).line, error=where.token(e.pos).error(e.msg))]
        except _LongNumber as e:
            culprit = where.token(text.find(e.digits, i))
            return [*entries, Entry(culprit.line, error=number_too_long(culprit, len(e.digits.lstrip("-"))))]
        entries.append(entry_from(start.line, path, partial(_json_puzzle, data, where, i, end)))
        i = _JSON_SPACE.match(text, end).end()  # type: ignore[union-attr]
    return entries or empty_input(path)


def _blank_comments(text: str) -> str:
    """`text` with every `#` comment line turned into spaces, so that offsets, lines and columns stay."""
    parts = _LINES_AND_ENDS.split(text)  # lines at even indices, their ends at odd ones
    return "".join(" " * len(p) if i % 2 == 0 and p.lstrip().startswith("#") else p for i, p in enumerate(parts))


def _too_deep(text: str) -> int | None:
    """The offset of the first bracket nested deeper than MAX_JSON_DEPTH, strings skipped; None if there is none."""
    depth = 0
    for m in _JSON_TOKEN.finditer(text):
        bracket = m[0]
        if bracket in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return m.start()
        elif bracket in "]}":
            depth -= 1
    return None


def _json_puzzle(data: object, where: Locator, lo: int, hi: int) -> GridPuzzle:
    """The puzzle of one JSON value text[lo:hi]: {"size": n, "cages": [{"cells", "op", "target"}, ...]} or a grid."""
    top, text = where.token(lo), where.text
    name = f"{where.path}:{top.line}"
    if isinstance(data, dict) and "grid" in data and "cages" not in data:
        return puzzle_from_json(data, top, name)
    if not isinstance(data, dict) or not isinstance(data.get("cages"), list):
        raise top.error('expected an object {"size": n, "cages": [...]}')
    size_tok = _key(where, "size", lo, hi) or top
    n = data.get("size")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise size_tok.error(f'"size" must be a positive integer, not {json.dumps(n)}')
    error = order_error(size_tok, n)
    if error:
        raise error
    offsets = _json_items(text, "cages", lo, hi)
    if len(offsets) != len(data["cages"]):  # "cages" found elsewhere first: blame the top of the value
        offsets = [(lo, hi)] * len(data["cages"])
    specs = [_json_spec(k, item, n, where, offsets[k - 1]) for k, item in enumerate(data["cages"], start=1)]
    return _assemble(n, specs, size_tok, name)


class _LongNumber(Exception):
    """A JSON number with more than MAX_DIGITS digits."""

    def __init__(self, digits: str) -> None:
        super().__init__(digits)
        self.digits = digits


def _bounded_int(digits: str) -> int:
    """A JSON integer, refused (_LongNumber) past MAX_DIGITS digits: int() of a long one is slow or refused."""
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _LongNumber(digits)
    return int(digits)


def _json_spec(k: int, item: object, n: int, where: Locator, span: tuple[int, int]) -> _Spec:
    """Cage k from its JSON object, blaming each key's position in the text."""
    here = where.token(span[0])
    if not isinstance(item, dict):
        raise here.error(f"cage {k}: expected an object with cells, op and target")
    op_tok, target_tok, cells_tok = (_key(where, key, *span) or here for key in ("op", "target", "cells"))
    target = item.get("target")
    if isinstance(target, bool) or not isinstance(target, int):
        raise target_tok.error(f'cage {k}: "target" must be an integer, not {json.dumps(target)}')
    op = item.get("op")
    if op not in (None, ""):
        op = _operator(op_tok.with_text(op if isinstance(op, str) else json.dumps(op)))
    cells = item.get("cells")
    if not isinstance(cells, list) or not cells:
        raise cells_tok.error(f'cage {k}: "cells" must be a non-empty list of [row, column] pairs')
    spec = _Spec(op or None, target, op_tok, target_tok)
    spec.cells, spec.cell_toks = [_json_cell(k, cell, n, cells_tok) for cell in cells], [cells_tok] * len(cells)
    return spec


def _json_cell(k: int, cell: object, n: int, tok: Token) -> Cell:
    """A 0-based [row, column] pair inside the n x n grid."""
    ok = isinstance(cell, list) and len(cell) == 2 and all(type(v) is int and 0 <= v < n for v in cell)
    if not ok:
        raise tok.error(f"cage {k}: cell {json.dumps(cell)} is not a [row, column] pair in 0..{n - 1}")
    return cell[0], cell[1]  # type: ignore[index]


def _key(where: Locator, key: str, lo: int, hi: int) -> Token | None:
    """The position of the first `"key":` in text[lo:hi], or None."""
    m = re.compile(rf'"{key}"\s*:').search(where.text, lo, hi)
    return where.token(m.start()) if m else None


def _json_items(text: str, key: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """The (start, end) offsets of the items of the array under the first `"key":` in text[lo:hi], valid JSON."""
    m = re.compile(rf'"{key}"\s*:\s*\[').search(text, lo, hi)
    decoder, spans, i = json.JSONDecoder(), [], m.end() if m else hi
    while m and i < hi:
        i = _JSON_SPACE.match(text, i).end()  # type: ignore[union-attr]
        if text[i : i + 1] == "]":
            break
        try:
            _, end = decoder.raw_decode(text, i)
        except ValueError:
            return []
        spans.append((i, end))
        i = _JSON_SPACE.match(text, end).end()  # type: ignore[union-attr]
        i += text[i : i + 1] == ","
    return spans


# ---- reading: oneline ----------------------------------------------------------------------


@dataclass(frozen=True)
class OnelineRecord:
    """One line of a oneline file: the puzzle (or its error) with the id, difficulty, count and solution fields."""

    entry: Entry
    ident: str
    difficulty: str | None = None
    count: int | None = None
    solution: tuple[int, ...] | None = None


_CAGE_TOKEN = re.compile(r"([0-9]+)([^0-9@]*)@(.*)")


def read_oneline_records(text: str, path: str = "<input>") -> list[OnelineRecord]:
    """Every line of a oneline file as an OnelineRecord, one bad line not stopping the rest."""
    return [_oneline_record(path, k, line) for k, line in content_lines(text)]


def _oneline_record(path: str, k: int, line: str) -> OnelineRecord:
    """One line's record; the count and solution are None when absent, empty or unreadable."""
    entry = entry_from(k, path, partial(_parse_oneline, path, k, line))
    parts = line.split(":")
    difficulty = parts[2].strip() if len(parts) > 2 else None
    return OnelineRecord(entry, parts[0].strip(), difficulty, entry.claimed_count, entry.claimed_solution)


def _parse_oneline(path: str, k: int, line: str) -> Entry:
    """The puzzle of `<id>:<n>:<difficulty>:<cages>[:<count>[:<solution>]]`, with its count and solution as claims."""
    found = fields(path, k, line)
    if len(found) < 4:
        raise Token("", path, k, len(line) + 1, line).error(
            f"expected <id>:<n>:<difficulty>:<cages>[:<count>[:<solution>]], found {len(found)} field(s)"
        )
    if len(found) > 6:
        raise found[6].error("expected at most 6 fields: <id>:<n>:<difficulty>:<cages>:<count>:<solution>")
    n = _order(found[1])
    lo = found[3].column - 1
    specs = [_oneline_spec(tok, n) for tok in tokens(path, k, line, r"\S+", lo, lo + len(found[3].text))]
    puzzle = _assemble(n, specs, found[1], found[0].text or f"{path}:{k}")
    count = _integer(found[4], "a solution count") if len(found) > 4 and found[4].text else None
    solution = solution_values(found[5], n) if len(found) > 5 and found[5].text else None
    return Entry(k, puzzle, claimed_count=count, claimed_solution=solution)


def _oneline_spec(tok: Token, n: int) -> _Spec:
    """One cage from `<target><op>@<cell>,<cell>,...` with 0-based cells; no operator means hidden."""
    m = _CAGE_TOKEN.fullmatch(tok.text)
    if not m:
        raise tok.error(f"expected a cage such as 13+@24,30,31, found {tok.text!r}")
    target_tok, op_tok = tok.part(0, m.end(1)), tok.part(m.start(2), m.end(2))
    op = _operator(op_tok) if m[2] else None
    spec = _Spec(op, _integer(target_tok, "a target"), op_tok if m[2] else target_tok, target_tok)
    start = m.start(3)
    for part in m[3].split(","):
        cell_tok = tok.part(start, start + len(part))
        spec.cells.append(_cell_index(cell_tok, n, 0))
        spec.cell_toks.append(cell_tok)
        start += len(part) + 1
    return spec


# ---- reading: entry points -----------------------------------------------------------------

_READERS: dict[str, Callable[[Lines, str], GridPuzzle]] = {
    "cagelist": _read_cagelist,
    "lettergrid": _read_lettergrid,
    "indexgrid": _read_indexgrid,
    "cellnames": _read_cellnames,
}


def read_text(text: str, path: str = "<input>", fmt: str = "auto") -> list[Entry]:
    """Every puzzle in `text` as an Entry (iter_text, as a list)."""
    return list(iter_text(text, path, fmt))


def iter_text(text: str, path: str = "<input>", fmt: str = "auto") -> Iterator[Entry]:
    """Every puzzle in `text` as an Entry: oneline one a line, json one a value, the others one a `---` section."""
    content = content_lines(text)
    if not content:
        yield from empty_input(path)
        return
    first = content[0][0]
    if fmt == "auto":
        fmt = detect(text) or ""
        if not fmt:
            yield Entry(first, error=ParseError("not a Mathdoku file in any known format", path=path, line=first))
            return
    if fmt == "oneline":
        yield from (_oneline_record(path, k, line).entry for k, line in content)
    elif fmt == "json":
        yield from _read_json_stream(text, path)
    elif fmt in _READERS:
        read, parts = _READERS[fmt], sections(content)
        yield from (entry_from(lines[0][0], path, partial(read, lines, path)) for lines in parts)
        if not parts:
            yield from empty_input(path)
    else:
        raise CpModelsError(f"unknown Mathdoku format {fmt!r}; choose one of: auto, {', '.join(FORMATS)}")


def read_puzzle(text: str, path: str = "<input>", fmt: str = "auto") -> GridPuzzle:
    """The single puzzle in `text`; raises its error, or a ParseError if the text holds several puzzles."""
    entries = read_text(text, path, fmt)
    if entries[0].error:
        raise entries[0].error
    if len(entries) > 1:
        raise ParseError(f"expected one puzzle, found {len(entries)}", path=path, line=entries[1].line)
    if entries[0].puzzle is None:
        raise ParseError("no puzzle found", path=path, line=entries[0].line)
    return entries[0].puzzle


_OP_CHARS = "+-*/=" + "".join(OPERATOR_ALIASES)
_JSON_KEYS = re.compile(r'"(cages|size)"')


def sniff_json(lines: list[str]) -> bool:
    """Whether the content lines are a JSON object with a "cages" or "size" key."""
    return bool(lines) and lines[0].startswith("{") and any(_JSON_KEYS.search(ln) for ln in lines)


def sniff_oneline(lines: list[str]) -> bool:
    """Whether the first content line is `<id>:<n>:<difficulty>:<cages>...` with `@` in its cages."""
    parts = lines[0].split(":") if lines else []
    return len(parts) >= 4 and not lines[0].startswith("{") and parts[1].strip().isdigit() and "@" in parts[3]


def sniff_lettergrid(lines: list[str]) -> bool:
    """Whether the first content line is a row of n cage letters or givens, the line after n rows a legend `a: 5+`."""
    n = len(re.findall(r"\S", lines[0])) if lines and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 \t]*", lines[0]) else 0
    return 0 < n < len(lines) and re.match(r"[A-Za-z]\s*:", lines[n]) is not None


def sniff_indexgrid(lines: list[str]) -> bool:
    """Whether the content lines start with `n k` and a row of indices, and some line is `index op target`."""
    head = lines[0].split() if len(lines) > 1 else []
    if len(head) != 2 or not all(t.isdigit() for t in head) or not all(t.isdigit() for t in lines[1].split()):
        return False
    return any(re.fullmatch(rf"\d+\s+[{re.escape(_OP_CHARS)}]\s+\d+", ln) for ln in lines[1:])


def sniff_cagelist(lines: list[str]) -> bool:
    """Whether the content lines are the order, then a cage `op target count cell...`."""
    toks = lines[1].split() if len(lines) > 1 and lines[0].isdigit() else []
    return len(toks) >= 3 and len(toks[0]) == 1 and toks[0] in _OP_CHARS


def sniff_cellnames(lines: list[str]) -> bool:
    """Whether the content lines are the order, then a cage `target op A1 B1 ...`."""
    toks = lines[1].split() if len(lines) > 1 and lines[0].isdigit() else []
    return len(toks) >= 2 and bool(re.fullmatch(r"[0-9]+\S*", toks[0]) and _CELL_NAME.fullmatch(toks[-1]))


SNIFFERS: dict[str, Callable[[list[str]], bool]] = {
    "json": sniff_json,
    "oneline": sniff_oneline,
    "lettergrid": sniff_lettergrid,
    "indexgrid": sniff_indexgrid,
    "cagelist": sniff_cagelist,
    "cellnames": sniff_cellnames,
}
"""Each format's detector, in the order detect() tries them."""


def detect(text: str) -> str | None:
    """The Mathdoku format `text` is written in, or None if it is not a Mathdoku file (a Sudoku, say)."""
    lines = [ln.strip() for _, ln in content_lines(text)]
    return next((fmt for fmt, sniff in SNIFFERS.items() if sniff(lines)), None)


# ---- writing -------------------------------------------------------------------------------


def write(puzzle: GridPuzzle, fmt: str) -> str:
    """The text of `puzzle` in format `fmt`; CpModelsError if the format cannot express it."""
    if fmt not in _WRITERS:
        raise CpModelsError(f"unknown Mathdoku format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    _check_writable(puzzle)
    if fmt not in HIDDEN_CAPABLE:
        hidden = [k for k, cage in enumerate(puzzle.cages, start=1) if cage.op is None]
        if hidden:
            raise CpModelsError(
                f"the {fmt} format cannot write hidden operators (cage {hidden[0]}); use {', '.join(HIDDEN_CAPABLE)}"
            )
    return _WRITERS[fmt](puzzle)


def _check_writable(puzzle: GridPuzzle) -> None:
    """Raise CpModelsError unless `puzzle` is a Mathdoku: Latin units, no givens, every cell in a cage."""
    n = puzzle.n
    if puzzle.units != latin_units(n) or any(puzzle.givens):
        raise CpModelsError("only a Mathdoku (rows and columns as units, no givens outside cages) can be written")
    missing = first_uncovered(n, {cell for cage in puzzle.cages for cell in cage.cells})
    if missing:
        raise CpModelsError(f"cannot write a Mathdoku with a cell in no cage: {cell_name(*missing)}")


def _op_text(cage: Cage) -> str:
    """The operator as written, `=` for a single cell."""
    return "=" if len(cage.cells) == 1 and cage.op in ("=", None) else cage.op or ""


def _write_cagelist(puzzle: GridPuzzle) -> str:
    """`n`, then `op target count cell...` lines with 1-based cells, then `$`."""
    n = puzzle.n
    lines = [str(n)]
    for cage in puzzle.cages:
        cells = " ".join(str(r * n + c + 1) for r, c in cage.cells)
        lines.append(f"{_op_text(cage)} {cage.target} {len(cage.cells)} {cells}")
    return "\n".join([*lines, "$"]) + "\n"


def _write_lettergrid(puzzle: GridPuzzle) -> str:
    """Rows of cage letters (digits for givens 1-9), a blank line, and `a: 12*` legend lines."""
    n = puzzle.n
    lettered = [cage for cage in puzzle.cages if not (_op_text(cage) == "=" and cage.target <= 9)]
    if len(lettered) > len(LETTERS):
        have, need = len(LETTERS), len(lettered)
        raise CpModelsError(f"the lettergrid format has {have} cage letters, but this puzzle needs {need}")
    letter = {id(cage): LETTERS[i] for i, cage in enumerate(lettered)}
    grid = [["?"] * n for _ in range(n)]
    for cage in puzzle.cages:
        for r, c in cage.cells:
            grid[r][c] = letter.get(id(cage), str(cage.target))
    legend = [f"{letter[id(cage)]}: {cage.target}{'' if _op_text(cage) == '=' else cage.op or ''}" for cage in lettered]
    return "\n".join(["".join(row) for row in grid] + [""] + legend) + "\n"


def _write_indexgrid(puzzle: GridPuzzle) -> str:
    """`n k`, rows of cage indices, and `index op target` lines (a given written `+`, as mathdoku-solver does)."""
    n, k = puzzle.n, len(puzzle.cages)
    index = {cell: i for i, cage in enumerate(puzzle.cages) for cell in cage.cells}
    width = len(str(k - 1))
    rows = [" ".join(str(index[(r, c)]).rjust(width) for c in range(n)) for r in range(n)]
    defs = [f"{i} {'+' if cage.op == '=' else cage.op} {cage.target}" for i, cage in enumerate(puzzle.cages)]
    return "\n".join([f"{n} {k}", *rows, *defs]) + "\n"


def _write_cellnames(puzzle: GridPuzzle) -> str:
    """`n`, then `target op A1 B1 ...` lines."""
    if puzzle.n > 26:
        raise CpModelsError(f"the cellnames format has column letters A-Z, so orders up to 26, not {puzzle.n}")
    lines = [str(puzzle.n)]
    for cage in puzzle.cages:
        cells = " ".join(f"{chr(65 + c)}{r + 1}" for r, c in cage.cells)
        lines.append(f"{cage.target} {_op_text(cage)} {cells}")
    return "\n".join(lines) + "\n"


def _write_json(puzzle: GridPuzzle) -> str:
    """{"size": n, "cages": [...]}, one cage a line, 0-based [row, column] cells, op null when hidden."""
    cages = [
        json.dumps({"cells": [list(cell) for cell in cage.cells], "op": cage.op, "target": cage.target})
        for cage in puzzle.cages
    ]
    return f'{{"size": {puzzle.n}, "cages": [\n  ' + ",\n  ".join(cages) + "\n]}\n"


def format_oneline(
    puzzle: GridPuzzle, count: int | None = None, solution: Sequence[int] | None = None, difficulty: str = "-"
) -> str:
    """The oneline form `<id>:<n>:<difficulty>:<cages>[:<count>[:<solution>]]`, the id from the puzzle's name."""
    n = puzzle.n
    ident = re.sub(r"[\s:]+", "_", puzzle.name) or "puzzle"
    cages = " ".join(f"{c.target}{_op_text(c)}@{','.join(str(r * n + q) for r, q in c.cells)}" for c in puzzle.cages)
    fields = [ident, str(n), difficulty or "-", cages]
    if count is not None or solution is not None:
        fields.append("" if count is None else str(count))
    if solution is not None:
        fields.append("".join(map(str, solution)) if n <= 9 else ",".join(map(str, solution)))
    return ":".join(fields)


_WRITERS: dict[str, Callable[[GridPuzzle], str]] = {
    "cagelist": _write_cagelist,
    "lettergrid": _write_lettergrid,
    "indexgrid": _write_indexgrid,
    "oneline": lambda puzzle: format_oneline(puzzle) + "\n",
    "cellnames": _write_cellnames,
    "json": _write_json,
}


# ---- drawing -------------------------------------------------------------------------------


def format_solution(puzzle: GridPuzzle, grid: Sequence[int] | None = None) -> str:
    """The puzzle drawn as text: walls between cages, each cage's label in its first cell, `grid`'s values if given."""
    n = puzzle.n
    owner = {cell: k for k, cage in enumerate(puzzle.cages) for cell in cage.cells}
    labels = {cage.cells[0]: cage.label() for cage in puzzle.cages}
    width = max([len(s) for s in labels.values()] + [len(str(n)), 2]) + 1
    out = [_wall_line(owner, n, 0, width)]
    for r in range(n):
        out.append(_cell_line(owner, r, [labels.get((r, c), "").ljust(width) for c in range(n)]))
        if grid is not None:
            out.append(_cell_line(owner, r, [str(grid[r * n + c] or ".").center(width) for c in range(n)]))
        out.append(_wall_line(owner, n, r + 1, width))
    return "\n".join(out)


def _cell_line(owner: dict[Cell, int], r: int, texts: list[str]) -> str:
    """One text line of row r: each cell's text, `|` between cells of different cages."""
    parts = ["|"]
    for c, text in enumerate(texts):
        parts.append(text)
        parts.append("|" if c == len(texts) - 1 or owner.get((r, c)) != owner.get((r, c + 1)) else " ")
    return "".join(parts)


def _wall_line(owner: dict[Cell, int], n: int, r: int, width: int) -> str:
    """The line above row r: `-` under cells whose cage differs from the cell above, `+` where walls meet."""

    def split(r1: int, c1: int, r2: int, c2: int) -> bool:
        inside = 0 <= r1 < n and 0 <= c1 < n and 0 <= r2 < n and 0 <= c2 < n
        return not inside or owner.get((r1, c1)) != owner.get((r2, c2))

    parts = []
    for c in range(n + 1):
        walls = (
            split(r - 1, c - 1, r, c - 1) and c > 0,
            split(r - 1, c, r, c) and c < n,
            split(r - 1, c - 1, r - 1, c) and r > 0,
            split(r, c - 1, r, c) and r < n,
        )
        parts.append("+" if any(walls) else " ")
        if c < n:
            parts.append(("-" if split(r - 1, c, r, c) else " ") * width)
    return "".join(parts)
