"""The `cpmodels` command: outputs, exit codes, and one line per bad input, never a traceback."""

import subprocess
import sys
import time

import pytest

from cpmodels import BACKENDS, cli, is_solution
from cpmodels.backends.base import Capabilities, SolveResult
from cpmodels.cli import main
from cpmodels.formats.sudoku import read_puzzle

from .conftest import FIXTURES

EXAMPLES = FIXTURES.parent.parent / "examples"
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def run(capsys, *argv):
    """Run the command in-process; returns (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_example_unique(capsys):
    code, out, _ = run(capsys, "solve", str(EXAMPLES / "sudoku9.txt"), "--format", "line")
    assert code == 0 and ": unique (" in out
    grid = [int(ch) for ch in out.splitlines()[1]]
    assert is_solution(read_puzzle(INKALA), grid)


def test_solve_prints_boxed_grid(capsys):
    code, out, _ = run(capsys, "solve", "." * 36, "--box", "3x2")
    rows = out.splitlines()[1:]
    assert code == 3 and rows[0].count("|") == 2 and rows[3] == "----+-----+----"


def test_solve_json(capsys):
    code, out, _ = run(capsys, "solve", INKALA, "--format", "json")
    assert code == 0 and '"box": [3, 3]' in out.splitlines()[1]


def test_count_prints_the_count(capsys):
    code, out, _ = run(capsys, "count", "." * 16, "--limit", "1000")
    assert code == 3 and out.strip() == "288"


def test_count_at_limit_says_at_least(capsys):
    _, out, _ = run(capsys, "count", "." * 16, "--limit", "10")
    assert out.strip() == ">=10"


def test_no_solution_exit_code(capsys):
    code, out, _ = run(capsys, "solve", "123." + "...." + "...4" + "....")
    assert code == 4 and ": none (" in out


def test_bad_input_one_line_no_traceback(capsys):
    code, _, err = run(capsys, "solve", "12.4x" + "." * 11)
    assert code == 2 and err.startswith("cpmodels: <argument>:1:5: 'x' is not a value")
    assert "Traceback" not in err


def test_missing_file(capsys):
    code, _, err = run(capsys, "check", "no/such/file.txt")
    assert code == 2 and "no/such/file.txt: no such file, and not a puzzle either" in err


def test_bad_box_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["solve", "." * 36, "--box", "2by3"])
    assert exit_.value.code == 2 and "not of the form RxC" in capsys.readouterr().err


def test_check_batch_reports_bad_line_and_goes_on(capsys, tmp_path):
    lines = (FIXTURES / "sudoku" / "tdoku_sample.txt").read_text().splitlines()
    path = tmp_path / "batch.txt"
    path.write_text("\n".join(lines[:5] + ["1" * 80] + lines[5:]) + "\n")
    code, out, err = run(capsys, "check", str(path))
    assert code == 2 and f"{path}:6:80: 80 symbols" in err
    table = dict(
        line.rsplit(None, 1)
        for line in out.splitlines()
        if line.split()[0] in ("unique", "none", "multiple", "bad", "total")
    )
    assert {k.strip(): int(v) for k, v in table.items()} == {
        "unique": 5,
        "multiple": 15,
        "none": 4,
        "bad input": 1,
        "total": 25,
    }
    assert "two solutions:" in out


def test_timeout_exit_code(capsys):
    """A backend that reports a timeout must make the command exit 5."""

    class Stalled:
        name, capabilities = "stalled", Capabilities(cages=True, max_order=64, counting=True, time_limit=True)

        def can_solve(self, puzzle):
            return None

        def warm_up(self):
            return 0.0

        def solve(self, puzzle, *, limit=1, time_limit=None):
            return SolveResult("timeout", [], 0, False, time_limit or 0.0)

    BACKENDS["stalled"] = Stalled()
    try:
        code, out, _ = run(capsys, "solve", INKALA, "--backend", "stalled", "--time-limit", "0.1")
    finally:
        del BACKENDS["stalled"]
    assert code == 5 and ": timeout (" in out


def test_python_dash_m_runs_the_command():
    done = subprocess.run(
        [sys.executable, "-m", "cpmodels", "count", "." * 16, "--limit", "300"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 3 and done.stdout.strip() == "288"


def test_check_cross_checks_three_engines(capsys):
    code, out, _ = run(capsys, "check", INKALA)
    assert code == 0 and "agree: unique" in out
    assert all(f"  {name}: exactly 1 solution" in out for name in ("cpsat", "dlx", "backtrack"))


def test_check_reports_engines_that_disagree(capsys):
    """A backend that answers 'no solution' for a solvable puzzle must make check exit 6 and say so."""

    class Liar:
        name, capabilities = "liar", Capabilities(cages=True, max_order=64, counting=True, time_limit=True)

        def can_solve(self, puzzle):
            return None

        def warm_up(self):
            return 0.0

        def solve(self, puzzle, *, limit=1, time_limit=None):
            return SolveResult("none", [], 0, True, 0.0)

    BACKENDS["liar"] = Liar()
    try:
        code, out, _ = run(capsys, "check", INKALA, "--backends", "cpsat,liar")
    finally:
        del BACKENDS["liar"]
    assert code == 6 and "DISAGREE:" in out and ": disagree" in out


def stats_lines(out: str, prefix: str) -> dict[str, dict[str, float]]:
    """The `<prefix> stats ENGINE: key=value ...` lines of `out`, as {engine: {key: number}}."""
    found = {}
    for line in out.splitlines():
        if line.startswith(f"{prefix} stats "):
            engine, _, pairs = line[len(prefix) + 7 :].partition(": ")
            found[engine] = {k: float(v) for k, v in (pair.split("=") for pair in pairs.split())}
    return found


def test_solve_stats_prints_the_shared_statistics(capsys):
    code, out, _ = run(capsys, "solve", INKALA, "--backend", "backtrack", "--stats")
    assert code == 0
    stats = stats_lines(out, "#")["backtrack"]
    assert {"nodes", "backtracks", "build_s", "search_s"} <= set(stats) and stats["nodes"] >= 1


def test_check_stats_prints_one_line_per_engine(capsys):
    code, out, _ = run(capsys, "check", INKALA, "--stats")
    assert code == 0
    stats = stats_lines(out, " ")
    assert set(stats) == {"cpsat", "dlx", "backtrack"}
    assert {"nodes", "conflicts", "propagations", "build_s", "search_s"} <= set(stats["cpsat"])
    assert all(s["nodes"] >= 0 and s["search_s"] >= 0 for s in stats.values())


def test_check_stats_names_every_puzzle_of_a_file(capsys, tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(f"{INKALA}\n{INKALA}\n")
    code, out, _ = run(capsys, "check", str(path), "--backends", "dlx", "--stats")
    assert code == 0 and out.count(": unique") == 2 and out.count("  stats dlx: nodes=") == 2


SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"


def test_check_compares_what_the_file_records(capsys, tmp_path):
    wrong = SOLUTION[:-2] + SOLUTION[-1] + SOLUTION[-2]
    path = tmp_path / "claims.txt"
    path.write_text(f"{INKALA}:5:\n{INKALA}:1:{SOLUTION}\n{INKALA}:1:{wrong}\n{'.' * 81}:1:\n{'.' * 81}:2:{SOLUTION}\n")
    code, out, _ = run(capsys, "check", path, "--backends", "dlx,backtrack")
    assert code == 7
    assert f"{path}:1: mismatch: the file records 5 solution(s), the engines find exactly 1\n" in out
    assert f"{path}:2:" not in out and f"{path}:5: multiple\n" in out
    assert f"{path}:3: mismatch: the file's solution is not a solution: column 8 repeats a value" in out
    assert f"{path}:4: mismatch: the file records 1 solution(s), the engines find at least 2\n" in out
    assert "mismatch          3\n" in out and "unique            1\n" in out


def test_mismatch_is_worse_than_bad_input(capsys, tmp_path):
    path = tmp_path / "claims.txt"
    path.write_text(f"{INKALA}:0:\n{'1' * 80}\n")
    code, out, err = run(capsys, "check", path, "--backend", "backtrack")
    assert code == 7 and "the engines find exactly 1" in out and f"{path}:2:80:" in err


class SlowToLoad:
    """A backend whose warm_up takes `seconds`, and which answers `none` to everything."""

    name, capabilities = "slowpoke", Capabilities(cages=True, max_order=64, counting=True, time_limit=True)

    def __init__(self, seconds):
        self.seconds, self.warmed = seconds, 0

    def can_solve(self, puzzle):
        """Anything."""
        return None

    def warm_up(self):
        """Sleep, and count the calls."""
        self.warmed += 1
        time.sleep(self.seconds)
        return self.seconds

    def solve(self, puzzle, *, limit=1, time_limit=None):
        """No solution, whatever the puzzle."""
        return SolveResult("none", [], 0, True, 0.0)


def test_a_long_first_load_says_once_that_it_compiles(capsys, monkeypatch, tmp_path):
    engine = SlowToLoad(0.5)
    monkeypatch.setitem(BACKENDS, "slowpoke", engine)
    monkeypatch.setattr(cli, "NATIVE_ENGINES", ("slowpoke",))
    monkeypatch.setattr(cli, "NOTICE_AFTER", 0.1)
    path = tmp_path / "two.txt"
    path.write_text(f"{INKALA}\n{INKALA}\n")
    code, out, err = run(capsys, "solve", path, "--backend", "slowpoke")
    notice = "cpmodels: compiling the slowpoke engine's native code (first use only, cached afterwards)...\n"
    assert code == 4 and err == notice and "compiling" not in out and engine.warmed == 1


def test_a_quick_load_and_a_bad_input_say_nothing_of_it(capsys, monkeypatch):
    engine = SlowToLoad(0.0)
    monkeypatch.setitem(BACKENDS, "slowpoke", engine)
    monkeypatch.setattr(cli, "NOTICE_AFTER", 0.1)
    assert run(capsys, "solve", INKALA, "--backend", "slowpoke")[2] == ""
    code, _, err = run(capsys, "solve", "12.4x" + "." * 11, "--backend", "slowpoke")
    assert code == 2 and "compiling" not in err and engine.warmed == 1
