"""Reading puzzles from text whatever their family: the Entry each reader yields, one per puzzle."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .errors import CpModelsError, ParseError
from .grid import GridPuzzle


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


def content_lines(text: str) -> list[tuple[int, str]]:
    """The (1-based line number, line) pairs of `text` that are neither blank nor `#` comments."""
    return [
        (k, ln) for k, ln in enumerate(text.splitlines(), start=1) if ln.strip() and not ln.lstrip().startswith("#")
    ]


SOLUTION_FORMATS = ("grid", "line", "json")
"""How a solution is printed: a grid with box or cage borders, one line of symbols, or JSON."""


def input_formats() -> tuple[str, ...]:
    """Every format name the readers know, each family's own."""
    from . import latin, mathdoku, sudoku

    return (*sudoku.FORMATS, *mathdoku.FORMATS, "keen", "solo", *latin.FORMATS)


def detect(text: str) -> str:
    """The format of `text`: a Tatham game ID, a QWH file, a Mathdoku cage file, else `auto` (Sudoku decides)."""
    from . import latin, mathdoku, tatham

    return tatham.detect(text) or latin.detect(text) or mathdoku.detect(text) or "auto"


def read_text(text: str, path: str = "<input>", fmt: str = "auto", box: tuple[int, int] | None = None) -> list[Entry]:
    """Every puzzle in `text`, of any family, one Entry each; `fmt` forces a format, `box` a Sudoku box shape."""
    from . import latin, mathdoku, sudoku, tatham

    if fmt == "auto":
        fmt = detect(text)
    if fmt in ("keen", "solo"):
        return tatham.read_text(text, path, fmt)
    if fmt in latin.FORMATS:
        return latin.read_text(text, path, fmt)
    if fmt in mathdoku.FORMATS:
        return mathdoku.read_text(text, path, fmt)
    if fmt in ("auto", *sudoku.FORMATS):
        return sudoku.read_text(text, path, fmt, box)
    raise CpModelsError(f"unknown input format {fmt!r}; choose one of: auto, {', '.join(input_formats())}")


def write_puzzle(puzzle: GridPuzzle, fmt: str) -> str:
    """`puzzle` written in format `fmt`: any input format, or a Sudoku's givens as grid, line or JSON."""
    from . import latin, mathdoku, tatham

    if fmt == "pls":
        return latin.write_pls(puzzle)
    if fmt == "qwh":
        return latin.write_qwh(puzzle)
    if fmt == "keen":
        return tatham.write_keen(puzzle)
    if fmt == "solo":
        return tatham.write_solo(puzzle)
    if fmt in mathdoku.FORMATS and (puzzle.cages or fmt != "json"):
        return mathdoku.write(puzzle, fmt)
    if fmt in SOLUTION_FORMATS:
        return write_solution(puzzle, puzzle.givens, fmt)
    raise CpModelsError(f"unknown output format {fmt!r}; choose one of: {', '.join(input_formats())}")


def write_solution(puzzle: GridPuzzle, grid: tuple[int, ...], fmt: str) -> str:
    """A grid of `puzzle` (0 = empty) as `grid` (box or cage borders), `line` or `json`."""
    from . import mathdoku, sudoku

    box = sudoku.box_of(puzzle)
    if fmt == "line":
        return sudoku.format_line(grid)
    if fmt == "json":
        return sudoku.format_json(grid, box)
    if fmt != "grid":
        raise CpModelsError(f"unknown solution format {fmt!r}; choose one of: {', '.join(SOLUTION_FORMATS)}")
    if puzzle.cages:
        return mathdoku.format_solution(puzzle, grid)
    return sudoku.format_grid(grid, box)
