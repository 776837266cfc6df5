"""The `cpmodels` command: solve, count, check, convert and generate puzzles, given inline or in files.

Exit codes: 0 solved (and unique, when uniqueness was asked), 1 internal error, 2 bad input or usage,
3 more than one solution, 4 no solution, 5 time limit reached, 6 engines disagree (check), 7 what a file
records about a puzzle (its count or solution) is wrong (check). For a file of many puzzles the code is
that of the worst outcome, in the order 6, 7, 2, 5, 4, 3, 0.

Options keep one meaning everywhere: `--from` forces the input format, `--format` is how `solve` prints
solutions, `--to` is the format `convert` and `generate` write.

This module parses the arguments, calls the layers below and prints: `inputs` reads the PUZZLE_OR_FILE
argument, `answers` says what solve, count and check answer for one puzzle, `batch` answers a file of them
(outcomes and exit codes, --output records, --resume) and `interrupts` turns Ctrl-C and SIGTERM into
Interrupted, so that what finished is reported.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import math
import os
import random
import re
import sys
import threading
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from tqdm import tqdm

from . import __version__, answers, batch, blocks, cluster, explaining, formats, inputs, mathdoku, sudoku
from .backends import BACKENDS
from .batch import EXIT, Answer, AnswerBlock
from .cover import ExactCoverProblem
from .crosscheck import CHECK_ENGINES
from .errors import CpModelsError, Interrupted, SearchTimeoutError
from .formats import Entry
from .generate import FAMILIES, METHODS, Made, Progress, Tally, TimeLimitWarning, generate_records
from .generate.grids import GRID_SOURCES
from .generate.output import JSONL, write_records
from .grid import GridPuzzle, cells_named
from .interrupts import SIGNALS, signals_interrupt
from .minimality import SYMMETRIES
from .solve import COVER_ENGINES, DEFAULT_BACKEND

SOLUTION_FORMATS = (*formats.SOLUTION_FORMATS, *formats.NATIVE_SOLUTIONS, *answers.COVER_FORMATS)
"""The formats `solve --format` prints solutions in (knuth: an exact cover as Knuth's DLX1 prints it)."""
EXIT_HELP = (
    "exit codes: 0 solved/unique, 2 bad input, 3 multiple solutions, 4 no solution, 5 timeout, "
    "6 engines disagree (check), 7 the file's recorded count or solution is wrong (check) or a certificate is "
    "rejected (verify-certificate), 8 stuck (explain), "
    "130 Ctrl-C, 143 terminated (what finished is printed), 141 output pipe closed, 1 internal error"
)
MAX_SECONDS = 366 * 86400.0
"""The longest --time-limit: a year; longer is no limit at all, and leaving the option out says so."""
MAX_LIMIT = 2**62
"""The largest --limit: counts beyond it do not fit the native engines' 64-bit counters."""
NATIVE_ENGINES = ("dlx", "backtrack")
"""The engines whose kernels numba compiles on first use (about 14 s, then cached on disk)."""
NOTICE_AFTER = 3.0
"""Seconds an engine may take to load before the command says it is compiling: a cached load of the backtrack
kernel takes 1.0-1.6 s on a busy 2-core machine (numba's import included), a first compile about 14 s."""
COMMANDS = {
    "solve": "solve puzzles and say whether each is unique (a second solution is printed when there is one)",
    "count": "count the solutions of puzzles up to a limit",
    "check": "prove every puzzle unique, with a summary table; a second solution is the witness when not",
    "convert": "write puzzles in another format",
    "explain": "solve each puzzle as a person does, step by step (Zambon's, SE's, HoDoKu's or Keen's order), "
    "and grade it",
    "grade": "grade every puzzle by the strategies a person needs: Zambon's levels, SE's ER/EP/ED, HoDoKu's "
    "levels and scores, Keen's levels, the CP propagation level",
    "draw": "draw puzzles as pictures (SVG or PNG), with their solutions if asked",
}
OWN_FORMATS = {"explain": ("text", "grid", "jsonl"), "grade": ("tsv", "json")}
"""The output formats of the commands that print something other than puzzles or solutions."""
VERIFY_HELP = (
    "check certificates of uniqueness (check --certify) without trusting cpmodels' solvers: the puzzle's CNF "
    "regenerated and compared, the solution by the solver-free checker, the DRAT proof by dratify"
)
GENERATE_HELP = "generate puzzles: Sudoku and Mathdoku with one solution, QWH at a chosen number of holes"
DEFAULT_OUTPUT = {"sudoku": "line", "mathdoku": "oneline", "qwh": "qwh"}
RAW = argparse.RawDescriptionHelpFormatter
"""Help that keeps the line breaks of its epilog (the table of formats)."""


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
    args = _parser().parse_args(_ops_attached(sys.argv[1:] if argv is None else argv))
    tally: Counter[str] = Counter()
    try:
        with signals_interrupt():
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


def _stopped(args: argparse.Namespace, tally: Counter[str], stop: Interrupted) -> int:
    """Report an interrupted run: what finished (check's summary table), one line on stderr; the exit code."""
    tqdm.write("", file=sys.stderr)
    if args.command == "check":
        print(batch.summary_table(tally))
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
        if name in ("solve", "count", "check"):
            _add_search_arguments(p)
        if name != "convert":
            _add_output_arguments(p)
        if name == "explain":
            _add_explain_arguments(p)
        if name == "grade":
            _add_grade_arguments(p)
        if name == "draw":
            _add_draw_arguments(p)
        if name in ("count", "check", "grade"):
            _add_cluster_arguments(p)
    _add_generate(sub)
    p = sub.add_parser("techniques", help="list the techniques of explain and grade, with levels and aliases")
    p.set_defaults(run=_run_techniques, command="techniques")
    p.add_argument("--shape", choices=explaining.SHAPES, default=None, help="only the techniques valid on this shape")
    p = sub.add_parser("verify-certificate", help=VERIFY_HELP, description=VERIFY_HELP)
    p.set_defaults(run=_run_verify_certificate, command="verify-certificate")
    p.add_argument("certificates", nargs="+", metavar="NAME", help="a certificate: any of its files, or DIR/NAME")
    p.add_argument(
        "--checker",
        default="dratify",
        choices=("dratify", "drat-trim"),
        help="the DRAT checker: dratify (default) or drat-trim, found on PATH",
    )
    return parser


def _add_draw_arguments(p: argparse.ArgumentParser) -> None:
    """Where `draw` writes its pictures, how big, and whether with the solution."""
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="FILE",
        help="FILE.svg or FILE.png (a file of puzzles: FILE-001.svg, ...); default: one puzzle's SVG on stdout",
    )
    p.add_argument("--size", type=_integer_in(16, 20000), default=480, metavar="PX", help="pixels a side (480)")
    p.add_argument("--solution", action="store_true", help="draw the solution too (found by backtrack)")


