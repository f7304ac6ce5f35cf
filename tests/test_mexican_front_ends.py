"""The Mexican game in the front ends: the terminal and the browser server seat two to four
players (people and bots); the arena plays its two-player form (the exchange included) and
refuses more players with a message naming the rules."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_web_api import game_at, receive
from web_helpers import TestDatabase, assert_secret

from conquian.cli import main
from conquian.web.app import create_app


def conquian(
    *args: str, stdin: str = "", home: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = None
    if home is not None:
        import os

        env = {**os.environ, "XDG_DATA_HOME": str(home), "HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "conquian.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def every_input() -> str:
    """Lines that make some legal move at every prompt: each command word, then every card
    (a lone card chooses the exchange or the discard); anything else is refused and asked
    again."""
    from conquian.cards import card_label

    words = ["take", "1", "decline", "pass", "no"] + [card_label(i, "spanish") for i in range(40)]
    return "\n".join(words * 300) + "\n"


@pytest.mark.parametrize("spec", ["tercerilla", "mexican,num_players=4"])
def test_a_whole_mexican_deal_in_the_terminal_against_bots(spec: str, tmp_path: Path) -> None:
    done = conquian(
        "play",
        "--rules",
        spec,
        "--plain",
        "--seed",
        "5",
        "--level",
        "easy",
        stdin=every_input(),
        home=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Traceback" not in out + done.stderr
    players = 3 if spec == "tercerilla" else 4
    for seat in range(1, players):
        assert f"Bot {seat} (easy)" in out
    assert "on your right, plays after you" in out
    assert "The exchange: choose a card" in out
    assert "Drawn: the stock ran out" in out or "the deal!" in out  # the deal came to its end
    # the record replays, and the saved match resumes with the same seats
    records = sorted((tmp_path / "conquian" / "records").glob("*.toml"))
    assert records
    replayed = conquian("replay", str(records[0]), home=tmp_path)
    assert replayed.returncode == 0 and "Result:" in replayed.stdout
    resumed = conquian("play", "--resume", "--plain", stdin="quit\n", home=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert f"Bot {players - 1} (easy)" in resumed.stdout


def test_the_terminal_plays_the_exchange_of_the_two_player_mexican_game(tmp_path: Path) -> None:
    done = conquian(
        "play",
        "--rules",
        "mexican,num_players=2",
        "--plain",
        "--seed",
        "3",
        "--level",
        "easy",
        stdin="zz\n7b\nq\n",
        home=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "exchange any card of your hand" in out  # the choice is offered in words
    assert "Cannot read" in out or "not" in out  # 'zz' is refused, the game goes on
    # after the exchange the game went on to the first stock card
    assert "turned" in out.split("exchange any card", 1)[1]


def test_the_arena_refuses_more_than_two_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "random", "greedy", "--rules", "tercerilla", "--deals", "2"]) == 1
    assert "seat 3 players" in capsys.readouterr().err


@pytest.fixture
def client(database: TestDatabase) -> Any:
    with TestClient(create_app(database.url, bot_delay=0)) as c:
        yield c


def test_the_web_server_seats_three_or_four_and_plays_the_two_player_exchange(
    client: TestClient,
) -> None:
    three = client.post("/api/games", json={"mode": "bot", "level": "easy", "rules": "tercerilla"})
    assert three.status_code == 201, three.text
    info = client.get(f"/api/games/{three.json()['id']}").json()
    assert info["kinds"] == ["human", "bot", "bot"] and info["names"][1:] == [
        "Computer 1 (easy)",
        "Computer 2 (easy)",
    ]
    friends = client.post(
        "/api/games",
        json={"mode": "friend", "name": "Ana", "rules": "mexican,num_players=4", "public": True},
    )
    game = friends.json()["id"]
    for name in ("Ben", "Cy", "Dee"):  # one invitation link, a seat for each friend
        lobby = client.get("/api/lobby").json()
        assert [g["id"] for g in lobby["open"]] == [game]  # open while a seat is free
        assert client.post(f"/api/games/{game}/join", json={"name": name}).status_code == 200
    lobby = client.get("/api/lobby").json()
    assert not lobby["open"] and lobby["playing"][0]["players"] == ["Ana", "Ben", "Cy", "Dee"]
    full = client.post(f"/api/games/{game}/join", json={"name": "Eve"})
    assert full.status_code == 409 and "Every seat" in full.json()["error"]
    made = client.post(
        "/api/games", json={"mode": "bot", "level": "easy", "rules": "mexican,num_players=2"}
    ).json()
    game_id = made["id"]
    rng = random.Random(2)
    exchanged = False
    acted = -1
    dealt: set[str] | None = None
    swapped: dict[str, Any] | None = None
    with (
        client.websocket_connect(f"/ws/{game_id}") as watcher,
        client.websocket_connect(f"/ws/{game_id}") as ws,
    ):
        watcher.send_text(json.dumps({"type": "hello"}))
        ws.send_text(json.dumps({"type": "hello", "token": made["token"], "seed": "ab" * 8}))
        while True:
            msg = receive(ws)
            assert msg["type"] == "state", msg
            assert_secret(msg, game_at(client, game_id, msg["seq"]), 0)
            if msg["last"] is not None:
                break
            obs = msg["obs"]
            if dealt is None:
                dealt = set(obs["hand"])
            if obs["phase"] != "exchange" and swapped is None:
                swapped = obs["exchange"]
            if swapped is not None:  # the log says who passed you which card (F6)
                told = [json.dumps(line) for line in msg["log"] if "passed you" in json.dumps(line)]
                assert len(told) == 1 and f'"{swapped["received"]}"' in told[0], told
            legal = obs["legal_actions"]
            if legal and msg["seq"] > acted:
                acted = msg["seq"]
                if msg["obs"]["phase"] == "exchange":
                    assert all(a.startswith("exchange ") for a in legal)
                    exchanged = True
                ws.send_text(json.dumps({"type": "act", "action": rng.choice(legal)}))
        seen = 0
        while True:  # the spectator never learns an exchange choice, nor any hand card
            view = receive(watcher)
            assert_secret(view, game_at(client, game_id, view["seq"]), None)
            assert view["obs"] is None or "exchange" not in view["obs"]
            assert "passed you" not in json.dumps(view["log"])
            seen += 1
            if view["last"] is not None:
                break
        assert seen > 3
    assert exchanged and dealt is not None and swapped is not None
    # the card passed was one of the dealt hand, the card received was not
    assert swapped["passed"] in dealt and swapped["received"] not in dealt


def test_a_three_player_hotseat_hides_each_hand_from_the_two_others(tmp_path: Path) -> None:
    lines = "\n".join(["", *every_input().splitlines()[:2000]]) + "\n"
    done = conquian(
        "play",
        "--rules",
        "tercerilla",
        "--plain",
        "--seed",
        "5",
        "--hotseat",
        stdin=lines,
        home=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Pass the device to Player 2." in out
    assert "Player 1 and Player 3, please look away: the next screen shows Player 2's hand." in out
    # each screen between two passes shows one hand only: the table rows of the others have none
    for screen in out.split("Pass the device to ")[1:]:
        shown = screen.split("---", 1)[-1].split("Last moves", 1)[0]
        assert shown.count("hand:") <= 1, shown
