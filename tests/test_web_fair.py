"""The web server deals by a provably fair shuffle (conquian.fair).

The commitment of each deal's shuffle is published before any player gives a seed; the seeds
stay secret until the deal is over; then the server seed is revealed and anyone can deal the
same deck again: from the state message, from the deal's record, and with ``conquian verify``.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_web_api import game_at, live, receive, seat_socket, states_until
from web_helpers import TestDatabase, assert_secret

from conquian.cli import main
from conquian.fair import commitment, fair_deck
from conquian.records import GameRecord
from conquian.web.app import create_app
from conquian.web.hub import LiveMatch

THREE_DEALS = "standard,match=n_deals,match_target=3"


@pytest.fixture
def client(database: TestDatabase) -> Any:
    with TestClient(create_app(database.url, bot_delay=0)) as c:
        yield c


def hello_with(token: str, seed: str | None) -> str:
    message: dict[str, Any] = {"type": "hello", "token": token}
    if seed is not None:
        message["seed"] = seed
    return json.dumps(message)


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (the computer's moves send states meanwhile)."""
    while True:
        message = receive(ws)
        if message["type"] == kind:
            return message


def dealt_hand(deck: list[int], seat: int, fair: dict[str, Any]) -> set[str]:
    """The cards ``seat`` gets from ``deck``, dealt as the rules deal (packets, left of the
    dealer first)."""
    from conquian.cards import CARDS

    hands: list[set[str]] = [set(), set()]
    receiver, pos = 1 - fair["dealer"], 0
    while pos < 2 * fair["hand_size"]:
        for _ in range(fair["packet"]):
            hands[receiver].add(str(CARDS[deck[pos]]))
            pos += 1
        receiver = 1 - receiver
    return hands[seat]


def play_to_deal_end(
    client: TestClient, ws: Any, game_id: str, rng: random.Random, deal: int
) -> dict[str, Any]:
    """Play random legal moves for seat 0 until deal ``deal`` is over; every message is
    checked against the game as it was (no hidden card, no secret seed)."""
    acted = -1
    while True:
        msg = receive(ws)
        assert msg["type"] == "state", msg
        assert_secret(msg, game_at(client, game_id, msg["seq"]), 0)
        if msg["last"] is not None and msg["last"]["deal"] == deal:
            return msg
        legal = msg["obs"]["legal_actions"]
        if legal and msg["seq"] > acted:  # once per position (a seed also sends the state)
            acted = msg["seq"]
            ws.send_text(json.dumps({"type": "act", "action": rng.choice(legal)}))


def test_a_bot_game_deals_by_the_seeds_and_reveals_the_server_seed_after_the_deal(
    client: TestClient, tmp_path: Path
) -> None:
    made = client.post("/api/games", json={"mode": "bot", "level": "easy", "rules": THREE_DEALS})
    assert made.status_code == 201
    game_id, token, published = made.json()["id"], made.json()["token"], made.json()["shuffle"]
    assert published["deal"] == 1 and len(published["commitment"]) == 64
    seeds = ["5eed" * 8, "c0ffee" * 4]
    rng = random.Random(4)
    with seat_socket(client, game_id) as watcher, client.websocket_connect(f"/ws/{game_id}") as ws:
        ws.send_text(hello_with(token, seeds[0]))
        first = states_until(ws, 0, live(client, game_id), 0)
        assert first["fair"]["current"] == published  # the deal's shuffle is the one published
        nxt = first["fair"]["next"]
        assert nxt["deal"] == 2 and nxt["seeded"] == [False, False]
        hand = set(first["obs"]["hand"])
        # a seed for the next deal, given during this one
        ws.send_text(json.dumps({"type": "seed", "deal": 2, "seed": seeds[1]}))
        end = play_to_deal_end(client, ws, game_id, rng, 1)
        while True:  # the spectator saw every state, none with a secret either
            seen = receive(watcher)
            assert_secret(seen, game_at(client, game_id, seen["seq"]), None)
            if seen["last"] is not None:
                break
    fair = end["last"]["fair"]
    assert fair["commitment"] == published["commitment"]
    server = bytes.fromhex(fair["server_seed"])
    # the commitment bound the seed and the dealer published with it (the audit's M2)
    assert fair["dealer"] == published["dealer"]
    assert commitment(server, published["dealer"], 2) == published["commitment"]
    assert hashlib.sha256(server).hexdigest() != published["commitment"]
    assert fair["client_seeds"] == [seeds[0]]  # the computer's seat adds none
    assert dealt_hand(fair_deck(server, [bytes.fromhex(seeds[0])]), 0, fair) == hand
    assert end["match"]["deal"] == 2  # three deals: the second is dealt at once
    assert end["fair"]["current"]["commitment"] == nxt["commitment"]
    # the deal's record carries the shuffle and checks out, in the program and on the command line
    shuffles = live(client, game_id).shuffles
    assert [s for s in shuffles[2].client_seeds] == [seeds[1], None]
    record = GameRecord.from_game(live(client, game_id).finished[0][0])
    assert record.fair is not None and record.seed is None
    record.verify_shuffle()
    path = tmp_path / "deal1.toml"
    path.write_text(record.dumps())
    assert main(["verify", str(path)]) == 0
    # the second deal comes from its own shuffle, with the seed given for it
    second = live(client, game_id).match.games[1]
    assert second.fair is not None
    assert second.fair.commitment == nxt["commitment"] and second.dealer == nxt["dealer"]
    assert second.fair.client_seeds == (bytes.fromhex(seeds[1]),)
    assert list(second.deck) == second.fair.deck(second.dealer, 2)