def _add_explain_arguments(p: argparse.ArgumentParser) -> None:
    """The options that choose the techniques `explain` may use."""
    p.add_argument(
        "--techniques",
        type=lambda text: [name.strip() for name in text.split(",") if name.strip()],
        default=None,
        metavar="A,B,...",
        help="only these techniques (names, Zambon's or HoDoKu's aliases; `cpmodels techniques` lists them)",
    )
    p.add_argument(
        "--max-level", type=_integer_in(0, 4), default=None, metavar="N", help="only Zambon levels up to N (4: guess)"
    )
    p.add_argument("--quiet", action="store_true", help="only the summary of each puzzle, not its steps")
    p.add_argument("--hint", action="store_true", help="only the next step a person takes, from the puzzle as given")
    p.add_argument(
        "--policy",
        default="zambon",
        help="which step comes next: zambon (default), se (Sudoku Explainer 1.2.1), hodoku (HoDoKu 2.2), keen",
    )
    p.add_argument("--log", type=_name_list, default=None, metavar="A,B,...", help="print only these strategies' steps")
    p.add_argument("--trace", action="store_true", help="before each step, every strategy tried and whether it fired")
    p.add_argument(
        "--verify",
        action="store_true",
        help="prove every step by CP-SAT from the state before it (exit 7 when one is not proved)",
    )
    p.add_argument(
        "--every", type=_integer_in(1, 10**6), default=1, metavar="K", help="--format grid: the board every K steps"
    )
    p.add_argument(
        "--time-limit",
        type=_seconds,
        default=None,
        metavar="S",
        help="seconds per puzzle: the explanation so far is printed, marked timeout (exit 5)",
    )


def _add_grade_arguments(p: argparse.ArgumentParser) -> None:
    """The scales `grade` rates on, and its time limit."""
    p.add_argument(
        "--scale",
        type=_name_list,
        default=["zambon"],
        metavar="A,B,...",
        help="the scales, from zambon (default), se, hodoku, keen (Mathdoku and Latin squares), cp",
    )
    p.add_argument(
        "--time-limit",
        type=_seconds,
        default=None,
        metavar="S",
        help="seconds per puzzle and scale: a grade cut short is a lower bound (`se=>=9.0`, exit 5)",
    )


