"""Certificates of uniqueness anyone can check: the solution, the CNF that forbids it, and a DRAT proof.

certify(puzzle, directory) writes four files for a puzzle with exactly one solution:

  NAME.puzzle  the puzzle in cpmodels' JSON format (formats.write_puzzle(puzzle, "json")), which reads back
               to the same puzzle: its order, units (Sudoku box or Latin square), givens and cages
  NAME.sol     the solution: the n*n values 1..n, row-major, separated by single spaces, on one line
  NAME.cnf     DIMACS CNF: the puzzle's CNF, encoding version 1 of backends/sat.py (its module docstring
               says exactly which variables and clauses, in which order), then one last clause, the one
               that forbids the solution: -var(i, solution[i]) for every cell i, row-major, where
               var(i, v) = i*n + v. Comment lines (`c ...`) name the encoding and the puzzle.
  NAME.drat    a DRAT proof (text, one lemma or `d` deletion a line) that NAME.cnf is unsatisfiable,
               written by the SAT solver (PySAT's CaDiCaL 1.9.5 by default)

Together: the solution meets every rule (a checker needs no solver for that), and no grid other than it
does, since every other grid satisfies the puzzle's CNF and the forbidding clause, which the proof
refutes. verify(path) checks all of it without PySAT: it re-reads the puzzle, regenerates the CNF from
it (sat.puzzle_cnf, pure Python) and compares it clause by clause, in order, with NAME.cnf; checks the
solution with grid.explain_violation and the forbidding clause against it; and checks the proof with
dratify (a DRAT checker from PyPI, pure Python, sharing no code with the solver). A third party can
regenerate the CNF from the encoding's description and check the proof with drat-trim instead, which
verify(..., checker="drat-trim") runs where it is on PATH.

Proof-writing PySAT solvers (python-sat 1.9): cadical103, cadical153, cadical195, cadical300, glucose3,
glucose4, glucose42, gluecard3, gluecard4, lingeling, maplechrono, maplecm, maplesat.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .backends import sat
from .errors import CpModelsError
from .grid import GridPuzzle, explain_violation

PROOF_SOLVERS = frozenset(
    {"cadical103", "cadical153", "cadical195", "cadical300", "glucose3", "glucose4", "glucose42", "gluecard3"}
    | {"gluecard4", "lingeling", "maplechrono", "maplecm", "maplesat"}
)
"""The PySAT solvers (python-sat 1.9) that write DRAT proofs (with_proof=True)."""
SUFFIXES = (".puzzle", ".sol", ".cnf", ".drat")
"""The files of one certificate, NAME plus each of these."""


class NotUniqueError(CpModelsError):
    """A puzzle with two solutions (or none) gets no certificate; `witnesses` holds the grids found (two, or none)."""

    def __init__(self, message: str, witnesses: list[tuple[int, ...]]) -> None:
        super().__init__(message)
        self.witnesses = witnesses


@dataclass(frozen=True)
class Certificate:
    """What certify wrote: the files' paths (by suffix), the solution, the CNF's size, the proof's size and times."""

    name: str
    paths: dict[str, Path]
    solution: tuple[int, ...]
    variables: int
    clauses: int
    proof_lines: int
    proof_bytes: int
    solve_s: float
    solver: str


@dataclass(frozen=True)
class Verdict:
    """The outcome of verify: ok, or the reasons it was rejected (joined by "; "), and the seconds each check took."""

    ok: bool
    reason: str
    name: str = ""
    times: dict[str, float] = field(default_factory=dict)


