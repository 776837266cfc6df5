"""Knuth's DLX files on the command line: solve, count and check an exact-cover problem, convert it back.

Counts are published facts (OEIS, TAOCP 7.2.2.1); solutions printed with --format knuth are compared
with what Knuth's DLX1-DLX3 print for the examples in their own documentation.
"""

from __future__ import annotations

import itertools

import pytest

from cpmodels.cli import main
from cpmodels.cover import cover_violation
from cpmodels.formats import read_text
from cpmodels.formats.dlx import read_cover, write_cover
from cpmodels.solve import solve_cover

from .test_exact_cover import DLX1_EXAMPLE, DLX2_EXAMPLE, DLX3_EXAMPLE, langford, latin, queens, two_per_line


def run(capsys, *argv):
    """Run the command in-process; returns (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def dlx_file(tmp_path, problem, name="problem.txt"):
    """`problem` written as a DLX file (by default under a name that does not say .dlx: detected)."""
    path = tmp_path / name
    path.write_text(write_cover(problem) if not isinstance(problem, str) else problem, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("problem", "count"),
    [
        (queens(6), 4),
        (queens(8), 92),
        (queens(10), 724),  # OEIS A000170
        (langford(7), 52),
        (langford(8), 300),  # OEIS A014552, each pairing and its reverse
        (latin(4), 576),
        (latin(5), 161_280),  # OEIS A002860
        (two_per_line(5), 2_040),  # OEIS A001499, DLX3 bounds
    ],
    ids=["queens6", "queens8", "queens10", "langford7", "langford8", "latin4", "latin5", "twoperline5"],
)
def test_count_without_a_limit_counts_every_exact_cover(capsys, tmp_path, problem, count):
    code, out, err = run(capsys, "count", dlx_file(tmp_path, problem))
    assert (code, out, err) == (0 if count == 1 else 3, f"{count}\n", "")


def test_count_stops_at_the_limit_and_says_so(capsys, tmp_path):
    code, out, _ = run(capsys, "count", dlx_file(tmp_path, latin(5)), "--limit", "1000")
    assert (code, out) == (3, ">=1000\n")
    code, out, _ = run(capsys, "count", dlx_file(tmp_path, latin(5)), "--limit", "1000", "--backend", "cpsat")
    assert (code, out) == (3, ">=1000\n")


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        (DLX1_EXAMPLE, "1:\n A D (2 of 2)\n E F C (1 of 1)\n B G (1 of 1)\n"),
        (DLX2_EXAMPLE, "1:\n A C X:1 Y:1 (2 of 2)\n B X:1 (1 of 1)\n"),
        (DLX3_EXAMPLE, "1:\n A C X:1 Y:1 (2 of 2)\n B X:1 (1 of 1)\n C Y:1 (1 of 1)\n null C (1 of 1)\n"),
    ],
    ids=["DLX1", "DLX2", "DLX3"],
)
def test_solve_format_knuth_prints_as_his_programs_do(capsys, tmp_path, text, printed):
    """Knuth's examples have one solution each: solve proves it unique and prints it as DLX1-DLX3 do."""
    path = dlx_file(tmp_path, text, "example.dlx")
    code, out, _ = run(capsys, "solve", path, "--format", "knuth")
    head, rest = out.split("\n", 1)
    assert code == 0 and head.startswith(f"# {path}:2: unique (") and rest == printed


def test_solve_prints_each_solution_as_its_options(capsys, tmp_path):
    p = queens(6)
    code, out, _ = run(capsys, "solve", dlx_file(tmp_path, p), "--stats")
    blocks = out.split("# a second solution:\n")
    assert code == 3 and len(blocks) == 2 and "multiple" in out.splitlines()[0]
    index = {" " + " ".join(p.entries(k)): k for k in range(len(p.options))}
    for block in blocks:
        options = [index[line] for line in block.splitlines() if not line.startswith("#")]
        assert len(options) == 6 and cover_violation(p, options) is None
    stats = out.splitlines()[-1]
    assert stats.startswith("# stats dlx: nodes=") and "updates=" in stats


def test_check_cross_checks_dancing_links_against_cp_sat(capsys, tmp_path):
    code, out, _ = run(capsys, "check", dlx_file(tmp_path, DLX2_EXAMPLE))
    assert code == 0 and "dlx: exactly 1 solution(s)" in out and "cpsat: exactly 1 solution(s)" in out
    assert "agree: unique" in out and "\n A C X:1 Y:1\n B X:1\n" in out
    code, out, _ = run(capsys, "check", dlx_file(tmp_path, queens(3)))
    assert code == 4 and "agree: none" in out
    code, out, _ = run(capsys, "check", dlx_file(tmp_path, queens(5)), "--backends", "dlx,cpsat,backtrack")
    assert code == 3 and "backtrack: skipped: it does not solve exact-cover problems" in out


def test_convert_writes_a_dlx_file_back_as_it_was_read(capsys, tmp_path):
    for problem in (queens(5), read_cover(DLX2_EXAMPLE), read_cover(DLX3_EXAMPLE)):
        path = dlx_file(tmp_path, problem)
        code, out, _ = run(capsys, "convert", path, "--to", "dlx")
        assert code == 0 and out == path.read_text() and read_text(out)[0].cover == problem


def test_a_sudoku_written_as_dlx_counts_as_the_sudoku(capsys, tmp_path):
    """A Sudoku converted to dlx, then counted: the exact cover has the puzzle's solutions, one each."""
    path = tmp_path / "four.txt"
    path.write_text("1...\n..1.\n.1..\n...1\n")
    code, written, _ = run(capsys, "convert", path, "--to", "dlx")
    assert code == 0
    code, out, _ = run(capsys, "count", path)
    (tmp_path / "four.dlx").write_text(written)
    assert run(capsys, "count", tmp_path / "four.dlx")[1] == out


def test_the_count_reports_progress_while_it_runs():
    seen = []
    result = solve_cover(latin(6), limit=2**40, time_limit=0.3, keep=2, progress=lambda *a: seen.append(a))
    assert result.stopped == "time" and len(seen) >= 2
    assert all(a <= b for a, b in itertools.pairwise(found for found, _ in seen))
    assert all(a < b for a, b in itertools.pairwise(nodes for _, nodes in seen))
