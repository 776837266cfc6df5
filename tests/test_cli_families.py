"""The command on Mathdoku cage files and Tatham game IDs: solve, check with witnesses, convert."""

import pytest

from cpmodels import is_solution, solve
from cpmodels.cli import main
from cpmodels.formats import read_text
from cpmodels.formats.mathdoku import read_puzzle

from .conftest import FIXTURES

MATHDOKU = FIXTURES / "mathdoku"
KEEN4 = "4:_a_6bb_a_a3,a7d2m3s2a5d2m12"
FOUR_CAGES = """4
+ 7 3 1 5 9
/ 2 2 2 3
* 3 2 4 8
- 2 2 6 10
+ 5 2 7 11
/ 2 2 12 16
* 12 3 13 14 15
"""


def run(capsys, *argv):
    """Run the command in-process; returns (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", ["four.cagelist", "four.ken", "four.idx", "four.cells", "four.json", "six.ken"])
def test_solve_every_cage_format(capsys, name):
    code, out, _ = run(capsys, "solve", MATHDOKU / name, "--format", "line")
    puzzle = read_puzzle((MATHDOKU / name).read_text())
    assert code == 0 and ": unique (" in out
    assert is_solution(puzzle, [int(ch) for ch in out.splitlines()[1]])


def test_check_prints_bordered_solution_with_labels(capsys):
    code, out, _ = run(capsys, "check", MATHDOKU / "six.ken")
    assert code == 0 and ": unique\n" in out and "|2-  " in out and "|300*" in out


def test_check_hidden_operators_gives_witness_and_names_ambiguous_cages(capsys):
    code, out, _ = run(capsys, "check", MATHDOKU / "four.cagelist", "--hide-operators")
    assert code == 3 and ": multiple\n" in out and "a second solution, the witness:" in out
    assert "cage 6 (r3c3 r3c4) target 3: operator could be + or - or * or /" in out


def test_keen_id_and_its_cage_file_give_the_same_solution(capsys):
    from_id = read_text(KEEN4)[0].puzzle
    from_file = read_text(FOUR_CAGES)[0].puzzle
    assert from_id == from_file
    assert solve(from_id, limit=2).solutions == solve(from_file, limit=2).solutions
    code, out, _ = run(capsys, "check", KEEN4)
    cells = [line.replace("|", " ").split() for line in out.splitlines() if line.startswith("|")]
    assert code == 0 and [row for row in cells if row and all(v.isdigit() for v in row)] == [
        list("1243"),
        list("4321"),
        list("2134"),
        list("3412"),
    ]


@pytest.mark.parametrize("fmt", ["cagelist", "lettergrid", "indexgrid", "oneline", "cellnames", "json", "keen"])
def test_convert_round_trips_through_every_format(capsys, tmp_path, fmt):
    code, out, _ = run(capsys, "convert", MATHDOKU / "six.ken", "--to", fmt)
    assert code == 0
    written = tmp_path / f"six.{fmt}"
    written.write_text(out)
    assert read_text(out, fmt=fmt)[0].puzzle == read_puzzle((MATHDOKU / "six.ken").read_text())
    code, again, _ = run(capsys, "convert", written, "--to", "keen")
    assert code == 0 and again.strip() == run(capsys, "convert", MATHDOKU / "six.ken", "--to", "keen")[1].strip()


def test_convert_sudoku_to_solo_and_back(capsys):
    solo = "2x3:4_1c5f1a3a5b5a1a3f6c4_2"
    code, line, _ = run(capsys, "convert", solo, "--to", "line")
    assert code == 0
    code, back, _ = run(capsys, "convert", line.strip(), "--to", "solo", "--box", "2x3")
    assert code == 0 and back.strip() == solo


def test_forced_format(capsys):
    code, out, _ = run(capsys, "count", KEEN4, "--from", "keen", "--limit", "5")
    assert code == 0 and out.strip() == "1"


@pytest.mark.parametrize(
    "argv, advice",
    [
        (("count", KEEN4, "--format", "keen"), "use --from keen"),
        (("check", MATHDOKU / "four.cagelist", "--format", "cagelist"), "use --from cagelist"),
        (("solve", KEEN4, "--format", "keen"), "use --from keen"),
        (("solve", KEEN4, "--format", "dlx"), "convert --to dlx"),
        (("convert", KEEN4, "--format", "cagelist"), "--to cagelist"),
        (("generate", "mathdoku", "--format", "keen"), "--to keen"),
    ],
)
def test_format_names_the_output_only(capsys, argv, advice):
    """--format once forced the input on count, check and convert: that use is a one-line usage error now."""
    with pytest.raises(SystemExit) as stop:
        main([str(a) for a in argv])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert stop.value.code == 2 and "argument --format:" in last and advice in last


def test_convert_refusal_is_one_line(capsys):
    code, _, err = run(capsys, "convert", MATHDOKU / "four_hidden.json", "--to", "keen")
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1


def test_bad_cage_file_names_line_and_column(capsys, tmp_path):
    bad = tmp_path / "bad.cage"
    bad.write_text("4\n+ 7 2 1 5\n/ 7 2 2 3\n")
    code, _, err = run(capsys, "solve", bad)
    assert code == 2 and str(bad) in err and "Traceback" not in err


def test_bad_keen_id_points_at_the_character(capsys):
    code, _, err = run(capsys, "solve", "4:_a_6bb_a_a3,a7d2m3s2a5d2q12")
    assert code == 2 and "<argument>:1:" in err and "^" in err


def test_disconnected_cage_is_a_warning(capsys, tmp_path):
    path = tmp_path / "apart.json"
    path.write_text(
        '{"size": 2, "cages": [{"cells": [[0, 0], [1, 1]], "op": "+", "target": 2},'
        ' {"cells": [[0, 1], [1, 0]], "op": "+", "target": 4}]}'
    )
    code, _, err = run(capsys, "solve", path)
    assert code == 0 and "warning" in err and "cage 1 (r1c1 r2c2) is not connected" in err


def test_solve_prints_a_qwh_solution_as_qwh_unless_format_says(capsys):
    line = "puzzle:5:8:2,4,1,0,3,0,1,-1,-1,2,-1,3,2,-1,0,1,2,-1,3,-1,3,0,-1,2,-1"
    code, out, _ = run(capsys, "solve", line, "--backend", "backtrack")
    assert code == 0 and out.splitlines()[1] == line + ":SAT:2,4,1,0,3,0,1,3,4,2,4,3,2,1,0,1,2,0,3,4,3,0,4,2,1"
    code, out, _ = run(capsys, "solve", line, "--backend", "backtrack", "--format", "line")
    assert code == 0 and out.splitlines()[1] == "3521412453543212314541532"


def test_symbols_are_read_and_the_solution_written_in_them(capsys):
    code, out, _ = run(capsys, "generate", "sudoku", "--order", "4", "--symbols", "0-3", "--seed", "2")
    line = out.split("\t")[0]  # the puzzle, without the fields after it
    assert code == 0 and set(line) <= set(".0123") and len(line) == 16
    code, out, _ = run(capsys, "solve", line, "--symbols", "0-3", "--format", "line", "--backend", "dlx")
    assert code == 0 and sorted(out.splitlines()[1]) == sorted("0123" * 4)


def test_convert_writes_a_stream_that_reads_back(capsys, tmp_path):
    code, out, _ = run(
        capsys, "generate", "mathdoku", "--order", "4", "--count", "2", "--seed", "3", "--to", "cagelist"
    )
    assert code == 0 and len(read_text(out, fmt="cagelist")) == 2
    path = tmp_path / "two.cagelist"
    path.write_text(out)
    code, out, err = run(capsys, "convert", path, "--to", "dlx")
    assert code == 2 and err.count("cpmodels: ") == 1 and f"{path}:" in err and "a dlx file holds one puzzle" in err
    assert out.startswith("| cpmodels exact cover of")
