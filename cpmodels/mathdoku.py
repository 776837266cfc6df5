"""Mathdoku / KenKen: validated puzzles, six text formats, hidden operators, drawings and planted puzzles.

Formats (names in FORMATS; read with read_text / read_puzzle, detected with detect, written with write):
  cagelist    `n`, then one cage a line `op target count cell...`, cells 1..n*n row-major, optional `$` to end
  lettergrid  kenken-rs `.ken`: n rows of cage letters (a digit is a given), then legend lines `a: 12*`
  indexgrid   mathdoku-solver: `n k`, n rows of cage indices 0..k-1, then `index op target` lines
  oneline     cpmodels data, one puzzle a line: `<id>:<n>:<difficulty>:<cages>[:<count>[:<solution>]]`,
              cages as `<target><op>@<cell>,<cell>,...` with 0-based cells r*n + c
  cellnames   `n`, then one cage a line `target op A1 B1 ...` (column letter, row number)
  json        {"size": n, "cages": [{"cells": [[r, c], ...], "op": "+", "target": 11}, ...]}, 0-based
`#` starts a comment line; blank lines are ignored. Operators read: + - * / = and the aliases x × ÷.
Hidden operators (op None) are written by json (null), oneline and lettergrid (the operator left out).

Every puzzle built here is canonical: cells sorted within each cage, cages sorted by their first cell,
and a single-cell cage (+, * or hidden) is a given, op `=`. So read(write(p)) == p for every format.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from math import prod
from typing import NamedTuple

from . import cages as cage_rules
from .errors import CpModelsError, ParseError, PuzzleError
from .formats import Entry, content_lines, entry_from
from .grid import Cage, Cell, GridPuzzle, cell_name, cells_named, latin_units

FORMATS = ("cagelist", "lettergrid", "indexgrid", "oneline", "cellnames", "json")
"""The Mathdoku text formats, by name."""
OPERATOR_ALIASES = {"x": "*", "X": "*", "×": "*", "÷": "/", "−": "-"}
"""Other spellings of operators accepted on reading."""
LETTERS = string.ascii_lowercase + string.ascii_uppercase
"""Cage letters of the lettergrid format, in the order the writer assigns them."""
HIDDEN_CAPABLE = ("json", "oneline", "lettergrid")
CHECK_LIMIT = 10**8
"""Cages with more candidate tuples than this (n ** cells) are taken as reachable without a search."""


# ---- building and checking -----------------------------------------------------------------


def mathdoku_puzzle(n: int, cages: Iterable[Cage], name: str = "") -> GridPuzzle:
    """The canonical order-n Mathdoku of `cages`; PuzzleError unless each cell is in one cage and targets reachable."""
    given = tuple(_as_given(cage) for cage in cages)
    GridPuzzle(n, latin_units(n), (0,) * (n * n), given)  # cells outside the grid, in two cages, bad arity
    for k, cage in enumerate(given, start=1):
        problem = _target_problem(k, cage, n)
        if problem:
            raise PuzzleError(problem)
    missing = _uncovered(n, {cell for cage in given for cell in cage.cells})
    if missing:
        raise PuzzleError(f"{cell_name(*missing)} is in no cage")
    return _canonical(n, given, name)


def disconnected_cages(puzzle: GridPuzzle) -> list[int]:
    """The 1-based numbers of the cages whose cells are not orthogonally connected."""
    return [k for k, cage in enumerate(puzzle.cages, start=1) if not _is_connected(cage.cells)]


def _is_connected(cells: Sequence[Cell]) -> bool:
    """Whether `cells` form one orthogonally connected region."""
    todo, seen = [cells[0]], {cells[0]}
    members = set(cells)
    while todo:
        r, c = todo.pop()
        for step in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if step in members and step not in seen:
                seen.add(step)
                todo.append(step)
    return len(seen) == len(members)


def _as_given(cage: Cage) -> Cage:
    """The cage with integer tuple cells; a single-cell +, * or hidden cage becomes `=` (they mean the same)."""
    cells = tuple((int(r), int(c)) for r, c in cage.cells)
    op = "=" if len(cells) == 1 and cage.op in ("+", "*", None) else cage.op
    return Cage(cells, op, cage.target)


def _canonical(n: int, cages: Iterable[Cage], name: str) -> GridPuzzle:
    """The Mathdoku with cells sorted within each cage and cages sorted by their first cell."""
    ordered = sorted((Cage(tuple(sorted(c.cells)), c.op, c.target) for c in cages), key=lambda c: c.cells[0])
    return GridPuzzle(n, latin_units(n), (0,) * (n * n), tuple(ordered), name)


def _uncovered(n: int, covered: set[Cell]) -> Cell | None:
    """The first cell, row-major, that is not in `covered`."""
    return next(((r, c) for r in range(n) for c in range(n) if (r, c) not in covered), None)


def _arity_problem(k: int, cage: Cage) -> str | None:
    """Why cage k has the wrong number of cells for its operator, in GridPuzzle's words, or None."""
    if cage.op in ("-", "/") and len(cage.cells) != 2:
        return f"cage {k} ({cells_named(cage.cells)}): '{cage.op}' needs exactly 2 cells"
    if cage.op == "=" and len(cage.cells) != 1:
        return f"cage {k} ({cells_named(cage.cells)}): '=' needs exactly 1 cell"
    return None


