"""A file of plain puzzle lines read at once into numpy arrays: the common one-Sudoku-a-line file.

A plain line is n*n one-character cells in the file's symbols and nothing else (no spaces, no Gecode
fields), then optionally `:count` and `:solution` (n*n cells, each a value), as cpmodels' data records
them. read_plain_lines finds them with numpy, all lines at once: each plain line of the file's most common
order whose givens repeat in no unit becomes a row of one uint8 array of givens, with its claims. Every
other content line (another order, spaces, a bad cell, a repeated given, a 16x16 that writes `0`, a Gecode
or integer line) stays text, read when it is reached by the line reader of formats/sudoku.py, which says
what is wrong with it. A row read here is what that reader makes of its line (tests/test_bulk_read.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from ..errors import CpModelsError
from ..grid import GridPuzzle
from ..sudoku import default_box, sudoku_puzzle
from .sudoku import DETECT_LINES, SYMBOLS, _parse_line, _symbol_table
from .text import Entry, content_lines, entry_from

NO_COUNT = -1
"""PlainLines.counts of a line that records no count."""
COUNT_DIGITS = 9
"""The longest recorded count read here; a longer one goes to the line reader."""
MAX_ORDER = 32
"""The largest order read here (a unit's sum of its values' bits fits 64 bits); larger ones go to the line reader."""


@dataclass(frozen=True, eq=False)
class PlainLines:
    """The content lines of a text in order (puzzle k is content line k - 1) and the plain ones as arrays.

    `line[i]` is content line i's 1-based line number and `row[i]` its row in `givens`, or -1 if it is
    read by the line reader (entry(i)), which reads `texts[i]` (the line as formats.text.content_lines
    gives it). Each row has its recorded count (NO_COUNT: none) and solution (zeros: none).
    `template` has the rows' shape (order, boxes) and no givens; None if there is no row.
    """

    path: str
    data: bytes
    starts: np.ndarray
    ends: np.ndarray
    line: np.ndarray
    row: np.ndarray
    texts: dict[int, str]
    givens: np.ndarray
    counts: np.ndarray
    solutions: np.ndarray
    template: GridPuzzle | None
    box: tuple[int, int] | None
    symbols: str

    def __len__(self) -> int:
        """The number of content lines: puzzles or errors, one each."""
        return len(self.line)

    def text(self, i: int) -> str:
        """Content line i as the line reader reads it."""
        found = self.texts.get(i)
        return found if found is not None else self.data[self.starts[i] : self.ends[i]].decode("utf-8")

    def entry(self, i: int) -> Entry:
        """Content line i as formats.iter_entries reads it (format `line`): a puzzle or the error that stops it."""
        k = int(self.line[i])
        found = entry_from(k, self.path, partial(_parse_line, self.text(i), k, self.path, self.box, self.symbols))
        return found if found.fmt == "line" else replace(found, fmt="line")


def read_plain_lines(text: str, path: str, box: tuple[int, int] | None = None, symbols: str = "") -> PlainLines:
    """The content lines of `text` (read in format `line`), the plain ones as arrays of givens and claims."""
    if "\r" in text:  # the lines formats.text.split_lines finds: \r\n and a lone \r end a line too
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    data = text.encode("utf-8")
    chars = np.frombuffer(data + bytes(2 * MAX_ORDER**2 + 2 * COUNT_DIGITS), np.uint8)  # zeros: no gather leaves it
    breaks = np.flatnonzero(chars[: len(data)] == ord("\n"))
    starts = np.concatenate(([0], breaks + 1)).astype(np.int64)
    ends = np.concatenate((breaks, [len(data)])).astype(np.int64)
    if len(starts) > 1 and starts[-1] == len(data):  # a final line break ends the last line
        starts, ends = starts[:-1], ends[:-1]
    colons = np.append(np.flatnonzero(chars[: len(data)] == ord(":")), [len(data)] * 3)  # then three stand-ins
    first = np.searchsorted(colons[:-3], starts)  # each line's first colon, if it is before the line's end
    field = np.minimum(colons[first], ends) - starts
    alphabet = symbols or SYMBOLS
    template = _template(_order(field, min(len(alphabet), MAX_ORDER)), box)
    lines = np.flatnonzero(field == (template.n**2 if template else -1))
    found = _plain_rows(chars, starts[lines], ends[lines], colons, first[lines], template, alphabet, symbols)
    rows, (givens, counts, solutions) = lines[found[0]], found[1:]
    content = np.zeros(len(starts), bool)
    content[rows] = True
    others: dict[int, str] = {}
    for i in np.flatnonzero(~content).tolist():  # blank and `#` lines are no puzzle; the rest are read alone
        for _, ln in content_lines(data[starts[i] : ends[i]].decode("utf-8")):
            content[i], others[i] = True, ln
    row = np.full(len(starts), -1, np.int64)
    row[rows] = np.arange(len(rows))
    kept = np.flatnonzero(content)
    position = np.cumsum(content) - 1
    texts = {int(position[i]): ln for i, ln in others.items()}
    return PlainLines(
        path, data, starts[kept], ends[kept], kept + 1, row[kept], texts, givens, counts, solutions, template, box,
        symbols,
    )  # fmt: skip


def sample_lines(lines: PlainLines) -> list[str]:
    """The stripped first DETECT_LINES content lines: what formats.detect looks at."""
    count = min(len(lines), DETECT_LINES)
    if not count:
        return []
    raw = lines.data[: lines.ends[count - 1]].decode("utf-8").split("\n")  # one decode, not one a line
    return [lines.texts.get(i, raw[k - 1]).strip() for i, k in enumerate(lines.line[:count].tolist())]


def long_plain_sample(lines: PlainLines) -> bool:
    """Whether sudoku.detect_layout takes the sample_lines for `line` at a glance, as this reader knows without a look.

    So it does when each is a plain line of order 6 or more, not all `-` (sudoku._is_long_line).
    """
    count = min(len(lines), DETECT_LINES)
    if lines.template is None or lines.template.n < 6 or not count or (lines.row[:count] < 0).any():
        return False
    ncells = lines.template.n**2
    cells = np.frombuffer(lines.data, np.uint8)[lines.starts[:count, None] + np.arange(ncells)]
    return bool((cells != ord("-")).any(axis=1).all())


def _order(field: np.ndarray, largest: int) -> int:
    """The order n of most lines whose first field (up to a colon) is n*n characters, n at most `largest`; 0 if none."""
    squares = np.arange(1, largest + 1) ** 2
    found = np.bincount(field[np.isin(field, squares)], minlength=1)
    return int(np.sqrt(found.argmax()) + 0.5) if found.any() else 0


def _template(n: int, box: tuple[int, int] | None) -> GridPuzzle | None:
    """The empty Sudoku of order n with these boxes (default_box's without); None if there is none (n 0, 5, 7...)."""
    if not n:
        return None
    try:
        return sudoku_puzzle([0] * (n * n), box or default_box(n))
    except CpModelsError:  # every line of this order is an error, which the line reader words
        return None


def _plain_rows(
    chars: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    colons: np.ndarray,
    first: np.ndarray,
    template: GridPuzzle | None,
    alphabet: str,
    symbols: str,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Of lines of n*n characters up to their first colon (colons[first]), the plain ones: indices, givens, claims."""
    if template is None:
        nothing = np.zeros((0, 1), np.uint8)
        return np.zeros(0, np.int64), nothing, np.zeros(0, np.int64), nothing
    n = template.n
    values = np.frombuffer(chars.tobytes().translate(_table(alphabet, n).tobytes()), np.uint8)  # byte -> value
    cells = _values(values, starts, n * n)
    plain = (cells != 255).all(axis=1)
    if n == 16 and not symbols:  # a 16x16 with `0` and no `G` is read 0-F, or warned about: the reader decides
        raw = _values(chars, starts, n * n)
        plain &= ~(raw == ord("0")).any(axis=1) | ((raw == ord("G")) | (raw == ord("g"))).any(axis=1)
    counts, solutions, claims_plain = _claims(chars, colons, first, ends, values, n)
    plain &= claims_plain
    plain[plain] = _no_repeats(template, cells[plain])
    rows = np.flatnonzero(plain)
    return rows, cells[rows], counts[rows], solutions[rows]


def _table(alphabet: str, n: int) -> np.ndarray:
    """Each byte's value in an order-n grid in `alphabet` (0 for empty), 255 for a byte that is no cell."""
    table = np.full(256, 255, np.uint8)
    for ch, v in _symbol_table(alphabet, n).items():
        if ord(ch) < 128:
            table[ord(ch)] = v
    return table


def _values(chars: np.ndarray, starts: np.ndarray, width: int) -> np.ndarray:
    """The `width` bytes from each start, as rows (`chars` ends in `width` zeros).

    Starts evenly spaced (lines of one length, one after another: the common file) are copied from a
    strided view of `chars`, without an index array.
    """
    if len(starts) > 1 and starts[1] > starts[0] and (np.diff(starts) == starts[1] - starts[0]).all():
        step = int(starts[1] - starts[0])
        return np.lib.stride_tricks.as_strided(chars[starts[0] :], (len(starts), width), (step, 1)).copy()
    return chars.take(starts[:, None] + np.arange(width))


def _claims(
    chars: np.ndarray, colons: np.ndarray, first: np.ndarray, ends: np.ndarray, values: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The `:count:solution` after each line's first colon (`first` indexes `colons`): counts, solutions, plain.

    Plain: no claims; or a count of 1..COUNT_DIGITS digits or none, then nothing, an empty solution or n*n
    cells each a value 1..n in the puzzle's symbols (`values`: each byte of `chars` as one, 255 if none),
    and no further field. Other claims are left to the line reader.
    """
    counts = np.full(len(first), NO_COUNT, np.int64)
    solutions = np.zeros((len(first), n * n), np.uint8)
    plain = np.ones(len(first), bool)
    claimed = np.flatnonzero(colons[first] < ends)
    if not len(claimed):
        return counts, solutions, plain
    c1, c2, c3 = (colons[first[claimed] + j] for j in range(3))
    end = ends[claimed]
    digits = np.minimum(c2, end) - c1 - 1
    window = _values(chars, c1 + 1, COUNT_DIGITS).astype(np.int64) - ord("0")
    numeric = np.ones(len(claimed), bool)
    count = np.zeros(len(claimed), np.int64)
    for j in range(min(int(digits.max()), COUNT_DIGITS)):  # digit by digit, as far as the longest count
        place = j < digits
        numeric &= ~place | ((window[:, j] >= 0) & (window[:, j] <= 9))
        count = np.where(place, count * 10 + window[:, j], count)
    counts[claimed] = np.where(digits > 0, count, NO_COUNT)
    length = np.where(c2 < end, end - c2 - 1, 0)
    solved = np.flatnonzero(length == n * n)
    cells = _values(values, c2[solved] + 1, n * n)
    valid = ((cells >= 1) & (cells <= n)).all(axis=1)
    solutions[claimed[solved[valid]]] = cells[valid]
    whole = np.zeros(len(claimed), bool)
    whole[solved[valid]] = True
    plain[claimed] = (digits <= COUNT_DIGITS) & numeric & (c3 >= end) & ((length == 0) | whole)
    return counts, solutions, plain


def _no_repeats(template: GridPuzzle, cells: np.ndarray) -> np.ndarray:
    """Per row of givens, whether no value repeats in a unit of the template (each unit holds n cells).

    A unit's values repeat exactly when the sum of their bits 1 << (v - 1) differs from their OR; numpy
    over all rows at once, rows along the fast axis.
    """
    n = template.n
    dtype = np.uint16 if n <= 12 else np.uint32 if n <= 16 else np.uint64  # sums below 2**16, 2**32, 2**64
    bits = np.zeros(256, dtype)
    bits[1 : n + 1] = [1 << v for v in range(n)]
    units = np.array(template.units, np.intp)
    grouped = bits.take(cells.T)[units.ravel()].reshape(*units.shape, len(cells))
    return (grouped.sum(axis=1, dtype=dtype) == np.bitwise_or.reduce(grouped, axis=1)).all(axis=0)
