"""Generating puzzles: Sudoku and Mathdoku with exactly one solution, QWH with the holes asked for."""

import random
import time

import pytest

from cpmodels import cli, count_solutions, solve
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
    assert main(["generate", "sudoku", "--seed", "2", "--time-limit", "0.001"]) == 0
    out, err = capsys.readouterr()
    assert err.startswith("cpmodels: warning: time limit reached with ") and err.count("\n") == 1
    assert count_solutions(read_text(out)[0].puzzle, 2) == 1


def test_generate_exits_5_when_nothing_was_made_in_time(capsys, monkeypatch):
    def too_slow(*_, **__):
        raise SearchTimeoutError("no unique order-6 Mathdoku within the time limit (3 tried)")

    monkeypatch.setattr(cli, "generate", too_slow)
    assert main(["generate", "mathdoku", "--count", "2", "--time-limit", "1"]) == 5
    out, err = capsys.readouterr()
    assert out == "" and err.count("cpmodels: no unique order-6 Mathdoku within the time limit") == 2


def test_generate_time_limit_is_for_searches_only(capsys):
    assert main(["generate", "qwh", "--time-limit", "1"]) == 2
    assert "--time-limit applies to sudoku or mathdoku only" in capsys.readouterr().err