def _target_problem(k: int, cage: Cage, n: int) -> str | None:
    """Why no values 1..n can meet cage k (numbered 1-based), or None when some can."""
    if _reachable(cage.cells, cage.op, cage.target, n):
        return None
    where = f"cage {k} ({cells_named(cage.cells)})"
    if cage.op == "=":
        return f"{where}: {cage.target} is not a value in 1..{n}"
    count = "two" if len(cage.cells) == 2 else str(len(cage.cells))
    if cage.op is None:
        return f"{where}: no {count} values in 1..{n} make {cage.target} with any operator"
    return f"{where}: no {count} values in 1..{n} have {cage_rules.OPERATOR_WORDS[cage.op]} {cage.target}"


def _reachable(cells: Sequence[Cell], op: str | None, target: int, n: int) -> bool:
    """Whether the cage allows some tuple; assumed so for cages too large to search (left to the solver)."""
    return n ** len(cells) > CHECK_LIMIT or cage_rules.has_allowed_tuple(cells, op, target, n)


# ---- hidden operators ----------------------------------------------------------------------


def hide_operators(puzzle: GridPuzzle) -> GridPuzzle:
    """The same puzzle with the operator of every cage of 2+ cells hidden (op None); givens stay `=`."""
    cages = tuple(Cage(c.cells, None if len(c.cells) > 1 else c.op, c.target) for c in puzzle.cages)
    return GridPuzzle(puzzle.n, puzzle.units, puzzle.givens, cages, puzzle.name)


def ambiguous_cages(puzzle: GridPuzzle) -> list[tuple[int, tuple[str, ...]]]:
    """The 1-based cages of 2+ cells whose target some values meet under several operators, with those operators."""
    found = []
    for k, cage in enumerate(puzzle.cages, start=1):
        ops = tuple(op for op in cage_rules.operators_for(len(cage.cells)) if _reachable(cage.cells, op, cage.target, puzzle.n))
        if len(ops) > 1:
            found.append((k, ops))
    return found


# ---- reading: shared machinery -------------------------------------------------------------


class _Tok(NamedTuple):
    """A token of input text: where it is (1-based line and column), its text and its whole line."""

    path: str
    line: int
    col: int
    text: str
    source: str

    def error(self, message: str) -> ParseError:
        """A ParseError located at this token."""
        return ParseError(message, path=self.path, line=self.line, column=self.col, text=self.source)

    def end(self) -> _Tok:
        """An empty token just after this one, to blame what is missing."""
        return self._replace(col=self.col + len(self.text), text="")


@dataclass
class _Spec:
    """A cage as read, with the tokens to blame for its operator, its target and each of its cells."""

    op: str | None
    target: int
    op_tok: _Tok
    target_tok: _Tok
    cells: list[Cell] = field(default_factory=list)
    cell_toks: list[_Tok] = field(default_factory=list)


def _tokens(path: str, k: int, line: str, lo: int = 0, hi: int | None = None, pattern: str = r"\S+") -> list[_Tok]:
    """The tokens matching `pattern` in line[lo:hi] of line number k."""
    found = re.compile(pattern).finditer(line, lo, len(line) if hi is None else hi)
    return [_Tok(path, k, m.start() + 1, m[0], line) for m in found]


