"""Generating puzzles: Sudoku and Mathdoku with exactly one solution, QWH with the holes asked for."""

import random
import time

import pytest

from cpmodels import count_solutions, solve
from cpmodels.cli import main
from cpmodels.errors import SearchTimeoutError
from cpmodels.formats import read_text
from cpmodels.generate import TimeLimitWarning, punch_while_unique, random_grid, unique_mathdoku
from cpmodels.sudoku import sudoku_puzzle


def generated(capsys, *argv):
    """Run `cpmodels generate` in-process; the puzzles it printed, read back."""
    assert main(["generate", *argv]) == 0
    return [e.puzzle for e in read_text(capsys.readouterr().out)]


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3)])
def test_punched_sudoku_stays_unique_and_is_minimal(box):
    rng = random.Random(sum(box))
    puzzle = punch_while_unique(sudoku_puzzle(random_grid(box, rng), box), rng)
    assert count_solutions(puzzle, 3) == 1
    for i, v in enumerate(puzzle.givens):
        if v:
            fewer = list(puzzle.givens)
            fewer[i] = 0
            assert count_solutions(puzzle.with_givens(fewer), 2) == 2


def test_unique_mathdoku():
    puzzle, square = unique_mathdoku(5, random.Random(4))
    result = solve(puzzle, limit=2)
    assert result.status == "unique" and result.solutions[0] == square


def test_generate_sudoku_command(capsys):
    puzzles = generated(capsys, "sudoku", "--count", "3", "--seed", "5", "--holes", "40")
    assert len(puzzles) == 3 and all(p.givens.count(0) == 40 and count_solutions(p, 2) == 1 for p in puzzles)


def test_generate_is_reproducible(capsys):
    first = generated(capsys, "mathdoku", "--order", "4", "--seed", "9")
    assert first == generated(capsys, "mathdoku", "--order", "4", "--seed", "9")
    assert count_solutions(first[0], 2) == 1


def test_generate_balanced_qwh(capsys):
    (puzzle,) = generated(capsys, "qwh", "--order", "9", "--holes", "27", "--balanced", "--seed", "1")
    assert all(puzzle.givens[r * 9 : r * 9 + 9].count(0) == 3 for r in range(9))
    assert count_solutions(puzzle, 1) == 1


def test_punching_stops_at_the_deadline_unique_with_a_warning():
    rng = random.Random(3)
    solved = sudoku_puzzle(random_grid((3, 3), rng), (3, 3))
    with pytest.warns(TimeLimitWarning, match="unique but may not be minimal"):
        puzzle = punch_while_unique(solved, rng, deadline=time.monotonic())
    assert puzzle == solved and count_solutions(puzzle, 2) == 1


def test_punching_reports_its_progress():
    rng = random.Random(4)
    steps = []
    punch_while_unique(sudoku_puzzle(random_grid((2, 2), rng), (2, 2)), rng, progress=lambda *step: steps.append(step))
    assert steps == [(k, 16) for k in range(1, 17)]


def test_no_mathdoku_after_the_deadline():
    with pytest.raises(SearchTimeoutError, match="no unique order-5 Mathdoku within the time limit"):
        unique_mathdoku(5, random.Random(4), deadline=time.monotonic())


