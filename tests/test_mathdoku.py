"""Mathdoku: building and checking, the six text formats, hidden operators, drawings, planted puzzles, data."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpmodels import count_solutions, is_solution, solve, sudoku_puzzle
from cpmodels.cages import holds, is_reachable
from cpmodels.errors import CpModelsError, ParseError, PuzzleError
from cpmodels.formats.mathdoku import (
    FORMATS,
    HIDDEN_CAPABLE,
    detect,
    format_oneline,
    format_solution,
    read_oneline_records,
    read_puzzle,
    read_text,
    write,
)
from cpmodels.generate import planted_mathdoku, random_latin_square
from cpmodels.grid import Cage
from cpmodels.mathdoku import ambiguous_cages, disconnected_cages, hide_operators, mathdoku_puzzle

FIXTURES = Path(__file__).parent / "fixtures" / "mathdoku"
DATA = Path(__file__).parents[2] / "shared" / "data" / "kenken"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason=f"benchmark data not present at {DATA}")
EXTENSIONS = {"cagelist": "cagelist", "lettergrid": "ken", "indexgrid": "idx", "cellnames": "cells", "json": "json"}

FOUR = mathdoku_puzzle(
    4,
    [
        Cage(((0, 0), (0, 1)), "*", 12),
        Cage(((0, 2),), "=", 1),
        Cage(((0, 3), (1, 3)), "-", 1),
        Cage(((1, 0), (1, 1), (1, 2)), "*", 8),
        Cage(((2, 0), (2, 1), (3, 0)), "*", 8),
        Cage(((2, 2), (2, 3)), "/", 3),
        Cage(((3, 1), (3, 2), (3, 3)), "+", 9),
    ],
)
FOUR_SOLUTION = (3, 4, 1, 2, 2, 1, 4, 3, 4, 2, 3, 1, 1, 3, 2, 4)


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def error_of(text: str, fmt: str = "auto") -> ParseError:
    """The ParseError that reading `text` raises."""
    with pytest.raises(ParseError) as err:
        read_puzzle(text, fmt=fmt)
    return err.value


# ---- fixtures in every format ---------------------------------------------------------------


@pytest.mark.parametrize("stem", ["four", "six"])
@pytest.mark.parametrize("fmt", sorted(EXTENSIONS))
def test_fixture_formats_agree(stem: str, fmt: str) -> None:
    text = fixture(f"{stem}.{EXTENSIONS[fmt]}")
    assert detect(text) == fmt
    expected = read_puzzle(fixture(f"{stem}.json"))
    assert read_puzzle(text, fmt=fmt) == read_puzzle(text) == expected


def test_fixture_four_is_the_expected_puzzle_and_unique() -> None:
    assert read_puzzle(fixture("four.ken")) == FOUR
    result = solve(FOUR, limit=2)
    assert result.status == "unique" and result.solutions == [FOUR_SOLUTION]
    assert is_solution(FOUR, FOUR_SOLUTION)


def test_oneline_fixture_has_both_puzzles_with_count_and_solution() -> None:
    records = read_oneline_records(fixture("puzzles.txt"), "puzzles.txt")
    assert [r.ident for r in records] == ["four", "six"]
    assert [r.entry.line for r in records] == [3, 5]
    assert records[0].entry.puzzle == FOUR and records[0].solution == FOUR_SOLUTION
    assert records[1].entry.puzzle == read_puzzle(fixture("six.ken"))
    for record in records:
        assert record.count == 1 and record.difficulty == "-"
        assert solve(record.entry.puzzle, limit=2).solutions == [record.solution]


@pytest.mark.parametrize("stem", ["four", "six", "four_hidden"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_round_trip_through_every_writer(stem: str, fmt: str) -> None:
    puzzle = read_puzzle(fixture(f"{stem}.json"))
    if stem == "four_hidden" and fmt in ("cagelist", "indexgrid", "cellnames"):
        with pytest.raises(CpModelsError, match=rf"the {fmt} format cannot write hidden operators \(cage 1\)"):
            write(puzzle, fmt)
        return
    text = write(puzzle, fmt)
    assert detect(text) == fmt
    assert read_puzzle(text, fmt=fmt) == read_puzzle(text) == puzzle


def test_oneline_writer_fields() -> None:
    assert format_oneline(FOUR, 1, FOUR_SOLUTION, "easy") == (
        "puzzle:4:easy:12*@0,1 1=@2 1-@3,7 8*@4,5,6 8*@8,9,12 3/@10,11 9+@13,14,15:1:3412214342311324"
    )
    record = read_oneline_records(format_oneline(FOUR, None, FOUR_SOLUTION))[0]
    assert (record.entry.puzzle, record.count, record.solution) == (FOUR, None, FOUR_SOLUTION)


# ---- planted puzzles ---------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(n=st.integers(3, 7), seed=st.integers(0, 2**32 - 1), max_cage=st.integers(1, 5))
def test_planted_puzzles_are_solved_and_checked(n: int, seed: int, max_cage: int) -> None:
    puzzle, square = planted_mathdoku(n, random.Random(seed), max_cage=max_cage)
    assert is_solution(puzzle, square) and is_solution(hide_operators(puzzle), square)
    assert all(len(c.cells) <= max_cage for c in puzzle.cages) and disconnected_cages(puzzle) == []
    result = solve(puzzle, limit=2)
    assert result.count >= 1 and all(is_solution(puzzle, grid) for grid in result.solutions)
    assert (square in result.solutions) or result.count == 2


@settings(max_examples=20, deadline=None)
@given(n=st.integers(2, 7), seed=st.integers(0, 2**32 - 1))
def test_planted_puzzles_round_trip(n: int, seed: int) -> None:
    puzzle, _ = planted_mathdoku(n, random.Random(seed))
    for fmt in FORMATS:
        assert read_puzzle(write(puzzle, fmt), fmt=fmt) == puzzle
    hidden = hide_operators(puzzle)
    for fmt in HIDDEN_CAPABLE:
        assert read_puzzle(write(hidden, fmt), fmt=fmt) == hidden


@settings(max_examples=20, deadline=None)
@given(n=st.integers(1, 9), seed=st.integers(0, 2**32 - 1))
def test_random_latin_square_is_latin(n: int, seed: int) -> None:
    square = random_latin_square(n, random.Random(seed))
    rows = [square[r * n : (r + 1) * n] for r in range(n)]
    assert all(sorted(row) == list(range(1, n + 1)) for row in rows)
    assert all(sorted(col) == list(range(1, n + 1)) for col in zip(*rows, strict=True))


def test_random_puzzle_respects_ops() -> None:
    puzzle, square = planted_mathdoku(5, random.Random(7), ops=("-", "/"))
    assert {c.op for c in puzzle.cages} <= {"-", "/", "="} and is_solution(puzzle, square)
    with pytest.raises(CpModelsError, match="ops among"):
        planted_mathdoku(4, random.Random(1), ops=("%",))


# ---- no solution and several solutions -----------------------------------------------------


def row_sum_contradiction(n: int, j: int) -> list[Cage]:
    """Row 1 split after j cells into + cages whose targets add up to one less than 1 + 2 + ... + n."""
    total = n * (n + 1) // 2
    left, right = j * (j + 1) // 2, total - j * (j + 1) // 2 - 1
    cages = [Cage(tuple((0, c) for c in range(j)), "+", left), Cage(tuple((0, c) for c in range(j, n)), "+", right)]
    return cages + [Cage(tuple((r, c) for c in range(n)), "+", total) for r in range(1, n)]


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_row_sums_that_contradict_have_no_solution(data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 6))
    j = data.draw(st.integers(1, n - 1))
    puzzle = mathdoku_puzzle(n, row_sum_contradiction(n, j))
    assert count_solutions(puzzle, limit=2) == 0
    assert solve(puzzle).status == "none"


def test_two_equal_givens_in_a_row_have_no_solution() -> None:
    cages = [Cage(((0, 0),), "=", 1), Cage(((0, 1),), "=", 1), Cage(((0, 2), (1, 2), (2, 2)), "+", 6)]
    cages += [Cage(((r, 0), (r, 1)), "+", 5 - r) for r in (1, 2)]
    assert count_solutions(mathdoku_puzzle(3, cages), limit=2) == 0


def test_rows_of_sums_have_many_solutions() -> None:
    puzzle = mathdoku_puzzle(4, [Cage(tuple((r, c) for c in range(4)), "+", 10) for r in range(4)])
    assert count_solutions(puzzle, limit=3) == 3
    assert count_solutions(puzzle, limit=1000) == 576  # every 4x4 Latin square


# ---- hidden operators --------------------------------------------------------------------------


def test_hidden_operators_of_four() -> None:
    hidden = read_puzzle(fixture("four_hidden.json"))
    assert hidden == hide_operators(FOUR)
    assert [c.op for c in hidden.cages] == [None, "=", None, None, None, None, None]
    assert ambiguous_cages(FOUR) == [(4, ("+", "*")), (5, ("+", "*")), (6, ("+", "-", "*", "/"))]
    assert count_solutions(hidden, limit=5) == 3
    assert all(is_solution(hidden, grid) for grid in solve(hidden, limit=5).solutions)


def test_hidden_operators_of_six_stay_unique() -> None:
    six = read_puzzle(fixture("six.ken"))
    assert ambiguous_cages(six) == [(1, ("-", "*", "/")), (13, ("-", "*", "/"))]
    assert count_solutions(hide_operators(six), limit=2) == 1


def test_hidden_operator_written_and_read() -> None:
    hidden = hide_operators(FOUR)
    assert "a: 12\n" in write(hidden, "lettergrid")
    assert write(hidden, "oneline").startswith("puzzle:4:-:12@0,1 1=@2 1@3,7 ")
    assert '"op": null' in write(hidden, "json")


# ---- checking puzzles --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "cages", "message"),
    [
        (6, [Cage(((0, 1), (0, 2)), "/", 7)], "cage 1 (r1c2 r1c3): no two values in 1..6 have quotient 7"),
        (6, [Cage(((0, 1), (0, 2), (0, 3)), "+", 40)], "cage 1 (r1c2 r1c3 r1c4): no 3 values in 1..6 have sum 40"),
        (4, [Cage(((0, 0), (1, 0)), "*", 7)], "cage 1 (r1c1 r2c1): no two values in 1..4 have product 7"),
        (4, [Cage(((0, 0), (1, 0)), "-", 4)], "cage 1 (r1c1 r2c1): no two values in 1..4 have difference 4"),
        (4, [Cage(((0, 0), (1, 0)), None, 13)], "cage 1 (r1c1 r2c1): no two values in 1..4 make 13 with any operator"),
        (4, [Cage(((0, 0),), "=", 5)], "cage 1 (r1c1): 5 is not a value in 1..4"),
        (4, [Cage(((0, 0), (0, 1), (0, 2)), "-", 1)], "cage 1 (r1c1 r1c2 r1c3): '-' needs exactly 2 cells"),
        (2, [Cage(((0, 0), (0, 1)), "+", 3), Cage(((0, 0),), "=", 1)], "r1c1 is in cages 1 and 2"),
        (2, [Cage(((0, 0), (0, 1)), "+", 3), Cage(((1, 0),), "=", 1)], "r2c2 is in no cage"),
        (2, [Cage(((0, 0), (0, 2)), "+", 3)], "cage 1: cell r1c3 is outside the 2x2 grid"),
    ],
)
def test_bad_puzzles_are_named_in_words(n: int, cages: list[Cage], message: str) -> None:
    with pytest.raises(PuzzleError) as err:
        mathdoku_puzzle(n, cages)
    assert str(err.value) == message


def test_single_cell_cages_become_givens_and_cages_are_sorted() -> None:
    puzzle = mathdoku_puzzle(2, [Cage(((1, 1), (1, 0)), "+", 3), Cage(((0, 1),), "+", 2), Cage(((0, 0),), None, 1)])
    assert puzzle.cages == (
        Cage(((0, 0),), "=", 1),
        Cage(((0, 1),), "=", 2),
        Cage(((1, 0), (1, 1)), "+", 3),
    )


def test_disconnected_cages_are_reported() -> None:
    puzzle = read_puzzle("aba\nbbb\nccc\n\na: 2*\nb: 8+\nc: 6+\n")
    assert disconnected_cages(puzzle) == [1]
    assert disconnected_cages(FOUR) == []


# ---- bad input, located ------------------------------------------------------------------------

BAD_INPUTS = [
    # (text, format, message, line, column)
    ("4\n+ 3 2 1 2\n* 12 3 3 4\n", "cagelist", "the count says 3 cells, but 2 follow", 3, 6),
    ("4\n+ 3 2 1 2\n% 12 2 3 4\n", "cagelist", "unknown operator '%' (use + - * / =, or x × ÷)", 3, 1),
    ("4\n+ 3 2 1 17\n", "cagelist", "cell 17 is outside 1..16", 2, 9),
    ("4\n+ 3 2 1 2\n+ 3 2 2 3\n", "cagelist", "r1c2 is in cages 1 and 2", 3, 7),
    ("4\n+ 3 2 1 1\n", "cagelist", "r1c1 appears twice in cage 1", 2, 9),
    (
        "# order\n4\n+ 3 2 1 2\n/ 7 2 3 4\n",
        "cagelist",
        "cage 2 (r1c3 r1c4): no two values in 1..4 have quotient 7",
        4,
        3,
    ),
    ("2\n+ 3 2 1 2\n$\n+ 3 2 3 4\n", "cagelist", "text after the closing `$`", 4, 1),
    ("2\n+ 3 2 1 2\n", "cagelist", "r2c1 is in no cage", 1, 1),
    ("x\n+ 3 2 1 2\n", "cagelist", "expected the order n (a positive integer), found 'x'", 1, 1),
    ("4\n+ 3\n", "cagelist", "expected `op target count cell...`, such as `+ 11 2 1 7`", 2, 4),
    (
        "aab\nacb\nddd\n\na: 3+\nb: 4+\nd: 6+\n",
        "lettergrid",
        "cage letter 'c' (first at r2c2) has no legend line such as `c: 12+`",
        2,
        2,
    ),
    ("aab\nab\nddd\n\na: 3+\nb: 4+\nd: 6+\n", "lettergrid", "grid row 2 has 2 cells, but the first row has 3", 2, 3),
    ("aab\nabbb\nddd\n\na: 3+\nb: 4+\nd: 6+\n", "lettergrid", "grid row 2 has 4 cells, but the first row has 3", 2, 4),
    (
        "aab\na%b\nddd\n\na: 3+\nb: 4+\nd: 6+\n",
        "lettergrid",
        "'%' is not a cage letter (use a-z, A-Z, or a digit for a given)",
        2,
        2,
    ),
    ("aab\nabb\n\na: 3+\nb: 4+\n", "lettergrid", "the grid has 2 rows, but its first row has 3 cells", 4, 1),
    ("ab\nab\n\na: 3+\nb: 3+\nq: 1-\n", "lettergrid", "legend letter 'q' is not used in the grid", 6, 1),
    ("ab\nab\n\na: 3+\nb: 3+\n  a: 3*\n", "lettergrid", "legend letter 'a' is defined twice (first on line 4)", 6, 3),
    ("ab\nab\n\na: 3+\nb: 3%\n", "lettergrid", "unknown operator '%' (use + - * / =, or x × ÷)", 5, 5),
    ("ab\nab\n\na: 3+\nb: +\n", "lettergrid", "expected a target after ':'", 5, 4),
    ("ab\nab\n\na: 3+\nb: 4+\n", "lettergrid", "cage 2 (r1c2 r2c2): no two values in 1..2 have sum 4", 5, 4),
    ("aab\nab4\nccc\n\na: 4+\nb: 3+\nc: 6+\n", "lettergrid", "cage 3 (r2c3): 4 is not a value in 1..3", 2, 3),
    ("2 2\n0 0\n1 2\n0 + 3\n1 + 3\n", "indexgrid", "cage index 2 is outside 0..1 (the first line says 2 cages)", 3, 3),
    ("2 3\n0 0\n1 2\n0 + 3\n1 + 1\n", "indexgrid", "cage index 2 (first at r2c2) has no `2 op target` line", 3, 3),
    ("2 2\n0 0\n1 1\n0 + 3\n0 + 3\n", "indexgrid", "cage index 0 is defined twice (first on line 4)", 5, 1),
    ("2 2\n0 0\n1\n0 + 3\n1 + 3\n", "indexgrid", "grid row 2 has 1 cells, but the order is 2", 3, 2),
    ("2 2\n0 0\n1 1\n0 + 3\n1 ? 3\n", "indexgrid", "unknown operator '?' (use + - * / =, or x × ÷)", 5, 3),
    ("2\n3 + A1 B1\n3 + A2 C2\n", "cellnames", "'C2' is not a cell of the 2x2 grid (column A-B, row 1-2)", 3, 8),
    ("2\n3 + A1 B1\n3 +\n", "cellnames", "expected the cage's cells, such as A1 A2", 3, 4),
    ("2\n3 + A1 B1\n3+ A2 A1\n", "cellnames", "r1c1 is in cages 1 and 2", 3, 7),
    (
        '{"size": 2, "cages": [\n  {"cells": [[0, 0]], "op": "+" "target": 1}\n]}',
        "json",
        "Expecting ',' delimiter",
        2,
        33,
    ),
    (
        '{"size": 2, "cages": [\n  {"cells": [[0, 0], [0, 1]], "op": "+", "target": "3"}\n]}',
        "json",
        'cage 1: "target" must be an integer, not "3"',
        2,
        42,
    ),
    (
        '{"size": 2, "cages": [\n  {"cells": [[0, 0], [0, 2]], "op": "+", "target": 3}\n]}',
        "json",
        "cage 1: cell [0, 2] is not a [row, column] pair in 0..1",
        2,
        4,
    ),
    (
        '{"size": 2, "cages": [\n  {"cells": [[0, 0], [0, 1]], "op": "+", "target": 3}\n]}',
        "json",
        "r2c1 is in no cage",
        1,
        2,
    ),
    ('{"size": 0, "cages": []}', "json", '"size" must be a positive integer, not 0', 1, 2),
    ("p:2:-:3+@0,1 3+@2,4", "oneline", "cell 4 is outside 0..3", 1, 19),
    ("p:2:-:3+@0,1 3+2,3", "oneline", "expected a cage such as 13+@24,30,31, found '3+2,3'", 1, 14),
    ("p:2:-:3+@0,1 3+@2,3:1:1221x", "oneline", "the solution has 5 values, but an order-2 grid has 4 cells", 1, 23),
    ("p:2:-", "oneline", "expected <id>:<n>:<difficulty>:<cages>[:<count>[:<solution>]], found 3 field(s)", 1, 6),
]


@pytest.mark.parametrize(("text", "fmt", "message", "line", "column"), BAD_INPUTS)
def test_bad_input_is_located(text: str, fmt: str, message: str, line: int, column: int) -> None:
    err = error_of(text, fmt)
    assert (err.message, err.line, err.column) == (message, line, column)
    assert err.text == text.split("\n")[line - 1]


def test_parse_error_shows_path_line_and_caret() -> None:
    with pytest.raises(ParseError) as err:
        read_puzzle("4\n+ 3 2 1 2\n* 12 3 3 4\n", path="bad.txt")
    assert str(err.value) == "bad.txt:3:6: the count says 3 cells, but 2 follow\n    * 12 3 3 4\n         ^"


def test_one_bad_oneline_puzzle_does_not_stop_the_rest() -> None:
    text = "# two good, one bad\na:2:-:3+@0,1 3+@2,3\nb:2:-:3+@0,1 9+@2,3\n\nc:2:-:1-@0,2 1-@1,3::\n"
    entries = read_text(text, "many.txt")
    assert [e.line for e in entries] == [2, 3, 5]
    assert entries[0].puzzle is not None and entries[2].puzzle is not None
    error = entries[1].error
    assert isinstance(error, ParseError)
    assert (error.message, error.line, error.column) == ("cage 2 (r2c1 r2c2): no two values in 1..2 have sum 9", 3, 14)
    assert entries[0].puzzle.name == "a"


def test_empty_and_unknown_inputs() -> None:
    assert read_text("# nothing\n\n")[0].error is not None
    assert "not a Mathdoku file" in str(read_text("hello world\n")[0].error)
    with pytest.raises(CpModelsError, match="unknown Mathdoku format 'nope'"):
        read_text("4\n", fmt="nope")


@pytest.mark.parametrize(
    "text",
    [
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293\n",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:1:" + "4" * 81 + "\n",
        "0:9:3x3:" + "." * 81 + ":1:\n",
        "5 3 . | . 7 . | . . .\n6 . . | 1 9 5 | . . .\n. 9 8 | . . . | . 6 .\n------+-------+------\n",
        "53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n.6....28.\n...419..5\n....8..79\n",
        "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n",
        '{"n": 4, "box": [2, 2], "grid": [[1, 2, 3, 4]]}',
    ],
)
def test_sudoku_text_is_not_mathdoku(text: str) -> None:
    assert detect(text) is None


# ---- writers refuse what they cannot express -----------------------------------------------


def test_lettergrid_refuses_more_cages_than_letters() -> None:
    n = 12
    square = random_latin_square(n, random.Random(3))
    cages = [
        Cage(((r, c), (r, c + 1)), "+", square[r * n + c] + square[r * n + c + 1])
        for r in range(n)
        for c in range(0, n, 2)
    ]
    puzzle = mathdoku_puzzle(n, cages)
    with pytest.raises(CpModelsError, match="the lettergrid format has 52 cage letters, but this puzzle needs 72"):
        write(puzzle, "lettergrid")
    assert read_puzzle(write(puzzle, "json")) == puzzle


def test_lettergrid_writes_large_givens_as_letters() -> None:
    n = 10
    square = random_latin_square(n, random.Random(5))
    puzzle = mathdoku_puzzle(n, [Cage((divmod(i, n),), "=", v) for i, v in enumerate(square)])
    text = write(puzzle, "lettergrid")
    assert "a: 10\n" in text and read_puzzle(text) == puzzle


def test_writers_refuse_a_sudoku() -> None:
    with pytest.raises(CpModelsError, match="only a Mathdoku"):
        write(sudoku_puzzle([0] * 16), "json")


def test_cellnames_refuses_orders_above_26() -> None:
    square = random_latin_square(27, random.Random(27))
    puzzle = mathdoku_puzzle(27, [Cage((divmod(i, 27),), "=", v) for i, v in enumerate(square)])
    with pytest.raises(CpModelsError, match="orders up to 26, not 27"):
        write(puzzle, "cellnames")


# ---- drawing -----------------------------------------------------------------------------------

FOUR_DRAWN = """\
+----+----+----+----+
|12*      |1   |1-  |
| 3    4  | 1  | 2  |
+----+----+----+    +
|8*            |    |
| 2    1    4  | 3  |
+----+----+----+----+
|8*       |3/       |
| 4    2  | 3    1  |
+    +----+----+----+
|    |9+            |
| 1  | 3    2    4  |
+----+----+----+----+"""


def test_format_solution_draws_walls_labels_and_values() -> None:
    assert format_solution(FOUR, FOUR_SOLUTION) == FOUR_DRAWN
    assert format_solution(FOUR) == "\n".join(ln for i, ln in enumerate(FOUR_DRAWN.split("\n")) if i % 3 != 2)


def test_format_solution_order_12() -> None:
    puzzle, square = planted_mathdoku(12, random.Random(12))
    drawing = format_solution(puzzle, square).split("\n")
    assert len(drawing) == 3 * 12 + 1 and len({len(line) for line in drawing}) == 1
    assert " 12 " in drawing[2 + 3 * (square.index(12) // 12)]


# ---- the benchmark data ------------------------------------------------------------------------


def data_records(name: str, every: int = 1) -> list:
    """The records of every `every`-th puzzle of a data file, sampled before parsing."""
    lines = [ln for ln in (DATA / name).read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    return read_oneline_records("\n".join(lines[::every]), name)


@needs_data
@pytest.mark.parametrize(
    ("name", "every"), [("handmade_small.txt", 1)] + [(f"arithmatrix_{n}x{n}.txt", 50) for n in (4, 5, 6, 7)]
)
def test_data_counts_and_solutions(name: str, every: int) -> None:
    records = data_records(name, every)
    assert records
    for record in records:
        assert record.entry.error is None, record.entry.error
        result = solve(record.entry.puzzle, limit=2)
        assert result.count == record.count == 1, record.ident
        assert result.solutions == [record.solution], record.ident


@needs_data
def test_every_data_puzzle_reads() -> None:
    for path in sorted(DATA.glob("*.txt")):
        text = path.read_text()
        assert detect(text) == "oneline", path.name
        records = read_oneline_records(text, path.name)
        assert len(records) in (14, 1000) and all(r.entry.error is None for r in records), path.name
        assert all(r.count == 1 and r.solution for r in records), path.name


@needs_data
@pytest.mark.parametrize(("folder", "fmt"), [("kenken-rs", "lettergrid"), ("mathdoku-solver", "indexgrid")])
def test_originals_match_handmade(folder: str, fmt: str) -> None:
    handmade = {r.ident: r.entry.puzzle for r in data_records("handmade_small.txt")}
    files = sorted((DATA / "original" / folder).iterdir())
    assert len(files) == 7
    for path in files:
        text = path.read_text()
        assert detect(text) == fmt
        assert read_puzzle(text, str(path)) == handmade[f"{folder}-{path.name.removesuffix('.ken')}"], path.name


@pytest.mark.parametrize("n", [10, 11, 12])
def test_orders_above_nine_in_every_format(n: int) -> None:
    """Orders 10 to 12 round-trip through every format that can express them and solve to a checked grid."""
    puzzle, square = planted_mathdoku(n, random.Random(n), max_cage=3)
    for fmt in FORMATS:
        try:
            text = write(puzzle, fmt)
        except CpModelsError as refusal:  # only lettergrid may run out of letters, and only with over 52 cages
            assert fmt == "lettergrid" and len(puzzle.cages) > 52 and "52 cage letters" in str(refusal)
            continue
        assert read_puzzle(text, fmt=fmt) == puzzle
    assert is_solution(puzzle, square)
    result = solve(puzzle, limit=1, time_limit=60)
    assert result.status == "solved" and is_solution(puzzle, result.solutions[0])


# ---- reachability: bounds and a bounded search, never an enumeration of n ** cells -----------------


def _brute_reachable(cells: list[tuple[int, int]], op: str | None, target: int, n: int) -> bool:
    """Whether some values 1..n, different in each row and column, meet the cage: every tuple tried."""
    share = [
        [j for j in range(i) if cells[i][0] == cells[j][0] or cells[i][1] == cells[j][1]] for i in range(len(cells))
    ]
    for values in itertools.product(range(1, n + 1), repeat=len(cells)):
        if all(values[i] != values[j] for i in range(len(cells)) for j in share[i]) and holds(op, target, values):
            return True
    return False


@settings(max_examples=400, deadline=None)
@given(
    n=st.integers(1, 6),
    data=st.data(),
    op=st.sampled_from(["+", "-", "*", "/", "=", None]),
    target=st.one_of(st.integers(-2, 40), st.integers(0, 6**4 + 1)),
)
def test_reachability_agrees_with_every_tuple_tried(n: int, data: st.DataObject, op: str | None, target: int) -> None:
    grid = [(r, c) for r in range(n) for c in range(n)]
    cells = data.draw(st.lists(st.sampled_from(grid), min_size=1, max_size=min(4, n * n), unique=True))
    assert is_reachable(cells, op, target, n) == _brute_reachable(cells, op, target, n)


@pytest.mark.parametrize(
    ("op", "target", "reachable"),
    [
        ("*", 0, False),
        ("+", 10**18 - 1, False),
        ("+", 45, True),
        ("+", 44, False),
        ("*", 362880, True),
        ("*", 2, False),
    ],
)
def test_cages_too_big_to_enumerate_are_checked(op: str, target: int, reachable: bool) -> None:
    row = [(0, c) for c in range(9)]  # 9 ** 9 tuples: the old check took such cages as reachable unseen
    assert is_reachable(row, op, target, 9) is reachable


def _one_big_hidden_cage(target: int) -> str:
    """A 9x9 oneline Mathdoku: an 8-cell hidden-operator cage in rows 1-2 (a 2x4 block), every other cell a given."""
    square = random_latin_square(9, random.Random(81))
    block = [0, 1, 2, 3, 9, 10, 11, 12]
    givens = " ".join(f"{square[i]}=@{i}" for i in range(81) if i not in block)
    return f"big:9:-:{target}@{','.join(map(str, block))} {givens}\n"


def test_an_8_cell_hidden_operator_cage_reads_without_enumerating_its_tuples() -> None:
    square = random_latin_square(9, random.Random(81))
    total = sum(square[i] for i in (0, 1, 2, 3, 9, 10, 11, 12))
    puzzle = read_puzzle(_one_big_hidden_cage(total), fmt="oneline")
    assert puzzle.cages[0].op is None and len(puzzle.cages[0].cells) == 8 and is_solution(puzzle, square)
    error = error_of(_one_big_hidden_cage(19), "oneline")  # a sum of 8 is at least 20 here, 19 is prime: no product
    assert error.message.endswith("no 8 values in 1..9 make 19 with any operator")


# ---- streams, claims, JSON ---------------------------------------------------------------------------


def test_sections_between_separator_lines_are_puzzles_each_located() -> None:
    text = write(FOUR, "cagelist") + "---\n" + write(FOUR, "cagelist").replace("+ 9 3", "+ 99 3")
    entries = read_text(text, "two.txt")
    assert entries[0].puzzle == FOUR and entries[0].line == 1 and entries[1].line == 11
    assert (entries[1].error.line, entries[1].error.column) == (18, 3)


def test_json_values_one_after_another_are_puzzles() -> None:
    compact = write(FOUR, "json").replace("\n", "")
    entries = read_text(write(FOUR, "json") + compact + "\n" + compact + "\n", "many.json")
    assert [e.puzzle for e in entries] == [FOUR] * 3 and [e.line for e in entries] == [1, 10, 11]
    bad = read_text(compact + '\n{"size": 4, "cages": 7}\n', "bad.json")
    assert bad[0].puzzle == FOUR and (bad[1].error.line, bad[1].error.column) == (2, 1)


def test_oneline_count_and_solution_are_the_entrys_claims() -> None:
    entries = read_text(fixture("puzzles.txt"))
    assert entries[0].claimed_count == 1 and entries[0].claimed_solution == FOUR_SOLUTION


def test_orders_above_the_largest_read_are_refused_where_written() -> None:
    error = error_of("101\n= 1 1 1\n")
    assert (error.line, error.column) == (1, 1) and "order 101 is above 100" in error.message
