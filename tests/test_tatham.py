"""Keen and Solo game IDs (Simon Tatham's Portable Puzzle Collection): examples, round trips, bad input."""

from __future__ import annotations

import random
from math import prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpmodels import is_solution, solve
from cpmodels.errors import CpModelsError, ParseError
from cpmodels.formats.tatham import detect, read_keen, read_solo, read_text, write_keen, write_solo
from cpmodels.generate import punch, random_grid
from cpmodels.grid import Cage, GridPuzzle, latin_units
from cpmodels.sudoku import sudoku_puzzle, sudoku_units

KEEN4 = "4:_a_6bb_a_a3,a7d2m3s2a5d2m12"
KEEN6 = "6:__aa_3ba_3a_3bba3b_aa_4a_4a_3aa,d2s1a10d3m8a8m108s3s4s1a8m20m60d2a9"
SOLO6 = "2x3:4_1c5f1a3a5b5a1a3f6c4_2"
SOLO9 = "3x3:b5c8c1e9_6b9a8_5a4b8_6_1a3b9c9a8c7b2a6_3_8b2a5_6a4b5_6e3c7c9b"

EXAMPLES = [
    (KEEN4, "1243 4321 2134 3412"),
    (KEEN6, "451326 246153 362415 623541 135264 514632"),
    (SOLO6, "416325 325416 163254 254163 542631 631542"),
    (SOLO9, "675419823814327596239685741486173259352948617791256384923561478568794132147832965"),
]
SOLO_SHAPES = [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4), (5, 5)]


def read_any(text: str) -> GridPuzzle:
    return read_keen(text) if detect(text) == "keen" else read_solo(text)


def write_any(puzzle: GridPuzzle) -> str:
    return write_solo(puzzle) if not puzzle.cages else write_keen(puzzle)


# ---- planting ------------------------------------------------------------------------------


def latin_square(n: int, rng: random.Random) -> tuple[int, ...]:
    """A random Latin square: the cyclic one with rows, columns and symbols permuted."""
    rows, cols, symbols = rng.sample(range(n), n), rng.sample(range(n), n), rng.sample(range(1, n + 1), n)
    return tuple(symbols[(rows[r] + cols[c]) % n] for r in range(n) for c in range(n))


