"""Shared test fixtures: paths to bundled fixtures and to ../shared/data (skipped where absent)."""

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def shared_data(relative: str) -> Path:
    """The path of a file under ../shared/data, skipping the calling test when it is absent."""
    path = SHARED_DATA / relative
    if not path.exists():
        pytest.skip(f"benchmark data {relative} not found under ../shared/data (absent on a clean clone)")
    return path


def data_lines(path: Path) -> list[tuple[int, str]]:
    """(1-based line number, line) of the non-comment, non-blank lines of a data file."""
    lines = enumerate(path.read_text().splitlines(), start=1)
    return [(k, ln) for k, ln in lines if ln.strip() and not ln.startswith("#")]
