"""Text formats of grid puzzles, all in one registry (FORMATS).

Each format has a name, the puzzle families it carries, a one-line description, a cheap detector, its
reader, its writer, and how several puzzles are written one after another (its stream separator).

Modules: text (the located-text primitives every reader uses: Entry, Token, content lines, the bounded
integer parser), sudoku (line, grid, Gecode lines, JSON grids), mathdoku (six cage-file formats and the
bordered drawing), latin (pls, qwh), tatham (Keen and Solo game IDs), dlx (exact-cover problems and Knuth's
DLX1-DLX3 files), knuth (Knuth's SUDOKU-DLX and DANCE exports of a Sudoku), pseudocoup (Fowler's input
language, with candidate hints, and his solution grids), plain_lines (a file of one-puzzle lines read at
once into numpy arrays, for the backtracking kernel's blocks; each line as `line` reads it).

Detection (`detect`) tries the formats in DETECTION_ORDER and stops at the first whose sniff matches.
The most distinctive come first, each looking at the first content line or two: Solo and Keen game IDs,
pls and qwh files, the Mathdoku formats; then Knuth's DLX files (an item line of distinct names, then
options of them), pseudocoup (a first line or two with a hint, an edit, a `//`, `"` or `<` comment or its
shape comment), a Sudoku's `line`, and `grid` for rows of cells. So a Sudoku file costs the other
detectors a glance at its first line. A file whose name ends in `.dlx` is a DLX file whatever it holds.
A text none of them takes is refused (`not recognised`), naming the formats whose `hint` its first line
matches.

Streams (`write_puzzles`): what a writer writes for several puzzles, one after another, its reader reads
back: one a line (line, oneline, qwh, keen, solo), one JSON value after another (json), a blank line
between grids (grid), a `---` line between files of one puzzle (cagelist, lettergrid, indexgrid,
cellnames, pls); a DLX file (dlx, sudoku-dlx, dance) holds one puzzle (an exact-cover problem: Entry.cover).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial

from ..cover import ExactCoverProblem
from ..errors import CpModelsError, ParseError
from ..grid import GridPuzzle
from ..sudoku import box_of
from . import dlx, knuth, latin, mathdoku, pseudocoup, sudoku, tatham
from .sudoku import parse_symbols
from .text import SEPARATOR, Entry, content_lines, empty_input

Reader = Callable[..., Iterable[Entry]]
"""read(text, path, **options) -> one Entry per puzzle; the Sudoku formats take the options `box` and `symbols`."""


@dataclass(frozen=True)
class Format:
    """A text format: its name, families, description, detector, reader and writer.

    `families`: the puzzle families it carries (sudoku, mathdoku, qwh, exact cover); `sniff(lines)`:
    whether the text's stripped content lines look like it; `read(text, path, **options)`;
    `write(puzzle) -> str`, and `write(puzzle, symbols=...)` where `symbols` is True (one-character cells);
    sniff and read are None for a format that is only written. `separator`: what comes between two
    puzzles' texts (each ending in a line break) in a stream, None for one puzzle a file. `hint(line)`:
    whether a first line that no sniff takes looks somewhat like this format (to name it as the closest).
    `symbols`: whether the writer takes `symbols`. `extensions`: file-name endings that are this format
    whatever the text looks like (`.dlx`).
    """

    name: str
    families: tuple[str, ...]
    description: str
    sniff: Callable[[list[str]], bool] | None
    read: Reader | None
    write: Callable[..., str] | None
    separator: str | None = ""
    hint: Callable[[str], bool] | None = None
    symbols: bool = False
    extensions: tuple[str, ...] = ()


def _sudoku_reader(fmt: str) -> Reader:
    """The reader of Sudoku format `fmt`, with its options box and symbols."""

    def read(
        text: str, path: str = "<input>", box: tuple[int, int] | None = None, symbols: str = "", **_: object
    ) -> Iterable[Entry]:
        return sudoku.iter_text(text, path, fmt, box, symbols)

    return read


def _reader(read_family: Callable[[str, str, str], Iterable[Entry]], fmt: str) -> Reader:
    """The reader of format `fmt` from its family's iter_text(text, path, fmt); options are ignored."""

    def read(text: str, path: str = "<input>", **_: object) -> Iterable[Entry]:
        return read_family(text, path, fmt)

    return read


def _write_json(puzzle: GridPuzzle) -> str:
    """A Mathdoku as its cages, any other puzzle as its grid of givens."""
    return mathdoku.write(puzzle, "json") if puzzle.cages else sudoku.write_json_grid(puzzle)


