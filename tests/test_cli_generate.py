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


def test_check_minimal_lists_the_redundant_clues(capsys, tmp_path):
    code, made, _ = run(capsys, "generate", "sudoku", "--count", "2", "--seed", "3")
    first = made.split()[0]
    solution = run(capsys, "solve", first, "--format", "line", "--backend", "backtrack")[1].splitlines()[1]
    empty = first.index(".")
    extra = first[:empty] + solution[empty] + first[empty + 1 :]  # one clue more than a minimal puzzle
    path = tmp_path / "p.txt"
    path.write_text(made + extra + "\n" + "." * 16 + "\n")
    code, out, _ = run(capsys, "check", path, "--minimal")
    lines = out.splitlines()
    cell = f"r{empty // 9 + 1}c{empty % 9 + 1}={solution[empty]}"
    assert lines[:2] == [f"{path}:1: minimal", f"{path}:2: minimal"]
    assert lines[2].startswith(f"{path}:3: not minimal: redundant ") and cell in lines[2].split()
    assert lines[3] == f"{path}:4: not unique (at least 2)" and code == 3
    assert "minimal             2" in out and "not unique          1" in out


def test_check_minimal_by_orbits(capsys, tmp_path):
    path = tmp_path / "rot.txt"
    path.write_text(run(capsys, "generate", "sudoku", "--symmetry", "rot180", "--seed", "2", "--box", "2x3")[1])
    code, out, _ = run(capsys, "check", path, "--minimal", "--orbits", "rot180")
    assert code == 0 and out.startswith(f"{path}:1: minimal")
    code, _, err = run(capsys, "check", path, "--orbits", "rot180")
    assert code == 2 and "give --minimal too" in err
