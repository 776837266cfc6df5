"""Every technique on hand-made positions: one where it fires (its effect written out) and one where it must not.

Positions start from a known solution (generate.pattern_grid) with every digit a candidate everywhere,
then candidates are taken away to draw the pattern; every candidate set keeps the solution's digit, so
any valid deduction keeps it too: each step found is checked against that solution.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from cpmodels.generate import pattern_grid
from cpmodels.strategies import State, get_technique
from cpmodels.strategies.state import geometry
from cpmodels.sudoku import sudoku_units

Effect = frozenset[tuple[int, int]]


class Position:
    """A pencil-mark position drawn on a known solution: all candidates, minus what the pattern removes."""

    def __init__(self, box: tuple[int, int] = (3, 3)) -> None:
        self.box = box
        self.n = box[0] * box[1]
        self.solution = pattern_grid(box)
        self.cands = [(1 << self.n) - 1] * (self.n * self.n)
        self.values = [0] * (self.n * self.n)

    def cell(self, r: int, c: int) -> int:
        """The index of 1-based (r, c)."""
        return (r - 1) * self.n + c - 1

    def only(self, r: int, c: int, *digits: int) -> Position:
        """Cell (r, c) keeps only `digits` (which hold its solution digit)."""
        i = self.cell(r, c)
        assert self.solution[i] in digits, f"r{r}c{c} is {self.solution[i]} in the solution"
        self.cands[i] = sum(1 << (d - 1) for d in digits)
        return self

    def drop(self, d: int, cells: Iterable[tuple[int, int]]) -> Position:
        """Digit d leaves `cells` (none of which holds d in the solution)."""
        for r, c in cells:
            i = self.cell(r, c)
            assert self.solution[i] != d, f"r{r}c{c} is {d} in the solution"
            self.cands[i] &= ~(1 << (d - 1))
        return self

    def keep_in_row(self, d: int, r: int, cols: Iterable[int]) -> Position:
        """Digit d stays in row r only in `cols`."""
        keep = set(cols)
        return self.drop(d, [(r, c) for c in range(1, self.n + 1) if c not in keep])

    def keep_in_col(self, d: int, c: int, rows: Iterable[int]) -> Position:
        """Digit d stays in column c only in `rows`."""
        keep = set(rows)
        return self.drop(d, [(r, c) for r in range(1, self.n + 1) if r not in keep])

    def place(self, cells: Iterable[tuple[int, int]]) -> Position:
        """Place the solution's digit in `cells` and remove it from their peers."""
        geo = geometry(self.n, sudoku_units(self.n, self.box))
        for r, c in cells:
            i = self.cell(r, c)
            v = self.solution[i]
            self.values[i], self.cands[i] = v, 0
            for j in range(self.n * self.n):
                if geo.peers[i] >> j & 1:
                    self.cands[j] &= ~(1 << (v - 1))
        return self

    def state(self) -> State:
        """The position as a State."""
        return State(geometry(self.n, sudoku_units(self.n, self.box)), self.cands, self.values)


def removed(d: int | Iterable[int], cells: Iterable[tuple[int, int]], n: int = 9) -> Effect:
    """(cell, digit) for each digit of `d` in each 1-based (r, c) of `cells`."""
    digits = [d] if isinstance(d, int) else list(d)
    return frozenset(((r - 1) * n + c - 1, x) for r, c in cells for x in digits)


def verify(pos: Position, steps) -> None:
    """Each step is true of the solution and changes the state: placements right, removals not the solution's."""
    state = pos.state()
    for step in steps:
        assert step.placements or step.eliminations, step
        for i, d in step.placements:
            assert pos.solution[i] == d, step
        for i, d in step.eliminations:
            assert pos.solution[i] != d and state.cands[i] >> (d - 1) & 1, step


def others(r: int, cols: Iterable[int], n: int = 9) -> list[tuple[int, int]]:
    """The cells of row r outside `cols`."""
    skip = set(cols)
    return [(r, c) for c in range(1, n + 1) if c not in skip]


# ---- the positions: (technique, position where it fires, its effect, position where it must not) -----------


def full_house() -> Position:
    return Position().place([(1, c) for c in range(2, 10)])


def full_house_not() -> Position:
    return Position().place([(1, c) for c in range(3, 10)])


