"""The sat backend: its CNF as documented, its counts equal to CP-SAT's and backtracking's, its time limits."""

import itertools
import random
import time

import pytest

pytest.importorskip("pysat")

from cpmodels import solve  # noqa: E402
from cpmodels.backends import sat  # noqa: E402
from cpmodels.backends.sat import SatBackend, cell_var, puzzle_cnf  # noqa: E402
from cpmodels.errors import CpModelsError  # noqa: E402
from cpmodels.formats import read_text  # noqa: E402
from cpmodels.generate import planted_mathdoku, punch, random_grid  # noqa: E402
from cpmodels.grid import GridPuzzle, is_solution, latin_units  # noqa: E402
from cpmodels.latin import latin_puzzle  # noqa: E402
from cpmodels.mathdoku import hide_operators  # noqa: E402
from cpmodels.sudoku import sudoku_puzzle  # noqa: E402

from .conftest import FIXTURES  # noqa: E402


def count(puzzle, backend, limit=10**6, **options):
    return solve(puzzle, backend=backend, limit=limit, keep=2, **options).count


def test_the_empty_4x4_sudoku_has_288_grids_and_the_latin_squares_of_order_4_are_576():
    assert count(sudoku_puzzle([0] * 16), "sat") == 288 == count(sudoku_puzzle([0] * 16), "cpsat")
    latin = latin_puzzle([0] * 16)
    result = solve(latin, backend="sat", limit=1000)
    assert result.count == 576 and result.complete and len(set(result.solutions)) == 576
    assert all(is_solution(latin, grid) for grid in result.solutions)


@pytest.mark.parametrize("name", ["four.json", "six.ken", "four_hidden.json", "six.cagelist"])
def test_mathdoku_fixtures_agree_with_cpsat(name):
    path = FIXTURES / "mathdoku" / name
    (entry,) = read_text(path.read_text(), str(path))
    assert entry.puzzle is not None
    ours, theirs = (solve(entry.puzzle, backend=b, limit=50) for b in ("sat", "cpsat"))
    assert ours.count == theirs.count and sorted(ours.solutions) == sorted(theirs.solutions)