def _mathdoku(name: str, description: str, hint: str, separator: str = SEPARATOR + "\n") -> Format:
    """One of the Mathdoku cage-file formats; `hint` a regular expression its first line matches."""
    read, write = _reader(mathdoku.iter_text, name), partial(mathdoku.write, fmt=name)
    return Format(name, ("mathdoku",), description, mathdoku.SNIFFERS[name], read, write, separator, _hint(hint))


def _hint(pattern: str) -> Callable[[str], bool]:
    """A hint: whether a stripped first line matches the regular expression `pattern` at its start."""
    return re.compile(pattern).match  # type: ignore[return-value]


_ALL = (
    Format(
        "line",
        ("sudoku",),
        "n*n symbols or integers on a line, many a file; Gecode's index:N:RxC:grid lines",
        lambda lines: sudoku.detect_layout(lines) == "line",
        _sudoku_reader("line"),
        sudoku.write_line,
        hint=_hint(r"[0-9A-Za-z.-]{10,}(:|$)"),
        symbols=True,
    ),
    Format(
        "grid",
        ("sudoku",),
        "n rows of symbols or integers, | - + borders allowed; a blank or `Grid 01` line between puzzles",
        lambda lines: sudoku.detect_layout(lines) == "grid",
        _sudoku_reader("grid"),
        sudoku.write_grid,
        "\n",
        _hint(r"[0-9.][0-9.|+ -]{3,}$"),
        symbols=True,
    ),
    _mathdoku("cagelist", "the order n, then `op target count cell...` per cage, cells 1..n*n", r"[0-9]+$"),
    _mathdoku(
        "lettergrid", "n rows of cage letters, a blank line, `a: 12*` legend lines", r"[0-9]*[A-Za-z][A-Za-z0-9]*$"
    ),
    _mathdoku("indexgrid", "`n k`, n rows of cage indices, `index op target` lines", r"[0-9]+\s+[0-9]+$"),
    _mathdoku(
        "oneline", "`id:n:difficulty:13+@0,1,6 ...:count:solution`, 0-based cells, many a file", r".*:.*:.*@", ""
    ),
    _mathdoku("cellnames", "the order n, then `11 + A1 A2` lines", r"[0-9]+$"),
    Format(
        "json",
        ("mathdoku", "sudoku", "qwh"),
        '{"size": n, "cages": [...]}; a grid {"n": n, "box": [r, c] or null, "grid": rows}; many one after another',
        lambda lines: mathdoku.sniff_json(lines) or sudoku.sniff_json_grid(lines),
        _reader(mathdoku.iter_text, "json"),
        _write_json,
        hint=_hint(r"[{\[]"),
    ),
    Format(
        "keen",
        ("mathdoku",),
        "Keen game IDs N:LAYOUT,CLUES (Simon Tatham's puzzles), one a line",
        tatham.sniff_keen,
        _reader(tatham.iter_text, "keen"),
        tatham.write_keen,
        hint=_hint(r"[0-9]+[a-z]*:\S*,"),
    ),
    Format(
        "solo",
        ("sudoku",),
        "Solo game IDs RxC:DESC, plain Sudoku (Simon Tatham's puzzles), one a line",
        tatham.sniff_solo,
        _reader(tatham.iter_text, "solo"),
        tatham.write_solo,
        hint=_hint(r"[0-9]+x[0-9]+"),
    ),
    Format(
        "pls",
        ("qwh",),
        "`order n`, n rows of entries, -1 a hole, symbols 0..n-1 (Gomes' lsencode files)",
        latin.sniff_pls,
        _reader(latin.iter_text, "pls"),
        latin.write_pls,
        SEPARATOR + "\n",
        _hint(r"(?i)order"),
    ),
    Format(
        "qwh",
        ("qwh",),
        "`name:n:holes:e,e,...:status:solution`, one a line, symbols 0..n-1",
        latin.sniff_qwh,
        _reader(latin.iter_text, "qwh"),
        latin.write_qwh,
        hint=_hint(r"[^:]*:[0-9]+:.*,"),
    ),
    Format(
        "pseudocoup",
        ("sudoku", "qwh"),
        "Fowler's pseudocoup input: cells in a stream, comments # // \" [..] <..>, hints {..}, edits [R,C]=V",
        pseudocoup.sniff,
        pseudocoup.read,
        pseudocoup.write,
        hint=_hint(r"(?![\[{]\s*\")(?:[\[<\"{]|//)"),  # a JSON object or array starts `{"` or `["`: not this
    ),
    Format(
        "dlx",
        ("exact cover",),
        "Knuth's DLX1-DLX3 files: an item line (`|` before secondary items), then one option a line",
        dlx.sniff,
        dlx.read_entries,
        dlx.write_dlx,
        None,
        extensions=(".dlx",),
    ),
    Format(
        "sudoku-dlx",
        ("exact cover",),
        "what Knuth's SUDOKU-DLX writes for a plain Sudoku: |sudoku!... comment, pRC rRD cCD bBD (written only)",
        None,
        None,
        knuth.write_sudoku_dlx,
        None,
    ),
    Format(
        "dance",
        ("exact cover",),
        "what Knuth's SUDOKU (2005) writes for DANCE for a plain Sudoku: pRC rKD cKD bKD (written only)",
        None,
        None,
        knuth.write_dance,
        None,
    ),
)

