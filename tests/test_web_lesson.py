"""The guided first hand (*Aprende a jugar*) in the web server: made with ``{"mode":
"lesson"}``, its words in each state of the learner, another move refused with what the
lesson asks, played to its end over a websocket against a real database."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import TestDatabase, assert_secret, hello, live_match

from conquian.bots.lesson import LESSON_DECK, LESSON_MOVES
from conquian.web.app import create_app
from conquian.web.live import LiveMatch


@pytest.fixture
def client(database: TestDatabase) -> Iterator[TestClient]:
    with TestClient(create_app(database.url, bot_delay=0)) as c:
        yield c


@contextmanager
def seat_socket(
    client: TestClient, game_id: str, token: str | None = None, lang: str = "en"
) -> Iterator[Any]:
    with client.websocket_connect(f"/ws/{game_id}", headers={"accept-language": lang}) as ws:
        ws.send_text(hello(token))
        yield ws


live = live_match


def receive(ws: Any) -> dict[str, Any]:
    raw = ws.receive_text()
    data: dict[str, Any] = json.loads(raw)
    data["_raw"] = raw
    return data


def text_of(words: list[Any]) -> str:
    return "".join(w if isinstance(w, str) else w["card"] for w in words)


def play_the_lesson(client: TestClient, lang: str) -> tuple[list[str], list[str], dict[str, Any]]:
    """The lesson played to its end in ``lang``, one wrong move tried at each of the learner's
    steps: the lesson's words at each step, the refusals, and the last state."""
    made = client.post(
        "/api/games", json={"mode": "lesson", "name": "Ana"}, headers={"Accept-Language": lang}
    )
    assert made.status_code == 201, made.text
    game_id, token = made.json()["id"], made.json()["token"]
    facts = client.get(f"/api/games/{game_id}").json()
    assert facts["mode"] == "lesson" and facts["rules"] == "mexican,num_players=2"
    game = live(client, game_id)
    assert game.game.deck == LESSON_DECK and not game.fair
    said: list[str] = []
    refusals: list[str] = []
    with seat_socket(client, game_id, token, lang) as ws:
        tried = handled = -1
        right = ""
        while True:
            msg = receive(ws)
            if msg["type"] == "error":
                assert (msg["words"] and any(isinstance(w, dict) for w in msg["words"])) or (
                    "force" in msg["message"] or "fuerces" in msg["message"]
                ), msg
                refusals.append(msg["message"])  # nothing changed: the right move now
                ws.send_text(json.dumps({"type": "act", "action": right, "id": "right"}))
                continue
            assert msg["type"] == "state", msg
            game = live(client, game_id)
            if msg["seq"] != game.seq or msg["seq"] == handled:
                continue  # an older state (the computer moved since), or sent again (lang)
            handled = msg["seq"]
            assert_secret(msg, game, 0)
            if msg["match"]["over"]:
                break
            legal = msg["obs"]["legal_actions"]
            if not legal:
                assert msg.get("lesson") == [], msg.get("lesson")  # the computer plays
                continue
            lines = msg["lesson"]
            assert lines, msg
            if not said or said[-1] != text_of(lines[-1]):
                said.append(text_of(lines[-1]))
            expected = game.lesson_expects(0)
            assert expected is not None and str(expected) in legal
            right = str(expected)
            wrong = [a for a in legal if a != right]
            if wrong and tried != msg["seq"]:
                tried = msg["seq"]
                ws.send_text(json.dumps({"type": "act", "action": wrong[0], "id": "wrong"}))
                continue
            ws.send_text(json.dumps({"type": "act", "action": right, "id": "right"}))
    assert [str(e.action) for e in game.game.history] == [str(a) for a in _lesson_actions()], (
        "only the lesson's moves were played"
    )
    return said, refusals, msg


def _lesson_actions() -> list[Any]:
    from conquian.bots.lesson import expected_action, lesson_game

    game = lesson_game()
    out = []
    for _move in LESSON_MOVES:
        action = expected_action(game)
        out.append(action)
        game.push(action)  # type: ignore[arg-type]
    return out


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_lesson_is_played_to_its_end_over_a_websocket(client: TestClient, lang: str) -> None:
    said, refusals, last = play_the_lesson(client, lang)
    learner_steps = [m for m in LESSON_MOVES if m.topic]
    assert len(said) == len(learner_steps)
    game_text = " ".join(said)
    if lang == "es":
        assert said[0].startswith("Aprende a jugar") is False  # the intro is its own line
        assert "Primero, el cambio" in said[0] and "Fuérzala" in game_text
        assert any("la lección te pide" in r for r in refusals)
        end = [text_of(line) for line in last["lesson"]]
        assert end[0] == "¡Ganaste! Bajaste 9 cartas."
    else:
        assert "First, the exchange" in said[0] and "Force it." in game_text
        assert any("the lesson asks you" in r for r in refusals)
        assert text_of(last["lesson"][0]) == "You won! You laid down 9 cards."
    # a wrong move was tried wherever there was one, and each changed nothing
    assert len(refusals) >= 5
    assert last["last"]["winner"] == 0


def test_the_lesson_s_first_state_opens_with_what_wins(client: TestClient) -> None:
    made = client.post("/api/games", json={"mode": "lesson"}).json()
    with seat_socket(client, made["id"], made["token"]) as ws:
        msg = receive(ws)
        assert msg["type"] == "state"
        lines = [text_of(line) for line in msg["lesson"]]
    assert lines[0].startswith("Learn to play: one hand against the computer")
    assert "9 cards" in lines[1] and lines[2].startswith("First, the exchange")
    assert msg["game"]["names"][1] == "Computer" and msg["game"]["hints"] is False


def test_a_spectator_and_a_lesson_request_with_other_fields(client: TestClient) -> None:
    made = client.post("/api/games", json={"mode": "lesson"}).json()
    with seat_socket(client, made["id"]) as ws:  # watching: no lesson words, no hand
        msg = receive(ws)
        assert msg["type"] == "state" and "lesson" not in msg and msg["seat"] is None
    for extra in ({"level": "easy"}, {"rules": "standard"}, {"seats": []}):
        bad = client.post("/api/games", json={"mode": "lesson", **extra})
        assert bad.status_code == 400 and "lesson" in bad.json()["error"].lower(), bad.text


def test_the_lesson_again_deals_the_lesson_again(client: TestClient) -> None:
    _said, _refusals, last = play_the_lesson(client, "en")
    game_id = last["game"]["id"]
    token = client.get(f"/api/games/{game_id}").json()  # facts only: no token in them
    assert "token" not in token
    game = live(client, game_id)
    row = game.rematch_row(keep_count=False)
    assert row.mode == "lesson" and not row.fair
    again = LiveMatch(row)
    assert again.game.deck == LESSON_DECK and again.bot_to_act() is None
