"""`cpmodels generate` with seeds per puzzle, symmetry, clue counts and threads."""

from __future__ import annotations

import pytest

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


# ---- output fields, JSON Lines, solutions, reading back (issue 21, item 9) ----------------------------------


def fields_of(line):
    """The puzzle text and the `key=value` fields after its tab."""
    text, _, fields = line.partition("\t")
    return text, dict(word.split("=", 1) for word in fields.split())


def test_every_line_carries_its_fields_and_reads_back(capsys, tmp_path):
    code, out, _ = run(capsys, "generate", "sudoku", "--count", "3", "--seed", "4", "--symmetry", "rot180")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 3
    for i, line in enumerate(lines):
        text, fields = fields_of(line)
        assert fields == {
            "seed": f"4:{i}",
            "clues": str(81 - text.count(".")),
            "method": "top-down",
            "symmetry": "rot180",
        }
    path = tmp_path / "made.txt"
    path.write_text(out)
    code, checked, _ = run(capsys, "check", path, "--backends", "dlx,cpsat")
    assert code == 0 and "unique            3" in checked


def test_solutions_are_written_as_claims_that_check_compares(capsys, tmp_path):
    from cpmodels.grid import explain_violation

    code, out, _ = run(capsys, "generate", "sudoku", "--box", "2x3", "--count", "2", "--seed", "8", "--solution")
    path = tmp_path / "solved.txt"
    path.write_text(out)
    for entry in read_text(out):
        assert entry.claimed_count == 1 and explain_violation(entry.puzzle, entry.claimed_solution) is None
    code, checked, _ = run(capsys, "check", path, "--backend", "dlx")
    assert code == 0 and "mismatch          0" in checked and "unique            2" in checked


def test_json_lines_hold_the_puzzle_its_fields_and_solution(capsys, tmp_path):
    import json

    from cpmodels.grid import explain_violation

    argv = ("generate", "sudoku", "--count", "2", "--seed", "5", "--method", "bottom-up")
    code, out, _ = run(capsys, *argv, "--to", "jsonl", "--solution")
    plain = run(capsys, *argv)[1].splitlines()
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["seed"] for r in records] == ["5:0", "5:1"]
    for record, puzzle, line in zip(records, read_text(out), plain, strict=True):
        assert record["method"] == "bottom-up" and record["clues"] == sum(v > 0 for v in puzzle.puzzle.givens)
        assert puzzle.puzzle.givens == read_text(line)[0].puzzle.givens  # the same puzzle as the line output
        solution = [v for row in record["solution"] for v in row]
        assert explain_violation(puzzle.puzzle, solution) is None
    path = tmp_path / "made.jsonl"
    path.write_text(out)
    assert run(capsys, "check", path, "--backend", "dlx")[0] == 0


def test_puzzles_written_on_several_lines_get_their_fields_as_a_comment(capsys):
    code, out, _ = run(capsys, "generate", "sudoku", "--box", "2x2", "--count", "2", "--seed", "1", "--to", "grid")
    comments = [line for line in out.splitlines() if line.startswith("#")]
    assert code == 0 and comments[0].startswith("# seed=1:0 clues=") and comments[1].startswith("# seed=1:1 ")
    assert len(read_text(out)) == 2 and all(count_solutions(e.puzzle, 2, backend="dlx") == 1 for e in read_text(out))


def test_index_remakes_line_i_and_jobs_do_not_change_the_output(capsys):
    argv = ("generate", "sudoku", "--box", "2x3", "--count", "6", "--seed", "12", "--symmetry", "mirror")
    whole = run(capsys, *argv)[1].splitlines()
    assert run(capsys, *argv[:4], "--count", "1", "--seed", "12", "--symmetry", "mirror", "--index", "4")[1] == (
        whole[4] + "\n"
    )
    code, two, _ = run(capsys, *argv, "--jobs", "2")
    assert code == 0 and two.splitlines() == whole
    assert run(capsys, *argv[:7], "13", "--symmetry", "mirror")[1].splitlines() != whole


