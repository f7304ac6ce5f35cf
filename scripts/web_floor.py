"""The least server CPU a move can cost on the web server's own stack:
python scripts/web_floor.py --db postgresql+psycopg://...

A stand-in server with no game in it: uvicorn with the settings of ``conquian serve`` and a
bare Starlette websocket route, in one process.  Clients connect in pairs (the two seats of
a game).  For each message a seat sends, the server does only what any move must: it reads
the frame and its JSON, runs one asynchronous PostgreSQL statement like a move's (an
INSERT, an UPDATE of the game's row and a ``pg_notify``, through the server's own
:class:`conquian.web.store.AsyncStatements`), and sends both seats a message of a state
message's size (``--size`` bytes of JSON, written by orjson from a dict each time).  No rules,
no views, no words, no second process.

The clients pace themselves like the load script (``--think-ms`` on average before each
message, the two seats taking turns), so the server's CPU per message here is a floor for
``python -m conquian.tools.load``'s CPU per action.  It is a measurement, not a test: it
prints the figures and exits 0.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS floor_games (id varchar PRIMARY KEY, updated double precision);
CREATE TABLE IF NOT EXISTS floor_actions (
    game_id varchar, seq integer, action varchar, at double precision,
    PRIMARY KEY (game_id, seq));
"""

MOVE = """
    WITH new AS (
        INSERT INTO floor_actions (game_id, seq, action, at)
        VALUES (%(game)s, %(seq)s, %(action)s, %(at)s) RETURNING seq
    ), touched AS (
        UPDATE floor_games SET updated = %(at)s WHERE id = %(game)s RETURNING id
    )
    SELECT pg_notify('floor', %(payload)s) FROM new
"""


def serve(db: str, port: int, size: int, workers: int, stack: str, store: bool) -> None:
    """The stand-in server (run in its own process); with ``workers`` above 1, that many
    processes forked on one listening socket, each told of the others' moves by
    PostgreSQL notifications (:class:`conquian.web.notify.Listener`), as ``conquian serve``'s
    workers are.  ``stack``: ``uvicorn`` (the server's own: uvicorn and a Starlette route)
    or ``websockets`` (the websockets library's own asyncio server, no ASGI between the
    socket and the handler); ``store`` false: no statement a move."""
    import orjson
    import psycopg

    from conquian.web.notify import Listener, libpq_url
    from conquian.web.store import AsyncStatements

    with psycopg.connect(libpq_url(db), autocommit=True) as conn:
        conn.execute(SCHEMA)
    statements = AsyncStatements(db)
    seats: dict[str, list[Any]] = {}  # a game's connections: each an ``async send(text)``
    seqs: dict[str, int] = {}
    filler = "x" * max(0, size - 200)
    origin = f"{os.getpid():x}"

    def state(seq: int, ack: Any) -> str:
        message = {"type": "state", "seq": seq, "ack": ack, "filler": filler}
        return str(orjson.dumps(message).decode())

    def heard(game: str, kind: str, number: int, by: str, action: Any) -> None:
        if by != origin and game in seats:
            seqs[game] = number
            for send in seats[game]:
                asyncio.get_running_loop().create_task(send(state(number, None)))

    async def seat(receive: Any, send: Any) -> None:
        """One seat's connection, from its first message (the game) to its end."""
        game = json.loads(await receive())["game"]
        seats.setdefault(game, []).append(send)
        if game not in seqs:
            seqs[game] = 0
            if store:
                await statements.execute(
                    "INSERT INTO floor_games VALUES (%(game)s, 0) ON CONFLICT DO NOTHING",
                    {"game": game},
                )
        await send('{"type": "ready"}')  # a move made from now on reaches this seat
        while True:
            msg = json.loads(await receive())
            seqs[game] += 1
            seq = seqs[game]
            if store:
                await statements.execute(
                    MOVE,
                    {
                        "game": game,
                        "seq": seq,
                        "action": msg["action"],
                        "at": time.time(),
                        "payload": f"{game} a {seq} {origin} 1 0 {msg['action']}",
                    },
                )
            for other in seats[game]:
                await other(state(seq, msg["id"] if other is send else None))

    @contextlib.asynccontextmanager
    async def listening() -> AsyncIterator[None]:
        nonlocal origin
        origin = f"{os.getpid():x}"  # each forked worker its own
        listener = Listener(db, "floor", heard, lambda: None)
        if workers > 1:
            await listener.start()
        yield
        await listener.close()

    run = _uvicorn(seat, listening, port) if stack == "uvicorn" else _websockets(seat, listening)
    sock = socket.create_server(("127.0.0.1", port), backlog=2048)
    for _ in range(workers - 1):
        if os.fork() == 0:
            run(sock)
            os._exit(0)
    run(sock)


