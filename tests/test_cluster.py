"""check, count, grade and generate on a Dask cluster (--cluster): the single machine's output, resumable.

One LocalCluster of two worker processes serves the module; the commands run in this process (main) or, to
be killed, as a subprocess of their own. Every comparison is against the same command without --cluster.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cpmodels import formats
from cpmodels.backends import BACKENDS
from cpmodels.cli import main
from cpmodels.cluster import INSTALL, journal_path
from cpmodels.grid import explain_violation
from cpmodels.solve import solve

distributed = pytest.importorskip("distributed")

from .conftest import FIXTURES  # noqa: E402

SAMPLE = FIXTURES / "sudoku" / "tdoku_sample.txt"
LOOSE, LIMIT = 60, 10000
"""The kill tests: puzzles and solutions counted of each (about 20 ms of CPU a puzzle): a run of 30 chunks."""
END = re.compile(r"#> puzzle (\d+) \(line \d+\): \w+")


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of two one-thread worker processes (with nannies, which restart a killed worker)."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50
    ) as local:
        yield local


def sample_lines() -> list[str]:
    """The puzzle lines of the tdoku sample (unique, multiple and no-solution puzzles, with their claims)."""
    return [line for line in SAMPLE.read_text().splitlines() if line and not line.startswith("#")]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> Path:
    """A file of 76 puzzles: the sample three times, a bad line, a wrong claim, an unsolvable and a loose puzzle."""
    lines = sample_lines() * 3
    unique = next(line for line in lines if line.split(":")[1] == "1")
    lines.insert(30, "12x" + "." * 10)  # bad input: not a square grid
    lines.insert(50, unique.split(":")[0] + ":2:")  # mismatch: claims two solutions
    lines += ["1" * 2 + "." * 79, "." * 72 + "123456789"]  # a repeated given, then many solutions
    path = tmp_path_factory.mktemp("cluster") / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def loose(tmp_path_factory) -> Path:
    """LOOSE puzzles of about 20 givens each (many solutions): counting LIMIT of each takes some milliseconds."""
    solutions = [line.split(":")[2] for line in sample_lines() if line.split(":")[1] == "1"]
    lines = [
        "".join(c if (i * 7 + j) % 4 == 0 else "." for i, c in enumerate(solutions[j % len(solutions)]))
        for j in range(LOOSE)
    ]
    path = tmp_path_factory.mktemp("cluster") / "loose.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    """main(argv) in this process: (exit code, stdout, stderr)."""
    capsys.readouterr()
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "command",
    [
        ["check", "--backend", "backtrack"],
        ["check", "--backend", "backtrack", "--time-limit", "60"],
        ["count", "--limit", "3", "--backend", "backtrack"],
        ["grade"],
    ],
    ids=["check-blocks", "check-one-by-one", "count", "grade"],
)
def test_the_cluster_writes_what_one_machine_writes(capsys, cluster, mixed, tmp_path, command):
    """Stdout, stderr, the --output records and the exit code are those of the same command on one machine."""
    argv = [command[0], str(mixed), *command[1:]]
    BACKENDS["backtrack"].warm_up()  # loaded before: one machine says on stderr when it compiles an engine
    alone = run(capsys, [*argv, "--output", str(tmp_path / "alone.out")])
    address = ["--cluster", cluster.scheduler_address, "--chunk", "7"]
    spread = run(capsys, [*argv, *address, "--output", str(tmp_path / "spread.out")])
    seconds = re.compile(r"\t[0-9.]+s$", re.M)  # grade's time per puzzle differs from run to run, anywhere
    assert [seconds.sub("", text) for text in map(str, spread)] == [seconds.sub("", text) for text in map(str, alone)]
    records = (tmp_path / "spread.out").read_text()
    assert seconds.sub("", records) == seconds.sub("", (tmp_path / "alone.out").read_text())
    assert [int(k) for k in END.findall(records)] == list(range(1, 77))
    assert alone[0] in (2, 7) and "12x" in alone[2]  # the bad line is said; the wrong claim is check's 7
    assert not journal_path(tmp_path / "spread.out").exists()  # a complete run leaves no journal


def test_check_witnesses_from_the_cluster_are_solutions(capsys, cluster, mixed):
    """Each `two solutions` a worker found passes the solver-free checker for its puzzle, and they differ."""
    code, out, _ = run(capsys, ["check", str(mixed), "--backend", "backtrack", "--cluster", cluster.scheduler_address])
    entries = formats.read_text(mixed.read_text(), str(mixed))
    puzzles = {entry.puzzle.name: entry.puzzle for entry in entries if entry.puzzle is not None}
    witnesses = re.findall(r"^(\S+): multiple\n  two solutions: (\S+)\n\s+(\S+)$", out, re.M)
    assert witnesses and code == 7  # the file's wrong claim
    for name, first, second in witnesses:
        grids = [formats.read_text(grid)[0].puzzle.givens for grid in (first, second)]
        assert grids[0] != grids[1]
        assert [explain_violation(puzzles[name], grid) for grid in grids] == [None, None]


def test_generate_with_a_seed_makes_the_same_puzzles(capsys, cluster):
    """Generate --seed on the cluster prints the same puzzles, each unique, its solution checked."""
    argv = ["generate", "sudoku", "--count", "7", "--seed", "11"]
    alone = run(capsys, argv)
    spread = run(capsys, [*argv, "--cluster", cluster.scheduler_address, "--chunk", "3"])
    assert spread[:2] == alone[:2] and alone[0] == 0
    puzzles = [entry.puzzle for entry in formats.read_text(spread[1])]
    assert len(puzzles) == 7
    for puzzle in puzzles:
        found = solve(puzzle, backend="backtrack", limit=2)
        assert found.status == "unique" and explain_violation(puzzle, found.solutions[0]) is None


def command(path: Path, address: str, output: Path, *more: str) -> list[str]:
    """The count command that the kill tests run as a subprocess: LIMIT solutions of each loose puzzle."""
    argv = ["count", str(path), "--backend", "backtrack", "--limit", str(LIMIT), "--output", str(output), *more]
    if address:
        argv += ["--cluster", address, "--chunk", "2"]
    return [sys.executable, "-m", "cpmodels", *argv]


@pytest.fixture(scope="module")
def loose_alone(loose, tmp_path_factory) -> str:
    """The records of the kill tests' command on one machine (run in this process)."""
    output = tmp_path_factory.mktemp("cluster") / "alone.out"
    assert main(command(loose, "", output)[3:]) == 3  # every loose puzzle has many solutions
    return output.read_text()


