"""The naive backend: the lecture notes' row-major depth-first search, checked against backtrack and CP-SAT."""

import random
import time

import pytest

from cpmodels import BACKENDS, GridPuzzle, solve
from cpmodels.backends.naive import (
    CHECK_EVERY,
    SPARSE_LIMIT,
    NaiveBackend,
    compile_puzzle,
    dead_end_bound,
    search,
)
from cpmodels.cages import holds
from cpmodels.formats.mathdoku import read_puzzle, read_text
from cpmodels.generate import planted_mathdoku, punch, qwh, random_grid
from cpmodels.grid import Cage, explain_violation, latin_units
from cpmodels.mathdoku import hide_operators
from cpmodels.sudoku import sudoku_puzzle

from .conftest import FIXTURES, unsolvable_sudoku

NAIVE = NaiveBackend()


def all_grids(puzzle, limit=10**6):
    """Every solution the naive backend finds (up to `limit`), each checked by the solver-free checker."""
    result = NAIVE.solve(puzzle, limit=limit)
    assert result.complete or result.count == limit
    assert result.count == len(result.solutions) == len(set(result.solutions))
    for grid in result.solutions:
        assert explain_violation(puzzle, grid) is None
    return result


def reference_count(puzzle, limit):
    """The count up to `limit` from backtrack and from CP-SAT, which must agree."""
    counts = {name: solve(puzzle, backend=name, limit=limit).count for name in ("backtrack", "cpsat")}
    assert len(set(counts.values())) == 1, counts
    return counts["backtrack"]


# ---- counts agree with the other backends -------------------------------------------------------


def test_the_empty_4x4_sudoku_has_288_solutions():
    puzzle = sudoku_puzzle([0] * 16)
    result = all_grids(puzzle)
    assert result.count == 288 and result.status == "multiple"
    assert set(result.solutions) == set(solve(puzzle, backend="backtrack", limit=1000).solutions)


def test_the_latin_squares_of_order_3_and_4():
    assert all_grids(GridPuzzle(3, latin_units(3), (0,) * 9)).count == 12
    assert all_grids(GridPuzzle(4, latin_units(4), (0,) * 16)).count == 576


@pytest.mark.parametrize("box", [(2, 3), (3, 2)])
def test_6x6_sudoku_counts_agree(box):
    rng = random.Random(sum(box) * 7 + box[0])
    for holes in (14, 20, 24):
        puzzle = sudoku_puzzle(punch(random_grid(box, rng), holes, rng), box)
        assert all_grids(puzzle).count == reference_count(puzzle, 10**6)


