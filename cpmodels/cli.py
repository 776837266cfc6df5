"""The `cpmodels` command: solve, count and check puzzles given inline or in files.

Exit codes: 0 solved (and unique, when uniqueness was asked), 1 internal error, 2 bad input or usage,
3 more than one solution, 4 no solution, 5 time limit reached. For a file of many puzzles the
code is that of the worst outcome, in the order 2, 5, 4, 3, 0.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from tqdm import tqdm

from . import sudoku
from .backends import BACKENDS
from .errors import CpModelsError
from .formats import Entry
from .solve import solve

EXIT = {"unique": 0, "solved": 0, "multiple": 3, "none": 4, "timeout": 5, "bad input": 2}
SEVERITY = ["bad input", "timeout", "none", "multiple", "unique", "solved"]


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except CpModelsError as e:
        print(f"cpmodels: {e}", file=sys.stderr)
        return EXIT["bad input"]


def _parser() -> argparse.ArgumentParser:
    """The argument parser with its three subcommands."""
    parser = argparse.ArgumentParser(prog="cpmodels", description=__doc__.split("\n")[0], epilog=_exit_help(),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(required=True, metavar="COMMAND")
    for name, run, help_ in (("solve", _run_solve, "solve puzzles and say whether each is unique"),
                             ("count", _run_count, "count the solutions of puzzles up to a limit"),
                             ("check", _run_check, "prove every puzzle in a file unique, with a summary")):
        p = sub.add_parser(name, help=help_, description=help_)
        p.set_defaults(run=run)
        p.add_argument("puzzle", metavar="PUZZLE_OR_FILE", help="a puzzle written inline, or a file of puzzles")
        p.add_argument("--backend", default="cpsat", choices=sorted(BACKENDS), help="search engine (default: cpsat)")
        p.add_argument("--time-limit", type=float, default=None, metavar="S", help="seconds per puzzle")
        p.add_argument("--box", type=_box_argument, default=None, metavar="RxC",
                       help="Sudoku boxes of R rows and C columns (default: the most square shape, 6 -> 2x3)")
        p.add_argument("--from", dest="input_format", default="auto", choices=("auto", *sudoku.FORMATS),
                       help="input format (default: detected)")
        if name == "solve":
            p.add_argument("--format", default="grid", choices=("line", "grid", "json"), help="output format")
            p.add_argument("--first", action="store_true", help="stop at the first solution (no uniqueness proof)")
        if name == "count":
            p.add_argument("--limit", type=int, default=1000, metavar="N", help="stop counting at N (default 1000)")
    return parser


def _box_argument(text: str) -> tuple[int, int]:
    """--box RxC as (rows, columns), with argparse's usage error on bad text."""
    try:
        return sudoku.parse_box(text)
    except CpModelsError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _exit_help() -> str:
    """The exit codes, for --help."""
    return "exit codes: 0 solved/unique, 2 bad input, 3 multiple solutions, 4 no solution, 5 timeout, 1 internal error"


def _entries(args: argparse.Namespace) -> list[Entry]:
    """The puzzles named on the command line: a file's contents, or the argument itself."""
    path = Path(args.puzzle)
    if path.is_file():
        text, source = path.read_text(encoding="utf-8", errors="replace"), str(path)
    elif "\n" not in args.puzzle and ("/" in args.puzzle or path.suffix):
        raise CpModelsError(f"{args.puzzle}: no such file")
    else:
        text, source = args.puzzle, "<argument>"
    return sudoku.read_text(text, source, args.input_format, args.box)


def _worst(outcomes: list[str]) -> int:
    """The exit code of the most severe outcome."""
    return EXIT[min(outcomes, key=SEVERITY.index)] if outcomes else EXIT["bad input"]


def _report_error(entry: Entry) -> str:
    """Print a bad entry's message on stderr; returns the outcome word."""
    print(f"cpmodels: {entry.error}", file=sys.stderr)
    return "bad input"


def _run_solve(args: argparse.Namespace) -> int:
    """`cpmodels solve`: print each puzzle's solution and whether it is unique."""
    outcomes = []
    for entry in _entries(args):
        if entry.error:
            outcomes.append(_report_error(entry))
            continue
        puzzle = entry.puzzle
        result = solve(puzzle, backend=args.backend, limit=1 if args.first else 2, time_limit=args.time_limit)
        outcomes.append(result.status)
        print(f"# {puzzle.name}: {result.status} ({result.wall_s * 1000:.1f} ms, {args.backend})")
        for k, grid in enumerate(result.solutions):
            if k == 1:
                print("# a second solution:")
            print(_format(grid, puzzle, args.format))
    return _worst(outcomes)


def _format(grid, puzzle, fmt: str) -> str:
    """A solution grid in the output format asked for."""
    box = sudoku.box_of(puzzle)
    if fmt == "line":
        return sudoku.format_line(grid)
    if fmt == "json":
        return sudoku.format_json(grid, box)
    return sudoku.format_grid(grid, box)


def _run_count(args: argparse.Namespace) -> int:
    """`cpmodels count`: print each puzzle's number of solutions up to --limit."""
    if args.limit < 1:
        raise CpModelsError(f"--limit must be at least 1, not {args.limit}")
    outcomes = []
    for entry in _entries(args):
        if entry.error:
            outcomes.append(_report_error(entry))
            continue
        result = solve(entry.puzzle, backend=args.backend, limit=args.limit, time_limit=args.time_limit)
        exact = result.complete
        shown = str(result.count) if exact else f">={result.count}"
        if result.status == "timeout" or (not exact and result.count < args.limit):
            shown += " (time limit reached)"
            outcomes.append("timeout")
        else:
            outcomes.append("none" if result.count == 0 else "unique" if result.count == 1 else "multiple")
        print(shown if len(outcomes) == 1 and not _many(args) else f"{entry.puzzle.name}: {shown}")
    return _worst(outcomes)


def _many(args: argparse.Namespace) -> bool:
    """Whether the input is a file (so each output line names its puzzle)."""
    return Path(args.puzzle).is_file()


def _run_check(args: argparse.Namespace) -> int:
    """`cpmodels check`: prove each puzzle unique; list the others and print a summary table."""
    entries = _entries(args)
    outcomes = []
    for entry in tqdm(entries, desc="checking", unit="puzzle", delay=1.0, disable=None, file=sys.stderr):
        if entry.error:
            outcomes.append(_report_error(entry))
            continue
        result = solve(entry.puzzle, backend=args.backend, limit=2, time_limit=args.time_limit)
        outcomes.append(result.status)
        if result.status != "unique":
            tqdm.write(f"{entry.puzzle.name}: {result.status}")
            if result.status == "multiple":
                tqdm.write(f"  two solutions: {sudoku.format_line(result.solutions[0])}")
                tqdm.write(f"                 {sudoku.format_line(result.solutions[1])}")
    _print_summary(outcomes)
    return _worst(outcomes)


def _print_summary(outcomes: list[str]) -> None:
    """The table of outcome counts."""
    counts = Counter(outcomes)
    print(f"{'outcome':<10} {'puzzles':>8}")
    for word in ("unique", "multiple", "none", "timeout", "bad input"):
        print(f"{word:<10} {counts[word]:>8}")
    print(f"{'total':<10} {len(outcomes):>8}")


def main_exit() -> None:
    """Console-script entry point: run main() and exit with its code."""
    sys.exit(main())
