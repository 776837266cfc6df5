"""The backtrack backend: known counts, agreement with CP-SAT on every family, the time limit, batches."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpmodels import BACKENDS, Cage, CpModelsError, GridPuzzle, is_solution, solve, sudoku_puzzle
from cpmodels import cages as cage_rules
from cpmodels.backends import backtrack as backtrack_module
from cpmodels.backends.backtrack import (
    BacktrackBackend,
    compile_puzzle,
    given_masks,
    solve_batch,
    solve_givens,
    solve_many,
)
from cpmodels.backends.cpsat import CpsatBackend
from cpmodels.formats.sudoku import read_text
from cpmodels.generate import planted_mathdoku, punch, random_grid
from cpmodels.grid import cage_name, cell_name, explain_violation, grids_hold, latin_units, unit_name
from cpmodels.mathdoku import hide_operators, mathdoku_puzzle

from .conftest import FIXTURES, data_lines

BOXES = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (2, 5), (3, 4), (4, 4), (4, 5), (5, 5)]
TDOKU = FIXTURES / "sudoku" / "tdoku_sample.txt"


@pytest.fixture(scope="module", autouse=True)
def backtrack():
    """The registered backtrack backend (cpmodels.solve checks every grid), its kernel compiled once."""
    backend = BACKENDS["backtrack"]
    backend.warm_up()
    return backend


def agree_with_cpsat(puzzle: GridPuzzle, limit: int = 2) -> None:
    """Both backends find the same number of solutions up to `limit`, each one checked; unique ones agree."""
    mine = solve(puzzle, backend="backtrack", limit=limit)
    theirs = CpsatBackend().solve(puzzle, limit=limit)
    assert (mine.count, mine.status) == (theirs.count, theirs.status)
    assert mine.complete == theirs.complete or mine.count == limit  # at the limit, "complete" is each one's guess
    assert all(is_solution(puzzle, s) for s in mine.solutions)
    if mine.status == "unique":
        assert mine.solutions == theirs.solutions


def test_empty_4x4_sudoku_has_288_solutions():
    result = solve(sudoku_puzzle([0] * 16), backend="backtrack", limit=1000)
    assert result.count == 288 and result.complete and result.status == "multiple"
    assert len(set(result.solutions)) == 288


def test_latin_squares_of_order_4_number_576():
    result = solve(GridPuzzle(4, latin_units(4), (0,) * 16), backend="backtrack", limit=1000)
    assert result.count == 576 and result.complete and len(set(result.solutions)) == 576


def test_count_stops_at_the_limit_and_keep_caps_the_grids():
    result = solve(sudoku_puzzle([0] * 16), backend="backtrack", limit=5)
    assert result.count == 5 and not result.complete and result.status == "multiple"
    capped = BacktrackBackend(keep=3).solve(sudoku_puzzle([0] * 16), limit=1000)
    assert capped.count == 288 and capped.complete and len(capped.solutions) == 3


def test_more_solutions_than_one_buffer_holds():
    """Latin squares of order 5 number 161280: counted exactly, well past the kernel's 256-row buffer."""
    result = BacktrackBackend(keep=1000).solve(GridPuzzle(5, latin_units(5), (0,) * 25), limit=10**6)
    assert result.count == 161280 and result.complete and len(set(result.solutions)) == 1000


def test_partial_units_and_an_order_1_grid():
    """Units of fewer than n cells only forbid repeats; a 1x1 grid has one solution."""
    pair_units = ((0, 1), (2, 3), (0, 2), (1, 3))  # cells 0-1-3-2 form a 4-cycle; cells 4..8 are free
    result = solve(GridPuzzle(3, pair_units, (0,) * 9), backend="backtrack", limit=10**5)
    assert result.count == 18 * 3**5 and result.complete  # 3-colourings of a 4-cycle: 2**4 + 2
    assert solve(GridPuzzle(1, ((0,),), (0,)), backend="backtrack", limit=2).status == "unique"


