"""The database fixture of the web tests: every such test runs on SQLite and on PostgreSQL.

The web helpers (and so SQLAlchemy and ``conquian.web``) are imported only when a test asks
for the fixture, so that ``python -m pytest tests/core`` needs nothing but the core engine.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

# Every test, and every program a test starts, speaks English unless the test asks for
# another language: the machine's own locale must not change what the tests read.
for _name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"

if TYPE_CHECKING:
    from web_helpers import TestDatabase


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestDatabase]:
    """A database of its own for one test, with no game in it: a new SQLite file (the
    server makes its tables), or a PostgreSQL schema upgraded as ``conquian db upgrade``
    upgrades it.

    PostgreSQL comes from ``CONQUIAN_TEST_POSTGRES_URL``; if it is set, an unreachable
    server fails the test.  If it is unset the PostgreSQL case is skipped with that reason
    (and fails under CI).
    """
    from web_helpers import postgres_database, postgres_url_or_skip, sqlite_database

    if request.param == "sqlite":
        yield sqlite_database(tmp_path / "games.sqlite3")
        return
    with postgres_database(postgres_url_or_skip()) as db:
        yield db


@pytest.fixture(params=["sqlite", "postgresql"])
def bare_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestDatabase]:
    """As :func:`database`, but a PostgreSQL schema with no table at all."""
    from web_helpers import postgres_database, postgres_url_or_skip, sqlite_database

    if request.param == "sqlite":
        yield sqlite_database(tmp_path / "games.sqlite3")
        return
    with postgres_database(postgres_url_or_skip(), upgraded=False) as db:
        yield db
