"""cpmodels: constraint-programming models of grid puzzles, cross-checked by independent solvers.

Modules (imports run one way: cli -> inputs, answers, blocks, explaining, cluster, batch -> generate, solve,
crosscheck, strategies, minimality, certificates, draw -> backends and formats -> the family modules -> grid
-> cages, errors):
  grid       GridPuzzle (givens, units, cages, per-cell candidate hints), Cage, the glossary, the solver-free
             checker (is_solution, explain_violation, grids_hold for a block of grids)
  cages      every cage rule: allowed value tuples, cells per operator, operators per size, reachability,
             connectivity
  sudoku     Sudoku of any box shape: box shapes, units, the puzzle
  mathdoku   Mathdoku/KenKen: the validated canonical puzzle, hidden operators, ambiguous and disconnected cages
  latin      Latin square completion (QWH): the puzzle
  cover      exact cover as a family of its own: Knuth's items and options, ExactCoverProblem, its checker
  formats    every text format in one registry (FORMATS): detect, read_text, write_puzzle, write_solution;
             formats.text holds the located-text primitives (bytes decoded with located UTF-8 and NUL
             errors, Entry, Token), then one module per family of formats: sudoku (line, grid, JSON),
             plain_lines (a file of plain lines read at once into one givens array), mathdoku (six cage
             files), latin (pls, qwh), tatham (Keen, Solo), dlx (Knuth's DLX1-DLX3), knuth (his Sudoku
             exports), pseudocoup (Fowler's input language, with candidate hints and edits)
  generate   every generator (a package): Sudoku grids, punching and its methods, Mathdoku cages and
             operators, Latin squares and QWH holes, seeds per puzzle
  minimality whether every clue, orbit, operator or cage boundary of a puzzle is needed
  strategies human-style solving: candidate state, techniques, policies, explanations and grades
  solve      solve, count_solutions, is_unique through the backend registry; exact covers too
  crosscheck cross_check: several backends on one puzzle, and whether they agree
  backends   the registry (BACKENDS) and one module per backend: cpsat (and cpsat_cover), dlx, backtrack,
             constraint, sat, naive; hot kernels in modules of their own
  certificates  DRAT certificates of uniqueness from the SAT backend, and their verification
  draw       pictures of puzzles and solutions (SVG, PNG) with matplotlib
  errors     the exception tree (CpModelsError and its kinds)
  inputs     the command's PUZZLE_OR_FILE argument: standard input, a file or inline text, read into entries
  answers    what solve, count and check answer for one puzzle: its outcome word and the text shown
  blocks     check and count on the backtracking kernel a block of puzzles at a time, and plain-line files at once
  explaining the explain, grade and techniques commands
  cluster    check, count, grade and generate on a Dask cluster, in input order, resumable
  batch      a file of puzzles answered one by one: outcomes, exit codes by severity, the summary table,
             --output records and --resume
  interrupts Ctrl-C and SIGTERM as Interrupted, held while a puzzle's answer is written and counted
  cli        the `cpmodels` command: parses arguments, calls the modules above, prints
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
