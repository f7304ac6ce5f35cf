"""Play now (issue 41, quick match): strangers who ask for the same form sit at one table,
rated; a player alone gets computers after the wait, named as computers; blocked players and
guests and accounts wait apart; a ticket is its player's alone; bad requests change nothing.
The queue is in the database, so these run on SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from starlette.testclient import TestClient
from web_helpers import ORIGIN, Browser, TestDatabase, make_account

from conquian.web.app import create_app
from conquian.web.pairing import Ticket, tables

SECRET = "quick-test-key"


def server(database: TestDatabase, bots_after: float) -> TestClient:
    app = create_app(database.url, bot_delay=0, session_secret=SECRET, quick_bots_after=bots_after)
    return TestClient(app)


@pytest.fixture
def waits(database: TestDatabase) -> Iterator[TestClient]:
    """A server whose tables wait an hour for people (the computers never come)."""
    with server(database, 3600.0) as client:
        yield client


def seated_hello(who: Browser, answer: dict[str, Any]) -> dict[str, Any]:
    """The state the seat of a seated ticket gets, once its page says hello with the token."""
    with who.using() as client, client.websocket_connect(f"/ws/{answer['game']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": answer["token"]}))
        while True:
            msg: dict[str, Any] = json.loads(ws.receive_text())
            assert msg["type"] != "error", msg
            if msg["type"] == "state":
                return msg


def test_two_strangers_sit_at_one_rated_table(waits: TestClient) -> None:
    ana, ben = Browser(waits), Browser(waits)
    first = ana.post("/api/quick", json={"form": "mexican2"})
    assert first.status_code == 200 and first.json()["status"] == "waiting", first.text
    ticket = first.json()["ticket"]
    assert ana.get(f"/api/quick/{ticket}").json()["status"] == "waiting"
    again = ana.post("/api/quick", json={"form": "mexican2"})  # pressed twice: one ticket
    assert again.json()["ticket"] == ticket
    second = ben.post("/api/quick", json={"form": "mexican2"}).json()
    assert second["status"] == "seated" and second["computers"] == 0
    mine = ana.get(f"/api/quick/{ticket}").json()
    assert mine["status"] == "seated" and mine["game"] == second["game"]
    assert {mine["seat"], second["seat"]} == {0, 1} and mine["token"] != second["token"]
    facts = ana.get(f"/api/games/{mine['game']}").json()
    assert facts["rated"] is True and facts["kinds"] == ["human", "human"]
    assert facts["mode"] == "quick" and facts["joined"] == [True, True]
    for who, answer in ((ana, mine), (ben, second)):
        assert seated_hello(who, answer)["seat"] == answer["seat"]
    # a ticket is its player's: nobody else reads it (its token) or cancels it
    assert ben.get(f"/api/quick/{ticket}").status_code == 404
    assert ben.request("DELETE", f"/api/quick/{ticket}").status_code == 404
    # a seated ticket stays seated
    assert ana.request("DELETE", f"/api/quick/{ticket}").json()["status"] == "seated"


def test_a_waiting_request_is_woken_when_its_ticket_is_seated(waits: TestClient) -> None:
    """``GET /api/quick/{ticket}?wait=S`` answers as soon as the ticket is seated (here by
    another player's request), not after S seconds; a bad wait is named."""
    ana, ben = Browser(waits), Browser(waits)
    ticket = ana.post("/api/quick", json={"form": "classic"}).json()["ticket"]
    assert ana.get(f"/api/quick/{ticket}?wait=soon").status_code == 400
    assert ana.get(f"/api/quick/{ticket}?wait=0.05").json()["status"] == "waiting"
    answers: list[dict[str, Any]] = []
    waiting = threading.Thread(
        target=lambda: answers.append(ana.get(f"/api/quick/{ticket}?wait=25").json())
    )
    began = time.monotonic()
    waiting.start()
    while not waits.app.state.quick._waiting:  # (its request waits)
        time.sleep(0.01)
    assert ben.post("/api/quick", json={"form": "classic"}).json()["status"] == "seated"
    waiting.join()
    assert answers[0]["status"] == "seated" and time.monotonic() - began < 20


def test_a_player_alone_gets_computers_after_the_wait(database: TestDatabase) -> None:
    with server(database, 0.0) as client:
        lupe = Browser(client)
        lupe.post("/api/me", json={"name": "Lupe"})
        answer = lupe.post("/api/quick", json={"form": "tercerilla"}).json()
        assert answer["status"] == "seated" and answer["computers"] == 2, answer
        facts = lupe.get(f"/api/games/{answer['game']}", headers={"Accept-Language": "es"}).json()
        assert facts["kinds"].count("bot") == 2 and facts["rated"] is True
        names = [n for n, k in zip(facts["names"], facts["kinds"], strict=True) if k == "bot"]
        assert all(n.startswith("Computadora") for n in names), names
        assert facts["names"][answer["seat"]] == "Lupe"
        state = seated_hello(lupe, answer)
        assert state["seat"] == answer["seat"]
        # her game is rated: each computer counts as a player of its level's rating
        lupe_id = lupe.get("/api/me").json()["id"]
        store = client.app.state.hub.store  # type: ignore[attr-defined]
        results = [(lupe_id, 2), ("computer:medium", -1), ("computer:medium", -1)]
        assert client.portal.call(store.rate_match, answer["game"], "tercerilla", results)
        events = database.query(
            "select player_id, place from rating_events where game_id = %s", answer["game"]
        )
        assert events == [(lupe_id, 1)]  # only the person's rating moves
        mine = lupe.get(f"/api/players/{lupe_id}").json()
        assert mine["ratings"]["tercerilla"]["wins"] == 1, mine


def test_blocked_players_and_guests_and_accounts_wait_apart(waits: TestClient) -> None:
    ana, ben, carl = Browser(waits), Browser(waits), Browser(waits)
    ben_id = ben.get("/api/me").json()["id"]
    assert (
        ana.post(f"/api/players/{ben_id}/block", json={"block": True}).json()["blocked"][0]["id"]
        == ben_id
    )
    first = ana.post("/api/quick", json={"form": "classic"}).json()
    assert ben.post("/api/quick", json={"form": "classic"}).json()["status"] == "waiting"
    assert ana.get(f"/api/quick/{first['ticket']}").json()["status"] == "waiting"
    cancelled = ana.request("DELETE", f"/api/quick/{first['ticket']}")
    assert cancelled.json()["status"] == "cancelled"
    assert carl.post("/api/quick", json={"form": "classic"}).json()["status"] == "seated"
    # a player with an account meets accounts; a guest guests, unless both meet anyone
    make_account(ana, "Ana", "ana.quick")
    dan = Browser(waits)
    assert ana.post("/api/quick", json={"form": "mexican4"}).json()["status"] == "waiting"
    assert dan.post("/api/quick", json={"form": "mexican2"}).json()["status"] == "waiting"
    mixed = ana.post("/api/quick", json={"form": "mexican2", "anyone": True}).json()
    assert mixed["status"] == "waiting"  # dan did not say anyone
    dan_ticket = dan.post("/api/quick", json={"form": "tercerilla"}).json()["ticket"]
    assert (
        dan.post("/api/quick", json={"form": "mexican2", "anyone": True}).json()["status"]
        == "seated"
    )
    assert dan.get(f"/api/quick/{dan_ticket}").json()["status"] == "cancelled"  # one at a time


def test_bad_quick_requests_change_nothing(waits: TestClient) -> None:
    ana = Browser(waits)
    for body, said in (
        ({"form": "poker"}, "poker"),
        ({"form": "classic", "anyone": "yes"}, "anyone"),
        ({"form": "classic", "seats": 3}, "seats"),
        ({}, "form"),
    ):
        refused = ana.post("/api/quick", json=body)
        assert refused.status_code == 400 and said in refused.json()["error"], refused.text
    assert ana.get("/api/quick/nothing").status_code == 404
    foreign = ana.post(
        "/api/quick", json={"form": "classic"}, headers={"Origin": "https://elsewhere.example"}
    )
    assert foreign.status_code == 403
    ticket = ana.post("/api/quick", json={"form": "classic"}).json()["ticket"]
    other_site = ana.request(
        "DELETE", f"/api/quick/{ticket}", headers={"Origin": "https://elsewhere.example"}
    )
    assert other_site.status_code == 403
    assert ana.get(f"/api/quick/{ticket}").json()["status"] == "waiting"
    assert ORIGIN["Origin"] == "http://testserver"


def test_the_rating_window_widens_with_the_wait() -> None:
    """Players far apart wait at first, and meet once the longer waiter has waited."""
    near = [Ticket("a", "ana", 1500, True, False, 0.0), Ticket("b", "ben", 1580, True, False, 0.0)]
    far = [Ticket("a", "ana", 1500, True, False, 0.0), Ticket("c", "cruz", 1850, True, False, 5.0)]
    assert len(tables(near, 2, 0.0, 60.0, set())) == 1
    assert tables(far, 2, 5.0, 60.0, set()) == []
    assert len(tables(far, 2, 13.0, 60.0, set())) == 1  # 100 + 20 x 13 = 360 points
    # a tercerilla is made of people first: three waiting make one table, no computer
    three = [Ticket(x, x, 1500, True, False, 0.0) for x in "xyz"]
    assert [t.computers for t in tables(three, 3, 30.0, 20.0, set())] == [0]


def received_until(ws: Any, done: Any) -> dict[str, Any]:
    """The first state message for which ``done(message)`` holds."""
    while True:
        msg: dict[str, Any] = json.loads(ws.receive_text())
        assert msg["type"] != "error", msg
        if msg["type"] == "state" and done(msg):
            return msg


def test_the_clock_makes_a_decision_for_an_absent_player_and_deals_without_his_seed(
    database: TestDatabase,
) -> None:
    """A quick-match game's clock is kept in the database and made by the server: the
    first deal is dealt without the seed of a player who never came; a decision whose time
    ran out is made for its player by a computer, and after two in a row he is away (his
    decisions due at once) until his page says hello again.  (The looks for what is due are
    made here by the test, the clocks set due by hand: nothing waits for time to pass.)"""
    app = create_app(
        database.url,
        bot_delay=0,
        session_secret=SECRET,
        quick_bots_after=3600.0,
        clocks_every=3600.0,
    )
    with TestClient(app) as client:
        ana, ben = Browser(client), Browser(client)
        ticket = ana.post("/api/quick", json={"form": "classic"}).json()["ticket"]
        seated_ben = ben.post("/api/quick", json={"form": "classic"}).json()
        seated_ana = ana.get(f"/api/quick/{ticket}").json()
        game = seated_ana["game"]
        make_due = lambda: client.portal.call(app.state.timeouts.make_due)  # noqa: E731

        engine = create_engine(database.url)

        def all_due() -> None:  # as if its time had run out
            with engine.begin() as conn:
                conn.execute(text("update clocks set due = 0 where game_id = :g"), {"g": game})

        with ana.using() as c, c.websocket_connect(f"/ws/{game}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": seated_ana["token"]}))
            first = received_until(ws, lambda m: True)
            assert first["obs"] is None and first["clock"]["seat"] == -1  # Ben's seed awaited
            assert make_due() == 0  # nothing due yet
            all_due()
            assert make_due() == 1  # Ben gave no seed in time: the deal is dealt without it
            dealt = received_until(ws, lambda m: m["obs"] is not None)
            ben_seat = seated_ben["seat"]
            # a decision with one choice is made at once; Ben's others as his time runs
            # out (a computer makes them); Ana plays her own
            timeouts, timed, seq, state = 0, False, dealt["seq"], dealt
            while timeouts < 2:
                assert not state["match"]["over"], "the deal ended first"
                clock, to_act = state["clock"], state["obs"]["to_act"]
                assert clock["seat"] == to_act and clock["away"] == [False, False], state
                forced = clock["due"] - clock["now"] < 10  # due in 3 s, made at once
                if not forced and not timed:  # 30 s, then the bank: 60 s
                    assert clock["due"] - clock["now"] == pytest.approx(90, abs=5), clock
                    timed = True
                if forced:  # made by the server at once: no look needed
                    pass
                elif to_act == ben_seat:
                    timeouts += 1
                    all_due()
                    assert make_due() == 1, state
                else:
                    legal = state["obs"]["legal_actions"]
                    ws.send_text(json.dumps({"type": "act", "action": legal[0], "id": seq}))
                state = received_until(ws, lambda m, s=seq: m["seq"] > s)
                seq = state["seq"]
            assert state["clock"]["away"][ben_seat] is True  # two in a row: away
        with ben.using() as c, c.websocket_connect(f"/ws/{game}") as ws:  # Ben is back
            ws.send_text(json.dumps({"type": "hello", "token": seated_ben["token"]}))
            back = received_until(ws, lambda m: True)
            assert back["clock"]["away"][ben_seat] is False
        # he left that game: once is nothing; twice in a week keeps him out of quick match
        # for five minutes (not from friends' tables)
        ben_id = ben.get("/api/me").json()["id"]
        assert database.query("select game_id from leaves where player_id = %s", ben_id) == [
            (game,)
        ]
        again = ben.post("/api/quick", json={"form": "classic"}).json()
        assert again["status"] == "waiting"
        ben.request("DELETE", f"/api/quick/{again['ticket']}")
        with engine.begin() as conn:
            conn.execute(
                text("insert into leaves values (:p, 'another', :at)"),
                {"p": ben_id, "at": time.time() - 60},
            )
        kept_out = ben.post("/api/quick", json={"form": "classic"})
        assert kept_out.status_code == 403, kept_out.text
        assert "You left 2 quick games this week" in kept_out.json()["error"]
        assert "again in 5 min" in kept_out.json()["error"]
        assert ben.post("/api/games", json={"mode": "friend"}).status_code == 201
        engine.dispose()