def test_generate_time_limit_gives_a_unique_puzzle_and_a_warning(capsys):
    argv = ["generate", "sudoku", "--seed", "2", "--box", "5x5", "--grids", "pattern", "--time-limit", "0.5"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err.startswith("cpmodels: warning: time limit reached with ") and err.count("\n") == 1
    assert count_solutions(read_text(out)[0].puzzle, 2, backend="dlx") == 1


def test_generate_exits_5_when_nothing_was_made_in_time(capsys):
    start = time.monotonic()
    assert main(["generate", "sudoku", "--box", "2x2", "--clues", "1-2", "--count", "2", "--time-limit", "0.3"]) == 5
    out, err = capsys.readouterr()
    assert time.monotonic() - start < 0.3 + 1 + 3  # the limit, the second, and loading the kernel
    lines = err.splitlines()
    assert out == "" and lines[0].startswith("cpmodels: no 1-2 clues Sudoku within the time limit (")
    assert lines[1].startswith("cpmodels: 0 of 2 puzzle(s) made in ") and len(lines) == 2


def test_generate_time_limit_is_for_searches_only(capsys):
    assert main(["generate", "qwh", "--time-limit", "1"]) == 2
    assert "--time-limit applies to sudoku or mathdoku only" in capsys.readouterr().err


# ---- symmetry, strict minimality, clue targets, bad options (issue 21) --------------------------------------

SYMMETRY_MAPS = {
    "rot180": lambda n, r, c: [(n - 1 - r, n - 1 - c)],
    "rot90": lambda n, r, c: [(c, n - 1 - r)],
    "mirror": lambda n, r, c: [(r, n - 1 - c)],
    "flip": lambda n, r, c: [(n - 1 - r, c)],
    "diagonal": lambda n, r, c: [(c, r)],
    "antidiagonal": lambda n, r, c: [(n - 1 - c, n - 1 - r)],
    "dihedral": lambda n, r, c: [(c, n - 1 - r), (r, n - 1 - c), (c, r)],
}


def pattern_is_invariant(puzzle, symmetry):
    """Whether every image of a given's cell (written out here, not taken from cpmodels) holds a given too."""
    n = puzzle.n
    return all(
        bool(puzzle.givens[rr * n + cc]) == bool(puzzle.givens[r * n + c])
        for r in range(n)
        for c in range(n)
        for rr, cc in SYMMETRY_MAPS[symmetry](n, r, c)
    )


def orbit_of(n, symmetry, cell):
    """The cells reached from `cell` by the maps above."""
    seen, todo = {cell}, [cell]
    while todo:
        r, c = divmod(todo.pop(), n)
        for rr, cc in SYMMETRY_MAPS[symmetry](n, r, c):
            if rr * n + cc not in seen:
                seen.add(rr * n + cc)
                todo.append(rr * n + cc)
    return seen


def emptied(puzzle, cells):
    givens = list(puzzle.givens)
    for i in cells:
        givens[i] = 0
    return puzzle.with_givens(givens)


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3)])
@pytest.mark.parametrize("symmetry", sorted(SYMMETRY_MAPS))
def test_symmetric_puzzles_are_symmetric_unique_and_orbit_minimal(box, symmetry):
    from cpmodels.generate import generate_one

    puzzle = generate_one("sudoku", 2, 0, box=box, symmetry=symmetry)
    n = puzzle.n
    assert pattern_is_invariant(puzzle, symmetry)
    assert count_solutions(puzzle, 2, backend="dlx") == 1
    orbits = {frozenset(orbit_of(n, symmetry, i)) for i, v in enumerate(puzzle.givens) if v}
    for orbit in orbits:
        assert count_solutions(emptied(puzzle, orbit), 2, backend="dlx") == 2


def test_a_symmetric_pattern_is_not_always_clue_minimal_but_strict_is():
    from cpmodels.generate import generate_one
    from cpmodels.minimality import minimality

    found = [generate_one("sudoku", 6, i, box=(2, 3), symmetry="rot180") for i in range(12)]
    assert any(not minimality(p).minimal for p in found), "every rot180 puzzle was clue-minimal: strict untested"
    for i in range(3):
        strict = generate_one("sudoku", 6, i, box=(2, 3), symmetry="rot180", minimal="strict")
        assert pattern_is_invariant(strict, "rot180")
        for k, v in enumerate(strict.givens):
            if v:
                assert count_solutions(emptied(strict, [k]), 2, backend="dlx") == 2


def test_clue_targets_are_met_by_minimal_puzzles():
    from cpmodels.generate import generate_one

    for i in range(3):
        puzzle = generate_one("sudoku", 9, i, box=(3, 3), clues=(22, 23))
        assert 22 <= sum(1 for v in puzzle.givens if v) <= 23
        for k, v in enumerate(puzzle.givens):
            if v:
                assert count_solutions(emptied(puzzle, [k]), 2, backend="dlx") == 2