def safe_name(name: str) -> str:
    """`name` with every run of characters other than letters, digits, `.`, `_` and `-` made one `_`."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "puzzle"


def puzzle_text(puzzle: GridPuzzle) -> str:
    """The puzzle in JSON (formats.write_puzzle), checked to read back to the same puzzle; CpModelsError if not."""
    from .formats import write_puzzle

    try:
        text = write_puzzle(puzzle, "json")
    except CpModelsError as error:
        raise CpModelsError(f"cannot certify this puzzle: {error}") from None
    if read_puzzle(text, "<certificate>") != puzzle:
        raise CpModelsError("cannot certify this puzzle: its JSON does not read back to the same puzzle")
    return text


def read_puzzle(text: str, path: str) -> GridPuzzle:
    """The one puzzle of a certificate's JSON `text`; CpModelsError if it does not hold exactly one."""
    from .formats import read_text

    entries = read_text(text, path, fmt="json")
    if len(entries) != 1:
        raise CpModelsError(f"{path} holds {len(entries)} puzzles, not one")
    entry = entries[0]
    if entry.puzzle is None:
        raise CpModelsError(str(entry.error))
    return entry.puzzle


def certify(
    puzzle: GridPuzzle, directory: str | Path, name: str | None = None, solver: str = "cadical195"
) -> Certificate:
    """Write NAME.puzzle, NAME.sol, NAME.cnf and NAME.drat in `directory` for a puzzle with exactly one solution.

    NAME is `name`, else the puzzle's name, else "puzzle" (safe_name). A puzzle with no solution, or
    with two (NotUniqueError carrying both grids), gets no certificate; nor does one that the JSON
    format cannot carry (CpModelsError), or one whose solver writes no proof.
    """
    start = time.perf_counter()
    solver = sat.solver_name(solver)
    if solver not in PROOF_SOLVERS:
        raise CpModelsError(
            f"the PySAT solver {solver!r} writes no proof; use one of: {', '.join(sorted(PROOF_SOLVERS))}"
        )
    text = puzzle_text(puzzle)
    cnf = sat.puzzle_cnf(puzzle)
    first = _first_grid(cnf, solver)
    if first is None:
        raise NotUniqueError("the puzzle has no solution: there is nothing to certify", [])
    problem = explain_violation(puzzle, first)
    if problem:
        raise RuntimeError(f"the SAT solver gave a grid that breaks the puzzle: {problem}")
    forbid = sat.forbidding_clause(puzzle.n, first)
    try:
        prover = sat.new_solver(solver, [*cnf.clauses, forbid], with_proof=True)
    except NotImplementedError:
        raise CpModelsError(f"the PySAT solver {solver!r} writes no proof") from None
    try:
        if prover.solve():
            second = sat.decode(prover.get_model(), puzzle.n)
            raise NotUniqueError("the puzzle has more than one solution: no certificate", [first, second])
        proof = "\n".join(prover.get_proof()) + "\n"
    finally:
        prover.delete()
    solve_s = time.perf_counter() - start
    base = Path(directory) / safe_name(name or puzzle.name or "puzzle")
    base.parent.mkdir(parents=True, exist_ok=True)
    comments = _comments(puzzle, solver)
    contents = {
        ".puzzle": text if text.endswith("\n") else text + "\n",
        ".sol": " ".join(map(str, first)) + "\n",
        ".cnf": sat.dimacs(cnf, [forbid], comments),
        ".drat": proof,
    }
    paths = {suffix: base.with_name(base.name + suffix) for suffix in SUFFIXES}
    for suffix, content in contents.items():
        paths[suffix].write_text(content, encoding="utf-8")
    return Certificate(
        base.name, paths, first, cnf.variables, len(cnf.clauses) + 1, proof.count("\n"), len(proof), solve_s, solver
    )


def _first_grid(cnf: sat.Cnf, solver: str) -> tuple[int, ...] | None:
    """A grid of the CNF from `solver`, or None if it has none."""
    if cnf.empty_cage:
        return None
    found, _, _, _ = sat.search(cnf, solver, 1, 1, None)
    return found[0] if found else None


