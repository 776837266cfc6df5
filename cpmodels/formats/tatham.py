"""Game IDs of Simon Tatham's Portable Puzzle Collection: Keen (KenKen) and Solo (plain Sudoku), read and written.

Keen `N:LAYOUT,CLUES` (keen.c: encode_block_structure, parse_block_structure, new_game_desc):
  N        the order, 3 to 9 (Keen's full parameters `NdX` and `NdXm` are read too, and ignored).
  LAYOUT   the 2N(N-1) edges between neighbouring cells, first the vertical ones in reading order
           (r1c1|r1c2, r1c2|r1c3, ...), then the horizontal ones column by column (r1c1/r2c1,
           r2c1/r3c1, ..., r1c2/r2c2, ...), then one virtual closing wall. Each symbol stands for a
           run of non-walls then a wall: `_` none, `a`..`x` 1 to 24. Keen's parser, which decides
           what Keen shows, reads `y` as 25 non-walls *without* a wall and `z` as 26 then a wall;
           runs of 25 or more are written that way (Keen itself never makes them: its cages have
           at most 6 cells). A symbol followed by a decimal count stands for that many copies.
  CLUES    one clue per cage, cages in the order of their first cell (row-major): `a` sum,
           `m` product, `s` difference, `d` quotient, then the target. A one-cell cage holds
           its target (cpmodels op "="); Keen writes it as `a` and reads `a` or `m`.
Solo `RxC:DESC` (solo.c: decode_params, encode_grid, validate_grid_desc): boxes of R rows by
  C columns, R*C at most 31; DESC is row-major, `a`..`z` are runs of 1 to 26 empty cells,
  decimal numbers are givens, and `_` separates two adjacent numbers. Solo's variants (jigsaw `j`
  or `Nx1`, killer `k`, X `x`) are recognised and refused; symmetry and difficulty parameters
  (`a`, `r2`, `m4`, `md2`, `db`, ...) are read and ignored. read_solo also takes Solo's `N:` shorthand
  for boxes of N by N, but detect() calls `N:` Keen: Solo itself always writes `RxC`.

Round trips: write(read(id)) == id for every ID as Keen or Solo writes it, and
read(write(p)) == p for a puzzle whose cages are in order of first cell with cells row-major.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import partial

from ..cages import is_connected
from ..errors import CpModelsError, ParseError
from ..grid import Cage, GridPuzzle, cell_name, latin_units
from ..mathdoku import target_problem
from ..sudoku import box_of, sudoku_puzzle, sudoku_units
from .text import Entry, Token, content_lines, empty_input, entry_from, integer_of

KEEN_ORDERS = range(3, 10)
"""The orders Keen accepts (validate_params in keen.c)."""
SOLO_MAX_SYMBOLS = 31
"""The largest R*C Solo accepts (validate_params in solo.c)."""
FORMATS = ("keen", "solo")

_KEEN_OPS = {"a": "+", "m": "*", "s": "-", "d": "/"}
_KEEN_LETTERS = {"+": "a", "*": "m", "-": "s", "/": "d", "=": "a"}
_KEEN_DIFFICULTIES = "enhxu"
_NO_WALL_RUN = 25  # Keen's parser: `y` joins 25 cells' edges and puts no wall after them
_SOLO_VARIANTS = {"j": "jigsaw", "k": "killer", "x": "X (diagonals)"}
_LAYOUT_SYMBOL = re.compile(r"([_a-z])([0-9]*)")
_NUMBER = re.compile(r"[0-9]+")
_SOLO_IGNORED = re.compile(r"a|r[0-9]+|md?[0-9]+|d[tbiaeu]")  # symmetry and difficulty
_SOLO_GIVEN = re.compile(r"[1-9][0-9]*")
_ID_CHARS = re.compile(r"[a-z0-9_,]*")
_SOLO_PARAMS = re.compile(r"[0-9]{1,2}(x[0-9]{1,2}|j)[a-z0-9]*")
_KEEN_PARAMS = re.compile(r"[0-9]{1,2}(d[a-z])?m?")


def _game_id(text: str, path: str, line: int) -> Token:
    """A game ID as given on line `line`, as the token of its text without surrounding whitespace."""
    shown = text.rstrip()
    start = len(shown) - len(shown.lstrip())
    return Token(shown.strip(), path, line, start + 1, shown)


def _error(src: Token, message: str, index: int) -> ParseError:
    """A ParseError with a caret under character `index` (0-based) of the game ID `src`."""
    return src.part(index).error(message)


def _number_at(src: Token, m: re.Match, group: int = 0) -> int:
    """The number a regex group matched in the game ID `src`, bounded in length."""
    return integer_of(src.part(m.start(group), m.end(group))) or 0


# ---- Keen ----------------------------------------------------------------------------------


def keen_edges(n: int) -> list[tuple[int, int]]:
    """The 2n(n-1) pairs of neighbouring cells (row-major indices) in the order Keen's layout code walks them."""
    vertical = [(y * n + x, y * n + x + 1) for y in range(n) for x in range(n - 1)]
    horizontal = [(y * n + x, (y + 1) * n + x) for x in range(n) for y in range(n - 1)]
    return vertical + horizontal