def test_an_unreachable_clue_target_stops_at_the_deadline():
    from cpmodels.generate import generate_one

    with pytest.raises(SearchTimeoutError, match=r"no 1-2 clues Sudoku within the time limit \(\d+ attempt"):
        generate_one("sudoku", 1, 0, box=(2, 2), clues=(1, 2), deadline=time.monotonic() + 0.3)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"symmetry": "spiral"}, "unknown symmetry 'spiral'; choose one of: none, rot180, rot90, mirror, flip, "),
        ({"clues": 16}, "no 9x9 Sudoku with fewer than 17 clues has a unique solution (McGuire, Tugemann and "),
        ({"clues": (30, 25)}, "clues must satisfy 0 <= lo <= hi <= 81 on an order-9 Sudoku, not 30-25"),
        ({"clues": (3, 200), "box": (2, 2)}, "clues must satisfy 0 <= lo <= hi <= 16 on an order-4 Sudoku"),
        ({"clues": "20"}, "clues must be a count K or a range (lo, hi), not '20'"),
        ({"minimal": "very"}, "minimal must be True, False or 'strict', not 'very'"),
        ({"holes": 40, "clues": 25}, "holes stops removal early, so it cannot go with clues or minimal='strict'"),
        ({"box": (1, 4)}, "a Sudoku box needs two sides of at least 2 and an order up to 64, not 1x4"),
        ({"box": (9, 9)}, "a Sudoku box needs two sides of at least 2 and an order up to 64, not 9x9"),
    ],
)
def test_bad_sudoku_options_are_refused_with_one_message(options, message):
    from cpmodels.errors import CpModelsError
    from cpmodels.generate import generate

    with pytest.raises(CpModelsError) as caught:
        generate("sudoku", random.Random(1), **options)
    assert str(caught.value).startswith(message)


# ---- methods, grids and targets (issue 21, items 2, 3, 5, 6) ------------------------------------------------

BOXES = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (2, 5), (3, 4), (4, 4)]


def clue_minimal_by_dlx(puzzle, cells=None):
    """Whether the puzzle is unique and every clue (of `cells`, default all) is needed, by dancing links."""
    if count_solutions(puzzle, 2, backend="dlx") != 1:
        return False
    cells = [i for i, v in enumerate(puzzle.givens) if v] if cells is None else cells
    return all(count_solutions(emptied(puzzle, [i]), 2, backend="dlx") == 2 for i in cells)


@pytest.mark.parametrize("box", BOXES)
@pytest.mark.parametrize("method", ["top-down", "bottom-up"])
def test_every_box_shape_and_method_gives_minimal_puzzles_by_another_backend(box, method):
    from cpmodels.generate import generate_many

    count = 3 if box[0] * box[1] <= 9 else 1
    for puzzle in generate_many("sudoku", 17, count, box=box, method=method):
        if box[0] * box[1] <= 10:
            assert clue_minimal_by_dlx(puzzle)
        else:  # 12x12 and 16x16: unique, and a sample of clues needed
            clues = [i for i, v in enumerate(puzzle.givens) if v]
            assert clue_minimal_by_dlx(puzzle, random.Random(1).sample(clues, 8))


@pytest.mark.parametrize("box", [(2, 3), (3, 3), (4, 4)])
def test_logic_singles_puzzles_are_solved_by_singles_alone(box):
    from cpmodels.generate import generate_many
    from cpmodels.strategies import explain

    for puzzle in generate_many("sudoku", 3, 2, box=box, method="logic:singles"):
        done = explain(puzzle, max_level=0)  # Zambon level 0: naked and hidden singles
        assert done.solved and count_solutions(puzzle, 2, backend="dlx") == 1
        assert any(v == 0 for v in puzzle.givens)


