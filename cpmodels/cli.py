"""The `cpmodels` command: solve, count, check, convert and generate puzzles, given inline or in files.

Exit codes: 0 solved (and unique, when uniqueness was asked), 1 internal error, 2 bad input or usage,
3 more than one solution, 4 no solution, 5 time limit reached, 6 engines disagree (check). For a
file of many puzzles the code is that of the worst outcome, in the order 6, 2, 5, 4, 3, 0.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import signal
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from tqdm import tqdm

from . import __version__, formats, mathdoku, sudoku
from .backends import BACKENDS, SolveResult, format_stats
from .crosscheck import CrossCheck, cross_check
from .errors import CpModelsError, ParseError
from .formats import Entry
from .generate import FAMILIES, generate
from .grid import GridPuzzle, cells_named
from .solve import solve

EXIT = {
    "unique": 0,
    "solved": 0,
    "multiple": 3,
    "none": 4,
    "timeout": 5,
    "bad input": 2,
    "disagree": 6,
    "closed pipe": 141,
}
SEVERITY = ["disagree", "bad input", "timeout", "none", "multiple", "unique", "solved"]
EXIT_HELP = (
    "exit codes: 0 solved/unique, 2 bad input, 3 multiple solutions, 4 no solution, 5 timeout, "
    "6 engines disagree (check), 130 Ctrl-C, 143 terminated (what finished is printed), 141 output pipe closed, "
    "1 internal error"
)
MAX_SECONDS = 366 * 86400.0
"""The longest --time-limit: a year; longer is no limit at all, and leaving the option out says so."""
MAX_LIMIT = 2**62
"""The largest --limit: counts beyond it do not fit the native engines' 64-bit counters."""
CHECK_ENGINES = ("cpsat", "dlx", "backtrack")
"""The engines `check` cross-checks by default: independent, and each fast enough for files of puzzles."""
COMMANDS = {
    "solve": "solve puzzles and say whether each is unique (a second solution is printed when there is one)",
    "count": "count the solutions of puzzles up to a limit",
    "check": "prove every puzzle unique, with a summary table; a second solution is the witness when not",
    "convert": "write puzzles in another format",
}
GENERATE_HELP = "generate puzzles: Sudoku and Mathdoku with one solution, QWH at a chosen number of holes"
DEFAULT_OUTPUT = {"sudoku": "line", "mathdoku": "oneline", "qwh": "qwh"}
RAW = argparse.RawDescriptionHelpFormatter
"""Help that keeps the line breaks of its epilog (the table of formats)."""


def _formats_epilog(command: str) -> str:
    """A subcommand's help epilog: the formats it reads or writes, one a line with its families, then exit codes."""
    if command == "generate":
        heading, names = "output formats:", formats.output_formats()
    elif command == "convert":
        heading, names = "formats (--from: detected unless given; --to: any):", tuple(formats.FORMATS)
    else:
        heading, names = "input formats (detected unless --from gives one):", formats.input_formats()
    return f"{heading}\n{formats.help_table(names)}\n\n{EXIT_HELP}"


class Interrupted(Exception):
    """Ctrl-C or SIGTERM arrived: stop, keep what finished, exit with `code` (128 + the signal)."""

    def __init__(self, code: int, why: str) -> None:
        super().__init__(why)
        self.code = code


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = _parser().parse_args(argv)
    outcomes: list[str] = []
    try:
        with _signals_interrupt():
            _check_options(args)
            _warm_up(_engines(args))
            return args.run(args, outcomes)
    except CpModelsError as e:
        print(f"cpmodels: {e}", file=sys.stderr)
        return EXIT["bad input"]
    except Interrupted as e:
        return _stopped(args, outcomes, e)


def main_exit() -> None:
    """Console-script entry point: run main() and exit with its code (quietly when the reader of stdout leaves)."""
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = EXIT["closed pipe"]
    sys.exit(code)


