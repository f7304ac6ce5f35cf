"""Notifications between server processes that share one PostgreSQL database.

Every write to a game is followed, in its own transaction, by a ``pg_notify`` on the store's
channel (:attr:`.store.Store.channel`), so the notification is delivered only once the write
has committed, and never for a write that failed.  Its payload is ``GAME KIND NUMBER ORIGIN``:
the game's id, ``a`` (an action and its number), ``s`` (a seed and its deal), ``j`` (a join
and its seat) or ``r`` (a rematch), and the writing process's :attr:`.store.Store.origin`;
or a quick-match ticket's id and ``q``: it was seated (the waiting requests wake).
A process that has the game in memory reads what changed from the tables and applies it
(:meth:`.hub.Hub.refresh`).  The notification of an action that every player sees and that
ends no deal also carries it, ``DEAL PLAYER ACTION`` after the origin, so that the other
processes apply it without reading it back.  A notification never holds a seed, a token,
a hand, or an exchange choice (which only its player sees): any session connected to the
database may listen on the channel.

:class:`Listener` holds one connection (psycopg 3, asynchronous, autocommit) that listens on
the channel and hands each notification to a callback in the server's event loop.  If the
connection is lost it connects again (waiting a little longer each time, at most
:data:`RETRY_MAX` seconds) and then calls ``on_reconnect``: notifications sent meanwhile were
lost, so every game in memory must be read again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import make_url

log = logging.getLogger("conquian.web")

RETRY_MIN = 0.2
"""Seconds before the first attempt to connect again."""
RETRY_MAX = 5.0
"""The longest wait between two attempts to connect again."""
KEEPALIVE = "keepalives=1 keepalives_idle=10 keepalives_interval=5 keepalives_count=3"
"""TCP keepalives: a listening connection whose database went away is noticed in ~25 s."""


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as libpq takes it (``postgresql://...``)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


Change = tuple[str, str, int, str, tuple[int, int, str] | None]
"""A notification read: game, kind, number, origin, and the action it carries (deal,
player and its text) or None."""


def parse(payload: str) -> Change | None:
    """The parts of a payload; None if it is not one of ours.

    >>> parse("g1 a 7 3f2e"), parse("g1 a 8 3f2e 1 0 take 5c6c7c")
    (('g1', 'a', 7, '3f2e', None), ('g1', 'a', 8, '3f2e', (1, 0, 'take 5c6c7c')))
    >>> parse("g1 a x 3f2e") is None
    True
    """
    parts = payload.split(" ", 6)
    if len(parts) not in (4, 7) or not _number(parts[2]):
        return None
    row = None
    if len(parts) == 7:
        if not (_number(parts[4]) and _number(parts[5])):
            return None
        row = (int(parts[4]), int(parts[5]), parts[6])
    return parts[0], parts[1], int(parts[2]), parts[3], row


class Listener:
    """Listen on ``channel`` of the database at ``url``; ``on_change(game, kind, number,
    origin, action)`` for each notification (see :func:`parse`), ``on_reconnect()`` after the
    connection was lost."""

    def __init__(
        self,
        url: str,
        channel: str,
        on_change: Callable[[str, str, int, str, tuple[int, int, str] | None], None],
        on_reconnect: Callable[[], None],
    ) -> None:
        self.url = libpq_url(url)
        self.channel = channel
        self.on_change = on_change
        self.on_reconnect = on_reconnect
        self._task: asyncio.Task[None] | None = None
        self._conn: Any = None
        self.connected = asyncio.Event()
        """Set while the listening connection is up."""

    async def start(self) -> None:
        """Connect and listen (raises if the first connection fails), then run in the
        background."""
        await self._connect()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._drop()

    async def _connect(self) -> None:
        import psycopg
        from psycopg import sql

        conninfo = psycopg.conninfo.make_conninfo(self.url, connect_timeout=10)
        conn = await psycopg.AsyncConnection.connect(f"{conninfo} {KEEPALIVE}", autocommit=True)
        try:
            await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
        except BaseException:
            await conn.close()
            raise
        self._conn = conn
        self.connected.set()

    async def _drop(self) -> None:
        self.connected.clear()
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()

    async def _run(self) -> None:
        wait = RETRY_MIN
        while True:
            try:
                if self._conn is None:
                    await self._connect()
                    log.warning("listening for other server processes' changes again")
                    wait = RETRY_MIN
                    self.on_reconnect()
                await self._listen()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("the notification connection failed (%s); connecting again", exc)
            await self._drop()
            await asyncio.sleep(wait)
            wait = min(wait * 2, RETRY_MAX)

    async def _listen(self) -> None:
        """Hand on the notifications as they come, until the connection fails (raised).

        The connection's socket stays registered with the event loop, which calls
        :meth:`_readable` when the database has sent something: one callback for all the
        notifications that came together, rather than a wait set up and torn down for each."""
        loop = asyncio.get_running_loop()
        lost: asyncio.Future[None] = loop.create_future()
        fd = self._conn.pgconn.socket
        loop.add_reader(fd, self._readable, lost)
        try:
            self._readable(lost)
            await lost
        finally:
            loop.remove_reader(fd)

    def _readable(self, lost: asyncio.Future[None]) -> None:
        import psycopg

        pgconn = self._conn.pgconn
        try:
            pgconn.consume_input()
        except psycopg.Error as exc:
            if not lost.done():
                lost.set_exception(exc)
            return
        while (note := pgconn.notifies()) is not None:
            found = parse(note.extra.decode("utf-8", "replace"))
            if found is not None:
                try:
                    self.on_change(*found)
                except Exception:
                    log.exception("a change notification could not be handled")
        if pgconn.status != psycopg.pq.ConnStatus.OK and not lost.done():
            lost.set_exception(psycopg.OperationalError("the listening connection was closed"))


def _number(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits that ``int`` reads at once."""
    return text.isascii() and text.isdigit() and len(text) <= 18
