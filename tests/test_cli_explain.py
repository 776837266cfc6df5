"""`cpmodels explain`, `grade` and `techniques`: the strategies package on the command line."""

from __future__ import annotations

import json

from cpmodels.cli import main
from cpmodels.formats import read_text
from cpmodels.formats.sudoku import format_line
from cpmodels.solve import solve

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."  # norvig_easy50 #1
TWO = "." * 16  # a 4x4 with 288 solutions


def run(capsys, *argv):
    """Run the command in-process; returns (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_explain_prints_each_step_and_ends_on_the_solution(capsys):
    code, out, _ = run(capsys, "explain", EASY)
    lines = out.splitlines()
    solution = solve(read_text(EASY)[0].puzzle, backend="backtrack", limit=2).solutions[0]
    assert code == 0 and lines[0].startswith("# <argument>:1: solved, grade 0 (")
    assert lines[-1] == f"final: {format_line(solution)}" and "codes: " in lines[-2]
    steps = lines[2:-3]
    assert steps and all(": r" in step for step in steps)  # `Hidden Single: r1c1=4 (...)`
    assert len(steps) == EASY.count(".")  # one placement a step: singles only


def test_explain_says_stuck_with_its_exit_code(capsys, tmp_path):
    hard = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."  # Inkala's, a guess
    code, out, _ = run(capsys, "explain", hard, "--max-level", "3")
    assert code == 8 and "stuck after" in out and "stuck" in out.splitlines()[0]
    code, out, _ = run(capsys, "explain", hard, "--techniques", "h1,n1", "--quiet")
    assert code == 8 and "stuck after" in out and "Hidden Single" not in out.splitlines()[1]


def test_explain_jsonl_is_one_object_per_puzzle(capsys, tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(f"{EASY}\n{EASY}\n")
    code, out, _ = run(capsys, "explain", path, "--format", "jsonl")
    objects = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(objects) == 2 and objects[0]["solved"] and objects[0]["grade"] == 0
    assert objects[0]["steps"] == objects[1]["steps"] and objects[0]["puzzle"].endswith("two.txt:1")


def test_grade_a_file_reports_each_puzzle_and_goes_on_past_bad_ones(capsys, tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text(f"{EASY}\nnot a puzzle\n{TWO}\n{EASY}\n")
    code, out, err = run(capsys, "grade", path, "--from", "line")
    rows = out.splitlines()
    assert code == 2 and err.count("cpmodels: ") == 1 and "mixed.txt:2" in err
    assert rows[0].startswith(f"{path}:1\tzambon=0\t") and rows[1] == f"{path}:3\tmultiple solutions"
    assert rows[2].startswith(f"{path}:4\tzambon=0\t") and "0                 2" in out
    code, out, _ = run(capsys, "grade", EASY, "--format", "json")
    assert code == 0 and json.loads(out)["zambon"] == 0


def test_techniques_lists_names_and_aliases(capsys):
    code, out, _ = run(capsys, "techniques")
    assert code == 0 and "x-wing" in out and "bf2, lines-2" in out and "guess" in out


def test_explain_refuses_what_it_cannot_explain(capsys):
    code, _, err = run(capsys, "explain", EASY, "--techniques", "h1,nonsense")
    assert code == 2 and "nonsense" in err and "hidden-single" in err
    code, _, err = run(capsys, "explain", "4:_a_6bb_a_a3,a7d2m3s2a5d2m12")
    assert code == 2 and err.count("cpmodels: ") == 1 and "cages" in err


def test_hint_is_the_first_step_of_the_explanation(capsys):
    code, out, _ = run(capsys, "explain", EASY, "--hint")
    first = run(capsys, "explain", EASY)[1].splitlines()[2]
    assert code == 0 and out == f"<argument>:1: {first}\n"
    inkala = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    code, out, _ = run(capsys, "explain", inkala, "--hint")
    assert code == 8 and "a guess is next" in out