@contextmanager
def _signals_interrupt() -> Iterator[None]:
    """Within the block, Ctrl-C and SIGTERM raise Interrupted (exit 130 and 143) instead of killing the process."""

    def stop(signum: int, _frame: object) -> None:
        raise Interrupted(128 + signum, "interrupted" if signum == signal.SIGINT else "terminated")

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _stopped(args: argparse.Namespace, outcomes: list[str], stop: Interrupted) -> int:
    """Report an interrupted run: what finished (check's summary table), one line on stderr; the exit code."""
    tqdm.write("", file=sys.stderr)
    if args.command == "check":
        _print_summary(outcomes)
    sys.stdout.flush()
    print(f"cpmodels: {stop}; {len(outcomes)} puzzle(s) finished before it", file=sys.stderr)
    return stop.code


def _parser() -> argparse.ArgumentParser:
    """The argument parser with its subcommands."""
    parser = argparse.ArgumentParser(
        prog="cpmodels",
        description=__doc__.split("\n")[0],
        epilog=EXIT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"cpmodels {__version__}")
    sub = parser.add_subparsers(required=True, metavar="COMMAND")
    for name, help_ in COMMANDS.items():
        p = sub.add_parser(name, help=help_, description=help_, epilog=_formats_epilog(name), formatter_class=RAW)
        p.set_defaults(run=globals()[f"_run_{name}"], command=name)
        _add_input_arguments(p, name)
        if name != "convert":
            _add_search_arguments(p)
    _add_generate(sub)
    return parser


def _add_generate(sub: argparse._SubParsersAction) -> None:
    """The `generate` subcommand and its options."""
    p = sub.add_parser(
        "generate",
        help=GENERATE_HELP,
        description=GENERATE_HELP,
        epilog=_formats_epilog("generate"),
        formatter_class=RAW,
    )
    p.set_defaults(run=_run_generate, command="generate")
    p.add_argument("family", choices=FAMILIES, help="what to generate")
    p.add_argument(
        "--order", type=_integer_in(1, 64), default=None, metavar="N", help="order 1..64 (default: 9 for sudoku, 6, 10)"
    )
    p.add_argument("--box", type=_box_argument, default=None, metavar="RxC", help="Sudoku box shape")
    p.add_argument(
        "--holes",
        type=_integer_in(0, 64 * 64),
        default=None,
        metavar="H",
        help="Sudoku: at most H empty cells (default: as many as uniqueness allows); "
        "QWH: exactly H (default: the hardness peak 1.6*n**1.55)",
    )
    p.add_argument("--balanced", action="store_true", help="QWH: as many holes in every row and column")
    p.add_argument(
        "--max-cage", type=_integer_in(1, 64 * 64), default=None, metavar="K", help="Mathdoku: cages of at most K cells"
    )
    p.add_argument("--count", type=_integer_in(0, 10**9), default=1, metavar="N", help="how many puzzles (default 1)")
    p.add_argument("--seed", type=int, default=None, help="random seed, for reproducible puzzles")
    p.add_argument(
        "--to",
        default=None,
        choices=formats.output_formats(),
        metavar="FORMAT",
        help="output format, one of the formats below (default: line, oneline, qwh)",
    )
    p.add_argument("--backend", default="backtrack", choices=sorted(BACKENDS), help="engine proving uniqueness")


