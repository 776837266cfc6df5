"""`check` and `count` on a file with --backend backtrack answer blocks of puzzles in one kernel call.

What they print must not depend on it: the same lines as one puzzle at a time (forced here by a time
limit, which blocks do not take), whatever --jobs, for unique, multiple and unsolvable puzzles, bad
lines between them, wrong claims in the file, and a change of shape in the middle.
"""

from __future__ import annotations

import random

import pytest

from cpmodels.cli import main
from cpmodels.formats.sudoku import format_line
from cpmodels.generate import punch, random_grid
from cpmodels.sudoku import sudoku_units

from . import conftest


def run(capsys, *argv):
    """Run the command in-process; returns (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def mixed_file(tmp_path):
    """A file of 9x9 puzzles, unique, multiple and (mostly) none, a bad line, a wrong claim, then two 4x4s."""
    rng = random.Random(5)
    units = sudoku_units(9, (3, 3))
    lines = []
    for k in range(300):
        puzzle = list(punch(random_grid((3, 3), rng), 40 if k % 7 else 62, rng))
        if k % 50 == 3:  # another value for a given, clashing with no other given: most often no solution
            for i in (i for i, v in enumerate(puzzle) if v):
                free = set(range(1, 10)) - {puzzle[j] for unit in units if i in unit for j in unit}
                if free:
                    puzzle[i] = min(free)
                    break
        line = format_line(tuple(puzzle))
        lines.append(line + (":0" if k == 10 else ""))  # a wrong claim: a mismatch
        if k == 100:
            lines.append("not a puzzle at all")
    lines += ["1234341221434321", "." * 16]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("command", [("check",), ("count", "--limit", "3")])
def test_blocks_print_what_one_puzzle_at_a_time_prints(capsys, tmp_path, command):
    path = mixed_file(tmp_path)
    options = ("--from", "line", "--backend", "backtrack")
    alone = run(capsys, *command, path, *options, "--time-limit", "1000")
    for jobs in ("1", "2"):
        assert run(capsys, *command, path, *options, "--jobs", jobs) == alone
    code, out, err = alone
    assert err.count("cpmodels: ") == 1 and "mixed.txt:102:" in err
    answers = [line.split(": ")[1] for line in out.splitlines() if "mixed.txt:" in line]
    if command[0] == "check":
        assert code == 7 and {"none", "multiple", "mismatch"} <= {a.split(":")[0] for a in answers}
    else:
        assert code == 2 and {"0", ">=3", "1"} <= set(answers)


def test_blocks_agree_with_what_a_shared_file_records(capsys, tmp_path):
    """600 puzzles of magictour_top1465 with their recorded counts and solutions: all unique, no mismatch."""
    lines = [line for _, line in conftest.data_lines(conftest.shared_data("sudoku9/magictour_top1465.txt"))]
    path = tmp_path / "top600.txt"
    path.write_text("\n".join(lines[:600]) + "\n")
    code, out, _ = run(capsys, "check", path, "--backend", "backtrack", "--jobs", "2")
    assert code == 0 and "unique          600" in out and "mismatch          0" in out
