"""Certificates of uniqueness: written for unique puzzles of every family, verified, and tampering rejected."""

import random
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("pysat")
pytest.importorskip("dratify")

from cpmodels import solve  # noqa: E402
from cpmodels.backends import sat  # noqa: E402
from cpmodels.certificates import NotUniqueError, certify, verify  # noqa: E402
from cpmodels.errors import CpModelsError  # noqa: E402
from cpmodels.formats import read_text  # noqa: E402
from cpmodels.generate import punch, random_grid  # noqa: E402
from cpmodels.grid import GridPuzzle, is_solution, latin_units  # noqa: E402
from cpmodels.latin import latin_puzzle  # noqa: E402
from cpmodels.mathdoku import hide_operators  # noqa: E402
from cpmodels.sudoku import sudoku_puzzle  # noqa: E402

from .conftest import FIXTURES, data_lines  # noqa: E402


def fixture(name: str) -> GridPuzzle:
    path = FIXTURES / "mathdoku" / name
    (entry,) = read_text(path.read_text(), str(path))
    assert entry.puzzle is not None
    return entry.puzzle


def unique_sudoku_9x9() -> GridPuzzle:
    path = FIXTURES / "sudoku" / "tdoku_sample.txt"
    for (_, line), entry in zip(data_lines(path), read_text(path.read_text()), strict=True):
        if line.split(":")[1] == "1":
            return entry.puzzle
    raise AssertionError("no unique puzzle in the sample")


def planted_unique(box, holes, seed, latin=False) -> GridPuzzle:
    """A puzzle punched from a random grid, checked unique by CP-SAT."""
    rng = random.Random(seed)
    grid = random_grid(box, rng)
    givens = punch(grid, holes, rng)
    puzzle = latin_puzzle(givens) if latin else sudoku_puzzle(givens, box)
    assert solve(puzzle, limit=2).status == "unique"
    return puzzle


FAMILIES = {
    "sudoku9x9": unique_sudoku_9x9,
    "sudoku2x3": lambda: planted_unique((2, 3), 12, 1),
    "sudoku2x4": lambda: planted_unique((2, 4), 16, 2),
    "latin5": lambda: planted_unique((1, 5), 6, 3, latin=True),
    "mathdoku4": lambda: fixture("four.json"),
    "mathdoku6": lambda: fixture("six.ken"),
    "mathdoku6-hidden": lambda: hide_operators(fixture("six.ken")),
}


@pytest.mark.parametrize("family", FAMILIES)
def test_a_certificate_of_every_family_verifies(family, tmp_path):
    puzzle = FAMILIES[family]()
    found = certify(puzzle, tmp_path, name=family)
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{family}{s}" for s in (".cnf", ".drat", ".puzzle", ".sol")]
    assert is_solution(puzzle, found.solution) and found.proof_bytes > 0
    verdict = verify(tmp_path / family)
    assert verdict.ok and verdict.reason == "verified", verdict.reason
    assert verify(tmp_path / f"{family}.cnf").ok  # any of its files names it


HARD = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
"""A 9x9 Sudoku (Arto Inkala's, 2012) whose certificate needs a proof: unit propagation alone does not refute it.
The sample's unique puzzles fall to propagation, so that even an empty proof of theirs verifies."""


def test_an_easy_puzzle_needs_no_proof_a_hard_one_does(tmp_path):
    easy, hard = unique_sudoku_9x9(), read_text(HARD)[0].puzzle
    for name, puzzle, needs in (("easy", easy, False), ("hard", hard, True)):
        certify(puzzle, tmp_path, name=name)
        (tmp_path / f"{name}.drat").write_text("")
        verdict = verify(tmp_path / name)
        assert verdict.ok is not needs, verdict.reason


@pytest.fixture
def certified(tmp_path):
    """The certificate of the hard 9x9 Sudoku: its base path."""
    certify(read_text(HARD)[0].puzzle, tmp_path, name="cert")
    assert verify(tmp_path / "cert").ok
    return tmp_path / "cert"


def test_without_its_forbidding_clause_the_cnf_is_rejected_and_satisfiable(certified):
    from pysat.solvers import Solver

    path = certified.with_suffix(".cnf")
    lines = path.read_text().splitlines()
    header = next(k for k, line in enumerate(lines) if line.startswith("p cnf"))
    _, _, variables, clauses = lines[header].split()
    lines[header] = f"p cnf {variables} {int(clauses) - 1}"
    path.write_text("\n".join(lines[:-1]) + "\n")
    verdict = verify(certified)
    assert not verdict.ok
    assert "the clause forbidding the solution is missing" in verdict.reason
    assert "the proof does not refute the CNF" in verdict.reason
    kept = [[int(x) for x in line.split()[:-1]] for line in lines[header + 1 : -1]]
    with Solver(name="cadical195", bootstrap_with=kept) as solver:
        assert solver.solve()


