"""Shared by the web tests: the test databases, and which cards a client must never be sent."""

from __future__ import annotations

import asyncio
import json
import os
import pwd
import random
import re
import socket
import sqlite3
import subprocess
import time
import uuid
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import httpx2
from sqlalchemy.engine import make_url
from starlette.testclient import TestClient

from conquian.cards import CARDS, format_mask, mask_indices
from conquian.state import GameState
from conquian.web.database import open_store
from conquian.web.live import LiveMatch
from conquian.web.schema import Loaded, hash_token

CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9_-])([A2-7JQK][shdc])(?![A-Za-z0-9_-])")
"""A card as the server writes it; not inside a word, nor inside a game id or token, which are
made of letters, digits, ``_`` and ``-`` (an id such as ``3h_ADdu_LVc`` is no card)."""


def forbidden_for(state: GameState, seat: int | None) -> set[str]:
    """Cards the client at ``seat`` must never be sent: the other hands and the stock."""
    hidden = 0
    for p, hand in enumerate(state.hands):
        if p != seat:
            hidden |= hand
    seen = state.dead_mask
    for hand in state.hands:
        seen |= hand
    for table in state.tables:
        for meld in table:
            seen |= meld
    if state.centre >= 0:
        seen |= 1 << state.centre
    stock = (1 << 40) - 1 & ~seen  # nobody has seen these: they are the stock
    known = 0
    if seat is not None and state.exchange and state.phase.value != "exchange":
        known = 1 << state.exchange[seat]  # the card he passed: he knows who holds it
    return {str(CARDS[i]) for i in mask_indices((hidden | stock) & ~known)}


def assert_secret(message: dict[str, Any], game: LiveMatch, seat: int | None) -> None:
    """No hidden card of the deal in play (nor of the last finished deal) is in the message,
    nor any seed: no server seed of a deal not yet over, no other seat's seed for it; nor
    any seat token or invitation code (:func:`assert_no_seat_secrets`).

    ``game`` must be the game as it was when the message was sent.
    """
    raw = message.get("_raw") or json.dumps(message)
    assert_no_seat_secrets(message, game, seat)
    for shuffle in game.shuffles.values():
        if shuffle.deal > len(game.finished):  # not over: its seeds are secret
            assert shuffle.server_seed not in raw, f"the server seed of deal {shuffle.deal} leaked"
            for other, seed in enumerate(shuffle.client_seeds):
                if seed and other != seat:
                    assert seed not in raw, f"seat {other}'s seed for deal {shuffle.deal} leaked"
    if message["obs"] is None:  # sent before the first deal was dealt
        assert not CARD_TOKEN.findall(raw), "cards before the deal"
        return
    assert game.dealt
    now = {k: v for k, v in message.items() if k not in ("_raw", "last")}
    leaked = set(CARD_TOKEN.findall(json.dumps(now))) & forbidden_for(game.game.state, seat)
    assert not leaked, f"seat {seat} was sent hidden cards {sorted(leaked)}"
    if message.get("last") is not None:
        finished = game.finished[-1][0].state
        text = json.dumps(message["last"])
        # once a deal is over its hands are public (its ``hands``), never its stock
        shown = {str(CARDS[i]) for hand in finished.hands for i in mask_indices(hand)}
        assert message["last"].get("hands", []) == [
            format_mask(hand).split() for hand in finished.hands
        ], "the last deal's hands are not the hands it ended with"
        leaked = set(CARD_TOKEN.findall(text)) & (forbidden_for(finished, seat) - shown)
        assert not leaked, f"seat {seat} was sent hidden cards of the last deal {sorted(leaked)}"
    seeds = {str(game.match.seed), str(game.bot_seed)}
    seeds |= {str(g.seed) for g in game.match.games if g.seed is not None}
    assert not any(s in raw for s in seeds), "a seed reached a client"
    if seat is None:
        assert "hand" not in message["obs"]


SECRET_WORD = re.compile(r"[A-Za-z0-9_-]{16,}")
"""A word that could be a seat token or an invitation code (both are URL-safe base64)."""


def seat_secrets_in(text: str, game: LiveMatch) -> list[str]:
    """The seat tokens and invitation codes of ``game`` found in ``text``, by their hashes:
    ``token of seat 1``, ``invitation of seat 2``."""
    found = []
    for word in set(SECRET_WORD.findall(text)):
        hashed = hash_token(word)
        for s in game.seats:
            if s.token_hash == hashed:
                found.append(f"token of seat {s.seat}")
            if s.invite_hash == hashed:
                found.append(f"invitation of seat {s.seat}")
    return found


