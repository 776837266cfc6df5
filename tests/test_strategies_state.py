"""The candidate state, pencil marks, steps, JSON and the HoDoKu-style text of steps."""

from __future__ import annotations

import json

import pytest

from cpmodels import GridPuzzle, count_solutions, is_solution, solve
from cpmodels.errors import PuzzleError
from cpmodels.formats.sudoku import read_puzzle
from cpmodels.latin import latin_puzzle
from cpmodels.strategies import (
    State,
    Step,
    explain,
    find_all_steps,
    format_step,
    get_technique,
    next_step,
    resolve,
    techniques,
)
from cpmodels.strategies.state import digits_of
from cpmodels.sudoku import sudoku_puzzle

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_cleanup_removes_each_given_from_its_units():
    state = State.from_puzzle(read_puzzle(PUZZLE))
    assert state.values[0] == 4 and state.cands[0] == 0
    row1 = [state.cands[c] for c in range(1, 9)]
    assert all(not m >> 3 & 1 for m in row1)  # 4 left row 1
    assert all(not state.cands[r * 9] >> 3 & 1 for r in range(1, 9))  # and column 1
    assert state.cands[10] >> 3 & 1 == 0  # and box 1 (r2c2)
    # r1c5: row 1 holds 4, 8, 5; column 5 holds 8 (r5) and 1 (r6); box 2 holds 7 (r3c4): 2, 3, 6, 9 are left
    assert state.cands[4] == sum(1 << (d - 1) for d in (2, 3, 6, 9))


def test_pencilmarks_729_and_groups_read_the_same_state():
    state = State.from_puzzle(read_puzzle(PUZZLE))
    groups = state.pencilmarks()
    assert State.from_pencilmarks(groups) == state
    chars = "".join(
        "".join(str(d) if state.cands[i] >> (d - 1) & 1 or state.values[i] == d else "." for d in range(1, 10))
        for i in range(81)
    )
    assert len(chars) == 729
    again = State.from_pencilmarks(chars)  # placed cells read back as one-candidate open cells
    assert [c or (1 << (v - 1)) for c, v in zip(state.cands, state.values, strict=True)] == list(again.cands)


def test_pencilmarks_of_other_orders_and_latin_squares():
    text = "{12}{12}{34}{34}" + "{34}{34}{12}{12}" + "{12}{12}{34}{34}" + "{34}{34}{12}{12}"
    state = State.from_pencilmarks(text, box=(2, 2))
    assert state.n == 4 and state.geo.has_boxes
    latin = State.from_pencilmarks("{1,2}{1,2}" * 2, latin=True)
    assert latin.n == 2 and not latin.geo.has_boxes and latin.geo.is_latin()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{}" + "{123456789}" * 80, "r1c1 has no candidate"),
        ("5" + "{123456789}" * 80, "r1c1 is 5, but 5 is still a candidate of r1c2"),
        ("55" + "{1234}" * 79, "r1c1 and r1c2 are both 5"),
        ("{12}" * 5, "do not make a square grid"),
        ("{12}#" + "{1}" * 15, "unexpected '#'"),
        ("Z" + "{1}" * 15, "outside 1..4"),
    ],
)
def test_bad_pencilmarks_are_located(text, message):
    with pytest.raises(PuzzleError, match=message):
        State.from_pencilmarks(text)


def test_orders_up_to_64_fit():
    state = State.from_puzzle(sudoku_puzzle([0] * 64 * 64, (8, 8)))
    assert state.cands[0] == (1 << 64) - 1
    assert State.from_json(json.loads(json.dumps(state.to_json()))) == state


def test_state_and_step_round_trip_through_json():
    state = State.from_puzzle(read_puzzle(PUZZLE))
    assert State.from_json(json.loads(json.dumps(state.to_json()))) == state
    latin = State.from_puzzle(latin_puzzle([1, 0, 0, 0, 0, 0, 0, 0, 0]))
    assert State.from_json(json.loads(json.dumps(latin.to_json()))) == latin
    for step in find_all_steps(state)[:20]:
        data = json.loads(json.dumps(step.to_json()))
        assert Step.from_json(data) == step
        assert data["text"] == format_step(step)


def test_applying_a_step_returns_the_next_state_and_leaves_the_old_one():
    state = State.from_puzzle(read_puzzle(PUZZLE))
    step = next_step(state)
    assert step is not None and step.placements
    ((cell, d),) = step.placements
    after = step.apply(state)
    assert after.values[cell] == d and state.values[cell] == 0
    assert all(not after.cands[j] >> (d - 1) & 1 for j in range(81) if state.geo.peers[cell] >> j & 1)


def _step(technique: str, **fields) -> Step:
    info = resolve(technique)
    return Step(technique, info.name, info.code, info.level, 9, **fields)


def cell(name: str) -> int:
    """The index of a 1-based `r4c2` name."""
    r, c = name[1:].split("c")
    return (int(r) - 1) * 9 + int(c) - 1


