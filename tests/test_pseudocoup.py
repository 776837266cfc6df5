"""pseudocoup's input language (formats/pseudocoup.py), candidate hints as per-cell domains, its output form.

Each construct of the language has a test; every solution goes through the solver-free checker, which
knows the hints (grid.domain_violation); hints restrict every backend.
"""

from __future__ import annotations

import random
import re

import pytest

from cpmodels import BACKENDS, GridPuzzle, explain_violation, is_solution, solve
from cpmodels.cli import main
from cpmodels.errors import CpModelsError, PuzzleError
from cpmodels.formats import FORMATS, detect, read_text, write_puzzle, write_puzzles
from cpmodels.formats.pseudocoup import format_solution
from cpmodels.generate import punch, qwh, random_grid
from cpmodels.latin import latin_puzzle
from cpmodels.sudoku import sudoku_puzzle

SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
"""The solution of Norvig's first example, PUZZLE, which every 9x9 here comes from."""
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
GRID = [int(ch) for ch in SOLVED]


def rows(cells: str, n: int, sep: str = "") -> str:
    """`cells` (n*n characters) as n lines of n, joined by `sep`."""
    return "\n".join(sep.join(cells[r * n : (r + 1) * n]) for r in range(n)) + "\n"


def only(text: str, **options) -> GridPuzzle:
    """The one puzzle of a pseudocoup text (asserting there is exactly one, without error)."""
    entries = read_text(text, "<t>", "pseudocoup", **options)
    assert [e.error for e in entries] == [None]
    assert entries[0].puzzle is not None
    return entries[0].puzzle


def error_of(text: str) -> str:
    """The message of the one entry of a pseudocoup text, which must be an error."""
    entries = read_text(text, "t.txt", "pseudocoup")
    assert len(entries) == 1 and entries[0].error is not None, entries
    return str(entries[0].error).splitlines()[0]


def mask(*values: int) -> int:
    """The candidate mask of `values`."""
    return sum(1 << (v - 1) for v in set(values))


# ---- the language, one construct a test --------------------------------------------------------


def test_single_symbol_clues_packed_on_one_line_or_in_rows():
    expected = sudoku_puzzle([int(ch) if ch != "." else 0 for ch in PUZZLE])
    assert only(PUZZLE) == expected
    assert only(rows(PUZZLE, 9)) == expected
    assert only(rows(PUZZLE, 9, " ")) == expected


@pytest.mark.parametrize(
    "comment",
    [
        "# a line comment\n",
        "// a line comment\n",
        '"a quoted\ncomment"\n',
        "[a bracketed\ncomment]\n",
        "<an angled\none>",
    ],
)
def test_every_comment_form_is_skipped_even_across_lines(comment):
    text = comment + rows(PUZZLE, 9).replace("\n", " " + comment.replace("\n", " ") + "\n", 1)
    assert only(text) == only(PUZZLE)


def test_other_characters_are_empty_cells_and_bars_stars_pluses_dashes_are_ignored():
    decorated = "+-------+\n" + rows(PUZZLE.replace(".", "x"), 9, "|").replace("x", "0", 5) + "*****\n"
    assert only(decorated) == only(PUZZLE)


def test_braced_hints_and_digit_strings_restrict_cells():
    text = rows(PUZZLE, 9, " ").replace(".", "{12}", 1).replace(".", "46", 1)
    puzzle = only(text)
    assert puzzle.givens == only(PUZZLE).givens
    assert puzzle.domains[2] == mask(1, 2) and puzzle.domains[3] == mask(4, 6)
    assert all(m == mask(*range(1, 10)) for i, m in enumerate(puzzle.domains) if i not in (2, 3))


def test_an_edit_sets_a_value_and_a_braced_edit_cuts_the_candidates():
    puzzle = only(PUZZLE + "\n[1,3]=4\n[2,2]={27}   [2,3] = {2 5}\n")
    assert puzzle.givens[2] == 4 and puzzle.givens[:2] == (5, 3)
    assert puzzle.domains[10] == mask(2, 7) and puzzle.domains[11] == mask(2, 5)


def test_a_braced_edit_keeps_only_what_the_hint_already_allowed():
    puzzle = only(rows(PUZZLE, 9, " ").replace(".", "{127}", 1) + "[1,3]={1 2 4}\n")
    assert puzzle.domains[2] == mask(1, 2)