def neighbours(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    near = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
    return [a * n + b for a, b in near if 0 <= a < n and 0 <= b < n]


def partition(n: int, rng: random.Random, largest: int = 4) -> list[list[int]]:
    """A random partition of the grid into connected groups of 1..largest cells, row-major, by first cell."""
    owner = [-1] * (n * n)
    groups: list[list[int]] = []
    for start in rng.sample(range(n * n), n * n):
        if owner[start] >= 0:
            continue
        group, size = [start], rng.randint(1, largest)
        owner[start] = len(groups)
        while len(group) < size:
            frontier = [x for cell in group for x in neighbours(cell, n) if owner[x] < 0]
            if not frontier:
                break
            cell = rng.choice(frontier)
            owner[cell] = len(groups)
            group.append(cell)
        groups.append(sorted(group))
    return sorted(groups)


def fitting_clue(values: list[int], rng: random.Random) -> tuple[str, int]:
    """A random operator that the values meet, and its target."""
    if len(values) == 1:
        return "=", values[0]
    low, high = min(values), max(values)
    ops = ["+", "*"] + (["-"] + (["/"] if high % low == 0 else []) if len(values) == 2 else [])
    op = rng.choice(ops)
    return op, {"+": sum(values), "*": prod(values), "-": high - low, "/": high // max(low, 1)}[op]


def planted_keen(n: int, seed: int) -> tuple[GridPuzzle, tuple[int, ...]]:
    """A random Keen puzzle of order n with cages of 1-4 cells, and the Latin square that solves it."""
    rng = random.Random(seed)
    square = latin_square(n, rng)
    cages = []
    for group in partition(n, rng):
        op, target = fitting_clue([square[i] for i in group], rng)
        cages.append(Cage(tuple(divmod(i, n) for i in group), op, target))
    return GridPuzzle(n, latin_units(n), (0,) * (n * n), tuple(cages)), square


def planted_solo(box: tuple[int, int], seed: int) -> GridPuzzle:
    rng = random.Random(seed)
    n = box[0] * box[1]
    return sudoku_puzzle(punch(random_grid(box, rng), rng.randint(0, n * n), rng), box=box)


# ---- the examples --------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "solution"), EXAMPLES)
def test_example_is_unique_with_the_known_solution(game_id: str, solution: str) -> None:
    puzzle = read_any(game_id)
    result = solve(puzzle, limit=2)
    assert result.status == "unique"
    assert "".join(map(str, result.solutions[0])) == solution.replace(" ", "")
    assert is_solution(puzzle, result.solutions[0])


@pytest.mark.parametrize(("game_id", "solution"), EXAMPLES)
def test_example_writes_back_unchanged(game_id: str, solution: str) -> None:
    assert write_any(read_any(game_id)) == game_id


def test_keen_example_cages_in_order_of_first_cell() -> None:
    cages = read_keen(KEEN4).cages
    assert [c.label() for c in cages] == ["7+", "2/", "3*", "2-", "5+", "2/", "12*"]
    assert cages[0].cells == ((0, 0), (1, 0), (2, 0))
    assert [min(c.cells) for c in cages] == sorted(min(c.cells) for c in cages)


def test_solo_box_is_rows_by_columns() -> None:
    assert read_solo(SOLO6).units == sudoku_units(6, (2, 3))
    assert write_solo(sudoku_puzzle([0] * 36, box=(3, 2))) == "3x2:zj"


# ---- round trips ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(3, 10))
@pytest.mark.parametrize("seed", range(4))
def test_keen_round_trip_every_order(n: int, seed: int) -> None:
    puzzle, square = planted_keen(n, seed)
    assert is_solution(puzzle, square)
    game_id = write_keen(puzzle)
    assert game_id.startswith(f"{n}:")
    assert read_keen(game_id) == puzzle
    assert write_keen(read_keen(game_id)) == game_id


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 9), seed=st.integers(0, 2**32 - 1))
def test_keen_round_trip_property(n: int, seed: int) -> None:
    puzzle, _ = planted_keen(n, seed)
    game_id = write_keen(puzzle)
    assert read_keen(game_id) == puzzle
    assert write_keen(read_keen(game_id)) == game_id


@settings(max_examples=30, deadline=None)
@given(n=st.integers(3, 9), seed=st.integers(0, 2**32 - 1))
def test_keen_id_ignores_cage_and_cell_order(n: int, seed: int) -> None:
    puzzle, _ = planted_keen(n, seed)
    rng = random.Random(seed)
    shuffled = [Cage(tuple(rng.sample(c.cells, len(c.cells))), c.op, c.target) for c in puzzle.cages]
    rng.shuffle(shuffled)
    assert write_keen(GridPuzzle(n, latin_units(n), puzzle.givens, tuple(shuffled))) == write_keen(puzzle)


def test_planted_keen_solves_through_its_id() -> None:
    puzzle, square = planted_keen(5, 7)
    result = solve(read_keen(write_keen(puzzle)), limit=1)
    assert result.solutions and is_solution(puzzle, result.solutions[0])
    assert is_solution(read_keen(write_keen(puzzle)), square)


@pytest.mark.parametrize("box", SOLO_SHAPES)
@pytest.mark.parametrize("seed", range(3))
def test_solo_round_trip_every_shape(box: tuple[int, int], seed: int) -> None:
    puzzle = planted_solo(box, seed)
    game_id = write_solo(puzzle)
    assert game_id.startswith(f"{box[0]}x{box[1]}:")
    assert read_solo(game_id) == puzzle
    assert write_solo(read_solo(game_id)) == game_id


@settings(max_examples=60, deadline=None)
@given(box=st.sampled_from(SOLO_SHAPES), seed=st.integers(0, 2**32 - 1))
def test_solo_round_trip_property(box: tuple[int, int], seed: int) -> None:
    puzzle = planted_solo(box, seed)
    game_id = write_solo(puzzle)
    assert read_solo(game_id) == puzzle
    assert write_solo(read_solo(game_id)) == game_id


