"""Storage of web games: SQLAlchemy Core tables in SQLite (default) or PostgreSQL.

A game (one match) is stored as its seeds and the list of accepted actions; the
server rebuilds any game by replaying its actions, so a restart loses nothing.
Each finished deal is also kept as a game record (the TOML record format).

Tables:

``games``     one row per match: rules, seeds, mode (``bot``, ``friend`` or ``mixed``), status,
              whether the lobby lists it (``public``), and whether a person's seat is taken
              only with its invitation (``invite_only``)
``seats``     one row per seat: a person or a computer player (with its ``level``), who sits
              there, a hash of the seat's secret token, and a hash of its invitation code
``actions``   every accepted action, numbered, with its deal and player
``records``   the record of every finished deal
``deals``     the provably fair shuffle of each deal (see :mod:`conquian.fair`): its secret
              server seed, the commitment published before the deal, and each seat's seed

Most methods are synchronous; the server calls them from its storage threads.  On
PostgreSQL the statements of play (an action, a seat's seed, a deal's shuffle, and the
catching up on another process's: the ``..._async`` methods) are raw SQL on a bare psycopg
connection, awaited in the event loop (:class:`AsyncStatements`, :func:`drive_async`).  Every
method that writes does so in one transaction, committed before it returns: the
server acknowledges an action only once ``add_action`` has returned.

On PostgreSQL (``postgresql+psycopg://user:password@host/database``; a bare
``postgresql://`` URL gets the psycopg driver too) several server processes may share
one database: the tables are created under an advisory lock, two processes cannot
both store an action with the same number (the primary key refuses the second), and
a game is read in one ``REPEATABLE READ`` snapshot.  Every write to a game also sends a
notification (``pg_notify``, in the same transaction, so it is delivered only once the
write has committed) on the store's :attr:`Store.channel`: ``GAME KIND NUMBER ORIGIN``
(``a`` an action and its number, ``s`` a seed and its deal, ``j`` a join, ``r`` a
rematch; ``ORIGIN`` the writing store's :attr:`Store.origin`), and the move itself for a move
every player sees that ends no deal; never a seed, a token, a hand or an exchange choice.
The other processes read what a notification did not carry from the tables (:mod:`.notify`).  The seeds of a deal are fixed when the deal is dealt: the
transaction of the action that ends a deal locks the next deal's shuffle and reads its
seeds, and a seed for a deal already dealt is refused.

A database made by an earlier version is brought up to date when a store opens it, under
the same lock (:func:`_migrate`): the ``public`` column is added to ``games``, with the games
against the computer public, as the lobby showed them, and friends' games private; the
``fair`` column is added, false for the games already stored (they go on dealing from their
match seed); ``invite_only`` is added, false (their seats are taken by the game's id, as
before), ``hints`` is added, true (they gave hints), and the seats get the empty columns ``level`` (a computer seat without one plays at
its game's level) and ``invite_hash``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    false,
    insert,
    inspect,
    select,
    text,
    true,
    update,
)
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool

T = TypeVar("T")
Steps = Generator[tuple[str, dict[str, Any]], list[tuple[Any, ...]], T]
"""Statements run one after another (see :func:`drive`): a generator that yields each
statement and its parameters, is sent back the statement's rows, and returns a result."""

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("mode", String(16), nullable=False),
    Column("level", String(16)),
    Column("rules", Text, nullable=False),
    Column("match_seed", BigInteger, nullable=False),
    Column("bot_seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("rematch_id", String(32)),
    Column("rematch_of", String(32)),
    Column("public", Boolean, nullable=False, server_default=false()),
    Column("fair", Boolean, nullable=False, server_default=false()),
    Column("invite_only", Boolean, nullable=False, server_default=false()),
    Column("hints", Boolean, nullable=False, server_default=true()),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64)),
    Column("joined", Float),
    Column("level", String(16)),
    Column("invite_hash", String(64)),
)

actions = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("deal", Integer, nullable=False),
    Column("player", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("at", Float, nullable=False),
)

records = Table(
    "records",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("deal", Integer, primary_key=True),
    Column("result", String(64), nullable=False),
    Column("record", Text, nullable=False),
)


