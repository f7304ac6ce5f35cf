"""The web server against hostile or careless clients: findings F3, F4, F6, F7 and F8 of the
reliability audit (shared/AUDIT-RELIABILITY.md).

* F4: a request body far over the limit is refused by its ``Content-Length`` (or, chunked,
  once the limit has arrived) without the server reading it into memory;
* F3: JSON nested too deeply is a 400, or an error message on a websocket that goes on;
* F6: a client that stops reading while it keeps sending is disconnected (close code
  1008) once too much waits for it, and comes back with a new connection;
* F8: ``NaN``, ``Infinity`` and ``1e999`` are refused, and the server never sends them;
* F7: the ``Origin`` of websockets and POSTs, JSON-only POSTs, rate limits on creating and
  joining games, security headers, the seat token out of the URL, private invitations.

The findings about the real server (body sizes, slow readers, headers, rate limits by
address) are tested on a real ``conquian serve`` process; the rest in-process.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import select
import socket
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx2 as httpx
import pytest
from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    insert,
)
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import TestDatabase, hello, strict_json, upgrade_database
from websockets.client import ClientProtocol
from websockets.exceptions import InvalidStatus
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.sync.client import connect
from websockets.uri import parse_uri

from conquian.tools.load import post, start_server

JSON = {"Content-Type": "application/json"}
WAIT = 90.0
"""The overall bound of every wait for the server (it is never the pass condition)."""


# ------------------------------------------------------------------ helpers


def memory_kb(pid: int, field: str) -> int:
    """A figure of /proc/PID/status in kB: ``VmRSS`` now, ``VmHWM`` its peak so far."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for process {pid}")


@contextmanager
def served(tmp_path: Path, *args: str) -> Iterator[tuple[str, Any, Path]]:
    """A real ``conquian serve`` process on a fresh SQLite file: base URL, process, log."""
    log = tmp_path / "server.log"
    proc, base = start_server(f"sqlite:///{tmp_path / 'games.sqlite3'}", log=log, args=args)
    try:
        yield base, proc, log
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any, Path]]:
    with served(tmp_path_factory.mktemp("hardening"), "--rate-limit", "off") as running:
        yield running


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    from conquian.web.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", bot_delay=0)) as c:
        yield c


@contextmanager
def seat_socket(client: TestClient, game_id: str, token: str | None = None) -> Iterator[Any]:
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        ws.send_text(hello(token))
        yield ws


def friend_game(client: TestClient, **fields: Any) -> tuple[str, str, str]:
    made = client.post("/api/games", json={"mode": "friend", "name": "Ana", **fields})
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    joined = client.post(f"/api/games/{game_id}/join", json={"name": "Ben"})
    assert joined.status_code == 200, joined.text
    with client.websocket_connect(f"/ws/{game_id}") as ws:  # Ben's hello deals the first deal
        ws.send_text(hello(joined.json()["token"]))
        assert next_of(ws, "state")["seat"] == 1
    return game_id, made.json()["token"], joined.json()["token"]


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind``, every message read checked to be strict JSON."""
    while True:
        message: dict[str, Any] = strict_json(ws.receive_text())
        if message["type"] == kind:
            return message


def goes_on(ws: Any, tag: str = "still") -> None:
    """The connection goes on: a ping gets its pong (every message before it strict JSON)."""
    ws.send_text(json.dumps({"type": "ping", "id": tag}))
    assert next_of(ws, "pong") == {"type": "pong", "id": tag}


# ------------------------------------------------------------------ F4: request bodies


def raw_request(
    base: str, head: bytes, chunks: Iterable[bytes]
) -> tuple[int, dict[str, str], bytes]:
    """Send a request on a plain socket, reading the answer while the body is still going out.

    The body stops as soon as the whole answer has arrived, or the server closed the
    connection.  Returns the status, the headers (lower-case names) and the answer's body.
    """
    url = urlsplit(base)
    answer = bytearray()
    done = threading.Event()

    def complete() -> bool:
        head_end = answer.find(b"\r\n\r\n")
        if head_end < 0:
            return False
        found = re.search(rb"\r\ncontent-length:\s*(\d+)", answer[:head_end], re.IGNORECASE)
        return found is not None and len(answer) >= head_end + 4 + int(found.group(1))

    with closing(socket.create_connection((url.hostname, url.port), timeout=WAIT)) as sock:

        def read() -> None:
            try:
                while not complete():
                    data = sock.recv(65536)
                    if not data:
                        break
                    answer.extend(data)
            except OSError:
                pass
            done.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            sock.sendall(head)
            for chunk in chunks:
                if done.is_set():
                    break
                sock.sendall(chunk)
        except OSError:  # the server closed the connection: it read no more
            pass
        assert done.wait(WAIT) and answer, "no answer from the server"
    head_text, _, body = bytes(answer).partition(b"\r\n\r\n")
    lines = head_text.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


MB = 1 << 20


def zeros(total: int, size: int = MB) -> Iterator[bytes]:
    block = b"0" * size
    for _ in range(total // size):
        yield block


def warm(base: str) -> None:
    """A few ordinary requests, so that the server's memory has settled before measuring."""
    for _ in range(3):
        post(f"{base}/api/games", {"mode": "friend", "name": "Warm"})
        httpx.get(f"{base}/api/lobby", timeout=WAIT).raise_for_status()