def test_a_friend_game_is_dealt_once_both_players_gave_their_seed(client: TestClient) -> None:
    made = client.post("/api/games", json={"mode": "friend", "name": "Ana"}).json()
    joined = client.post(f"/api/games/{made['id']}/join", json={"name": "Ben"}).json()
    assert joined["shuffle"] == made["shuffle"]  # both see the commitment before their seed
    game_id = made["id"]
    with client.websocket_connect(f"/ws/{game_id}") as ana:
        ana.send_text(hello_with(made["token"], "aa" * 16))
        waiting = receive(ana)
        assert waiting["obs"] is None and waiting["fair"]["next"]["seeded"] == [True, False]
        ana.send_text(json.dumps({"type": "act", "action": "decline"}))
        refused = receive(ana)
        assert refused["type"] == "error" and "shuffled" in refused["message"]
        with client.websocket_connect(f"/ws/{game_id}") as ben:
            ben.send_text(hello_with(joined["token"], "bb" * 16))
            dealt = states_until(ben, 0, live(client, game_id), 1)
            assert len(dealt["obs"]["hand"]) == 10
            assert dealt["fair"]["current"]["commitment"] == made["shuffle"]["commitment"]
            assert states_until(ana, 0, live(client, game_id), 0)["obs"]["hand"]
    game = live(client, game_id).game
    assert game.fair is not None
    assert game.fair.client_seeds == (b"\xaa" * 16, b"\xbb" * 16)  # in seat order
    assert list(game.deck) == game.fair.deck(game.dealer, 2)


def test_bad_seeds_get_an_error_and_change_nothing(
    client: TestClient, database: TestDatabase
) -> None:
    made = client.post("/api/games", json={"mode": "bot", "level": "easy"}).json()
    game_id = made["id"]
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": made["token"], "seed": "xyz"}))
        assert "hexadecimal" in next_of(ws, "error")["message"]  # refused: not seated yet
        ws.send_text(hello_with(made["token"], None))  # no seed of its own: still dealt
        states_until(ws, 0, live(client, game_id), 0)
        before = database.query("select deal, client_seeds from deals where game_id = %s", game_id)
        bad: list[tuple[dict[str, Any], str]] = [
            ({"seed": "abc"}, "even number"),
            ({"seed": "00" * 65}, "at most 128"),
            ({"seed": 12}, "hexadecimal text"),
            ({"seed": "01", "deal": 1}, "not for deal 1"),
            ({"seed": "01", "deal": 9}, "not for deal 9"),
            ({"seed": "01", "deal": "2"}, "number of the deal"),
        ]
        for fields, fragment in bad:
            ws.send_text(json.dumps({"type": "seed", **fields}))
            reply = next_of(ws, "error")
            assert fragment in reply["message"], (fields, reply)
        ws.send_text(json.dumps({"type": "seed", "seed": "01"}))
        while not next_of(ws, "state")["fair"]["next"]["seeded"][0]:
            pass
        ws.send_text(json.dumps({"type": "seed", "seed": "02"}))
        assert "already" in next_of(ws, "error")["message"]
        after = database.query("select deal, client_seeds from deals where game_id = %s", game_id)
        assert sorted(after) == sorted(
            [(1, json.dumps(["", None])), (2, json.dumps(["01", None]))]
        ), (before, after)
    with seat_socket(client, game_id) as watcher:
        watcher.send_text(json.dumps({"type": "seed", "seed": "03"}))
        assert "not spectators" in next_of(watcher, "error")["message"]


def test_a_restart_deals_the_same_deck_and_keeps_the_seeds(database: TestDatabase) -> None:
    with TestClient(create_app(database.url, bot_delay=0)) as client:
        made = client.post("/api/games", json={"mode": "bot", "rules": THREE_DEALS}).json()
        with client.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_text(hello_with(made["token"], "12" * 20))
            first = states_until(ws, 0, live(client, made["id"]), 0)
            ws.send_text(json.dumps({"type": "seed", "deal": 2, "seed": "34" * 20}))
            while not receive(ws)["fair"]["next"]["seeded"][0]:  # the computer may move first
                pass
        before: LiveMatch = live(client, made["id"])
    with TestClient(create_app(database.url, bot_delay=0)) as client:  # a new server process
        after = live(client, made["id"])
        assert after is not before and after.game.deck == before.game.deck
        assert after.shuffles == before.shuffles
        with seat_socket(client, made["id"], made["token"]) as ws:
            # the state as loaded, or a later one: the new process moves the computer if
            # it is its turn (it may be answered before the hello is)
            while True:
                again = receive(ws)
                assert again["type"] != "error", again
                if again["type"] == "state":
                    assert_secret(again, after, 0)
                    if again["seq"] >= after.seq and again["obs"] is not None:
                        break
        assert again["fair"]["current"] == first["fair"]["current"]
        assert again["fair"]["next"]["commitment"] == first["fair"]["next"]["commitment"]
        assert again["fair"]["next"]["seeded"] == [True, False]
