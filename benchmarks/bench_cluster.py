"""Throughput on a Dask LocalCluster of 1 and 2 workers against one process, and a scaling model to 100 workers.

`check --backend backtrack` and `grade`, against the single-process command; the model from measured
per-chunk and per-puzzle costs.

    python benchmarks/bench_cluster.py [--data ../shared/data] [--puzzles 2000] [--grade 300] [--repeats 3]

Throughput: each command runs as a subprocess on the first N puzzles of 17clue_every4th (check) and of
magictour_top1465 (grade), minus the same command on its first 10 puzzles (process start, imports, connecting),
interleaved over repeats, medians; the cluster runs use clusters started once (workers warm), `--chunk` measured.
Model: the client's cost per puzzle (read, parse, send, write: CPU time in this process), the worker's cost
per puzzle (answer_chunk's own seconds), the cost of a chunk beyond its puzzles (round trip of a 1-puzzle
chunk minus its answer, one in flight) and the scheduler's chunks per second (many empty chunks in flight):
    throughput(W) = min(W * s / (s * w + o), 1 / c, R * s)
for W workers, chunk size s (what cluster.py picks for W), worker cost w per puzzle, chunk overhead o,
client cost c, scheduler rate R. o is a round trip with one chunk in flight (latency included), so the
workers' bound is a lower one.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from functools import partial
from pathlib import Path

from distributed import Client, LocalCluster

from cpmodels import answers, batch, blocks, cluster, explaining, inputs

ROOT = Path(__file__).resolve().parents[1]


def puzzle_file(source: Path, count: int, folder: Path) -> Path:
    """The first `count` puzzle lines of `source` in a file of their own."""
    lines = [line for line in source.read_text().splitlines() if line and not line.startswith("#")][:count]
    path = folder / f"{source.stem}_{count}.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def timed(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the client process) of `cpmodels ARGV` as a subprocess."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cpmodels", *argv], check=False, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def throughput(files: dict[str, tuple[Path, Path, list[str]]], addresses: dict[str, str], repeats: int) -> None:
    """Puzzles a second of each command alone and on each cluster: (whole - 10 puzzles), medians, interleaved."""
    seconds: dict[tuple[str, str], list[float]] = {}
    for _ in range(repeats):
        for name, (whole, ten, argv) in files.items():
            for where, address in {"one process": "", **addresses}.items():
                more = ["--cluster", address] if address else []
                big = timed([argv[0], str(whole), *argv[1:], *more])[0]
                small = timed([argv[0], str(ten), *argv[1:], *more])[0]
                seconds.setdefault((name, where), []).append(big - small)
    print("\n| command | puzzles | where | seconds (whole - 10) | puzzles/s | vs one process |")
    print("|---|---:|---|---:|---:|---:|")
    for name, (whole, _, _) in files.items():
        count = len(whole.read_text().splitlines()) - 10
        alone = statistics.median(seconds[(name, "one process")])
        for where in ("one process", *addresses):
            median = statistics.median(seconds[(name, where)])
            print(f"| {name} | {count} | {where} | {median:.2f} | {count / median:.0f} | {alone / median:.2f}x |")


def client_cost(path: Path) -> float:
    """CPU seconds per puzzle the client spends on a puzzle besides answering it: read, parse, pickle, write."""
    import pickle

    start = time.process_time()
    entries = list(inputs.read_argument(str(path)))
    pickle.loads(pickle.dumps(entries))
    printed = batch.Records(path.with_suffix(".out"), "check", False)
    for k, entry in enumerate(entries, start=1):
        printed.write(k, entry.line, "unique", "")
    return (time.process_time() - start) / len(entries)


def chunk_costs(client: Client, path: Path, answer, block, engines) -> tuple[float, float, float]:
    """(worker seconds per puzzle, seconds of a chunk beyond its puzzles, empty chunks a second the scheduler runs)."""
    entries = list(inputs.read_argument(str(path)))
    client.submit(cluster.answer_chunk, entries[:2], False, answer, block, engines, pure=False).result()  # warm
    said, seconds = client.submit(cluster.answer_chunk, entries, False, answer, block, engines, pure=False).result()
    per_puzzle = seconds / len(said)
    trips = []
    for entry in entries[:50]:
        start = time.perf_counter()
        _, own = client.submit(cluster.answer_chunk, [entry], False, answer, block, engines, pure=False).result()
        trips.append(time.perf_counter() - start - own)
    start = time.perf_counter()
    futures = [client.submit(cluster.answer_chunk, [], False, answer, block, (), pure=False) for _ in range(2000)]
    client.gather(futures)
    rate = len(futures) / (time.perf_counter() - start)
    return per_puzzle, statistics.median(trips), rate


def model(w: float, o: float, c: float, rate: float) -> None:
    """The scaling model's puzzles a second for 1 .. 100 workers, the chunk size cluster.py picks, what bounds it."""
    print(f"\nmodel: w = {w * 1e6:.0f} us/puzzle on a worker, o = {o * 1e3:.1f} ms/chunk, c = {c * 1e6:.0f} us/puzzle")
    print(f"on the client, R = {rate:.0f} chunks/s on the scheduler\n")
    print("| workers | chunk (puzzles) | puzzles/s | bound |")
    print("|---:|---:|---:|---|")
    for workers in (1, 2, 4, 8, 16, 32, 64, 100):
        seconds = max(cluster.CHUNK_SECONDS, workers / cluster.CHUNKS_PER_SECOND)
        size = max(1, min(cluster.MOST, round(seconds / w)))
        bounds = {"workers": workers * size / (size * w + o), "client": 1 / c, "scheduler": rate * size}
        bound = min(bounds, key=bounds.__getitem__)
        print(f"| {workers} | {size} | {bounds[bound]:.0f} | {bound} |")


