"""Exact cover as a problem of its own: Knuth's DLX1-DLX3 files, the search's counts, his Sudoku exports.

Counts that are published facts, each through the file format (the problem written as DLX text, read
back, counted): n queens, Langford pairs, Latin squares, pentomino packings, 0/1 matrices with two 1s
per line (DLX3), word rectangles (DLX2, checked by brute force). The `nodes` and `updates` expected are
what Knuth's DLX1, DLX2 and DLX3 (built from his CWEB sources) print for the very text write_cover writes
for each problem: with rule="knuth" the search is his, step for step.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpmodels.backends.dlx import (
    CoverResult,
    ExactCover,
    Move,
    count_cover,
    cover_of,
    iter_cover,
    solve_cover,
)
from cpmodels.cover import ExactCoverProblem, cover_violation
from cpmodels.errors import CpModelsError, ParseError
from cpmodels.formats import FORMATS, read_text
from cpmodels.formats.dlx import (
    format_solution,
    parse_cover,
    read_cover,
    read_dlx,
    read_entries,
    sniff,
    write_cover,
)
from cpmodels.formats.knuth import dance_from_text, sudoku_dlx_from_text, write_dance, write_sudoku_dlx
from cpmodels.sudoku import sudoku_puzzle

from .conftest import shared_data

# ---- problems ------------------------------------------------------------------------------------


def problem(
    primary: list[str],
    secondary: list[str],
    options: list[str],
    name: str = "",
    bounds: list[tuple[int, int]] | None = None,
) -> ExactCoverProblem:
    """The problem with these items and options (each a line of `name` or `name:colour` entries)."""
    index = {item: k for k, item in enumerate(primary + secondary)}
    rows = [[entry.partition(":") for entry in line.split()] for line in options]
    return ExactCoverProblem(
        tuple(primary + secondary),
        len(primary),
        tuple(tuple(index[item] for item, _, _ in row) for row in rows),
        tuple(tuple(colour for _, _, colour in row) for row in rows),
        tuple(bounds or ()),
        name,
    )


def queens(n: int) -> ExactCoverProblem:
    """The n queens problem: rows and columns primary, the diagonals a(i+j) and b(i-j+n-1) secondary."""
    diagonals = [f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)]
    options = [f"r{i} c{j} a{i + j} b{i - j + n - 1}" for i in range(n) for j in range(n)]
    return problem([f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)], diagonals, options, f"{n} queens")


def langford(n: int) -> ExactCoverProblem:
    """Langford pairs: digit i at positions j and j+i+1 (a pairing and its reverse are two solutions)."""
    options = [f"d{i} s{j} s{j + i + 1}" for i in range(1, n + 1) for j in range(2 * n - i - 1)]
    items = [f"d{i}" for i in range(1, n + 1)] + [f"s{j}" for j in range(2 * n)]
    return problem(items, [], options, f"Langford pairs, n = {n}")


def latin(n: int) -> ExactCoverProblem:
    """Latin squares of order n: cell, row-value and column-value items."""
    items = [f"{kind}{a}{b}" for kind in "prc" for a in range(n) for b in range(n)]
    options = [f"p{r}{c} r{r}{v} c{c}{v}" for r in range(n) for c in range(n) for v in range(n)]
    return problem(items, [], options, f"Latin squares of order {n}")


PENTOMINOES = {
    "F": "01 02 10 11 21", "I": "00 10 20 30 40", "L": "00 10 20 30 31", "N": "01 11 20 21 30",
    "P": "00 01 10 11 20", "T": "00 01 02 11 21", "U": "00 02 10 11 12", "V": "00 10 20 21 22",
    "W": "00 10 11 21 22", "X": "01 10 11 12 21", "Y": "01 10 11 21 31", "Z": "00 01 11 21 22",
}  # fmt: skip


def shapes(cells: str) -> list[tuple[tuple[int, int], ...]]:
    """The distinct rotations and reflections of a piece, each normalised to its top left corner."""
    found = set()
    for flip in (1, -1):
        points = [(int(p[0]), flip * int(p[1])) for p in cells.split()]
        for _ in range(4):
            points = [(c, -r) for r, c in points]
            top, left = min(r for r, _ in points), min(c for _, c in points)
            found.add(tuple(sorted((r - top, c - left) for r, c in points)))
    return sorted(found)


def pentominoes(rows: int, cols: int, symmetric: bool = True) -> ExactCoverProblem:
    """The 12 pentominoes in a rows x cols box; symmetric=False: X's centre in the upper-left quarter only."""
    options = []
    for piece, cells in PENTOMINOES.items():
        for shape in shapes(cells):
            height, width = max(r for r, _ in shape) + 1, max(c for _, c in shape) + 1
            for r, c in itertools.product(range(rows - height + 1), range(cols - width + 1)):
                if piece == "X" and not symmetric and not (2 * (r + 1) < rows - 1 and 2 * (c + 1) < cols - 1):
                    continue
                options.append(" ".join([piece] + [f"{r + dr}{chr(97 + c + dc)}" for dr, dc in shape]))
    cells = [f"{r}{chr(97 + c)}" for r in range(rows) for c in range(cols)]
    return problem(list(PENTOMINOES) + cells, [], options, f"pentominoes {rows}x{cols}")