def test_solo_full_grid_and_empty_grid() -> None:
    full = sudoku_puzzle(random_grid((4, 4), random.Random(1)), box=(4, 4))
    assert "_16" in write_solo(full) or write_solo(full).startswith("4x4:16")
    assert read_solo(write_solo(full)) == full
    empty = sudoku_puzzle([0] * 81, box=(3, 3))
    assert write_solo(empty) == "3x3:zzzc"
    assert read_solo("3x3:zzzc") == empty


def test_solo_givens_above_nine_are_decimal() -> None:
    givens = [0] * 256
    givens[0], givens[1], givens[17] = 16, 10, 1
    game_id = write_solo(sudoku_puzzle(givens, box=(4, 4)))
    assert game_id == "4x4:16_10o1" + "z" * 9 + "d"  # 238 empty cells = 9*26 + 4
    assert read_solo(game_id).givens == tuple(givens)


def test_solo_square_shorthand_and_ignored_parameters() -> None:
    assert read_solo("3:" + SOLO9[4:]) == read_solo(SOLO9)
    assert read_solo("3x3dbr4:" + SOLO9[4:]) == read_solo(SOLO9)
    assert read_solo("3x3amd2:" + SOLO9[4:]) == read_solo(SOLO9)


def test_keen_full_parameters_are_read() -> None:
    assert read_keen("4dn:" + KEEN4[2:]) == read_keen(KEEN4)
    assert read_keen("4dxm:" + KEEN4[2:]) == read_keen(KEEN4)


def test_keen_one_cell_cage_is_a_given_written_with_a() -> None:
    puzzle = read_keen("3:_a6,m1a5m6a7")
    assert puzzle.cages[0] == Cage(((0, 0),), "=", 1)
    assert puzzle.cages[3] == Cage(((1, 1), (1, 2), (2, 1), (2, 2)), "+", 7)
    assert write_keen(puzzle) == "3:_a6,a1a5m6a7"
    assert is_solution(puzzle, (1, 2, 3, 2, 3, 1, 3, 1, 2))


@pytest.mark.parametrize(
    ("cells", "layout"),
    [
        ([tuple((r, c) for r in range(9)) for c in range(9)], "_72yyv"),  # columns: 72 joins closed by the end
        ([tuple((r, c) for c in range(9)) for r in range(9)], "yyv_72"),  # rows: 72 joins then 72 walls
    ],
)
def test_keen_runs_of_25_or_more_follow_keens_parser(cells: list[tuple], layout: str) -> None:
    puzzle = GridPuzzle(9, latin_units(9), (0,) * 81, tuple(Cage(c, "+", 45) for c in cells))
    game_id = write_keen(puzzle)
    assert game_id == f"9:{layout}," + "a45" * 9
    assert read_keen(game_id) == puzzle


def test_keen_encoder_form_of_a_long_run_is_too_long_for_keens_parser() -> None:
    # keen.c's encoder would write the column cages as _72zzv; its own parser reads z as 26 joins then a wall
    with pytest.raises(ParseError, match="covers more than the 144 inner edges") as err:
        read_keen("9:_72zzv," + "a45" * 9)
    assert err.value.column == 8


