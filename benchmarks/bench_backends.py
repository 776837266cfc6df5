"""Every backend on the same puzzles: uniqueness proofs (solve with limit=2), timed puzzle by puzzle.

For each set and each backend, every puzzle is solved --repeats times (the backends interleaved, so
they share the machine's load) and the median kept; tables give the median, mean and max of those
over the puzzles, in milliseconds, and the median over puzzles of the per-puzzle ratio to cpsat.
A backend's warm_up() (numba compilation, or loading it from numba's cache) is called once first
and reported apart. Every solution is checked with is_solution and every count against the data
file's count or status field; a disagreement is printed as MISMATCH on stderr and makes the exit
status 1. On the 9x9 sets, backtrack.solve_batch (one kernel call for many puzzles) is timed too.

    python benchmarks/bench_backends.py --repeats 3
    python benchmarks/bench_backends.py --backends cpsat dlx backtrack constraint --sets norvig_top95
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from cpmodels import BACKENDS, GridPuzzle, SolveResult, is_solution
from cpmodels.backends.base import Backend
from cpmodels.formats import content_lines, read_text
from cpmodels.formats.sudoku import SYMBOLS

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data"
LIMIT = 2
SLOW = ("constraint",)
"""Backends given at most --slow-cap puzzles per set (seconds per hard 9x9 puzzle)."""


@dataclass(frozen=True)
class SetSpec:
    """One table: a data file (folder/name), at most `cap` puzzles, only order `order`, time-limited or not."""

    label: str
    path: str
    cap: int | None = None
    order: int | None = None
    timed: bool = False
    batch: bool = False


SETS = (
    SetSpec("norvig_top95", "sudoku9/norvig_top95", batch=True),
    SetSpec("magictour_top1465", "sudoku9/magictour_top1465", batch=True),
    SetSpec("forum_hardest_1106", "sudoku9/forum_hardest_1106", batch=True),
    SetSpec("17clue_every4th", "sudoku9/17clue_every4th", cap=1000, batch=True),
    SetSpec("gecode_16x16", "sudoku_large/gecode_16x16", timed=True),
    SetSpec("gecode_25x25", "sudoku_large/gecode_25x25", cap=4, timed=True),
    *(SetSpec(f"arithmatrix_{n}x{n}", f"kenken/arithmatrix_{n}x{n}", cap=300) for n in range(4, 8)),
    SetSpec("handmade_small", "kenken/handmade_small"),
    SetSpec("qcp_order10", "qwh/csp2009_qcp_gecode", order=10, timed=True),
    SetSpec("qcp_order15", "qwh/csp2009_qcp_gecode", order=15, timed=True),
)


@dataclass(frozen=True)
class Case:
    """One puzzle with what its data file says: the count lies in low..high (high None: unbounded), the solution."""

    name: str
    puzzle: GridPuzzle
    low: int
    high: int | None
    solution: tuple[int, ...] | None


@dataclass
class Tally:
    """One backend on one set: per-puzzle median ms by puzzle index, timeouts, refusals and mismatches."""

    times: dict[int, float] = field(default_factory=dict)
    timed_out: set[int] = field(default_factory=set)
    refused: dict[str, int] = field(default_factory=dict)
    mismatches: list[str] = field(default_factory=list)


# ---- data --------------------------------------------------------------------------------------


def count_bounds(word: str) -> tuple[int, int | None]:
    """The bounds on the solution count a file's count/status field gives: exact, SAT, UNSAT or UNKNOWN."""
    if word.isdigit():
        return int(word), int(word)
    return {"SAT": (1, None), "UNSAT": (0, 0)}.get(word, (0, None))


def parse_solution(text: str) -> tuple[int, ...] | None:
    """A solution field as values 1..n: comma-separated symbols 0..n-1 (QWH), else one symbol per cell."""
    if not text:
        return None
    if "," in text:
        return tuple(int(x) + 1 for x in text.split(","))
    return tuple(SYMBOLS.index(ch.upper()) + 1 for ch in text)


