"""Text formats of grid puzzles, all in one registry (FORMATS).

Each format has a name, the puzzle families it carries, a one-line description, a cheap detector, its
reader and its writer.

Modules: text (the located-text primitives every reader uses: Entry, Token, content lines, the bounded
integer parser), sudoku (line, grid, Gecode lines, JSON grids), mathdoku (six cage-file formats and the
bordered drawing), latin (pls, qwh), tatham (Keen and Solo game IDs), dlx (Knuth's DLX1 exact-cover files).

Detection (`detect`) tries the formats in DETECTION_ORDER and stops at the first whose sniff matches.
The most distinctive come first, each looking at the first content line or two: Solo and Keen game IDs,
pls and qwh files, the Mathdoku formats; then a Sudoku's `line`, and `grid` for anything else. So a
Sudoku file costs the other detectors a glance at its first line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from ..errors import CpModelsError
from ..grid import GridPuzzle
from ..sudoku import box_of
from . import dlx, latin, mathdoku, sudoku, tatham
from .text import Entry, content_lines

Reader = Callable[..., list[Entry]]
"""read(text, path, **options) -> one Entry per puzzle; the Sudoku formats take the option `box`."""


@dataclass(frozen=True)
class Format:
    """A text format: its name, families, description, detector, reader and writer.

    `families`: the puzzle families it carries (sudoku, mathdoku, qwh, exact cover); `sniff(lines)`:
    whether the text's stripped content lines look like it; `read(text, path, **options)`;
    `write(puzzle) -> str`. sniff and read are None for a format that is only written.
    """

    name: str
    families: tuple[str, ...]
    description: str
    sniff: Callable[[list[str]], bool] | None
    read: Reader | None
    write: Callable[[GridPuzzle], str] | None


def _sudoku_reader(fmt: str) -> Reader:
    """The reader of Sudoku format `fmt`, with its box option."""

    def read(text: str, path: str = "<input>", box: tuple[int, int] | None = None, **_: object) -> list[Entry]:
        return sudoku.read_text(text, path, fmt, box)

    return read


def _reader(read_family: Callable[[str, str, str], list[Entry]], fmt: str) -> Reader:
    """The reader of format `fmt` from its family's read_text(text, path, fmt); options are ignored."""

    def read(text: str, path: str = "<input>", **_: object) -> list[Entry]:
        return read_family(text, path, fmt)

    return read


def _write_json(puzzle: GridPuzzle) -> str:
    """A Mathdoku as its cages, any other puzzle as its grid of givens."""
    return mathdoku.write(puzzle, "json") if puzzle.cages else sudoku.write_json_grid(puzzle)


def _mathdoku(name: str, description: str) -> Format:
    """One of the Mathdoku cage-file formats."""
    sniff = mathdoku.SNIFFERS[name]
    return Format(
        name, ("mathdoku",), description, sniff, _reader(mathdoku.read_text, name), partial(mathdoku.write, fmt=name)
    )


_ALL = (
    Format(
        "line",
        ("sudoku",),
        "n*n symbols or integers on a line, many a file; Gecode's index:N:RxC:grid lines",
        lambda lines: sudoku.detect_layout(lines) == "line",
        _sudoku_reader("line"),
        sudoku.write_line,
    ),
    Format(
        "grid",
        ("sudoku",),
        "n rows of symbols or integers, | - + borders allowed; blank lines between puzzles",
        lambda lines: True,
        _sudoku_reader("grid"),
        sudoku.write_grid,
    ),
    _mathdoku("cagelist", "the order n, then `op target count cell...` per cage, cells 1..n*n"),
    _mathdoku("lettergrid", "n rows of cage letters, a blank line, `a: 12*` legend lines"),
    _mathdoku("indexgrid", "`n k`, n rows of cage indices, `index op target` lines"),
    _mathdoku("oneline", "`id:n:difficulty:13+@0,1,6 ...:count:solution`, 0-based cells, many a file"),
    _mathdoku("cellnames", "the order n, then `11 + A1 A2` lines"),
    Format(
        "json",
        ("mathdoku", "sudoku", "qwh"),
        '{"size": n, "cages": [...]}; a grid {"n": n, "box": [r, c] or null, "grid": rows}',
        lambda lines: mathdoku.sniff_json(lines) or sudoku.sniff_json_grid(lines),
        _reader(mathdoku.read_text, "json"),
        _write_json,
    ),
    Format(
        "keen",
        ("mathdoku",),
        "Keen game IDs N:LAYOUT,CLUES (Simon Tatham's puzzles)",
        tatham.sniff_keen,
        _reader(tatham.read_text, "keen"),
        tatham.write_keen,
    ),
    Format(
        "solo",
        ("sudoku",),
        "Solo game IDs RxC:DESC, plain Sudoku (Simon Tatham's puzzles)",
        tatham.sniff_solo,
        _reader(tatham.read_text, "solo"),
        tatham.write_solo,
    ),
    Format(
        "pls",
        ("qwh",),
        "`order n`, n rows of entries, -1 a hole, symbols 0..n-1 (Gomes' lsencode files)",
        latin.sniff_pls,
        _reader(latin.read_text, "pls"),
        latin.write_pls,
    ),
    Format(
        "qwh",
        ("qwh",),
        "`name:n:holes:e,e,...:status:solution`, one a line, symbols 0..n-1",
        latin.sniff_qwh,
        _reader(latin.read_text, "qwh"),
        latin.write_qwh,
    ),
    Format(
        "dlx",
        ("exact cover",),
        "Knuth's DLX1 items and options of the puzzle's exact cover (written only)",
        None,
        None,
        dlx.write_dlx,
    ),
)

