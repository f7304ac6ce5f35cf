"""Who a visitor is (issue 40, identity): a guest player from the first visit, kept by a
signed session cookie, with a name he may change; the seats he takes carry his player; no
answer gives one visitor another's cookie or name change."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from starlette.testclient import TestClient
from web_helpers import TestDatabase

from conquian.web.app import create_app
from conquian.web.identity import SESSION_COOKIE
from conquian.web.server import session_secret

SECRET = "a-secret-for-the-tests"


@pytest.fixture
def app_url(database: TestDatabase) -> str:
    return database.url


@pytest.fixture
def client(database: TestDatabase) -> Iterator[TestClient]:
    with TestClient(create_app(database.url, bot_delay=0, session_secret=SECRET)) as c:
        yield c


def seat_players(database: TestDatabase, game_id: str) -> list[tuple[int, str | None]]:
    engine = create_engine(database.url)
    with engine.connect() as conn:
        found = conn.execute(
            text("select seat, player_id from seats where game_id = :g order by seat"),
            {"g": game_id},
        )
        rows = [(int(r[0]), r[1]) for r in found]
    engine.dispose()
    return rows


def test_a_visitor_is_the_same_player_on_every_visit_and_another_is_not(
    database: TestDatabase, client: TestClient
) -> None:
    first = client.get("/api/me")
    assert first.status_code == 200 and first.headers["cache-control"] == "no-store"
    me = first.json()
    assert me["guest"] is True and me["ratings"] == {} and me["name"].startswith("Guest ")
    spanish = client.get("/api/me", headers={"Accept-Language": "es-MX"}).json()
    assert spanish["name"] == me["name"].replace("Guest", "Invitado")  # made up: in words
    cookie = first.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=") and "httponly" in cookie.lower()
    assert "samesite=lax" in cookie.lower() and "secure" not in cookie.lower()  # plain http
    assert client.get("/api/me").json() == me  # the same cookie: the same player
    with TestClient(create_app(database.url, bot_delay=0, session_secret=SECRET)) as other:
        assert other.get("/api/me").json()["id"] != me["id"]
        other.cookies.set(SESSION_COOKIE, "forged." + client.cookies[SESSION_COOKIE][7:])
        forged = other.get("/api/me")  # a cookie that does not verify counts as none
        assert forged.status_code == 200 and forged.json()["id"] != me["id"]
    # a restart with the same key keeps the player; another key does not
    with TestClient(create_app(database.url, bot_delay=0, session_secret=SECRET)) as again:
        again.cookies.set(SESSION_COOKIE, client.cookies[SESSION_COOKIE])
        assert again.get("/api/me").json()["id"] == me["id"]
    with TestClient(create_app(database.url, bot_delay=0, session_secret="other")) as changed:
        changed.cookies.set(SESSION_COOKIE, client.cookies[SESSION_COOKIE])
        assert changed.get("/api/me").json()["id"] != me["id"]


def test_the_name_is_changed_and_bad_names_change_nothing(client: TestClient) -> None:
    me = client.get("/api/me").json()
    renamed = client.post("/api/me", json={"name": " Lupe "})
    assert renamed.status_code == 200 and renamed.json()["name"] == "Lupe"
    assert client.get("/api/me").json() == {**me, "name": "Lupe", "named": True}
    for body, status in (
        ({"name": ""}, 400),
        ({"name": "x" * 25}, 400),
        ({"name": 5}, 400),
        ({"nombre": "Ana"}, 400),
    ):
        answer = client.post("/api/me", json=body)
        assert answer.status_code == status and answer.json()["error"], (body, answer.text)
    refused = client.post(
        "/api/me", json={"name": "Eve"}, headers={"Origin": "https://evil.example"}
    )
    assert refused.status_code == 403
    assert client.get("/api/me").json()["name"] == "Lupe"


def test_the_seats_taken_carry_their_players_and_a_name_given_is_kept(
    database: TestDatabase, client: TestClient
) -> None:
    ana = client.get("/api/me").json()
    made = client.post("/api/games", json={"mode": "friend", "name": "Ana"}).json()
    assert client.get("/api/me").json()["name"] == "Ana"  # the name given is hers from now on
    with TestClient(create_app(database.url, bot_delay=0, session_secret=SECRET)) as ben:
        joined = ben.post(f"/api/games/{made['id']}/join", json={}).json()  # no name given
        ben_me = ben.get("/api/me").json()
        facts = ben.get(f"/api/games/{made['id']}").json()
        assert facts["names"][joined["seat"]] == "Player 2"  # he gave none: the seat's number
        assert ben_me["name"].startswith("Guest ")
        ben.post("/api/me", json={"name": "Ben"})
        rematch = client.post("/api/games", json={"mode": "friend"}).json()  # Ana, no name
        ben.post(f"/api/games/{rematch['id']}/join", json={})
        again = ben.get(f"/api/games/{rematch['id']}").json()
        assert again["names"] == ["Ana", "Ben"]  # each sits down with the name he gave
    assert seat_players(database, made["id"]) == [(0, ana["id"]), (1, ben_me["id"])]
    # no answer about the game names a player's id
    assert ana["id"] not in json.dumps(facts) and ben_me["id"] not in json.dumps(facts)


def test_serve_keeps_one_session_key_readable_by_its_owner_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CONQUIAN_SESSION_SECRET", raising=False)
    key = session_secret(tmp_path)
    assert session_secret(tmp_path) == key and len(key) >= 40
    assert (tmp_path / "session-secret").stat().st_mode & 0o777 == 0o600
    monkeypatch.setenv("CONQUIAN_SESSION_SECRET", "from-the-environment")
    assert session_secret(tmp_path) == "from-the-environment"


def test_the_cookie_is_secure_over_https(database: TestDatabase) -> None:
    app = create_app(database.url, bot_delay=0, session_secret=SECRET)
    with TestClient(app, base_url="https://testserver") as secure:
        cookie = secure.get("/api/me").headers["set-cookie"].lower()
    assert "secure" in cookie and "httponly" in cookie