def test_text_uses_hodoku_notation():
    pair = _step(
        "naked-pair",
        digits=(1, 7),
        cells=(cell("r4c2"), cell("r4c3")),
        eliminations=((cell("r4c1"), 1), (cell("r4c9"), 1), (cell("r4c9"), 7)),
    )
    assert format_step(pair) == "Naked Pair: 1,7 in r4c23 => r4c19<>1, r4c9<>7"
    single = _step("hidden-single", digits=(1,), cells=(cell("r8c6"),), units=("b8",), placements=((cell("r8c6"), 1),))
    assert format_step(single) == "Hidden Single: r8c6=1 (the only 1 in box 8)"
    wing = _step("x-wing", digits=(3,), units=("r1", "r5", "c3", "c4"), eliminations=((cell("r2c3"), 3),))
    assert format_step(wing) == "X-Wing: 3 r15 c34 => r2c3<>3"
    column = _step("pointing", digits=(4,), units=("b5", "c4"), eliminations=((cell("r1c4"), 4), (cell("r2c4"), 4)))
    assert format_step(column) == "Pointing: 4 in b5 => r12c4<>4"


def test_technique_names_aliases_and_table():
    assert resolve("n2").key == "naked-pair"
    assert resolve("lines-2").key == "x-wing"
    assert resolve("Y-wing").key == "xy-wing"
    assert resolve("lc1").key == "pointing" and resolve("box-line").key == "claiming"
    assert resolve("Hidden Single").key == resolve("unique-loop").key == "hidden-single"
    with pytest.raises(ValueError, match="valid names: full-house"):
        get_technique("no-such-thing")
    table = techniques()
    keys = [row["key"] for row in table]
    assert len(set(keys)) == len(keys) and len({row["code"] for row in table}) == len(table)
    assert {row["key"]: row["where"] for row in table}["pointing"] == "boxes"
    assert {row["key"]: row["level"] for row in table}["x-wing"] == 2
    assert [row["level"] for row in table] == sorted(row["level"] for row in table)
    latin = State.from_puzzle(latin_puzzle([0] * 16))
    applies = {row["key"]: row["applies"] for row in techniques(latin)}
    assert not applies["two-string-kite"] and applies["skyscraper"]


def test_unknown_policy_and_scale_list_the_valid_names():
    puzzle = read_puzzle(PUZZLE)
    with pytest.raises(ValueError, match="valid policies: zambon, se, hodoku, keen"):
        explain(puzzle, policy="serate")
    from cpmodels.strategies import grade

    with pytest.raises(ValueError, match="valid scales: zambon, se, hodoku, keen, cp"):
        grade(puzzle, scales=("zambon", "elo"))


def test_text_on_grids_above_nine_never_runs_numbers_together():
    info = resolve("naked-pair")
    step = Step(
        "naked-pair",
        info.name,
        info.code,
        info.level,
        16,
        digits=(10, 12),
        cells=(1, 12),
        eliminations=((0, 10), (0, 12), (15, 10), (15, 12), (20, 12)),
    )
    assert format_step(step) == "Naked Pair: 10,12 in r1c2,r1c13 => r1c1,r1c16<>10, r1c1,r1c16,r2c5<>12"
    step = Step("naked-pair", info.name, info.code, info.level, 16, (10, 12), (1, 12), (), (), ((0, 10), (0, 12)))
    assert format_step(step) == "Naked Pair: 10,12 in r1c2,r1c13 => r1c1<>10/12"


def test_cages_are_carried_by_the_state_and_explained():
    from cpmodels.grid import Cage, GridPuzzle, latin_units

    rows = (Cage(((0, 0), (0, 1)), "+", 3), Cage(((1, 0), (1, 1)), "+", 3))
    puzzle = GridPuzzle(2, latin_units(2), (0,) * 4, rows)
    state = State.from_puzzle(puzzle)
    assert state.cages == (((0, 1), "+", 3), ((2, 3), "+", 3))
    assert State.from_json(state.to_json()) == state and State.from_json(state.to_json()).cages == state.cages
    assert explain(puzzle, max_level=3).stuck  # two solutions: no sound step places a digit
    givens = (Cage(((0, 0),), "=", 1), Cage(((0, 1),), "=", 2), rows[1])
    done = explain(GridPuzzle(2, latin_units(2), (0,) * 4, givens))
    assert done.solved and done.steps[0].technique == "cage-given" and done.final.values == (1, 2, 2, 1)


def test_candidate_hints_are_the_cells_first_candidates_and_explain_solves_by_them():
    plain = sudoku_puzzle([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 3, 0, 4])
    hinted = GridPuzzle(4, plain.units, plain.givens, domains=(0b0011,) + (0b1111,) * 15)
    assert State.from_puzzle(plain).cands[0] != State.from_puzzle(hinted).cands[0]
    assert set(digits_of(State.from_puzzle(hinted).cands[0])) <= {1, 2}
    assert count_solutions(plain, 10) > 1 and count_solutions(hinted, 10) == 1
    solution = solve(hinted).solutions[0]
    told = explain(hinted)
    assert not told.stuck and tuple(told.final.values) == solution and is_solution(hinted, solution)
