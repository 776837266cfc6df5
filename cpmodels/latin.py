"""Latin squares: n x n grids of values 1..n with no value repeated in a row or column."""

from __future__ import annotations

import random


def random_latin_square(n: int, rng: random.Random) -> tuple[int, ...]:
    """A row-major Latin square of order n: the cyclic square with rows, columns and symbols shuffled by `rng`."""
    rows = rng.sample(range(n), n)
    cols = rng.sample(range(n), n)
    symbols = rng.sample(range(1, n + 1), n)
    return tuple(symbols[(r + c) % n] for r in rows for c in cols)
