"""Policies: which step comes next. `zambon`: Zambon's loop, one step at a time.

Zambon's loop: level 0 first; the next level only when a whole level removes nothing; within a level
the first strategy (in his order) that removes a candidate wins; after every success back to level 0;
guessing (his `backtrack`, code 40) when level 3 is exhausted. Applying one step at a time, that loop
is exactly "the first technique, in catalogue order, that finds a step": every earlier technique was
just tried on this state and found nothing, whatever level it is on.
"""

from __future__ import annotations

from collections.abc import Sequence

from .catalogue import resolve
from .registry import TECHNIQUES, Technique
from .state import State
from .steps import Step

POLICIES = ("zambon",)


def check_policy(policy: str) -> None:
    """Raise ValueError for a policy this package does not have, listing the valid ones."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; valid policies: {', '.join(POLICIES)}")


def chosen(techniques: Sequence[str] | None = None, max_level: int | None = None) -> tuple[list[Technique], bool]:
    """The enabled techniques in policy order (guessing excluded), and whether guessing is enabled."""
    keys = None if techniques is None else {resolve(name).key for name in techniques}
    enabled = [
        t for t in TECHNIQUES if (keys is None or t.key in keys) and (max_level is None or t.info.level <= max_level)
    ]
    guess = any(t.key == "guess" for t in enabled)
    return [t for t in enabled if t.key != "guess"], guess


def next_step(state: State, order: Sequence[Technique] | None = None) -> Step | None:
    """The step the `zambon` policy takes next from `state` (guessing aside), or None when it is stuck."""
    for technique in TECHNIQUES if order is None else order:
        step = technique.find(state)
        if step is not None:
            return step
    return None


def tried_before(state: State, step: Step, order: Sequence[Technique] | None = None) -> list[str]:
    """The techniques the policy tried, and found nothing with, before the one that took `step` (for --trace)."""
    out = []
    for technique in TECHNIQUES if order is None else order:
        if technique.key == step.technique:
            break
        out.append(technique.key)
    return out
