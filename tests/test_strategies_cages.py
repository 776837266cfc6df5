"""Mathdoku cage deductions (cage_rules.py) and the Keen scale.

Hand-made positions where each technique fires and where it must not, planted puzzles explained with every step
checked against the planted square, the shared KenKen puzzles explained, Keen levels monotone.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpmodels.formats import read_text
from cpmodels.generate import random_latin_square
from cpmodels.grid import Cage, is_solution
from cpmodels.mathdoku import mathdoku_puzzle
from cpmodels.solve import solve
from cpmodels.strategies import State, explain, get_technique
from cpmodels.strategies.explain import keen_grade
from cpmodels.strategies.policies import KEEN_NAMES, keen_level, plan

from .conftest import shared_data
from .test_strategies_explain import check_steps

README = "4:_a_6bb_a_a3,a7d2m3s2a5d2m12"
"""The README's 4x4 Mathdoku: 7+ r123c1, 2/ r1c23, 3* r12c4, 2- r23c2, 5+ r23c3, 2/ r34c4, 12* r4c123."""


def readme_state() -> State:
    """The README Mathdoku's starting state (every digit a candidate everywhere)."""
    return State.from_puzzle(read_text(README)[0].puzzle)


def cell(r: int, c: int, n: int = 4) -> int:
    """The row-major index of r{r}c{c} (1-based)."""
    return (r - 1) * n + c - 1


def effect(key: str, state: State) -> list[tuple[frozenset, frozenset]]:
    """The (placements, eliminations) of every step technique `key` finds on `state`."""
    return [step.effect() for step in get_technique(key).find_all(state)]


def test_cage_layouts_removes_digits_no_layout_uses():
    state = readme_state()
    found = effect("cage-layouts", state)
    # 7+ down column 1 is {1,2,4}; 3* down column 4 is {1,3}; 12* along row 4 is {1,3,4} (2*2*3 repeats in a row);
    # 2- and 5+ use every digit: they remove nothing
    col1 = frozenset((cell(r, 1), 3) for r in (1, 2, 3))
    col4 = frozenset((cell(r, 4), d) for r in (1, 2) for d in (2, 4))
    row4 = frozenset((cell(4, c), 2) for c in (1, 2, 3))
    assert {(frozenset(), col1), (frozenset(), col4), (frozenset(), row4)} <= set(found)
    assert all(not any(i in (cell(2, 2), cell(3, 2), cell(2, 3), cell(3, 3)) for i, _ in elim) for _, elim in found)


def test_cage_positions_is_per_cell():
    # 2- down r23c2 with r2c2 in {2,3}: r2c2=2 -> r3c2=4, r2c2=3 -> r3c2=1, so r3c2 keeps {1,4}
    state = readme_state().apply([], [(cell(2, 2), 1), (cell(2, 2), 4)])
    found = effect("cage-positions", state)
    cage = [e for _, e in found if all(i in (cell(2, 2), cell(3, 2)) for i, _ in e)]
    assert cage == [frozenset({(cell(3, 2), 2), (cell(3, 2), 3)})]
    assert not effect("cage-layouts", state) or all(
        not any(i == cell(3, 2) for i, _ in e) for _, e in effect("cage-layouts", state)
    )  # the digits of the layouts are all four: only the per-cell view sees it
    state = state.apply([], [(cell(3, 2), 2), (cell(3, 2), 3)])
    assert not [e for _, e in effect("cage-positions", state) if any(i == cell(3, 2) for i, _ in e)]


SQUARE = (3, 4, 1, 2, 4, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 1)
"""A 4x4 Latin square for hand-made cage positions."""


def square_puzzle(first_row: list[Cage]):
    """Row 1 cut into `first_row`'s cages, rows 2-4 given (one-cell cages) from SQUARE."""
    givens = [Cage(((r, c),), "=", SQUARE[r * 4 + c]) for r in range(1, 4) for c in range(4)]
    puzzle = mathdoku_puzzle(4, first_row + givens)
    assert is_solution(puzzle, SQUARE)
    return puzzle


def test_cage_lines_clears_the_rest_of_the_line():
    # 7+ on r1c12 is {3,4}: every layout puts 3 (and 4) in row 1's part of it, so r1c34 lose 3 and 4
    puzzle = square_puzzle([Cage(((0, 0), (0, 1)), "+", 7), Cage(((0, 2), (0, 3)), "+", 3)])
    state = State.from_puzzle(puzzle)
    found = set(effect("cage-lines", state))
    for d in (3, 4):
        assert (frozenset(), frozenset((cell(1, c), d) for c in (3, 4))) in found
    after = state.apply([], [(cell(1, c), d) for c in (3, 4) for d in (3, 4)])
    assert not [s for s in get_technique("cage-lines").find_all(after) if s.cells == (cell(1, 1), cell(1, 2))]


