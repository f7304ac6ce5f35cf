"""Debian's nginx, configured as docs/deploy.md says, in front of two server processes.

The configuration is the one of docs/deploy.md (its TLS lines removed, on a free loopback
port, its upstream the two test servers), run as the current user with every path inside
a temporary folder.  A friend game is made, joined and played through it over HTTP and
websockets (every request naming the game reaching the same process), and the server sees
each client's own address through the proxy's headers: its rate limit counts them apart.
(tests/test_web_browser.py plays a game between two browsers through it.)
"""

from __future__ import annotations

import contextlib
import http.client
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import (
    TestDatabase,
    check_wire,
    hello,
    nginx_or_skip,
    postgres_database,
    postgres_url_or_skip,
    routed_requests,
    running_nginx,
)
from websockets.sync.client import connect
from websockets.typing import Origin

from conquian.tools.load import start_server

RECEIVED: list[tuple[int | None, str]] = []
FOLDERS: dict[str, Path] = {}
"""Each running proxy's folder (its configuration and logs), by its base URL."""


@pytest.fixture
def pg() -> Iterator[TestDatabase]:
    nginx_or_skip()
    with postgres_database(postgres_url_or_skip()) as db:
        yield db


@pytest.fixture
def proxied(pg: TestDatabase, tmp_path: Path) -> Iterator[str]:
    """nginx in front of two server processes on one database; yields its base URL."""
    servers = []
    try:
        for name in ("a", "b"):
            servers.append(
                start_server(
                    pg.url, log=tmp_path / f"server-{name}.log", args=["--rate-limit", "1/minute"]
                )
            )
        folder = tmp_path / "nginx"
        ports = [int(base.rsplit(":", 1)[1]) for _, base in servers]
        with running_nginx(folder, ports) as base:
            FOLDERS[base] = folder
            yield base
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait(15)


def request(
    base: str, method: str, path: str, body: Any = None, source: str = "127.0.0.1"
) -> tuple[int, Any]:
    """An HTTP request through the proxy from the loopback address ``source``."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, data, headers)
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        conn.close()


def test_a_game_through_nginx_in_front_of_two_processes(proxied: str, pg: TestDatabase) -> None:
    RECEIVED.clear()
    base = proxied
    status, made = request(
        base, "POST", "/api/games", {"mode": "friend", "name": "Ana"}, "127.0.0.2"
    )
    assert status == 201, made
    status, joined = request(base, "POST", f"/api/games/{made['id']}/join", {"name": "Ben"})
    assert status == 200, joined
    status, info = request(base, "GET", f"/api/games/{made['id']}")
    assert status == 200 and info["joined"] == [True, True]
    ws_url = "ws" + base.removeprefix("http") + f"/ws/{made['id']}"
    tokens = [made["token"], joined["token"]]
    # as a browser page of the site would: its Origin is the proxy's, and nginx passes Host
    with (
        connect(ws_url, origin=Origin(base)) as ws0,
        connect(ws_url, origin=Origin(base)) as ws1,
    ):
        sockets = [ws0, ws1]
        for p, ws in enumerate(sockets):
            ws.send(hello(tokens[p]))
        views = [_state(ws0, 0, 0), _state(ws1, 0, 1)]
        rng = random.Random(2)
        for seq in range(1, 17):
            p = views[0]["obs"]["to_act"]
            action = rng.choice(views[p]["obs"]["legal_actions"])
            sockets[p].send(json.dumps({"type": "act", "action": action, "id": seq}))
            views = [_state(ws0, seq, 0), _state(ws1, seq, 1)]
            assert views[p]["ack"] == seq
    assert len(pg.actions(made["id"])) == 16
    assert check_wire(pg, RECEIVED) >= 32
    # every request naming the game went to one process (the map and hash of deploy.md)
    game_requests = [r for r in routed_requests(FOLDERS[base]) if f"/{made['id']}" in r[0]]
    assert len(game_requests) == 4  # the join, the game's info and the two websockets
    assert len({upstream for _, upstream in game_requests}) == 1, game_requests
    # the server sees each client's own address (X-Forwarded-For), and each process allows
    # one a minute from each: five other addresses may each create a game (one address
    # would have been refused by both processes by then), while 127.0.0.2 is soon refused
    for n in range(3, 8):
        status, answer = request(base, "POST", "/api/games", {"mode": "friend"}, f"127.0.0.{n}")
        assert status == 201, answer
    statuses = [
        request(base, "POST", "/api/games", {"mode": "friend"}, "127.0.0.2")[0] for _ in range(2)
    ]
    assert 429 in statuses, statuses
    signed_in_through_either_process(base)


def signed_in_through_either_process(base: str) -> None:
    """An account made through the proxy is the same player in every later request, whichever
    process answers it (the session is in the database, the cookie's key is shared)."""
    host, port = base.removeprefix("http://").split(":")
    cookie = ""
    seen, upstreams = set(), set()
    for number in range(8):
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        try:
            headers = {"Content-Type": "application/json", "Origin": base}
            if cookie:
                headers["Cookie"] = cookie
            if number == 0:
                body = {"login": "nginx.ana", "password": "through the proxy"}
                conn.request("POST", "/api/account/password", json.dumps(body), headers)
            else:
                conn.request("GET", "/api/me", headers=headers)
            answer = conn.getresponse()
            data = json.loads(answer.read())
            assert answer.status == 200, data
            cookie = (answer.getheader("Set-Cookie") or cookie).split(";", 1)[0] or cookie
            if number:
                seen.add((data["id"], data["guest"]))
        finally:
            conn.close()
    upstreams = {u for path, u in routed_requests(FOLDERS[base]) if path == "/api/me"}
    assert len(seen) == 1 and next(iter(seen))[1] is False, seen
    assert len(upstreams) == 2, upstreams  # both processes answered


def _state(ws: Any, seq: int, seat: int) -> dict[str, Any]:
    while True:
        raw = ws.recv(timeout=30)
        RECEIVED.append((seat, raw))
        msg: dict[str, Any] = json.loads(raw)
        assert msg["type"] != "error", msg
        if msg["type"] == "state" and msg["obs"] is not None and msg["seq"] == seq:
            return msg


def post_status(base: str, source: str) -> tuple[int, str]:
    """The status and content type of an empty game's creation through the proxy."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
    try:
        body = json.dumps({"mode": "friend"})
        conn.request("POST", "/api/games", body, {"Content-Type": "application/json"})
        answer = conn.getresponse()
        answer.read()
        return answer.status, answer.getheader("Content-Type", "")
    finally:
        conn.close()


def test_nginx_limits_each_address_as_deploy_md_says(proxied: str) -> None:
    """The per-address limits of deploy.md hold in front of several processes: nginx
    itself refuses (an HTML 429, not the servers' JSON) the POSTs over its burst and the
    connections over its count, from one address, while another address goes on."""
    base = proxied
    answers = [post_status(base, "127.0.0.20") for _ in range(14)]
    by_nginx = [status for status, kind in answers if kind.startswith("text/html")]
    assert by_nginx and set(by_nginx) == {429}, answers
    assert post_status(base, "127.0.0.21")[0] == 201  # another address is not held up
    ws_url = "ws" + base.removeprefix("http") + "/ws/nothing"
    refused = None
    with contextlib.ExitStack() as held:
        for count in range(60):
            try:
                held.enter_context(connect(ws_url, origin=Origin(base)))
            except Exception as exc:  # the handshake answered 429
                refused = (count, str(exc))
                break
    assert refused is not None and refused[0] == 50 and "429" in refused[1], refused