def _comments(puzzle: GridPuzzle, solver: str) -> list[str]:
    """The comment lines of a certificate's CNF."""
    return [
        f"cpmodels uniqueness certificate: CNF encoding version {sat.ENCODING_VERSION} (cpmodels.backends.sat),",
        "then the clause forbidding the solution; var(cell, value) = cell*n + value, cells row-major from 0",
        f"puzzle: {safe_name(puzzle.name or 'puzzle')}, order {puzzle.n}; solver: {solver}",
    ]


def certificate_base(path_or_name: str | Path) -> Path:
    """The common path of a certificate's files (NAME without suffix), from NAME or any of its files."""
    path = Path(path_or_name)
    return path.with_suffix("") if path.suffix in SUFFIXES else path


CHECKERS = ("dratify", "drat-trim")
"""The DRAT checkers verify can use: dratify (PyPI, the default) or drat-trim (Heule's C program, on PATH)."""


def verify(path_or_name: str | Path, engine: str = "auto", checker: str = "dratify") -> Verdict:
    """Check the certificate NAME (or any of its files) without a SAT solver; every problem found is reported.

    `checker`: "dratify" (`engine` is its: "python", "native" where installed, or "auto") or "drat-trim",
    run as a program found on PATH (CpModelsError if it is not there).
    """
    if checker not in CHECKERS:
        raise CpModelsError(f"unknown DRAT checker {checker!r}; choose one of: {', '.join(CHECKERS)}")
    if checker == "drat-trim" and shutil.which("drat-trim") is None:
        raise CpModelsError("drat-trim is not on PATH (build it from github.com/marijnheule/drat-trim)")
    base = certificate_base(path_or_name)
    times: dict[str, float] = {}
    texts: dict[str, str] = {}
    for suffix in SUFFIXES:
        path = base.with_name(base.name + suffix)
        try:
            texts[suffix] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            return Verdict(False, f"cannot read {path}: {error}", base.name)
    start = time.perf_counter()
    try:
        puzzle = read_puzzle(texts[".puzzle"], str(base) + ".puzzle")
    except CpModelsError as error:
        return Verdict(False, f"the puzzle does not read: {error}", base.name)
    reasons: list[str] = []
    grid = _read_solution(texts[".sol"], puzzle.n, reasons)
    if grid is not None:
        problem = explain_violation(puzzle, grid)
        if problem:
            reasons.append(f"the solution breaks a rule: {problem}")
    times["solution_s"] = time.perf_counter() - start
    start = time.perf_counter()
    clauses = _read_dimacs(texts[".cnf"], reasons)
    if clauses is not None:
        _compare_cnf(puzzle, grid, clauses, reasons)
    times["cnf_s"] = time.perf_counter() - start
    start = time.perf_counter()
    if checker == "drat-trim":
        proof_problem = check_with_drat_trim(base.with_name(base.name + ".cnf"), base.with_name(base.name + ".drat"))
    else:
        proof_problem = check_drat(texts[".cnf"], texts[".drat"], engine)
    if proof_problem:
        reasons.append(proof_problem)
    times["proof_s"] = time.perf_counter() - start
    return Verdict(not reasons, "; ".join(reasons) or "verified", base.name, times)


def _read_solution(text: str, n: int, reasons: list[str]) -> tuple[int, ...] | None:
    """The grid of a .sol text (n*n integers), or None with the reason added to `reasons`."""
    try:
        grid = tuple(int(word) for word in text.split())
    except ValueError:
        reasons.append("the solution is not a line of integers")
        return None
    if len(grid) != n * n:
        reasons.append(f"the solution has {len(grid)} values, not {n * n}")
        return None
    return grid