def two_per_line(n: int) -> ExactCoverProblem:
    """DLX3: n x n 0/1 matrices with exactly two 1s in every row and column (OEIS A001499)."""
    items = [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]
    options = [f"r{i} c{j}" for i in range(n) for j in range(n)]
    return problem(items, [], options, f"two 1s per line, n = {n}", [(2, 2)] * (2 * n))


WORDS = "ace act age ago aid aim air ale ant ape arc are art ate awe bad bat bed bee cab cat dab dog ear eat era gag"


def word_squares(words: str = WORDS, size: int = 3) -> ExactCoverProblem:
    """DLX2: size x size word squares (rows and columns words of the list); cells coloured by their letters."""
    cells = [f"{r}{c}" for r in range(size) for c in range(size)]
    options = [f"R{r} " + " ".join(f"{r}{c}:{w[c]}" for c in range(size)) for r in range(size) for w in words.split()]
    options += [f"C{c} " + " ".join(f"{r}{c}:{w[r]}" for r in range(size)) for c in range(size) for w in words.split()]
    rows_and_columns = [f"R{r}" for r in range(size)] + [f"C{c}" for c in range(size)]
    return problem(rows_and_columns, cells, options, "3x3 word squares")


def word_squares_by_brute_force(words: str = WORDS) -> int:
    """How many 3x3 grids have a word of the list in every row and every column."""
    known = set(words.split())
    return sum(
        all("".join(rows[r][c] for r in range(3)) in known for c in range(3))
        for rows in itertools.product(known, repeat=3)
    )


def through_the_file(p: ExactCoverProblem) -> ExactCoverProblem:
    """The problem written as DLX text and read back, asserted equal to what was written."""
    again = read_cover(write_cover(p), f"{p.name}.dlx")
    assert again == p
    return again


# ---- published counts, and Knuth's node and update counts -----------------------------------------

# (problem, its count, Knuth's nodes, Knuth's updates) as DLX1 (DLX3 for two_per_line) prints them.
PUBLISHED = [
    pytest.param(queens(6), 4, 111, 1973, id="6 queens: 4"),
    pytest.param(queens(8), 92, 1199, 21375, id="8 queens: 92"),
    pytest.param(queens(10), 724, 16448, 312964, id="10 queens: 724"),
    pytest.param(langford(7), 52, 607, 8339, id="Langford n=7: 52"),
    pytest.param(langford(8), 300, 2789, 37241, id="Langford n=8: 300"),
    pytest.param(latin(4), 576, 4745, 34017, id="Latin squares of order 4: 576"),
    pytest.param(latin(5), 161280, 1701926, 12327906, id="Latin squares of order 5: 161280"),
    pytest.param(pentominoes(3, 20), 8, 32978, 10986975, id="pentominoes 3x20: 8 (2 up to symmetry)"),
    pytest.param(two_per_line(4), 90, 300, 973, id="DLX3 two 1s a line n=4: 90"),
    pytest.param(two_per_line(5), 2040, 6150, 21913, id="DLX3 two 1s a line n=5: 2040"),
]