def read_cases(data: Path, spec: SetSpec, cap: int | None) -> list[Case]:
    """The puzzles of a set, read with cpmodels.formats.read_text, with the file's count and solution."""
    path = data / f"{spec.path}.txt"
    text = path.read_text()
    lines = [ln for _, ln in content_lines(text)]
    entries = read_text(text, str(path))
    if len(entries) != len(lines):
        raise SystemExit(f"{path}: {len(entries)} puzzles read from {len(lines)} lines")
    cases = []
    for k, (entry, line) in enumerate(zip(entries, lines, strict=True), start=1):
        if entry.puzzle is None:
            raise SystemExit(f"{path}: puzzle {k} does not parse: {entry.error}")
        fields = line.split(":")
        low, high = count_bounds(fields[-2])
        cases.append(Case(f"{path.name}:{k}", entry.puzzle, low, high, parse_solution(fields[-1])))
    cases = [c for c in cases if spec.order in (None, c.puzzle.n)]
    return cases[:cap]


def set_cap(spec: SetSpec, limit: int | None) -> int | None:
    """The smaller of the set's own cap and --limit-puzzles (None when neither is given)."""
    caps = [c for c in (spec.cap, limit) if c]
    return min(caps) if caps else None


# ---- checking ----------------------------------------------------------------------------------


def problems(case: Case, result: SolveResult) -> list[str]:
    """What is wrong with a limit-2 result: a count outside the file's bounds, a bad or unexpected solution."""
    found = []
    low, high = min(case.low, LIMIT), LIMIT if case.high is None else min(case.high, LIMIT)
    done = result.complete or result.count >= LIMIT
    if result.count > high or (done and result.count < low):
        found.append(f"count {result.count} ({result.status}), file says {case.low}..{case.high or 'inf'}")
    found += [
        f"solution {k} fails the checker" for k, s in enumerate(result.solutions) if not is_solution(case.puzzle, s)
    ]
    if done and result.count == 1 and case.solution and result.solutions[0] != case.solution:
        found.append("the unique solution differs from the file's")
    return found


def report(tally: Tally, case: Case, backend: str, found: list[str]) -> None:
    """Print each problem as MISMATCH on stderr and keep it in the tally."""
    for problem in found:
        message = f"MISMATCH {case.name} ({backend}): {problem}"
        print(message, file=sys.stderr, flush=True)
        tally.mismatches.append(message)


# ---- backends ----------------------------------------------------------------------------------


def backend_named(name: str) -> Backend:
    """The registered backend `name`; `constraint` is also taken from its module if not registered yet."""
    if name in BACKENDS:
        return BACKENDS[name]
    if name == "constraint":
        from cpmodels.backends.constraint import ConstraintBackend

        return ConstraintBackend()
    raise SystemExit(f"unknown backend {name!r}; registered: {', '.join(BACKENDS)}")


def warm_up(backends: dict[str, Backend]) -> dict[str, float]:
    """Seconds each backend took to warm up (every backend has warm_up: base.Backend)."""
    return {name: float(backend.warm_up()) for name, backend in backends.items()}


# ---- measuring ---------------------------------------------------------------------------------


def timed_solve(backend: Backend, puzzle: GridPuzzle, time_limit: float | None) -> tuple[float, SolveResult]:
    """Milliseconds taken by backend.solve(puzzle, limit=2) and its result."""
    start = time.perf_counter()
    result = backend.solve(puzzle, limit=LIMIT, time_limit=time_limit)
    return (time.perf_counter() - start) * 1e3, result


def refusal(backend: Backend, puzzle: GridPuzzle, tally: Tally) -> bool:
    """Whether the backend refuses the puzzle; the reason is counted in the tally."""
    reason = backend.can_solve(puzzle)
    if reason:
        tally.refused[reason] = tally.refused.get(reason, 0) + 1
    return reason is not None


def measure_case(
    index: int,
    case: Case,
    backends: dict[str, Backend],
    tallies: dict[str, Tally],
    repeats: int,
    time_limit: float | None,
) -> None:
    """Time every backend that takes the puzzle `repeats` times, interleaved; keep each median, check each result."""
    samples: dict[str, list[float]] = {name: [] for name in backends}
    for _ in range(repeats):
        for name, backend in backends.items():
            ms, result = timed_solve(backend, case.puzzle, time_limit)
            samples[name].append(ms)
            report(tallies[name], case, name, problems(case, result))
            if not result.complete and result.count < LIMIT:
                tallies[name].timed_out.add(index)
    for name, values in samples.items():
        tallies[name].times[index] = statistics.median(values)


