"""Mathdoku generation (issue 21, item 7): cages, operators, repair, hidden operators, merging, minimality.

Every puzzle made here is checked by the solver-free checker against its solution and counted unique by
CP-SAT (the generator counts with the backtracking backend); minimality is re-checked by brute force.
"""

import random
import re
import time
from collections import Counter
from itertools import combinations
from math import prod
from pathlib import Path

import pytest

import cpmodels.generate as generate
from cpmodels.cages import holds
from cpmodels.cli import main
from cpmodels.errors import CpModelsError, SearchTimeoutError
from cpmodels.formats import read_text
from cpmodels.generate.mathdoku import _drawn_cages, _repaired, _solutions, make_mathdoku, mathdoku_spec
from cpmodels.generate.mathdoku_cages import choose_operators, keen_partition
from cpmodels.grid import Cage, GridPuzzle, is_solution
from cpmodels.mathdoku import disconnected_cages, mathdoku_puzzle
from cpmodels.minimality import minimality
from cpmodels.solve import count_solutions

FIXTURES = Path(__file__).parent / "fixtures"
SUBSETS = ["".join(ops) for k in range(1, 5) for ops in combinations("+-*/", k)]


def made(n, seed=1, **options):
    """Puzzle of order n from seed with these options, checked against its solution by the checker."""
    result = make_mathdoku(mathdoku_spec(order=n, **options), random.Random(seed))
    assert is_solution(result.puzzle, result.solution)
    assert disconnected_cages(result.puzzle) == []
    return result


def unique_by_cpsat(puzzle):
    """Whether CP-SAT (not the generator's backend) finds exactly one solution."""
    return count_solutions(puzzle, 2, backend="cpsat") == 1


def with_cage(puzzle, k, cage):
    """The puzzle with cage k replaced by `cage` (None: removed)."""
    cages = puzzle.cages[:k] + ((cage,) if cage else ()) + puzzle.cages[k + 1 :]
    return GridPuzzle(puzzle.n, puzzle.units, puzzle.givens, cages)


@pytest.mark.parametrize("n", range(3, 10))
def test_every_operator_subset_gives_unique_puzzles_with_those_operators(n):
    for k, ops in enumerate(SUBSETS):
        puzzle = made(n, seed=100 * n + k, ops=ops).puzzle
        assert unique_by_cpsat(puzzle), (n, ops)
        shown = {cage.op for cage in puzzle.cages}
        assert shown <= set(ops) | {"="}, (n, ops, shown)
        for cage in puzzle.cages:
            assert cage.op not in ("-", "/") or len(cage.cells) == 2
            assert (cage.op == "=") == (len(cage.cells) == 1)
        if set(ops) & {"+", "*"}:  # cages of 2 to 6 cells, no givens
            assert all(2 <= len(cage.cells) <= 6 for cage in puzzle.cages), (n, ops)


def test_the_default_cages_are_keens_at_9x9():
    rng = random.Random(5)
    sizes = Counter(len(group) for _ in range(300) for group in keen_partition(9, rng, 6))
    assert sizes[1] <= 3  # a cell Keen cannot place is rare (and the draw is repeated then)
    assert set(sizes) - {1} <= {2, 3, 4, 5, 6}
    share = sizes[2] / (sum(sizes.values()) - sizes[1])
    assert 0.76 <= share <= 0.85, share
    puzzles = [made(9, seed=s).puzzle for s in range(4)]
    cages = [len(cage.cells) for puzzle in puzzles for cage in puzzle.cages]
    assert min(cages) >= 2 and max(cages) <= 6 and cages.count(2) / len(cages) >= 0.6