def _read_dimacs(text: str, reasons: list[str]) -> tuple[int, list[list[int]]] | None:
    """(declared variables, clauses) of DIMACS `text`, or None with the reason added to `reasons`."""
    header: tuple[int, int] | None = None
    clauses: list[list[int]] = []
    pending: list[int] = []
    try:
        for line in text.splitlines():
            words = line.split()
            if not words or words[0] == "c":
                continue
            if words[0] == "p":
                if header is not None or len(words) != 4 or words[1] != "cnf":
                    raise ValueError(f"a bad or second header: {line!r}")
                header = (int(words[2]), int(words[3]))
                continue
            for lit in map(int, words):
                if lit:
                    pending.append(lit)
                else:
                    clauses.append(pending)
                    pending = []
    except ValueError as error:
        reasons.append(f"the CNF does not read: {error}")
        return None
    if header is None or pending:
        reasons.append("the CNF does not read: " + ("no `p cnf` header" if header is None else "an unended clause"))
        return None
    if header[1] != len(clauses):
        reasons.append(f"the CNF's header declares {header[1]} clauses but it holds {len(clauses)}")
    return header[0], clauses


def _compare_cnf(
    puzzle: GridPuzzle, grid: tuple[int, ...] | None, found: tuple[int, list[list[int]]], reasons: list[str]
) -> None:
    """Add to `reasons` how the CNF file differs from the puzzle's CNF and the solution's forbidding clause."""
    variables, clauses = found
    try:
        cnf = sat.puzzle_cnf(puzzle)
    except CpModelsError as error:
        reasons.append(f"the puzzle's CNF cannot be made: {error}")
        return
    expected = [*cnf.clauses, sat.forbidding_clause(puzzle.n, grid)] if grid is not None else cnf.clauses
    if variables != cnf.variables:
        reasons.append(f"the CNF declares {variables} variables, the puzzle's CNF has {cnf.variables}")
    mismatch = next((k for k, (a, b) in enumerate(zip(expected, clauses, strict=False)) if list(a) != b), None)
    if mismatch is not None:
        reasons.append(
            f"the CNF does not match the puzzle: clause {mismatch + 1} is {_clause(clauses[mismatch])}, "
            f"the encoding's is {_clause(expected[mismatch])}"
        )
    elif len(clauses) < len(expected):
        missing = len(expected) - len(clauses)
        what = "the clause forbidding the solution" if missing == 1 and grid is not None else f"{missing} clauses"
        reasons.append(f"the CNF does not match the puzzle: {what} is missing (it has {len(clauses)} clauses)")
    elif len(clauses) > len(expected):
        reasons.append(f"the CNF does not match the puzzle: {len(clauses) - len(expected)} clauses too many")


def _clause(clause: Sequence[int]) -> str:
    """A clause as DIMACS, shortened past 12 literals."""
    shown = " ".join(map(str, clause[:12])) + (" ..." if len(clause) > 12 else "")
    return f"({shown} 0)"


def check_with_drat_trim(cnf: Path, proof: Path, timeout: float = 600.0) -> str | None:
    """Why drat-trim (on PATH) rejects the proof file as a refutation of the CNF file, or None if it verifies it."""
    try:
        done = subprocess.run(
            ["drat-trim", str(cnf), str(proof)], capture_output=True, text=True, timeout=timeout, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"drat-trim did not finish: {error}"
    if re.search(r"^s VERIFIED$", done.stdout, re.MULTILINE):
        return None
    said = [line for line in done.stdout.splitlines() if line.startswith("s ")] or ["no verdict"]
    return f"the proof does not refute the CNF: drat-trim says {said[-1]!r}"


def check_drat(cnf_text: str, proof_text: str, engine: str = "auto") -> str | None:
    """Why dratify rejects `proof_text` as a refutation of the DIMACS `cnf_text`, or None if it accepts it."""
    try:
        from dratify import check_proof, parse_dimacs
    except ImportError:
        return "the proof is unchecked: the DRAT checker dratify is not installed (pip install dratify)"
    try:
        result = check_proof(parse_dimacs(cnf_text), proof_text, engine=engine)
    except ValueError as error:
        return f"the proof does not read: {error}"
    if result.ok and result.reached_empty:
        return None
    return f"the proof does not refute the CNF: {result.reason or 'no empty clause derived'}"