def test_table_talk_is_set_phrases_from_the_players_to_everyone(waits: TestClient) -> None:
    """A player's set phrase reaches every connection of the table (its name only: each page
    words it), one every few seconds; a spectator says nothing; an unknown phrase is named."""
    ana, ben = Browser(waits), Browser(waits)
    ticket = ana.post("/api/quick", json={"form": "mexican2"}).json()["ticket"]
    seated_ben = ben.post("/api/quick", json={"form": "mexican2"}).json()
    seated_ana = ana.get(f"/api/quick/{ticket}").json()
    game = seated_ana["game"]
    with (
        ana.using() as client,
        client.websocket_connect(f"/ws/{game}") as wa,
        client.websocket_connect(f"/ws/{game}") as wb,
        client.websocket_connect(f"/ws/{game}") as we,
    ):
        for ws, token in ((wa, seated_ana["token"]), (wb, seated_ben["token"]), (we, None)):
            ws.send_text(
                json.dumps({"type": "hello", "token": token} if token else {"type": "hello"})
            )
            received_until(ws, lambda m: True)
        wa.send_text(json.dumps({"type": "say", "phrase": "nice"}))
        for ws in (wa, wb, we):
            while (msg := json.loads(ws.receive_text()))["type"] != "said":
                assert msg["type"] == "state", msg
            assert msg == {"type": "said", "seat": seated_ana["seat"], "phrase": "nice"}
        wa.send_text(json.dumps({"type": "say", "phrase": "thanks"}))  # too soon
        assert "every 3 seconds" in next_error(wa)
        wb.send_text(json.dumps({"type": "say", "phrase": "rude words"}))
        assert "'phrase' must be one of hello" in next_error(wb)
        we.send_text(json.dumps({"type": "say", "phrase": "hello"}))
        assert "not spectators" in next_error(we)
        wb.send_text(json.dumps({"type": "say", "text": "hola"}))  # a quick table: no text
        assert "set phrases only" in next_error(wb)


