"""The catalogue of bad inputs (tests/catalogue/cases.txt), each refused cleanly.

Each case must end with the documented exit code and exactly one located message on stderr, never a
traceback.

Every case runs in-process through cpmodels.cli.main; a handful also run as `python -m cpmodels` in a
subprocess, to show what a user sees. Cases marked `known-defect` in the index are strict xfails: they
describe the correct behaviour, fail today, and fail the suite once fixed until the mark is removed.

`python tests/test_catalogue.py` prints what every case does today (exit code, first message, or the
exception), for whoever fixes a defect.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

CATALOGUE = Path(__file__).parent / "catalogue"
INDEX = CATALOGUE / "cases.txt"
DEFECT = "known-defect:"
MESSAGE = re.compile(r"^cpmodels(?: \w+)?: ", re.MULTILINE)
"""The start of a message line: `cpmodels: ...`, or argparse's `cpmodels solve: error: ...`."""
FAMILIES = {
    "sudoku_line", "sudoku_grid", "sudoku_integers", "gecode", "cagelist", "lettergrid", "indexgrid",
    "oneline", "cellnames", "json", "keen", "solo", "pls", "qwh", "dlx", "pseudocoup", "files", "argv",
}  # fmt: skip
"""The groups the catalogue must cover: every format the package reads, odd files, the command line."""
SUBPROCESS_CASES = (
    "sudoku_line/bad_symbol.sdk",
    "cagelist/cell_in_two_cages.txt",
    "argv/unknown_backend",
    "sudoku_line/inline_over_255_chars.sdk",
    "json/nested_100000_deep.json",
    "cagelist/target_5000_digits.txt",
)
"""Cases also run through a real `python -m cpmodels`: some refused cleanly, some known to crash."""


@dataclass(frozen=True)
class Case:
    """One line of the index."""

    name: str
    argv: tuple[str, ...]
    code: int
    pattern: str
    defect: str | None
    line: int

    @property
    def path(self) -> Path:
        """The case file."""
        return CATALOGUE / self.name

    def reads_file(self) -> bool:
        """Whether the case reads its file (as a path or as its text given inline)."""
        return any("{file}" in a or "{text}" in a for a in self.argv)

    def arguments(self) -> list[str]:
        """The argv with {file}, {text} and {dir} filled in."""
        inline = any("{text}" in a for a in self.argv)
        text = self.path.read_text(encoding="utf-8").rstrip("\n") if inline else ""
        out = []
        for a in self.argv:
            a = a.replace("{file}", str(self.path)).replace("{dir}", str(CATALOGUE))
            out.append(a.replace("{text}", text) if "{text}" in a else a)
        return out

    def regex(self) -> re.Pattern[str]:
        """The expected-message pattern with {file} and {dir} filled in, escaped."""
        pattern = self.pattern.replace("{file}", re.escape(str(self.path))).replace("{dir}", re.escape(str(CATALOGUE)))
        return re.compile(pattern)