def started_until(argv: list[str], output: Path, records: int) -> subprocess.Popen:
    """Start `argv` and return once `output` holds `records` records (the process still running)."""
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    while len(END.findall(output.read_text() if output.exists() else "")) < records:
        assert process.poll() is None, f"ended before {records} records: {process.stderr.read().decode()}"
        time.sleep(0.02)
    return process


def test_a_worker_killed_mid_run_leaves_the_output_complete(cluster, loose, loose_alone, tmp_path):
    """A worker process killed while chunks are in flight: its chunk runs again, the output is whole and the same."""
    output = tmp_path / "spread.out"
    with distributed.Client(cluster.scheduler_address) as client:
        before = client.run(os.getpid)
        process = started_until(command(loose, cluster.scheduler_address, output), output, 6)
        victim = sorted(before.values())[0]
        os.kill(victim, signal.SIGKILL)
        killed_at = len(END.findall(output.read_text()))
        assert process.wait(timeout=120) == 3, process.stderr.read().decode()  # all loose puzzles: multiple
        assert killed_at < LOOSE
        assert victim not in client.run(os.getpid).values()  # gone (its nanny starts another)
    assert output.read_text() == loose_alone


def test_a_killed_client_resumes_where_it_stopped(cluster, loose, loose_alone, tmp_path):
    """The client killed (SIGKILL) after some records; --resume finishes the file: every puzzle exactly once."""
    output = tmp_path / "spread.out"
    process = started_until(command(loose, cluster.scheduler_address, output), output, 10)
    process.kill()
    process.wait()
    kept = len(END.findall(output.read_text()))
    assert 10 <= kept < LOOSE and journal_path(output).exists()
    resumed = subprocess.run(command(loose, cluster.scheduler_address, output, "--resume"), capture_output=True)
    assert resumed.returncode == 3, resumed.stderr.decode()
    assert output.read_text() == loose_alone
    assert not journal_path(output).exists()


