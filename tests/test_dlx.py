"""The dlx backend on grid puzzles: known counts, agreement with CP-SAT, DLX files of puzzles, the time limit.

Exact cover as a problem of its own (DLX1-DLX3 files, Knuth's exports) is tested in test_exact_cover.py.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpmodels import BACKENDS, Cage, GridPuzzle, ParseError, PuzzleError, is_solution, solve, sudoku_puzzle
from cpmodels.backends.cpsat import CpsatBackend
from cpmodels.backends.dlx import compile_puzzle, exact_cover, solve_exact_cover
from cpmodels.formats.dlx import cover_from_names, item_names, read_dlx, solve_dlx, write_dlx, write_exact_cover
from cpmodels.formats.sudoku import read_text
from cpmodels.generate import planted_mathdoku, punch, random_grid
from cpmodels.grid import latin_units
from cpmodels.mathdoku import hide_operators, mathdoku_puzzle
from cpmodels.sudoku import sudoku_units

from .conftest import FIXTURES, data_lines, shared_data

BOXES = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (2, 5), (3, 4), (4, 4)]
CPSAT = CpsatBackend()
KNUTH = """| TAOCP 7.2.2.1 (5): the small example with exactly one solution
a b c d e f g
c e
a d g
b c f
a d f
b g
d e g
"""


@pytest.fixture(scope="module", autouse=True)
def dlx():
    """The registered dlx backend (cpmodels.solve checks every grid it returns), its kernel compiled once."""
    backend = BACKENDS["dlx"]
    backend.warm_up()
    return backend


def agree_with_cpsat(puzzle: GridPuzzle, limit: int = 2) -> int:
    """The count dlx finds up to `limit`, asserted equal to CP-SAT's (and the same solutions when both finish)."""
    mine = solve(puzzle, backend="dlx", limit=limit)
    theirs = CPSAT.solve(puzzle, limit=limit)
    assert mine.count == theirs.count
    if mine.count < limit:
        assert mine.complete and theirs.complete and set(mine.solutions) == set(theirs.solutions)
    assert all(is_solution(puzzle, grid) for grid in mine.solutions)
    return mine.count


# ---- counts that are known facts -----------------------------------------------------------------


def test_empty_4x4_sudoku_has_288_solutions():
    result = solve(sudoku_puzzle([0] * 16), backend="dlx", limit=1000)
    assert result.count == 288 and result.complete and len(set(result.solutions)) == 288


def test_latin_squares_of_order_4_number_576():
    result = solve(GridPuzzle(4, latin_units(4), (0,) * 16), backend="dlx", limit=1000)
    assert result.count == 576 and result.complete and len(set(result.solutions)) == 576
    assert result.stats["items"] == 16 + 8 * 4 and result.stats["options"] == 64


def test_latin_squares_of_order_5_number_161280(dlx):
    """More solutions than one kernel buffer holds: they come out in several blocks (unchecked: 161280 grids)."""
    result = dlx.solve(GridPuzzle(5, latin_units(5), (0,) * 25), limit=200_000)
    assert result.count == 161280 and result.complete and len(set(result.solutions)) == 161280


def test_count_stops_at_the_limit():
    result = solve(sudoku_puzzle([0] * 16), backend="dlx", limit=5)
    assert result.count == 5 and not result.complete and result.status == "multiple"


def test_known_counts_from_tdoku_sample():
    path = FIXTURES / "sudoku" / "tdoku_sample.txt"
    for entry, (_, line) in zip(read_text(path.read_text()), data_lines(path), strict=True):
        count = int(line.split(":")[1])
        result = solve(entry.puzzle, backend="dlx", limit=count + 1)
        assert result.count == count and result.complete, entry.puzzle.name
        if count == 1:
            assert "".join(map(str, result.solutions[0])) == line.split(":")[2]


def test_shared_norvig_top95_solutions():
    path = shared_data("sudoku9/norvig_top95.txt")
    for entry, (_, line) in list(zip(read_text(path.read_text()), data_lines(path), strict=True))[::5]:
        result = solve(entry.puzzle, backend="dlx", limit=2)
        assert result.status == "unique" and "".join(map(str, result.solutions[0])) == line.split(":")[2]