def _content(text: str, path: str) -> list[list[_Tok]]:
    """The whitespace-separated tokens of each line that is neither blank nor a `#` comment."""
    return [_tokens(path, k, line) for k, line in content_lines(text)]


def _integer(tok: _Tok, what: str) -> int:
    """The non-negative integer written by `tok`, or a ParseError naming `what` was expected."""
    if not re.fullmatch(r"[0-9]+", tok.text):
        raise tok.error(f"expected {what}, found {tok.text!r}" if tok.text else f"expected {what}")
    return int(tok.text)


def _order(tok: _Tok) -> int:
    """The order n written by `tok`, at least 1."""
    n = _integer(tok, "the order n (a positive integer)")
    if n < 1:
        raise tok.error(f"the order must be at least 1, not {n}")
    return n


def _operator(tok: _Tok) -> str:
    """The operator written by `tok`, aliases resolved."""
    op = OPERATOR_ALIASES.get(tok.text, tok.text)
    if op not in cage_rules.OPERATORS:
        raise tok.error(f"unknown operator {tok.text!r} (use + - * / =, or x × ÷)")
    return op


def _only(tokens: list[_Tok], what: str) -> _Tok:
    """The single token of a line that should hold only `what`."""
    if len(tokens) > 1:
        raise tokens[1].error(f"expected only {what} on this line, found {tokens[1].text!r}")
    return tokens[0]


def _cell_index(tok: _Tok, n: int, base: int) -> Cell:
    """The cell of a row-major index numbered from `base` (0 or 1)."""
    v = _integer(tok, "a cell number")
    if not base <= v < n * n + base:
        raise tok.error(f"cell {v} is outside {base}..{n * n - 1 + base}")
    return divmod(v - base, n)


def _assemble(n: int, specs: list[_Spec], order_tok: _Tok, name: str) -> GridPuzzle:
    """The canonical puzzle of `specs`, every problem blamed on the token that caused it."""
    owner: dict[Cell, int] = {}
    cages = []
    for k, spec in enumerate(specs, start=1):
        for cell, tok in zip(spec.cells, spec.cell_toks):
            if cell in owner:
                where = f"appears twice in cage {k}" if owner[cell] == k else f"is in cages {owner[cell]} and {k}"
                raise tok.error(f"{cell_name(*cell)} {where}")
            owner[cell] = k
        cage = _as_given(Cage(tuple(spec.cells), spec.op, spec.target))
        problem = _arity_problem(k, cage)
        if problem:
            raise spec.op_tok.error(problem)
        problem = _target_problem(k, cage, n)
        if problem:
            raise spec.target_tok.error(problem)
        cages.append(cage)
    missing = _uncovered(n, set(owner))
    if missing:
        raise order_tok.error(f"{cell_name(*missing)} is in no cage")
    return _canonical(n, cages, name)


# ---- reading: cagelist ---------------------------------------------------------------------


def _read_cagelist(text: str, path: str) -> GridPuzzle:
    """A puzzle from `n` and `op target count cell...` lines (cells 1..n*n), optionally ended by `$`."""
    lines = _content(text, path)
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
    return _assemble(n, specs, order_tok, path)


def _cagelist_spec(toks: list[_Tok], n: int) -> _Spec:
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
_Legend = dict[str, tuple[_Tok, _Tok, str | None]]


def _read_lettergrid(text: str, path: str) -> GridPuzzle:
    """A puzzle from n rows of n cage letters (a digit is a given) and `a: 12*` legend lines."""
    lines = content_lines(text)
    n = len(re.findall(r"\S", lines[0][1]))  # one character a cell; spaces between them are allowed
    order_tok = _tokens(path, *lines[0])[0]
    groups: dict[str, list[tuple[Cell, _Tok]]] = {}
    for r in range(n):
        if r >= len(lines) or ":" in lines[r][1]:
            k, line = lines[min(r, len(lines) - 1)]
            raise _Tok(path, k, 1, line, line).error(f"the grid has {r} rows, but its first row has {n} cells")
        for c, tok in enumerate(_grid_row(path, *lines[r], n, r)):
            key = tok.text if tok.text in LETTERS else f"{r},{c}"
            groups.setdefault(key, []).append(((r, c), tok))
    legend = _legend(path, lines[n:], groups)
    specs = [_letter_spec(key, cells, legend) for key, cells in groups.items()]
    return _assemble(n, specs, order_tok, path)