def read_keen(text: str, path: str = "<input>") -> GridPuzzle:
    """The Keen puzzle of a game ID `N:LAYOUT,CLUES`, cages in order of first cell, cells row-major."""
    return _read_keen(_game_id(text, path, 1))


def _read_keen(src: Token) -> GridPuzzle:
    """read_keen for an ID located in a file."""
    n, begin = _keen_order(src)
    groups, comma = _keen_layout(src, n, begin)
    if comma >= len(src.text):
        raise _error(src, "expected ',' and the clues after the layout code", comma)
    cages = _keen_clues(src, n, groups, comma + 1)
    return GridPuzzle(n, latin_units(n), (0,) * (n * n), tuple(cages), name=f"{src.path}:{src.line}")


def _keen_order(src: Token) -> tuple[int, int]:
    """The order in a Keen ID's parameters and the index just after its ':'."""
    ident = src.text
    m = re.match(r"[0-9]+", ident)
    if not m:
        raise _error(src, "a Keen game ID starts with the grid size, as in 4:_a_6bb_a_a3,a7d2m3s2a5d2m12", 0)
    i = m.end()
    if ident[i : i + 1] == "d":
        if ident[i + 1 : i + 2] not in tuple(_KEEN_DIFFICULTIES):
            raise _error(src, f"unknown Keen difficulty (use one of {', '.join(_KEEN_DIFFICULTIES)})", i + 1)
        i += 2
    if ident[i : i + 1] == "m":
        i += 1
    if ident[i : i + 1] != ":":
        raise _error(src, "expected ':' after the Keen parameters", i)
    n = _number_at(src, m)
    if n not in KEEN_ORDERS:
        raise _error(src, f"Keen grids are 3x3 to 9x9, not {n}x{n}", 0)
    return n, i + 1


def _keen_layout(src: Token, n: int, begin: int) -> tuple[list[list[int]], int]:
    """The cages (row-major cells, ordered by first cell) of the layout code at `begin`, and the index after it."""
    edges = keen_edges(n)
    parent = list(range(n * n))
    pos, i = 0, begin
    for index, joins, count, end in _layout_symbols(src, begin):
        for _ in range(count):
            for _ in range(joins):
                if pos >= len(edges):
                    raise _too_long(src, n, index)
                _join(parent, *edges[pos])
                pos += 1
            pos += joins != _NO_WALL_RUN
            if pos > len(edges) + 1:
                raise _too_long(src, n, index)
        i = end
    if pos != len(edges) + 1:
        raise _error(src, f"the layout code is too short for a {n}x{n} grid ({len(edges)} inner edges)", i)
    return _groups(parent), i


def _too_long(src: Token, n: int, index: int) -> ParseError:
    """The error for a layout code that goes on past the last edge of an n x n grid."""
    return _error(src, f"the layout code covers more than the {2 * n * (n - 1)} inner edges of a {n}x{n} grid", index)


def _layout_symbols(src: Token, begin: int) -> list[tuple[int, int, int, int]]:
    """The layout code's symbols as (index, non-walls it stands for, repeat count, index after it)."""
    ident, i = src.text, begin
    out: list[tuple[int, int, int, int]] = []
    while i < len(ident) and ident[i] != ",":
        m = _LAYOUT_SYMBOL.match(ident, i)
        if not m:
            raise _error(src, f"{ident[i]!r} cannot appear in a layout code (a-z or _, each with an optional count)", i)
        count = _number_at(src, m, 2) if m[2] else 1
        if count == 0:
            raise _error(src, "a repeat count must be at least 1", m.start(2))
        out.append((i, 0 if m[1] == "_" else ord(m[1]) - ord("a") + 1, count, m.end()))
        i = m.end()
    return out


