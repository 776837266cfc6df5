"""Rating tables: Sudoku Explainer 1.2.1 ratings and HoDoKu 2.2 levels and base scores per technique (data).

Sources (values only; no code of either program is used):
  - SE: the table "Difficulty ratings in Sudoku Explainer v1.2.1" (SukakuExplainer wiki, SudokuMonster) and
    SE 1.2.1's chain length rule: +0.1 each time (nodes - 2) passes 4, 6, 8, 12, 16, 24, 32, 48, ...
    (ceilings grow by 3/2 and 4/3 in turn). Base ratings of chains are the low ends of the wiki's ranges.
  - HoDoKu: Options.solverSteps[] of HoDoKu 2.2 (priority index, level, base score), as transcribed by
    hodoku-py's core/scoring.py, and its difficulty thresholds (Easy 800, Medium 1000, Hard 1600,
    Unfair 1800).
A technique a program lacks has `native=False` there: its value is the rating of the pattern it is a
special case of in that program (`as_`), used only when the technique is enabled by name; the `se` and
`hodoku` policies leave such techniques off by default so that their grades compare with published ones.
Cage techniques (Mathdoku) have no SE or HoDoKu value at all (None).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SE_VERSION = "se-1.2.1"
HODOKU_VERSION = "hodoku-2.2"
SE_STUCK = 20.0
"""The SE rating of a puzzle its enabled techniques cannot finish (serate gives 20.0 when it gives up)."""
HODOKU_LEVELS = ("Easy", "Medium", "Hard", "Unfair", "Extreme")
HODOKU_MAX_SCORE = {"Easy": 800, "Medium": 1000, "Hard": 1600, "Unfair": 1800}
"""A puzzle's HoDoKu level is raised while its score exceeds its level's maximum."""


@dataclass(frozen=True)
class SeRating:
    """An SE 1.2.1 base rating; `chain`: the length increment applies; `native`: SE 1.2.1 has the technique."""

    base: float
    chain: bool = False
    native: bool = True
    as_: str = ""


@dataclass(frozen=True)
class HodokuRating:
    """A HoDoKu 2.2 step: priority index (lower first), level, base score; `native`: HoDoKu 2.2 has it."""

    index: int
    level: str
    score: int
    native: bool = True
    as_: str = ""


def _se(base: float, chain: bool = False, as_: str = "") -> SeRating:
    """An SE rating; one with `as_` is not native (SE 1.2.1 finds it only as that pattern)."""
    return SeRating(base, chain, not as_, as_)


SE: dict[str, SeRating] = {
    "full-house": _se(1.0),
    "hidden-single": _se(1.2),  # 1.2 in a box, 1.5 in a row or column (se_rating tells them apart)
    "naked-single": _se(2.3),
    "pointing": _se(2.6),
    "claiming": _se(2.8),
    "locked-pair": _se(3.0, as_="naked pair"),
    "locked-triple": _se(3.6, as_="naked triplet"),
    "naked-pair": _se(3.0),
    "x-wing": _se(3.2),
    "hidden-pair": _se(3.4),
    "naked-triple": _se(3.6),
    "swordfish": _se(3.8),
    "hidden-triple": _se(4.0),
    "xy-wing": _se(4.2),
    "xyz-wing": _se(4.4),
    "unique-rectangle-1": _se(4.5),
    "unique-rectangle-2": _se(4.6),
    "unique-rectangle-3": _se(4.6),
    "unique-rectangle-4": _se(4.5),
    "hidden-rectangle": _se(4.5, as_="unique rectangle"),
    "naked-quad": _se(5.0),
    "jellyfish": _se(5.2),
    "hidden-quad": _se(5.4),
    "naked-subset": _se(5.4, as_="hidden subset of the complement"),
    "hidden-subset": _se(5.4, as_="naked subset of the complement"),
    "large-fish": _se(5.4, as_="fish of the complement"),
    "bug-plus-1": _se(5.6),
    "aligned-pair-exclusion": _se(6.2),
    "x-cycle": _se(6.5, chain=True),
    "x-chain": _se(6.6, chain=True),
    "turbot-fish": _se(6.6, chain=True, as_="forcing X-chain"),
    "skyscraper": _se(6.6, chain=True, as_="forcing X-chain"),
    "two-string-kite": _se(6.6, chain=True, as_="forcing X-chain"),
    "empty-rectangle": _se(6.6, chain=True, as_="forcing X-chain"),
    "rectangle": _se(6.6, chain=True, as_="forcing X-chain"),
    "simple-colors": _se(6.6, chain=True, as_="forcing X-chain"),
    "finned-x-wing": _se(6.6, chain=True, as_="forcing X-chain"),
    "sashimi-x-wing": _se(6.6, chain=True, as_="forcing X-chain"),
    "finned-swordfish": _se(6.6, chain=True, as_="forcing X-chain"),
    "sashimi-swordfish": _se(6.6, chain=True, as_="forcing X-chain"),
    "finned-jellyfish": _se(6.6, chain=True, as_="forcing X-chain"),
    "sashimi-jellyfish": _se(6.6, chain=True, as_="forcing X-chain"),
    "remote-pair": _se(6.6, chain=True, as_="Y-cycle"),
    "xy-chain": _se(6.6, chain=True, as_="Y-forcing chain"),
    "w-wing": _se(7.0, chain=True, as_="forcing chain"),
    "aic": _se(7.0, chain=True),
    "nice-loop": _se(7.0, chain=True),
    "als-xz": _se(7.0, chain=True, as_="forcing chain"),
    "sue-de-coq": _se(7.0, chain=True, as_="forcing chain"),
    "nishio": _se(7.5, chain=True),
    "forcing-chain": _se(8.0, chain=True),
    "dynamic-forcing-chain": _se(8.5, chain=True),
}
"""SE 1.2.1 base ratings by technique key (chains add se_length_increment)."""

SE_VARIANTS = {
    ("hidden-single", "row"): 1.5,
    ("hidden-single", "column"): 1.5,
    ("hidden-single", "unit"): 1.5,
    ("pointing", "direct"): 1.7,
    ("claiming", "direct"): 1.9,
    ("hidden-pair", "direct"): 2.0,
    ("hidden-triple", "direct"): 2.5,
    ("x-cycle", "discontinuous"): 6.6,
}
"""Ratings of variants that differ from their technique's base: a hidden single in a line; SE's direct
pointing, claiming, hidden pair and triple (the step leaves a hidden single: SE tries them at these ratings);
a discontinuous X-cycle, which SE finds as a forcing X-chain (6.6), not as a cycle (6.5)."""


def _ho(index: int, level: str, score: int, as_: str = "") -> HodokuRating:
    """A HoDoKu step; one with `as_` is not native (HoDoKu 2.2 lacks it; the values are that step's)."""
    return HodokuRating(index, level, score, not as_, as_)


HODOKU: dict[str, HodokuRating] = {
    "full-house": _ho(100, "Easy", 4),
    "naked-single": _ho(200, "Easy", 4),
    "hidden-single": _ho(300, "Easy", 14),
    "locked-pair": _ho(1000, "Medium", 40),
    "locked-triple": _ho(1100, "Medium", 60),
    "pointing": _ho(1200, "Medium", 50),
    "claiming": _ho(1210, "Medium", 50),
    "naked-pair": _ho(1300, "Medium", 60),
    "naked-triple": _ho(1400, "Medium", 80),
    "hidden-pair": _ho(1500, "Medium", 70),
    "hidden-triple": _ho(1600, "Medium", 100),
    "naked-quad": _ho(2000, "Hard", 120),
    "hidden-quad": _ho(2100, "Hard", 150),
    "x-wing": _ho(2200, "Hard", 140),
    "swordfish": _ho(2300, "Hard", 150),
    "jellyfish": _ho(2400, "Hard", 160),
    "large-fish": _ho(2500, "Unfair", 470, as_="squirmbag (off in HoDoKu 2.2)"),
    "naked-subset": _ho(2510, "Unfair", 470, as_="hidden subset of the complement"),
    "hidden-subset": _ho(2520, "Unfair", 470, as_="naked subset of the complement"),
    "remote-pair": _ho(2800, "Hard", 110),
    "bug-plus-1": _ho(2900, "Hard", 100),
    "skyscraper": _ho(3000, "Hard", 130),
    "two-string-kite": _ho(3100, "Hard", 150),
    "turbot-fish": _ho(3120, "Hard", 120),
    "empty-rectangle": _ho(3170, "Hard", 120),
    "rectangle": _ho(3180, "Hard", 120, as_="turbot fish"),
    "w-wing": _ho(3200, "Hard", 150),
    "xy-wing": _ho(3300, "Hard", 160),
    "xyz-wing": _ho(3400, "Hard", 180),
    "unique-rectangle-1": _ho(3500, "Hard", 100),
    "unique-rectangle-2": _ho(3600, "Hard", 100),
    "unique-rectangle-3": _ho(3700, "Hard", 100),
    "unique-rectangle-4": _ho(3800, "Hard", 100),
    "hidden-rectangle": _ho(4010, "Hard", 100),
    "finned-x-wing": _ho(4100, "Hard", 130),
    "sashimi-x-wing": _ho(4200, "Hard", 150),
    "finned-swordfish": _ho(4300, "Unfair", 200),
    "sashimi-swordfish": _ho(4400, "Unfair", 240),
    "finned-jellyfish": _ho(4500, "Unfair", 250),
    "sashimi-jellyfish": _ho(4600, "Unfair", 260),
    "sue-de-coq": _ho(5300, "Unfair", 250),
    "simple-colors": _ho(5330, "Hard", 150),
    "x-chain": _ho(5400, "Unfair", 260),
    "xy-chain": _ho(5500, "Unfair", 260),
    "x-cycle": _ho(5600, "Unfair", 280, as_="nice loop"),
    "nice-loop": _ho(5600, "Unfair", 280),
    "aic": _ho(5610, "Unfair", 280),
    "als-xz": _ho(5700, "Unfair", 300),
    "aligned-pair-exclusion": _ho(5750, "Unfair", 300, as_="ALS-XZ (HoDoKu 2.2 has no APE)"),
    "forcing-chain": _ho(8500, "Extreme", 500),
    "nishio": _ho(8510, "Extreme", 500, as_="forcing chain contradiction"),
    "dynamic-forcing-chain": _ho(8600, "Extreme", 700),
    "guess": _ho(8900, "Extreme", 10000),
}
"""HoDoKu 2.2 steps by technique key: the solver's priority index, level and base score."""


def se_length_increment(nodes: int) -> float:
    """SE 1.2.1's chain length increment: +0.1 each time nodes - 2 passes 4, 6, 8, 12, 16, 24, 32, 48, ..."""
    added, ceiling, odd = 0, 4, False
    length = nodes - 2
    while length > ceiling:
        added += 1
        ceiling = ceiling * 3 // 2 if not odd else ceiling * 4 // 3
        odd = not odd
    return added / 10


def se_complexity(nodes: int, variant: str = "") -> int:
    """SE's complexity of a chain of `nodes` nodes: the potentials it follows, the assumed and refuted target too.

    A chain assumes its target true and follows it through every node to the contradiction (nodes + 2); a
    continuous loop follows its nodes around once (nodes + 1). No nodes: no chain (0).
    """
    if not nodes:
        return 0
    return nodes + (1 if variant == "continuous" else 2)


def se_rating(key: str, variant: str = "", nodes: int = 0) -> float | None:
    """The SE 1.2.1 rating of a step of `key` (its variant, its chain's SE complexity), None for cage techniques."""
    rating = SE.get(key)
    if rating is None:
        return None
    base = SE_VARIANTS.get((key, variant), rating.base)
    return round(base + (se_length_increment(nodes) if rating.chain else 0.0), 1)


def hodoku_level(levels: list[str], score: int) -> str:
    """HoDoKu's level: the highest level used, then raised while the score exceeds that level's maximum."""
    rank = max((HODOKU_LEVELS.index(level) for level in levels), default=0)
    while rank < len(HODOKU_LEVELS) - 1 and score > HODOKU_MAX_SCORE[HODOKU_LEVELS[rank]]:
        rank += 1
    return HODOKU_LEVELS[rank]


@dataclass(frozen=True)
class ScaleGrade:
    """A grade on one scale: its value, details, and how it was rated (policy, table version, techniques)."""

    scale: str
    value: Any
    detail: dict[str, Any]
    policy: str
    version: str
    techniques: tuple[str, ...]
    lower_bound: bool = False

    def text(self) -> str:
        """The value as printed: `3`, `7.1/1.2/1.2`, `Hard (1234)`, `Easy`; `>=` in front of a lower bound."""
        at_least = ">=" if self.lower_bound else ""
        if self.value == "n/a":
            return "n/a"
        if self.scale == "se":
            return f"{at_least}{self.detail['er']:.1f}/{self.detail['ep']:.1f}/{self.detail['ed']:.1f}"
        if self.scale == "hodoku":
            return f"{at_least}{self.value}({self.detail['score']})"
        return f"{at_least}{self.value}"