@pytest.mark.parametrize(("p", "count", "nodes", "updates"), PUBLISHED)
def test_published_counts_through_the_file_format_with_knuths_counters(p, count, nodes, updates):
    result = count_cover(through_the_file(p))
    assert (result.count, result.complete, result.nodes, result.updates) == (count, True, nodes, updates)
    assert len(result.solutions) == 2  # the witnesses kept, not 161280 tuples


def test_pentominoes_6x10_are_in_the_benchmark_and_the_x_restriction_is_a_quarter():
    """6x10: 2339 tilings with X in the upper-left quarter, 9356 without (3-15 s: benchmarks/bench_exact_cover.py).

    Here: the restriction keeps X's centre in rows 2-3 and columns 2-5 (1-based), 8 of its 32 places, a quarter.
    """
    restricted = pentominoes(6, 10, symmetric=False)
    x_options = [o for o in restricted.options if restricted.items[o[0]] == "X"]
    assert len(x_options) == 8 and len(pentominoes(6, 10).options) - len(restricted.options) == 24


def test_knuths_rule_against_the_first_single_rule():
    """rule='stop-at-1' (the grid backend's) finds the same solutions with other node counts."""
    p = queens(8)
    knuth, early = count_cover(p), count_cover(p, rule="stop-at-1")
    assert knuth.count == early.count == 92 and (knuth.nodes, early.nodes) == (1199, 1373)
    with pytest.raises(CpModelsError, match="unknown branching rule"):
        count_cover(p, rule="random")


def test_word_squares_dlx2_against_brute_force():
    p = through_the_file(word_squares())
    result = solve_cover(p, limit=1000)
    assert p.dialect == "DLX2" and result.complete and result.count == word_squares_by_brute_force() == 33
    assert (result.nodes, result.updates, result.cleansings) == (148, 8452, 934)  # DLX2's counters
    for solution in result.solutions:  # each solution names 3 row words and 3 column words that agree
        grid = {}
        for k in solution:
            for entry in p.entries(k)[1:]:
                cell, _, letter = entry.partition(":")
                assert grid.setdefault(cell, letter) == letter


# ---- brute force on small random problems (colours and bounds) -------------------------------------


def brute_force(p: ExactCoverProblem) -> set[frozenset[int]]:
    """Every set of options meeting the definition: primary items within bounds, secondary once or in one colour."""
    found = set()
    for size in range(len(p.options) + 1):
        for chosen in itertools.combinations(range(len(p.options)), size):
            if _meets(p, chosen):
                found.add(frozenset(chosen))
    return found


def _meets(p: ExactCoverProblem, chosen: tuple[int, ...]) -> bool:
    """Whether the options `chosen` are a solution of `p`."""
    uses: dict[int, list[str]] = {}
    for k in chosen:
        colours = p.colours[k] if p.colours else ("",) * len(p.options[k])
        for i, colour in zip(p.options[k], colours, strict=True):
            uses.setdefault(i, []).append(colour)
    for i in range(p.n_primary):
        lower, upper = p.bound(i)
        if not lower <= len(uses.get(i, [])) <= upper:
            return False
    for i in range(p.n_primary, len(p.items)):
        colours = uses.get(i, [])
        if len(colours) > 1 and ("" in colours or len(set(colours)) > 1):
            return False
    return True


