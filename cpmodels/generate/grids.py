"""Complete Sudoku grids of any r x c box shape: the shifted-row pattern, randomised search, symmetry shuffles.

Two sources, neither uniform over grids (say so wherever statistics of generated puzzles are quoted):
  pattern  the classic shifted-row grid with bands, stacks, rows, columns and symbols shuffled: cheap at
           every order, but every grid it gives is one grid relabelled (a few grids up to symmetry);
  search   a random first box and a random sprinkle of consistent values, completed by the backtracking
           kernel's first solution, restarted (new random values) when they have none or the search
           passes its budget; far more varied grids, at a search each.
`shuffle_grid` applies a random element of the grid's symmetry group (digit relabelling, rows inside
bands, columns inside stacks, bands, stacks, and transposition when r = c): `--grid-shuffle`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from ..grid import GridPuzzle
from ..sudoku import sudoku_puzzle

GRID_SOURCES = ("search", "pattern")
"""Where complete grids come from (see the module docstring)."""
SEARCH_UP_TO = 25
"""By default grids are searched for up to this order and patterned above it (a search of an almost empty
36x36 takes seconds, and the search grids' variety matters most to small-grid statistics)."""
SPRINKLE = 8
"""Besides the first box, about one cell in SPRINKLE gets a random consistent value before the search."""
SEARCH_SECONDS = 2.0
"""A search for a completion gives up (and restarts with new random values) after this long."""


def pattern_grid(box: tuple[int, int]) -> tuple[int, ...]:
    """A solved Sudoku grid of the given box shape, from the classic shifted-row pattern."""
    br, bc = box
    n = br * bc
    return tuple((bc * (r % br) + r // br + c) % n + 1 for r in range(n) for c in range(n))


def shuffle_grid(grid: Sequence[int], box: tuple[int, int], rng: random.Random) -> tuple[int, ...]:
    """`grid` under a random element of its symmetry group: relabelled, rows, columns, bands, stacks permuted.

    Transposed too, half the time, when the boxes are square (r = c), where transposition keeps the boxes.
    """
    br, bc = box
    n = br * bc
    rows = [b * br + r for b in rng.sample(range(bc), bc) for r in rng.sample(range(br), br)]
    cols = [s * bc + c for s in rng.sample(range(br), br) for c in rng.sample(range(bc), bc)]
    relabel = [0, *rng.sample(range(1, n + 1), n)]
    transpose = br == bc and rng.random() < 0.5
    cell = (lambda r, c: c * n + r) if transpose else (lambda r, c: r * n + c)
    return tuple(relabel[grid[cell(r, c)]] for r in rows for c in cols)


def random_grid(box: tuple[int, int], rng: random.Random) -> tuple[int, ...]:
    """A random solved grid: pattern_grid under a random element of the symmetry group (shuffle_grid)."""
    return shuffle_grid(pattern_grid(box), box, rng)


@lru_cache(maxsize=16)
def _empty(box: tuple[int, int]) -> GridPuzzle:
    """The empty Sudoku of this box shape."""
    return sudoku_puzzle((0,) * (box[0] * box[1]) ** 2, box)


@lru_cache(maxsize=16)
def _peers(box: tuple[int, int]) -> tuple[tuple[int, ...], ...]:
    """Per cell, the other cells of its row, column and box."""
    puzzle = _empty(box)
    peers: list[set[int]] = [set() for _ in range(puzzle.n**2)]
    for unit in puzzle.units:
        for i in unit:
            peers[i].update(unit)
    return tuple(tuple(sorted(p - {i})) for i, p in enumerate(peers))


def sprinkled(box: tuple[int, int], rng: random.Random) -> list[int]:
    """Random givens that fit the rules: the first box a random permutation, then random cells with random candidates.

    About one cell in SPRINKLE beyond the first box, each given a value none of its peers holds yet (so
    no unit repeats a value; whether a completion exists is for the search to find).
    """
    br, bc = box
    n = br * bc
    givens = [0] * (n * n)
    for k, v in enumerate(rng.sample(range(1, n + 1), n)):
        givens[(k // bc) * n + k % bc] = v
    peers = _peers(box)
    for i in rng.sample(range(n * n), n * n // SPRINKLE):
        if givens[i]:
            continue
        free = sorted(set(range(1, n + 1)) - {givens[j] for j in peers[i]})
        if free:
            givens[i] = rng.choice(free)
    return givens


def searched_grid(box: tuple[int, int], rng: random.Random, backend: str = "backtrack") -> tuple[int, ...]:
    """A complete grid by randomised search: sprinkled() givens completed by the backend, restarted until one completes.

    Not uniform over grids: the completion is the search's first, from random starting values.
    """
    from ..solve import solve

    template = _empty(box)
    while True:
        givens = sprinkled(box, rng)
        found = solve(template.with_givens(givens), backend=backend, limit=1, keep=1, time_limit=SEARCH_SECONDS)
        if found.solutions:
            return tuple(found.solutions[0])


def complete_grid(box: tuple[int, int], rng: random.Random, source: str = "search", shuffle: bool = False) -> bytes:
    """A complete grid from `source` (GRID_SOURCES), under a random symmetry of the grid too if `shuffle`."""
    grid = searched_grid(box, rng) if source == "search" else random_grid(box, rng)
    return bytes(shuffle_grid(grid, box, rng) if shuffle else grid)