def load_cases(index: Path = INDEX) -> list[Case]:
    """The cases of the index, in order; ValueError for a malformed line."""
    cases = []
    for k, line in enumerate(index.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [f.strip() for f in line.split(" | ")]
        if len(fields) not in (4, 5) or (len(fields) == 5 and not fields[4].startswith(DEFECT)):
            raise ValueError(f"{index}:{k}: expected `case | argv | exit code | regex [| {DEFECT} ...]`")
        name, argv, code, pattern = fields[:4]
        defect = fields[4][len(DEFECT) :].strip() if len(fields) == 5 else None
        cases.append(Case(name, tuple(shlex.split(argv)), int(code), pattern, defect, k))
    return cases


CASES = load_cases()


def _read_dlx():
    """The DLX1 reader of cpmodels, wherever it lives now."""
    import importlib

    for module in ("cpmodels.backends.dlx", "cpmodels.dlx", "cpmodels.formats.dlx"):
        try:
            return importlib.import_module(module).read_dlx
        except (ImportError, AttributeError):
            continue
    raise ImportError("read_dlx not found in cpmodels")


def invoke(argv: list[str]) -> int:
    """Run one case's argv in-process: the exit code; any exception but SystemExit propagates (a crash)."""
    from cpmodels.cli import main
    from cpmodels.errors import CpModelsError

    if argv[:1] == ["read_dlx"]:
        path = argv[1]
        try:
            _read_dlx()(Path(path).read_bytes().decode("utf-8"), path)
        except CpModelsError as e:
            print(f"cpmodels: {e}", file=sys.stderr)
            return 2
        return 0
    try:
        return main(argv)
    except SystemExit as e:  # argparse's usage errors
        return e.code if isinstance(e.code, int) else 2


def check(case: Case, code: int, err: str) -> None:
    """The assertions every case must meet."""
    assert "Traceback" not in err
    assert code != 1, f"exit 1 (an internal error); stderr: {err!r}"
    assert code == case.code, f"exit {code}, expected {case.code}; stderr: {err!r}"
    messages = MESSAGE.findall(err)
    assert len(messages) == 1, f"expected exactly one message on stderr, found {len(messages)}: {err!r}"
    assert case.regex().search(err), f"stderr does not match {case.pattern!r}: {err!r}"


def _param(case: Case):
    marks = [pytest.mark.xfail(strict=True, reason=case.defect)] if case.defect else []
    return pytest.param(case, id=case.name, marks=marks)


@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_case(case, capsys):
    code = invoke(case.arguments())
    _, err = capsys.readouterr()
    check(case, code, err)


@pytest.mark.parametrize("case", [_param(case) for case in CASES if case.name in SUBPROCESS_CASES])
def test_case_through_a_real_process(case):
    done = subprocess.run(
        [sys.executable, "-m", "cpmodels", *case.arguments()],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=120,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    check(case, done.returncode, done.stderr)


# ---- the catalogue itself ------------------------------------------------------------------


def test_catalogue_is_large_and_covers_every_format():
    groups = {case.name.split("/")[0] for case in CASES}
    assert len(CASES) >= 120
    assert groups == FAMILIES
    assert all(sum(case.name.startswith(f"{g}/") for case in CASES) >= 5 for g in FAMILIES)
    assert SUBPROCESS_CASES and all(name in {case.name for case in CASES} for name in SUBPROCESS_CASES)


def test_every_case_file_is_in_the_index_once_and_every_named_file_exists():
    names = [case.name for case in CASES]
    assert len(names) == len(set(names))
    files = {str(p.relative_to(CATALOGUE)) for p in CATALOGUE.rglob("*") if p.is_file() and p != INDEX}
    reading = {case.name for case in CASES if case.reads_file()}
    assert files == reading
    assert all((CATALOGUE / name).is_file() for name in reading)


def test_every_expectation_is_a_located_bad_input():
    for case in CASES:
        case.regex()  # compiles
        assert case.code == 2, case.name
        if case.reads_file() and "{text}" not in " ".join(case.argv):
            assert "{file}" in case.pattern, f"{case.name}: the regex must name the file (and line, for a parse error)"
        elif case.reads_file() and not case.name.startswith("argv/"):  # {text}: the puzzle given inline
            assert "<argument>:" in case.pattern, f"{case.name}: the regex must name <argument>:line"


def test_the_index_reader_refuses_a_malformed_line(tmp_path):
    index = tmp_path / "cases.txt"
    index.write_text("# a comment\n\nfiles/empty.txt | solve {file} | 2\n")
    with pytest.raises(ValueError, match=r"cases.txt:3: expected"):
        load_cases(index)
    index.write_text("files/empty.txt | solve {file} | 2 | x | a reason without the mark\n")
    with pytest.raises(ValueError, match=r"cases.txt:1: expected"):
        load_cases(index)


def test_check_fails_on_a_wrong_location_a_second_message_or_a_traceback():
    case = next(c for c in CASES if c.name == "sudoku_line/bad_symbol.sdk")
    good = f"cpmodels: {case.path}:1:5: 'x' is not a value of an order-9 grid (use 1-9)\n    1234x\n        ^\n"
    check(case, 2, good)
    for code, err in (
        (2, good.replace(":1:5:", ":1:6:")),
        (2, good + "cpmodels: another message\n"),
        (2, "Traceback (most recent call last):\n" + good),
        (1, good),
        (3, good),
    ):
        with pytest.raises(AssertionError):
            check(case, code, err)


# ---- today's behaviour, for whoever fixes a defect ---------------------------------------------


def today(case: Case) -> str:
    """What the case does now: ok, or the mismatch (exit code and first message, or the exception)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = invoke(case.arguments())
    except Exception as e:  # noqa: BLE001 - reporting any crash is the point
        return f"CRASH {type(e).__name__}: {str(e)[:160]}"
    try:
        check(case, code, err.getvalue())
        return "ok"
    except AssertionError:
        first = next((ln for ln in err.getvalue().splitlines() if MESSAGE.match(ln)), "(no message)")
        return f"exit {code}, {len(MESSAGE.findall(err.getvalue()))} message(s): {first[:200]}"


if __name__ == "__main__":
    for case in CASES:
        state = today(case)
        flag = "known-defect" if case.defect else ""
        surprise = (
            " <-- " + ("fixed? remove the known-defect mark" if state == "ok" else "unexpected")
            if ((state == "ok") == bool(case.defect))
            else ""
        )
        print(f"{case.name:50} {flag:12} {state}{surprise}")