@st.composite
def small_problems(draw) -> ExactCoverProblem:
    """Up to 4 primary items (bounds 0..3), up to 3 secondary, up to 10 options, colours a or b or none."""
    n_primary, n_secondary = draw(st.integers(1, 4)), draw(st.integers(0, 3))
    bounded = draw(st.booleans())
    bounds = []
    for _ in range(n_primary):
        upper = draw(st.integers(1, 3)) if bounded else 1
        bounds.append((draw(st.integers(0, upper)) if bounded else 1, upper))
    options, colours = [], []
    for _ in range(draw(st.integers(1, 10))):
        items = draw(st.sets(st.integers(0, n_primary + n_secondary - 1), min_size=1, max_size=4))
        items |= {draw(st.integers(0, n_primary - 1))}
        row = sorted(items)
        options.append(tuple(row))
        colours.append(tuple(draw(st.sampled_from(["", "a", "b"])) if i >= n_primary else "" for i in row))
    names = tuple(f"p{i}" for i in range(n_primary)) + tuple(f"s{i}" for i in range(n_secondary))
    return ExactCoverProblem(names, n_primary, tuple(options), tuple(colours), tuple(bounds))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=small_problems())
def test_every_solution_is_found_once_as_brute_force_finds_it(p):
    expected = brute_force(p)
    result = solve_cover(through_the_file(p), limit=1000)
    assert result.complete and result.count == len(expected)
    assert Counter(frozenset(s) for s in result.solutions) == Counter(expected)
    assert {frozenset(s.options) for s in iter_cover(p)} == expected
    assert count_cover(p, rule="stop-at-1").count == len(expected)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=small_problems())
def test_the_checker_accepts_exactly_the_brute_force_solutions(p):
    for size in range(min(len(p.options), 5) + 1):
        for chosen in itertools.combinations(range(len(p.options)), size):
            assert (cover_violation(p, chosen) is None) == _meets(p, chosen), chosen
    assert cover_violation(p, (0, 0)) and cover_violation(p, (len(p.options),))


# ---- limits, keep, the iterator, the numeric form ---------------------------------------------------


def test_solve_cover_stops_at_the_limit_and_keeps_what_it_is_asked_to():
    p = latin(4)
    first = solve_cover(p)
    assert first.count == 1 and not first.complete and first.stopped == "limit" and len(first.solutions) == 1
    some = solve_cover(p, limit=100, keep=3)
    assert some.count == 100 and len(some.solutions) == 3 and some.stopped == "limit"
    assert some.solutions == [s.options for s in itertools.islice(iter_cover(p), 3)]
    assert len(solve_cover(p, limit=1000).solutions) == 576  # limit <= KEEP_ALL: everything kept
    assert len(solve_cover(p, limit=5000).solutions) == 2  # above it: the witnesses
    assert len(count_cover(p, keep=0).solutions) == 0 and count_cover(p, limit=10).count == 10


@pytest.mark.parametrize(("kind", "limit"), [("nodes", 100), ("updates", 1000)])
def test_node_and_update_limits(kind, limit):
    result = count_cover(latin(5), **{f"{kind[:-1]}_limit": limit})
    assert not result.complete and result.stopped == kind and 0 < getattr(result, kind) <= limit * 1.1 + 100
    assert result.stats[kind] == getattr(result, kind) and result.stats["options"] == 125


def test_time_limit():
    result = count_cover(pentominoes(6, 10), time_limit=0.2)
    assert not result.complete and result.stopped == "time" and result.nodes > 0


def test_iter_cover_yields_every_solution_with_its_moves():
    p = langford(7)
    solutions = list(iter_cover(p))
    assert len(solutions) == 52 and len({frozenset(s.options) for s in solutions}) == 52
    assert all(len(s.moves) == len(s.options) == 7 for s in solutions)  # 7 pairs, one option each
    assert [s.options for s in iter_cover(p, limit=3)] == [s.options for s in solutions[:3]]


def test_the_numeric_form_is_solved_alike():
    p = queens(6)
    numeric = cover_of(p)
    assert isinstance(numeric, ExactCover) and numeric.n_primary == 12 and numeric.n_secondary == 22
    assert sorted(map(sorted, solve_cover(numeric, limit=10).solutions)) == sorted(
        map(sorted, solve_cover(p, limit=10).solutions)
    )
    with pytest.raises(CpModelsError, match="bounds"):
        ExactCover(1, 0, numeric.option_start[:2], numeric.option_items[:1], lower=numeric.option_start[:1])


# ---- Knuth's printed solutions ----------------------------------------------------------------------