def hidden_single_box() -> Position:  # 5 is at r4c4 in the solution; box 5 loses every other 5
    return Position().drop(5, [(r, c) for r in (4, 5, 6) for c in (4, 5, 6) if (r, c) != (4, 4)])


def hidden_single_row() -> Position:
    return Position().keep_in_row(5, 4, [4])


def naked_single() -> Position:
    return Position().only(5, 5, 9)


def naked_pair() -> Position:  # r4c2 = 3, r4c3 = 4
    return Position().only(4, 2, 3, 4).only(4, 3, 3, 4)


def naked_pair_not() -> Position:
    return Position().only(4, 2, 3, 4).only(4, 3, 3, 4, 5)


def hidden_pair() -> Position:  # row 1 is 1..9: 1 and 2 only in c1, c2
    return Position().keep_in_row(1, 1, [1, 2]).keep_in_row(2, 1, [1, 2])


def hidden_pair_not() -> Position:
    return Position().keep_in_row(1, 1, [1, 2]).keep_in_row(2, 1, [1, 2, 3])


def pointing() -> Position:  # box 1's 1s only in row 1
    return Position().drop(1, [(r, c) for r in (2, 3) for c in (1, 2, 3)])


def pointing_not() -> Position:
    return Position().drop(1, [(r, c) for r in (2, 3) for c in (1, 2, 3) if (r, c) != (2, 1)])


def claiming() -> Position:  # row 1's 1s only in box 1
    return Position().keep_in_row(1, 1, [1, 2, 3])


def claiming_not() -> Position:
    return Position().keep_in_row(1, 1, [1, 2, 3, 4])


def locked_pair() -> Position:  # r1c1 = 1, r1c2 = 2
    return Position().only(1, 1, 1, 2).only(1, 2, 1, 2)


def locked_pair_not() -> Position:  # r2c2 = 5: a naked pair of box 1, not in one line
    return Position().only(1, 1, 1, 5).only(2, 2, 1, 5)


def locked_triple() -> Position:
    return Position().only(1, 1, 1, 2, 3).only(1, 2, 1, 2, 3).only(1, 3, 1, 2, 3)


def locked_triple_not() -> Position:  # r2c1 = 4
    return Position().only(1, 1, 1, 2, 4).only(1, 2, 1, 2, 4).only(2, 1, 1, 2, 4)


def naked_triple() -> Position:  # row 5 is 5 6 7 8 9 1 2 3 4
    return Position().only(5, 1, 5, 6).only(5, 2, 6, 8).only(5, 4, 5, 8)


def naked_triple_not() -> Position:
    return Position().only(5, 1, 5, 6).only(5, 2, 6, 8).only(5, 4, 5, 8, 9)


def naked_quad() -> Position:
    return Position().only(5, 1, 5, 6).only(5, 2, 6, 7).only(5, 3, 7, 8).only(5, 4, 5, 8)


def naked_quad_not() -> Position:
    return Position().only(5, 1, 5, 6).only(5, 2, 6, 7).only(5, 3, 7, 8).only(5, 4, 5, 8, 9)


def hidden_triple() -> Position:  # 1, 4, 7 only in r1c1, r1c4, r1c7 (three boxes)
    pos = Position()
    for d in (1, 4, 7):
        pos.keep_in_row(d, 1, [1, 4, 7])
    return pos


def hidden_triple_not() -> Position:
    return Position().keep_in_row(1, 1, [1, 4, 7]).keep_in_row(4, 1, [1, 4, 7]).keep_in_row(7, 1, [1, 4, 7, 9])


def hidden_quad() -> Position:
    pos = Position()
    for d in (1, 2, 4, 7):
        pos.keep_in_row(d, 1, [1, 2, 4, 7])
    return pos


def hidden_quad_not() -> Position:
    pos = Position()
    for d in (1, 4, 7):
        pos.keep_in_row(d, 1, [1, 2, 4, 7])
    return pos.keep_in_row(2, 1, [1, 2, 3, 4, 7])


def x_wing() -> Position:  # 1 is at r1c1 and r9c2
    return Position().keep_in_row(1, 1, [1, 2]).keep_in_row(1, 9, [1, 2])


def x_wing_not() -> Position:
    return Position().keep_in_row(1, 1, [1, 2]).keep_in_row(1, 9, [1, 2, 3])