@pytest.mark.parametrize("seed", range(6))
def test_random_puzzles_agree_with_cpsat_and_backtracking(seed):
    rng = random.Random(seed)
    box = [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (3, 3)][seed]
    grid = random_grid(box, rng)
    n = box[0] * box[1]
    sudoku = sudoku_puzzle(punch(grid, rng.randrange(n * n // 2, n * n - 2), rng), box)
    mathdoku, _ = planted_mathdoku(rng.choice([3, 4, 5]), rng)
    latin = latin_puzzle(punch(random_grid((1, 5), rng), 12, rng))
    for puzzle in (sudoku, mathdoku, hide_operators(mathdoku), latin):
        counts = {b: count(puzzle, b, limit=300) for b in ("sat", "cpsat", "backtrack")}
        assert len(set(counts.values())) == 1, counts


def test_a_16x16_sudoku_uses_the_sequential_counter_and_agrees():
    rng = random.Random(16)
    grid = random_grid((4, 4), rng)
    puzzle = sudoku_puzzle(punch(grid, 150, rng), (4, 4))
    cnf = puzzle_cnf(puzzle)
    assert cnf.variables > 16**3  # the counters' variables follow the cells'
    ours = solve(puzzle, backend="sat", limit=20)
    assert ours.count == count(puzzle, "backtrack", limit=20)
    assert grid in ours.solutions or ours.count == 20


def test_the_variables_and_clauses_are_those_documented():
    n = 4
    puzzle = sudoku_puzzle([1] + [0] * 15)
    cnf = puzzle_cnf(puzzle)
    clauses = [list(c) for c in cnf.clauses]
    assert cell_var(4, 0, 1) == 1 and cell_var(4, 15, 4) == 64 and cnf.variables == 64
    # cells: 16 x (1 + 6); units: 12 units x 4 values x (1 + 6); one given
    assert len(clauses) == 16 * 7 + 12 * 4 * 7 + 1
    assert clauses[0] == [1, 2, 3, 4] and clauses[1] == [-1, -2] and clauses[6] == [-3, -4]
    row1 = [cell_var(n, i, 1) for i in range(4)]
    assert clauses[16 * 7] == row1 and clauses[-1] == [1]
    assert sat.forbidding_clause(2, (1, 2, 2, 1)) == [-1, -4, -6, -7]
    assert sat.decode([1, -2, -3, 4, -5, 6, 7, -8], 2) == (1, 2, 2, 1)


def test_a_cage_gets_one_variable_per_allowed_tuple_in_lexicographic_order():
    from cpmodels.grid import Cage

    puzzle = GridPuzzle(3, latin_units(3), (0,) * 9, (Cage(((0, 0), (0, 1)), "+", 4),))
    cnf = puzzle_cnf(puzzle)
    base = 27 + 1  # no counters at order 3
    assert cnf.variables == 27 + 2  # (1, 3) and (3, 1): 2 + 2 makes 4 but repeats in row 1
    assert [list(c) for c in cnf.clauses[-5:]] == [
        [-base, 1],
        [-base, 6],
        [-(base + 1), 3],
        [-(base + 1), 4],
        [base, base + 1],
    ]


@pytest.mark.parametrize("k", [3, 9, 10, 12])
def test_at_most_one_allows_exactly_the_assignments_with_at_most_one_true(k):
    from pysat.solvers import Solver

    clauses: list[list[int]] = []
    sat._at_most_one(list(range(1, k + 1)), k + 1, clauses)
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        for bits in itertools.product([False, True], repeat=k):
            assumptions = [i + 1 if b else -(i + 1) for i, b in enumerate(bits)]
            assert solver.solve(assumptions=assumptions) == (sum(bits) <= 1), bits


@pytest.mark.parametrize("solver", ["glucose4", "g4", "cadical153", "minisat22"])
def test_any_pysat_solver_by_name_counts_the_same(solver):
    backend = SatBackend(solver)
    result = backend.solve(sudoku_puzzle([0] * 16), limit=1000, keep=0)
    assert result.count == 288 and result.complete
    assert {"nodes", "conflicts", "propagations"} <= set(result.stats)


def test_an_unknown_solver_is_refused_and_lingeling_takes_no_time_limit():
    with pytest.raises(CpModelsError, match="unknown PySAT solver 'nope'"):
        SatBackend("nope")
    assert not SatBackend("lingeling").capabilities.time_limit
    assert SatBackend().capabilities.time_limit and SatBackend("cd19").solver == "cadical195"


def pigeonhole(holes: int) -> list[list[int]]:
    """The pigeonhole formula of `holes` + 1 pigeons: unsatisfiable, and hard for resolution."""

    def var(p, h):
        return p * holes + h + 1

    clauses = [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    for h in range(holes):
        for a, b in itertools.combinations(range(holes + 1), 2):
            clauses.append([-var(a, h), -var(b, h)])
    return clauses


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_a_time_limit_stops_one_hard_sat_call(solver):
    """Pigeonhole 13 in 12 takes minutes: CaDiCaL stops between conflict slices, Glucose by its interrupt."""
    clauses = pigeonhole(12)
    cnf = sat.Cnf(1, 13 * 12, clauses)
    start = time.perf_counter()
    found, number, complete, _ = sat.search(cnf, solver, 2, 2, time.perf_counter() + 0.5)
    took = time.perf_counter() - start
    assert (found, number, complete) == ([], 0, False)
    assert took < 1.5 * 0.5 + 3.0


def test_a_time_limited_count_of_the_empty_9x9_is_a_timeout():
    start = time.perf_counter()
    result = solve(sudoku_puzzle([0] * 81), backend="sat", limit=10**12, time_limit=0.5)
    assert result.status == "timeout" and not result.complete and result.count >= 1
    assert time.perf_counter() - start < 1.5 * 0.5 + 3.0


def test_a_cage_allowing_no_tuple_means_no_solution():
    from cpmodels.grid import Cage

    # 1 and 1 make 2 but share row 1: reachable by range, no tuple once rows differ
    puzzle = GridPuzzle(3, latin_units(3), (0,) * 9, (Cage(((0, 0), (0, 1)), "+", 2),))
    assert puzzle_cnf(puzzle).empty_cage is not None
    result = SatBackend().solve(puzzle, limit=2)
    assert (result.status, result.complete) == ("none", True)
