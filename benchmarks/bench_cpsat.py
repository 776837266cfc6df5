"""CP-SAT timings: model build, first solution and uniqueness proof on Sudoku and Kenken data files.

Per puzzle every measurement is the median of --repeats runs; tables give the median and the max of
those over the puzzles of a file, in milliseconds. Every solution is checked with is_solution and
every count against the data file's count field; a disagreement is printed as MISMATCH on stderr and
makes the exit status 1. Tables are printed as Markdown, with the command and the machine.

    python benchmarks/bench_cpsat.py sudoku --repeats 3
    python benchmarks/bench_cpsat.py kenken --repeats 3
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import ortools

from cpmodels import GridPuzzle, is_solution
from cpmodels.backends.cpsat import CpsatBackend, build_model, clear_caches
from cpmodels.formats import content_lines
from cpmodels.formats.sudoku import SYMBOLS

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data"
SUDOKU9 = ("norvig_top95", "magictour_top1465", "17clue_every4th:1000")
SUDOKU_LARGE = ("gecode_16x16", "gecode_25x25:4")
ENCODINGS = ("table", "arith", "auto")
KENKEN = ("arithmatrix_4x4", "arithmatrix_5x5", "arithmatrix_6x6", "arithmatrix_7x7", "handmade_small")


@dataclass
class Case:
    """One puzzle of a data file with the count and solution the file gives for it."""

    name: str
    puzzle: GridPuzzle
    count: int
    solution: tuple[int, ...] | None


@dataclass
class Tally:
    """Per-puzzle medians of each measurement (ms), with the mismatches and timeouts seen."""

    times: dict[str, list[float]] = field(default_factory=dict)
    mismatches: list[str] = field(default_factory=list)
    timeouts: int = 0

    def add(self, key: str, ms: float) -> None:
        """Record one puzzle's median time for measurement `key`."""
        self.times.setdefault(key, []).append(ms)


# ---- data --------------------------------------------------------------------------------------


def split_spec(spec: str) -> tuple[str, int | None]:
    """A file spec `name` or `name:cap` as (name, cap or None)."""
    name, _, cap = spec.partition(":")
    return name, int(cap) if cap else None


def read_cases(path: Path, reader: Callable, cap: int | None) -> list[Case]:
    """The first `cap` puzzles of a data file whose lines end in `:count:solution`."""
    text = path.read_text()
    lines = [ln for _, ln in content_lines(text)][:cap]
    entries = reader("\n".join(lines), str(path))
    cases = []
    for k, (entry, line) in enumerate(zip(entries, lines, strict=True), start=1):
        if entry.error:
            raise SystemExit(f"{path}: puzzle {k} does not parse: {entry.error}")
        fields = line.split(":")
        solution = tuple(SYMBOLS.index(ch.upper()) + 1 for ch in fields[-1]) if fields[-1] else None
        cases.append(Case(f"{path.name}:{k}", entry.puzzle, int(fields[-2]), solution))
    return cases


# ---- measuring ---------------------------------------------------------------------------------


def timed(run: Callable[[], object]) -> tuple[float, object]:
    """Milliseconds taken by `run()` and what it returned."""
    start = time.perf_counter()
    result = run()
    return (time.perf_counter() - start) * 1e3, result


def check(case: Case, result, limit: int, what: str, tally: Tally) -> None:
    """Record a mismatch unless `result` has the file's count (capped at limit) and checked solutions."""
    if not result.complete and result.count < limit:
        tally.timeouts += 1
        return
    expected = min(case.count, limit)
    problems = [f"count {result.count}, file says {case.count}"] if result.count != expected else []
    problems += [
        f"solution {k} fails the checker" for k, s in enumerate(result.solutions) if not is_solution(case.puzzle, s)
    ]
    if case.count == 1 and case.solution and result.solutions and result.solutions[0] != case.solution:
        problems.append("solution differs from the file's")
    for problem in problems:
        message = f"MISMATCH {case.name} ({what}): {problem}"
        print(message, file=sys.stderr, flush=True)
        tally.mismatches.append(message)


def measure(case: Case, runs: dict[str, tuple[Callable, int]], repeats: int, tally: Tally) -> None:
    """Time each named run `repeats` times on one puzzle; checks results, records per-puzzle medians."""
    samples: dict[str, list[float]] = {key: [] for key in runs}
    for _ in range(repeats):
        for key, (run, limit) in runs.items():
            ms, result = timed(run)
            samples[key].append(ms)
            if limit:
                check(case, result, limit, key, tally)
    for key, values in samples.items():
        tally.add(key, statistics.median(values))


