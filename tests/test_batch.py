"""Batches keep what is finished: answers stream, --output keeps a record per puzzle, --resume continues a run.

A run killed by SIGKILL, resumed, answers every puzzle exactly once, as one uninterrupted run would.
"""

import random
import re
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest

from cpmodels.cli import main
from cpmodels.generate import punch, random_grid

END = re.compile(r"^#> puzzle (\d+) \(line (\d+)\): (.+)$", re.MULTILINE)
SUMMARY = re.compile(r"^(unique|multiple|none|timeout|bad input|disagree|mismatch|total) +(\d+)$", re.MULTILINE)


def sudoku_file(path, count, holes=50, seed=5):
    """A file of `count` random 9x9 Sudoku lines with `holes` holes (most have several solutions)."""
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        grid = random_grid((3, 3), rng)
        lines.append("".join(str(v) if v else "." for v in punch(grid, holes, rng)))
    path.write_text("\n".join(lines) + "\n")
    return path


def records(path):
    """The (puzzle, line, outcome) of every end line of an --output file, in file order."""
    return [(int(m[1]), int(m[2]), m[3]) for m in END.finditer(path.read_text())]


def summary(out):
    """The summary table `check` prints, as {outcome: puzzles}."""
    return {word: int(n) for word, n in SUMMARY.findall(out)}


def cpmodels(*argv):
    """`python -m cpmodels ARGV` started in the background, its output piped."""
    command = [sys.executable, "-m", "cpmodels", *map(str, argv)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_records(path, at_least, proc, timeout=60):
    """Wait until `path` holds `at_least` records (the process must still be running then)."""
    stop = time.monotonic() + timeout
    while time.monotonic() < stop:
        if path.exists() and path.read_text().count("\n#> puzzle ") >= at_least:
            return
        assert proc.poll() is None, "the run ended before it could be interrupted"
        time.sleep(0.05)
    raise AssertionError(f"no {at_least} records in {path} after {timeout} s")


def run(capsys, *argv):
    """Run the command in-process; returns (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_sigkill_then_resume_answers_every_puzzle_once_as_one_run_would(tmp_path):
    puzzles = sudoku_file(tmp_path / "many.txt", 600)
    whole, out = tmp_path / "whole.out", tmp_path / "resumed.out"
    check = ("check", puzzles, "--backend", "constraint", "--output")
    done = subprocess.run([sys.executable, "-m", "cpmodels", *map(str, check), whole], capture_output=True, text=True)
    assert done.returncode == 3 and len(records(whole)) == 600, done.stderr
    proc = cpmodels(*check, out)
    wait_for_records(out, 30, proc)
    proc.kill()
    proc.wait(timeout=30)
    assert 30 <= len(records(out)) < 600
    done = subprocess.run(
        [sys.executable, "-m", "cpmodels", *map(str, check), out, "--resume"], capture_output=True, text=True
    )
    assert done.returncode == 3, done.stderr
    assert [k for k, _, _ in records(out)] == list(range(1, 601))
    assert out.read_text() == whole.read_text()
    assert summary(done.stdout) == summary(whole.read_text()) and summary(done.stdout)["total"] == 600


def test_sigterm_prints_the_summary_of_what_finished_and_exits_143(tmp_path):
    puzzles = sudoku_file(tmp_path / "many.txt", 600)
    out = tmp_path / "run.out"
    proc = cpmodels("check", puzzles, "--backend", "constraint", "--output", out)
    wait_for_records(out, 20, proc)
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 143 and "Traceback" not in stderr and "terminated" in stderr
    finished = records(out)
    table = summary(stdout)
    assert table["total"] == len(finished) and table["multiple"] == Counter(o for *_, o in finished)["multiple"]


def test_solve_streams_each_answer_as_it_is_known(tmp_path):
    puzzles = sudoku_file(tmp_path / "many.txt", 600)
    proc = cpmodels("solve", puzzles, "--backend", "constraint", "--format", "line")
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith(f"# {puzzles}:1: ") and proc.poll() is None
    finally:
        proc.kill()
        proc.communicate(timeout=30)


def test_resume_cuts_a_torn_record_and_counts_the_earlier_run(capsys, tmp_path):
    puzzles = sudoku_file(tmp_path / "few.txt", 12, holes=45)
    whole, out = tmp_path / "whole.out", tmp_path / "torn.out"
    code, expected, _ = run(capsys, "check", puzzles, "--backend", "backtrack", "--output", whole)
    text = whole.read_text()
    cut = text.index("#> puzzle 7 ")
    out.write_text(text[: cut - 3])  # puzzle 7's record torn mid-line
    code_again, again, _ = run(capsys, "check", puzzles, "--backend", "backtrack", "--output", out, "--resume")
    assert (code_again, again) == (code, expected)
    assert out.read_text() == text


def test_resume_after_a_finished_run_answers_nothing_again(capsys, tmp_path):
    puzzles = sudoku_file(tmp_path / "few.txt", 5, holes=45)
    out = tmp_path / "run.out"
    first = run(capsys, "count", puzzles, "--backend", "backtrack", "--output", out)
    text = out.read_text()
    assert first[1] == "" and len(records(out)) == 5
    assert run(capsys, "count", puzzles, "--backend", "backtrack", "--output", out, "--resume")[0] == first[0]
    assert out.read_text() == text


def test_output_without_resume_starts_again(capsys, tmp_path):
    puzzles = sudoku_file(tmp_path / "few.txt", 3, holes=45)
    out = tmp_path / "run.out"
    out.write_text("something else\n")
    run(capsys, "solve", puzzles, "--backend", "backtrack", "--output", out)
    assert [k for k, _, _ in records(out)] == [1, 2, 3] and "something else" not in out.read_text()


@pytest.mark.parametrize(
    "existing, argv, message",
    [
        ("not records\n", (), "not a cpmodels --output file"),
        ("#> cpmodels solve: one record per puzzle\n", (), "holds the records of `cpmodels solve`"),
        ("#> cpmodels check: x\n#> puzzle 1 (line 9): unique\n", (), "records are of another input"),
        ("#> cpmodels check: x\n#> puzzle 2 (line 1): unique\n", (), "record 2 follows record 0"),
    ],
)
def test_resume_refuses_a_file_it_did_not_write(capsys, tmp_path, existing, argv, message):
    puzzles = sudoku_file(tmp_path / "few.txt", 3, holes=45)
    out = tmp_path / "run.out"
    out.write_text(existing)
    code, _, err = run(capsys, "check", puzzles, "--backend", "backtrack", "--output", out, "--resume", *argv)
    assert code == 2 and message in err and err.count("\n") == 1
    assert out.read_text() == existing


def test_resume_needs_output(capsys, tmp_path):
    code, _, err = run(capsys, "check", "." * 16, "--resume")
    assert code == 2 and "--resume continues an --output FILE" in err


def test_bad_puzzles_get_a_record_and_their_message(capsys, tmp_path):
    puzzles = tmp_path / "mixed.txt"
    puzzles.write_text("1234x" + "." * 11 + "\n" + "." * 16 + "\n")
    out = tmp_path / "run.out"
    code, stdout, err = run(capsys, "check", puzzles, "--backend", "backtrack", "--output", out)
    assert code == 2 and f"{puzzles}:1:5: 'x' is not a value" in err and err.count("cpmodels: ") == 1
    assert [o for *_, o in records(out)] == ["bad input", "multiple"]
    assert summary(stdout)["bad input"] == 1 and summary(out.read_text())["total"] == 2