def test_a_proof_cut_short_is_rejected(certified):
    path = certified.with_suffix(".drat")
    lines = path.read_text().splitlines()
    empty = lines.index("0")  # the empty clause; CaDiCaL may delete clauses after it
    for cut in (lines[:empty], lines[: empty // 2], []):
        path.write_text("".join(line + "\n" for line in cut))
        verdict = verify(certified)
        assert not verdict.ok and "the proof does not refute the CNF" in verdict.reason, verdict.reason


def test_a_corrupted_solution_is_rejected(certified):
    path = certified.with_suffix(".sol")
    values = path.read_text().split()
    values[0], values[1] = values[1], values[0]
    path.write_text(" ".join(values) + "\n")
    verdict = verify(certified)
    assert not verdict.ok and "the solution breaks a rule" in verdict.reason
    assert "the CNF does not match the puzzle" in verdict.reason  # the forbidding clause is another grid's


def test_a_changed_puzzle_no_longer_matches_its_cnf(certified):
    path = certified.with_suffix(".puzzle")
    puzzle = read_text(HARD)[0].puzzle
    empty = puzzle.givens.index(0)
    from cpmodels.formats import write_puzzle

    solution = tuple(int(v) for v in certified.with_suffix(".sol").read_text().split())
    givens = list(puzzle.givens)
    givens[empty] = solution[empty]  # a given more, still met by the solution
    path.write_text(write_puzzle(puzzle.with_givens(givens), "json"))
    verdict = verify(certified)
    assert not verdict.ok and "the CNF does not match the puzzle" in verdict.reason


def test_a_missing_file_is_named(certified):
    certified.with_suffix(".drat").unlink()
    verdict = verify(certified)
    assert not verdict.ok and "cert.drat" in verdict.reason


def test_a_puzzle_with_two_solutions_gets_no_certificate_but_two_witnesses(tmp_path):
    puzzle = sudoku_puzzle([0] * 16)
    with pytest.raises(NotUniqueError, match="more than one solution") as raised:
        certify(puzzle, tmp_path, name="many")
    first, second = raised.value.witnesses
    assert first != second and is_solution(puzzle, first) and is_solution(puzzle, second)
    assert list(tmp_path.iterdir()) == []


def test_a_puzzle_without_solution_gets_no_certificate(tmp_path):
    puzzle = sudoku_puzzle([1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).with_givens([1, 2, 3, 0] + [0] * 11 + [4])
    with pytest.raises(NotUniqueError, match="no solution") as raised:
        certify(puzzle, tmp_path)
    assert raised.value.witnesses == []


def test_a_puzzle_json_cannot_carry_is_refused(tmp_path):
    diagonals = (tuple(i * 5 for i in range(5)), tuple(i * 4 + 4 for i in range(5)))
    puzzle = GridPuzzle(5, latin_units(5) + diagonals, (1,) + (0,) * 24)
    with pytest.raises(CpModelsError, match="cannot certify"):
        certify(puzzle, tmp_path)


def test_other_proof_solvers_and_one_without_proofs(tmp_path):
    puzzle = fixture("six.ken")
    assert certify(puzzle, tmp_path, name="g", solver="glucose4").solver == "glucose4"
    assert verify(tmp_path / "g").ok
    with pytest.raises(CpModelsError, match="writes no proof"):
        certify(puzzle, tmp_path, name="m", solver="minisat22")
    assert not (tmp_path / "m.cnf").exists()


def test_the_cnf_file_is_the_documented_encoding_plus_the_forbidding_clause(certified):
    puzzle = read_text(HARD)[0].puzzle
    solution = tuple(int(v) for v in certified.with_suffix(".sol").read_text().split())
    cnf = sat.puzzle_cnf(puzzle)
    expected = sat.dimacs(cnf, [sat.forbidding_clause(9, solution)])
    written = "".join(line + "\n" for line in certified.with_suffix(".cnf").read_text().splitlines() if line[0] != "c")
    assert written == expected
    assert sat.forbidding_clause(9, solution)[0] == -solution[0]


def test_hiding_the_operators_of_a_4x4_leaves_two_solutions_and_no_certificate(tmp_path):
    with pytest.raises(NotUniqueError) as raised:
        certify(fixture("four_hidden.json"), tmp_path)
    assert len(set(raised.value.witnesses)) == 2


def test_verify_needs_no_sat_solver(certified):
    """The check regenerates the CNF in pure Python and checks the proof with dratify: PySAT may be absent."""
    code = (
        "import sys\n"
        "sys.modules['pysat'] = None  # any import of pysat now fails\n"
        "from cpmodels.certificates import verify\n"
        "verdict = verify(sys.argv[1])\n"
        "print(verdict.ok, verdict.reason)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(certified)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "verified"]


@pytest.mark.skipif(shutil.which("drat-trim") is None, reason="drat-trim is not on PATH (a C program, no dependency)")
def test_drat_trim_agrees_with_dratify(certified):
    assert verify(certified, checker="drat-trim").ok
    path = certified.with_suffix(".drat")
    lines = path.read_text().splitlines()
    path.write_text("".join(line + "\n" for line in lines[: lines.index("0") // 2]))
    verdict = verify(certified, checker="drat-trim")
    assert not verdict.ok and "drat-trim says" in verdict.reason


def test_an_unknown_checker_is_refused(certified):
    with pytest.raises(CpModelsError, match="unknown DRAT checker 'nope'"):
        verify(certified, checker="nope")