def main() -> None:
    """Measure, print the markdown tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--puzzles", type=int, default=2000)
    parser.add_argument("--grade", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--model-only", action="store_true", help="skip the throughput runs")
    args = parser.parse_args()
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / "bench_cluster"
    folder.mkdir(exist_ok=True)
    sudoku9 = args.data / "sudoku9"
    check = puzzle_file(sudoku9 / "17clue_every4th.txt", args.puzzles + 10, folder)
    grade = puzzle_file(sudoku9 / "magictour_top1465.txt", args.grade + 10, folder)
    files = {
        "check --backend backtrack": (check, puzzle_file(check, 10, folder), ["check", "--backend", "backtrack"]),
        "grade": (grade, puzzle_file(grade, 10, folder), ["grade"]),
    }
    print(f"nproc {os.cpu_count()}, load average {os.getloadavg()[0]:.2f} at the start")
    quiet = {"threads_per_worker": 1, "processes": True, "dashboard_address": ":0", "silence_logs": 50}
    with LocalCluster(n_workers=1, **quiet) as one, LocalCluster(n_workers=2, **quiet) as two:
        if not args.model_only:
            places = {"local 1 worker": one.scheduler_address, "local 2 workers": two.scheduler_address}
            throughput(files, places, args.repeats)
        with Client(one) as client:
            check_answer = partial(answers.check_answer, engines=("backtrack",), time_limit=None, stats=False)
            check_answer = partial(check_answer, hide_operators=False)
            block = partial(blocks.check_block, jobs=1, hide_operators=False)
            w, o, rate = chunk_costs(client, check, check_answer, block, ("backtrack",))
            grading = partial(explaining.grade_answer, fmt="tsv", levels=Counter())
            w_grade, _, _ = chunk_costs(client, grade, grading, None, ("backtrack",))
    c = client_cost(check)
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")
    print("\ncheck --backend backtrack (17-clue):")
    model(w, o, c, rate)
    print("\ngrade (magictour_top1465):")
    model(w_grade, o, c, rate)


if __name__ == "__main__":
    main()