def _add_input_arguments(p: argparse.ArgumentParser, command: str) -> None:
    """The puzzle argument and the options that say how to read it (and, for solve/convert, write it)."""
    p.add_argument(
        "puzzle", metavar="PUZZLE_OR_FILE", help="a puzzle written inline, or a file of puzzles (- for standard input)"
    )
    names = formats.input_formats()
    p.add_argument(
        "--from",
        dest="input_format",
        default="auto",
        choices=("auto", *names),
        metavar="FORMAT",
        help="input format, one of the formats below (default: detected)",
    )
    if command == "solve":
        p.add_argument(
            "--format",
            default="grid",
            choices=(*formats.SOLUTION_FORMATS, *names),
            metavar="FORMAT",
            help="output: grid (default), line or json; an input format's name forces the input format",
        )
    else:
        p.add_argument(
            "--format", dest="input_format", choices=("auto", *names), metavar="FORMAT", help="the same as --from"
        )
    if command == "convert":
        p.add_argument(
            "--to",
            required=True,
            choices=formats.output_formats(),
            metavar="FORMAT",
            help="output format, one of the formats below",
        )
    p.add_argument(
        "--box",
        type=_box_argument,
        default=None,
        metavar="RxC",
        help="Sudoku boxes of R rows and C columns (default: the most square shape, 6 -> 2x3)",
    )
    p.add_argument(
        "--hide-operators",
        action="store_true",
        help="Mathdoku: print only cage targets (no-op puzzles); check names the ambiguous cages",
    )


def _add_search_arguments(p: argparse.ArgumentParser) -> None:
    """Options of the commands that search."""
    if p.get_default("command") == "check":
        p.add_argument(
            "--backend",
            default=None,
            choices=sorted(BACKENDS),
            help=f"one engine only (default: cross-check {', '.join(CHECK_ENGINES)})",
        )
        p.add_argument(
            "--backends",
            type=_engine_list,
            default=None,
            metavar="A,B,...",
            help=f"the engines to cross-check, from: {', '.join(sorted(BACKENDS))}",
        )
    else:
        p.add_argument("--backend", default="cpsat", choices=sorted(BACKENDS), help="search engine (default: cpsat)")
    p.add_argument("--time-limit", type=_seconds, default=None, metavar="S", help="seconds per puzzle (default: none)")
    if p.get_default("command") == "solve":
        p.add_argument("--first", action="store_true", help="stop at the first solution (no uniqueness proof)")
    if p.get_default("command") in ("solve", "check"):
        p.add_argument(
            "--stats", action="store_true", help="after each answer, each engine's statistics (nodes, ..., search_s)"
        )
    if p.get_default("command") == "count":
        p.add_argument(
            "--limit",
            type=_integer_in(1, MAX_LIMIT),
            default=1000,
            metavar="N",
            help="stop counting at N (default 1000)",
        )


def _engine_list(text: str) -> tuple[str, ...]:
    """--backends a,b,c as a tuple of registered names, with argparse's usage error otherwise."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in BACKENDS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown backend(s) {unknown}; choose from: {', '.join(sorted(BACKENDS))}")
    return names


def _engines(args: argparse.Namespace) -> tuple[str, ...]:
    """The engines a command runs: --backend alone, else (check) the --backends list or CHECK_ENGINES."""
    if getattr(args, "backend", None):
        return (args.backend,)
    if args.command == "check":
        return args.backends or CHECK_ENGINES
    return ()


def _integer_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number in low..high, with a usage error that shows at most 20 characters."""

    def parse(text: str) -> int:
        if not re.fullmatch(r"[+-]?[0-9]{1,19}", text.strip()) or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"expected a whole number in {low}..{high}, not {_clipped(text)!r}")
        return int(text)

    return parse


