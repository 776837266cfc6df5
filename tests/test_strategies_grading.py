"""Ratings, the `se` and `hodoku` policies, grades on every scale, the `cp` scale and CP-SAT proofs of steps."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpmodels.formats.sudoku import read_puzzle
from cpmodels.generate import punch, random_grid
from cpmodels.strategies import CATALOGUE, TECHNIQUES, State, explain, grade
from cpmodels.strategies import subsets as subset_rules
from cpmodels.strategies.policies import plan
from cpmodels.strategies.proofs import prove_step, verify
from cpmodels.strategies.propagation import CP_LEVELS, alldifferent_gac, cp_level, propagate
from cpmodels.strategies.ratings import (
    HODOKU,
    HODOKU_LEVELS,
    HODOKU_MAX_SCORE,
    SE,
    SE_STUCK,
    SE_VARIANTS,
    hodoku_level,
    se_complexity,
    se_length_increment,
    se_rating,
)
from cpmodels.sudoku import sudoku_puzzle

from .test_strategies_explain import EASTER_MONSTER, PATTERNS, VARIED, check_steps, unique_solution

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
CAGES = {info.key for info in CATALOGUE if info.where == "cages"}


def test_every_technique_has_an_se_rating_and_a_hodoku_step():
    keys = {info.key for info in CATALOGUE}
    assert set(SE) | CAGES | {"guess"} == keys and set(HODOKU) | CAGES == keys
    assert all(rating.native == (not rating.as_) for rating in [*SE.values(), *HODOKU.values()])
    assert all(r.level in HODOKU_LEVELS for r in HODOKU.values())
    # the issue's table: hidden single 1.2 in a box, 1.5 in a line, naked single 2.3, ..., nested 9.0+
    assert se_rating("hidden-single", "box") == 1.2 and se_rating("hidden-single", "row") == 1.5
    assert [SE[k].base for k in ("naked-single", "pointing", "claiming", "naked-pair", "x-wing")] == [
        2.3,
        2.6,
        2.8,
        3.0,
        3.2,
    ]
    assert HODOKU["hidden-single"].score == 14 and HODOKU["guess"].score == 10000


def test_se_chain_length_increments_pass_the_issue_thresholds():
    thresholds = [4, 6, 8, 12, 16, 24, 32, 48, 64]
    for nodes in range(2, 70):
        passed = sum(1 for t in thresholds if nodes - 2 > t)
        assert se_length_increment(nodes) == passed / 10, nodes
    assert se_rating("x-chain", nodes=6) == 6.6 and se_rating("x-chain", nodes=7) == 6.7
    assert se_rating("naked-pair", nodes=40) == 3.0  # not a chain: no increment
    # SE counts a chain's potentials: its nodes and the target assumed and refuted; a loop its nodes and one more
    assert se_complexity(4) == 6 and se_complexity(4, "continuous") == 5 and se_complexity(0) == 0
    assert se_rating("x-cycle", "discontinuous", se_complexity(6)) == 6.7 and se_rating("x-cycle", "", 6) == 6.5


def test_hodoku_level_is_raised_by_the_score_thresholds():
    assert hodoku_level(["Easy"], 800) == "Easy" and hodoku_level(["Easy"], 801) == "Medium"
    for k, level in enumerate(HODOKU_LEVELS[:-1]):
        limit = HODOKU_MAX_SCORE[level]
        assert hodoku_level([level], limit) == level
        assert hodoku_level([level], limit + 1) == HODOKU_LEVELS[k + 1]
    assert hodoku_level(["Hard"], 10) == "Hard" and hodoku_level([], 0) == "Easy"


def _policy_checked(policy: str, key, rank=None):
    """Explain VARIED with `policy`: no technique ranked before the one that took a step finds one on its state.

    `rank(step)`: the step's place in the policy's order (default: its technique's position).
    """
    puzzle = read_puzzle(VARIED)
    done = explain(puzzle, policy=policy, unique=True)
    check_steps(done, unique_solution(puzzle))
    order = plan(policy).order
    assert [t.key for t in order] == sorted((t.key for t in order), key=key)  # the policy's order, stable
    for state, step in zip(done.states(), done.steps, strict=False):
        if rank is None:
            earlier = order[: next(j for j, t in enumerate(order) if t.key == step.technique)]
        else:
            earlier = [t for t in order if t.key != step.technique and key(t.key) < rank(step)]
        assert all(t.find(state) is None for t in earlier), step
    return done


def _se_rank(step) -> float:
    """A step's place in SE's order: its variant's rating (direct forms, a hidden single in a line) or its base."""
    return SE_VARIANTS.get((step.technique, step.variant), SE[step.technique].base)


def test_se_policy_tries_techniques_in_ascending_rating_and_rates_er_ep_ed():
    done = _policy_checked("se", lambda key: SE[key].base, _se_rank)
    assert any(s.variant == "direct" for s in done.steps)  # SE's direct pointing, claiming, hidden pair, triple
    assert done.solved and all(SE[k].native for k in done.techniques)
    rated = [s.ratings["se"] for s in done.steps]
    first_placement = next(k for k, s in enumerate(done.steps) if s.placements)
    se = done.se()
    assert se["er"] == max(rated) and se["ep"] == max(rated[: first_placement + 1]) and se["ed"] == rated[0]
    assert 1.0 <= se["ed"] <= se["ep"] <= se["er"] < SE_STUCK


def test_hodoku_policy_follows_the_priority_order_and_sums_scores():
    done = _policy_checked("hodoku", lambda key: HODOKU[key].index)
    ho = done.hodoku()
    assert ho["score"] == sum(HODOKU[s.technique].score for s in done.steps)
    assert ho["level"] == hodoku_level([HODOKU[s.technique].level for s in done.steps], ho["score"])


def test_grades_of_a_singles_puzzle_by_hand():
    puzzle = read_puzzle(EASY)
    rated = grade(puzzle, scales=("zambon", "se", "hodoku", "cp"), unique=True)
    se_steps = explain(puzzle, policy="se").steps
    assert {s.technique for s in se_steps} <= {"full-house", "hidden-single", "naked-single"}
    assert rated.zambon == 0 and rated.scales["cp"].value == "singles"
    assert rated.scales["se"].value == max(s.ratings["se"] for s in se_steps) <= 2.3
    hodoku_steps = explain(puzzle, policy="hodoku").steps
    score = sum(14 if s.technique == "hidden-single" else 4 for s in hodoku_steps)
    assert rated.scales["hodoku"].detail["score"] == score
    assert rated.scales["hodoku"].value == ("Easy" if score <= 800 else "Medium")
    for scale, g in rated.scales.items():  # each grade says how it was rated
        assert g.policy == scale and g.version and g.techniques and not g.lower_bound


def test_se_gives_twenty_when_its_techniques_run_out_and_time_limits_give_lower_bounds():
    monster = read_puzzle(EASTER_MONSTER)
    stuck = explain(monster, policy="se", techniques=[k for k in PATTERNS if k in SE])
    assert stuck.stuck and stuck.se()["er"] == SE_STUCK
    cut = explain(monster, policy="se", time_limit=0.0)
    assert cut.timeout and cut.lower_bound and cut.se()["lower_bound"] and not cut.steps
    assert "timeout after 0 steps" in cut.text() and "ER/EP/ED >= " in cut.text()
    rated = grade(monster, scales=("zambon", "se"), time_limit=0.0)
    assert rated.lower_bound and all(g.lower_bound for g in rated.scales.values())


def test_cp_levels_are_the_weakest_that_solve():
    for text in (EASY, VARIED):
        puzzle = read_puzzle(text)
        solution = unique_solution(puzzle)
        state = State.from_puzzle(puzzle)
        level, reached = cp_level(state)
        assert reached is not None
        if level != "search":
            assert list(reached.values) == list(solution)
        below = CP_LEVELS[: CP_LEVELS.index(level)]
        for weaker in below[:3]:
            assert not propagate(state, weaker).solved()
    assert cp_level(State.from_puzzle(read_puzzle(EASY)))[0] == "singles"


def _subset_closure(state: State) -> State:
    """Naked and hidden subsets of every size, and naked singles as eliminations, to their fixpoint."""
    n = state.n
    while True:
        gone = set()
        for unit in state.geo.units:
            for i in unit:
                if state.cands[i] and state.cands[i] & (state.cands[i] - 1) == 0:
                    gone |= {
                        (j, state.cands[i].bit_length()) for j in unit if j != i and state.cands[j] & state.cands[i]
                    }
        for k in range(1, n):
            for step in subset_rules.hidden(state, k, "hidden-pair"):
                gone |= set(step.eliminations)
            if k >= 2:
                for step in subset_rules.naked(state, k, "naked-pair"):
                    gone |= set(step.eliminations)
        if not gone:
            return state
        state = state.apply([], sorted(gone))


def _gac_closure(state: State) -> State:
    """AllDifferent arc consistency on every unit (matching), to its fixpoint."""
    while (effect := alldifferent_gac(state)) is not None:
        state = state.apply(*effect)
    return state


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(box=st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3)]), seed=st.integers(0, 10**6), holes=st.integers(6, 60))
def test_subsets_fixpoint_equals_alldifferent_arc_consistency(box, seed, holes):
    rng = random.Random(seed)
    grid = random_grid(box, rng)
    n = box[0] * box[1]
    state = State.from_puzzle(sudoku_puzzle(punch(grid, min(holes, n * n - 1), rng), box))
    by_subsets, by_matching = _subset_closure(state), _gac_closure(state)
    assert by_subsets.cands == by_matching.cands
    assert all(by_matching.cands[i] >> (grid[i] - 1) & 1 for i in by_matching.open_cells())


