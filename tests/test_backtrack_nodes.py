"""Regression guards on search size: values tried (the `nodes` stat) per fixed puzzle may fall, not rise.

Each puzzle's nodes are recorded with the default propagation and with probing (probe=3). A change
that makes a count rise fails here: if the rise is wanted (a cheaper node that pays for itself),
record the new count and say why in the commit and in benchmarks/RESULTS.md. A count that falls is
welcome; lower the record with it so that the guard stays tight.
"""

from __future__ import annotations

import pytest

from cpmodels.backends.backtrack import BacktrackBackend
from cpmodels.formats import read_text

from .conftest import FIXTURES, data_lines

TDOKU = FIXTURES / "sudoku" / "tdoku_sample.txt"

# Recorded: (0-based index among the puzzles of tdoku_sample.txt) -> (count up to 2, nodes, nodes with probe=3).
SUDOKU9 = {
    5: (0, 112, 72),
    6: (0, 307, 257),
    7: (0, 397, 223),
    8: (0, 246, 148),
    19: (2, 25, 21),
    20: (2, 21, 29),
    21: (2, 21, 7),
    22: (2, 15, 10),
}
GECODE_16X16 = (
    # gecode 16x16 instances (sudoku_large/gecode_16x16.txt), each with (count, nodes, nodes with probe=3)
    (
        "87:16:4x4:.3..6GF..C8.....G..9.B.8...5.A747..8.2..B..D.....EA.....3.6..9B...F.2....3AG....E7...........39G.9.A..31E6..FC..4.3..D.9C.B....E6....8.4A.2..G.C..G3..CFD9..4.A.A85...........FB....5A7....6.2...24..7.D.....16.....1..3..C.2..81A7.C...6.3.E..9.....6E..1F2..3.:1:B3246GFA7C891DE5GFC93BD82E156A747618925EBA4DGFC35EAD741C3G6F89B2C5F12E6793AGB84DE7D6FC4B8251A39G89BAG531E6D4FC274G328DA9CFB7561E61EFB894A5237GDC2BG3E1CFD97845A6A857D32614GC9EFBD49C5A7GFBE63281324GA7BD589EC16FFD6E19G347CA2B581A75CF826D3BE4G99C8B46E5G1F2D73A",  # noqa: E501
        (1, 88, 36),
    ),
    (
        "88:16:4x4:....47.....9B.1...5..9F2.6....43B..3.....E24..9...9.....A57..2...DA4E..7...C.F...1.6..4.E....8.B....81BF..4.5..7...F9A....D..E.45.2..3....A71...6..C.B..G9FE....7.8....9.D..C.3...G.6...1..3E45...F..E8D.....A...2..741.....3..8D6....5.92B..1...A.EB.....C6....:1:AFD2476E38G9BC15E85GD9F2C61BA743B763A5C1FE248G9D4C9138GBA57DF2E68DA4E627B35C9FG13176CD45EG9F28ABCGE981BF6A4253D725BF9A3G71D86EC45E2BG3D84CA716F9631C5BA4G9FE7D82748A1FE92D65CB3GF9GD627C1B83E45A9BF72E8D5431GA6CG2C57416DFEA39B8D638FC5A92BG417E1A4EBG9387C6D52F",  # noqa: E501
        (1, 26, 18),
    ),
)
MATHDOKU_7X7 = (
    # arithmatrix 7x7 (kenken/arithmatrix_7x7.txt), the oneline cage format
    (
        "arithmatrix-7x7-0016:7:hard:3=@22 3-@20,27 2-@47,48 5-@44,45 1-@23,30 2-@0,7 2/@34,41 48*@1,8,15,16 18+@14,21,28,29 17+@35,36,37,38 17+@19,26,33,40 22+@4,5,6,13 2/@18,25 14+@10,11,17,24 17+@31,32,39,46 3-@2,9 5-@42,43 2=@12 2=@3:1:5142763347152646231571365274675431225376417216435",  # noqa: E501
        (1, 113, 29),
    ),
    (
        "arithmatrix-7x7-0019:7:expert:1-@30,37 14+@8,9,10,17 1-@42,43 4-@24,25 3-@2,3 1-@34,41 2-@45,46 5-@11,18 2-@38,39 13+@21,22,23,29 14+@0,1,7 17+@12,19,26,27 5-@35,36 15+@14,15,16 15+@31,32,33,40 3=@20 17+@4,5,6,13 4-@47,48 1=@44 3=@28:1:2541736725364167241535436217316247516753244317562",  # noqa: E501
        (1, 277, 141),
    ),
)
QCP_15 = (
    # a quasigroup completion instance of order 15 without solution (qwh/csp2009_qcp_gecode.txt)
    (
        "qcp-15-120-13:15:120:-1,6,-1,14,9,-1,-1,7,8,-1,11,13,-1,-1,-1,-1,-1,4,1,-1,11,7,-1,-1,6,-1,-1,10,-1,3,6,9,-1,11,-1,-1,-1,2,-1,-1,-1,12,8,0,-1,-1,-1,8,-1,13,9,2,10,-1,-1,-1,4,-1,5,-1,11,7,10,13,-1,2,-1,4,-1,8,-1,-1,-1,-1,-1,5,-1,11,4,2,-1,-1,14,12,-1,1,-1,-1,-1,-1,-1,-1,-1,-1,0,-1,13,-1,9,2,8,-1,-1,12,5,-1,-1,3,-1,-1,8,0,-1,11,-1,-1,5,1,4,-1,1,0,-1,-1,-1,7,5,6,-1,14,-1,-1,-1,9,-1,-1,3,13,-1,-1,-1,-1,-1,1,7,4,-1,11,-1,10,9,-1,-1,-1,4,12,14,-1,10,-1,-1,2,-1,1,-1,14,8,1,-1,-1,-1,-1,-1,7,-1,10,-1,13,-1,0,-1,14,-1,12,10,-1,11,-1,-1,-1,7,-1,3,-1,13,-1,-1,-1,8,3,-1,-1,5,-1,1,-1,9,-1,14,12,7,-1,-1,-1,-1,14,-1,-1,-1,12,13,0,5,-1,9:UNSAT:",  # noqa: E501
        (0, 936, 502),
    ),
)


