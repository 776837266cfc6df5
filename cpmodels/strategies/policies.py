"""Policies: which step comes next. `zambon`, `se`, `hodoku` and `keen`, one step at a time.

- `zambon`: Zambon's loop: level 0 first; the next level only when a whole level removes nothing; within a
  level the first strategy (in his order) that removes a candidate wins; after every success back to level
  0; guessing (his `backtrack`, code 40) when level 3 is exhausted. Applying one step at a time, that loop
  is exactly "the first technique, in catalogue order, that finds a step": every earlier technique was just
  tried on this state and found nothing, whatever level it is on.
- `se`: Sudoku Explainer 1.2.1: techniques in ascending SE rating, the first that finds a step wins (for
  chains, its lowest-rated step); only the techniques SE 1.2.1 has, unless named; no guessing (the grade is
  20.0 when they run out).
- `hodoku`: HoDoKu 2.2: techniques in its solver's priority order, the first step found wins; only the
  techniques HoDoKu 2.2 has, unless named; guessing (brute force) last.
- `keen`: Simon Tatham's Keen levels for Mathdoku and Latin squares (KEEN_LEVELS): the techniques of
  the weakest level first; guessing (Unreasonable) last.
The enabled techniques can be narrowed by name or by Zambon level in every policy.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from .catalogue import resolve
from .ratings import HODOKU, HODOKU_VERSION, SE, SE_VARIANTS, SE_VERSION, se_complexity, se_rating
from .registry import TECHNIQUES, Technique
from .state import State, popcount
from .steps import Step

POLICIES = ("zambon", "se", "hodoku", "keen")
VERSIONS = {"zambon": "zambon-1", "se": SE_VERSION, "hodoku": HODOKU_VERSION, "keen": "keen-1"}
"""The version of the table each policy orders and rates by."""
KEEN_NAMES = ("Easy", "Normal", "Hard", "Extreme", "Unreasonable")
KEEN_LEVELS: dict[str, int] = {
    "full-house": 0,
    "hidden-single": 0,
    "naked-single": 0,
    "cage-given": 0,
    "cage-layouts": 0,
    "cage-positions": 1,
    "naked-pair": 1,
    "hidden-pair": 1,
    "naked-triple": 1,
    "hidden-triple": 1,
    "naked-quad": 1,
    "hidden-quad": 1,
    "naked-subset": 1,
    "hidden-subset": 1,
    "cage-lines": 2,
    "innies-outies": 2,
    "x-wing": 2,
    "swordfish": 2,
    "jellyfish": 2,
    "large-fish": 2,
}
"""Keen's levels (0 Easy .. 3 Extreme) by technique, after keen.c and latin.c: Easy = singles and the digits of
a cage's layouts; Normal = per-position cage layouts and set elimination in a line (subsets); Hard = a
digit forced into a line's part of a cage, sum rules and set elimination across lines (fish); Extreme =
every other technique valid on rows and columns (Keen's forcing chains); Unreasonable = guessing."""


@dataclass(frozen=True)
class Plan:
    """A policy made concrete: its name, the enabled techniques in the order tried, and whether it may guess."""

    policy: str
    order: tuple[Technique, ...]
    guess: bool

    @property
    def version(self) -> str:
        """The version of the table the policy orders and rates by."""
        return VERSIONS[self.policy]

    def keys(self) -> list[str]:
        """The enabled techniques' keys in the order tried, `guess` last when guessing is allowed."""
        return [t.key for t in self.order] + (["guess"] if self.guess else [])


def check_policy(policy: str) -> None:
    """Raise ValueError for a policy this package does not have, listing the valid ones."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; valid policies: {', '.join(POLICIES)}")


def plan(policy: str = "zambon", techniques: Sequence[str] | None = None, max_level: int | None = None) -> Plan:
    """The policy's enabled techniques, in the order it tries them (names narrow them, max_level by Zambon level)."""
    check_policy(policy)
    keys = None if techniques is None else {resolve(name).key for name in techniques}
    enabled = [
        t for t in TECHNIQUES if _enabled(policy, t.key, keys) and (max_level is None or t.info.level <= max_level)
    ]
    guess = any(t.key == "guess" for t in enabled)
    order = [t for t in enabled if t.key != "guess"]
    if policy == "se":
        order.sort(key=lambda t: SE[t.key].base)
    elif policy == "hodoku":
        order.sort(key=lambda t: HODOKU[t.key].index)
    elif policy == "keen":
        order.sort(key=lambda t: KEEN_LEVELS.get(t.key, 3))
    return Plan(policy, tuple(order), guess and policy != "se")


def _enabled(policy: str, key: str, named: set[str] | None) -> bool:
    """Whether the policy uses technique `key`: named ones if given, else its default set."""
    if policy == "se" and key not in SE or policy == "hodoku" and key not in HODOKU:
        return False  # cage techniques have no SE or HoDoKu value
    if named is not None:
        return key in named
    if policy == "se":
        return SE[key].native
    if policy == "hodoku":
        return HODOKU[key].native
    return True


def next_step(state: State, order: Sequence[Technique] | None = None, policy: str = "zambon") -> Step | None:
    """The step the policy takes next from `state` (guessing aside), or None when it is stuck.

    Every policy takes the first technique (in its order) that finds a step; `se` takes that technique's
    lowest-rated step when its rating grows with the chain's length, as SE does.
    """
    if policy == "se":
        return _se_next(state, TECHNIQUES if order is None else order)
    for technique in TECHNIQUES if order is None else order:
        step = technique.find(state)
        if step is not None:
            return step
    return None


def _se_next(state: State, order: Sequence[Technique]) -> Step | None:
    """SE's next step: techniques (and their direct forms) by ascending rating; a chain's lowest-rated step."""
    tried = [(SE[t.key].base, k, t, False) for k, t in enumerate(order)]
    tried += [
        (SE_VARIANTS[(t.key, "direct")], k, t, True) for k, t in enumerate(order) if (t.key, "direct") in SE_VARIANTS
    ]
    for _, _, technique, direct in sorted(tried, key=lambda x: (x[0], x[1])):
        if not technique.applies(state):
            continue
        if direct:
            step = next(_direct_steps(state, technique), None)
        elif SE[technique.key].chain:
            step = min((s for s in technique.find_all(state) if not _grouped(s)), key=_se_of, default=None)
        else:
            step = technique.find(state)
        if step is not None:
            return step
    return None


def _direct_steps(state: State, technique: Technique) -> Iterator[Step]:
    """SE's direct pointing, claiming, hidden pair and triple: the technique's steps that leave a new hidden single.

    The hidden single is in a box for pointing, in a line of the source's kind for claiming, in the set's own
    unit for hidden sets (and of another digit).
    """
    geo = state.geo
    unit_of = {geo.label(u): u for u in range(len(geo.units))}
    for step in technique.steps(state):
        after = step.apply(state)
        source = unit_of[step.units[0]]
        if technique.key == "pointing":
            units, digits = geo.boxes, list(step.digits)
        elif technique.key == "claiming":
            units, digits = (geo.rows if geo.kinds[source] == "row" else geo.cols), list(step.digits)
        else:
            units, digits = [source], [d for d in range(1, state.n + 1) if d not in step.digits]
        if any(popcount(after.where(u, d)) == 1 < popcount(state.where(u, d)) for u in units if u >= 0 for d in digits):
            yield replace(step, variant="direct", ratings={})


def _grouped(step: Step) -> bool:
    """Whether a chain step uses group nodes (more cells than nodes): SE 1.2.1 has no grouped chains."""
    return bool(step.links) and len(set(step.cells)) > len(step.links)


def _se_of(step: Step) -> float:
    """A step's SE rating (0 when the technique has none)."""
    return se_rating(step.technique, step.variant, se_complexity(len(step.links), step.variant)) or 0.0


def tried_before(state: State, step: Step, order: Sequence[Technique] | None = None) -> list[str]:
    """The techniques the policy tried, and found nothing with, before the one that took `step` (for --trace)."""
    out = []
    for technique in TECHNIQUES if order is None else order:
        if technique.key == step.technique:
            break
        out.append(technique.key)
    return out


def keen_level(key: str) -> int:
    """The Keen level (0 Easy .. 3 Extreme, 4 Unreasonable) of technique `key`."""
    return 4 if key == "guess" else KEEN_LEVELS.get(key, 3)
