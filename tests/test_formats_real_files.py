"""Text as people have it, read as they mean it, or refused saying why.

Project Euler's `Grid 01` digit rows, grids between blank lines, hexadecimal 16x16, text no format takes,
recorded counts and solutions, odd line ends, and sizes no reader should build. Each test failed before
the fix it tests.
"""

from __future__ import annotations

import random

import pytest

from cpmodels import formats, solve
from cpmodels.errors import CpModelsError, ParseError
from cpmodels.formats import (
    detect,
    parse_symbols,
    read_text,
    solution_format,
    write_puzzle,
    write_puzzles,
    write_solution,
)
from cpmodels.formats.sudoku import HEX, format_grid
from cpmodels.formats.text import MAX_ORDER, split_lines
from cpmodels.generate import punch, qwh, random_grid
from cpmodels.sudoku import sudoku_puzzle

from .conftest import FIXTURES

SUDOKU = FIXTURES / "sudoku"


def _only(text: str, **options) -> formats.Entry:
    """The single entry of `text`, which must have no error."""
    entries = read_text(text, "t.txt", **options)
    assert len(entries) == 1 and entries[0].error is None, [str(e.error) for e in entries]
    return entries[0]


def _error(text: str, **options) -> ParseError:
    """The error of the first entry of `text`."""
    error = read_text(text, "t.txt", **options)[0].error
    assert isinstance(error, ParseError), error
    return error


def _digit_rows(givens, n: int) -> list[str]:
    """A grid's rows as digits without spaces, 0 for empty (n <= 9)."""
    return ["".join(str(v) for v in givens[r * n : (r + 1) * n]) for r in range(n)]


# ---- 1. digit rows, labels, grids between blank lines ------------------------------------------


def test_project_euler_style_file_reads_every_grid_named_by_its_label_and_solves():
    text = (SUDOKU / "euler_style.txt").read_text()
    entries = read_text(text, "euler.txt")
    assert detect(text) == "grid" and len(entries) == 4
    for k, entry in enumerate(entries, start=1):
        assert entry.error is None and entry.puzzle.n == 9 and entry.fmt == "grid"
        assert entry.puzzle.name.endswith(f"Grid {k:02d}") and entry.line == 3 + 10 * (k - 1)
        assert solve(entry.puzzle, limit=2).status == "unique"


def test_digit_rows_are_cells_not_one_integer():
    grid = random_grid((3, 3), random.Random(1))
    entry = _only("\n".join(_digit_rows(punch(grid, 40, random.Random(2)), 9)))
    assert entry.puzzle.givens == punch(grid, 40, random.Random(2))


def test_grouped_digit_rows_read_as_cells():
    rows = _digit_rows(random_grid((3, 3), random.Random(3)), 9)
    entry = _only("\n".join(f"{r[:3]} {r[3:6]} {r[6:]}" for r in rows))
    assert entry.puzzle.givens == random_grid((3, 3), random.Random(3))


def test_grids_between_blank_lines_are_grids_not_lines_of_order_3():
    grids = [punch(random_grid((3, 3), random.Random(s)), 45, random.Random(s)) for s in range(3)]
    text = "\n\n".join("\n".join(_digit_rows(g, 9)) for g in grids) + "\n"
    assert detect(text) == "grid"
    assert [e.puzzle.givens for e in read_text(text)] == grids


def test_a_line_of_words_labels_the_grid_after_it():
    text = "Puzzle 3 (hard, from the paper)\n1 . . .\n. . 1 .\n. 1 . .\n. . . 1\n"
    entry = _only(text)
    assert entry.puzzle.name == "t.txt:1 Puzzle 3 (hard, from the paper)" and entry.puzzle.givens[0] == 1


def test_a_bad_cell_in_a_digit_row_is_located():
    error = _error("1234\n34x2\n2143\n4321\n")
    assert (error.line, error.column) == (2, 3) and "'x' is not a value of an order-4 grid" in error.message


def test_a_row_of_dashes_is_empty_cells_not_decoration():
    text = "1 2 3 4\n- - - -\n2 1 4 3\n4 3 2 1\n"
    assert _only(text).puzzle.givens[4:8] == (0, 0, 0, 0)


# ---- 2. symbols: hexadecimal 16x16, the option, warnings ----------------------------------------


def test_hexadecimal_16x16_fixture_is_read_in_0_to_F_and_written_back_so():
    text = (SUDOKU / "hex_16x16.txt").read_text()
    entry = _only(text)
    assert entry.symbols == HEX and entry.warning is None
    assert solve(entry.puzzle, limit=2).status == "unique"
    written = write_puzzle(entry.puzzle, "grid", symbols=entry.symbols)
    assert "0" in written and "G" not in written
    assert _only(written).puzzle == entry.puzzle
    line = write_puzzle(entry.puzzle, "line", symbols=entry.symbols)
    assert _only(line).puzzle == entry.puzzle


def test_hexadecimal_line_with_dashes_for_empty_cells():
    grid = random_grid((4, 4), random.Random(5))
    line = "".join(HEX[v - 1] if v else "-" for v in punch(grid, 100, random.Random(6)))
    entry = _only(line)
    assert entry.symbols == HEX and entry.puzzle.givens == punch(grid, 100, random.Random(6))