def _join(parent: list[int], a: int, b: int) -> None:
    """Merge the classes of cells a and b, keeping the smaller root as Keen's dsf does."""
    ra, rb = _root(parent, a), _root(parent, b)
    parent[max(ra, rb)] = min(ra, rb)


def _root(parent: list[int], a: int) -> int:
    """The canonical (smallest) cell of a's class."""
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


def _groups(parent: list[int]) -> list[list[int]]:
    """The classes of a union-find forest, each row-major, ordered by their first cell."""
    groups: dict[int, list[int]] = {}
    for cell in range(len(parent)):
        groups.setdefault(_root(parent, cell), []).append(cell)
    return [groups[root] for root in sorted(groups)]


def _keen_clues(src: Token, n: int, groups: list[list[int]], begin: int) -> list[Cage]:
    """One Cage per group from the clue string at `begin`; raises unless there is exactly one clue per cage."""
    ident, i = src.text, begin
    cages: list[Cage] = []
    for k, cells in enumerate(groups, start=1):
        if i >= len(ident):
            raise _error(src, f"too few clues: the layout has {len(groups)} cages, the clues stop after {k - 1}", i)
        letter = ident[i]
        if letter not in _KEEN_OPS:
            raise _error(src, f"{letter!r} is not a Keen clue letter (a sum, m product, s difference, d quotient)", i)
        if letter in "sd" and len(cells) != 2:
            where = " ".join(cell_name(*divmod(c, n)) for c in cells)
            raise _error(src, f"clue {k} '{letter}' needs a 2-cell cage, but cage {k} ({where}) has {len(cells)}", i)
        target = _NUMBER.match(ident, i + 1)
        if not target:
            raise _error(src, f"clue {k} '{letter}' has no target number", i + 1)
        op = "=" if len(cells) == 1 else _KEEN_OPS[letter]
        cages.append(Cage(tuple(divmod(c, n) for c in cells), op, _number_at(src, target)))
        problem = target_problem(k, cages[-1], n)
        if problem:
            raise _error(src, problem, i)
        i = target.end()
    if i < len(ident):
        raise _error(src, f"too many clues: the layout has {len(groups)} cages", i)
    return cages


def write_keen(puzzle: GridPuzzle) -> str:
    """The Keen game ID `N:LAYOUT,CLUES` of a cage puzzle on a plain Latin square, as Keen writes it."""
    owner = _keen_owners(puzzle)
    order = sorted(range(len(puzzle.cages)), key=lambda k: min(r * puzzle.n + c for r, c in puzzle.cages[k].cells))
    clues = "".join(f"{_KEEN_LETTERS[str(puzzle.cages[k].op)]}{puzzle.cages[k].target}" for k in order)
    return f"{puzzle.n}:{encode_keen_layout(puzzle.n, owner)},{clues}"


def _keen_owners(puzzle: GridPuzzle) -> list[int]:
    """The cage index of every cell; raises CpModelsError for what a Keen ID cannot express."""
    n = puzzle.n
    if n not in KEEN_ORDERS:
        raise CpModelsError(f"Keen grids are 3x3 to 9x9; this puzzle is {n}x{n}")
    if _unit_set(puzzle.units) != _unit_set(latin_units(n)):
        raise CpModelsError("Keen puzzles have only rows and columns as units; this one has others (a Sudoku?)")
    if any(puzzle.givens):
        raise CpModelsError("Keen has no givens: state each given as a one-cell cage with op '='")
    owner = [-1] * (n * n)
    for k, cage in enumerate(puzzle.cages):
        _check_keen_cage(k + 1, cage, n)
        for r, c in cage.cells:
            owner[r * n + c] = k
    if -1 in owner:
        raise CpModelsError(f"Keen puts every cell in a cage, but {cell_name(*divmod(owner.index(-1), n))} is in none")
    return owner


def _check_keen_cage(k: int, cage: Cage, n: int) -> None:
    """Raise CpModelsError for a cage Keen cannot express: hidden operator, negative target, cells not joined."""
    if cage.op is None:
        raise CpModelsError(f"cage {k} has a hidden operator; Keen shows every operator")
    if cage.target < 0:
        raise CpModelsError(f"cage {k} has a negative target {cage.target}")
    if not is_connected(cage.cells):
        raise CpModelsError(f"cage {k} is not connected, so Keen's layout code cannot draw it")


def _unit_set(units: Sequence[Sequence[int]]) -> set[frozenset[int]]:
    """Units as a set of cell sets, to compare unit systems whatever their order."""
    return {frozenset(u) for u in units}