def swordfish() -> Position:  # 1 is at r1c1, r2c7, r3c4
    return Position().keep_in_row(1, 1, [1, 4]).keep_in_row(1, 2, [1, 7]).keep_in_row(1, 3, [4, 7])


def swordfish_not() -> Position:
    return Position().keep_in_row(1, 1, [1, 4]).keep_in_row(1, 2, [1, 7]).keep_in_row(1, 3, [4, 7, 8])


def jellyfish() -> Position:  # 1 is at r1c1, r2c7, r3c4, r4c9
    pos = Position().keep_in_row(1, 1, [1, 4]).keep_in_row(1, 2, [7, 9])
    return pos.keep_in_row(1, 3, [4, 7]).keep_in_row(1, 4, [1, 9])


def jellyfish_not() -> Position:
    pos = Position().keep_in_row(1, 1, [1, 4]).keep_in_row(1, 2, [7, 9])
    return pos.keep_in_row(1, 3, [4, 7]).keep_in_row(1, 4, [1, 8, 9])


def xy_wing() -> Position:  # pivot r1c1 {1,2}, pincers r1c5 {1,5} and r5c1 {2,5}
    return Position().only(1, 1, 1, 2).only(1, 5, 1, 5).only(5, 1, 2, 5)


def xy_wing_not() -> Position:
    return Position().only(1, 1, 1, 2, 3).only(1, 5, 1, 5).only(5, 1, 2, 5)


def xyz_wing() -> Position:  # pivot r1c1 {1,2,5}, pincers r2c2 {1,5} and r1c5 {2,5}
    return Position().only(1, 1, 1, 2, 5).only(2, 2, 1, 5).only(1, 5, 2, 5)


def xyz_wing_not() -> Position:
    return Position().only(1, 1, 1, 2, 5).only(2, 2, 1, 5, 6).only(1, 5, 2, 5)


def w_wing() -> Position:  # r1c1 and r5c6 are {1,2}; 2 in column 2 only at r1c2 (sees r1c1) and r5c2 (sees r5c6)
    return Position().only(1, 1, 1, 2).only(5, 6, 1, 2).keep_in_col(2, 2, [1, 5])


def w_wing_not() -> Position:
    return Position().only(1, 1, 1, 2).only(5, 6, 1, 2).keep_in_col(2, 2, [1, 5, 9])


def skyscraper() -> Position:  # 1 is at r1c1 and r6c3; bases r1c5, r6c5
    return Position().keep_in_row(1, 1, [1, 5]).keep_in_row(1, 6, [3, 5])


def skyscraper_not() -> Position:
    return Position().keep_in_row(1, 1, [1, 5]).keep_in_row(1, 6, [3, 5, 8])


def kite() -> Position:  # 1 in row 2 only at r2c2, r2c7; in column 1 only at r1c1, r7c1 (r1c1, r2c2 in box 1)
    return Position().keep_in_row(1, 2, [2, 7]).keep_in_col(1, 1, [1, 7])


def kite_not() -> Position:
    return Position().keep_in_row(1, 2, [2, 7]).keep_in_col(1, 1, [1, 7, 9])


def colour_trap() -> Position:  # r1c1 =c1= r5c1 =r5= r5c6 =c6= r2c6: r1c1, r5c6 one colour (true), r5c1, r2c6 other
    return Position().keep_in_col(1, 1, [1, 5]).keep_in_row(1, 5, [1, 6]).keep_in_col(1, 6, [2, 5])


def colour_trap_not() -> Position:
    return Position().keep_in_col(1, 1, [1, 5, 9]).keep_in_row(1, 5, [1, 6]).keep_in_col(1, 6, [2, 5])


def colour_wrap() -> Position:  # r5c4 =r5= r5c6 =c6= r4c6: r5c4 and r4c6 share box 5 and a colour
    return Position().keep_in_row(1, 5, [4, 6]).keep_in_col(1, 6, [4, 5])


def remote_pair() -> Position:  # r1c1=1, r4c1=2, r4c9=1, r7c9=2, all {1,2}, each seeing the next
    return Position().only(1, 1, 1, 2).only(4, 1, 1, 2).only(4, 9, 1, 2).only(7, 9, 1, 2)


