"""The websocket endpoint, ``/ws/{id}``: a client's hello, its messages in turn, what it is
sent, and the limits one connection lives within (a hello in :data:`HELLO_SECONDS`, so many
connections per address and messages a second, the longest message).

The client's first message says who it is: ``{"type": "hello", "token": ...}`` for a seat,
``{"type": "hello", "mine": true}`` for the seat of its cookie's player (from any browser he
signs in on), ``{"type": "hello"}`` to watch; every problem is answered with an error message, and the
connection goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..present.i18n import speaking
from . import messages
from .conn import Conn
from .hub import Hub
from .identity import current_player
from .languages import SCOPE_KEY, WEB_WORDS
from .requests import UserError, echo_id, read_hello
from .room import Room
from .security import MAX_SOCKETS, MESSAGE_RATE, JsonError, RateLimits, dumps, loads

log = logging.getLogger("conquian.web")
_ = WEB_WORDS.gettext

MAX_MESSAGE = 4096
"""The longest websocket message (in characters) or request body (in bytes) accepted."""
CLOSE_BEHIND = 1008
"""The websocket close code for a client that fell too far behind (policy violation)."""
CLOSE_WAIT = 30.0
"""Seconds to wait for the close frame to get through to a client that fell behind."""
HELLO_SECONDS = 30.0
"""Seconds a new websocket connection has to say hello before it is closed."""

HELLO = '{"type": "hello", "token": "<your seat token>"}'
WATCH = '{"type": "hello"}'


async def match_socket(websocket: WebSocket) -> None:
    """Play or watch one game; every problem is answered with an error message.

    The client's first message says who it is: ``{"type": "hello", "token": ...}`` for a
    seat, ``{"type": "hello"}`` to watch.  A client that falls too far behind reading what
    it is sent is closed with :data:`CLOSE_BEHIND`; it may connect again to resume.  Every
    word it is sent is in its connection's language (:attr:`.hub.Conn.lang`).
    """
    problem = websocket.app.state.origins.cross_site(websocket.headers)
    if problem is not None:
        await websocket.close(code=1008)  # before the handshake: an HTTP 403
        return
    hub: Hub = websocket.app.state.hub
    match_id = websocket.path_params["match_id"]
    room: Room | None
    missing = ""
    try:
        room = await hub.get(match_id)
    except UserError as exc:
        room = None
        missing = str(exc)
    limits: RateLimits = websocket.app.state.limits
    client = websocket.client.host if websocket.client else "unknown"
    if not limits.open_socket(client):
        await websocket.accept()
        said = _("Too many connections from your address (at most {most}).").format(
            most=MAX_SOCKETS
        )
        await websocket.send_text(dumps({"type": "error", "message": said}))
        await websocket.close(code=1008, reason="too many connections")
        if room is not None:
            hub.release(room)
        return
    try:
        await _serve_socket(websocket, hub, match_id, room, missing)
    finally:
        limits.close_socket(client)


async def _serve_socket(
    websocket: WebSocket, hub: Hub, match_id: str, room: Room | None, missing: str
) -> None:
    """:func:`match_socket` once the connection is allowed."""
    await websocket.accept()
    if "token" in websocket.query_params:
        said = _(
            "Send the seat token in the first message, not in the URL: first send {hello} "
            "(or {watch} to watch)"
        ).format(hello=HELLO, watch=WATCH)
        await websocket.send_text(dumps({"type": "error", "message": said}))
        await websocket.close(code=1008, reason="token in the URL")
        if room is not None:
            hub.release(room)
        return
    conn = Conn(None, lang=websocket.scope.get(SCOPE_KEY, "en"))
    greeted = False
    loop = asyncio.get_running_loop()
    reader = _Reader(websocket, conn)
    conn.on_behind = reader.stop
    writer = loop.create_task(_writer(websocket, conn))
    if room is None:
        conn.send({"type": "error", "message": missing})
    limits: RateLimits = websocket.app.state.limits
    key = str(id(conn))
    hello_by = loop.time() + HELLO_SECONDS
    try:
        while True:
            if greeted:
                message = await reader.next()
            else:
                try:
                    async with asyncio.timeout_at(hello_by):
                        message = await reader.next()
                except TimeoutError:
                    await _close_silent(websocket, conn)
                    break
            if message is None or message["type"] == "websocket.disconnect":
                break
            with speaking(conn.lang):
                if not limits.message(key):
                    said = _("Too many messages: at most {most} a second.")
                    conn.send({"type": "error", "message": said.format(most=MESSAGE_RATE.amount)})
                    continue
                room, greeted = await _message(
                    hub, room, conn, message, greeted, missing, websocket
                )
    except WebSocketDisconnect:
        pass
    finally:
        if room is not None:
            if greeted:
                hub.disconnect(room, conn)
            else:
                hub.release(room)
        writer.cancel()
    if conn.behind:
        log.warning(
            "match %r: a client fell too far behind reading its messages; closing its connection",
            match_id[:40],
        )
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                websocket.close(code=CLOSE_BEHIND, reason="too far behind: connect again"),
                CLOSE_WAIT,
            )


async def _close_silent(websocket: WebSocket, conn: Conn) -> None:
    """Close a connection that did not say hello in :data:`HELLO_SECONDS`."""
    with speaking(conn.lang):
        said = _("Say who you are: first send {hello} (or {watch} to watch).").format(
            hello=HELLO, watch=WATCH
        )
    with contextlib.suppress(Exception):
        await websocket.send_text(dumps({"type": "error", "message": said}))
        await asyncio.wait_for(websocket.close(code=1008, reason="no hello"), CLOSE_WAIT)


async def _message(
    hub: Hub,
    room: Room | None,
    conn: Conn,
    message: Message,
    greeted: bool,
    missing: str,
    websocket: WebSocket,
) -> tuple[Room | None, bool]:
    """One message from the client, answered in the connection's language; returns the match
    and whether the client has said hello."""
    text = message.get("text")
    if text is None:
        conn.send({"type": "error", "message": _("Send JSON text messages, not binary.")})
        return room, greeted
    if len(text) > MAX_MESSAGE:
        said = _("The message is too long ({length} characters; at most {most}).")
        conn.send({"type": "error", "message": said.format(length=len(text), most=MAX_MESSAGE)})
        return room, greeted
    try:
        data = loads(text)
    except JsonError as exc:
        conn.send({"type": "error", "message": exc.words("message")})
        return room, greeted
    if room is None:
        conn.send({"type": "error", "message": missing})
        return room, greeted
    try:
        if isinstance(data, dict) and data.get("type") == "hello":
            if greeted:
                raise UserError(_("This connection has said hello already."))
            hello = read_hello(data)
            player = None
            if hello.mine and not hello.token:  # the seat of the cookie's player
                player = await current_player(websocket, hub.store)
            room = await hub.hello(room, conn, hello, None if player is None else player.id)
            greeted = True
        elif not greeted:
            raise UserError(
                _("Say who you are: first send {hello} (or {watch} to watch).").format(
                    hello=HELLO, watch=WATCH
                )
            )
        else:
            await hub.handle(room, conn, data)
    except UserError as exc:
        has_id = isinstance(data, dict) and "id" in data
        msg_id = echo_id(data["id"]) if has_id else None
        conn.send(messages.error(exc, msg_id, with_id=has_id))
    return room, greeted


class _Reader:
    """Reads a connection's messages in the task that serves it; stops at once (``next``
    returns None) when the client falls too far behind reading what it is sent
    (:attr:`.conn.Conn.on_behind`), whether the task is waiting for a message then (that wait
    is cancelled) or handling one (it stops before the next)."""

    def __init__(self, websocket: WebSocket, conn: Conn) -> None:
        self.websocket = websocket
        self.conn = conn
        self.task = asyncio.current_task()
        self.waiting = False

    async def next(self) -> Message | None:
        """The next message from the client; None once it fell behind."""
        if self.conn.behind:
            return None
        self.waiting = True
        try:
            return await self.websocket.receive()
        except asyncio.CancelledError:
            if not self.conn.behind or self.task is None:
                raise
            self.task.uncancel()  # the writer stopped the wait: the client fell behind
            return None
        finally:
            self.waiting = False

    def stop(self) -> None:
        """The client fell behind: stop waiting for its next message."""
        if self.waiting and self.task is not None:
            self.task.cancel()


async def _writer(websocket: WebSocket, conn: Conn) -> None:
    with contextlib.suppress(Exception):
        while (text := await conn.next_message()) is not None:
            await websocket.send_text(text)
