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

    def __init__(self, box: tuple[int, int] = (3, 3), unique: bool = False) -> None:
        self.box = box
        self.unique = unique
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
        """The position as a State (marked proved unique when built so)."""
        return State(geometry(self.n, sudoku_units(self.n, self.box)), self.cands, self.values, self.unique)

    def box_keeps(self, d: int, box: int, cells: Iterable[tuple[int, int]]) -> Position:
        """Digit d stays in 1-based 3x3 `box` only in `cells`."""
        keep = set(cells)
        r0, c0 = (box - 1) // 3 * 3, (box - 1) % 3 * 3
        return self.drop(
            d, [(r, c) for r in range(r0 + 1, r0 + 4) for c in range(c0 + 1, c0 + 4) if (r, c) not in keep]
        )


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


# ---- part (d): finned and sashimi fish, single-digit patterns, uniqueness, chains, ALS, last resort ---------
# The digit 1 of the solution is at r1c1, r2c7, r3c4, r4c9, r5c6, r6c3, r7c8, r8c5, r9c2.

BOX1_CORNER = [(2, 1), (2, 2), (3, 1), (3, 2)]
"""Cells of box 1 in columns 1-2 outside row 1: the fin r1c3 sees them."""


def finned_x_wing() -> Position:  # rows 1, 9 on columns 1, 2, fin r1c3 (box 1)
    return Position().keep_in_row(1, 1, [1, 2, 3]).keep_in_row(1, 9, [1, 2])


def finned_x_wing_not() -> Position:  # fins r1c3 and r1c4 in two boxes
    return Position().keep_in_row(1, 1, [1, 2, 3, 4]).keep_in_row(1, 9, [1, 2])


def sashimi_x_wing() -> Position:  # row 1 keeps c1 only inside the covers: without the fin r1c3 no fish
    return Position().keep_in_row(1, 1, [1, 3]).keep_in_row(1, 9, [1, 2])


def sashimi_x_wing_not() -> Position:
    return Position().keep_in_row(1, 1, [1, 3, 4]).keep_in_row(1, 9, [1, 2])


def finned_swordfish(first: list[int] | tuple[int, ...] = (1, 3, 6)) -> Position:  # rows 1, 5, 9 on c1, c2, c6
    return Position().keep_in_row(1, 1, first).keep_in_row(1, 5, [2, 6]).keep_in_row(1, 9, [1, 2])


def finned_jellyfish(first: list[int] | tuple[int, ...] = (1, 3, 9)) -> Position:  # rows 1, 4, 5, 9
    pos = Position().keep_in_row(1, 1, first).keep_in_row(1, 4, [6, 9])
    return pos.keep_in_row(1, 5, [2, 6]).keep_in_row(1, 9, [1, 2])


def turbot() -> Position:  # r1c1 =r1= r1c5 -b2- r2c6 =c6= r5c6: r1c1 or r5c6 holds 1
    return Position().keep_in_row(1, 1, [1, 5]).keep_in_col(1, 6, [2, 5])


def turbot_not() -> Position:
    return Position().keep_in_row(1, 1, [1, 5]).keep_in_col(1, 6, [2, 5, 8])


def empty_rectangle() -> Position:  # box 5's 1s on row 5 and column 6; column 1's 1 at r1c1 or r5c1
    pos = Position().drop(1, [(4, 4), (4, 5), (6, 4), (6, 5)])
    return pos.keep_in_col(1, 1, [1, 5])


def empty_rectangle_not() -> Position:
    return Position().drop(1, [(4, 4), (4, 5), (6, 4), (6, 5)]).keep_in_col(1, 1, [1, 5, 9])


def unique_rectangle(unique: bool = True, **corners: tuple[int, ...]) -> Position:
    """The rectangle r1c1 (1), r1c4 (4), r2c1 (4), r2c4 (7) in boxes 1 and 2: a, b = 1, 4; corners as given."""
    pos = Position(unique=unique)
    for name, digits in corners.items():
        pos.only(int(name[1]), int(name[3]), *digits)
    return pos


