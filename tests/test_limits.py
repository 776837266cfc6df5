"""Limits that hold: time limits end the search on time, big counts store two grids, signals stop a search.

Counting keeps only what it returns: cpmodels.solve keeps every grid up to KEEP_ALL (1000) and two
witnesses above, so a count of millions stores, checks and returns two grids. Every backend reads
the clock inside its enumeration and returns within 1.5 x its time limit (plus start-up, here warmed
up first); the bounds below add 3 s for a loaded 2-core machine. Ctrl-C and SIGTERM reach Python
while CP-SAT searches (the search runs in a thread), between the numba kernels' chunks of about
20 ms, and kill the constraint backend's child process.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import tracemalloc
from contextlib import contextmanager
from pathlib import Path

import pytest

from cpmodels import BACKENDS
from cpmodels.backends.base import KEEP_ALL, WITNESSES
from cpmodels.generate import punch, random_grid
from cpmodels.grid import GridPuzzle, is_solution, latin_units
from cpmodels.solve import count_solutions, solve
from cpmodels.sudoku import sudoku_puzzle

NAMES = sorted(BACKENDS)
EMPTY9 = sudoku_puzzle([0] * 81)
ROOT = Path(__file__).resolve().parents[1]


def bound(time_limit: float) -> float:
    """The generous wall-time bound of a search limited to `time_limit` s on a loaded 2-core machine."""
    return 1.5 * time_limit + 3.0


@pytest.fixture(scope="module", autouse=True)
def warm():
    """Start-up (numba's kernels loaded, OR-Tools imported) is not the search: pay it before any timing."""
    for name in NAMES:
        BACKENDS[name].warm_up()


# ---- time limits and what a count stores ---------------------------------------------------------


@pytest.mark.parametrize("backend", NAMES)
def test_a_count_of_millions_stops_at_its_time_limit(backend):
    """Counting an empty 9x9 Sudoku to 10**8 for 1 s: a timeout within the bound, two witnesses kept."""
    start = time.perf_counter()
    result = solve(EMPTY9, backend=backend, limit=10**8, time_limit=1)
    wall = time.perf_counter() - start
    assert result.status == "timeout" and not result.complete and result.count >= 1
    assert wall <= bound(1), f"{backend} took {wall:.2f} s for a 1 s limit"
    assert len(result.solutions) == min(WITNESSES, result.count)
    assert all(is_solution(EMPTY9, grid) for grid in result.solutions)


@pytest.mark.parametrize("backend", ["dlx", "backtrack"])
def test_a_big_count_stores_no_grid_beyond_its_witnesses(backend):
    """Peak Python memory of a 1 s count of millions stays a few MB: the grids counted are never stored."""
    tracemalloc.start()
    try:
        result = solve(EMPTY9, backend=backend, limit=10**8, time_limit=1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.count > 10_000 and len(result.solutions) == WITNESSES
    assert peak < 8 * 2**20, f"{backend} peaked at {peak / 2**20:.1f} MB for a count of {result.count}"


@pytest.mark.parametrize("backend", NAMES)
def test_keep_chooses_the_grids_returned_and_the_count_stays_exact(backend):
    """The backend API: keep=3 of 288 grids, keep=0, and keep=None (every grid up to the limit)."""
    engine = BACKENDS[backend]
    puzzle = sudoku_puzzle([0] * 16)
    three = engine.solve(puzzle, limit=1000, keep=3)
    assert three.count == 288 and three.complete and len(set(three.solutions)) == 3
    assert all(is_solution(puzzle, grid) for grid in three.solutions)
    none_kept = engine.solve(puzzle, limit=1000, keep=0)
    assert none_kept.count == 288 and none_kept.complete and none_kept.solutions == []
    every = engine.solve(puzzle, limit=1000)
    assert every.count == 288 and len(set(every.solutions)) == 288


def test_solve_keeps_every_grid_of_a_small_limit_and_witnesses_of_a_big_one():
    latin = GridPuzzle(4, latin_units(4), (0,) * 16)
    assert len(solve(latin, limit=KEEP_ALL).solutions) == 576
    big = solve(latin, backend="dlx", limit=KEEP_ALL + 1)
    assert big.count == 576 and big.complete and len(big.solutions) == WITNESSES
    assert len(solve(latin, backend="backtrack", limit=10**6, keep=10).solutions) == 10
    assert count_solutions(latin, limit=10**6, backend="dlx") == 576


# ---- interruptions ---------------------------------------------------------------------------------


@contextmanager
def keyboard_interrupt_after(seconds: float):
    """Raise KeyboardInterrupt in the main thread `seconds` from now, as a Ctrl-C would (SIGALRM's handler)."""

    def interrupt(_signum, _frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("backend", ["cpsat", "dlx", "backtrack"])
def test_an_interrupt_stops_a_search_without_a_time_limit_and_the_next_search_is_right(backend):
    """A KeyboardInterrupt 0.3 s into a search of 10**7 solutions without a time limit ends it at once.

    The backend's reused state (backtrack's per-thread arrays, CP-SAT's search thread) serves the next search.
    """
    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt), keyboard_interrupt_after(0.3):
        solve(EMPTY9, backend=backend, limit=10**7)
    assert time.perf_counter() - start < 3.0
    rng = random.Random(7)
    grid = random_grid((3, 3), rng)
    planted = sudoku_puzzle(punch(grid, 30, rng))
    result = solve(planted, backend=backend, limit=2)
    assert result.status == "unique" and result.solutions == [grid]
    assert solve(sudoku_puzzle([0] * 16), backend=backend, limit=1000).count == 288


def run_cli(args: list[str], sig: int, after: float) -> tuple[subprocess.CompletedProcess, float, list[int]]:
    """Run `python -m cpmodels ARGS` and send it `sig` after `after` s.

    Returns its outcome, the seconds from the signal to its exit, and the ids of the processes it had started.
    """
    child = subprocess.Popen(
        [sys.executable, "-m", "cpmodels", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    time.sleep(after)
    descendants = _children(child.pid)
    signalled = time.perf_counter()
    child.send_signal(sig)
    try:
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
    took = time.perf_counter() - signalled
    return subprocess.CompletedProcess(child.args, child.returncode, out, err), took, descendants


def _children(pid: int) -> list[int]:
    """The processes `pid` started (psutil if installed, else /proc)."""
    try:
        import psutil
    except ImportError:
        found = []
        for entry in Path("/proc").iterdir():
            try:
                if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except OSError:
                continue
        return found
    return [p.pid for p in psutil.Process(pid).children(recursive=True)]


def _alive(pid: int) -> bool:
    """Whether process `pid` still runs (a zombie does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals and /proc as on Linux")
def test_ctrl_c_stops_a_cpsat_count_with_exit_130():
    """OR-Tools used to catch SIGINT, stop that one search and report a timeout (exit 5); now the run stops."""
    done, took, _ = run_cli(["count", "." * 81, "--limit", "100000000"], signal.SIGINT, after=3.0)
    assert done.returncode == 130, (done.returncode, done.stdout, done.stderr)
    assert took < 5.0 and "Traceback" not in done.stderr and "interrupted" in done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals and /proc as on Linux")
def test_sigterm_stops_a_constraint_count_with_exit_143_and_kills_its_child():
    """With a time limit the constraint backend searches in a child process, which must not outlive the run."""
    args = ["count", "." * 81, "--limit", "100000000", "--backend", "constraint", "--time-limit", "60"]
    done, took, children = run_cli(args, signal.SIGTERM, after=3.0)
    assert done.returncode == 143, (done.returncode, done.stdout, done.stderr)
    assert took < 5.0 and "Traceback" not in done.stderr and "terminated" in done.stderr
    assert children, "the search ran in no child process"
    time.sleep(0.2)
    assert not [pid for pid in children if _alive(pid)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_the_constraint_child_dies_with_a_parent_killed_by_sigkill(tmp_path):
    """A parent killed outright cannot kill its child: the child asked the kernel to (PR_SET_PDEATHSIG)."""
    code = (
        "from cpmodels.solve import solve\n"
        "from cpmodels.sudoku import sudoku_puzzle\n"
        "solve(sudoku_puzzle([0] * 81), backend='constraint', limit=10**8, time_limit=60)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT)
    try:
        deadline = time.perf_counter() + 20
        while not (children := _children(parent.pid)) and time.perf_counter() < deadline:
            time.sleep(0.1)
        assert children, "the search ran in no child process"
        time.sleep(0.5)  # the child has read its model and searches
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        deadline = time.perf_counter() + 5
        while any(_alive(pid) for pid in children) and time.perf_counter() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in children if _alive(pid)]
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
