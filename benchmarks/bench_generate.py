"""Generation rates of `cpmodels generate sudoku` against tdoku's generator, QQWing and Solo, interleaved.

Each case runs the cpmodels command twice per round, with --count N and with --count 10, so that start-up
and loading the numba kernels are not counted: our rate is (N - 10) / (time(N) - time(10)). The anchors
run in the same round, between ours. Times are CPU seconds of the child processes (user + system, from
resource.getrusage(RUSAGE_CHILDREN), worker processes included), and wall seconds; the median round is
reported. The load average is printed next to every figure (the machine is shared).

    python benchmarks/bench_generate.py [--rounds 3] [--cases NAME,...] [--quick]

Anchors (built or installed outside the repository): tdoku's generate (t-dillon/tdoku, `./BUILD.sh
generate`; TDOKU=/tmp/tdoku), QQWing 1.3.4 (`apt-get install qqwing`), Solo from sgt-puzzles
(`sgt-solo --generate N 2x3db`); a missing one is skipped and said.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CPMODELS = [sys.executable, "-m", "cpmodels", "generate", "sudoku", "--seed", "1"]
TDOKU = Path(os.environ.get("TDOKU", "/tmp/tdoku")) / "build" / "generate"


@dataclass
class Case:
    """One comparison: our arguments and count, and anchors (name, command, puzzles it makes)."""

    name: str
    ours: list[str]
    count: int
    anchors: list[tuple[str, list[str], int]] = field(default_factory=list)
    jobs: tuple[int, ...] = (1,)


def cases(quick: bool) -> list[Case]:
    """The cases of the issue's benchmark list, sized for a 2-core machine (`quick`: a tenth)."""
    k = 10 if quick else 1
    tdoku = ("tdoku generate", [str(TDOKU), "-p0", "-d81", "-e0", "-s0", "-a1", "-l", str(5000 // k)], 5000 // k)
    qq = ("qqwing", ["qqwing", "--generate", str(500 // k), "--one-line"], 500 // k)
    qq180 = (
        "qqwing rot180",
        ["qqwing", "--generate", str(500 // k), "--one-line", "--symmetry", "rotate180"],
        500 // k,
    )
    qqx = ("qqwing expert", ["qqwing", "--generate", str(100 // k), "--one-line", "--difficulty", "expert"], 100 // k)

    def solo(shape: str, n: int) -> tuple[str, list[str], int]:
        solo = shutil.which("sgt-solo") or "/usr/games/sgt-solo"  # Debian puts the games in /usr/games
        return (f"sgt-solo {shape}db", [solo, "--generate", str(n), f"{shape}db"], n)

    return [
        Case("9x9 minimal", [], 2000 // k, [tdoku, qq], jobs=(1, 2)),
        Case("9x9 rot180 orbit-minimal", ["--symmetry", "rot180"], 1000 // k, [qq180]),
        Case("9x9 bottom-up minimal", ["--method", "bottom-up"], 1000 // k, [tdoku]),
        Case("6x6 minimal", ["--box", "2x3"], 4000 // k, [solo("2x3", 2000 // k)]),
        Case("12x12 minimal", ["--box", "3x4"], 60 // k + 10, [solo("3x4", 200 // k)]),
        Case("16x16 minimal", ["--box", "4x4"], 14 if quick else 30, [solo("4x4", 20 // k)]),
        Case("9x9 zambon:4 (needs a guess)", ["--difficulty", "zambon:4"], 12 if quick else 20, [qqx]),
    ]


def load() -> str:
    """The 1-minute load average, as text."""
    return f"{os.getloadavg()[0]:.1f}"


def timed(command: list[str]) -> tuple[float, float]:
    """Run `command` (output discarded); its CPU seconds (children, user + system) and wall seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=ROOT)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def available(command: list[str]) -> bool:
    """Whether the anchor's program is there."""
    return Path(command[0]).exists() or shutil.which(command[0]) is not None


def run(selected: list[Case], rounds: int) -> list[str]:
    """The markdown rows: per case, our rate (jobs 1 and 2) and each anchor's, the median of `rounds` rounds."""
    samples: dict[tuple[str, str], list[tuple[float, float, str]]] = {}
    for r in range(rounds):
        for case in selected:
            for jobs in case.jobs:
                ours = [*CPMODELS, *case.ours, "--jobs", str(jobs)]
                cpu_n, wall_n = timed([*ours, "--count", str(case.count)])
                cpu_10, wall_10 = timed([*ours, "--count", "10"])
                rate_cpu = (case.count - 10) / max(cpu_n - cpu_10, 1e-9)
                rate_wall = (case.count - 10) / max(wall_n - wall_10, 1e-9)
                samples.setdefault((case.name, f"cpmodels --jobs {jobs}"), []).append((rate_cpu, rate_wall, load()))
            for name, command, made in case.anchors:
                if not available(command):
                    continue
                cpu, wall = timed(command)
                samples.setdefault((case.name, name), []).append((made / max(cpu, 1e-9), made / wall, load()))
        print(f"round {r + 1} of {rounds} done (load {load()})", file=sys.stderr, flush=True)
    rows = [
        "| case | program | puzzles/s (CPU) | puzzles/s (wall) | ours / it (CPU) | load |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for case in selected:
        base = samples.get((case.name, "cpmodels --jobs 1"))
        mine = statistics.median(s[0] for s in base) if base else None
        for (name, program), got in samples.items():
            if name != case.name:
                continue
            cpu = statistics.median(s[0] for s in got)
            wall = statistics.median(s[1] for s in got)
            ratio = f"{mine / cpu:.2f}x" if mine and not program.startswith("cpmodels") else ""
            loads = "/".join(s[2] for s in got)
            rows.append(f"| {case.name} | {program} | {cpu:,.1f} | {wall:,.1f} | {ratio} | {loads} |")
    return rows


def main() -> None:
    """Parse the options, run the rounds, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cases", default="", help="comma-separated case names (prefixes); default all")
    parser.add_argument("--quick", action="store_true", help="a tenth of the counts")
    args = parser.parse_args()
    chosen = [
        c for c in cases(args.quick) if not args.cases or any(c.name.startswith(p) for p in args.cases.split(","))
    ]
    missing = sorted({n for c in chosen for n, cmd, _ in c.anchors if not available(cmd)})
    if missing:
        print(f"skipped (not installed): {', '.join(missing)}", file=sys.stderr)
    print(f"machine: {os.cpu_count()} cores; {platform_cpu()}; load at start {load()}")
    print("\n".join(run(chosen, args.rounds)))


def platform_cpu() -> str:
    """The CPU model from /proc/cpuinfo, or the platform's processor string."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    main()
