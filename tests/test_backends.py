"""One suite over every registered backend: the same puzzles, the same counts, every answer checked."""

import random
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpmodels import BACKENDS, GridPuzzle, is_solution, solve
from cpmodels.backends import Capabilities, refusal
from cpmodels.backends._template import NOT_WRITTEN, TemplateBackend
from cpmodels.backends.base import STAT_NAMES, capability_problem
from cpmodels.errors import BackendUnavailableError
from cpmodels.formats.sudoku import read_text
from cpmodels.formats.tatham import read_keen
from cpmodels.generate import planted_mathdoku, punch, qwh, random_grid
from cpmodels.grid import Cage, latin_units
from cpmodels.mathdoku import hide_operators
from cpmodels.sudoku import sudoku_puzzle

from .conftest import FIXTURES, data_lines, unsolvable_sudoku

NAMES = sorted(BACKENDS)


def _cases():
    """(id, puzzle, exact number of solutions up to 2) for puzzles of every family; counts from cpsat's peers."""
    rng = random.Random(2026)
    yield "latin4", GridPuzzle(4, latin_units(4), (0,) * 16), 2
    yield "keen4", read_keen("4:_a_6bb_a_a3,a7d2m3s2a5d2m12"), 1
    path = FIXTURES / "sudoku" / "tdoku_sample.txt"
    for entry, (k, line) in zip(read_text(path.read_text()), data_lines(path), strict=True):
        yield f"tdoku{k}", entry.puzzle, min(int(line.split(":")[1]), 2)
    for box in [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4)]:
        grid = random_grid(box, rng)
        yield f"sudoku{box[0]}x{box[1]}", sudoku_puzzle(punch(grid, len(grid) // 2, rng), box), None
    for n in (3, 4, 5, 6):
        puzzle, _ = planted_mathdoku(n, rng)
        yield f"mathdoku{n}", puzzle, None
        yield f"mathdoku{n}-hidden", hide_operators(puzzle), None
    yield "qwh10", qwh(10, 42, rng)[0], None


CASES = list(_cases())


@pytest.fixture(scope="module")
def reference():
    """CP-SAT's count up to 2 for each case whose count the data does not state."""
    return {name: solve(p, limit=2).count for name, p, known in CASES if known is None}


@pytest.mark.parametrize("backend", NAMES)
@pytest.mark.parametrize("name, puzzle, known", CASES, ids=[c[0] for c in CASES])
def test_backends_agree(backend, name, puzzle, known, reference):
    reason = BACKENDS[backend].can_solve(puzzle)
    if reason:
        pytest.skip(f"backend {backend!r} cannot take {name}: {reason}")
    result = solve(puzzle, backend=backend, limit=2, time_limit=60)
    expected = known if known is not None else reference[name]
    assert result.count == expected and result.status != "timeout"
    assert all(is_solution(puzzle, grid) for grid in result.solutions)
    assert len(set(result.solutions)) == len(result.solutions)


@pytest.mark.parametrize("backend", NAMES)
def test_unique_solution_is_the_same_grid(backend):
    puzzle = read_keen("6:__aa_3ba_3a_3bba3b_aa_4a_4a_3aa,d2s1a10d3m8a8m108s3s4s1a8m20m60d2a9")
    result = solve(puzzle, backend=backend, limit=2)
    assert result.status == "unique"
    assert "".join(map(str, result.solutions[0])) == "451326246153362415623541135264514632"


@pytest.mark.parametrize("backend", NAMES)
def test_time_limit_is_honoured(backend):
    """Counting every solution of an empty 9x9 Sudoku cannot finish in 0.5 s; the search must stop."""
    result = BACKENDS[backend].solve(sudoku_puzzle([0] * 81), limit=10**12, time_limit=0.5)
    assert not result.complete and result.status == "timeout"


@pytest.mark.parametrize("backend", NAMES)
@settings(max_examples=10, deadline=None)
@given(box=st.sampled_from([(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)]), seed=st.integers(0, 2**32))
def test_unsolvable_by_construction(backend, box, seed):
    result = solve(unsolvable_sudoku(box, random.Random(seed)), backend=backend, limit=2, time_limit=60)
    assert result.status == "none" and result.complete and result.count == 0


@pytest.mark.parametrize("backend", NAMES)
def test_backend_keeps_the_contract(backend):
    """Capabilities declared, warm_up timed, statistics under the shared names (base.STAT_NAMES)."""
    engine = BACKENDS[backend]
    assert engine.name == backend and isinstance(engine.capabilities, Capabilities)
    assert isinstance(engine.warm_up(), float)
    stats = solve(sudoku_puzzle([0] * 16), backend=backend, limit=2).stats
    assert {"build_s", "search_s"} <= set(stats) and all(isinstance(stats[k], float) for k in ("build_s", "search_s"))
    assert set(stats) & set(STAT_NAMES) == {"build_s", "search_s", *SHARED_COUNTS[backend]}


SHARED_COUNTS = {
    "cpsat": ("nodes", "propagations", "conflicts"),
    "dlx": ("nodes",),
    "backtrack": ("nodes", "backtracks"),
    "constraint": (),
    "sat": ("nodes", "propagations", "conflicts"),
    "naive": ("nodes", "backtracks"),
}


@pytest.fixture
def template(monkeypatch):
    """The template backend, registered for one test only: it is no user-facing backend."""
    backend = TemplateBackend()
    monkeypatch.setitem(BACKENDS, "template", backend)
    return backend


def test_template_declares_the_contract(template):
    assert "template" not in NAMES and template.name == "template"
    assert isinstance(template.capabilities, Capabilities)
    assert [f.name for f in fields(Capabilities)] == ["cages", "max_order", "counting", "time_limit"]
    assert isinstance(template.capabilities.max_order, int) and template.capabilities.max_order >= 1
    assert isinstance(template.warm_up(), float)


@pytest.mark.parametrize("name, puzzle, known", CASES, ids=[c[0] for c in CASES])
def test_template_refuses_every_puzzle(template, name, puzzle, known):
    reason = template.can_solve(puzzle)
    assert isinstance(reason, str) and reason == NOT_WRITTEN
    with pytest.raises(BackendUnavailableError, match="copy it to write a backend"):
        solve(puzzle, backend="template", limit=2)


def test_capabilities_decide_what_a_backend_is_asked(template, monkeypatch):
    cases = {name: puzzle for name, puzzle, _ in CASES}
    small = Capabilities(cages=False, max_order=4, counting=True, time_limit=True)
    assert capability_problem(small, cases["keen4"]) == "it takes no cage constraints"
    assert capability_problem(small, cases["sudoku3x3"]) == "order 9 is above 4"
    assert capability_problem(small, cases["latin4"]) is None
    monkeypatch.setattr(template, "can_solve", lambda puzzle: None)
    assert refusal(template, cases["latin4"], 2, None) == "it cannot count solutions (limit 2)"
    assert refusal(template, cases["latin4"], 1, 1.0) == "it cannot stop at a time limit"
    assert refusal(template, cases["latin4"], 1, None) is None


# ---- limits beyond what a search can use, and targets beyond what a cage can make -----------------------


@pytest.mark.parametrize("backend", NAMES)
@pytest.mark.parametrize("limit", [2**62, 2**63, 2**64, 10**30])
def test_a_limit_beyond_64_bits_counts_everything(backend, limit):
    """The native kernels (dlx, backtrack) clamp a limit for their int64 counters: it was an OverflowError."""
    result = solve(GridPuzzle(4, latin_units(4), (0,) * 16), backend=backend, limit=limit)
    assert result.count == 576 and result.complete and result.status == "multiple"


@pytest.mark.parametrize("backend", NAMES)
@pytest.mark.parametrize("time_limit", [float("inf"), 1e308, 1e12, float("nan")])
def test_an_infinite_or_huge_time_limit_is_no_limit(backend, time_limit):
    """base.time_limit_or_none: the constraint backend raised OverflowError waiting on its child until inf."""
    result = solve(sudoku_puzzle([0] * 16), backend=backend, limit=1000, time_limit=time_limit)
    assert result.count == 288 and result.complete


UNREACHABLE = [  # (label, cage) in an empty 9x9 Latin square; each makes the puzzle unsolvable
    ("*0 of 5 cells", ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4)), "*", 0),
    ("m0 of 2 cells", ((0, 0), (0, 1)), "*", 0),
    ("*-3", ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4)), "*", -3),
    ("+2**63", ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4)), "+", 2**63),
    ("*2**63 of 2 cells", ((0, 0), (0, 1)), "*", 2**63),
    ("*2**64 of 5 cells", ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4)), "*", 2**64),
    ("=2**63", ((0, 0),), "=", 2**63),
    ("/2**63", ((0, 0), (0, 1)), "/", 2**63),
    ("-2**70", ((0, 0), (0, 1)), "-", 2**70),
    ("hidden 2**63", ((0, 0), (0, 1)), None, 2**63),
    ("hidden 0", ((0, 0), (0, 1), (0, 2)), None, 0),
]


@pytest.mark.parametrize("backend", NAMES)
@pytest.mark.parametrize("label, cells, op, target", UNREACHABLE, ids=[u[0] for u in UNREACHABLE])
def test_a_cage_target_out_of_reach_means_no_solution(backend, label, cells, op, target):
    """Never a crash (CP-SAT's model raised TypeError on 2**63) nor a timeout (CP-SAT's MODEL_INVALID on *0)."""
    puzzle = GridPuzzle(9, latin_units(9), (0,) * 81, (Cage(cells, op, target),))
    assert BACKENDS[backend].can_solve(puzzle) is None
    for time_limit in (None, 30):
        result = solve(puzzle, backend=backend, limit=2, time_limit=time_limit)
        assert (result.status, result.complete, result.count) == ("none", True, 0)
