"""Generated puzzles written with what is known about them, in a form every reader of cpmodels reads back.

A puzzle written on one line (Sudoku `line`, Mathdoku `oneline`, `qwh`, Tatham IDs) is followed by a tab
and its fields, `seed=S:i clues=K method=M symmetry=Y` and, when measured, `attempts=`, `nodes=`,
`grade=`, `weight=` (Made.record); the readers cut them off (formats.text.FIELDS). A puzzle written on
several lines gets them on a `#` comment line before it. `solution`: a Sudoku line gets its solution as
the line format's own `:1:SOLUTION` claim (which `check` compares), any other one-line puzzle a
`solution=` field, a several-line one a `# solution=` line. `jsonl`: one JSON object a line, the puzzle's
`json` form (which the json reader takes back) with the fields, and `solution` as rows, added.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from .. import formats
from ..formats.sudoku import format_line
from ..formats.text import SEPARATOR
from .common import Made

JSONL = "jsonl"
"""The JSON Lines output of generate: the puzzle's json object and its fields, one a line."""


def write_records(records: Iterable[Made], fmt: str, symbols: str = "", solution: bool = False) -> Iterator[str]:
    """The pieces of a stream of generated puzzles in `fmt` (or JSONL), each with its fields, joined as they come."""
    if fmt == JSONL:
        for made in records:
            yield _json_line(made, solution) + "\n"
        return
    current: list[Made] = []

    def puzzles() -> Iterator:
        for made in records:
            current[:] = [made]
            yield made.puzzle

    for piece in formats.write_puzzles(puzzles(), fmt, symbols):
        yield _with_fields(piece, current[0], fmt, symbols, solution)


def _with_fields(piece: str, made: Made, fmt: str, symbols: str, solution: bool) -> str:
    """A written puzzle (a piece of write_puzzles) with the fields of `made` after it, or in a comment before it."""
    body = piece.rstrip("\n")
    fields = made.fields_text()
    known = solution and made.solution is not None
    if "\n" not in body:
        if known and fmt == "line":
            body += ":1:" + format_line(made.solution or (), symbols)
        elif known:
            fields += " solution=" + format_line(made.solution or (), symbols).replace(" ", ",")
        return body + fields + "\n"
    lines = body.split("\n")
    at = next(k for k, line in enumerate(lines) if line.strip() not in ("", SEPARATOR))
    comment = ["# " + fields.strip()]
    if known:
        comment.append("# solution=" + format_line(made.solution or (), symbols).replace(" ", ","))
    return "\n".join(lines[:at] + comment + lines[at:]) + "\n"


def _json_line(made: Made, solution: bool) -> str:
    """One JSONL line: the puzzle's json object, its fields, and its solution as rows when asked for."""
    data = json.loads(formats.write_puzzle(made.puzzle, "json"))
    data.update(made.record())
    if solution and made.solution is not None:
        n = made.puzzle.n
        data["solution"] = [list(made.solution[r * n : (r + 1) * n]) for r in range(n)]
    return json.dumps(data)