DLX1_EXAMPLE = "| A simple example\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n"
DLX2_EXAMPLE = "| A simple example of color controls\nA B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n"
DLX3_EXAMPLE = "| A simple example of color controls\nA B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n"


@pytest.mark.parametrize(
    ("text", "printed", "counters"),
    [
        (DLX1_EXAMPLE, "1:\n A D (2 of 2)\n E F C (1 of 1)\n B G (1 of 1)\n", (6, 30, 0)),
        (DLX2_EXAMPLE, "1:\n A C X:1 Y:1 (2 of 2)\n B X:1 (1 of 1)\n", (4, 14, 5)),
        (DLX3_EXAMPLE, "1:\n A C X:1 Y:1 (2 of 2)\n B X:1 (1 of 1)\n C Y:1 (1 of 1)\n null C (1 of 1)\n", (6, 14, 7)),
    ],
    ids=["DLX1", "DLX2", "DLX3"],
)
def test_knuths_examples_print_as_his_programs_do(text, printed, counters):
    """What DLX1, DLX2 and DLX3 print with `m1` for the examples in their own documentation, byte for byte."""
    p = read_cover(text)
    result = solve_cover(p, limit=10, trace=True)
    assert result.count == 1 and (result.nodes, result.updates, result.cleansings) == counters
    assert format_solution(p, result.solutions[0], result.moves[0], number=1) == printed


def test_first_six_queens_solution_prints_as_dlx1_prints_it():
    p = queens(6)
    first = next(iter_cover(p))
    assert first.moves[0] == Move(option=1, item=0, position=2, degree=6)
    assert format_solution(p, first.options, first.moves, number=1) == (
        "1:\n r0 c1 a1 b4 (2 of 6)\n r1 c3 a4 b3 (1 of 3)\n r2 c5 a7 b2 (2 of 2)\n"
        " r3 c0 a3 b8 (1 of 2)\n r5 c4 a9 b6 (1 of 1)\n r4 c2 a6 b7 (1 of 1)\n"
    )
    assert format_solution(p, sorted(first.options)) == (
        " r0 c1 a1 b4\n r1 c3 a4 b3\n r2 c5 a7 b2\n r3 c0 a3 b8\n r4 c2 a6 b7\n r5 c4 a9 b6\n"
    )


def test_a_dlx3_solution_prints_its_moves_as_dlx3_does():
    result = solve_cover(two_per_line(4), trace=True)
    assert format_solution(two_per_line(4), result.solutions[0], result.moves[0], number=1) == (
        "1:\n r0 c0 (1 of 3)\n r1 c0 (1 of 3)\n r2 c1 (1 of 2)\n r3 c1 (1 of 2)\n"
        " r0 c2 (1 of 2)\n c3 r1 (1 of 2)\n r2 c2 (1 of 2)\n r3 c3 (1 of 1)\n"
    )


# ---- reading and writing ----------------------------------------------------------------------------


def test_the_file_reads_as_knuths_programs_read_it():
    text = "  | indented comment\nA\tB 2|C 0:3|D |X Y\n| a comment between options\n\nA C D\nB  C\tX:red\nC Y:g D\n"
    p, warnings = parse_cover(text, "x.dlx")
    assert p.items == ("A", "B", "C", "D", "X", "Y") and p.n_primary == 4 and p.name == "indented comment"
    assert p.bounds == ((1, 1), (1, 1), (2, 2), (0, 3)) and p.dialect == "DLX3"
    assert p.entries(1) == ["B", "C", "X:red"] and p.entries(2) == ["C", "Y:g", "D"]
    assert warnings == ["x.dlx:6:8: colour 'red' is longer than DLX2's one character (read all the same)"]
    assert write_cover(p) == "| indented comment\nA B 2|C 0:3|D | X Y\nA C D\nB C X:red\nC Y:g D\n"


