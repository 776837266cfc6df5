"""Generating puzzles: Sudoku and Mathdoku with exactly one solution, QWH with the holes asked for."""

import random

import pytest

from cpmodels import count_solutions, solve
from cpmodels.cli import main
from cpmodels.formats import read_text
from cpmodels.generate import punch_while_unique, random_grid, unique_mathdoku
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
