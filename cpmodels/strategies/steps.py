"""A step: one deduction, with its technique, its pattern and exactly what it places or removes.

Cells are row-major indices of an n x n grid (n is stored, so a step names its cells alone); units are
short labels (`r4`, `c6`, `b8`); digits are 1-based. Chains keep their nodes in order in `links`: one
(cell, digit) per node, the links alternating strong and weak from a strong one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .catalogue import BY_KEY
from .state import State

Pair = tuple[int, int]


@dataclass(frozen=True)
class Step:
    """One deduction: technique, pattern (digits, cells, units, links), placements and eliminations."""

    technique: str
    name: str
    code: int
    level: int
    n: int
    digits: tuple[int, ...] = ()
    cells: tuple[int, ...] = ()
    units: tuple[str, ...] = ()
    placements: tuple[Pair, ...] = ()
    eliminations: tuple[Pair, ...] = ()
    links: tuple[Pair, ...] = ()
    variant: str = ""
    ratings: dict[str, float] = field(default_factory=dict, compare=False, hash=False)

    def apply(self, state: State) -> State:
        """The state after this step."""
        return state.apply(self.placements, self.eliminations)

    def effect(self) -> tuple[frozenset[Pair], frozenset[Pair]]:
        """(placements, eliminations) as sets of (cell, digit)."""
        return frozenset(self.placements), frozenset(self.eliminations)

    def to_json(self) -> dict[str, Any]:
        """The step as a JSON-ready dict (its text too)."""
        from .notation import format_step

        return {
            "technique": self.technique,
            "name": self.name,
            "code": self.code,
            "level": self.level,
            "n": self.n,
            "digits": list(self.digits),
            "cells": list(self.cells),
            "units": list(self.units),
            "placements": [list(p) for p in self.placements],
            "eliminations": [list(e) for e in self.eliminations],
            "links": [list(k) for k in self.links],
            "variant": self.variant,
            "ratings": dict(self.ratings),
            "text": format_step(self),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Step:
        """The step of a to_json dict."""
        return cls(
            data["technique"],
            data["name"],
            data["code"],
            data["level"],
            data["n"],
            tuple(data["digits"]),
            tuple(data["cells"]),
            tuple(data["units"]),
            tuple((a, b) for a, b in data["placements"]),
            tuple((a, b) for a, b in data["eliminations"]),
            tuple((a, b) for a, b in data["links"]),
            data.get("variant", ""),
            dict(data.get("ratings", {})),
        )


def make_step(
    key: str,
    state: State,
    *,
    digits: tuple[int, ...] | list[int] = (),
    cells: tuple[int, ...] | list[int] = (),
    units: tuple[int, ...] | list[int] = (),
    placements: tuple[Pair, ...] | list[Pair] = (),
    eliminations: tuple[Pair, ...] | list[Pair] | set[Pair] = (),
    links: tuple[Pair, ...] | list[Pair] = (),
    variant: str = "",
) -> Step:
    """A step of technique `key` on `state`, with unit indices turned into labels and effects sorted."""
    info = BY_KEY[key]
    return Step(
        key,
        info.name,
        info.code,
        info.level,
        state.n,
        tuple(digits),
        tuple(cells),
        tuple(state.geo.label(u) for u in units),
        tuple(sorted(set(placements))),
        tuple(sorted(set(eliminations))),
        tuple(links),
        variant,
    )


def removals(state: State, cells: int, digits: int) -> list[Pair]:
    """(cell, digit) for every candidate among `digits` (a mask) in `cells` (a mask)."""
    out = []
    while cells:
        low = cells & -cells
        i = low.bit_length() - 1
        cells ^= low
        hit = state.cands[i] & digits
        while hit:
            b = hit & -hit
            out.append((i, b.bit_length()))
            hit ^= b
    return out
