"""Accounts (issue 40): a guest keeps his player by giving it a password (or a passkey: the
browser test); he signs in from another browser and is the same player there, with his
settings; sessions end at sign-out and never carry over a sign-in; recovery codes sign in
once; a failed sign-in says nothing of whether the login exists; erasing an account keeps
its games, anonymised; no answer shows one player's private data to another."""

from __future__ import annotations

import io
import json
import logging
import zipfile
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import PASSWORD, Browser, TestDatabase, finished_bot_game, make_account

from conquian.records import GameRecord
from conquian.web.app import create_app
from conquian.web.identity import SESSION_COOKIE

SECRET = "accounts-test-key"


@pytest.fixture
def app(database: TestDatabase) -> Iterator[TestClient]:
    """The server, to which each :class:`Browser` sends its requests."""
    with TestClient(create_app(database.url, bot_delay=0, session_secret=SECRET)) as client:
        yield client


def browser(server: TestClient) -> Browser:
    return Browser(server)


def test_a_password_keeps_the_player_on_another_browser_and_sign_out_ends_the_session(
    app: TestClient,
) -> None:
    with browser(app) as home, browser(app) as phone:
        guest = home.get("/api/me").json()
        home.post("/api/me/settings", json={"deck": "spanish", "language": "es", "sound": False})
        made = make_account(home, "Lupe", "Lupe.Garcia")
        codes = made["recovery_codes_new"]
        assert isinstance(codes, list) and len(set(codes)) == 10
        assert made["login"] == "lupe.garcia" and made["guest"] is False
        me = home.get("/api/me").json()
        assert me["id"] == guest["id"] and me["guest"] is False and me["name"] == "Lupe"
        assert "recovery_codes_new" not in home.get("/api/account").json()  # shown once

        stranger = phone.get("/api/me").json()
        assert stranger["id"] != me["id"]
        before = phone.cookies.get(SESSION_COOKIE)
        signed = phone.post(
            "/api/signin/password", json={"login": " LUPE.garcia", "password": PASSWORD}
        )
        assert signed.status_code == 200, signed.text
        assert signed.json()["id"] == me["id"] and signed.json()["name"] == "Lupe"
        assert signed.json()["settings"] == {"deck": "spanish", "language": "es", "sound": False}
        after = phone.cookies.get(SESSION_COOKIE)
        assert after and after != before  # a new session at sign-in
        assert home.get("/api/account").json()["sessions"] == 2

        # the cookie from before the sign-in is the guest's still, never the account's
        with browser(app) as copy:
            copy.cookies.set(SESSION_COOKIE, str(before))
            assert copy.get("/api/me").json()["id"] == stranger["id"]

        out = phone.post("/api/signout", json={})
        assert out.status_code == 200 and out.json() == {"signed_out": True}
        assert phone.get("/api/me").json()["id"] not in (me["id"], stranger["id"])
        # the signed-out cookie, kept by someone, no longer signs in
        with browser(app) as thief:
            thief.cookies.set(SESSION_COOKIE, str(after))
            assert thief.get("/api/me").json()["id"] != me["id"]
        assert home.get("/api/me").json()["id"] == me["id"]  # the other browser stays in

        # signing out everywhere ends the other browsers' sessions too
        phone.post("/api/signin/password", json={"login": "lupe.garcia", "password": PASSWORD})
        assert phone.get("/api/me").json()["id"] == me["id"]
        assert home.post("/api/signout", json={"everywhere": True}).status_code == 200
        assert phone.get("/api/me").json()["id"] != me["id"]
        assert phone.post("/api/signout", json={}).status_code == 403  # a guest now


