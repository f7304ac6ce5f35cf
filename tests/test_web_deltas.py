"""State messages with ``deltas``: a client that asks for them in its hello is sent the moves
of the deal (the log in words and the observation's history) only from where its last state
differs, and putting them back together gives exactly the whole lists that a client without
deltas is sent, message by message: through every move of a match of several deals, a change
of language, a spectator, and a connection made again in the middle of a deal."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import TestDatabase, assert_secret, hello

from conquian.tools.load import whole_lists
from conquian.web.app import create_app
from conquian.web.hub import Hub


@pytest.fixture
def client(database: TestDatabase) -> Iterator[TestClient]:
    with TestClient(create_app(database.url, bot_delay=0)) as c:
        yield c


class Socket:
    """A websocket on a game, with or without deltas, that rebuilds each state's lists."""

    def __init__(
        self, stack: ExitStack, client: TestClient, game_id: str, token: str | None, *, deltas: bool
    ) -> None:
        self.ws = stack.enter_context(client.websocket_connect(f"/ws/{game_id}"))
        message = json.loads(hello(token))
        if deltas:
            message["deltas"] = True
        self.ws.send_text(json.dumps(message))
        self.deltas = deltas
        self.last: dict[str, Any] | None = None
        self.sizes: list[int] = []
        self.partial = 0
        """States whose log or history came in part (from an index above 0)."""

    def state(self, seq: int) -> dict[str, Any]:
        """The next dealt state message, its lists whole again; it must have ``seq`` actions."""
        while True:
            raw = self.ws.receive_text()
            msg: dict[str, Any] = json.loads(raw)
            assert msg["type"] != "error", msg
            if msg["type"] != "state":
                continue
            self.sizes.append(len(raw))
            if self.deltas:
                assert "log_from" in msg
                self.partial += bool(msg["log_from"] or msg.get("history_from"))
            else:
                assert "log_from" not in msg and "history_from" not in msg
            whole_lists(msg, self.last)
            self.last = msg
            assert msg["seq"] == seq, (msg["seq"], seq)
            if msg["obs"] is not None:  # (the game before its deal: every player's hello)
                return msg


def lists(msg: dict[str, Any]) -> tuple[Any, Any]:
    return msg["log"], None if msg["obs"] is None else msg["obs"]["history"]


def test_deltas_rebuild_the_whole_lists_of_every_state(client: TestClient) -> None:
    made = client.post(
        "/api/games",
        json={"mode": "friend", "name": "Ana", "rules": "standard,match=n_deals,match_target=3"},
    ).json()
    joined = client.post(f"/api/games/{made['id']}/join", json={"name": "Ben"}).json()
    tokens = [made["token"], joined["token"]]
    rng = random.Random(3)
    with ExitStack() as stack:
        # for each viewer (seat 0, seat 1, a spectator): one socket with deltas, one without
        pairs: dict[int | None, list[Socket]] = {
            viewer: [
                Socket(
                    stack,
                    client,
                    made["id"],
                    None if viewer is None else tokens[viewer],
                    deltas=deltas,
                )
                for deltas in (True, False)
            ]
            for viewer in (0, 1, None)
        }
        seq = 0
        views = {viewer: [s.state(0) for s in pair] for viewer, pair in pairs.items()}
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        live = hub.rooms[made["id"]].live
        deals_seen = set()
        while not views[0][0]["match"]["over"] and seq < 400:
            mover = views[0][0]["obs"]["to_act"]
            legal = views[mover][1]["obs"]["legal_actions"]
            action = rng.choice(legal)
            pairs[mover][0].ws.send_text(json.dumps({"type": "act", "action": action, "id": seq}))
            seq += 1
            for viewer, pair in pairs.items():
                got = [s.state(seq) for s in pair]
                assert lists(got[0]) == lists(got[1]), (viewer, seq)
                same = {"log_from", "history_from", "ack"}
                assert {k: v for k, v in got[0].items() if k not in same} == {
                    k: v for k, v in got[1].items() if k not in same
                }
                if viewer is not None:
                    assert_secret(got[0], live, viewer)
                views[viewer] = got
            if seq == 25:  # a change of language for one viewer's two sockets
                for s in pairs[1]:
                    s.ws.send_text(json.dumps({"type": "lang", "lang": "es"}))
                got = [s.state(seq) for s in pairs[1]]
                assert lists(got[0]) == lists(got[1]) != lists(views[1][1])
                assert got[0]["log_from"] == 0  # the words are all new
                views[1] = got
            deals_seen.add(views[0][0]["match"]["deal"])
            if seq == 40:  # seat 0's delta socket connects again in the middle of a deal
                fresh = Socket(stack, client, made["id"], tokens[0], deltas=True)
                again = fresh.state(seq)
                assert again["log_from"] == 0 and again.get("history_from") == 0
                assert lists(again) == lists(views[0][1])
                pairs[0][0] = fresh
        assert seq > 40 and len(deals_seen) >= 2
        for viewer, (with_deltas, without) in pairs.items():
            # most states came in part, and smaller
            assert with_deltas.partial > len(with_deltas.sizes) // 2, viewer
            mean_with = sum(with_deltas.sizes) / len(with_deltas.sizes)
            assert mean_with < 0.8 * sum(without.sizes) / len(without.sizes), viewer
