"""The schema's revision: where a database stands, and bringing it to this release's
(Alembic, with the migrations in :mod:`conquian.web.migrations`).

An embedded SQLite database is brought up to date when a server opens it; a PostgreSQL
database, which several processes and releases may share, is upgraded only by
``conquian db upgrade``, and a server refuses one that is behind (:class:`DatabaseBehind`).
A database made before the migrations (it has the tables and no revision) is taken from the
start: the first revision completes its tables the way those releases did.

>>> from sqlalchemy import create_engine
>>> engine = create_engine("sqlite://")
>>> with engine.begin() as conn:
...     (revision(conn), upgrade(conn), revision(conn) == head())
(None, None, True)
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection

MIGRATIONS = Path(__file__).with_name("migrations")


class DatabaseBehind(Exception):
    """The database's schema is older than this release's: ``conquian db upgrade`` first."""

    def __init__(self, found: str | None, wanted: str) -> None:
        super().__init__(
            f"the database is at revision {found or 'none'}, this release needs {wanted}"
        )
        self.found = found
        self.wanted = wanted


def _config(conn: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = conn
    return config


@cache
def head() -> str:
    """The revision this release's schema is at."""
    found = ScriptDirectory.from_config(_config()).get_current_head()
    assert found is not None
    return found


def revision(conn: Connection) -> str | None:
    """The revision the database is at (None: a new database, or one made before the
    migrations)."""
    return MigrationContext.configure(conn).get_current_revision()


def upgrade(conn: Connection) -> None:
    """Bring the database to :func:`head` (inside the caller's transaction)."""
    if revision(conn) != head():
        command.upgrade(_config(conn), "head")


def check(conn: Connection) -> None:
    """:raises DatabaseBehind: unless the database is at :func:`head`."""
    found = revision(conn)
    if found != head():
        raise DatabaseBehind(found, head())
