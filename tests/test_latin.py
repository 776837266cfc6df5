"""Latin squares and QWH: Jacobson-Matthews squares, hole punching, pls/qwh files, solving planted instances."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpmodels import is_solution, solve
from cpmodels.errors import ParseError
from cpmodels.formats import read_text as read_any
from cpmodels.formats.latin import read_text, write_pls, write_qwh
from cpmodels.generate import peak_holes, punch_holes, qwh, uniform_latin_square
from cpmodels.latin import latin_puzzle

from .conftest import data_lines, shared_data


def _is_latin(square, n):
    rows = [set(square[r * n : (r + 1) * n]) for r in range(n)]
    cols = [set(square[c::n]) for c in range(n)]
    return all(s == set(range(1, n + 1)) for s in rows + cols)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 12), seed=st.integers(0, 2**32), steps=st.integers(0, 400))
def test_jacobson_matthews_squares_are_latin(n, seed, steps):
    assert _is_latin(uniform_latin_square(n, random.Random(seed), steps), n)


def test_jacobson_matthews_reaches_both_isotopy_classes_of_order_4():
    """Order 4 has two isotopy classes: 4 intercalates (the cyclic group) or 12 (the Klein group)."""
    rng = random.Random(7)
    assert {_intercalates(uniform_latin_square(4, rng), 4) for _ in range(60)} == {4, 12}


def _intercalates(square, n):
    """The number of 2x2 Latin subsquares (rows r1 < r2, columns c1 < c2) of a row-major square."""

    def at(r, c):
        return square[r * n + c]

    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    return sum(at(r1, c1) == at(r2, c2) and at(r1, c2) == at(r2, c1) for r1, r2 in pairs for c1, c2 in pairs)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 12), seed=st.integers(0, 2**32), data=st.data())
def test_balanced_holes_are_as_equal_as_can_be(n, seed, data):
    holes = data.draw(st.integers(0, n * n))
    rng = random.Random(seed)
    punched = punch_holes(uniform_latin_square(n, rng, 0), holes, rng, balanced=True)
    assert punched.count(0) == holes
    per_row = [punched[r * n : (r + 1) * n].count(0) for r in range(n)]
    per_col = [punched[c::n].count(0) for c in range(n)]
    assert max(per_row) - min(per_row) <= 1 and max(per_col) - min(per_col) <= 1


@settings(max_examples=15, deadline=None)
@given(n=st.integers(3, 15), seed=st.integers(0, 2**32), balanced=st.booleans())
def test_planted_qwh_is_solved_and_checked(n, seed, balanced):
    puzzle, square = qwh(n, peak_holes(n), random.Random(seed), balanced)
    assert is_solution(puzzle, square)
    result = solve(puzzle, limit=2, time_limit=30)
    assert result.solutions and all(is_solution(puzzle, s) for s in result.solutions)


def test_pls_and_qwh_round_trip():
    puzzle, _ = qwh(12, 60, random.Random(3))
    assert read_text(write_pls(puzzle))[0].puzzle == puzzle
    assert read_text(write_qwh(puzzle))[0].puzzle == puzzle
    assert read_any(write_pls(puzzle))[0].puzzle == puzzle


def test_pls_errors_are_located():
    with pytest.raises(ParseError) as err:
        raise read_text("order 3\n0 1 2\n1 7 0\n2 0 1\n", "x.pls")[0].error
    assert (err.value.line, err.value.column) == (
        3,
        3,
    ) and "'7' is not -1 (a hole) or a symbol 0..2" in err.value.message


def test_qwh_hole_count_must_match():
    entry = read_text("q:2:2:0,-1,1,0")[0]
    assert entry.error and "1 holes, not 2 as stated" in entry.error.message and entry.error.column == 5


def test_repeated_symbol_in_a_row_is_bad_input_named_as_written():
    """The symbol 0 of the file is value 1 inside; the message says 0, as the file writes it."""
    entry = read_text("q:3:7:0,0,-1,-1,-1,-1,-1,-1,-1")[0]
    assert entry.error and "given 0 at r1c2 repeats in row 1 (also at r1c1)" in str(entry.error)
    column = read_text("order 2\n1 -1\n1 -1\n", fmt="pls")[0]
    assert "given 1 at r2c1 repeats in column 1 (also at r1c1)" in str(column.error)


def test_latin_squares_of_order_3():
    assert solve(latin_puzzle([0] * 9), limit=100).count == 12


def test_shared_qcp_statuses_agree():
    """SAT/UNSAT of the 2009 CSP competition instances of order 10 and 15, as stated in the data."""
    path = shared_data("qwh/csp2009_qcp_gecode.txt")
    lines = [(k, ln) for k, ln in data_lines(path) if ln.split(":")[1] in ("10", "15")]
    for k, line in lines:
        status = line.split(":")[4]
        if status == "UNKNOWN":
            continue
        puzzle = read_text(line, str(path))[0].puzzle
        result = solve(puzzle, time_limit=30)
        assert result.status == ("solved" if status == "SAT" else "none"), f"line {k}"


def test_shared_pls_files_read():
    folder = shared_data("qwh/gomes_lsencode_pls")
    for path in sorted(folder.glob("*.pls")):
        entry = read_any(path.read_text(), str(path))[0]
        assert entry.puzzle is not None, entry.error
