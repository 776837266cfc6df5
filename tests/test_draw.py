"""Pictures of puzzles (cpmodels.draw): SVG text per value and label, heavy lines, PNG size, save's refusals."""

from __future__ import annotations

import io
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from cpmodels import draw, formats  # noqa: E402
from cpmodels.errors import CpModelsError  # noqa: E402
from cpmodels.formats.sudoku import SYMBOLS  # noqa: E402
from cpmodels.grid import GridPuzzle  # noqa: E402
from cpmodels.latin import latin_puzzle  # noqa: E402
from cpmodels.mathdoku import hide_operators  # noqa: E402
from cpmodels.sudoku import sudoku_puzzle  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
FIXTURES = Path(__file__).parent / "fixtures" / "mathdoku"
NINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SIX_GRID = (1, 2, 3, 4, 5, 6, 4, 5, 6, 1, 2, 3, 2, 3, 1, 5, 6, 4, 5, 6, 4, 2, 3, 1, 3, 1, 2, 6, 4, 5, 6, 4, 5, 3, 1, 2)
KEEN = "4:_a_6bb_a_a3,a7d2m3s2a5d2m12"  # 7+ 2/ 3* 2- 5+ 2/ 12*


def read(text: str) -> GridPuzzle:
    entry = formats.read_text(text)[0]
    assert entry.puzzle is not None, entry.error
    return entry.puzzle


def texts(svg_text: str) -> list[ET.Element]:
    """The <text> elements of an SVG, which must parse as XML."""
    return list(ET.fromstring(svg_text).iter(f"{SVG}text"))


def words(svg_text: str) -> list[str]:
    return sorted(t.text or "" for t in texts(svg_text))


def six_sudoku() -> GridPuzzle:
    givens = [v if i % 3 == 0 or i % 7 == 1 else 0 for i, v in enumerate(SIX_GRID)]
    return sudoku_puzzle(givens, (2, 3))


def test_sudoku_svg_has_one_text_per_given_in_its_cell():
    puzzle = read(NINE)
    found = texts(draw.svg(puzzle, size=480))
    assert sorted(t.text or "" for t in found) == sorted(str(v) for v in puzzle.givens if v)
    margin = draw.grid_margin(9)  # the grid starts `margin` cells in
    cell = 360 / (9 + 2 * margin)  # 480 px = 360 pt
    placed = set()
    for t in found:
        x, y = float(t.attrib["x"]), float(t.attrib["y"])
        c, r = int(x / cell - margin), int(y / cell - margin)
        assert abs(x - (margin + c + 0.5) * cell) < 0.01, "centred in its column"
        placed.add((r * 9 + c, int(t.text or "")))
    assert placed == {(i, v) for i, v in enumerate(puzzle.givens) if v}


def test_svg_is_the_same_bytes_each_time_and_undated():
    puzzle = read(KEEN)
    first = draw.svg(puzzle)
    assert draw.svg(puzzle) == first
    assert "<dc:date>" not in first


