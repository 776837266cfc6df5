"""Explanations and the `zambon` policy: every step verified, the policy's order and restarts, grades, shapes."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpmodels.formats.sudoku import read_puzzle
from cpmodels.generate import punch, random_grid, random_latin_square
from cpmodels.latin import latin_puzzle
from cpmodels.solve import solve
from cpmodels.strategies import TECHNIQUES, State, explain, format_step, grade
from cpmodels.strategies.explain import Explanation
from cpmodels.sudoku import sudoku_puzzle

from .conftest import data_lines, shared_data, unsolvable_sudoku

VARIED = ".....2.......7...17..3...9.8..7......2.89.6...13..6....9..5.824.....891.........."
"""A 9x9 (norvig top95) that needs levels 0-3 and no guess."""
EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
"""A famous hard 9x9 that needs guessing (or forcing chains)."""
PATTERNS = [t.key for t in TECHNIQUES if not t.info.last_resort and t.key != "guess"]
"""Every technique but the last resorts (forcing chains, Nishio: slow) and guessing."""


def check_steps(done: Explanation, solution) -> None:
    """Every step changes the state, places the solution's digits and removes none of them; ends on the final state."""
    state = done.start
    for step in done.steps:
        assert step.placements or step.eliminations, step
        for i, d in step.placements:
            assert solution[i] == d, format_step(step)
            assert not state.values[i] and state.cands[i] >> (d - 1) & 1, format_step(step)
        for i, d in step.eliminations:
            assert solution[i] != d, format_step(step)
            assert state.cands[i] >> (d - 1) & 1, format_step(step)
        state = step.apply(state)
    assert state == done.final
    if done.solved:
        assert list(done.final.values) == list(solution)


def unique_solution(puzzle):
    """The puzzle's solution from the backtracking backend, which must find exactly one."""
    result = solve(puzzle, backend="backtrack", limit=2)
    assert result.count == 1
    return result.solutions[0]


def test_zambon_policy_order_and_restarts_step_by_step():
    puzzle = read_puzzle(VARIED)
    done = explain(puzzle)
    check_steps(done, unique_solution(puzzle))
    assert done.solved and not done.guesses
    order = [t for t in TECHNIQUES if t.key != "guess"]
    state = done.start
    levels_seen = set()
    for k, step in enumerate(done.steps):
        position = next(j for j, t in enumerate(order) if t.key == step.technique)
        for earlier in order[:position]:  # everything before it, level 0 first, found nothing on this state
            assert earlier.find(state) is None, (k, earlier.key, format_step(step))
        assert order[position].find(state) == step  # and the first one it finds is the one taken
        levels_seen.add(step.level)
        state = step.apply(state)
    assert levels_seen == {0, 1, 2, 3}
    assert done.grade == 3
    assert done.strats_used == sorted({s.code for s in done.steps})
    assert sum(done.counts.values()) == len(done.steps)
    assert set(done.counts) == {s.name for s in done.steps}
    # after a step above level 0 the policy starts again at level 0: a single is taken whenever one exists
    for before, after in zip(done.steps, done.steps[1:], strict=False):
        if before.level > 0 and after.level > 0:
            assert not any(t.find(before.apply(_state_before(done, before))) for t in order[:3])
    assert any(b.level > 0 and a.level == 0 for b, a in zip(done.steps, done.steps[1:], strict=False))


def _state_before(done: Explanation, target) -> State:
    """The state just before step `target` of an explanation."""
    state = done.start
    for step in done.steps:
        if step is target:
            return state
        state = step.apply(state)
    raise AssertionError("step not in the explanation")


def test_guessing_is_shown_and_graded_four():
    puzzle = read_puzzle(EASTER_MONSTER)
    done = explain(puzzle, techniques=[*PATTERNS, "guess"])
    check_steps(done, unique_solution(puzzle))
    assert done.solved and done.grade == 4 and 40 in done.strats_used
    guesses = [s for s in done.steps if s.technique == "guess"]
    assert guesses and len(done.guesses) == len(guesses)
    assert all(format_step(s).startswith("Guess: r") for s in guesses)
    for step in guesses:  # guessing only where every other technique is stuck
        state = _state_before(done, step)
        assert all(t.find(state) is None for t in TECHNIQUES if t.key in PATTERNS)
    assert "guessed at" in done.text()


def test_limits_leave_it_stuck_not_failing():
    puzzle = read_puzzle(VARIED)
    solution = unique_solution(puzzle)
    low = explain(puzzle, max_level=1)
    check_steps(low, solution)
    assert low.stuck and not low.solved and not low.guesses
    assert max(s.level for s in low.steps) <= 1
    assert "stuck after" in low.text()
    singles = explain(puzzle, techniques=["hidden-single", "n1"])
    check_steps(singles, solution)
    assert {s.technique for s in singles.steps} <= {"hidden-single", "naked-single"}
    monster = explain(read_puzzle(EASTER_MONSTER), techniques=PATTERNS)
    assert monster.stuck and not monster.guesses


