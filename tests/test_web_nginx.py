"""Debian's nginx, configured as docs/deploy.md says, in front of two server processes.

The configuration is the one of docs/deploy.md (its TLS lines removed, on a free loopback
port, its upstream the two test servers), run as the current user with every path inside
a temporary folder.  A friend game is made, joined and played through it over HTTP and
websockets (each connection may reach either process), and the server sees each client's
own address through the proxy's headers: its rate limit counts them apart.
"""

from __future__ import annotations

import http.client
import json
import os
import pwd
import random
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import TestDatabase, check_wire, hello, postgres_database, postgres_url_or_skip
from websockets.sync.client import connect
from websockets.typing import Origin

from conquian.tools.load import free_port, start_server

NGINX = "/usr/sbin/nginx"
DOC = Path(__file__).resolve().parent.parent / "docs" / "deploy.md"
RECEIVED: list[tuple[int | None, str]] = []
FOLDERS: dict[str, Path] = {}
"""Each running proxy's folder (its configuration and logs), by its base URL."""


def nginx_folder(base: str) -> Path:
    return FOLDERS[base]


pytestmark = pytest.mark.skipif(
    not os.path.exists(NGINX) and not os.environ.get("CI"),
    reason=f"{NGINX} is not installed (apt-get install nginx; .ci/run installs it)",
)


def documented_config() -> str:
    """The first nginx block of docs/deploy.md."""
    found = re.search(r"```nginx\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert found, "docs/deploy.md has no nginx configuration"
    return found[1]


def nginx_conf(folder: Path, port: int, upstreams: list[int]) -> str:
    """A whole nginx.conf: the documented server, without TLS, on ``port``, in front of
    ``upstreams``; every file nginx writes inside ``folder``."""
    body = documented_config()
    body = re.sub(r"listen 443 ssl;", f"listen 127.0.0.1:{port};", body)
    body = re.sub(r"\n\s*ssl_\w+ [^\n]*;", "", body)
    documented = re.findall(r"server 127\.0\.0\.1:\d+", body)
    assert len(documented) == len(upstreams) == 2
    for old, new in zip(documented, upstreams, strict=True):
        body = body.replace(old, f"server 127.0.0.1:{new}", 1)
    assert "ssl" not in body
    temp = {
        name: folder / "temp" / name
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    }
    for path in temp.values():
        path.mkdir(parents=True)
    user = f"user {pwd.getpwuid(os.getuid()).pw_name};" if os.getuid() == 0 else ""
    temps = "\n".join(f"    {name}_temp_path {path};" for name, path in temp.items())
    return f"""{user}
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 256; }}
http {{
    log_format routed '$request_uri $upstream_addr';
    access_log {folder}/access.log routed;
{temps}
{body}
}}
"""


@pytest.fixture
def pg() -> Iterator[TestDatabase]:
    with postgres_database(postgres_url_or_skip()) as db:
        yield db


@pytest.fixture
def proxied(pg: TestDatabase, tmp_path: Path) -> Iterator[str]:
    """nginx in front of two server processes on one database; yields its base URL."""
    servers = []
    nginx = None
    try:
        for name in ("a", "b"):
            servers.append(
                start_server(
                    pg.url, log=tmp_path / f"server-{name}.log", args=["--rate-limit", "1/minute"]
                )
            )
        port = free_port()
        folder = tmp_path / "nginx"
        folder.mkdir()
        ports = [int(base.rsplit(":", 1)[1]) for _, base in servers]
        (folder / "nginx.conf").write_text(nginx_conf(folder, port, ports))
        test = subprocess.run(
            [NGINX, "-t", "-p", str(folder), "-c", str(folder / "nginx.conf")],
            capture_output=True,
            text=True,
        )
        assert test.returncode == 0, test.stderr
        nginx = subprocess.Popen(
            [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
            stderr=subprocess.PIPE,
        )
        base = f"http://127.0.0.1:{port}"
        _wait_for(port, nginx)
        FOLDERS[base] = folder
        yield base
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(15)
        for proc, _ in servers:
            proc.terminate()
            proc.wait(15)


def _wait_for(port: int, nginx: subprocess.Popen[bytes]) -> None:
    """Until nginx accepts connections (it writes its pid file once listening)."""
    import socket
    import time

    deadline = time.monotonic() + 20
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            assert nginx.poll() is None, "nginx stopped"
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.05)


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
    routed = (Path(nginx_folder(base)) / "access.log").read_text().splitlines()
    game_requests = [line.split() for line in routed if f"/{made['id']}" in line]
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


def _state(ws: Any, seq: int, seat: int) -> dict[str, Any]:
    while True:
        raw = ws.recv(timeout=30)
        RECEIVED.append((seat, raw))
        msg: dict[str, Any] = json.loads(raw)
        assert msg["type"] != "error", msg
        if msg["type"] == "state" and msg["obs"] is not None and msg["seq"] == seq:
            return msg
