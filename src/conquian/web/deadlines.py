"""Deadlines for slow HTTP clients: a request's headers must arrive whole in
:data:`HEADER_SECONDS`, counted from the connection (or the end of the answer before).

uvicorn closes an idle connection (``timeout_keep_alive``), but once one byte of a request
has come it waits for the rest for ever, so a client that trickles its headers a byte at a
time would hold a connection without end.  :class:`HeaderDeadline` is uvicorn's h11 protocol
with that deadline; a request's body has its own (:data:`.app.BODY_SECONDS`), and a websocket
its hello's (:data:`.app.HELLO_SECONDS`).  The package pins uvicorn to the releases this was
tested with (``pyproject.toml``).
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0
"""Seconds a request's headers have to arrive whole."""


class HeaderDeadline(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection whose request's headers do not
    arrive whole in :data:`HEADER_SECONDS`."""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_deadline()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the headers are in: the request is on
            self._stop_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._start_deadline()  # for the next request's headers

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_deadline()
        super().connection_lost(exc)

    def _start_deadline(self) -> None:
        self._stop_deadline()
        self._deadline = self.loop.call_later(HEADER_SECONDS, self._too_slow)

    def _stop_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()