# ---- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("4:_a_6bb", 9, "layout code is too short"),
        ("4:_a_6bb_a_a3", 14, "expected ','"),
        ("4", 2, "expected ':'"),
        ("x:_a", 1, "starts with the grid size"),
        ("12:_a", 1, "not 12x12"),
        ("2:_a", 1, "not 2x2"),
        ("4dq:" + KEEN4[2:], 3, "unknown Keen difficulty"),
        ("4:_a_6bb_a_a3b,a7d2m3s2a5d2m12", 14, "covers more than the 24 inner edges"),
        ("4:_a_6bb_a_a,a7d2m3s2a5d2m12", 13, "too short"),
        ("4:_A_6bb_a_a3,a7d2m3s2a5d2m12", 4, "'A' cannot appear in a layout code"),
        ("4:_a_0bb_a_a3,a7d2m3s2a5d2m12", 6, "repeat count must be at least 1"),
        ("4:_a_6bb_a_a3,a7d2m3s2a5d2", 27, "too few clues: the layout has 7 cages, the clues stop after 6"),
        (KEEN4 + "a1", 30, "too many clues: the layout has 7 cages"),
        ("4:_a_6bb_a_a3,a7x2m3s2a5d2m12", 17, "'x' is not a Keen clue letter"),
        ("4:_a_6bb_a_a3,s7d2m3s2a5d2m12", 15, r"clue 1 's' needs a 2-cell cage, but cage 1 \(r1c1 r2c1 r3c1\) has 3"),
        ("4:_a_6bb_a_a3,a7d2m3s2a5d2d12", 27, "clue 7 'd' needs a 2-cell cage"),
        ("4:_a_6bb_a_a3,a7d2m3s2a5d2m", 28, "clue 7 'm' has no target"),
        ("4:_a_6bb_a_a3,a7d2m3s2a5d2m12,", 30, "too many clues"),
    ],
)
def test_bad_keen_id_position(text: str, column: int, message: str) -> None:
    with pytest.raises(ParseError, match=message) as err:
        read_keen(text, path="ids.txt")
    e = err.value
    assert (e.path, e.line, e.column, e.text) == ("ids.txt", 1, column, text)
    assert str(e).splitlines()[-1] == " " * 4 + " " * (column - 1) + "^"


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("2x3:4_1c5f1a3a5b5a1a3f6c4", 26, "too few cells: the description fills 35 of 36"),
        (SOLO6 + "a", 28, "too many cells"),
        (SOLO6 + "_3", 29, "too many cells"),
        ("2x3:z" + "k", 6, "too many cells"),
        ("2x3:7_1c5f1a3a5b5a1a3f6c4_2", 5, "given 7 is above 6"),
        ("2x3:10_1c5f1a3a5b5a1a3f6c4_2", 5, "given 10 is above 6"),
        ("2x3:4_1C5f1a3a5b5a1a3f6c4_2", 8, "'C' cannot appear in a Solo grid"),
        ("2x3:0_1c5f1a3a5b5a1a3f6c4_2", 5, "'0' cannot appear"),
        ("2y3:4_1c5f1a3a5b5a1a3f6c4_2", 2, "'y' is not a Solo parameter"),
        ("x3:4_1", 1, "starts with the box shape"),
        ("2x3", 4, "expected ':'"),
        ("7x7:a", 1, "at most 31 symbols; 7x7 boxes need 49"),
        ("1x3:a", 1, "at least 2, not 1x3"),
    ],
)
def test_bad_solo_id_position(text: str, column: int, message: str) -> None:
    with pytest.raises(ParseError, match=message) as err:
        read_solo(text)
    e = err.value
    assert (e.path, e.line, e.column, e.text) == ("<input>", 1, column, text)


@pytest.mark.parametrize(
    ("text", "column", "variant"),
    [
        ("3x3x:" + SOLO9[4:], 4, "Solo's X \\(diagonals\\) variant"),
        ("3x3k:" + SOLO9[4:] + ",_,a", 4, "Solo's killer variant"),
        ("9j:" + SOLO9[4:] + ",_", 2, "Solo's jigsaw variant"),
        ("3x3jx:a", 4, "Solo's jigsaw and X \\(diagonals\\) variant"),
        ("9x1:a,_", 3, "jigsaw variant"),
        ("3x3:b5,__", 7, "jigsaw layout or killer cages"),
    ],
)
def test_solo_variants_are_refused_by_name(text: str, column: int, variant: str) -> None:
    with pytest.raises(ParseError, match=variant) as err:
        read_solo(text)
    assert err.value.column == column


def test_leading_whitespace_moves_the_caret_with_the_id() -> None:
    with pytest.raises(ParseError) as err:
        read_keen("  4:_a_6bb")
    assert err.value.column == 11


# ---- writers refuse what the game cannot express -------------------------------------------


