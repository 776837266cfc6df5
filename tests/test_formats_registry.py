"""The registry of text formats.

It agrees with the README's table, every writer's text reads back to the puzzle it wrote, and so does a
stream of several puzzles (write_puzzles); a format refuses (saying why) a puzzle it cannot carry, and
detection follows the registry.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpmodels.backends.dlx import compile_puzzle
from cpmodels.errors import CpModelsError
from cpmodels.formats import (
    DETECTION_ORDER,
    FORMATS,
    SOLUTION_FORMATS,
    detect,
    input_formats,
    output_formats,
    read_text,
    write_puzzle,
    write_puzzles,
)
from cpmodels.formats.dlx import item_names, read_cover, read_dlx
from cpmodels.generate import planted_mathdoku, punch, qwh, random_grid
from cpmodels.grid import GridPuzzle
from cpmodels.mathdoku import hide_operators
from cpmodels.sudoku import box_of, sudoku_puzzle

README = Path(__file__).parents[1] / "README.md"


def readme_table() -> dict[str, set[str]]:
    """The format rows of the README's `## Formats` table: format name -> its families, lower case."""
    section = README.read_text(encoding="utf-8").split("\n## Formats\n")[1].split("\n## ")[0]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]]
        name = re.fullmatch(r"`(\w+)`", cells[1]) if len(cells) == 3 else None
        if name:
            rows[name[1]] = {family.strip().lower() for family in cells[0].split(",")}
    return rows


def puzzles() -> dict[str, GridPuzzle]:
    """A small puzzle of each family: a 6x6 Sudoku with 2x3 boxes, an order-4 Mathdoku, an order-5 QWH."""
    rng = random.Random(11)
    return {
        "sudoku": sudoku_puzzle(punch(random_grid((2, 3), rng), 20, rng), (2, 3)),
        "mathdoku": planted_mathdoku(4, rng, 3)[0],
        "qwh": qwh(5, 9, rng)[0],
    }


def test_the_readme_table_is_the_registry():
    table = readme_table()
    assert set(table) <= set(FORMATS), set(table) - set(FORMATS)
    assert set(input_formats()) <= set(table), set(input_formats()) - set(table)
    for name, families in table.items():
        assert families == set(FORMATS[name].families), name


def test_every_format_has_a_description_and_a_writer_and_the_readable_ones_a_detector():
    for name, fmt in FORMATS.items():
        assert fmt.name == name and fmt.families and fmt.description and "\n" not in fmt.description
        assert fmt.write is not None, name
        assert (fmt.read is None) == (fmt.sniff is None), name
    assert sorted(DETECTION_ORDER) == sorted(input_formats())
    assert set(SOLUTION_FORMATS) <= set(output_formats())


@pytest.mark.parametrize("name", output_formats())
@pytest.mark.parametrize("family", ["sudoku", "mathdoku", "qwh"])
def test_every_writer_reads_back_or_refuses(name, family):
    fmt, puzzle = FORMATS[name], puzzles()[family]
    if "exact cover" in fmt.families and name != "dlx":  # Knuth's exports: a plain Sudoku only, as DLX text
        if family == "sudoku":
            assert read_cover(fmt.write(puzzle)).n_primary > 0
        else:
            with pytest.raises(CpModelsError, match="holds a plain Sudoku"):
                fmt.write(puzzle)
    elif "exact cover" in fmt.families:  # any grid puzzle, as its exact cover
        compiled = compile_puzzle(puzzle, precover=False)
        names = item_names(puzzle, compiled)
        primary, secondary, options = read_dlx(fmt.write(puzzle))
        assert primary + secondary == names and len(options) == compiled.cover.n_options
        assert options[0] == [names[i] for i in compiled.cover.option(0)]
    elif family in fmt.families:
        entries = fmt.read(fmt.write(puzzle), "<written>", box=box_of(puzzle))
        assert [(e.puzzle, e.error) for e in entries] == [(puzzle, None)]
    else:
        with pytest.raises(CpModelsError, match=r"\w+ \w+"):
            fmt.write(puzzle)


@pytest.mark.parametrize("name", input_formats())
def test_what_a_writer_writes_for_the_mathdoku_or_qwh_family_is_detected_as_its_format(name):
    """Detection walks the registry; the 6x6 Sudoku's `line` is detected as line, its `grid` as grid."""
    fmt = FORMATS[name]
    for family, puzzle in puzzles().items():
        if family in fmt.families and (family, name) != ("mathdoku", "lettergrid"):
            assert detect(fmt.write(puzzle)) == name, (family, name)


