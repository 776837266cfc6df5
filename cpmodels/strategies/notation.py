"""Step text in HoDoKu's 1-based notation: `r4c23` for cells, `=>`, `<>` for removals, `=` for placements."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import State
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
        return _fish(step)
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
    if t in CAGE_TEXT:
        return CAGE_TEXT[t](step)
    if t in NEW_TEXT:
        return NEW_TEXT[t](step)
    if t == "xy-chain":
        return _xy_chain(step)
    return f"{d} in {cells_text(step.cells, n)}" if step.cells else d


def _cage(step: Step) -> str:
    """A cage's rule and cells: `7+ r123c1` (the variant holds `cage 7+`)."""
    return f"{step.variant.removeprefix('cage ')} {cells_text(step.cells, step.n)}"


CAGE_TEXT = {
    "cage-layouts": lambda s: f"{_cage(s)} uses only {digits_text(s.digits)}",
    "cage-positions": lambda s: f"{_cage(s)} cell by cell",
    "cage-lines": lambda s: f"{_cage(s)} puts {s.digits[0]} in {unit_words(s.units[0])}",
    "innies-outies": lambda s: f"{s.variant} in {cells_text(s.cells, s.n)} ({s.units[0]})",
}
"""Pattern text of the cage techniques (Mathdoku)."""


def _xy_chain(step: Step) -> str:
    """`8- r2c8 -7- r2c2 -3- r7c2 -8`: each link names the digit the cell before it would hold."""
    z = step.digits[0]
    out = [f"{z}-"]
    for k, (cell, true_digit) in enumerate(step.links):
        out.append(cells_text([cell], step.n))
        out.append(f"-{true_digit}-" if k < len(step.links) - 1 else f"-{true_digit}")
    return " ".join(out)


def _one(i: int, n: int) -> str:
    """One cell: `r3c7`."""
    return f"r{i // n + 1}c{i % n + 1}"


def _fish(step: Step) -> str:
    """`1 r19 c12`: the digit, the base lines, the cover lines."""
    half = len(step.units) // 2
    return f"{digits_text(step.digits)} {_lines(step.units[:half], step.n)} {_lines(step.units[half:], step.n)}"


def _zambon_rectangle(step: Step) -> str:
    """`1 in r2c3 around b1,b2,b5,b4: b4 left without 1`: the boxes walked, the last one emptied."""
    d = step.digits[0]
    return f"{d} in {_one(step.cells[0], step.n)} around {','.join(step.units)}: {step.units[-1]} left without {d}"


def _empty_rectangle(step: Step) -> str:
    """`1 in b5 (r46c6,r5c456) with r5c1=r1c1`: the box's places, then the strong link outside it."""
    n, (near, far) = step.n, step.cells[-2:]
    box_places = cells_text(step.cells[:-2], n)
    return f"{step.digits[0]} in {step.units[0]} ({box_places}) with {_one(near, n)}={_one(far, n)}"


def _node(step: Step, cell: int, digit: int, single: bool) -> str:
    """A chain node: its cell, or its group's cells (`r1c56`), after `(d)` when the chain has several digits."""
    ends = {c for c, _ in step.links}
    group = [cell]
    if cell in step.cells:  # a group's other cells follow its first one in the step's cells
        for other in step.cells[step.cells.index(cell) + 1 :]:
            if other in ends:
                break
            group.append(other)
    where = cells_text(group, step.n)
    return where if single else f"({digit}){where}"


def _chain(step: Step, loop: bool = False) -> str:
    """The nodes in order, `=` before the end of a strong link and `-` before a weak one's: `1 r1c1=r1c6-r5c6`.

    A one-digit chain starts with its digit. A loop is closed: a continuous one back to its first node, a
    discontinuous one through the candidate it removes (at both ends); its kind follows in parentheses.
    """
    single = len({d for _, d in step.links}) == 1
    nodes = [_node(step, c, d, single) for c, d in step.links]
    text = nodes[0] + "".join(("=" if k % 2 == 0 else "-") + x for k, x in enumerate(nodes[1:]))
    if loop and step.variant == "continuous":
        text += "-" + nodes[0]
    elif loop and step.links[0] != step.links[-1] and len(step.eliminations) == 1:
        target = _node(step, *step.eliminations[0], single)
        text = f"{target}-{text}-{target}"
    kind = f" ({step.variant})" if loop and step.variant else ""
    return (f"{step.links[0][1]} " if single else "") + text + kind


