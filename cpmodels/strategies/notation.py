"""Step text in HoDoKu's 1-based notation: `r4c23` for cells, `=>`, `<>` for removals, `=` for placements."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .steps import Step

SUBSETS = {
    "naked-pair",
    "naked-triple",
    "naked-quad",
    "naked-subset",
    "hidden-pair",
    "hidden-triple",
    "hidden-quad",
    "hidden-subset",
    "locked-pair",
    "locked-triple",
}
UNIT_WORDS = {"r": "row", "c": "column", "b": "box", "u": "unit"}


def numbers(values: Iterable[int], n: int) -> str:
    """1-based numbers run together for orders up to 9 (`23`), joined by slashes beyond (`2/13`)."""
    return ("" if n <= 9 else "/").join(str(v) for v in values)


def cells_text(cells: Iterable[int], n: int) -> str:
    """Cells compressed the HoDoKu way (`r4c19`, `r12c3`, groups joined by commas), the shorter grouping."""
    ordered = sorted(set(cells))
    if n > 9:  # numbers of two digits cannot run together: each cell on its own
        return ",".join(f"r{i // n + 1}c{i % n + 1}" for i in ordered)
    return min(_grouped(ordered, n, by_row=True), _grouped(ordered, n, by_row=False), key=len)


def _grouped(cells: Sequence[int], n: int, by_row: bool) -> str:
    """Cells grouped by row (or column), then rows (columns) with the same columns (rows) merged."""
    lines: dict[int, list[int]] = {}
    for i in cells:
        r, c = divmod(i, n)
        major, minor = (r, c) if by_row else (c, r)
        lines.setdefault(major, []).append(minor + 1)
    merged: dict[tuple[int, ...], list[int]] = {}
    for major, minors in sorted(lines.items()):
        merged.setdefault(tuple(minors), []).append(major + 1)
    parts = []
    for group, majors in merged.items():
        rows, cols = (majors, list(group)) if by_row else (list(group), majors)
        parts.append(f"r{numbers(rows, n)}c{numbers(cols, n)}")
    return ",".join(parts)


def digits_text(digits: Iterable[int], sep: str = ",") -> str:
    """Digits joined by `sep`."""
    return sep.join(str(d) for d in digits)


def effects_text(step: Step) -> str:
    """`r4c19<>1, r4c9<>7` (removals grouped by digit, digits with the same cells merged) or `r1c1=5`."""
    parts = [f"{cells_text([i], step.n)}={d}" for i, d in step.placements]
    by_digit: dict[int, list[int]] = {}
    for i, d in step.eliminations:
        by_digit.setdefault(d, []).append(i)
    merged: dict[tuple[int, ...], list[int]] = {}
    for d, cells in sorted(by_digit.items()):
        merged.setdefault(tuple(sorted(cells)), []).append(d)
    for where, ds in merged.items():
        parts.append(f"{cells_text(where, step.n)}<>{numbers(ds, step.n)}")
    return ", ".join(parts)


def unit_words(label: str) -> str:
    """`box 8` for `b8`, `row 4` for `r4`, `column 6` for `c6`."""
    return f"{UNIT_WORDS[label[0]]} {label[1:]}"


def _lines(labels: Sequence[str], n: int) -> str:
    """Unit labels of one kind compressed: `r15` for r1 and r5 (`r1,r15` on grids above 9)."""
    if n > 9:
        return ",".join(labels)
    return labels[0][0] + numbers(sorted(int(x[1:]) for x in labels), n) if labels else ""


def pattern_text(step: Step) -> str:
    """The pattern part of a step's text, before `=>`."""
    n, t = step.n, step.technique
    d = digits_text(step.digits)
    if t in ("full-house", "hidden-single", "naked-single"):
        return ""
    if t in SUBSETS:
        return f"{d} in {cells_text(step.cells, n)}"
    if t in ("pointing", "claiming"):
        return f"{d} in {step.units[0]}"
    if t in ("x-wing", "swordfish", "jellyfish", "large-fish"):
        half = len(step.units) // 2
        return f"{d} {_lines(step.units[:half], n)} {_lines(step.units[half:], n)}"
    if t in ("xy-wing", "xyz-wing"):
        return f"{digits_text(step.digits, '/')} in {','.join(cells_text([c], n) for c in step.cells)}"
    if t == "w-wing":
        a, b, e1, e2 = step.cells
        x, y = step.digits
        return f"{y}/{x} in {cells_text([a], n)},{cells_text([b], n)} connected by {x} in {cells_text([e1, e2], n)}"
    if t in ("skyscraper", "two-string-kite"):
        top1, top2, base1, base2 = step.cells
        ends = f"{cells_text([top1], n)},{cells_text([top2], n)}"
        return f"{d} in {ends} (connected by {cells_text([base1, base2], n)})"
    if t == "simple-colors":
        on = [c for c, k in step.links if k == 0]
        off = [c for c, k in step.links if k == 1]
        return f"{d} ({cells_text(on, n)} / {cells_text(off, n)}) {step.variant}"
    if t == "remote-pair":
        return f"{digits_text(step.digits, '/')} " + " -- ".join(cells_text([c], n) for c in step.cells)
    if t == "x-chain":
        return _x_chain(step)
    if t == "xy-chain":
        return _xy_chain(step)
    return f"{d} in {cells_text(step.cells, n)}" if step.cells else d


def _x_chain(step: Step) -> str:
    """`7 r3c4 =7= r3c9 -7- r4c9 =7= r4c2`: links alternate strong (=d=) and weak (-d-)."""
    d = step.digits[0]
    out = [str(d), cells_text([step.links[0][0]], step.n)]
    for k, (cell, _) in enumerate(step.links[1:]):
        out += [f"={d}=" if k % 2 == 0 else f"-{d}-", cells_text([cell], step.n)]
    return " ".join(out)


def _xy_chain(step: Step) -> str:
    """`8- r2c8 -7- r2c2 -3- r7c2 -8`: each link names the digit the cell before it would hold."""
    z = step.digits[0]
    out = [f"{z}-"]
    for k, (cell, true_digit) in enumerate(step.links):
        out.append(cells_text([cell], step.n))
        out.append(f"-{true_digit}-" if k < len(step.links) - 1 else f"-{true_digit}")
    return " ".join(out)


def reason(step: Step) -> str:
    """The short reason of a placement: `the only 1 in box 8`, `the last cell of row 4`, `its only candidate`."""
    if step.technique == "hidden-single":
        return f"the only {step.digits[0]} in {unit_words(step.units[0])}"
    if step.technique == "full-house":
        return f"the last open cell of {unit_words(step.units[0])}"
    if step.technique == "naked-single":
        return "its only candidate"
    return step.variant


def format_step(step: Step) -> str:
    """One line of text for a step: `Naked Pair: 1,7 in r4c23 => r4c19<>1, r4c9<>7`."""
    if step.technique in ("full-house", "hidden-single", "naked-single"):
        return f"{step.name}: {effects_text(step)} ({reason(step)})"
    if step.technique == "guess":
        return f"{step.name}: {effects_text(step)} ({step.variant})"
    return f"{step.name}: {pattern_text(step)} => {effects_text(step)}"
