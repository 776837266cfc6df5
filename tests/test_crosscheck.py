"""cross_check: CP-SAT and python-constraint agree on planted puzzles; wrong, refusing, slow backends are reported."""

import random
import time
from dataclasses import dataclass, field

import pytest

from cpmodels import BACKENDS, GridPuzzle, SolveResult, sudoku_puzzle
from cpmodels.backends import Capabilities
from cpmodels.backends.constraint import ConstraintBackend, library
from cpmodels.backends.cpsat import CpsatBackend
from cpmodels.crosscheck import cross_check
from cpmodels.errors import UnknownBackendError
from cpmodels.generate import planted_mathdoku, punch, random_grid
from cpmodels.grid import latin_units
from cpmodels.mathdoku import hide_operators

pytestmark = pytest.mark.skipif(library() is None, reason="python-constraint2 is not installed")


EVERYTHING = Capabilities(cages=True, max_order=64, counting=True, time_limit=True)


@dataclass
class FakeBackend:
    """A backend that answers what it is told: `status` with `solutions`, or a refusal from can_solve."""

    name: str
    status: str = "none"
    solutions: tuple[tuple[int, ...], ...] = ()
    complete: bool = True
    refusal: str | None = None
    capabilities: Capabilities = EVERYTHING

    def can_solve(self, puzzle: GridPuzzle) -> str | None:
        """The refusal it was given."""
        return self.refusal

    def warm_up(self) -> float:
        """Nothing to prepare."""
        return 0.0

    def solve(self, puzzle: GridPuzzle, *, limit: int = 1, time_limit: float | None = None) -> SolveResult:
        """The answer it was given."""
        found = list(self.solutions)
        return SolveResult(self.status, found, len(found), self.complete, 0.0, {}, self.name)


@pytest.fixture
def registry():
    """The registry with cpsat and constraint only; fakes registered by a test are removed afterwards."""
    saved = dict(BACKENDS)
    BACKENDS.clear()
    BACKENDS.update(cpsat=CpsatBackend(), constraint=ConstraintBackend())
    yield BACKENDS
    BACKENDS.clear()
    BACKENDS.update(saved)


def planted_sudoku(seed: int, holes: int = 40) -> tuple[GridPuzzle, tuple[int, ...]]:
    """A 9x9 Sudoku with `holes` cells emptied from a random grid, and that grid."""
    rng = random.Random(seed)
    grid = random_grid((3, 3), rng)
    return sudoku_puzzle(punch(grid, holes, rng)), grid


@pytest.mark.parametrize("seed", range(3))
def test_backends_agree_on_planted_sudoku(registry, seed):
    puzzle, grid = planted_sudoku(seed)
    check = cross_check(puzzle)
    assert check.agree and check.disagreement is None and set(check.results) == {"cpsat", "constraint"}
    assert check.verdict in ("unique", "multiple") and check.skipped == {} and check.failed == {}
    if check.verdict == "unique":
        assert all(result.solutions == [grid] for result in check.results.values())


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_backends_agree_on_planted_mathdoku_with_and_without_operators(registry, n):
    puzzle, _ = planted_mathdoku(n, random.Random(n))
    assert cross_check(puzzle).agree
    assert cross_check(hide_operators(puzzle)).agree


def test_backends_agree_on_an_unsolvable_puzzle_and_on_exact_counts(registry):
    unsolvable = sudoku_puzzle([0, 2, 3, 0, 0, 1, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0])
    check = cross_check(unsolvable)
    assert check.agree and check.verdict == "none"
    latin = cross_check(GridPuzzle(3, latin_units(3), (0,) * 9), limit=100)
    assert latin.agree and all(r.count == 12 and r.complete for r in latin.results.values())


def test_a_backend_claiming_no_solution_is_named(registry):
    registry["liar"] = FakeBackend("liar", status="none")
    puzzle, grid = planted_sudoku(1, holes=20)
    check = cross_check(puzzle)
    assert check.results["cpsat"].solutions == [grid] and check.results["constraint"].solutions == [grid]
    assert not check.agree and check.verdict is None
    assert "cpsat found exactly 1 solution(s) but liar found no solution" in check.disagreement
    assert "liar's complete search (no solution) does not have" in check.disagreement