def test_an_option_without_a_primary_item_is_dropped_with_a_warning():
    p, warnings = parse_cover(DLX2_EXAMPLE, "ex.dlx")
    assert len(p.options) == 4 and warnings == ["ex.dlx:5: option ignored (no primary items): X:0 Y:1"]
    (entry,) = read_entries(DLX2_EXAMPLE, "ex.dlx")
    assert entry.cover == p and entry.puzzle is None and entry.error is None and entry.line == 2
    assert entry.warning == "ex.dlx:5: option ignored (no primary items): X:0 Y:1"


def test_read_entries_carries_the_error():
    (entry,) = read_entries("a b\na c\n", "bad.dlx")
    assert entry.cover is None and entry.puzzle is None and isinstance(entry.error, ParseError)
    assert (entry.error.line, entry.error.column) == (2, 3) and "unknown item 'c'" in str(entry.error)


def test_sniff_tells_a_dlx_file_from_the_grid_formats():
    assert sniff([ln.strip() for ln in DLX3_EXAMPLE.splitlines()])
    assert sniff([ln.strip() for ln in write_cover(queens(4)).splitlines()])
    for text in ("." * 81, "003|020|600\n900|305|001\n", "4\n+ 7 2 1 2\n", "|1 2|\n|3 4|\n", "a b\n"):
        assert not sniff([ln.strip() for ln in text.splitlines()]), text
    assert FORMATS["dlx"].read is read_entries and FORMATS["dlx"].sniff is sniff


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        ("a b\na b a\n", "item 'a' appears twice in this option", 2, 5),
        ("a b a\na\n", r"item 'a' is named twice \(item 1 has that name\)", 1, 5),
        ("a b\na z\n", "unknown item 'z'", 2, 3),
        ("a | b | c\na\n", "a second '|' in the item line", 1, 7),
        ("a |b |c\na\n", "a second '|' in the item line", 1, 6),
        ("| c\nabcdefghi\nabcdefghi\n", "at most 8 characters", 2, 1),
        ("a ééééé\na\n", "at most 8 characters", 1, 3),
        ("a b\na b:1\n", "primary item 'b' takes no colour", 2, 4),
        ("a | x\na x:\n", "no colour after the ':'", 2, 4),
        ("a 3:2|b\na\n", "the lower bound 3 exceeds the upper bound 2", 1, 3),
        ("a 0|b\na\n", "the upper bound is zero", 1, 3),
        ("a 1:0|b\na\n", "the upper bound is zero", 1, 5),
        ("a 2:b\na\n", "a lower bound without an upper bound", 1, 4),
        ("a x1|b\na\n", "'x1' is not a bound", 1, 3),
        ("a 2|b:c\na\n", "has a ':' or a '|'", 1, 6),
        ("a | 2|b\na\n", "a secondary item has no bounds", 1, 6),
        ("a b\n:x b\n", "an empty item name", 2, 1),
        ("a\x01 b\na\n", "not printable", 1, 1),
        ("", "no item line", 1, None),
        ("| only\n|comments\n", "no item line", 1, None),
        ("| c\na b\n\n", "no options: the item line is followed by no option line", 2, None),
    ],
)
def test_bad_input_is_located(text, message, line, column):
    with pytest.raises(ParseError, match=message) as caught:
        read_cover(text, "bad.dlx")
    assert (caught.value.path, caught.value.line, caught.value.column) == ("bad.dlx", line, column)


def test_the_problem_is_validated_on_construction():
    for bad, message in [
        ((("a", "a"), 1, ((0,),)), "named twice"),
        ((("a", "b"), 0, ((0,),)), "at least one item must be primary"),
        ((("a", "b"), 1, ((1,),)), "has no primary item"),
        ((("a", "b"), 1, ((0, 0),)), "distinct items"),
        ((("a", "b"), 1, ((0, 1),), (("x", ""),)), "primary item 'a' takes no colour"),
        ((("a", "b"), 1, ((0,),), (), ((2, 1),)), "bounds 2:1"),
        ((("toolongname", "b"), 1, ((0,),)), "at most 8 characters"),
        ((("a",), 1, ((0,),), (), (), "two\nlines"), "name is one line"),
    ]:
        with pytest.raises(CpModelsError, match=message):
            ExactCoverProblem(*bad)