def test_renders_in_threads_agree():
    puzzle = six_sudoku()
    alone = draw.svg(puzzle, SIX_GRID)
    results: list[str] = []
    workers = [threading.Thread(target=lambda: results.append(draw.svg(puzzle, SIX_GRID))) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert results == [alone] * 4


def test_boundaries_of_a_4x4_are_its_box_lines():
    inner = {((r, 2), (r + 1, 2)) for r in range(4)} | {((2, c), (2, c + 1)) for c in range(4)}
    assert set(draw.boundaries(sudoku_puzzle([0] * 16, (2, 2)))) == inner
    assert len(draw.boundaries(sudoku_puzzle([0] * 16, (2, 2)))) == 8


def test_boundaries_of_a_2x3_sudoku_and_the_heavy_lines_drawn():
    puzzle = six_sudoku()
    segments = draw.boundaries(puzzle)
    vertical = {((r, 3), (r + 1, 3)) for r in range(6)}
    horizontal = {((k, c), (k, c + 1)) for k in (2, 4) for c in range(6)}
    assert set(segments) == vertical | horizontal and len(segments) == 18
    axes = draw.draw(puzzle).axes[0]
    by_width = sorted(axes.collections, key=lambda lines: lines.get_linewidths()[0])
    assert [len(lines.get_segments()) for lines in by_width] == [10, 18]  # thin: 5 + 5 full lines; heavy


def test_a_latin_square_has_no_heavy_inner_lines_and_shaded_holes():
    puzzle = latin_puzzle([1, 0, 3, 0, 0, 4, 0, 2, 2, 0, 0, 3, 0, 3, 0, 1])
    assert draw.boundaries(puzzle) == []
    picture = draw.svg(puzzle)
    assert picture.count(draw.HOLE_COLOUR) == puzzle.givens.count(0)
    assert words(picture) == sorted(str(v) for v in puzzle.givens if v)
    assert draw.HOLE_COLOUR not in draw.svg(sudoku_puzzle(puzzle.givens)), "a Sudoku's empty cells are not shaded"


def test_mathdoku_boundaries_split_cages():
    puzzle = read(KEEN)  # rows: A B B C / A D E C / A D E F / G G G F
    segments = draw.boundaries(puzzle)
    assert len(segments) == 24 - 9  # inner neighbour pairs, less those within a cage
    assert ((0, 1), (1, 1)) in segments  # A | B
    assert ((0, 2), (1, 2)) not in segments  # B B
    assert ((3, 0), (3, 1)) in segments  # A over G
    assert ((3, 3), (3, 4)) not in segments  # F over F


def test_mathdoku_svg_has_each_cage_label_and_no_value_without_a_solution():
    puzzle = read(KEEN)
    assert words(draw.svg(puzzle)) == sorted(["7+", "2/", "3*", "2-", "5+", "2/", "12*"])


def test_labels_sit_at_the_top_left_of_each_cage():
    puzzle = read(KEEN)
    margin = draw.grid_margin(4)
    cell = 360 / (4 + 2 * margin)
    corners = {
        (int(float(t.attrib["y"]) / cell - margin), int(float(t.attrib["x"]) / cell - margin))
        for t in texts(draw.svg(puzzle))
    }
    assert corners == {min(cage.cells) for cage in puzzle.cages}


def test_hidden_operators_show_the_target_alone_and_one_cell_cages_their_value():
    puzzle = read((FIXTURES / "six.ken").read_text())
    assert any(cage.op == "=" for cage in puzzle.cages)
    assert words(draw.svg(puzzle)) == sorted(cage.label() for cage in puzzle.cages)
    assert "3" in words(draw.svg(puzzle))  # the 3= cages
    hidden = hide_operators(puzzle)
    assert words(draw.svg(hidden)) == sorted(str(cage.target) for cage in puzzle.cages)


def test_a_solution_fills_the_other_cells_in_the_solution_colour():
    puzzle = six_sudoku()
    found = texts(draw.svg(puzzle, SIX_GRID))
    coloured = [t for t in found if draw.SOLUTION_COLOUR in t.attrib.get("style", "")]
    assert len(found) == 36 and sorted(t.text or "" for t in found) == sorted(map(str, SIX_GRID))
    assert len(coloured) == puzzle.givens.count(0)
    assert all("font-weight: 700" in t.attrib["style"] for t in found if t not in coloured)


def test_a_mathdoku_with_its_solution_shows_labels_and_values():
    from cpmodels import solve

    puzzle = read(KEEN)
    solution = solve(puzzle).solutions[0]
    expected = sorted([cage.label() for cage in puzzle.cages] + [str(v) for v in solution])
    assert words(draw.svg(puzzle, solution)) == expected


def test_values_above_nine_are_numbers_or_the_symbols_given():
    grid = [(r * 4 + r // 4 + c) % 16 + 1 for r in range(16) for c in range(16)]  # a 4x4-box Sudoku grid
    puzzle = sudoku_puzzle([v if v >= 10 else 0 for v in grid])
    assert set(words(draw.svg(puzzle))) == {str(v) for v in range(10, 17)}
    assert set(words(draw.svg(puzzle, symbols=SYMBOLS))) == set("ABCDEFG")


def test_order_64_draws_every_given():
    puzzle = latin_puzzle([(r + c) % 64 + 1 if (r * 7 + c) % 5 == 0 else 0 for r in range(64) for c in range(64)])
    assert len(texts(draw.svg(puzzle, size=800))) == sum(1 for v in puzzle.givens if v)


@pytest.mark.parametrize("size", [480, 301])
def test_png_has_the_signature_and_the_size_asked_for(size):
    import matplotlib.image

    data = draw.png(read(KEEN), size=size)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert matplotlib.image.imread(io.BytesIO(data), format="png").shape[:2] == (size, size)


def test_save_writes_svg_and_png_by_extension(tmp_path):
    puzzle = six_sudoku()
    draw.save(puzzle, tmp_path / "six.svg", SIX_GRID)
    draw.save(puzzle, str(tmp_path / "six.PNG"), size=200)
    assert len(texts((tmp_path / "six.svg").read_text())) == 36
    assert (tmp_path / "six.PNG").read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("name", ["six.jpg", "six", "six.svg.gz"])
def test_save_refuses_an_unknown_extension(tmp_path, name):
    with pytest.raises(CpModelsError, match="unknown extension"):
        draw.save(six_sudoku(), tmp_path / name)
    assert not (tmp_path / name).exists()


def test_save_refuses_a_path_that_cannot_be_written(tmp_path):
    with pytest.raises(CpModelsError, match="cannot write"):
        draw.save(six_sudoku(), tmp_path / "missing" / "six.svg")
    (tmp_path / "folder.png").mkdir()
    with pytest.raises(CpModelsError, match="cannot write"):
        draw.save(six_sudoku(), tmp_path / "folder.png")


def test_bad_solution_or_size_is_refused():
    with pytest.raises(CpModelsError, match="36 cells"):
        draw.svg(six_sudoku(), SIX_GRID[:-1])
    with pytest.raises(CpModelsError, match="values 0..6"):
        draw.svg(six_sudoku(), (7,) * 36)
    with pytest.raises(CpModelsError, match="size"):
        draw.svg(six_sudoku(), size=0)


def test_picture_shows_itself_in_a_notebook():
    picture = draw.Picture(six_sudoku(), SIX_GRID, size=240)
    assert picture._repr_svg_() == draw.svg(six_sudoku(), SIX_GRID, 240)
    assert picture._repr_png_().startswith(b"\x89PNG")


def test_importing_cpmodels_and_draw_loads_no_matplotlib():
    code = "import sys, cpmodels, cpmodels.draw\nprint('matplotlib' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_draw_on_puts_puzzles_side_by_side_on_panels_of_one_figure():
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 4), dpi=draw.DPI)
    left, right = figure.subplots(1, 2)
    draw.draw_on(left, six_sudoku())
    draw.draw_on(right, read(KEEN), symbols=SYMBOLS)
    assert len(left.texts) == sum(1 for v in six_sudoku().givens if v)
    assert sorted(t.get_text() for t in right.texts) == sorted(c.label() for c in read(KEEN).cages)
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg")
    ET.fromstring(buffer.getvalue())


def test_svg_does_not_depend_on_the_callers_matplotlib_style():
    import matplotlib

    puzzle = read(KEEN)
    plain = draw.svg(puzzle)
    with matplotlib.rc_context({"font.family": "serif", "svg.fonttype": "path", "svg.hashsalt": None}):
        assert draw.svg(puzzle) == plain