def test_a_backend_missing_one_of_two_solutions_is_named(registry):
    puzzle = sudoku_puzzle([0] * 16)
    square = CpsatBackend().solve(puzzle, limit=1).solutions[0]
    registry["blinkered"] = FakeBackend("blinkered", status="unique", solutions=(square,))
    check = cross_check(puzzle, limit=2)
    assert not check.agree
    assert "cpsat found at least 2 solution(s) but blinkered found exactly 1 solution(s)" in check.disagreement
    assert "which blinkered's complete search (exactly 1 solution(s)) does not have" in check.disagreement


def test_a_wrong_grid_is_caught_by_the_checker_and_reported(registry):
    registry["sloppy"] = FakeBackend("sloppy", status="solved", solutions=((1,) * 16,), complete=False)
    check = cross_check(sudoku_puzzle([0] * 16), limit=1)
    assert not check.agree and "sloppy" in check.failed and "sloppy" not in check.results
    assert check.disagreement.startswith("backend 'sloppy' failed (backend 'sloppy' returned a wrong solution: ")


def test_the_same_grid_twice_is_a_disagreement(registry):
    puzzle = sudoku_puzzle([0] * 16)
    square = CpsatBackend().solve(puzzle, limit=1).solutions[0]
    registry["echo"] = FakeBackend("echo", status="multiple", solutions=(square, square), complete=False)
    check = cross_check(puzzle, ["cpsat", "echo"])
    assert not check.agree and check.disagreement == "echo returned the same solution twice"


def test_refusing_backends_are_skipped_with_their_reason(registry):
    registry["picky"] = FakeBackend("picky", refusal="order 9 is above 4")
    puzzle, _ = planted_sudoku(2)
    check = cross_check(puzzle)
    assert check.agree and check.skipped == {"picky": "order 9 is above 4"} and "picky" not in check.results
    assert "picky: skipped: order 9 is above 4" in check.describe()


def test_a_timeout_is_reported_but_is_no_disagreement(registry):
    registry["slow"] = FakeBackend("slow", status="timeout", complete=False)
    puzzle, _ = planted_sudoku(1, holes=20)
    check = cross_check(puzzle)
    assert check.agree and check.timed_out() == ["slow"] and check.verdict == "unique"
    assert "slow: timeout after 0 solution(s)" in check.describe()


def test_an_incomplete_count_below_the_limit_is_a_timeout_whatever_its_status(registry):
    """A backend that says "multiple" after 3 of 300 solutions stopped early: no contradiction with 288."""
    puzzle = sudoku_puzzle([0] * 16)
    three = tuple(CpsatBackend().solve(puzzle, limit=3).solutions)
    registry["early"] = FakeBackend("early", status="multiple", solutions=three, complete=False)
    check = cross_check(puzzle, limit=300)
    assert check.agree and check.timed_out() == ["early"] and check.verdict == "multiple"
    assert check.results["constraint"].count == check.results["cpsat"].count == 288


def test_a_real_timeout_with_the_constraint_backend(registry):
    check = cross_check(sudoku_puzzle([0] * 81), ["constraint"], limit=10**6, time_limit=0.5)
    assert check.agree and check.timed_out() == ["constraint"] and check.verdict == "timeout"


def test_solutions_found_before_a_timeout_still_count(registry):
    """A timed-out backend's checked grid that a complete search lacks proves the complete search wrong."""
    puzzle = sudoku_puzzle([0] * 16)
    first, second = CpsatBackend().solve(puzzle, limit=2).solutions
    registry["partial"] = FakeBackend("partial", status="timeout", solutions=(second,), complete=False)
    registry["narrow"] = FakeBackend("narrow", status="unique", solutions=(first,))
    check = cross_check(puzzle, ["partial", "narrow"])
    assert not check.agree and "partial found the solution" in check.disagreement


def test_named_backends_only_and_unknown_names(registry):
    puzzle, _ = planted_sudoku(0)
    assert set(cross_check(puzzle, ["constraint"]).results) == {"constraint"}
    with pytest.raises(UnknownBackendError, match="unknown backend 'nope'"):
        cross_check(puzzle, ["nope"])


# ---- any engine failure is reported; one time limit per puzzle ---------------------------------------


@dataclass
class Raiser(FakeBackend):
    """A backend whose solve raises `error`."""

    error: BaseException | None = None

    def solve(self, puzzle: GridPuzzle, *, limit: int = 1, time_limit: float | None = None) -> SolveResult:
        """Raise the error it was given."""
        raise self.error


