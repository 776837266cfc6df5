"""The python-constraint backend: known counts, agreement with CP-SAT on planted and unsolvable puzzles, time limit."""

import os
import random
import subprocess
import sys

import pytest

from cpmodels import (
    BACKENDS,
    Cage,
    GridPuzzle,
    SolveResult,
    count_solutions,
    is_solution,
    mathdoku_puzzle,
    solve,
    sudoku_puzzle,
)
from cpmodels.backends import constraint as constraint_backend
from cpmodels.backends.constraint import ConstraintBackend, build_model, library
from cpmodels.backends.cpsat import CpsatBackend
from cpmodels.errors import BackendUnavailableError, CpModelsError
from cpmodels.formats.sudoku import read_text
from cpmodels.generate import planted_mathdoku, punch, random_grid
from cpmodels.grid import latin_units
from cpmodels.mathdoku import hide_operators

from .conftest import shared_data

pytestmark = pytest.mark.skipif(library() is None, reason="python-constraint2 is not installed")


def test_constraint_backend_is_registered():
    assert isinstance(BACKENDS["constraint"], ConstraintBackend)


def agree_with_cpsat(puzzle: GridPuzzle) -> SolveResult:
    """Assert that both backends give the same status and solutions with limit 2, each grid checked; ours."""
    ours = solve(puzzle, backend="constraint", limit=2)
    theirs = CpsatBackend().solve(puzzle, limit=2)
    assert (ours.status, ours.count) == (theirs.status, theirs.count)
    assert ours.complete == theirs.complete or ours.count == 2  # at the limit, CP-SAT may also know it is done
    assert all(is_solution(puzzle, grid) for grid in ours.solutions)
    if ours.count < 2:
        assert ours.solutions == theirs.solutions
    return ours


def test_the_library_is_python_constraint2_not_this_module():
    assert library().__name__ == "constraint" and hasattr(library(), "Problem")
    assert library() is not constraint_backend


def test_empty_4x4_sudoku_has_288_solutions():
    result = solve(sudoku_puzzle([0] * 16), backend="constraint", limit=1000)
    assert result.count == 288 and result.complete and result.status == "multiple"
    assert len(set(result.solutions)) == 288


def test_latin_squares_of_order_4_number_576():
    result = solve(GridPuzzle(4, latin_units(4), (0,) * 16), backend="constraint", limit=1000)
    assert result.count == 576 and result.complete and len(set(result.solutions)) == 576


@pytest.mark.parametrize("solver", ["backtracking", "optimized", "recursive"])
def test_every_solver_counts_latin_squares_of_order_3(solver):
    result = ConstraintBackend(solver).solve(GridPuzzle(3, latin_units(3), (0,) * 9), limit=100)
    assert result.count == 12 and result.complete


