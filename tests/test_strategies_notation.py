"""The text of the part (d) techniques: each line names its technique, its pattern and exactly its effect.

The positions are those of tests/test_strategies_techniques.py; the effect is read back from the text
(HoDoKu's cell notation parsed here) and compared with the effect written out there. Chains are read
back node by node and every `=` must be a strong link, every `-` a weak one, in the position itself.
"""

from __future__ import annotations

import re

import pytest

from cpmodels.generate import pattern_grid
from cpmodels.strategies import State, get_technique
from cpmodels.strategies.notation import cells_text, digits_text, format_step
from cpmodels.strategies.state import bits

from .test_strategies_techniques import BUG_MARKS, CASES, Position, sue_de_coq, x_wing, xy_wing

FISH = {f"{k}-{s}" for k in ("finned", "sashimi") for s in ("x-wing", "swordfish", "jellyfish")}
CHAINS = {"x-chain", "turbot-fish", "aic", "x-cycle", "nice-loop"}
ONE_CELL = {"rectangle", "bug-plus-1", "nishio", "forcing-chain", "dynamic-forcing-chain"}
NEW = FISH | CHAINS | ONE_CELL
NEW |= {"empty-rectangle", "aligned-pair-exclusion", "als-xz", "sue-de-coq", "hidden-rectangle"}
NEW |= {f"unique-rectangle-{k}" for k in range(1, 5)}
NEW_CASES = [c for c in CASES if c[0] in NEW]
CELLS = re.compile(r"r(\d+)c(\d+)")


def parse_cells(text: str, n: int = 9) -> set[int]:
    """The cells of every `r12c34` group in `text` (orders up to 9: one character per number)."""
    return {(int(r) - 1) * n + int(c) - 1 for rs, cs in CELLS.findall(text) for r in rs for c in cs}


def parse_effect(text: str, n: int = 9) -> tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]]:
    """(placements, eliminations) read back from the part after `=>`: `r1c1=5, r23c4<>17`."""
    placed: set[tuple[int, int]] = set()
    gone: set[tuple[int, int]] = set()
    for part in text.split(", "):
        sign = "<>" if "<>" in part else "="
        where, digits = part.split(sign)
        target = gone if sign == "<>" else placed
        target.update((i, int(d)) for i in parse_cells(where, n) for d in digits)
    return frozenset(placed), frozenset(gone)


def found(key: str, pos: Position, placed, gone):
    """The step of technique `key` on `pos` with exactly the given effect."""
    steps = get_technique(key).find_all(pos.state())
    return next(s for s in steps if s.effect() == (placed, gone))