def test_read_and_write_by_name():
    sudoku = puzzles()["sudoku"]
    assert read_text(write_puzzle(sudoku, "solo"))[0].puzzle == sudoku
    assert read_text(write_puzzle(sudoku, "line"), box=(2, 3))[0].puzzle == sudoku
    assert read_text("a b\na\nb\n", fmt="dlx")[0].cover.items == ("a", "b")
    with pytest.raises(CpModelsError, match="unknown input format 'sudoku-dlx'"):
        read_text("a b\na\nb\n", fmt="sudoku-dlx")
    with pytest.raises(CpModelsError, match="unknown output format 'nope'"):
        write_puzzle(sudoku, "nope")


def test_a_sudoku_file_is_sniffed_cheaply():
    """The detectors tried before a Sudoku's own look at its first line or two, not the whole file."""
    seen: set[int | None] = set()

    class Lines(list):
        def __getitem__(self, index):
            seen.add(index if isinstance(index, int) else None)
            return super().__getitem__(index)

        def __iter__(self):
            for k in range(len(self)):
                yield self[k]

    lines = Lines(["." * 81] * 1000)
    for name in DETECTION_ORDER[: DETECTION_ORDER.index("line")]:
        assert not FORMATS[name].sniff(lines), name
    assert seen <= {0, 1}, sorted(seen, key=str)


# ---- streams: several puzzles, one after another -------------------------------------------------

STREAM = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def streams(draw, family: str) -> list[GridPuzzle]:
    """1 to 3 random puzzles of `family` (Sudoku of one box shape; Mathdoku, some with hidden operators)."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    k = draw(st.integers(1, 3))
    if family == "sudoku":
        box = draw(st.sampled_from([(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)]))
        n = box[0] * box[1]
        return [sudoku_puzzle(punch(random_grid(box, rng), rng.randrange(n * n + 1), rng), box) for _ in range(k)]
    if family == "mathdoku":
        planted = [planted_mathdoku(rng.randint(3, 7), rng, rng.randint(1, 5))[0] for _ in range(k)]
        return [hide_operators(p) if rng.random() < 0.3 else p for p in planted]
    return [qwh(n, rng.randrange(n * n + 1), rng)[0] for n in (rng.randint(1, 7) for _ in range(k))]


@pytest.mark.parametrize(
    "name, family",
    [(name, family) for name in output_formats() for family in FORMATS[name].families if family != "exact cover"],
)
@STREAM
@given(data=st.data())
def test_a_stream_of_puzzles_reads_back_to_the_puzzles_written(name, family, data):
    puzzles = data.draw(streams(family))
    refused: list[GridPuzzle] = []
    text = "".join(write_puzzles(puzzles, name, on_error=lambda puzzle, error: refused.append(puzzle)))
    written = [p for p in puzzles if all(p is not r for r in refused)]
    entries = read_text(text, "<stream>", name, box=box_of(puzzles[0])) if written else []
    assert [(e.puzzle, e.error) for e in entries] == [(p, None) for p in written]
    if written and name not in ("lettergrid", "line", "grid"):  # a Sudoku's line and grid need the box
        assert [e.puzzle for e in read_text(text)] == written, "the stream is detected as its format"


def test_a_stream_of_one_puzzle_is_the_file_of_that_puzzle():
    for family, puzzle in puzzles().items():
        for name in output_formats():
            if family in FORMATS[name].families:
                assert "".join(write_puzzles([puzzle], name)) == write_puzzle(puzzle, name).rstrip("\n") + "\n"


def test_formats_of_one_puzzle_a_file_refuse_the_second_saying_why():
    sudoku = puzzles()["sudoku"]
    stream = write_puzzles([sudoku, sudoku], "dlx")
    assert next(stream).startswith("| cpmodels exact cover")
    with pytest.raises(CpModelsError, match="a dlx file holds one puzzle; write each puzzle to a file of its own"):
        next(stream)


def test_write_puzzles_passes_what_a_format_cannot_carry_to_on_error():
    found = []
    mathdoku, sudoku = puzzles()["mathdoku"], puzzles()["sudoku"]
    text = "".join(write_puzzles([sudoku, mathdoku, sudoku], "line", on_error=lambda p, e: found.append((p, str(e)))))
    assert text.count("\n") == 2 and found == [
        (mathdoku, "the line format holds a plain Sudoku (rows, columns, boxes); this puzzle has cages")
    ]
    with pytest.raises(CpModelsError, match="holds a plain Sudoku"):
        list(write_puzzles([mathdoku], "grid"))