deals = Table(
    "deals",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("deal", Integer, primary_key=True),
    Column("server_seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("client_seeds", Text, nullable=False),
)


def hash_token(token: str) -> str:
    """The stored form of a seat token (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def default_db_url() -> str:
    """A SQLite file in the user's data directory."""
    from ..userdata import default_data_dir

    return f"sqlite:///{default_data_dir() / 'web.sqlite3'}"


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of a stored game."""

    seat: int
    kind: str
    """``human`` or ``bot``."""
    name: str
    token_hash: str | None
    joined: bool
    level: str | None = None
    """A computer seat's level (None: the game's ``level``, as an earlier version stored it)."""
    invite_hash: str | None = None
    """The hash of the invitation code that takes this person's seat (None: no invitation)."""


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One stored match with its seats (a row of the ``games`` table)."""

    id: str
    created: float
    mode: str
    level: str | None
    rules: str
    match_seed: int
    bot_seed: int
    status: str
    rematch_id: str | None
    rematch_of: str | None
    seats: tuple[SeatRow, ...]
    public: bool = False
    """Listed in the lobby (while open, and while being played)."""
    fair: bool = False
    """Its deals come from provably fair shuffles (rows of ``deals``); a game stored by an
    earlier version deals from ``match_seed``."""
    invite_only: bool = False
    """A person's seat is taken only with its invitation code (or, in a public game, from the
    lobby); False: anyone who has the game's id takes the next free seat, as before."""
    hints: bool = True
    """A player may ask for a hint (the creator's choice)."""


