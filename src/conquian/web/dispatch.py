"""``conquian serve --workers N``: each game's connections go to one worker.

The supervisor accepts every connection itself, looks at the first line of its request
without reading it (``MSG_PEEK``), and hands the socket to a worker (``SCM_RIGHTS`` over a
Unix socket pair): a request whose path names a game (``/ws/ID``, ``/api/games/ID/...``) goes
to the worker that game's id hashes to, any other to the workers in turn.  Both players of a
game, and its spectators, are then served by one process, which builds every view itself
instead of learning each move from another process through the database.  Nothing depends
on it for correctness: while the game's worker is down (killed, being started again) its
connections go to another, and processes still tell each other every change (see
:mod:`.notify`), as separate servers behind a proxy do.

The worker runs uvicorn with no listening socket of its own (:class:`HandedServer`): each
socket it is handed becomes a connection of its server, with the same protocol, limits and
shutdown as one it had accepted.

>>> game_of(b"GET /ws/6f1c2a9b HTTP/1.1\\r\\nHost: x\\r\\n")
'6f1c2a9b'
>>> game_of(b"POST /api/games/6f1c2a9b/join HTTP/1.1\\r\\n")
'6f1c2a9b'
>>> game_of(b"POST /api/games HTTP/1.1\\r\\n") is None
True
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
import selectors
import socket
import time
import zlib
from collections import deque
from typing import Any

import uvicorn

PEEK_BYTES = 1024
"""How much of a request the supervisor looks at: its first line, or this much of it."""
PEEK_SECONDS = 2.0
"""How long the supervisor waits for a request's first line before handing the connection
to the next worker in turn (which then applies its own limits to a slow client)."""
ACCEPT_PAUSE = 1.0
"""Seconds without accepting after an accept failed for want of resources (as asyncio does)."""
RECHECK_FIRST = 0.01
"""Seconds before a connection whose first line came in part is looked at again (doubling
each time up to :data:`RECHECK_MOST`): its socket stays readable meanwhile, and watching it
would spin the supervisor."""
RECHECK_MOST = 0.25
MAX_QUEUED = 4096
"""Connections that may wait for one worker to take them; beyond, the next worker's turn."""
MAX_WAITING = 1024
"""Connections that may wait for their first line at once; beyond, one is handed on as
soon as it is accepted."""

_GAME_PATH = re.compile(rb"^[A-Z]{3,8} /(?:ws|api/games)/([A-Za-z0-9_-]{1,64})(?:[/? ]|$)")


def game_of(head: bytes) -> str | None:
    """The game id a request's first line names in its path, if any."""
    found = _GAME_PATH.match(head)
    return found.group(1).decode("ascii") if found else None


def worker_for(game_id: str, workers: int) -> int:
    """The worker (0 to ``workers`` - 1) whose turn a game's connections are: the same in
    every run, for every process.

    >>> worker_for("6f1c2a9b", 2), worker_for("IgD-juoQEjs", 2), worker_for("IgD-juoQEjs", 3)
    (0, 1, 2)
    """
    return zlib.crc32(game_id.encode("ascii")) % workers