@pytest.mark.parametrize("box", BOXES, ids=lambda b: f"{b[0]}x{b[1]}")
def test_planted_sudoku_of_every_box_shape_agrees_with_cpsat(box):
    rng = random.Random(box[0] * 100 + box[1])
    n = box[0] * box[1]
    grid = random_grid(box, rng)
    for holes in (n * n // 3, n * n // 2):
        puzzle = sudoku_puzzle(punch(grid, holes, rng), box)
        agree_with_cpsat(puzzle)


def test_planted_64x64_sudoku():
    rng = random.Random(64)
    grid = random_grid((8, 8), rng)
    puzzle = sudoku_puzzle(punch(grid, 64 * 64 // 3, rng), (8, 8))
    result = solve(puzzle, backend="backtrack", limit=2, time_limit=60)
    assert result.status == "multiple" or (result.status == "unique" and result.solutions == [grid])
    theirs = CpsatBackend().solve(puzzle, limit=2, time_limit=60)
    assert theirs.status == result.status


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_planted_mathdoku_and_its_hidden_operator_version_agree_with_cpsat(n):
    for seed in range(3):
        puzzle, square = planted_mathdoku(n, random.Random(n * 100 + seed))
        agree_with_cpsat(puzzle)
        assert square in solve(puzzle, backend="backtrack", limit=50).solutions
        hidden = hide_operators(puzzle)
        agree_with_cpsat(hidden)
        assert square in solve(hidden, backend="backtrack", limit=200).solutions


def test_quotient_is_exact_never_truncated():
    """r1c1 = 5 in a '2/' cage: 5/2 truncates to 2 but is no quotient, so no solution; hidden, 5-3 = 2 fits."""
    givens = (5,) + (0,) * 24
    quotient = GridPuzzle(5, latin_units(5), givens, (Cage(((0, 0), (0, 1)), "/", 2),))
    assert solve(quotient, backend="backtrack", limit=2).status == "none"
    agree_with_cpsat(quotient)
    hidden = hide_operators(quotient)
    result = solve(hidden, backend="backtrack", limit=10)
    assert result.count == 10 and all(s[1] == 3 for s in result.solutions)
    small = GridPuzzle(3, latin_units(3), (0,) * 9, (Cage(((0, 0), (0, 1)), "/", 2),))
    result = solve(small, backend="backtrack", limit=100)
    assert result.complete and result.count == 4 and all({s[0], s[1]} == {1, 2} for s in result.solutions)


def test_known_counts_from_tdoku_sample():
    """Unsolvable, unique and multiple-solution 9x9 puzzles, each counted exactly (counts up to 847)."""
    for entry, (_, line) in zip(read_text(TDOKU.read_text()), data_lines(TDOKU), strict=True):
        count = int(line.split(":")[1])
        result = solve(entry.puzzle, backend="backtrack", limit=count + 1)
        assert result.count == count and result.complete, (entry.line, result.count, count)
        assert len(set(result.solutions)) == count
        if count == 1:
            assert "".join(map(str, result.solutions[0])) == line.split(":")[2]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(box=st.sampled_from(BOXES[:8]), seed=st.integers(0, 2**32), fraction=st.floats(0.0, 0.85))
def test_planted_puzzles_come_back_solved(box, seed, fraction):
    rng = random.Random(seed)
    grid = random_grid(box, rng)
    puzzle = sudoku_puzzle(punch(grid, int(len(grid) * fraction), rng), box)
    result = solve(puzzle, backend="backtrack", limit=2)
    assert result.status in ("unique", "multiple")
    assert grid in result.solutions or result.status == "multiple"


@settings(max_examples=15, deadline=None)
@given(n=st.integers(3, 5), seed=st.integers(0, 2**32))
def test_mathdoku_with_a_wrong_target_is_unsolvable_or_agrees(n, seed):
    """A planted Mathdoku with one cage target raised by one: the backends agree (usually on none)."""
    puzzle, _ = planted_mathdoku(n, random.Random(seed))
    cages = list(puzzle.cages)
    k = random.Random(seed).randrange(len(cages))
    cages[k] = Cage(cages[k].cells, cages[k].op, cages[k].target + 1)
    agree_with_cpsat(mathdoku_puzzle(n, cages) if _valid(n, cages) else puzzle)


def _valid(n: int, cages: list[Cage]) -> bool:
    """Whether mathdoku_puzzle accepts these cages (a raised target can be out of reach)."""
    try:
        mathdoku_puzzle(n, cages)
    except CpModelsError:
        return False
    return True


def test_time_limit_is_honoured():
    """Counting every solution of an empty 16x16 Sudoku stops at the time limit."""
    result = BacktrackBackend(keep=10).solve(sudoku_puzzle([0] * 256), limit=10**12, time_limit=0.5)
    assert not result.complete and result.count > 0 and result.status == "timeout"
    assert len(result.solutions) == 10
    empty = BacktrackBackend().solve(GridPuzzle(64, latin_units(64), (0,) * 4096), limit=10**9, time_limit=0.3)
    assert not empty.complete and empty.status == "timeout"


def test_can_solve_names_what_it_cannot(monkeypatch):
    backend = BacktrackBackend()
    assert backend.can_solve(sudoku_puzzle([0] * 81)) is None
    assert "above 64" in backend.can_solve(GridPuzzle(65, latin_units(65), (0,) * 65 * 65))
    caged = GridPuzzle(9, latin_units(9), (0,) * 81, (Cage(((0, 0), (0, 1), (0, 2)), "+", 15),))
    assert backend.can_solve(caged) is None
    monkeypatch.setattr(backtrack_module, "MAX_CAGE_TUPLES", 10)
    assert backend.can_solve(caged) == "cage 1 (15+) allows more than 10 tuples"


def test_compiled_arrays_describe_the_puzzle():
    """Masks from givens (value v is bit v-1), peers of a 9x9 cell, cage tuples as one bit per cell."""
    masks = given_masks(np.array([5] + [0] * 80), 9)
    assert masks[0] == 1 << 4 and masks[1] == (1 << 9) - 1
    compiled = compile_puzzle(sudoku_puzzle([5] + [0] * 80))
    peer_start, peers = compiled.part("peer_start"), compiled.part("peers")
    assert peer_start[1] - peer_start[0] == 20 and 0 not in peers[peer_start[0] : peer_start[1]]
    caged = compile_puzzle(GridPuzzle(2, latin_units(2), (0,) * 4, (Cage(((0, 0), (0, 1)), "+", 3),)))
    assert sorted(caged.tuple_bits.reshape(-1, 2).tolist()) == [[1, 2], [2, 1]]


def test_a_shape_is_compiled_once_and_found_by_content():
    """Puzzles whose units are equal but distinct tuples share one structure; other units get their own."""
    first = sudoku_puzzle([0] * 81)
    copied = tuple(tuple(list(unit)) for unit in first.units)
    assert copied == first.units and copied is not first.units
    compiled = compile_puzzle(first)
    assert compile_puzzle(GridPuzzle(9, copied, (0,) * 80 + (1,))) is compiled
    assert compile_puzzle(GridPuzzle(9, latin_units(9), (0,) * 81)) is not compiled
    assert compile_puzzle(GridPuzzle(9, copied, (0,) * 81)) is compiled


def test_batch_counts_many_puzzles_in_one_call():
    lines = data_lines(TDOKU)
    entries = read_text(TDOKU.read_text())
    givens = np.array([e.puzzle.givens for e in entries])
    expected = np.array([min(int(line.split(":")[1]), 2) for _, line in lines])
    for threads in (1, 2):
        result = solve_batch(entries[0].puzzle, givens, limit=2, threads=threads)
        assert (result.counts == expected).all() and result.complete[expected < 2].all()
        for entry, count, first in zip(entries, result.counts, result.firsts, strict=True):
            assert count == 0 or is_solution(entry.puzzle, first.tolist())


def test_locked_candidates_intersections():
    """A 9x9 Sudoku has 54 box-line intersections of 3 cells; a Latin square (lines meet in one cell) has none."""
    compiled = compile_puzzle(sudoku_puzzle([0] * 81))
    inter_start, inter_units = compiled.part("inter_start"), compiled.part("inter_units")
    assert len(inter_start) - 1 == 54 and set(np.diff(inter_start).tolist()) == {3}
    assert len(inter_units) == 2 * 54
    latin = compile_puzzle(GridPuzzle(4, latin_units(4), (0,) * 16))
    assert len(latin.part("inter_start")) == 1 and len(latin.part("inter_units")) == 0


def test_a_search_cut_short_leaves_nothing_behind():
    """After a search stopped by its time limit, the same-shaped arrays (reused per thread) solve correctly."""
    backend = BacktrackBackend()
    cut = backend.solve(sudoku_puzzle([0] * 81), limit=10**12, time_limit=0.05)
    assert not cut.complete
    for entry, (_, line) in zip(read_text(TDOKU.read_text()), data_lines(TDOKU), strict=True):
        result = backend.solve(entry.puzzle, limit=2)
        assert result.count == min(int(line.split(":")[1]), 2) and (result.complete or result.count == 2)
        assert all(is_solution(entry.puzzle, s) for s in result.solutions)


def test_batch_takes_limits_beyond_64_bits_and_an_infinite_time_limit():
    """solve_batch clamps the limit for the kernel's int64 counts and reads inf seconds as no limit."""
    template = GridPuzzle(3, latin_units(3), (0,) * 9)
    result = solve_batch(template, np.zeros((2, 9), np.int64), limit=2**64, time_limit=float("inf"), threads=1)
    assert result.counts.tolist() == [12, 12] and result.complete.all()


# ---- batches, probing, the native kernel's loading -----------------------------------------------------


def test_jobs_do_not_change_a_batch():
    """solve_many with 1 and 2 workers: the same counts, first solutions, nodes and exhaustion, in input order."""
    rng = random.Random(11)
    grids = [random_grid((3, 3), rng) for _ in range(6)]
    planted = [sudoku_puzzle(punch(grid, rng.randrange(40, 60), rng)) for grid in grids for _ in range(20)]
    puzzles = [e.puzzle for e in read_text(TDOKU.read_text())] + planted
    one = solve_many(puzzles, limit=2, jobs=1)
    two = solve_many(puzzles, limit=2, jobs=2)
    for field in ("counts", "firsts", "nodes", "backtracks", "complete", "probes", "guesses"):
        assert np.array_equal(getattr(one, field), getattr(two, field)), field
    for puzzle, count, first in zip(puzzles, one.counts, one.firsts, strict=True):
        alone = BacktrackBackend().solve(puzzle, limit=2)
        assert alone.count == count and (count != 1 or list(alone.solutions[0]) == first.tolist())
    again = solve_givens(puzzles[0], np.array([p.givens for p in puzzles]), limit=2, jobs=2)
    assert np.array_equal(again.counts, one.counts) and np.array_equal(again.firsts, one.firsts)
    assert solve_many([], limit=2).counts.size == 0
    expected = [{0: "none", 1: "unique"}.get(int(c), "multiple") for c in one.counts]
    assert one.statuses(2) == expected


def test_guesses_count_the_values_tried_with_another_left():
    """`guesses`, tdoku's count (one per binary branch), is at most the values tried and 0 only if none was.

    The first value of a branching cell leaves another; the batch counts the same as solve().
    """
    puzzles = [e.puzzle for e in read_text(TDOKU.read_text())]
    batch = solve_many(puzzles, limit=2)
    for k, puzzle in enumerate(puzzles):
        stats = BacktrackBackend().solve(puzzle, limit=2).stats
        assert 0 <= stats["guesses"] <= stats["nodes"] and stats["guesses"] == batch.guesses[k]
        assert (stats["nodes"] == 0) == (stats["guesses"] == 0)
    empty = solve(sudoku_puzzle([0] * 16), backend="backtrack", limit=1).stats
    assert empty["guesses"] == empty["nodes"] > 0  # every value it tried had another one left


def test_a_batch_takes_one_shape_and_checks_its_answers(monkeypatch):
    sudoku, latin = sudoku_puzzle([0] * 16), GridPuzzle(4, latin_units(4), (0,) * 16)
    with pytest.raises(CpModelsError, match="puzzle 2 differs from the first"):
        solve_many([sudoku, latin])
    real = backtrack_module.solve_givens

    def corrupted(*args, **kwargs):
        result = real(*args, **kwargs)
        result.firsts[:, :2] = result.firsts[:, 1::-1].copy()  # swap the first two cells of every answer
        return result

    monkeypatch.setattr(backtrack_module, "solve_givens", corrupted)
    with pytest.raises(RuntimeError, match="returned a wrong solution"):
        solve_many([sudoku_puzzle([1, 2, 3, 4] + [0] * 12)])


def test_a_batch_cut_by_its_time_limit_says_which_puzzles_are_incomplete():
    """Empty 9x9 grids counted up to 10**9 within 0.2 s: none completes, and none is reported complete."""
    empty = [sudoku_puzzle([0] * 81)] * 4
    result = solve_many(empty, limit=10**9, time_limit=0.2, jobs=2)
    assert not result.complete.any() and result.wall_s < 5


@pytest.mark.parametrize("box", BOXES[:6], ids=lambda b: f"{b[0]}x{b[1]}")
def test_probing_finds_the_same_counts(box):
    rng = random.Random(box[0] * 7 + box[1])
    n = box[0] * box[1]
    grid = random_grid(box, rng)
    for holes in (n * n // 2, 2 * n * n // 3):
        puzzle = sudoku_puzzle(punch(grid, holes, rng), box)
        plain = BacktrackBackend().solve(puzzle, limit=3)
        probing = BacktrackBackend(probe=3).solve(puzzle, limit=3)
        assert (probing.count, probing.complete) == (plain.count, plain.complete)
        assert probing.stats["probes"] >= 0 and all(is_solution(puzzle, s) for s in probing.solutions)
    for seed in range(2):
        caged, _ = planted_mathdoku(5, random.Random(seed))
        assert BacktrackBackend(probe=4).solve(caged, limit=50).count == BacktrackBackend().solve(caged, limit=50).count


def test_a_warm_start_loads_the_kernel_without_numba():
    """Once compiled (the module fixture did), a new process loads the kernel's object code, not numba."""
    code = (
        "import sys\n"
        "from cpmodels import solve, sudoku_puzzle\n"
        "print(solve(sudoku_puzzle([0] * 16), backend='backtrack', limit=1000).count)\n"
        "print('numba' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["288", "False"]


# ---- the checker every answer goes through -------------------------------------------------------------


def reference_explanation(puzzle: GridPuzzle, grid) -> str | None:
    """explain_violation as it read grids before its numpy test: cell by cell, unit by unit, cage by cage."""
    n = puzzle.n
    if len(grid) != n * n:
        return f"the grid has {len(grid)} cells, not {n * n}"
    for i, v in enumerate(grid):
        if not 1 <= v <= n:
            return f"{cell_name(*puzzle.cell(i))} holds {v}, outside 1..{n}"
        if puzzle.givens[i] and puzzle.givens[i] != v:
            return f"{cell_name(*puzzle.cell(i))} holds {v}, but the given is {puzzle.givens[i]}"
    for unit in puzzle.units:
        values = [grid[i] for i in unit]
        if len(set(values)) != len(values):
            return f"{unit_name(puzzle, unit)} repeats a value: {values}"
    for k, cage in enumerate(puzzle.cages, start=1):
        values = [grid[r * n + c] for r, c in cage.cells]
        if not cage_rules.holds(cage.op, cage.target, values):
            return f"{cage_name(k, cage.cells)} holds {values}, which does not make {cage.label()}"
    return None


def broken(grid: list[int], n: int, rng: random.Random) -> list:
    """The grid with one random fault: a swap, a repeat, a value out of range, a float, or none."""
    grid = list(grid)
    kind = rng.randrange(6)
    i, j = rng.randrange(len(grid)), rng.randrange(len(grid))
    if kind == 0:
        grid[i], grid[j] = grid[j], grid[i]
    elif kind == 1:
        grid[i] = grid[j]
    elif kind == 2:
        grid[i] = rng.choice([0, -1, n + 1, 300, 2**70])
    elif kind == 3:
        grid[i] = rng.randrange(1, n + 1)
    elif kind == 4:
        grid[i] = float(grid[i])
    return grid


def test_the_checker_says_what_it_said_before():
    """explain_violation's numpy test changes no answer: the same sentence (or None) on right and broken grids."""
    rng = random.Random(5)
    cases = []
    for box in ((2, 2), (2, 3), (3, 3), (4, 4), (2, 5)):
        grid = random_grid(box, rng)
        cases.append((sudoku_puzzle(punch(grid, len(grid) // 2, rng), box), grid))
    square = random_grid((2, 3), rng)
    cases.append((GridPuzzle(6, latin_units(6), (0,) * 36), square))
    cases.append((GridPuzzle(3, ((0, 1), (2, 3), (0, 2), (1, 3)), (0,) * 9), [1, 2, 2, 1, 3, 3, 3, 3, 3]))
    for seed in range(3):
        caged, solution = planted_mathdoku(5, random.Random(seed))
        cases.append((caged, list(solution)))
    for puzzle, grid in cases:
        assert explain_violation(puzzle, grid) is None and explain_violation(puzzle, tuple(grid)) is None
        for _ in range(60):
            wrong = broken(grid, puzzle.n, rng)
            assert explain_violation(puzzle, wrong) == reference_explanation(puzzle, wrong)
            assert explain_violation(puzzle, tuple(wrong)) == reference_explanation(puzzle, tuple(wrong))
        assert explain_violation(puzzle, np.array(grid)) is None  # neither a list nor a tuple: read cell by cell


def test_the_batch_checker_vouches_only_for_right_grids():
    """grids_hold: True for right grids, False for every broken one (explain_violation then says why)."""
    rng = random.Random(8)
    for box in ((2, 2), (3, 3), (2, 5), (4, 5)):
        grid = random_grid(box, rng)
        puzzle = sudoku_puzzle(punch(grid, len(grid) // 2, rng), box)
        rows = [grid] + [broken(grid, puzzle.n, rng) for _ in range(80)]
        rows = [row for row in rows if all(isinstance(v, int) and 0 <= v < 256 for v in row)]
        grids = np.array(rows, np.uint8)
        givens = np.array([puzzle.givens] * len(rows), np.uint8)
        held = grids_hold(puzzle, givens, grids)
        assert held.tolist() == [explain_violation(puzzle, row) is None for row in rows]
    caged, solution = planted_mathdoku(5, random.Random(1))
    rows = [list(solution)] + [broken(list(solution), 5, rng) for _ in range(60)]
    rows = [row for row in rows if all(isinstance(v, int) and 0 <= v < 256 for v in row)]
    held = grids_hold(caged, np.zeros((len(rows), 25), np.uint8), np.array(rows, np.uint8))
    assert held.tolist() == [explain_violation(caged, row) is None for row in rows]


def test_solve_rejects_a_wrong_grid_from_a_backend(monkeypatch):
    """A backend that returns a grid breaking a unit is caught by solve(), whatever the backend says."""
    puzzle = sudoku_puzzle(punch(random_grid((3, 3), random.Random(3)), 40, random.Random(4)))
    engine = BACKENDS["backtrack"]
    honest = engine.solve

    def lying(p, **kwargs):
        result = honest(p, **kwargs)
        grid = list(result.solutions[0])
        free = [i for i in range(81) if p.givens[i] == 0]
        grid[free[0]], grid[free[1]] = grid[free[1]], grid[free[0]]  # a swap in one row breaks columns or a box
        result.solutions[0] = tuple(grid)
        return result

    monkeypatch.setattr(engine, "solve", lying)
    with pytest.raises(RuntimeError, match="backend 'backtrack' returned a wrong solution: .* repeats a value"):
        solve(puzzle, backend="backtrack", limit=1)
