"""cpmodels: constraint-programming models of grid puzzles, cross-checked by independent solvers.

Modules:
  grid       GridPuzzle, Cage, and the solver-free checker (is_solution, explain_violation)
  cages      cage semantics: which value tuples a + - * / = or hidden-operator cage allows
  sudoku     Sudoku of any box shape: units, readers and writers of its text formats
  mathdoku   Mathdoku/KenKen: cage files in six formats, hidden operators, bordered drawings
  tatham     Keen and Solo game IDs from Simon Tatham's Portable Puzzle Collection
  latin      Latin square completion (QWH) and its pls/qwh files
  generate   every generator: complete grids, Sudoku punched while unique, planted Mathdoku, QWH holes
  formats    reading and writing puzzles whatever their family (the dispatch the command uses)
  solve      solve, count_solutions, is_unique through the backend registry
  crosscheck cross_check: several backends on one puzzle, and whether they agree
  backends   the registry (BACKENDS) and one module per backend: cpsat, dlx, backtrack, constraint
  errors     the exception tree (CpModelsError and its kinds)
  cli        the `cpmodels` command
"""

from .backends import BACKENDS, SolveResult
from .crosscheck import CrossCheck, cross_check
from .errors import CpModelsError, ParseError, PuzzleError, SearchTimeoutError
from .grid import Cage, GridPuzzle, explain_violation, is_solution
from .mathdoku import mathdoku_puzzle
from .solve import count_solutions, is_unique, solve
from .sudoku import sudoku_puzzle

__version__ = "0.1.0"

__all__ = [
    "BACKENDS",
    "Cage",
    "CpModelsError",
    "CrossCheck",
    "GridPuzzle",
    "ParseError",
    "PuzzleError",
    "SearchTimeoutError",
    "SolveResult",
    "count_solutions",
    "cross_check",
    "explain_violation",
    "is_solution",
    "is_unique",
    "mathdoku_puzzle",
    "solve",
    "sudoku_puzzle",
]
