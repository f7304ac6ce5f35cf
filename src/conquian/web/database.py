"""Opening the database of web matches by its URL: SQLite for one process, PostgreSQL for
one or several.

>>> import asyncio
>>> store = open_store("sqlite://")
>>> type(store).__name__, store.channel
('SqliteStore', None)
>>> asyncio.run(store.close())
"""

from __future__ import annotations

from .postgres import PostgresStore
from .schema import default_db_url, make_engine
from .store import SqliteStore, Store

__all__ = ["default_db_url", "open_store"]


def open_store(url: str) -> Store:
    """The store of the database at ``url`` (a SQLAlchemy URL: ``sqlite:///path``, or
    ``postgresql+psycopg://user:password@host/database``), its tables made or brought up to
    date.

    :raises sqlalchemy.exc.SQLAlchemyError: or :class:`OSError` if the database cannot be
        reached; :class:`ModuleNotFoundError` if its driver is not installed.
    """
    engine = make_engine(url)
    if engine.dialect.name == "postgresql":
        return PostgresStore(url, engine)
    return SqliteStore(url, engine)