def ur1(unique: bool = True) -> Position:
    return unique_rectangle(unique, r1c1=(1, 4), r1c4=(1, 4), r2c1=(1, 4), r2c4=(1, 4, 7))


def ur2(unique: bool = True) -> Position:  # the roof r2c1, r2c4 has the one extra 7
    return unique_rectangle(unique, r1c1=(1, 4), r1c4=(1, 4), r2c1=(1, 4, 7), r2c4=(1, 4, 7))


def ur3(unique: bool = True) -> Position:  # roof extras {6, 7} with r2c3 {6, 7}: a naked pair of row 2
    return unique_rectangle(unique, r1c1=(1, 4), r1c4=(1, 4), r2c1=(1, 4, 6), r2c4=(1, 4, 7), r2c3=(6, 7))


def ur4(unique: bool = True) -> Position:  # 4 in row 2 only on the roof
    pos = unique_rectangle(unique, r1c1=(1, 4), r1c4=(1, 4), r2c1=(1, 4, 5), r2c4=(1, 4, 7))
    return pos.keep_in_row(4, 2, [1, 4])


def hidden_rectangle(unique: bool = True) -> Position:  # r1c1 {1,4}; 4 in row 2 and column 4 only on the corners
    pos = Position(unique=unique).only(1, 1, 1, 4)
    return pos.keep_in_row(4, 2, [1, 4]).keep_in_col(4, 4, [1, 2])


def not_unique(build: Callable[..., Position]) -> Callable[[], Position]:
    """The same position without the proof of uniqueness: uniqueness techniques must stay silent."""
    return lambda: build(unique=False)


def x_cycle() -> Position:  # r1c1 =r1= r1c5 -b2- r3c4 =r3= r3c2 -b1- r1c1
    return Position().keep_in_row(1, 1, [1, 5]).keep_in_row(1, 3, [2, 4])


def x_cycle_not() -> Position:
    return Position().keep_in_row(1, 1, [1, 5]).keep_in_row(1, 3, [2, 4, 9])


X_CYCLE_GONE = removed(1, [(2, c) for c in range(1, 7)])
"""Each weak link of the loop (r1c5-r3c4 in box 2, r3c2-r1c1 in box 1) clears its box's row 2."""


def grouped_aic() -> Position:  # r1c1 =r1= r1c56 =b2= r3c4 =r3= r3c2: the group r1c56 holds 1 or not
    pos = Position().keep_in_row(1, 1, [1, 5, 6]).box_keeps(1, 2, [(1, 5), (1, 6), (3, 4)])
    return pos.keep_in_row(1, 3, [2, 4])


def grouped_aic_not() -> Position:
    pos = Position().keep_in_row(1, 1, [1, 5, 6]).box_keeps(1, 2, [(1, 5), (1, 6), (3, 4)])
    return pos.keep_in_row(1, 3, [2, 4, 9])


def als_xz() -> Position:  # A = r1c1 {1,5}; B = r3c2 {1,8}, r3c8 {5,8}; x = 1 (box 1), z = 5
    return Position().only(1, 1, 1, 5).only(3, 2, 1, 8).only(3, 8, 5, 8)


def als_xz_not() -> Position:
    return Position().only(1, 1, 1, 5).only(3, 2, 1, 8).only(3, 8, 5, 8, 9)


def sue_de_coq() -> Position:  # core r1c12 {1,2,4,7}, line cell r1c4 {1,4}, box cell r3c1 {2,7}
    return Position().only(1, 1, 1, 2, 4, 7).only(1, 2, 1, 2, 4, 7).only(1, 4, 1, 4).only(3, 1, 2, 7)


def sue_de_coq_not() -> Position:
    return Position().only(1, 1, 1, 2, 4, 7).only(1, 2, 1, 2, 4, 7).only(1, 4, 1, 4).only(3, 1, 2, 7, 9)


