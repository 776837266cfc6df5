"""The minimality checker: redundant clues, orbits, operators and givens, each re-checked by another backend."""

from pathlib import Path

import pytest

from cpmodels import Cage, GridPuzzle, count_solutions, solve, sudoku_puzzle
from cpmodels.errors import CpModelsError
from cpmodels.formats import read_text
from cpmodels.generate import generate_one
from cpmodels.grid import latin_units
from cpmodels.minimality import format_redundant, minimality

FIXTURES = Path(__file__).parent / "fixtures"
ROYLE_17 = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
"""A 17-clue 9x9 Sudoku (the first of Gordon Royle's list): unique, and minimal since 16 clues never are."""


def without(puzzle, cells):
    """`puzzle` with the givens at `cells` emptied."""
    givens = list(puzzle.givens)
    for i in cells:
        givens[i] = 0
    return puzzle.with_givens(givens)


def redundant_by(puzzle, backend):
    """The clues whose removal alone leaves `puzzle` unique, counted by `backend`."""
    return {
        (i, v)
        for i, v in enumerate(puzzle.givens)
        if v and count_solutions(without(puzzle, [i]), 2, backend=backend) == 1
    }


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 2), (3, 3)])
def test_generated_minimal_puzzles_are_minimal_by_dlx(box):
    for index in range(3):
        puzzle = generate_one("sudoku", 11, index, box=box)
        result = minimality(puzzle)
        assert result.valid and result.minimal and result.clues == ()
        assert count_solutions(puzzle, 2, backend="dlx") == 1
        assert redundant_by(puzzle, "dlx") == set()


def test_a_published_17_is_minimal_and_one_added_clue_is_reported():
    puzzle = sudoku_puzzle([int(c) for c in ROYLE_17])
    assert minimality(puzzle).minimal
    grid = solve(puzzle, backend="dlx").solutions[0]
    cell = ROYLE_17.index("0")
    added = list(puzzle.givens)
    added[cell] = grid[cell]
    more = puzzle.with_givens(added)
    result = minimality(more)
    assert result.valid and not result.minimal
    assert set(result.clues) == redundant_by(more, "dlx")
    assert (cell, grid[cell]) in result.clues
    r, c = divmod(cell, 9)
    assert f"r{r + 1}c{c + 1}={grid[cell]}" in format_redundant(result).split()


def test_a_known_redundant_clue_is_reported_exactly():
    puzzle = generate_one("sudoku", 3, 0, box=(3, 3))
    assert minimality(puzzle).minimal
    solution = solve(puzzle, backend="cpsat").solutions[0]
    found = False
    for cell in (i for i, v in enumerate(puzzle.givens) if not v):
        added = list(puzzle.givens)
        added[cell] = solution[cell]
        more = puzzle.with_givens(added)
        expected = redundant_by(more, "dlx")
        if expected == {(cell, solution[cell])}:
            assert minimality(more).clues == ((cell, solution[cell]),)
            found = True
            break
    assert found, "no cell whose added clue is the only redundant one"


def test_a_clue_removed_from_a_minimal_puzzle_is_not_unique():
    puzzle = sudoku_puzzle([int(c) for c in ROYLE_17])
    result = minimality(without(puzzle, [ROYLE_17.index("1")]))
    assert result.count == 2 and not result.valid and not result.minimal and result.clues == ()


def test_no_solution_is_reported_as_such():
    givens = [0] * 16
    givens[0], givens[1], givens[10], givens[14] = 1, 2, 3, 4  # r1c3 needs 3 or 4, both in column 3
    assert minimality(sudoku_puzzle(givens, (2, 2))).count == 0


@pytest.mark.parametrize("symmetry", ["rot180", "dihedral"])
def test_orbits_are_checked_whole(symmetry):
    puzzle = generate_one("sudoku", 4, 0, box=(2, 3), symmetry=symmetry)
    result = minimality(puzzle, symmetry)
    assert result.valid and result.minimal and result.orbits == ()
    clue_level = minimality(puzzle)
    assert set(clue_level.clues) == redundant_by(puzzle, "dlx")


def test_a_redundant_orbit_is_reported_with_its_clues():
    puzzle = sudoku_puzzle([int(c) for c in ROYLE_17])
    grid = solve(puzzle, backend="dlx").solutions[0]
    added = list(puzzle.givens)
    for i in (0, 80):  # r1c1 and its rot180 image r9c9, both empty in the 17
        assert added[i] == 0
        added[i] = grid[i]
    more = puzzle.with_givens(added)
    result = minimality(more, "rot180")
    assert ((0, grid[0]), (80, grid[80])) in result.orbits
    assert f"r1c1={grid[0]},r9c9={grid[80]}" in format_redundant(result).split()
    assert count_solutions(without(more, [0, 80]), 2, backend="dlx") == 1