def test_a_huge_body_is_refused_by_its_length_before_it_is_read(
    server: tuple[str, Any, Path],
) -> None:
    base, proc, _ = server
    warm(base)
    before = memory_kb(proc.pid, "VmHWM")
    total = 200 * MB
    head = (
        f"POST /api/games HTTP/1.1\r\nHost: {urlsplit(base).netloc}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {total}\r\n\r\n"
    ).encode()
    status, headers, body = raw_request(base, head, zeros(total))
    grew = memory_kb(proc.pid, "VmHWM") - before
    assert grew < 8 * 1024, f"the server's peak memory grew by {grew} kB"
    assert status == 413, body[:200]
    assert "too large" in json.loads(body)["error"]
    assert headers.get("connection") == "close"  # it reads no more of this connection
    httpx.get(f"{base}/api/lobby", timeout=WAIT).raise_for_status()  # and it goes on


def test_a_huge_chunked_body_is_refused_once_the_limit_has_arrived(
    server: tuple[str, Any, Path],
) -> None:
    base, proc, _ = server
    warm(base)
    before = memory_kb(proc.pid, "VmHWM")
    head = (
        f"POST /api/games HTTP/1.1\r\nHost: {urlsplit(base).netloc}\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    ).encode()
    blocks = (b"%x\r\n%s\r\n" % (len(block), block) for block in zeros(200 * MB, 64 * 1024))
    status, _, body = raw_request(base, head, itertools.chain(blocks, [b"0\r\n\r\n"]))
    grew = memory_kb(proc.pid, "VmHWM") - before
    assert grew < 8 * 1024, f"the server's peak memory grew by {grew} kB"
    assert status == 413, body[:200]
    assert "too large" in json.loads(body)["error"]
    # a body just under the limit, chunked, is read as usual
    small = json.dumps({"mode": "friend", "name": "Ana", "rules": "standard" + " " * 4000})
    chunked = [small[i : i + 1000].encode() for i in range(0, len(small), 1000)]
    pieces = [b"%x\r\n%s\r\n" % (len(c), c) for c in chunked] + [b"0\r\n\r\n"]
    status, _, body = raw_request(base, head, pieces)
    assert status in (201, 400), body  # read whole: the rules spec is checked, not its size
    assert b"too large" not in body


# ------------------------------------------------------------------ F3: deep nesting

DEEP = "[" * 3000


def test_deeply_nested_json_is_a_400_over_http(client: TestClient) -> None:
    game_id, _, _ = friend_game(client)
    for url in ("/api/games", f"/api/games/{game_id}/join"):
        for body in (DEEP, "{" * 3000, '{"name":' + DEEP + "}"):
            answer = client.post(url, content=body, headers=JSON)
            assert answer.status_code == 400, (url, answer.status_code)
            error = strict_json(answer.text)["error"]
            assert error.startswith("The request body is not valid JSON"), error
            if body.startswith(("[", '{"name":')):
                assert error.endswith("it is nested too deeply."), error


def test_deeply_nested_json_on_the_websocket_is_an_error_and_the_connection_goes_on(
    client: TestClient,
) -> None:
    game_id, token, _ = friend_game(client)
    with seat_socket(client, game_id, token) as ws:
        next_of(ws, "state")
        for text in (DEEP, '{"type":"act","action":' + DEEP, '{"type":"ping","id":' + DEEP):
            ws.send_text(text)
            error = next_of(ws, "error")
            assert "nested too deeply" in error["message"]
            goes_on(ws)


# ------------------------------------------------------------------ F8: NaN and Infinity

NON_NUMBERS = {
    "NaN": '{"type":"ping","id":NaN}',
    "Infinity": '{"type":"ping","id":Infinity}',
    "-Infinity": '{"type":"ping","id":-Infinity}',
    "1e999": '{"type":"ping","id":1e999}',
    "act id NaN": '{"type":"act","action":"decline","id":NaN}',
}


def test_a_field_name_that_is_no_text_is_named_in_a_400(client: TestClient) -> None:
    """A lone surrogate (valid JSON, not UTF-8) in an unknown field's name is quoted as
    its escape in the error, which stays valid JSON."""
    game_id, _, _ = friend_game(client)
    body = '{"\\ud800mode": "friend", "name": "Ana"}'
    for url in ("/api/games", f"/api/games/{game_id}/join"):
        answer = client.post(url, content=body, headers=JSON)
        assert answer.status_code == 400, (url, answer.status_code, answer.text)
        error = strict_json(answer.text)["error"]
        assert "\\ud800mode" in error, error


@pytest.mark.parametrize("text", NON_NUMBERS.values(), ids=NON_NUMBERS)
def test_nan_and_infinity_are_refused_on_the_websocket(client: TestClient, text: str) -> None:
    game_id, token, _ = friend_game(client)
    with seat_socket(client, game_id, token) as ws:
        next_of(ws, "state")
        ws.send_text(text)
        raw = ws.receive_text()
        message = strict_json(raw)  # the answer itself is JSON a browser can read
        assert message["type"] == "error", raw
        assert "not valid JSON" in message["message"]
        assert "NaN" not in raw.replace("NaN is", "") and "Infinity," not in raw
        goes_on(ws)


def test_ids_javascript_cannot_read_back_are_not_echoed(client: TestClient) -> None:
    game_id, token, _ = friend_game(client)
    with seat_socket(client, game_id, token) as ws:
        next_of(ws, "state")
        ws.send_text('{"type":"ping","id":' + "9" * 4000 + "}")
        assert next_of(ws, "pong") == {"type": "pong", "id": None}
        ws.send_text('{"type":"ping","id":2.5}')
        assert next_of(ws, "pong") == {"type": "pong", "id": 2.5}


def test_nan_in_a_request_body_is_refused(client: TestClient) -> None:
    for body in ('{"mode":"bot","name":NaN}', '{"mode":"bot","level":1e999}'):
        answer = client.post("/api/games", content=body, headers=JSON)
        assert answer.status_code == 400
        assert "not valid JSON" in strict_json(answer.text)["error"]


def test_the_server_never_writes_nan() -> None:
    """JSON has no NaN or Infinity: a message holding one is written with null there."""
    from conquian.web.conn import Conn

    conn = Conn(None)
    for value in (float("nan"), float("inf"), float("-inf")):
        conn.send({"type": "pong", "id": value})
        assert strict_json(conn.outbox.pop()) == {"type": "pong", "id": None}


# ------------------------------------------------------------------ F6: slow readers


class RawSocket:
    """A websocket client on a plain non-blocking socket (the sans-I/O protocol of
    ``websockets``), so that the test decides exactly when it reads and when it writes.

    Its receive buffer is small, so that a client that stops reading is felt by the server
    after a few kilobytes rather than after the megabytes a tuned socket would take in.
    """

    def __init__(self, url: str) -> None:
        self.protocol = ClientProtocol(parse_uri(url), max_size=2**22)
        parts = urlsplit(url)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect((parts.hostname, parts.port))
        self.sock.setblocking(False)
        self.out = bytearray()
        self.messages: list[str] = []
        self.eof = False
        self.protocol.send_request(self.protocol.connect())
        self._flush_protocol()
        deadline = time.monotonic() + WAIT
        while not any(isinstance(e, Response) for e in self.pump(deadline)):
            assert time.monotonic() < deadline, "no handshake"

    def _flush_protocol(self) -> None:
        for data in self.protocol.data_to_send():
            self.out += data

    def send_text(self, text: str) -> None:
        self.protocol.send_text(text.encode())
        self._flush_protocol()

    def write_some(self, wait: float) -> None:
        """Write what is pending, as far as the socket takes it within ``wait`` seconds."""
        if not self.out:
            return
        _, writable, _ = select.select([], [self.sock], [], wait)
        if writable:
            try:
                sent = self.sock.send(self.out)
            except BlockingIOError:
                return
            del self.out[:sent]

    def pump(self, deadline: float) -> list[Any]:
        """Read what has arrived (and write what is pending); the events it made."""
        readable, writable, _ = select.select(
            [self.sock], [self.sock] if self.out else [], [], 0.05
        )
        if writable:
            self.write_some(0)
        events: list[Any] = []
        if readable:
            try:
                data = self.sock.recv(65536)
            except (BlockingIOError, ConnectionResetError):
                data = None
            if data == b"":
                self.protocol.receive_eof()
                self.eof = True
            elif data:
                self.protocol.receive_data(data)
            for event in self.protocol.events_received():
                events.append(event)
                if isinstance(event, Frame) and event.opcode == Opcode.TEXT:
                    self.messages.append(bytes(event.data).decode())
            self._flush_protocol()
        return events

    def close(self) -> None:
        self.sock.close()


def test_a_client_that_stops_reading_is_disconnected_and_can_come_back(
    server: tuple[str, Any, Path],
) -> None:
    base, proc, log = server
    made = post(f"{base}/api/games", {"mode": "friend", "name": "Ana"})
    joined = post(f"{base}/api/games/{made['id']}/join", {"name": "Ben"})
    url = "ws" + base.removeprefix("http") + f"/ws/{made['id']}"
    with connect(url) as ws:  # Ben says hello (without a seed): his half of the first deal
        ws.send(hello(joined["token"]))
        assert strict_json(str(ws.recv(timeout=WAIT)))["seat"] == 1
    before = memory_kb(proc.pid, "VmRSS")
    slow = RawSocket(url)
    try:
        slow.send_text(hello(made["token"]))
        deadline = time.monotonic() + WAIT
        while not slow.messages:  # the game, before it stops reading
            assert time.monotonic() < deadline
            slow.pump(deadline)
        assert json.loads(slow.messages[0])["seat"] == 0
        # now it only sends pings, and reads nothing, until the server says it gave up
        said = "fell too far behind"
        pings = 0
        while said not in log.read_text():
            assert time.monotonic() < deadline, (
                f"the server kept queueing for a client that does not read ({pings} pings)"
            )
            if not slow.out:
                # the longest id the server echoes: fewer pings fill the buffers between
                slow.send_text(json.dumps({"type": "ping", "id": f"{pings:040d}"}))
                pings += 1
            slow.write_some(0.05)
        grew = memory_kb(proc.pid, "VmRSS") - before
        assert grew < 16 * 1024, f"the server grew by {grew} kB for one slow client"
        # when it reads again: what had been sent, then the close frame with its code
        while slow.protocol.close_rcvd is None and not slow.eof:
            assert time.monotonic() < deadline, "the server's close frame never came"
            slow.pump(deadline)
        assert slow.protocol.close_rcvd is not None, "closed without a close frame"
        assert slow.protocol.close_rcvd.code == 1008
        for text in slow.messages:
            assert strict_json(text)["type"] in ("state", "pong")
        assert len(slow.messages) < pings  # the server dropped what it could not send
    finally:
        slow.close()
    # a new connection resumes the game
    with connect(url) as ws:
        ws.send(hello(made["token"]))
        view = strict_json(str(ws.recv(timeout=WAIT)))
        assert view["type"] == "state" and view["seat"] == 0 and len(view["obs"]["hand"]) == 10
        ws.send(json.dumps({"type": "ping", "id": "back"}))
        assert strict_json(str(ws.recv(timeout=WAIT))) == {"type": "pong", "id": "back"}


def test_a_silent_client_that_falls_behind_is_disconnected(server: tuple[str, Any, Path]) -> None:
    """A spectator that says hello, then neither reads nor sends: the server is waiting for
    its next message when what waits for it passes the outbox's bound, and must stop waiting
    and close the connection then (not when the client next speaks, which it never does)."""
    base, _proc, log = server
    rules = "standard,match=n_deals,match_target=60"
    made = post(f"{base}/api/games", {"mode": "bot", "level": "beginner", "rules": rules})
    url = "ws" + base.removeprefix("http") + f"/ws/{made['id']}"
    said = "fell too far behind"
    before = log.read_text().count(said)
    silent = RawSocket(url)
    try:
        silent.send_text(hello())
        deadline = time.monotonic() + WAIT
        while silent.out:
            assert time.monotonic() < deadline
            silent.write_some(0.05)
        with connect(url) as ws:  # the player moves; the computer answers at once
            ws.send(hello(made["token"]))
            moves = 0
            while log.read_text().count(said) == before:
                assert time.monotonic() < deadline, f"never closed ({moves} moves)"
                view = strict_json(str(ws.recv(timeout=WAIT)))
                if view["type"] != "state" or view["obs"] is None or view["match"]["over"]:
                    assert not view.get("match", {}).get("over"), "the match ended first"
                    continue
                if view["obs"]["legal_actions"]:
                    ws.send(json.dumps({"type": "act", "action": view["obs"]["legal_actions"][0]}))
                    moves += 1
        while silent.protocol.close_rcvd is None and not silent.eof:
            assert time.monotonic() < deadline, "the server's close frame never came"
            silent.pump(deadline)
        assert silent.protocol.close_rcvd is not None and silent.protocol.close_rcvd.code == 1008
    finally:
        silent.close()


def test_the_outbox_is_bounded() -> None:
    from conquian.web.conn import OUTBOX_CHARS, OUTBOX_MESSAGES, Conn

    conn = Conn(None)
    for n in range(OUTBOX_MESSAGES):
        conn.send({"type": "pong", "id": n})
    assert not conn.behind and len(conn.outbox) == OUTBOX_MESSAGES
    conn.send({"type": "pong", "id": "one too many"})
    assert conn.behind and not conn.outbox and conn.wake.is_set()
    conn.send({"type": "pong"})  # nothing more is queued
    assert not conn.outbox
    big = Conn(None)
    for _ in range(OUTBOX_CHARS // 100_000 + 1):
        big.send({"type": "state", "filler": "x" * 100_000})
    assert big.behind and big.waiting == 0


# ------------------------------------------------------------------ F7: origins


def test_the_websocket_refuses_pages_of_other_sites(client: TestClient) -> None:
    game_id, token, _ = friend_game(client)
    for headers in (
        {"origin": "https://evil.example"},
        {"origin": "null"},
        {"origin": "http://testserver.evil.example"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site", "origin": "http://testserver"},
    ):
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(f"/ws/{game_id}", headers=headers) as ws,
        ):
            ws.receive_text()
        assert refused.value.code == 1008, headers
    for headers in (
        {},  # a program, not a browser page
        {"origin": "http://testserver"},
        {"origin": "http://TESTSERVER:80"},
        {"sec-fetch-site": "same-origin", "origin": "http://testserver"},
    ):
        with client.websocket_connect(f"/ws/{game_id}", headers=headers) as ws:
            ws.send_text(hello(token))
            assert next_of(ws, "state")["seat"] == 0, headers


def test_posts_must_be_json_from_the_same_site(client: TestClient) -> None:
    body = json.dumps({"mode": "friend", "name": "Ana"})
    for headers in (
        {},
        {"content-type": "text/plain"},
        {"content-type": "application/x-www-form-urlencoded"},
        {"content-type": "multipart/form-data; boundary=x"},
    ):
        answer = client.post("/api/games", content=body, headers=headers)
        assert answer.status_code == 415, headers
        assert "Content-Type: application/json" in answer.json()["error"]
    for headers in (
        {"origin": "https://evil.example"},
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},
        {"sec-fetch-site": "cross-site", "origin": "http://testserver"},
    ):
        answer = client.post("/api/games", content=body, headers={**JSON, **headers})
        assert answer.status_code == 403, headers
        assert "another site" in answer.json()["error"]
    made = client.post("/api/games", content=body, headers=JSON).json()
    for headers in (
        {"origin": "http://testserver"},
        {"sec-fetch-site": "same-origin"},
        # behind a proxy that rewrites Host, the browser's Sec-Fetch-Site still knows
        {"sec-fetch-site": "same-origin", "origin": "https://games.example"},
        {"content-type": "application/json; charset=utf-8"},
    ):
        answer = client.post("/api/games", content=body, headers={**JSON, **headers})
        assert answer.status_code == 201, (headers, answer.text)
    join = client.post(
        f"/api/games/{made['id']}/join",
        json={"name": "Eve"},
        headers={"origin": "https://evil.example"},
    )
    assert join.status_code == 403
    assert (
        client.post(f"/api/games/{made['id']}/join", content=b'{"name":"Ben"}').status_code == 415
    )
    assert client.post(f"/api/games/{made['id']}/join", json={"name": "Ben"}).status_code == 200


def test_allowed_origins_on_a_real_server(tmp_path: Path) -> None:
    with served(tmp_path, "--allow-origin", "https://games.example") as (base, _, _):
        ws_url = "ws" + base.removeprefix("http")
        made = post(f"{base}/api/games", {"mode": "friend", "name": "Ana"})
        for origin, ok in (
            (base, True),  # the server's own pages: Origin matches Host
            ("https://games.example", True),
            ("https://evil.example", False),
        ):
            answer = httpx.post(
                f"{base}/api/games/{made['id']}/join" if ok else f"{base}/api/games",
                json={"name": "Ben"} if ok else {"mode": "bot"},
                headers={"Origin": origin},
                timeout=WAIT,
            )
            if ok and origin != base:
                assert answer.status_code == 409, answer.text  # let in: the seat was taken
            elif ok:
                assert answer.status_code == 200, answer.text
            else:
                assert answer.status_code == 403, answer.text
            try:
                with connect(f"{ws_url}/ws/{made['id']}", origin=origin) as ws:  # type: ignore[arg-type]
                    ws.send(hello())
                    assert strict_json(str(ws.recv(timeout=WAIT)))["type"] == "state"
                    assert ok, origin
            except InvalidStatus as exc:
                assert not ok and exc.response.status_code == 403, origin


def test_serve_refuses_a_bad_rate_or_origin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from conquian.cli import main

    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    assert main(["serve", "--port", "0", "--db", db, "--rate-limit", "lots"]) == 1
    assert "not a rate such as 30/minute" in capsys.readouterr().err
    assert main(["serve", "--port", "0", "--db", db, "--allow-origin", "ftp://x"]) == 1
    assert "not an origin" in capsys.readouterr().err


# ------------------------------------------------------------------ F7: rate limits


def test_creating_and_joining_are_rate_limited_per_address(tmp_path: Path) -> None:
    with served(tmp_path, "--rate-limit", "3/minute") as (base, _, _):
        made = [post(f"{base}/api/games", {"mode": "friend", "name": f"P{i}"}) for i in range(3)]
        refused = httpx.post(f"{base}/api/games", json={"mode": "bot"}, timeout=WAIT)
        assert refused.status_code == 429
        error = refused.json()["error"]
        assert "Too many new games from your address (at most 3 per minute)" in error
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        assert re.search(r"try again in \d+ s", error)
        # joins are counted on their own
        for game in made:
            joined = httpx.post(
                f"{base}/api/games/{game['id']}/join", json={"name": "Ben"}, timeout=WAIT
            )
            assert joined.status_code == 200, joined.text
        again = httpx.post(f"{base}/api/games/{made[0]['id']}/join", json={}, timeout=WAIT)
        assert again.status_code == 429 and "Too many joins" in again.json()["error"]
        # another address (as a reverse proxy on this computer forwards it) has its own count
        other = httpx.post(
            f"{base}/api/games",
            json={"mode": "bot"},
            headers={"X-Forwarded-For": "203.0.113.7"},
            timeout=WAIT,
        )
        assert other.status_code == 201, other.text
        # reading is never limited
        for _ in range(10):
            httpx.get(f"{base}/api/lobby", timeout=WAIT).raise_for_status()


def test_new_guests_and_sign_in_attempts_are_rate_limited_per_address(tmp_path: Path) -> None:
    """A visitor without a cookie is a new guest, counted like a new game (``--rate-limit``);
    sign-in attempts and new passwords have their own limit, 10 a minute whatever
    ``--rate-limit`` says.  A refused request makes no player and changes nothing."""
    with served(tmp_path, "--rate-limit", "3/minute") as (base, _, _):
        visits = [httpx.get(f"{base}/api/me", timeout=WAIT) for _ in range(4)]
        assert [v.status_code for v in visits] == [200, 200, 200, 429]
        refused = visits[3]
        assert (
            "Too many requests from your address (at most 3 per minute)" in refused.json()["error"]
        )
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        assert "set-cookie" not in refused.headers  # no player was made for it
        # a player the server knows is not a new guest: he still reads himself
        ana = httpx.Client(base_url=base, cookies=visits[0].cookies, timeout=WAIT)
        with ana:
            assert ana.get("/api/me").json()["id"] == visits[0].json()["id"]
            made = ana.post(
                "/api/account/password", json={"login": "ana", "password": "bien-guardada"}
            )
            assert made.status_code == 200, made.text  # (one sign-in attempt of ten)
            tries = [
                httpx.post(
                    f"{base}/api/signin/password",
                    json={"login": "ana", "password": f"wrong-{n:04d}"},
                    timeout=WAIT,
                )
                for n in range(9)
            ]
            assert {t.status_code for t in tries} == {401}
            right = httpx.post(
                f"{base}/api/signin/password",
                json={"login": "ana", "password": "bien-guardada"},
                timeout=WAIT,
            )
            assert right.status_code == 429  # the eleventh in a minute, right or wrong
            assert "at most 10 per minute" in right.json()["error"]
            assert "set-cookie" not in right.headers
            # another address (through a proxy on this computer) has its own count
            elsewhere = httpx.post(
                f"{base}/api/signin/password",
                json={"login": "ana", "password": "bien-guardada"},
                headers={"X-Forwarded-For": "203.0.113.9"},
                timeout=WAIT,
            )
            assert elsewhere.status_code == 200, elsewhere.text
            assert elsewhere.json()["id"] == visits[0].json()["id"]


# ------------------------------------------------------------------ F7: security headers


def test_every_http_answer_has_the_security_headers(server: tuple[str, Any, Path]) -> None:
    base, _, _ = server
    answers = [
        httpx.get(f"{base}/", timeout=WAIT),
        httpx.get(f"{base}/static/app.js", timeout=WAIT),
        httpx.get(f"{base}/static/style.css", timeout=WAIT),
        httpx.get(f"{base}/api/lobby", timeout=WAIT),
        httpx.get(f"{base}/api/games/nosuchgame", timeout=WAIT),
        httpx.get(f"{base}/nothing/here", timeout=WAIT),
        httpx.post(f"{base}/api/games", content=b"x", timeout=WAIT),
    ]
    assert [a.status_code for a in answers] == [200, 200, 200, 200, 404, 404, 415]
    for answer in answers:
        csp = answer.headers["content-security-policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["frame-ancestors"] == "'none'"
        assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
        assert "unsafe" not in csp
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert answer.headers["x-frame-options"] == "DENY"
    assert answers[1].headers["cache-control"] == "no-cache"


def test_the_page_has_nothing_inline_that_the_policy_would_block() -> None:
    from conquian.web.app import STATIC

    html = (STATIC / "index.html").read_text()
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag, tag
    assert "<style" not in html
    scripts = sorted(STATIC.rglob("*.js"))  # the page's modules, in their folders too
    assert STATIC / "app.js" in scripts and STATIC / "game" / "screen.js" in scripts
    for path in [STATIC / "index.html", *scripts]:
        name = path.relative_to(STATIC)
        text = path.read_text()
        assert not re.search(r"\bstyle=", text), f"an inline style attribute in {name}"
        assert not re.search(r"""\son[a-z]+=["'`$]""", text), f"an inline handler in {name}"
        assert "javascript:" not in text


# ------------------------------------------------------------------ F7: the seat token


def test_the_seat_token_goes_in_the_first_message_not_in_the_url(client: TestClient) -> None:
    game_id, token, _ = friend_game(client)
    with client.websocket_connect(f"/ws/{game_id}?token={token}") as ws:
        error = strict_json(ws.receive_text())
        assert error["type"] == "error" and "not in the URL" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 1008
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        ws.send_text(json.dumps({"type": "ping", "id": 1}))  # nothing before hello
        assert "hello" in next_of(ws, "error")["message"]
        ws.send_text(json.dumps({"type": "hello", "token": 7}))
        assert "must be text" in next_of(ws, "error")["message"]
        ws.send_text(hello(token))
        view = next_of(ws, "state")
        assert view["seat"] == 0 and len(view["obs"]["hand"]) == 10
        ws.send_text(hello(token))
        assert "hello already" in next_of(ws, "error")["message"]
        goes_on(ws)
    with seat_socket(client, game_id) as watcher:
        view = next_of(watcher, "state")
        assert view["seat"] is None and "hand" not in view["obs"]


# ------------------------------------------------------------------ F7: the lobby


def lobby_ids(client: TestClient) -> dict[str, list[str]]:
    lobby = client.get("/api/lobby").json()
    return {key: [g["id"] for g in games] for key, games in lobby.items()}


def test_a_friends_invitation_stays_out_of_the_lobby_unless_made_public(
    database: TestDatabase,
) -> None:
    from conquian.web.app import create_app

    with TestClient(create_app(database.url, bot_delay=0)) as client:
        private = client.post("/api/games", json={"mode": "friend", "name": "Ana"}).json()
        public = client.post(
            "/api/games", json={"mode": "friend", "name": "Cy", "public": True}
        ).json()
        bot = client.post("/api/games", json={"mode": "bot", "name": "Di"}).json()
        hidden_bot = client.post(
            "/api/games", json={"mode": "bot", "name": "Ed", "public": False}
        ).json()
        ids = lobby_ids(client)
        assert ids["open"] == [public["id"]]
        assert ids["playing"] == [bot["id"]]
        assert hidden_bot["id"] not in ids["playing"]
        # the invitation link still works: the friend joins by the game's id
        client.post(f"/api/games/{private['id']}/join", json={"name": "Ben"}).raise_for_status()
        client.post(f"/api/games/{public['id']}/join", json={"name": "Bo"}).raise_for_status()
        ids = lobby_ids(client)
        assert not ids["open"]
        assert set(ids["playing"]) == {public["id"], bot["id"]}
        assert private["id"] not in ids["playing"]
        answer = client.post("/api/games", json={"mode": "friend", "public": "yes"})
        assert answer.status_code == 400 and "'public'" in answer.json()["error"]
        assert database.query("select id from games where public = %s order by id", True) == sorted(
            [(public["id"],), (bot["id"],)]
        )


def old_games_columns() -> list[Column[Any]]:
    """The ``games`` table as the previous version made it (no ``public`` column)."""
    return [
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
    ]


def old_seats_columns() -> list[Column[Any]]:
    """The ``seats`` table as the previous versions made it (no ``level``, no ``invite_hash``)."""
    return [
        Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
        Column("seat", Integer, primary_key=True),
        Column("kind", String(8), nullable=False),
        Column("name", String(64), nullable=False),
        Column("token_hash", String(64)),
        Column("joined", Float),
    ]


def test_a_database_of_the_previous_version_is_migrated(bare_database: TestDatabase) -> None:
    from conquian.web import schema
    from conquian.web.database import open_store
    from conquian.web.upgrade import DatabaseBehind

    database = bare_database

    old = MetaData()
    old_games = Table("games", old, *old_games_columns())
    Table("seats", old, *old_seats_columns())  # no level, no invitation
    for name in ("actions", "records"):
        schema.metadata.tables[name].to_metadata(old)
    engine = create_engine(database.url)
    try:
        with engine.begin() as conn:
            old.create_all(conn)
            for game_id, mode, status, level in (
                ("oldbot", "bot", "playing", "easy"),
                ("oldfriend", "friend", "open", None),
            ):
                conn.execute(
                    insert(old_games).values(
                        id=game_id,
                        created=1.0,
                        updated=1.0,
                        mode=mode,
                        level=level,
                        rules="standard",
                        match_seed=5,
                        bot_seed=6,
                        status=status,
                    )
                )
                second = ("bot", "Computer (easy)", 1.0) if mode == "bot" else ("human", "", None)
                conn.execute(
                    insert(old.tables["seats"]),
                    [
                        {
                            "game_id": game_id,
                            "seat": 0,
                            "kind": "human",
                            "name": "Old",
                            "token_hash": "x",
                            "joined": 1.0,
                        },
                        {
                            "game_id": game_id,
                            "seat": 1,
                            "kind": second[0],
                            "name": second[1],
                            "token_hash": None,
                            "joined": second[2],
                        },
                    ],
                )
    finally:
        engine.dispose()
    if database.kind == "postgresql":  # upgraded by conquian db upgrade, never by a server
        with pytest.raises(DatabaseBehind):
            open_store(database.url)
        upgrade_database(database.url)

    async def read_back() -> None:
        store = open_store(database.url)
        try:
            lobby = await store.lobby()
            assert [g["id"] for g in lobby["playing"]] == ["oldbot"]
            assert lobby["open"] == []  # an old invitation is private now
            loaded = await store.load("oldfriend")
            assert loaded is not None and loaded[0].public is False
            bot = await store.load("oldbot")
            assert bot is not None and bot[0].public is True
            assert bot[0].invite_only is False and bot[0].seats[1].level is None
            assert loaded[0].seats[1].invite_hash is None
        finally:
            await store.close()

    for _ in range(2):  # opening it again changes nothing
        asyncio.run(read_back())
    from conquian.web.app import create_app

    with TestClient(create_app(database.url, bot_delay=0)) as client:
        made = client.post("/api/games", json={"mode": "friend", "public": True}).json()
        assert made["id"] in lobby_ids(client)["open"]
        joined = client.post("/api/games/oldfriend/join", json={"name": "Ben"})
        assert joined.status_code == 200  # by the game's id, as before
        info = client.get("/api/games/oldbot").json()  # its computer plays at the game's level
        assert info["levels"] == [None, "easy"] and info["by_invitation"] is False
        mixed = client.post(
            "/api/games",
            json={"rules": "tercerilla", "seats": [{"kind": "person"}, {"kind": "bot"}]},
        ).json()
        code = mixed["invitations"][0]["code"]
        taken = client.post(f"/api/games/{mixed['id']}/join", json={"name": "Cy", "invite": code})
        assert taken.status_code == 200 and taken.json()["seat"] == 1
