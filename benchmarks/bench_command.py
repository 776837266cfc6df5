"""`cpmodels check FILE --backend backtrack` against tdoku, per puzzle, start-up left out (issue 18).

For each set, `--repeats` rounds; each runs in turn tdoku's run_benchmark on the set (one thread, its own
timing: `-s tdoku -t 1 -w 1 -r 0 -n N`), then the command on the whole set and on its first 10 puzzles,
with --jobs 1 and --jobs 2. The command's time per puzzle is (whole - ten) / (N - 10), so that start-up
(imports, loading the kernel) cancels out; wall time, and the child's CPU time (user + system) beside it.
Every run must exit 0 with every puzzle unique. Prints a markdown table: medians over the repeats and
their ratio to tdoku's median in the same run, with the machine and its load average. tdoku's CPU time a
puzzle is estimated as its µs a puzzle times its process's CPU time over its wall time.

`--in-process` runs the command as `cpmodels.cli.main` in this process instead (warm: imports and the
kernel loaded once), each run's CPU time that of the process: on a busy machine the steadier figure.

    python benchmarks/bench_command.py [--data ../shared/data] [--tdoku /tmp/tdoku/build/run_benchmark]

`--split` measures instead where one solve() call's time goes, on the first 1000 puzzles of 17clue_every4th:
the kernel's own calls, building (the shape found, the workspace, the givens written), the rest of the
backend's Python, the checker and solve()'s own work; thread CPU time, the least of interleaved repeats.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SETS = (
    ("17clue_every4th", "sudoku9/17clue_every4th.txt", 2000),
    ("magictour_top1465", "sudoku9/magictour_top1465.txt", 1465),
    ("forum_hardest_1106", "sudoku9/forum_hardest_1106.txt", 375),
)
"""(name, file under --data, puzzles taken from its start)."""
SHORT = 10
"""The puzzles of the short run, whose time is taken off the whole file's."""