def sudoku_runs(puzzle: GridPuzzle, time_limit: float | None, forbid: bool) -> dict[str, tuple[Callable, int]]:
    """The Sudoku measurements: build, first solution, uniqueness by enumeration, and by solve-and-forbid."""
    enum, forbidding = CpsatBackend(), CpsatBackend(method="forbid")
    runs = {
        "build": (lambda: build_model(puzzle), 0),
        "first": (lambda: enum.solve(puzzle, limit=1, time_limit=time_limit), 1),
        "unique": (lambda: enum.solve(puzzle, limit=2, time_limit=time_limit), 2),
    }
    if forbid:
        runs["forbid"] = (lambda: forbidding.solve(puzzle, limit=2, time_limit=time_limit), 2)
    return runs


def kenken_runs(puzzle: GridPuzzle, time_limit: float | None) -> dict[str, tuple[Callable, int]]:
    """The Kenken measurements per cage encoding: a cold build (caches cleared), a build, a uniqueness proof."""
    runs = {}
    for encoding in ENCODINGS:
        backend = CpsatBackend(encoding=encoding)
        runs[f"cold {encoding}"] = (lambda e=encoding: (clear_caches(), build_model(puzzle, e)), 0)
        runs[f"build {encoding}"] = (lambda e=encoding: build_model(puzzle, e), 0)
        runs[f"unique {encoding}"] = (lambda b=backend: b.solve(puzzle, limit=2, time_limit=time_limit), 2)
    return runs


# ---- reporting ---------------------------------------------------------------------------------


def machine() -> str:
    """One line naming the machine, Python and OR-Tools, the date and the load average now."""
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"nproc {os.cpu_count()}, {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
        f"OR-Tools {ortools.__version__}, {datetime.date.today()}, load average {load}"
    )


def median_max(values: list[float]) -> str:
    """`median / max` of millisecond values, as text."""
    return f"{statistics.median(values):.2f} / {max(values):.1f}"


def ratio(tally: Tally, top: str, bottom: str) -> str:
    """The median over puzzles of the per-puzzle ratio top/bottom, as text."""
    pairs = zip(tally.times[top], tally.times[bottom], strict=True)
    return f"{statistics.median(a / b for a, b in pairs):.2f}"


def print_header(title: str) -> None:
    """A Markdown heading with the exact command and the machine."""
    print(f"\n### {title}\n\n`{' '.join(['python', *sys.argv])}`\n\n{machine()}\n", flush=True)


def sudoku_table(rows: list[tuple[str, int, Tally]], keys: list[str]) -> None:
    """Print the Sudoku table: median / max ms per measurement, ratios to the first solution."""
    ratios = [k for k in keys if k != "first"]
    head = ["set", "puzzles", *(f"{k} ms med / max" for k in keys), *(f"{k}/first" for k in ratios)]
    print("| " + " | ".join(head + ["timeouts", "mismatches"]) + " |")
    print("|" + "---|" * (len(head) + 2))
    for name, count, t in rows:
        cells = [median_max(t.times[k]) for k in keys] + [ratio(t, k, "first") for k in ratios]
        print(f"| {name} | {count} | " + " | ".join(cells) + f" | {t.timeouts} | {len(t.mismatches)} |", flush=True)


# ---- commands ----------------------------------------------------------------------------------


def run_sudoku(args: argparse.Namespace) -> int:
    """Benchmark CP-SAT on 9x9 Sudoku files, then a capped run on 16x16 and 25x25."""
    from cpmodels.formats.sudoku import read_text

    print_header("Sudoku 9x9, CP-SAT (ms per puzzle; per-puzzle median of repeats, then median / max)")
    rows = bench_files(args, "sudoku9", args.files, read_text, args.repeats, args.time_limit)
    sudoku_table(rows, ["build", "first", "unique", "forbid"])
    bad = sum(len(t.mismatches) for _, _, t in rows)
    if args.large:
        print_header(f"Sudoku 16x16 and 25x25, CP-SAT, time limit {args.large_time_limit} s per solve")
        large = bench_files(args, "sudoku_large", args.large, read_text, args.large_repeats, args.large_time_limit)
        sudoku_table(large, ["build", "first", "unique"])
        bad += sum(len(t.mismatches) for _, _, t in large)
    return 1 if bad else 0