def test_a_16x16_with_0_and_no_G_nor_dots_is_read_1_to_G_with_a_warning():
    grid = random_grid((4, 4), random.Random(7))
    givens = tuple(0 if v == 16 else v for v in grid)  # no G given; 0 for the empty cells
    entry = _only(format_grid(givens).replace(".", "0"))
    assert entry.puzzle.givens == givens and entry.symbols == ""
    assert entry.warning.startswith("t.txt:1: a 16x16 grid with '0' and no 'G'") and "--symbols 0-F" in entry.warning


def test_the_symbols_option_reads_any_alphabet():
    grid = random_grid((3, 3), random.Random(8))
    line = "".join("abcdefghi"[v - 1] for v in grid)
    assert _only(line, symbols=parse_symbols("a-i")).puzzle.givens == grid
    zero_based = "".join(str(v - 1) for v in grid)
    assert _only(zero_based, fmt="line", symbols=parse_symbols("0-8")).puzzle.givens == grid


@pytest.mark.parametrize(
    "option, symbols",
    [("0-9A-F", HEX), ("0-F", HEX), ("1-9A-G", "123456789ABCDEFG"), ("123456789ABCDEFG", "123456789ABCDEFG")],
)
def test_parse_symbols(option, symbols):
    assert parse_symbols(option) == symbols


@pytest.mark.parametrize("option, why", [("", "no symbols"), ("0-9A-F0", "'0' is named twice"), ("F-0", "nor a range")])
def test_parse_symbols_refuses_with_the_reason(option, why):
    with pytest.raises(CpModelsError, match=why):
        parse_symbols(option)


@pytest.mark.parametrize("symbol", ["ı", "ﬆ", "ǅ"])
def test_symbols_are_compared_exactly(symbol):
    """'ı'.upper() is 'I' and 'ﬆ'.upper() is 'ST': neither is a symbol."""
    error = _error(symbol + "." * 624)
    assert error.column == 1 and f"{symbol!r} is not a value of an order-25 grid" in error.message


def test_solutions_are_written_in_the_puzzles_symbols():
    entry = _only((SUDOKU / "hex_16x16.txt").read_text())
    grid = solve(entry.puzzle).solutions[0]
    line = write_solution(entry.puzzle, grid, "line", symbols=entry.symbols)
    assert set(line) == set(HEX)


# ---- 4. text no format takes -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, closest",
    [
        ("hello world\nthis is not a puzzle\n", None),
        ("1,2,3,4\n3,4,1,2\n2,1,4,3\n4,3,2,1\n", None),
        ("4\n% 1 2 3\n+ 3 1 2 x\n", "cagelist, cellnames"),
        ('{"width": 4}\n', "json"),
    ],
)
def test_text_no_format_takes_is_not_recognised_with_the_closest_formats(text, closest):
    assert detect(text) is None
    error = _error(text)
    assert error.line == 1 and error.column is None
    assert "not recognised as a puzzle in any known format" in error.message and "--from FORMAT" in error.message
    assert (f"looks closest to {closest})" in error.message) if closest else "closest" not in error.message


def test_decoration_alone_is_no_puzzle():
    error = _error("+---+\n|   |\n+---+\n")
    assert error.line == 1 and error.message.startswith("no puzzle found")


# ---- 5. pls keeps its symbols 0..n-1 ------------------------------------------------------------


def test_pls_solutions_are_written_as_pls_and_messages_say_the_symbols_as_written():
    puzzle, square = qwh(5, 10, random.Random(9))
    entry = _only(write_puzzle(puzzle, "pls"))
    assert entry.fmt == "pls" and solution_format(entry.fmt) == "pls" and solution_format("cagelist") == "grid"
    written = write_solution(entry.puzzle, square, "pls")
    assert written.splitlines()[0] == "order 5" and "-1" not in written
    assert sorted(written.split()[2:]) == sorted([str(v) for v in range(5)] * 5)
    assert _only(written).puzzle.givens == square
    qwh_line = write_solution(entry.puzzle, square, "qwh")
    assert _only(qwh_line).claimed_solution == square
    error = _error("order 3\n0 0 -1\n-1 -1 -1\n-1 -1 -1\n")
    assert error.message == "given 0 at r1c2 repeats in row 1 (also at r1c1)"


# ---- 7. sizes no reader builds --------------------------------------------------------------------


def test_a_million_character_line_is_one_located_refusal():
    entries = read_text("." * 1_000_000, "big.txt")
    assert len(entries) == 1
    assert (entries[0].error.line, entries[0].error.column) == (1, 1)
    assert f"order 1000 is above {MAX_ORDER}" in entries[0].error.message