def _seconds(text: str) -> float:
    """--time-limit S: a positive, finite number of seconds (at most a year), with a usage error otherwise."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not (0 < seconds <= MAX_SECONDS):
        raise argparse.ArgumentTypeError(
            f"expected a positive number of seconds up to {MAX_SECONDS:.0f} (leave it out for no limit), "
            f"not {_clipped(text)!r}"
        )
    return seconds


def _clipped(text: str, width: int = 20) -> str:
    """`text` cut to `width` characters, with `...` where it was cut."""
    return text if len(text) <= width else text[:width] + "..."


def _check_options(args: argparse.Namespace) -> None:
    """Raise CpModelsError for options that contradict each other or do not apply to what was asked."""
    if args.command == "check" and args.backend and args.backends:
        raise CpModelsError("give --backend (one engine) or --backends (a cross-check), not both")
    if args.command != "generate":
        return
    if args.box and args.order and args.box[0] * args.box[1] != args.order:
        box = f"{args.box[0]}x{args.box[1]}"
        raise CpModelsError(
            f"--order {args.order} and --box {box} disagree: {box} boxes make order {args.box[0] * args.box[1]}"
        )
    for option, family, given in (
        ("--box", "sudoku", args.box),
        ("--balanced", "qwh", args.balanced),
        ("--max-cage", "mathdoku", args.max_cage is not None),
        ("--holes", "sudoku or qwh", args.holes is not None),
    ):
        if given and args.family not in family.split(" or "):
            raise CpModelsError(f"{option} applies to {family} only, not to {args.family}")


def _warm_up(names: tuple[str, ...]) -> None:
    """Load each backend's solver library and kernels (Backend.warm_up) before any puzzle is timed, so times exclude it."""
    for name in names:
        BACKENDS[name].warm_up()


def _box_argument(text: str) -> tuple[int, int]:
    """--box RxC as (rows, columns), with argparse's usage error on bad text."""
    if len(text) > 20:
        raise argparse.ArgumentTypeError(f"expected RxC, such as 3x3 or 2x3, not {_clipped(text)!r}")
    try:
        return sudoku.parse_box(text)
    except CpModelsError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _entries(args: argparse.Namespace) -> list[Entry]:
    """The puzzles named on the command line (a file's contents, or the argument itself), as asked to read them."""
    text, where, is_file = _input_text(args.puzzle)
    fmt = args.input_format
    if getattr(args, "format", None) not in (None, *formats.SOLUTION_FORMATS):
        fmt = args.format
    entries = formats.read_text(text, where, fmt or "auto", args.box)
    if not is_file and all(e.error for e in entries) and _looks_like_path(args.puzzle):
        raise CpModelsError(f"{args.puzzle}: no such file, and not a puzzle either")
    return [_prepared(entry, args.hide_operators) for entry in entries]


def _input_text(argument: str) -> tuple[str, str, bool]:
    """(text, where it came from, whether it is a file's) for the PUZZLE_OR_FILE argument: `-`, a file, or inline."""
    if argument == "-":
        return _decoded(sys.stdin.buffer.read(), "<stdin>"), "<stdin>", True
    path = Path(argument)
    try:
        if not _could_be_path(argument) or not path.exists():
            return _decoded(argument.encode("utf-8", "surrogateescape"), "<argument>"), "<argument>", False
        if path.is_dir():
            raise CpModelsError(f"{argument}: is a directory; give a file of puzzles")
        return _decoded(path.read_bytes(), argument), argument, True
    except OSError as e:
        raise CpModelsError(f"{argument}: cannot read it: {e.strerror or e}") from None


def _could_be_path(text: str) -> bool:
    """Whether `text` can name a file at all (one line, no NUL, no part longer than a file name may be)."""
    return "\n" not in text and "\0" not in text and len(text) < 4096 and all(len(p) <= 255 for p in text.split("/"))