def test_bad_symmetry_is_refused_with_the_valid_names():
    puzzle = sudoku_puzzle([int(c) for c in ROYLE_17])
    with pytest.raises(CpModelsError, match="unknown symmetry 'spiral'; choose one of: none, rot180, rot90"):
        minimality(puzzle, "spiral")


def keen_six():
    """The 6x6 fixture puzzle (Keen-style, unique)."""
    return read_text((FIXTURES / "mathdoku" / "six.ken").read_text())[0].puzzle


def test_mathdoku_redundant_operators_and_givens_match_cpsat():
    puzzle = keen_six()
    assert puzzle is not None and puzzle.cages
    result = minimality(puzzle)
    assert result.valid
    operators, givens = set(), set()
    for k, cage in enumerate(puzzle.cages):
        if len(cage.cells) == 1:
            cages = puzzle.cages[:k] + puzzle.cages[k + 1 :]
        else:
            cages = (*puzzle.cages[:k], Cage(cage.cells, None, cage.target), *puzzle.cages[k + 1 :])
        if count_solutions(GridPuzzle(puzzle.n, puzzle.units, puzzle.givens, cages), 2, backend="cpsat") == 1:
            (givens if len(cage.cells) == 1 else operators).add(k)
    assert set(result.operators) == operators and set(result.givens) == givens
    assert operators, "the fixture has redundant operators (most Keen-style operators are)"
    text = format_redundant(result).split()
    assert len(text) == len(operators) + len(givens)


def test_symmetry_none_is_the_clue_by_clue_check():
    puzzle = generate_one("sudoku", 6, 2, box=(2, 3), symmetry="rot90")
    assert minimality(puzzle, "none") == minimality(puzzle)


def test_generated_mathdoku_redundant_operators_match_cpsat():
    for index in range(2):
        puzzle = generate_one("mathdoku", 12, index, order=5)
        result = minimality(puzzle)
        assert result.valid and result.checks == 1 + len(puzzle.cages)  # one check per cage clue
        for k, cage in enumerate(puzzle.cages):
            if len(cage.cells) == 1:
                continue
            hidden = (*puzzle.cages[:k], Cage(cage.cells, None, cage.target), *puzzle.cages[k + 1 :])
            unique = count_solutions(GridPuzzle(5, puzzle.units, puzzle.givens, hidden), 2, backend="cpsat") == 1
            assert (k in result.operators) == unique


def test_the_checker_costs_one_check_per_clue():
    puzzle = sudoku_puzzle([int(c) for c in ROYLE_17])
    assert minimality(puzzle).checks == 1 + 17
    assert minimality(puzzle, "rot180").checks == 1 + len({min(i, 80 - i) for i, c in enumerate(ROYLE_17) if c != "0"})


def test_a_necessary_operator_is_not_reported():
    """A 4x4 with cells in no cage: hiding `4/` allows 1+3 as well, and then it has several solutions."""
    cages = (
        Cage(((0, 0),), "=", 1),
        Cage(((0, 1), (0, 2)), "-", 1),
        Cage(((1, 0), (1, 1), (2, 0)), "+", 9),
        Cage(((1, 2), (1, 3)), "*", 4),
        Cage(((2, 1), (3, 1)), "/", 4),
        Cage(((2, 2), (3, 2), (3, 3)), "+", 7),
    )
    puzzle = GridPuzzle(4, latin_units(4), (0,) * 16, cages)
    assert count_solutions(puzzle, 2, backend="cpsat") == 1
    result = minimality(puzzle)
    assert 4 not in result.operators and result.operators  # 4/ is needed, some others are not
    for k in (1, 2, 3, 4, 5):
        hidden = (*cages[:k], Cage(cages[k].cells, None, cages[k].target), *cages[k + 1 :])
        unique = count_solutions(GridPuzzle(4, latin_units(4), (0,) * 16, hidden), 2, backend="cpsat") == 1
        assert (k in result.operators) == unique
    assert "r3c2,r4c2:4/" not in format_redundant(result)


def test_many_puzzles_at_once_give_what_one_at_a_time_gives():
    from cpmodels.generate import generate_many
    from cpmodels.minimality import minimality_many

    minimal = list(generate_many("sudoku", 13, 20, box=(3, 3)))
    puzzles = [*minimal, sudoku_puzzle([int(c) for c in ROYLE_17]), keen_six()]
    puzzles.append(without(minimal[0], [next(i for i, v in enumerate(minimal[0].givens) if v)]))  # not unique
    grid = solve(minimal[1], backend="dlx").solutions[0]
    cell = minimal[1].givens.index(0)
    puzzles.append(minimal[1].with_givens([*minimal[1].givens[:cell], grid[cell], *minimal[1].givens[cell + 1 :]]))
    for orbits in (None, "rot180"):
        together = minimality_many(puzzles, orbits, chunk=7)
        assert together == [minimality(p, orbits) for p in puzzles]
    assert [m.minimal for m in together[:21]] == [True] * 21 and together[-2].count == 2
    assert (cell, grid[cell]) in minimality_many(puzzles)[-1].clues
