"""The schema under migrations (Alembic): a database written by the release before them
(``tests/data/web-before-alembic.sqlite3``: a finished match against the computer, a
tercerilla of two deals in play, a lesson in play) is upgraded without loss on SQLite (by the
server itself) and on PostgreSQL (by ``conquian db upgrade``, which a server that finds the
database behind names instead of starting)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import MetaData, insert
from starlette.testclient import TestClient
from web_helpers import TestDatabase, hello, postgres_database, postgres_url_or_skip

from conquian.records import GameRecord
from conquian.web.app import create_app
from conquian.web.database import open_store
from conquian.web.live import LiveMatch
from conquian.web.schema import make_engine
from conquian.web.upgrade import DatabaseBehind, _config, head, revision

BEFORE = Path(__file__).with_name("data") / "web-before-alembic.sqlite3"
TABLES = ("games", "seats", "actions", "records", "deals")


def conquian(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "conquian.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "LANG": "C.UTF-8"},
    )


def fixture_rows() -> dict[str, list[dict[str, object]]]:
    with sqlite3.connect(BEFORE) as conn:
        conn.row_factory = sqlite3.Row
        return {t: [dict(r) for r in conn.execute(f"select * from {t}")] for t in TABLES}


def write_before_migrations(database: TestDatabase) -> None:
    """The fixture's rows in ``database`` as the release before migrations wrote them: its
    tables (revision 0001's, which are the same) and no revision."""
    if database.kind == "sqlite":
        assert database.path is not None
        shutil.copy(BEFORE, database.path)
        return
    from alembic import command

    engine = make_engine(database.url)
    with engine.begin() as conn:
        command.upgrade(_config(conn), "0001")
        conn.exec_driver_sql("drop table alembic_version")
        tables = MetaData()
        tables.reflect(conn)
        for name, rows in fixture_rows().items():
            if rows:
                conn.execute(insert(tables.tables[name]), rows)
    engine.dispose()


def every_game_is_there(database: TestDatabase) -> None:
    """Each match of the fixture loads, replays every stored action, and its finished deals'
    records replay; the one in play goes on."""
    before = fixture_rows()

    async def loaded() -> list[LiveMatch]:
        store = open_store(database.url)
        try:
            out = []
            for game in before["games"]:
                found = await store.load(str(game["id"]))
                assert found is not None, game["id"]
                row, actions, deals = found
                out.append(LiveMatch(row, actions, deals))
            return out
        finally:
            await store.close()

    lives = asyncio.run(loaded())
    assert sum(live.seq for live in lives) == len(before["actions"])
    assert [live.mode for live in lives] == [g["mode"] for g in before["games"]]
    for record in before["records"]:
        assert GameRecord.loads(str(record["record"])).final_state().is_over
    playing = next(live for live in lives if live.mode == "bot" and live.status == "playing")
    with TestClient(create_app(database.url, bot_delay=0)) as client:
        info = client.get(f"/api/games/{playing.id}").json()
        assert info["rules"] == playing.rules.to_spec() and info["status"] == "playing"
        with client.websocket_connect(f"/ws/{playing.id}") as ws:
            ws.send_text(hello())  # watching: the table as it stood
            msg = json.loads(ws.receive_text())
            assert msg["type"] == "state" and msg["seq"] == playing.seq


def test_a_database_of_the_release_before_migrations_is_upgraded_without_loss(
    bare_database: TestDatabase,
) -> None:
    database = bare_database
    write_before_migrations(database)
    engine = make_engine(database.url)
    with engine.connect() as conn:
        assert revision(conn) is None
    if database.kind == "postgresql":  # a server refuses it, naming the command
        with pytest.raises(DatabaseBehind):
            open_store(database.url)
        said = conquian("db", "current", "--db", database.url)
        assert said.returncode == 0 and "behind: run conquian db upgrade" in said.stdout
        done = conquian("db", "upgrade", "--db", database.url)
        assert done.returncode == 0, done.stderr
        assert f"upgraded from revision - to {head()}" in done.stdout
        assert "password" not in done.stdout or "***" in done.stdout
    every_game_is_there(database)  # (SQLite: the server upgraded it as it opened it)
    with engine.connect() as conn:
        assert revision(conn) == head()
    engine.dispose()
    again = conquian("db", "upgrade", "--db", database.url)
    assert f"already at revision {head()}" in again.stdout


def test_a_server_does_not_start_on_a_postgresql_database_that_is_behind() -> None:
    """(An embedded SQLite database is upgraded by the server itself: the test above.)"""
    with postgres_database(postgres_url_or_skip(), upgraded=False) as bare:
        served = conquian("serve", "--db", bare.url, "--port", "0")
    assert served.returncode == 1
    assert "conquian db upgrade --db URL" in served.stderr and "revision -" in served.stderr
    assert "Traceback" not in served.stderr


def test_db_refuses_an_unreachable_database_with_its_reason() -> None:
    said = conquian("db", "upgrade", "--db", "postgresql+psycopg://nobody:secret@127.0.0.1:1/x")
    assert said.returncode != 0 and "cannot use the database" in said.stderr
    assert "secret" not in said.stderr and "Traceback" not in said.stderr


def test_the_migrations_make_the_tables_schema_py_describes(bare_database: TestDatabase) -> None:
    """Upgraded from nothing, a database has exactly the tables, columns and indexes of
    ``schema.metadata`` (Alembic compares them), so that a revision is never forgotten (and
    the test databases may be made from the metadata)."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from conquian.web.schema import metadata
    from conquian.web.upgrade import upgrade

    engine = make_engine(bare_database.url)
    with engine.begin() as conn:
        upgrade(conn)
        differences = compare_metadata(MigrationContext.configure(conn), metadata)
    engine.dispose()
    assert differences == [], differences