def _grid_row(path: str, k: int, line: str, n: int, r: int) -> list[_Tok]:
    """The n one-character tokens of grid row r, each a cage letter or a digit."""
    toks = _tokens(path, k, line, pattern=r"\S")
    if len(toks) != n:
        culprit = toks[n] if len(toks) > n else toks[-1].end()
        raise culprit.error(f"grid row {r + 1} has {len(toks)} cells, but the first row has {n}")
    for tok in toks:
        if tok.text not in LETTERS and tok.text not in string.digits:
            raise tok.error(f"{tok.text!r} is not a cage letter (use a-z, A-Z, or a digit for a given)")
    return toks


def _legend(path: str, lines: list[tuple[int, str]], groups: dict[str, list[tuple[Cell, _Tok]]]) -> _Legend:
    """Each legend letter's (target token, operator token, operator) from `a: 12*` lines."""
    legend: _Legend = {}
    for k, line in lines:
        m = _LEGEND.fullmatch(line)
        if not m:
            raise _Tok(path, k, 1, line, line).error("expected a legend line such as `a: 12*`")
        key, target, op = (_Tok(path, k, m.start(g) + 1, m[g], line) for g in (1, 2, 3))
        if len(key.text) != 1 or key.text not in LETTERS:
            raise key.error(f"legend key {key.text!r} is not a single letter")
        if key.text not in groups:
            raise key.error(f"legend letter {key.text!r} is not used in the grid")
        if key.text in legend:
            raise key.error(f"legend letter {key.text!r} is defined twice (first on line {legend[key.text][0].line})")
        _integer(target, "a target after ':'")
        legend[key.text] = (target, op, _operator(op) if op.text else None)
    return legend


def _letter_spec(key: str, cells: list[tuple[Cell, _Tok]], legend: _Legend) -> _Spec:
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


def _read_indexgrid(text: str, path: str) -> GridPuzzle:
    """A puzzle from `n k`, n rows of cage indices 0..k-1 and `index op target` lines (mathdoku-solver)."""
    lines = _content(text, path)
    head = lines[0]
    if len(head) != 2:
        raise (head[2] if len(head) > 2 else head[0].end()).error("expected `n k`: the order and the number of cages")
    n, k = _order(head[0]), _integer(head[1], "the number of cages")
    if k < 1:
        raise head[1].error("the number of cages must be at least 1")
    if len(lines) < n + 1:
        raise lines[-1][-1].end().error(f"the grid has {len(lines) - 1} rows, but the order is {n}")
    cells: dict[int, list[tuple[Cell, _Tok]]] = {}
    for r, toks in enumerate(lines[1 : n + 1]):
        for c, tok in enumerate(_index_row(toks, n, k, r)):
            cells.setdefault(int(tok.text), []).append(((r, c), tok))
    defs = _index_definitions(lines[n + 1 :], k)
    specs = [_index_spec(i, cells.get(i, []), defs, head[1]) for i in range(k)]
    return _assemble(n, specs, head[0], path)


def _index_row(toks: list[_Tok], n: int, k: int, r: int) -> list[_Tok]:
    """The n cage-index tokens of grid row r, each checked to be in 0..k-1."""
    if len(toks) != n:
        culprit = toks[n] if len(toks) > n else toks[-1].end()
        raise culprit.error(f"grid row {r + 1} has {len(toks)} cells, but the order is {n}")
    for tok in toks:
        if _integer(tok, f"a cage index 0..{k - 1}") >= k:
            raise tok.error(f"cage index {tok.text} is outside 0..{k - 1} (the first line says {k} cages)")
    return toks


def _index_definitions(lines: list[list[_Tok]], k: int) -> dict[int, tuple[_Tok, _Tok, _Tok]]:
    """The (index, operator, target) tokens of each `index op target` line, by cage index."""
    defs: dict[int, tuple[_Tok, _Tok, _Tok]] = {}
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


def _index_spec(i: int, cells: list[tuple[Cell, _Tok]], defs: dict[int, tuple[_Tok, _Tok, _Tok]], k_tok: _Tok) -> _Spec:
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