SDC_GONE = (
    removed((1, 4), [(1, c) for c in range(5, 10)])
    | removed((1, 2, 4, 7), [(1, 3)])
    | removed((2, 7), [(2, 1), (2, 2), (2, 3), (3, 2), (3, 3)])
)


def ape() -> Position:  # r1c1 {1,3}, r1c5 {3,5}: 3 and 5 together would empty the ALS r1c3 {3,9}, r1c9 {5,9}
    return Position().only(1, 1, 1, 3).only(1, 5, 3, 5).only(1, 3, 3, 9).only(1, 9, 5, 9)


def ape_not() -> Position:
    return Position().only(1, 1, 1, 3).only(1, 5, 3, 5).only(1, 3, 3, 9).only(1, 9, 5, 8, 9)


def zambon_rectangle(keep_r4c1: bool = False) -> Position:  # the example of strategies/rectangles.py
    pos = Position().box_keeps(1, 2, [(2, 5), (3, 4)]).box_keeps(1, 5, [(4, 4), (5, 6)])
    return pos.box_keeps(1, 4, [(5, 1), (5, 2), (6, 3)] + ([(4, 1)] if keep_r4c1 else []))


def small_empty() -> Position:
    return Position((2, 2))


def small_x_wing() -> Position:  # 4x4: 1 at r1c1 and r4c2, rows 1 and 4 keep it in columns 1 and 2
    return Position((2, 2)).keep_in_row(1, 1, [1, 2]).keep_in_row(1, 4, [1, 2])


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
    ("finned-x-wing", finned_x_wing, frozenset(), removed(1, BOX1_CORNER), finned_x_wing_not),
    ("sashimi-x-wing", sashimi_x_wing, frozenset(), removed(1, BOX1_CORNER), sashimi_x_wing_not),
    (
        "finned-swordfish",
        finned_swordfish,
        frozenset(),
        removed(1, BOX1_CORNER),
        lambda: finned_swordfish([1, 3, 4, 6]),
    ),
    (
        "sashimi-swordfish",
        lambda: finned_swordfish([1, 3]),
        frozenset(),
        removed(1, BOX1_CORNER),
        lambda: finned_swordfish([1, 3, 4]),
    ),
    (
        "finned-jellyfish",
        finned_jellyfish,
        frozenset(),
        removed(1, BOX1_CORNER),
        lambda: finned_jellyfish([1, 3, 4, 9]),
    ),
    (
        "sashimi-jellyfish",
        lambda: finned_jellyfish([1, 3]),
        frozenset(),
        removed(1, BOX1_CORNER),
        lambda: finned_jellyfish([1, 3, 4]),
    ),
    ("turbot-fish", turbot, frozenset(), removed(1, [(5, 1)]), turbot_not),
    ("empty-rectangle", empty_rectangle, frozenset(), removed(1, [(1, 6)]), empty_rectangle_not),
    ("unique-rectangle-1", ur1, frozenset(), removed((1, 4), [(2, 4)]), not_unique(ur1)),
    ("unique-rectangle-2", ur2, frozenset(), removed(7, others(2, [1, 4])), not_unique(ur2)),
    ("unique-rectangle-3", ur3, frozenset(), removed((6, 7), others(2, [1, 3, 4])), not_unique(ur3)),
    ("unique-rectangle-4", ur4, frozenset(), removed(1, [(2, 1), (2, 4)]), not_unique(ur4)),
    ("hidden-rectangle", hidden_rectangle, frozenset(), removed(1, [(2, 4)]), not_unique(hidden_rectangle)),
    ("x-cycle", x_cycle, frozenset(), X_CYCLE_GONE, x_cycle_not),
    ("x-cycle", x_chain, frozenset(), removed(1, [(2, 2)]), x_chain_not),
    ("nice-loop", x_cycle, frozenset(), X_CYCLE_GONE, x_cycle_not),
    ("aic", grouped_aic, frozenset(), removed(1, [(2, 1), (2, 2), (2, 3)]), grouped_aic_not),
    ("aic", xy_chain, frozenset(), removed(2, [(1, 4), (6, 1)]), xy_chain_not),
    ("als-xz", als_xz, frozenset(), removed(5, [(1, 7), (1, 8), (1, 9), (3, 1), (3, 3)]), als_xz_not),
    ("sue-de-coq", sue_de_coq, frozenset(), SDC_GONE, sue_de_coq_not),
    ("aligned-pair-exclusion", ape, frozenset(), removed(3, [(1, 1)]), ape_not),
    ("forcing-chain", xy_wing, frozenset(), removed(5, [(5, 5)]), empty),
    ("nishio", x_wing, frozenset(), removed(1, [(5, 1)]), empty),
    ("dynamic-forcing-chain", small_x_wing, frozenset(), removed(1, [(3, 1)], 4), small_empty),
    ("rectangle", zambon_rectangle, frozenset(), removed(1, [(2, 3)]), lambda: zambon_rectangle(keep_r4c1=True)),
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