def remote_pair_not() -> Position:
    return Position().only(1, 1, 1, 2).only(4, 1, 1, 2).only(4, 9, 1, 2).only(7, 9, 1, 2, 3)


def x_chain() -> Position:  # 1: r1c1 =r1= r1c6 -c6- r5c6 =r5= r5c8 -c8- r7c8 =r7= r7c2
    pos = Position().keep_in_row(1, 1, [1, 6]).keep_in_row(1, 5, [6, 8])
    return pos.keep_in_row(1, 7, [8, 2])


def x_chain_not() -> Position:
    pos = Position().keep_in_row(1, 1, [1, 6]).keep_in_row(1, 5, [6, 8, 9])
    return pos.keep_in_row(1, 7, [8, 2])


def xy_chain() -> Position:  # r1c1 {1,2} - r1c7 {1,7} - r6c7 {7,5} - r6c4 {5,2}
    return Position().only(1, 1, 1, 2).only(1, 7, 1, 7).only(6, 7, 5, 7).only(6, 4, 2, 5)


def xy_chain_not() -> Position:
    return Position().only(1, 1, 1, 2).only(1, 7, 1, 7).only(6, 7, 5, 7, 9).only(6, 4, 2, 5)


def empty() -> Position:
    return Position()


CASES: list[tuple[str, Callable[[], Position], Effect, Effect, Callable[[], Position]]] = [
    ("full-house", full_house, frozenset({(0, 1)}), frozenset(), full_house_not),
    ("hidden-single", hidden_single_box, frozenset({(30, 5)}), frozenset(), empty),
    ("hidden-single", hidden_single_row, frozenset({(30, 5)}), frozenset(), empty),
    ("naked-single", naked_single, frozenset({(40, 9)}), frozenset(), empty),
    ("naked-pair", naked_pair, frozenset(), removed((3, 4), others(4, [2, 3])), naked_pair_not),
    ("hidden-pair", hidden_pair, frozenset(), removed(range(3, 10), [(1, 1), (1, 2)]), hidden_pair_not),
    ("pointing", pointing, frozenset(), removed(1, [(1, c) for c in range(4, 10)]), pointing_not),
    ("claiming", claiming, frozenset(), removed(1, [(r, c) for r in (2, 3) for c in (1, 2, 3)]), claiming_not),
    (
        "locked-pair",
        locked_pair,
        frozenset(),
        removed((1, 2), others(1, [1, 2]) + [(r, c) for r in (2, 3) for c in (1, 2, 3)]),
        locked_pair_not,
    ),
    (
        "locked-triple",
        locked_triple,
        frozenset(),
        removed((1, 2, 3), others(1, [1, 2, 3]) + [(r, c) for r in (2, 3) for c in (1, 2, 3)]),
        locked_triple_not,
    ),
    ("naked-triple", naked_triple, frozenset(), removed((5, 6, 8), others(5, [1, 2, 4])), naked_triple_not),
    ("naked-quad", naked_quad, frozenset(), removed((5, 6, 7, 8), others(5, [1, 2, 3, 4])), naked_quad_not),
    (
        "hidden-triple",
        hidden_triple,
        frozenset(),
        removed((2, 3, 5, 6, 8, 9), [(1, 1), (1, 4), (1, 7)]),
        hidden_triple_not,
    ),
    (
        "hidden-quad",
        hidden_quad,
        frozenset(),
        removed((3, 5, 6, 8, 9), [(1, 1), (1, 2), (1, 4), (1, 7)]),
        hidden_quad_not,
    ),
    ("x-wing", x_wing, frozenset(), removed(1, [(r, c) for r in range(2, 9) for c in (1, 2)]), x_wing_not),
    ("swordfish", swordfish, frozenset(), removed(1, [(r, c) for r in range(4, 10) for c in (1, 4, 7)]), swordfish_not),
    (
        "jellyfish",
        jellyfish,
        frozenset(),
        removed(1, [(r, c) for r in range(5, 10) for c in (1, 4, 7, 9)]),
        jellyfish_not,
    ),
    ("xy-wing", xy_wing, frozenset(), removed(5, [(5, 5)]), xy_wing_not),
    ("xyz-wing", xyz_wing, frozenset(), removed(5, [(1, 2), (1, 3)]), xyz_wing_not),
    ("w-wing", w_wing, frozenset(), removed(1, [(1, 6), (5, 1)]), w_wing_not),
    ("skyscraper", skyscraper, frozenset(), removed(1, [(2, 3), (3, 3), (4, 1), (5, 1)]), skyscraper_not),
    ("two-string-kite", kite, frozenset(), removed(1, [(7, 7)]), kite_not),
    ("simple-colors", colour_trap, frozenset(), removed(1, [(1, 4), (1, 5), (2, 2), (2, 3)]), colour_trap_not),
    ("simple-colors", colour_wrap, frozenset(), removed(1, [(5, 4), (4, 6)]), empty),
    ("remote-pair", remote_pair, frozenset(), removed((1, 2), [(1, 9), (7, 1)]), remote_pair_not),
    ("x-chain", x_chain, frozenset(), removed(1, [(2, 2), (3, 2), (8, 1), (9, 1)]), x_chain_not),
    ("xy-chain", xy_chain, frozenset(), removed(2, [(1, 4), (6, 1)]), xy_chain_not),
]