def assert_no_seat_secrets(message: dict[str, Any], game: LiveMatch, seat: int | None) -> None:
    """No seat token is in a message, and no invitation code, except in the ``invitations``
    of a message to the creator (seat 0), each there the code of its own seat."""
    invitations = message.get("invitations")
    if invitations is not None:
        assert seat == 0, f"invitations were sent to seat {seat}"
        for invitation in invitations:
            code, at = invitation["code"], invitation["seat"]
            assert game.seats[at].invite_hash == hash_token(code), "not that seat's invitation"
    rest = {k: v for k, v in message.items() if k not in ("_raw", "invitations")}
    leaked = seat_secrets_in(json.dumps(rest), game)
    assert not leaked, f"seat {seat} was sent {leaked}"


def hello(token: str | None = None) -> str:
    """The first message of a websocket client: a seat's token, or none to watch.

    (The token travels in this message, never in the websocket's URL.)
    """
    return json.dumps({"type": "hello", "token": token} if token else {"type": "hello"})


def strict_json(text: str) -> Any:
    """Parse JSON as a browser would: ``NaN`` and ``Infinity`` are not JSON."""

    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} is not JSON: {text[:80]}")

    return json.loads(text, parse_constant=refuse)


POSTGRES_ENV = "CONQUIAN_TEST_POSTGRES_URL"
"""The PostgreSQL server the web tests use, as a SQLAlchemy URL
(``postgresql+psycopg://user:password@host/database``); CI always sets it."""