@dataclass(frozen=True, slots=True)
class DealRow:
    """The fair shuffle of one deal: the server's secret seed (hex), the commitment to it,
    and each seat's seed: None while not given, ``""`` for a seat that gave none, else hex."""

    deal: int
    server_seed: str
    commitment: str
    client_seeds: tuple[str | None, ...]

    def with_seed(self, seat: int, seed: str) -> DealRow:
        seeds = list(self.client_seeds)
        seeds[seat] = seed
        return DealRow(self.deal, self.server_seed, self.commitment, tuple(seeds))


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One accepted action."""

    seq: int
    deal: int
    player: int
    action: str


SCHEMA_LOCK = 0x636F6E7175
"""The PostgreSQL advisory lock held while the tables are created (``conqu`` in ASCII)."""


class AsyncStatements:
    """A few asynchronous psycopg connections (autocommit) of one event loop, for the
    statements of every move on PostgreSQL: each is one round trip awaited in the loop, with
    no worker thread to hand it to and back from (that hand-off cost more CPU than the
    statement).  A connection is taken for one statement at a time; a broken one is dropped
    and another made for the next statement."""

    def __init__(self, url: str, size: int = 4) -> None:
        from .notify import libpq_url

        self.url = libpq_url(url)
        self.size = size
        self._idle: list[Any] = []
        self._made = 0
        self._freed: asyncio.Condition | None = None

    async def _take(self) -> Any:
        import psycopg

        if self._freed is None:
            self._freed = asyncio.Condition()
        async with self._freed:
            while not self._idle and self._made >= self.size:
                await self._freed.wait()
            if self._idle:
                return self._idle.pop()
            self._made += 1
        try:
            return await psycopg.AsyncConnection.connect(
                self.url, autocommit=True, connect_timeout=10
            )
        except BaseException:
            await self._give(None)
            raise

    async def _give(self, conn: Any) -> None:
        assert self._freed is not None
        async with self._freed:
            if conn is None or conn.closed or conn.broken:
                self._made -= 1
            else:
                self._idle.append(conn)
            self._freed.notify()

    async def execute(self, query: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
        """Run one statement; its rows (none for a statement that returns none)."""

        def one() -> Steps[list[tuple[Any, ...]]]:
            rows = yield query, params
            return rows

        return await self.run(one())

    async def run(self, steps: Steps[T], *, transaction: bool = False) -> T:
        """Run the statements of ``steps`` on one connection, as :func:`drive` does
        (``transaction``: in one transaction, rolled back if one fails).

        :raises sqlalchemy.exc.IntegrityError: where a statement breaks a unique key.
        """
        import psycopg

        conn = await self._take()
        try:
            if not transaction:
                return await drive_async(conn, steps)
            async with conn.transaction():
                return await drive_async(conn, steps)
        except BaseException as exc:
            if not isinstance(exc, psycopg.Error | IntegrityError):
                await conn.close()  # cancelled mid-statement: its state is unknown
            raise
        finally:
            await self._give(conn)

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for conn in idle:
            await conn.close()


class Store:
    """The database of web games."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = _make_engine(url)
        self.postgres = self.engine.dialect.name == "postgresql"
        # reads of one game see one snapshot, even while another process writes
        self._reader = (
            self.engine.execution_options(isolation_level="REPEATABLE READ")
            if self.postgres
            else self.engine
        )
        # two servers starting at once must not both create the tables: take a lock first
        with self.engine.begin() as conn:
            if self.postgres:
                conn.execute(text("select pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
            elif self.engine.dialect.name == "sqlite":
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            metadata.create_all(conn)
            _migrate(conn)
            schema = conn.execute(text("select current_schema()")).scalar() if self.postgres else ""
        self.origin = secrets.token_hex(6)
        """This store's name in the notifications it sends (one per server process)."""
        self.channel: str | None = None
        """The PostgreSQL channel of the notifications of this database's schema (None on
        SQLite, which serves one process)."""
        if self.postgres:
            self.channel = "conquian." + re.sub(r"[^A-Za-z0-9_]", "_", str(schema))[:50]
        self._local = threading.local()
        self._raws: list[Any] = []
        self._raws_lock = threading.Lock()
        self._async: dict[asyncio.AbstractEventLoop, AsyncStatements] = {}

    def _raw(self) -> Any:
        """This thread's own psycopg connection (autocommit), for the statements of every move:
        each is one round trip, without a pool or a transaction around it."""
        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed or conn.broken:
            import psycopg

            from .notify import libpq_url

            conn = psycopg.connect(libpq_url(self.url), autocommit=True, connect_timeout=10)
            self._local.conn = conn
            with self._raws_lock:
                self._raws.append(conn)
        return conn

    def _notify(self, conn: Connection, game_id: str, kind: str, number: int = 0) -> None:
        """Tell the other processes, once this transaction commits, that a game changed."""
        if self.channel is not None:
            conn.execute(
                text("select pg_notify(:channel, :payload)"),
                {"channel": self.channel, "payload": f"{game_id} {kind} {number} {self.origin}"},
            )

    def close(self) -> None:
        with self._raws_lock:
            for conn in self._raws:
                conn.close()
            self._raws.clear()
        self.engine.dispose()

    def create_game(self, game: MatchRow, first_deal: DealRow | None = None) -> None:
        """Store a new game and its seats (and the fair shuffle of its first deal)."""
        with self.engine.begin() as conn:
            self._create_game(conn, game, first_deal)

    @staticmethod
    def _create_game(conn: Connection, game: MatchRow, first_deal: DealRow | None = None) -> None:
        now = time.time()
        conn.execute(
            insert(games).values(
                id=game.id,
                created=now,
                updated=now,
                mode=game.mode,
                level=game.level,
                rules=game.rules,
                match_seed=game.match_seed,
                bot_seed=game.bot_seed,
                status=game.status,
                rematch_of=game.rematch_of,
                public=game.public,
                fair=game.fair,
                invite_only=game.invite_only,
                hints=game.hints,
            )
        )
        if first_deal is not None:
            conn.execute(insert(deals).values(_deal_values(game.id, first_deal)))
        conn.execute(
            insert(seats),
            [
                {
                    "game_id": game.id,
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "token_hash": s.token_hash,
                    "joined": now if s.joined else None,
                    "level": s.level,
                    "invite_hash": s.invite_hash,
                }
                for s in game.seats
            ],
        )

    def join(self, game_id: str, seat: int, name: str, token_hash: str) -> bool:
        """Fill an empty human seat; False if it was taken meanwhile.  The game is being
        played (no longer open) once its last free seat is filled."""
        now = time.time()
        with self.engine.begin() as conn:
            done = conn.execute(
                update(seats)
                .where(seats.c.game_id == game_id, seats.c.seat == seat, seats.c.joined.is_(None))
                .values(name=name, token_hash=token_hash, joined=now)
            )
            if done.rowcount != 1:
                return False
            free = conn.execute(
                select(seats.c.seat).where(seats.c.game_id == game_id, seats.c.joined.is_(None))
            ).first()
            values: dict[str, Any] = {"updated": now}
            if free is None:
                values["status"] = "playing"
            conn.execute(update(games).where(games.c.id == game_id).values(**values))
            self._notify(conn, game_id, "j", seat)
        return True

    def add_action(
        self,
        game_id: str,
        row: ActionRow,
        *,
        record: tuple[int, str, str] | None = None,
        status: str | None = None,
        next_deal: DealRow | None = None,
    ) -> DealRow | None:
        """Commit one action, with the record of the deal it ended and the new status, at once.

        ``next_deal``, with the action that ends a deal of a match that goes on: the shuffle of
        the next deal (stored now if it is not yet).  Its stored row is locked and returned: the
        seeds it holds are the ones the next deal is dealt with, and none can be added to it
        from now on (:meth:`add_client_seed`).

        :raises sqlalchemy.exc.IntegrityError: if an action with this number exists.
        """
        now = time.time()
        if self.postgres:
            steps = self._action_steps(game_id, row, record, status, next_deal, now)
            return self._run(steps, transaction=record is not None or next_deal is not None)
        stored: DealRow | None = None
        with self.engine.begin() as conn:
            conn.execute(
                insert(actions).values(
                    game_id=game_id,
                    seq=row.seq,
                    deal=row.deal,
                    player=row.player,
                    action=row.action,
                    at=now,
                )
            )
            if next_deal is not None:
                stored = self._put_deal(conn, game_id, next_deal)
            if record is not None:
                deal, result, text = record
                conn.execute(
                    insert(records).values(game_id=game_id, deal=deal, result=result, record=text)
                )
            values: dict[str, Any] = {"updated": now}
            if status is not None:
                values["status"] = status
            conn.execute(update(games).where(games.c.id == game_id).values(**values))
        return stored

    async def add_action_async(
        self,
        game_id: str,
        row: ActionRow,
        *,
        record: tuple[int, str, str] | None = None,
        status: str | None = None,
        next_deal: DealRow | None = None,
        announce: bool = False,
    ) -> DealRow | None:
        """:meth:`add_action` on PostgreSQL, awaited in the event loop (see
        :class:`AsyncStatements`).  ``announce``: the notification carries the action (only
        for one every player sees that ends no deal: see :mod:`.notify`).

        :raises sqlalchemy.exc.IntegrityError: if an action with this number exists.
        """
        steps = self._action_steps(game_id, row, record, status, next_deal, time.time(), announce)
        transaction = record is not None or next_deal is not None
        return await self._statements().run(steps, transaction=transaction)

    # The statements of PostgreSQL's moves, seeds and shuffles: few round trips each, sent
    # on a bare psycopg connection (a thread's own, or one of the event loop's), since
    # SQLAlchemy's work around each statement cost more CPU than the statement.
    _ADD_ACTION = """
        WITH new AS (
            INSERT INTO actions (game_id, seq, deal, player, action, at)
            VALUES (%(game)s, %(seq)s, %(deal)s, %(player)s, %(action)s, %(at)s)
            RETURNING seq
        ), touched AS (
            UPDATE games SET updated = %(at)s, status = COALESCE(%(status)s::varchar, status)
            WHERE id = %(game)s
            RETURNING id
        )
        SELECT pg_notify(%(channel)s, %(payload)s) FROM new
    """
    _END_DEAL = """
        WITH new AS (
            INSERT INTO actions (game_id, seq, deal, player, action, at)
            VALUES (%(game)s, %(seq)s, %(deal)s, %(player)s, %(action)s, %(at)s)
            RETURNING seq
        ), kept AS (
            INSERT INTO records (game_id, deal, result, record)
            SELECT %(game)s, %(record_deal)s, %(result)s, %(record)s FROM new
            WHERE %(record)s::text IS NOT NULL
            RETURNING deal
        ), shuffled AS (
            INSERT INTO deals (game_id, deal, server_seed, commitment, client_seeds)
            SELECT %(game)s, %(next_deal)s, %(server_seed)s, %(commitment)s, %(client_seeds)s
            FROM new WHERE %(next_deal)s::integer IS NOT NULL
            ON CONFLICT DO NOTHING
            RETURNING deal
        ), touched AS (
            UPDATE games SET updated = %(at)s, status = COALESCE(%(status)s::varchar, status)
            WHERE id = %(game)s
            RETURNING id
        )
        SELECT pg_notify(%(channel)s, %(payload)s) FROM new
    """
    _PUT_DEAL = """
        INSERT INTO deals (game_id, deal, server_seed, commitment, client_seeds)
        VALUES (%(game)s, %(deal)s, %(server_seed)s, %(commitment)s, %(client_seeds)s)
        ON CONFLICT DO NOTHING
        RETURNING deal, server_seed, commitment, client_seeds
    """
    _GET_DEAL = """
        SELECT deal, server_seed, commitment, client_seeds FROM deals
        WHERE game_id = %(game)s AND deal = %(deal)s
    """
    _LOCK_DEAL = _GET_DEAL + " FOR UPDATE"
    # run once the deal's row is locked, so that it sees the record of a deal ended meanwhile
    _SET_SEEDS = """
        WITH changed AS (
            UPDATE deals SET client_seeds = %(client_seeds)s
            WHERE game_id = %(game)s AND deal = %(deal)s AND NOT EXISTS (
                SELECT 1 FROM records WHERE game_id = %(game)s AND deal = %(deal)s - 1
            )
            RETURNING deal
        )
        SELECT pg_notify(%(channel)s, %(payload)s) FROM changed
    """

    def _action_steps(
        self,
        game_id: str,
        row: ActionRow,
        record: tuple[int, str, str] | None,
        status: str | None,
        next_deal: DealRow | None,
        at: float,
        announce: bool = False,
    ) -> Steps[DealRow | None]:
        """The statements of :meth:`add_action` on PostgreSQL (one for a move that ends no
        deal, in its own transaction; otherwise a transaction of two)."""
        params = self._action_params(game_id, row, status, at, announce)
        if record is None and next_deal is None:
            yield self._ADD_ACTION, params
            return None
        record_deal, result, text = record if record is not None else (None, None, None)
        shuffle = _deal_params(game_id, next_deal) if next_deal is not None else {}
        yield (
            self._END_DEAL,
            params
            | {
                "record_deal": record_deal,
                "result": result,
                "record": text,
                "next_deal": shuffle.get("deal"),
                "server_seed": shuffle.get("server_seed"),
                "commitment": shuffle.get("commitment"),
                "client_seeds": shuffle.get("client_seeds"),
            },
        )
        if next_deal is None:
            return None
        (found,) = yield self._LOCK_DEAL, shuffle
        return _deal_row_of(found)

    def _action_params(
        self, game_id: str, row: ActionRow, status: str | None, at: float, announce: bool = False
    ) -> dict[str, Any]:
        payload = f"{game_id} a {row.seq} {self.origin}"
        if announce:
            payload += f" {row.deal} {row.player} {row.action}"
        return {
            "game": game_id,
            "seq": row.seq,
            "deal": row.deal,
            "player": row.player,
            "action": row.action,
            "at": at,
            "status": status,
            "channel": self.channel,
            "payload": payload,
        }

    def _run(self, steps: Steps[T], *, transaction: bool = False) -> T:
        """Run ``steps`` on this thread's psycopg connection (see :func:`drive`)."""
        conn = self._raw()
        if not transaction:
            return drive(conn, steps)
        with conn.transaction():
            return drive(conn, steps)

    def _statements(self) -> AsyncStatements:
        """The asynchronous connections of the running event loop (made on first use)."""
        loop = asyncio.get_running_loop()
        found = self._async.get(loop)
        if found is None:
            found = self._async[loop] = AsyncStatements(self.url)
        return found

    async def since_async(
        self, game_id: str, after: int, deal: int
    ) -> tuple[list[ActionRow], list[DealRow]]:
        """:meth:`since` on PostgreSQL, awaited in the event loop."""
        rows = await self._statements().execute(
            self._SINCE, {"game": game_id, "after": after, "deal": deal}
        )
        return _since_rows(rows)

    async def close_async(self) -> None:
        """Close the running event loop's asynchronous connections."""
        found = self._async.pop(asyncio.get_running_loop(), None)
        if found is not None:
            await found.close()

    _SINCE = """
        SELECT 'a', seq, deal, player, action, NULL, NULL FROM actions
        WHERE game_id = %(game)s AND seq > %(after)s
        UNION ALL
        SELECT 'd', deal, NULL, NULL, server_seed, commitment, client_seeds FROM deals
        WHERE game_id = %(game)s AND deal >= %(deal)s
        ORDER BY 1, 2
    """

    def since(self, game_id: str, after: int, deal: int) -> tuple[list[ActionRow], list[DealRow]]:
        """The actions of a game numbered after ``after``, and the shuffles of deal ``deal``
        and later: what a process that has the game in memory must read after another
        process stored an action (on PostgreSQL one round trip)."""
        if not self.postgres:
            loaded = self.load(game_id, after)
            if loaded is None:
                return [], []
            return loaded[1], [d for d in loaded[2] if d.deal >= deal]
        rows = (
            self._raw()
            .execute(self._SINCE, {"game": game_id, "after": after, "deal": deal})
            .fetchall()
        )
        return _since_rows(rows)

    def add_deal(self, game_id: str, deal: DealRow) -> DealRow:
        """Store the fair shuffle of a deal unless that deal has one already; returns the
        stored one (``deal``, or the one another process stored first)."""
        if self.postgres:
            return self._run(self._deal_steps(game_id, deal))
        with self.engine.begin() as conn:
            return self._put_deal(conn, game_id, deal)

    async def add_deal_async(self, game_id: str, deal: DealRow) -> DealRow:
        """:meth:`add_deal` on PostgreSQL, awaited in the event loop."""
        return await self._statements().run(self._deal_steps(game_id, deal))

    def _deal_steps(self, game_id: str, deal: DealRow) -> Steps[DealRow]:
        params = _deal_params(game_id, deal)
        found = yield self._PUT_DEAL, params
        if not found:  # stored first by another process
            found = yield self._GET_DEAL, params
        return _deal_row_of(found[0])

    @staticmethod
    def _put_deal(conn: Connection, game_id: str, deal: DealRow) -> DealRow:
        """Insert ``deal`` if its deal has no shuffle stored (SQLite); the stored row."""
        new = sqlite_dialect.insert(deals)
        conn.execute(new.values(_deal_values(game_id, deal)).on_conflict_do_nothing())
        query = select(deals).where(deals.c.game_id == game_id, deals.c.deal == deal.deal)
        return _deal_row(conn.execute(query).one())

    def add_client_seed(self, game_id: str, deal: int, seat: int, seed: str) -> DealRow | None:
        """Store a seat's seed for a deal; returns the deal's shuffle with every seed stored so
        far, or None if the seat has given one already, the deal has no shuffle stored, or it
        has been dealt (the deal before it is over: its seeds are fixed)."""
        if self.postgres:
            return self._run(self._seed_steps(game_id, deal, seat, seed), transaction=True)
        with self.engine.begin() as conn:
            query = select(deals).where(deals.c.game_id == game_id, deals.c.deal == deal)
            row = conn.execute(query).first()
            if row is None:
                return None
            seeds = json.loads(row.client_seeds)
            if seeds[seat] is not None:
                return None
            if deal > 1:  # dealt once the deal before it ended (its record is stored)
                ended = conn.execute(
                    select(records.c.deal).where(
                        records.c.game_id == game_id, records.c.deal == deal - 1
                    )
                ).first()
                if ended is not None:
                    return None
            seeds[seat] = seed
            conn.execute(
                update(deals)
                .where(deals.c.game_id == game_id, deals.c.deal == deal)
                .values(client_seeds=json.dumps(seeds))
            )
            return DealRow(row.deal, row.server_seed, row.commitment, tuple(seeds))

    async def add_client_seed_async(
        self, game_id: str, deal: int, seat: int, seed: str
    ) -> DealRow | None:
        """:meth:`add_client_seed` on PostgreSQL, awaited in the event loop."""
        steps = self._seed_steps(game_id, deal, seat, seed)
        return await self._statements().run(steps, transaction=True)

    def _seed_steps(self, game_id: str, deal: int, seat: int, seed: str) -> Steps[DealRow | None]:
        """The transaction of :meth:`add_client_seed` on PostgreSQL: the deal's row is locked
        first, so the transaction of the action that ends the deal before waits for it (and
        reads the seed), or it sees that action's record (and refuses the seed)."""
        params = {"game": game_id, "deal": deal}
        found = yield self._LOCK_DEAL, params
        if not found:
            return None
        shuffle = _deal_row_of(found[0])
        if shuffle.client_seeds[seat] is not None:
            return None
        seeds = list(shuffle.client_seeds)
        seeds[seat] = seed
        changed = yield (
            self._SET_SEEDS,
            params
            | {
                "client_seeds": json.dumps(seeds),
                "channel": self.channel,
                "payload": f"{game_id} s {deal} {self.origin}",
            },
        )
        if not changed:  # the deal before it ended meanwhile: this deal is dealt
            return None
        return DealRow(shuffle.deal, shuffle.server_seed, shuffle.commitment, tuple(seeds))

    def set_rematch(
        self, game_id: str, rematch: MatchRow, first_deal: DealRow | None = None
    ) -> bool:
        """Store ``rematch`` as the follow-up of ``game_id``, both in one transaction.

        False if the game has a rematch already (another process may have made it).
        """
        with self.engine.begin() as conn:
            done = conn.execute(
                update(games)
                .where(games.c.id == game_id, games.c.rematch_id.is_(None))
                .values(rematch_id=rematch.id)
            )
            if done.rowcount != 1:
                return False
            self._create_game(conn, rematch, first_deal)
            self._notify(conn, game_id, "r")
        return True

    def load(
        self, game_id: str, after: int = 0
    ) -> tuple[MatchRow, list[ActionRow], list[DealRow]] | None:
        """A game, its actions in order (those numbered after ``after``: a process bringing
        its copy up to date) and its deals' shuffles, or None if there is no such game."""
        with self._reader.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).first()
            if row is None:
                return None
            seat_rows = conn.execute(
                select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat)
            ).all()
            action_rows = conn.execute(
                select(actions)
                .where(actions.c.game_id == game_id, actions.c.seq > after)
                .order_by(actions.c.seq)
            ).all()
            deal_rows = conn.execute(
                select(deals).where(deals.c.game_id == game_id).order_by(deals.c.deal)
            ).all()
        return (
            _game_row(row, seat_rows),
            [ActionRow(a.seq, a.deal, a.player, a.action) for a in action_rows],
            [_deal_row(d) for d in deal_rows],
        )

    def lobby(self, limit: int = 30) -> dict[str, list[dict[str, Any]]]:
        """Public games with a person's seat free (``open``), and public games being played.

        Each game: ``id``, ``mode``, ``level``, ``rules``, ``size`` (its seats), ``free`` (how
        many of them are free), ``players`` (each seat's name, ``""`` while free) and
        ``seats``: for each seat its ``kind`` (``human`` or ``bot``), ``name``, ``level``
        (a computer seat's) and whether it is ``free``.  Never a token or an invitation.
        """
        out: dict[str, list[dict[str, Any]]] = {}
        with self.engine.connect() as conn:
            for status in ("open", "playing"):
                rows = conn.execute(
                    select(games.c.id, games.c.mode, games.c.level, games.c.rules, games.c.updated)
                    .where(games.c.status == status, games.c.public == true())
                    .order_by(games.c.updated.desc())
                    .limit(limit)
                ).all()
                ids = [r.id for r in rows]
                found: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
                level_of = {r.id: r.level for r in rows}
                if ids:
                    for s in conn.execute(
                        select(
                            seats.c.game_id,
                            seats.c.seat,
                            seats.c.kind,
                            seats.c.name,
                            seats.c.joined,
                            seats.c.level,
                        )
                        .where(seats.c.game_id.in_(ids))
                        .order_by(seats.c.game_id, seats.c.seat)
                    ):
                        free = s.joined is None
                        bot = s.kind == "bot"
                        found[s.game_id].append(
                            {
                                "kind": s.kind,
                                "name": "" if free else s.name,
                                "level": (s.level or level_of[s.game_id]) if bot else None,
                                "free": free,
                            }
                        )
                out[status] = [
                    {
                        "id": r.id,
                        "mode": r.mode,
                        "level": r.level,
                        "rules": r.rules,
                        "size": len(found[r.id]),
                        "free": sum(s["free"] for s in found[r.id]),
                        "players": [s["name"] for s in found[r.id]],
                        "seats": found[r.id],
                    }
                    for r in rows
                ]
        return out

    def records(self, game_id: str) -> list[tuple[int, str, str]]:
        """The finished deals of a game: (deal, result, record text)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(records).where(records.c.game_id == game_id).order_by(records.c.deal)
            ).all()
        return [(r.deal, r.result, r.record) for r in rows]


def _game_row(row: Any, seat_rows: Sequence[Any]) -> MatchRow:
    seat_list = [
        SeatRow(s.seat, s.kind, s.name, s.token_hash, s.joined is not None, s.level, s.invite_hash)
        for s in seat_rows
    ]
    return MatchRow(
        id=row.id,
        created=row.created,
        mode=row.mode,
        level=row.level,
        rules=row.rules,
        match_seed=row.match_seed,
        bot_seed=row.bot_seed,
        status=row.status,
        rematch_id=row.rematch_id,
        rematch_of=row.rematch_of,
        seats=tuple(seat_list),
        public=bool(row.public),
        fair=bool(row.fair),
        invite_only=bool(row.invite_only),
        hints=bool(row.hints),
    )


def _deal_row(d: Any) -> DealRow:
    return DealRow(d.deal, d.server_seed, d.commitment, tuple(json.loads(d.client_seeds)))


def _since_rows(rows: Sequence[Sequence[Any]]) -> tuple[list[ActionRow], list[DealRow]]:
    """The rows of :attr:`Store._SINCE` as actions and shuffles."""
    return (
        [ActionRow(r[1], r[2], r[3], r[4]) for r in rows if r[0] == "a"],
        [DealRow(r[1], r[4], r[5], tuple(json.loads(r[6]))) for r in rows if r[0] == "d"],
    )


def _deal_values(game_id: str, deal: DealRow) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "deal": deal.deal,
        "server_seed": deal.server_seed,
        "commitment": deal.commitment,
        "client_seeds": json.dumps(list(deal.client_seeds)),
    }


def _deal_params(game_id: str, deal: DealRow) -> dict[str, Any]:
    """The parameters of a shuffle's row in the raw PostgreSQL statements."""
    values = _deal_values(game_id, deal)
    values["game"] = values.pop("game_id")
    return values


