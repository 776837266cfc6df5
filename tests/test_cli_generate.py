"""`cpmodels generate` with seeds per puzzle, symmetry, clue counts and threads."""

from __future__ import annotations

from cpmodels.cli import main
from cpmodels.formats import read_text
from cpmodels.minimality import is_symmetric
from cpmodels.solve import count_solutions


def run(capsys, *argv):
    """Run the command in-process; returns (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_puzzle_i_depends_on_the_seed_and_i_alone(capsys):
    code, five, err = run(capsys, "generate", "sudoku", "--count", "5", "--seed", "11")
    assert code == 0 and err == "" and len(set(five.splitlines())) == 5
    again = run(capsys, "generate", "sudoku", "--count", "2", "--seed", "11", "--index", "3")[1]
    assert again.splitlines() == five.splitlines()[3:]
    assert run(capsys, "generate", "sudoku", "--count", "5", "--seed", "11", "--jobs", "2")[1] == five
    assert run(capsys, "generate", "sudoku", "--count", "5", "--seed", "11", "--time-limit", "60")[1] == five


def test_a_drawn_seed_is_said_and_makes_the_same_puzzles_again(capsys):
    code, out, err = run(capsys, "generate", "mathdoku", "--order", "4", "--count", "2")
    seed = err.split("--seed ")[1].split()[0]
    assert code == 0 and run(capsys, "generate", "mathdoku", "--order", "4", "--count", "2", "--seed", seed)[1] == out


def test_symmetric_puzzles_with_a_clue_count(capsys):
    code, out, _ = run(capsys, "generate", "sudoku", "--box", "2x3", "--symmetry", "rot180", "--count", "3")
    puzzles = [e.puzzle for e in read_text(out, box=(2, 3))]
    assert code == 0 and len(puzzles) == 3
    assert all(is_symmetric(p, "rot180") and count_solutions(p, 2, backend="dlx") == 1 for p in puzzles)
    code, out, _ = run(capsys, "generate", "sudoku", "--clues", "26-27", "--count", "2", "--seed", "5")
    assert code == 0 and all(26 <= 81 - line.count(".") <= 27 for line in out.splitlines())


def test_generate_refuses_what_it_cannot_make(capsys):
    code, _, err = run(capsys, "generate", "sudoku", "--clues", "16")
    assert code == 2 and "McGuire" in err and err.count("cpmodels: ") == 1
    code, _, err = run(capsys, "generate", "mathdoku", "--symmetry", "rot90")
    assert code == 2 and "--symmetry applies to sudoku only" in err
    code, _, err = run(capsys, "generate", "sudoku", "--index", "3")
    assert code == 2 and "--seed" in err