def test_free_text_only_at_a_friends_table_whose_host_allows_it(waits: TestClient) -> None:
    """A host may let his friends write to each other (``"chat": true``): a line of at most
    200 characters, trimmed, relayed as written to the table (spectators too); never a
    spectator's, nor control characters; not at a game against the computer."""
    ana, ben = Browser(waits), Browser(waits)
    refused = ana.post("/api/games", json={"mode": "bot", "chat": True})
    assert refused.status_code == 400 and "table of friends" in refused.json()["error"]
    assert ana.post("/api/games", json={"mode": "friend", "chat": 1}).status_code == 400
    made = ana.post("/api/games", json={"mode": "friend", "chat": True}).json()
    joined = ben.post(f"/api/games/{made['id']}/join", json={}).json()
    path = f"/ws/{made['id']}"
    with (
        ana.using() as client,
        client.websocket_connect(path) as wa,
        client.websocket_connect(path) as wb,
        client.websocket_connect(path) as we,
    ):
        for ws, token in ((wa, made["token"]), (wb, joined["token"]), (we, None)):
            ws.send_text(
                json.dumps({"type": "hello", "token": token} if token else {"type": "hello"})
            )
        assert received_until(wa, lambda m: m["obs"] is not None)["game"]["chat"] is True
        wa.send_text(json.dumps({"type": "say", "text": "x" * 201}))
        assert "at most 200 characters" in next_error(wa)
        wa.send_text(json.dumps({"type": "say", "text": "hola\u202e"}))
        assert "plain text" in next_error(wa)
        wa.send_text(json.dumps({"type": "say", "text": "  ¡Órale, <b>suerte</b>!  "}))
        for ws in (wa, wb, we):
            while (msg := json.loads(ws.receive_text()))["type"] != "said":
                assert msg["type"] == "state", msg
            assert msg == {"type": "said", "seat": 0, "text": "¡Órale, <b>suerte</b>!"}
        we.send_text(json.dumps({"type": "say", "text": "hola"}))
        assert "not spectators" in next_error(we)