def _rect(step: Step) -> str:
    """`1,4 in r12c14`: the rectangle's two digits and its corners."""
    return f"{digits_text(sorted(step.digits[:2]))} in {cells_text(step.cells, step.n)}"


def _ur4(step: Step) -> str:
    """`1,4 in r12c14, 4 in r2 only on r2c14`: the digit confined to the roof in a unit the roof shares."""
    roof = cells_text({i for i, _ in step.eliminations}, step.n)
    return f"{_rect(step)}, {step.digits[0]} in {step.units[0]} only on {roof}"


def _hidden_rectangle(step: Step) -> str:
    """`1,4 in r12c14, 4 in r2 and c4 only on the rectangle`."""
    return f"{_rect(step)}, {step.digits[0]} in {' and '.join(step.units)} only on the rectangle"


def _line_cells(label: str, n: int) -> set[int]:
    """The cells of row or column `label` (`r4`, `c6`); no cells for another unit."""
    k = int(label[1:]) - 1
    if label[0] == "r":
        return {k * n + c for c in range(n)}
    return {r * n + k for r in range(n)} if label[0] == "c" else set()


def _als_xz(step: Step) -> str:
    """`A=r1c1 (r1), B=r3c28 (r3), X=1, Z=5`: both sets (each with its unit), the restricted common(s), Z.

    A and B are told apart when both lie in lines and no cell is in both lines; else their cells are given together.
    """
    (ua, ub), n = step.units, step.n
    in_a, in_b = _line_cells(ua, n), _line_cells(ub, n)
    x = digits_text(step.digits)
    zs = digits_text(sorted({d for _, d in step.eliminations}))
    tail = f"X={x}" + (f" ({step.variant})" if step.variant else f", Z={zs}")
    if any((c in in_a) == (c in in_b) for c in step.cells):
        return f"A ({ua}) and B ({ub}) in {cells_text(step.cells, n)}, {tail}"
    a, b = [c for c in step.cells if c in in_a], [c for c in step.cells if c in in_b]
    return f"A={cells_text(a, n)} ({ua}), B={cells_text(b, n)} ({ub}), {tail}"


def _sue_de_coq(step: Step) -> str:
    """`1,2,4,7 in r1c124 (r1) and r3c1 (b1)`: the digits, the cells on the line (core too), those in the box."""
    (box, line), n = step.units, step.n
    on_line = _line_cells(line, n)
    here, there = [c for c in step.cells if c in on_line], [c for c in step.cells if c not in on_line]
    return f"{digits_text(step.digits)} in {cells_text(here, n)} ({line}) and {cells_text(there, n)} ({box})"


def _pair(step: Step) -> str:
    """`pair r1c1,r1c5`: the two cells of an aligned pair exclusion."""
    return "pair " + ",".join(_one(i, step.n) for i in step.cells)


def _bug(step: Step) -> str:
    """`1 three times in the units of r1c1`."""
    return f"{step.digits[0]} three times in the units of {_one(step.cells[0], step.n)}"


def _nishio(step: Step) -> str:
    """`r5c1=1 breaks the singles of 1`."""
    return f"{_one(step.cells[0], step.n)}={step.digits[0]} breaks the singles of {step.digits[0]}"