def run_set(cases: list[Case], backends: dict[str, Backend], args: argparse.Namespace, timed: bool) -> dict[str, Tally]:
    """Measure every backend on the cases of one set; slow backends stop after --slow-cap puzzles."""
    tallies = {name: Tally() for name in backends}
    repeats = args.large_repeats if timed else args.repeats
    time_limit = args.time_limit if timed else None
    for index, case in enumerate(cases):
        active = {}
        for name, backend in backends.items():
            if (name in SLOW and index >= args.slow_cap) or refusal(backend, case.puzzle, tallies[name]):
                continue
            active[name] = backend
        measure_case(index, case, active, tallies, repeats, time_limit)
    return tallies


# ---- the batch kernel --------------------------------------------------------------------------


@dataclass
class BatchRow:
    """backtrack.solve_batch on a whole set: median seconds of the repeats per thread count, mismatches."""

    puzzles: int
    seconds: dict[int, float] = field(default_factory=dict)
    mismatches: list[str] = field(default_factory=list)


def check_batch(cases: list[Case], result, row: BatchRow) -> None:
    """Compare each batch count with the file and each first solution with the checker and the file."""
    for k, case in enumerate(cases):
        count, first = int(result.counts[k]), tuple(int(v) for v in result.firsts[k])
        bad = [] if case.low == min(count, LIMIT) or (count >= LIMIT and case.low >= LIMIT) else [f"count {count}"]
        if count and not is_solution(case.puzzle, first):
            bad.append("first solution fails the checker")
        if count == 1 and case.solution and first != case.solution:
            bad.append("the unique solution differs from the file's")
        if not result.complete[k]:
            bad.append("not complete")
        for problem in bad:
            message = f"MISMATCH {case.name} (solve_batch): {problem}"
            print(message, file=sys.stderr, flush=True)
            row.mismatches.append(message)


def run_batch(cases: list[Case], repeats: int, threads: Sequence[int]) -> BatchRow:
    """Time backtrack.solve_batch(template, givens, limit=2) on all the cases at each thread count."""
    from cpmodels.backends.backtrack import solve_batch

    givens = np.array([c.puzzle.givens for c in cases], np.int64)
    template = cases[0].puzzle
    row = BatchRow(len(cases))
    for t in threads:
        walls = []
        for _ in range(repeats):
            result = solve_batch(template, givens, limit=LIMIT, threads=t)
            walls.append(result.wall_s)
            check_batch(cases, result, row)
        row.seconds[t] = statistics.median(walls)
    return row


# ---- reporting ---------------------------------------------------------------------------------


def version(package: str) -> str:
    """The installed version of a distribution, or `absent`."""
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def machine() -> str:
    """One line naming the machine, the versions that matter, the date and the load average now."""
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    packages = ", ".join(f"{p} {version(p)}" for p in ("ortools", "numba", "python-constraint2"))
    return (
        f"nproc {os.cpu_count()}, {platform.machine()}, Python {platform.python_version()}, {packages}, "
        f"{datetime.date.today()}, load average {load}"
    )


def ms(value: float) -> str:
    """Milliseconds with three significant digits (more before the point when large)."""
    return f"{value:.3g}" if value < 100 else f"{value:.0f}"


def ratio_to(tally: Tally, base: Tally | None) -> str:
    """The median over puzzles both finished of this backend's time over the base's, or `-`."""
    if base is None:
        return "-"
    both = [k for k in tally.times if k in base.times and k not in tally.timed_out | base.timed_out]
    return f"{statistics.median(tally.times[k] / base.times[k] for k in both):.3g}" if both else "-"


def refused_text(tally: Tally) -> str:
    """Refusal counts with their reasons, or 0."""
    return "; ".join(f"{n}: {reason}" for reason, n in tally.refused.items()) or "0"


