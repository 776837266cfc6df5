"""Coverage-guided fuzzing of the readers with atheris (libFuzzer): bytes in, entries or a CpModelsError out.

One target per format family; each feeds the fuzzer's bytes, decoded as UTF-8 (invalid bytes replaced, as
no reader sees undecodable text), to cpmodels.formats.read_text in every one of the family's formats in
turn, or to the DLX1 reader. Anything but a CpModelsError is a crash: its reproducer is saved
once per distinct crash (exception type and the innermost cpmodels frame) and the fuzzing goes on.

    pip install atheris        # not a dependency of cpmodels; wheels for CPython 3.11 on x86-64 Linux
    python benchmarks/fuzz/fuzz_read.py sudoku --seconds 60 --out /tmp/fuzz
    python benchmarks/fuzz/fuzz_read.py all --seconds 60 --out /tmp/fuzz    # every target, one after another

Each target runs in a child process (libFuzzer runs once per process and exits without Python's atexit),
which keeps its figures in OUT/summary-<target>.json and libFuzzer's log in OUT/log-<target>.txt.

The seed corpus of each target: the small puzzles the package's writers produce, tests/fixtures,
tests/catalogue (the bad inputs) and the first lines of each file under ../shared/data (--data).
Per target it prints executions per second and the distinct crashes, each with its reproducer's path.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = {
    "auto": ("auto",),
    "sudoku": ("line", "grid"),
    "mathdoku": ("cagelist", "lettergrid", "indexgrid", "oneline", "cellnames", "json"),
    "tatham": ("keen", "solo"),
    "qwh": ("pls", "qwh"),
    "dlx": ("dlx",),
}
"""The targets: each a family of formats (`auto` detects; `dlx` is Knuth's DLX1 reader)."""
SEED_SOURCES = {
    "sudoku": ("fixtures/sudoku", "catalogue/sudoku_line", "catalogue/sudoku_grid", "catalogue/sudoku_integers",
               "catalogue/gecode", "sudoku9", "sudoku_large", "sudoku9_techniques"),
    "mathdoku": ("fixtures/mathdoku", "catalogue/cagelist", "catalogue/lettergrid", "catalogue/indexgrid",
                 "catalogue/oneline", "catalogue/cellnames", "catalogue/json", "kenken"),
    "tatham": ("catalogue/keen", "catalogue/solo"),
    "qwh": ("catalogue/pls", "catalogue/qwh", "qwh"),
    "dlx": ("catalogue/dlx",),
}  # fmt: skip
"""Where each target's seeds come from: folders under tests/ or under the data folder."""
MAX_SEED = 6000


def read_dlx_function():
    """The DLX1 reader of cpmodels, wherever it lives now."""
    import importlib

    for module in ("cpmodels.formats.dlx", "cpmodels.backends.dlx", "cpmodels.dlx"):
        try:
            return importlib.import_module(module).read_dlx
        except (ImportError, AttributeError):
            continue
    raise ImportError("read_dlx not found")


def writer_seeds(family: str) -> list[bytes]:
    """Small valid puzzles of the family, as the package's writers write them."""
    from cpmodels import formats
    from cpmodels.generate import planted_mathdoku, punch, qwh, random_grid
    from cpmodels.sudoku import sudoku_puzzle

    rng = random.Random(1)
    sudokus = [sudoku_puzzle(punch(random_grid(box, rng), 10, rng), box) for box in ((2, 2), (2, 3), (3, 3))]
    mathdokus = [planted_mathdoku(n, rng, 3)[0] for n in (3, 4, 6)]
    latins = [qwh(n, n, rng)[0] for n in (3, 5)]
    puzzles = {"sudoku": sudokus, "mathdoku": mathdokus, "tatham": sudokus + mathdokus, "qwh": latins}
    puzzles["auto"] = sudokus + mathdokus + latins
    out = []
    for puzzle in puzzles.get(family, []):
        for fmt in formats.input_formats():
            try:
                out.append(formats.write_puzzle(puzzle, fmt).encode())
            except Exception:  # noqa: BLE001 - a writer that refuses this puzzle
                continue
    if family == "dlx":
        out.append(b"| a small exact cover\na b c | d\na b\nc d\nb c\na\n")
    return out


def file_seeds(folder: Path) -> list[bytes]:
    """Each file under `folder`: whole if small, else its first content lines (comments and 5 more lines)."""
    out = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if len(data) > MAX_SEED:
            lines = data.splitlines(keepends=True)
            head = [ln for ln in lines if ln.startswith(b"#")][:3]
            body = [ln for ln in lines if not ln.startswith(b"#") and ln.strip()][:5]
            data = b"".join(head + body)[:MAX_SEED]
        out.append(data)
    return out


def build_corpus(family: str, corpus: Path, data: Path) -> int:
    """Write the seeds of `family` into `corpus`; the number written."""
    corpus.mkdir(parents=True, exist_ok=True)
    seeds = writer_seeds(family)
    sources = SEED_SOURCES.get(family) or tuple(s for v in SEED_SOURCES.values() for s in v)
    for source in sources:
        base = ROOT / "tests" if source.split("/")[0] in ("fixtures", "catalogue") else data
        if (base / source).exists():
            seeds += file_seeds(base / source)
    for k, seed in enumerate(seeds):
        (corpus / f"seed-{k:04d}").write_bytes(seed)
    return len(seeds)


def make_target(family: str, crashes: dict, out: Path, counter: list[int], save):
    """The TestOneInput of `family`: any exception but CpModelsError is recorded once per distinct crash.

    `save()` runs on each new crash and every 2000 executions (libFuzzer exits without Python's atexit).
    """
    from cpmodels import formats
    from cpmodels.errors import CpModelsError

    fmts = FAMILIES[family]
    read_dlx = read_dlx_function() if family == "dlx" else None

    def target(data: bytes) -> None:
        counter[0] += 1
        if counter[0] % 2000 == 0:
            save()
        text = data.decode("utf-8", "replace")
        for fmt in fmts:
            read_one(text, fmt, data)

    def read_one(text: str, fmt: str, data: bytes) -> None:
        try:
            if read_dlx is not None:
                read_dlx(text, "fuzz.dlx")
            else:
                formats.read_text(text, "fuzz.txt", fmt)
        except CpModelsError:
            return
        except Exception as e:  # noqa: BLE001 - every other exception is the crash we look for
            frames = [f for f in traceback.extract_tb(e.__traceback__) if "cpmodels" in f.filename]
            where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
            key = f"{type(e).__name__} at {where} ({fmt})"
            if key not in crashes:
                path = out / f"crash-{family}-{len(crashes):02d}"
                path.write_bytes(data)
                crashes[key] = {"reproducer": str(path), "format": fmt, "error": f"{type(e).__name__}: {str(e)[:200]}"}
                print(f"\nNEW CRASH {key}: {crashes[key]['error']} -> {path}", file=sys.stderr, flush=True)
                save()

    return target


def run_target(family: str, seconds: int, out: Path, data: Path) -> None:
    """Fuzz one target for `seconds` in this process, keeping its summary in out/summary-<target>.json."""
    import atheris  # optional: only this script needs it

    with atheris.instrument_imports(include=["cpmodels"]):  # coverage of cpmodels only, not its dependencies
        import cpmodels.formats  # noqa: F401

    corpus = out / f"corpus-{family}"
    seeds = build_corpus(family, corpus, data)
    crashes: dict = {}
    counter = [0]
    start = time.perf_counter()

    def save() -> None:
        elapsed = time.perf_counter() - start
        summary = {"target": family, "seeds": seeds, "seconds": round(elapsed, 1), "executions": counter[0]}
        summary["exec_per_s"] = round(counter[0] / elapsed) if elapsed else 0
        summary["crashes"] = crashes
        (out / f"summary-{family}.json").write_text(json.dumps(summary, indent=1))

    target = make_target(family, crashes, out, counter, save)
    save()
    argv = [sys.argv[0], str(corpus), f"-max_total_time={seconds}", "-max_len=8192", "-print_final_stats=1"]
    argv.append(f"-artifact_prefix={out}/")
    atheris.Setup(argv, target)
    atheris.Fuzz()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("target", choices=(*FAMILIES, "all"))
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--out", type=Path, default=Path("/tmp/cpmodels-fuzz"))
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.child:
        run_target(args.target, args.seconds, args.out, args.data)
        return
    print(f"{'target':<10} {'seeds':>6} {'seconds':>8} {'executions':>11} {'exec/s':>7}  crashes")
    for family in FAMILIES if args.target == "all" else (args.target,):  # libFuzzer runs once per process
        cmd = [sys.executable, __file__, family, "--child", "--seconds", str(args.seconds), "--out", str(args.out)]
        log = args.out / f"log-{family}.txt"
        with log.open("w") as f:
            subprocess.run([*cmd, "--data", str(args.data)], check=False, env=os.environ, stdout=f, stderr=f)
        found = args.out / f"summary-{family}.json"
        if not found.exists():
            print(f"{family:<10} did not run: see {log}")
            continue
        summary = json.loads(found.read_text())
        stats = dict(re.findall(r"^stat::(\w+):\s+(\d+)", log.read_text(errors="replace"), re.MULTILINE))
        if "number_of_executed_units" in stats:  # libFuzzer's own count, exact to the end
            summary["executions"] = int(stats["number_of_executed_units"])
            summary["exec_per_s"] = int(stats["average_exec_per_sec"])
        row = f"{family:<10} {summary['seeds']:>6} {summary['seconds']:>8} {summary['executions']:>11}"
        print(f"{row} {summary['exec_per_s']:>7}  {len(summary['crashes'])}  (libFuzzer's log: {log})")
        for key, crash in summary["crashes"].items():
            print(f"    {key}: {crash['error']}\n      reproducer: {crash['reproducer']}")


if __name__ == "__main__":
    main()