def test_resume_takes_the_journals_answers_instead_of_answering_again(capsys, cluster, mixed, tmp_path):
    """Puzzles the journal holds past the output's last record are written from it, not answered again."""
    output = tmp_path / "spread.out"
    argv = ["count", str(mixed), "--limit", "3", "--backend", "backtrack", "--output", str(output)]
    argv += ["--cluster", cluster.scheduler_address]
    run(capsys, argv)
    whole = output.read_text()
    cut = [m.end() + 1 for m in END.finditer(whole)][2]  # the header and puzzles 1-3 kept, as after a kill
    output.write_text(whole[:cut])
    line = int(re.search(r"#> puzzle 5 \(line (\d+)\)", whole)[1])
    said = ["unique", "puzzle 5, from the journal", "", {}]
    journal = [{"kind": "cpmodels-journal", "command": "count"}, {"keys": [[5, line]], "said": [said]}]
    journal_path(output).write_text("".join(json.dumps(record) + "\n" for record in journal) + '{"keys": [[6')
    code, _, _ = run(capsys, [*argv, "--resume"])
    answered = whole.split("#> puzzle 4 ")[1].split("\n", 1)[1].split("#> puzzle 5 ")[0]  # puzzle 5's own lines
    assert output.read_text() == whole.replace(answered + "#> puzzle 5 ", "puzzle 5, from the journal\n#> puzzle 5 ")
    assert code == 2
    assert not journal_path(output).exists()


def test_a_puzzle_over_its_time_limit_is_a_timeout_and_the_run_goes_on(capsys, cluster, loose, tmp_path):
    """Counting 10**12 solutions of loose puzzles within 0.1 s each: every one a timeout, all answered, exit 5."""
    path = tmp_path / "eight.txt"
    path.write_text("".join(loose.read_text().splitlines(keepends=True)[:8]))
    output = tmp_path / "spread.out"
    argv = ["count", str(path), "--limit", str(10**12), "--time-limit", "0.1", "--output", str(output)]
    code, _, _ = run(capsys, [*argv, "--cluster", cluster.scheduler_address, "--chunk", "3"])
    assert code == 5
    assert re.findall(r"#> puzzle (\d+) \(line \d+\): (\w+)", output.read_text()) == [
        (str(k), "timeout") for k in range(1, 9)
    ]
    assert output.read_text().count("(time limit reached)") == 8


def test_without_dask_cluster_says_what_to_install(mixed):
    """With Dask not importable, --cluster is one line naming the package to install, the usage exit code."""
    code = (
        "import sys\n"
        "sys.modules['distributed'] = None\n"
        "from cpmodels.cli import main\n"
        f"sys.exit(main(['check', {str(mixed)!r}, '--cluster', 'local:2']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == f"cpmodels: {INSTALL}\n"
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--cluster", "local:0"], "expected local:N with N workers in 1..1024"),
        (["--chunk", "5"], "--chunk N sizes the chunks of --cluster"),
    ],
)
def test_bad_cluster_options_are_usage_errors(capsys, mixed, argv, said):
    """A bad --cluster or a --chunk without it: one line saying so, exit 2, nothing answered."""
    try:
        code = main(["check", str(mixed), *argv])
    except SystemExit as stop:  # argparse's usage error
        code = stop.code
    out, err = capsys.readouterr()
    assert code == 2 and said in err and out == ""