def test_gecode_16x16_sample_is_unique():
    for entry in read_text((FIXTURES / "sudoku" / "gecode_16x16_sample.txt").read_text()):
        assert solve(entry.puzzle, backend="dlx", limit=2).status == "unique"


# ---- agreement with CP-SAT ------------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(box=st.sampled_from(BOXES), seed=st.integers(0, 2**32), fraction=st.floats(0.0, 0.7))
def test_planted_sudoku_agrees_with_cpsat(box, seed, fraction):
    rng = random.Random(seed)
    grid = random_grid(box, rng)
    puzzle = sudoku_puzzle(punch(grid, int(len(grid) * fraction), rng), box)
    assert agree_with_cpsat(puzzle) >= 1
    result = solve(puzzle, backend="dlx", limit=2)
    assert grid in result.solutions or result.status == "multiple"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(3, 7), seed=st.integers(0, 2**32), hidden=st.booleans())
def test_planted_mathdoku_agrees_with_cpsat(n, seed, hidden):
    puzzle, square = planted_mathdoku(n, random.Random(seed))
    puzzle = hide_operators(puzzle) if hidden else puzzle
    count = agree_with_cpsat(puzzle)
    assert count >= 1
    if count == 1:
        assert solve(puzzle, backend="dlx").solutions == [square]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_unsolvable_mathdoku_row_sums(n):
    """Row 1 in two + cages whose targets add to one less than 1 + ... + n: no Latin square fits."""
    total = n * (n + 1) // 2
    cages = [Cage(((0, 0),), "=", 1), Cage(tuple((0, c) for c in range(1, n)), "+", total - 2)]
    cages += [Cage(tuple((r, c) for c in range(n)), "+", total) for r in range(1, n)]
    assert agree_with_cpsat(mathdoku_puzzle(n, cages)) == 0


def test_a_fully_given_cage_that_breaks_its_rule_has_no_solution():
    cages = (Cage(((0, 0), (0, 1)), "+", 5),)
    puzzle = GridPuzzle(3, latin_units(3), (1, 2, 0) + (0,) * 6, cages)
    result = solve(puzzle, backend="dlx", limit=2)
    assert result.status == "none" and result.complete


def test_quotient_cages_are_exact():
    """A 3/ cage in order 4 holds only 1,3 or 3,1: never 2,4 (4 // 2 = 2 truncates) nor 4,1."""
    cages = [Cage(((0, 0), (0, 1)), "/", 3)]
    cages += [Cage(((0, 2),), "=", 2), Cage(((0, 3),), "=", 4)]
    cages += [Cage(tuple((r, c) for c in range(4)), "+", 10) for r in range(1, 4)]
    result = solve(mathdoku_puzzle(4, cages), backend="dlx", limit=1000)
    assert result.complete and result.count == agree_with_cpsat(mathdoku_puzzle(4, cages), 1000)
    assert {grid[:2] for grid in result.solutions} == {(1, 3), (3, 1)}


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), box=st.sampled_from([(2, 2), (2, 3)]))
def test_cages_across_a_box_diagonal_agree_with_cpsat(seed, box):
    """Killer-style + cages on box diagonals: a tuple repeating a value in its box must be no option."""
    rng = random.Random(seed)
    grid = random_grid(box, rng)
    n = box[0] * box[1]
    cages = []
    for top in range(0, n, box[0]):
        for left in range(0, n - 1, box[1]):
            cells = ((top, left), (top + 1, left + 1))
            cages.append(Cage(cells, "+", sum(grid[r * n + c] for r, c in cells)))
    puzzle = GridPuzzle(n, sudoku_units(n, box), tuple(punch(grid, n * n, rng)), tuple(cages))
    assert agree_with_cpsat(puzzle, limit=50) >= 1


# ---- the time limit ---------------------------------------------------------------------------


