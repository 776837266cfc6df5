"""`cpmodels draw`: pictures of puzzles from the command, one a puzzle, with the solution if asked."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from cpmodels.cli import main

KEEN = "4:_a_6bb_a_a3,a7d2m3s2a5d2m12"
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def run(capsys, *argv):
    """Run the command in-process; returns (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def texts(svg: str) -> list[str]:
    """The text of every <text> element of an SVG."""
    return ["".join(t.itertext()).strip() for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]


def test_one_puzzle_draws_as_svg_on_stdout(capsys):
    code, out, _ = run(capsys, "draw", KEEN)
    assert code == 0 and {"7+", "2/", "12*"} <= set(texts(out)) and not any(t.isdigit() for t in texts(out))
    code, out, _ = run(capsys, "draw", KEEN, "--solution")
    assert code == 0 and sorted(t for t in texts(out) if t.isdigit()) == sorted("1234" * 4)


def test_a_file_draws_one_numbered_picture_per_puzzle(capsys, tmp_path):
    puzzles = tmp_path / "two.txt"
    puzzles.write_text(f"{EASY}\n{EASY}\n")
    code, out, _ = run(capsys, "draw", puzzles, "--out", tmp_path / "p.png", "--size", "200")
    made = sorted(p.name for p in tmp_path.glob("p-*.png"))
    assert code == 0 and made == ["p-001.png", "p-002.png"] and out.count("p-00") == 2
    assert (tmp_path / "p-001.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_draw_refuses_once_what_it_cannot_do(capsys, tmp_path):
    puzzles = tmp_path / "two.txt"
    puzzles.write_text(f"{EASY}\n{EASY}\n")
    for argv, said in (
        ((puzzles,), "give --out NAME.svg or NAME.png"),
        ((puzzles, "--out", tmp_path / "p.jpg"), "ends in .svg or .png"),
        ((puzzles, "--out", tmp_path / "none" / "p.svg"), "no directory"),
    ):
        code, _, err = run(capsys, "draw", *argv)
        assert code == 2 and err.count("cpmodels: ") == 1 and said in err
