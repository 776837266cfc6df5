"""The `cpmodels` command: solve, count, check, convert and generate puzzles, given inline or in files.

Exit codes: 0 solved (and unique, when uniqueness was asked), 1 internal error, 2 bad input or usage,
3 more than one solution, 4 no solution, 5 time limit reached, 6 engines disagree (check), 7 what a file
records about a puzzle (its count or solution) is wrong (check). For a file of many puzzles the code is
that of the worst outcome, in the order 6, 7, 2, 5, 4, 3, 0.

Options keep one meaning everywhere: `--from` forces the input format, `--format` is how `solve` prints
solutions, `--to` is the format `convert` and `generate` write.

Batches: each puzzle's answer is written as soon as it is known. With `--output FILE` it becomes a record:
its lines, then the end line `#> puzzle K (line L): OUTCOME`, after the file's header line
`#> cpmodels COMMAND: ...`. `--resume` keeps the complete records, cuts whatever follows the last of them
(a record torn by a kill, an old summary) and answers only the puzzles after it.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import math
import os
import random
import re
import signal
import sys
import threading
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from tqdm import tqdm

from . import __version__, formats, mathdoku, sudoku
from .backends import BACKENDS, SolveResult, format_stats
from .crosscheck import CrossCheck, cross_check
from .errors import CpModelsError, Interrupted, ParseError, SearchTimeoutError
from .formats import Entry
from .generate import FAMILIES, Progress, TimeLimitWarning, generate
from .grid import GridPuzzle, cells_named, explain_violation
from .solve import solve

EXIT = {
    "unique": 0,
    "solved": 0,
    "multiple": 3,
    "none": 4,
    "timeout": 5,
    "bad input": 2,
    "disagree": 6,
    "mismatch": 7,
    "closed pipe": 141,
}
SEVERITY = ["disagree", "mismatch", "bad input", "timeout", "none", "multiple", "unique", "solved"]
"""The outcomes of a puzzle, the worst first: a file's exit code is its worst puzzle's."""
SOLUTION_FORMATS = (*formats.SOLUTION_FORMATS, *formats.NATIVE_SOLUTIONS)
"""The formats `solve --format` prints solutions in."""
SUMMARY = ("unique", "multiple", "none", "timeout", "bad input", "disagree", "mismatch")
"""The rows of check's summary table."""
EXIT_HELP = (
    "exit codes: 0 solved/unique, 2 bad input, 3 multiple solutions, 4 no solution, 5 timeout, "
    "6 engines disagree (check), 7 the file's recorded count or solution is wrong (check), 130 Ctrl-C, "
    "143 terminated (what finished is printed), 141 output pipe closed, 1 internal error"
)
MAX_SECONDS = 366 * 86400.0
"""The longest --time-limit: a year; longer is no limit at all, and leaving the option out says so."""
MAX_LIMIT = 2**62
"""The largest --limit: counts beyond it do not fit the native engines' 64-bit counters."""
CHECK_ENGINES = ("cpsat", "dlx", "backtrack")
"""The engines `check` cross-checks by default: independent, and each fast enough for files of puzzles."""
NATIVE_ENGINES = ("dlx", "backtrack")
"""The engines whose kernels numba compiles on first use (about 14 s, then cached on disk)."""
NOTICE_AFTER = 3.0
"""Seconds an engine may take to load before the command says it is compiling: a cached load of the backtrack
kernel takes 1.0-1.6 s on a busy 2-core machine (numba's import included), a first compile about 14 s."""
PROGRESS_ORDER = 25
"""`generate` shows a progress bar for puzzles of this order or more."""
FSYNC_EVERY = 0.5
"""Seconds between two fsyncs of an --output file (each record is flushed at once)."""
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
RECORD_HEADER = "#> cpmodels {command}: one record per puzzle, each ending with `#> puzzle K (line L): OUTCOME`"
"""The first line of an --output file: which command's records it holds."""
_RECORD_HEADER = re.compile(r"#> cpmodels (\w+): .*\n")
RECORD_END = "#> puzzle {k} (line {line}): {outcome}"
"""The last line of puzzle K's record (K counts the input's puzzles from 1; L is the line it starts on)."""
_RECORD_END = re.compile(rf"#> puzzle (\d+) \(line (\d+)\): ({'|'.join(SEVERITY)})\n")

