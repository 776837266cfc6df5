"""Pictures of puzzles: a Sudoku, a Mathdoku or a Latin square (QWH) as an SVG or PNG, drawn with matplotlib.

What is drawn:
  every puzzle  thin lines between all cells, a heavy outer border, and heavy lines on `boundaries`: between
                cells of different boxes (a Sudoku of any box shape, read with sudoku.box_of) and between
                cells of different cages (a Mathdoku); givens in bold black at the centre of their cells;
  a Mathdoku    each cage's label (Cage.label: `12+`, `3` for a one-cell `=` cage, the target alone for a
                hidden operator) in small text at the top-left corner of the cage's first cell (its top
                row, leftmost cell: cages are sorted);
  a Latin square or QWH (no boxes, no cages)  empty cells (holes) shaded light grey;
  a solution    its values in the cells that have no given, in blue (a 0 leaves the cell empty).
Values are numbers (10, 11, ... above 9), or symbols[v - 1] when an alphabet of at least n symbols is given
(formats.sudoku.SYMBOLS writes 1-9A-Z). Fonts and line widths scale with the cell size, so any order up to 64
draws; a 64 x 64 wants some 1500 pixels to be read.

How: matplotlib's object API (a Figure and its Axes, never pyplot), imported inside the functions so that
`import cpmodels` does not load it. svg, png and save render under a lock with fixed settings (text kept as
<text> elements, a fixed hash salt for ids, no date, the fonts of FONTS), so the same puzzle gives the same
SVG bytes whatever the caller's matplotlib style; rcParams are process-wide, and the lock keeps two renders
from changing them under each other. draw and draw_on use the caller's settings.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import CpModelsError
from .grid import Cell, GridPuzzle
from .sudoku import box_of

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

Point = tuple[int, int]
Segment = tuple[Point, Point]
"""A unit segment of the grid's lines, as two corner points (row, column), 0..n each, the first the smaller."""

DPI = 96
"""Pixels per inch of the figures, CSS pixels: `size` pixels make a size / DPI inch figure, in PNG and SVG alike."""
FORMATS = (".svg", ".png")
"""The file extensions save writes."""
GIVEN_COLOUR = "black"
SOLUTION_COLOUR = "#1f5fbf"
HOLE_COLOUR = "#e0e0e0"
LINE_COLOUR = "black"
FONTS = ["DejaVu Sans", "Arial", "Helvetica"]
"""The fonts of every label, best first: matplotlib ships DejaVu Sans; an SVG viewer without any falls back to
its own sans-serif."""
_RC: dict[str, Any] = {
    "svg.fonttype": "none",
    "svg.hashsalt": "cpmodels.draw",
    "font.family": "sans-serif",
    "font.sans-serif": FONTS,
}
_LOCK = threading.Lock()


def boundaries(puzzle: GridPuzzle) -> list[Segment]:
    """The inner unit segments drawn heavy: between cells of different boxes or of different cages, sorted."""
    region = _regions(puzzle)
    n, found = puzzle.n, []
    for r in range(n):
        for c in range(n):
            if c + 1 < n and region[(r, c)] != region[(r, c + 1)]:
                found.append(((r, c + 1), (r + 1, c + 1)))  # the vertical segment right of (r, c)
            if r + 1 < n and region[(r, c)] != region[(r + 1, c)]:
                found.append(((r + 1, c), (r + 1, c + 1)))  # the horizontal segment below (r, c)
    return sorted(found)