def _forcing(step: Step) -> str:
    """The premise of a (dynamic) forcing chain: `r5c5=5 leads to a contradiction`, `every candidate of r1c1`, ...

    A dynamic verity does not record its premise digit (its digits are those of the conclusion).
    """
    n, kind = step.n, step.variant.removeprefix("nested ")
    nested = " (nested)" if step.variant != kind else ""
    cell = _one(step.cells[0], n)
    static = step.technique == "forcing-chain"
    d = step.digits[0] if step.digits else 0
    if kind == "contradiction":
        return f"{cell}{'<>' if step.placements else '='}{d} leads to a contradiction{nested}"
    if kind == "cell forcing":
        return f"every candidate of {cell}" + (f" ({digits_text(step.digits)})" if static else "") + nested
    if kind == "unit forcing":
        what = str(d) if static else "its digit"
        return f"every place of {what} in {cells_text(step.cells, n)}{nested}"
    return (f"{cell}={d} and {cell}<>{d}" if static else f"a candidate of {cell} true and false") + nested


NEW_TEXT = {
    "x-chain": _chain,
    "turbot-fish": _chain,
    "aic": _chain,
    "x-cycle": lambda s: _chain(s, loop=True),
    "nice-loop": lambda s: _chain(s, loop=True),
    "rectangle": _zambon_rectangle,
    "empty-rectangle": _empty_rectangle,
    "unique-rectangle-1": _rect,
    "unique-rectangle-2": lambda s: f"{_rect(s)}, extra {s.digits[2]} in two corners",
    "unique-rectangle-3": lambda s: f"{_rect(s)}, {digits_text(s.digits[2:])} locked in {' and '.join(s.units)}",
    "unique-rectangle-4": _ur4,
    "hidden-rectangle": _hidden_rectangle,
    "bug-plus-1": _bug,
    "als-xz": _als_xz,
    "sue-de-coq": _sue_de_coq,
    "aligned-pair-exclusion": _pair,
    "forcing-chain": _forcing,
    "dynamic-forcing-chain": _forcing,
    "nishio": _nishio,
    **{
        f"{kind}-{size}": lambda s: f"{_fish(s)}, {s.variant}"
        for kind in ("finned", "sashimi")
        for size in ("x-wing", "swordfish", "jellyfish")
    },
}
"""Pattern text of the techniques of part (d): chains, finned fish, uniqueness, ALS, last resorts."""


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


SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _block(n: int) -> tuple[int, int]:
    """The rows x columns of a cell's candidate block: the most square factorisation of n (1 x n when prime)."""
    r = max(d for d in range(1, int(n**0.5) + 1) if n % d == 0)
    return r, n // r


def board(state: State) -> str:
    """Zambon's board: candidates as a block of digits per cell (`.` absent), a placed cell as `(d)`, boxes framed.

    Heavy lines (`#`, `=`) run between boxes, thin ones (`|`, `-`) between cells; rows and columns are numbered.
    """
    n = state.n
    box_r, box_c = state.geo.box or (n, n)
    rows, cols = _block(n)
    width = max(cols, len(_sym(n, n)) + 2)

    def rule(r: int) -> str:
        heavy = r % box_r == 0
        cell = ("=" if heavy else "-") * width
        return "    " + "".join(("#" if c % box_c == 0 else "+") + cell for c in range(n)) + "#"

    out = [("    " + "".join(f" {'c' + str(c + 1):^{width}}" for c in range(n))).rstrip()]
    for r in range(n):
        out.append(rule(r))
        for k in range(rows):
            label = f"r{r + 1}" if k == rows // 2 else ""
            line = "".join(("#" if c % box_c == 0 else "|") + _cell_line(state, r * n + c, k, width) for c in range(n))
            out.append(f"{label:<4}{line}#")
    out.append(rule(0))
    return "\n".join(out)


def _cell_line(state: State, i: int, k: int, width: int) -> str:
    """Line k of cell i's block: its candidates of that block row, or `(d)` on the middle line once placed."""
    n = state.n
    rows, cols = _block(n)
    if state.values[i]:
        return f"({_sym(state.values[i], n)})".center(width) if k == rows // 2 else " " * width
    text = "".join(
        _sym(d, n) if state.cands[i] >> (d - 1) & 1 else "." for d in range(k * cols + 1, (k + 1) * cols + 1)
    )
    return text.center(width)


def _sym(d: int, n: int) -> str:
    """A digit's symbol: 1-9 then A-Z up to order 35, the number itself beyond."""
    return SYMBOLS[d - 1] if n <= len(SYMBOLS) else str(d)