Answer = Callable[[argparse.Namespace, Entry, bool], tuple[str, str]]
"""answer(args, entry, single) -> (outcome, the text to show): one puzzle's work for solve, count or check."""


def _formats_epilog(command: str) -> str:
    """A subcommand's help epilog: the formats it reads or writes, one a line with its families, then exit codes."""
    if command == "generate":
        heading, names = "output formats (--to):", formats.output_formats()
    elif command == "convert":
        heading, names = "formats (--from: detected unless given; --to: any):", tuple(formats.FORMATS)
    else:
        heading, names = "input formats (detected unless --from gives one):", formats.input_formats()
    return f"{heading}\n{formats.help_table(names)}\n\n{EXIT_HELP}"


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = _parser().parse_args(argv)
    tally: Counter[str] = Counter()
    try:
        with _signals_interrupt():
            _check_options(args)
            return args.run(args, tally)
    except CpModelsError as e:
        print(f"cpmodels: {e}", file=sys.stderr)
        return EXIT["bad input"]
    except Interrupted as e:
        return _stopped(args, tally, e)


def main_exit() -> None:
    """Console-script entry point: run main() and exit with its code (quietly when the reader of stdout leaves)."""
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = EXIT["closed pipe"]
    sys.exit(code)


class _Signals:
    """Ctrl-C and SIGTERM as Interrupted: raised at once, or at the end of a held() block."""

    def __init__(self) -> None:
        self.holding = False
        self.pending: Interrupted | None = None

    def stop(self, signum: int, _frame: object) -> None:
        """The signal handler: raise Interrupted (exit 128 + signum), or keep it until the held block ends."""
        stop = Interrupted(128 + signum, "interrupted" if signum == signal.SIGINT else "terminated")
        if not self.holding:
            raise stop
        self.pending = stop

    @contextmanager
    def held(self) -> Iterator[None]:
        """Within the block no Interrupted is raised (one that arrives waits for its end)."""
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
        if self.pending:
            stop, self.pending = self.pending, None
            raise stop


SIGNALS = _Signals()
"""The one handler of Ctrl-C and SIGTERM; `with SIGNALS.held():` writes a puzzle's answer and counts it, or neither."""