def test_logic_singles_removes_what_singles_allow():
    """Every clue left is needed by singles: without it the singles of the strategies module get stuck."""
    from cpmodels.generate import generate_one
    from cpmodels.strategies import explain

    puzzle = generate_one("sudoku", 5, 0, box=(2, 3), method="logic:singles")
    for i, v in enumerate(puzzle.givens):
        if v:
            assert not explain(emptied(puzzle, [i]), max_level=0).solved


def test_controlled_bias_puzzles_are_minimal_and_weighted():
    from math import comb

    from cpmodels.generate import generate_records

    made = list(generate_records("sudoku", 2, 3, box=(2, 2), method="controlled-bias"))
    for record in made:
        k = sum(1 for v in record.puzzle.givens if v)
        assert clue_minimal_by_dlx(record.puzzle)
        assert record.fields["weight"] == pytest.approx(comb(16, k) / comb(16, 8))
        assert record.record()["method"] == "controlled-bias"


def test_searched_grids_are_solutions_for_every_shape():
    from cpmodels.generate import complete_grid
    from cpmodels.grid import explain_violation

    for box in [*BOXES, (5, 5)]:
        n = box[0] * box[1]
        for source in ("search", "pattern"):
            grid = complete_grid(box, random.Random(n), source, shuffle=True)
            assert explain_violation(sudoku_puzzle((0,) * n * n, box), tuple(grid)) is None


def test_a_grid_shuffle_is_a_symmetry_of_the_grid():
    """Shuffled, a grid stays a solution; the same stream gives the same element of the group, others differ."""
    from cpmodels.generate import complete_grid, shuffle_grid
    from cpmodels.grid import explain_violation

    for box in [(3, 3), (2, 4)]:
        n = box[0] * box[1]
        grid = complete_grid(box, random.Random(2))
        shuffled = [shuffle_grid(grid, box, random.Random(seed)) for seed in range(6)]
        assert all(explain_violation(sudoku_puzzle((0,) * n * n, box), s) is None for s in shuffled)
        assert shuffled[0] == shuffle_grid(grid, box, random.Random(0)) and len(set(shuffled)) == 6


def test_grid_shuffle_changes_the_puzzles_not_their_kind():
    from cpmodels.generate import generate_one

    plain = generate_one("sudoku", 4, 0, box=(2, 3))
    shuffled = generate_one("sudoku", 4, 0, box=(2, 3), grid_shuffle=True)
    assert plain != shuffled and clue_minimal_by_dlx(shuffled)


def test_far_clue_counts_are_reached_by_local_search():
    """20 clues on 9x9 lies four standard deviations below the mean: rejection alone would take ~10^4 tries."""
    from cpmodels.generate import generate_records

    (made,) = generate_records("sudoku", 1, 1, clues=20)
    assert sum(1 for v in made.puzzle.givens if v) == 20 and clue_minimal_by_dlx(made.puzzle)
    assert 1 < made.attempts < 5000


def test_node_targets_are_met_and_reported():
    from cpmodels.generate import generate_records

    for made in generate_records("sudoku", 6, 2, box=(3, 3), nodes=(5, 12), evals=3):
        assert 5 <= made.fields["nodes"] <= 12 and made.record()["nodes"] == made.fields["nodes"]
        assert count_solutions(made.puzzle, 2, backend="dlx") == 1


def test_difficulty_targets_grade_exactly_the_level_asked():
    from cpmodels.generate import generate_records
    from cpmodels.strategies import grade

    for made in generate_records("sudoku", 2, 2, box=(2, 4), difficulty="zambon:1"):
        assert grade(made.puzzle, ("zambon",)).zambon == 1 and made.record()["grade"] == "zambon:1"
        assert count_solutions(made.puzzle, 2, backend="dlx") == 1


def test_bottom_up_clue_counts_match_the_literature():
    """2000 bottom-up minimal 9x9 (seed 1): mean in [23.6, 24.1] (23.87 reported; tdoku's generator 23.70)."""
    import statistics

    from cpmodels.generate import generate_many

    counts = [sum(1 for v in p.givens if v) for p in generate_many("sudoku", 1, 2000, method="bottom-up")]
    assert 23.6 <= statistics.mean(counts) <= 24.1