def _read_cellnames(text: str, path: str) -> GridPuzzle:
    """A puzzle from `n` and `target op A1 B1 ...` lines (column letter A.., row number 1..n)."""
    lines = _content(text, path)
    order_tok = _only(lines[0], "the order n")
    n = _order(order_tok)
    if n > 26:
        raise order_tok.error(f"cell names use one column letter A-Z, so the order is at most 26, not {n}")
    return _assemble(n, [_cellnames_spec(toks, n) for toks in lines[1:]], order_tok, path)


def _cellnames_spec(toks: list[_Tok], n: int) -> _Spec:
    """One cage from `target op cell...`, or `target+ cell...` with the operator stuck to the target."""
    digits = len(toks[0].text) - len(toks[0].text.lstrip(string.digits))
    target_tok = toks[0]._replace(text=toks[0].text[:digits])
    if toks[0].text[digits:]:
        op_tok, cell_toks = toks[0]._replace(col=toks[0].col + digits, text=toks[0].text[digits:]), toks[1:]
    elif len(toks) > 1:
        op_tok, cell_toks = toks[1], toks[2:]
    else:
        raise toks[0].end().error("expected `target op cell...`, such as `11 + A1 A2`")
    spec = _Spec(_operator(op_tok), _integer(target_tok, "a target"), op_tok, target_tok)
    if not cell_toks:
        raise op_tok.end().error("expected the cage's cells, such as A1 A2")
    spec.cells, spec.cell_toks = [_named_cell(tok, n) for tok in cell_toks], cell_toks
    return spec


def _named_cell(tok: _Tok, n: int) -> Cell:
    """The cell written as column letter and row number, such as `B3` for (2, 1)."""
    m = _CELL_NAME.fullmatch(tok.text)
    r, c = (int(m[2]) - 1, ord(m[1].upper()) - ord("A")) if m else (-1, -1)
    if not (0 <= r < n and 0 <= c < n):
        raise tok.error(f"{tok.text!r} is not a cell of the {n}x{n} grid (column A-{chr(64 + n)}, row 1-{n})")
    return r, c


# ---- reading: json -------------------------------------------------------------------------


def _read_json(text: str, path: str) -> GridPuzzle:
    """A puzzle from {"size": n, "cages": [{"cells": [[r, c], ...], "op": "+", "target": 11}, ...]}."""
    text = "\n".join("" if ln.lstrip().startswith("#") else ln for ln in text.split("\n"))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise _at(text, path, e.pos).error(e.msg) from None
    top = _at(text, path, len(text) - len(text.lstrip()))
    if not isinstance(data, dict) or not isinstance(data.get("cages"), list):
        raise top.error('expected an object {"size": n, "cages": [...]}')
    size_tok = _key(text, path, "size", 0, len(text)) or top
    n = data.get("size")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise size_tok.error(f'"size" must be a positive integer, not {json.dumps(n)}')
    offsets = _json_items(text, "cages")
    if len(offsets) != len(data["cages"]):  # "cages" found elsewhere first: blame the top of the file
        offsets = [(0, len(text))] * len(data["cages"])
    specs = [_json_spec(k, item, n, text, path, offsets[k - 1]) for k, item in enumerate(data["cages"], start=1)]
    return _assemble(n, specs, size_tok, path)


def _json_spec(k: int, item: object, n: int, text: str, path: str, span: tuple[int, int]) -> _Spec:
    """Cage k from its JSON object, blaming each key's position in the text."""
    here = _at(text, path, span[0])
    if not isinstance(item, dict):
        raise here.error(f"cage {k}: expected an object with cells, op and target")
    op_tok, target_tok, cells_tok = (_key(text, path, key, *span) or here for key in ("op", "target", "cells"))
    target = item.get("target")
    if isinstance(target, bool) or not isinstance(target, int):
        raise target_tok.error(f'cage {k}: "target" must be an integer, not {json.dumps(target)}')
    op = item.get("op")
    if op not in (None, ""):
        op = _operator(op_tok._replace(text=op) if isinstance(op, str) else op_tok._replace(text=json.dumps(op)))
    cells = item.get("cells")
    if not isinstance(cells, list) or not cells:
        raise cells_tok.error(f'cage {k}: "cells" must be a non-empty list of [row, column] pairs')
    spec = _Spec(op or None, target, op_tok, target_tok)
    spec.cells, spec.cell_toks = [_json_cell(k, cell, n, cells_tok) for cell in cells], [cells_tok] * len(cells)
    return spec