@dataclass(frozen=True)
class TestDatabase:
    """The database of one test: a SQLite file, or a PostgreSQL schema of its own."""

    kind: str
    """``sqlite`` or ``postgresql``."""
    url: str
    """The SQLAlchemy URL the server is given."""
    path: Path | None = None
    """The SQLite file."""

    __test__ = False  # not a test class, despite its name

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows read straight from the database with its own driver, not through the server.

        ``sql`` marks its parameters with ``%s``.
        """
        if self.path is not None:
            with closing(sqlite3.connect(self.path)) as conn:
                return conn.execute(sql.replace("%s", "?"), params).fetchall()
        import psycopg

        with psycopg.connect(libpq_url(self.url), connect_timeout=10) as conn:
            return conn.execute(sql, params).fetchall()  # type: ignore[arg-type]

    def execute(self, sql: str, *params: Any) -> None:
        """A change made straight in the database (``%s`` marks the parameters), committed."""
        if self.path is not None:
            with closing(sqlite3.connect(self.path)) as conn, conn:
                conn.execute(sql.replace("%s", "?"), params)
            return
        import psycopg

        with psycopg.connect(libpq_url(self.url), connect_timeout=10) as conn:
            conn.execute(sql, params)  # type: ignore[arg-type]

    def actions(self, game_id: str) -> list[tuple[int, int, str]]:
        """The stored actions of a game: (number, player, action), in order."""
        rows = self.query(
            "select seq, player, action from actions where game_id = %s order by seq", game_id
        )
        return [(int(seq), int(player), str(action)) for seq, player, action in rows]


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as psycopg (libpq) takes it."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def sqlite_database(path: Path) -> TestDatabase:
    return TestDatabase("sqlite", f"sqlite:///{path}", path)


@contextmanager
def postgres_database(base_url: str, *, upgraded: bool = True) -> Iterator[TestDatabase]:
    """A fresh schema on the PostgreSQL server at ``base_url``, dropped afterwards; its
    tables made as ``conquian db upgrade`` makes them (unless ``upgraded`` is False: an
    empty schema, which a server refuses).

    The URL handed to the server sets the schema as its ``search_path``, so the
    server's tables go there and tests never see each other's games.
    """
    import psycopg

    if base_url.startswith(("postgres://", "postgresql://")):
        base_url = "postgresql+psycopg://" + base_url.split("://", 1)[1]
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = libpq_url(base_url)
    with psycopg.connect(admin, connect_timeout=10, autocommit=True) as conn:
        conn.execute(f"create schema {schema}")
    url = make_url(base_url).update_query_dict({"options": f"-csearch_path={schema}"})
    shown = url.render_as_string(hide_password=False)
    if upgraded:
        tables_at_head(shown)
    try:
        yield TestDatabase("postgresql", shown)
    finally:
        with psycopg.connect(admin, connect_timeout=10, autocommit=True) as conn:
            conn.execute(f"drop schema {schema} cascade")


def live_match(client: Any, game_id: str) -> LiveMatch:
    """The match in the server's memory of a ``TestClient``'s app (loaded from the database
    if it was dropped)."""
    hub = client.app.state.hub
    found = hub.rooms.get(game_id)
    if found is None:
        found = client.portal.call(hub.get, game_id)
    live: LiveMatch = found.live
    return live


def upgrade_database(url: str) -> None:
    """What ``conquian db upgrade --db URL`` does."""
    from conquian.web.schema import make_engine
    from conquian.web.upgrade import upgrade

    engine = make_engine(url)
    with engine.begin() as conn:
        upgrade(conn)
    engine.dispose()


def tables_at_head(url: str) -> None:
    """The tables ``conquian db upgrade`` makes in an empty database, made faster: from the
    metadata, stamped with this release's revision (the migrations make exactly these:
    tests/test_web_migrations.py)."""
    from sqlalchemy import text

    from conquian.web.schema import make_engine, metadata
    from conquian.web.upgrade import head

    engine = make_engine(url)
    with engine.begin() as conn:
        metadata.create_all(conn, checkfirst=False)
        conn.execute(text("create table alembic_version (version_num varchar(32) primary key)"))
        conn.execute(text("insert into alembic_version values (:head)"), {"head": head()})
    engine.dispose()


def skip_unless_ci(why: str) -> NoReturn:
    """Skip the test for want of a component, saying ``why``; under CI (``CI`` set, or
    ``CONQUIAN_CI``, which .ci/run sets) fail it instead: CI installs every component."""
    import pytest

    if os.environ.get("CI") or os.environ.get("CONQUIAN_CI"):
        pytest.fail(why)
    pytest.skip(why)


def postgres_url_or_skip() -> str:
    """The test PostgreSQL server's URL; the test is skipped, saying why, if none is set
    (failed under CI: :func:`skip_unless_ci`)."""
    url = os.environ.get(POSTGRES_ENV, "")
    if url:
        return url
    skip_unless_ci(
        f"{POSTGRES_ENV} is not set, so nothing runs against PostgreSQL (.ci/run sets it)"
    )


def check_wire(db: TestDatabase, received: Iterable[tuple[int | None, str]]) -> int:
    """Check messages captured on the wire against the true games rebuilt from the database.

    ``received`` holds (seat, raw text) pairs; every state message is checked against
    its game as it was after the message's number of actions.  Returns how many were.
    """
    games: dict[tuple[str, int], LiveMatch] = {}
    loaded: dict[str, Any] = {}
    checked = 0
    for seat, raw in received:
        message = json.loads(raw)
        if message.get("type") != "state":
            continue
        game_id, seq = message["game"]["id"], message["seq"]
        if game_id not in loaded:
            loaded[game_id] = load_stored(db.url, game_id)
            assert loaded[game_id] is not None, game_id
        row, actions, shuffles = loaded[game_id]
        key = (game_id, seq)
        if key not in games:
            games[key] = LiveMatch(row, actions[:seq], shuffles)
        assert message["seat"] == seat
        assert_secret({**message, "_raw": raw}, games[key], seat)
        checked += 1
    return checked


def load_stored(url: str, match_id: str) -> Loaded | None:
    """A match as the database at ``url`` holds it (the store is awaited: read here in an
    event loop of its own, in a thread of its own, since the caller may be running one: the
    Playwright tests are)."""

    async def read() -> Loaded | None:
        store = open_store(url)
        try:
            return await store.load(match_id)
        finally:
            await store.close()

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, read()).result()


NGINX = "/usr/sbin/nginx"
DEPLOY_DOC = Path(__file__).resolve().parent.parent / "docs" / "deploy.md"


def nginx_or_skip() -> None:
    """Skip the test if Debian's nginx is not installed (failed under CI: :func:`skip_unless_ci`)."""
    if not os.path.exists(NGINX):
        skip_unless_ci(f"{NGINX} is not installed (apt-get install nginx; .ci/run installs it)")


