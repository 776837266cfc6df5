"""Exact cover as a problem family (ExactCoverProblem) and Knuth's DLX files, read and written as his programs do.

The format (TAOCP 7.2.2.1 and his programs DLX1, DLX2, DLX3; `read_cover`, `write_cover`):

- a line whose first non-blank character is `|` is a comment, anywhere; blank lines are skipped;
- the first other line names the items, separated by blanks: the primary ones, then (optionally) one
  `|` and the secondary ones. A name is 1 to 8 printable characters (bytes of UTF-8, as his programs
  count), neither `:` nor `|`, and no blank;
- DLX3: a primary item may carry bounds, `a:b|name` (covered at least a, at most b times) or `b|name`
  (exactly b times); 0 <= a <= b, b >= 1; no prefix means exactly once;
- every later line is an option: the names of its items. DLX2: a secondary item may carry a colour,
  `name:c`; options that give an item the same colour may all be chosen, an option naming it without
  a colour excludes every other option that names it. Knuth's colours are one character: a longer one
  is read, with a warning;
- an option without a primary item is dropped, with a warning, as his programs do.

Bad input is a ParseError naming the line and column: a duplicate item, an unknown item in an option,
an item twice in an option, a second `|` on the item line, a name longer than 8 characters, a colour on
a primary item, a bound a:b with a > b or b = 0, no item line (an empty file), no option line.

`read_entries` is the registry's `dlx` reader: one Entry whose `cover` holds the problem (Entry.puzzle
is None), or one whose `error` says what is wrong. `format_solution` prints a solution as DLX1 does:
one line per option chosen, its items from the one branched on, and with the moves, Knuth's `(k of n)`.

A grid puzzle's exact cover (`write_dlx`) is the one the dlx backend searches (backends/dlx.py), with
each given as its cell's only option, so that the file stands alone. Item names (at most 8 characters
up to order 64; rows, columns, values 1-based):

    p3_7    cell r3c7 holds a value
    r3v5    row 3 holds value 5            c7v5   column 7 holds value 5
    b2v5    the 2nd unit that is neither a row nor a column (a box, a region) holds value 5
    u12v5   unit 12 of puzzle.units holds 5 (a unit listed twice: its second listing)

Knuth's own Sudoku exports (SUDOKU-DLX, SUDOKU for DANCE) are in formats/knuth.py. Reading and writing
need no numpy; the backend (numpy, numba) loads only when a problem is solved or a puzzle written.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from ..cover import BLANKS, MAX_BOUND, MAX_NAME, ExactCoverProblem, name_problem
from ..errors import CpModelsError, ParseError
from ..grid import GridPuzzle
from .text import Entry, Token, split_lines

if TYPE_CHECKING:
    from ..backends.dlx import CompiledPuzzle, CoverResult, ExactCover, Move

_TOKEN = re.compile(f"[^{re.escape(BLANKS)}]+")


# ---- reading -------------------------------------------------------------------------------------


def read_cover(text: str, path: str = "<input>") -> ExactCoverProblem:
    """The exact-cover problem in Knuth's DLX1/DLX2/DLX3 text (module docstring); a located ParseError if bad."""
    return parse_cover(text, path)[0]


def parse_cover(text: str, path: str = "<input>") -> tuple[ExactCoverProblem, list[str]]:
    """The problem in DLX text and its warnings (`path:line: ...`: options dropped, colours of several characters)."""
    reader = _Reader(path)
    for k, line in enumerate(split_lines(text), start=1):
        reader.line(k, line)
    return reader.finish(), reader.warnings


def read_entries(text: str, path: str = "<input>", **_: object) -> list[Entry]:
    """The registry's reader for `dlx`: one Entry holding the problem (Entry.cover), or its error."""
    try:
        problem, warnings = parse_cover(text, path)
    except ParseError as error:
        return [Entry(error.line or 1, error=error)]
    extra = f" (and {len(warnings) - 1} more warnings)" if len(warnings) > 1 else ""
    start = next((k for k, ln in enumerate(split_lines(text), 1) if not _is_comment(ln)), 1)
    return [Entry(start, cover=problem, warning=warnings[0] + extra if warnings else None, where=f"{path}:{start}")]