# ---- BUG+1 and the uniqueness proof --------------------------------------------------------------------

BUG_MARKS = "{123}{12}{13}4 {13}4{12}{23} {12}34{12} 4{12}{23}{13}"
"""A 4x4 (2x2 boxes) with one completion, the pattern grid: every open cell bivalue but r1c1 {1,2,3}.

Without 1 at r1c1 every digit would sit twice in every unit (a BUG: no solution here); 1 is the digit
r1c1 holds three times in its row, column and box, so r1c1 loses 2 and 3.
"""


def test_bug_plus_1_removes_the_other_two_digits_of_its_cell():
    solution = pattern_grid((2, 2))
    state = State.from_pencilmarks(BUG_MARKS, box=(2, 2))
    assert get_technique("bug-plus-1").find_all(state) == []  # uniqueness not proved: silent
    steps = get_technique("bug-plus-1").find_all(state.proved_unique())
    assert [s.effect() for s in steps] == [(frozenset(), frozenset({(0, 2), (0, 3)}))]
    assert solution[0] == 1 and all(solution[i] != d for s in steps for i, d in s.eliminations)
    broken = State.from_pencilmarks(BUG_MARKS.replace("{13}4{12}", "{13}4{123}"), box=(2, 2)).proved_unique()
    assert get_technique("bug-plus-1").find_all(broken) == []  # a second cell with three candidates


def test_uniqueness_flag_survives_steps_and_json():
    state = ur1().state()
    assert state.unique and state.apply([], [(0, 4)]).unique
    assert State.from_json(state.to_json()).unique and not State.from_json(ur1(unique=False).state().to_json()).unique
    assert not state.proved_unique(False).unique
    for key in ("unique-rectangle-1", "unique-rectangle-2", "hidden-rectangle", "bug-plus-1"):
        assert get_technique(key).info.unique and not get_technique(key).applies(ur1(unique=False).state())


def test_every_new_technique_is_registered_with_its_aliases():
    from cpmodels.strategies import resolve

    aliases = {
        "fbf2": "finned-x-wing",
        "sbf3": "sashimi-swordfish",
        "tf": "turbot-fish",
        "er": "empty-rectangle",
        "u4": "unique-rectangle-4",
        "hr": "hidden-rectangle",
        "bug1": "bug-plus-1",
        "gaic": "aic",
        "cnl": "nice-loop",
        "axz": "als-xz",
        "sdc": "sue-de-coq",
        "ape": "aligned-pair-exclusion",
        "fcv": "forcing-chain",
        "fnc": "dynamic-forcing-chain",
        "hollow-rectangle": "rectangle",
    }
    for alias, key in aliases.items():
        assert resolve(alias).key == key
    assert resolve("rectangle").code == 33  # Zambon's code for his `rectangle`
    last = [k for k in ("forcing-chain", "nishio", "dynamic-forcing-chain") if get_technique(k).info.last_resort]
    assert len(last) == 3 and all(get_technique(k).info.level == 3 for k in last)


