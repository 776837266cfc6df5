"""CP-SAT on every box shape, exact counts that are known facts, planted and unsolvable puzzles."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpmodels import BACKENDS, GridPuzzle, count_solutions, is_solution, is_unique, solve, sudoku_puzzle
from cpmodels.backends.cpsat import CpsatBackend, InvalidModelError, build_model, solve_model
from cpmodels.errors import BackendUnavailableError, UnknownBackendError
from cpmodels.formats.sudoku import read_text
from cpmodels.generate import punch, random_grid
from cpmodels.grid import Cage, latin_units

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
        strict=False,
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
    for entry, (_, line) in zip(read_text(path.read_text()), data_lines(path), strict=True):
        count = int(line.split(":")[1])
        assert count_solutions(entry.puzzle, limit=count + 1) == count, entry.puzzle.name


def test_shared_serg_multiple_counts_agree():
    path = shared_data("sudoku9/serg_benchmark.txt")
    lines = data_lines(path)[:20]
    for entry, (_, line) in zip(read_text("\n".join(ln for _, ln in lines)), lines, strict=True):
        count = int(line.split(":")[1])
        assert count_solutions(entry.puzzle, limit=count + 1) == count


def test_shared_norvig_hardest_unique():
    path = shared_data("sudoku9/norvig_hardest.txt")
    for entry, (_, line) in zip(read_text(path.read_text()), data_lines(path), strict=True):
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


# ---- solve_model: distinct grids, the caller's model untouched, an invalid model named ------------------


def with_reified_boolean(puzzle):
    """The model of `puzzle` plus a Boolean b with b => r1c1 == 1: b is free on the grids where r1c1 is 1."""
    compiled = build_model(puzzle)
    b = compiled.model.new_bool_var("b")
    compiled.model.add(compiled.cells[0] == 1).only_enforce_if(b)
    return compiled


@pytest.mark.parametrize("method", ["enumerate", "forbid"])
def test_solve_model_counts_grids_not_assignments_of_extra_variables(method):
    """An empty 4x4 has 288 grids; with the Boolean there are 288 + 72 assignments, which used to be the count."""
    puzzle = sudoku_puzzle([0] * 16)
    result = solve_model(with_reified_boolean(puzzle), puzzle, limit=1000, method=method)
    assert result.count == 288 and result.complete and result.status == "multiple"
    assert len(set(result.solutions)) == 288 and all(is_solution(puzzle, g) for g in result.solutions)


@pytest.mark.parametrize("method", ["enumerate", "forbid"])
def test_solve_model_leaves_the_callers_model_as_it_was(method):
    """The forbid method used to add its clauses to the caller's model: a second call then found other grids."""
    puzzle = sudoku_puzzle([0] * 16)
    compiled = with_reified_boolean(puzzle)
    before = str(compiled.model.proto)
    first = solve_model(compiled, puzzle, limit=5, method=method, workers=2 if method == "forbid" else 1)
    second = solve_model(compiled, puzzle, limit=5, method=method)
    assert str(compiled.model.proto) == before
    assert first.count == second.count == 5 and len(set(first.solutions)) == 5
    row = sudoku_puzzle([1, 2, 3, 4] + [0] * 12)  # 12 grids, r1c1 = 1 in each: b doubles every one
    compiled = with_reified_boolean(row)
    counted = [solve_model(compiled, row, limit=1000, method=method) for _ in range(2)]
    assert [(r.count, r.complete) for r in counted] == [(12, True), (12, True)]
    assert str(compiled.model.proto) == str(with_reified_boolean(row).model.proto)


def test_solve_model_keeps_what_it_is_asked_to_and_checks_every_grid():
    puzzle = sudoku_puzzle([0] * 16)
    result = solve_model(with_reified_boolean(puzzle), puzzle, limit=1000, keep=2)
    assert result.count == 288 and len(result.solutions) == 2
    other = sudoku_puzzle([1] + [0] * 15)  # a puzzle the model does not state: its grids break it
    with pytest.raises(RuntimeError, match="breaks the puzzle: r1c1 holds"):
        solve_model(build_model(puzzle), other, limit=1000)


def test_an_invalid_extension_is_an_error_naming_why_not_a_timeout():
    """MODEL_INVALID used to be reported as a timeout; CP-SAT's validation message is the error now."""
    puzzle = sudoku_puzzle([0] * 16)
    compiled = build_model(puzzle)
    compiled.model.new_int_var(5, 1, "empty")
    with pytest.raises(InvalidModelError, match="CP-SAT rejected the model: .*empty"):
        solve_model(compiled, puzzle, limit=2)


@pytest.mark.parametrize("encoding", ["auto", "table", "arith"])
def test_a_product_cage_of_zero_is_no_solution_in_every_encoding(encoding):
    """A Keen m0 (and a 5-cell *0, arithmetic in every encoding) made the model invalid, reported as timeout."""
    for cells in (((0, 0), (0, 1)), tuple((0, c) for c in range(5))):
        puzzle = GridPuzzle(9, latin_units(9), (0,) * 81, (Cage(cells, "*", 0),))
        result = CpsatBackend(encoding=encoding).solve(puzzle, limit=2, time_limit=10)
        assert (result.status, result.complete) == ("none", True)


def test_a_reachable_product_beyond_64_bits_is_refused_not_crashed():
    """9**21 > 2**63: a 21-cell product cage of 2**63 is within reach, but CP-SAT's integers cannot hold it."""
    cells = tuple((r, c) for r in range(3) for c in range(7))
    puzzle = GridPuzzle(9, latin_units(9), (0,) * 81, (Cage(cells, "*", 2**63),))
    assert "beyond CP-SAT's 64-bit integers" in CpsatBackend().can_solve(puzzle)
    with pytest.raises(BackendUnavailableError):
        solve(puzzle, limit=2)


def test_a_quotient_of_one_is_counted_once_per_grid():
    """A quotient of 1 is x == y: a free Boolean choosing x == t*y or y == t*x would count each grid twice."""
    # r1c1 and r2c2 share no unit, so they may be equal: both 2x2 Latin squares put one value on the diagonal
    puzzle = GridPuzzle(2, latin_units(2), (0,) * 4, (Cage(((0, 0), (1, 1)), "/", 1),))
    assert CpsatBackend(encoding="arith").solve(puzzle, limit=100).count == 2