def _regions(puzzle: GridPuzzle) -> dict[Cell, tuple[int, int]]:
    """Each cell's (box, cage) pair: cells apart in either are split by a heavy line (-1 for none)."""
    n, box = puzzle.n, box_of(puzzle)
    cage_of = {cell: k for k, cage in enumerate(puzzle.cages) for cell in cage.cells}
    boxes = (lambda r, c: (r // box[0]) * n + c // box[1]) if box else (lambda r, c: -1)
    return {(r, c): (boxes(r, c), cage_of.get((r, c), -1)) for r in range(n) for c in range(n)}


def grid_margin(n: int) -> float:
    """The room left around an order-n grid, in cells: enough for half its heavy outer border."""
    return 0.04 + 0.02 * n / 9


def symbol(value: int, n: int, symbols: str = "") -> str:
    """How a value is written: symbols[value - 1] if `symbols` has at least n of them, else the number."""
    return symbols[value - 1] if len(symbols) >= n else str(value)


def draw(puzzle: GridPuzzle, solution: Sequence[int] | None = None, *, size: int = 480, symbols: str = "") -> Figure:
    """A new size x size pixel matplotlib Figure of the puzzle (and solution), made without pyplot."""
    if not isinstance(size, int) or not 16 <= size <= 20_000:
        raise CpModelsError(f"picture size must be a whole number of pixels from 16 to 20000, not {size!r}")
    figure_type = _matplotlib().figure.Figure
    fig = figure_type(figsize=(size / DPI, size / DPI), dpi=DPI, facecolor="white")
    draw_on(fig.add_axes((0, 0, 1, 1)), puzzle, solution, symbols=symbols)
    return fig


def draw_on(axes: Axes, puzzle: GridPuzzle, solution: Sequence[int] | None = None, *, symbols: str = "") -> None:
    """Draw the puzzle (and solution) on an existing Axes, fonts scaled to its size now (a panel of a figure)."""
    n = puzzle.n
    _check_solution(puzzle, solution)
    margin = grid_margin(n)
    axes.set_xlim(-margin, n + margin)
    axes.set_ylim(n + margin, -margin)  # row 0 at the top
    axes.set_aspect("equal")
    axes.set_axis_off()
    cell = _cell_points(axes, n + 2 * margin)
    _shade_holes(axes, puzzle)
    _draw_lines(axes, puzzle, cell)
    _draw_labels(axes, puzzle, cell)
    _draw_values(axes, puzzle, solution, cell, symbols)


def svg(puzzle: GridPuzzle, solution: Sequence[int] | None = None, size: int = 480, *, symbols: str = "") -> str:
    """The picture as SVG text, the same bytes for the same puzzle (text as <text> elements)."""
    return _render(puzzle, solution, size, symbols, "svg").decode("utf-8")


def png(puzzle: GridPuzzle, solution: Sequence[int] | None = None, size: int = 480, *, symbols: str = "") -> bytes:
    """The picture as PNG bytes, size x size pixels."""
    return _render(puzzle, solution, size, symbols, "png")


def save(
    puzzle: GridPuzzle, path: str | Path, solution: Sequence[int] | None = None, size: int = 480, *, symbols: str = ""
) -> None:
    """Write the picture to `path`, SVG or PNG by its extension; CpModelsError for another or an unwritable path."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        known = " or ".join(FORMATS)
        raise CpModelsError(f"cannot draw to {str(path)!r}: unknown extension {suffix or '(none)'!r}, use {known}")
    data = _render(puzzle, solution, size, symbols, suffix[1:])
    try:
        Path(path).write_bytes(data)
    except OSError as error:
        raise CpModelsError(f"cannot write the picture to {str(path)!r}: {error.strerror or error}") from None


@dataclass(frozen=True)
class Picture:
    """A puzzle (and solution) that shows itself as a picture in a notebook (_repr_svg_, _repr_png_)."""

    puzzle: GridPuzzle
    solution: Sequence[int] | None = None
    size: int = 480
    symbols: str = ""

    def _repr_svg_(self) -> str:
        return svg(self.puzzle, self.solution, self.size, symbols=self.symbols)

    def _repr_png_(self) -> bytes:
        return png(self.puzzle, self.solution, self.size, symbols=self.symbols)


def _matplotlib() -> Any:
    """The matplotlib package with its figure module loaded; CpModelsError if it is not installed."""
    try:
        import matplotlib
        import matplotlib.figure
    except ImportError:
        raise CpModelsError("drawing puzzles needs matplotlib: pip install matplotlib") from None
    return matplotlib


def _render(puzzle: GridPuzzle, solution: Sequence[int] | None, size: int, symbols: str, fmt: str) -> bytes:
    """The picture encoded by matplotlib as `fmt` (svg or png), under the lock and the fixed settings."""
    mpl = _matplotlib()
    metadata = {"Date": None, "Creator": None} if fmt == "svg" else {"Software": None}
    buffer = io.BytesIO()
    with _LOCK, mpl.rc_context(_RC):
        fig = draw(puzzle, solution, size=size, symbols=symbols)
        fig.savefig(buffer, format=fmt, dpi=DPI, facecolor="white", metadata=metadata)
    return buffer.getvalue()


def _check_solution(puzzle: GridPuzzle, solution: Sequence[int] | None) -> None:
    """Raise CpModelsError unless `solution` is None or n*n values 0..n."""
    if solution is None:
        return
    n = puzzle.n
    if len(solution) != n * n:
        raise CpModelsError(f"a solution of an order-{n} grid has {n * n} cells, not {len(solution)}")
    if any(not 0 <= v <= n for v in solution):
        raise CpModelsError(f"a solution of an order-{n} grid holds values 0..{n}")


def _cell_points(axes: Axes, span: float) -> float:
    """The side of a cell in points (1/72 inch) on `axes`, which shows `span` cells across."""
    box = axes.get_window_extent()
    return min(box.width, box.height) / span * 72 / axes.figure.dpi


def _shade_holes(axes: Axes, puzzle: GridPuzzle) -> None:
    """Shade the empty cells of a Latin square (no boxes, no cages) light grey."""
    if puzzle.cages or box_of(puzzle):
        return
    from matplotlib.collections import PolyCollection

    holes = [puzzle.cell(i) for i, v in enumerate(puzzle.givens) if not v]
    squares = [[(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)] for r, c in holes]
    axes.add_collection(PolyCollection(squares, facecolors=HOLE_COLOUR, edgecolors="none", zorder=0))


def _draw_lines(axes: Axes, puzzle: GridPuzzle, cell: float) -> None:
    """Thin lines between all cells, heavy ones on the boundaries and around the grid."""
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Rectangle

    n = puzzle.n
    thin, heavy = max(0.3, cell * 0.02), max(1.2, cell * 0.07)
    grid = [[(k, 0), (k, n)] for k in range(1, n)] + [[(0, k), (n, k)] for k in range(1, n)]
    axes.add_collection(LineCollection(grid, colors=LINE_COLOUR, linewidths=thin, zorder=1))
    heavy_lines = [[(c, r) for r, c in segment] for segment in boundaries(puzzle)]  # (x, y) = (column, row)
    axes.add_collection(
        LineCollection(heavy_lines, colors=LINE_COLOUR, linewidths=heavy, capstyle="projecting", zorder=2)
    )
    border = Rectangle((0, 0), n, n, fill=False, edgecolor=LINE_COLOUR, linewidth=heavy, joinstyle="miter", zorder=3)
    axes.add_patch(border)


def _draw_labels(axes: Axes, puzzle: GridPuzzle, cell: float) -> None:
    """Each cage's label in small text at the top-left corner of its first cell."""
    for cage in puzzle.cages:
        r, c = min(cage.cells)
        axes.text(c + 0.07, r + 0.06, cage.label(), fontsize=cell * 0.24, ha="left", va="top", color=GIVEN_COLOUR)


def _draw_values(axes: Axes, puzzle: GridPuzzle, solution: Sequence[int] | None, cell: float, symbols: str) -> None:
    """The givens in bold black, and the solution's values in the other cells in blue."""
    low = 0.1 if puzzle.cages else 0.0  # below a cage label
    for i, given, colour, weight in _values(puzzle, solution):
        r, c = puzzle.cell(i)
        text = symbol(given, puzzle.n, symbols)
        fontsize = cell * min(0.6, 1.0 / len(text)) * (0.85 if low else 1)
        axes.text(
            c + 0.5,
            r + 0.5 + low,
            text,
            fontsize=fontsize,
            ha="center",
            va="center_baseline",
            color=colour,
            fontweight=weight,
        )


def _values(puzzle: GridPuzzle, solution: Sequence[int] | None) -> Iterator[tuple[int, int, str, str]]:
    """(cell index, value, colour, weight) of every value to write: givens, then the solution's other cells."""
    for i, v in enumerate(puzzle.givens):
        if v:
            yield i, v, GIVEN_COLOUR, "bold"
    for i, v in enumerate(solution or ()):
        if v and not puzzle.givens[i]:
            yield i, v, SOLUTION_COLOUR, "normal"
