"""First tests of the core: the checker, Sudoku parsing, and CP-SAT counts that are known facts."""

import pytest

from cpmodels import Cage, GridPuzzle, count_solutions, is_solution, solve, sudoku_puzzle
from cpmodels.errors import ParseError, PuzzleError
from cpmodels.formats.sudoku import read_puzzle

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def test_empty_4x4_sudoku_has_288_solutions():
    assert count_solutions(sudoku_puzzle([0] * 16), limit=1000) == 288


def test_inkala_is_unique_and_checked():
    puzzle = read_puzzle(INKALA)
    result = solve(puzzle, limit=2)
    assert result.status == "unique" and result.count == 1 and result.complete
    assert is_solution(puzzle, result.solutions[0])


def test_checker_rejects_a_swapped_pair():
    puzzle = read_puzzle(INKALA)
    grid = list(solve(puzzle).solutions[0])
    grid[1], grid[2] = grid[2], grid[1]
    assert not is_solution(puzzle, grid)


def test_repeated_given_names_cells():
    with pytest.raises(PuzzleError, match=r"given 3 at r1c2 repeats in row 1 \(also at r1c1\)"):
        sudoku_puzzle([3, 3] + [0] * 14)


def test_bad_symbol_position():
    with pytest.raises(ParseError) as err:
        read_puzzle("12.4" + "x" + "." * 11)
    assert (err.value.line, err.value.column) == (1, 5)


def test_cage_cells_in_a_line_that_is_no_unit_are_refused():
    """Cage tables take two cells of one row or column to differ: a puzzle where no unit says so is refused."""
    rows = ((0, 1), (2, 3))
    with pytest.raises(PuzzleError, match="share column 1, which is not a unit"):
        GridPuzzle(2, rows, (0,) * 4, (Cage(((0, 0), (1, 0)), "/", 1),))
    assert GridPuzzle(2, rows + ((0, 2), (1, 3)), (0,) * 4, (Cage(((0, 0), (1, 0)), "+", 3),)).cages
