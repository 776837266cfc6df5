"""Latin squares and quasigroup-with-holes (QWH): the completion puzzle and what makes a puzzle one.

A QWH instance is a Latin square of order n with some cells emptied ("holes"); completing it is
Latin square completion. Its generators (uniform squares, uniform and balanced holes) are in generate/latin.py,
its text formats (pls, qwh) in formats/latin.py.
"""

from __future__ import annotations

from .grid import GridPuzzle, latin_units


def latin_puzzle(givens: tuple[int, ...] | list[int], name: str = "") -> GridPuzzle:
    """The Latin square completion puzzle (rows and columns all-different) with these row-major givens."""
    n = round(len(givens) ** 0.5)
    return GridPuzzle(n, latin_units(n), tuple(givens), name=name)


def is_latin_completion(puzzle: GridPuzzle) -> bool:
    """Whether `puzzle` is plain Latin square completion: rows and columns as its only units, no cages."""
    return puzzle.units == latin_units(puzzle.n) and not puzzle.cages