def sniff(lines: list[str]) -> bool:
    """Whether stripped content lines look like a DLX file: distinct valid item names, then options of them.

    Lines that could be a grid's rows (every option naming as many items as the item line has) are not
    taken: `1 2` over `2 1` is a Latin square. A `.dlx` file is read as one whatever this says (detect).
    """
    names: list[str] = []
    widths = set()
    for line in (ln for ln in itertools.islice(lines, 50) if ln and not ln.startswith("|")):
        tokens = line.split()
        if not names:
            names = [t.rsplit("|", 1)[-1] for t in (t.lstrip("|") for t in tokens if t != "|")]
            if sum(t.startswith("|") for t in tokens) > 1 or any(map(name_problem, names)):
                return False
            if len(set(names)) != len(names):
                return False
            continue
        items = [t.split(":", 1)[0] for t in tokens]
        if len(set(items)) != len(items) or not set(items) <= set(names):
            return False
        widths.add(len(items))
    return bool(widths) and widths != {len(names)}


def _is_comment(line: str) -> bool:
    """Whether a line is blank or a `|` comment (its first non-blank character)."""
    stripped = line.lstrip(BLANKS)
    return not stripped or stripped.startswith("|")


class _Reader:
    """The state of reading one DLX text line by line: the items once their line is read, then the options."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.items: list[str] = []
        self.index: dict[str, int] = {}
        self.n_primary = 0
        self.bounds: list[tuple[int, int]] = []
        self.options: list[tuple[int, ...]] = []
        self.colours: list[tuple[str, ...]] = []
        self.warnings: list[str] = []
        self.name = ""
        self.named = False
        self.item_line = 0
        self.option_lines = 0
        self.last = 0

    def line(self, k: int, line: str) -> None:
        """Read line k: a comment (the first one names the problem), the item line, or an option."""
        self.last = k
        stripped = line.lstrip(BLANKS)
        if not stripped or stripped.startswith("|"):
            if stripped and not self.item_line and not self.named:
                self.name, self.named = stripped[1:].strip(BLANKS), True
            return
        if self.item_line:
            self.option_lines += 1
            if ":" not in line and self._plain_option(k, line):
                return
        tokens = [Token(m[0], self.path, k, m.start() + 1, line) for m in _TOKEN.finditer(line)]
        if not self.item_line:
            self.item_line = k
            _read_item_line(self, tokens)
        else:
            _read_option(self, tokens, line)

    def _plain_option(self, k: int, line: str) -> bool:
        """Read an option without colours if each of its items is known and named once; False to read it located."""
        found = tuple(map(self.index.get, _TOKEN.findall(line)))
        if None in found or len(set(found)) != len(found):
            return False  # _read_option names the bad item
        items = cast("tuple[int, ...]", found)
        if min(items) >= self.n_primary:
            self.warnings.append(f"{self.path}:{k}: option ignored (no primary items): {line.strip(BLANKS)}")
        else:
            self.options.append(items)
            self.colours.append(("",) * len(items))
        return True

    def finish(self) -> ExactCoverProblem:
        """The problem read; a ParseError when there was no item line or no option line."""
        if not self.item_line:
            message = "no item line: the first line that is not a | comment names the items"
            raise ParseError(message, path=self.path, line=1)
        if not self.option_lines:
            message = "no options: the item line is followed by no option line"
            raise ParseError(message, path=self.path, line=self.item_line)
        bounds = tuple(self.bounds) if any(b != (1, 1) for b in self.bounds) else ()
        colours = tuple(self.colours) if any(c for row in self.colours for c in row) else ()
        return ExactCoverProblem(tuple(self.items), self.n_primary, tuple(self.options), colours, bounds, self.name)


def _read_item_line(reader: _Reader, tokens: list[Token]) -> None:
    """The item names (DLX3: with bounds), primary before the one `|`, secondary after it."""
    secondary = False
    for tok in tokens:
        if tok.text.startswith("|"):
            if secondary:
                raise tok.error("a second '|' in the item line (one separates primary from secondary items)")
            secondary = True
            reader.n_primary = len(reader.items)
            tok = tok.part(1)
            if not tok.text:
                continue
        name, bounds = _item_name(tok, secondary)
        if name.text in reader.index:
            first = reader.index[name.text] + 1
            raise name.error(f"item {name.text!r} is named twice (item {first} has that name)")
        reader.index[name.text] = len(reader.items)
        reader.items.append(name.text)
        if not secondary:
            reader.bounds.append(bounds)
    if not secondary:
        reader.n_primary = len(reader.items)


def _item_name(tok: Token, secondary: bool) -> tuple[Token, tuple[int, int]]:
    """An item name and its bounds: `name`, DLX3's `b|name` or `a:b|name` (primary items only)."""
    text = tok.text
    if ":" in text or "|" in text:
        if secondary:
            bad = min(i for i in (text.find(":"), text.find("|")) if i >= 0)
            raise tok.part(bad).error(f"item name {text!r}: a secondary item has no bounds, and a name no ':' or '|'")
        return _bounded_name(tok)
    _check_name(tok)
    return tok, (1, 1)


