"""`cpmodels explain`, `grade` and `techniques`: the strategies package on the command line."""

from __future__ import annotations

import json

from cpmodels.cli import main
from cpmodels.formats import read_text
from cpmodels.formats.sudoku import format_line
from cpmodels.solve import solve
from cpmodels.strategies import State, Step

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
    code, out, _ = run(capsys, "explain", hard, "--max-level", "2")
    assert code == 8 and "stuck after" in out and "stuck" in out.splitlines()[0]
    code, out, _ = run(capsys, "explain", hard, "--techniques", "h1,n1", "--quiet")
    assert code == 8 and "stuck after" in out and "Hidden Single" not in out.splitlines()[1]


def test_explain_jsonl_is_one_object_per_step_then_a_summary(capsys, tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(f"{EASY}\n{EASY}\n")
    code, out, _ = run(capsys, "explain", path, "--format", "jsonl")
    objects = [json.loads(line) for line in out.splitlines()]
    summaries = [k for k, o in enumerate(objects) if o.get("summary")]
    steps = EASY.count(".")
    assert code == 0 and summaries == [steps, 2 * steps + 1]
    first, summary = objects[:steps], objects[steps]
    assert summary["solved"] and summary["grade"] == 0 and summary["puzzle"].endswith("two.txt:1")
    assert [o["step"] for o in first] == list(range(1, steps + 1))
    assert [o["text"] for o in first] == [o["text"] for o in objects[steps + 1 : -1]]
    for this, after in zip(first, first[1:], strict=False):  # the state before each step, then the next one
        state = Step.from_json(this).apply(State.from_json(this["before"]))
        assert state == State.from_json(after["before"])
    assert all(o["placements"] and o["ratings"]["hodoku"] in (4, 14) for o in first)


def test_grade_a_file_reports_each_puzzle_and_goes_on_past_bad_ones(capsys, tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text(f"{EASY}\nnot a puzzle\n{TWO}\n{EASY}\n")
    code, out, err = run(capsys, "grade", path, "--from", "line")
    rows = out.splitlines()
    assert code == 2 and err.count("cpmodels: ") == 1 and "mixed.txt:2" in err
    assert rows[0].startswith(f"{path}:1\tzambon=0\t") and rows[1] == f"{path}:3\tmultiple solutions"
    assert rows[2].startswith(f"{path}:4\tzambon=0\t") and "\n0" + " " * 21 + "2\n" in out
    code, out, _ = run(capsys, "grade", EASY, "--format", "json")
    record = json.loads(out)
    assert code == 0 and record["zambon"]["value"] == 0 and record["zambon"]["version"] == "zambon-1"
    assert "hidden-single" in record["zambon"]["techniques"] and record["zambon"]["policy"] == "zambon"


def test_techniques_lists_names_and_aliases(capsys):
    code, out, _ = run(capsys, "techniques")
    assert code == 0 and "x-wing" in out and "bf2, lines-2" in out and "guess" in out


def test_explain_refuses_what_it_cannot_explain(capsys):
    code, _, err = run(capsys, "explain", EASY, "--techniques", "h1,nonsense")
    assert code == 2 and "nonsense" in err and "hidden-single" in err
    code, _, err = run(capsys, "explain", EASY, "--policy", "serate")
    assert code == 2 and "unknown policy 'serate'" in err and "zambon, se, hodoku, keen" in err
    code, _, err = run(capsys, "explain", EASY, "--log", "naked-pair,nope")
    assert code == 2 and "'nope'" in err and "x-wing" in err
    code, _, err = run(capsys, "grade", EASY, "--scale", "zambon,elo")
    assert code == 2 and "unknown scale 'elo'" in err and "zambon, se, hodoku, keen, cp" in err


def test_hint_is_the_first_step_of_the_explanation(capsys):
    code, out, _ = run(capsys, "explain", EASY, "--hint")
    first = run(capsys, "explain", EASY)[1].splitlines()[2]
    assert code == 0 and out == f"<argument>:1: {first}\n"
    inkala = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    code, out, _ = run(capsys, "explain", inkala, "--hint", "--max-level", "2")
    assert code == 8 and "a guess is next" in out


VARIED = ".....2.......7...17..3...9.8..7......2.89.6...13..6....9..5.824.....891.........."
MATHDOKU = "4:_a_6bb_a_a3,a7d2m3s2a5d2m12"


def test_explain_policies_rate_each_step_on_their_scale(capsys):
    code, out, _ = run(capsys, "explain", VARIED, "--policy", "se")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("# <argument>:1: solved") and "policy se" in lines[0]
    steps = [line for line in lines if line.endswith("]")]
    ratings = [float(line.rsplit("[", 1)[1][:-1]) for line in steps]
    er = max(ratings)
    assert steps and any(f"ER/EP/ED {er:.1f}/" in line for line in lines)
    code, out, _ = run(capsys, "explain", VARIED, "--policy", "hodoku", "--quiet")
    assert code == 0 and "; HoDoKu " in out and "[" not in out


def test_explain_grid_prints_the_board_every_k_steps_and_the_display_string(capsys):
    code, out, _ = run(capsys, "explain", EASY, "--format", "grid", "--every", "10")
    steps = EASY.count(".")
    solution = format_line(solve(read_text(EASY)[0].puzzle, backend="backtrack", limit=2).solutions[0])
    assert code == 0 and out.count("#===+===+===#===+===+===#===+===+===#") == 4 * (1 + (steps - 1) // 10 + 1)
    assert f"display: {solution}" in out and out.count("r5  #") == (steps - 1) // 10 + 2
    first = out.splitlines()[2:6]
    assert first[0].split() == [f"c{c}" for c in range(1, 10)] and first[3].startswith("r1  #")


def test_explain_log_trace_and_verify(capsys):
    code, out, _ = run(capsys, "explain", VARIED, "--log", "naked-pair,h2")
    logged = [line for line in out.splitlines() if "=>" in line or "(the" in line]
    assert logged and all(line.startswith(("Naked Pair:", "Hidden Pair:")) for line in logged)
    code, out, _ = run(capsys, "explain", EASY, "--trace")
    tried = [line for line in out.splitlines() if line.startswith("  tried: ")]
    assert len(tried) == EASY.count(".") and all(line.endswith(" +") for line in tried)
    assert tried[0].startswith("  tried: full-house")
    code, out, _ = run(capsys, "explain", MATHDOKU, "--verify", "--policy", "keen")
    assert code == 0 and "verified: all 22 steps proved by CP-SAT" in out and "Keen Normal" in out


def test_explain_time_limit_marks_a_timeout_and_grade_a_lower_bound(capsys):
    code, out, _ = run(capsys, "explain", VARIED, "--time-limit", "0.000001", "--policy", "se")
    assert code == 5 and "timeout" in out.splitlines()[0] and "ER/EP/ED >= " in out
    code, out, _ = run(capsys, "grade", VARIED, "--time-limit", "0.000001", "--scale", "zambon,se")
    assert code == 5 and "se=>=" in out.splitlines()[0]


def test_grade_on_every_scale_with_a_table_per_scale(capsys, tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(f"{EASY}\n{VARIED}\n")
    code, out, _ = run(capsys, "grade", path, "--scale", "zambon,se,hodoku,cp")
    rows = out.splitlines()
    assert code == 0 and rows[0].split("\t")[1:5] == [
        "zambon=0",
        "se=1.2/1.2/1.2",
        rows[0].split("\t")[3],
        "cp=singles",
    ]
    assert rows[0].split("\t")[3].startswith("hodoku=Easy(") and "rated=zambon-1,se-1.2.1,hodoku-2.2,cp-1" in rows[0]
    assert rows[1].split("\t")[1] == "zambon=3"
    tables = [k for k, row in enumerate(rows) if row.endswith("puzzles")]
    assert [rows[k].split()[0] for k in tables] == ["zambon", "se", "hodoku", "cp"]
    assert all(row.split()[-1] == "2" for row in rows if row.startswith("total"))
    code, out, _ = run(capsys, "grade", MATHDOKU, "--scale", "keen,cp", "--format", "json")
    record = json.loads(out)
    assert code == 0 and record["keen"]["value"] == "Normal" and record["cp"]["value"] == "gac"
    assert record["keen"]["version"] == "keen-1" and "cage-positions" in record["keen"]["techniques"]
    code, out, _ = run(capsys, "grade", MATHDOKU, "--scale", "se,hodoku")
    assert code == 0 and out.splitlines()[0].split("\t")[1:3] == ["se=n/a", "hodoku=n/a"]
    code, _, err = run(capsys, "explain", MATHDOKU, "--policy", "se")
    assert code == 2 and "the se policy explains Sudoku and Latin squares" in err


def test_techniques_table_has_ratings_and_shapes(capsys):
    code, out, _ = run(capsys, "techniques", "--shape", "latin")
    assert code == 0 and "cage-layouts" not in out and "pointing" not in out and "x-wing" in out
    row = next(line for line in out.splitlines() if line.startswith("x-wing "))
    assert "3.2" in row and "Hard 140" in row
    code, out, _ = run(capsys, "techniques", "--shape", "mathdoku")
    assert "innies-outies" in out


def test_explain_says_what_it_leaves_out(capsys, tmp_path):
    path = tmp_path / "latin.pls"
    path.write_text("order 4\n0 1 2 3\n1 2 3 0\n-1 -1 -1 -1\n-1 -1 -1 -1\n")
    code, out, _ = run(capsys, "explain", path, "--techniques", "h1,n1,pointing,er")
    head = out.splitlines()[0]
    assert code == 8 and "uniqueness techniques off: multiple solutions" in head
    assert "pointing does not apply here (needs boxes)" in head and "empty-rectangle does not apply" in head
