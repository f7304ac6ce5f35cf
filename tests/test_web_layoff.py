"""Rules with ``layoff_on_opponent`` in the web server: each state lists the player's legal
layoffs with the meld each makes, a layoff sent is played (the card on the other player's
table, then the player pays), and nothing hidden is sent on the way."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import TestDatabase, assert_secret, hello, live_match

from conquian.actions import Action
from conquian.cards import Card
from conquian.web.app import create_app

RULES = "mexican,num_players=2,layoff_on_opponent=true"


@pytest.fixture
def client(database: TestDatabase) -> Iterator[TestClient]:
    with TestClient(create_app(database.url, bot_delay=0)) as c:
        yield c


live = live_match


def play_until_a_layoff(client: TestClient, rng: random.Random) -> dict[str, Any] | None:
    """One match against the computer, random moves, the first layoff offered made; the
    state after it (None: the match ended with no layoff offered)."""
    made = client.post("/api/games", json={"mode": "bot", "level": "easy", "rules": RULES})
    assert made.status_code == 201, made.text
    game_id, token = made.json()["id"], made.json()["token"]
    laid: tuple[int, str] | None = None
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        ws.send_text(hello(token))
        handled = -1
        while True:
            msg = json.loads(ws.receive_text())
            if msg["type"] != "state":
                continue
            game = live(client, game_id)
            if msg["seq"] != game.seq or msg["obs"] is None or msg["seq"] == handled:
                continue
            handled = msg["seq"]
            assert_secret(msg, game, 0)
            if laid is not None:  # the card is on that player's table, and we pay
                seat, card = laid
                assert any(card in meld for meld in msg["obs"]["tables"][seat]), msg["obs"]
                assert msg["obs"]["phase"] == "discard" and msg["obs"]["to_act"] == 0
                return msg
            if msg["match"]["over"]:
                return None
            legal = msg["obs"]["legal_actions"]
            offs = msg.get("layoffs", [])
            assert [o["text"] for o in offs] == [a for a in legal if a.startswith("layoff")]
            if offs:
                chosen = offs[0]
                action = Action.parse(chosen["text"])
                centre = msg["obs"]["centre"]
                assert centre in chosen["meld"] and chosen["seat"] != 0
                assert len(chosen["meld"]) == action.melds[0].bit_count() + 1
                assert not action.melds[0] >> Card.parse(centre).index & 1  # the meld as it lies
                laid = (chosen["seat"], centre)
                ws.send_text(json.dumps({"type": "act", "action": chosen["text"]}))
            elif legal:
                ws.send_text(json.dumps({"type": "act", "action": rng.choice(legal)}))


def test_a_layoff_is_offered_with_its_meld_and_played(client: TestClient) -> None:
    rng = random.Random(5)
    for _match in range(12):
        after = play_until_a_layoff(client, rng)
        if after is not None:
            break
    else:
        raise AssertionError("no layoff was offered in 12 matches")
    said = json.dumps(after["log"][-1])
    assert "meld" in said, said  # the layoff in the log's words


def test_without_the_flag_no_state_lists_layoffs(client: TestClient) -> None:
    made = client.post("/api/games", json={"mode": "bot", "level": "easy", "rules": "tercerilla"})
    game_id, token = made.json()["id"], made.json()["token"]
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        ws.send_text(hello(token))
        msg = json.loads(ws.receive_text())
        assert msg["type"] == "state" and "layoffs" not in msg