def encode_keen_layout(n: int, owner: Sequence[int]) -> str:
    """Keen's layout code for an n x n grid whose cell i (row-major) is in cage owner[i]."""
    symbols: list[str] = []
    run = 0
    walls = [owner[a] != owner[b] for a, b in keen_edges(n)] + [True]  # the virtual closing wall
    for wall in walls:
        if not wall:
            run += 1
            continue
        while run == _NO_WALL_RUN or run > 26:
            symbols.append("y")
            run -= _NO_WALL_RUN
        symbols.append(chr(ord("a") - 1 + run) if run else "_")
        run = 0
    return _compress(symbols)


def _compress(symbols: list[str]) -> str:
    """Runs of one symbol written as the symbol and a count where that is shorter (`_3` for `___`)."""
    out, i = [], 0
    while i < len(symbols):
        j = i
        while j < len(symbols) and symbols[j] == symbols[i]:
            j += 1
        out.append(symbols[i] * 2 if j - i == 2 else symbols[i] + (str(j - i) if j - i > 2 else ""))
        i = j
    return "".join(out)


# ---- Solo ----------------------------------------------------------------------------------


def read_solo(text: str, path: str = "<input>") -> GridPuzzle:
    """The plain Sudoku of a Solo game ID `RxC:DESC` (boxes of R rows by C columns)."""
    return _read_solo(_game_id(text, path, 1))


def _read_solo(src: Token) -> GridPuzzle:
    """read_solo for an ID located in a file."""
    box, begin = _solo_box(src)
    givens = _solo_givens(src, box[0] * box[1], begin)
    return sudoku_puzzle(givens, box=box, name=f"{src.path}:{src.line}")


def _solo_box(src: Token) -> tuple[tuple[int, int], int]:
    """The box shape (rows, columns) in a Solo ID's parameters and the index after its ':'; refuses variants."""
    ident = src.text
    m = re.match(r"([0-9]+)(?:x([0-9]+))?", ident)
    if not m:
        raise _error(src, "a Solo game ID starts with the box shape, as in 3x3:b5c8c1e9_6...", 0)
    rows = _number_at(src, m, 1)
    cols = _number_at(src, m, 2) if m[2] else rows
    colon = _solo_flags(src, m.end())
    if m[2] and cols == 1:
        raise _error(src, "Solo reads an Nx1 shape as its jigsaw variant, which is not supported", m.start(2))
    if rows < 2 or cols < 2:
        raise _error(src, f"both box dimensions must be at least 2, not {rows}x{cols}", 0)
    if rows * cols > SOLO_MAX_SYMBOLS:
        raise _error(
            src, f"Solo supports at most {SOLO_MAX_SYMBOLS} symbols; {rows}x{cols} boxes need {rows * cols}", 0
        )
    return (rows, cols), colon + 1


def _solo_flags(src: Token, begin: int) -> int:
    """The index of the ':' ending Solo's parameters; skips symmetry and difficulty, refuses variant flags."""
    ident, i = src.text, begin
    variants: list[int] = []
    while i < len(ident) and ident[i] != ":":
        sym = _SOLO_IGNORED.match(ident, i)
        if sym:
            i = sym.end()
        elif ident[i] in _SOLO_VARIANTS:
            variants.append(i)
            i += 1
        else:
            raise _error(src, f"{ident[i]!r} is not a Solo parameter", i)
    if variants:
        names = " and ".join(dict.fromkeys(_SOLO_VARIANTS[ident[v]] for v in variants))
        raise _error(src, f"Solo's {names} variant is not supported, only plain Sudoku", variants[0])
    if i >= len(ident):
        raise _error(src, "expected ':' after the Solo parameters", i)
    return i


def _solo_givens(src: Token, n: int, begin: int) -> list[int]:
    """The n*n row-major givens (0 = empty) of Solo's grid description at `begin`."""
    ident, i = src.text, begin
    cells: list[int] = []
    area = n * n
    while i < len(ident):
        ch = ident[i]
        m = _SOLO_GIVEN.match(ident, i)
        if ch == "_":
            i += 1
            continue
        if not (m or "a" <= ch <= "z"):
            raise _error(src, _solo_bad_char(ch), i)
        size = _number_at(src, m) if m else 0
        run = 1 if m else ord(ch) - ord("a") + 1
        if len(cells) + run > area:
            raise _error(src, f"too many cells: a {n}x{n} grid has {area}", i)
        if size > n:
            raise _error(src, f"given {size} is above {n}, the largest value of a {n}x{n} grid", i)
        cells += [size] * run
        i = m.end() if m else i + 1
    if len(cells) < area:
        raise _error(src, f"too few cells: the description fills {len(cells)} of {area}", i)
    return cells


