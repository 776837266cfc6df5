"""Wings: XY-wing, XYZ-wing and W-wing, patterns of two- and three-candidate cells around a shared digit z."""

from __future__ import annotations

from collections.abc import Iterator

from .links import strong_links
from .state import State, bits, popcount
from .steps import Step, make_step, removals


def _bivalues(state: State) -> list[int]:
    """The open cells with exactly two candidates."""
    return [i for i, m in enumerate(state.cands) if m and popcount(m) == 2]


def xy_wings(state: State) -> Iterator[Step]:
    """Pivot {x,y} seeing pincers {x,z} and {y,z}: z leaves every cell that sees both pincers."""
    geo, cands = state.geo, state.cands
    bivalues = _bivalues(state)
    for p in bivalues:
        x, y = (b + 1 for b in bits(cands[p]))
        near = [i for i in bivalues if geo.peers[p] >> i & 1]
        for a in near:
            if cands[a] & cands[p] != 1 << (x - 1):
                continue
            z_bit = cands[a] & ~cands[p]
            for b in near:
                if b != a and cands[b] == (1 << (y - 1)) | z_bit:
                    z = z_bit.bit_length()
                    gone = removals(state, geo.peers[a] & geo.peers[b] & ~(1 << p), z_bit)
                    if gone:
                        yield make_step("xy-wing", state, digits=[x, y, z], cells=[p, a, b], eliminations=gone)


def xyz_wings(state: State) -> Iterator[Step]:
    """Pivot {x,y,z} seeing pincers {x,z} and {y,z}: z leaves every cell that sees all three."""
    geo, cands = state.geo, state.cands
    bivalues = _bivalues(state)
    for p, m in enumerate(cands):
        if popcount(m) != 3:
            continue
        near = [i for i in bivalues if geo.peers[p] >> i & 1 and cands[i] & m == cands[i]]
        for j, a in enumerate(near):
            for b in near[j + 1 :]:
                z_bit = cands[a] & cands[b]
                if cands[a] == cands[b] or not z_bit:
                    continue
                gone = removals(state, geo.peers[p] & geo.peers[a] & geo.peers[b], z_bit)
                if gone:
                    z = z_bit.bit_length()
                    x, y = (d + 1 for d in bits(m & ~z_bit))
                    yield make_step("xyz-wing", state, digits=[x, y, z], cells=[p, a, b], eliminations=gone)


def w_wings(state: State) -> Iterator[Step]:
    """Two {x,y} cells that do not see each other, joined by a strong link on x: y leaves the cells seeing both."""
    geo, cands = state.geo, state.cands
    bivalues = _bivalues(state)
    links = {d: strong_links(state, d) for d in range(1, state.n + 1)}
    for j, a in enumerate(bivalues):
        for b in bivalues[j + 1 :]:
            if cands[a] != cands[b] or geo.peers[a] >> b & 1:
                continue
            seen = geo.peers[a] & geo.peers[b]
            for x in (bb + 1 for bb in bits(cands[a])):
                y_bit = cands[a] & ~(1 << (x - 1))
                gone = removals(state, seen, y_bit)
                if not gone:
                    continue
                for u, s1, s2 in links.get(x, []):
                    for e1, e2 in ((s1, s2), (s2, s1)):
                        if e1 in (a, b) or e2 in (a, b):
                            continue
                        if geo.peers[a] >> e1 & 1 and geo.peers[b] >> e2 & 1:
                            yield make_step(
                                "w-wing",
                                state,
                                digits=[x, y_bit.bit_length()],
                                cells=[a, b, e1, e2],
                                units=[u],
                                eliminations=gone,
                            )