def test_cage_sizes_weights_and_singletons_are_as_asked():
    for sizes in ((2, 4), (3, 5), (2, 2), (1, 3)):
        puzzle = made(6, seed=3, cage_sizes=sizes, singletons=2 if sizes == (2, 2) else 0).puzzle
        lengths = [len(cage.cells) for cage in puzzle.cages if cage.op != "="]
        assert min(lengths) >= sizes[0] and max(lengths) <= sizes[1]
        assert unique_by_cpsat(puzzle)
    puzzle = made(7, seed=4, size_weights={3: 1, 4: 1}).puzzle
    assert {len(cage.cells) for cage in puzzle.cages} <= {3, 4, 5, 6, 7, 8}  # short pieces join a neighbour
    for count in (1, 5):
        puzzle = made(6, seed=count, singletons=count).puzzle
        assert sum(cage.op == "=" for cage in puzzle.cages) == count
        assert unique_by_cpsat(puzzle)


def test_keens_quality_filters_are_on_by_default_and_switchable():
    def pairs(filters):
        found = []
        for seed in range(12):
            result = made(6, seed=seed, filters=filters, repair=False)
            for cage in result.puzzle.cages:
                if len(cage.cells) == 2 and cage.op in ("-", "/"):
                    found.append((cage.op, cage.target))
        return found

    filtered, unfiltered = pairs(True), pairs(False)
    assert ("-", 5) not in filtered and not any(op == "/" and q > 3 for op, q in filtered)
    assert ("-", 5) in unfiltered or any(op == "/" and q > 3 for op, q in unfiltered)


def test_operators_are_dealt_evenly():
    rng = random.Random(2)
    square = generate.random_latin_square(6, rng)
    triples = [[(r, c), (r, c + 1), (r, c + 2)] for r in range(6) for c in (0, 3)]
    counts = Counter(cage.op for cage in choose_operators(triples, square, 6, "+-*/", True, rng))
    assert counts == {"+": 6, "*": 6}
    dominoes = [[(r, c), (r, c + 1)] for r in range(6) for c in (0, 2, 4)]
    counts = Counter(cage.op for cage in choose_operators(dominoes, square, 6, "+-*", False, rng))
    assert counts == {"+": 6, "-": 6, "*": 6}


def test_repairs_make_drawn_puzzles_unique():
    spec = mathdoku_spec(order=6)
    results = [make_mathdoku(spec, random.Random(seed)) for seed in range(15)]
    assert any(result.repairs for result in results), "some drawn 6x6 puzzles need a repair"
    for result in results:
        assert unique_by_cpsat(result.puzzle) and is_solution(result.puzzle, result.solution)


def test_a_repair_rules_out_the_second_solution_and_keeps_the_first():
    spec = mathdoku_spec(order=6)
    rng = random.Random(3)
    repaired = 0
    for _ in range(60):
        square = generate.random_latin_square(6, rng)
        cages = _drawn_cages(spec, square, rng)
        grids = _solutions(spec, cages, None) if cages else []
        if len(grids) < 2:
            continue
        other = next(grid for grid in grids if grid != tuple(square))
        fixed = _repaired(spec, cages, square, other, rng)
        if fixed is None:
            continue
        repaired += 1
        puzzle = mathdoku_puzzle(6, fixed)
        assert is_solution(puzzle, square) and not is_solution(puzzle, other)
        assert disconnected_cages(puzzle) == [] and all(len(cage.cells) >= 2 for cage in fixed)
    assert repaired >= 5


def test_without_repair_fewer_draws_are_kept():
    def attempts(repair):
        spec = mathdoku_spec(order=6, repair=repair)
        return sum(make_mathdoku(spec, random.Random(seed)).attempts for seed in range(15))

    assert attempts(True) < attempts(False)


def test_hidden_operators_all_is_unique_with_every_operator_hidden():
    for n in (4, 6):
        puzzle = made(n, seed=n, hide_operators="all").puzzle
        assert all(cage.op is None for cage in puzzle.cages if len(cage.cells) > 1)
        assert unique_by_cpsat(puzzle)


