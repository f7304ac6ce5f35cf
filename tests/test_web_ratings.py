"""Ratings (issue 40): a rated game between two people moves both ratings the right way when
it ends, once; the players' answers show them; the leaderboards rank the players who are no
longer provisional, by period; bad requests change nothing."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import TestDatabase, hello, live_match

from conquian.actions import ActionKind
from conquian.web.app import create_app
from conquian.web.database import open_store
from conquian.web.ratings import MU, SIGMA, rated, shown
from conquian.web.schema import PlayerRow

SECRET = "ratings-test-key"


@pytest.fixture
def clients(database: TestDatabase) -> Iterator[tuple[TestClient, TestClient]]:
    app = create_app(database.url, bot_delay=0, session_secret=SECRET)
    with TestClient(app) as ana, TestClient(app) as ben:
        yield ana, ben


live = live_match


def play_out(client: TestClient, game_id: str, tokens: list[str], rng: random.Random) -> None:
    """Play the match to its end from both seats, taking wherever one can (so that most
    deals are won, not drawn)."""
    with (
        client.websocket_connect(f"/ws/{game_id}") as a,
        client.websocket_connect(f"/ws/{game_id}") as b,
    ):
        sockets = [a, b]
        for ws, token in zip(sockets, tokens, strict=True):
            ws.send_text(hello(token))
        sent = 0
        while True:
            game = live(client, game_id)
            if game.match.is_over:
                return
            if not game.dealt:
                json.loads(sockets[0].receive_text())
                continue
            seat = game.game.state.to_act
            legal = game.game.legal_actions()
            takes = [x for x in legal if x.kind is ActionKind.TAKE]
            action = takes[0] if takes else rng.choice(legal)
            sent += 1
            sockets[seat].send_text(json.dumps({"type": "act", "action": str(action), "id": sent}))
            while True:  # until this move is acknowledged
                msg = json.loads(sockets[seat].receive_text())
                assert msg["type"] != "error", msg
                if msg.get("ack") == sent:
                    break


def rated_game(ana: TestClient, ben: TestClient, rules: str = "standard") -> str:
    made = ana.post(
        "/api/games", json={"mode": "friend", "name": "Ana", "rules": rules, "rated": True}
    )
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    joined = ben.post(f"/api/games/{game_id}/join", json={"name": "Ben"})
    assert joined.status_code == 200, joined.text
    play_out(ana, game_id, [made.json()["token"], joined.json()["token"]], random.Random(7))
    return str(game_id)


def test_a_rated_game_moves_both_ratings_the_right_way_once(
    clients: tuple[TestClient, TestClient],
) -> None:
    ana, ben = clients
    for _attempt in range(6):  # until a match is won (a drawn one rates a tie)
        game_id = rated_game(ana, ben)
        balance = live(ana, game_id).match.balance
        if balance[0] != balance[1]:
            break
    else:
        raise AssertionError("six drawn matches in a row")
    winner, loser = (ana, ben) if balance[0] > balance[1] else (ben, ana)
    won = winner.get("/api/me").json()["ratings"]["classic"]
    lost = loser.get("/api/me").json()["ratings"]["classic"]
    assert won["rating"] > 1500 > lost["rating"], (won, lost)
    assert won["wins"] == 1 and lost["wins"] == 0 and won["provisional"] and lost["provisional"]
    # the games list says each one's place and rating before and after
    me = winner.get("/api/me").json()
    games = winner.get(f"/api/players/{me['id']}/games").json()["games"]
    assert games[0]["id"] == game_id and games[0]["rated"] and games[0]["place"] == 1
    assert games[0]["rating"][1] == won["rating"] and games[0]["players"] == ["Ana", "Ben"]
    # rated once: a second try changes nothing
    store = live(ana, game_id)
    again = ana.portal.call(  # type: ignore[union-attr]
        ana.app.state.hub.store.rate_match,  # type: ignore[attr-defined]
        game_id,
        "classic",
        [(s.player_id, 0) for s in store.seats],
    )
    assert again is False
    assert winner.get("/api/me").json()["ratings"]["classic"] == won
    # nothing private in the public answers
    board = ana.get("/api/leaderboard?form=classic&period=all").json()
    text = json.dumps(board) + json.dumps(games)
    assert "token" not in text and "invite" not in text and "session" not in text


def test_an_unrated_game_and_one_player_in_two_seats_change_no_rating(
    clients: tuple[TestClient, TestClient],
) -> None:
    ana, ben = clients
    made = ana.post("/api/games", json={"mode": "friend", "name": "Ana"}).json()
    joined = ben.post(f"/api/games/{made['id']}/join", json={"name": "Ben"}).json()
    play_out(ana, made["id"], [made["token"], joined["token"]], random.Random(3))
    assert ana.get("/api/me").json()["ratings"] == {}
    alone = ana.post("/api/games", json={"mode": "friend", "rated": True}).json()
    second = ana.post(f"/api/games/{alone['id']}/join", json={}).json()  # the same browser
    play_out(ana, alone["id"], [alone["token"], second["token"]], random.Random(4))
    assert ana.get("/api/me").json()["ratings"] == {}


def test_rated_requests_are_checked(clients: tuple[TestClient, TestClient]) -> None:
    ana, _ben = clients
    for body, fragment in (
        ({"mode": "bot", "rated": True}, "computer"),
        ({"seats": [{"kind": "bot", "level": "easy"}], "rated": True}, "computer"),
        ({"mode": "friend", "rules": "standard,max_seq_len=10", "rated": True}, "usual rules"),
        ({"mode": "friend", "rated": "yes"}, "true or false"),
    ):
        answer = ana.post("/api/games", json=body)
        assert answer.status_code == 400 and fragment in answer.json()["error"], answer.text
    for query, fragment in (("form=chess", "Unknown form"), ("form=classic&period=year", "period")):
        answer = ana.get(f"/api/leaderboard?{query}")
        assert answer.status_code == 400 and fragment in answer.json()["error"]
    assert ana.get("/api/players/nobody/games").status_code == 404
    assert ana.get("/api/players/x/games?before=soon").status_code in (400, 404)
    made = ana.post("/api/games", json={"mode": "friend", "rules": "tercerilla", "rated": True})
    assert made.status_code == 201  # between people, a rated form: rated
    assert live(ana, made.json()["id"]).rated


def test_the_leaderboards_rank_players_no_longer_provisional_by_period(
    database: TestDatabase,
) -> None:
    """Players rated straight in the store (ten games each takes too long to play here)."""

    async def fill_and_read() -> dict[str, list[dict[str, Any]]]:
        store = open_store(database.url)
        try:
            now = time.time()
            for name in ("Ana", "Ben", "Cy", "Dee"):
                await store.add_player(PlayerRow(name.lower(), name, True, now, now))
            # Ana beats Ben ten times; Cy beats Dee nine times out of ten, long ago
            for number in range(10):
                await store.rate_match(f"g{number}", "classic", [("ana", 1), ("ben", -1)])
                cy = -1 if number == 4 else 1
                await store.rate_match(f"h{number}", "classic", [("cy", cy), ("dee", -cy)])
            await store.rate_match("p0", "tercerilla", [("ana", 2), ("ben", -1), ("cy", -1)])
            old = now - 40 * 86400  # Cy's and Dee's games: forty days ago
            await store._in_thread(_age_games, store, ("cy", "dee"), old)
            return {
                period: await store.leaderboard("classic", since)
                for period, since in (
                    ("all", None),
                    ("month", now - 30 * 86400),
                    ("week", now - 7 * 86400),
                )
            } | {"tercerilla": await store.leaderboard("tercerilla", None)}
        finally:
            await store.close()

    boards = asyncio.run(fill_and_read())
    assert [p["name"] for p in boards["all"]] == ["Ana", "Cy", "Dee", "Ben"]
    ratings = [p["rating"] for p in boards["all"]]
    assert ratings == sorted(ratings, reverse=True) and all(p["games"] == 10 for p in boards["all"])
    assert (
        {p["name"] for p in boards["week"]}
        == {"Ana", "Ben"}
        == {p["name"] for p in boards["month"]}
    )
    assert boards["tercerilla"] == []  # one game each: provisional, left out


def _age_games(store: Any, players: tuple[str, ...], at: float) -> None:
    from sqlalchemy import update

    from conquian.web.schema import rating_events

    with store.engine.begin() as conn:
        conn.execute(
            update(rating_events).where(rating_events.c.player_id.in_(players)).values(at=at)
        )


def test_a_tie_moves_nobody_s_rating_far() -> None:
    """A drawn match (equal balances) is a tie: the same change for each, smaller than a win's."""
    after = rated([(MU, SIGMA)] * 3, [0, 0, 0])
    assert len({round(mu, 9) for mu, _ in after}) == 1
    won = rated([(MU, SIGMA)] * 3, [2, -1, -1])
    assert abs(shown(*after[0]) - 1500) < abs(shown(*won[0]) - 1500)