def named_pattern_cells(step) -> set[int]:
    """The cells a step's pattern text must name: fins for fish, the premise cell for one-cell steps, else all."""
    n = step.n
    if step.technique in FISH:
        cover_lines = step.units[len(step.units) // 2 :]
        covers = {i for i in range(n * n) for u in cover_lines if _in_line(i, u, n)}
        return {c for c in step.cells if c not in covers}
    if step.technique in ONE_CELL and step.variant.removeprefix("nested ") != "unit forcing":
        return {step.cells[0]}
    cells = set(step.cells) | {i for i, _ in step.links}  # an X-chain's cells are its two ends
    if step.variant == "discontinuous" and step.links[0] != step.links[-1]:
        cells |= {i for i, _ in step.eliminations}  # the removed candidate closes the loop
    return cells


def _in_line(i: int, label: str, n: int) -> bool:
    """Whether cell i lies in row or column `label`."""
    return (i // n if label[0] == "r" else i % n) == int(label[1:]) - 1


@pytest.mark.parametrize(("key", "build", "placed", "gone", "build_not"), NEW_CASES, ids=[c[0] for c in NEW_CASES])
def test_line_names_technique_pattern_and_exact_effect(key, build, placed, gone, build_not):
    step = found(key, build(), placed, gone)
    text = format_step(step)
    assert text.startswith(f"{step.name}: ") and text.count(" => ") == 1, text
    pattern, effect = text.removeprefix(f"{step.name}: ").split(" => ")
    assert parse_effect(effect, step.n) == (placed, gone), text
    assert parse_cells(pattern, step.n) == named_pattern_cells(step), text
    generic = f"{digits_text(step.digits)} in {cells_text(step.cells, step.n)}"
    assert pattern != generic or key == "unique-rectangle-1", text  # its own format (type 1's is digits, corners)


@pytest.mark.parametrize("key", sorted(FISH))
def test_fish_lines_name_base_and_cover_lines_and_fins(key):
    case = next(c for c in NEW_CASES if c[0] == key)
    step = found(key, case[1](), case[2], case[3])
    pattern = format_step(step).split(": ", 1)[1].split(" => ")[0]
    digit, base, cover = pattern.split(",")[0].split(" ")
    assert digit == "1" and {f"r{x}" for x in base[1:]} | {f"c{x}" for x in cover[1:]} == set(step.units)
    assert pattern.endswith(", fins r1c3")
    assert all(any(_in_line(i, f"r{r}", 9) for r in base[1:]) for i in step.cells)  # the body lies on the base


def strong(state: State, a: tuple[set[int], int], b: tuple[set[int], int]) -> bool:
    """Whether A = B: one digit's only places in a unit, or a bivalue cell's two digits."""
    (ca, da), (cb, db) = a, b
    if da != db:
        return ca == cb and len(ca) == 1 and bin(state.cands[next(iter(ca))]).count("1") == 2
    geo = state.geo
    for m in geo.unit_masks:
        places = {i for i in bits(m) if state.cands[i] >> (da - 1) & 1}
        if ca | cb == places and not ca & cb:
            return True
    return False


def weak(state: State, a: tuple[set[int], int], b: tuple[set[int], int]) -> bool:
    """Whether A - B: the same digit in cells all seeing each other, or two digits of one cell."""
    (ca, da), (cb, db) = a, b
    if da != db:
        return ca == cb and len(ca) == 1
    return not ca & cb and all(state.geo.peers[i] >> j & 1 for i in ca for j in cb)


def read_chain(text: str) -> tuple[list[tuple[set[int], int]], list[str]]:
    """The nodes (cells, digit) and link signs of a chain text: `1 r1c1=r1c56-r3c4` or `(2)r1c1=(1)r1c1`."""
    chain = text.split(" => ")[0].split(": ", 1)[1].split(" (")[0]
    digit = None
    if not chain.startswith("("):
        head, chain = chain.split(" ", 1)
        digit = int(head)
    signs = re.findall(r"(?<=\d)[=-](?=[r(])", chain)
    nodes = []
    for part in re.split(r"(?<=\d)[=-](?=[r(])", chain):
        d = digit if digit is not None else int(part[1 : part.index(")")])
        nodes.append((parse_cells(part), d))
    return nodes, signs


CHAIN_CASES = [c for c in NEW_CASES if c[0] in CHAINS]


@pytest.mark.parametrize(("key", "build", "placed", "gone", "build_not"), CHAIN_CASES, ids=[c[0] for c in CHAIN_CASES])
def test_chain_nodes_in_order_with_strong_and_weak_links(key, build, placed, gone, build_not):
    state = build().state()
    step = found(key, build(), placed, gone)
    nodes, signs = read_chain(format_step(step))
    assert len(signs) == len(nodes) - 1 >= 3
    assert all(a != b for a, b in zip(signs, signs[1:], strict=False))  # strong and weak alternate
    for (a, b), sign in zip(zip(nodes, nodes[1:], strict=False), signs, strict=True):
        assert (strong if sign == "=" else weak)(state, a, b), (format_step(step), a, b, sign)
    firsts = [min(cells) for cells, _ in nodes]
    assert all((c, d) in set(step.links) or (c, d) in gone for c, (_, d) in zip(firsts, nodes, strict=True))


GOLDEN = [
    ("finned-x-wing", "Finned X-Wing: 1 r19 c12, fins r1c3 => r23c12<>1"),
    ("x-chain", "X-Chain: 1 r1c1=r1c6-r5c6=r5c8-r7c8=r7c2 => r23c2,r89c1<>1"),
    ("unique-rectangle-1", "Unique Rectangle Type 1: 1,4 in r12c14 => r2c4<>14"),
    ("als-xz", "ALS-XZ: A=r1c1 (r1), B=r3c28 (r3), X=1, Z=5 => r1c789,r3c13<>5"),
    ("aic", "AIC: 1 r1c1=r1c56-r3c4=r3c2 => r2c123<>1"),
    ("empty-rectangle", "Empty Rectangle: 1 in b5 (r46c6,r5c456) with r5c1=r1c1 => r1c6<>1"),
    ("turbot-fish", "Turbot Fish: 1 r1c1=r1c5-r2c6=r5c6 => r5c1<>1"),
    ("unique-rectangle-4", "Unique Rectangle Type 4: 1,4 in r12c14, 4 in r2 only on r2c14 => r2c14<>1"),
    ("sue-de-coq", "Sue de Coq: 1,2,4,7 in r1c124 (r1) and r3c1 (b1) => r1c356789<>14, r1c3,r2c123,r3c23<>27"),
]


@pytest.mark.parametrize(("key", "line"), GOLDEN, ids=[g[0] for g in GOLDEN])
def test_golden_lines(key, line):
    case = next(c for c in NEW_CASES if c[0] == key)
    assert format_step(found(key, case[1](), case[2], case[3])) == line


def test_bug_plus_1_names_its_cell_and_digit():
    state = State.from_pencilmarks(BUG_MARKS, box=(2, 2)).proved_unique()
    (step,) = get_technique("bug-plus-1").find_all(state)
    assert pattern_grid((2, 2))[0] == 1
    assert format_step(step) == "BUG+1: 1 three times in the units of r1c1 => r1c1<>23"


@pytest.mark.parametrize(
    ("key", "build", "premise"),
    [
        ("forcing-chain", xy_wing, "every candidate of r1c1 (1,2)"),
        ("forcing-chain", xy_wing, "r1c1=1 and r1c1<>1"),
        ("forcing-chain", x_wing, "every place of 1 in r1c12"),
        ("dynamic-forcing-chain", x_wing, "every candidate of r1c1"),
    ],
)
def test_forcing_verities_name_their_premise(key, build, premise):
    lines = {format_step(s) for s in get_technique(key).find_all(build().state())}
    hits = [line for line in lines if line.split(": ", 1)[1].split(" => ")[0] == premise]
    assert hits, sorted(lines)[:5]
    pos = build()
    for line in hits:  # every conclusion agrees with the solution
        placed, gone = parse_effect(line.split(" => ")[1])
        assert all(pos.solution[i] == d for i, d in placed) and all(pos.solution[i] != d for i, d in gone)


def test_doubly_linked_als_xz_names_both_commons():
    steps = get_technique("als-xz").find_all(sue_de_coq().state())
    doubly = [s for s in steps if s.variant == "doubly linked"]
    assert doubly
    for step in doubly:
        text = format_step(step)
        assert f"X={step.digits[0]},{step.digits[1]} (doubly linked)" in text, text
        assert parse_effect(text.split(" => ")[1]) == step.effect()