# ---- bad input: one line, the usage exit code, no traceback (issue 21, "Bad input") -------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--box", "1x4"], "cpmodels: a Sudoku box needs two sides of at least 2 and an order up to 64, not 1x4"),
        (["--box", "9x9"], "cpmodels: a Sudoku box needs two sides of at least 2 and an order up to 64, not 9x9"),
        (["--box", "3y3"], "argument --box: box shape '3y3' is not of the form RxC, such as 2x3"),
        (["--clues", "30-25"], "cpmodels: clues must satisfy 0 <= lo <= hi <= 81 on an order-9 Sudoku, not 30-25"),
        (["--clues", "90"], "cpmodels: clues must satisfy 0 <= lo <= hi <= 81 on an order-9 Sudoku, not 90-90"),
        (["--clues", "16"], "cpmodels: no 9x9 Sudoku with fewer than 17 clues has a unique solution (McGuire, "),
        (["--count", "0"], "argument --count: expected a whole number in 1..1000000000, not '0'"),
        (["--seed", "x1"], "argument --seed: expected a whole number in 0..9223372036854775807, not 'x1'"),
        (["--symmetry", "spiral"], "argument --symmetry: invalid choice: 'spiral' (choose from 'none', 'rot180',"),
        (
            ["--method", "sideways"],
            "cpmodels: unknown method 'sideways'; choose one of: top-down, bottom-up, controlled-bias, logic:singles",
        ),
        (["--method", "logic:pairs"], "cpmodels: unknown method 'logic:pairs'; choose one of: top-down, "),
        (["--difficulty", "foo:1"], "cpmodels: unknown difficulty policy 'foo'; choose one of: zambon"),
        (["--difficulty", "zambon:7"], "cpmodels: unknown zambon level '7'; choose one of: 0, 1, 2, 3, 4"),
        (["--difficulty", "zambon"], "cpmodels: a difficulty is POLICY:LEVEL, such as zambon:2, not 'zambon'"),
        (
            ["--minimal", "strict", "--method", "logic:singles"],
            "cpmodels: --minimal strict needs uniqueness checks, which --method logic:singles does not make",
        ),
        (["--index", "3"], "cpmodels: --index I starts at puzzle I of a run: give that run's --seed too"),
        (["--evals", "3"], "cpmodels: --evals N says over how many relabellings --nodes averages: give --nodes"),
        (["--nodes", "9-3"], "argument --nodes: expected K or A-B (A <= B), such as 200-2000, not '9-3'"),
        (["--max-attempts", "0"], "argument --max-attempts: expected a whole number in 1..1000000000, not '0'"),
    ],
)
def test_each_bad_request_gets_one_line_and_exit_2(capsys, argv, message):
    try:
        code = main(["generate", "sudoku", *argv])
    except SystemExit as stop:  # argparse's usage errors
        code = stop.code
    out, err = capsys.readouterr()
    last = err.strip().splitlines()[-1]
    assert code == 2 and out == "" and "Traceback" not in err
    assert last.startswith(message) or last.startswith("cpmodels generate: error: " + message)


def test_a_difficulty_on_another_scale_is_graded_exactly_that(capsys):
    from cpmodels.strategies import grade

    code, out, _ = run(
        capsys, "generate", "sudoku", "--box", "2x3", "--count", "2", "--seed", "1", "--difficulty", "cp:singles"
    )
    assert code == 0
    for line, entry in zip(out.splitlines(), read_text(out), strict=True):
        assert fields_of(line)[1]["grade"] == "cp:singles"
        assert grade(entry.puzzle, ("cp",)).scales["cp"].value == "singles"


def test_max_attempts_gives_up_with_the_timeout_code_and_says_how_many(capsys):
    code, out, err = run(capsys, "generate", "sudoku", "--clues", "18", "--max-attempts", "2", "--seed", "1")
    lines = err.splitlines()
    assert code == 5 and out == ""
    assert lines[0] == "cpmodels: no 18-18 clues Sudoku: no puzzle in 2 attempt(s)"
    assert lines[1] == "cpmodels: 0 of 1 puzzle(s) made in 2 attempt(s)"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_keeps_the_puzzles_made_and_says_how_many(jobs):
    import signal
    import subprocess
    import sys
    import time

    argv = [sys.executable, "-m", "cpmodels", "generate", "sudoku", "--box", "3x3", "--count", "100000"]
    run_ = subprocess.Popen(
        [*argv, "--seed", "3", "--jobs", jobs], stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0
    )  # unbuffered: readline reads no further than the first line, so communicate() gets all the rest
    assert run_.stdout is not None
    first = run_.stdout.readline()  # a puzzle is out: the run is under way
    time.sleep(0.5)
    run_.send_signal(signal.SIGINT)
    rest, err = run_.communicate(timeout=60)
    lines = (first + rest).decode().splitlines()
    assert run_.returncode == 130 and "Traceback" not in err.decode()
    assert err.decode().strip().splitlines()[-1] == f"cpmodels: interrupted; {len(lines)} puzzle(s) finished before it"
    assert all(line.count("\t") == 1 and line.split("\t")[1].startswith("seed=3:") for line in lines)


def test_the_readers_cut_the_fields_off_and_nothing_else():
    from cpmodels.formats.text import content_lines, without_fields

    line = "1.3." * 4
    assert without_fields(f"{line}\tseed=1:0 clues=8 method=top-down symmetry=none") == line
    assert without_fields(f"{line}:1:{'1234' * 4}\tseed=1:0 weight=0.5") == f"{line}:1:{'1234' * 4}"
    integers = "1\t0\t3\t0"  # tab-separated cells are no fields
    assert without_fields(integers) == integers
    assert content_lines(f"# a comment\n{line}\tnodes=3.5\n") == [(2, line)]