def next_error(ws: Any) -> str:
    """The words of the next error message (state messages before it passed over)."""
    while True:
        msg: dict[str, Any] = json.loads(ws.receive_text())
        assert msg["type"] in ("state", "error"), msg
        if msg["type"] == "error":
            return str(msg["message"])


def test_a_player_reports_or_blocks_another_by_his_seat_and_the_moderator_reads_it(
    waits: TestClient, database: TestDatabase, capsys: pytest.CaptureFixture[str]
) -> None:
    """A report names a seat of a game the reporter sat at (a game's answers carry no
    player's id); only the table's people report each other; ``conquian moderate`` lists
    the reports with their notes; a report may block too."""
    from conquian.cli import main

    ana, ben, carl = Browser(waits), Browser(waits), Browser(waits)
    ana.post("/api/me", json={"name": "Ana"})
    ben.post("/api/me", json={"name": "Ben"})
    ticket = ana.post("/api/quick", json={"form": "classic"}).json()["ticket"]
    seated_ben = ben.post("/api/quick", json={"form": "classic"}).json()
    game, ben_seat = seated_ben["game"], seated_ben["seat"]
    ana_seat = ana.get(f"/api/quick/{ticket}").json()["seat"]
    at = f"/api/games/{game}/seats"
    for who, seat, body, status, said in (
        (carl, ben_seat, {"reason": "abuse"}, 404, "did not play at that table"),
        (ben, ben_seat, {"reason": "abuse"}, 404, "not another person"),
        (ana, ben_seat, {"reason": "rude"}, 400, "'reason' must be one of cheating"),
        (ana, ben_seat, {"reason": "abuse", "note": "x" * 501}, 400, "500 characters"),
        (ana, 7, {"reason": "abuse"}, 404, "did not play at that table"),
    ):
        refused = who.post(f"{at}/{seat}/report", json=body)
        assert refused.status_code == status and said in refused.json()["error"], refused.text
    made = ana.post(
        f"{at}/{ben_seat}/report",
        json={"reason": "abuse", "note": "  insults at every deal ", "block": True},
    )
    assert made.status_code == 200 and made.json()["blocked"] is True, made.text
    assert [b["name"] for b in ana.get("/api/me/blocks").json()["blocked"]] == ["Ben"]
    assert ben.post(f"{at}/{ana_seat}/block", json={"block": True}).json() == {"blocked": True}
    assert main(["moderate", "--db", database.url]) == 0
    shown = capsys.readouterr().out
    assert "Ana reported Ben [" in shown and f"(abuse), game {game}, seat {ben_seat + 1}" in shown
    assert "note: insults at every deal" in shown