def _decoded(data: bytes, where: str) -> str:
    """`data` as UTF-8 text without a byte-order mark; a located ParseError for invalid UTF-8 or a NUL byte."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise _byte_error(f"invalid UTF-8 (byte 0x{data[e.start]:02x}); save the file as UTF-8", data, e.start, where)
    nul = data.find(b"\0")
    if nul >= 0:
        raise _byte_error("a NUL byte: this looks like a binary file, not text", data, nul, where)
    return text


def _byte_error(message: str, data: bytes, offset: int, where: str) -> ParseError:
    """A ParseError at byte `offset` of `data`, located by line and column (columns count bytes)."""
    start = data.rfind(b"\n", 0, offset) + 1
    line = data[start : data.find(b"\n", offset) if b"\n" in data[offset:] else len(data)]
    text = line.decode("utf-8", "replace").replace("\0", " ")
    return ParseError(message, path=where, line=data.count(b"\n", 0, offset) + 1, column=offset - start + 1, text=text)


def _looks_like_path(text: str) -> bool:
    """Whether an argument that is neither a file nor a puzzle was probably meant as a file name (`top95`, `a/b`)."""
    if "\n" in text or ":" in text:
        return False
    return bool(
        re.search(r"[/\\]|\.[A-Za-z][A-Za-z0-9]{0,5}$", text)
        or (re.fullmatch(r"[\w.~-]+", text) and re.search("[a-z]{2}", text))
    )


def _prepared(entry: Entry, hide_operators: bool) -> Entry:
    """The entry with operators hidden if asked, warning on stderr about cages that are not connected."""
    if entry.puzzle is None or not entry.puzzle.cages:
        return entry
    for k in mathdoku.disconnected_cages(entry.puzzle):
        cage = entry.puzzle.cages[k - 1]
        print(
            f"cpmodels: warning: {entry.puzzle.name}: cage {k} ({cells_named(cage.cells)}) is not connected",
            file=sys.stderr,
        )
    if hide_operators:
        return Entry(entry.line, puzzle=mathdoku.hide_operators(entry.puzzle))
    return entry


def _worst(outcomes: list[str]) -> int:
    """The exit code of the most severe outcome."""
    return EXIT[min(outcomes, key=SEVERITY.index)] if outcomes else EXIT["bad input"]


def _each_puzzle(entries: Iterable[Entry], outcomes: list[str]) -> Iterator[GridPuzzle]:
    """The puzzles of `entries`, reporting each bad one on stderr and recording it in `outcomes`."""
    for entry in entries:
        if entry.puzzle is None:
            print(f"cpmodels: {entry.error}", file=sys.stderr)
            outcomes.append("bad input")
        else:
            yield entry.puzzle


def _output_format(args: argparse.Namespace) -> str:
    """The solution format of `solve`: --format when it names one, else grid."""
    return args.format if args.format in formats.SOLUTION_FORMATS else "grid"


def _run_solve(args: argparse.Namespace, outcomes: list[str]) -> int:
    """`cpmodels solve`: print each puzzle's solution and whether it is unique."""
    for puzzle in _each_puzzle(_entries(args), outcomes):
        result = solve(puzzle, backend=args.backend, limit=1 if args.first else 2, time_limit=args.time_limit)
        outcomes.append(result.status)
        print(f"# {puzzle.name}: {result.status} ({result.wall_s * 1000:.1f} ms, {args.backend})")
        for k, grid in enumerate(result.solutions):
            if k == 1:
                print("# a second solution:")
            print(formats.write_solution(puzzle, grid, _output_format(args)))
        if args.stats:
            print(f"# stats {args.backend}: {format_stats(result.stats)}")
    return _worst(outcomes)


def _run_count(args: argparse.Namespace, outcomes: list[str]) -> int:
    """`cpmodels count`: print each puzzle's number of solutions up to --limit (`>=N` when it stopped there)."""
    if args.limit < 1:
        raise CpModelsError(f"--limit must be at least 1, not {args.limit}")
    entries = _entries(args)
    for puzzle in _each_puzzle(entries, outcomes):
        result = solve(puzzle, backend=args.backend, limit=args.limit, time_limit=args.time_limit)
        shown = str(result.count) if result.complete else f">={result.count}"
        if not result.complete and result.count < args.limit:
            shown += " (time limit reached)"
            outcomes.append("timeout")
        else:
            outcomes.append({0: "none", 1: "unique"}.get(result.count, "multiple"))
        print(shown if len(entries) == 1 else f"{puzzle.name}: {shown}")
    return _worst(outcomes)