def _bounded_name(tok: Token) -> tuple[Token, tuple[int, int]]:
    """DLX3's `a:b|name` or `b|name`: the name and (a, b), checked as DLX3 checks them."""
    text = tok.text
    bar = text.find("|")
    colon = text.find(":")
    if bar < 0:
        raise tok.part(colon).error(f"{text!r}: a lower bound without an upper bound (DLX3 writes a:b|name)")
    if ":" in text[bar + 1 :] or "|" in text[bar + 1 :]:
        bad = min(i for i in (text.find(":", bar + 1), text.find("|", bar + 1)) if i >= 0)
        raise tok.part(bad).error(f"item name {text[bar + 1 :]!r} has a ':' or a '|'")
    upper = _bound(tok.part(colon + 1, bar))
    lower = upper if colon < 0 else _bound(tok.part(0, colon))
    if upper == 0:
        raise tok.part(colon + 1).error(f"{text!r}: the upper bound is zero")
    if lower > upper:
        raise tok.error(f"{text!r}: the lower bound {lower} exceeds the upper bound {upper}")
    name = tok.part(bar + 1)
    if not name.text:
        raise name.error(f"{text!r}: the item name after the bounds is empty")
    _check_name(name)
    return name, (lower, upper)


def _bound(tok: Token) -> int:
    """A bound's digits as DLX3 reads them (no digits: 0); a ParseError for anything else or a huge number."""
    if not re.fullmatch(r"[0-9]*", tok.text):
        raise tok.error(f"{tok.text!r} is not a bound: bounds are decimal digits (a:b|name)")
    if len(tok.text) > 10 or int(tok.text or 0) > MAX_BOUND:
        raise tok.error(f"bound {tok.text} is above {MAX_BOUND}")
    return int(tok.text or 0)


def _check_name(tok: Token) -> None:
    """A ParseError at `tok` if it cannot be an item name (too long, not printable)."""
    problem = name_problem(tok.text)
    if problem:
        raise tok.error(problem)


def _read_option(reader: _Reader, tokens: list[Token], line: str) -> None:
    """One option: its items, each known and named once, colours on secondary items; dropped without a primary."""
    items: list[int] = []
    colours: list[str] = []
    for tok in tokens:
        name, _, colour = tok.text.partition(":")
        if not name:
            raise tok.error(f"{tok.text!r}: an empty item name before the ':'")
        i = reader.index.get(name)
        if i is None:
            raise tok.error(
                f"unknown item {name!r}" + (" (not on the item line)" if name_problem(name) is None else "")
            )
        if i in items:
            raise tok.error(f"item {name!r} appears twice in this option")
        if ":" in tok.text:
            _check_colour(reader, tok, name, colour, i)
        items.append(i)
        colours.append(colour)
    if min(items) >= reader.n_primary:
        reader.warnings.append(
            f"{reader.path}:{tokens[0].line}: option ignored (no primary items): {line.strip(BLANKS)}"
        )
        return
    reader.options.append(tuple(items))
    reader.colours.append(tuple(colours))


