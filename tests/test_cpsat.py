"""CP-SAT on every box shape, exact counts that are known facts, planted and unsolvable puzzles."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpmodels import BACKENDS, GridPuzzle, count_solutions, is_solution, is_unique, solve, sudoku_puzzle
from cpmodels.backends.cpsat import CpsatBackend, build_model, solve_model
from cpmodels.errors import UnknownBackendError
from cpmodels.formats.sudoku import read_text
from cpmodels.generate import punch, random_grid
from cpmodels.grid import latin_units

from .conftest import FIXTURES, data_lines, shared_data

BOXES = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (2, 5), (3, 4), (4, 4), (5, 5), (6, 6), (8, 8)]


@pytest.fixture(params=["enumerate", "forbid"])
def backend(request):
    """The CP-SAT backend under a test name: one-worker enumeration, or solve-and-forbid with 2 workers."""
    name = f"cpsat-{request.param}"
    BACKENDS[name] = CpsatBackend(method=request.param, workers=1 if request.param == "enumerate" else 2)
    yield name
    del BACKENDS[name]


@pytest.mark.parametrize("box", BOXES, ids=lambda b: f"{b[0]}x{b[1]}")
def test_every_box_shape_solves_a_planted_puzzle(box):
    rng = random.Random(box[0] * 100 + box[1])
    grid = random_grid(box, rng)
    n = box[0] * box[1]
    puzzle = sudoku_puzzle(punch(grid, n * n // 3, rng), box)
    result = solve(puzzle, time_limit=60)
    assert result.status == "solved" and is_solution(puzzle, result.solutions[0])


def test_empty_4x4_sudoku_has_288_solutions():
    assert count_solutions(sudoku_puzzle([0] * 16), limit=1000) == 288


def test_latin_squares_of_order_4_number_576():
    square = GridPuzzle(4, latin_units(4), (0,) * 16)
    result = solve(square, limit=1000)
    assert result.count == 576 and result.complete and len(set(result.solutions)) == 576


def test_latin_squares_of_order_3_number_12(backend):
    """Both methods; solve-and-forbid runs 2 workers, where CP-SAT's own enumeration is not exact."""
    result = solve(GridPuzzle(3, latin_units(3), (0,) * 9), limit=100, backend=backend)
    assert result.count == 12 and result.complete and len(set(result.solutions)) == 12


def test_count_stops_at_the_limit():
    result = solve(sudoku_puzzle([0] * 16), limit=5)
    assert result.count == 5 and not result.complete and result.status == "multiple"


def test_known_counts_from_tdoku_sample(backend):
    for entry, (_, line) in zip(
        read_text((FIXTURES / "sudoku" / "tdoku_sample.txt").read_text()),
        data_lines(FIXTURES / "sudoku" / "tdoku_sample.txt"),
    ):
        count = int(line.split(":")[1])
        if backend == "cpsat-forbid" and count > 20:
            continue  # one re-solve per solution: meant for uniqueness proofs, too slow to count hundreds
        result = solve(entry.puzzle, limit=count + 1, backend=backend)
        assert result.count == count and result.complete, entry.puzzle.name
        assert len(set(result.solutions)) == count
        if count == 1:
            assert "".join(map(str, result.solutions[0])) == line.split(":")[2]


def test_gecode_16x16_sample_is_unique():
    for entry in read_text((FIXTURES / "sudoku" / "gecode_16x16_sample.txt").read_text()):
        assert is_unique(entry.puzzle)


def test_shared_tdoku_counts_agree():
    path = shared_data("sudoku9/tdoku_test_puzzles.txt")
    for entry, (_, line) in zip(read_text(path.read_text()), data_lines(path)):
        count = int(line.split(":")[1])
        assert count_solutions(entry.puzzle, limit=count + 1) == count, entry.puzzle.name


def test_shared_serg_multiple_counts_agree():
    path = shared_data("sudoku9/serg_benchmark.txt")
    lines = data_lines(path)[:20]
    for entry, (_, line) in zip(read_text("\n".join(ln for _, ln in lines)), lines):
        count = int(line.split(":")[1])
        assert count_solutions(entry.puzzle, limit=count + 1) == count


def test_shared_norvig_hardest_unique():
    path = shared_data("sudoku9/norvig_hardest.txt")
    for entry, (_, line) in zip(read_text(path.read_text()), data_lines(path)):
        result = solve(entry.puzzle, limit=2)
        assert result.status == "unique"
        assert "".join(map(str, result.solutions[0])) == line.split(":")[2]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(box=st.sampled_from(BOXES[:8]), seed=st.integers(0, 2**32), fraction=st.floats(0.0, 0.8))
def test_planted_puzzles_come_back_solved(box, seed, fraction):
    rng = random.Random(seed)
    grid = random_grid(box, rng)
    puzzle = sudoku_puzzle(punch(grid, int(len(grid) * fraction), rng), box)
    result = solve(puzzle, limit=2)
    assert result.status in ("unique", "multiple")
    assert all(is_solution(puzzle, s) for s in result.solutions)
    assert grid in result.solutions or result.status == "multiple"


def test_time_limit_is_honoured():
    """An empty 36x36 grid counted to a huge limit must stop at the time limit, not finish."""
    result = solve(sudoku_puzzle([0] * 36**2), limit=10**9, time_limit=0.5)
    assert not result.complete and result.status == "timeout"


def test_model_is_handed_to_users():
    """A notebook can take the model and add a constraint: here r1c1 = 4 in an empty 4x4."""
    compiled = build_model(sudoku_puzzle([0] * 16))
    compiled.model.add(compiled.cells[0] == 4)
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    assert solver.solve(compiled.model) == cp_model.OPTIMAL and solver.value(compiled.cells[0]) == 4


def test_unknown_backend_lists_valid_ones():
    with pytest.raises(UnknownBackendError, match="unknown backend 'gecode'; choose one of: cpsat"):
        solve(sudoku_puzzle([0] * 16), backend="gecode")


def test_solve_model_counts_an_extended_model_exactly():
    """r1c1 = 1 added to an empty 4x4 leaves a quarter of its 288 grids, each passing the checker."""
    puzzle = sudoku_puzzle([0] * 16)
    compiled = build_model(puzzle)
    compiled.model.add(compiled.cells[0] == 1)
    result = solve_model(compiled, puzzle, limit=1000)
    assert (
        result.count == 72 and result.complete and all(g[0] == 1 and is_solution(puzzle, g) for g in result.solutions)
    )
