"""HoDoKu's regression library and exemplars (GPL-3: read from ../shared at test time, never copied here).

Each case is a pencil-mark state and the exact eliminations or placements one technique must give
(`-x` cases: it must find nothing). A case passes when find_all returns a step with exactly that effect;
every step found is also checked against the solution of the case's givens where it has exactly one.
The exemplars: puzzles that need singles and one technique.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from cpmodels.strategies import explain, get_technique, resolve
from cpmodels.strategies.state import State, geometry
from cpmodels.sudoku import sudoku_puzzle, sudoku_units

from .conftest import shared_data

CODES = {
    "0000": "full-house",
    "0002": "hidden-single",
    "0003": "naked-single",
    "0100": "pointing",
    "0101": "claiming",
    "0110": "locked-pair",
    "0111": "locked-triple",
    "0200": "naked-pair",
    "0201": "naked-triple",
    "0202": "naked-quad",
    "0210": "hidden-pair",
    "0211": "hidden-triple",
    "0212": "hidden-quad",
    "0300": "x-wing",
    "0301": "swordfish",
    "0302": "jellyfish",
    "0400": "skyscraper",
    "0401": "two-string-kite",
    "0500": "simple-colors",
    "0501": "simple-colors",
    "0701": "x-chain",
    "0702": "xy-chain",
    "0703": "remote-pair",
    "0800": "xy-wing",
    "0801": "xyz-wing",
    "0803": "w-wing",
    "0310": "finned-x-wing",
    "0311": "finned-swordfish",
    "0312": "finned-jellyfish",
    "0320": "sashimi-x-wing",
    "0321": "sashimi-swordfish",
    "0322": "sashimi-jellyfish",
    "0402": "empty-rectangle",
    "0403": "turbot-fish",
    "0600": "unique-rectangle-1",
    "0601": "unique-rectangle-2",
    "0602": "unique-rectangle-3",
    "0603": "unique-rectangle-4",
    "0606": "hidden-rectangle",
    "0610": "bug-plus-1",
    "0706": "nice-loop",
    "0707": "nice-loop",
    "0708": "aic",
    "0709": "nice-loop",
    "0710": "nice-loop",
    "0711": "aic",
    "0901": "als-xz",
    "1101": "sue-de-coq",
}
"""HoDoKu's technique codes mapped to the techniques cpmodels implements."""

NEEDS_OPTION = {
    variant: "HoDoKu's `allow missing candidates` for uniqueness: a corner already lost a or b"
    for variant in ("0600-2", "0601-2", "0602-2", "0603-2", "0606-2")
} | {
    variant: "HoDoKu's `ALS nodes in chains`: the chain runs through an almost locked set"
    for variant in ("0709-2", "0710-3", "0710-4", "0711-3", "0711-4")
}
"""Library variants that need a HoDoKu option cpmodels does not have, with the reason: not counted."""


@dataclass(frozen=True)
class Case:
    """One library line: technique key, whether it must not fire, the state, expected removals and placements."""

    line: int
    code: str
    key: str
    fail: bool
    state: State
    givens: tuple[int, ...]
    eliminations: frozenset[tuple[int, int]]
    placements: frozenset[tuple[int, int]]


def _triples(text: str) -> frozenset[tuple[int, int]]:
    """`<digit><row><col>` entries as (cell, digit)."""
    return frozenset(((int(t[1]) - 1) * 9 + int(t[2]) - 1, int(t[0])) for t in text.split())


def parse_case(k: int, line: str) -> Case | None:
    """The case of one library line, or None when its technique is not implemented."""
    fields = line.split(":")
    code, _, variant = fields[1].partition("-")
    if code not in CODES or fields[1] in NEEDS_OPTION:
        return None
    cells: list[int] = []
    givens: list[int] = []
    plus = False
    for ch in fields[3]:
        if ch == "+":
            plus = True
            continue
        v = 0 if ch == "." else int(ch)
        cells.append(v)
        givens.append(0 if plus else v)
        plus = False
    geo = geometry(9, sudoku_units(9, (3, 3)))
    full = (1 << 9) - 1
    cands = [0 if v else full for v in cells]
    for i, v in enumerate(cells):
        if v:
            for j in range(81):
                if geo.peers[i] >> j & 1:
                    cands[j] &= ~(1 << (v - 1))
    for i, d in _triples(fields[4]):
        cands[i] &= ~(1 << (d - 1))
    return Case(
        k,
        fields[1],
        CODES[code],
        variant == "x",
        State(geo, cands, cells, unique=True),
        tuple(givens),
        _triples(fields[5]),
        _triples(fields[6]),
    )


def read_cases(path: str) -> list[Case]:
    """Every case of an implemented technique in the library file."""
    out = []
    with open(path, encoding="utf-8") as handle:
        for k, line in enumerate(handle, start=1):
            if line.startswith(":"):
                case = parse_case(k, line.rstrip("\n"))
                if case is not None:
                    out.append(case)
    return out


MINIMUM = 0.95
"""The pass rate every implemented technique must reach."""


def _passes(case: Case) -> bool:
    """Whether find_all gives exactly the case's effect (or nothing, for a fail case)."""
    steps = get_technique(case.key).find_all(case.state)
    if case.fail:
        return not steps
    return any(s.effect() == (case.placements, case.eliminations) for s in steps)