@pytest.mark.parametrize(("key", "build", "placed", "gone", "build_not"), CASES, ids=[c[0] for c in CASES])
def test_technique_fires_with_the_written_effect(key, build, placed, gone, build_not):
    pos = build()
    technique = get_technique(key)
    steps = technique.find_all(pos.state())
    verify(pos, steps)
    assert any(s.effect() == (placed, gone) for s in steps), [(s.placements, s.eliminations) for s in steps]
    assert technique.find(pos.state()) is not None
    assert all(s.technique == key for s in steps)


@pytest.mark.parametrize(("key", "build", "placed", "gone", "build_not"), CASES, ids=[c[0] for c in CASES])
def test_technique_stays_silent_where_its_pattern_is_broken(key, build, placed, gone, build_not):
    pos = build_not()
    technique = get_technique(key)
    assert technique.find_all(pos.state()) == []
    assert technique.find(pos.state()) is None


def test_hidden_single_tells_box_from_line():
    box = get_technique("hidden-single").find(hidden_single_box().state())
    row = get_technique("hidden-single").find(hidden_single_row().state())
    assert box is not None and row is not None
    assert (box.variant, box.units) == ("box", ("b5",))
    assert (row.variant, row.units) == ("row", ("r4",))


def test_box_techniques_do_not_apply_to_latin_squares():
    geo = geometry(9, tuple(u for u in sudoku_units(9, (3, 3))[:18]))
    state = State(geo, pointing().cands, [0] * 81)
    for key in ("pointing", "claiming", "locked-pair", "locked-triple", "two-string-kite"):
        assert not get_technique(key).applies(state)
        assert get_technique(key).find_all(state) == []
    assert get_technique("x-wing").applies(state)


# ---- sizes up to n/2 on a 16x16 -------------------------------------------------------------------------


def test_subsets_and_fish_of_size_five_on_16x16():
    n = 16
    pos = Position((4, 4))
    row1 = pos.solution[:n]
    five = [row1.index(d) + 1 for d in (1, 2, 3, 4, 5)]  # columns of 1..5 in row 1
    for c in five:
        pos.only(1, c, 1, 2, 3, 4, 5)
    steps = get_technique("naked-subset").find_all(pos.state())
    verify(pos, steps)
    expected = removed((1, 2, 3, 4, 5), others(1, five, n), n)
    assert any(s.effect() == (frozenset(), expected) for s in steps)

    hidden = Position((4, 4))
    for d in (1, 2, 3, 4, 5):
        hidden.keep_in_row(d, 1, five)
    steps = get_technique("hidden-subset").find_all(hidden.state())
    verify(hidden, steps)
    assert any(s.effect() == (frozenset(), removed(range(6, 17), [(1, c) for c in five], n)) for s in steps)

    fish = Position((4, 4))
    cols = [fish.solution[(r - 1) * n :][:n].index(1) + 1 for r in range(1, 6)]
    for r in range(1, 6):
        fish.keep_in_row(1, r, cols)
    steps = get_technique("large-fish").find_all(fish.state())
    verify(fish, steps)
    assert any(s.effect() == (frozenset(), removed(1, [(r, c) for r in range(6, 17) for c in cols], n)) for s in steps)
    assert get_technique("large-fish").find_all(Position().state()) == []  # 9x9: n/2 = 4, no size 5