def _deal_row_of(found: Sequence[Any]) -> DealRow:
    """A shuffle from a row of ``deal, server_seed, commitment, client_seeds``."""
    return DealRow(found[0], found[1], found[2], tuple(json.loads(found[3])))


def drive(conn: Any, steps: Steps[T]) -> T:
    """Run the statements ``steps`` yields on a psycopg connection, sending each one's rows
    back (none for a statement that returns none); what ``steps`` returns.

    :raises sqlalchemy.exc.IntegrityError: where a statement breaks a unique key.
    """
    import psycopg

    query, params = next(steps)
    while True:
        try:
            cursor = conn.execute(query, params)
        except psycopg.errors.UniqueViolation as exc:
            raise IntegrityError(query, params, exc) from exc
        rows = cursor.fetchall() if cursor.description else []
        try:
            query, params = steps.send(rows)
        except StopIteration as done:
            result: T = done.value
            return result


async def drive_async(conn: Any, steps: Steps[T]) -> T:
    """:func:`drive` on an asynchronous psycopg connection."""
    import psycopg

    query, params = next(steps)
    while True:
        try:
            cursor = await conn.execute(query, params)
        except psycopg.errors.UniqueViolation as exc:
            raise IntegrityError(query, params, exc) from exc
        rows = await cursor.fetchall() if cursor.description else []
        try:
            query, params = steps.send(rows)
        except StopIteration as done:
            result: T = done.value
            return result


