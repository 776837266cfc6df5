"""The techniques with their finders: `find(state)` (the first step) and `find_all(state)` (every step)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from . import (
    aic,
    als,
    cage_rules,
    chains,
    coloring,
    fish,
    forcing,
    intersections,
    rectangles,
    single_digit,
    singles,
    subsets,
    uniqueness,
    wings,
)
from .catalogue import CATALOGUE, Info, resolve
from .state import State
from .steps import Step

Finder = Callable[[State], Iterator[Step]]


@dataclass(frozen=True)
class Technique:
    """A technique's catalogue entry and its finder (a generator of steps, easiest first)."""

    info: Info
    steps: Finder

    @property
    def key(self) -> str:
        """The technique's key, as `naked-pair`."""
        return self.info.key

    def applies(self, state: State) -> bool:
        """Whether the technique is valid on the state: its shape (`boxes` ones need boxes), uniqueness proved."""
        where = self.info.where
        shape = where == "any" or (state.geo.has_boxes if where == "boxes" else bool(state.cages))
        return shape and (state.unique or not self.info.unique)

    def find(self, state: State) -> Step | None:
        """The first step the technique finds, or None."""
        return next(self.steps(state), None) if self.applies(state) else None

    def find_all(self, state: State) -> list[Step]:
        """Every step the technique finds (one per pattern), easiest first."""
        return list(self.steps(state)) if self.applies(state) else []


def _no_steps(state: State) -> Iterator[Step]:
    """Guessing is the policy's business: as a pattern it finds nothing."""
    return iter(())


FINDERS: dict[str, Finder] = {
    "full-house": singles.full_houses,
    "hidden-single": singles.hidden_singles,
    "naked-single": singles.naked_singles,
    "naked-pair": partial(subsets.naked, k=2, key="naked-pair"),
    "hidden-pair": partial(subsets.hidden, k=2, key="hidden-pair"),
    "pointing": intersections.pointing,
    "claiming": intersections.claiming,
    "locked-pair": partial(subsets.locked, k=2, key="locked-pair"),
    "locked-triple": partial(subsets.locked, k=3, key="locked-triple"),
    "naked-triple": partial(subsets.naked, k=3, key="naked-triple"),
    "naked-quad": partial(subsets.naked, k=4, key="naked-quad"),
    "hidden-triple": partial(subsets.hidden, k=3, key="hidden-triple"),
    "hidden-quad": partial(subsets.hidden, k=4, key="hidden-quad"),
    "x-wing": partial(fish.fish, k=2, key="x-wing"),
    "xy-wing": wings.xy_wings,
    "swordfish": partial(fish.fish, k=3, key="swordfish"),
    "jellyfish": partial(fish.fish, k=4, key="jellyfish"),
    "xy-chain": chains.xy_chains,
    "xyz-wing": wings.xyz_wings,
    "w-wing": wings.w_wings,
    "skyscraper": single_digit.skyscrapers,
    "two-string-kite": single_digit.two_string_kites,
    "simple-colors": coloring.simple_colors,
    "remote-pair": chains.remote_pairs,
    "x-chain": chains.x_chains,
    "naked-subset": partial(subsets.naked_range, low=5, high=32, key="naked-subset"),
    "hidden-subset": partial(subsets.hidden_range, low=5, high=32, key="hidden-subset"),
    "large-fish": partial(fish.fish_range, low=5, high=32, key="large-fish"),
    "rectangle": rectangles.rectangles,
    "turbot-fish": single_digit.turbot_fish,
    "empty-rectangle": single_digit.empty_rectangles,
    "finned-x-wing": partial(fish.finned, k=2, key="finned-x-wing", sashimi=False),
    "sashimi-x-wing": partial(fish.finned, k=2, key="sashimi-x-wing", sashimi=True),
    "finned-swordfish": partial(fish.finned, k=3, key="finned-swordfish", sashimi=False),
    "sashimi-swordfish": partial(fish.finned, k=3, key="sashimi-swordfish", sashimi=True),
    "finned-jellyfish": partial(fish.finned, k=4, key="finned-jellyfish", sashimi=False),
    "sashimi-jellyfish": partial(fish.finned, k=4, key="sashimi-jellyfish", sashimi=True),
    "unique-rectangle-1": uniqueness.ur_type1,
    "unique-rectangle-2": uniqueness.ur_type2,
    "unique-rectangle-3": uniqueness.ur_type3,
    "unique-rectangle-4": uniqueness.ur_type4,
    "hidden-rectangle": uniqueness.hidden_rectangles,
    "bug-plus-1": uniqueness.bug_plus_1,
    "x-cycle": aic.x_cycles,
    "aic": aic.aics,
    "nice-loop": aic.nice_loops,
    "als-xz": als.als_xz,
    "sue-de-coq": als.sue_de_coq,
    "aligned-pair-exclusion": als.aligned_pair_exclusion,
    "forcing-chain": forcing.forcing_chains,
    "nishio": forcing.nishio,
    "dynamic-forcing-chain": forcing.dynamic_forcing_chains,
    "cage-given": cage_rules.cage_givens,
    "cage-layouts": cage_rules.cage_layouts,
    "cage-positions": cage_rules.cage_positions,
    "cage-lines": cage_rules.cage_lines,
    "innies-outies": cage_rules.innies_outies,
    "guess": _no_steps,
}

TECHNIQUES: tuple[Technique, ...] = tuple(Technique(info, FINDERS[info.key]) for info in CATALOGUE)
"""Every technique, in the `zambon` policy's order."""
BY_KEY = {t.key: t for t in TECHNIQUES}


def get_technique(name: str) -> Technique:
    """The technique a key, name or alias (Zambon's, HoDoKu's short code) names; ValueError lists valid names."""
    return BY_KEY[resolve(name).key]


def techniques(shape: State | None = None) -> list[dict[str, Any]]:
    """The techniques table: key, name, aliases, level, code, where valid, unique, last resort (and on `shape`)."""
    rows = []
    for t in TECHNIQUES:
        row: dict[str, Any] = {
            "key": t.key,
            "name": t.info.name,
            "aliases": list(t.info.aliases),
            "level": t.info.level,
            "code": t.info.code,
            "where": t.info.where,
            "unique": t.info.unique,
            "last_resort": t.info.last_resort,
        }
        if shape is not None:
            row["applies"] = t.applies(shape)
        rows.append(row)
    return rows


def find_all_steps(state: State, names: list[str] | None = None) -> list[Step]:
    """Every step of every technique (or of the named ones) on `state`, in the policy's order."""
    chosen = TECHNIQUES if names is None else [get_technique(name) for name in names]
    return [step for t in chosen for step in t.find_all(state)]
