"""The moves of a deal that each state message carries (its log in words and its history as
events) are kept from message to message and extended by the new moves: they must be what
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
from conquian.web.hub import Hub
from conquian.web.live import LiveMatch
from conquian.web.messages import LOOK, segments
from conquian.web.views import Views


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
    loaded = client.portal.call(hub.store.load, game_id)  # type: ignore[union-attr]
    assert loaded is not None
    row, actions, shuffles = loaded
    return LiveMatch(row, actions, shuffles)


def written_afresh(views: Views, seat: int | None) -> tuple[list[Any], list[Any]]:
    """The history (as events) and the log of the deal in play, written from its start."""
    live = views.live
    game = live.game
    seen = [e.seen_by(-1 if seat is None else seat) for e in game.history]
    names = Names(views.shown_names(), me=seat)
    received = -1 if seat is None else game.state.received(seat)  # the exchange, to him
    lines = describe_events(seen, names, LOOK, live.rules.cards_to_win, received)
    return [e.to_dict() for e in seen], [segments(line) for line in lines]


def check_views(views: Views, seats: list[int | None]) -> None:
    for code in ("en", "es", "ru"):
        with speaking(code):
            for seat in seats:
                view = views.state(seat)
                assert view["obs"] is not None
                history, log = written_afresh(views, seat)
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
    views = Views(live)
    seats: list[int | None] = [*range(len(live.seats)), None]
    rng = random.Random(11)
    deals_seen = {live.deal_number}
    taken_back = 0
    check_views(views, seats)
    while not live.match.is_over and len(deals_seen) < 3:
        state = live.game.state
        player, actions = state.to_act, live.game.legal_actions()
        if len(actions) > 1 and rng.random() < 0.1:
            # a move whose storing failed is taken back after its views were written
            live.push(player, actions[0])
            views.state(player)
            live.undo()
            taken_back += 1
        live.settle(live.push(player, rng.choice(actions)))
        deals_seen.add(live.deal_number)
        check_views(views, seats)
    assert taken_back > 0 and len(deals_seen) >= 2