def _json_cell(k: int, cell: object, n: int, tok: _Tok) -> Cell:
    """A 0-based [row, column] pair inside the n x n grid."""
    ok = isinstance(cell, list) and len(cell) == 2 and all(type(v) is int and 0 <= v < n for v in cell)
    if not ok:
        raise tok.error(f"cage {k}: cell {json.dumps(cell)} is not a [row, column] pair in 0..{n - 1}")
    return cell[0], cell[1]  # type: ignore[index]


def _at(text: str, path: str, offset: int) -> _Tok:
    """A token at a character offset of `text`, located by line and column."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    line = text[start : end if end >= 0 else len(text)]
    return _Tok(path, text.count("\n", 0, offset) + 1, offset - start + 1, "", line)


def _key(text: str, path: str, key: str, lo: int, hi: int) -> _Tok | None:
    """The position of the first `"key":` in text[lo:hi], or None."""
    m = re.compile(rf'"{key}"\s*:').search(text, lo, hi)
    return _at(text, path, m.start()) if m else None


def _json_items(text: str, key: str) -> list[tuple[int, int]]:
    """The (start, end) offsets of the items of the array under the first `"key":` in valid JSON text."""
    m = re.search(rf'"{key}"\s*:\s*\[', text)
    decoder, spans, i = json.JSONDecoder(), [], m.end() if m else len(text)
    while m and i < len(text):
        i = len(text) - len(text[i:].lstrip())
        if text[i : i + 1] == "]":
            break
        try:
            _, end = decoder.raw_decode(text, i)
        except ValueError:
            return []
        spans.append((i, end))
        i = len(text) - len(text[end:].lstrip())
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
    fields = line.split(":")
    found: dict[str, object] = {}

    def parse() -> GridPuzzle:
        puzzle, found["count"], found["solution"] = _parse_oneline(path, k, line)
        return puzzle

    entry = entry_from(k, path, parse)
    difficulty = fields[2].strip() if len(fields) > 2 else None
    count, solution = found.get("count"), found.get("solution")
    return OnelineRecord(entry, fields[0].strip(), difficulty, count, solution)  # type: ignore[arg-type]


def _oneline_fields(path: str, k: int, line: str) -> list[_Tok]:
    """The colon-separated fields of a line as tokens (text stripped, column at the first character)."""
    out, start = [], 0
    for part in line.split(":"):
        lead = len(part) - len(part.lstrip())
        out.append(_Tok(path, k, start + lead + 1, part.strip(), line))
        start += len(part) + 1
    return out


def _parse_oneline(path: str, k: int, line: str) -> tuple[GridPuzzle, int | None, tuple[int, ...] | None]:
    """The puzzle, count and solution of `<id>:<n>:<difficulty>:<cages>[:<count>[:<solution>]]`."""
    fields = _oneline_fields(path, k, line)
    if len(fields) < 4:
        raise _Tok(path, k, len(line) + 1, "", line).error(
            f"expected <id>:<n>:<difficulty>:<cages>[:<count>[:<solution>]], found {len(fields)} field(s)"
        )
    if len(fields) > 6:
        raise fields[6].error("expected at most 6 fields: <id>:<n>:<difficulty>:<cages>:<count>:<solution>")
    n = _order(fields[1])
    lo = fields[3].col - 1
    specs = [_oneline_spec(tok, n) for tok in _tokens(path, k, line, lo, lo + len(fields[3].text))]
    puzzle = _assemble(n, specs, fields[1], fields[0].text or f"{path}:{k}")
    count = _integer(fields[4], "a solution count") if len(fields) > 4 and fields[4].text else None
    solution = _solution(fields[5], n) if len(fields) > 5 and fields[5].text else None
    return puzzle, count, solution


def _oneline_spec(tok: _Tok, n: int) -> _Spec:
    """One cage from `<target><op>@<cell>,<cell>,...` with 0-based cells; no operator means hidden."""
    m = _CAGE_TOKEN.fullmatch(tok.text)
    if not m:
        raise tok.error(f"expected a cage such as 13+@24,30,31, found {tok.text!r}")
    target_tok = tok._replace(text=m[1])
    op_tok = tok._replace(col=tok.col + len(m[1]), text=m[2])
    spec = _Spec(_operator(op_tok) if m[2] else None, int(m[1]), op_tok if m[2] else target_tok, target_tok)
    col = tok.col + m.start(3)
    for part in m[3].split(","):
        cell_tok = tok._replace(col=col, text=part)
        spec.cells.append(_cell_index(cell_tok, n, 0))
        spec.cell_toks.append(cell_tok)
        col += len(part) + 1
    return spec


def _solution(tok: _Tok, n: int) -> tuple[int, ...]:
    """A solution field: n*n digits, or n*n comma-separated integers."""
    parts = tok.text.split(",") if "," in tok.text else list(tok.text)
    if len(parts) != n * n:
        raise tok.error(f"the solution has {len(parts)} values, but an order-{n} grid has {n * n} cells")
    if not all(re.fullmatch(r"[0-9]+", p) for p in parts):
        raise tok.error(f"the solution must be n*n digits or comma-separated integers, not {tok.text!r}")
    return tuple(int(p) for p in parts)


# ---- reading: entry points -----------------------------------------------------------------

_READERS: dict[str, Callable[[str, str], GridPuzzle]] = {
    "cagelist": _read_cagelist,
    "lettergrid": _read_lettergrid,
    "indexgrid": _read_indexgrid,
    "cellnames": _read_cellnames,
    "json": _read_json,
}


def read_text(text: str, path: str = "<input>", fmt: str = "auto") -> list[Entry]:
    """Every puzzle in `text` as an Entry (oneline files hold many, the other formats one)."""
    content = content_lines(text)
    if not content:
        return [Entry(1, error=ParseError("no puzzle found (the input is empty)", path=path, line=1))]
    first = content[0][0]
    if fmt == "auto":
        fmt = detect(text) or ""
        if not fmt:
            return [Entry(first, error=ParseError("not a Mathdoku file in any known format", path=path, line=first))]
    if fmt == "oneline":
        return [record.entry for record in read_oneline_records(text, path)]
    if fmt not in _READERS:
        raise CpModelsError(f"unknown Mathdoku format {fmt!r}; choose one of: auto, {', '.join(FORMATS)}")
    return [entry_from(first, path, lambda: _READERS[fmt](text, path))]


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


def detect(text: str) -> str | None:
    """The Mathdoku format `text` is written in, or None if it is not a Mathdoku file (a Sudoku, say)."""
    lines = [ln.strip() for _, ln in content_lines(text)]
    if not lines:
        return None
    if lines[0].startswith("{"):
        return "json" if re.search(r'"(cages|size)"', text) else None
    fields = lines[0].split(":")
    if len(fields) >= 4 and fields[1].strip().isdigit() and "@" in fields[3]:
        return "oneline"
    return _detect_grid(lines) or _detect_list(lines)


def _detect_grid(lines: list[str]) -> str | None:
    """`lettergrid` or `indexgrid` if the lines look like one, else None."""
    lettered = re.fullmatch(r"[A-Za-z0-9]+", lines[0]) and re.search("[A-Za-z]", lines[0])
    if lettered and any(re.match(r"[A-Za-z]\s*:", ln) for ln in lines[1:]):
        return "lettergrid"
    head = lines[0].split()
    if len(head) == 2 and all(t.isdigit() for t in head) and len(lines) > 1:
        rows_ok = all(t.isdigit() for t in lines[1].split())
        if rows_ok and any(re.fullmatch(rf"\d+\s+[{re.escape(_OP_CHARS)}]\s+\d+", ln) for ln in lines[1:]):
            return "indexgrid"
    return None


def _detect_list(lines: list[str]) -> str | None:
    """`cagelist` or `cellnames` if the first line is the order and the second a cage, else None."""
    if not lines[0].isdigit() or len(lines) < 2:
        return None
    toks = lines[1].split()
    if len(toks) >= 3 and len(toks[0]) == 1 and toks[0] in _OP_CHARS:
        return "cagelist"
    if len(toks) >= 2 and re.fullmatch(r"[0-9]+\S*", toks[0]) and _CELL_NAME.fullmatch(toks[-1]):
        return "cellnames"
    return None


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
    missing = _uncovered(n, {cell for cage in puzzle.cages for cell in cage.cells})
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
