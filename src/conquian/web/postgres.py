"""The store on PostgreSQL: several server processes share one database.

The tables are made under an advisory lock; two processes cannot both store an action with
the same number (the primary key refuses the second); a match is read in one ``REPEATABLE
READ`` snapshot.  Every write to a match also sends a notification (``pg_notify``, in the same
transaction, so it is delivered only once the write has committed) on the store's
:attr:`PostgresStore.channel`: ``MATCH KIND NUMBER ORIGIN`` (``a`` an action and its number,
``s`` a seed and its deal, ``j`` a join, ``r`` a rematch; ``ORIGIN`` the writing store's
:attr:`~.store.Store.origin`), and the move itself for a move every player sees that ends no
deal; never a seed, a token, a hand or an exchange choice.  The other processes read what a
notification did not carry from the tables (:mod:`.notify`).  The seeds of a deal are fixed
when the deal is dealt: the transaction of the action that ends a deal locks the next deal's
shuffle and reads its seeds, and a seed for a deal already dealt is refused.

The statements of play (an action, a seat's seed, a deal's shuffle, and catching up on
another process's) are raw SQL on bare psycopg connections of the event loop
(:class:`AsyncStatements`), a few round trips each: SQLAlchemy's work around each statement,
and the hand-off to a storage thread and back, cost more CPU than the statement.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Generator, Sequence
from typing import Any, TypeVar

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from .clock import Clock
from .schema import ActionRow, DealRow, deal_row, deal_values
from .store import ActionEnd, Store
from .upgrade import check

_T = TypeVar("_T")
Steps = Generator[tuple[str, dict[str, Any]], list[tuple[Any, ...]], _T]
"""Statements run one after another (see :func:`drive`): a generator that yields each
statement and its parameters, is sent back the statement's rows, and returns a result."""

SCHEMA_LOCK = 0x636F6E7175
"""The advisory lock held while the tables are made (``conqu`` in ASCII)."""


class AsyncStatements:
    """A few asynchronous psycopg connections (autocommit) of one event loop, for the
    statements of every move: each is one round trip awaited in the loop.  A connection is
    taken for one statement (or one transaction) at a time; a broken one is dropped and
    another made for the next statement."""

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

    async def run(self, steps: Steps[_T], *, transaction: bool = False) -> _T:
        """Run the statements of ``steps`` on one connection, as :func:`drive` does
        (``transaction``: in one transaction, rolled back if one fails).

        :raises sqlalchemy.exc.IntegrityError: where a statement breaks a unique key.
        """
        import psycopg

        conn = await self._take()
        try:
            if not transaction:
                return await drive(conn, steps)
            async with conn.transaction():
                return await drive(conn, steps)
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


async def drive(conn: Any, steps: Steps[_T]) -> _T:
    """Run the statements ``steps`` yields on an asynchronous psycopg connection, sending
    each one's rows back (none for a statement that returns none); what ``steps`` returns.

    :raises sqlalchemy.exc.IntegrityError: where a statement breaks a unique key.
    """
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
            result: _T = done.value
            return result