def test_hidden_operators_max_leaves_only_necessary_operators():
    puzzle = made(6, seed=8, hide_operators="max").puzzle
    assert unique_by_cpsat(puzzle) and any(cage.op is None for cage in puzzle.cages)
    assert minimality(puzzle).operators == ()
    for k, cage in enumerate(puzzle.cages):  # brute force: hiding any operator still shown loses uniqueness
        if cage.op not in (None, "="):
            assert not unique_by_cpsat(with_cage(puzzle, k, Cage(cage.cells, None, cage.target)))


def merges_kept_unique(puzzle, solution, largest):
    """Brute force: the pairs of adjacent cages whose merge (keeping + or * of either) CP-SAT finds unique."""
    n = puzzle.n
    found = []
    for a, b in combinations(range(len(puzzle.cages)), 2):
        one, two = puzzle.cages[a], puzzle.cages[b]
        touch = any(abs(r - s) + abs(c - t) == 1 for r, c in one.cells for s, t in two.cells)
        if not touch or len(one.cells) + len(two.cells) > largest:
            continue
        cells = tuple(sorted(one.cells + two.cells))
        values = [solution[r * n + c] for r, c in cells]
        for cage in (one, two):
            own = [solution[r * n + c] for r, c in cage.cells]
            for op in ("+", "*"):
                if cage.op == op or cage.op is None and holds(op, cage.target, own):
                    target = sum(values) if op == "+" else prod(values)
                    rest = tuple(c for k, c in enumerate(puzzle.cages) if k not in (a, b))
                    merged = Cage(cells, cage.op, target)
                    if unique_by_cpsat(GridPuzzle(n, puzzle.units, puzzle.givens, (*rest, merged))):
                        found.append((a, b))
    return found


@pytest.mark.parametrize("hide", ["none", "max", "all"])
def test_merge_leaves_a_merge_minimal_puzzle(hide):
    result = made(5, seed=11, cage_sizes=(2, 4), merge=True, hide_operators=hide)
    puzzle = result.puzzle
    assert unique_by_cpsat(puzzle) and max(len(cage.cells) for cage in puzzle.cages) <= 4
    assert sum(len(cage.cells) > 2 for cage in puzzle.cages) > sum(
        len(cage.cells) > 2 for cage in made(5, seed=11, cage_sizes=(2, 4)).puzzle.cages
    )
    checked = minimality(puzzle, merge=True, max_cage=4)
    assert checked.valid and checked.merges == ()
    assert checked.operators == () or hide == "none"
    assert merges_kept_unique(puzzle, result.solution, 4) == []


def test_the_checker_finds_merges_that_keep_uniqueness():
    result = made(5, seed=2, cage_sizes=(2, 3))
    checked = minimality(result.puzzle, merge=True, max_cage=5)
    assert checked.valid
    assert sorted(checked.merges) == sorted(set(merges_kept_unique(result.puzzle, result.solution, 5)))


def test_a_keen_style_six_reports_its_redundant_operators(capsys):
    path = FIXTURES / "mathdoku" / "six.ken"
    puzzle = read_text(path.read_text())[0].puzzle
    assert main(["check", "--minimal", str(path)]) == 0
    out = capsys.readouterr().out
    redundant = [
        k
        for k, cage in enumerate(puzzle.cages)
        if len(cage.cells) > 1 and unique_by_cpsat(with_cage(puzzle, k, Cage(cage.cells, None, cage.target)))
    ]
    assert redundant and "not minimal: redundant" in out
    for k in redundant:
        cage = puzzle.cages[k]
        assert f"{','.join(f'r{r + 1}c{c + 1}' for r, c in cage.cells)}:{cage.label()}" in out