@pytest.mark.parametrize("n", [4, 9, 16, 25])
def test_orders_4_9_16_25_as_space_separated_numbers(n):
    box = {4: (2, 2), 9: (3, 3), 16: (4, 4), 25: (5, 5)}[n]
    rng = random.Random(n)
    givens = punch(random_grid(box, rng), n * n // 3, rng)
    text = "\n".join(" ".join(str(v or ".") for v in givens[r * n : (r + 1) * n]) for r in range(n))
    assert only(text + "\n") == sudoku_puzzle(givens, box)


def test_a_qwh_puzzle_by_its_order_or_its_shape_comment():
    rng = random.Random(5)
    puzzle = qwh(5, 10, rng)[0]
    text = "\n".join(" ".join(str(v or ".") for v in puzzle.givens[r * 5 : (r + 1) * 5]) for r in range(5))
    assert only(text) == latin_puzzle(puzzle.givens)  # order 5 has no box: a Latin square
    square = latin_puzzle(punch(random_grid((2, 2), rng), 6, rng))
    assert only(write_puzzle(square, "pseudocoup")) == square  # order 4 as QWH, said by the shape comment
    assert "[cpmodels: order 4, qwh]" in write_puzzle(square, "pseudocoup")


def test_several_puzzles_in_one_stream_with_line_breaks_anywhere_once_the_shape_is_known():
    text = PUZZLE[:30] + "\n" + PUZZLE[30:] + PUZZLE[:5] + "\n" + PUZZLE[5:] + "\n"
    for written, options in [(text, {"box": (3, 3)}), ("[cpmodels: order 9, sudoku 3x3]\n" + text, {})]:
        entries = read_text(written, "<t>", "pseudocoup", **options)
        assert [e.error for e in entries] == [None, None]
        assert [e.ordinal for e in entries] == [1, 2] and entries[1].line == entries[0].line + 1
        assert entries[0].puzzle == entries[1].puzzle == only(PUZZLE)
    assert "30 cells are neither" not in error_of(text)  # a first line of 30 cells: a row of order 30


def test_detected_where_unambiguous_and_forced_with_from():
    assert detect(PUZZLE + "\n[1,3]=4\n") == "pseudocoup"
    assert detect("// from the paper\n" + rows(PUZZLE, 9)) == "pseudocoup"
    assert detect(rows(PUZZLE, 9, " ").replace(".", "{12}", 1)) == "pseudocoup"
    assert detect(PUZZLE + "\n") == "line" and detect(rows(PUZZLE, 9)) == "grid"


# ---- bad input: one located message, the other puzzles still read ---------------------------------

BAD = [
    ("unbalanced bracket", PUZZLE + "\n[never\nclosed\n" + PUZZLE, r"t\.txt:2:1: puzzle 2: unbalanced '\['"),
    ("unbalanced quote", '"open\n' + PUZZLE, r"t\.txt:1:1: puzzle 1: unbalanced '\"': opened here"),
    ("unbalanced angle", "<" + PUZZLE, r"t\.txt:1:1: puzzle 1: unbalanced '<'"),
    ("unbalanced brace", "{12 " + PUZZLE[1:], r"t\.txt:1:1: puzzle 1: unbalanced '\{'"),
    ("edit outside", PUZZLE + "\n[10,1]=3\n", r"t\.txt:2:1: puzzle 1: the edit \[10,1\]=3: row 10 is outside"),
    ("edit column 0", PUZZLE + "\n[1,0]=3\n", r"t\.txt:2:1: puzzle 1: .*column 0 is outside the 9x9 grid"),
    ("hint value", rows(PUZZLE, 9, " ").replace(".", "{1A}", 1), r"t\.txt:1:7: puzzle 1: hint value 'A' is outside"),
    ("hint zero", rows(PUZZLE, 9, " ").replace(".", "{0}", 1), r"t\.txt:1:6: puzzle 1: hint value '0' is outside"),
    ("clue vs edit", PUZZLE + "\n[1,1]=3\n", r"t\.txt:2:7: puzzle 1: the edit \[1,1\]=3 contradicts the clue 5"),
    ("clue vs hint", PUZZLE + "\n[1,1]={123}\n", r"t\.txt:2:7: puzzle 1: .*contradicts the clue 5 at r1c1"),
    ("edit vs hint", PUZZLE.replace(".", "{12}", 1) + "\n[1,3]=4", r"2:7: puzzle 1: .*contradicts the hint \{1,2\}"),
    ("empty hint", PUZZLE.replace(".", "{}", 1), r"t\.txt:1:3: puzzle 1: an empty hint \{\}"),
    ("short puzzle", "[cpmodels: order 9, sudoku 3x3]\n" + PUZZLE[:50], r"t\.txt:2:1: puzzle 1: .* after 50 of its 81"),
    ("edit mid-puzzle", PUZZLE[:40] + "[1,1]=5" + PUZZLE[40:], r"t\.txt:1:41: puzzle 1: an edit inside a puzzle"),
    ("digit above", "1234\n.5..\n....\n....\n", r"t\.txt:2:2: puzzle 1: clue 5 is outside 1\.\.4"),
    ("repeat", "11..\n....\n....\n....\n", r"t\.txt:1: puzzle 1: given 1 at r1c2 repeats in row 1"),
]


@pytest.mark.parametrize("text, pattern", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_gets_one_located_message(text, pattern):
    entries = read_text(text, "t.txt", "pseudocoup")
    errors = [str(e.error).splitlines()[0] for e in entries if e.error]
    assert len(errors) == 1 and re.search(pattern, errors[0]), errors


def test_a_hint_left_open_fails_its_puzzle_alone_and_the_next_is_read():
    text = "{12 " + PUZZLE[1:] + "\n" + PUZZLE + "\n"
    entries = read_text(text, "t.txt", "pseudocoup")
    assert [e.ordinal for e in entries] == [1, 2] and entries[1].puzzle == only(PUZZLE)
    assert entries[0].error is not None and "never closed on its line" in str(entries[0].error)


def test_an_edit_before_any_puzzle_is_located():
    assert re.search(r"t\.txt:1:1: an edit before any puzzle", error_of("[1,1]=5\n"))


def test_a_file_of_several_puzzles_with_one_bad_solves_the_others(tmp_path, capsys):
    good = only(PUZZLE)
    text = f"{PUZZLE}\n{PUZZLE.replace('.', '{}', 1)}\n{PUZZLE}\n[1,3]=4\n"
    entries = read_text(text, "t.txt", "pseudocoup")
    assert [e.puzzle for e in entries] == [good, None, good.with_givens(good.givens[:2] + (4,) + good.givens[3:])]
    path = tmp_path / "three.txt"
    path.write_text(text)
    code = main(["solve", str(path), "--from", "pseudocoup", "--backend", "dlx"])
    out, err = capsys.readouterr()
    assert code == 2 and out.count(" unique (") == 2 and "#   3 unique" in out
    assert len([line for line in err.splitlines() if line.startswith("cpmodels: ") and "three.txt" in line]) == 1
    assert "three.txt:2:3: puzzle 2: an empty hint" in err


# ---- hints are constraints: the core puzzle, the checker, every backend ----------------------------


def test_domains_are_validated_compared_and_hashed():
    plain = sudoku_puzzle([0] * 16)
    hinted = GridPuzzle(4, plain.units, plain.givens, domains=(mask(1, 2),) + (15,) * 15)
    assert hinted != plain and hash(hinted) != hash(plain) and hinted.domains[0] == 3
    assert GridPuzzle(4, plain.units, plain.givens, domains=(15,) * 16) == plain  # no cell restricted: none kept
    assert hinted.with_givens((1,) + (0,) * 15).domains == hinted.domains
    for domains, message in [
        ((0,) + (15,) * 15, "r1c1: candidate hints must be some of 1..4"),
        ((16,) + (15,) * 15, "r1c1: candidate hints must be some of 1..4"),
        ((15,) * 15, "16 cells, but 15 candidate hints"),
    ]:
        with pytest.raises(PuzzleError, match=re.escape(message)):
            GridPuzzle(4, plain.units, plain.givens, domains=domains)
    with pytest.raises(PuzzleError, match=re.escape("given 4 at r1c1 is not among its candidates {1,2}")):
        GridPuzzle(4, plain.units, (4,) + (0,) * 15, domains=hinted.domains)


def test_the_checker_rejects_a_grid_outside_a_hint():
    puzzle = only(PUZZLE.replace(".", "{12}", 1))  # r1c3 holds 4 in the solution
    assert explain_violation(puzzle, GRID) == "r1c3 holds 4, outside its candidates {1,2}"
    assert is_solution(only(PUZZLE.replace(".", "{48}", 1)), GRID)


def two_solution_puzzle() -> tuple[str, int, tuple[int, int]]:
    """PUZZLE's solution with a unique rectangle emptied: (its 81 cells, a corner cell, the corner's two values)."""
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    a, b = GRID[r1 * 9 + c1], GRID[r1 * 9 + c2]
                    boxes = {(r // 3, c // 3) for r in (r1, r2) for c in (c1, c2)}
                    if (GRID[r2 * 9 + c1], GRID[r2 * 9 + c2]) == (b, a) and len(boxes) == 2:
                        holes = {r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2}
                        return "".join("." if i in holes else SOLVED[i] for i in range(81)), r1 * 9 + c1, (a, b)
    raise AssertionError("no unique rectangle")


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_a_hint_makes_a_two_solution_puzzle_unique_on_every_backend(backend):
    cells, corner, (a, b) = two_solution_puzzle()
    plain = only(cells)
    hinted = only(cells[:corner] + "{" + str(a) + "}" + cells[corner + 1 :])
    assert hinted.domains[corner] == mask(a)
    reason = BACKENDS[backend].can_solve(hinted)
    if reason:
        pytest.skip(f"backend {backend!r} cannot take it: {reason}")
    both = solve(plain, backend=backend, limit=10)
    assert both.count == 2 and all(is_solution(plain, grid) for grid in both.solutions)
    one = solve(hinted, backend=backend, limit=10)
    assert one.status == "unique" and one.count == 1 and one.complete
    assert is_solution(hinted, one.solutions[0]) and one.solutions[0][corner] == a
    other = only(cells[:corner] + f"{{{b}}}" + cells[corner + 1 :])
    assert solve(other, backend=backend, limit=10).solutions[0][corner] == b


def test_a_hint_no_value_of_which_fits_leaves_no_solution_on_every_backend():
    cells, corner, (a, b) = two_solution_puzzle()
    others = "".join(str(v) for v in range(1, 10) if v not in (a, b))
    hinted = only(cells[:corner] + "{" + others + "}" + cells[corner + 1 :])
    for backend in sorted(BACKENDS):
        if not BACKENDS[backend].can_solve(hinted):
            assert solve(hinted, backend=backend, limit=2).status == "none", backend


# ---- writing: the writer round-trips hints, the others refuse them ---------------------------------


@pytest.mark.parametrize("n, box", [(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (16, (4, 4)), (7, None)])
def test_the_pseudocoup_writer_round_trips_hints(n, box):
    rng = random.Random(n)
    givens = punch(random_grid(box, rng), n * n // 2, rng) if box else qwh(n, n * n // 2, rng)[0].givens
    base = sudoku_puzzle(givens, box) if box else latin_puzzle(givens)
    full = (1 << n) - 1
    domains = tuple(full if g or rng.random() < 0.6 else rng.randrange(1, full + 1) for g in givens)
    puzzle = GridPuzzle(n, base.units, base.givens, name="", domains=domains)
    text = write_puzzle(puzzle, "pseudocoup")
    assert only(text) == puzzle and detect(text) == "pseudocoup"
    stream = "".join(write_puzzles([puzzle, base], "pseudocoup"))
    assert [e.puzzle for e in read_text(stream)] == [puzzle, base]


@pytest.mark.parametrize("name", sorted(set(FORMATS) - {"pseudocoup", "dlx"}))
def test_writers_that_cannot_carry_hints_refuse_them_saying_why(name):
    puzzle = only(rows(PUZZLE, 9, " ").replace(".", "{12}", 1))
    with pytest.raises(CpModelsError, match=f"the {name} format cannot carry candidate hints"):
        write_puzzle(puzzle, name)


def test_the_writer_refuses_what_pseudocoup_cannot_hold():
    with pytest.raises(CpModelsError, match="orders 4 to 64"):
        write_puzzle(sudoku_puzzle([0] * 81 * 9 * 9), "pseudocoup")
    with pytest.raises(CpModelsError, match="this puzzle has cages"):
        write_puzzle(read_text("4:_a_6bb_a_a3,a7d2m3s2a5d2m12")[0].puzzle, "pseudocoup")


# ---- output: Fowler's comment line and solution grid -----------------------------------------------


def test_format_pseudocoup_prints_the_ordinal_the_line_and_the_grid_which_reads_back(capsys, tmp_path):
    path = tmp_path / "two.sdk"
    path.write_text(f"# two puzzles\n{PUZZLE}\n{PUZZLE}\n")
    code = main(["solve", str(path), "--format", "pseudocoup", "--backend", "dlx"])
    out = capsys.readouterr().out
    assert code == 0
    headers = [line for line in out.splitlines() if line.startswith("#")]
    assert [h.split(" unique")[0] for h in headers] == ["#   1:2", "#   2:3"]
    blocks = out.split("#   ")[1:]
    for block in blocks:
        grid = only(block.split("\n", 1)[1]).givens
        assert grid == tuple(GRID) and is_solution(only(PUZZLE), grid)


def test_solution_grids_as_fowler_prints_them():
    assert format_solution(GRID, (3, 3)).splitlines()[:4] == ["5 3 4  6 7 8  9 1 2", "6 7 2  1 9 5  3 4 8",
                                                               "1 9 8  3 4 2  5 6 7", ""]  # fmt: skip
    square = [(r + c) % 10 + 1 for r in range(10) for c in range(10)]
    assert format_solution(square, None).splitlines()[1] == "02 03 04 05 06 07 08 09 10 01"
    assert only(format_solution(square, None)) == latin_puzzle(square)