def main() -> None:
    """Run the rounds and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    parser.add_argument("--tdoku", type=Path, default=Path("/tmp/tdoku/build/run_benchmark"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", default="1,2", help="the --jobs values to run, comma-separated")
    parser.add_argument("--sets", default=",".join(name for name, _, _ in SETS))
    parser.add_argument("--split", action="store_true", help="where a solve() call's time goes, instead")
    parser.add_argument("--in-process", action="store_true", help="run the command in this process, warm")
    args = parser.parse_args()
    if args.split:
        print(solve_split(args.data / SETS[0][1], 1000, args.repeats))
        return
    jobs = [int(j) for j in args.jobs.split(",")]
    chosen = [s for s in SETS if s[0] in args.sets.split(",")]
    print(f"machine: {os.cpu_count()} cores, {cpu_name()}; load average at start {load()}", flush=True)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for name, relative, size in chosen:
            whole, short = subsets(args.data / relative, Path(folder), name, size)
            run = in_process_seconds if args.in_process else command_seconds
            if args.in_process:
                run(short, SHORT, 1)  # imports and the kernel loaded before any run is timed
            rows.append((name, size, measure(args.tdoku, run, (whole, short), size, jobs, args.repeats)))
    print(f"load average at end {load()}\n")
    print(table(rows, jobs))


def cpu_name() -> str:
    """The CPU's model name, as /proc/cpuinfo says it (or the platform's word for it)."""
    try:
        found = re.search(r"model name\s*:\s*(.*)", Path("/proc/cpuinfo").read_text())
    except OSError:
        found = None
    return found[1] if found else platform.processor()


def load() -> str:
    """The 1, 5 and 15-minute load averages."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def subsets(path: Path, folder: Path, name: str, size: int) -> tuple[Path, Path]:
    """The first `size` and the first SHORT puzzle lines of `path`, written to two files in `folder`."""
    lines = [ln for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")][:size]
    whole, short = folder / f"{name}.txt", folder / f"{name}_{SHORT}.txt"
    whole.write_text("\n".join(lines) + "\n")
    short.write_text("\n".join(lines[:SHORT]) + "\n")
    return whole, short


Runner = Callable[[Path, int, int], tuple[float, float]]
"""run(file, puzzles, jobs) -> (wall, CPU) seconds of one `check` of the file, which finds every puzzle unique."""


def measure(tdoku: Path, run: Runner, files: tuple[Path, Path], size: int, jobs: list[int], repeats: int) -> dict:
    """Per repeat: tdoku's (wall, CPU) µs a puzzle; for each --jobs the command's (wall, CPU) seconds, whole, short."""
    whole, short = files
    found: dict[str, list] = {"tdoku": []}
    for _ in range(repeats):
        found["tdoku"].append(tdoku_us(tdoku, whole, size))
        if run is in_process_seconds:
            found.setdefault("kernel", []).append(kernel_us(whole))
        for j in jobs:
            runs = (run(whole, size, j), run(short, SHORT, j))
            found.setdefault(f"jobs={j}", []).append(runs)
            (wall, cpu), (short_wall, short_cpu) = runs
            per = [(w - s) / (size - SHORT) * 1e6 for w, s in ((wall, short_wall), (cpu, short_cpu))]
            print(f"  {whole.stem} jobs={j}: {per[0]:.1f} µs wall, {per[1]:.1f} µs CPU a puzzle", flush=True)
    return found


def tdoku_us(tdoku: Path, path: Path, size: int) -> tuple[float, float]:
    """The µs a puzzle tdoku takes on the first `size` puzzles of `path`, one thread, and its CPU estimate."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [str(tdoku), "-s", "tdoku", "-t", "1", "-w", "1", "-r", "0", "-n", str(size), str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    row = next(line for line in done.stdout.splitlines() if line.startswith("|tdoku"))
    us = float(row.split("|")[3])
    print(f"  {path.stem} tdoku: {us:.1f} µs a puzzle (CPU {us * cpu / wall:.1f})", flush=True)
    return us, us * cpu / wall


def command_seconds(path: Path, size: int, jobs: int) -> tuple[float, float]:
    """(wall, CPU) seconds of `cpmodels check FILE --backend backtrack --jobs J`; it must find every puzzle unique."""
    command = [sys.executable, "-m", "cpmodels", "check", str(path), "--backend", "backtrack", "--jobs", str(jobs)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or not re.search(rf"^unique\s+{size}$", done.stdout, re.MULTILINE):
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def in_process_seconds(path: Path, size: int, jobs: int) -> tuple[float, float]:
    """(wall, CPU) seconds of `check FILE --backend backtrack --jobs J` run by cpmodels.cli.main in this process."""
    from cpmodels.cli import main as command

    printed = io.StringIO()
    start, cpu = time.perf_counter(), time.process_time()
    with contextlib.redirect_stdout(printed):
        code = command(["check", str(path), "--backend", "backtrack", "--jobs", str(jobs)])
    times = time.perf_counter() - start, time.process_time() - cpu
    if code != 0 or not re.search(rf"^unique\s+{size}$", printed.getvalue(), re.MULTILINE):
        raise SystemExit(f"check {path} failed ({code}):\n{printed.getvalue()}")
    return times


def kernel_us(path: Path) -> float:
    """The CPU µs a puzzle of backtrack.solve_givens alone (one thread, up to 2 solutions) on the file's puzzles."""
    from cpmodels.backends.backtrack import solve_givens
    from cpmodels.formats.plain_lines import read_plain_lines

    lines = read_plain_lines(path.read_text(), str(path))
    assert lines.template is not None
    start = time.process_time()
    solve_givens(lines.template, lines.givens, limit=2, jobs=1)
    return (time.process_time() - start) / len(lines.givens) * 1e6


def table(rows: list[tuple[str, int, dict[str, list]]], jobs: list[int]) -> str:
    """The markdown table: tdoku's µs a puzzle; per --jobs the command's µs a puzzle and its ratios to tdoku's.

    Median: of (whole - short) per repeat, over tdoku's median. Best: the fastest whole minus the fastest
    short, over tdoku's fastest: the figures least disturbed by a busy machine. CPU: the command's CPU
    time, best as for wall time, over tdoku's best CPU estimate.
    """
    head = "| set | tdoku µs median (best; CPU best) |" + "".join(
        f" jobs={j} µs median (runs) | / tdoku | best | / tdoku best | CPU µs best | / tdoku CPU |" for j in jobs
    )
    lines = [head, "|---|---:|" + "---|---:|---:|---:|---:|---:|" * len(jobs)]
    for name, size, found in rows:
        tdoku = statistics.median(us for us, _ in found["tdoku"])
        tdoku_best, tdoku_cpu = min(us for us, _ in found["tdoku"]), min(cpu for _, cpu in found["tdoku"])
        cells = [f"{name} ({size})", f"{tdoku:.1f} ({tdoku_best:.1f}; {tdoku_cpu:.1f})"]
        if "kernel" in found:  # in-process: the kernel's own CPU time, best of the repeats
            cells[0] += f"; kernel alone {min(found['kernel']):.1f} µs CPU"
        for j in jobs:
            runs = found[f"jobs={j}"]
            per = [(whole[0] - short[0]) / (size - SHORT) * 1e6 for whole, short in runs]
            best = [(min(r[0][k] for r in runs) - min(r[1][k] for r in runs)) / (size - SHORT) * 1e6 for k in (0, 1)]
            median = statistics.median(per)
            cells += [f"{median:.1f} ({', '.join(f'{p:.0f}' for p in per)})", f"{median / tdoku:.2f}"]
            cells += [f"{best[0]:.1f}", f"{best[0] / tdoku_best:.2f}", f"{best[1]:.1f}", f"{best[1] / tdoku_cpu:.2f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def solve_split(path: Path, size: int, repeats: int) -> str:
    """A markdown table of where solve(puzzle, backend="backtrack", limit=2) spends its time, µs a puzzle."""
    from cpmodels import grid
    from cpmodels.backends import backtrack, get_backend
    from cpmodels.formats import read_text
    from cpmodels.solve import solve

    puzzles = [entry.puzzle for entry in read_text(path.read_text()) if entry.puzzle][:size]
    backtrack.warm_up()
    engine = get_backend("backtrack")
    grids = [solve(p, backend="backtrack", limit=2).solutions[0] for p in puzzles]
    search, loaded = backtrack._NATIVE[0]
    inside = [0.0]

    def timed(address: int) -> int:
        start = time.thread_time()
        code = search(address)
        inside[0] += time.thread_time() - start
        return code

    def build() -> None:
        for p in puzzles:
            work = backtrack._one_puzzle_workspace(backtrack.compile_puzzle(p))
            work.givens_bytes[:] = grid.givens_bytes(p)

    def checker() -> None:
        for p, found in zip(puzzles, grids, strict=True):
            grid.givens_bytes(p)  # as in solve(), where the engine has read them just before
            grid.explain_violation(p, found)

    def kernel() -> None:
        backtrack._NATIVE[0] = (timed, loaded)
        try:
            for p in puzzles:
                engine.solve(p, limit=2)
        finally:
            backtrack._NATIVE[0] = (search, loaded)

    loops = {
        "solve()": lambda: [solve(p, backend="backtrack", limit=2) for p in puzzles],
        "backend.solve()": lambda: [engine.solve(p, limit=2) for p in puzzles],
        "build": build,
        "checker": checker,
        "kernel": kernel,
    }
    best = dict.fromkeys(loops, float("inf"))
    for r in range(repeats):
        for name, loop in list(loops.items())[:: 1 if r % 2 else -1]:
            inside[0] = 0.0
            start = time.thread_time()
            loop()
            spent = inside[0] if name == "kernel" else time.thread_time() - start
            best[name] = min(best[name], spent / len(puzzles) * 1e6)
    python = best["backend.solve()"] - best["kernel"] - best["build"]
    own = best["solve()"] - best["backend.solve()"] - best["checker"]
    rows = [("kernel", best["kernel"]), ("build", best["build"]), ("backend's Python", python)]
    rows += [("checker", best["checker"]), ("solve()'s own", own), ("solve()", best["solve()"])]
    lines = [f"load average {load()}", "", "| part | µs a puzzle | / kernel |", "|---|---:|---:|"]
    lines += [f"| {name} | {us:.2f} | {us / best['kernel']:.2f} |" for name, us in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
