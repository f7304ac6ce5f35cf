"""The audit's M1, measured: how long the computer takes to answer in one game while many
connections ask for the review of another game's finished deal.

``python scripts/review_storm.py [--reviews 30] [--moves 12]`` starts ``conquian serve``
(SQLite, no bot delay, no rate limits), plays a one-deal game against the computer to its
end, then measures the computer's answer in a second game (from the acknowledgement of a
move to the state in which it is the person's turn again): first alone, then while
``--reviews`` connections of the finished game's seat each ask for its review (from the
moment one is being worked out).  It prints the longest and the median answer of each, and
when the reviews were answered.  Run it with another
checkout's Python to measure that checkout's server.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from conquian.tools.load import start_server


def post(base: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def new_game(base: str) -> tuple[str, str]:
    made = post(
        base,
        "/api/games",
        {
            "mode": "bot",
            "level": "easy",
            "name": "Ana",
            "rules": "standard,match=n_deals,match_target=1",
        },
    )
    return made["id"], made["token"]


def state(ws: ClientConnection) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=600))
        if msg["type"] == "state":
            return msg


def play(ws: ClientConnection, rng: random.Random, moves: int | None) -> list[float]:
    """Random moves to the end (``moves`` None) or for ``moves`` of the computer's answers;
    the seconds from each acknowledgement to the person's next turn."""
    answers: list[float] = []
    msg, msg_id = state(ws), 0
    while True:
        obs = msg["obs"]
        if obs is None or msg["match"]["over"] or (moves is not None and len(answers) >= moves):
            return answers
        if obs["to_act"] == msg["seat"] and obs["legal_actions"]:
            ws.send(
                json.dumps(
                    {"type": "act", "action": rng.choice(obs["legal_actions"]), "id": msg_id}
                )
            )
            msg = state(ws)
            while msg.get("ack") != msg_id:
                msg = state(ws)
            msg_id += 1
            acked = time.perf_counter()
            if msg["obs"]["to_act"] != msg["seat"] and not msg["match"]["over"]:
                while msg["obs"]["to_act"] != msg["seat"] and not msg["match"]["over"]:
                    msg = state(ws)
                answers.append(time.perf_counter() - acked)
        else:
            msg = state(ws)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reviews", type=int, default=30)
    parser.add_argument("--moves", type=int, default=12)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    proc, base = start_server(
        f"sqlite:///{folder / 'storm.sqlite3'}",
        args=["--rate-limit", "off"],
        log=folder / "server.log",
    )
    ws_base = "ws" + base.removeprefix("http")
    try:
        done_id, done_token = new_game(base)
        with connect(f"{ws_base}/ws/{done_id}") as ws:
            ws.send(json.dumps({"type": "hello", "token": done_token}))
            play(ws, random.Random(1), None)
        alone_id, alone_token = new_game(base)
        with connect(f"{ws_base}/ws/{alone_id}") as ws:
            ws.send(json.dumps({"type": "hello", "token": alone_token}))
            alone = play(ws, random.Random(2), args.moves)
        answered: list[float] = []
        asked = time.perf_counter()
        sent = threading.Semaphore(0)
        working = threading.Event()  # a review is being worked out: the storm is on

        def review() -> None:
            with connect(f"{ws_base}/ws/{done_id}") as ws:
                ws.send(json.dumps({"type": "hello", "token": done_token}))
                ws.send(json.dumps({"type": "review", "deal": 1}))
                sent.release()
                while True:
                    msg = json.loads(ws.recv(timeout=900))
                    if msg["type"] == "review_progress":
                        working.set()
                    if msg["type"] in ("review", "error"):
                        working.set()
                        answered.append(time.perf_counter() - asked)
                        return

        threads = [threading.Thread(target=review) for _ in range(args.reviews)]
        for thread in threads:
            thread.start()
        for _ in threads:
            sent.acquire()
        working.wait()
        busy_id, busy_token = new_game(base)
        with connect(f"{ws_base}/ws/{busy_id}") as ws:
            ws.send(json.dumps({"type": "hello", "token": busy_token}))
            busy = play(ws, random.Random(2), args.moves)
        for thread in threads:
            thread.join()
    finally:
        proc.terminate()
        proc.wait(30)
    print(
        f"the computer's answer alone: longest {max(alone) * 1000:.1f} ms, median "
        f"{statistics.median(alone) * 1000:.1f} ms ({len(alone)} moves)"
    )
    print(
        f"while {args.reviews} reviews are asked: longest {max(busy) * 1000:.1f} ms, median "
        f"{statistics.median(busy) * 1000:.1f} ms ({len(busy)} moves)"
    )
    print(f"the reviews were answered after {min(answered):.1f} to {max(answered):.1f} s")


if __name__ == "__main__":
    main()
