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
with r, c >= 2. None of these techniques assumes a unique solution.
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


CATALOGUE: tuple[Info, ...] = (
    Info("full-house", "Full House", 0, 2, ("fh", "last-cell")),
    Info("hidden-single", "Hidden Single", 0, 0, ("h1", "unique", "unique-loop")),
    Info("naked-single", "Naked Single", 0, 1, ("n1",)),
    Info("locked-pair", "Locked Pair", 1, 14, ("l2",), "boxes"),
    Info("locked-triple", "Locked Triple", 1, 15, ("l3",), "boxes"),
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
    Info("swordfish", "Swordfish", 3, 30, ("bf3", "lines-3")),
    Info("jellyfish", "Jellyfish", 3, 31, ("bf4", "lines-4")),
    Info("xy-chain", "XY-Chain", 3, 32, ("xyc",)),
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
    Info("guess", "Guess", 4, 40, ("backtrack", "guessing", "brute-force")),
)
"""Every technique in the `zambon` policy's order (level, then position)."""

RESERVED = {33: "rectangle (Zambon's `rectangle`, not implemented yet)"}
"""Zambon codes kept for his strategies not implemented yet."""

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