class Dispatcher:
    """The supervisor's side: accepts connections and hands each to a worker.

    ``listener``: the bound, listening socket.  Each worker's end of its channel comes from
    :meth:`channel_for` before it is forked; :meth:`step` does the work of one wait.
    """

    def __init__(self, listener: socket.socket, workers: int) -> None:
        self.listener = listener
        self.workers = workers
        self.channels: list[socket.socket | None] = [None] * workers
        self.selector = selectors.DefaultSelector()
        self.waiting: dict[socket.socket, float] = {}
        """Connections whose first line has not come yet, with when to stop waiting."""
        self.resting: dict[socket.socket, tuple[float, float]] = {}
        """Waiting connections whose line came in part, not watched until a moment has
        passed: when to watch again, and the pause just taken."""
        self.turn = 0
        self.queued: list[deque[socket.socket]] = [deque() for _ in range(workers)]
        """Each worker's connections not yet passed to it."""
        self.writing: set[socket.socket] = set()
        """The channels waited on for room."""
        self.paused_until: float | None = None
        """While accepting fails (no file descriptors left): when to try again."""
        listener.setblocking(False)
        self.selector.register(listener, selectors.EVENT_READ, self._accept)

    def channel_for(self, number: int) -> socket.socket:
        """A new channel to worker ``number`` (0-based); returns the worker's end, which the
        caller closes once the worker is forked."""
        self.worker_gone(number)
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        mine.setblocking(False)
        self.channels[number] = mine
        return theirs

    def worker_gone(self, number: int) -> None:
        """Worker ``number`` stopped: hand it nothing until it has a new channel; the
        connections still queued for it go to the others."""
        old = self.channels[number]
        if old is not None:
            if old in self.writing:
                self.writing.discard(old)
                self.selector.unregister(old)
            old.close()
            self.channels[number] = None
        left, self.queued[number] = self.queued[number], deque()
        for conn in left:
            self._hand_on(conn, (number + 1) % self.workers)

    def stop_accepting(self) -> None:
        """No new connections (the server is stopping): those not yet handed on are closed."""
        self.paused_until = None
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(self.listener)
        for conn in list(self.waiting):
            self._drop(conn)

    def close(self) -> None:
        """Close everything this holds (in the supervisor at its end, or in a new worker,
        which inherits it all).  Nothing is unregistered first: a forked worker shares the
        supervisor's epoll instance, and would take the sockets out of the supervisor's."""
        queued = [c for queue in self.queued for c in queue]
        for sock in [*self.waiting, *queued, *(c for c in self.channels if c is not None)]:
            sock.close()
        self.waiting.clear()
        self.resting.clear()
        self.queued = [deque() for _ in range(self.workers)]
        self.channels = [None] * self.workers
        self.writing.clear()
        self.selector.close()
        self.listener.close()

    def register(self, fileobj: Any, callback: Any) -> None:
        """Also wait for ``fileobj`` to be readable, and call ``callback()`` then."""
        self.selector.register(fileobj, selectors.EVENT_READ, callback)

    def step(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for something to do, and do it."""
        now = time.monotonic()
        if self.paused_until is not None:
            if self.paused_until <= now:
                self.paused_until = None
                self.selector.register(self.listener, selectors.EVENT_READ, self._accept)
            else:
                timeout = min(timeout, self.paused_until - now)
        if self.waiting:
            timeout = max(0.0, min(timeout, min(self.waiting.values()) - now))
        if self.resting:
            timeout = max(0.0, min(timeout, min(at for at, _ in self.resting.values()) - now))
        for key, _events in self.selector.select(timeout):
            if key.data is None:  # a connection waiting for its first line
                self._peek(key.fileobj)
            else:
                key.data()
        now = time.monotonic()
        for conn, (at, _pause) in list(self.resting.items()):
            if at <= now:
                self.selector.register(conn, selectors.EVENT_READ, None)
                self.resting[conn] = (math.inf, self.resting[conn][1])
        for conn, until in list(self.waiting.items()):
            if until <= now:
                self._hand_on(conn, None)

    def _accept(self) -> None:
        for _ in range(64):  # what came at once, without starving the rest
            try:
                conn, _address = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # out of file descriptors, say: accept again in a while
                self.selector.unregister(self.listener)
                self.paused_until = time.monotonic() + ACCEPT_PAUSE
                return
            conn.setblocking(False)
            if len(self.waiting) >= MAX_WAITING:
                self._hand_on(conn, None)
                continue
            self.waiting[conn] = time.monotonic() + PEEK_SECONDS
            self.selector.register(conn, selectors.EVENT_READ, None)

    def _peek(self, conn: Any) -> None:
        try:
            head = conn.recv(PEEK_BYTES, socket.MSG_PEEK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self._drop(conn)
            return
        if not head:  # closed before it asked for anything
            self._drop(conn)
            return
        if b"\n" not in head and len(head) < PEEK_BYTES:  # the rest is on its way
            _at, pause = self.resting.get(conn, (0.0, RECHECK_FIRST / 2))
            pause = min(pause * 2, RECHECK_MOST)
            self.selector.unregister(conn)
            self.resting[conn] = (time.monotonic() + pause, pause)
            return
        game = game_of(head)
        self._hand_on(conn, None if game is None else worker_for(game, self.workers))

    def _hand_on(self, conn: socket.socket, number: int | None) -> None:
        """Give ``conn`` to worker ``number`` (None: the next in turn), or, while that one
        is down, to the next one that is up; closed if none is."""
        self._stop_waiting(conn)
        if number is None:
            number = self.turn
            self.turn = (self.turn + 1) % self.workers
        for step in range(self.workers):
            target = (number + step) % self.workers
            if self.channels[target] is not None and len(self.queued[target]) < MAX_QUEUED:
                self.queued[target].append(conn)
                if len(self.queued[target]) == 1:
                    self._send(target)
                return
        conn.close()

    def _send(self, number: int) -> None:
        """Pass worker ``number`` the connections queued for it, as many as its channel
        takes now (a Unix socket holds few messages: the rest wait until it has room)."""
        channel, queue = self.channels[number], self.queued[number]
        if channel is None:
            return
        while queue:
            try:
                socket.send_fds(channel, [b"c"], [queue[0].fileno()])
            except (BlockingIOError, InterruptedError):
                if channel not in self.writing:
                    self.writing.add(channel)
                    self.selector.register(
                        channel, selectors.EVENT_WRITE, lambda: self._send(number)
                    )
                return
            except OSError:  # the worker is gone: the supervisor hears of it soon
                return
            queue.popleft().close()  # the worker has its own copy now
        if channel in self.writing:
            self.writing.discard(channel)
            self.selector.unregister(channel)

    def _drop(self, conn: socket.socket) -> None:
        self._stop_waiting(conn)
        conn.close()

    def _stop_waiting(self, conn: socket.socket) -> None:
        """No more waiting for ``conn``'s first line (if it was waited for)."""
        if self.waiting.pop(conn, None) is not None:
            at, _pause = self.resting.pop(conn, (math.inf, 0.0))
            if at == math.inf:  # watched, not resting
                self.selector.unregister(conn)


class HandedServer(uvicorn.Server):
    """A uvicorn server whose connections are handed to it over ``channel`` (by the
    supervisor's :class:`Dispatcher`) instead of accepted from a socket of its own.  Run it
    with ``run(sockets=[])``.

    uvicorn's public API serves only sockets it accepts from, so each handed connection's
    protocol is made as uvicorn's own startup makes it (``config.http_protocol_class``,
    ``server_state``, ``lifespan.state``): the package pins uvicorn to the releases this was
    tested with (``pyproject.toml``)."""

    def __init__(self, config: uvicorn.Config, channel: socket.socket) -> None:
        super().__init__(config)
        self.channel = channel
        self._handed_tasks: set[asyncio.Task[None]] = set()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=[])
        loop = asyncio.get_running_loop()
        self.channel.setblocking(False)
        loop.add_reader(self.channel.fileno(), self._take_handed, loop)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        asyncio.get_running_loop().remove_reader(self.channel.fileno())
        await super().shutdown(sockets)

    def _handed_protocol(self, _loop: asyncio.AbstractEventLoop | None = None) -> asyncio.Protocol:
        # as uvicorn's startup makes each connection's protocol
        config = self.config
        protocol: asyncio.Protocol = config.http_protocol_class(  # type: ignore[call-arg]
            config=config,
            server_state=self.server_state,
            app_state=self.lifespan.state,
            _loop=_loop,
        )
        return protocol

    def _take_handed(self, loop: asyncio.AbstractEventLoop) -> None:
        while True:
            try:
                _data, fds, _flags, _address = socket.recv_fds(self.channel, 16, 4)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                fds, _data = [], b""
            if not fds:  # the supervisor is gone: stop
                loop.remove_reader(self.channel.fileno())
                self.should_exit = True
                return
            for fd in fds:
                conn = socket.socket(fileno=fd)
                if self.should_exit:
                    conn.close()
                    continue
                conn.setblocking(False)
                task = loop.create_task(self._adopt_handed(loop, conn))
                self._handed_tasks.add(task)
                task.add_done_callback(self._handed_tasks.discard)

    async def _adopt_handed(self, loop: asyncio.AbstractEventLoop, conn: socket.socket) -> None:
        try:
            await loop.connect_accepted_socket(self._handed_protocol, conn)
        except OSError:
            conn.close()