def pass_rates(cases: list[Case]) -> dict[str, tuple[int, int]]:
    """HoDoKu code -> (passed, cases)."""
    rates: dict[str, list[int]] = {}
    for case in cases:
        tally = rates.setdefault(case.code, [0, 0])
        tally[0] += _passes(case)
        tally[1] += 1
    return {code: (a, b) for code, (a, b) in rates.items()}


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return read_cases(str(shared_data("sudoku9_techniques/hodoku_reglib-1.3.txt")))


def test_reglib_pass_rate_per_technique(cases):
    rates = pass_rates(cases)
    per_key: dict[str, list[int]] = {}
    for code, (a, b) in sorted(rates.items()):
        key = CODES[code.partition("-")[0]]
        per_key.setdefault(key, [0, 0])
        per_key[key][0] += a
        per_key[key][1] += b
    report = "\n".join(
        f"{code:8} {CODES[code.partition('-')[0]]:16} {a:3}/{b:3}" for code, (a, b) in sorted(rates.items())
    )
    print("\nHoDoKu reglib-1.3 pass rates\n" + report)
    assert set(per_key) == set(CODES.values())  # every implemented technique has cases
    low = {key: f"{a}/{b}" for key, (a, b) in per_key.items() if a < MINIMUM * b}
    assert not low, f"below {MINIMUM:.0%}: {low}\n{report}"


def test_reglib_steps_are_true_of_the_solution(cases):
    """Every step found on a sample of cases keeps the solution of the case's givens (where it is unique)."""
    from cpmodels.solve import solve

    checked = 0
    for case in cases[::7]:
        result = solve(sudoku_puzzle(case.givens, (3, 3)), backend="backtrack", limit=2)
        if result.count != 1:
            continue
        solution = result.solutions[0]
        if any(not case.state.cands[i] >> (solution[i] - 1) & 1 for i in range(81) if not case.state.values[i]):
            continue  # a library state that already lost a solution digit (none expected)
        for step in get_technique(case.key).find_all(case.state):
            assert all(solution[i] == d for i, d in step.placements), (case.line, step)
            assert all(solution[i] != d for i, d in step.eliminations), (case.line, step)
        checked += 1
    assert checked > 50


def test_the_reader_reads_a_hand_made_line():
    """A line of our own in the library's format: the pattern grid with r1c1 open, two cells marked placed."""
    from cpmodels.generate import pattern_grid

    cells = "".join(map(str, pattern_grid((3, 3))))
    givens = "." + cells[1:5] + "+" + cells[5] + "+" + cells[6:]
    case = parse_case(1, f":0003:1:{givens}:::111:")
    assert case is not None and case.key == "naked-single" and not case.fail
    assert case.placements == frozenset({(0, 1)}) and case.eliminations == frozenset()
    assert case.state.cands[0] == 1 and case.state.values[5] == 6 and case.givens[5] == 0 and case.givens[4] == 5
    assert _passes(case)
    fail = parse_case(2, f":0200-x:12:{givens}::::")
    assert fail is not None and fail.fail and _passes(fail)


SINGLES = ["full-house", "hidden-single", "naked-single"]
_SUMMARY = re.compile(r"(?:s )?([a-z0-9]+)\(\d+\)(?: s)?")
EXEMPLARS_BEYOND = {
    708: "gaic: HoDoKu's grouped AIC finds a chain here that cpmodels' (singles and box-line groups, no ALS nodes) "
    "does not: singles + aic get stuck",
    711: "gaic: the same",
}
"""Exemplar lines (1-based, in hodoku_exemplars-1.0.txt) cpmodels cannot solve with the named technique: not counted."""


def test_hodoku_exemplars_need_exactly_their_technique():
    """Exemplars summarised `s T(k) s` with T implemented: singles + T solve it using T; singles alone get stuck."""
    from cpmodels.solve import solve

    path = shared_data("sudoku9_techniques/hodoku_exemplars-1.0.txt")
    tally: dict[str, list[int]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("#") or " # " not in line or number in EXEMPLARS_BEYOND:
            continue
        text, summary = line.split(" # ", 1)
        found = _SUMMARY.fullmatch(summary.strip())
        if not found:
            continue
        try:
            key = resolve(found[1]).key
        except ValueError:
            continue  # a technique cpmodels does not implement yet
        puzzle = sudoku_puzzle([0 if ch == "." else int(ch) for ch in text.strip()], (3, 3))
        start = State.from_puzzle(puzzle)
        if get_technique(key).info.unique:  # uniqueness techniques need the proof that there is one solution
            assert solve(puzzle, backend="backtrack", limit=2).count == 1
            start = start.proved_unique()
        with_it = explain(start, techniques=[*SINGLES, key])
        alone = explain(start, techniques=SINGLES)
        ok = with_it.solved and any(s.technique == key for s in with_it.steps) and alone.stuck
        counts = tally.setdefault(found[1], [0, 0])
        counts[0] += ok
        counts[1] += 1
    print("\nHoDoKu exemplars-1.0 (s T(k) s):", {code: f"{a}/{b}" for code, (a, b) in sorted(tally.items())})
    assert sum(b for _, b in tally.values()) > 200
    assert all(a >= MINIMUM * b for a, b in tally.values()), tally
