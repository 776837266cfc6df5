"""Latin squares and quasigroups with holes (QWH): random and near-uniform squares, holes punched at the peak.

QWH (Achlioptas, Gomes, Kautz and Selman, AAAI-00): a square drawn (approximately) uniformly with
the Jacobson-Matthews Markov chain, then holes punched uniformly at random, or balanced (the same
number per row and column, Kautz et al., IJCAI-01), which is markedly harder. The hardness peak lies
near holes = 1.6 * n**1.55.
"""

from __future__ import annotations

import random

import numpy as np

from ..errors import CpModelsError
from ..grid import GridPuzzle
from ..latin import latin_puzzle
from ..minimality import SYMMETRIES as SYMMETRIES
from ..minimality import is_symmetric as is_symmetric


def random_latin_square(n: int, rng: random.Random) -> tuple[int, ...]:
    """A row-major Latin square of order n: the cyclic square with rows, columns and symbols shuffled by `rng`."""
    rows = rng.sample(range(n), n)
    cols = rng.sample(range(n), n)
    symbols = rng.sample(range(1, n + 1), n)
    return tuple(symbols[(r + c) % n] for r in rows for c in cols)


def uniform_latin_square(n: int, rng: random.Random, steps: int | None = None) -> tuple[int, ...]:
    """A Latin square of order n drawn approximately uniformly: `steps` (default n**3) Jacobson-Matthews moves."""
    cube = np.zeros((n, n, n), dtype=np.int8)
    for i, v in enumerate(random_latin_square(n, rng)):
        cube[i // n, i % n, v - 1] = 1
    improper = None
    for _ in range(steps if steps is not None and n > 1 else n**3 if n > 1 else 0):
        improper = _jacobson_matthews_move(cube, improper, rng)
    while improper is not None:  # finish on a proper square
        improper = _jacobson_matthews_move(cube, improper, rng)
    return tuple(int(s) + 1 for s in cube.argmax(axis=2).ravel())


def _jacobson_matthews_move(cube: np.ndarray, improper: tuple[int, int, int] | None, rng: random.Random):
    """One move of the Jacobson-Matthews chain on the incidence cube; returns the improper cell or None."""
    n = cube.shape[0]
    if improper is None:
        while True:  # a random 0-cell of the cube, then the 1s on its three lines
            r, c, s = rng.randrange(n), rng.randrange(n), rng.randrange(n)
            if cube[r, c, s] == 0:
                break
        r2 = int(np.flatnonzero(cube[:, c, s] == 1)[0])
        c2 = int(np.flatnonzero(cube[r, :, s] == 1)[0])
        s2 = int(np.flatnonzero(cube[r, c, :] == 1)[0])
    else:  # the -1 cell: each of its lines holds two 1s, take one of each at random
        r, c, s = improper
        r2 = rng.choice(np.flatnonzero(cube[:, c, s] == 1).tolist())
        c2 = rng.choice(np.flatnonzero(cube[r, :, s] == 1).tolist())
        s2 = rng.choice(np.flatnonzero(cube[r, c, :] == 1).tolist())
    for cell, delta in (
        ((r, c, s), 1),
        ((r, c2, s2), 1),
        ((r2, c, s2), 1),
        ((r2, c2, s), 1),
        ((r, c2, s), -1),
        ((r2, c, s), -1),
        ((r, c, s2), -1),
        ((r2, c2, s2), -1),
    ):
        cube[cell] += delta
    return (r2, c2, s2) if cube[r2, c2, s2] == -1 else None


def punch_holes(square: tuple[int, ...], holes: int, rng: random.Random, balanced: bool = False) -> tuple[int, ...]:
    """`square` with `holes` cells emptied: uniformly at random, or balanced (as equal as can be per row and column)."""
    n = round(len(square) ** 0.5)
    if not 0 <= holes <= n * n:
        raise CpModelsError(f"an order-{n} square has {n * n} cells; cannot punch {holes} holes")
    if not balanced:
        emptied = set(rng.sample(range(n * n), holes))
    else:  # the cells of k symbols of a random square: k holes in every row and column, then part of one more
        pattern = random_latin_square(n, rng)
        full, extra = divmod(holes, n)
        symbols = rng.sample(range(1, n + 1), n)
        emptied = {i for i, v in enumerate(pattern) if v in symbols[:full]}
        if extra:
            last = [i for i, v in enumerate(pattern) if v == symbols[full]]
            emptied |= set(rng.sample(last, extra))
    return tuple(0 if i in emptied else v for i, v in enumerate(square))


def qwh(n: int, holes: int, rng: random.Random, balanced: bool = False) -> tuple[GridPuzzle, tuple[int, ...]]:
    """A QWH instance of order n with `holes` holes, and the square it was punched from (a solution)."""
    square = uniform_latin_square(n, rng)
    puzzle = latin_puzzle(punch_holes(square, holes, rng, balanced), name=f"qwh-o{n}-h{holes}")
    return puzzle, square


def peak_holes(n: int) -> int:
    """The number of holes near which QWH of order n is hardest: 1.6 * n**1.55 (Achlioptas et al. 2000)."""
    return min(n * n, round(1.6 * n**1.55))