def _uvicorn(seat: Any, listening: Any, port: int) -> Any:
    """Serve with uvicorn and a bare Starlette route, with ``conquian serve``'s settings."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    from conquian.web.server import _config

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        async with listening():
            yield

    async def ready(request: Any) -> PlainTextResponse:
        return PlainTextResponse("ok")

    async def connection(ws: WebSocket) -> None:
        await ws.accept()
        with contextlib.suppress(WebSocketDisconnect):
            await seat(ws.receive_text, ws.send_text)

    app = Starlette(
        routes=[Route("/ready", ready), WebSocketRoute("/ws", connection)], lifespan=lifespan
    )
    return lambda sock: uvicorn.Server(_config(app, "127.0.0.1", port)).run(sockets=[sock])


def _websockets(seat: Any, listening: Any) -> Any:
    """Serve with the websockets library's asyncio server, with the same limits and pings."""
    from http import HTTPStatus

    from websockets.asyncio.server import serve as ws_serve
    from websockets.exceptions import ConnectionClosed

    from conquian.web.websocket import MAX_MESSAGE

    def ready(connection: Any, request: Any) -> Any:
        if request.path == "/ready":
            return connection.respond(HTTPStatus.OK, "ok")
        return None

    async def handler(ws: Any) -> None:
        with contextlib.suppress(ConnectionClosed):
            await seat(ws.recv, ws.send)

    async def main(sock: Any) -> None:
        async with (
            listening(),
            ws_serve(
                handler,
                sock=sock,
                process_request=ready,
                compression=None,
                max_size=max(MAX_MESSAGE * 16, 65536),
                ping_interval=20,
            ) as server,
        ):
            await server.serve_forever()

    return lambda sock: asyncio.run(main(sock))


def cpu_seconds(pid: int) -> float:
    """The CPU time of a process and its children still running."""
    from conquian.tools.load import cpu_seconds as of_tree

    return of_tree(pid)


async def play(port: int, games: int, moves: int, think: float, seed: int) -> list[float]:
    """Every game's two seats take turns for ``moves`` messages; the round trips (s)."""
    import websockets

    latencies: list[float] = []

    async def game(number: int) -> None:
        rng = random.Random(seed + number)
        url = f"ws://127.0.0.1:{port}/ws"
        async with (
            websockets.connect(url, compression=None) as a,
            websockets.connect(url, compression=None) as b,
        ):
            for ws in (a, b):
                await ws.send(json.dumps({"game": f"g{seed}-{number}"}))
                await ws.recv()
            for move in range(moves):
                mover, other = (a, b) if move % 2 == 0 else (b, a)
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                began = time.perf_counter()
                await mover.send(json.dumps({"type": "act", "action": "pass", "id": move}))
                json.loads(await mover.recv())
                latencies.append(time.perf_counter() - began)
                json.loads(await other.recv())

    await asyncio.gather(*(game(i) for i in range(games)))
    return latencies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python scripts/web_floor.py", description=__doc__)
    parser.add_argument("--db", required=True, help="a PostgreSQL URL (postgresql+psycopg://...)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=44, help="messages a game (default 44)")
    parser.add_argument("--think-ms", type=float, default=200.0)
    parser.add_argument("--size", type=int, default=2800, help="bytes of a state message")
    parser.add_argument("--port", type=int, default=0, help="default: a free port")
    parser.add_argument("--workers", type=int, default=1, help="server processes (default 1)")
    parser.add_argument(
        "--stack",
        choices=("uvicorn", "websockets"),
        default="uvicorn",
        help="uvicorn and Starlette, as the server (default), or the websockets library alone",
    )
    parser.add_argument("--no-store", action="store_true", help="no PostgreSQL statement a move")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.db, args.port, args.size, args.workers, args.stack, not args.no_store)
        return 0
    if not args.port:
        from conquian.tools.load import free_port

        args.port = free_port()
    command = [sys.executable, __file__, "--serve", "--db", args.db, "--port", str(args.port)]
    # the server and its forked workers form a process group of their own, ended as one
    # (uvicorn re-raises the signal that stopped it, so a worker cannot count on its parent)
    proc = subprocess.Popen(
        [
            *command,
            *("--size", str(args.size), "--workers", str(args.workers), "--stack", args.stack),
            *(["--no-store"] if args.no_store else []),
        ],
        start_new_session=True,
    )
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # ``timeout`` still ends the server
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{args.port}/ready", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    print("the stand-in server did not start", file=sys.stderr)
                    return 1
                time.sleep(0.1)
        before = cpu_seconds(proc.pid)
        seed = int(time.time())
        latencies = asyncio.run(play(args.port, args.games, args.moves, args.think_ms / 1000, seed))
        used = cpu_seconds(proc.pid) - before
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
    latencies.sort()
    count = len(latencies)
    print(
        f"{count} messages ({args.games} games, think time {args.think_ms:g} ms, "
        f"{args.size} bytes a state message, {args.workers} process(es), {args.stack}"
        f"{'' if not args.no_store else ', no statement'}): "
        f"server {used:.2f} s of CPU, "
        f"{1000 * used / count:.3f} ms per message; round trip p50 "
        f"{1000 * latencies[count // 2]:.2f} ms, p99 {1000 * latencies[int(count * 0.99)]:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
