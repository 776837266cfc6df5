"""The backtrack engine against tdoku, and against itself before the "Native speed" work, in one run.

Sections (Markdown on stdout, for benchmarks/RESULTS.md):

1. 9x9 uniqueness proofs (limit 2) on magictour_top1465, forum_hardest_1106 and the first 2000 of
   17clue_every4th: microseconds per puzzle (a mean: set time / puzzles) through `cpmodels.solve()`
   (every grid checked by explain_violation), through the batch API (`solve_many`, which checks
   every answer too: jobs 1 and 2, and jobs 1 with probing), and the engine before (its backend's
   solve() plus its checker, and its solve_batch on one thread, unchecked); tdoku's run_benchmark
   on the same files, one thread, in the same repeats; values tried per puzzle (the `nodes` stat)
   and guesses (the `guesses` stat: values tried while another of their cell was left, one per binary
   branch as tdoku counts) beside tdoku's guesses.
2. Where the time of one solve() goes on a 17-clue puzzle, before and after: the kernel on a
   prepared puzzle, the checker, the rest (Python).
3. Start-up: importing the backend module and loading its kernel, cold (empty NUMBA_CACHE_DIR) and
   warm, and a whole `python -m cpmodels solve` command.
4. Other families before and after: gecode 16x16, Mathdoku 7x7 (arithmatrix, first 300), QWH
   order 30 (pesant, the first few, with a time limit).
5. The kernel alone, engines side by side: the engine at --head-rev (default HEAD), the working tree,
   and any --candidate NAME=DIR (an engine's backtrack.py and backtrack_kernel.py in a folder, say one
   measured and not committed): thread CPU time per puzzle of solve_givens on the three 9x9 sets,
   alternating trial by trial, tdoku's CPU time in the same trials; then the families of section 4
   through each engine's solve(), in thread CPU time.

"Before" is the engine at --before-rev (its backtrack.py, backtrack_kernel.py and grid.py are read
with `git show` and loaded as separate modules; numba compiles that kernel into a kept temporary
folder). "Previous" is the engine at --previous-rev, loaded the same way, whose solve_many joins
section 1 (the state before the latest change, in the same run). Sets run interleaved repeat by
repeat (each method once per repeat, tdoku too), so that they share the machine's load, each method
passing over the set for at least --pass-seconds (as tdoku runs for --tdoku-seconds); the tables
give the best repeat, and ratios best / best and per repeat.

    python benchmarks/bench_native.py                 # 5 repeats, tdoku at /tmp/tdoku/build/run_benchmark
    python benchmarks/bench_native.py --quick         # a smoke run: small caps, one repeat, no cold start
    python benchmarks/bench_native.py --sections 5 --candidate pos=/tmp/kernel/posv   # kernels side by side
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import ModuleType

import numpy as np

from cpmodels import GridPuzzle, solve
from cpmodels.backends import backtrack
from cpmodels.formats import content_lines, read_text

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
SETS = (
    ("magictour_top1465", "sudoku9/magictour_top1465.txt", None),
    ("forum_hardest_1106", "sudoku9/forum_hardest_1106.txt", None),
    ("17clue_every4th (first 2000)", "sudoku9/17clue_every4th.txt", 2000),
)
PROBE = 3
"""Cells probed per branching point in the probing configuration measured beside the default."""


# ---- the engine before ------------------------------------------------------------------------------


def load_before(rev: str, folder: Path, prefix: str = "before") -> tuple[ModuleType, Callable]:
    """The backtrack module and explain_violation at git revision `rev`, loaded as separate modules.

    The modules are named cpmodels.backends.{prefix}_backtrack and so on; the kernel's source is also
    written as backtrack_kernel.py in `folder`, where an engine that keys its saved object code by that
    file (and keeps it in __pycache__ beside it) finds it.
    """
    sources = {}
    for name, path in (
        ("kernel", "cpmodels/backends/backtrack_kernel.py"),
        ("backend", "cpmodels/backends/backtrack.py"),
        ("grid", "cpmodels/grid.py"),
    ):
        sources[name] = subprocess.run(
            ["git", "-C", str(REPO), "show", f"{rev}:{path}"], capture_output=True, text=True, check=True
        ).stdout
    modules = load_sources(sources, folder, prefix)
    return modules["backend"], modules["grid"].explain_violation


def load_folder(folder: Path, prefix: str) -> ModuleType:
    """The backtrack module of `folder` (its backtrack.py and backtrack_kernel.py), as {prefix}_backtrack.

    Say a kernel measured but not committed; numba's object code for it is kept in `folder`.
    """
    sources = {
        name: (folder / f"{stem}.py").read_text()
        for name, stem in (("kernel", "backtrack_kernel"), ("backend", "backtrack"))
    }
    return load_sources(sources, folder, prefix)["backend"]


def load_sources(sources: dict[str, str], folder: Path, prefix: str) -> dict[str, ModuleType]:
    """The "kernel", "backend" (and "grid", if given) sources loaded as modules, written to `folder` first.

    They are cpmodels.backends.{prefix}_backtrack_kernel, cpmodels.backends.{prefix}_backtrack and
    cpmodels.{prefix}_grid; the kernel is also written as backtrack_kernel.py, the file its backend keys the
    saved object code by.
    """
    sources = dict(sources)
    sources["backend"] = (
        sources["backend"]
        .replace("from . import backtrack_kernel", f"from . import {prefix}_backtrack_kernel as backtrack_kernel")
        .replace("from .backtrack_kernel import", f"from .{prefix}_backtrack_kernel import")
    )
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "backtrack_kernel.py").write_text(sources["kernel"])
    modules = {}
    for name, module in (
        ("kernel", f"cpmodels.backends.{prefix}_backtrack_kernel"),
        ("backend", f"cpmodels.backends.{prefix}_backtrack"),
        ("grid", f"cpmodels.{prefix}_grid"),
    ):
        if name not in sources:
            continue
        path = folder / f"{module.rsplit('.', 1)[-1]}.py"
        path.write_text(sources[name])
        spec = importlib.util.spec_from_file_location(module, path)
        loaded = importlib.util.module_from_spec(spec)
        sys.modules[module] = loaded
        spec.loader.exec_module(loaded)
        modules[name] = loaded
    return modules


# ---- data and tdoku ---------------------------------------------------------------------------------


def read_set(path: str, cap: int | None) -> tuple[list[GridPuzzle], list[int]]:
    """The puzzles of a data file (first `cap`) and their solution counts, capped at 2."""
    text = (DATA / path).read_text()
    lines = [line for _, line in content_lines(text)][:cap]
    puzzles = [entry.puzzle for entry in read_text(text)][:cap]
    return puzzles, [min(int(line.split(":")[1]), 2) for line in lines]


def tdoku_file(path: str, cap: int | None, folder: Path) -> tuple[Path, int]:
    """The data file without comment lines, cut to `cap` puzzles, as run_benchmark reads it; its size."""
    lines = [line for line in (DATA / path).read_text().splitlines() if line and not line.startswith("#")][:cap]
    out = folder / Path(path).name
    out.write_text("\n".join(lines) + "\n")
    return out, len(lines)


def run_tdoku(binary: str, path: Path, size: int, seconds: float) -> tuple[float, float]:
    """Run tdoku: its µs per puzzle and guesses per puzzle on one thread (limit 2: a uniqueness proof, as ours)."""
    argv = [binary, "-s", "tdoku", "-t", str(seconds), "-w", "1", "-r", "0", "-n", str(size), str(path)]
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    row = [line for line in out.splitlines() if line.startswith("|tdoku")][-1]
    cells = [c.strip() for c in row.strip("|").split("|")]
    return float(cells[2]), float(cells[4])


def run_tdoku_cpu(binary: str, path: Path, size: int, seconds: float) -> tuple[float, float]:
    """CPU µs per puzzle of tdoku (its reported time times its process's CPU time over wall time), its guesses."""
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    micro, guesses = run_tdoku(binary, path, size, seconds)
    after, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter() - start
    share = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / wall
    return micro * min(share, 1.0), guesses


# ---- timing ------------------------------------------------------------------------------------------


def per_puzzle(run: Callable[[], object], puzzles: int, seconds: float) -> tuple[float, object]:
    """µs per puzzle of `run` (one pass over the set), passes repeated for at least `seconds`; what it returned."""
    passes = 0
    start = time.perf_counter()
    while True:
        out = run()
        passes += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / (passes * puzzles) * 1e6, out


def after_solve(puzzles: list[GridPuzzle]) -> tuple[list[int], list[int], list[int]]:
    """cpmodels.solve(limit=2) on each puzzle (the checker included): counts, nodes, guesses (results not kept)."""
    counts, nodes, guesses = [], [], []
    for p in puzzles:
        result = solve(p, backend="backtrack", limit=2)
        counts.append(result.count)
        nodes.append(result.stats["nodes"])
        guesses.append(result.stats["guesses"])
    return counts, nodes, guesses


def before_solve(before: ModuleType, explain: Callable, puzzles: list[GridPuzzle]) -> tuple[list[int], list[int]]:
    """The engine before as solve() ran it: its backend's solve(limit=2), then its checker on every grid."""
    engine = before.BacktrackBackend()
    counts, nodes = [], []
    for p in puzzles:
        result = engine.solve(p, limit=2)
        for grid in result.solutions:
            if explain(p, grid):
                raise SystemExit(f"the engine before returned a wrong grid: {explain(p, grid)}")
        counts.append(result.count)
        nodes.append(result.stats["nodes"])
    return counts, nodes


def sudoku_section(
    args: argparse.Namespace, before: ModuleType, explain: Callable, folder: Path, previous: ModuleType | None
) -> None:
    """Section 1: the 9x9 sets, every method and tdoku once per repeat."""
    print("## 1. 9x9 uniqueness proofs (limit 2), µs per puzzle (mean over the set), best of the repeats\n")
    for label, path, cap in SETS:
        puzzles, expected = read_set(path, cap)
        givens = np.array([p.givens for p in puzzles], np.int64)
        tfile, tsize = tdoku_file(path, cap, folder)
        template = puzzles[0]
        many = backtrack.solve_many
        methods: dict[str, Callable[[], object]] = {
            "solve()": partial(after_solve, puzzles),
            "solve_many jobs=1": partial(many, puzzles, limit=2, jobs=1),
            "solve_many jobs=2": partial(many, puzzles, limit=2, jobs=2),
            f"solve_many jobs=1 probe={PROBE}": partial(many, puzzles, limit=2, jobs=1, probe=PROBE),
            "before: solve() (backend + checker)": partial(before_solve, before, explain, puzzles),
            "before: solve_batch threads=1": partial(before.solve_batch, template, givens, limit=2, threads=1),
        }
        if previous is not None:
            methods[f"previous ({args.previous_rev}): solve_many jobs=1"] = partial(
                previous.solve_many, puzzles, limit=2, jobs=1
            )
        times: dict[str, list[float]] = {name: [] for name in [*methods, "tdoku"]}
        outputs: dict[str, object] = {}
        guesses = 0.0
        for _ in range(args.repeats):
            for name, run in methods.items():
                micro, out = per_puzzle(run, len(puzzles), args.pass_seconds)
                times[name].append(micro)
                outputs[name] = out
            if args.tdoku:
                micro, guesses = run_tdoku(args.tdoku, tfile, tsize, args.tdoku_seconds)
                times["tdoku"].append(micro)
        nodes = check_outputs(label, outputs, expected)
        print(f"### {label} ({len(puzzles)} puzzles)\n")
        print(
            "| method | µs/puzzle | / tdoku (best / best) | / tdoku (median of repeats) | values tried / puzzle "
            "| guesses / puzzle | guesses / tdoku's | probes / puzzle |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for name, values in times.items():
            if not values:
                continue
            tdoku = times["tdoku"]
            ratio = statistics.median(v / t for v, t in zip(values, tdoku, strict=True)) if tdoku else float("nan")
            best = min(values) / min(tdoku) if tdoku else float("nan")
            nan = float("nan")
            tried, ours, probes = nodes.get(name, (nan, guesses, 0.0) if name == "tdoku" else (nan, nan, nan))
            versus = ours / guesses if guesses else nan
            print(
                f"| {name} | {min(values):.1f} | {best:.2f} | {ratio:.2f} | {tried:.2f} | {ours:.2f} | {versus:.2f} "
                f"| {probes:.2f} |"
            )
        print()
    print("Values tried: our `nodes` stat (every value the search commits to, the last one of a cell included);")
    print("guesses: our `guesses` stat (values tried while another value of their cell was left), one per binary")
    print("branch as tdoku counts its guesses (nan: the engine before has no such stat).")
    print("Counts checked against the files: 0 mismatches.\n")


def check_outputs(label: str, outputs: dict[str, object], expected: list[int]) -> dict[str, tuple[float, float, float]]:
    """Every method's counts against the file's; (values tried, guesses, probes) per puzzle for each method."""
    nodes: dict[str, tuple[float, float, float]] = {}
    for name, out in outputs.items():
        guessed = float("nan")
        if isinstance(out, tuple):
            counts, tried, *rest = out
            probes = 0.0
            if rest:
                guessed = float(np.mean(rest[0]))
        else:
            counts, tried = out.counts.tolist(), out.nodes.tolist()
            probes = float(np.mean(out.probes)) if getattr(out, "probes", None) is not None else 0.0
            if getattr(out, "guesses", None) is not None:
                guessed = float(np.mean(out.guesses))
        if list(counts) != expected:
            bad = sum(a != b for a, b in zip(counts, expected, strict=False))
            raise SystemExit(f"MISMATCH {label} {name}: {bad} counts differ from the file's")
        nodes[name] = (float(np.mean(tried)), guessed, probes)
    return nodes


# ---- overhead -----------------------------------------------------------------------------------------


def overhead_section(args: argparse.Namespace, before: ModuleType, explain: Callable) -> None:
    """Section 2: one solve() on a 17-clue puzzle, split: kernel on a prepared puzzle, checker, the rest."""
    puzzles, _ = read_set("sudoku9/17clue_every4th.txt", args.overhead_puzzles)
    from cpmodels.grid import explain_violation

    engine = backtrack.BacktrackBackend()
    old_engine = before.BacktrackBackend()
    old_kernel = before._kernel()
    search = backtrack.native_search()

    def new_kernel(p: GridPuzzle) -> float:
        shape = backtrack.compile_puzzle(p)
        work = backtrack._one_puzzle_workspace(shape)
        work.givens_bytes[:] = bytes(p.givens)
        work.a[backtrack.A_OPTIONS] = engine.options
        work.a[backtrack.A_LIMIT] = work.a[backtrack.A_KEEP] = 2
        work.a[backtrack.A_MAX_NODES] = 1 << 40
        start = time.perf_counter()
        search(work.address)
        return time.perf_counter() - start

    def before_kernel(p: GridPuzzle) -> float:
        compiled = before.compile_puzzle(p)
        starts = compiled.masks[None, :]
        arrays = before._search_arrays(old_kernel, compiled, starts, 2)
        start = time.perf_counter()
        old_kernel.run_search(compiled.n, compiled.structure, compiled.tuple_bits, starts, *arrays, 2, 2, 1 << 40)
        return time.perf_counter() - start

    def timed(f: Callable[[], object]) -> float:
        start = time.perf_counter()
        f()
        return time.perf_counter() - start

    rows: dict[str, list[float]] = {}
    for key in ("kernel", "build_s", "backend", "checker", "solve"):
        rows[key] = []
        rows["before " + key] = []
    for _ in range(args.repeats):
        for p in puzzles:
            rows["kernel"].append(new_kernel(p))
            result = engine.solve(p, limit=2)
            rows["build_s"].append(result.stats["build_s"])
            rows["backend"].append(timed(lambda p=p: engine.solve(p, limit=2)))
            rows["checker"].append(timed(lambda p=p, g=result.solutions[0]: explain_violation(p, g)))
            rows["solve"].append(timed(lambda p=p: solve(p, backend="backtrack", limit=2)))
            rows["before kernel"].append(before_kernel(p))
            old = old_engine.solve(p, limit=2)
            rows["before build_s"].append(old.stats["build_s"])
            rows["before backend"].append(timed(lambda p=p: old_engine.solve(p, limit=2)))
            rows["before checker"].append(timed(lambda p=p, g=old.solutions[0]: explain(p, g)))
            rows["before solve"].append(timed(lambda p=p: before_solve(before, explain, [p])))
    med = {k: statistics.median(v) * 1e6 for k, v in rows.items()}
    print(f"## 2. One solve() on a 17-clue puzzle (first {len(puzzles)}, median µs per puzzle)\n")
    print(
        "| | kernel on a prepared puzzle | build_s (shape found, givens loaded) | backend.solve() | checker "
        "| solve() | solve() / kernel |"
    )
    print("|---|---|---|---|---|---|---|")
    for who, prefix in (("before", "before "), ("after", "")):
        k, b, e, c, s = (med[prefix + x] for x in ("kernel", "build_s", "backend", "checker", "solve"))
        print(f"| {who} | {k:.1f} | {b:.1f} | {e:.1f} | {c:.1f} | {s:.1f} | {s / k:.2f} |")
    print()
    for who, prefix in (("before", "before "), ("after", "")):
        k, e, c, s = (med[prefix + x] for x in ("kernel", "backend", "checker", "solve"))
        print(
            f"- {who}: of solve()'s {s:.1f} µs, kernel {k:.1f} ({k / s:.0%}), checker {c:.1f} ({c / s:.0%}), "
            f"the backend's Python around the kernel {e - k:.1f} ({(e - k) / s:.0%}), solve()'s own {s - e - c:.1f} "
            f"({(s - e - c) / s:.0%})"
        )
    print()


# ---- start-up -------------------------------------------------------------------------------------------


def wall(argv: list[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(argv, capture_output=True, check=True, env=env, cwd=REPO)
    return time.perf_counter() - start


def importtime(module: str) -> float:
    """Cumulative ms of importing `module`, from python -X importtime."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"], capture_output=True, text=True, cwd=REPO
    )
    line = [ln for ln in done.stderr.splitlines() if ln.rstrip().endswith(f"| {module}")][-1]
    return int(line.split("|")[1]) / 1000


def startup_section(args: argparse.Namespace) -> None:
    """Section 3: import and kernel load, cold and warm, and a whole command."""
    puzzle = read_set("sudoku9/17clue_every4th.txt", 1)[0][0]
    line = "".join(str(v) if v else "." for v in puzzle.givens)
    load = (
        "import time; t = time.perf_counter(); import cpmodels.backends.backtrack as b; i = time.perf_counter(); "
        "b.warm_up(); w = time.perf_counter(); import sys; "
        "print(f'{i - t:.3f} {w - i:.3f} {int(\"numba\" in sys.modules)}')"
    )
    command = [sys.executable, "-m", "cpmodels", "solve", line, "--backend", "backtrack"]
    print(f"## 3. Start-up (PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', 'unset')})\n")
    print(
        "| | import backtrack (s) | load or compile the kernel + tiny solve (s) | numba imported "
        "| `cpmodels solve` command (s) |"
    )
    print("|---|---|---|---|---|")
    cases: list[tuple[str, str | None]] = [("warm", None)]
    if not args.quick:
        cases.insert(0, ("cold (empty NUMBA_CACHE_DIR)", "cold"))
    for label, kind in cases:
        best: list[tuple[float, float, str, float]] = []
        for _ in range(1 if kind else args.startup_runs):
            env = dict(os.environ)
            if kind:
                env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench_native_cold_")
            out = subprocess.run([sys.executable, "-c", load], capture_output=True, text=True, env=env, cwd=REPO)
            imported, loaded, numba = out.stdout.split()
            if kind:  # the cold run above filled that cache: the command alone, cold, needs another empty one
                env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench_native_cold_")
            best.append((float(imported), float(loaded), numba, wall(command, env)))
        imp, loaded, numba, cmd = min(best, key=lambda row: row[1] + row[3])
        print(f"| {label} | {imp:.3f} | {loaded:.3f} | {'yes' if numba == '1' else 'no'} | {cmd:.2f} |")
    print()
    print(
        "`python -X importtime -c 'import cpmodels.backends.backtrack'`: "
        f"{importtime('cpmodels.backends.backtrack'):.0f} ms cumulative"
    )
    print()


# ---- other families --------------------------------------------------------------------------------------


def families_section(args: argparse.Namespace, before: ModuleType) -> None:
    """Section 4: 16x16, Mathdoku 7x7 and QWH order 30, before and after, puzzle by puzzle interleaved."""
    print("## 4. Other families, before and after (solve(limit=2) through each backend, ms per puzzle)\n")
    print(
        "| set | puzzles | time limit s | before mean ms | after mean ms | after / before (median per puzzle) "
        f"| after probe={PROBE} mean ms | probe={PROBE} / before | values tried before / after / probe={PROBE} "
        f"| timeouts before / after / probe={PROBE} |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    specs = (
        ("gecode_16x16", "sudoku_large/gecode_16x16.txt", None if not args.quick else 10, 10.0, args.repeats),
        ("arithmatrix_7x7", "kenken/arithmatrix_7x7.txt", 300 if not args.quick else 30, 10.0, args.repeats),
        ("pesant_qwh_o30", "qwh/pesant_qwh_o30.txt", args.qwh, args.qwh_limit, 1),
    )
    new, old = backtrack.BacktrackBackend(), before.BacktrackBackend()
    probing = backtrack.BacktrackBackend(probe=PROBE)
    for label, path, cap, limit, repeats in specs:
        puzzles = [entry.puzzle for entry in read_text((DATA / path).read_text())][:cap]
        for p in puzzles:  # compile every shape and cage table once, untimed
            new.solve(p, limit=1, time_limit=0.01)
            old.solve(p, limit=1, time_limit=0.01)
        engines = (old, new, probing)
        times: list[list[list[float]]] = [[[] for _ in puzzles] for _ in engines]
        nodes: list[list[int]] = [[] for _ in engines]
        timeouts = [0 for _ in engines]
        for rep in range(repeats):
            for k, p in enumerate(puzzles):
                for e, engine in enumerate(engines):
                    start = time.perf_counter()
                    result = engine.solve(p, limit=2, time_limit=limit)
                    times[e][k].append(time.perf_counter() - start)
                    if rep == 0:
                        nodes[e].append(result.stats["nodes"])
                        timeouts[e] += result.status == "timeout"
        best = [[min(t) * 1e3 for t in per_engine] for per_engine in times]
        ratios = [statistics.median(a / b for a, b in zip(best[e], best[0], strict=True)) for e in (1, 2)]
        print(
            f"| {label} | {len(puzzles)} | {limit:g} | {statistics.mean(best[0]):.2f} "
            f"| {statistics.mean(best[1]):.2f} | {ratios[0]:.2f} | {statistics.mean(best[2]):.2f} | {ratios[1]:.2f} "
            f"| {statistics.mean(nodes[0]):.1f} / {statistics.mean(nodes[1]):.1f} / {statistics.mean(nodes[2]):.1f} "
            f"| {timeouts[0]} / {timeouts[1]} / {timeouts[2]} |"
        )
    print()


# ---- the kernel alone, engines side by side ------------------------------------------------------------------


def kernel_section(args: argparse.Namespace, engines: dict[str, ModuleType], folder: Path) -> None:
    """Section 5: each engine's kernel on the 9x9 sets in thread CPU time, tdoku's CPU between trials; families.

    The 9x9 sets go through solve_givens (one thread, limit 2, unchecked: the kernel and the thin wrapper
    around it), the engines alternating trial by trial (the order reversed every other trial), each figure
    the best trial; the other families through each engine's BacktrackBackend().solve(limit=2), puzzle by
    puzzle interleaved, best of the repeats (QWH order 30 once, under --qwh-limit: values tried per CPU ms).
    """
    names = list(engines)
    first = names[0]
    print(
        f"## 5. The kernel alone: {', '.join(names)}, thread CPU µs per puzzle, best of {args.kernel_trials} trials\n"
    )
    print(
        "| set | engine | CPU µs / puzzle | / "
        + first
        + " | / tdoku CPU | values tried | guesses | guesses / tdoku's |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for label, path, cap in SETS:
        puzzles, expected = read_set(path, cap)
        givens = np.array([p.givens for p in puzzles], np.uint8)
        tfile, tsize = tdoku_file(path, cap, folder)
        best = {name: float("inf") for name in [*names, "tdoku"]}
        tried: dict[str, tuple[float, float]] = {}
        tdoku_guesses = float("nan")
        for trial in range(args.kernel_trials):
            for name in names if trial % 2 == 0 else names[::-1]:
                start = time.thread_time()
                result = engines[name].solve_givens(puzzles[0], givens, limit=2)
                best[name] = min(best[name], (time.thread_time() - start) / len(puzzles) * 1e6)
                if result.counts.tolist() != expected:
                    raise SystemExit(f"MISMATCH {label} {name}: counts differ from the file's")
                tried[name] = (float(result.nodes.mean()), float(result.guesses.mean()))
            if args.tdoku:
                cpu, tdoku_guesses = run_tdoku_cpu(args.tdoku, tfile, tsize, args.tdoku_seconds)
                best["tdoku"] = min(best["tdoku"], cpu)
        for name in [*names, "tdoku"] if args.tdoku else names:
            nodes, guesses = tried.get(name, (float("nan"), tdoku_guesses))
            ratios = f"{best[name] / best[first]:.3f} | {best[name] / best['tdoku']:.2f}"
            print(
                f"| {label} | {name} | {best[name]:.2f} | {ratios} | {nodes:.2f} | {guesses:.2f} "
                f"| {guesses / tdoku_guesses:.2f} |"
            )
    print()
    kernel_families(args, engines)


def kernel_families(args: argparse.Namespace, engines: dict[str, ModuleType]) -> None:
    """Section 5's families: each engine's solve(limit=2) per puzzle, interleaved, thread CPU time, best repeat."""
    names = list(engines)
    first = names[0]
    print(
        "| set | puzzles | engine | mean CPU ms / puzzle | / " + first + " (median per puzzle) | values tried / puzzle "
        "| values tried per CPU ms | timeouts |"
    )
    print("|---|---|---|---|---|---|---|---|")
    specs = (
        ("gecode_16x16", "sudoku_large/gecode_16x16.txt", None, 10.0, args.repeats),
        ("arithmatrix_7x7", "kenken/arithmatrix_7x7.txt", 300, 10.0, args.repeats),
        ("pesant_qwh_o30", "qwh/pesant_qwh_o30.txt", args.qwh, args.qwh_limit, 1),
    )
    backends = {name: engine.BacktrackBackend() for name, engine in engines.items()}
    for label, path, cap, limit, repeats in specs:
        puzzles = [entry.puzzle for entry in read_text((DATA / path).read_text()) if entry.puzzle][:cap]
        for p in puzzles:  # compile every shape and cage table once, untimed
            for backend in backends.values():
                backend.solve(p, limit=1, time_limit=0.01)
        times = {name: [float("inf")] * len(puzzles) for name in names}
        nodes = {name: [0] * len(puzzles) for name in names}
        timeouts = dict.fromkeys(names, 0)
        for rep in range(repeats):
            for k, p in enumerate(puzzles):
                for name in names if (rep + k) % 2 == 0 else names[::-1]:
                    start = time.thread_time()
                    result = backends[name].solve(p, limit=2, time_limit=limit)
                    times[name][k] = min(times[name][k], time.thread_time() - start)
                    if rep == 0:
                        nodes[name][k] = result.stats["nodes"]
                        timeouts[name] += result.status == "timeout"
        for name in names:
            ratio = statistics.median(a / b for a, b in zip(times[name], times[first], strict=True))
            print(
                f"| {label} | {len(puzzles)} | {name} | {statistics.mean(times[name]) * 1e3:.3f} | {ratio:.3f} "
                f"| {statistics.mean(nodes[name]):.1f} | {sum(nodes[name]) / sum(times[name]) / 1e3:.1f} "
                f"| {timeouts[name]} |"
            )
    print()


def machine() -> None:
    model = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    name = next((ln.split(":", 1)[1].strip() for ln in model.splitlines() if ln.startswith("Model name")), "?")
    print(f"Machine: {name}, nproc {os.cpu_count()}, {platform.machine()}, Python {platform.python_version()}")
    print(f"Load: `uptime` {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}\n")


def before_sections(args: argparse.Namespace, folder: Path) -> None:
    """Sections 1, 2 and 4 (those asked for), with the engine before and the previous one loaded."""
    kept = Path(tempfile.gettempdir()) / f"bench_native_before_{args.before_rev}"  # numba's cache of it stays
    before, explain = load_before(args.before_rev, kept)
    previous = None
    if args.previous_rev:
        folder_previous = Path(tempfile.gettempdir()) / f"bench_native_previous_{args.previous_rev}"
        previous, _ = load_before(args.previous_rev, folder_previous, "previous")
        previous.warm_up()
    start = time.perf_counter()
    before.BacktrackBackend().warm_up()
    loaded_before = time.perf_counter() - start
    start = time.perf_counter()
    backtrack.warm_up()
    print(
        f"Kernel loads in this process: before {loaded_before:.2f} s (numba, its cache in {kept}), "
        f"after {time.perf_counter() - start:.2f} s.\n"
    )
    if "1" in args.sections:
        sudoku_section(args, before, explain, folder, previous)
    if "2" in args.sections:
        overhead_section(args, before, explain)
    if "4" in args.sections:
        families_section(args, before)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--tdoku", default="/tmp/tdoku/build/run_benchmark", help="run_benchmark binary ('' to skip)")
    p.add_argument("--tdoku-seconds", type=float, default=1.0)
    p.add_argument("--pass-seconds", type=float, default=0.5, help="each method repeats whole passes this long")
    p.add_argument("--before-rev", default="5138382", help="git revision of the engine before")
    p.add_argument(
        "--previous-rev", default="d51d9ef", help="a later revision whose solve_many joins section 1 ('' to skip)"
    )
    p.add_argument("--overhead-puzzles", type=int, default=1000)
    p.add_argument("--startup-runs", type=int, default=5)
    p.add_argument("--qwh", type=int, default=6, help="QWH order-30 instances (the first ones)")
    p.add_argument("--qwh-limit", type=float, default=5.0, help="seconds per QWH solve")
    p.add_argument("--sections", default="12345")
    p.add_argument("--kernel-trials", type=int, default=11, help="alternating trials of section 5")
    p.add_argument("--head-rev", default="HEAD", help="git revision section 5 compares the working tree with")
    p.add_argument(
        "--candidate", action="append", default=[], metavar="NAME=DIR",
        help="section 5 also runs the engine in DIR (its backtrack.py and backtrack_kernel.py), as NAME",
    )  # fmt: skip
    p.add_argument("--quick", action="store_true")
    args = p.parse_args()
    if args.quick:
        args.repeats, args.overhead_puzzles, args.startup_runs, args.qwh, args.qwh_limit = 1, 100, 1, 1, 1.0
        args.pass_seconds, args.tdoku_seconds, args.kernel_trials = 0.0, 1.0, 1
    if args.tdoku and not Path(args.tdoku).exists():
        args.tdoku = ""
    print(f"`python benchmarks/bench_native.py {' '.join(sys.argv[1:])}`\n")
    machine()
    folder = Path(tempfile.mkdtemp(prefix="bench_native_"))
    if set(args.sections) & set("124"):
        before_sections(args, folder)
    if "3" in args.sections:
        startup_section(args)
    if "5" in args.sections:
        engines = {
            args.head_rev: load_before(args.head_rev, Path(tempfile.gettempdir()) / "bench_native_head", "head")[0]
        }
        engines["working tree"] = backtrack
        for k, spec in enumerate(args.candidate):
            name, _, where = spec.rpartition("=")
            engines[name or where] = load_folder(Path(where), f"candidate{k}")
        for engine in engines.values():
            engine.warm_up()
        kernel_section(args, engines, folder)
    machine()


if __name__ == "__main__":
    main()