def _solo_bad_char(ch: str) -> str:
    """The message for a character that cannot appear in a plain Solo grid description."""
    if ch == ",":
        return "',' starts a jigsaw layout or killer cages (Solo's variants), which are not supported"
    return f"{ch!r} cannot appear in a Solo grid (a-z for empty cells, numbers 1.. for givens, _ between numbers)"


def write_solo(puzzle: GridPuzzle) -> str:
    """The Solo game ID `RxC:DESC` of a plain Sudoku with boxes of R rows by C columns, as Solo writes it."""
    box = box_of(puzzle)
    if puzzle.cages:
        raise CpModelsError("Solo's plain Sudoku has no cages (its killer variant is not supported)")
    if box is None:
        raise CpModelsError("Solo needs rectangular boxes; this puzzle has none (a Latin square or a jigsaw?)")
    if _unit_set(puzzle.units) != _unit_set(sudoku_units(puzzle.n, box)):
        raise CpModelsError("Solo's plain Sudoku has only rows, columns and boxes; this puzzle has other units")
    if puzzle.n > SOLO_MAX_SYMBOLS:
        raise CpModelsError(f"Solo supports at most {SOLO_MAX_SYMBOLS} symbols; this puzzle has {puzzle.n}")
    return f"{box[0]}x{box[1]}:{encode_solo_grid(puzzle.givens)}"


def encode_solo_grid(givens: Sequence[int]) -> str:
    """Solo's description of row-major givens (0 = empty): letters for runs of empty cells, `_` between numbers."""
    out: list[str] = []
    run = 0
    for value in [*givens, -1]:  # -1 closes a final run of empty cells
        if value == 0:
            run += 1
            continue
        while run > 0:
            out.append(chr(ord("a") - 1 + min(run, 26)))
            run -= min(run, 26)
        if value > 0:
            out.append(f"_{value}" if out and out[-1][-1].isdigit() else str(value))
    return "".join(out)


# ---- files ---------------------------------------------------------------------------------


def detect(text: str) -> str | None:
    """The family, "keen" or "solo", whose game ID the first non-comment line of `text` resembles, else None."""
    lines = [ln.strip() for _, ln in content_lines(text)]
    return "solo" if sniff_solo(lines) else "keen" if sniff_keen(lines) else None


def sniff_solo(lines: list[str]) -> bool:
    """Whether the first content line looks like a Solo game ID `RxC:DESC`."""
    return _id_parameters(lines, _SOLO_PARAMS)


def sniff_keen(lines: list[str]) -> bool:
    """Whether the first content line looks like a Keen game ID `N:LAYOUT,CLUES`."""
    return _id_parameters(lines, _KEEN_PARAMS)


def _id_parameters(lines: list[str], params: re.Pattern) -> bool:
    """Whether the first of the stripped content `lines` is a game ID whose parameters match `params`."""
    if not lines:
        return False
    found, colon, desc = lines[0].partition(":")
    return bool(colon and _ID_CHARS.fullmatch(desc) and params.fullmatch(found))


def read_text(text: str, path: str = "<input>", fmt: str = "auto") -> list[Entry]:
    """Every game ID in `text`, one Entry each (iter_text, as a list)."""
    return list(iter_text(text, path, fmt))


def iter_text(text: str, path: str = "<input>", fmt: str = "auto") -> Iterator[Entry]:
    """Every game ID in `text` (one a line, `#` comments), one Entry each, each parsed when reached."""
    if fmt not in ("auto", *FORMATS):
        raise CpModelsError(f"unknown Tatham format {fmt!r}; choose one of: auto, {', '.join(FORMATS)}")
    lines = content_lines(text)
    if not lines:
        yield from empty_input(path, "game ID")
    yield from (entry_from(k, path, partial(_read_line, _game_id(ln, path, k), fmt)) for k, ln in lines)


def _read_line(src: Token, fmt: str) -> GridPuzzle:
    """The puzzle of one line, read as `fmt` or as the family detect() names."""
    family = detect(src.source) if fmt == "auto" else fmt
    if family == "keen":
        return _read_keen(src)
    if family == "solo":
        return _read_solo(src)
    raise _error(src, "not a Keen or Solo game ID (expected N:LAYOUT,CLUES or RxC:DESC)", 0)