def _name_list(text: str) -> list[str]:
    """A comma-separated list of names, spaces trimmed."""
    return [name.strip() for name in text.split(",") if name.strip()]


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
    p.add_argument("--count", type=_integer_in(1, 10**9), default=1, metavar="N", help="how many puzzles (default 1)")
    p.add_argument(
        "--seed",
        type=_integer_in(0, 2**63 - 1),
        default=None,
        metavar="S",
        help="puzzle i comes from its own stream of (S, i): the same puzzles whatever --jobs (default: drawn, "
        "and said on stderr)",
    )
    p.add_argument(
        "--index", type=_integer_in(0, 2**63 - 1), default=None, metavar="I", help="with --seed: start at puzzle I"
    )
    p.add_argument(
        "--symmetry", default="none", choices=SYMMETRIES, help="Sudoku: the symmetry of the pattern of givens"
    )
    p.add_argument(
        "--clues", type=_clue_range, default=None, metavar="K|A-B", help="Sudoku: keep puzzles with K (A to B) clues"
    )
    p.add_argument(
        "--minimal",
        choices=("yes", "strict"),
        default="yes",
        help="Sudoku: yes (every clue, or with --symmetry every orbit, needed; the default) or strict "
        "(every clue needed, symmetric or not)",
    )
    p.add_argument(
        "--jobs",
        type=_integer_in(1, 1024),
        default=1,
        metavar="N",
        help="worker processes, each with its own kernel; the same output, in order, for any N (default 1)",
    )
    _add_generate_sudoku(p)
    _add_generate_mathdoku(p)
    p.add_argument(
        "--to",
        default=None,
        choices=(*formats.output_formats(), JSONL),
        metavar="FORMAT",
        help="output format, one of the formats below, or jsonl: a JSON object a line with the fields "
        "(default: line, oneline, qwh)",
    )
    p.add_argument(
        "--solution", action="store_true", help="write each puzzle's solution too (a line's :1:SOLUTION claim)"
    )
    _add_misplaced_format(p, "generate")
    _add_symbols(p)
    _add_cluster_arguments(p)
    p.add_argument("--backend", default="backtrack", choices=sorted(BACKENDS), help="engine proving uniqueness")
    p.add_argument(
        "--time-limit",
        type=_seconds,
        default=None,
        metavar="S",
        help="seconds for the whole run: the puzzles made by then are written, a Sudoku under way is kept unique "
        "(maybe not minimal) unless a target was asked; a run cut short exits 5",
    )


def _ops_attached(argv: list[str]) -> list[str]:
    """The arguments with `--ops VALUE` written `--ops=VALUE`: a value starting with - (`--ops -/`) is no option."""
    out: list[str] = []
    for k, word in enumerate(argv):
        if k and argv[k - 1] == "--ops" and out and out[-1] == "--ops":
            out[-1] = f"--ops={word}"
        else:
            out.append(word)
    return out


def _add_generate_mathdoku(p: argparse.ArgumentParser) -> None:
    """The Mathdoku options of `generate`: cages, operators, uniqueness with operators hidden, merging."""
    p.add_argument("--ops", default=None, metavar="OPS", help="Mathdoku: the operators, any of +-*/ (default +-*/)")
    p.add_argument(
        "--cage-sizes",
        type=_size_range,
        default=None,
        metavar="A-B",
        help="Mathdoku: cages of A to B cells (default 2-6, made as Keen makes them: about 80%% dominoes)",
    )
    p.add_argument(
        "--size-weights",
        type=_size_weights,
        default=None,
        metavar="S:W,...",
        help="Mathdoku: cage sizes drawn with these weights, such as 2:6,3:3,4:1",
    )
    p.add_argument(
        "--singletons",
        type=_integer_in(0, 64 * 64),
        default=None,
        metavar="N",
        help="Mathdoku: N givens (1-cell cages)",
    )
    p.add_argument(
        "--no-filters", action="store_true", help="Mathdoku: without Keen's quality filters (sums 3, 4, 2n-1, 2n-2...)"
    )
    p.add_argument(
        "--hide-operators",
        default="none",
        choices=("none", "all", "max"),
        help="Mathdoku: all (unique with every operator hidden) or max (hidden while unique: every operator shown "
        "is needed); default none",
    )
    p.add_argument(
        "--merge", action="store_true", help="Mathdoku: merge adjacent cages while unique, within --cage-sizes"
    )


def _size_range(text: str) -> tuple[int, int]:
    """--cage-sizes K or A-B as (lo, hi), with argparse's usage error on bad text (the range is checked by generate)."""
    found = re.fullmatch(r"\s*([0-9]{1,5})\s*(?:-\s*([0-9]{1,5})\s*)?", text)
    if not found:
        raise argparse.ArgumentTypeError(f"expected K or A-B cells, such as 2-4, not {_clipped(text)!r}")
    lo = int(found[1])
    return lo, int(found[2]) if found[2] else lo


def _size_weights(text: str) -> dict[int, float]:
    """--size-weights S:W,... as {size: weight}, with argparse's usage error on bad text."""
    weights: dict[int, float] = {}
    for part in text.split(","):
        found = re.fullmatch(r"\s*([0-9]{1,5})\s*:\s*([0-9]{1,6}(?:\.[0-9]{1,6})?)\s*", part)
        if not found or int(found[1]) in weights:
            raise argparse.ArgumentTypeError(f"expected SIZE:WEIGHT,... such as 2:6,3:3,4:1, not {_clipped(text)!r}")
        weights[int(found[1])] = float(found[2])
    return weights


