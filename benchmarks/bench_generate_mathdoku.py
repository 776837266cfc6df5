"""Mathdoku generation against Keen: `cpmodels generate mathdoku` beside `sgt-keen --generate N 6dn|9dn`.

Three interleaved rounds, the median round reported. Our time is the `--count` run minus a 10-puzzle run of
the same command (start-up and loading the kernel are not counted); Keen's is its whole process (its
start-up is a few milliseconds). Times are CPU seconds (user + system of the child processes, so a busy
machine changes them less than the wall clock); wall seconds are reported beside them. Also the cage
statistics of our puzzles (share of dominoes, sizes, singletons), to compare with Keen's at 9x9.

    .venv/bin/python benchmarks/bench_generate_mathdoku.py [--rounds 3] [--keen /usr/games/sgt-keen]

Keen comes from Debian's sgt-puzzles package (apt-get install sgt-puzzles: /usr/games/sgt-keen).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

CASES = (  # name, order, our count, Keen's preset and count, our extra options
    ("6x6", 6, 600, "6dn", 2000, ()),
    ("9x9", 9, 250, "9dn", 150, ()),
    ("6x6 --jobs 2", 6, 600, None, 0, ("--jobs", "2")),
    ("9x9 --jobs 2", 9, 250, None, 0, ("--jobs", "2")),
)


def timed(command: list[str], out: Path | None = None) -> tuple[float, float]:
    """CPU seconds (user + system of the child) and wall seconds of running `command`, its output to `out`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(out or os.devnull, "w") as sink:
        subprocess.run(command, stdout=sink, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def ours(order: int, count: int, extra: tuple[str, ...]) -> list[str]:
    """The command making `count` order-n Mathdoku with seed 1."""
    cpmodels = shutil.which("cpmodels", path=str(Path(sys.executable).parent)) or "cpmodels"
    return [cpmodels, "generate", "mathdoku", "--order", str(order), "--count", str(count), "--seed", "1", *extra]


def cage_statistics(path: Path) -> str:
    """The share of dominoes, the sizes and the givens of the cages of the puzzles in `path`."""
    from cpmodels.formats import read_text

    sizes: Counter[int] = Counter()
    for entry in read_text(path.read_text()):
        if entry.puzzle is not None:
            sizes.update(len(cage.cells) for cage in entry.puzzle.cages)
    total = sum(sizes.values())
    shares = ", ".join(f"{size}: {100 * k / total:.1f}%" for size, k in sorted(sizes.items()))
    return f"{total} cages; {shares}"


def main() -> None:
    """Run the rounds and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keen", default=shutil.which("sgt-keen") or "/usr/games/sgt-keen")
    args = parser.parse_args()
    rows: dict[str, list[tuple[float, float, float, float]]] = {name: [] for name, *_ in CASES}
    stats_file = Path("/tmp/bench_mathdoku_9x9.txt")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    for _ in range(args.rounds):
        for name, order, count, preset, keen_count, extra in CASES:
            keen_rate = keen_wall = float("nan")
            if preset:
                cpu, wall = timed([args.keen, "--generate", str(keen_count), preset])
                keen_rate, keen_wall = keen_count / cpu, keen_count / wall
            full = timed(ours(order, count, extra), stats_file if name == "9x9" else None)
            short = timed(ours(order, 10, extra))
            rate = (count - 10) / max(full[0] - short[0], 1e-9)
            wall_rate = (count - 10) / max(full[1] - short[1], 1e-9)
            rows[name].append((rate, wall_rate, keen_rate, keen_wall))
    print(f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}; load average before: {load}")
    print("| case | ours (puzzles/s, CPU) | ours (wall) | Keen (CPU) | Keen (wall) | ratio (CPU) |")
    print("|---|---|---|---|---|---|")
    for name, found in rows.items():
        rate, wall_rate, keen_rate, keen_wall = sorted(found)[len(found) // 2]
        ratio = rate / keen_rate if keen_rate == keen_rate else float("nan")
        print(f"| {name} | {rate:.1f} | {wall_rate:.1f} | {keen_rate:.1f} | {keen_wall:.1f} | {ratio:.2f} |")
    print(f"all rounds (ours CPU): { {name: [round(r[0], 1) for r in found] for name, found in rows.items()} }")
    print(f"our 9x9 cages: {cage_statistics(stats_file)}")
    keen_file = Path("/tmp/bench_keen_9x9.txt")
    with open(keen_file, "w") as sink:
        subprocess.run([args.keen, "--generate", "100", "9dn"], stdout=sink, check=True)
    print(f"Keen's 9x9 cages: {cage_statistics(keen_file)}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