def test_new_box_techniques_do_not_apply_to_latin_squares():
    geo = geometry(9, tuple(u for u in sudoku_units(9, (3, 3))[:18]))
    state = State(geo, finned_x_wing().cands, [0] * 81, unique=True)
    for key in (
        "finned-x-wing",
        "sashimi-jellyfish",
        "empty-rectangle",
        "sue-de-coq",
        "rectangle",
        "unique-rectangle-1",
    ):
        assert not get_technique(key).applies(state) and get_technique(key).find_all(state) == []
    for key in ("turbot-fish", "aic", "x-cycle", "als-xz", "bug-plus-1"):
        assert get_technique(key).applies(state)


def test_forcing_chains_stop_at_their_budget():
    from cpmodels.strategies import forcing

    saved = forcing.BUDGET
    try:
        forcing.BUDGET = 5
        assert get_technique("dynamic-forcing-chain").find_all(small_x_wing().state()) == []
        assert forcing.timed_out()
    finally:
        forcing.BUDGET = saved
    assert get_technique("dynamic-forcing-chain").find_all(small_x_wing().state()) and not forcing.timed_out()


def test_forcing_chains_stop_at_their_deadline():
    from cpmodels.strategies import forcing

    with forcing.deadline(0.0):
        assert get_technique("nishio").find_all(x_wing().state()) == [] and forcing.timed_out()
    assert forcing.DEADLINE[0] is None
    assert get_technique("nishio").find_all(x_wing().state()) and not forcing.timed_out()


def test_groups_need_boxes():
    """The grouped AIC's middle link is box 2's strong link: on the same candidates without boxes, no chain."""
    pos = grouped_aic()
    rows_cols = geometry(9, tuple(u for u in sudoku_units(9, (3, 3))[:18]))
    latin = State(rows_cols, pos.cands, pos.values)
    wanted = (frozenset(), removed(1, [(2, 1), (2, 2), (2, 3)]))
    assert any(s.effect() == wanted for s in get_technique("aic").find_all(pos.state()))
    assert not any(s.effect() == wanted for s in get_technique("aic").find_all(latin))
    assert any(s.variant == "grouped" for s in get_technique("aic").find_all(pos.state()))


def test_the_table_tags_uniqueness_and_last_resorts():
    from cpmodels.strategies import techniques

    rows = {row["key"]: row for row in techniques(ur1(unique=False).state())}
    assert rows["unique-rectangle-3"]["unique"] and not rows["unique-rectangle-3"]["applies"]
    assert rows["nishio"]["last_resort"] and rows["nishio"]["applies"] and not rows["aic"]["last_resort"]
    assert rows["empty-rectangle"]["where"] == "boxes" and rows["turbot-fish"]["where"] == "any"


@pytest.mark.parametrize(
    ("box", "row1", "other", "other_keep", "gone"),
    [
        ((2, 3), [1, 2, 3], 6, [1, 2], [(2, 1), (2, 2)]),  # fin r1c3 in box 1 (2 rows x 3 columns)
        ((3, 2), [1, 2, 6], 4, [1, 6], [(2, 1), (3, 1)]),  # fin r1c2 in box 1 (3 rows x 2 columns)
    ],
)
def test_finned_x_wing_on_6x6_of_both_box_shapes(box, row1, other, other_keep, gone):
    pos = Position(box).keep_in_row(1, 1, row1).keep_in_row(1, other, other_keep)
    steps = get_technique("finned-x-wing").find_all(pos.state())
    verify(pos, steps)
    assert any(s.effect() == (frozenset(), removed(1, gone, 6)) for s in steps)
    assert get_technique("sashimi-x-wing").find_all(pos.state()) == []


def test_aliases_are_names_and_name_one_technique_each():
    from cpmodels.strategies import CATALOGUE

    names = [a for info in CATALOGUE for a in (info.key, *info.aliases)]
    assert all(isinstance(info.aliases, tuple) and all(isinstance(a, str) for a in info.aliases) for info in CATALOGUE)
    assert len(names) == len(set(names))