def keen_with(**change: object) -> GridPuzzle:
    puzzle = read_keen(KEEN4)
    fields = {"n": 4, "units": puzzle.units, "givens": puzzle.givens, "cages": puzzle.cages} | change
    return GridPuzzle(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("puzzle", "message"),
    [
        (keen_with(cages=(Cage(((0, 0), (1, 0), (2, 0)), None, 7), *read_keen(KEEN4).cages[1:])), "hidden operator"),
        (GridPuzzle(10, latin_units(10), (0,) * 100), "3x3 to 9x9; this puzzle is 10x10"),
        (GridPuzzle(2, latin_units(2), (0,) * 4, (Cage(((0, 0), (0, 1), (1, 0), (1, 1)), "+", 6),)), "is 2x2"),
        (sudoku_puzzle([0] * 16, box=(2, 2)), "only rows and columns"),
        (keen_with(givens=(1,) + (0,) * 15), "Keen has no givens"),
        (keen_with(cages=read_keen(KEEN4).cages[:-1]), "but r4c1 is in none"),
        (keen_with(cages=(Cage(((0, 0), (2, 0)), "+", 3), Cage(((1, 0),), "=", 4))), "cage 1 is not connected"),
        (keen_with(cages=(Cage(((0, 0), (0, 1)), "-", -1),)), "negative target"),
    ],
)
def test_write_keen_refuses(puzzle: GridPuzzle, message: str) -> None:
    with pytest.raises(CpModelsError, match=message):
        write_keen(puzzle)


def x_sudoku() -> GridPuzzle:
    diagonals = (tuple(i * 5 for i in range(4)), tuple(3 + i * 3 for i in range(4)))
    return GridPuzzle(4, sudoku_units(4, (2, 2)) + diagonals, (0,) * 16)


@pytest.mark.parametrize(
    ("puzzle", "message"),
    [
        (read_keen(KEEN4), "no cages"),
        (GridPuzzle(4, latin_units(4), (0,) * 16), "rectangular boxes"),
        (x_sudoku(), "other units"),
        (sudoku_puzzle([0] * 36 * 36, box=(6, 6)), "at most 31 symbols; this puzzle has 36"),
    ],
)
def test_write_solo_refuses(puzzle: GridPuzzle, message: str) -> None:
    with pytest.raises(CpModelsError, match=message):
        write_solo(puzzle)


# ---- detection and files -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "family"),
    [
        (KEEN4, "keen"),
        ("# Keen\n\n" + KEEN6 + "\n", "keen"),
        ("4dn:" + KEEN4[2:], "keen"),
        ("4:_a_6bb", "keen"),
        (SOLO6, "solo"),
        (SOLO9, "solo"),
        ("9j:a,b", "solo"),
        ("3x3xk:a", "solo"),
        ("4.3..1.2.4...3.1", None),
        ("003020600900305001001806400008102900700000008006708200002609500800203009005010300:1:" + "4" * 81, None),
        ("0:9:3x3:" + "." * 81, None),
        ("6\n11+ 0,0 1,0\n2/ 0,1 0,2\n", None),
        ("cage 12+ r1c1 r1c2", None),
        ("4#12345", None),
        ("", None),
        ("# only a comment\n", None),
    ],
)
def test_detect(text: str, family: str | None) -> None:
    assert detect(text) == family


def test_read_text_reads_every_good_line_past_bad_ones() -> None:
    text = "\n".join(
        ["# Tatham IDs", "", KEEN4, "2x3:4_1c5f1a3a5b5a1a3f6c4", "3x3x:b", "4.3..1.2.4...3.1", "  " + SOLO6, "2x2:1_1n"]
    )
    entries = read_text(text, path="ids.txt")
    assert [e.line for e in entries] == [3, 4, 5, 6, 7, 8]
    assert [e.puzzle is not None for e in entries] == [True, False, False, False, True, False]
    assert entries[0].puzzle == read_keen(KEEN4) and entries[4].puzzle == read_solo(SOLO6)
    errors = [e.error for e in entries if e.error]
    assert all(isinstance(e, ParseError) and e.path == "ids.txt" for e in errors)
    assert [(e.line, e.column) for e in errors[:3]] == [(4, 26), (5, 4), (6, 1)]
    assert "not a Keen or Solo game ID" in str(errors[2])
    assert errors[3].line == 8 and "given 1 at r1c2 repeats in row 1" in str(errors[3])


def test_read_text_forced_format_and_errors() -> None:
    [entry] = read_text(SOLO6, fmt="keen")
    assert entry.error is not None and "expected ':'" in str(entry.error)
    [entry] = read_text(KEEN4, fmt="keen")
    assert entry.puzzle == read_keen(KEEN4)
    [entry] = read_text("# nothing\n")
    assert entry.error is not None and "empty" in str(entry.error)
    with pytest.raises(CpModelsError, match="unknown Tatham format"):
        read_text(KEEN4, fmt="sudoku")