@pytest.mark.parametrize(
    "error, reported",
    [
        (ValueError("boom"), "ValueError: boom"),
        (OverflowError("int too big to convert"), "OverflowError: int too big to convert"),
        (TypeError("incompatible function arguments"), "TypeError: incompatible function arguments"),
    ],
)
def test_any_exception_from_an_engine_is_that_engines_failure(registry, error, reported):
    """cross_check caught only RuntimeError: an OverflowError in one engine killed `check` with a traceback."""
    registry["crashing"] = Raiser("crashing", error=error)
    puzzle, _ = planted_sudoku(0)
    check = cross_check(puzzle, ["cpsat", "crashing"])
    assert check.failed == {"crashing": reported} and set(check.results) == {"cpsat"}
    assert not check.agree and f"backend 'crashing' failed ({reported})" in check.disagreement


def test_an_interruption_is_no_engine_failure(registry):
    """Ctrl-C (KeyboardInterrupt) and the CLI's Interrupted (an Exception) stop the whole check."""
    from cpmodels.errors import Interrupted

    puzzle, _ = planted_sudoku(0)
    for error in (KeyboardInterrupt(), Interrupted(130, "interrupted")):
        registry["stopped"] = Raiser("stopped", error=error)
        with pytest.raises(type(error)):
            cross_check(puzzle, ["stopped", "cpsat"])


@dataclass
class Sleeper(FakeBackend):
    """A backend that sleeps `seconds` (only up to its time limit if `obeys`), then times out; records its limits."""

    seconds: float = 0.0
    obeys: bool = True
    limits: list[float | None] = field(default_factory=list)

    def solve(self, puzzle: GridPuzzle, *, limit: int = 1, time_limit: float | None = None) -> SolveResult:
        """Sleep, then report a timeout after no solution."""
        self.limits.append(time_limit)
        nap = min(self.seconds, time_limit) if self.obeys and time_limit is not None else self.seconds
        time.sleep(nap)
        return SolveResult("timeout", [], 0, False, nap, {}, self.name)


def test_the_engines_share_one_deadline_in_equal_shares_of_the_time_left(registry):
    """The command `check --time-limit L` took m x L for m engines; the k-th now gets (time left) / (m - k + 1)."""
    quick, slow, last = Sleeper("quick", seconds=0.1), Sleeper("slow", seconds=9), Sleeper("last", seconds=9)
    registry.update(quick=quick, slow=slow, last=last)
    puzzle, _ = planted_sudoku(0)
    start = time.perf_counter()
    check = cross_check(puzzle, ["quick", "slow", "last"], time_limit=1.5)
    wall = time.perf_counter() - start
    assert 1.4 <= wall <= 1.5 + 0.5 and check.timed_out() == ["quick", "slow", "last"]
    assert quick.limits[0] == pytest.approx(0.5, abs=0.05)  # a third of 1.5 s
    assert slow.limits[0] == pytest.approx(0.7, abs=0.05)  # half of the 1.4 s quick left
    assert last.limits[0] == pytest.approx(0.7, abs=0.05)  # what slow left


def test_an_engine_left_no_time_is_a_timeout_without_running(registry):
    overshooting, starved = Sleeper("overshooting", seconds=0.6, obeys=False), Sleeper("starved")
    registry.update(overshooting=overshooting, starved=starved)
    puzzle, _ = planted_sudoku(0)
    check = cross_check(puzzle, ["overshooting", "starved"], time_limit=0.4)
    assert starved.limits == [] and check.results["starved"].status == "timeout"
    assert check.results["starved"].wall_s == 0.0 and check.agree and check.verdict == "timeout"


def test_a_real_check_of_a_count_that_cannot_finish_takes_its_time_limit(registry):
    """Three engines counting an empty 9x9 to 10**8 under time_limit=1.5: about 1.5 s for the puzzle, not 4.5."""
    from cpmodels.backends.backtrack import BacktrackBackend
    from cpmodels.backends.dlx import DlxBackend

    registry.update(dlx=DlxBackend(), backtrack=BacktrackBackend())
    for name in ("cpsat", "dlx", "backtrack"):
        registry[name].warm_up()
    start = time.perf_counter()
    check = cross_check(sudoku_puzzle([0] * 81), ["cpsat", "dlx", "backtrack"], limit=10**8, time_limit=1.5)
    wall = time.perf_counter() - start
    assert check.timed_out() == ["cpsat", "dlx", "backtrack"] and check.verdict == "timeout"
    assert wall <= 1.5 * 1.5 + 1.0, f"the check took {wall:.2f} s"