def _run_check(args: argparse.Namespace, outcomes: list[str]) -> int:
    """`cpmodels check`: prove each puzzle unique; show the others with a witness, then a summary table."""
    entries = _entries(args)
    progress = tqdm(entries, desc="checking", unit="puzzle", delay=1.0, disable=None, file=sys.stderr)
    for puzzle in _each_puzzle(progress, outcomes):
        check = cross_check(puzzle, _engines(args), limit=2, time_limit=args.time_limit)
        outcome = _outcome(check)
        outcomes.append(outcome)
        single = len(entries) == 1
        if single or outcome != "unique" or args.stats:
            tqdm.write(f"{puzzle.name}: {outcome}")
            if single or outcome == "disagree" or not check.results:
                tqdm.write(_indented(check.describe()))
            if check.results:
                _show_solutions(puzzle, _fullest(check), single)
        if args.stats:
            for name, result in check.results.items():
                tqdm.write(f"  stats {name}: {format_stats(result.stats)}")
        if args.hide_operators:
            _show_ambiguous(puzzle)
    _print_summary(outcomes)
    return _worst(outcomes)


def _outcome(check: CrossCheck) -> str:
    """The outcome word of a cross-check: the agreed status, `disagree`, or `bad input` if no engine could run."""
    if not check.results and not check.failed:
        return "bad input"
    return check.verdict if check.agree and check.verdict else "disagree"


def _fullest(check: CrossCheck) -> SolveResult:
    """The result with the most solutions (a witness, when there is one)."""
    return max(check.results.values(), key=lambda result: len(result.solutions))


def _indented(text: str) -> str:
    """`text` with every line indented by two spaces."""
    return "\n".join(f"  {line}" for line in text.splitlines())


def _show_solutions(puzzle: GridPuzzle, result: SolveResult, single: bool) -> None:
    """The solutions behind a verdict: full grids for a single puzzle, else two lines when there are several."""
    if single:
        for k, grid in enumerate(result.solutions):
            tqdm.write("a second solution, the witness:" if k else "solution:")
            tqdm.write(formats.write_solution(puzzle, grid, "grid"))
    elif result.status == "multiple":
        tqdm.write(f"  two solutions: {formats.sudoku.format_line(result.solutions[0])}")
        tqdm.write(f"                 {formats.sudoku.format_line(result.solutions[1])}")


def _show_ambiguous(puzzle: GridPuzzle) -> None:
    """The cages whose target fits more than one operator once operators are hidden."""
    for k, ops in mathdoku.ambiguous_cages(puzzle):
        cage = puzzle.cages[k - 1]
        tqdm.write(f"  cage {k} ({cells_named(cage.cells)}) target {cage.target}: operator could be {' or '.join(ops)}")


def _print_summary(outcomes: list[str]) -> None:
    """The table of outcome counts."""
    counts = Counter(outcomes)
    print(f"{'outcome':<10} {'puzzles':>8}")
    for word in ("unique", "multiple", "none", "timeout", "bad input", "disagree"):
        print(f"{word:<10} {counts[word]:>8}")
    print(f"{'total':<10} {len(outcomes):>8}")


def _run_generate(args: argparse.Namespace, outcomes: list[str]) -> int:
    """`cpmodels generate`: print --count new puzzles of the family asked for."""
    rng = random.Random(args.seed)
    options = {k: getattr(args, k) for k in ("order", "box", "holes", "balanced", "backend")}
    if args.max_cage is not None:
        options["max_cage"] = args.max_cage
    for _ in range(args.count):
        puzzle = generate(args.family, rng, **options)
        print(formats.write_puzzle(puzzle, args.to or DEFAULT_OUTPUT[args.family]))
        outcomes.append("solved")
    return 0


def _run_convert(args: argparse.Namespace, outcomes: list[str]) -> int:
    """`cpmodels convert`: write every puzzle in the format --to names."""
    for puzzle in _each_puzzle(_entries(args), outcomes):
        try:
            print(formats.write_puzzle(puzzle, args.to))
            outcomes.append("solved")
        except CpModelsError as e:
            print(f"cpmodels: {puzzle.name}: {e}", file=sys.stderr)
            outcomes.append("bad input")
    return _worst(outcomes)
