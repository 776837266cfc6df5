"""Latin squares and quasigroup-with-holes (QWH): random squares, hole punching, and their file formats.

A QWH instance is a Latin square of order n with some cells emptied ("holes"); completing it is
Latin square completion. Generation follows Achlioptas, Gomes, Kautz and Selman (AAAI-00): a
square drawn (approximately) uniformly with the Jacobson-Matthews Markov chain, then holes punched
uniformly at random, or balanced (the same number per row and column, Kautz et al., IJCAI-01),
which is markedly harder. The hardness peak lies near holes = 1.6 * n**1.55.

Read and written:
  pls   `order n`, then n rows of entries, -1 a hole, symbols 0..n-1 (Gomes' lsencode files)
  qwh   one instance per line, `name:n:holes:e,e,...:status:solution` (cpmodels' data files), symbols 0..n-1
"""

from __future__ import annotations

import random
import re
from functools import partial

import numpy as np

from .errors import CpModelsError, ParseError
from .formats import Entry, content_lines, entry_from
from .grid import GridPuzzle, latin_units

FORMATS = ("pls", "qwh")
_QWH_LINE = re.compile(r"^\s*([^:\s]+):(\d+):(\d+):(-?\d+(?:,-?\d+)*)")


def latin_puzzle(givens: tuple[int, ...] | list[int], name: str = "") -> GridPuzzle:
    """The Latin square completion puzzle (rows and columns all-different) with these row-major givens."""
    n = round(len(givens) ** 0.5)
    return GridPuzzle(n, latin_units(n), tuple(givens), name=name)


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


# ---- reading and writing -------------------------------------------------------------------


def detect(text: str) -> str | None:
    """`pls` for an `order n` file, `qwh` for lines of the data format, None for anything else."""
    lines = [ln for _, ln in content_lines(text)]
    if lines and re.fullmatch(r"\s*order\s+\d+\s*", lines[0]):
        return "pls"
    if lines and all(_QWH_LINE.match(ln) for ln in lines):
        return "qwh"
    return None


def read_text(text: str, path: str = "<input>", fmt: str = "auto") -> list[Entry]:
    """Every QWH instance in `text` (one for pls, one per line for qwh), one Entry each."""
    fmt = detect(text) or "qwh" if fmt == "auto" else fmt
    lines = content_lines(text)
    if not lines:
        return [Entry(1, error=ParseError("no puzzle found (the input is empty)", path=path, line=1))]
    if fmt == "pls":
        return [entry_from(lines[0][0], path, partial(_read_pls, lines, path))]
    if fmt == "qwh":
        return [entry_from(k, path, partial(_read_qwh_line, ln, k, path)) for k, ln in lines]
    raise CpModelsError(f"unknown QWH format {fmt!r}; choose one of: auto, {', '.join(FORMATS)}")


def _entries_value(token: str, n: int, path: str, k: int, column: int, line: str) -> int:
    """A file entry (-1 a hole, else a symbol 0..n-1) as a cpmodels value (0 empty, else 1..n)."""
    if not re.fullmatch(r"-?\d+", token) or not -1 <= int(token) < n:
        raise ParseError(
            f"{token!r} is not -1 (a hole) or a symbol 0..{n - 1}", path=path, line=k, column=column, text=line
        )
    return int(token) + 1


def _read_pls(lines: list[tuple[int, str]], path: str) -> GridPuzzle:
    """A puzzle from the lines of a pls file: `order n`, then n rows of n entries."""
    k0, first = lines[0]
    m = re.fullmatch(r"\s*order\s+(\d+)\s*", first)
    if not m or int(m[1]) < 1:
        raise ParseError("a pls file starts with a line `order n`", path=path, line=k0, column=1, text=first)
    n = int(m[1])
    rows = lines[1:]
    if len(rows) != n:
        where = rows[-1][0] if rows else k0
        raise ParseError(f"an order-{n} square has {n} rows, not {len(rows)}", path=path, line=where)
    values = []
    for k, line in rows:
        tokens = list(re.finditer(r"\S+", line))
        if len(tokens) != n:
            raise ParseError(f"row has {len(tokens)} entries, not {n}", path=path, line=k, column=len(line), text=line)
        values += [_entries_value(t[0], n, path, k, t.start() + 1, line) for t in tokens]
    return latin_puzzle(values, name=f"{path}:{k0}")


def _read_qwh_line(line: str, k: int, path: str) -> GridPuzzle:
    """A puzzle from one `name:n:holes:entries[:status:solution]` line."""
    m = _QWH_LINE.match(line)
    if not m:
        raise ParseError("expected name:n:holes:e,e,... (entries -1 or 0..n-1)", path=path, line=k, column=1, text=line)
    n, start = int(m[2]), m.start(4)
    tokens = m[4].split(",")
    if len(tokens) != n * n:
        raise ParseError(
            f"{len(tokens)} entries, not {n * n} for order {n}", path=path, line=k, column=m.end(4), text=line
        )
    values, column = [], start + 1
    for t in tokens:
        values.append(_entries_value(t, n, path, k, column, line))
        column += len(t) + 1
    if values.count(0) != int(m[3]):
        raise ParseError(
            f"{values.count(0)} holes, not {m[3]} as stated", path=path, line=k, column=m.start(3) + 1, text=line
        )
    return latin_puzzle(values, name=f"{path}:{k} {m[1]}")


def write_pls(puzzle: GridPuzzle) -> str:
    """A Latin square completion puzzle in pls format (symbols 0..n-1, -1 for a hole)."""
    _check_latin(puzzle)
    n = puzzle.n
    width = len(str(n - 1)) + 2
    rows = ["".join(str(v - 1).rjust(width) for v in puzzle.givens[r * n : (r + 1) * n]) for r in range(n)]
    return "\n".join([f"order {n}", *rows])


def write_qwh(puzzle: GridPuzzle, name: str | None = None) -> str:
    """A Latin square completion puzzle as one line of the qwh data format (no status field), named
    `name`, else by the instance name it was read with (`path:line name`), else `puzzle`."""
    _check_latin(puzzle)
    name = name or (puzzle.name.split(" ")[-1] if " " in puzzle.name else "puzzle")
    entries = ",".join(str(v - 1) for v in puzzle.givens)
    return f"{name}:{puzzle.n}:{puzzle.givens.count(0)}:{entries}"


def _check_latin(puzzle: GridPuzzle) -> None:
    """Raise CpModelsError unless `puzzle` is plain Latin square completion (rows and columns, no cages)."""
    if puzzle.units != latin_units(puzzle.n) or puzzle.cages:
        raise CpModelsError("pls and qwh files hold Latin square completion only (no boxes, no cages)")