def _check_colour(reader: _Reader, tok: Token, name: str, colour: str, i: int) -> None:
    """A ParseError for a colour on a primary item or an empty colour; a warning for a colour of several characters."""
    at = tok.part(len(name))
    if i < reader.n_primary:
        raise at.error(f"{tok.text!r}: primary item {name!r} takes no colour (DLX2 colours secondary items only)")
    if not colour:
        raise at.error(f"{tok.text!r}: no colour after the ':'")
    if len(colour) > 1:
        where = f"{reader.path}:{tok.line}:{tok.column + len(name) + 1}"
        reader.warnings.append(f"{where}: colour {colour!r} is longer than DLX2's one character (read all the same)")


# ---- writing and printing ------------------------------------------------------------------------


def write_cover(problem: ExactCoverProblem) -> str:
    """The DLX text of `problem` (DLX1; DLX2 colours and DLX3 bounds when it has them); read_cover reads it back."""
    head = []
    for k, name in enumerate(problem.items):
        if k == problem.n_primary:
            head.append("|")
        if k < problem.n_primary and problem.bounds:
            lower, upper = problem.bound(k)
            name = (
                name if (lower, upper) == (1, 1) else f"{upper}|{name}" if lower == upper else f"{lower}:{upper}|{name}"
            )
        head.append(name)
    lines = [f"| {problem.name}"] if problem.name else []
    lines.append(" ".join(head))
    lines.extend(" ".join(problem.entries(k)) for k in range(len(problem.options)))
    return "\n".join(lines) + "\n"


def format_solution(
    problem: ExactCoverProblem,
    options: Sequence[int],
    moves: Sequence[Move] | None = None,
    number: int | None = None,
) -> str:
    """A solution as DLX1 prints it: `number:` (if given), then one line per option, ` item item...`.

    With the search's moves (solve_cover(trace=True), iter_cover), each line starts at the item branched
    on and ends with ` (k of n)`, and DLX3's null moves print as ` null NAME (k of n)`: Knuth's output
    byte for byte. Without them, the options in the order given, their items as written.
    """
    lines = [f"{number}:"] if number is not None else []
    if moves is None:
        lines.extend(" " + " ".join(problem.entries(k)) for k in options)
    else:
        for move in moves:
            if move.option < 0:
                text = f" null {problem.items[move.item]}"
            else:
                entries = problem.entries(move.option)
                at = problem.options[move.option].index(move.item)
                text = " " + " ".join(entries[at:] + entries[:at])
            lines.append(f"{text} ({move.position} of {move.degree})")
    return "\n".join(lines) + "\n"


# ---- a grid puzzle's exact cover, and the DLX1 views kept for older callers ------------------------


def item_names(puzzle: GridPuzzle, compiled: CompiledPuzzle) -> list[str]:
    """The DLX name of every item of `compiled`, in item order: p3_7, r3v5, c7v5, b2v5, u12v5 (module docstring)."""
    names = [""] * compiled.cover.n_items
    n = puzzle.n
    for cell, item in enumerate(compiled.cell_item.tolist()):
        if item >= 0:
            r, c = divmod(cell, n)
            names[item] = f"p{r + 1}_{c + 1}"
    for k, prefix in enumerate(_unit_prefixes(puzzle)):
        for v, item in enumerate(compiled.unit_item[k].tolist()):
            if item >= 0:
                names[item] = f"{prefix}v{v}"
    too_long = next((name for name in names if len(name) > MAX_NAME), None)
    if too_long:
        raise CpModelsError(f"item name {too_long!r} is longer than DLX's {MAX_NAME} characters")
    return names