def test_cage_given_places_one_cell_cages_and_innies_use_the_line_sum():
    # r1c1 is a one-cell cage 3; r1c234 is 7+: row 1 sums to 10, so the innie r1c1 sums to 3
    puzzle = square_puzzle([Cage(((0, 0),), "=", 3), Cage(((0, 1), (0, 2), (0, 3)), "+", 7)])
    state = State.from_puzzle(puzzle)
    assert (frozenset({(cell(1, 1), 3)}), frozenset()) in effect("cage-given", state)
    assert (frozenset(), frozenset((cell(1, 1), d) for d in (1, 2, 4))) in effect("innies-outies", state)
    placed = state.apply([(cell(1, 1), 3)], [])
    assert not [p for p, _ in effect("cage-given", placed) if (cell(1, 1), 3) in p]
    assert not [e for _, e in effect("innies-outies", placed) if any(i < 4 for i, _ in e)]


def test_outies_of_plus_cages_sticking_out_of_a_line():
    # column 1 is covered by 8+ r1c1,r2c1,r2c2 (3+4+1), which sticks out of it, and 3+ r34c1 (1+2), inside it
    cages = [
        Cage(((0, 0), (1, 0), (1, 1)), "+", SQUARE[0] + SQUARE[4] + SQUARE[5]),
        Cage(((2, 0), (3, 0)), "+", SQUARE[8] + SQUARE[12]),
    ]
    rest = [(r, c) for r in range(4) for c in range(4) if (r, c) not in {(0, 0), (1, 0), (1, 1), (2, 0), (3, 0)}]
    puzzle = mathdoku_puzzle(4, cages + [Cage((rc,), "=", SQUARE[rc[0] * 4 + rc[1]]) for rc in rest])
    assert is_solution(puzzle, SQUARE)
    state = State.from_puzzle(puzzle)
    # column 1's cages total 8 + 3 = 11 and the column sums to 10: the outie r2c2 is 1
    outies = [e for _, e in effect("innies-outies", state) if {i for i, _ in e} == {cell(2, 2)}]
    assert frozenset((cell(2, 2), d) for d in (2, 3, 4)) in outies


def test_cage_techniques_do_not_apply_without_cages():
    latin = State.from_pencilmarks("{12}{12}{12}{12}", latin=True)
    for key in ("cage-given", "cage-layouts", "cage-positions", "cage-lines", "innies-outies"):
        assert not get_technique(key).applies(latin)


def planted_mathdoku(n: int, rng: random.Random) -> tuple[object, tuple[int, ...]]:
    """A Mathdoku planted on a random Latin square: dominoes along rows (+, *, - or /) and single givens."""
    square = random_latin_square(n, rng)
    cages: list[Cage] = []
    for r in range(n):
        c = 0
        while c < n:
            a = square[r * n + c]
            if c + 1 < n and rng.random() < 0.8:
                b = square[r * n + c + 1]
                op = rng.choice("+*-/" if max(a, b) % min(a, b) == 0 else "+*-")
                target = {"+": a + b, "*": a * b, "-": abs(a - b), "/": max(a, b) // min(a, b)}[op]
                cages.append(Cage(((r, c), (r, c + 1)), op, target))
                c += 2
            else:
                cages.append(Cage(((r, c),), "=", a))
                c += 1
    return mathdoku_puzzle(n, cages), tuple(square)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(4, 6), seed=st.integers(0, 10**6))
def test_planted_mathdoku_explained_with_every_step_sound(n, seed):
    puzzle, square = planted_mathdoku(n, random.Random(seed))
    assert is_solution(puzzle, square)
    done = explain(puzzle, max_level=2)  # no guess: every step holds for every solution, the planted one too
    check_steps(done, square)
    assert done.solved or done.stuck
    keen = explain(puzzle, policy="keen", max_level=2)
    check_steps(keen, square)


def test_shared_kenken_explained_and_keen_levels_monotone():
    """Every puzzle of ../shared/data/kenken/handmade_small.txt (skipped without ../shared)."""
    path = shared_data("kenken/handmade_small.txt")
    entries = [e for e in read_text(path.read_text(), str(path)) if e.puzzle is not None]
    assert entries
    for entry in entries:
        puzzle = entry.puzzle
        result = solve(puzzle, backend="backtrack", limit=2)
        done = explain(puzzle, unique=result.count == 1)
        assert done.solved
        if result.count == 1:
            check_steps(done, result.solutions[0])
        level = keen_grade(puzzle).detail["level"]
        everything = plan("keen")
        for higher in sorted({level, 3}):  # solved at its level: solved at the highest one too
            names = [t.key for t in everything.order if keen_level(t.key) <= higher]
            assert explain(puzzle, "keen", names).solved
        if level > 0:  # and not below it
            names = [t.key for t in everything.order if keen_level(t.key) < level]
            assert not explain(puzzle, "keen", names).solved


def test_keen_is_not_a_sudoku_scale_and_names_its_levels():
    state = State.from_pencilmarks("{12}{12}{12}{12}" * 4, box=(2, 2))
    assert keen_grade(state).value == "n/a"
    assert KEEN_NAMES == ("Easy", "Normal", "Hard", "Extreme", "Unreasonable")


@pytest.mark.parametrize("key", ["cage-layouts", "cage-positions", "cage-lines", "innies-outies", "cage-given"])
def test_cage_techniques_are_in_the_catalogue_with_aliases(key):
    technique = get_technique(key)
    assert technique.info.where == "cages" and technique.info.aliases
