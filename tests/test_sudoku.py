"""Sudoku readers and writers: every format, exact error positions, round trips, box shapes."""

import random

import pytest

from cpmodels.errors import ParseError, PuzzleError
from cpmodels.formats.sudoku import format_grid, format_json, format_line, read_puzzle, read_text
from cpmodels.generate import punch, random_grid
from cpmodels.sudoku import box_of, default_box, parse_box, sudoku_puzzle

from .conftest import FIXTURES

BOXES = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (2, 5), (3, 4), (4, 4), (5, 5), (6, 6), (8, 8)]


@pytest.mark.parametrize("n, box", [(4, (2, 2)), (6, (2, 3)), (8, (2, 4)), (9, (3, 3)), (12, (3, 4)), (10, (2, 5))])
def test_default_box_is_most_square_with_fewer_rows(n, box):
    assert default_box(n) == box


def test_prime_order_has_no_box():
    with pytest.raises(PuzzleError, match="order 7 is prime"):
        default_box(7)


def test_parse_box():
    assert parse_box("3x2") == (3, 2)
    with pytest.raises(PuzzleError, match="not of the form RxC"):
        parse_box("3by2")


def test_box_that_does_not_divide_order():
    with pytest.raises(PuzzleError, match="a 2x4 box holds 8 cells, but the grid has order 9"):
        sudoku_puzzle([0] * 81, (2, 4))


@pytest.mark.parametrize("box", BOXES)
def test_writers_round_trip(box):
    rng = random.Random(sum(box))
    givens = punch(random_grid(box, rng), len(BOXES) * 3, rng)
    puzzle = sudoku_puzzle(givens, box)
    assert box_of(puzzle) == box
    assert read_puzzle(format_grid(givens, box), box=box) == puzzle
    assert read_puzzle(format_line(givens), box=box) == puzzle
    assert f'"box": [{box[0]}, {box[1]}]' in format_json(givens, box)


def test_integer_rows_for_order_64():
    box = (8, 8)
    grid = random_grid(box, random.Random(64))
    text = "\n".join(" ".join(map(str, grid[r * 64 : (r + 1) * 64])) for r in range(64))
    assert read_puzzle(text).givens == grid


def test_pasted_grid_with_decoration():
    puzzle = read_puzzle((FIXTURES.parent.parent / "examples" / "pasted_grid.txt").read_text())
    assert puzzle.givens[:9] == (5, 3, 0, 0, 7, 0, 0, 0, 0)
    assert puzzle.givens[-1] == 9


def test_16x16_letters_lower_and_upper_case():
    grid = random_grid((4, 4), random.Random(3))
    line = format_line(grid)
    assert read_puzzle(line.lower()).givens == grid


def test_gecode_line_takes_its_box():
    entries = read_text((FIXTURES / "sudoku" / "gecode_16x16_sample.txt").read_text())
    assert len(entries) == 3 and all(e.puzzle and box_of(e.puzzle) == (4, 4) for e in entries)


def test_count_and_solution_fields_are_skipped():
    entries = read_text((FIXTURES / "sudoku" / "tdoku_sample.txt").read_text())
    assert all(e.puzzle and e.puzzle.n == 9 for e in entries)
    assert entries[0].line == 3


def _error(text, **kw):
    with pytest.raises(ParseError) as err:
        read_puzzle(text, path="p.txt", **kw)
    return err.value


def test_bad_symbol_line_and_column():
    e = _error("# comment\n" + "1" * 10 + "x" + "." * 70)
    assert (e.line, e.column) == (2, 11) and "'x' is not a value of an order-9 grid" in e.message
    assert str(e).startswith("p.txt:2:11: ")


def test_wrong_length():
    e = _error("." * 80)
    assert (e.line, e.column) == (1, 80) and "80 symbols do not make a square grid" in e.message


def test_value_above_order():
    e = _error("5" + "." * 15)
    assert (e.line, e.column) == (1, 1) and "order-4" in e.message


def test_grid_row_with_wrong_length():
    e = _error("1 2 3 4\n. . . .\n. . .\n. . . .")
    assert e.line == 3 and "row has 3 cells, but the grid has 4 rows" in e.message


def test_integer_grid_bad_token():
    e = _error("10 0 0 0 0 0 0 0 0 0\n" + "0 0 0 0 0 x 0 0 0 0\n" + "0 0 0 0 0 0 0 0 0 0\n" * 8)
    assert (e.line, e.column) == (2, 11)


def test_given_repeated_in_column_reported_with_line():
    e = _error("1...\n....\n1...\n....")
    assert e.line == 1 and "given 1 at r3c1 repeats in column 1 (also at r1c1)" in e.message


def test_given_repeated_in_box():
    with pytest.raises(PuzzleError, match=r"given 2 at r2c2 repeats in the box r1c1..r2c2 \(also at r1c1\)"):
        sudoku_puzzle([2, 0, 0, 0, 0, 2] + [0] * 10)


def test_empty_file():
    e = _error("# only a comment\n\n")
    assert e.line == 1 and "no puzzle found" in e.message


def test_one_bad_line_does_not_stop_the_rest():
    entries = read_text("." * 81 + "\n" + "." * 80 + "\n" + "." * 16 + "\n")
    assert [bool(e.puzzle) for e in entries] == [True, False, True]
    assert entries[1].error.line == 2


def test_forced_box_shape():
    puzzle = read_puzzle("." * 36, box=(3, 2))
    assert box_of(puzzle) == (3, 2)
