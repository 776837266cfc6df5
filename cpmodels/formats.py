"""Reading puzzles from text whatever their family: the Entry each reader yields, one per puzzle."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .errors import CpModelsError, ParseError
from .grid import GridPuzzle


@dataclass(frozen=True)
class Entry:
    """One puzzle read from text, or the error that stopped it; `line` is where it starts (1-based)."""

    line: int
    puzzle: GridPuzzle | None = None
    error: CpModelsError | None = None


def entry_from(line: int, path: str, parse: Callable[[], GridPuzzle]) -> Entry:
    """Run one puzzle's parser, turning a user error into an Entry that carries it, located."""
    try:
        return Entry(line, puzzle=parse())
    except ParseError as e:
        return Entry(line, error=e)
    except CpModelsError as e:
        return Entry(line, error=ParseError(str(e), path=path, line=line))


def content_lines(text: str) -> list[tuple[int, str]]:
    """The (1-based line number, line) pairs of `text` that are neither blank nor `#` comments."""
    return [(k, ln) for k, ln in enumerate(text.splitlines(), start=1) if ln.strip() and not ln.lstrip().startswith("#")]