def test_count_stops_at_the_limit():
    result = solve(sudoku_puzzle([0] * 16), backend="constraint", limit=5)
    assert result.count == 5 and not result.complete and result.status == "multiple"
    assert count_solutions(sudoku_puzzle([0] * 16), backend="constraint") == 2


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3)], ids=lambda b: f"{b[0]}x{b[1]}")
@pytest.mark.parametrize("seed", range(4))
def test_planted_sudoku_agrees_with_cpsat(box, seed):
    rng = random.Random(seed * 10 + box[1])
    n = box[0] * box[1]
    agree_with_cpsat(sudoku_puzzle(punch(random_grid(box, rng), n * n // 2 + seed * n // 2, rng), box))


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", range(3))
def test_planted_mathdoku_agrees_with_cpsat(n, seed):
    puzzle, square = planted_mathdoku(n, random.Random(n * 100 + seed))
    result = agree_with_cpsat(puzzle)
    assert result.count == 2 or result.solutions == [square]


@pytest.mark.parametrize("n", [3, 4, 5])
def test_planted_mathdoku_with_hidden_operators_agrees_with_cpsat(n):
    puzzle, _ = planted_mathdoku(n, random.Random(n))
    agree_with_cpsat(hide_operators(puzzle))


def test_tdoku_test_puzzles_agree_with_cpsat_including_unsolvable_ones():
    """A few of each kind, the quickest for python-constraint (the 22-clue ones take it seconds each)."""
    entries = read_text(shared_data("sudoku9/tdoku_test_puzzles.txt").read_text())
    statuses = set()
    for entry in entries:
        if entry.line in (3, 4, 27, 31, 32):
            statuses.add(agree_with_cpsat(entry.puzzle).status)
    assert statuses == {"unique", "multiple", "none"}


def test_a_cell_without_candidates_gives_none():
    """r1c1 sees 2 and 3 in its row, 4 in its column and 1 in its box: no solution, found without search."""
    givens = [0, 2, 3, 0, 0, 1, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0]
    result = solve(sudoku_puzzle(givens), backend="constraint", limit=2)
    assert result.status == "none" and result.complete and result.count == 0


def test_unsolvable_by_construction_gives_none():
    """Row 1 needs a 1 that every empty cell of it sees in its column: no solution, found without search."""
    givens = [0, 0, 3, 4, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]
    result = solve(GridPuzzle(4, latin_units(4), tuple(givens)), backend="constraint", limit=2)
    assert result.status == "none" and result.complete and result.count == 0


def test_unsolvable_mathdoku_agrees_with_cpsat():
    """Two 2-cell cages of one row whose sums cannot both hold with the other two values."""
    cages = [Cage(((0, 0), (0, 1)), "+", 3), Cage(((0, 2), (0, 3)), "*", 2)]
    cages += [Cage(((r, c), (r, c + 1)), "+", 3 if c == 0 else 7) for r in range(1, 4) for c in (0, 2)]
    puzzle = mathdoku_puzzle(4, cages)
    agree_with_cpsat(puzzle)
    assert solve(puzzle, backend="constraint", limit=2).status == "none"


def test_givens_inside_cages_and_a_full_grid():
    puzzle, square = planted_mathdoku(4, random.Random(3))
    half = tuple(v if i % 2 else 0 for i, v in enumerate(square))
    agree_with_cpsat(puzzle.with_givens(half))
    full = solve(puzzle.with_givens(square), backend="constraint", limit=2)
    assert full.status == "unique" and full.solutions == [square] and full.stats["variables"] == 0


def test_large_cages_are_checked_not_tabled(monkeypatch):
    monkeypatch.setattr(constraint_backend, "TABLE_LIMIT", 10)
    puzzle, _ = planted_mathdoku(4, random.Random(11))
    assert build_model(puzzle).checks
    agree_with_cpsat(puzzle)
    agree_with_cpsat(hide_operators(puzzle))


def test_norvig_hardest_agree_with_the_recorded_solutions():
    entries = read_text(shared_data("sudoku9/norvig_hardest.txt").read_text())
    for entry in entries[:3]:
        result = solve(entry.puzzle, backend="constraint", limit=2)
        assert result.status == "unique" and is_solution(entry.puzzle, result.solutions[0])


def test_time_limit_stops_a_search_that_cannot_finish():
    """The backend keeps every grid it finds (keep=None); cpmodels.solve, counting to 10**9, keeps two witnesses."""
    result = ConstraintBackend().solve(sudoku_puzzle([0] * 81), limit=10**9, time_limit=1)
    assert result.status == "timeout" and not result.complete and result.count == len(result.solutions)
    assert all(is_solution(sudoku_puzzle([0] * 81), grid) for grid in result.solutions)
    counted = solve(sudoku_puzzle([0] * 81), backend="constraint", limit=10**9, time_limit=1)
    assert counted.status == "timeout" and not counted.complete and counted.count > len(counted.solutions) == 2


def test_time_limit_returns_complete_answers_from_the_child():
    puzzle, _ = planted_mathdoku(5, random.Random(5))
    result = solve(puzzle, backend="constraint", limit=2, time_limit=30)
    expected = CpsatBackend().solve(puzzle, limit=2)
    assert (result.status, result.count) == (expected.status, expected.count)
    assert "spawn_s" in result.stats
    latin = solve(GridPuzzle(4, latin_units(4), (0,) * 16), backend="constraint", limit=1000, time_limit=30)
    assert latin.count == 576 and latin.complete


def children_of(pid: int) -> list[tuple[int, str]]:
    """(pid, state) of the processes whose parent is `pid`, read from /proc (Linux)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append((int(entry), fields[0]))
    return found


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_time_limit_leaves_no_child_process_nor_zombie():
    before = children_of(os.getpid())
    result = solve(sudoku_puzzle([0] * 81), backend="constraint", limit=10**9, time_limit=0.2)
    assert result.status == "timeout"
    assert children_of(os.getpid()) == before


def test_time_limit_works_without_stdin():
    code = (
        "from cpmodels import sudoku_puzzle\n"
        "from cpmodels.backends.constraint import ConstraintBackend\n"
        "r = ConstraintBackend().solve(sudoku_puzzle([0] * 16), limit=1000, time_limit=30)\n"
        "print(r.count, r.complete)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], check=False, stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    assert done.stdout.split() == ["288", "True"], done.stderr


def test_cannot_solve_above_max_order_or_without_the_package(monkeypatch):
    backend = ConstraintBackend()
    assert backend.can_solve(sudoku_puzzle([0] * 25 * 25)) == "order 25 is above 16, too large for plain backtracking"
    with pytest.raises(BackendUnavailableError, match="order 25"):
        solve(sudoku_puzzle([0] * 25 * 25), backend="constraint")
    monkeypatch.setattr(constraint_backend, "library", lambda: None)
    assert backend.can_solve(sudoku_puzzle([0] * 16)) == "backend 'constraint' needs the package python-constraint2"


def test_unknown_solver_is_refused():
    with pytest.raises(CpModelsError, match="unknown python-constraint solver 'fast'"):
        ConstraintBackend("fast")