def test_read_dlx_is_the_dlx1_view():
    primary, secondary, options = read_dlx(DLX2_EXAMPLE)
    assert primary == ["A", "B", "C"] and secondary == ["X", "Y"] and options[1] == ["A", "C", "X:1", "Y:1"]


@pytest.mark.parametrize("p", [queens(5), langford(4), latin(3), two_per_line(3), word_squares(), pentominoes(3, 20)])
def test_round_trips(p):
    text = write_cover(p)
    assert read_cover(text) == p and write_cover(read_cover(text)) == text


# ---- Knuth's Sudoku exports --------------------------------------------------------------------------

SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def nine_lines(givens: str) -> str:
    """81 cells as the nine lines Knuth's programs read, `.` for an open cell."""
    return "".join(givens[r * 9 : r * 9 + 9].replace("0", ".") + "\n" for r in range(9))


def test_sudoku_dlx_of_a_9x9_with_two_open_cells():
    givens = "00" + SOLVED[2:]
    expected = (
        "|sudoku!..4678912!672195348!198342567!859761423!426853791!713924856!961537284!287419635!345286179\n"
        "p00 p01 r03 r05 c05 c13 b03 b05 \n"
        "p00 r05 c05 b05\n"
        "p01 r03 c13 b03\n"
    )
    assert write_sudoku_dlx(sudoku_puzzle([int(ch) for ch in givens])) == expected
    assert sudoku_dlx_from_text(nine_lines(givens)) == expected


def test_dance_of_a_9x9_with_three_open_cells_column_by_column():
    givens = "00" + SOLVED[2:80] + "0"
    expected = " p00 p01 p88 r03 b03 r05 c05 b05 c13 r89 c89 b89\np00 r05 c05 b05\np01 r03 c13 b03\np88 r89 c89 b89\n"
    assert write_dance(sudoku_puzzle([int(ch) for ch in givens])) == expected
    assert dance_from_text(nine_lines(givens)) == expected


def test_a_4x4_in_both_exports():
    puzzle = sudoku_puzzle([1, 2, 3, 4, 3, 0, 1, 2, 2, 1, 0, 3, 4, 3, 2, 1], (2, 2))
    assert write_sudoku_dlx(puzzle) == (
        "|sudoku!1234!3.12!21.3!4321\np11 p22 r14 r24 c14 c24 b04 b34 \np11 r14 c14 b04\np22 r24 c24 b34\n"
    )
    assert write_dance(puzzle) == " p11 p22 b04 r14 c14 r24 c24 b34\np11 r14 c14 b04\np22 r24 c24 b34\n"


def test_larger_orders_write_base_36_names_within_8_characters():
    p = read_cover(write_sudoku_dlx(sudoku_puzzle([0] * 256)))
    assert len(p.items) == 4 * 256 and len(p.options) == 16**3 and {"p0f", "rf9", "rfg", "bfg"} <= set(p.items)
    lines = write_dance(sudoku_puzzle([0] * 36 * 36, (6, 6))).splitlines()
    names = lines[0].split()
    assert len(names) == len(set(names)) == 4 * 36 * 36 and {len(name) for name in names} == {5}
    assert (
        names[0] == "p0000" and "r0z10" in names and len(lines) == 1 + 36**3 and lines[-1] == "p0z0z r0z10 c0z10 b0z10"
    )


def test_the_exports_refuse_what_is_not_a_plain_sudoku():
    from cpmodels.grid import GridPuzzle, latin_units

    for write in (write_sudoku_dlx, write_dance):
        with pytest.raises(CpModelsError, match="holds a plain Sudoku"):
            write(GridPuzzle(4, latin_units(4), (0,) * 16))