def cases() -> list[tuple[str, object, tuple[int, int, int]]]:
    entries = read_text(TDOKU.read_text())
    found = [(f"tdoku_sample:{k}", entries[k].puzzle, record) for k, record in SUDOKU9.items()]
    for family, rows in (("gecode16", GECODE_16X16), ("mathdoku7", MATHDOKU_7X7), ("qcp15", QCP_15)):
        for k, (line, record) in enumerate(rows):
            (entry,) = read_text(line)
            assert entry.puzzle is not None, entry.error
            found.append((f"{family}:{k}", entry.puzzle, record))
    return found


CASES = cases()


@pytest.mark.parametrize("name, puzzle, record", CASES, ids=[c[0] for c in CASES])
def test_values_tried_do_not_rise(name, puzzle, record):
    count, nodes, probed = record
    plain = BacktrackBackend().solve(puzzle, limit=2)
    assert plain.count == count and (plain.complete or count == 2)
    assert plain.stats["nodes"] <= nodes, f"{name}: {plain.stats['nodes']} values tried, {nodes} recorded"
    probing = BacktrackBackend(probe=3).solve(puzzle, limit=2)
    assert probing.count == count and (count != 1 or probing.solutions == plain.solutions)
    assert probing.stats["nodes"] <= probed, f"{name} (probe=3): {probing.stats['nodes']}, {probed} recorded"


def test_the_records_cover_the_sample_file():
    """The tdoku sample still holds the puzzles recorded above (same counts)."""
    lines = data_lines(TDOKU)
    for k, (count, _, _) in SUDOKU9.items():
        assert min(int(lines[k][1].split(":")[1]), 2) == count