def test_check_minimal_merge_on_the_command_line(tmp_path, capsys):
    assert main(["generate", "mathdoku", "--order", "5", "--seed", "4", "--count", "2", "--cage-sizes", "2-4",
                 "--merge", "--hide-operators", "max"]) == 0  # fmt: skip
    path = tmp_path / "m.txt"
    path.write_text(capsys.readouterr().out)
    assert main(["check", "--minimal", "--merge", "--max-cage", "4", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count(": minimal\n") == 2 and re.search(r"\nnot minimal +0\n", out)


def test_the_python_api_mirrors_the_command(capsys):
    record = generate.mathdoku(order=6, ops="+-*/", cage_sizes=(2, 4), hide_operators="none", seed=1)
    assert record.seed == 1 and record.index == 0 and is_solution(record.puzzle, record.solution)
    assert record == generate.mathdoku(order=6, ops="+-*/", cage_sizes=(2, 4), hide_operators="none", seed=1)
    assert generate.mathdoku(order=6, seed=1, index=1).puzzle != generate.mathdoku(order=6, seed=1).puzzle
    assert main(["generate", "mathdoku", "--order", "6", "--cage-sizes", "2-4", "--seed", "1"]) == 0
    line = capsys.readouterr().out
    assert read_text(line)[0].puzzle.cages == record.puzzle.cages and "\tseed=1:0" in line


def test_seeds_index_and_jobs_reproduce_the_same_lines(capsys):
    def lines(*extra):
        assert main(["generate", "mathdoku", "--order", "5", "--seed", "7", *extra]) == 0
        return capsys.readouterr().out.splitlines()

    three = lines("--count", "3")
    assert lines("--index", "1")[0] == three[1]
    assert lines("--count", "3", "--jobs", "2") == three
    assert lines("--count", "3", "--ops", "-/") != three


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--ops", "+%"], "cpmodels: ops takes one or more of the characters +-*/, not '%'"),
        (["--ops", "-/", "--cage-sizes", "3-5"], "cpmodels: ops -/ need 2-cell cages, but cage sizes 3-5 exclude them"),
        (["--cage-sizes", "0-4"], "cpmodels: cage sizes must satisfy 1 <= lo <= hi <= 36 on an order-6 grid, not 0-4"),
        (
            ["--cage-sizes", "2-37"],
            "cpmodels: cage sizes must satisfy 1 <= lo <= hi <= 36 on an order-6 grid, not 2-37",
        ),
        (["--singletons", "37"], "cpmodels: singletons must lie in 0..36 (an order-6 grid has 36 cells), not 37"),
        (["--order", "2"], "cpmodels: a Mathdoku order lies in 3..12, not 2"),
        (["--order", "13"], "cpmodels: a Mathdoku order lies in 3..12, not 13"),
        (["--size-weights", "7:1", "--cage-sizes", "2-4"], "cpmodels: size weight 7:1.0 is for a size outside"),
        (["--hide-operators", "some"], "argument --hide-operators: invalid choice: 'some'"),
        (["--size-weights", "2=3"], "argument --size-weights: expected SIZE:WEIGHT,... such as 2:6,3:3,4:1"),
    ],
)
def test_bad_mathdoku_options_are_refused_with_one_message(capsys, argv, message):
    argv = ["generate", "mathdoku", *([] if "--order" in argv else ["--order", "6"]), *argv]
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's usage errors
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if line.startswith("cpmodels")]) == 1


def test_mathdoku_options_are_refused_for_other_families(capsys):
    assert main(["generate", "sudoku", "--ops", "+"]) == 2
    assert "--ops applies to mathdoku only, not to sudoku" in capsys.readouterr().err
    assert main(["check", "--merge", str(FIXTURES / "mathdoku" / "six.ken")]) == 2
    assert "give --minimal too" in capsys.readouterr().err


def test_no_puzzle_after_the_deadline():
    with pytest.raises(SearchTimeoutError, match="no unique order-6 Mathdoku within the time limit"):
        make_mathdoku(mathdoku_spec(order=6), random.Random(1), deadline=time.monotonic())
    with pytest.raises(CpModelsError, match="unknown hide_operators 'some'"):
        mathdoku_spec(hide_operators="some")