def _mathdoku_options(args: argparse.Namespace) -> dict:
    """The Mathdoku options of `generate` as mathdoku_spec takes them."""
    options = {"cage_sizes": args.cage_sizes, "size_weights": args.size_weights, "singletons": args.singletons or 0}
    options.update(filters=not args.no_filters, hide_operators=args.hide_operators, merge=args.merge)
    return {**options, "ops": args.ops} if args.ops is not None else options


def _add_generate_sudoku(p: argparse.ArgumentParser) -> None:
    """The `generate` options for Sudoku methods and targets."""
    p.add_argument(
        "--method",
        default="top-down",
        metavar="M",
        help=f"Sudoku: how clues are removed, one of {', '.join(METHODS)} (default top-down)",
    )
    p.add_argument(
        "--grids",
        default=None,
        choices=GRID_SOURCES,
        help="Sudoku: complete grids by randomised search (default up to 25x25) or the shuffled pattern; not uniform",
    )
    p.add_argument(
        "--grid-shuffle", action="store_true", help="Sudoku: a random symmetry of each grid (digits, rows, bands...)"
    )
    p.add_argument(
        "--nodes",
        type=_count_range,
        default=None,
        metavar="A-B",
        help="Sudoku: keep puzzles the backtracking kernel proves unique in A to B nodes (mean over --evals)",
    )
    p.add_argument(
        "--evals", type=_integer_in(1, 1000), default=None, metavar="N", help="random relabellings --nodes averages (5)"
    )
    p.add_argument(
        "--difficulty", default=None, metavar="POLICY:LEVEL", help="Sudoku: keep puzzles graded LEVEL (zambon:2)"
    )
    p.add_argument(
        "--max-attempts",
        type=_integer_in(1, 10**9),
        default=None,
        metavar="N",
        help="Sudoku: give up a puzzle after N attempts at its targets (exit 5)",
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
            "its own format, an exact cover as its options, any other as a grid; knuth: an exact cover with "
            "Knuth's (k of n) moves, as DLX1 prints it)",
        )
    elif command in OWN_FORMATS:
        choices = OWN_FORMATS[command]
        p.add_argument(
            "--format", default=choices[0], choices=choices, help=f"output: {', '.join(choices)} (default {choices[0]})"
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
        if name in formats.output_formats():
            advice = f"; to write puzzles as {shown} use `cpmodels convert --to {shown}`{advice}"
        return f"--format is the output format, one of {', '.join(SOLUTION_FORMATS)}{advice}"
    return f"{command} prints no puzzles, so it takes no output --format{advice}"


def _add_search_arguments(p: argparse.ArgumentParser) -> None:
    """Options of the commands that search."""
    if p.get_default("command") == "check":
        p.add_argument(
            "--backend",
            default=None,
            choices=sorted(BACKENDS),
            help=f"one engine only (default: cross-check {', '.join(CHECK_ENGINES)}; an exact cover "
            f"{', '.join(COVER_ENGINES)})",
        )
        p.add_argument(
            "--backends",
            type=_engine_list,
            default=None,
            metavar="A,B,...",
            help=f"the engines to cross-check, from: {', '.join(sorted(BACKENDS))}",
        )
    else:
        p.add_argument(
            "--backend",
            default=None,
            choices=sorted(BACKENDS),
            help=f"search engine (default: {DEFAULT_BACKEND}; {COVER_ENGINES[0]} for an exact cover)",
        )
    p.add_argument("--time-limit", type=_seconds, default=None, metavar="S", help="seconds per puzzle (default: none)")
    if p.get_default("command") == "solve":
        p.add_argument("--first", action="store_true", help="stop at the first solution (no uniqueness proof)")
    if p.get_default("command") == "check":
        p.add_argument(
            "--minimal",
            action="store_true",
            help="prove each puzzle minimal instead: every clue (operator, given) needed; list the redundant ones",
        )
        p.add_argument(
            "--orbits",
            default=None,
            choices=SYMMETRIES,
            metavar="SYMMETRY",
            help=f"with --minimal: every orbit of the symmetry needed instead of every clue ({', '.join(SYMMETRIES)})",
        )
        p.add_argument(
            "--merge", action="store_true", help="with --minimal: Mathdoku cages too, no two adjacent ones mergeable"
        )
        p.add_argument(
            "--max-cage",
            type=_integer_in(2, 64 * 64),
            default=None,
            metavar="K",
            help="with --merge: only merges into cages of at most K cells (as generate --merge --cage-sizes A-K)",
        )
        p.add_argument(
            "--certify",
            type=Path,
            default=None,
            metavar="DIR",
            help="write a certificate of each unique puzzle into DIR: its CNF, a DRAT proof, the solution "
            "(check them with `cpmodels verify-certificate`)",
        )
    if p.get_default("command") in ("solve", "check"):
        p.add_argument(
            "--stats", action="store_true", help="after each answer, each engine's statistics (nodes, ..., search_s)"
        )
    if p.get_default("command") in ("check", "count"):
        p.add_argument(
            "--jobs",
            type=_integer_in(1, 1024),
            default=os.cpu_count() or 1,
            metavar="N",
            help="--backend backtrack on a file: threads for blocks of puzzles (default: all cores)",
        )
    if p.get_default("command") == "count":
        p.add_argument(
            "--limit",
            type=_integer_in(1, MAX_LIMIT),
            default=None,
            metavar="N",
            help="stop counting at N (default 1000; an exact cover: count them all)",
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


def _add_cluster_arguments(p: argparse.ArgumentParser) -> None:
    """--cluster ADDRESS and --chunk N: answer (or make) the puzzles on a Dask cluster (cluster.py)."""
    p.add_argument(
        "--cluster",
        type=_cluster_argument,
        default=None,
        metavar="ADDRESS",
        help="on the Dask scheduler at ADDRESS (tcp://HOST:PORT), or local:N worker processes here; the same "
        "output, in order (pip install 'cpmodels[cluster]')",
    )
    p.add_argument(
        "--chunk",
        type=_integer_in(1, cluster.MOST),
        default=None,
        metavar="N",
        help=f"with --cluster: N puzzles a chunk (default: what takes about {cluster.CHUNK_SECONDS:g} s)",
    )


def _cluster_argument(text: str) -> str:
    """--cluster ADDRESS as cluster.address reads it, with argparse's usage error on bad text."""
    try:
        return cluster.address(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _engine_list(text: str) -> tuple[str, ...]:
    """--backends a,b,c as a tuple of registered names, with argparse's usage error otherwise."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in BACKENDS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown backend(s) {unknown}; choose from: {', '.join(sorted(BACKENDS))}")
    return names


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
    if args.command == "check" and args.orbits and not args.minimal:
        raise CpModelsError("--orbits SYMMETRY says which orbits --minimal checks: give --minimal too")
    if args.command == "check" and args.merge and not args.minimal:
        raise CpModelsError("--merge says that --minimal checks merging cages too: give --minimal too")
    if args.command == "check" and args.max_cage is not None and not args.merge:
        raise CpModelsError("--max-cage K bounds the merges --merge tries: give --minimal --merge too")
    if getattr(args, "resume", False) and not args.output:
        raise CpModelsError("--resume continues an --output FILE: give --output FILE too")
    if getattr(args, "chunk", None) and not args.cluster:
        raise CpModelsError("--chunk N sizes the chunks of --cluster: give --cluster ADDRESS too")
    if args.command != "generate":
        return
    if args.index is not None and args.seed is None:
        raise CpModelsError("--index I starts at puzzle I of a run: give that run's --seed too")
    if args.evals is not None and args.nodes is None:
        raise CpModelsError("--evals N says over how many relabellings --nodes averages: give --nodes A-B too")
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
        ("--symmetry", "sudoku", args.symmetry != "none"),
        ("--clues", "sudoku", args.clues is not None),
        ("--minimal", "sudoku", args.minimal != "yes"),
        ("--method", "sudoku", args.method != "top-down"),
        ("--grids", "sudoku", args.grids is not None),
        ("--grid-shuffle", "sudoku", args.grid_shuffle),
        ("--nodes", "sudoku", args.nodes is not None),
        ("--difficulty", "sudoku", args.difficulty is not None),
        ("--max-attempts", "sudoku", args.max_attempts is not None),
        ("--ops", "mathdoku", args.ops is not None),
        ("--cage-sizes", "mathdoku", args.cage_sizes is not None),
        ("--size-weights", "mathdoku", args.size_weights is not None),
        ("--singletons", "mathdoku", args.singletons is not None),
        ("--no-filters", "mathdoku", args.no_filters),
        ("--hide-operators", "mathdoku", args.hide_operators != "none"),
        ("--merge", "mathdoku", args.merge),
    ):
        if given and args.family not in family.split(" or "):
            raise CpModelsError(f"{option} applies to {family} only, not to {args.family}")


def _count_range(text: str) -> tuple[int, int]:
    """--nodes K or A-B as (lo, hi), with argparse's usage error on bad text."""
    found = re.fullmatch(r"\s*([0-9]{1,12})\s*(?:-\s*([0-9]{1,12})\s*)?", text)
    if not found or (found[2] and int(found[2]) < int(found[1])):
        raise argparse.ArgumentTypeError(f"expected K or A-B (A <= B), such as 200-2000, not {_clipped(text)!r}")
    return int(found[1]), int(found[2] or found[1])


def _clue_range(text: str) -> tuple[int, int]:
    """--clues K or A-B as (lo, hi), with argparse's usage error on bad text (the range is checked by generate)."""
    found = re.fullmatch(r"\s*([0-9]{1,5})\s*(?:-\s*([0-9]{1,5})\s*)?", text)
    if not found:
        raise argparse.ArgumentTypeError(f"expected K or A-B clues, such as 24 or 22-26, not {_clipped(text)!r}")
    lo = int(found[1])
    return lo, int(found[2]) if found[2] else lo


def _box_argument(text: str) -> tuple[int, int]:
    """--box RxC as (rows, columns), with argparse's usage error on bad text."""
    if len(text) > 20:
        raise argparse.ArgumentTypeError(f"expected RxC, such as 3x3 or 2x3, not {_clipped(text)!r}")
    try:
        return sudoku.parse_box(text)
    except CpModelsError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


# ---- answering puzzles ------------------------------------------------------------------------


def _entries(args: argparse.Namespace) -> Iterator[Entry]:
    """The puzzles of the PUZZLE_OR_FILE argument in order, each _prepared; a `no puzzle found` entry if none."""
    entries = inputs.read_argument(args.puzzle, args.input_format, args.box, args.symbols or "")
    prepared = (_prepared(entry, args.hide_operators) for entry in entries)
    if getattr(args, "format", None) == "pseudocoup":  # its comment line names each puzzle's ordinal
        return (dataclasses.replace(entry, ordinal=k) for k, entry in enumerate(prepared, start=1))
    return prepared


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


def _run_batch(args: argparse.Namespace, tally: Counter[str], answer: Answer) -> int:
    """Answer every puzzle in input order, each written as soon as it is known; the worst outcome's exit code."""
    lines = _plain_lines(args)
    entries, single = inputs.with_single(_entries(args)) if lines is None else (iter(()), False)
    with batch.results(args.output, args.command, args.resume, tally) as results:
        if lines is not None:
            warm_up = lambda entry: _warm_up(_engines(args, entry))  # noqa: E731
            prepare = partial(_prepared, hide_operators=False)
            limit = None if args.command == "check" else args.limit or answers.COUNT_LIMIT
            blocks.answer_plain_lines(lines, answer, prepare, results, tally, warm_up, limit=limit, jobs=args.jobs)
        elif getattr(args, "cluster", None):
            engines = partial(_engines, args)
            cluster.answer_all(
                args.cluster, entries, single, answer, results, tally, engines, _block(args), args.chunk, args.resume
            )
        else:
            warm_up = lambda entry: _warm_up(_engines(args, entry))  # noqa: E731
            batch.answer_all(entries, single, answer, results, tally, warm_up, _block(args))
        if args.command == "check" and not args.minimal:
            results.write_summary(batch.summary_table(tally))
    return batch.worst_exit_code(tally)


def _run_solve(args: argparse.Namespace, tally: Counter[str]) -> int:
    """`cpmodels solve`: print each puzzle's solution and whether it is unique."""
    limit = 1 if args.first else 2
    options = {"backend": args.backend, "time_limit": args.time_limit, "fmt": args.format, "stats": args.stats}
    return _run_batch(args, tally, partial(answers.solve_answer, limit=limit, **options))


def _run_count(args: argparse.Namespace, tally: Counter[str]) -> int:
    """`cpmodels count`: print each puzzle's number of solutions up to --limit (`>=N` when it stopped there)."""
    options = {"backend": args.backend, "limit": args.limit, "time_limit": args.time_limit}
    return _run_batch(args, tally, partial(answers.count_answer, **options))


def _run_check(args: argparse.Namespace, tally: Counter[str]) -> int:
    """`cpmodels check`: prove each puzzle unique; show the others with a witness, then a summary table."""
    if args.minimal:
        kinds: Counter[str] = Counter()
        minimal = partial(answers.minimal_answer, orbits=args.orbits, time_limit=args.time_limit, kinds=kinds)
        minimal = partial(minimal, merge=args.merge, max_cage=args.max_cage)
        code = _run_batch(args, tally, minimal)
        print(answers.minimal_table(kinds), flush=True)
        return code
    options = {"time_limit": args.time_limit, "stats": args.stats, "hide_operators": args.hide_operators}
    options["certify"] = args.certify
    engines = (args.backend,) if args.backend else args.backends
    return _run_batch(args, tally, partial(answers.check_answer, engines=engines, **options))


def _block(args: argparse.Namespace) -> AnswerBlock | None:
    """How `check` and `count` answer puzzles a block at a time (blocks.py), or None: one by one.

    Only on --backend backtrack alone, without a --time-limit per puzzle or --stats per puzzle.
    """
    backend, time_limit = getattr(args, "backend", None), getattr(args, "time_limit", None)
    engines = (backend,) if backend else getattr(args, "backends", None)
    one_by_one = time_limit is not None or getattr(args, "stats", False) or getattr(args, "certify", None)
    one_by_one = one_by_one or getattr(args, "minimal", False) is True
    if engines != (blocks.ENGINE,) or one_by_one:
        return None
    jobs = 1 if getattr(args, "cluster", None) else getattr(args, "jobs", 1)  # a worker thread answers a chunk
    if args.command == "check":
        return partial(blocks.check_block, jobs=jobs, hide_operators=args.hide_operators)
    if args.command == "count":
        return partial(blocks.count_block, limit=args.limit or answers.COUNT_LIMIT, jobs=jobs)
    return None


def _plain_lines(args: argparse.Namespace) -> blocks.PlainLines | None:
    """A file of plain puzzle lines read at once, where `check` and `count` answer in blocks; else None."""
    if args.command not in ("check", "count") or _block(args) is None or getattr(args, "cluster", None):
        return None
    if args.hide_operators:
        return None
    return blocks.plain_file(args.puzzle, args.input_format, args.box, args.symbols or "")


def _run_explain(args: argparse.Namespace, tally: Counter[str]) -> int:
    """`cpmodels explain`: each puzzle solved as a person does, one line per step, then its grade."""
    options = explaining.ExplainOptions(
        args.policy, args.techniques, args.max_level, args.format, args.quiet, args.hint, args.log, args.trace
    )
    options = dataclasses.replace(options, verify=args.verify, time_limit=args.time_limit, every=args.every)
    explaining.check_names(options)
    return _run_batch(args, tally, partial(explaining.explain_answer, options=options))


def _run_grade(args: argparse.Namespace, tally: Counter[str]) -> int:
    """`cpmodels grade`: one line per puzzle with its Zambon grade, then the number of puzzles at each level."""
    levels: Counter[str] = Counter()
    explaining.check_scales(args.scale)
    options = {"fmt": args.format, "levels": levels, "scales": tuple(args.scale), "time_limit": args.time_limit}
    code = _run_batch(args, tally, partial(explaining.grade_answer, **options))
    print(explaining.levels_table(levels, args.scale), file=sys.stderr if args.format == "json" else sys.stdout)
    return code


def _run_verify_certificate(args: argparse.Namespace, tally: Counter[str]) -> int:
    """`cpmodels verify-certificate`: one line per certificate, verified or rejected with the reasons."""
    from .certificates import verify

    for name in args.certificates:
        verdict = verify(name, checker=args.checker)
        print(f"{verdict.name or name}: {'verified' if verdict.ok else 'rejected: ' + verdict.reason}", flush=True)
        tally["unique" if verdict.ok else "mismatch"] += 1
    return batch.worst_exit_code(tally)


def _run_draw(args: argparse.Namespace, tally: Counter[str]) -> int:
    """`cpmodels draw`: each puzzle as a picture, to --out (numbered for a file) or as SVG on stdout."""
    if args.out is not None and args.out.suffix.lower() not in (".svg", ".png"):
        raise CpModelsError(f"--out {args.out}: the picture's name ends in .svg or .png")
    if args.out is not None and not args.out.parent.is_dir():
        raise CpModelsError(f"--out {args.out}: no directory {args.out.parent} to write it in")
    options = {"out": args.out, "size": args.size, "with_solution": args.solution, "number": itertools.count(1)}
    return _run_batch(args, tally, partial(answers.draw_answer, **options))


def _run_techniques(args: argparse.Namespace, tally: Counter[str]) -> int:
    """`cpmodels techniques`: the table of techniques."""
    print(explaining.techniques_table(args.shape))
    return 0


def _engines(args: argparse.Namespace, entry: Entry) -> tuple[str, ...]:
    """The engines a command runs on `entry`: --backend alone, else --backends (check), else the defaults."""
    cover = entry.cover is not None
    if args.command == "check" and args.minimal:  # minimality counts with backtrack
        return ("backtrack",)
    if args.command in ("explain", "grade", "draw"):  # explain, grade (draw --solution) solve with backtrack
        return ("backtrack",) if args.command != "draw" or getattr(args, "solution", False) else ()
    if args.backend:
        return (args.backend,)
    if args.command == "check" and args.backends:
        return tuple(name for name in args.backends if name in COVER_ENGINES) if cover else args.backends
    if args.command == "check":
        return COVER_ENGINES if cover else CHECK_ENGINES
    return (COVER_ENGINES[0] if cover else DEFAULT_BACKEND,)


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


# ---- generate and convert ----------------------------------------------------------------------


def _run_generate(args: argparse.Namespace, tally: Counter[str]) -> int:
    """`cpmodels generate`: print --count new puzzles of the family asked for, with their fields, each when made."""
    drawn = args.seed is None
    if drawn:
        args.seed = random.SystemRandom().randrange(2**32)
    if args.family != "qwh" and not args.cluster and args.jobs == 1:
        _warm_up((args.backend,))
    fmt = args.to or DEFAULT_OUTPUT[args.family]
    attempts = Tally()
    records = _new_puzzles(args, tally, attempts)
    if args.cluster:
        make = partial(_chunk_of_puzzles, args)
        records = cluster.generate(args.cluster, make, args.index or 0, args.count, tally, args.chunk)
    for piece in write_records(records, fmt, args.symbols or "", args.solution):
        if drawn:  # said once a puzzle is made, so that a refusal stays one line
            print(f"cpmodels: --seed {args.seed} (give it to make these puzzles again)", file=sys.stderr)
            drawn = False
        with SIGNALS.held():  # a piece printed is counted: Ctrl-C waits for both
            print(piece, end="", flush=True)
            tally["solved"] += 1
    made = tally["solved"]
    if tally["timeout"] or attempts.attempts > made:
        per = f" ({attempts.attempts / made:.3g} per puzzle)" if made else ""
        print(
            f"cpmodels: {made} of {args.count} puzzle(s) made in {attempts.attempts} attempt(s){per}", file=sys.stderr
        )
    return batch.worst_exit_code(tally)


def _new_puzzles(args: argparse.Namespace, tally: Counter[str], attempts: Tally | None = None) -> Iterator[Made]:
    """--count new puzzles (Made records), puzzle i from the stream (--seed, i), within --time-limit for the run.

    A run the time limit (or --max-attempts) stops short is said on stderr and counted as a timeout.
    """
    options = {k: getattr(args, k) for k in ("order", "box", "holes", "balanced", "backend")}
    if args.max_cage is not None:
        options["max_cage"] = args.max_cage
    if args.family == "sudoku":
        options.update(symmetry=args.symmetry, clues=args.clues, minimal=True if args.minimal == "yes" else "strict")
        options.update({k: getattr(args, k) for k in ("method", "grids", "grid_shuffle", "nodes", "difficulty")})
        options.update(evals=args.evals or 5, max_attempts=args.max_attempts)
    if args.family == "mathdoku":
        options.update(_mathdoku_options(args))
    deadline = time.monotonic() + args.time_limit if args.time_limit else None
    start = args.index or 0
    with _count_progress(args, attempts) as progress, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", TimeLimitWarning)
        run = generate_records(
            args.family, args.seed, args.count, start=start, processes=args.jobs, deadline=deadline,
            progress=progress, tally=attempts, **options,
        )  # fmt: skip
        try:
            for made in run:
                _say_warnings(caught)
                yield made
        except SearchTimeoutError as e:
            tqdm.write(f"cpmodels: {e}", file=sys.stderr)
            tally["timeout"] += 1
        _say_warnings(caught)


def _say_warnings(caught: list[warnings.WarningMessage]) -> None:
    """Write the time-limit warnings caught so far on stderr, one line each, and forget them."""
    for warning in caught:
        if issubclass(warning.category, TimeLimitWarning):
            tqdm.write(f"cpmodels: warning: {warning.message}", file=sys.stderr)
    caught.clear()


def _chunk_of_puzzles(args: argparse.Namespace, start: int, count: int, tally: Counter[str]) -> Iterator[Made]:
    """Puzzles start .. start+count-1 of the run `args` asks for, as _new_puzzles makes them: a chunk of --cluster."""
    return _new_puzzles(argparse.Namespace(**{**vars(args), "index": start, "count": count, "jobs": 1}), tally)


@contextmanager
def _count_progress(args: argparse.Namespace, attempts: Tally | None) -> Iterator[Progress]:
    """generate_records' progress: a bar of puzzles made (and attempts) on stderr, after a second on a terminal.

    A puzzle under way counts its part done, so that one large puzzle shows its progress.
    """
    with tqdm(total=args.count, desc="generating", unit="puzzle", delay=1.0, disable=None, file=sys.stderr) as bar:

        def advance(done: float, total: int) -> None:
            if attempts is not None and attempts.attempts > args.count:
                bar.set_postfix(attempts=attempts.attempts, refresh=False)
            bar.update(round(done - bar.n, 3))

        yield advance


def _run_convert(args: argparse.Namespace, tally: Counter[str]) -> int:
    """`cpmodels convert`: write every puzzle in the format --to names, each as soon as it is read."""

    def refused(puzzle: GridPuzzle | ExactCoverProblem, error: CpModelsError) -> None:
        tqdm.write(f"cpmodels: {puzzle.name}: {error}", file=sys.stderr)
        tally["bad input"] += 1

    puzzles = _good_puzzles(_entries(args), tally, args.to)
    for piece in formats.write_puzzles(puzzles, args.to, args.symbols or "", refused):
        with SIGNALS.held():  # a piece printed is counted: Ctrl-C waits for both
            print(piece, end="", flush=True)
            tally["solved"] += 1
    return batch.worst_exit_code(tally)


def _good_puzzles(entries: Iterable[Entry], tally: Counter[str], fmt: str) -> Iterator[GridPuzzle | ExactCoverProblem]:
    """The puzzles of `entries` (and exact covers, for fmt dlx); each other entry said on stderr, as `bad input`."""
    for entry in entries:
        error = entry.error
        if entry.puzzle is not None:
            yield entry.puzzle
            continue
        if entry.cover is not None and fmt == "dlx":
            yield entry.cover
            continue
        if entry.cover is not None:
            error = CpModelsError(f"{entry.label}: an exact-cover problem is no grid puzzle: it is written as dlx only")
        tqdm.write(f"cpmodels: {error}", file=sys.stderr)
        tally["bad input"] += 1