def _migrate(conn: Connection) -> None:
    """Bring tables made by an earlier version up to date (the schema lock is held)."""
    have = {c["name"] for c in inspect(conn).get_columns("games")}
    if "public" not in have:
        # friends' games become private; games against the computer stay listed
        _add_false_column(conn, "public")
        conn.execute(update(games).where(games.c.mode == "bot").values(public=True))
    if "fair" not in have:  # games stored before fair shuffles deal from their match seed
        _add_false_column(conn, "fair")
    if "invite_only" not in have:  # their seats are taken by the game's id, as they were
        _add_false_column(conn, "invite_only")
    if "hints" not in have:  # every game stored so far gave hints
        _add_false_column(conn, "hints")
        conn.execute(update(games).values(hints=True))
    seat_columns = {c["name"] for c in inspect(conn).get_columns("seats")}
    for name, width in (("level", 16), ("invite_hash", 64)):
        if name not in seat_columns:
            quote = conn.dialect.identifier_preparer.quote
            conn.exec_driver_sql(f"ALTER TABLE seats ADD COLUMN {quote(name)} VARCHAR({width})")


def _add_false_column(conn: Connection, name: str) -> None:
    """Add a boolean column to ``games``, false for every game stored so far."""
    quote = conn.dialect.identifier_preparer.quote
    no = "false" if conn.dialect.name == "postgresql" else "0"
    conn.exec_driver_sql(
        f"ALTER TABLE games ADD COLUMN {quote(name)} BOOLEAN NOT NULL DEFAULT {no}"
    )


def _make_engine(url: str) -> Engine:
    if not url.startswith("sqlite"):
        parsed = make_url(url)
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        return create_engine(parsed, pool_pre_ping=True)
    path = url.split("///", 1)[1] if "///" in url else ""
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False}}
    if not path or path == ":memory:":
        kwargs["poolclass"] = StaticPool
    engine = create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
        # WAL with synchronous=NORMAL: a commit survives the process being killed.
        _switch_to_wal(cursor)
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


SQLITE_BUSY_MS = 5000
"""How long a SQLite connection waits for another one's lock before giving up."""


def _switch_to_wal(cursor: Any) -> None:
    """Put the database file in WAL mode, waiting out other connections doing the same.

    The switch needs the file to itself and SQLite does not wait for that, even with a busy
    timeout: when several servers open a new file at once, all but one are told it is locked.
    The mode is stored in the file, so once one of them has switched it the others see WAL.
    """
    deadline = time.monotonic() + SQLITE_BUSY_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)