@pytest.mark.parametrize(
    ("change", "message", "line", "column"),
    [
        ((0, 7, "5"), "digit 5 appears in columns 0 and 7 of row 0!", 1, 8),
        ((1, 0, "5"), "digit 5 appears in rows 0 and 1 of column 0!", 2, 1),
        ((1, 2, "3"), "digit 3 appears in rows 0 and 1 of box 0!", 2, 3),
    ],
)
def test_sudoku_dlx_input_errors_are_knuths(change, message, line, column):
    rows = nine_lines("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79").splitlines()
    r, c, digit = change
    rows[r] = rows[r][:c] + digit + rows[r][c + 1 :]
    with pytest.raises(ParseError, match=re.escape(message)) as caught:
        sudoku_dlx_from_text("\n".join(rows) + "\n", "p.txt")
    assert (caught.value.line, caught.value.column) == (line, column)
    with pytest.raises(ParseError, match="There are fewer than nine lines of input!"):
        sudoku_dlx_from_text("\n".join(rows[:8]) + "\n")


@pytest.mark.parametrize(
    ("row", "message", "column"),
    [
        ("8...6...3x", "Input line should have 9 characters exactly!", 10),
        ("8...6..3", "Input line should have 9 characters exactly!", 9),
        ("8..x6...3", "Illegal character in input!", 4),
        ("8..06...3", "Illegal character in input!", 4),
        ("8...6..33", r"Two identical digits in a row! \(also at r4c8\)", 9),
        ("5...6...3", r"Two identical digits in a column! \(also at r1c1\)", 1),
        ("8...6...3", None, None),
    ],
)
def test_dance_input_errors_are_knuths(row, message, column):
    rows = nine_lines("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79").splitlines()
    rows[3] = row
    text = "\n".join(rows) + "\n"
    if message is None:
        assert dance_from_text(text).startswith(" p02 p03 ")
        return
    with pytest.raises(ParseError, match=message) as caught:
        dance_from_text(text, "p.txt")
    assert (caught.value.line, caught.value.column) == (4, column)


PEERS = [
    [
        i
        for i in range(81)
        if i // 9 == cell // 9 or i % 9 == cell % 9 or (i // 27, i % 9 // 3) == (cell // 27, cell % 9 // 3)
    ]
    for cell in range(81)
]
"""The cells of each cell's row, column and box (itself included)."""


def candidates(givens: tuple[int, ...]) -> int:
    """The number of (open cell, digit) pairs that no given in the cell's row, column or box rules out."""
    return sum(9 - len({givens[i] for i in PEERS[cell]} - {0}) for cell, v in enumerate(givens) if not v)


def test_exports_of_norvig_top95_have_one_option_per_candidate_and_solve_to_the_solution():
    path = shared_data("sudoku9/norvig_top95.txt")
    for k, entry in enumerate(read_text(path.read_text())):
        puzzle = entry.puzzle
        for text in (write_sudoku_dlx(puzzle), write_dance(puzzle)):
            assert len(text.splitlines()) - 1 - text.startswith("|") == candidates(puzzle.givens)
        if k % 10 == 0:  # read back, the exact cover's one solution is the puzzle's
            p = read_cover(text)
            assert len(p.options) == candidates(puzzle.givens) and read_cover(write_cover(p)) == p
            result = solve_cover(p, limit=2)
            assert result.count == 1 and result.complete
            grid = list(puzzle.givens)
            for option in result.solutions[0]:
                cell, row_digit = p.entries(option)[:2]
                grid[int(cell[1]) * 9 + int(cell[2])] = int(row_digit[2])
            assert tuple(grid) == entry.claimed_solution


def test_the_registry_writes_both_exports():
    puzzle = sudoku_puzzle([int(ch) for ch in "00" + SOLVED[2:]])
    assert FORMATS["sudoku-dlx"].write(puzzle).startswith("|sudoku!..4678912!")
    assert FORMATS["dance"].write(puzzle).startswith(" p00 p01 r03 b03")
    assert FORMATS["dance"].families == FORMATS["sudoku-dlx"].families == ("exact cover",)


def test_cover_result_is_the_documented_shape():
    result = solve_cover(queens(4), limit=5)
    assert isinstance(result, CoverResult) and result.count == 2 and result.complete and result.stopped is None
    assert set(result.stats) >= {"nodes", "updates", "cleansings", "build_s", "search_s", "items", "options"}
    assert all(len(s) == 4 for s in result.solutions)
