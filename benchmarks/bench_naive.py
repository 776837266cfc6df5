"""Nodes and CPU time of `naive` against backtrack, dlx and cpsat (issue 22): uniqueness proofs (limit 2).

    .venv/bin/python benchmarks/bench_naive.py [--data ../shared/data] [--mathdoku 200] [--time-limit 20]

Engines interleaved puzzle by puzzle; each solve timed in process CPU time (time.process_time, one thread:
CP-SAT runs one worker when counting); every grid passes cpmodels.is_solution. Prints a markdown table.
"""

import argparse
import os
import statistics
import time
from pathlib import Path

import cpmodels
from cpmodels import formats
from cpmodels.backends.naive import NaiveBackend

ENGINES = ("naive", "backtrack", "dlx", "cpsat")
NAIVE = NaiveBackend(node_limit=10**9)


def sets(data: Path, mathdoku: int) -> dict[str, list]:
    """norvig_easy50 (50 9x9 Sudoku) and the first `mathdoku` 6x6 arithmatrix puzzles."""
    easy = data / "sudoku9" / "norvig_easy50.txt"
    six = data / "kenken" / "arithmatrix_6x6.txt"
    return {
        "norvig_easy50": [e.puzzle for e in formats.read_text(easy.read_text(), easy.name)],
        f"arithmatrix 6x6 (first {mathdoku})": [
            e.puzzle for e in formats.read_text(six.read_text(), six.name)[:mathdoku]
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--mathdoku", type=int, default=200)
    parser.add_argument("--time-limit", type=float, default=20.0)
    args = parser.parse_args()
    for name in ENGINES:
        cpmodels.BACKENDS[name].warm_up()
    print(f"machine: nproc {os.cpu_count()}, load average at start {os.getloadavg()}")
    rows = []
    for label, puzzles in sets(args.data, args.mathdoku).items():
        cpu = {name: [] for name in ENGINES}
        nodes = {name: [] for name in ENGINES}
        late = {name: 0 for name in ENGINES}
        for p in puzzles:
            for name in ENGINES:
                start = time.process_time()
                if name == "naive":  # with a node limit it takes the sparse ones too (can_solve refuses 57+ empty)
                    r = NAIVE.solve(p, limit=2, time_limit=args.time_limit)
                else:
                    r = cpmodels.solve(p, backend=name, limit=2, time_limit=args.time_limit)
                cpu[name].append(time.process_time() - start)
                assert all(cpmodels.is_solution(p, g) for g in r.solutions), (name, p.name)
                assert r.status in ("unique", "timeout"), (name, p.name, r.status)
                nodes[name].append(r.stats.get("nodes", 0))
                late[name] += r.status == "timeout"
        base = statistics.median(cpu["naive"])
        for name in ENGINES:
            med = statistics.median(cpu[name])
            rows.append(
                f"| {label} | {name} | {len(puzzles) - late[name]}/{len(puzzles)} | {med * 1e3:.3f} | "
                f"{max(cpu[name]) * 1e3:.1f} | {sum(cpu[name]):.2f} | {statistics.median(nodes[name]):.0f} | "
                f"{max(nodes[name])} | {base / med:.1f}x |"
            )
    print(f"load average at end {os.getloadavg()}")
    columns = "set | engine | proved | median CPU ms | max CPU ms | total CPU s | median nodes | max nodes"
    print(f"| {columns} | naive / engine (median) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