def test_time_limit_is_honoured(dlx):
    """Counting every 16x16 Sudoku cannot finish: the kernel, resumed in chunks, stops at the time limit.

    The backend is called directly: cpmodels.solve would check each of the many grids found in Python.
    """
    puzzle = sudoku_puzzle([0] * 256)
    result = dlx.solve(puzzle, limit=10**9, time_limit=0.5)
    assert not result.complete and result.status == "timeout" and 0 < result.count < 10**9
    assert len(set(result.solutions)) == result.count
    assert all(is_solution(puzzle, grid) for grid in result.solutions[:: max(1, result.count // 50)])


# ---- Knuth's DLX format ------------------------------------------------------------------------


def test_knuths_example_has_one_solution():
    result, options = solve_dlx(KNUTH, limit=10)
    assert result.count == 1 and result.complete
    assert [options[k] for k in sorted(result.solutions[0])] == [["c", "e"], ["a", "d", "f"], ["b", "g"]]
    assert (result.nodes, result.updates) == (6, 29)  # DLX1's counts on this file


def test_secondary_items_are_covered_at_most_once():
    text = "| x and y primary, s secondary\nx y | s\nx s\ny s\nx\ny\n"
    result, _ = solve_dlx(text, limit=10)
    assert result.complete and sorted(tuple(sorted(s)) for s in result.solutions) == [(0, 3), (1, 2), (2, 3)]


def test_exact_cover_from_lists():
    cover = exact_cover(7, 0, [[2, 4], [0, 3, 6], [1, 2, 5], [0, 3, 5], [1, 6], [3, 4, 6]])
    assert [sorted(s) for s in solve_exact_cover(cover, limit=5).solutions] == [[0, 3, 4]]
    assert cover.option(3) == [0, 3, 5] and cover.n_items == 7 and cover.n_options == 6


def test_dlx_text_round_trip():
    primary, secondary, options = read_dlx(KNUTH)
    assert primary == list("abcdefg") and secondary == [] and len(options) == 6
    assert read_dlx(write_exact_cover(primary, secondary, options)) == (primary, secondary, options)


def small_puzzles() -> list[GridPuzzle]:
    """A planted Mathdoku of order 4, a hidden-operator one of order 5, a 4x4 Sudoku with 10 givens."""
    rng = random.Random(7)
    return [
        planted_mathdoku(4, rng)[0],
        hide_operators(planted_mathdoku(5, rng)[0]),
        sudoku_puzzle(punch(random_grid((2, 2), rng), 6, rng), (2, 2)),
    ]


@pytest.mark.parametrize("puzzle", small_puzzles(), ids=["mathdoku4", "hidden5", "sudoku4"])
def test_puzzle_written_as_dlx_solves_the_same(puzzle):
    """The file stands alone (givens are forced options): its solutions decode to the backend's grids."""
    text = write_dlx(puzzle)
    assert text.startswith("| cpmodels exact cover")
    primary, secondary, options = read_dlx(text)
    assert max(len(name) for name in primary + secondary) <= 8
    found = solve_exact_cover(cover_from_names(primary, secondary, options), limit=100)
    compiled = compile_puzzle(puzzle, precover=False)
    grids = set()
    for solution in found.solutions:
        grid = list(puzzle.givens)
        for k in solution:
            start, end = compiled.cell_start[k], compiled.cell_start[k + 1]
            for cell, value in zip(compiled.cells[start:end], compiled.values[start:end], strict=True):
                grid[cell] = int(value)
        grids.add(tuple(grid))
    assert found.complete and grids == set(solve(puzzle, backend="dlx", limit=100).solutions)


def test_item_names_of_a_9x9_sudoku():
    puzzle = sudoku_puzzle([0] * 81)
    names = item_names(puzzle, compile_puzzle(puzzle))
    assert names[:2] == ["p1_1", "p1_2"] and "r3v5" in names and "c7v5" in names and "b9v9" in names
    assert len(names) == len(set(names)) == 4 * 81


def test_item_names_fit_8_characters_up_to_order_64():
    puzzle = sudoku_puzzle([0] * 64**2)
    names = item_names(puzzle, compile_puzzle(puzzle))
    assert max(map(len, names)) <= 8 and len(set(names)) == 4 * 64**2 and "p64_64" in names and "b64v64" in names


def test_short_units_are_secondary_items():
    """A unit of 2 cells in order 3 (a diagonal pair) may miss values: its items follow the bar."""
    units = latin_units(3) + ((0, 4),)
    puzzle = GridPuzzle(3, units, (0,) * 9)
    _, secondary, _ = read_dlx(write_dlx(puzzle))
    assert secondary == ["b1v1", "b1v2", "b1v3"]
    assert agree_with_cpsat(puzzle, limit=100) == 6  # of the 12 Latin squares, those with r1c1 != r2c2


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        ("a b\na b:1\n", "primary item 'b' takes no colour", 2, 4),
        ("a | b\na b:\n", "no colour after the ':'", 2, 4),
        ("a 0|b\na\n", "upper bound is zero", 1, 3),
        ("a 3:2|b\na\n", "lower bound 3 exceeds the upper bound 2", 1, 3),
        ("a | 2|b\na\n", "a secondary item has no bounds", 1, 6),
        ("a b\n:x b\n", "an empty item name", 2, 1),
        ("a b\n", "no options", 1, None),
        ("", "no item line", 1, None),
        ("a b\na z\n", "unknown item 'z'", 2, 3),
        ("a | b | c\na\n", "a second '|'", 1, 7),
        ("| comment\nabcdefghi\n", "at most 8 characters", 2, 1),
        ("a b a\n", "named twice", 1, 5),
        ("a b\nb a b\n", "appears twice", 2, 5),
        ("| b\n\n| a\n", "no item line", 1, None),
    ],
)
def test_bad_dlx_text_is_located(text, message, line, column):
    with pytest.raises(ParseError, match=message) as caught:
        read_dlx(text, path="x.dlx")
    assert (caught.value.line, caught.value.column, caught.value.path) == (line, column, "x.dlx")


def test_can_solve_refuses_what_it_cannot_model():
    backend = BACKENDS["dlx"]
    assert backend.can_solve(sudoku_puzzle([0] * 81)) is None
    assert "above 64" in backend.can_solve(GridPuzzle(65, (), (0,) * 65**2))
    with pytest.raises(PuzzleError, match="not a unit"):  # refused by the puzzle itself now, before any backend
        GridPuzzle(3, (), (0,) * 9, (Cage(((0, 0), (0, 1)), "+", 3),))


# ---- keep, and limits beyond 64 bits ---------------------------------------------------------------


def test_the_kernel_counts_past_the_grids_it_keeps(dlx):
    """keep=1000 of the 161280 Latin squares of order 5: the kernel writes 1000 rows and only counts the rest."""
    result = dlx.solve(GridPuzzle(5, latin_units(5), (0,) * 25), limit=200_000, keep=1000)
    assert result.count == 161280 and result.complete and len(set(result.solutions)) == 1000
    one = dlx.solve(GridPuzzle(5, latin_units(5), (0,) * 25), limit=200_000, keep=1)
    assert one.count == 161280 and one.solutions == result.solutions[:1]


def test_solve_exact_cover_keeps_and_clamps():
    """Knuth's example has one cover; Latin squares of order 3 as an exact cover, 12 counted, 2 kept."""
    knuth = exact_cover(7, 0, [[2, 4], [0, 3, 6], [1, 2, 5], [0, 3, 5], [1, 6], [3, 4, 6]])
    found = solve_exact_cover(knuth, limit=2**64, time_limit=float("inf"))
    assert [sorted(s) for s in found.solutions] == [[0, 3, 4]] and found.count == 1 and found.complete
    latin = compile_puzzle(GridPuzzle(3, latin_units(3), (0,) * 9)).cover
    two = solve_exact_cover(latin, limit=10**30, keep=2)
    assert two.count == 12 and two.complete and len(two.solutions) == 2
