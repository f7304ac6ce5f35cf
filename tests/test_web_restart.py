"""A real server process killed with SIGKILL mid-game resumes every game exactly where it was."""

from __future__ import annotations

import json
import os
import random
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from web_helpers import TestDatabase, check_wire, hello
from websockets.sync.client import ClientConnection, connect

from conquian.tools.load import post, start_server

RECEIVED: list[tuple[int | None, str]] = []
"""Every message the test's sockets received, with the seat, checked for secrets at the end."""


@contextmanager
def seat(ws_base: str, game_id: str, token: str) -> Iterator[ClientConnection]:
    """A websocket playing the seat whose token is ``token`` (sent in the first message)."""
    with connect(f"{ws_base}/ws/{game_id}") as ws:
        ws.send(hello(token))
        yield ws


def state(ws: ClientConnection, seq: int | None = None, seat: int | None = 0) -> dict[str, Any]:
    """The next state message (with sequence number ``seq`` when given)."""
    while True:
        raw = ws.recv(timeout=20)
        assert isinstance(raw, str)
        RECEIVED.append((seat, raw))
        msg: dict[str, Any] = json.loads(raw)
        assert msg["type"] != "error", msg
        dealt = msg.get("obs") is not None  # a friend's game is dealt once both said hello
        if msg["type"] == "state" and dealt and (seq is None or msg["seq"] == seq):
            return msg


def test_kill_9_mid_game_then_resume(tmp_path: Path, database: TestDatabase) -> None:
    """``conquian serve --db URL`` on SQLite, then on PostgreSQL."""
    RECEIVED.clear()
    url = database.url
    proc, base = start_server(url, log=tmp_path / "server.log")
    first = (tmp_path / "server.log").read_text().splitlines()[0]
    assert first.startswith(f"Conquian is served at {base}/")
    ws_base = "ws" + base.removeprefix("http")
    rng = random.Random(7)
    try:
        friend = post(f"{base}/api/games", {"mode": "friend", "name": "Ana"})
        joined = post(f"{base}/api/games/{friend['id']}/join", {"name": "Ben"})
        tokens = [friend["token"], joined["token"]]
        bot = post(f"{base}/api/games", {"mode": "bot", "level": "easy", "name": "Cy"})
        seq = 0
        with (
            seat(ws_base, friend["id"], tokens[0]) as ws0,
            seat(ws_base, friend["id"], tokens[1]) as ws1,
        ):
            views = [state(ws0, 0, 0), state(ws1, 0, 1)]
            for _ in range(9):
                p = views[0]["obs"]["to_act"]
                action = rng.choice(views[p]["obs"]["legal_actions"])
                [ws0, ws1][p].send(json.dumps({"type": "act", "action": action, "id": seq}))
                seq += 1
                views = [state(ws0, seq, 0), state(ws1, seq, 1)]
                assert views[p]["ack"] == seq - 1
        with seat(ws_base, bot["id"], bot["token"]) as ws:
            view = state(ws)
            while not view["obs"]["legal_actions"]:
                view = state(ws)
            ws.send(
                json.dumps({"type": "act", "action": view["obs"]["legal_actions"][-1], "id": 1})
            )
            while view.get("ack") != 1:
                view = state(ws)
            bot_before = view
        # the last acknowledged action is in the database even though the server dies now
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        assert len(database.actions(friend["id"])) == seq
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)

    proc, base = start_server(url)  # a fresh process on the same database
    ws_base = "ws" + base.removeprefix("http")
    try:
        with (
            seat(ws_base, friend["id"], tokens[0]) as ws0,
            seat(ws_base, friend["id"], tokens[1]) as ws1,
        ):
            after = [state(ws0, None, 0), state(ws1, None, 1)]
            for p in (0, 1):
                assert after[p]["seq"] == seq
                for key in ("obs", "log", "match", "takes", "situation"):
                    assert after[p][key] == views[p][key], key
            # and play goes on from there
            p = after[0]["obs"]["to_act"]
            [ws0, ws1][p].send(
                json.dumps({"type": "act", "action": after[p]["obs"]["legal_actions"][0], "id": 99})
            )
            assert state([ws0, ws1][p], seq + 1, p)["ack"] == 99
        with seat(ws_base, bot["id"], bot["token"]) as ws:
            resumed = state(ws)
            assert resumed["obs"]["hand"] == bot_before["obs"]["hand"]
            assert (
                resumed["obs"]["history"][: len(bot_before["obs"]["history"])]
                == (bot_before["obs"]["history"])
            )
    finally:
        proc.terminate()
        proc.wait(10)
    # nothing sent over the sockets, before or after the restart, held a hidden card
    assert check_wire(database, RECEIVED) >= 2 * seq


def test_load_script_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    """A tiny run of the load script: a real server, three games arriving over 0.6 s, every
    action acknowledged."""
    from conquian.tools.load import main

    args = ["--games", "3", "--think-ms", "0", "--ramp", "0.6", "--timeout", "120", "--json"]
    assert main(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games_finished"] == 3 and result["errors"] == 0
    # the third game's players arrived 0.4 s in: every seat was there only from then on
    assert result["ramp_s"] == 0.6 and result["all_in_play"]["from_s"] >= 0.4
    assert result["actions"] >= 3 * 10
    assert (
        0
        < result["latency_ms"]["p50"]
        <= result["latency_ms"]["p99"]
        <= result["latency_ms"]["max"]
    )


def test_load_report_counts_only_the_round_trips_while_every_game_is_in_play() -> None:
    """The ``all_in_play`` figures leave out the actions acknowledged before the last seat
    connected (the arrivals) and after the first game ended (the tail)."""
    from conquian.tools.load import Stats, report

    stats = Stats(start=100.0)
    stats.first_state_at = [100.1, 100.5, 102.0]  # the last seat came in at 2 s
    stats.finished_at = [110.0, 111.0]  # the first game ended at 10 s
    # (acknowledged at, round trip): two arrivals' actions, three in play, one in the tail
    for at, latency in [(100.6, 0.9), (101.9, 0.8), (102.5, 0.01), (105.0, 0.02), (109.9, 0.03)]:
        stats.acked_at.append(at)
        stats.latencies.append(latency)
    stats.acked_at.append(110.5)
    stats.latencies.append(0.7)
    stats.actions = len(stats.latencies)
    both = report(stats, games=2, elapsed=11.0)["all_in_play"]
    assert both["from_s"] == 2.0 and both["to_s"] == 10.0
    assert both["actions"] == 3
    assert both["p50_ms"] == 20.0 and both["p99_ms"] == 30.0
