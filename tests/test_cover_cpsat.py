"""The CP-SAT exact-cover engine (backends/cpsat_cover.py) against dancing links, brute force and published counts."""

from __future__ import annotations

import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings

from cpmodels.backends import cpsat_cover, dlx
from cpmodels.backends.base import STAT_NAMES
from cpmodels.cover import ExactCoverProblem, cover_violation
from cpmodels.errors import CpModelsError

from .test_exact_cover import (
    brute_force,
    langford,
    latin,
    pentominoes,
    problem,
    queens,
    small_problems,
    two_per_line,
    word_squares,
    word_squares_by_brute_force,
)


def solution_sets(solutions: list[tuple[int, ...]]) -> Counter[frozenset[int]]:
    """The solutions as sets of options, with how often each came (once, for a correct engine)."""
    return Counter(frozenset(s) for s in solutions)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=small_problems())
def test_every_solution_is_found_once_as_brute_force_and_dancing_links_find_it(p):
    expected = brute_force(p)
    result = cpsat_cover.solve_cover(p, limit=1000)
    assert result.complete and result.stopped is None and result.count == len(expected) == len(result.solutions)
    assert solution_sets(result.solutions) == Counter(expected)
    assert all(s == tuple(sorted(s)) and cover_violation(p, s) is None for s in result.solutions)
    links = dlx.solve_cover(p, limit=1000)
    assert links.count == result.count and solution_sets(links.solutions) == solution_sets(result.solutions)


PUBLISHED = [
    pytest.param(queens(6), 4, id="6 queens: 4"),
    pytest.param(queens(8), 92, id="8 queens: 92"),
    pytest.param(langford(7), 52, id="Langford n=7: 52"),
    pytest.param(latin(4), 576, id="Latin squares of order 4: 576"),
    pytest.param(two_per_line(4), 90, id="DLX3 two 1s a line n=4: 90"),
]


@pytest.mark.parametrize(("p", "count"), PUBLISHED)
def test_published_counts_and_the_same_solutions_as_dancing_links(p, count):
    result = cpsat_cover.solve_cover(p, limit=1000)
    assert (result.count, result.complete, result.stopped, len(result.solutions)) == (count, True, None, count)
    assert solution_sets(result.solutions) == solution_sets(dlx.solve_cover(p, limit=1000).solutions)


def test_word_squares_dlx2():
    p = word_squares()
    result = cpsat_cover.solve_cover(p, limit=1000)
    assert p.dialect == "DLX2" and result.complete and result.count == word_squares_by_brute_force() == 33
    assert solution_sets(result.solutions) == solution_sets(dlx.solve_cover(p, limit=1000).solutions)


def test_colour_classes_share_a_secondary_item_and_block_every_other_use():
    """x:red twice is one use; x:red with x:blue, or with a colourless x, is two."""
    p = problem(["a", "b", "c"], ["x"], ["a x:red", "b x:red", "c x:blue", "c x", "c"])
    result = cpsat_cover.solve_cover(p, limit=10)
    assert result.complete and solution_sets(result.solutions) == Counter({frozenset({0, 1, 4}): 1})


def test_limits_and_what_is_kept():
    p = latin(4)
    first = cpsat_cover.solve_cover(p)
    assert (first.count, first.complete, first.stopped, len(first.solutions)) == (1, False, "limit", 1)
    some = cpsat_cover.solve_cover(p, limit=100, keep=3)
    assert (some.count, some.complete, some.stopped, len(some.solutions)) == (100, False, "limit", 3)
    assert len(cpsat_cover.solve_cover(p, limit=5000).solutions) == 2  # above KEEP_ALL: the witnesses, as dlx
    assert len(cpsat_cover.solve_cover(p, limit=576, keep=0).solutions) == 0
    exact = cpsat_cover.solve_cover(p, limit=576)
    assert exact.count == 576 and exact.stopped == "limit" and not exact.complete  # as dlx: no proof of no more


def test_time_limit_stops_the_search():
    started = time.perf_counter()
    result = cpsat_cover.solve_cover(pentominoes(6, 10), limit=10**9, time_limit=0.2)
    elapsed = time.perf_counter() - started
    assert not result.complete and result.stopped == "time" and result.count < 9356
    assert result.wall_s <= elapsed < 2.0  # the limit is honoured (CP-SAT may stop a little before it)
    at_once = cpsat_cover.solve_cover(queens(6), limit=10, time_limit=0)
    assert (at_once.count, at_once.complete, at_once.stopped) == (0, False, "time")


@pytest.mark.parametrize(
    "p",
    [
        problem(["a", "b", "c"], [], ["a b", "b c", "a c"], "odd triangle"),
        problem(["a", "b"], ["x"], ["a x", "b x"], "a secondary clash"),
        problem(["a", "b"], ["x"], ["a x:red", "b x:blue"], "a colour clash"),
        problem(["a", "b"], [], ["a"], "an item no option covers"),
        problem(["a", "b"], [], ["a b"], "bounds out of reach", [(2, 3), (1, 1)]),
    ],
    ids=lambda p: p.name,
)
def test_an_unsatisfiable_problem_is_proved_so(p):
    result = cpsat_cover.solve_cover(p, limit=10)
    assert (result.count, result.complete, result.stopped, result.solutions) == (0, True, None, [])
    assert dlx.solve_cover(p, limit=10).count == 0 and not brute_force(p)


def test_the_empty_set_is_a_solution_when_every_lower_bound_is_zero():
    p = ExactCoverProblem(("a", "b"), 1, ((0, 1),), (), ((0, 1),))
    result = cpsat_cover.solve_cover(p, limit=10)
    assert result.complete and solution_sets(result.solutions) == Counter({frozenset(): 1, frozenset({0}): 1})


def test_statistics_and_the_result_shape():
    p = queens(6)
    result = cpsat_cover.solve_cover(p, limit=10)
    shared = {"nodes", "conflicts", "propagations", "build_s", "search_s"}
    assert shared <= set(STAT_NAMES) and shared <= set(result.stats)
    assert result.nodes == result.stats["nodes"] > 0 and result.updates == 0 and result.cleansings == 0
    assert (result.stats["items"], result.stats["options"]) == (len(p.items), len(p.options))
    assert result.wall_s >= result.stats["build_s"] + result.stats["search_s"] - 1e-6


def test_a_modelling_bug_is_caught_by_the_checker(monkeypatch):
    """Without its secondary items (the diagonals) the model of 4 queens gives placements that are no cover."""
    monkeypatch.setattr(cpsat_cover, "_add_secondary", lambda *args: None)
    with pytest.raises(CpModelsError, match="4 queens.*not an exact cover"):
        cpsat_cover.solve_cover(queens(4), limit=100)