FORMATS: dict[str, Format] = {f.name: f for f in _ALL}
"""Every text format by name, in the order they are listed (by family)."""

DETECTION_ORDER = (
    *("solo", "keen", "pls", "qwh"),
    *("json", "oneline", "lettergrid", "indexgrid", "cagelist", "cellnames"),
    *("dlx", "pseudocoup", "line", "grid"),
)
"""The order detect() tries the formats in: the most distinctive first, `grid` (rows of cells) last."""

SOLUTION_FORMATS = ("grid", "line", "json")
"""How a solution is printed: a grid with box or cage borders, one line of symbols, or JSON."""
NATIVE_SOLUTIONS = ("pls", "qwh", "pseudocoup")
"""Input formats whose solutions write_solution also writes in the format itself (pls, qwh: symbols 0..n-1)."""
HINT_FORMATS = ("pseudocoup", "dlx")
"""The formats that carry candidate hints (GridPuzzle.domains): pseudocoup's, and dlx as the exact cover's options."""


def input_formats() -> tuple[str, ...]:
    """The names of the formats that can be read."""
    return tuple(name for name, f in FORMATS.items() if f.read)


def output_formats() -> tuple[str, ...]:
    """The names of the formats that can be written."""
    return tuple(name for name, f in FORMATS.items() if f.write)


def help_table(names: Sequence[str]) -> str:
    """The formats called `names` as help text, one line each: name, families, description."""
    return "\n".join(f"  {n:<11}{', '.join(FORMATS[n].families):<22}{FORMATS[n].description}" for n in names)


def detect(text: str, path: str = "") -> str | None:
    """The name of the format of `text` read from `path`: the one its file-name ending names, or detected; or None.

    A format that claims the ending (`.dlx`) wins; else the first in DETECTION_ORDER whose sniff matches.
    """
    return detect_lines([ln.strip() for _, ln in content_lines(text)[: sudoku.DETECT_LINES]], path)


def detect_lines(lines: list[str], path: str = "", known: Mapping[str, bool] | None = None) -> str | None:
    """detect() of a text whose first sudoku.DETECT_LINES content lines, stripped, are `lines`.

    `known`: what some sniffs say of these lines, found by their caller in a cheaper way (not asked again).
    """
    by_name = next((f.name for f in FORMATS.values() if path.lower().endswith(f.extensions or ("\0",))), None)
    if by_name:
        return by_name
    known = known or {}
    for name in DETECTION_ORDER:
        sniff = FORMATS[name].sniff
        if known[name] if name in known else sniff is not None and sniff(lines):
            return name
    return None


def read_text(
    text: str, path: str = "<input>", fmt: str = "auto", box: tuple[int, int] | None = None, symbols: str = ""
) -> list[Entry]:
    """Every puzzle in `text`, of any family, one Entry each (iter_entries, as a list)."""
    return list(iter_entries(text, path, fmt, box, symbols))


def iter_entries(
    text: str, path: str = "<input>", fmt: str = "auto", box: tuple[int, int] | None = None, symbols: str = ""
) -> Iterator[Entry]:
    """Every puzzle in `text`, of any family, one Entry each (Entry.fmt its format's name), parsed when reached.

    `fmt` forces a format, `box` a Sudoku box shape, `symbols` the one-character symbols of Sudoku lines
    and grids (symbols[v - 1] for value v; parse_symbols reads them from an option such as `0-9A-F`).
    An unknown `fmt` raises CpModelsError at once, before any entry.
    """
    content = content_lines(text)
    if not content:
        return iter(empty_input(path))
    name = detect(text, path) if fmt == "auto" else fmt
    if name is None:
        return iter([_not_recognised(content[0], path)])
    found = FORMATS.get(name)
    if found is None or found.read is None:
        raise CpModelsError(f"unknown input format {fmt!r}; choose one of: auto, {', '.join(input_formats())}")
    read = found.read(text, path, box=box, symbols=symbols)
    return (entry if entry.fmt == name else replace(entry, fmt=name) for entry in read)


def _not_recognised(first: tuple[int, str], path: str) -> Entry:
    """The Entry of a text no format takes: the formats its first line looks closest to, and --from."""
    k, line = first
    near = [name for name in DETECTION_ORDER if (hint := FORMATS[name].hint) and hint(line.strip())]
    closest = f" (its first line looks closest to {', '.join(near)})" if near else ""
    message = f"not recognised as a puzzle in any known format{closest}; name its format with --from FORMAT"
    return Entry(k, error=ParseError(message, path=path, line=k))


