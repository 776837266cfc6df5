"""The techniques' names, aliases, Zambon levels and codes, and where each is valid: data only, no finders.

Order within a level is the order the `zambon` policy tries them: Zambon's own strategies first, in the
order of the issue "Human strategies and grading" (which follows his solver), then the techniques his solver
lacks. Codes are level*10 + index for Zambon's strategies (`0` is his `unique`, hidden single; `40` his
`backtrack`). Techniques he lacks get the next free index; beyond index 9 the code is level*100 + index
(310, 311, ...) so that it never collides with another level. Level 0 tries full house first, although
its code is 2: a full house is a hidden single (and a naked single), so putting it first names the step
more simply and changes no grade. Likewise level 1 tries locked pair and triple (HoDoKu's order) before
Zambon's naked pair: a locked pair is a naked pair that clears its box and its line at once, so the
step names the whole deduction and the grade is the same.

`where`: `any` = rows and columns suffice (every box shape, Latin squares); `boxes` = needs r x c boxes
with r, c >= 2; `cages` = needs cages (Mathdoku: cage_rules.py).
`unique`: the technique assumes the puzzle has exactly one solution (unique rectangles,
hidden rectangle, BUG+1), so it runs only on a State marked `unique` (proved by a backend).
`last_resort`: forcing chains, Nishio and dynamic forcing chains, Zambon level 3 but tried after every
pattern (they are trial and error made systematic, and can be slow: they honour a node budget).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Info:
    """One technique: key, display name, Zambon level and code, aliases, where it is valid."""

    key: str
    name: str
    level: int
    code: int
    aliases: tuple[str, ...]
    where: str = "any"
    unique: bool = False
    last_resort: bool = False


CATALOGUE: tuple[Info, ...] = (
    Info("full-house", "Full House", 0, 2, ("fh", "last-cell")),
    Info("hidden-single", "Hidden Single", 0, 0, ("h1", "unique", "unique-loop")),
    Info("naked-single", "Naked Single", 0, 1, ("n1",)),
    Info("cage-given", "Cage Given", 0, 3, ("one-cell-cage",), "cages"),
    Info("locked-pair", "Locked Pair", 1, 14, ("l2",), "boxes"),
    Info("locked-triple", "Locked Triple", 1, 15, ("l3",), "boxes"),
    Info("cage-layouts", "Cage Layouts", 1, 16, ("keen-easy", "cage-digits"), "cages"),
    Info("cage-positions", "Cage Positions", 1, 17, ("keen-normal",), "cages"),
    Info("naked-pair", "Naked Pair", 1, 10, ("n2",)),
    Info("hidden-pair", "Hidden Pair", 1, 11, ("h2",)),
    Info("pointing", "Pointing", 1, 12, ("lc1", "pointing-line", "locked-candidates-1"), "boxes"),
    Info("claiming", "Claiming", 1, 13, ("lc2", "box-line", "locked-candidates-2"), "boxes"),
    Info("naked-triple", "Naked Triple", 2, 20, ("n3",)),
    Info("naked-quad", "Naked Quadruple", 2, 21, ("n4", "naked-quadruple")),
    Info("hidden-triple", "Hidden Triple", 2, 22, ("h3",)),
    Info("hidden-quad", "Hidden Quadruple", 2, 23, ("h4", "hidden-quadruple")),
    Info("x-wing", "X-Wing", 2, 24, ("bf2", "lines-2")),
    Info("xy-wing", "XY-Wing", 2, 25, ("xy", "y-wing")),
    Info("cage-lines", "Cage Lines", 2, 26, ("keen-hard",), "cages"),
    Info("innies-outies", "Innies and Outies", 2, 27, ("innies", "outies", "45-rule"), "cages"),
    Info("swordfish", "Swordfish", 3, 30, ("bf3", "lines-3")),
    Info("jellyfish", "Jellyfish", 3, 31, ("bf4", "lines-4")),
    Info("xy-chain", "XY-Chain", 3, 32, ("xyc",)),
    Info("rectangle", "Rectangle", 3, 33, ("hollow-rectangle",), "boxes"),
    Info("xyz-wing", "XYZ-Wing", 3, 34, ("xyz",)),
    Info("w-wing", "W-Wing", 3, 35, ("w",)),
    Info("skyscraper", "Skyscraper", 3, 36, ("sk",)),
    Info("two-string-kite", "2-String Kite", 3, 37, ("2sk", "2-string-kite"), "boxes"),
    Info("simple-colors", "Simple Colors", 3, 38, ("sc", "simple-coloring", "simple-colouring", "coloring")),
    Info("remote-pair", "Remote Pair", 3, 39, ("rp", "remote-pairs")),
    Info("x-chain", "X-Chain", 3, 310, ("x",)),
    Info("naked-subset", "Naked Subset", 3, 311, ("n5+",)),
    Info("hidden-subset", "Hidden Subset", 3, 312, ("h5+",)),
    Info("large-fish", "Large Fish", 3, 313, ("bf5+",)),
    Info("turbot-fish", "Turbot Fish", 3, 314, ("tf",)),
    Info("empty-rectangle", "Empty Rectangle", 3, 315, ("er",), "boxes"),
    Info("finned-x-wing", "Finned X-Wing", 3, 316, ("fbf2",), "boxes"),
    Info("sashimi-x-wing", "Sashimi X-Wing", 3, 317, ("sbf2",), "boxes"),
    Info("finned-swordfish", "Finned Swordfish", 3, 318, ("fbf3",), "boxes"),
    Info("sashimi-swordfish", "Sashimi Swordfish", 3, 319, ("sbf3",), "boxes"),
    Info("finned-jellyfish", "Finned Jellyfish", 3, 320, ("fbf4",), "boxes"),
    Info("sashimi-jellyfish", "Sashimi Jellyfish", 3, 321, ("sbf4",), "boxes"),
    Info("unique-rectangle-1", "Unique Rectangle Type 1", 3, 322, ("u1", "ur1", "uniqueness-test-1"), "boxes", True),
    Info("unique-rectangle-2", "Unique Rectangle Type 2", 3, 323, ("u2", "ur2", "uniqueness-test-2"), "boxes", True),
    Info("unique-rectangle-3", "Unique Rectangle Type 3", 3, 324, ("u3", "ur3", "uniqueness-test-3"), "boxes", True),
    Info("unique-rectangle-4", "Unique Rectangle Type 4", 3, 325, ("u4", "ur4", "uniqueness-test-4"), "boxes", True),
    Info("hidden-rectangle", "Hidden Rectangle", 3, 326, ("hr",), "boxes", True),
    Info("bug-plus-1", "BUG+1", 3, 327, ("bug1", "bug", "bivalue-universal-grave"), "any", True),
    Info("x-cycle", "X-Cycle", 3, 328, ("xc", "x-cycles", "fishy-cycle")),
    Info("aic", "AIC", 3, 329, ("gaic", "alternating-inference-chain", "grouped-aic")),
    Info("nice-loop", "Nice Loop", 3, 330, ("nl", "cnl", "dnl", "gcnl", "gdnl", "continuous-nice-loop")),
    Info("als-xz", "ALS-XZ", 3, 331, ("axz", "als-xz-rule", "almost-locked-set-xz")),
    Info("sue-de-coq", "Sue de Coq", 3, 332, ("sdc",), "boxes"),
    Info("aligned-pair-exclusion", "Aligned Pair Exclusion", 3, 333, ("ape",)),
    Info("forcing-chain", "Forcing Chain", 3, 334, ("fc", "fcc", "fcv", "forcing-chains"), last_resort=True),
    Info("nishio", "Nishio", 3, 335, ("nishio-forcing-chain",), last_resort=True),
    Info(
        "dynamic-forcing-chain", "Dynamic Forcing Chain", 3, 336, ("fn", "fnc", "fnv", "forcing-net"), last_resort=True
    ),
    Info("guess", "Guess", 4, 40, ("backtrack", "guessing", "brute-force")),
)
"""Every technique in the `zambon` policy's order (level, then position)."""

BY_KEY = {info.key: info for info in CATALOGUE}


def resolve(name: str) -> Info:
    """The technique a key, display name or alias names (case and `_`/space insensitive); ValueError otherwise."""
    wanted = name.strip().lower().replace("_", "-").replace(" ", "-")
    for info in CATALOGUE:
        names = {info.key, info.name.lower().replace(" ", "-"), *info.aliases}
        if wanted in names:
            return info
    valid = ", ".join(info.key for info in CATALOGUE)
    raise ValueError(f"unknown technique {name!r}; valid names: {valid} (or their aliases)")
