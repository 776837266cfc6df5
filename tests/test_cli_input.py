"""The command's boundary: what it reads (files, inline text, bytes), the options it refuses, and how it stops."""

import signal
import subprocess
import sys
import time

import pytest

from cpmodels.cli import main
from cpmodels.generate import punch, random_grid

SUDOKU = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def run(capsys, *argv):
    """Run the command in-process; returns (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def usage_error(capsys, *argv):
    """The stderr of a command that argparse refuses (exit 2)."""
    with pytest.raises(SystemExit) as stop:
        main([str(a) for a in argv])
    assert stop.value.code == 2
    return capsys.readouterr().err


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out.startswith("cpmodels ")


def test_inline_16x16_longer_than_a_file_name(capsys):
    import random

    grid = random_grid((4, 4), random.Random(16))
    line = "".join("0123456789ABCDEFG"[v] if v else "." for v in punch(grid, 100, random.Random(1)))
    assert len(line) == 256
    code, out, err = run(capsys, "solve", line, "--format", "line", "--backend", "backtrack")
    assert code in (0, 3) and err == "" and out.startswith("# <argument>")


def test_file_with_byte_order_mark(tmp_path, capsys):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + SUDOKU.encode() + b"\r\n")
    code, out, _ = run(capsys, "solve", path, "--format", "line")
    assert code == 0 and "unique" in out


@pytest.mark.parametrize(
    "data, where, what",
    [
        (b"8..\n..\xff.\n", ":2:3:", "invalid UTF-8 (byte 0xff)"),
        (b"8....\x00..\n", ":1:6:", "a NUL byte"),
    ],
)
def test_bytes_that_are_not_text_are_located(tmp_path, capsys, data, where, what):
    path = tmp_path / "bad.txt"
    path.write_bytes(data)
    code, out, err = run(capsys, "solve", path)
    assert code == 2 and out == "" and f"bad.txt{where} {what}" in err and "Traceback" not in err


def test_missing_file_and_directory(tmp_path, capsys):
    code, _, err = run(capsys, "check", "top95")
    assert code == 2 and err.strip() == "cpmodels: top95: no such file, and not a puzzle either"
    code, _, err = run(capsys, "check", tmp_path)
    assert code == 2 and "is a directory" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "argv, message",
    [
        (("generate", "sudoku", "--order", "9", "--box", "2x3"), "--order 9 and --box 2x3 disagree"),
        (("generate", "mathdoku", "--balanced"), "--balanced applies to qwh only"),
        (("generate", "qwh", "--box", "2x2"), "--box applies to sudoku only"),
        (("generate", "sudoku", "--max-cage", "3"), "--max-cage applies to mathdoku only"),
        (("generate", "mathdoku", "--holes", "3"), "--holes applies to sudoku or qwh only"),
        (("check", SUDOKU, "--backends", "cpsat,dlx", "--backend", "dlx"), "not both"),
    ],
)
def test_conflicting_options_are_errors(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "argv, option",
    [
        (("solve", SUDOKU, "--time-limit", "-1"), "--time-limit"),
        (("solve", SUDOKU, "--time-limit", "0"), "--time-limit"),
        (("solve", SUDOKU, "--time-limit", "nan"), "--time-limit"),
        (("solve", SUDOKU, "--time-limit", "inf"), "--time-limit"),
        (("solve", SUDOKU, "--time-limit", "1e308"), "--time-limit"),
        (("count", SUDOKU, "--limit", str(2**64)), "--limit"),
        (("count", SUDOKU, "--limit", "0"), "--limit"),
        (("generate", "sudoku", "--holes", "-3"), "--holes"),
        (("generate", "sudoku", "--count", "-1"), "--count"),
        (("generate", "sudoku", "--box", "2x" + "9" * 5000), "--box"),
    ],
)
def test_out_of_range_values_are_usage_errors(capsys, argv, option):
    err = usage_error(capsys, *argv)
    last = err.strip().splitlines()[-1]
    assert f"argument {option}:" in last and len(last) < 200


def _slow_check_file(tmp_path):
    """A file of puzzles that takes a few seconds to check one by one with python-constraint."""
    import random

    rng = random.Random(5)
    lines = []
    for _ in range(400):
        grid = random_grid((3, 3), rng)
        lines.append("".join(str(v) if v else "." for v in punch(grid, 50, rng)))
    path = tmp_path / "many.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_sigterm_keeps_what_finished_and_prints_the_summary(tmp_path):
    path = _slow_check_file(tmp_path)
    command = [sys.executable, "-m", "cpmodels", "solve", str(path), "--backend", "constraint", "--first"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(4)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "Traceback" not in err and "terminated" in err
    finished = [line for line in out.splitlines() if line.startswith("# ")]
    assert finished, "solutions found before SIGTERM must reach the output"


def test_closed_pipe_is_not_an_internal_error():
    command = [sys.executable, "-m", "cpmodels", "generate", "qwh", "--order", "12", "--count", "20000"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read() if proc.stderr else b""
    proc.wait(timeout=60)
    assert proc.returncode == 141 and b"Traceback" not in err
