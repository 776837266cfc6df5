"""The plain-line reader (formats/plain_lines.py) reads each line as the line reader of formats/sudoku.py does.

Every content line is compared with formats.iter_entries(fmt="line"): its number, and for a row read at once
the puzzle, the recorded count and solution; a line left to the line reader must give the very same Entry.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from cpmodels import formats
from cpmodels.formats.plain_lines import NO_COUNT, PlainLines, long_plain_sample, read_plain_lines, sample_lines
from cpmodels.formats.sudoku import detect_layout, format_line
from cpmodels.generate import punch, random_grid

from . import conftest
from .test_bulk import plain_and_odd_lines


def same_as_the_line_reader(text: str, path: str = "f.txt", box=None, symbols: str = "") -> PlainLines:
    """The plain lines of `text`, after asserting that each content line reads as iter_entries reads it."""
    found = read_plain_lines(text, path, box, symbols)
    entries = list(formats.iter_entries(text, path, "line", box, symbols))
    assert len(found) == len(entries)
    for i, entry in enumerate(entries):
        assert found.line[i] == entry.line
        row = int(found.row[i])
        if row < 0:
            alone = found.entry(i)
            assert str(alone.error) == str(entry.error) and type(alone.error) is type(entry.error)
            assert replace(alone, error=None) == replace(entry, error=None)
            continue
        assert entry.puzzle is not None and entry.warning is None and entry.fmt == "line"
        assert found.template is not None and entry.puzzle == found.template.with_givens(found.givens[row].tolist())
        assert entry.puzzle.name == f"{path}:{entry.line}"
        count = int(found.counts[row])
        solution = tuple(found.solutions[row].tolist())
        assert entry.claimed_count == (None if count == NO_COUNT else count)
        assert entry.claimed_solution == (solution if any(solution) else None)
    return found


def test_plain_and_odd_lines_read_as_the_line_reader_reads_them():
    lines = plain_and_odd_lines(random.Random(3))
    text = "".join(ln + ("\r\n" if k % 5 == 1 else "\r" if k % 7 == 2 else "\n") for k, ln in enumerate(lines))
    found = same_as_the_line_reader(text)
    plain = int((found.row >= 0).sum())
    assert 110 <= plain < len(found)  # most lines read at once, the odd ones by the line reader


@pytest.mark.parametrize(
    ("box", "symbols", "alphabet"), [(None, "", ""), ((2, 8), "", ""), (None, "0123456789ABCDEF", "0123456789ABCDEF")]
)
def test_16x16_lines_in_their_symbols(box, symbols, alphabet):
    rng = random.Random(16)
    lines = []
    for k in range(30):
        grid = random_grid(box or (4, 4), rng)
        line = format_line(tuple(punch(grid, 120, rng)), alphabet)
        lines.append(line.lower() if k % 5 == 0 else line)
    lines += [lines[0].replace(".", "0"), lines[1].replace(".", "0") + "G", lines[2][:255]]
    found = same_as_the_line_reader("\n".join(lines) + "\n", box=box, symbols=symbols)
    assert found.template is not None and found.template.n == 16 and (found.row[:30] >= 0).all()


def test_no_plain_line_of_an_order_without_boxes_or_of_any_order():
    assert same_as_the_line_reader("1" * 25 + "\n" + "." * 25 + "\n").template is None  # order 5: no box shape
    assert len(read_plain_lines("# nothing\n\n", "f.txt")) == 0  # no content: plain_file leaves it to the reader
    found = same_as_the_line_reader("." * 81 + "\n" + "." * 81)  # no final line break
    assert (found.row >= 0).all() and found.line.tolist() == [1, 2]


@pytest.mark.parametrize(
    "name", ["sudoku9/magictour_top1465.txt", "sudoku9/tdoku_test_puzzles.txt", "sudoku9/serg_benchmark.txt"]
)
def test_shared_files_read_as_the_line_reader_reads_them(name):
    path = conftest.shared_data(name)
    found = same_as_the_line_reader(path.read_text(), str(path))
    assert (found.row >= 0).all()


def test_long_lines_are_detected_at_once_as_before():
    """detect_layout's shortcut for long lines agrees with its full reading of each line."""
    lines = [ln.strip() for ln in plain_and_odd_lines(random.Random(5)) if ln.strip() and not ln.startswith("#")]
    assert detect_layout(lines) == "line"  # the odd lines keep it from the shortcut
    plain = [ln for ln in lines if ":" not in ln and len(ln) == 81]
    assert detect_layout(plain) == "line" and detect_layout(["-" * 81]) == "grid"
    found = read_plain_lines("\n".join(plain), "f.txt")
    assert formats.detect_lines(sample_lines(found), "f.txt") == formats.detect("\n".join(plain), "f.txt") == "line"


def test_a_long_plain_sample_is_what_detect_layout_takes_for_lines():
    rng = random.Random(6)
    plain = [format_line(tuple(punch(random_grid((3, 3), rng), 50, rng))) for _ in range(20)]
    for lines, expected in (
        (plain, True),
        ([*plain, "." * 81, "-" * 40 + "1" + "-" * 40], True),
        ([*plain, "-" * 81], False),  # all `-`: decoration
        ([*plain, f"{plain[0]}:1:{format_line(random_grid((3, 3), rng))}", f"{plain[0]}:3"], True),
        ([*plain, f"  {plain[0]}"], False),  # read by the line reader
        (["1234341221434321", "1234341221434321"], False),  # order 4: detect_layout reads each cell
    ):
        found = read_plain_lines("\n".join(lines) + "\n", "f.txt")
        sample = sample_lines(found)
        assert long_plain_sample(found) is expected
        if expected:
            assert detect_layout(sample) == "line"
        assert formats.detect_lines(sample, "f.txt", {"line": True} if expected else {}) == formats.detect_lines(sample)
