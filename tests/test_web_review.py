"""The review of a finished deal over the websocket: a player asks for it, is told how it
progresses, and gets each of his decisions judged (the same review as the command line's
for the deal's record), in his language; a spectator, a deal not yet over and, in a game
without hints, a match not yet over are refused with a message, the connection going on."""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import CARD_TOKEN, forbidden_for, hello, play_to_the_end_of_deal, sqlite_database

from conquian.actions import Action
from conquian.bots.review import Decision, Review, ReviewSettings, review_deals
from conquian.cards import parse_cards_mask
from conquian.notation import parse_position
from conquian.observation import observe
from conquian.present.hints import feed_words
from conquian.present.i18n import speaking
from conquian.present.review import progress_text
from conquian.records import GameRecord
from conquian.rules import Rules
from conquian.web import coach as coach_module
from conquian.web import messages
from conquian.web.app import create_app
from conquian.web.hub import Hub

SAMPLES = 6
"""Sampled deals per decision in these tests (the browser's reviews use more)."""


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(coach_module, "REVIEW_SAMPLES", SAMPLES)
    db = sqlite_database(tmp_path / "games.sqlite3")
    with TestClient(create_app(db.url, bot_delay=0)) as c:
        yield c


def receive(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.receive_text())
    return message


def refused(ws: Any, message: dict[str, Any], fragment: str) -> None:
    ws.send_text(json.dumps(message))
    msg = receive(ws)
    while msg["type"] == "state":
        msg = receive(ws)
    assert msg["type"] == "error", msg
    assert fragment in msg["message"], msg["message"]
    ws.send_text(json.dumps({"type": "ping", "id": 7}))  # the connection goes on
    msg = receive(ws)
    while msg["type"] == "state":  # the computer may be moving in the next deal
        msg = receive(ws)
    assert msg == {"type": "pong", "id": 7}