FORMATS: dict[str, Format] = {f.name: f for f in _ALL}
"""Every text format by name, in the order they are listed (by family)."""

DETECTION_ORDER = (
    *("solo", "keen", "pls", "qwh"),
    *("json", "oneline", "lettergrid", "indexgrid", "cagelist", "cellnames"),
    *("line", "grid"),
)
"""The order detect() tries the formats in: the most distinctive first, `grid` (which takes anything) last."""

SOLUTION_FORMATS = ("grid", "line", "json")
"""How a solution is printed: a grid with box or cage borders, one line of symbols, or JSON."""


def input_formats() -> tuple[str, ...]:
    """The names of the formats that can be read."""
    return tuple(name for name, f in FORMATS.items() if f.read)


def output_formats() -> tuple[str, ...]:
    """The names of the formats that can be written."""
    return tuple(name for name, f in FORMATS.items() if f.write)


def help_table(names: Sequence[str]) -> str:
    """The formats called `names` as help text, one line each: name, families, description."""
    return "\n".join(f"  {n:<11}{', '.join(FORMATS[n].families):<22}{FORMATS[n].description}" for n in names)


def detect(text: str) -> str:
    """The name of the format of `text`: the first in DETECTION_ORDER whose sniff matches (`grid` at the last)."""
    lines = [ln.strip() for _, ln in content_lines(text)]
    return next(name for name in DETECTION_ORDER if (sniff := FORMATS[name].sniff) and sniff(lines))


def read_text(text: str, path: str = "<input>", fmt: str = "auto", box: tuple[int, int] | None = None) -> list[Entry]:
    """Every puzzle in `text`, of any family, one Entry each; `fmt` forces a format, `box` a Sudoku box shape."""
    found = FORMATS.get(detect(text) if fmt == "auto" else fmt)
    if found is None or found.read is None:
        raise CpModelsError(f"unknown input format {fmt!r}; choose one of: auto, {', '.join(input_formats())}")
    return found.read(text, path, box=box)


def write_puzzle(puzzle: GridPuzzle, fmt: str) -> str:
    """`puzzle` written in format `fmt`; CpModelsError, saying why, if that format cannot carry it."""
    found = FORMATS.get(fmt)
    if found is None or found.write is None:
        raise CpModelsError(f"unknown output format {fmt!r}; choose one of: {', '.join(output_formats())}")
    return found.write(puzzle)


def write_solution(puzzle: GridPuzzle, grid: tuple[int, ...], fmt: str) -> str:
    """A grid of `puzzle` (0 = empty) as `grid` (box or cage borders), `line` or `json`."""
    box = box_of(puzzle)
    if fmt == "line":
        return sudoku.format_line(grid)
    if fmt == "json":
        return sudoku.format_json(grid, box)
    if fmt != "grid":
        raise CpModelsError(f"unknown solution format {fmt!r}; choose one of: {', '.join(SOLUTION_FORMATS)}")
    if puzzle.cages:
        return mathdoku.format_solution(puzzle, grid)
    return sudoku.format_grid(grid, box)


__all__ = [
    "DETECTION_ORDER",
    "FORMATS",
    "SOLUTION_FORMATS",
    "Entry",
    "Format",
    "content_lines",
    "detect",
    "help_table",
    "input_formats",
    "output_formats",
    "read_text",
    "write_puzzle",
    "write_solution",
]