def write_puzzle(puzzle: GridPuzzle | ExactCoverProblem, fmt: str, symbols: str = "") -> str:
    """`puzzle` written in format `fmt`; CpModelsError, saying why, if that format cannot carry it.

    Formats of one-character cells (line, grid) write them in `symbols` (symbols[v - 1] for v), default 1-9A-Z.
    An exact-cover problem is written as a DLX file (dlx) only; a puzzle with candidate hints in HINT_FORMATS only.
    """
    found = _writer(fmt)
    if isinstance(puzzle, ExactCoverProblem):
        if fmt != "dlx":
            raise CpModelsError(f"an exact-cover problem is no grid puzzle: it is written as dlx only, not {fmt}")
        return dlx.write_cover(puzzle)
    if puzzle.domains and fmt not in HINT_FORMATS:
        raise CpModelsError(
            f"the {fmt} format cannot carry candidate hints, which this puzzle has; write it as pseudocoup"
        )
    return found.write(puzzle, symbols=symbols) if symbols and found.symbols else found.write(puzzle)  # type: ignore[misc]


def _writer(fmt: str) -> Format:
    """The format called `fmt`, if it can be written; CpModelsError naming the formats that can otherwise."""
    found = FORMATS.get(fmt)
    if found is None or found.write is None:
        raise CpModelsError(f"unknown output format {fmt!r}; choose one of: {', '.join(output_formats())}")
    return found


def write_puzzles(
    puzzles: Iterable[GridPuzzle | ExactCoverProblem],
    fmt: str,
    symbols: str = "",
    on_error: Callable[[GridPuzzle | ExactCoverProblem, CpModelsError], None] | None = None,
) -> Iterator[str]:
    """The pieces of a stream of `puzzles` in format `fmt`, one a puzzle written, to be joined as they come.

    Each is the format's separator (after the first), the puzzle's text and a line break; joined, they read
    back (read_text with fmt) to the puzzles written.

    A puzzle the format cannot carry, or a second one where a file holds one (dlx), raises CpModelsError
    saying why, or is given to on_error(puzzle, error) and left out.
    """
    found, written = _writer(fmt), 0
    for puzzle in puzzles:
        try:
            if written and found.separator is None:
                raise CpModelsError(f"a {fmt} file holds one puzzle; write each puzzle to a file of its own")
            text = write_puzzle(puzzle, fmt, symbols)
        except CpModelsError as error:
            if on_error is None:
                raise
            on_error(puzzle, error)
            continue
        yield (found.separator or "" if written else "") + text.rstrip("\n") + "\n"
        written += 1


def write_solution(puzzle: GridPuzzle, grid: tuple[int, ...], fmt: str, symbols: str = "") -> str:
    """A grid of `puzzle` (0 = empty) as `grid` (box or cage borders), `line`, `json`, `pls`, `qwh` or `pseudocoup`.

    pls writes the grid as a pls file and qwh the puzzle's qwh line with `:SAT:` and the grid (both in
    symbols 0..n-1); pseudocoup as Fowler's program prints a solution; grid and line write one-character
    cells in `symbols` (default 1-9A-Z).
    """
    box = box_of(puzzle)
    if fmt == "line":
        return sudoku.format_line(grid, symbols)
    if fmt == "json":
        return sudoku.format_json(grid, box)
    if fmt == "pls":
        return latin.format_pls(grid)
    if fmt == "qwh":
        return latin.write_qwh(puzzle, solution=grid)
    if fmt == "pseudocoup":
        return pseudocoup.format_solution(grid, box)
    if fmt != "grid":
        choices = ", ".join((*SOLUTION_FORMATS, *NATIVE_SOLUTIONS))
        raise CpModelsError(f"unknown solution format {fmt!r}; choose one of: {choices}")
    if puzzle.cages:
        return mathdoku.format_solution(puzzle, grid)
    return sudoku.format_grid(grid, box, symbols)


def solution_format(fmt: str) -> str:
    """The format solutions of a puzzle read in format `fmt` print in by default: its own for pls and qwh, else grid."""
    return fmt if fmt in NATIVE_SOLUTIONS else "grid"


__all__ = [
    "DETECTION_ORDER",
    "FORMATS",
    "NATIVE_SOLUTIONS",
    "SOLUTION_FORMATS",
    "Entry",
    "Format",
    "content_lines",
    "detect",
    "detect_lines",
    "help_table",
    "input_formats",
    "output_formats",
    "parse_symbols",
    "iter_entries",
    "read_text",
    "solution_format",
    "write_puzzle",
    "write_puzzles",
    "write_solution",
]