def test_a_friends_table_has_a_clock_only_if_its_host_chose_one(waits: TestClient) -> None:
    """At a friends' table the clock is the host's choice, off by default; a bad choice is
    refused and makes no game."""
    ana, ben = Browser(waits), Browser(waits)
    refused = ana.post("/api/games", json={"mode": "friend", "clock": "yes"})
    assert refused.status_code == 400 and "'clock'" in refused.json()["error"]
    for chosen in (True, False):
        made = ana.post("/api/games", json={"mode": "friend", "clock": chosen}).json()
        joined = ben.post(f"/api/games/{made['id']}/join", json={}).json()
        path = f"/ws/{made['id']}"
        with (
            ana.using() as client,
            client.websocket_connect(path) as wa,
            client.websocket_connect(path) as wb,
        ):
            wa.send_text(json.dumps({"type": "hello", "token": made["token"]}))
            wb.send_text(json.dumps({"type": "hello", "token": joined["token"]}))
            dealt = received_until(wa, lambda m: m["obs"] is not None)
        assert dealt["game"]["clock"] is chosen
        assert ("clock" in dealt) is chosen
        if chosen:
            assert dealt["clock"]["seat"] == dealt["obs"]["to_act"]


def test_a_player_gone_past_his_grace_is_claimed_from_or_replaced_by_a_computer(
    database: TestDatabase,
) -> None:
    """A person with no connection is shown gone to the others, with when his grace ends;
    once it has run out, at a table of two the other may claim the match (a rated win, and a
    leave for the one gone), and at a tercerilla a computer takes his seat until his page
    says hello again.  (Time is made to pass by setting the presence rows back by hand, and
    the looks are made by the test.)"""
    app = create_app(
        database.url,
        bot_delay=0,
        session_secret=SECRET,
        quick_bots_after=3600.0,
        clocks_every=3600.0,
        grace=60.0,
    )
    engine = create_engine(database.url)

    def gone_for(game: str, seat: int, seconds: float) -> None:
        with engine.begin() as conn:
            conn.execute(
                text("update presence set seen = :t where game_id = :g and seat = :s"),
                {"t": time.time() - seconds, "g": game, "s": seat},
            )

    with TestClient(app) as client:
        look = lambda: client.portal.call(app.state.hub.absence.look)  # noqa: E731
        # a table of two: Ben leaves
        ana, ben = Browser(client), Browser(client)
        ticket = ana.post("/api/quick", json={"form": "classic"}).json()["ticket"]
        seated_ben = ben.post("/api/quick", json={"form": "classic"}).json()
        seated_ana = ana.get(f"/api/quick/{ticket}").json()
        game, gone = seated_ana["game"], seated_ben["seat"]
        seated_hello(ben, seated_ben)  # he came, then closed the tab
        with ana.using() as c, c.websocket_connect(f"/ws/{game}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": seated_ana["token"]}))
            received_until(ws, lambda m: m["obs"] is not None)
            look()
            ws.send_text(json.dumps({"type": "claim"}))  # he is here still (just seen)
            assert "has not left the table" in next_error(ws)
            gone_for(game, gone, 10)  # gone, his grace running
            look()
            shown = received_until(ws, lambda m: m["clock"]["gone"][gone] is not None)
            assert shown["clock"]["left"] == [False, False]
            assert shown["clock"]["gone"][gone] == pytest.approx(time.time() + 50, abs=5)
            ws.send_text(json.dumps({"type": "claim"}))
            assert "has not left the table" in next_error(ws)
            gone_for(game, gone, 61)  # his grace ran out
            look()
            received_until(ws, lambda m: m["clock"]["left"][gone])
            ws.send_text(json.dumps({"type": "claim"}))
            over = received_until(ws, lambda m: m["match"]["over"])
            assert over["match"]["abandoned"] == gone and over["match"]["leader"] == 1 - gone
            assert "clock" not in over  # the clock stopped
            # his hand stays his: the deal was left undecided, not shown
            assert over["obs"]["hand"] and "hands" not in json.dumps(over["obs"])
            ws.send_text(json.dumps({"type": "claim"}))
            assert "The match is over" in next_error(ws)
        ana_id, ben_id = (who.get("/api/me").json()["id"] for who in (ana, ben))
        places = dict(
            database.query("select player_id, place from rating_events where game_id = %s", game)
        )
        assert places == {ana_id: 1, ben_id: 2}
        assert database.query("select game_id from leaves where player_id = %s", ben_id) == [
            (game,)
        ]
        assert ana.get(f"/api/games/{game}").json()["status"] == "over"

        # a tercerilla: Cy leaves; a computer takes his seat until he is back
        people = [Browser(client) for _ in range(3)]
        tickets = [p.post("/api/quick", json={"form": "tercerilla"}).json() for p in people]
        seated = [
            p.get(f"/api/quick/{t['ticket']}").json() for p, t in zip(people, tickets, strict=True)
        ]
        game, cy = seated[0]["game"], seated[2]["seat"]
        assert {s["game"] for s in seated} == {game}
        seated_hello(people[2], seated[2])
        with contextlib.ExitStack() as stack:
            sockets = []
            for who, answer in zip(people[:2], seated[:2], strict=True):
                ws = stack.enter_context(who.using()).websocket_connect(f"/ws/{game}")
                ws = stack.enter_context(ws)
                ws.send_text(json.dumps({"type": "hello", "token": answer["token"]}))
                sockets.append(ws)
            for ws in sockets:
                received_until(ws, lambda m: m["obs"] is not None)
            look()
            gone_for(game, cy, 61)
            look()
            for ws in sockets:
                state = received_until(ws, lambda m: m["clock"]["left"][cy])
                assert state["clock"]["away"][cy] is True  # a computer plays for him
            sockets[0].send_text(json.dumps({"type": "claim"}))
            assert "Only a table of two people can be claimed" in next_error(sockets[0])
            assert database.query("select game_id from leaves where game_id = %s", game) == [
                (game,)
            ]
            back = seated_hello(people[2], seated[2])  # he is back: his seat again
            assert back["clock"]["away"][cy] is False
    engine.dispose()