def documented_nginx_config() -> str:
    """The first nginx block of docs/deploy.md."""
    found = re.search(r"```nginx\n(.*?)```", DEPLOY_DOC.read_text(encoding="utf-8"), re.S)
    assert found, "docs/deploy.md has no nginx configuration"
    return found[1]


def nginx_conf(folder: Path, port: int, upstreams: list[int]) -> str:
    """A whole nginx.conf: the documented server, without TLS, on ``port``, in front of
    ``upstreams``; every file nginx writes inside ``folder``, and each request's path and
    the upstream that answered it in ``access.log``."""
    body = documented_nginx_config()
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


@contextmanager
def running_nginx(folder: Path, upstreams: list[int]) -> Iterator[str]:
    """Debian's nginx with the configuration of docs/deploy.md in front of the servers on
    the ports ``upstreams``, its files in ``folder`` (made here); yields its base URL."""
    from conquian.tools.load import free_port

    port = free_port()
    folder.mkdir()
    (folder / "nginx.conf").write_text(nginx_conf(folder, port, upstreams))
    command = [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf")]
    test = subprocess.run([*command, "-t"], capture_output=True, text=True)
    assert test.returncode == 0, test.stderr
    nginx = subprocess.Popen([*command, "-g", "daemon off;"], stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while True:  # until nginx accepts connections
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert nginx.poll() is None, "nginx stopped"
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        nginx.terminate()
        nginx.wait(15)


def routed_requests(folder: Path) -> list[tuple[str, str]]:
    """The requests nginx (of :func:`running_nginx`) has logged: (path, upstream)."""
    lines = (folder / "access.log").read_text().splitlines()
    return [(path, upstream) for path, upstream in (line.split(" ", 1) for line in lines)]


def play_to_the_end_of_deal(ws: Any, deal: int, rng: random.Random) -> dict[str, Any]:
    """Play random moves until deal ``deal`` has ended; the state that says so."""
    msg_id, waiting = 0, False
    while True:
        msg: dict[str, Any] = json.loads(ws.receive_text())
        assert msg["type"] != "error", msg
        if msg["type"] != "state" or msg["obs"] is None:
            continue
        if waiting and msg.get("ack") != msg_id - 1:
            continue  # sent before the move was seen
        waiting = False
        if msg["last"] is not None and msg["last"]["deal"] >= deal:
            return msg
        legal = msg["obs"]["legal_actions"]
        if legal:
            ws.send_text(json.dumps({"type": "act", "action": rng.choice(legal), "id": msg_id}))
            msg_id, waiting = msg_id + 1, True


def finished_bot_game(client: Any, seed: int) -> str:
    """The id of a one-deal game against the easy computer, played to its end at random
    (``seed``) through ``client`` (a Starlette ``TestClient``)."""
    request = {"mode": "bot", "level": "easy", "name": "Ana"}
    request["rules"] = "standard,match=n_deals,match_target=1"
    made = client.post("/api/games", json=request).json()
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_text(hello(made["token"]))
        play_to_the_end_of_deal(ws, 1, random.Random(seed))
    game_id: str = made["id"]
    return game_id


PASSWORD = "tamales de elote 7"
"""The password of the accounts the tests make."""
ORIGIN = {"Origin": "http://testserver"}
"""The page's origin as a Starlette ``TestClient`` serves it."""


class Browser:
    """One browser: its own cookies, the server's page as its origin."""

    def __init__(self, server: TestClient) -> None:
        self.server = server
        self.cookies = httpx2.Cookies()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def request(self, method: str, path: str, **options: Any) -> httpx2.Response:
        with self.using() as client:
            headers = {**ORIGIN, **options.pop("headers", {})}
            return client.request(method, path, headers=headers, **options)

    def get(self, path: str, **options: Any) -> httpx2.Response:
        return self.request("GET", path, **options)

    def post(self, path: str, **options: Any) -> httpx2.Response:
        return self.request("POST", path, **options)

    @contextmanager
    def using(self) -> Iterator[TestClient]:
        """The server's client, holding this browser's cookies while it is used."""
        self.server.cookies = self.cookies
        try:
            yield self.server
        finally:
            self.cookies = httpx2.Cookies(self.server.cookies)


def make_account(client: Browser, name: str, login: str) -> dict[str, object]:
    assert client.post("/api/me", json={"name": name}).status_code == 200
    made = client.post("/api/account/password", json={"login": login, "password": PASSWORD})
    assert made.status_code == 200, made.text
    facts: dict[str, object] = made.json()
    return facts
