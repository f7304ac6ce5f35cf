"""Limits that keep one client from holding the server (the second audit's L10 and its
item 3): a request's headers and body have deadlines, a websocket must say hello in time,
one address may hold so many websockets at once, and one connection may send so many
messages a second.  Each refused client is told why; the others go on."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from limits import parse_many
from starlette.testclient import TestClient
from web_helpers import hello, strict_json

from conquian.web import deadlines, security
from conquian.web import http as http_module
from conquian.web import websocket as socket_module
from conquian.web.app import create_app
from conquian.web.deadlines import HeaderDeadline

WAIT = 60.0
"""The bound of every wait (never the pass condition)."""


@contextmanager
def real_server(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """uvicorn in a thread of this process, with the deadline protocol, on a fresh port."""
    listener = socket.create_server(("127.0.0.1", 0))
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", bot_delay=0)
    config = uvicorn.Config(app, http=HeaderDeadline, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()
    finally:
        server.should_exit = True
        thread.join(WAIT)
        listener.close()


def answer_of(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    sock.settimeout(WAIT)
    got = bytearray()
    while chunk := sock.recv(65536):
        got += chunk
    return bytes(got)


def test_headers_that_trickle_are_cut_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deadlines, "HEADER_SECONDS", 0.5)
    with real_server(tmp_path) as address, closing(socket.create_connection(address)) as slow:
        slow.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
        with closing(socket.create_connection(address)) as quick:
            quick.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert answer_of(quick).startswith(b"HTTP/1.1 200")
        assert answer_of(slow) == b""  # closed, having sent nothing


def test_a_body_that_trickles_is_a_408(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http_module, "BODY_SECONDS", 0.5)
    with real_server(tmp_path) as address, closing(socket.create_connection(address)) as slow:
        slow.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        answer = answer_of(slow)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"did not arrive whole" in answer


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with TestClient(create_app(url, bot_delay=0, rate_limit="20/minute")) as c:
        yield c


def friend_game(client: TestClient) -> dict[str, Any]:
    made: dict[str, Any] = client.post("/api/games", json={"mode": "friend", "name": "Ana"}).json()
    return made


def test_a_websocket_that_never_says_hello_is_closed(
    limited: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(socket_module, "HELLO_SECONDS", 0.5)
    made = friend_game(limited)
    with limited.websocket_connect(f"/ws/{made['id']}") as ws:
        said = strict_json(ws.receive_text())
        assert said["type"] == "error" and "hello" in said["message"]
        closed = ws.receive()
        assert closed["type"] == "websocket.close" and closed["code"] == 1008
    with limited.websocket_connect(f"/ws/{made['id']}") as ws:  # one that says it stays
        ws.send_text(hello(made["token"]))
        assert strict_json(ws.receive_text())["type"] == "state"
        ws.send_text(json.dumps({"type": "ping", "id": 1}))
        while (said := strict_json(ws.receive_text()))["type"] != "pong":
            assert said["type"] == "state"


def test_one_address_may_hold_so_many_websockets(
    limited: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(socket_module, "MAX_SOCKETS", 3)
    monkeypatch.setattr(security, "MAX_SOCKETS", 3)
    made = friend_game(limited)
    path = f"/ws/{made['id']}"
    held = [limited.websocket_connect(path) for _ in range(3)]
    for ws in held:
        ws.__enter__()
        ws.send_text(hello())
        assert strict_json(ws.receive_text())["type"] == "state"
    with limited.websocket_connect(path) as extra:
        said = strict_json(extra.receive_text())
        assert said["type"] == "error" and "at most 3" in said["message"]
        assert extra.receive()["code"] == 1008
    held.pop().__exit__(None, None, None)
    with limited.websocket_connect(path) as again:  # one closed: room for one more
        again.send_text(hello())
        assert strict_json(again.receive_text())["type"] == "state"
    for ws in held:
        ws.__exit__(None, None, None)
    assert limited.app.state.limits.sockets == {}  # type: ignore[attr-defined]


def test_one_connection_may_send_so_many_messages_a_second(
    limited: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    hourly = parse_many("20/hour")[0]  # the same count, over a window no test run straddles
    monkeypatch.setattr(security, "MESSAGE_RATE", hourly)
    monkeypatch.setattr(socket_module, "MESSAGE_RATE", hourly)
    made = friend_game(limited)
    with limited.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_text(hello(made["token"]))
        sent = 2 * security.MESSAGE_RATE.amount
        for number in range(sent):
            ws.send_text(json.dumps({"type": "ping", "id": number}))
        pongs, refusals = 0, 0
        while pongs + refusals < sent:
            said = strict_json(ws.receive_text())
            if said["type"] == "pong":
                pongs += 1
            elif said["type"] == "error":
                assert "Too many messages" in said["message"]
                refusals += 1
        assert (pongs, refusals) == (19, 21)  # the hello was the first of the twenty
