"""`check` and `count --backend backtrack` on a file of plain lines: read at once, answered in chunks.

Whatever the path, what the command writes must be what one puzzle at a time writes (forced here by a
time limit, which the bulk path does not take): stdout, stderr and the exit code, and the --output records,
resumed or not, for unique, multiple and unsolvable puzzles, right and wrong claims, and every kind of line
the plain-line reader leaves to the line reader, whatever --jobs and wherever the chunks end.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from cpmodels import blocks
from cpmodels.backends import backtrack
from cpmodels.cli import main
from cpmodels.errors import Interrupted
from cpmodels.formats.sudoku import format_grid, format_line
from cpmodels.generate import punch, random_grid
from cpmodels.grid import GridPuzzle, explain_violation, grids_hold
from cpmodels.sudoku import sudoku_puzzle, sudoku_units

CHECK = ("check", "--backend", "backtrack")
COUNT = ("count", "--backend", "backtrack", "--limit", "3")
ALONE = ("--time-limit", "1000")
"""A time limit per puzzle: the command answers one puzzle at a time."""


@pytest.fixture(autouse=True, scope="module")
def kernel_loaded():
    """The kernel loaded (compiled if need be) first: a slow first load says so on stderr, in one run only."""
    backtrack.warm_up()


def run(capsys, *argv):
    """Run the command in-process; returns (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def no_solution(grid: tuple[int, ...], rng: random.Random) -> list[int]:
    """Givens of `grid` with one given changed to a value no given of its units holds: most often no solution."""
    puzzle = list(punch(grid, 40, rng))
    units = sudoku_units(9, (3, 3))
    for i in (i for i, v in enumerate(puzzle) if v):
        free = set(range(1, 10)) - {puzzle[j] for unit in units if i in unit for j in unit}
        if free:
            puzzle[i] = min(free)
            break
    return puzzle


def plain_and_odd_lines(rng: random.Random) -> list[str]:
    """9x9 lines, mostly plain (unique, multiple, none; claims right and wrong), and lines of every other kind."""
    lines = ["# a comment", ""]
    for k in range(120):
        grid = random_grid((3, 3), rng)
        kind = k % 12
        givens = no_solution(grid, rng) if kind == 5 else list(punch(grid, 62 if kind == 3 else 40, rng))
        line = format_line(tuple(givens))
        solution = format_line(grid)
        relabelled = solution.translate(str.maketrans("12", "21"))  # a Sudoku, but not of these givens
        line += {
            1: f":1:{solution}",
            2: ":1",
            4: ":2:",
            6: f":1:{relabelled}",
            7: ":0",
            8: ":2:",
            9: f"::{solution}",
        }.get(kind, "")
        if kind == 3 and k % 24 == 3:
            line += ":1"  # a multiple claimed unique: a mismatch
        lines.append(line)
        if k == 30:
            lines += odd_lines(givens, solution)
    return lines


def odd_lines(givens: list[int], solution: str) -> list[str]:
    """Lines the plain-line reader leaves to the line reader, good and bad, with blank and comment lines."""
    line = format_line(tuple(givens))
    repeated = line[:1] * 2 + line[2:] if line[0] != "." else "11" + line[2:]
    return [
        "   ",
        f"  {line}",  # leading spaces: read by the line reader, a puzzle all the same
        f"{line}  ",
        f"{line}\tseed=7:3 clues=24",  # the fields `generate` writes
        line.replace(".", "0"),
        line.replace(".", "-"),
        line[:40] + "x" + line[41:],  # a bad cell
        line[:80],  # 80 cells
        repeated,  # a repeated given
        line[:40] + " " + line[41:],
        f"1:9:3x3:{line}",  # Gecode's line
        " ".join(str(v) for v in givens),  # integers
        f"{line}:123456789012",  # a count too long for the plain-line reader
        f"{line}:1:{solution[:80]}",  # a solution of 80 cells
        f"{line}:1:{solution}:extra",
        f"{line}:x",
        "1234341221434321",  # a 4x4
        ".234341221434321",
        "# another comment",
    ]


@pytest.fixture
def mixed(tmp_path):
    """A file of plain and odd 9x9 lines, some ending in CR LF."""
    lines = plain_and_odd_lines(random.Random(18))
    text = "".join(ln + ("\r\n" if k % 9 == 4 else "\n") for k, ln in enumerate(lines))
    path = tmp_path / "mixed.txt"
    path.write_bytes(text.encode())
    return path


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of 5 to 16 lines, so that a file of a hundred lines ends chunks at every kind of line."""
    monkeypatch.setattr(blocks, "FIRST_CHUNK", 5)
    monkeypatch.setattr(blocks, "MAX_CHUNK", 16)


def plain_lines_taken(monkeypatch) -> list[int]:
    """A list that collects the number of plain lines each chunk reads (to show the bulk path ran)."""
    taken: list[int] = []
    read = blocks.read_plain_lines

    def counting(*args, **kwargs):
        found = read(*args, **kwargs)
        taken.append(int((found.row >= 0).sum()))
        return found

    monkeypatch.setattr(blocks, "read_plain_lines", counting)
    return taken


@pytest.mark.parametrize("command", [CHECK, COUNT])
@pytest.mark.parametrize("chunks", ["large", "small"])
def test_a_mixed_file_gets_what_one_puzzle_at_a_time_gets(capsys, request, monkeypatch, mixed, command, chunks):
    if chunks == "small":
        request.getfixturevalue("small_chunks")
    alone = run(capsys, *command, mixed, *ALONE)
    taken = plain_lines_taken(monkeypatch)
    for jobs in ("1", "2"):
        assert run(capsys, *command, mixed, "--jobs", jobs) == alone
    assert taken and taken[0] >= 100  # the bulk path answered them
    code, out, err = alone
    said = [line for line in err.splitlines() if line.startswith("cpmodels: ")]
    assert "Traceback" not in err and len(said) == 6  # the six bad lines, each located
    assert "mixed.txt:40:41: 'x' is not a value of an order-9 grid" in said[0]
    if command is CHECK:
        assert code == 7 and {"mismatch", "none", "multiple"} <= set(summary(out))
        assert "the file records 2 solution(s), the engines find exactly 1" in out
        assert "the file's solution is not a solution" in out
    else:
        counted = [line.rsplit(": ", 1)[1] for line in out.splitlines()]
        assert code == 2 and {"0", "1", ">=3"} <= set(counted)


def summary(out: str) -> dict[str, int]:
    """The summary table of check: outcome -> puzzles, for those above zero."""
    rows = (line.split() for line in out.splitlines() if line[:1].isalpha())
    return {row[0]: int(row[-1]) for row in rows if len(row) >= 2 and row[-1].isdigit() and int(row[-1])}


def test_detected_without_from_as_with_it(capsys, tmp_path):
    rng = random.Random(4)
    lines = [format_line(tuple(punch(random_grid((3, 3), rng), 45 + k % 20, rng))) for k in range(60)]
    path = tmp_path / "plain.txt"
    path.write_text("# 60 puzzles\n" + "\n".join(lines) + "\n")
    alone = run(capsys, *CHECK, path, *ALONE)
    assert run(capsys, *CHECK, path) == alone == run(capsys, *CHECK, path, "--from", "line")
    assert summary(alone[1])["total"] == 60


@pytest.mark.parametrize("command", [CHECK, COUNT])
def test_output_records_and_resume_are_those_of_one_puzzle_at_a_time(capsys, small_chunks, tmp_path, mixed, command):
    alone, bulk, resumed = (tmp_path / name for name in ("alone.out", "bulk.out", "resumed.out"))
    expected = run(capsys, *command, mixed, *ALONE, "--output", alone)
    assert run(capsys, *command, mixed, "--output", bulk) == expected
    assert bulk.read_text() == alone.read_text()
    text = alone.read_text()
    resumed.write_text(text[: text.index("#> puzzle 60 ") + 30])  # puzzle 60's record torn
    code, out, _ = run(capsys, *command, mixed, "--output", resumed, "--resume")
    assert code == expected[0] and resumed.read_text() == text
    if command is CHECK:
        assert summary(out) == summary(expected[1])


def test_other_orders_and_symbols(capsys, tmp_path):
    rng = random.Random(16)
    lines = []
    for k in range(40):
        grid = random_grid((4, 4), rng)
        lines.append(format_line(tuple(punch(grid, 100 + k, rng)), "0123456789ABCDEF"))
    path = tmp_path / "hex.txt"
    path.write_text("\n".join(lines) + "\n")
    options = ("--symbols", "0-F")
    alone = run(capsys, *CHECK, path, *options, *ALONE)
    assert run(capsys, *CHECK, path, *options) == alone
    assert run(capsys, *COUNT, path, *options) == run(capsys, *COUNT, path, *options, *ALONE)
    assert alone[0] in (0, 3) and summary(alone[1])["total"] == 40


def test_a_wrong_grid_from_the_kernel_is_caught(capsys, monkeypatch, mixed):
    solve_givens = backtrack.solve_givens

    def wrong(template, givens, **kwargs):
        found = solve_givens(template, givens, **kwargs)
        row = next(k for k in np.flatnonzero(found.counts == 1) if (givens[k, :9] == 0).sum() >= 2)
        cells = np.flatnonzero(givens[row, :9] == 0)[:2]
        found.firsts[row, cells] = found.firsts[row, cells[::-1]]  # two empty cells of row 1 swapped
        return found

    monkeypatch.setattr(backtrack, "solve_givens", wrong)
    with pytest.raises(RuntimeError, match="returned a wrong solution: .*repeats a value"):
        main(["check", str(mixed), "--backend", "backtrack"])


def test_grids_hold_rejects_every_kind_of_wrong_grid():
    rng = random.Random(9)
    grids = [random_grid((3, 3), rng) for _ in range(6)]
    givens = np.array([punch(grid, 50, rng) for grid in grids], np.uint8)
    wrong = np.array(grids, np.uint8)
    template = sudoku_puzzle([0] * 81)
    assert grids_hold(template, givens, wrong).all()
    given = int(np.flatnonzero(givens[1])[0])
    wrong[1, given] = wrong[1, given] % 9 + 1  # a given changed
    wrong[2, 5] = 0
    wrong[3, 7] = 10
    wrong[4, [0, 9]] = wrong[4, [9, 0]]  # two cells of a column swapped
    held = grids_hold(template, givens, wrong)
    assert held.tolist() == [True, False, False, False, False, True]
    for k in range(6):
        puzzle = template.with_givens(givens[k].tolist())
        assert (explain_violation(puzzle, tuple(wrong[k].tolist())) is None) == held[k]


def test_grids_hold_on_partial_units():
    """A unit of fewer than n cells holds different values, not every value: its OR has as many bits as cells."""
    template = GridPuzzle(3, ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4)), (0,) * 9)
    good = [1, 2, 3, 2, 3, 1, 3, 1, 2]
    bad = [1, 2, 3, 3, 1, 2, 2, 3, 1]  # a Latin square with 1 at both cells 0 and 4
    assert grids_hold(template, np.zeros((2, 9), np.uint8), np.array([good, bad], np.uint8)).tolist() == [True, False]


def test_ctrl_c_keeps_what_finished(capsys, small_chunks, monkeypatch, tmp_path, mixed):
    solve_givens, calls = backtrack.solve_givens, Counter[str]()

    def interrupted(*args, **kwargs):
        calls["chunks"] += 1
        if calls["chunks"] == 4:
            raise Interrupted(130, "interrupted")
        return solve_givens(*args, **kwargs)

    monkeypatch.setattr(backtrack, "solve_givens", interrupted)
    out = tmp_path / "run.out"
    code, stdout, stderr = run(capsys, *CHECK, mixed, "--output", out)
    finished = [line for line in out.read_text().splitlines() if line.startswith("#> puzzle ")]
    assert code == 130 and "interrupted" in stderr and "Traceback" not in stderr
    assert 5 <= len(finished) < 60 and summary(stdout)["total"] == len(finished)
    assert [int(line.split()[2]) for line in finished] == list(range(1, len(finished) + 1))


def test_a_file_without_a_plain_line(capsys, tmp_path):
    """Lines each indented: none is plain, so each is read and answered alone, as one by one."""
    rng = random.Random(7)
    lines = [f"  {format_line(tuple(punch(random_grid((3, 3), rng), 50, rng)))}" for _ in range(5)]
    path = tmp_path / "indented.txt"
    path.write_text("\n".join([*lines, "  12x"]) + "\n")
    alone = run(capsys, *CHECK, path, "--from", "line", *ALONE)
    assert run(capsys, *CHECK, path, "--from", "line") == alone
    assert alone[0] == 2 and summary(alone[1])["total"] == 6


def test_other_formats_still_go_in_blocks_of_entries(capsys, tmp_path):
    """A file of grids is no file of plain lines: blocks of 256 entries, the same answers as one by one."""
    rng = random.Random(8)
    grids = [format_grid(tuple(punch(random_grid((3, 3), rng), 45 + k, rng)), (3, 3)) for k in range(12)]
    path = tmp_path / "grids.txt"
    path.write_text("\n\n".join(grids) + "\n")
    assert blocks.plain_file(str(path), "auto", None, "") is None
    alone = run(capsys, *CHECK, path, *ALONE)
    assert run(capsys, *CHECK, path) == alone and summary(alone[1])["total"] == 12