def _unit_prefixes(puzzle: GridPuzzle) -> list[str]:
    """r3 for row 3, c7 for column 7, b2 for the 2nd other unit; u12 for unit 12 when its name is taken."""
    n, seen, others = puzzle.n, set(), 0
    prefixes = []
    for k, unit in enumerate(puzzle.units, start=1):
        rows, cols = {i // n for i in unit}, {i % n for i in unit}
        if len(unit) == n and len(rows) == 1:
            prefix = f"r{rows.pop() + 1}"
        elif len(unit) == n and len(cols) == 1:
            prefix = f"c{cols.pop() + 1}"
        else:
            others += 1
            prefix = f"b{others}"
        prefix = f"u{k}" if prefix in seen else prefix
        seen.add(prefix)
        prefixes.append(prefix)
    return prefixes


def write_exact_cover(
    primary: Sequence[str], secondary: Sequence[str], options: Sequence[Sequence[str]], comments: Sequence[str] = ()
) -> str:
    """The DLX text of named items and options (entries as written, `name` or `name:colour`), after `|` comments."""
    head = " ".join(primary) + (" | " + " ".join(secondary) if secondary else "")
    lines = [f"| {c}" if c else "|" for c in comments] + [head] + [" ".join(o) for o in options]
    return "\n".join(lines) + "\n"


def write_dlx(puzzle: GridPuzzle) -> str:
    """The DLX1 text of `puzzle`'s exact cover, givens as their cells' only options (options in compile order).

    A puzzle the dlx backend cannot compile is refused with a CpModelsError saying why.
    """
    from ..backends.dlx import DlxBackend, compile_puzzle

    reason = DlxBackend().can_solve(puzzle)
    if reason:
        raise CpModelsError(f"cannot write its exact cover: {reason}")
    compiled = compile_puzzle(puzzle, precover=False)
    names = item_names(puzzle, compiled)
    cover = compiled.cover
    options = [[names[i] for i in cover.option(k)] for k in range(cover.n_options)]
    givens = sum(1 for g in puzzle.givens if g)
    comments = [
        f"cpmodels exact cover of {puzzle.name or 'a grid puzzle'}: order {puzzle.n}, "
        + f"{len(puzzle.units)} units, {len(puzzle.cages)} cages, {givens} givens",
        "items: pR_C cell rRcC holds a value; rRvV cCvV bKvV uKvV: row R, column C, other unit K, unit K holds V",
        "after the bar: units of fewer cells than the order (each value at most once)",
        "options: one per empty cell and value, one per allowed tuple of a cage; a given is its cell's only option",
    ]
    return write_exact_cover(names[: cover.n_primary], names[cover.n_primary :], options, comments)


def read_dlx(text: str, path: str = "<input>") -> tuple[list[str], list[str], list[list[str]]]:
    """The primary items, secondary items and options (entries as written, `name` or `name:colour`) of DLX text.

    The DLX1 view of read_cover (which see for the whole problem, bounds included); the same errors.
    """
    problem = read_cover(text, path)
    options = [problem.entries(k) for k in range(len(problem.options))]
    return list(problem.primary), list(problem.secondary), options


def cover_from_names(primary: Sequence[str], secondary: Sequence[str], options: Sequence[Sequence[str]]) -> ExactCover:
    """The numeric ExactCover of named items and options as read_dlx returns them (items numbered in order)."""
    from ..backends.dlx import cover_of

    items = (*primary, *secondary)
    number = {name: i for i, name in enumerate(items)}
    rows = [[entry.partition(":") for entry in o] for o in options]
    indices = tuple(tuple(number[name] for name, _, _ in row) for row in rows)
    colours = tuple(tuple(colour for _, _, colour in row) for row in rows)
    return cover_of(ExactCoverProblem(items, len(primary), indices, colours))


def solve_dlx(
    text: str,
    *,
    limit: int = 1,
    time_limit: float | None = None,
    path: str = "<input>",
    keep: int | None = None,
) -> tuple[CoverResult, list[list[str]]]:
    """Up to `limit` solutions of the problem in DLX text (backends.dlx.solve_cover), and its options' entries.

    Keeps every solution when limit <= KEEP_ALL, else only WITNESSES (or `keep`): a count stores no more.
    """
    from ..backends.dlx import solve_cover

    problem = read_cover(text, path)
    result = solve_cover(problem, limit=limit, time_limit=time_limit, keep=keep)
    return result, [problem.entries(k) for k in range(len(problem.options))]