class PostgresStore(Store):
    """A PostgreSQL database, shared by one or several server processes."""

    threads = 4
    """Storage threads (the matches' commits overlap)."""

    def __init__(self, url: str, engine: Engine) -> None:
        super().__init__(url, engine)
        with self.engine.connect() as conn:
            schema = conn.execute(text("select current_schema()")).scalar()
        self.channel = "conquian." + re.sub(r"[^A-Za-z0-9_]", "_", str(schema))[:50]
        self._snapshots = self.engine.execution_options(isolation_level="REPEATABLE READ")
        self._async: dict[asyncio.AbstractEventLoop, AsyncStatements] = {}

    def _lock_schema(self, conn: Connection) -> None:
        conn.execute(text("select pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})

    def _bring_up_to_date(self, conn: Connection) -> None:
        """A database several processes and releases share is upgraded by ``conquian db
        upgrade`` alone: one that is behind is refused (:class:`.upgrade.DatabaseBehind`)."""
        check(conn)

    def _notify(self, conn: Connection, match_id: str, kind: str, number: int = 0) -> None:
        conn.execute(
            text("select pg_notify(:channel, :payload)"),
            {"channel": self.channel, "payload": f"{match_id} {kind} {number} {self.origin}"},
        )

    def _reader(self) -> Engine:
        return self._snapshots

    def statements(self) -> AsyncStatements:
        """The asynchronous connections of the running event loop (made on first use)."""
        loop = asyncio.get_running_loop()
        found = self._async.get(loop)
        if found is None:
            found = self._async[loop] = AsyncStatements(self.url)
        return found

    async def close(self) -> None:
        for statements in self._async.values():
            await statements.close()
        self._async.clear()
        await super().close()

    # ------------------------------------------------------------------ statements

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
    _SINCE = """
        SELECT 'a', seq, deal, player, action, NULL, NULL FROM actions
        WHERE game_id = %(game)s AND seq > %(after)s
        UNION ALL
        SELECT 'd', deal, NULL, NULL, server_seed, commitment, client_seeds FROM deals
        WHERE game_id = %(game)s AND deal >= %(deal)s
        ORDER BY 1, 2
    """

    async def add_action(
        self,
        match_id: str,
        row: ActionRow,
        *,
        record: ActionEnd | None = None,
        status: str | None = None,
        next_deal: DealRow | None = None,
        announce: bool = False,
    ) -> DealRow | None:
        steps = self._action_steps(match_id, row, record, status, next_deal, announce)
        transaction = record is not None or next_deal is not None
        return await self.statements().run(steps, transaction=transaction)

    def _action_steps(
        self,
        match_id: str,
        row: ActionRow,
        record: ActionEnd | None,
        status: str | None,
        next_deal: DealRow | None,
        announce: bool,
    ) -> Steps[DealRow | None]:
        """The statements of :meth:`add_action` (one for a move that ends no deal, in its own
        transaction; otherwise a transaction of two)."""
        payload = f"{match_id} a {row.seq} {self.origin}"
        if announce:
            payload += f" {row.deal} {row.player} {row.action}"
        params = {
            "game": match_id,
            "seq": row.seq,
            "deal": row.deal,
            "player": row.player,
            "action": row.action,
            "at": time.time(),
            "status": status,
            "channel": self.channel,
            "payload": payload,
        }
        if record is None and next_deal is None:
            yield self._ADD_ACTION, params
            return None
        record_deal, result, text = record if record is not None else (None, None, None)
        shuffle = _deal_params(match_id, next_deal) if next_deal is not None else {}
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
        return deal_row(found)

    _SAVE_CLOCK = """
        INSERT INTO clocks (game_id, seq, seat, started, due, state)
        VALUES (%(game)s, %(seq)s, %(seat)s, %(started)s, %(due)s, %(state)s)
        ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, seat = excluded.seat,
            started = excluded.started, due = excluded.due, state = excluded.state
    """
    _END_CLOCK = """
        WITH gone AS (DELETE FROM clocks WHERE game_id = %(game)s)
        DELETE FROM presence WHERE game_id = %(game)s
    """

    async def save_clock(self, game_id: str, clock: Clock | None) -> None:
        """A game's clock (:meth:`.queue.QueueStorage.save_clock`), as one statement of the
        event loop: a move's clock is stored before the move is shown."""
        if clock is None:
            await self.statements().execute(self._END_CLOCK, {"game": game_id})
            return
        params = {
            "game": game_id,
            "seq": clock.seq,
            "seat": clock.seat,
            "started": clock.started,
            "due": clock.due,
            "state": clock.to_text(),
        }
        await self.statements().execute(self._SAVE_CLOCK, params)

    async def add_deal(self, match_id: str, deal: DealRow) -> DealRow:
        return await self.statements().run(self._deal_steps(match_id, deal))

    def _deal_steps(self, match_id: str, deal: DealRow) -> Steps[DealRow]:
        params = _deal_params(match_id, deal)
        found = yield self._PUT_DEAL, params
        if not found:  # stored first by another process
            found = yield self._GET_DEAL, params
        return deal_row(found[0])

    async def add_client_seed(
        self, match_id: str, deal: int, seat: int, seed: str
    ) -> DealRow | None:
        steps = self._seed_steps(match_id, deal, seat, seed)
        return await self.statements().run(steps, transaction=True)

    def _seed_steps(self, match_id: str, deal: int, seat: int, seed: str) -> Steps[DealRow | None]:
        """The transaction of :meth:`add_client_seed`: the deal's row is locked first, so
        the transaction of the action that ends the deal before waits for it (and reads the
        seed), or it sees that action's record (and refuses the seed)."""
        params = {"game": match_id, "deal": deal}
        found = yield self._LOCK_DEAL, params
        if not found:
            return None
        shuffle = deal_row(found[0])
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
                "payload": f"{match_id} s {deal} {self.origin}",
            },
        )
        if not changed:  # the deal before it ended meanwhile: this deal is dealt
            return None
        return DealRow(shuffle.deal, shuffle.server_seed, shuffle.commitment, tuple(seeds))

    async def since(
        self, match_id: str, after: int, deal: int
    ) -> tuple[list[ActionRow], list[DealRow]]:
        rows = await self.statements().execute(
            self._SINCE, {"game": match_id, "after": after, "deal": deal}
        )
        return _since_rows(rows)


def _since_rows(rows: Sequence[Sequence[Any]]) -> tuple[list[ActionRow], list[DealRow]]:
    """The rows of :attr:`PostgresStore._SINCE` as actions and shuffles."""
    return (
        [ActionRow(r[1], r[2], r[3], r[4]) for r in rows if r[0] == "a"],
        [DealRow(r[1], r[4], r[5], tuple(json.loads(r[6]))) for r in rows if r[0] == "d"],
    )


def _deal_params(match_id: str, deal: DealRow) -> dict[str, Any]:
    """The parameters of a shuffle's row in the statements."""
    values = deal_values(match_id, deal)
    values["game"] = values.pop("game_id")
    return values
