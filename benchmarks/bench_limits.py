"""Limits that hold: how far past its time limit each backend returns, and what a big count costs in memory.

For each backend and each time limit (--limits, default 1 2 5 s), `cpmodels.solve(puzzle, backend,
limit=10**8, time_limit=L)` on three instances none finishes in time: an empty 9x9 Sudoku, an empty
16x16 Sudoku, and a QWH of order 30 with peak_holes(30) holes (generate.qwh, seed --seed). The
table gives wall / L for the whole call (the search, the checker over the grids kept, building the
model), each backend warmed up first (numba's kernels loaded, OR-Tools imported): start-up is not
the search. Then the peak memory (ru_maxrss, of a child process, from os.wait4) and wall time of

    python -m cpmodels count <empty 9x9> --limit 100000000 --time-limit 5 --backend B

which includes the command's start-up (imports, warm-up: about 1.5 s here).

    python benchmarks/bench_limits.py
    python benchmarks/bench_limits.py --limits 1 --backends dlx backtrack
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

from cpmodels import BACKENDS, solve
from cpmodels.generate import peak_holes, qwh
from cpmodels.grid import GridPuzzle
from cpmodels.sudoku import sudoku_puzzle

ROOT = Path(__file__).resolve().parents[1]
COUNT_TO = 10**8


def machine() -> str:
    """The CPU model, nproc, Python and the load average, on one line."""
    try:
        model = next(
            line.split(":", 1)[1].strip()
            for line in subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout.splitlines()
            if line.startswith("Model name")
        )
    except (OSError, StopIteration):
        model = platform.processor() or "unknown CPU"
    return f"{model}, nproc {os.cpu_count()}, Python {platform.python_version()}, {load()}"


def load() -> str:
    """`uptime`'s load averages."""
    try:
        return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load average unknown"


def instances(seed: int) -> list[tuple[str, GridPuzzle]]:
    """The hard instances: empty 9x9 and 16x16 Sudoku, a QWH of order 30 at its peak number of holes."""
    square, _ = qwh(30, peak_holes(30), random.Random(seed))
    return [
        ("empty 9x9", sudoku_puzzle([0] * 81)),
        ("empty 16x16", sudoku_puzzle([0] * 256)),
        (f"QWH 30, {peak_holes(30)} holes", square),
    ]


def overshoot(backend: str, puzzle: GridPuzzle, time_limit: float) -> tuple[float, str]:
    """The wall time / time_limit of one solve counting to COUNT_TO, and its status and count."""
    start = time.perf_counter()
    result = solve(puzzle, backend=backend, limit=COUNT_TO, time_limit=time_limit)
    wall = time.perf_counter() - start
    return wall / time_limit, f"{result.status} {result.count}"


LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.executable, [sys.executable, *sys.argv[1:]])
_, _, usage = os.wait4(pid, 0)
print(usage.ru_maxrss, file=sys.stderr)
"""
"""Runs a command and prints its ru_maxrss (KB). A small process of its own: a child forked (or vforked, as
subprocess does) from this benchmark would be charged this benchmark's resident memory as its peak."""


def cli_peak(backend: str, time_limit: float) -> tuple[float, float, str]:
    """Peak resident MB and wall s of `cpmodels count <empty 9x9> --limit 10**8 --time-limit L --backend B`."""
    command = ["-m", "cpmodels", "count", "." * 81, "--limit", str(COUNT_TO)]
    command += ["--time-limit", str(time_limit), "--backend", backend]
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-S", "-c", LAUNCHER, *command], capture_output=True, text=True, cwd=ROOT, check=False
    )
    wall = time.perf_counter() - start
    return int(done.stderr.split()[-1]) / 1024, wall, done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", nargs="+", default=sorted(BACKENDS))
    parser.add_argument("--limits", nargs="+", type=float, default=[1.0, 2.0, 5.0])
    parser.add_argument("--seed", type=int, default=0, help="seed of the QWH instance (default 0)")
    parser.add_argument("--cli-time-limit", type=float, default=5.0)
    args = parser.parse_args()

    print(f"`{' '.join(['python', *sys.argv])}`\n\n{machine()}\n")
    for name in args.backends:
        BACKENDS[name].warm_up()
    header = "| instance | backend | " + " | ".join(f"{limit:g} s" for limit in args.limits) + " | status at the last |"
    print(header + "\n|" + "---|" * (3 + len(args.limits)))
    for label, puzzle in instances(args.seed):
        for name in args.backends:
            reason = BACKENDS[name].can_solve(puzzle)
            if reason:
                print(f"| {label} | {name} | " + " | ".join("-" for _ in args.limits) + f" | refused: {reason} |")
                continue
            ratios, status = [], ""
            for limit in args.limits:
                ratio, status = overshoot(name, puzzle, limit)
                ratios.append(f"{ratio:.3f}")
            print(f"| {label} | {name} | " + " | ".join(ratios) + f" | {status} |", flush=True)
    print(f"\n{load()}\n")
    print(f"`cpmodels count <empty 9x9> --limit {COUNT_TO} --time-limit {args.cli_time_limit:g} --backend B`\n")
    print("| backend | peak RSS MB | wall s | printed |\n|---|---|---|---|")
    for name in args.backends:
        peak, wall, out = cli_peak(name, args.cli_time_limit)
        print(f"| {name} | {peak:.0f} | {wall:.2f} | `{out}` |", flush=True)
    print(f"\n{load()}")


if __name__ == "__main__":
    main()