def print_set(title: str, tallies: dict[str, Tally]) -> None:
    """One Markdown table row per backend for a set: puzzles, median / mean / max ms, ratio to cpsat."""
    print(f"\n#### {title}\n")
    print("| backend | puzzles | median ms | mean ms | max ms | / cpsat | timeouts | refused | mismatches |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, t in tallies.items():
        values = list(t.times.values())
        stats = [ms(statistics.median(values)), ms(statistics.mean(values)), ms(max(values))] if values else ["-"] * 3
        cells = [name, str(len(values)), *stats, ratio_to(t, tallies.get("cpsat"))]
        print(
            "| " + " | ".join(cells) + f" | {len(t.timed_out)} | {refused_text(t)} | {len(t.mismatches)} |", flush=True
        )


def print_batches(rows: dict[str, BatchRow], per_puzzle: dict[str, float]) -> None:
    """The solve_batch table: microseconds per puzzle at each thread count, against one solve() per puzzle."""
    if not rows:
        return
    threads = sorted({t for row in rows.values() for t in row.seconds})
    print("\n#### backtrack.solve_batch on the 9x9 sets (limit=2; whole set per call, median of repeats)\n")
    head = [f"µs/puzzle, {t} thread{'s' * (t > 1)}" for t in threads]
    print("| set | puzzles | " + " | ".join(head) + " | µs/puzzle, backtrack solve() mean | mismatches |")
    print("|---|---|" + "---|" * len(head) + "---|---|")
    for label, row in rows.items():
        cells = [f"{row.seconds[t] / row.puzzles * 1e6:.1f}" for t in threads]
        solo = f"{per_puzzle[label] * 1e3:.1f}" if label in per_puzzle else "-"
        print(f"| {label} | {row.puzzles} | " + " | ".join(cells) + f" | {solo} | {len(row.mismatches)} |", flush=True)


def print_header(args: argparse.Namespace, warm: dict[str, float]) -> None:
    """The command, the machine, the run's settings and each backend's warm-up time."""
    print(f"\n### All backends: uniqueness proofs (solve, limit=2)\n\n`{' '.join(['python', *sys.argv])}`\n")
    print(f"{machine()}\n")
    print(
        f"repeats {args.repeats} (time-limited sets: {args.large_repeats}, limit {args.time_limit} s per solve); "
        f"{', '.join(SLOW)}: at most {args.slow_cap} puzzles per set; numba cache: "
        f"{'fresh (compiled in this run)' if args.fresh_numba_cache else 'as found'}\n"
    )
    print("| backend | warm_up s |\n|---|---|")
    for name, seconds in warm.items():
        print(f"| {name} | {seconds:.2f} |")


# ---- main --------------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    """The command line."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the data folder (default: ../shared/data)")
    p.add_argument("--repeats", type=int, default=3, help="runs per puzzle; the median is kept (default 3)")
    p.add_argument("--backends", nargs="+", default=list(BACKENDS), help="backends to run (default: all registered)")
    p.add_argument("--sets", nargs="+", default=[s.label for s in SETS], help="sets to run, by label")
    p.add_argument("--limit-puzzles", type=int, help="at most this many puzzles per set")
    p.add_argument(
        "--time-limit", type=float, default=10.0, help="seconds per solve on 16x16, 25x25 and QCP (default 10)"
    )
    p.add_argument("--large-repeats", type=int, default=1, help="runs per puzzle on the time-limited sets (default 1)")
    p.add_argument("--slow-cap", type=int, default=10, help=f"at most this many puzzles per set for {', '.join(SLOW)}")
    p.add_argument("--batch-threads", type=int, nargs="*", default=[1, os.cpu_count() or 1], help="solve_batch threads")
    p.add_argument("--fresh-numba-cache", action="store_true", help="compile numba kernels into an empty cache")
    return p


def run(args: argparse.Namespace) -> int:
    """Warm up, measure every chosen set, print the tables; 1 if anything disagreed with the data."""
    backends = {name: backend_named(name) for name in args.backends}
    print_header(args, warm_up(backends))
    bad, batches, solo = 0, {}, {}
    for spec in (s for s in SETS if s.label in args.sets):
        cases = read_cases(args.data, spec, set_cap(spec, args.limit_puzzles))
        tallies = run_set(cases, backends, args, spec.timed)
        cap = set_cap(spec, args.limit_puzzles)
        title = (
            f"{spec.label} (first {len(cases)})"
            if cap and len(cases) == cap
            else f"{spec.label} ({len(cases)} puzzles)"
        )
        print_set(title, tallies)
        bad += sum(len(t.mismatches) for t in tallies.values())
        if spec.batch and "backtrack" in backends and args.batch_threads:
            batches[spec.label] = run_batch(cases, args.repeats, args.batch_threads)
            solo[spec.label] = statistics.mean(tallies["backtrack"].times.values())
            bad += len(batches[spec.label].mismatches)
        print(f"  done {spec.label}", file=sys.stderr, flush=True)
    print_batches(batches, solo)
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run; with --fresh-numba-cache the kernels compile into a temporary cache."""
    args = parser().parse_args(argv)
    if not args.fresh_numba_cache:
        return run(args)
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        os.environ["NUMBA_CACHE_DIR"] = cache
        return run(args)


if __name__ == "__main__":
    sys.exit(main())