def ask_review(ws: Any, deal: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    ws.send_text(json.dumps({"type": "review", "deal": deal}))
    progress = []
    while True:
        msg = receive(ws)
        assert msg["type"] != "error", msg
        if msg["type"] == "review_progress":
            progress.append(msg)
        elif msg["type"] == "review":
            return progress, msg


def position_cards(position: str) -> set[str]:
    """The cards a position string (or a field of one) shows."""
    return set(re.findall(r"[A2-7JQK][shdc]", position))


def computer_game(client: TestClient, deals: int, hints: bool = True) -> dict[str, Any]:
    """A match of ``deals`` deals against the easy computer."""
    request = {"mode": "bot", "level": "easy", "name": "Ana", "hints": hints}
    request["rules"] = f"standard,match=n_deals,match_target={deals}"
    made: dict[str, Any] = client.post("/api/games", json=request).json()
    return made


def test_a_player_reviews_the_deal_that_ended(client: TestClient) -> None:
    made = computer_game(client, deals=3)
    game_id = made["id"]
    with client.websocket_connect(f"/ws/{game_id}", headers={"Accept-Language": "es"}) as ws:
        ws.send_text(hello(made["token"]))
        play_to_the_end_of_deal(ws, 1, random.Random(4))
        refused(ws, {"type": "review", "deal": 2}, "La mano 2")  # in Spanish
        refused(ws, {"type": "review", "deal": "1"}, "'deal'")
        progress, review = ask_review(ws, 1)
        # the same review as the command line's, of the deal's record, for seat 0
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        game = hub.rooms[game_id].live.finished[0][0]
        record = GameRecord.from_game(game)
        settings = ReviewSettings(samples=SAMPLES, seed=review["seed"])
        expected = review_deals([record], 0, settings)
        assert [d["played"] for d in review["decisions"]] == [
            str(d.played) for d in expected.decisions
        ]
        assert [d["chance_played"] for d in review["decisions"]] == [
            round(d.chance_played, 4) for d in expected.decisions
        ]
        assert review["summary"] == expected.summary.to_dict()
        assert [(p["done"], p["total"]) for p in progress] == [
            (k, len(expected.decisions)) for k in range(1, len(expected.decisions) + 1)
        ]
        with speaking("es"):
            assert progress[-1]["words"] == progress_text(len(progress), len(progress))
        assert progress[-1]["words"] != progress_text(len(progress), len(progress))  # not English
        judged = [d for d in review["decisions"] if d["legal_count"] > 1]
        assert judged and all(d["words"] for d in judged)
        assert all("words" not in d for d in review["decisions"] if d["legal_count"] == 1)
        for d in review["decisions"]:
            assert 0.0 <= d["chance_played"] <= d["chance_best"] <= 1.0
            assert (d["mark"] is None) == (d.get("mark_word") is None)
        assert review["summary_words"] and review["player"] == 0
        # each decision carries the position the player saw, for the board of a marked one
        for d in review["decisions"]:
            board = d["board"]
            assert d["position"] and board["player"] == 0, d
            assert sorted(board["hand"]) == sorted(position_cards(d["position"].split()[4]))
            assert len(board["tables"]) == len(board["hand_counts"]) == 2
            assert board["hand_counts"][0] == len(board["hand"])
            assert (board["centre"] is None) == (d["centre_words"] is None)
        for d in judged:  # the marked ones among them: the danger of a card given away
            assert (d["feeds"] is None) == (d["feeds_words"] is None)
        # nothing the player could not see then: no card of another hand, none of the stock
        states = [state for _, _, state in record.iter_replay()]
        hidden = [forbidden_for(states[d["index"]], 0) for d in review["decisions"]]
        assert all(hidden[:2]), hidden  # the other hand, the stock, at the start
        for d, secret in zip(review["decisions"], hidden, strict=True):
            shown = set(CARD_TOKEN.findall(json.dumps(d))) | position_cards(d["position"])
            assert not shown & secret, (d["move"], sorted(shown & secret))
        # asked again: the review kept, at once, no progress this time
        again_progress, again = ask_review(ws, 1)
        assert again_progress == [] and again == review
    with client.websocket_connect(f"/ws/{game_id}") as watcher:
        watcher.send_text(hello())
        refused(watcher, {"type": "review", "deal": 1}, "spectators")


def test_without_hints_the_deals_are_reviewed_once_the_match_is_over(
    client: TestClient,
) -> None:
    made = computer_game(client, deals=2, hints=False)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_text(hello(made["token"]))
        rng = random.Random(5)
        play_to_the_end_of_deal(ws, 1, rng)
        refused(ws, {"type": "review", "deal": 1}, "once the match is over")
        ws.send_text(json.dumps({"type": "lang", "lang": "en"}))  # the state again
        ended = play_to_the_end_of_deal(ws, 2, rng)
        assert ended["match"]["over"]
        for deal in (1, 2):
            _, review = ask_review(ws, deal)
            assert review["deal"] == deal and review["decisions"]


def test_reviews_are_shared_kept_bounded_and_never_hold_up_the_computer(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The audit's M1: many connections of one seat asking for one review work it out once,
    in the review thread (never a bot thread), and it is kept after the match leaves memory;
    distinct reviews beyond the bound are refused; a review being worked out does not hold up
    the computer's moves in another match."""
    calls: list[str] = []
    started, release = threading.Event(), threading.Event()
    real = coach_module.review_deals

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(threading.current_thread().name)
        started.set()
        assert release.wait(60)
        return real(*args, **kwargs)

    monkeypatch.setattr(coach_module, "review_deals", counted)
    monkeypatch.setattr(coach_module, "MAX_REVIEWS", 1)
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    made = computer_game(client, deals=1)
    game_id = made["id"]
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        ws.send_text(hello(made["token"]))
        play_to_the_end_of_deal(ws, 1, random.Random(5))
    other = computer_game(client, deals=2)
    seats = [client.websocket_connect(f"/ws/{game_id}") for _ in range(6)]
    for ws in seats:
        ws.__enter__()
        ws.send_text(hello(made["token"]))
        ws.send_text(json.dumps({"type": "review", "deal": 1}))
    assert started.wait(60)
    # the one review allowed is being worked out: another is refused, the computer plays on
    with client.websocket_connect(f"/ws/{other['id']}") as ws:
        ws.send_text(hello(other["token"]))
        play_to_the_end_of_deal(ws, 1, random.Random(6))
        refused(ws, {"type": "review", "deal": 1}, "busy")
    release.set()
    reviews = []
    for ws in seats:
        msg = receive(ws)
        while msg["type"] != "review":
            assert msg["type"] in ("state", "review_progress"), msg
            msg = receive(ws)
        reviews.append(msg)
        ws.__exit__(None, None, None)
    assert calls == ["conquian-review_0"]
    assert all(r == reviews[0] for r in reviews)
    assert game_id not in hub.rooms  # nobody connected: the match left the memory
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        ws.send_text(hello(made["token"]))
        progress, again = ask_review(ws, 1)
    assert progress == [] and again == reviews[0] and len(calls) == 1


def test_a_decision_that_feeds_another_player_says_so_in_his_language() -> None:
    """A blunder that gives away a card that fits the other player's meld: its danger in
    words (the language in use), the card and the meld as cards, that player named as the
    table shows him; its board holds what the player saw, and nothing else."""
    state = parse_position(
        "standard discard 0 0 As5s6h5c JsJhJcQc 3h3d3c/KsKhKdKc AhAdAc/2s3s4s - "
        "Qs2h4h6dQd2c4c 7s7h7d7c5d5h6c6s4dQh2dJd 1"
    )
    obs = observe(state, 0)
    settings = ReviewSettings(samples=4, seed=1)
    decision = Decision(  # judged as a blunder (the chances are made up: only the words count)
        deal=1,
        index=3,
        phase=obs.phase,
        legal_count=len(obs.legal_actions),
        played=Action.parse("discard 5s"),
        best=Action.parse("discard 5c"),
        chance_played=0.2,
        chance_best=0.6,
        table=obs.tables[0],
        observation=obs,
    )
    done = Review(0, ("Ana", "Ben"), "standard", settings, (decision,), 1)
    names = ("Ana", "Computadora (fácil)")
    with speaking("es"):
        said = messages.review(done, 1, Rules(), names)
        expected = feed_words(
            parse_cards_mask("5s").bit_length() - 1,
            names[1],
            parse_cards_mask("2s 3s 4s"),
            4,
            messages.LOOK,
        )
    (item,) = said["decisions"]
    assert item["mark"] == "blunder" and item["mark_word"] and item["words"]
    assert item["feeds"] == {"player": 1, "meld": ["2s", "3s", "4s"], "hand_count": 4}
    assert item["feeds_words"] == messages.segments(expected)
    assert names[1] in "".join(s for s in item["feeds_words"] if isinstance(s, str))
    cards = [s for s in item["feeds_words"] if not isinstance(s, str)]
    assert cards == [{"card": "5s"}, {"card": "2s"}, {"card": "3s"}, {"card": "4s"}]
    board = item["board"]
    assert board["hand"] == ["As", "5s", "6h", "5c"] and board["hand_counts"] == [4, 4]
    assert board["tables"] == [
        [["3h", "3d", "3c"], ["Ks", "Kh", "Kd", "Kc"]],
        [["2s", "3s", "4s"], ["Ah", "Ad", "Ac"]],
    ]
    assert board["centre"] is None and item["centre_words"] is None
    assert item["position"].split()[5] == "*"  # the other hand, hidden
    hidden = forbidden_for(state, 0)
    shown = set(CARD_TOKEN.findall(json.dumps(said))) | position_cards(item["position"])
    leaked = shown & hidden
    assert hidden and not leaked, leaked