def test_grade_and_json():
    puzzle = read_puzzle(VARIED)
    rated = grade(puzzle)
    done = explain(puzzle)
    assert rated.zambon == done.grade == 3 and rated.strats_used == tuple(done.strats_used)
    zambon = rated.scales["zambon"]
    assert zambon.policy == "zambon" and zambon.version == "zambon-1" and "x-wing" in zambon.techniques
    data = json.loads(json.dumps(done.to_json()))
    assert data["grade"] == 3 and len(data["steps"]) == len(done.steps)
    assert data["steps"][0]["text"] == format_step(done.steps[0])


def test_a_pencil_mark_state_can_be_explained():
    puzzle = read_puzzle(VARIED)
    start = State.from_puzzle(puzzle)
    done = explain(State.from_pencilmarks(start.pencilmarks()))
    check_steps(done, unique_solution(puzzle))
    assert done.solved


SHAPES = [((2, 2), 10), ((2, 3), 22), ((3, 2), 22), ((3, 3), 55), ((2, 4), 40), ((3, 4), 80), ((4, 3), 80)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 10**6), extra=st.integers(0, 8))
def test_planted_sudoku_of_every_shape_explained_to_the_end_or_stuck(shape, seed, extra):
    box, holes = shape
    rng = random.Random(seed)
    grid = random_grid(box, rng)
    puzzle = sudoku_puzzle(punch(grid, holes + extra, rng), box)
    done = explain(puzzle, techniques=PATTERNS)  # no guessing: every step holds for every solution, so for `grid`
    check_steps(done, grid)
    assert done.solved or done.stuck


@settings(max_examples=20, deadline=None)
@given(n=st.integers(4, 7), seed=st.integers(0, 10**6), fraction=st.floats(0.2, 0.6))
def test_planted_latin_squares_explained_to_the_end_or_stuck(n, seed, fraction):
    rng = random.Random(seed)
    square = random_latin_square(n, rng)
    puzzle = latin_puzzle(list(punch(square, int(fraction * n * n), rng)))
    done = explain(puzzle, techniques=PATTERNS)
    check_steps(done, square)
    assert all(s.technique not in ("pointing", "claiming", "two-string-kite") for s in done.steps)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_unique_6x6_with_guessing_verified_against_the_backend(seed):
    rng = random.Random(seed)
    grid = random_grid((2, 3), rng)
    puzzle = sudoku_puzzle(punch(grid, 24, rng), (2, 3))
    result = solve(puzzle, backend="backtrack", limit=2)
    done = explain(puzzle, techniques=[*PATTERNS, "guess"])
    assert done.solved
    if result.count == 1:
        check_steps(done, result.solutions[0])


def test_shared_norvig_sets_solved_and_verified():
    """norvig_easy50 and the first 30 of norvig_top95 against their stored solutions (skipped without ../shared)."""
    count = 0
    for name, limit in (("norvig_easy50.txt", 50), ("norvig_top95.txt", 30)):
        for _, line in data_lines(shared_data(f"sudoku9/{name}"))[:limit]:
            text, _, solution = line.split(":")
            done = explain(read_puzzle(text), techniques=[*PATTERNS, "guess"])
            check_steps(done, [int(ch) for ch in solution])
            assert done.solved
            count += 1
    assert count == 80


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 2), (3, 3)])
def test_empty_and_full_grids(box):
    n = box[0] * box[1]
    grid = random_grid(box, random.Random(n))
    full = explain(sudoku_puzzle(grid, box))
    assert full.solved and full.steps == [] and full.grade == 0


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3)])
def test_no_solution_is_reported_not_guessed_through(box):
    puzzle = unsolvable_sudoku(box, random.Random(5))
    for done in (explain(puzzle, techniques=[*PATTERNS, "guess"]), explain(puzzle, techniques=PATTERNS)):
        assert not done.solved and done.stuck and done.contradiction
        assert "no solution" in done.text()


def test_a_16x16_planted_puzzle_is_explained_with_every_step_verified():
    rng = random.Random(16)
    grid = random_grid((4, 4), rng)
    done = explain(sudoku_puzzle(punch(grid, 60, rng), (4, 4)), techniques=PATTERNS)
    check_steps(done, grid)
    assert done.solved and len(done.steps) == 60
    states = done.states()
    assert len(states) == len(done.steps) + 1 and states[-1] == done.final
    assert done.placed_at_start == 256 - 60