@pytest.mark.parametrize(
    "text, fmt, where",
    [
        ("\n".join(["." * 200] * 200), "grid", (1, 1)),
        ("1000\n+ 1000000 2 1 2\n", "cagelist", (1, 1)),
        ('{"size": 1000, "cages": []}', "json", (1, 2)),
        ("order 1000\n0\n", "pls", (1, 7)),
        ("q:1000:0:0", "qwh", (1, 3)),
    ],
)
def test_orders_above_the_largest_are_refused_at_the_order(text, fmt, where):
    error = read_text(text, "big.txt", fmt)[0].error
    assert (error.line, error.column) == where and f"is above {MAX_ORDER}, the largest order" in error.message


def test_a_cage_of_every_cell_is_checked_in_bounded_time():
    n = 64
    cells = " ".join(str(i) for i in range(1, n * n + 1))
    good, bad = n * n * (n + 1) // 2, n * n * (n + 1) // 2 + 1
    assert read_text(f"{n}\n+ {good} {n * n} {cells}\n", fmt="cagelist")[0].puzzle is not None
    error = read_text(f"{n}\n+ {bad} {n * n} {cells}\n", fmt="cagelist")[0].error
    assert f"have sum {bad}" in error.message


# ---- 8. recorded counts and solutions ----------------------------------------------------------


def test_sudoku_lines_record_their_count_and_solution():
    entries = read_text((SUDOKU / "tdoku_sample.txt").read_text())
    first = entries[0]
    assert first.claimed_count == 1 and len(first.claimed_solution) == 81
    assert first.claimed_solution == solve(first.puzzle).solutions[0]
    assert any(e.claimed_count not in (None, 1) and e.claimed_solution is None for e in entries)


def test_gecode_lines_record_their_count_and_solution_in_their_symbols():
    entries = read_text((SUDOKU / "gecode_16x16_sample.txt").read_text())
    for entry in entries:
        assert entry.claimed_count is not None
        if entry.claimed_solution:
            assert entry.claimed_solution == solve(entry.puzzle).solutions[0]


def test_a_bad_claim_is_located():
    error = _error("1234341221434321:one\n")
    assert (error.line, error.column) == (1, 18) and "expected a solution count" in error.message
    error = _error("1234341221434321:1:12343412214343x1\n")
    assert (error.line, error.column) == (1, 34) and "the solution must be" in error.message


def test_qwh_status_and_solution_are_claims():
    sat = _only("q:2:2:0,-1,-1,0:SAT:0,1,1,0")
    assert sat.claimed_count is None and sat.claimed_solution == (1, 2, 2, 1)
    assert _only("q:2:4:-1,-1,-1,-1:UNSAT:").claimed_count == 0
    error = _error("q:2:2:0,-1,-1,0:MAYBE")
    assert error.column == 17 and "SAT, UNSAT or UNKNOWN" in error.message


# ---- 9. lines as an editor counts them, columns from 1 --------------------------------------------


def test_one_line_splitter_breaks_at_newline_crlf_and_lone_cr_only():
    assert split_lines("a\nb\r\nc\rd\x0ce\u2028f\x85g\n") == ["a", "b", "c", "d\x0ce\u2028f\x85g"]
    assert split_lines("") == [] and split_lines("\n") == [""]


@pytest.mark.parametrize("odd", ["\x0c", "\u2028", "\x1c", "\x85"])
def test_odd_characters_do_not_shift_line_numbers(odd):
    line = "8...x......36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    error = _error(f"# page one{odd}page two\n{line}\n")
    assert (error.line, error.column) == (2, 5)


def test_json_with_lone_carriage_returns_is_located_by_line():
    error = _error('{"size": 4,\r"cages": [x]}\r', fmt="json")
    assert (error.line, error.column) == (2, 11)


def test_a_tab_inside_a_line_is_named():
    line = "8" + "." * 39 + "\t" + "." * 41
    error = _error(line)
    assert (error.line, error.column) == (1, 41) and "'\\t' inside the puzzle" in error.message


def test_an_empty_puzzle_field_is_blamed_at_column_1():
    error = _error(":1:1234341221434321\n", fmt="line")
    assert (error.line, error.column) == (1, 1)


def test_gecode_order_field_must_match_the_grid():
    error = _error("7:9:2x2:................\n")
    assert error.column == 3 and "the order field says 9, but the grid has 16 cells, order 4" in error.message


def test_a_lettergrid_whose_first_row_is_givens_is_detected():
    text = "213\nabb\ncca\n\na: 5+\nb: 4+\nc: 3+\n"
    assert detect(text) == "lettergrid" and _only(text).puzzle is not None


def test_json_nested_deeper_than_a_puzzle_needs_is_refused_before_decoding():
    for depth in (9, 5000, 100_000):
        error = _error("[" * depth + "]" * depth, fmt="json")
        assert (error.line, error.column) == (1, 9) and "nested more than 8 deep" in error.message


def test_streams_of_puzzles_are_written_as_their_readers_read_them():
    """The stream property for every format is in test_formats_registry; here the CLI's view of it."""
    rng = random.Random(10)
    sudokus = [sudoku_puzzle(punch(random_grid((3, 3), rng), 50, rng)) for _ in range(3)]
    text = "".join(write_puzzles(sudokus, "grid"))
    assert "\n\n" in text and [e.puzzle for e in read_text(text)] == sudokus