@contextmanager
def _signals_interrupt() -> Iterator[None]:
    """Within the block, Ctrl-C and SIGTERM raise Interrupted (exit 130 and 143) instead of killing the process."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    SIGNALS.pending = None
    previous = {s: signal.signal(s, SIGNALS.stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _stopped(args: argparse.Namespace, tally: Counter[str], stop: Interrupted) -> int:
    """Report an interrupted run: what finished (check's summary table), one line on stderr; the exit code."""
    tqdm.write("", file=sys.stderr)
    if args.command == "check":
        print(_summary(tally))
    sys.stdout.flush()
    print(f"cpmodels: {stop}; {sum(tally.values())} puzzle(s) finished before it", file=sys.stderr)
    return stop.code


# ---- the command line --------------------------------------------------------------------------


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
            _add_output_arguments(p)
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
    _add_misplaced_format(p, "generate")
    _add_symbols(p)
    p.add_argument("--backend", default="backtrack", choices=sorted(BACKENDS), help="engine proving uniqueness")
    p.add_argument(
        "--time-limit",
        type=_seconds,
        default=None,
        metavar="S",
        help="seconds per puzzle: a Sudoku stops punching then (unique, maybe not minimal); "
        "a Mathdoku not found by then exits 5",
    )


def _add_input_arguments(p: argparse.ArgumentParser, command: str) -> None:
    """The puzzle argument, the options that say how to read it, and the output format (solve, convert)."""
    p.add_argument(
        "puzzle", metavar="PUZZLE_OR_FILE", help="a puzzle written inline, or a file of puzzles (- for standard input)"
    )
    p.add_argument(
        "--from",
        dest="input_format",
        default="auto",
        choices=("auto", *formats.input_formats()),
        metavar="FORMAT",
        help="input format, one of the formats below (default: detected)",
    )
    if command == "solve":
        p.add_argument(
            "--format",
            default=None,
            type=_format_option("solve"),
            choices=SOLUTION_FORMATS,
            metavar="FORMAT",
            help=f"how solutions are printed: {', '.join(SOLUTION_FORMATS)} (default: pls and qwh input in "
            "its own format, any other as a grid)",
        )
    else:
        _add_misplaced_format(p, command)
    _add_symbols(p)
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


def _add_misplaced_format(p: argparse.ArgumentParser, command: str) -> None:
    """A hidden --format that only explains which option the command takes instead (--from or --to)."""
    p.add_argument("--format", dest="misplaced_format", type=_format_option(command), help=argparse.SUPPRESS)


def _add_symbols(p: argparse.ArgumentParser) -> None:
    """--symbols: the one-character symbols of Sudoku lines and grids, read and written."""
    p.add_argument(
        "--symbols",
        type=_symbols_argument,
        default=None,
        metavar="SYMBOLS",
        help="Sudoku cells written as these symbols, value 1 first, such as 0-8 or 0-9A-F (default: 1-9A-Z; "
        "a solution is written in its puzzle's symbols)",
    )


def _symbols_argument(text: str) -> str:
    """--symbols as formats.parse_symbols reads it, with argparse's usage error on bad text."""
    try:
        return formats.parse_symbols(text)
    except CpModelsError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _format_option(command: str) -> Callable[[str], str]:
    """An argparse type for --format: solve's solution formats pass; another format's name is a usage error."""

    def parse(text: str) -> str:
        if command == "solve" and (text in SOLUTION_FORMATS or text not in formats.FORMATS):
            return text  # argparse's choices refuse a name that is no format at all
        raise argparse.ArgumentTypeError(_format_advice(command, text))

    return parse


def _format_advice(command: str, name: str) -> str:
    """Why `command` refuses `--format NAME`, and the option that says what was meant."""
    shown = _clipped(name)
    if command in ("convert", "generate"):
        return f"{command} writes the format --to names (--to {shown}); --from forces the input format"
    advice = f"; to force the input format use --from {shown}" if name in formats.input_formats() else ""
    if command == "solve":
        if name in formats.output_formats() and not advice:
            advice = f"; to write puzzles as {shown} use `cpmodels convert --to {shown}`"
        return f"--format is the output format, one of {', '.join(SOLUTION_FORMATS)}{advice}"
    return f"{command} prints no puzzles, so it takes no output --format{advice}"


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


def _add_output_arguments(p: argparse.ArgumentParser) -> None:
    """--output FILE and --resume, for the commands that answer a file of puzzles one by one."""
    p.add_argument(
        "--output",
        type=Path,
        default=None,
        metavar="FILE",
        help="write each puzzle's answer to FILE (not stdout) as soon as it is known, one record per puzzle",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="with --output: keep FILE's complete records and answer only the puzzles after them",
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
    if getattr(args, "resume", False) and not args.output:
        raise CpModelsError("--resume continues an --output FILE: give --output FILE too")
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
        ("--time-limit", "sudoku or mathdoku", args.time_limit is not None),
    ):
        if given and args.family not in family.split(" or "):
            raise CpModelsError(f"{option} applies to {family} only, not to {args.family}")


def _warm_up(names: Iterable[str]) -> None:
    """Warm up each backend (library, kernels) before timing; after NOTICE_AFTER seconds, say why it takes long."""
    for name in names:
        notice = threading.Timer(NOTICE_AFTER, _say_loading, (name,))
        notice.daemon = True
        notice.start()
        try:
            BACKENDS[name].warm_up()
        finally:
            notice.cancel()


def _say_loading(name: str) -> None:
    """The line that tells why the command is silent: the engine `name` is compiling (or loading) on first use."""
    if name in NATIVE_ENGINES:
        what = f"compiling the {name} engine's native code (first use only, cached afterwards)..."
    else:
        what = f"loading the {name} engine..."
    print(f"cpmodels: {what}", file=sys.stderr, flush=True)


def _box_argument(text: str) -> tuple[int, int]:
    """--box RxC as (rows, columns), with argparse's usage error on bad text."""
    if len(text) > 20:
        raise argparse.ArgumentTypeError(f"expected RxC, such as 3x3 or 2x3, not {_clipped(text)!r}")
    try:
        return sudoku.parse_box(text)
    except CpModelsError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


# ---- reading the puzzles -----------------------------------------------------------------------


def _entries(args: argparse.Namespace) -> Iterator[Entry]:
    """The puzzles of the PUZZLE_OR_FILE argument in order, each _prepared; a `no puzzle found` entry if none."""
    text, where, is_file = _input_text(args.puzzle)
    entries: Iterable[Entry] = formats.iter_entries(text, where, args.input_format, args.box, args.symbols or "")
    del text  # the entries (or a lazy reader) keep what they need: not the whole text while puzzles are solved
    if not is_file:
        entries = list(entries)
        if all(e.error for e in entries) and _looks_like_path(args.puzzle):
            raise CpModelsError(f"{args.puzzle}: no such file, and not a puzzle either")
    found = False
    for entry in entries:
        found = True
        yield _prepared(entry, args.hide_operators)
    if not found:
        yield Entry(1, error=ParseError("no puzzle found (nothing but comments and decoration)", path=where, line=1))


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
        message = f"invalid UTF-8 (byte 0x{data[e.start]:02x}); save the file as UTF-8"
        raise _byte_error(message, data, e.start, where) from None
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
    if "\n" in text or ":" in text or not _could_be_path(text):
        return False
    return bool(
        re.search(r"[/\\]|\.[A-Za-z][A-Za-z0-9]{0,5}$", text)
        or (re.fullmatch(r"[\w.~-]+", text) and re.search("[a-z]{2}", text))
    )


def _prepared(entry: Entry, hide_operators: bool) -> Entry:
    """The entry with operators hidden if asked, saying on stderr its reader's warning and which cages are apart."""
    if entry.warning:
        tqdm.write(f"cpmodels: warning: {entry.warning}", file=sys.stderr)
    if entry.puzzle is None or not entry.puzzle.cages:
        return entry
    for k in mathdoku.disconnected_cages(entry.puzzle):
        cage = entry.puzzle.cages[k - 1]
        tqdm.write(
            f"cpmodels: warning: {entry.puzzle.name}: cage {k} ({cells_named(cage.cells)}) is not connected",
            file=sys.stderr,
        )
    if hide_operators:
        return dataclasses.replace(entry, puzzle=mathdoku.hide_operators(entry.puzzle))
    return entry


def _with_single(entries: Iterator[Entry]) -> tuple[Iterator[Entry], bool]:
    """`entries` unchanged, and whether they are a single puzzle (read ahead by two)."""
    ahead = list(itertools.islice(entries, 2))
    return itertools.chain(ahead, entries), len(ahead) == 1


def _worst(tally: Counter[str]) -> int:
    """The exit code of the most severe outcome counted (0 when there is none)."""
    seen = [outcome for outcome in SEVERITY if tally[outcome]]
    return EXIT[seen[0]] if seen else 0


# ---- answering a file of puzzles, one record each ----------------------------------------------


class Printed:
    """Where a batch's answers go without --output: stdout, flushed after each puzzle."""

    def answered(self, k: int, line: int) -> bool:
        """Never: stdout keeps no earlier run."""
        return False

    def write(self, k: int, line: int, outcome: str, text: str) -> None:
        """`text` on stdout (above the progress bar), flushed."""
        if text:
            tqdm.write(text)
        sys.stdout.flush()

    def write_summary(self, text: str) -> None:
        """The summary on stdout."""
        print(text, flush=True)


class Records:
    """--output FILE: a header line, then each puzzle's text and end line, flushed at once, fsynced now and then."""

    def __init__(self, path: Path, command: str, resume: bool) -> None:
        self.path = path
        self.done, self.last_line, keep, self.earlier = _finished_records(path, command) if resume else _NO_RECORDS
        try:
            with path.open("ab") as f:
                f.truncate(keep)
            self.file = path.open("a", encoding="utf-8")
        except OSError as e:
            raise CpModelsError(f"{path}: cannot write it: {e.strerror or e}") from None
        if not keep:
            self.file.write(RECORD_HEADER.format(command=command) + "\n")
        self.synced = time.monotonic()

    def answered(self, k: int, line: int) -> bool:
        """Whether FILE has puzzle k's record; CpModelsError if its last record is of another input."""
        if k == self.done and line != self.last_line:
            raise CpModelsError(
                f"{self.path}: its records are of another input: puzzle {k} is at line {self.last_line} there, "
                f"at line {line} here; leave out --resume to start again"
            )
        return k <= self.done

    def write(self, k: int, line: int, outcome: str, text: str) -> None:
        """Puzzle k's record, in one write: its text, then its end line."""
        block = f"{text}\n" if text else ""
        self.file.write(block + RECORD_END.format(k=k, line=line, outcome=outcome) + "\n")
        self.file.flush()
        if time.monotonic() - self.synced >= FSYNC_EVERY:
            os.fsync(self.file.fileno())
            self.synced = time.monotonic()

    def write_summary(self, text: str) -> None:
        """The summary on stdout, and after FILE's records (a resumed run cuts it and writes its own)."""
        self.file.write(text + "\n")
        print(text, flush=True)

    def close(self) -> None:
        """Flush, fsync and close FILE."""
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()


_NO_RECORDS: tuple[int, int, int, Counter[str]] = (0, 0, 0, Counter())


def _finished_records(path: Path, command: str) -> tuple[int, int, int, Counter[str]]:
    """(records, input line of the last, byte offset after it, outcome counts) of FILE; _NO_RECORDS if no header."""
    done, last_line, keep, tally = 0, 0, 0, Counter[str]()
    offset = 0
    try:
        with path.open("rb") as f:
            for k, raw in enumerate(f, start=1):
                offset += len(raw)
                text = raw.decode("utf-8", "replace")
                if k == 1:
                    if not _record_header(path, text, command):
                        return _NO_RECORDS
                    keep = offset
                elif found := _RECORD_END.fullmatch(text):
                    if int(found[1]) != done + 1:
                        raise CpModelsError(f"{path}:{k}: record {found[1]} follows record {done}: not one run's")
                    done, last_line, keep = done + 1, int(found[2]), offset
                    tally[found[3]] += 1
    except FileNotFoundError:
        return _NO_RECORDS
    except OSError as e:
        raise CpModelsError(f"{path}: cannot read it: {e.strerror or e}") from None
    return done, last_line, keep, tally


def _record_header(path: Path, first_line: str, command: str) -> bool:
    """Whether `first_line` is a whole header of `command`'s records; False if torn; CpModelsError if foreign."""
    found = _RECORD_HEADER.fullmatch(first_line)
    if not first_line.endswith("\n") and first_line.startswith("#> cpmodels"):
        return False
    if not found:
        raise CpModelsError(f"{path}: not a cpmodels --output file (no `#> cpmodels COMMAND:` first line) to resume")
    if found[1] != command:
        raise CpModelsError(f"{path} holds the records of `cpmodels {found[1]}`: resume it with that command")
    return True


@contextmanager
def _results(args: argparse.Namespace, tally: Counter[str]) -> Iterator[Printed | Records]:
    """Where the answers go: --output FILE's records (the earlier run's outcomes added to `tally`), else stdout."""
    if not args.output:
        yield Printed()
        return
    records = Records(args.output, args.command, args.resume)
    tally.update(records.earlier)
    try:
        yield records
    finally:
        records.close()


def _run_batch(args: argparse.Namespace, tally: Counter[str], answer: Answer) -> int:
    """Answer every puzzle in input order, each written as soon as it is known; the worst outcome's exit code."""
    entries, single = _with_single(_entries(args))
    engines = _engines(args)
    with _results(args, tally) as results:
        for k, entry in enumerate(_progress(entries, single), start=1):
            if results.answered(k, entry.line):
                continue
            if entry.puzzle and engines:
                _warm_up(engines)
                engines = ()
            outcome, text = _answered(args, entry, single, answer)
            with SIGNALS.held():
                results.write(k, entry.line, outcome, text)
                tally[outcome] += 1
        if args.command == "check":
            results.write_summary(_summary(tally))
    return _worst(tally)


def _progress(entries: Iterator[Entry], single: bool) -> Iterable[Entry]:
    """`entries` behind a progress bar on stderr that shows after a second (on a terminal, for a file)."""
    if single:
        return entries
    return tqdm(entries, desc="puzzles", unit="puzzle", delay=1.0, disable=None, file=sys.stderr)


def _answered(args: argparse.Namespace, entry: Entry, single: bool, answer: Answer) -> tuple[str, str]:
    """(outcome, text) for one entry: `answer`'s, or `bad input` with its one-line message on stderr."""
    error = entry.error
    if entry.puzzle is not None:
        try:
            return answer(args, entry, single)
        except CpModelsError as e:  # a backend that cannot take this puzzle, a format that cannot carry it
            error = e
    tqdm.write(f"cpmodels: {error}", file=sys.stderr)
    return "bad input", ""


def _run_solve(args: argparse.Namespace, tally: Counter[str]) -> int:
    """`cpmodels solve`: print each puzzle's solution and whether it is unique."""
    return _run_batch(args, tally, _solve_one)


def _solve_one(args: argparse.Namespace, entry: Entry, single: bool) -> tuple[str, str]:
    """One puzzle's status and time, its solution (a second one when not unique) in --format, its stats."""
    puzzle = _puzzle(entry)
    result = solve(puzzle, backend=args.backend, limit=1 if args.first else 2, time_limit=args.time_limit)
    fmt = args.format or formats.solution_format(entry.fmt)
    lines = [f"# {puzzle.name}: {result.status} ({result.wall_s * 1000:.1f} ms, {args.backend})"]
    for k, grid in enumerate(result.solutions):
        if k == 1:
            lines.append("# a second solution:")
        lines.append(formats.write_solution(puzzle, grid, fmt, entry.symbols))
    if args.stats:
        lines.append(f"# stats {args.backend}: {format_stats(result.stats)}")
    return result.status, "\n".join(lines)


def _puzzle(entry: Entry) -> GridPuzzle:
    """The puzzle of an entry that has one."""
    assert entry.puzzle is not None
    return entry.puzzle


def _run_count(args: argparse.Namespace, tally: Counter[str]) -> int:
    """`cpmodels count`: print each puzzle's number of solutions up to --limit (`>=N` when it stopped there)."""
    return _run_batch(args, tally, _count_one)


def _count_one(args: argparse.Namespace, entry: Entry, single: bool) -> tuple[str, str]:
    """One puzzle's count up to --limit: `N`, `>=N`, or `>=N (time limit reached)`; named when in a batch."""
    puzzle = _puzzle(entry)
    result = solve(puzzle, backend=args.backend, limit=args.limit, time_limit=args.time_limit)
    shown = str(result.count) if result.complete else f">={result.count}"
    if not result.complete and result.count < args.limit:
        shown += " (time limit reached)"
        outcome = "timeout"
    else:
        outcome = _status_of_count(result.count)
    return outcome, shown if single else f"{puzzle.name}: {shown}"


def _status_of_count(count: int) -> str:
    """The outcome word for a number of solutions: none, unique or multiple."""
    return {0: "none", 1: "unique"}.get(count, "multiple")


def _run_check(args: argparse.Namespace, tally: Counter[str]) -> int:
    """`cpmodels check`: prove each puzzle unique; show the others with a witness, then a summary table."""
    return _run_batch(args, tally, _check_one)


def _check_one(args: argparse.Namespace, entry: Entry, single: bool) -> tuple[str, str]:
    """One puzzle cross-checked: its outcome (`mismatch` if the file's claims are wrong) and the lines to show."""
    puzzle = _puzzle(entry)
    check = cross_check(puzzle, _engines(args), limit=2, time_limit=args.time_limit)
    outcome = _outcome(check)
    wrong = _wrong_claims(entry, check) if outcome in ("unique", "multiple", "none") else None
    lines = []
    if single or outcome != "unique" or wrong or args.stats:
        lines.append(f"{puzzle.name}: mismatch: {wrong}" if wrong else f"{puzzle.name}: {outcome}")
        if single or outcome == "disagree" or not check.results:
            lines.append(_indented(check.describe()))
        if check.results:
            lines += _solution_lines(puzzle, _fullest(check), single)
    if args.stats:
        lines += [f"  stats {name}: {format_stats(result.stats)}" for name, result in check.results.items()]
    if args.hide_operators:
        lines += _ambiguous_lines(puzzle)
    return "mismatch" if wrong else outcome, "\n".join(lines)


def _outcome(check: CrossCheck) -> str:
    """The outcome word of a cross-check: the agreed status, `disagree`, or `bad input` if no engine could run."""
    if not check.results and not check.failed:
        return "bad input"
    return check.verdict if check.agree and check.verdict else "disagree"


def _wrong_claims(entry: Entry, check: CrossCheck) -> str | None:
    """What the engines' agreed answer contradicts in the file's claimed count and solution; None if nothing."""
    verdict = str(check.verdict)
    wrong = []
    if entry.claimed_count is not None and _status_of_count(min(entry.claimed_count, check.limit)) != verdict:
        wrong.append(f"the file records {entry.claimed_count} solution(s), the engines find {_found(verdict)}")
    claimed = tuple(entry.claimed_solution or ())
    if claimed and claimed not in _fullest(check).solutions:  # the solutions found passed the checker already
        problem = explain_violation(_puzzle(entry), claimed)
        if problem:
            wrong.append(f"the file's solution is not a solution: {problem}")
        elif verdict != "multiple":
            wrong.append("the file's solution solves the puzzle, but the engines did not find it")
    return "; ".join(wrong) or None


def _found(verdict: str) -> str:
    """The engines' verdict in words: no solution, exactly 1, at least 2."""
    return {"none": "no solution", "unique": "exactly 1"}.get(verdict, "at least 2")


def _fullest(check: CrossCheck) -> SolveResult:
    """The result with the most solutions (a witness, when there is one)."""
    return max(check.results.values(), key=lambda result: len(result.solutions))


def _indented(text: str) -> str:
    """`text` with every line indented by two spaces."""
    return "\n".join(f"  {line}" for line in text.splitlines())


def _solution_lines(puzzle: GridPuzzle, result: SolveResult, single: bool) -> list[str]:
    """The solutions behind a verdict: full grids for a single puzzle, else two lines when there are several."""
    if single:
        lines = []
        for k, grid in enumerate(result.solutions):
            lines.append("a second solution, the witness:" if k else "solution:")
            lines.append(formats.write_solution(puzzle, grid, "grid"))
        return lines
    if result.status == "multiple":
        return [
            f"  two solutions: {formats.sudoku.format_line(result.solutions[0])}",
            f"                 {formats.sudoku.format_line(result.solutions[1])}",
        ]
    return []


def _ambiguous_lines(puzzle: GridPuzzle) -> list[str]:
    """The cages whose target fits more than one operator once operators are hidden, one line each."""
    return [
        f"  cage {k} ({cells_named(puzzle.cages[k - 1].cells)}) target {puzzle.cages[k - 1].target}: "
        f"operator could be {' or '.join(ops)}"
        for k, ops in mathdoku.ambiguous_cages(puzzle)
    ]


def _summary(tally: Counter[str]) -> str:
    """The table of outcome counts, then the total."""
    rows = [f"{'outcome':<10} {'puzzles':>8}"]
    rows += [f"{word:<10} {tally[word]:>8}" for word in SUMMARY]
    rows.append(f"{'total':<10} {sum(tally.values()):>8}")
    return "\n".join(rows)


# ---- generate and convert ----------------------------------------------------------------------


def _run_generate(args: argparse.Namespace, tally: Counter[str]) -> int:
    """`cpmodels generate`: print --count new puzzles of the family asked for, each as soon as it is made."""
    if args.family != "qwh":
        _warm_up((args.backend,))
    fmt = args.to or DEFAULT_OUTPUT[args.family]
    for piece in formats.write_puzzles(_new_puzzles(args, tally), fmt, args.symbols or ""):
        print(piece, end="", flush=True)
        tally["solved"] += 1
    return _worst(tally)


def _new_puzzles(args: argparse.Namespace, tally: Counter[str]) -> Iterator[GridPuzzle]:
    """--count new puzzles, one at a time; each not made within --time-limit is said on stderr and counted."""
    rng = random.Random(args.seed)
    options = {k: getattr(args, k) for k in ("order", "box", "holes", "balanced", "backend")}
    if args.max_cage is not None:
        options["max_cage"] = args.max_cage
    for _ in range(args.count):
        try:
            yield _generated(args, rng, options)
        except SearchTimeoutError as e:
            print(f"cpmodels: {e}", file=sys.stderr)
            tally["timeout"] += 1


def _generated(args: argparse.Namespace, rng: random.Random, options: dict) -> GridPuzzle:
    """One new puzzle within --time-limit, a progress bar for a big one, a warning line if time cut it short."""
    deadline = time.monotonic() + args.time_limit if args.time_limit else None
    with _generation_progress(args) as progress, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", TimeLimitWarning)
        puzzle = generate(args.family, rng, deadline=deadline, progress=progress, **options)
    for warning in caught:
        if issubclass(warning.category, TimeLimitWarning):
            tqdm.write(f"cpmodels: warning: {warning.message}", file=sys.stderr)
    return puzzle


@contextmanager
def _generation_progress(args: argparse.Namespace) -> Iterator[Progress | None]:
    """generate()'s progress callback: a bar on stderr, shown after a second, for an order of PROGRESS_ORDER or more."""
    order = args.order or (args.box[0] * args.box[1] if args.box else 0)
    if order < PROGRESS_ORDER:
        yield None
        return
    with tqdm(desc=f"generating a {args.family}", unit="step", delay=1.0, disable=None, file=sys.stderr) as bar:

        def advance(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        yield advance


def _run_convert(args: argparse.Namespace, tally: Counter[str]) -> int:
    """`cpmodels convert`: write every puzzle in the format --to names, each as soon as it is read."""

    def refused(puzzle: GridPuzzle, error: CpModelsError) -> None:
        tqdm.write(f"cpmodels: {puzzle.name}: {error}", file=sys.stderr)
        tally["bad input"] += 1

    for piece in formats.write_puzzles(_good_puzzles(_entries(args), tally), args.to, args.symbols or "", refused):
        print(piece, end="", flush=True)
        tally["solved"] += 1
    return _worst(tally)


def _good_puzzles(entries: Iterable[Entry], tally: Counter[str]) -> Iterator[GridPuzzle]:
    """The puzzles of `entries`, each bad entry said on stderr and counted as `bad input`."""
    for entry in entries:
        if entry.puzzle is None:
            tqdm.write(f"cpmodels: {entry.error}", file=sys.stderr)
            tally["bad input"] += 1
        else:
            yield entry.puzzle
