"""The moves of a deal that each state message carries (its log in words and its history as
text) are kept from message to message and extended by the new moves: they must be what
writing them from the start of the deal gives, for every seat, a spectator and each
language, through a move taken back and into the next deal."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import TestDatabase, hello

from conquian.present.i18n import speaking
from conquian.present.words import Names, describe_events
from conquian.web.app import create_app
from conquian.web.hub import MARKED, Hub, LiveMatch, segments


@pytest.fixture
def client(database: TestDatabase) -> Iterator[TestClient]:
    with TestClient(create_app(database.url, bot_delay=0)) as c:
        yield c


def dealt_game(client: TestClient, request: dict[str, Any]) -> LiveMatch:
    """A game against the computer, dealt (its player said hello), loaded afresh from the
    database: a copy nobody else moves."""
    made = client.post("/api/games", json={"name": "Ana", **request})
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        ws.send_text(hello(made.json()["token"]))
        while json.loads(ws.receive_text())["type"] != "state":
            pass
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    loaded = hub.store.load(game_id)
    assert loaded is not None
    row, actions, shuffles = loaded
    return LiveMatch(row, actions, shuffles)


def written_afresh(live: LiveMatch, seat: int | None) -> tuple[list[str], list[Any]]:
    """The history and the log of the deal in play, written from its start."""
    game = live.game
    seen = [e.seen_by(-1 if seat is None else seat) for e in game.history]
    names = Names(live.shown_names(), me=seat)
    lines = describe_events(seen, names, MARKED, live.rules.cards_to_win)
    return [str(e) for e in seen], [segments(line) for line in lines]


def check_views(live: LiveMatch, seats: list[int | None]) -> None:
    for code in ("en", "es", "ru"):
        with speaking(code):
            for seat in seats:
                view = live.view(seat)
                history, log = written_afresh(live, seat)
                assert view["obs"]["history"] == history, (code, seat)
                assert view["log"] == log, (code, seat)


@pytest.mark.parametrize(
    "request_",
    [
        {"mode": "bot", "level": "easy", "rules": "standard,match=n_deals,match_target=3"},
        {
            "rules": "tercerilla,match=n_deals,match_target=3",
            "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}],
        },
    ],
    ids=["two players", "tercerilla"],
)
def test_the_kept_log_is_the_log_written_afresh(
    client: TestClient, request_: dict[str, Any]
) -> None:
    live = dealt_game(client, request_)
    seats: list[int | None] = [*range(len(live.seats)), None]
    rng = random.Random(11)
    deals_seen = {live.deal_number}
    taken_back = 0
    check_views(live, seats)
    while not live.match.is_over and len(deals_seen) < 3:
        state = live.game.state
        player, actions = state.to_act, live.game.legal_actions()
        if len(actions) > 1 and rng.random() < 0.1:
            # a move whose storing failed is taken back after its views were written
            live.push(player, actions[0])
            live.view(player)
            live.undo()
            taken_back += 1
        live.settle(live.push(player, rng.choice(actions)))
        deals_seen.add(live.deal_number)
        check_views(live, seats)
    assert taken_back > 0 and len(deals_seen) >= 2
