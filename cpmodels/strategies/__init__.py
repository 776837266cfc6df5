"""Human-style solving: candidate states, techniques, policies, step-by-step explanations and grades.

Layout (imports run one way, top to bottom; nothing here is imported by `cpmodels` itself):
  explain       explain(puzzle) -> Explanation (steps, final state, stuck flag, grade), grade(puzzle) -> Grade
                on the scales zambon, se (ER/EP/ED), hodoku (level, score), keen (Mathdoku, Latin), cp
  proofs        every step proved by CP-SAT from the state before it (explain --verify)
  propagation   the `cp` scale: singles, AllDifferent arc consistency (matching), intersections, shaving
  policies      which step comes next: `zambon`, `se`, `hodoku`, `keen` (next_step), the enabled techniques
  ratings       Sudoku Explainer 1.2.1 ratings and HoDoKu 2.2 levels and scores per technique (data, versioned)
  registry      the techniques with their finders: find(state), find_all(state); techniques() table
  notation      step text in HoDoKu's 1-based notation (format_step), Zambon's board (board)
  one module per idea of technique:
    singles        full house, hidden single (box and line told apart), naked single
    subsets        naked and hidden subsets of any size, locked pair and triple
    intersections  pointing and claiming
    fish           X-wing, swordfish, jellyfish, larger fish up to n/2; finned and sashimi fish
    wings          XY-wing, XYZ-wing, W-wing
    single_digit   skyscraper, 2-string kite, turbot fish, empty rectangle
    coloring       simple colours (trap and wrap)
    chains         remote pair, X-chain, XY-chain
    rectangles     Zambon's `rectangle` (a digit followed around four boxes)
    uniqueness     unique rectangles 1-4, hidden rectangle, BUG+1 (only on a State proved unique)
    aic            AIC (grouped nodes where boxes exist), nice loops, X-cycles; the link graph
    als            almost locked sets: ALS-XZ, Sue de Coq, aligned pair exclusion
    forcing        last resort: forcing chains, Nishio, dynamic forcing chains (with a budget)
    cage_rules     Mathdoku: cage layouts, positions, lines (Keen Easy, Normal, Hard), innies-outies, given
  links         strong links and the strong-link graph
  steps         Step: technique, pattern, placements, eliminations; applying, JSON
  catalogue     the techniques' names, aliases, Zambon levels and codes, where valid (data only)
  state         Geometry (units of any shape) and State (one candidate bitmask per cell), pencil marks, JSON
"""

from .catalogue import CATALOGUE, resolve
from .explain import Explanation, Grade, explain, grade
from .notation import format_step
from .policies import next_step
from .registry import TECHNIQUES, Technique, find_all_steps, get_technique, techniques
from .state import State
from .steps import Step

__all__ = [
    "CATALOGUE",
    "TECHNIQUES",
    "Explanation",
    "Grade",
    "State",
    "Step",
    "Technique",
    "explain",
    "find_all_steps",
    "format_step",
    "get_technique",
    "grade",
    "next_step",
    "resolve",
    "techniques",
]