def test_verify_proves_real_steps_and_catches_wrong_ones():
    puzzle = read_puzzle(VARIED)
    done = explain(puzzle, policy="hodoku", unique=True)
    states = done.states()
    assert verify(states, done.steps) == []
    solution = unique_solution(puzzle)
    k = next(j for j, s in enumerate(done.steps) if s.eliminations and s.level >= 2)
    step, state = done.steps[k], states[k]
    i = next(i for i in state.open_cells() if state.cands[i] & (state.cands[i] - 1))
    wrong = replace(step, eliminations=((i, solution[i]),), placements=())
    assert "escapes it" in prove_step(state, wrong)
    other = next(d for d in range(1, 10) if d != solution[i] and state.cands[i] >> (d - 1) & 1)
    assert "escapes it" in prove_step(state, replace(step, placements=((i, other),), eliminations=()))
    given = next(j for j, v in enumerate(state.values) if v)
    assert "not a candidate" in prove_step(state, replace(step, eliminations=((given, state.values[given]),)))


def test_verify_proves_uniqueness_steps_by_counting_solutions():
    puzzle = read_puzzle(VARIED)
    solution = unique_solution(puzzle)
    state = State.from_puzzle(puzzle).proved_unique()
    ur = next(t for t in TECHNIQUES if t.key == "unique-rectangle-1")
    i = next(i for i in state.open_cells() if state.cands[i] & (state.cands[i] - 1))
    other = next(d for d in range(1, 10) if d != solution[i] and state.cands[i] >> (d - 1) & 1)
    template = explain(puzzle, techniques=["h1"]).steps[0]
    sound = replace(template, technique=ur.key, eliminations=((i, other),), placements=())
    assert prove_step(state, sound) is None  # forcing a wrong digit: no solution
    unsound = replace(sound, eliminations=((i, solution[i]),))
    assert "exactly one solution" in prove_step(state, unsound)