def test_the_mathdoku_fixtures_are_unique_and_right():
    for line in (FIXTURES / "mathdoku" / "puzzles.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        (entry,) = read_text(line)
        result = all_grids(entry.puzzle, limit=2)
        solution = tuple(int(ch) for ch in line.rsplit(":", 1)[1])
        assert result.status == "unique" and result.solutions == [solution]
    six = read_puzzle((FIXTURES / "mathdoku" / "six.ken").read_text())
    assert all_grids(hide_operators(six), limit=3).count == reference_count(hide_operators(six), 3)


@pytest.mark.parametrize("seed", range(6))
def test_random_puzzles_agree(seed):
    """Planted Mathdoku (with and without operators), a punched Sudoku and a QWH square, counted up to 3."""
    rng = random.Random(seed)
    puzzle, grid = planted_mathdoku(3 + seed % 4, rng)
    sudoku = sudoku_puzzle(punch(random_grid((3, 3), rng), 30 + seed, rng))
    square, _ = qwh(7, 20 + seed, rng)
    for p in (puzzle, hide_operators(puzzle), sudoku, square):
        assert NAIVE.can_solve(p) is None
        assert all_grids(p, limit=3).count == reference_count(p, 3)
    assert grid in all_grids(puzzle, limit=10**6).solutions


def test_unsolvable_puzzles_are_none_and_complete():
    for box in [(2, 2), (2, 3), (3, 3), (4, 4)]:
        puzzle = unsolvable_sudoku(box, random.Random(sum(box)))
        assert NAIVE.can_solve(puzzle) is None
        result = NAIVE.solve(puzzle, limit=2)
        assert (result.status, result.count, result.complete) == ("none", 0, True)
        assert result.stats["nodes"] <= box[0] * box[1]  # the first cell has no value left
    caged = GridPuzzle(2, latin_units(2), (1, 0, 0, 0), (Cage(((0, 0), (0, 1)), "+", 4),))
    assert NAIVE.solve(caged, limit=2).status == "none"


# ---- the search itself ---------------------------------------------------------------------------


def test_nodes_and_backtracks_of_the_2x2_latin_square_counted_by_hand():
    """Cells a b / c d, values 1 then 2: 14 values tried, 7 cells run out.

    Tries: a1, b1 (row) b2, c1 (column) c2, d1 = the first square, d2 fails; d, c, b run out (3 backtracks);
    a2, b1, c1, d1 fails, d2 = the second square; d, c, b, a run out (4 more), c2 and b2 failing on the way.
    """
    result = NAIVE.solve(GridPuzzle(2, latin_units(2), (0,) * 4), limit=10)
    assert result.solutions == [(1, 2, 2, 1), (2, 1, 1, 2)] and result.complete
    assert (result.stats["nodes"], result.stats["backtracks"]) == (14, 7)
    first = NAIVE.solve(GridPuzzle(2, latin_units(2), (0,) * 4), limit=1)
    assert first.stats["nodes"] == 6 and not first.complete and first.status == "solved"


def independent_nodes(puzzle):
    """Values tried by a recursive row-major search that checks each placement against the whole grid."""
    n = puzzle.n
    grid = list(puzzle.givens)
    empty = [i for i, g in enumerate(grid) if not g]
    last = {max(i for i in cage_cells(cage, n) if not grid[i]): cage for cage in puzzle.cages}
    tried = 0

    def fits(i):
        if any(grid[j] == grid[i] for unit in puzzle.units if i in unit for j in unit if j != i):
            return False
        cage = last.get(i)
        return cage is None or holds(cage.op, cage.target, [grid[j] for j in cage_cells(cage, n)])

    def fill(d):
        nonlocal tried
        if d == len(empty):
            return
        for v in range(1, n + 1):
            tried += 1
            grid[empty[d]] = v
            if fits(empty[d]):
                fill(d + 1)
        grid[empty[d]] = 0

    fill(0)
    return tried


def cage_cells(cage, n):
    return [r * n + c for r, c in cage.cells]


@pytest.mark.parametrize("which", ["sudoku4", "latin3", "mathdoku4", "hidden4"])
def test_nodes_equal_an_independent_count_of_a_full_search(which):
    puzzles = {
        "sudoku4": sudoku_puzzle([1, 0, 0, 0, 0, 0, 1, 0] + [0] * 8),
        "latin3": GridPuzzle(3, latin_units(3), (0,) * 9),
        "mathdoku4": planted_mathdoku(4, random.Random(3))[0],
        "hidden4": hide_operators(planted_mathdoku(4, random.Random(3))[0]),
    }
    puzzle = puzzles[which]
    result = NAIVE.solve(puzzle, limit=10**6)
    assert result.complete and result.stats["nodes"] == independent_nodes(puzzle)


# ---- limits: nodes, time, keep ------------------------------------------------------------------


def test_the_node_limit_stops_the_search():
    puzzle = sudoku_puzzle([0] * 81)
    result = NaiveBackend(node_limit=5000).solve(puzzle, limit=10**9)
    assert result.status == "timeout" and not result.complete and result.stats["nodes"] == 5000
    assert 0 < result.count < 10**9 and all(explain_violation(puzzle, g) is None for g in result.solutions)
    tiny = NaiveBackend(node_limit=3).solve(GridPuzzle(2, latin_units(2), (0,) * 4), limit=2)
    assert (tiny.status, tiny.count, tiny.stats["nodes"]) == ("timeout", 0, 3)
    with pytest.raises(ValueError, match="node_limit"):
        NaiveBackend(node_limit=-1)


def test_the_time_limit_stops_the_search():
    start = time.perf_counter()
    result = NAIVE.solve(sudoku_puzzle([0] * 81), limit=10**9, time_limit=0.3, keep=2)
    wall = time.perf_counter() - start
    assert result.status == "timeout" and not result.complete and len(result.solutions) == 2
    assert wall < 0.3 + 2.0 and result.stats["nodes"] > CHECK_EVERY  # the limit honoured, with room for a busy CI
    none_left = NAIVE.solve(sudoku_puzzle([0] * 16), limit=10, time_limit=0.0)
    assert none_left.status == "timeout" and none_left.stats["nodes"] == 0


def test_keep_and_the_solutions_found_first():
    puzzle = GridPuzzle(4, latin_units(4), (0,) * 16)
    kept = NAIVE.solve(puzzle, limit=10**6, keep=5)
    assert kept.count == 576 and kept.complete and len(kept.solutions) == 5
    assert kept.solutions[0] == (1, 2, 3, 4, 2, 1, 4, 3, 3, 4, 1, 2, 4, 3, 2, 1)  # row-major, smallest values first
    assert sorted(kept.solutions) == kept.solutions


def test_search_reads_a_compiled_puzzle():
    compiled = compile_puzzle(sudoku_puzzle([0] * 16))
    grids, count, complete, stats = search(compiled, 300, 0, None)
    assert (grids, count, complete, stats["cells"]) == ([], 288, True, 16)


def test_a_filled_grid_and_a_wrong_filled_cage():
    grid = (1, 2, 2, 1)
    assert NAIVE.solve(GridPuzzle(2, latin_units(2), grid), limit=2).solutions == [grid]
    wrong = GridPuzzle(2, latin_units(2), grid, (Cage(((0, 0), (0, 1)), "*", 3),))
    result = NAIVE.solve(wrong, limit=2)
    assert (result.status, result.complete, result.stats["nodes"]) == ("none", True, 0)


# ---- what it takes -------------------------------------------------------------------------------


def test_it_refuses_large_orders_and_sparse_puzzles_with_a_reason():
    assert "order 25 is above 16" in NAIVE.can_solve(sudoku_puzzle([0] * 625))
    assert NAIVE.can_solve(sudoku_puzzle([0] * 256)) is None  # no givens: filled nearly without going back
    rng = random.Random(1)
    sparse = sudoku_puzzle(punch(random_grid((3, 3), rng), SPARSE_LIMIT + 10, rng))
    assert dead_end_bound(sparse) is None
    assert f"{SPARSE_LIMIT + 10} empty cells" in NAIVE.can_solve(sparse)
    assert NAIVE.can_solve(sudoku_puzzle(punch(random_grid((3, 3), rng), SPARSE_LIMIT, rng))) is None
    assert NAIVE.can_solve(planted_mathdoku(8, rng)[0]) is not None
    assert NaiveBackend(node_limit=10**6).can_solve(sparse) is None  # bounded: it cannot run away
    assert "naive" in BACKENDS and BACKENDS["naive"].capabilities.max_order == 16


def test_warm_up_is_timed():
    assert 0 <= NAIVE.warm_up() < 1