def bench_files(args, folder: str, specs, reader, repeats: int, time_limit: float | None) -> list:
    """Measure every file named in `specs` under data/folder; one (name, puzzles, Tally) row per file."""
    rows = []
    for spec in specs:
        name, cap = split_spec(spec)
        cap = min(c for c in (cap, args.limit_puzzles) if c) if cap or args.limit_puzzles else None
        cases = read_cases(args.data / folder / f"{name}.txt", reader, cap)
        tally = Tally()
        forbid = folder == "sudoku9"
        for case in cases:
            measure(case, sudoku_runs(case.puzzle, time_limit, forbid), repeats, tally)
        rows.append((name if cap is None else f"{name} (first {len(cases)})", len(cases), tally))
        print(f"  done {name}: {len(cases)} puzzles", file=sys.stderr, flush=True)
    return rows


def run_kenken(args: argparse.Namespace) -> int:
    """Benchmark CP-SAT uniqueness proofs on Kenken files by order, table against arithmetic cages."""
    from cpmodels.formats.mathdoku import read_text

    by_order: dict[int, Tally] = {}
    for spec in args.files:
        name, cap = split_spec(spec)
        cap = min(c for c in (cap, args.limit_puzzles) if c) if cap or args.limit_puzzles else None
        for case in read_cases(args.data / "kenken" / f"{name}.txt", lambda t, p: read_text(t, p, "oneline"), cap):
            key = case.puzzle.n if name.startswith("arithmatrix") else f"{case.puzzle.n} (handmade)"
            measure(case, kenken_runs(case.puzzle, args.time_limit), args.repeats, by_order.setdefault(key, Tally()))
        print(f"  done {name}", file=sys.stderr, flush=True)
    print_header("Kenken, CP-SAT uniqueness proof (limit=2), cage encodings table vs arith")
    kenken_table(by_order)
    return 1 if any(t.mismatches for t in by_order.values()) else 0


def kenken_table(by_order: dict) -> None:
    """Print the Kenken table: per order and encoding, cold build, build and uniqueness median / max ms."""
    print(
        "| order | encoding | puzzles | cold build | build | unique | unique / unique table | timeouts | mismatches |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for key in sorted(by_order, key=str):
        t = by_order[key]
        for e in ENCODINGS:
            cells = [median_max(t.times[f"{k} {e}"]) for k in ("cold", "build", "unique")]
            row = [str(key), e, str(len(t.times[f"unique {e}"])), *cells, ratio(t, f"unique {e}", "unique table")]
            print("| " + " | ".join(row) + f" | {t.timeouts} | {len(t.mismatches)} |", flush=True)


def parser() -> argparse.ArgumentParser:
    """The command line: common options, then the `sudoku` and `kenken` subcommands."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the data folder (default: ../shared/data)")
    common.add_argument("--repeats", type=int, default=3, help="runs per puzzle; the median is kept (default 3)")
    common.add_argument("--limit-puzzles", type=int, help="at most this many puzzles per file")
    common.add_argument("--time-limit", type=float, default=60.0, help="seconds per solve (default 60)")
    top = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = top.add_subparsers(dest="command", required=True)
    sudoku = sub.add_parser("sudoku", parents=[common], help="9x9 files, then 16x16 and 25x25")
    sudoku.add_argument("--files", nargs="+", default=list(SUDOKU9), help="sudoku9 files as name[:cap]")
    sudoku.add_argument("--large", nargs="*", default=list(SUDOKU_LARGE), help="sudoku_large files as name[:cap]")
    sudoku.add_argument("--large-time-limit", type=float, default=10.0, help="seconds per large solve (default 10)")
    sudoku.add_argument("--large-repeats", type=int, default=1, help="runs per large puzzle (default 1)")
    kenken = sub.add_parser("kenken", parents=[common], help="arithmatrix and handmade Kenken files")
    kenken.add_argument("--files", nargs="+", default=list(KENKEN), help="kenken files as name[:cap]")
    return top


def main(argv: list[str] | None = None) -> int:
    """Run the chosen benchmark; the exit status is 1 if any count or solution disagreed with the data."""
    args = parser().parse_args(argv)
    return run_sudoku(args) if args.command == "sudoku" else run_kenken(args)


if __name__ == "__main__":
    sys.exit(main())