def test_a_failed_sign_in_says_nothing_of_the_login_and_changes_nothing(
    app: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with browser(app) as home, browser(app) as other:
        make_account(home, "Lupe", "lupe")
        me = other.get("/api/me").json()
        wrong = other.post("/api/signin/password", json={"login": "lupe", "password": "x" * 9})
        nobody = other.post("/api/signin/password", json={"login": "nadie", "password": "x" * 9})
        assert wrong.status_code == nobody.status_code == 401
        assert wrong.json() == nobody.json() and "sign" in wrong.json()["error"]
        code = other.post("/api/signin/recovery", json={"code": "2345-6789-abcd-efgh"})
        key = other.post("/api/signin/passkey", json={"credential": {"id": "AAAA"}})
        assert code.json() == key.json() == wrong.json()
        assert other.get("/api/me").json()["id"] == me["id"]  # still the same guest
        for body, field in (
            ({"login": "lupe"}, "password"),
            ({"login": "lupe", "password": 7}, "password"),
            ({"login": "lupe", "password": PASSWORD, "admin": True}, "admin"),
        ):
            refused = other.post("/api/signin/password", json=body)
            assert refused.status_code == 400 and field in refused.json()["error"]
        for body in (
            {"login": "lu", "password": PASSWORD},
            {"login": "lupe garcia", "password": PASSWORD},
            {"login": "lupe2", "password": "short"},
        ):
            assert other.post("/api/account/password", json=body).status_code == 400
        taken = other.post("/api/account/password", json={"login": "LUPE", "password": PASSWORD})
        assert taken.status_code == 409
        assert other.get("/api/me").json() == me  # still a guest, nothing kept
        # another site's page may not sign in, nor make an account
        foreign = {"Origin": "https://elsewhere.example"}
        attempt = other.post("/api/signin/password", json={}, headers=foreign)
        assert attempt.status_code == 403
    said = "\n".join(r.getMessage() for r in caplog.records)
    assert PASSWORD not in said and "x" * 9 not in said


def test_changing_a_password_needs_the_one_now_and_recovery_codes_sign_in_once(
    app: TestClient,
) -> None:
    with browser(app) as home, browser(app) as lost:
        codes = make_account(home, "Lupe", "lupe")["recovery_codes_new"]
        assert isinstance(codes, list)
        change = {"login": "lupe", "password": "a new password 8"}
        assert home.post("/api/account/password", json=change).status_code == 403
        wrong = home.post("/api/account/password", json={**change, "current": "not it at all"})
        assert wrong.status_code == 403
        done = home.post("/api/account/password", json={**change, "current": PASSWORD})
        assert done.status_code == 200 and "recovery_codes_new" not in done.json()

        me = home.get("/api/me").json()
        typed = codes[0].upper().replace("-", " ")  # as read aloud and typed on a phone
        assert lost.post("/api/signin/recovery", json={"code": typed}).json()["id"] == me["id"]
        assert lost.get("/api/account").json()["recovery_codes"] == 9
        with browser(app) as again:
            assert again.post("/api/signin/recovery", json={"code": codes[0]}).status_code == 401
        renewed = lost.post("/api/account/recovery-codes", json={}).json()["recovery_codes_new"]
        with browser(app) as again:
            assert again.post("/api/signin/recovery", json={"code": codes[1]}).status_code == 401
            assert again.post("/api/signin/recovery", json={"code": renewed[0]}).status_code == 200


def test_settings_are_checked_and_kept(app: TestClient) -> None:
    with browser(app) as home:
        assert home.post("/api/me/settings", json={"deck": "spanish"}).json() == {
            "settings": {"deck": "spanish"}
        }
        for bad in ({"deck": "tarot"}, {"language": "xx"}, {"sound": "yes"}, {"theme": "dark"}):
            refused = home.post("/api/me/settings", json=bad)
            assert refused.status_code == 400 and next(iter(bad)) in refused.json()["error"]
        home.post("/api/me/settings", json={"autoplay": True})
        assert home.get("/api/me").json()["settings"] == {"deck": "spanish", "autoplay": True}


def test_erasing_an_account_keeps_its_games_anonymised_and_its_archive_first(
    app: TestClient, database: TestDatabase
) -> None:
    with browser(app) as home, browser(app) as other:
        make_account(home, "Lupe Ortiz", "lupe")
        me = home.get("/api/me").json()
        with home.using() as client:
            game_id = finished_bot_game(client, seed=3)
        archive = home.get("/api/me/archive")
        assert archive.status_code == 200 and archive.headers["content-type"] == "application/zip"
        with zipfile.ZipFile(io.BytesIO(archive.content)) as packed:
            names = packed.namelist()
            record = GameRecord.loads(packed.read(names[0]).decode())
        assert names == [f"conquian-{game_id}-deal1.toml"] and record.players[0] == "Ana"
        assert other.get("/api/me/archive").status_code == 404  # none of his own
        assert other.get(f"/api/players/{me['id']}").json()["games"] == 1

        refused = home.post("/api/account/delete", json={"erase": "yes"})
        assert refused.status_code == 400 and home.get("/api/me").json()["id"] == me["id"]
        erased = home.post("/api/account/delete", json={"erase": True})
        assert erased.status_code == 200 and erased.json() == {"erased": True, "games": 1}
        assert home.get("/api/me").json()["id"] != me["id"]  # a new guest
        assert other.get(f"/api/players/{me['id']}").status_code == 404
        with browser(app) as again:
            login = {"login": "lupe", "password": PASSWORD}
            assert again.post("/api/signin/password", json=login).status_code == 401
        # the game is there still, its record readable, under the seat's number
        records = other.get(f"/api/games/{game_id}/records/1")
        assert records.status_code == 200 and "Ana" not in records.text
        assert GameRecord.loads(records.text).players[0] == "Player 1"
        replay = other.get(f"/api/games/{game_id}/replay/1", headers={"Accept-Language": "es"})
        assert replay.json()["players"][0] == "Jugador 1"
        for table in ("players", "passwords", "sessions", "recovery_codes", "ratings"):
            rows = database.query(
                f"select * from {table} where {table}.{key(table)} = %s", me["id"]
            )
            assert rows == [], table
        assert database.query(
            "select name, player_id from seats where game_id = %s and seat = 0", game_id
        ) == [("Player 1", None)]


def key(table: str) -> str:
    return "id" if table == "players" else "player_id"


def test_no_answer_shows_one_player_s_private_data_to_another(app: TestClient) -> None:
    with browser(app) as ana, browser(app) as ben:
        secrets_of_ana = ["ana.private.login", PASSWORD]
        made = make_account(ana, "Ana", secrets_of_ana[0])
        secrets_of_ana += [str(c) for c in made["recovery_codes_new"]]  # type: ignore[attr-defined]
        ana.post("/api/me/settings", json={"deck": "spanish", "autoplay": True})
        secrets_of_ana.append(str(ana.cookies.get(SESSION_COOKIE)))
        ana_id = ana.get("/api/me").json()["id"]
        with ana.using() as client:
            game_id = finished_bot_game(client, seed=5)
        make_account(ben, "Ben", "ben.login")
        seen = [
            ben.get(path)
            for path in (
                f"/api/players/{ana_id}",
                f"/api/players/{ana_id}/games",
                "/api/leaderboard?form=classic",
                "/api/lobby",
                "/api/me",
                "/api/account",
                f"/api/games/{game_id}",
                f"/api/games/{game_id}/replay/1",
            )
        ]
        profile = seen[0].json()
        assert set(profile) == {"id", "name", "since", "ratings", "games"}
        for answer in seen:
            assert answer.status_code == 200, answer.url
            for secret in secrets_of_ana:
                assert secret not in answer.text, (answer.url, secret)
            assert "settings" not in answer.text or answer.url.path == "/api/me"
        assert json.loads(seen[4].text)["settings"] == {}  # Ben's own: none


def test_a_player_signed_in_elsewhere_takes_his_seat_without_its_token(
    app: TestClient, database: TestDatabase
) -> None:
    """``{"type": "hello", "mine": true}``: the seat of the cookie's player, from any browser
    he is signed in on (his finished game's review there too); anyone else watches."""
    with browser(app) as home, browser(app) as phone, browser(app) as stranger:
        make_account(home, "Lupe", "lupe")
        with home.using() as client:
            game_id = finished_bot_game(client, seed=4)
        phone.post("/api/signin/password", json={"login": "lupe", "password": PASSWORD})

        def hello_mine(who: Browser) -> list[dict[str, Any]]:
            with who.using() as client, client.websocket_connect(f"/ws/{game_id}") as ws:
                ws.send_text(json.dumps({"type": "hello", "mine": True}))
                said = [json.loads(ws.receive_text())]
                while said[-1]["type"] != "state":
                    said.append(json.loads(ws.receive_text()))
                if said[-1]["seat"] == 0 and database.kind == "sqlite":  # (a review: 2 s)
                    ws.send_text(json.dumps({"type": "review", "deal": 1}))
                    while said[-1]["type"] != "review":
                        said.append(json.loads(ws.receive_text()))
                        assert said[-1]["type"] != "error", said[-1]
                return said

        mine = hello_mine(phone)
        assert next(m for m in mine if m["type"] == "state")["seat"] == 0
        if database.kind == "sqlite":  # the review, worked out for his seat
            assert mine[-1]["type"] == "review" and mine[-1]["decisions"], mine[-1]
        watching = hello_mine(stranger)
        assert watching[0]["type"] == "error" and "watching" in watching[0]["message"]
        assert watching[-1]["type"] == "state" and watching[-1]["seat"] is None
