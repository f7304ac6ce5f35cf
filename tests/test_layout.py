"""The house's rooms stay small: one concern per file, so no file grows into a second hub.

A file over its bound is a sign that it holds two concerns: split it along them (see
docs/architecture.md) rather than raise the bound.
"""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "conquian"
WEB_PYTHON_LINES = 700
PAGE_FILE_LINES = 500


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize("path", sorted((PACKAGE / "web").glob("*.py")), ids=lambda p: p.name)
def test_no_python_file_of_the_web_server_is_over_700_lines(path: Path) -> None:
    assert lines(path) <= WEB_PYTHON_LINES, f"{path.name}: {lines(path)} lines"


@pytest.mark.parametrize(
    "path",
    sorted(p for p in (PACKAGE / "web" / "static").rglob("*") if p.suffix in (".js", ".css")),
    ids=lambda p: str(p.relative_to(PACKAGE / "web" / "static")),
)
def test_no_file_of_the_page_is_over_500_lines(path: Path) -> None:
    assert lines(path) <= PAGE_FILE_LINES, f"{path.name}: {lines(path)} lines"
