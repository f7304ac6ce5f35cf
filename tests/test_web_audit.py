"""The second audit's web findings (docs/reliability.md), one input at a time: deal numbers
that ``str.isdigit`` takes and ``int`` refuses (L1), lone surrogates in secrets (L2), and an
upload that stops half-way (L8).  Each gets a clear error, and the server goes on."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import finished_bot_game, strict_json

from conquian.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", bot_delay=0)) as c:
        yield c


def finished_game(client: TestClient) -> str:
    """The id of a one-deal game against the computer, played to its end."""
    return finished_bot_game(client, 3)


@pytest.mark.parametrize("deal", ["²", "➋", "1" * 5000, "1" * 10, "-1", "1.0"])
@pytest.mark.parametrize("route", ["records", "replay"])
def test_a_deal_number_that_is_no_number_is_a_400(
    client: TestClient, route: str, deal: str
) -> None:
    game_id = finished_game(client)
    answer = client.get(f"/api/games/{game_id}/{route}/{deal}")
    assert answer.status_code == 400, answer.text
    assert "must be a number" in answer.json()["error"]
    assert client.get(f"/api/games/{game_id}/{route}/1").status_code == 200


def test_a_lone_surrogate_in_an_invitation_or_a_token_is_refused_and_the_socket_goes_on(
    client: TestClient,
) -> None:
    made = client.post("/api/games", json={"mode": "friend", "name": "Ana"}).json()
    body = b'{"invite": "\\ud800", "name": "Ben"}'
    answer = client.post(
        f"/api/games/{made['id']}/join", content=body, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code in (403, 404), answer.text
    assert answer.json()["error"]
    for token in ("\ud800", "a\udfffb"):
        with client.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            reply = strict_json(ws.receive_text())
            assert reply["type"] == "error", reply
            ws.send_text(json.dumps({"type": "ping", "id": 1}))
            while (reply := strict_json(ws.receive_text()))["type"] != "pong":
                assert reply["type"] in ("state", "error"), reply


def test_an_upload_that_stops_half_way_logs_no_traceback(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    messages: list[dict[str, Any]] = [
        {"type": "http.request", "body": b'{"mode": "fri', "more_body": True},
        {"type": "http.disconnect"},
    ]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return messages.pop(0)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/games",
        "raw_path": b"/api/games",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
        "state": {},
        "app": client.app,
    }
    with caplog.at_level(logging.INFO):
        client.portal.call(client.app, scope, receive, send)  # type: ignore[union-attr]
    assert sent[0]["status"] == 400
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def test_a_stake_no_record_could_hold_is_refused_when_the_game_is_made(
    client: TestClient,
) -> None:
    """The audit's M4 on the web: the game is refused at once, naming base_stake, rather than
    played to records that no tool could read."""
    request = {"mode": "bot", "level": "easy", "name": "Ana"}
    request["rules"] = "standard,base_stake=1000000000000000000000000000000"
    answer = client.post("/api/games", json=request)
    assert answer.status_code == 400, answer.text
    assert "base_stake" in answer.json()["error"]
    assert client.get("/api/lobby").json() == {"open": [], "playing": []}
